/// \file
/// The rule catalogue's entries of the semantics (sem.*) and enforcement (enf.*) rules.
#include "model/judge/rule_catalogue_internal.h"

namespace ictk {

namespace {

using B = Binds;
using R = RuleId;

}  // namespace

/// sem.*: what a constraint means.
std::vector<RuleInfo> SemEntries() {
  return {
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
  };
}

/// enf.*: enforcement.
std::vector<RuleInfo> EnfEntries() {
  return {
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
  };
}

}  // namespace ictk
