/// \file
/// The table of what Judge checks of an answer (JudgeChecks, outcome.h): each check's
/// name, the rules it reports under and what it checks.
#include "model/judge/outcome.h"

namespace ictk {

const std::vector<JudgeCheckInfo>& JudgeChecks() {
  using C = JudgeCheck;
  static const std::vector<JudgeCheckInfo> table = {
      {C::kResult, "result", "the rules that decided; proto.answer",
       "the answer is ok, rejected or refused as the allowed outcome says"},
      {C::kErrorKind, "error-kind", "the rules that decided",
       "a rejection's kind is one some cause of the request allows"},
      {C::kRejectionConstraintIds, "rejection-constraint-ids",
       "proto.rejection-constraint-ids",
       "a rejection's constraint-ids name only constraints it is about"},
      {C::kRejectedStateUnchanged, "rejected-state-unchanged", "proto.answer",
       "load-table after a rejection answers the metadata before it"},
      {C::kSingleValue, "single-value", "ice.single-value",
       "a refusal of a well-formed request carrying a legal extreme value"},
      {C::kMetadataShape, "metadata-shape", "ice.metadata-shape",
       "the answer's metadata decodes as Iceberg table metadata"},
      {C::kFormatVersion, "format-version", "ice.format-version-up; proto.answer",
       "the metadata's format-version"},
      {C::kV4OnlyFieldsAbsent, "v4-only-fields-absent", "def.v4-only",
       "v1-v3 metadata carries no constraints, last-constraint-id or statuses"},
      {C::kConstraintPresent, "constraint-present",
       "the constraint's rule; proto.answer; upg.skip-ineligible",
       "each expected constraint is there, and no other"},
      {C::kConstraintDefinition, "constraint-definition",
       "the constraint's rule; upd.definition-immutable",
       "type, enforced, expression and field-ids as expected"},
      {C::kConstraintIdKept, "constraint-id-kept", "the constraint's rule",
       "an existing constraint keeps its ID (also through a rename)"},
      {C::kNewConstraintId, "new-constraint-id", "id.above-last; def.required-fields",
       "a new constraint has an ID above the previous last-constraint-id"},
      {C::kIdNoReuse, "id-no-reuse", "id.no-reuse", "a new ID is not a removed one"},
      {C::kLastConstraintId, "last-constraint-id", "id.update-last",
       "last-constraint-id is the highest ID assigned"},
      {C::kTimestampChanged, "timestamp-changed", "upd.timestamp",
       "an updated constraint has a new timestamp-ms"},
      {C::kTimestampFromNow, "timestamp-from-now",
       "proto.timestamp-from-now; upg.pk-from-identifiers",
       "an added or updated constraint, and the upgrade's pk, take the request's now-ms; "
       "so do the snapshot a request creates and the last-updated-ms of a request that "
       "changes the table"},
      {C::kUpgradePrimaryKey, "upgrade-primary-key", "upg.pk-from-identifiers",
       "an upgrade to v4 makes identifier-field-ids a primary key that is not enforced"},
      {C::kCurrentSnapshotKept, "current-snapshot-kept", "proto.answer",
       "a request that makes no snapshot leaves the current snapshot"},
      {C::kSnapshotParent, "snapshot-parent",
       "proto.answer; enf.retry-recompute-statuses",
       "a new current snapshot whose parent is the previous current one"},
      {C::kSnapshotOperation, "snapshot-operation", "proto.answer",
       "the new snapshot's summary operation"},
      {C::kSnapshotTimestamps, "snapshot-timestamps", "ice.v4-snapshot-timestamps",
       "a v4 snapshot's timestamp-ms is above its parent's"},
      {C::kStatusLists, "status-lists",
       "st.every-snapshot; st.exactly-one-list",
       "the new snapshot lists every constraint once and no removed one"},
      {C::kStatusAllowed, "status-allowed", "st.*; expr.udf-status",
       "each listed status is one the snapshot allows"},
      {C::kIdsAtMostLast, "ids-at-most-last", "id.update-last",
       "no constraint ID is above last-constraint-id"},
      {C::kNoIdentifiersInV4, "no-identifiers-in-v4", "upg.no-identifiers-in-v4",
       "no schema added to a v4 table carries identifier-field-ids"},
      {C::kReferencedFieldsExist, "referenced-fields-exist", "sch.referenced-exist",
       "every field a constraint references is in the current schema"},
      {C::kNewCurrentSchema, "new-current-schema", "ice.schema-evolution",
       "a schema change makes a new current schema"},
      {C::kSchemaFields, "schema-fields",
       "ice.schema-evolution; ice.type-promotion; sch.rename-reorder",
       "the current schema's fields as the change asked (JudgeSchemaFields)"},
      {C::kLiveRows, "live-rows", "sem.live-rows; ice.single-value",
       "a scan answers the live rows (a row wrong only in values at a type extreme: "
       "ice.single-value)"},
      {C::kReaderStatuses, "reader-statuses",
       "st.reader-lookup; id.readers-tolerate-missing",
       "read-statuses answers each constraint's status"},
      {C::kReaderPreserves, "reader-preserves", "def.reader-preserves",
       "parse-metadata keeps constraints, last-constraint-id and statuses"},
      {C::kReparsedSnapshots, "reparsed-snapshots", "proto.answer",
       "parse-metadata keeps the format version, the current snapshot and every "
       "snapshot"},
      {C::kIcebergMetadata, "iceberg-metadata",
       "ice.* (the rule of each finding of CheckIcebergMetadata)",
       "the answered metadata keeps the surrounding Iceberg rules: members by format "
       "version, current schema, spec, sort order and snapshot exist, refs, sequence "
       "numbers, snapshot timestamps, each schema's field IDs and types"},
      {C::kTableUuidKept, "table-uuid-kept", "ice.table-uuid",
       "a change to the table keeps its table-uuid"},
  };
  return table;
}

}  // namespace ictk
