/// \file
/// The clauses of the schema evolution (sch.*), update (upd.*) and status (st.*) rules.
/// The scheme is rule_clauses.cc's.
#include "model/judge/rule_catalogue_internal.h"

namespace ictk {

namespace {

using R = RuleId;

using E = ExemptKind;

}  // namespace

/// The clauses of sch.*.
std::vector<ClauseRow> SchClauses() {
  return {
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
  };
}

/// The clauses of upd.*.
std::vector<ClauseRow> UpdClauses() {
  return {
      {R::kUpdNameEnforcedOnly, "whole",
       "Only `name` and `enforced` fields in a constraint definition can be updated",
       "update-constraint/change-type", ""},
      {R::kUpdTimestamp, "whole", "`timestamp-ms` must be updated when the constraint is updated",
       "update-constraint/rename", ""},
      {R::kUpdDefinitionImmutable, "expression", "The `expression`",
       "update-constraint/change-definition", ""},
      {R::kUpdDefinitionImmutable, "field-ids", "`field-ids` fields must not change",
       "update-constraint/change-definition", ""},
  };
}

/// The clauses of st.*.
std::vector<ClauseRow> StClauses() {
  return {
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
  };
}

}  // namespace ictk
