/// \file
/// The sample's mutants as an enum, so that the engine asks `Has(Mutant::kX)` at the one
/// place each bug lives. sample_adapter.h lists them by name (SampleMutants).
#pragma once

#include <optional>
#include <string_view>

namespace ictk::sample {

enum class Mutant {
  kNone,
  kReuseRemovedId,
  kIdNotAboveLast,
  kLastIdNotUpdated,
  kConstraintsOnV3,
  kTwoPksAccepted,
  kDuplicateNameAccepted,
  kFloatKeyAccepted,
  kGeoKeyAccepted,
  kPkAllowsOptional,
  kListKeyAccepted,
  kNameReferenceAccepted,
  kListElementReferenceAccepted,
  kNondeterministicUdfAccepted,
  kUdfCheckKeepsValid,
  kUniqueComparesNulls,
  kThreeValuedNulls,
  kBucketWrongHash,
  kKeysOnlyAmongAdded,
  kKeysBeforeRemovals,
  kModifiedNotRechecked,
  kUnenforcedRejects,
  kRetryAgainstOriginalParent,
  kRetryMissesNewEnforced,
  kStatusesNotRecomputedOnRetry,
  kValidAfterUnverifiedAdds,
  kUnlistedParentValidated,
  kInvalidKeptAfterDelete,
  kStatusListMissingConstraint,
  kStaleIdListed,
  kReaderUnlistedValidated,
  kUpgradePkEnforced,
  kUpgradeFailsOnIneligible,
  kV4SchemaKeepsIdentifiers,
  kReferencedColumnDeletable,
  kCheckFieldPromotable,
  kPkFieldMadeOptional,
  kFieldIdsUpdatable,
  kTimestampNotUpdated,
  kSnapshotTimestampNotIncreasing,
  kTypeNameCaseInsensitive,
  kMissingNameGenerated,
  kMissingEnforcedDefaultsFalse,
  kRenameReassignsId,
  kCheckWithoutExpressionAccepted,
  kKeyExpressionAccepted,
  kEmptyKeyAccepted,
  kDuplicateKeyFieldAccepted,
  kAbsentKeyFieldsAccepted,
  kCheckFieldIdsAccepted,
  kStructKeyAccepted,
  kCollectionKeyAccepted,
  kMapKeyAccepted,
  kDoubleKeyAccepted,
  kGeographyKeyAccepted,
  kUnknownKeyAccepted,
  kPkAllowsOptionalParent,
  kUniqueRejectsOptional,
  kUniqueRejectsOptionalParent,
  kMissingKeyFieldAccepted,
  kUniqueFirstFieldOnly,
  kPkFirstFieldOnly,
  kAddedKeysNotCompared,
  kRetryMissesEnforceChange,
  kUpgradeCreatesNoPk,
  kUpgradeKeepsIneligiblePk,
  kUdfCheckCarriesStatus,
  kMapElementReferenceAccepted,
  kNestedReferencedDeletable,
  kDeleteWithConstraintsRejected,
  kPkParentMadeOptional,
  kTypeUpdatable,
  kExpressionUpdatable,
  kValidatedAfterPartialCheck,
  kIdInTwoLists,
  kReaderDropsConstraints,
  // Constraint-rule clauses that had no mutant (def. key. sem. enf. id. upg. expr. sch.
  // upd. st.).
  kMissingTypeInferred,
  kAbsentLastIdIsOne,
  kIllTypedCheckAccepted,
  kReferencedRenameRefused,
  kReferencedMoveRefused,
  kValidatedCarriedOverAdds,
  kUncheckedRecordedInvalid,
  kStatusesOmittedWithoutAdds,
  kVariantKeyAccepted,
  // The surrounding Iceberg rules (ice.*) and protocol conventions (proto.*).
  kDowngradeAccepted,
  kUnknownVersionIgnored,
  kAddedFieldIdReused,
  kAddedFieldIdNotAboveLast,
  kUnknownColumnRequired,
  kRequiredColumnWithoutDefault,
  kCurrentSchemaIdOffByOne,
  kDefaultSpecIdDangling,
  kDefaultSortOrderDangling,
  kSortOrderZeroSorted,
  kCurrentSnapshotIdOffByOne,
  kMainRefOffByOne,
  kCurrentSnapshotIdLags,
  kLastSequenceNumberStale,
  kTableUuidWithoutDashes,
  kTableUuidRegenerated,
  kNextRowIdBeforeV3,
  kSequenceNumberInV1,
  kLastPartitionIdDropped,
  kLastUpdatedMsAsString,
  kLongBeyond2p53Refused,
  kRejectionNamesAllConstraints,
  kConstraintTimestampFromTableClock,
  kNotLiveRemovalIgnored,
  kUnknownConstraintRemovalIgnored,
  kUnknownSnapshotScansCurrent,
  kLoadAnswerWithoutMetadata,
  kRejectionTouchesTable,
  // The ice.* and proto.* clauses that had a gap (issue 12).
  kIllegalPromotionAccepted,
  kDatePromotionBeforeV3,
  kUnknownFieldChangeSkipped,
  kSiblingNameReused,
  kMoveBesideNonSibling,
  kV3TypeBeforeV3,
  kMissingIdentifierAccepted,
  kNonPrimitiveIdentifierAccepted,
  kFloatIdentifierAccepted,
  kOptionalIdentifierAccepted,
  kRepeatedIdentifierAccepted,
  kIdentifierUnderOptionalAccepted,
  kUnknownTableScansEmpty,
  // Reader-side clauses, each certified under its own profile and switches.
  kReaderAcceptsDuplicateIds,
  kReaderRefusesMissingConstraint,
  kReaderRefusesV4Identifiers,
  kReaderAcceptsUnknownVersion,
  // The last three clause gaps of issue 12 (judge changes).
  kReaderAcceptsMissingIdOrTimestamp,
  kLongBeyond2p53WrittenAsDouble,
  kSnapshotTimestampFromTableClock,
  // The missed bug classes of issue 33.
  kRetryCarriesBaseStatus,
  kReaderStatusByTimestamp,
  // Issue 33: a transaction nested in another's concurrent steps.
  kRetryBlindToOtherTransactions,
};

/// One row of the mutant table.
struct MutantRow {
  Mutant mutant;
  std::string_view name;
  std::string_view rule;
  std::string_view clause;  ///< the clause it ignores, "<rule>/<name>" (rule_clauses.cc)
  std::string_view description;
  /// The profile it is certified under ("" = writer) and its switches, "NAME=VALUE"
  /// joined by "," ("" = the defaults): MutantInfo::profile and ::switches.
  std::string_view profile = {};
  std::string_view switches = {};
};

/// Every mutant (not kNone), in enum order.
const MutantRow* MutantTable(size_t* count);

/// The mutant named `name`, or nullopt.
std::optional<Mutant> ParseMutant(std::string_view name);

}  // namespace ictk::sample
