/// \file
/// The clauses of the surrounding Iceberg rules (ice.*, SURROUNDINGS.md) and the protocol
/// conventions (proto.*, docs/protocol.md), split by their summaries. A gap (work not
/// done) starts with "not yet:"; a clause no mutant can break has an exemption instead.
/// The scheme is rule_clauses.cc's.
#include "model/judge/rule_catalogue_internal.h"

namespace ictk {

namespace {

using R = RuleId;

using E = ExemptKind;

}  // namespace

/// The clauses of ice.* and the protocol conventions, 1 of 2 (ice.v4-snapshot-timestamps to ice.types-by-version).
std::vector<ClauseRow> IceProtoClauses1() {
  return {
      {R::kIceV4SnapshotTimestamps, "whole", "strictly greater than its parent's",
       "transaction/finish", ""},
      // The surrounding Iceberg rules (SURROUNDINGS.md) and protocol conventions
      // (docs/protocol.md), split by their summaries. A gap (work not done) starts with
      // "not yet:"; a clause no mutant can break has an exemption instead.
      {R::kIceFormatVersionUp, "up", "format versions only go up", "upgrade/downgrade", ""},
      {R::kIceFormatVersionUp, "known-target", "an upgrade to an unknown version is rejected",
       "upgrade/unknown-version", ""},
      {R::kIceTypePromotion, "legal-only", "only the promotions of SURROUNDINGS.md",
       "update-schema/promote-illegal", ""},
      {R::kIceTypePromotion, "by-version", "by format version",
       "update-schema/promote-date-before-v3", ""},
      {R::kIceFieldIdsUnique, "whole",
       "every field ID in a schema (incl. list element and map key/value IDs) is unique",
       "update-schema/add-optional", ""},
      {R::kIceUnknownOptional, "whole", "`unknown` fields are optional",
       "update-schema/add-optional", ""},
      {R::kIceRequiredNeedsDefault, "whole",
       "a required column added to a table with rows needs an initial default",
       "update-schema/add-required-no-default", ""},
      {R::kProtoRequest, "malformed", "a malformed request", "delete/not-live", ""},
      {R::kProtoRequest, "unknown-table", "one naming an unknown table", "scan/unknown-table",
       ""},
      {R::kProtoRequest, "unknown-constraint", "constraint", "remove-constraint/unknown-name",
       ""},
      {R::kProtoRequest, "unknown-snapshot", "or snapshot", "scan/unknown-snapshot", ""},
      {R::kProtoAnswer, "carries-what-was-asked", "an answer carries what was asked",
       "load-table", ""},
      {R::kProtoAnswer, "rejected-changes-nothing", "a rejected request changes nothing",
       "add-constraint/v3-table", ""},
      {R::kIceSchemaEvolution, "existing-fields", "existing fields",
       "update-schema/unknown-field", ""},
      {R::kIceSchemaEvolution, "new-ids-above-last", "new IDs above last-column-id",
       "update-schema/add-optional", ""},
      {R::kIceSchemaEvolution, "unique-sibling-names", "unique sibling names",
       "update-schema/sibling-name", ""},
      {R::kIceSchemaEvolution, "moves-among-siblings", "moves among siblings",
       "update-schema/move-out-of-struct", ""},
      {R::kIceFormatVersionKnown, "whole",
       "readers reject a format-version they do not support",
       "parse-metadata/unknown-version", ""},
      {R::kIceMetadataRequired, "whole",
       "the members the table-metadata field table requires by format version", "load-table",
       ""},
      {R::kIceTableUuid, "is-uuid", "table-uuid is a UUID", "create-table/v4", ""},
      {R::kIceTableUuid, "identifies-the-table", "that identifies the table",
       "upgrade/v3-to-v4", ""},
      {R::kIceFieldsByVersion, "v3-members",
       "no v3 members (next-row-id, encryption-keys) before v3", "create-table/v2", ""},
      {R::kIceFieldsByVersion, "v1-sequence-number", "no last-sequence-number in v1",
       "create-table/v1", ""},
      {R::kIceTypesByVersion, "whole",
       "unknown, timestamp_ns, timestamptz_ns, geometry, geography and variant only from v3",
       "create-table/v3-type-before-v3", ""},
  };
}

/// The clauses of ice.* and the protocol conventions, 2 of 2 (ice.identifier-fields to ice.metadata-shape).
std::vector<ClauseRow> IceProtoClauses2() {
  return {
      // A second table's create-table breaks each identifier-field clause alone (schema
      // evolution cannot: no legal change makes an identifier field float, non-primitive
      // or repeated).
      {R::kIceIdentifierFields, "exist", "identifier fields (v1-v3) exist",
       "create-table/invalid-identifiers/exist", ""},
      {R::kIceIdentifierFields, "primitive", "are primitive",
       "create-table/invalid-identifiers/primitive", ""},
      {R::kIceIdentifierFields, "not-float-double", "not float/double",
       "create-table/invalid-identifiers/not-float-double", ""},
      {R::kIceIdentifierFields, "required", "required",
       "create-table/invalid-identifiers/required", ""},
      {R::kIceIdentifierFields, "not-in-list-map", "not in a list or map",
       "create-table/invalid-identifiers/not-in-list-map", ""},
      {R::kIceIdentifierFields, "not-under-optional-struct", "not under an optional struct",
       "create-table/invalid-identifiers/not-under-optional-struct", ""},
      {R::kIceCurrentSchemaExists, "whole", "current-schema-id names a schema in schemas",
       "update-schema/add-optional", ""},
      {R::kIceDefaultSpecExists, "whole", "default-spec-id names a spec in partition-specs",
       "create-table/v4", ""},
      {R::kIceDefaultSortOrderExists, "whole", "default-sort-order-id names a sort order",
       "create-table/v4", ""},
      {R::kIceSortOrderZeroUnsorted, "whole",
       "sort order ID 0 is reserved for the unsorted order", "create-table/v4", ""},
      {R::kIceCurrentSnapshotExists, "whole", "current-snapshot-id (unless -1) names a snapshot",
       "append/fresh", ""},
      {R::kIceRefsSnapshotExist, "whole", "every ref names a snapshot in snapshots",
       "append/fresh", ""},
      {R::kIceCurrentSnapshotMain, "whole", "current-snapshot-id is the main branch's snapshot",
       "append/fresh", ""},
      {R::kIceSequenceNumberBound, "whole",
       "no snapshot's sequence number exceeds last-sequence-number", "append/fresh", ""},
      {R::kProtoRejectionConstraintIds, "only-about",
       "lists only constraints the rejection is about", "delete/not-live", ""},
      {R::kProtoRejectionConstraintIds, "any-subset",
       "it may list any subset of them, including none", "",
       "",
       {E::kPermission,
        "a rejection may name any subset of the constraints it is about, including none"}},
      {R::kIceSingleValue, "reads", "reads", "append/random", ""},
      {R::kIceSingleValue, "writes", "writes", "scan/current", ""},
      // The snapshot a request writes and the last-updated-ms of a change take now-ms
      // (ExpectTimestampsFromNow, operations.h).
      {R::kProtoTimestampFromNow, "every-timestamp",
       "every timestamp the implementation writes comes from the request's now-ms",
       "append/fresh", ""},
      {R::kProtoTimestampFromNow, "constraint-added-or-updated",
       "a constraint added or updated takes timestamp-ms = now-ms", "update-constraint/rename",
       ""},
      {R::kProtoDeclaredVersions, "whole", "may be answered unsupported-format-version", "",
       "",
       {E::kPermission,
        "refusing an undeclared version may be done, never must; refusing a declared one "
        "breaks the request's own rule"}},
      {R::kIceMetadataShape, "whole",
       "every table metadata member has the JSON form the spec's field table gives it",
       "load-table", ""},
  };
}

}  // namespace ictk
