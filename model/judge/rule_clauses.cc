/// \file
/// The clause table: each rule's sentence split into its clauses (conditions joined by
/// "and", "or", "unless", and list items), each with its words (verbatim from the rule's
/// quote or summary), the generator step label that exercises it alone, where no mutant can
/// exist the reason why (its exemption, of a closed set of kinds), and where work is not
/// done yet the gap. docs/rules.md "Clauses" describes the scheme;
/// tests/model/rule_catalogue_test.cc checks the words and the exemptions, and
/// tests/sample/sample_mutants_test.cc checks that every clause with neither a gap nor an
/// exemption has a mutant and a generator step.
#include "model/judge/rule_catalogue_internal.h"

namespace ictk {
namespace {

using R = RuleId;

using E = ExemptKind;

// Reasons shared by several clauses.
constexpr ClauseExempt kInformational = {E::kInformational,
                                         "informational (coverage-exempt): nothing to break"};
[[maybe_unused]] constexpr std::string_view kReaderSide =
    "reader side: a reader given metadata that breaks it may accept or refuse it at the "
    "default switches, so no mutant can be caught";

std::vector<ClauseRow> MakeClauses() {
  // {rule, name, words, tag (generator step label), gap (work not done), exempt (why no
  // mutant can exist: docs/rules.md "Clauses")}
  return {
      // def.*
      {R::kDefV4Only, "whole",
       "Constraints are added in v4 and are not supported in v3 or earlier.",
       "add-constraint/v3-table", ""},
      {R::kDefTypes, "whole", "Three constraint types are defined",
       "add-invalid-constraint/def.types", ""},
      {R::kDefByFieldId, "whole", "must refer to fields by field ID",
       "add-invalid-constraint/expr.id-references", "",
       {E::kInexpressible,
        "a request names key fields only by ID (field-ids), so the one way to refer to a "
        "field otherwise is a name in a check expression: expr.id-references/whole"}},
      {R::kDefRequiredFields, "name", "name", "add-invalid-constraint/def.required-fields/name",
       ""},
      {R::kDefRequiredFields, "enforced", "enforced (boolean)",
       "add-invalid-constraint/def.required-fields/enforced", ""},
      {R::kDefRequiredFields, "type", "type", "add-invalid-constraint/def.required-fields/type",
       ""},
      // Reader side: a strict reader (switch invalid-metadata-on-read=reject) must refuse
      // a stored constraint without constraint-id or timestamp-ms.
      {R::kDefRequiredFields, "stored-id-and-timestamp", "constraint-id (int)",
       "parse-metadata/constraint-without-id-or-timestamp", ""},
      {R::kDefIdUnique, "whole", "ID of the constraint; unique within the table",
       "parse-metadata/broken/def.id-unique", ""},
      {R::kDefNameUnique, "unique",
       "A name for the constraint that is unique within the table",
       "add-invalid-constraint/def.name-unique/unique", ""},
      {R::kDefNameUnique, "not-identifier",
       "must not be used to identify a constraint in metadata", "update-constraint/rename",
       ""},
      {R::kDefCheckExpression, "required-for-check", "Required for a `check` constraint",
       "add-invalid-constraint/def.check-expression/required-for-check", ""},
      {R::kDefCheckExpression, "absent-for-others", "must not be set for other types",
       "add-invalid-constraint/def.check-expression/absent-for-others", ""},
      {R::kDefKeyFieldIds, "at-least-one", "Must contain at least one field ID",
       "add-invalid-constraint/def.key-field-ids/at-least-one", ""},
      {R::kDefKeyFieldIds, "no-duplicates", "no duplicates",
       "add-invalid-constraint/def.key-field-ids/no-duplicates", ""},
      {R::kDefKeyFieldIds, "required-for-keys",
       "Required for a `unique` or `primary-key` constraint",
       "add-invalid-constraint/def.key-field-ids/required-for-keys", ""},
      {R::kDefKeyFieldIds, "absent-for-check", "must not be set for a `check` constraint",
       "add-invalid-constraint/def.key-field-ids/absent-for-check", ""},
      {R::kDefTimestampInformational, "applies",
       "must not be used to determine whether a constraint applies to a snapshot",
       "update-constraint/rename", "",
       {E::kComposite,
        "update-constraint moves a constraint's timestamp-ms past the current snapshot, "
        "but a writer that then takes the constraint as not applying to that snapshot can "
        "show it only in the statuses it records, which the judge checks against the rows: "
        "its mutants are those of st.valid/parent, st.validated/checked-holds and "
        "st.invalid/checked"}},
      {R::kDefTimestampInformational, "holds", "or whether it holds",
       "update-constraint/rename", "",
       {E::kComposite,
        "a writer that decides by timestamp-ms whether a constraint holds can show it only "
        "in the statuses it records, which the judge checks against the rows: its mutants "
        "are those of st.validated/checked-holds, st.validated/carried, st.valid/parent "
        "and st.invalid/checked"}},
      {R::kDefSinglePk, "whole", "A table may have at most one `primary-key` constraint.",
       "add-invalid-constraint/def.single-pk", ""},
      {R::kDefEvolveIndependently, "whole",
       "Constraints may evolve independently from the schema", "", "", kInformational},
      // key.*
      {R::kKeyPrimitiveOnly, "struct", "no struct",
       "add-invalid-constraint/key.primitive-only/struct", ""},
      {R::kKeyPrimitiveOnly, "list-or-map", "list, map",
       "add-invalid-constraint/key.primitive-only/list-or-map", ""},
      {R::kKeyPrimitiveOnly, "variant", "variant",
       "add-invalid-constraint/key.primitive-only/variant", ""},
      {R::kKeyNotInListMap, "list", "within a `list`",
       "add-invalid-constraint/key.not-in-list-map/list", ""},
      {R::kKeyNotInListMap, "map", "a `map`", "add-invalid-constraint/key.not-in-list-map/map",
       ""},
      {R::kKeyNoFloatDouble, "float", "`float`",
       "add-invalid-constraint/key.no-float-double/float", ""},
      {R::kKeyNoFloatDouble, "double", "`double`",
       "add-invalid-constraint/key.no-float-double/double", ""},
      {R::kKeyNoGeo, "geometry", "`geometry`", "add-invalid-constraint/key.no-geo/geometry",
       ""},
      {R::kKeyNoGeo, "geography", "`geography`", "add-invalid-constraint/key.no-geo/geography",
       ""},
      {R::kKeyNoUnknown, "whole",
       "Fields of type `unknown` must not be used because their values are always null.",
       "add-invalid-constraint/key.no-unknown", ""},
      {R::kKeyPkRequired, "own-flag", "must be `required`",
       "add-invalid-constraint/key.pk-required/own-flag", ""},
      {R::kKeyPkRequired, "optional-parent", "must not be nested in an optional struct",
       "add-invalid-constraint/key.pk-required/optional-parent", ""},
      {R::kKeyUniqueOptionalOk, "own-flag", "may be optional", "add-constraint/unique", ""},
      {R::kKeyUniqueOptionalOk, "optional-parent", "nested in optional structs",
       "add-constraint/unique", ""},
      // sem.*
      {R::kSemLiveRows, "whole", "after applying deletes", "", "",
       {E::kComposite,
        "its mutants are those of enf.keys-against-remaining/after-removals (keys) and "
        "st.invalid/carried (statuses)"}},
      {R::kSemCheck, "whole", "every row must satisfy a predicate", "append/break-check", ""},
      {R::kSemUnique, "distinct", "the values of a set of fields must be distinct",
       "append/collide-among", ""},
      {R::kSemUnique, "nulls-not-compared",
       "a row in which any field in the set is null is not compared", "append/null-unique",
       ""},
      {R::kSemPrimaryKey, "distinct", "must be distinct across all rows",
       "append/collide-among", ""},
      {R::kSemPrimaryKey, "not-null", "must not be null", "", "",
       {E::kInexpressible,
        "primary-key fields are required (key.pk-required/own-flag, "
        "key.pk-required/optional-parent, sch.pk-stays-required/own-flag), so a null key "
        "part is a null in a required field: a malformed row (proto.request)"}},
      // enf.*
      {R::kEnfEnforced, "whole",
       "writers must ensure that written data conform to the constraint", "", "",
       {E::kComposite,
        "its mutants are those of sem.check/whole, sem.unique/distinct, "
        "sem.unique/nulls-not-compared, sem.primary-key/distinct, "
        "enf.keys-against-remaining/among-added, enf.keys-against-remaining/against-remaining, "
        "enf.keys-against-remaining/after-removals and enf.modified-row/whole"}},
      {R::kEnfNotEnforced, "whole",
       "writers are not required to ensure that written data conform to the constraint",
       "append/break-check", ""},
      {R::kEnfModifiedRow, "whole",
       "a row whose values changed in a commit counts as a removed row and an added row",
       "overwrite/modify-values", ""},
      {R::kEnfKeysAgainstRemaining, "among-added",
       "added rows have distinct keys among themselves", "append/collide-among", ""},
      {R::kEnfKeysAgainstRemaining, "against-remaining",
       "do not conflict with rows remaining from the new parent", "append/collide-live", ""},
      {R::kEnfKeysAgainstRemaining, "after-removals", "after applying the commit's removals",
       "overwrite/replace-key", ""},
      {R::kEnfRetryEnforced, "whole",
       "the rows that a writer adds must still satisfy the table's enforced constraints", "",
       "",
       {E::kComposite,
        "its mutants are those of enf.retry-keys-new-parent/whole, "
        "enf.retry-new-constraints/added and enf.retry-new-constraints/changed-to-enforced"}},
      {R::kEnfRetryCheck, "whole", "a retry cannot change its result", "", "",
       {E::kInformational,
        "states a fact: a check is row-local and deterministic (expr.row-local, "
        "expr.deterministic), so re-evaluating it on retry gives the same answer"}},
      {R::kEnfRetryKeysNewParent, "whole",
       "verifying them against the original parent is not sufficient", "transaction/finish",
       ""},
      {R::kEnfRetryNewConstraints, "added", "any constraint that a concurrent commit added",
       "transaction/finish", ""},
      {R::kEnfRetryNewConstraints, "changed-to-enforced", "or changed to enforced",
       "transaction/finish", ""},
      {R::kEnfRetryRecomputeStatuses, "whole",
       "must recompute `constraint-statuses` from the new parent", "transaction/finish", ""},
      {R::kEnfUntrusted, "whole", "readers can decide whether to trust the constraint", "",
       "", kInformational},
      // id.*
      {R::kIdLastDefaultZero, "whole", "treated as 0 when it is not present",
       "upgrade/v3-to-v4", ""},
      {R::kIdAboveLast, "whole",
       "Writers must assign a new constraint an ID that is higher than the table's current "
       "`last-constraint-id`",
       "add-constraint/unique", ""},
      {R::kIdUpdateLast, "whole", "must update `last-constraint-id` to the highest assigned ID",
       "add-constraint/unique", ""},
      {R::kIdNoReuse, "whole", "Constraint IDs must not be reused", "remove-constraint", ""},
      {R::kIdReadersTolerateMissing, "whole",
       "Readers must not assume that every `constraint-id` referenced by a snapshot is "
       "present in `constraints`.",
       "read-statuses/missing-constraint", ""},
      // upg.*
      {R::kUpgPkFromIdentifiers, "single-pk",
       "rewritten as a single `primary-key` constraint", "upgrade/v3-to-v4", ""},
      {R::kUpgPkFromIdentifiers, "not-enforced", "that is not enforced", "upgrade/v3-to-v4",
       ""},
      {R::kUpgSkipIneligible, "no-constraint", "no constraint is created", "upgrade/v3-to-v4",
       ""},
      {R::kUpgSkipIneligible, "continues", "the upgrade continues without it",
       "upgrade/v3-to-v4", ""},
      {R::kUpgNoIdentifiersInV4, "whole",
       "Writers must not set `identifier-field-ids` in a schema that is added to a v4 table",
       "update-schema/add-optional", ""},
      {R::kUpgReadersIgnoreIdentifiers, "whole",
       "readers must ignore `identifier-field-ids` in a v4 table",
       "read-statuses/identifiers-in-v4", ""},
      // expr.*
      {R::kExprIdReferences, "whole", "must use ID references",
       "add-invalid-constraint/expr.id-references", ""},
      {R::kExprRowLocal, "whole", "evaluated for each row over the values of that row", "",
       "",
       {E::kInexpressible,
        "the expression grammar has no aggregates, windows or subqueries, so no check a "
        "request can carry looks beyond its row"}},
      {R::kExprNoListMapElement, "list", "must not reference a field within a `list`",
       "add-invalid-constraint/expr.no-list-map-element/list", ""},
      {R::kExprNoListMapElement, "map", "or a `map`",
       "add-invalid-constraint/expr.no-list-map-element/map", ""},
      {R::kExprDeterministic, "whole",
       "must produce the same result every time it is evaluated for the same row",
       "add-invalid-constraint/expr.deterministic", ""},
      {R::kExprUdfStatus, "not-valid", "a writer must not record `valid` for such a constraint",
       "append/fresh", ""},
      {R::kExprUdfStatus, "no-carry", "or keep the parent snapshot's status for it",
       "delete/some", ""},
      {R::kExprUdfStatus, "validated-when-all-checked",
       "the constraint is `validated` only if it was checked for every row in the snapshot",
       "", "",
       {E::kComposite,
        "restates st.validated/checked-holds for a UDF check, whose other way to validated "
        "(a carried status) expr.udf-status/no-carry forbids: its mutants are those two "
        "clauses'"}},
      {R::kExprWellTyped, "whole", "is serialized as described in the [Iceberg expressions",
       "add-invalid-constraint/expr.well-typed", ""},
      // sch.*
      {R::kSchRenameReorder, "rename", "Renaming", "update-schema/rename", ""},
      {R::kSchRenameReorder, "reorder", "reordering", "update-schema/move", ""},
      {R::kSchReferencedExist, "whole",
       "Every field referenced by a constraint must exist in the table's current schema.",
       "add-invalid-constraint/sch.referenced-exist", ""},
      {R::kSchRemoveReferenced, "rejected",
       "A schema change that removes a constraint-referenced field must be rejected",
       "update-schema/delete-referenced", ""},
      {R::kSchRemoveReferenced, "nested", "or its struct", "update-schema/delete-referenced",
       ""},
      {R::kSchRemoveReferenced, "unless-removed",
       "unless the constraint is removed in the same change",
       "update-schema/delete-with-constraints", ""},
      {R::kSchCheckNoTypeChange, "whole", "must not change type or apply type promotion",
       "update-schema/promote-check-field", ""},
      {R::kSchKeyPromotionOk, "whole", "may apply type promotion",
       "update-schema/promote-key-field", "",
       {E::kPermission,
        "a permission of writers under the switch key-promotions, whose default lets a "
        "writer accept or refuse the promotion"}},
      {R::kSchPkStaysRequired, "own-flag", "makes a primary-key field optional",
       "update-schema/pk-field-optional", ""},
      {R::kSchPkStaysRequired, "optional-parent", "or nests it under an optional struct",
       "update-schema/pk-field-optional", ""},
      // upd.*
      {R::kUpdNameEnforcedOnly, "whole",
       "Only `name` and `enforced` fields in a constraint definition can be updated",
       "update-constraint/change-type", ""},
      {R::kUpdTimestamp, "whole", "`timestamp-ms` must be updated when the constraint is updated",
       "update-constraint/rename", ""},
      {R::kUpdDefinitionImmutable, "expression", "The `expression`",
       "update-constraint/change-definition", ""},
      {R::kUpdDefinitionImmutable, "field-ids", "`field-ids` fields must not change",
       "update-constraint/change-definition", ""},
      // st.*
      {R::kStValidated, "checked-holds",
       "The constraint was checked and holds for all rows in the snapshot", "append/fresh",
       ""},
      {R::kStValidated, "carried",
       "the commit did not add rows and the parent snapshot's status is `validated`",
       "append/break-check", ""},
      {R::kStValid, "parent", "The parent snapshot's status is `validated` or `valid`",
       "append/fresh", ""},
      {R::kStValid, "adds-verified",
       "either the writer can prove that the rows it added follow the constraint or the "
       "commit did not add rows",
       "append/break-check", ""},
      {R::kStInvalid, "checked", "because the constraint was checked", "append/fresh", ""},
      {R::kStInvalid, "carried",
       "the parent snapshot's status is `invalid` and the commit did not remove any rows",
       "delete/some", ""},
      {R::kStUnvalidated, "whole", "is not known", "", "",
       {E::kAlwaysAllowed,
        "a writer may always record unvalidated (only a carry of validated or valid over "
        "a commit without adds is required, st.no-add-carry)"}},
      {R::kStExactlyOneList, "every-existing",
       "Every constraint that exists when the snapshot is created must be listed",
       "append/fresh", ""},
      {R::kStExactlyOneList, "one-list",
       "a `constraint-id` must not appear in more than one list", "append/break-check", ""},
      {R::kStSound, "whole",
       "A constraint must not be listed with a status unless the status's description above "
       "holds for the snapshot",
       "", "",
       {E::kComposite,
        "its mutants are those of st.validated/checked-holds, st.validated/carried, "
        "st.valid/parent, st.valid/adds-verified, st.invalid/checked and "
        "st.invalid/carried"}},
      {R::kStEnforcementSeparate, "whole", "Enforcement and constraint status are tracked "
       "separately.", "", "", kInformational},
      {R::kStEverySnapshot, "whole", "Writers must record `constraint-statuses` in every snapshot",
       "delete/some", ""},
      {R::kStReaderLookup, "whole", "Otherwise, the constraint is `unvalidated` for the snapshot",
       "read-statuses/unlisted", ""},
      {R::kStNoAddCarry, "whole", "may carry over the parent snapshot's `validated` or `valid` "
       "status", "replace/compaction", "",
       {E::kPermission, "a permission of writers: carrying and not carrying are both legal"}},
      {R::kDefReaderPreserves, "whole", "Its definition is stored in table metadata",
       "parse-metadata/model-v4", ""},
      // ice.*
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

}  // namespace

const std::vector<ClauseRow>& ClauseTable() {
  static const std::vector<ClauseRow> rows = MakeClauses();
  return rows;
}

}  // namespace ictk
