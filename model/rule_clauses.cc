/// \file
/// The clause table: each rule's sentence split into its clauses (conditions joined by
/// "and", "or", "unless", and list items), each with its words (verbatim from the rule's
/// quote or summary), the generator step label that exercises it alone, and, where the
/// clause has no generator step or no sample mutant yet, why. docs/rules.md "Clauses"
/// describes the scheme; tests/model/rule_catalogue_test.cc checks the words and
/// tests/sample/sample_mutants_test.cc checks that every clause without a gap has a
/// mutant and a generator step.
#include "model/rule_catalogue_internal.h"

namespace ictk {
namespace {

using R = RuleId;

// Reasons shared by several clauses.
constexpr std::string_view kInformational = "informational (coverage-exempt): nothing to break";
constexpr std::string_view kReaderSide =
    "reader side: a reader given metadata that breaks it may accept or refuse it at the "
    "default switches, so no mutant can be caught";

std::vector<ClauseRow> MakeClauses() {
  // {rule, name, words, tag (generator step label), gap}
  return {
      // def.*
      {R::kDefV4Only, "whole",
       "Constraints are added in v4 and are not supported in v3 or earlier.",
       "add-constraint/v3-table", ""},
      {R::kDefTypes, "whole", "Three constraint types are defined",
       "add-invalid-constraint/def.types", ""},
      {R::kDefByFieldId, "whole", "must refer to fields by field ID",
       "add-invalid-constraint/expr.id-references",
       "a request names key fields only by ID; a name in a check expression is the clause "
       "expr.id-references/whole, whose mutant is name-reference-accepted"},
      {R::kDefRequiredFields, "name", "name", "add-invalid-constraint/def.required-fields/name",
       ""},
      {R::kDefRequiredFields, "enforced", "enforced (boolean)",
       "add-invalid-constraint/def.required-fields/enforced", ""},
      {R::kDefRequiredFields, "type", "type", "",
       "a request without `type` is malformed (proto.request) before the rule applies"},
      {R::kDefRequiredFields, "stored-id-and-timestamp", "constraint-id (int)", "",
       kReaderSide},
      {R::kDefIdUnique, "whole", "ID of the constraint; unique within the table",
       "parse-metadata/duplicate-id", kReaderSide},
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
       "must not be used to determine whether a constraint applies to a snapshot", "",
       "no step makes timestamp-ms disagree with the snapshot order"},
      {R::kDefTimestampInformational, "holds", "or whether it holds", "",
       "no step makes timestamp-ms disagree with the snapshot order"},
      {R::kDefSinglePk, "whole", "A table may have at most one `primary-key` constraint.",
       "add-invalid-constraint/def.single-pk", ""},
      {R::kDefEvolveIndependently, "whole",
       "Constraints may evolve independently from the schema", "", kInformational},
      // key.*
      {R::kKeyPrimitiveOnly, "struct", "no struct",
       "add-invalid-constraint/key.primitive-only/struct", ""},
      {R::kKeyPrimitiveOnly, "list-or-map", "list, map",
       "add-invalid-constraint/key.primitive-only/list-or-map", ""},
      {R::kKeyPrimitiveOnly, "variant", "variant", "",
       "the schema generator makes no variant columns"},
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
      {R::kSemLiveRows, "whole", "after applying deletes", "",
       "its mutants are the clauses of enf.keys-against-remaining and st.invalid/carried"},
      {R::kSemCheck, "whole", "every row must satisfy a predicate", "append/break-check", ""},
      {R::kSemUnique, "distinct", "the values of a set of fields must be distinct",
       "append/collide-among", ""},
      {R::kSemUnique, "nulls-not-compared",
       "a row in which any field in the set is null is not compared", "append/null-unique",
       ""},
      {R::kSemPrimaryKey, "distinct", "must be distinct across all rows",
       "append/collide-among", ""},
      {R::kSemPrimaryKey, "not-null", "must not be null", "",
       "primary-key fields are required (key.pk-required), so a null key part is a "
       "malformed row (proto.request)"},
      // enf.*
      {R::kEnfEnforced, "whole",
       "writers must ensure that written data conform to the constraint", "",
       "its mutants are the clauses of sem.*, enf.keys-against-remaining and "
       "enf.modified-row"},
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
       "its mutants are the clauses of enf.retry-keys-new-parent and "
       "enf.retry-new-constraints"},
      {R::kEnfRetryCheck, "whole", "a retry cannot change its result", "",
       "a permission of sorts: re-evaluating a check on retry gives the same answer"},
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
       kInformational},
      // id.*
      {R::kIdLastDefaultZero, "whole", "treated as 0 when it is not present", "",
       "the sample always writes last-constraint-id, so no mutant of it shows"},
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
       "read-statuses/missing-constraint", kReaderSide},
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
       "read-statuses/identifiers-in-v4", kReaderSide},
      // expr.*
      {R::kExprIdReferences, "whole", "must use ID references",
       "add-invalid-constraint/expr.id-references", ""},
      {R::kExprRowLocal, "whole", "evaluated for each row over the values of that row", "",
       "coverage-exempt: the expression grammar has no aggregates, windows or subqueries"},
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
       "", "its mutant would be st.validated/checked-holds's (validated-after-partial-check)"},
      {R::kExprWellTyped, "whole", "is serialized as described in the [Iceberg expressions",
       "add-invalid-constraint/expr.well-typed",
       "the sample's expression binder has no single switch-off point for type alignment"},
      // sch.*
      {R::kSchRenameReorder, "rename", "Renaming", "update-schema/rename",
       "no mutant yet: a sample that refuses the rename of a referenced field"},
      {R::kSchRenameReorder, "reorder", "reordering", "update-schema/move",
       "no mutant yet: a sample that refuses the move of a referenced field"},
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
       "update-schema/promote-key-field",
       "a permission under the switch key-promotions, whose default lets a writer refuse"},
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
       "replace/compaction",
       "the judge allows validated wherever the constraint holds, and a carried valid "
       "always holds, so a mutant that carries valid as validated cannot be caught"},
      {R::kStValid, "parent", "The parent snapshot's status is `validated` or `valid`",
       "append/fresh", ""},
      {R::kStValid, "adds-verified",
       "either the writer can prove that the rows it added follow the constraint or the "
       "commit did not add rows",
       "append/break-check", ""},
      {R::kStInvalid, "checked", "because the constraint was checked", "",
       "no mutant yet: a sample that records invalid without a violating row"},
      {R::kStInvalid, "carried",
       "the parent snapshot's status is `invalid` and the commit did not remove any rows",
       "delete/some", ""},
      {R::kStUnvalidated, "whole", "is not known", "",
       "always allowed: nothing to break"},
      {R::kStExactlyOneList, "every-existing",
       "Every constraint that exists when the snapshot is created must be listed",
       "append/fresh", ""},
      {R::kStExactlyOneList, "one-list",
       "a `constraint-id` must not appear in more than one list", "append/break-check", ""},
      {R::kStSound, "whole",
       "A constraint must not be listed with a status unless the status's description above "
       "holds for the snapshot",
       "", "its mutants are the clauses of st.validated, st.valid and st.invalid"},
      {R::kStEnforcementSeparate, "whole", "Enforcement and constraint status are tracked "
       "separately.", "", kInformational},
      {R::kStEverySnapshot, "whole", "Writers must record `constraint-statuses` in every snapshot",
       "", "no mutant yet: a sample that omits constraint-statuses from some snapshots"},
      {R::kStReaderLookup, "whole", "Otherwise, the constraint is `unvalidated` for the snapshot",
       "read-statuses/unlisted", ""},
      {R::kStNoAddCarry, "whole", "may carry over the parent snapshot's `validated` or `valid` "
       "status", "replace/compaction", "a permission: not carrying is legal"},
      // ice.*
      {R::kIceV4SnapshotTimestamps, "whole", "strictly greater than its parent's",
       "transaction/finish", ""},
  };
}

}  // namespace

const std::vector<ClauseRow>& ClauseTable() {
  static const std::vector<ClauseRow> rows = MakeClauses();
  return rows;
}

}  // namespace ictk
