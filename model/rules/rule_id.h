/// \file
/// Stable rule IDs of SPEC.md (and the surrounding Iceberg rules, `ice.*`) as an enum.
/// Add IDs at the end of their group, never renumber; `RuleIdName` gives the dotted form.
/// The full catalogue (quoted sentence, who it binds, the functions that check it) is in
/// rule_catalogue.h.
#pragma once

#include <optional>
#include <string_view>

namespace ictk {

enum class RuleId {
  kDefV4Only,  ///< def.v4-only
  kDefTypes,  ///< def.types
  kDefByFieldId,  ///< def.by-field-id
  kDefRequiredFields,  ///< def.required-fields
  kDefIdUnique,  ///< def.id-unique
  kDefNameUnique,  ///< def.name-unique
  kDefCheckExpression,  ///< def.check-expression
  kDefKeyFieldIds,  ///< def.key-field-ids
  kDefTimestampInformational,  ///< def.timestamp-informational
  kDefSinglePk,  ///< def.single-pk
  kDefEvolveIndependently,  ///< def.evolve-independently
  kKeyPrimitiveOnly,  ///< key.primitive-only
  kKeyNotInListMap,  ///< key.not-in-list-map
  kKeyNoFloatDouble,  ///< key.no-float-double
  kKeyNoGeo,  ///< key.no-geo
  kKeyNoUnknown,  ///< key.no-unknown
  kKeyPkRequired,  ///< key.pk-required
  kKeyUniqueOptionalOk,  ///< key.unique-optional-ok
  kSemLiveRows,  ///< sem.live-rows
  kSemCheck,  ///< sem.check
  kSemUnique,  ///< sem.unique
  kSemPrimaryKey,  ///< sem.primary-key
  kEnfEnforced,  ///< enf.enforced
  kEnfNotEnforced,  ///< enf.not-enforced
  kEnfModifiedRow,  ///< enf.modified-row
  kEnfKeysAgainstRemaining,  ///< enf.keys-against-remaining
  kEnfRetryEnforced,  ///< enf.retry-enforced
  kEnfRetryCheck,  ///< enf.retry-check
  kEnfRetryKeysNewParent,  ///< enf.retry-keys-new-parent
  kEnfRetryNewConstraints,  ///< enf.retry-new-constraints
  kEnfRetryRecomputeStatuses,  ///< enf.retry-recompute-statuses
  kEnfUntrusted,  ///< enf.untrusted
  kIdLastDefaultZero,  ///< id.last-default-zero
  kIdAboveLast,  ///< id.above-last
  kIdUpdateLast,  ///< id.update-last
  kIdNoReuse,  ///< id.no-reuse
  kIdReadersTolerateMissing,  ///< id.readers-tolerate-missing
  kUpgPkFromIdentifiers,  ///< upg.pk-from-identifiers
  kUpgSkipIneligible,  ///< upg.skip-ineligible
  kUpgNoIdentifiersInV4,  ///< upg.no-identifiers-in-v4
  kUpgReadersIgnoreIdentifiers,  ///< upg.readers-ignore-identifiers
  kExprIdReferences,  ///< expr.id-references
  kExprRowLocal,  ///< expr.row-local
  kExprNoListMapElement,  ///< expr.no-list-map-element
  kExprDeterministic,  ///< expr.deterministic
  kExprUdfStatus,  ///< expr.udf-status
  kSchRenameReorder,  ///< sch.rename-reorder
  kSchReferencedExist,  ///< sch.referenced-exist
  kSchRemoveReferenced,  ///< sch.remove-referenced
  kSchCheckNoTypeChange,  ///< sch.check-no-type-change
  kSchKeyPromotionOk,  ///< sch.key-promotion-ok
  kSchPkStaysRequired,  ///< sch.pk-stays-required
  kUpdNameEnforcedOnly,  ///< upd.name-enforced-only
  kUpdTimestamp,  ///< upd.timestamp
  kUpdDefinitionImmutable,  ///< upd.definition-immutable
  kStValidated,  ///< st.validated
  kStValid,  ///< st.valid
  kStInvalid,  ///< st.invalid
  kStUnvalidated,  ///< st.unvalidated
  kStExactlyOneList,  ///< st.exactly-one-list
  kStSound,  ///< st.sound
  kStEnforcementSeparate,  ///< st.enforcement-separate
  kStEverySnapshot,  ///< st.every-snapshot
  kStReaderLookup,  ///< st.reader-lookup
  kStNoAddCarry,  ///< st.no-add-carry
  kIceV4SnapshotTimestamps,  ///< ice.v4-snapshot-timestamps
  kIceFormatVersionUp,  ///< ice.format-version-up
  kIceTypePromotion,  ///< ice.type-promotion
  kIceFieldIdsUnique,  ///< ice.field-ids-unique
  kIceUnknownOptional,  ///< ice.unknown-optional
  kIceRequiredNeedsDefault,  ///< ice.required-needs-default
  kExprWellTyped,  ///< expr.well-typed
  kProtoRequest,  ///< proto.request
  kProtoAnswer,  ///< proto.answer
  kIceSchemaEvolution,  ///< ice.schema-evolution
  kIceFormatVersionKnown,  ///< ice.format-version-known
  kIceMetadataRequired,  ///< ice.metadata-required
  kIceTableUuid,  ///< ice.table-uuid
  kIceFieldsByVersion,  ///< ice.fields-by-version
  kIceTypesByVersion,  ///< ice.types-by-version
  kIceIdentifierFields,  ///< ice.identifier-fields
  kIceCurrentSchemaExists,  ///< ice.current-schema-exists
  kIceDefaultSpecExists,  ///< ice.default-spec-exists
  kIceDefaultSortOrderExists,  ///< ice.default-sort-order-exists
  kIceSortOrderZeroUnsorted,  ///< ice.sort-order-zero-unsorted
  kIceCurrentSnapshotExists,  ///< ice.current-snapshot-exists
  kIceRefsSnapshotExist,  ///< ice.refs-snapshot-exist
  kIceCurrentSnapshotMain,  ///< ice.current-snapshot-main
  kIceSequenceNumberBound,  ///< ice.sequence-number-bound
  kProtoRejectionConstraintIds,  ///< proto.rejection-constraint-ids
  kIceSingleValue,  ///< ice.single-value
  kProtoTimestampFromNow,  ///< proto.timestamp-from-now
  kProtoDeclaredVersions,  ///< proto.declared-versions
  kDefReaderPreserves,  ///< def.reader-preserves
  kIceMetadataShape,  ///< ice.metadata-shape
};

/// The dotted rule ID, e.g. "id.above-last".
std::string_view RuleIdName(RuleId id);
/// Inverse of RuleIdName.
std::optional<RuleId> ParseRuleId(std::string_view name);

/// Every rule ID in catalogue order.
inline constexpr RuleId kAllRuleIds[] = {
    RuleId::kDefV4Only,
    RuleId::kDefTypes,
    RuleId::kDefByFieldId,
    RuleId::kDefRequiredFields,
    RuleId::kDefIdUnique,
    RuleId::kDefNameUnique,
    RuleId::kDefCheckExpression,
    RuleId::kDefKeyFieldIds,
    RuleId::kDefTimestampInformational,
    RuleId::kDefSinglePk,
    RuleId::kDefEvolveIndependently,
    RuleId::kKeyPrimitiveOnly,
    RuleId::kKeyNotInListMap,
    RuleId::kKeyNoFloatDouble,
    RuleId::kKeyNoGeo,
    RuleId::kKeyNoUnknown,
    RuleId::kKeyPkRequired,
    RuleId::kKeyUniqueOptionalOk,
    RuleId::kSemLiveRows,
    RuleId::kSemCheck,
    RuleId::kSemUnique,
    RuleId::kSemPrimaryKey,
    RuleId::kEnfEnforced,
    RuleId::kEnfNotEnforced,
    RuleId::kEnfModifiedRow,
    RuleId::kEnfKeysAgainstRemaining,
    RuleId::kEnfRetryEnforced,
    RuleId::kEnfRetryCheck,
    RuleId::kEnfRetryKeysNewParent,
    RuleId::kEnfRetryNewConstraints,
    RuleId::kEnfRetryRecomputeStatuses,
    RuleId::kEnfUntrusted,
    RuleId::kIdLastDefaultZero,
    RuleId::kIdAboveLast,
    RuleId::kIdUpdateLast,
    RuleId::kIdNoReuse,
    RuleId::kIdReadersTolerateMissing,
    RuleId::kUpgPkFromIdentifiers,
    RuleId::kUpgSkipIneligible,
    RuleId::kUpgNoIdentifiersInV4,
    RuleId::kUpgReadersIgnoreIdentifiers,
    RuleId::kExprIdReferences,
    RuleId::kExprRowLocal,
    RuleId::kExprNoListMapElement,
    RuleId::kExprDeterministic,
    RuleId::kExprUdfStatus,
    RuleId::kSchRenameReorder,
    RuleId::kSchReferencedExist,
    RuleId::kSchRemoveReferenced,
    RuleId::kSchCheckNoTypeChange,
    RuleId::kSchKeyPromotionOk,
    RuleId::kSchPkStaysRequired,
    RuleId::kUpdNameEnforcedOnly,
    RuleId::kUpdTimestamp,
    RuleId::kUpdDefinitionImmutable,
    RuleId::kStValidated,
    RuleId::kStValid,
    RuleId::kStInvalid,
    RuleId::kStUnvalidated,
    RuleId::kStExactlyOneList,
    RuleId::kStSound,
    RuleId::kStEnforcementSeparate,
    RuleId::kStEverySnapshot,
    RuleId::kStReaderLookup,
    RuleId::kStNoAddCarry,
    RuleId::kIceV4SnapshotTimestamps,
    RuleId::kIceFormatVersionUp,
    RuleId::kIceTypePromotion,
    RuleId::kIceFieldIdsUnique,
    RuleId::kIceUnknownOptional,
    RuleId::kIceRequiredNeedsDefault,
    RuleId::kExprWellTyped,
    RuleId::kProtoRequest,
    RuleId::kProtoAnswer,
    RuleId::kIceSchemaEvolution,
    RuleId::kIceFormatVersionKnown,
    RuleId::kIceMetadataRequired,
    RuleId::kIceTableUuid,
    RuleId::kIceFieldsByVersion,
    RuleId::kIceTypesByVersion,
    RuleId::kIceIdentifierFields,
    RuleId::kIceCurrentSchemaExists,
    RuleId::kIceDefaultSpecExists,
    RuleId::kIceDefaultSortOrderExists,
    RuleId::kIceSortOrderZeroUnsorted,
    RuleId::kIceCurrentSnapshotExists,
    RuleId::kIceRefsSnapshotExist,
    RuleId::kIceCurrentSnapshotMain,
    RuleId::kIceSequenceNumberBound,
    RuleId::kProtoRejectionConstraintIds,
    RuleId::kIceSingleValue,
    RuleId::kProtoTimestampFromNow,
    RuleId::kProtoDeclaredVersions,
    RuleId::kDefReaderPreserves,
    RuleId::kIceMetadataShape,
};

}  // namespace ictk
