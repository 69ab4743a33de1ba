/// \file
/// The rule catalogue: one entry per rule ID of SPEC.md (and those appended since), with
/// the seed's sentence verbatim (whitespace collapsed, diff markers removed), whom it
/// binds, and the model functions that implement it. tests/model/rule_catalogue_test.cc
/// checks that every quote is in the seed and that every RuleId has exactly one entry.
#include "model/judge/rule_catalogue.h"

#include <cassert>

#include "model/judge/rule_catalogue_internal.h"

namespace ictk {
namespace {

using B = Binds;
using R = RuleId;

std::vector<RuleInfo> MakeEntries() {
  // {id, group (filled in later), quote, summary, binds, checked_by, coverage_exempt}
  return {
      // def.*
      {R::kDefV4Only,
       {},
       "Constraints are added in v4 and are not supported in v3 or earlier.",
       "no constraints, last-constraint-id or constraint-statuses in v1-v3 metadata; "
       "adding a constraint to a v1-v3 table is rejected; readers: switch "
       "v3-constraint-fields",
       B::kWriter,
       {"ConstraintsSupported"}},
      {R::kDefTypes,
       {},
       "Three constraint types are defined",
       "check, unique and primary-key; any other type is invalid",
       B::kMetadata,
       {"CheckDefTypes"}},
      {R::kDefByFieldId,
       {},
       "A constraint is stored separately from the table schema and must refer to "
       "fields by field ID.",
       "field-ids are field IDs; a check expression references fields by ID",
       B::kMetadata,
       {"CheckExprIdReferences"}},
      {R::kDefRequiredFields,
       {},
       "",
       "constraint-id (int), type, name, enforced (boolean) and timestamp-ms (long) are "
       "required (the field table)",
       B::kMetadata,
       {"CheckDefRequiredFields"}},
      {R::kDefIdUnique,
       {},
       "ID of the constraint; unique within the table",
       "constraint-id is unique within the table",
       B::kMetadata,
       {"CheckDefIdUnique"}},
      {R::kDefNameUnique,
       {},
       "A name for the constraint that is unique within the table. Names are for human "
       "consumption and must not be used to identify a constraint in metadata",
       "names are unique (switch name-case); metadata refers to constraints by ID",
       B::kMetadata,
       {"SameConstraintName"}},
      {R::kDefCheckExpression,
       {},
       "Required for a `check` constraint and must not be set for other types",
       "expression: required for check, absent otherwise",
       B::kMetadata,
       {"CheckDefCheckExpression"}},
      {R::kDefKeyFieldIds,
       {},
       "Must contain at least one field ID and no duplicates. Required for a `unique` "
       "or `primary-key` constraint and must not be set for a `check` constraint",
       "field-ids: non-empty, no duplicates, required for unique/primary-key, absent "
       "for check",
       B::kMetadata,
       {"CheckDefKeyFieldIds"}},
      {R::kDefTimestampInformational,
       {},
       "The timestamp is informational and must not be used to determine whether a "
       "constraint applies to a snapshot or whether it holds",
       "timestamp-ms never decides whether a constraint applies or holds (the judging "
       "functions take no timestamp)",
       B::kReader,
       {"AppliesToNewSnapshot"}},
      {R::kDefSinglePk,
       {},
       "A table may have at most one `primary-key` constraint.",
       "at most one primary-key constraint",
       B::kMetadata,
       {"CheckDefSinglePk"}},
      {R::kDefEvolveIndependently,
       {},
       "Constraints may evolve independently from the schema, being added, modified, or "
       "removed.",
       "informational",
       B::kInformational,
       {},
       true},
      // key.*
      {R::kKeyPrimitiveOnly,
       {},
       "The `field-ids` of a `unique` or `primary-key` constraint must only reference "
       "primitive fields",
       "key fields are primitive (no struct, list, map, variant)",
       B::kMetadata,
       {"CheckKeyPrimitiveOnly"}},
      {R::kKeyNotInListMap,
       {},
       "must not reference fields within a `list` or a `map`",
       "key fields are not inside a list or map",
       B::kMetadata,
       {"CheckKeyNotInListMap"}},
      {R::kKeyNoFloatDouble,
       {},
       "Fields of type `float` or `double` must not be used.",
       "no float or double key fields",
       B::kMetadata,
       {"CheckKeyNoFloatDouble"}},
      {R::kKeyNoGeo,
       {},
       "Fields of type `geometry` or `geography` must not be used because Iceberg does "
       "not define equality for them.",
       "no geometry or geography key fields",
       B::kMetadata,
       {"CheckKeyNoGeo"}},
      {R::kKeyNoUnknown,
       {},
       "Fields of type `unknown` must not be used because their values are always null.",
       "no unknown key fields",
       B::kMetadata,
       {"CheckKeyNoUnknown"}},
      {R::kKeyPkRequired,
       {},
       "The fields of a `primary-key` constraint must be `required` and must not be "
       "nested in an optional struct",
       "primary-key fields are required and not under an optional struct",
       B::kMetadata,
       {"PrimaryKeyFieldRequired"}},
      {R::kKeyUniqueOptionalOk,
       {},
       "The fields of a `unique` constraint may be optional or nested in optional "
       "structs",
       "unique fields may be optional (nothing to reject)",
       B::kMetadata,
       {"CheckKeyPkRequired"}},
      // sem.*
      {R::kSemLiveRows,
       {},
       "declares a condition that a table's live rows, after applying deletes, are "
       "expected to satisfy",
       "a constraint is judged on the live rows",
       B::kWriter,
       {"HoldsOnLiveRows"}},
      {R::kSemCheck,
       {},
       "every row must satisfy a predicate",
       "a check holds when its predicate is true for every row",
       B::kWriter,
       {"CheckHolds"}},
      {R::kSemUnique,
       {},
       "the values of a set of fields must be distinct across the rows in which every "
       "field in the set is non-null; a row in which any field in the set is null is "
       "not compared, so more than one such row may exist",
       "distinct keys among rows whose key fields are all non-null",
       B::kWriter,
       {"UniqueHolds"}},
      {R::kSemPrimaryKey,
       {},
       "the values of a set of fields must be distinct across all rows and must not be "
       "null",
       "distinct, non-null keys",
       B::kWriter,
       {"PrimaryKeyHolds"}},
      // enf.*
      {R::kEnfEnforced,
       {},
       "When a constraint is `enforced`, writers must ensure that written data conform "
       "to the constraint.",
       "a commit whose added rows break an enforced constraint fails (switch "
       "existing-rows-on-enforce for rows already there)",
       B::kWriter,
       {"EnforcedRule"}},
      {R::kEnfNotEnforced,
       {},
       "When a constraint is not enforced, writers are not required to ensure that "
       "written data conform to the constraint.",
       "a constraint that is not enforced does not fail a commit (switch "
       "unenforced-may-reject)",
       B::kWriter,
       {"NotEnforcedRule"}},
      {R::kEnfModifiedRow,
       {},
       "a row whose values changed in a commit counts as a removed row and an added "
       "row, whether the engine models the change as deleting and inserting the row or "
       "as a modification that preserves the row ID",
       "switch modified-counts-as-added",
       B::kWriter,
       {"ModifiedRowRule"}},
      {R::kEnfKeysAgainstRemaining,
       {},
       "a writer must verify that added rows have distinct keys among themselves and do "
       "not conflict with rows remaining from the new parent after applying the "
       "commit's removals",
       "added keys are distinct and do not collide with remaining rows",
       B::kWriter,
       {"KeyConflictsAfterCommit"}},
      {R::kEnfRetryEnforced,
       {},
       "When a commit is retried against a new parent snapshot, the rows that a writer "
       "adds must still satisfy the table's enforced constraints.",
       "a retried commit is judged against the new parent",
       B::kWriter,
       {"RejectViolation"}},
      {R::kEnfRetryCheck,
       {},
       "A `check` constraint is evaluated for each row on its own, so a retry cannot "
       "change its result.",
       "a retry does not change a check's verdict on the added rows",
       B::kWriter,
       {"RetryRule"}},
      {R::kEnfRetryKeysNewParent,
       {},
       "verifying them against the original parent is not sufficient",
       "on retry, keys are verified against the new parent",
       B::kWriter,
       {"RetryRule"}},
      {R::kEnfRetryNewConstraints,
       {},
       "A writer must also verify the rows that it adds against any constraint that a "
       "concurrent commit added or changed to enforced",
       "on retry, constraints added or enforced concurrently apply",
       B::kWriter,
       {"RetryRule"}},
      {R::kEnfRetryRecomputeStatuses,
       {},
       "must recompute `constraint-statuses` from the new parent",
       "on retry, statuses are judged against the new parent",
       B::kWriter,
       {"RecomputedStatusContext"}},
      {R::kEnfUntrusted,
       {},
       "If a constraint is not enforced, readers can decide whether to trust the "
       "constraint.",
       "nothing to check",
       B::kInformational,
       {},
       true},
      // id.*
      {R::kIdLastDefaultZero,
       {},
       "Constraint IDs are assigned from the table's `last-constraint-id`, which is "
       "treated as 0 when it is not present.",
       "an absent last-constraint-id is 0",
       B::kMetadata,
       {"LastConstraintIdOrZero"}},
      {R::kIdAboveLast,
       {},
       "Writers must assign a new constraint an ID that is higher than the table's "
       "current `last-constraint-id`",
       "a new constraint ID is above last-constraint-id (in metadata: above 0)",
       B::kWriter,
       {"IdAboveLast"}},
      {R::kIdUpdateLast,
       {},
       "must update `last-constraint-id` to the highest assigned ID",
       "last-constraint-id is at least every assigned ID",
       B::kWriter,
       {"LastConstraintIdUpdated"}},
      {R::kIdNoReuse,
       {},
       "Constraint IDs must not be reused after the constraint that used an ID is "
       "removed, because retained snapshots may still reference the removed ID.",
       "a removed constraint's ID is never assigned again",
       B::kWriter,
       {"IdNotReused"}},
      {R::kIdReadersTolerateMissing,
       {},
       "Readers must not assume that every `constraint-id` referenced by a snapshot is "
       "present in `constraints`.",
       "readers tolerate listed IDs that are not in constraints",
       B::kReader,
       {"ReadersTolerateMissing"}},
      // upg.*
      {R::kUpgPkFromIdentifiers,
       {},
       "When a table is upgraded to v4, the `identifier-field-ids` of the table's "
       "current schema are rewritten as a single `primary-key` constraint that is not "
       "enforced.",
       "upgrade: identifier fields become a pk named `pk`, not enforced, ID from "
       "last-constraint-id, timestamp-ms the upgrade's",
       B::kWriter,
       {"PrimaryKeyFromIdentifiers"}},
      {R::kUpgSkipIneligible,
       {},
       "If any of those fields cannot be used in a `primary-key` constraint, such as a "
       "`geometry` or `geography` field, no constraint is created and the upgrade "
       "continues without it.",
       "ineligible identifier fields: no pk, the upgrade succeeds",
       B::kWriter,
       {"EligiblePrimaryKey"}},
      {R::kUpgNoIdentifiersInV4,
       {},
       "Writers must not set `identifier-field-ids` in a schema that is added to a v4 "
       "table",
       "schemas added in v4 carry no identifier-field-ids",
       B::kWriter,
       {"NoIdentifiersInV4Schema"}},
      {R::kUpgReadersIgnoreIdentifiers,
       {},
       "readers must ignore `identifier-field-ids` in a v4 table",
       "a v4 reader never treats identifier fields as a key",
       B::kReader,
       {"ReadersIgnoreIdentifiers"}},
      // expr.*
      {R::kExprIdReferences,
       {},
       "must use ID references so that it remains bound to the same fields when columns "
       "are renamed",
       "no name-based references or legacy predicate forms",
       B::kMetadata,
       {"CheckExprIdReferences"}},
      {R::kExprRowLocal,
       {},
       "A check expression is evaluated for each row over the values of that row.",
       "no aggregates, windows or subqueries (the expression grammar has none)",
       B::kMetadata,
       {"RowSatisfies"},
       true},
      {R::kExprNoListMapElement,
       {},
       "An expression must not reference a field within a `list` or a `map`, because "
       "such a field has a value for each element rather than one value for the row.",
       "no reference inside a list or map; a whole list or map may be passed to a "
       "function",
       B::kMetadata,
       {"CheckExprNoListMapElement"}},
      {R::kExprDeterministic,
       {},
       "A check expression must produce the same result every time it is evaluated for "
       "the same row.",
       "only deterministic functions; a UDF only if its current definition declares "
       "deterministic",
       B::kMetadata,
       {"CheckExprDeterministic"}},
      {R::kExprUdfStatus,
       {},
       "a writer must not record `valid` for such a constraint or keep the parent "
       "snapshot's status for it; the constraint is `validated` only if it was checked "
       "for every row in the snapshot",
       "a check calling a UDF is never valid and never carries its status (switch "
       "udf-check-carries-invalid)",
       B::kWriter,
       {"UdfStatusPermits"}},
      // sch.*
      {R::kSchRenameReorder,
       {},
       "Renaming or reordering a constraint-referenced field is allowed; the constraint "
       "continues to apply to the same fields.",
       "renames and moves keep constraints",
       B::kWriter,
       {"RenameReorder"}},
      {R::kSchReferencedExist,
       {},
       "Every field referenced by a constraint must exist in the table's current schema.",
       "every referenced field ID is in the current schema",
       B::kMetadata,
       {"ReferencedFieldExists"}},
      {R::kSchRemoveReferenced,
       {},
       "A schema change that removes a constraint-referenced field must be rejected "
       "unless the constraint is removed in the same change.",
       "removing a referenced field (or its struct) needs the constraint removed too",
       B::kWriter,
       {"RemoveReferenced"}},
      {R::kSchCheckNoTypeChange,
       {},
       "A field referenced by a `check` constraint must not change type or apply type "
       "promotion, because the constraint's `expression` contains literals that are "
       "bound to the field's type.",
       "no type change of a check-referenced field",
       B::kWriter,
       {"TypeChangeOfReferenced"}},
      {R::kSchKeyPromotionOk,
       {},
       "A field referenced by a `unique` or `primary-key` constraint may apply type "
       "promotion, because type promotion preserves distinctness.",
       "key fields may be promoted (switch key-promotions)",
       B::kWriter,
       {"TypeChangeOfReferenced"}},
      {R::kSchPkStaysRequired,
       {},
       "",
       "derived from key.pk-required: a change that makes a primary-key field optional "
       "(or nests it under an optional struct) is rejected unless the primary key is "
       "removed in the same change",
       B::kWriter,
       {"PkStaysRequired"}},
      // upd.*
      {R::kUpdNameEnforcedOnly,
       {},
       "Only `name` and `enforced` fields in a constraint definition can be updated",
       "an update changes name and enforced only (switch restated-definition)",
       B::kWriter,
       {"CheckUpdNameEnforcedOnly"}},
      {R::kUpdTimestamp,
       {},
       "`timestamp-ms` must be updated when the constraint is updated",
       "an update changes timestamp-ms",
       B::kWriter,
       {"TimestampMustBeUpdated"}},
      {R::kUpdDefinitionImmutable,
       {},
       "The `expression` and `field-ids` fields must not change, as it would change the "
       "constraint requirement.",
       "expression and field-ids never change; remove and add with a new constraint-id "
       "instead (switch restated-definition)",
       B::kWriter,
       {"CheckUpdDefinitionImmutable"}},
      // st.*
      {R::kStValidated,
       {},
       "The constraint was checked and holds for all rows in the snapshot, or the "
       "commit did not add rows and the parent snapshot's status is `validated`",
       "validated: holds on the live rows",
       B::kWriter,
       {"ValidatedAllowed"}},
      {R::kStValid,
       {},
       "The parent snapshot's status is `validated` or `valid`, and either the writer "
       "can prove that the rows it added follow the constraint or the commit did not "
       "add rows.",
       "valid: parent validated/valid and holds",
       B::kWriter,
       {"ValidAllowed"}},
      {R::kStInvalid,
       {},
       "At least one row in the snapshot is known to violate the constraint, either "
       "because the constraint was checked or because the parent snapshot's status is "
       "`invalid` and the commit did not remove any rows",
       "invalid: some live row violates",
       B::kWriter,
       {"InvalidAllowed"}},
      {R::kStUnvalidated,
       {},
       "Whether the constraint holds for all rows in the snapshot is not known",
       "unvalidated: always allowed (switch status-carry)",
       B::kWriter,
       {"UnvalidatedAllowed"}},
      {R::kStExactlyOneList,
       {},
       "Every constraint that exists when the snapshot is created must be listed in "
       "exactly one of the four lists, and a `constraint-id` must not appear in more "
       "than one list.",
       "every existing constraint in exactly one list (switch stale-ids-in-new-snapshot)",
       B::kWriter,
       {"CheckExactlyOneList"}},
      {R::kStSound,
       {},
       "A constraint must not be listed with a status unless the status's description "
       "above holds for the snapshot",
       "each reported status is in its allowed set",
       B::kWriter,
       {"AllowedStatuses"}},
      {R::kStEnforcementSeparate,
       {},
       "Enforcement and constraint status are tracked separately.",
       "informational",
       B::kInformational,
       {},
       true},
      {R::kStEverySnapshot,
       {},
       "Writers must record `constraint-statuses` in every snapshot of a table that has "
       "constraints",
       "every snapshot of a table with constraints records statuses",
       B::kWriter,
       {"CheckStatusesRecorded"}},
      {R::kStReaderLookup,
       {},
       "Otherwise, the constraint is `unvalidated` for the snapshot",
       "readers: a listed ID has that status, any other is unvalidated",
       B::kReader,
       {"ReaderStatus"}},
      {R::kStNoAddCarry,
       {},
       "Such a commit, for example a delete or a compaction operation, may carry over "
       "the parent snapshot's `validated` or `valid` status for a constraint without "
       "checking rows again.",
       "a commit that adds no rows may carry validated/valid (switches status-carry, "
       "compaction-counts-as-added)",
       B::kWriter,
       {"CarriedStatus"}},
      // ice.* (surrounding Iceberg rules, SURROUNDINGS.md; not quoted from the seed)
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
      // Appended IDs.
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

/// "def" for "def.v4-only".
std::string_view GroupOf(RuleId id) {
  std::string_view name = RuleIdName(id);
  return name.substr(0, name.find('.'));
}

/// The clauses of `rule` from the clause table; a rule without rows there has the one
/// clause `whole`, its words the quote (or summary).
std::vector<ClauseInfo> ClausesOf(const RuleInfo& rule) {
  std::vector<ClauseInfo> out;
  const std::string rule_name(RuleIdName(rule.id));
  for (const ClauseRow& row : ClauseTable()) {
    if (row.rule != rule.id) continue;
    out.push_back({rule.id, rule_name + "/" + std::string(row.name), row.name, row.words,
                   row.tag, row.gap, row.exempt});
  }
  if (out.empty()) {
    std::string_view gap = "not split into clauses yet";
    if (rule.group == "ice")
      gap = "a surrounding Iceberg rule: the sample's mutants cover the constraint rules";
    if (rule.group == "proto") gap = "a protocol convention, not a spec clause";
    ClauseExempt exempt;
    if (rule.coverage_exempt) {
      gap = "";
      exempt = {ExemptKind::kInformational, "informational (coverage-exempt): nothing to break"};
    }
    out.push_back({rule.id, rule_name + "/whole", "whole",
                   rule.quote.empty() ? rule.summary : rule.quote, "", gap, exempt});
  }
  return out;
}

}  // namespace

const std::vector<ClauseInfo>& AllClauses() {
  static const std::vector<ClauseInfo> all = [] {
    std::vector<ClauseInfo> out;
    for (const RuleInfo& r : RuleCatalogue())
      out.insert(out.end(), r.clauses.begin(), r.clauses.end());
    return out;
  }();
  return all;
}

const ClauseInfo* FindClause(std::string_view id) {
  for (const ClauseInfo& c : AllClauses())
    if (c.id == id) return &c;
  return nullptr;
}

const std::vector<RuleInfo>& RuleCatalogueEntries() {
  static const std::vector<RuleInfo> entries = MakeEntries();
  return entries;
}

const std::vector<RuleInfo>& RuleCatalogue() {
  static const std::vector<RuleInfo> catalogue = [] {
    std::vector<RuleInfo> out;
    for (RuleId id : kAllRuleIds) {
      const RuleInfo* found = nullptr;
      for (const RuleInfo& e : RuleCatalogueEntries()) {
        if (e.id == id) {
          found = &e;
          break;
        }
      }
      // An ID appended to rule_id.h before its entry here still gets a row, so that
      // FindRule never fails; the catalogue test flags it.
      RuleInfo info =
          found ? *found
                : RuleInfo{id, {},   "", kUncataloguedSummary, Binds::kInformational,
                           {}, false};
      info.group = GroupOf(id);
      info.clauses = ClausesOf(info);
      out.push_back(std::move(info));
    }
    return out;
  }();
  return catalogue;
}

const RuleInfo& FindRule(RuleId id) {
  const auto& catalogue = RuleCatalogue();
  for (const RuleInfo& r : catalogue) {
    if (r.id == id) return r;
  }
  assert(false && "every RuleId is in kAllRuleIds");
  return catalogue.front();
}

std::string_view ToString(ExemptKind kind) {
  switch (kind) {
    case ExemptKind::kNone:
      return "";
    case ExemptKind::kInformational:
      return "informational";
    case ExemptKind::kPermission:
      return "permission";
    case ExemptKind::kAlwaysAllowed:
      return "always-allowed";
    case ExemptKind::kComposite:
      return "composite";
    case ExemptKind::kInexpressible:
      return "inexpressible";
  }
  return "?";
}

std::string_view ToString(Binds binds) {
  switch (binds) {
    case Binds::kWriter:
      return "writer";
    case Binds::kReader:
      return "reader";
    case Binds::kMetadata:
      return "metadata";
    case Binds::kInformational:
      return "informational";
  }
  return "?";
}

}  // namespace ictk
