/// \file
/// The rule catalogue's entries of the schema evolution (sch.*), update (upd.*) and
/// status (st.*) rules.
#include "model/judge/rule_catalogue_internal.h"

namespace ictk {

namespace {

using B = Binds;
using R = RuleId;

}  // namespace

/// sch.*: schema evolution.
std::vector<RuleInfo> SchEntries() {
  return {
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
  };
}

/// upd.*: updating a constraint.
std::vector<RuleInfo> UpdEntries() {
  return {
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
  };
}

/// st.*: constraint statuses.
std::vector<RuleInfo> StEntries() {
  return {
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
  };
}

}  // namespace ictk
