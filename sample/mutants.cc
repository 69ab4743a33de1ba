/// \file
/// The mutant table: each mutant's name, the rule ID it breaks and its bug in one
/// sentence.
#include <iterator>

#include "sample/mutants_internal.h"
#include "sample/sample_adapter.h"

namespace ictk::sample {
namespace {

constexpr MutantRow kMutants[] = {
    {Mutant::kReuseRemovedId, "reuse-removed-id", "id.no-reuse",
     "assigns a new constraint the highest existing constraint ID + 1, so a removed ID "
     "comes "
     "back"},
    {Mutant::kIdNotAboveLast, "id-not-above-last", "id.above-last",
     "off by one: assigns a new constraint last-constraint-id itself instead of an ID "
     "above it"},
    {Mutant::kLastIdNotUpdated, "last-id-not-updated", "id.update-last",
     "assigns last-constraint-id + 1 but leaves last-constraint-id where it was"},
    {Mutant::kConstraintsOnV3, "constraints-on-v3", "def.v4-only",
     "accepts add-constraint on a v1-v3 table and writes constraints into its metadata"},
    {Mutant::kTwoPksAccepted, "two-pks-accepted", "def.single-pk",
     "accepts a second primary-key constraint"},
    {Mutant::kDuplicateNameAccepted, "duplicate-name-accepted", "def.name-unique",
     "accepts a constraint whose name another constraint of the table already has"},
    {Mutant::kFloatKeyAccepted, "float-key-accepted", "key.no-float-double",
     "accepts float and double fields in unique and primary-key constraints"},
    {Mutant::kGeoKeyAccepted, "geo-key-accepted", "key.no-geo",
     "accepts geometry and geography fields in unique and primary-key constraints"},
    {Mutant::kPkAllowsOptional, "pk-allows-optional", "key.pk-required",
     "accepts an optional field (or one under an optional struct) in a primary key"},
    {Mutant::kListKeyAccepted, "list-key-accepted", "key.not-in-list-map",
     "accepts a key field that sits inside a list or a map"},
    {Mutant::kNameReferenceAccepted, "name-reference-accepted", "expr.id-references",
     "accepts check expressions that reference columns by name, resolving them once"},
    {Mutant::kListElementReferenceAccepted, "list-element-reference-accepted",
     "expr.no-list-map-element",
     "accepts a check that references a field inside a list or a map"},
    {Mutant::kNondeterministicUdfAccepted, "nondeterministic-udf-accepted",
     "expr.deterministic",
     "accepts a check calling a UDF whose current definition is not deterministic"},
    {Mutant::kUdfCheckKeepsValid, "udf-check-keeps-valid", "expr.udf-status",
     "treats a check that calls a UDF like any other: records valid and carries the "
     "parent's "
     "status"},
    {Mutant::kUniqueComparesNulls, "unique-compares-nulls", "sem.unique",
     "compares rows whose unique key has a null field, so two such rows conflict"},
    {Mutant::kThreeValuedNulls, "three-valued-nulls", "sem.check",
     "evaluates checks with SQL three-valued logic: a comparison with null is unknown, "
     "and "
     "an unknown check passes"},
    {Mutant::kBucketWrongHash, "bucket-wrong-hash", "sem.check",
     "computes bucket(N, v) from v's in-memory hash instead of Iceberg's Murmur3"},
    {Mutant::kKeysOnlyAmongAdded, "keys-only-among-added", "enf.keys-against-remaining",
     "checks unique and primary keys only among the added rows, not against the table"},
    {Mutant::kKeysBeforeRemovals, "keys-before-removals", "enf.keys-against-remaining",
     "checks added keys against the parent's rows before applying the commit's removals"},
    {Mutant::kModifiedNotRechecked, "modified-not-rechecked", "enf.modified-row",
     "does not check modified rows against any constraint"},
    {Mutant::kUnenforcedRejects, "unenforced-rejects", "enf.not-enforced",
     "rejects commits whose rows break a constraint that is not enforced"},
    {Mutant::kRetryAgainstOriginalParent, "retry-against-original-parent",
     "enf.retry-keys-new-parent",
     "on retry, checks added keys against the transaction's base instead of the new "
     "parent"},
    {Mutant::kRetryMissesNewEnforced, "retry-misses-new-enforced",
     "enf.retry-new-constraints",
     "on retry, enforces only the constraints that were enforced at the transaction's "
     "base"},
    {Mutant::kStatusesNotRecomputedOnRetry, "statuses-not-recomputed-on-retry",
     "enf.retry-recompute-statuses",
     "on retry, writes the constraint-statuses computed against the transaction's base"},
    {Mutant::kValidAfterUnverifiedAdds, "valid-after-unverified-adds", "st.valid",
     "when the parent is validated or valid, skips checking added rows against "
     "constraints "
     "that are not enforced, yet records valid"},
    {Mutant::kUnlistedParentValidated, "unlisted-parent-validated", "st.valid",
     "takes a constraint the parent snapshot does not list (added since, or a snapshot "
     "from "
     "before the upgrade) as validated there, so it records valid after verified adds"},
    {Mutant::kInvalidKeptAfterDelete, "invalid-kept-after-delete", "st.invalid",
     "carries invalid over a commit that removed rows"},
    {Mutant::kStatusListMissingConstraint, "status-list-missing-constraint",
     "st.exactly-one-list", "omits unvalidated constraints from constraint-statuses"},
    {Mutant::kStaleIdListed, "stale-id-listed", "st.exactly-one-list",
     "keeps a removed constraint's ID in the next snapshot's constraint-statuses"},
    {Mutant::kReaderUnlistedValidated, "reader-unlisted-validated", "st.reader-lookup",
     "a reader takes a constraint missing from every status list as validated"},
    {Mutant::kUpgradePkEnforced, "upgrade-pk-enforced", "upg.pk-from-identifiers",
     "the primary key made from identifier-field-ids on upgrade is enforced"},
    {Mutant::kUpgradeFailsOnIneligible, "upgrade-fails-on-ineligible",
     "upg.skip-ineligible",
     "rejects the upgrade when an identifier field cannot be a primary-key field"},
    {Mutant::kV4SchemaKeepsIdentifiers, "v4-schema-keeps-identifiers",
     "upg.no-identifiers-in-v4",
     "a schema added to a v4 table keeps the previous schema's identifier-field-ids"},
    {Mutant::kReferencedColumnDeletable, "referenced-column-deletable",
     "sch.remove-referenced", "deletes a column that a remaining constraint references"},
    {Mutant::kCheckFieldPromotable, "check-field-promotable", "sch.check-no-type-change",
     "allows type promotion of a field that a check constraint references"},
    {Mutant::kPkFieldMadeOptional, "pk-field-made-optional", "sch.pk-stays-required",
     "allows make-optional on a primary-key field"},
    {Mutant::kFieldIdsUpdatable, "field-ids-updatable", "upd.definition-immutable",
     "update-constraint changes field-ids in place"},
    {Mutant::kTimestampNotUpdated, "timestamp-not-updated", "upd.timestamp",
     "update-constraint keeps the old timestamp-ms"},
    {Mutant::kSnapshotTimestampNotIncreasing, "snapshot-timestamp-not-increasing",
     "ice.v4-snapshot-timestamps",
     "a transaction's snapshot takes the clock of its staged commit, not of finish"},
    {Mutant::kReaderDropsConstraints, "reader-drops-constraints", "def.reader-preserves",
     "parse-metadata writes v4 metadata back without constraints, last-constraint-id "
     "and constraint-statuses, as a reader that knows nothing of constraints does"},
};

}  // namespace

const MutantRow* MutantTable(size_t* count) {
  *count = std::size(kMutants);
  return kMutants;
}

std::optional<Mutant> ParseMutant(std::string_view name) {
  for (const MutantRow& row : kMutants)
    if (row.name == name) return row.mutant;
  return std::nullopt;
}

}  // namespace ictk::sample

namespace ictk {

const std::vector<MutantInfo>& SampleMutants() {
  static const std::vector<MutantInfo> kInfos = [] {
    std::vector<MutantInfo> out;
    for (const auto& row : sample::kMutants) {
      out.push_back(
          {std::string(row.name), std::string(row.rule), std::string(row.description)});
    }
    return out;
  }();
  return kInfos;
}

}  // namespace ictk
