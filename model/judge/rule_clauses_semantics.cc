/// \file
/// The clauses of the semantics (sem.*) and enforcement (enf.*) rules.
/// The scheme is rule_clauses.cc's.
#include "model/judge/rule_catalogue_internal.h"

namespace ictk {

namespace {

using R = RuleId;

using E = ExemptKind;

}  // namespace

/// The clauses of sem.*.
std::vector<ClauseRow> SemClauses() {
  return {
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
  };
}

/// The clauses of enf.*.
std::vector<ClauseRow> EnfClauses() {
  return {
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
  };
}

}  // namespace ictk
