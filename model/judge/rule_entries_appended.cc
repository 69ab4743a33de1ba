/// \file
/// The rule catalogue's entries of the surrounding Iceberg rules (ice.*) and of the IDs
/// appended after the seed (proto.*, further ice.* and others), in the order appended.
#include "model/judge/rule_catalogue_internal.h"

namespace ictk {

namespace {

using B = Binds;
using R = RuleId;

}  // namespace

/// ice.*: the surrounding Iceberg rules (SURROUNDINGS.md; not quoted from the seed).
std::vector<RuleInfo> IceEntries() {
  return {
      {R::kIceV4SnapshotTimestamps,
       {},
       "",
       "in v4 a snapshot's timestamp-ms is strictly greater than its parent's",
       B::kMetadata,
       {"SnapshotTimestampAfterParent"}},
      {R::kIceFormatVersionUp,
       {},
       "",
       "format versions only go up; an upgrade to an unknown version is rejected",
       B::kWriter,
       {"FormatVersionUp"}},
      {R::kIceTypePromotion,
       {},
       "",
       "only the promotions of SURROUNDINGS.md, by format version",
       B::kWriter,
       {"CanPromote"}},
      {R::kIceFieldIdsUnique,
       {},
       "",
       "every field ID in a schema (incl. list element and map key/value IDs) is unique",
       B::kMetadata,
       {"CheckFieldIdsUnique"}},
      {R::kIceUnknownOptional,
       {},
       "",
       "`unknown` fields are optional",
       B::kMetadata,
       {"CheckUnknownOptional"}},
      {R::kIceRequiredNeedsDefault,
       {},
       "",
       "a required column added to a table with rows needs an initial default (v3+)",
       B::kWriter,
       {"RequiredNeedsDefault"}},
  };
}

/// The IDs appended after the seed, in the order they were appended (1 of 3: expr.well-
/// typed, proto.request, proto.answer, ice.schema-evolution to ice.identifier-fields).
std::vector<RuleInfo> AppendedEntries1() {
  return {
      {R::kExprWellTyped,
       {},
       "is serialized as described in the [Iceberg expressions "
       "spec](expressions-spec.md)",
       "the expression binds to the current schema: operand types align by promotion, "
       "no unsafe casts (derived from the expressions spec)",
       B::kMetadata,
       {"CheckExprWellTyped"}},
      {R::kProtoRequest,
       {},
       "",
       "protocol conventions: a malformed request, or one naming an unknown table, "
       "constraint or snapshot, is answered invalid-request (docs/protocol.md)",
       B::kWriter,
       {"InvalidRequest"}},
      {R::kProtoAnswer,
       {},
       "",
       "protocol conventions: an answer carries what was asked, and a rejected request "
       "changes nothing (docs/protocol.md)",
       B::kWriter,
       {"Judge"}},
      {R::kIceSchemaEvolution,
       {},
       "",
       "a schema change follows Iceberg's evolution rules: existing fields, new IDs "
       "above last-column-id, unique sibling names, moves among siblings",
       B::kWriter,
       {"ApplyChanges"}},
      {R::kIceFormatVersionKnown,
       {},
       "",
       "readers reject a format-version they do not support (1-4)",
       B::kReader,
       {"CheckFormatVersionKnown"}},
      {R::kIceMetadataRequired,
       {},
       "",
       "the members the table-metadata field table requires by format version",
       B::kMetadata,
       {"CheckMetadataRequired"}},
      {R::kIceTableUuid,
       {},
       "",
       "table-uuid is a UUID that identifies the table",
       B::kMetadata,
       {"CheckTableUuid"}},
      {R::kIceFieldsByVersion,
       {},
       "",
       "no v3 members (next-row-id, encryption-keys) before v3, no last-sequence-number "
       "in v1",
       B::kMetadata,
       {"CheckFieldsByVersion"}},
      {R::kIceTypesByVersion,
       {},
       "",
       "unknown, timestamp_ns, timestamptz_ns, geometry, geography and variant only "
       "from v3",
       B::kMetadata,
       {"CheckTypesByVersion"}},
      {R::kIceIdentifierFields,
       {},
       "",
       "identifier fields (v1-v3) exist and are primitive, not float/double, required, "
       "not in a list or map, not under an optional struct",
       B::kMetadata,
       {"CheckIdentifierFields"}},
  };
}

/// The appended IDs, 2 of 3: ice.current-schema-exists to ice.sequence-number-bound,
/// proto.rejection-constraint-ids.
std::vector<RuleInfo> AppendedEntries2() {
  return {
      {R::kIceCurrentSchemaExists,
       {},
       "",
       "current-schema-id names a schema in schemas",
       B::kMetadata,
       {"CheckCurrentSchemaExists"}},
      {R::kIceDefaultSpecExists,
       {},
       "",
       "default-spec-id names a spec in partition-specs",
       B::kMetadata,
       {"CheckDefaultSpecExists"}},
      {R::kIceDefaultSortOrderExists,
       {},
       "",
       "default-sort-order-id names a sort order (0, unsorted, may be implied)",
       B::kMetadata,
       {"CheckDefaultSortOrderExists"}},
      {R::kIceSortOrderZeroUnsorted,
       {},
       "",
       "sort order ID 0 is reserved for the unsorted order",
       B::kMetadata,
       {"CheckSortOrderZeroUnsorted"}},
      {R::kIceCurrentSnapshotExists,
       {},
       "",
       "current-snapshot-id (unless -1) names a snapshot",
       B::kMetadata,
       {"CheckCurrentSnapshotExists"}},
      {R::kIceRefsSnapshotExist,
       {},
       "",
       "every ref names a snapshot in snapshots",
       B::kMetadata,
       {"CheckRefsSnapshotExist"}},
      {R::kIceCurrentSnapshotMain,
       {},
       "",
       "current-snapshot-id is the main branch's snapshot",
       B::kMetadata,
       {"CheckCurrentSnapshotMain"}},
      {R::kIceSequenceNumberBound,
       {},
       "",
       "no snapshot's sequence number exceeds last-sequence-number",
       B::kMetadata,
       {"CheckSequenceNumberBound"}},
      {R::kProtoRejectionConstraintIds,
       {},
       "",
       "protocol conventions: a rejection's optional constraint-ids lists only "
       "constraints the rejection is about, per error kind (docs/protocol.md sections 7 "
       "and 8); it may list any subset of them, including none",
       B::kWriter,
       {"JudgeRejectionConstraintIds"}},
  };
}

/// The appended IDs, 3 of 3: ice.single-value, proto.timestamp-from-now, proto.declared-
/// versions, def.reader-preserves, ice.metadata-shape.
std::vector<RuleInfo> AppendedEntries3() {
  return {
      {R::kIceSingleValue,
       {},
       "",
       "Iceberg Appendix D (single values in JSON): an implementation reads and writes "
       "every legal single value of its type: int/long -> number; float/double -> "
       "number; decimal -> string \"14.20\"; date -> \"2017-11-16\"; timestamptz -> "
       "\"2017-11-16T22:31:08.123456+00:00\" (any offset denotes the same instant); "
       "string -> string; uuid -> lower-case string; fixed/binary -> hex string. "
       "Refusing a request the model judges well-formed because of such a value at a "
       "type extreme or in an unusual spelling is filed here (docs/protocol.md section "
       "10)",
       B::kWriter,
       {"UnusualSingleValues"}},
      {R::kProtoTimestampFromNow,
       {},
       "",
       "protocol conventions: every timestamp the implementation writes comes from the "
       "request's now-ms; a constraint added or updated takes timestamp-ms = now-ms "
       "(docs/protocol.md sections 4 and 10)",
       B::kWriter,
       {"JudgeDefinition"}},
      {R::kProtoDeclaredVersions,
       {},
       "",
       "protocol conventions: a request at a format version the implementation did not "
       "declare in hello's format-versions (create-table, upgrade, or metadata given to "
       "parse-metadata or read-statuses) may be answered unsupported-format-version "
       "(docs/protocol.md section 9)",
       B::kWriter,
       {"DeclaredFormatVersion"}},
      {R::kDefReaderPreserves,
       {},
       "Its definition is stored in table metadata. Each snapshot contains the "
       "writer-reported status of each constraint that existed when the snapshot was "
       "created",
       "a v4 reader keeps what it read: re-serialized metadata keeps every constraint, "
       "last-constraint-id and every snapshot's constraint-statuses, by meaning "
       "(docs/protocol.md, parse-metadata)",
       B::kReader,
       {"CheckReaderPreserves"}},
      {R::kIceMetadataShape,
       {},
       "",
       "every table metadata member has the JSON form the spec's field table gives it "
       "(e.g. v1 `partition-spec` is \"stored as only fields\": an array of partition "
       "fields); metadata in an answer that does not decode fails here, with its pointer",
       B::kMetadata,
       {"MetadataShapeFinding"}},
  };
}

}  // namespace ictk
