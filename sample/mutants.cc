/// \file
/// The mutant table: each mutant's name, the rule ID it breaks and its bug in one
/// sentence.
#include <iterator>
#include <map>

#include "sample/mutants_internal.h"
#include "sample/mutant_info.h"

namespace ictk::sample {
namespace {

constexpr MutantRow kMutants[] = {
    {Mutant::kReuseRemovedId, "reuse-removed-id", "id.no-reuse", "id.no-reuse/whole",
     "assigns a new constraint the highest existing constraint ID + 1, so a removed ID "
     "comes "
     "back"},
    {Mutant::kIdNotAboveLast, "id-not-above-last", "id.above-last", "id.above-last/whole",
     "off by one: assigns a new constraint last-constraint-id itself instead of an ID "
     "above it"},
    {Mutant::kLastIdNotUpdated, "last-id-not-updated", "id.update-last", "id.update-last/whole",
     "assigns last-constraint-id + 1 but leaves last-constraint-id where it was"},
    {Mutant::kConstraintsOnV3, "constraints-on-v3", "def.v4-only", "def.v4-only/whole",
     "accepts add-constraint on a v1-v3 table and writes constraints into its metadata"},
    {Mutant::kTwoPksAccepted, "two-pks-accepted", "def.single-pk", "def.single-pk/whole",
     "accepts a second primary-key constraint"},
    {Mutant::kDuplicateNameAccepted, "duplicate-name-accepted", "def.name-unique", "def.name-unique/unique",
     "accepts a constraint whose name another constraint of the table already has"},
    {Mutant::kFloatKeyAccepted, "float-key-accepted", "key.no-float-double", "key.no-float-double/float",
     "accepts float fields in unique and primary-key constraints"},
    {Mutant::kGeoKeyAccepted, "geo-key-accepted", "key.no-geo", "key.no-geo/geometry",
     "accepts geometry fields in unique and primary-key constraints"},
    {Mutant::kPkAllowsOptional, "pk-allows-optional", "key.pk-required", "key.pk-required/own-flag",
     "accepts an optional field in a primary key (one under an optional struct is still refused)"},
    {Mutant::kListKeyAccepted, "list-key-accepted", "key.not-in-list-map", "key.not-in-list-map/list",
     "accepts a key field that sits inside a list (one inside a map is still refused)"},
    {Mutant::kNameReferenceAccepted, "name-reference-accepted", "expr.id-references", "expr.id-references/whole",
     "accepts check expressions that reference columns by name, resolving them once"},
    {Mutant::kListElementReferenceAccepted, "list-element-reference-accepted", "expr.no-list-map-element", "expr.no-list-map-element/list",
     "accepts a check that references a field inside a list (one inside a map is still refused)"},
    {Mutant::kNondeterministicUdfAccepted, "nondeterministic-udf-accepted", "expr.deterministic", "expr.deterministic/whole",
     "accepts a check calling a UDF whose current definition is not deterministic"},
    {Mutant::kUdfCheckKeepsValid, "udf-check-keeps-valid", "expr.udf-status", "expr.udf-status/not-valid",
     "treats a check that calls a UDF like any other: records valid and carries the "
     "parent's "
     "status"},
    {Mutant::kUniqueComparesNulls, "unique-compares-nulls", "sem.unique", "sem.unique/nulls-not-compared",
     "compares rows whose unique key has a null field, so two such rows conflict"},
    {Mutant::kThreeValuedNulls, "three-valued-nulls", "sem.check", "sem.check/whole",
     "evaluates checks with SQL three-valued logic: a comparison with null is unknown, "
     "and "
     "an unknown check passes"},
    {Mutant::kBucketWrongHash, "bucket-wrong-hash", "sem.check", "sem.check/whole",
     "computes bucket(N, v) from v's in-memory hash instead of Iceberg's Murmur3"},
    {Mutant::kKeysOnlyAmongAdded, "keys-only-among-added", "enf.keys-against-remaining", "enf.keys-against-remaining/against-remaining",
     "checks unique and primary keys only among the added rows, not against the table"},
    {Mutant::kKeysBeforeRemovals, "keys-before-removals", "enf.keys-against-remaining", "enf.keys-against-remaining/after-removals",
     "checks added keys against the parent's rows before applying the commit's removals"},
    {Mutant::kModifiedNotRechecked, "modified-not-rechecked", "enf.modified-row", "enf.modified-row/whole",
     "does not check modified rows against any constraint"},
    {Mutant::kUnenforcedRejects, "unenforced-rejects", "enf.not-enforced", "enf.not-enforced/whole",
     "rejects commits whose rows break a constraint that is not enforced"},
    {Mutant::kRetryAgainstOriginalParent, "retry-against-original-parent", "enf.retry-keys-new-parent", "enf.retry-keys-new-parent/whole",
     "on retry, checks added keys against the transaction's base instead of the new "
     "parent"},
    {Mutant::kRetryMissesNewEnforced, "retry-misses-new-enforced", "enf.retry-new-constraints", "enf.retry-new-constraints/added",
     "on retry, ignores the enforced constraints that a concurrent commit added (those "
     "that existed at the transaction's base are checked as they are now)"},
    {Mutant::kStatusesNotRecomputedOnRetry, "statuses-not-recomputed-on-retry", "enf.retry-recompute-statuses", "enf.retry-recompute-statuses/whole",
     "on retry, writes the constraint-statuses computed against the transaction's base"},
    {Mutant::kValidAfterUnverifiedAdds, "valid-after-unverified-adds", "st.valid", "st.valid/adds-verified",
     "when the parent is validated or valid, skips checking added rows against "
     "constraints "
     "that are not enforced, yet records valid"},
    {Mutant::kUnlistedParentValidated, "unlisted-parent-validated", "st.valid", "st.valid/parent",
     "takes a constraint the parent snapshot does not list (added since, or a snapshot "
     "from "
     "before the upgrade) as validated there, so it records valid after verified adds"},
    {Mutant::kInvalidKeptAfterDelete, "invalid-kept-after-delete", "st.invalid", "st.invalid/carried",
     "carries invalid over a commit that removed rows"},
    {Mutant::kStatusListMissingConstraint, "status-list-missing-constraint", "st.exactly-one-list", "st.exactly-one-list/every-existing", "omits unvalidated constraints from constraint-statuses"},
    {Mutant::kStaleIdListed, "stale-id-listed", "st.exactly-one-list", "st.exactly-one-list/every-existing",
     "keeps a removed constraint's ID in the next snapshot's constraint-statuses"},
    {Mutant::kReaderUnlistedValidated, "reader-unlisted-validated", "st.reader-lookup", "st.reader-lookup/whole",
     "a reader takes a constraint missing from every status list as validated"},
    {Mutant::kUpgradePkEnforced, "upgrade-pk-enforced", "upg.pk-from-identifiers", "upg.pk-from-identifiers/not-enforced",
     "the primary key made from identifier-field-ids on upgrade is enforced"},
    {Mutant::kUpgradeFailsOnIneligible, "upgrade-fails-on-ineligible", "upg.skip-ineligible", "upg.skip-ineligible/continues",
     "rejects the upgrade when an identifier field cannot be a primary-key field"},
    {Mutant::kV4SchemaKeepsIdentifiers, "v4-schema-keeps-identifiers", "upg.no-identifiers-in-v4", "upg.no-identifiers-in-v4/whole",
     "a schema added to a v4 table keeps the previous schema's identifier-field-ids"},
    {Mutant::kReferencedColumnDeletable, "referenced-column-deletable", "sch.remove-referenced", "sch.remove-referenced/rejected", "deletes a column that a remaining constraint references"},
    {Mutant::kCheckFieldPromotable, "check-field-promotable", "sch.check-no-type-change", "sch.check-no-type-change/whole",
     "allows type promotion of a field that a check constraint references"},
    {Mutant::kPkFieldMadeOptional, "pk-field-made-optional", "sch.pk-stays-required", "sch.pk-stays-required/own-flag",
     "allows make-optional on a primary-key field"},
    {Mutant::kFieldIdsUpdatable, "field-ids-updatable", "upd.definition-immutable", "upd.definition-immutable/field-ids",
     "update-constraint changes field-ids in place"},
    {Mutant::kTimestampNotUpdated, "timestamp-not-updated", "upd.timestamp", "upd.timestamp/whole",
     "update-constraint keeps the old timestamp-ms"},
    {Mutant::kSnapshotTimestampNotIncreasing, "snapshot-timestamp-not-increasing", "ice.v4-snapshot-timestamps", "ice.v4-snapshot-timestamps/whole",
     "a transaction's snapshot retried onto a parent snapshot written after its staged "
     "commit takes the clock of the staged commit, not of finish"},
    // One mutant per clause (rule_clauses.cc) that the older mutants did not cover.
    {Mutant::kTypeNameCaseInsensitive, "type-name-case-insensitive", "def.types",
     "def.types/whole", "reads the constraint type case-insensitively, so `Unique` is a unique"},
    {Mutant::kMissingNameGenerated, "missing-name-generated", "def.required-fields",
     "def.required-fields/name", "gives a constraint added without a name a generated one"},
    {Mutant::kMissingEnforcedDefaultsFalse, "missing-enforced-defaults-false",
     "def.required-fields", "def.required-fields/enforced",
     "takes a constraint added without enforced as not enforced"},
    {Mutant::kRenameReassignsId, "rename-reassigns-id", "def.name-unique",
     "def.name-unique/not-identifier",
     "identifies constraints by name, so a rename makes a new constraint with a new ID"},
    {Mutant::kCheckWithoutExpressionAccepted, "check-without-expression-accepted",
     "def.check-expression", "def.check-expression/required-for-check",
     "accepts a check without an expression (and never evaluates it)"},
    {Mutant::kKeyExpressionAccepted, "key-expression-accepted", "def.check-expression",
     "def.check-expression/absent-for-others",
     "accepts a unique or primary-key constraint that carries an expression"},
    {Mutant::kEmptyKeyAccepted, "empty-key-accepted", "def.key-field-ids",
     "def.key-field-ids/at-least-one", "accepts a key constraint whose field-ids is []"},
    {Mutant::kDuplicateKeyFieldAccepted, "duplicate-key-field-accepted", "def.key-field-ids",
     "def.key-field-ids/no-duplicates", "accepts a field ID listed twice in field-ids"},
    {Mutant::kAbsentKeyFieldsAccepted, "absent-key-fields-accepted", "def.key-field-ids",
     "def.key-field-ids/required-for-keys",
     "accepts a unique or primary-key constraint without field-ids"},
    {Mutant::kCheckFieldIdsAccepted, "check-field-ids-accepted", "def.key-field-ids",
     "def.key-field-ids/absent-for-check", "accepts a check that also sets field-ids"},
    {Mutant::kStructKeyAccepted, "struct-key-accepted", "key.primitive-only",
     "key.primitive-only/struct", "accepts a struct field as a key field"},
    {Mutant::kCollectionKeyAccepted, "collection-key-accepted", "key.primitive-only",
     "key.primitive-only/list-or-map", "accepts a list or a map field as a key field"},
    {Mutant::kMapKeyAccepted, "map-key-accepted", "key.not-in-list-map",
     "key.not-in-list-map/map",
     "accepts a key field that sits inside a map (one inside a list is still refused)"},
    {Mutant::kDoubleKeyAccepted, "double-key-accepted", "key.no-float-double",
     "key.no-float-double/double",
     "accepts double fields in unique and primary-key constraints"},
    {Mutant::kGeographyKeyAccepted, "geography-key-accepted", "key.no-geo",
     "key.no-geo/geography",
     "accepts geography fields in unique and primary-key constraints"},
    {Mutant::kUnknownKeyAccepted, "unknown-key-accepted", "key.no-unknown",
     "key.no-unknown/whole", "accepts fields of type unknown in unique and primary keys"},
    {Mutant::kPkAllowsOptionalParent, "pk-allows-optional-parent", "key.pk-required",
     "key.pk-required/optional-parent",
     "checks only a primary-key field's own required flag, not its enclosing structs"},
    {Mutant::kUniqueRejectsOptional, "unique-rejects-optional", "key.unique-optional-ok",
     "key.unique-optional-ok/own-flag",
     "applies the primary key's required rule to unique constraints too"},
    {Mutant::kUniqueRejectsOptionalParent, "unique-rejects-optional-parent",
     "key.unique-optional-ok", "key.unique-optional-ok/optional-parent",
     "refuses a unique field under an optional struct"},
    {Mutant::kMissingKeyFieldAccepted, "missing-key-field-accepted", "sch.referenced-exist",
     "sch.referenced-exist/whole",
     "accepts a key constraint naming a field ID the schema does not have"},
    {Mutant::kUniqueFirstFieldOnly, "unique-first-field-only", "sem.unique",
     "sem.unique/distinct",
     "compares a composite unique key by its first field only"},
    {Mutant::kPkFirstFieldOnly, "pk-first-field-only", "sem.primary-key",
     "sem.primary-key/distinct", "compares a composite primary key by its first field only"},
    {Mutant::kAddedKeysNotCompared, "added-keys-not-compared", "enf.keys-against-remaining",
     "enf.keys-against-remaining/among-added",
     "checks added keys against the remaining rows but not among the added rows"},
    {Mutant::kRetryMissesEnforceChange, "retry-misses-enforce-change",
     "enf.retry-new-constraints", "enf.retry-new-constraints/changed-to-enforced",
     "on retry, takes each constraint's enforced flag from the transaction's base"},
    {Mutant::kUpgradeCreatesNoPk, "upgrade-creates-no-pk", "upg.pk-from-identifiers",
     "upg.pk-from-identifiers/single-pk",
     "drops identifier-field-ids on the upgrade to v4 without making a primary key"},
    {Mutant::kUpgradeKeepsIneligiblePk, "upgrade-keeps-ineligible-pk", "upg.skip-ineligible",
     "upg.skip-ineligible/no-constraint",
     "makes the primary key on upgrade even when an identifier field is ineligible"},
    {Mutant::kUdfCheckCarriesStatus, "udf-check-carries-status", "expr.udf-status",
     "expr.udf-status/no-carry",
     "carries a UDF check's validated or valid status over a commit that adds no rows"},
    {Mutant::kMapElementReferenceAccepted, "map-element-reference-accepted",
     "expr.no-list-map-element", "expr.no-list-map-element/map",
     "accepts a check that references a field inside a map (one inside a list is still "
     "refused)"},
    {Mutant::kNestedReferencedDeletable, "nested-referenced-deletable",
     "sch.remove-referenced", "sch.remove-referenced/nested",
     "checks only the deleted field IDs themselves, so deleting the struct that holds a "
     "referenced field passes"},
    {Mutant::kDeleteWithConstraintsRejected, "delete-with-constraints-rejected",
     "sch.remove-referenced", "sch.remove-referenced/unless-removed",
     "checks a deletion against the constraints before the change removes them"},
    {Mutant::kPkParentMadeOptional, "pk-parent-made-optional", "sch.pk-stays-required",
     "sch.pk-stays-required/optional-parent",
     "checks only a primary-key field's own flag, so its struct may become optional"},
    {Mutant::kTypeUpdatable, "type-updatable", "upd.name-enforced-only",
     "upd.name-enforced-only/whole", "update-constraint changes the type in place"},
    {Mutant::kExpressionUpdatable, "expression-updatable", "upd.definition-immutable",
     "upd.definition-immutable/expression",
     "update-constraint changes a check's expression in place"},
    {Mutant::kValidatedAfterPartialCheck, "validated-after-partial-check", "st.validated",
     "st.validated/checked-holds",
     "records validated when the added rows hold, without checking the others"},
    {Mutant::kIdInTwoLists, "id-in-two-lists", "st.exactly-one-list",
     "st.exactly-one-list/one-list",
     "lists an invalid constraint under unvalidated as well"},
    {Mutant::kReaderDropsConstraints, "reader-drops-constraints", "def.reader-preserves",
     "def.reader-preserves/whole",
     "parse-metadata writes v4 metadata back without constraints, last-constraint-id "
     "and constraint-statuses, as a reader that knows nothing of constraints does"},
    // The constraint-rule clauses (def. key. sem. enf. id. upg. expr. sch. upd. st.) that
    // had no mutant.
    {Mutant::kMissingTypeInferred, "missing-type-inferred", "def.required-fields",
     "def.required-fields/type",
     "takes a constraint added without a type as a check when it has an expression, else "
     "as a unique"},
    {Mutant::kAbsentLastIdIsOne, "absent-last-id-one", "id.last-default-zero",
     "id.last-default-zero/whole",
     "on the upgrade to v4, takes the absent last-constraint-id as 1 instead of 0"},
    {Mutant::kIllTypedCheckAccepted, "ill-typed-check-accepted", "expr.well-typed",
     "expr.well-typed/whole",
     "binds a literal that does not fit a string field as the string of its text, so "
     "`name > 5` is accepted"},
    {Mutant::kReferencedRenameRefused, "referenced-rename-refused", "sch.rename-reorder",
     "sch.rename-reorder/rename", "refuses to rename a field that a constraint references"},
    {Mutant::kReferencedMoveRefused, "referenced-move-refused", "sch.rename-reorder",
     "sch.rename-reorder/reorder", "refuses to move a field that a constraint references"},
    {Mutant::kValidatedCarriedOverAdds, "validated-carried-over-adds", "st.validated",
     "st.validated/carried",
     "carries a validated status over a commit that adds rows, without checking the added "
     "rows against a constraint that is not enforced"},
    {Mutant::kUncheckedRecordedInvalid, "unchecked-recorded-invalid", "st.invalid",
     "st.invalid/checked",
     "records invalid, not unvalidated, for a constraint whose added rows hold but whose "
     "other rows it did not check"},
    {Mutant::kStatusesOmittedWithoutAdds, "statuses-omitted-without-adds",
     "st.every-snapshot", "st.every-snapshot/whole",
     "writes no constraint-statuses in the snapshot of a commit that adds no rows"},
    {Mutant::kVariantKeyAccepted, "variant-key-accepted", "key.primitive-only",
     "key.primitive-only/variant", "accepts a variant field as a key field"},
    // The surrounding Iceberg rules (ice.*) and protocol conventions (proto.*), one
    // mutant per clause the judge checks (rule_clauses.cc).
    {Mutant::kDowngradeAccepted, "downgrade-accepted", "ice.format-version-up",
     "ice.format-version-up/up", "upgrade to a lower format version sets it"},
    {Mutant::kUnknownVersionIgnored, "unknown-version-ignored", "ice.format-version-up",
     "ice.format-version-up/known-target",
     "answers an upgrade to a format version it does not know ok, changing nothing"},
    {Mutant::kAddedFieldIdReused, "added-field-id-reused", "ice.field-ids-unique",
     "ice.field-ids-unique/whole",
     "a column added by update-schema takes the highest field ID already in use"},
    {Mutant::kAddedFieldIdNotAboveLast, "added-field-id-not-above-last",
     "ice.schema-evolution", "ice.schema-evolution/new-ids-above-last",
     "counts a new column's ID from the current schema's highest ID, not from "
     "last-column-id, so a deleted column's ID comes back"},
    {Mutant::kUnknownColumnRequired, "unknown-column-required", "ice.unknown-optional",
     "ice.unknown-optional/whole", "adds a column of type unknown as required"},
    {Mutant::kRequiredColumnWithoutDefault, "required-column-without-default",
     "ice.required-needs-default", "ice.required-needs-default/whole",
     "adds a required column without an initial default to a table that has rows"},
    {Mutant::kCurrentSchemaIdOffByOne, "current-schema-id-off-by-one",
     "ice.current-schema-exists", "ice.current-schema-exists/whole",
     "after update-schema, current-schema-id names one past the schema it added"},
    {Mutant::kDefaultSpecIdDangling, "default-spec-id-dangling", "ice.default-spec-exists",
     "ice.default-spec-exists/whole",
     "create-table writes default-spec-id 1 beside the one spec, 0"},
    {Mutant::kDefaultSortOrderDangling, "default-sort-order-dangling",
     "ice.default-sort-order-exists", "ice.default-sort-order-exists/whole",
     "create-table writes default-sort-order-id 1 without that sort order"},
    {Mutant::kSortOrderZeroSorted, "sort-order-zero-sorted", "ice.sort-order-zero-unsorted",
     "ice.sort-order-zero-unsorted/whole",
     "create-table writes a sort order by the first column under the reserved order ID 0"},
    {Mutant::kCurrentSnapshotIdOffByOne, "current-snapshot-id-off-by-one",
     "ice.current-snapshot-exists", "ice.current-snapshot-exists/whole",
     "a commit's current-snapshot-id names one past the highest snapshot ID"},
    {Mutant::kMainRefOffByOne, "main-ref-off-by-one", "ice.refs-snapshot-exist",
     "ice.refs-snapshot-exist/whole",
     "a commit moves the main branch to one past the highest snapshot ID"},
    {Mutant::kCurrentSnapshotIdLags, "current-snapshot-id-lags", "ice.current-snapshot-main",
     "ice.current-snapshot-main/whole",
     "a commit moves the main branch to the new snapshot but leaves current-snapshot-id "
     "at its parent"},
    {Mutant::kLastSequenceNumberStale, "last-sequence-number-stale",
     "ice.sequence-number-bound", "ice.sequence-number-bound/whole",
     "a commit gives its snapshot the next sequence number but writes last-sequence-number "
     "one below it"},
    {Mutant::kTableUuidWithoutDashes, "table-uuid-without-dashes", "ice.table-uuid",
     "ice.table-uuid/is-uuid", "create-table writes the table UUID as 32 hex digits"},
    {Mutant::kTableUuidRegenerated, "table-uuid-regenerated", "ice.table-uuid",
     "ice.table-uuid/identifies-the-table",
     "an upgrade gives the table a new UUID, as if it were a new table"},
    {Mutant::kNextRowIdBeforeV3, "next-row-id-before-v3", "ice.fields-by-version",
     "ice.fields-by-version/v3-members",
     "create-table writes next-row-id into v1 and v2 metadata too"},
    {Mutant::kSequenceNumberInV1, "sequence-number-in-v1", "ice.fields-by-version",
     "ice.fields-by-version/v1-sequence-number",
     "create-table writes last-sequence-number into v1 metadata too"},
    {Mutant::kLastPartitionIdDropped, "last-partition-id-dropped", "ice.metadata-required",
     "ice.metadata-required/whole",
     "load-table answers v2+ metadata without last-partition-id"},
    {Mutant::kLastUpdatedMsAsString, "last-updated-ms-as-string", "ice.metadata-shape",
     "ice.metadata-shape/whole", "load-table writes last-updated-ms as a string of digits"},
    {Mutant::kLongBeyond2p53Refused, "long-beyond-2p53-refused", "ice.single-value",
     "ice.single-value/reads",
     "reads JSON numbers as doubles and refuses a commit whose rows carry an integer "
     "beyond +-2^53"},
    {Mutant::kRejectionNamesAllConstraints, "rejection-names-all-constraints",
     "proto.rejection-constraint-ids", "proto.rejection-constraint-ids/only-about",
     "every rejection names every constraint of the table in constraint-ids"},
    {Mutant::kConstraintTimestampFromTableClock, "constraint-timestamp-from-table-clock",
     "proto.timestamp-from-now", "proto.timestamp-from-now/constraint-added-or-updated",
     "a constraint added or updated takes the table's last-updated-ms as its timestamp-ms, "
     "not now-ms"},
    {Mutant::kNotLiveRemovalIgnored, "not-live-removal-ignored", "proto.request",
     "proto.request/malformed",
     "a commit removing a row that is not live is accepted, that removal skipped"},
    {Mutant::kUnknownConstraintRemovalIgnored, "unknown-constraint-removal-ignored",
     "proto.request", "proto.request/unknown-constraint",
     "remove-constraint of a name the table does not have answers ok"},
    {Mutant::kUnknownSnapshotScansCurrent, "unknown-snapshot-scans-current",
     "proto.request", "proto.request/unknown-snapshot",
     "a scan of a snapshot the table does not have answers the current rows"},
    {Mutant::kLoadAnswerWithoutMetadata, "load-answer-without-metadata", "proto.answer",
     "proto.answer/carries-what-was-asked",
     "answers load-table ok without the metadata"},
    {Mutant::kRejectionTouchesTable, "rejection-touches-table", "proto.answer",
     "proto.answer/rejected-changes-nothing",
     "allocates a new constraint's ID before validating it, so a rejected add-constraint "
     "still raises last-constraint-id"},
    // The ice.* and proto.* clauses that had no generator step and no mutant.
    {Mutant::kIllegalPromotionAccepted, "illegal-promotion-accepted", "ice.type-promotion",
     "ice.type-promotion/legal-only",
     "update-schema changes a primitive column to any primitive type (long to int, double "
     "to float), keeping only the format-version condition of date to timestamp"},
    {Mutant::kDatePromotionBeforeV3, "date-promotion-before-v3", "ice.type-promotion",
     "ice.type-promotion/by-version",
     "promotes date to timestamp whatever the format version, not only from v3"},
    {Mutant::kUnknownFieldChangeSkipped, "unknown-field-change-skipped",
     "ice.schema-evolution", "ice.schema-evolution/existing-fields",
     "skips a schema change that names a field ID the schema does not have and applies "
     "the rest"},
    {Mutant::kSiblingNameReused, "sibling-name-reused", "ice.schema-evolution",
     "ice.schema-evolution/unique-sibling-names",
     "renames or adds a field to a name one of its siblings already has"},
    {Mutant::kMoveBesideNonSibling, "move-beside-non-sibling", "ice.schema-evolution",
     "ice.schema-evolution/moves-among-siblings",
     "a move relative to a field that is not a sibling moves the field first among its "
     "siblings instead of being refused"},
    {Mutant::kV3TypeBeforeV3, "v3-type-before-v3", "ice.types-by-version",
     "ice.types-by-version/whole",
     "accepts unknown, timestamp_ns, timestamptz_ns, geometry, geography and variant "
     "fields in v1 and v2 schemas"},
    {Mutant::kMissingIdentifierAccepted, "missing-identifier-accepted",
     "ice.identifier-fields", "ice.identifier-fields/exist",
     "accepts identifier-field-ids that name a field the schema does not have"},
    {Mutant::kNonPrimitiveIdentifierAccepted, "non-primitive-identifier-accepted",
     "ice.identifier-fields", "ice.identifier-fields/primitive",
     "accepts a struct, list or map field as an identifier field"},
    {Mutant::kFloatIdentifierAccepted, "float-identifier-accepted", "ice.identifier-fields",
     "ice.identifier-fields/not-float-double",
     "accepts a float or double field as an identifier field"},
    {Mutant::kOptionalIdentifierAccepted, "optional-identifier-accepted",
     "ice.identifier-fields", "ice.identifier-fields/required",
     "accepts an optional field as an identifier field"},
    {Mutant::kRepeatedIdentifierAccepted, "repeated-identifier-accepted",
     "ice.identifier-fields", "ice.identifier-fields/not-in-list-map",
     "accepts a field inside a list or a map as an identifier field"},
    {Mutant::kIdentifierUnderOptionalAccepted, "identifier-under-optional-accepted",
     "ice.identifier-fields", "ice.identifier-fields/not-under-optional-struct",
     "accepts an identifier field nested in an optional struct"},
    {Mutant::kUnknownTableScansEmpty, "unknown-table-scans-empty", "proto.request",
     "proto.request/unknown-table",
     "a scan of a table it does not have answers ok with no rows"},
    // Reader-side clauses: catchable under the profile and switches each declares.
    {Mutant::kReaderAcceptsDuplicateIds, "reader-accepts-duplicate-ids", "def.id-unique",
     "def.id-unique/whole",
     "a strict v4 reader that refuses invalid metadata, except two constraints sharing "
     "one ID",
     "v4-reader", "invalid-metadata-on-read=reject"},
    {Mutant::kReaderRefusesMissingConstraint, "reader-refuses-missing-constraint",
     "id.readers-tolerate-missing", "id.readers-tolerate-missing/whole",
     "a reader refuses metadata whose snapshot lists a constraint ID that is not in "
     "constraints",
     "v4-reader", ""},
    {Mutant::kReaderRefusesV4Identifiers, "reader-refuses-v4-identifiers",
     "upg.readers-ignore-identifiers", "upg.readers-ignore-identifiers/whole",
     "a reader refuses v4 metadata whose schemas carry identifier-field-ids",
     "v4-reader", ""},
    {Mutant::kReaderAcceptsUnknownVersion, "reader-accepts-unknown-version",
     "ice.format-version-known", "ice.format-version-known/whole",
     "parse-metadata reads a format version above 4 as v4", "v4-reader", ""},
    // The last clause gaps of issue 12, each closed by a judge change.
    {Mutant::kReaderAcceptsMissingIdOrTimestamp, "reader-accepts-missing-id-or-timestamp",
     "def.required-fields", "def.required-fields/stored-id-and-timestamp",
     "a strict v4 reader that refuses invalid metadata, except a stored constraint "
     "without constraint-id or timestamp-ms",
     "v4-reader", "invalid-metadata-on-read=reject"},
    {Mutant::kLongBeyond2p53WrittenAsDouble, "long-beyond-2p53-written-as-double",
     "ice.single-value", "ice.single-value/writes",
     "writes the integers of scan answers through a double and back, so a long beyond "
     "+-2^53 comes back rounded to the nearest double (2^53 + 1 as 2^53)"},
    {Mutant::kSnapshotTimestampFromTableClock, "snapshot-timestamp-from-table-clock",
     "proto.timestamp-from-now", "proto.timestamp-from-now/every-timestamp",
     "a new snapshot takes its timestamp-ms from the table's own clock (the table's "
     "last-updated-ms + 1), not from now-ms"},
    // The missed bug classes of issue 33.
    {Mutant::kRetryCarriesBaseStatus, "retry-carries-base-status",
     "enf.retry-recompute-statuses", "enf.retry-recompute-statuses/whole",
     "on retry, verifies the rows against the new parent but takes each constraint's "
     "parent status (what a commit that adds no rows carries over, what valid needs) from "
     "the transaction's base"},
    {Mutant::kReaderStatusByTimestamp, "reader-status-by-timestamp",
     "def.timestamp-informational", "def.timestamp-informational/applies",
     "a reader takes a constraint whose timestamp-ms is after the snapshot's as not "
     "applying to that snapshot, and reads it unvalidated",
     "v4-reader", ""},
    {Mutant::kRetryBlindToOtherTransactions, "retry-blind-to-other-transactions",
     "enf.retry-keys-new-parent", "enf.retry-keys-new-parent/whole",
     "counts only plain commits as concurrent: when every commit since a transaction "
     "began was another transaction's finish, checks the retried keys against the "
     "transaction's base instead of the new parent"},
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
  // The mutants whose bug breaks a second clause of their rule as well.
  static const std::map<std::string_view, std::vector<std::string>> kAlsoBreaks = {
      // "applies the primary key's required rule to unique constraints too": both halves
      // of "may be optional or nested in optional structs".
      {"unique-rejects-optional", {"key.unique-optional-ok/optional-parent"}},
      // No check of deleted fields at all: a referenced field deleted itself or with the
      // struct that holds it ("or its struct").
      {"referenced-column-deletable", {"sch.remove-referenced/nested"}},
      // "treats a check that calls a UDF like any other: records valid and carries the
      // parent's status".
      {"udf-check-keeps-valid", {"expr.udf-status/no-carry"}},
      // Comparing by the first field only also compares rows whose other key fields are
      // null ("a row in which any field in the set is null is not compared").
      {"unique-first-field-only", {"sem.unique/nulls-not-compared"}},
  };
  static const std::vector<MutantInfo> kInfos = [] {
    std::vector<MutantInfo> out;
    for (const auto& row : sample::kMutants) {
      MutantInfo info{std::string(row.name), std::string(row.rule),
                      std::string(row.description), std::string(row.clause)};
      info.profile = std::string(row.profile);
      std::string_view rest = row.switches;
      while (!rest.empty()) {
        const size_t comma = rest.find(',');
        info.switches.emplace_back(rest.substr(0, comma));
        rest = comma == std::string_view::npos ? std::string_view() : rest.substr(comma + 1);
      }
      if (auto it = kAlsoBreaks.find(row.name); it != kAlsoBreaks.end())
        info.also_clauses = it->second;
      out.push_back(std::move(info));
    }
    return out;
  }();
  return kInfos;
}

}  // namespace ictk
