/// \file
/// The spec's "Enforcement" rules (enf.*), each one function over the facts about one
/// constraint after a commit (ConstraintEffect). The judge (model/judge/commit.cc) finds
/// the facts — through its key indexes and check tallies, in time proportional to the
/// rows a commit touches — and folds the rulings into the allowed outcome, as the
/// protocol's `constraint-violation`.
#pragma once

#include <cstdint>
#include <optional>
#include <set>
#include <string>

#include "model/iceberg/constraint.h"
#include "model/iceberg/table_metadata.h"
#include "model/rules/ruling.h"
#include "model/rules/status_rules.h"
#include "model/rules/switches.h"

namespace ictk {

/// What a commit does to one constraint of its table.
struct ConstraintEffect {
  const Constraint* constraint = nullptr;
  ConstraintId id = 0;
  std::string name;
  bool enforced = false;
  bool broken_by_added = false;     ///< a brand-new row breaks it
  bool broken_by_modified = false;  ///< a modified row breaks it
  bool unverifiable_added = false;  ///< a brand-new row's check cannot be evaluated
  bool unverifiable_modified = false;
  bool nondeterministic = false;  ///< its check calls a UDF that is not deterministic now
  bool calls_udf = false;
  bool holds_after = false;     ///< it holds on the live rows after the commit
  bool violated_after = false;  ///< some live row after the commit violates it
  std::string example;          ///< an offending row key, for messages
};

/// The commit being judged.
struct CommitContext {
  const Switches& switches;
  bool retry = false;
  const TableMetadata* base = nullptr;  ///< the transaction's base, on a retry
};

/// "a writer must verify that added rows have distinct keys among themselves and do not
/// conflict with rows remaining from the new parent after applying the commit's removals"
/// (enf.keys-against-remaining): a key tuple written by the commit conflicts when, after
/// the commit's removals and additions, more than one live row carries it.
bool KeyConflictsAfterCommit(int64_t rows_with_key_after);

/// "When a constraint is `enforced`, writers must ensure that written data conform to the
/// constraint." (enf.enforced) A commit whose added rows break an enforced constraint
/// must fail; one whose written rows conform may succeed.
Rulings EnforcedRule(const ConstraintEffect& e, const CommitContext& ctx);

/// "For constraints, a row whose values changed in a commit counts as a removed row and
/// an added row, whether the engine models the change as deleting and inserting the row
/// or as a modification that preserves the row ID" (enf.modified-row). Under switch
/// modified-counts-as-added=false a modified row that breaks an enforced constraint may
/// also be accepted.
Rulings ModifiedRowRule(const ConstraintEffect& e, const CommitContext& ctx);

/// "When a constraint is not enforced, writers are not required to ensure that written
/// data conform to the constraint." (enf.not-enforced) So such a commit succeeds; under
/// switch unenforced-may-reject a writer may also reject it.
Rulings NotEnforcedRule(const ConstraintEffect& e, const CommitContext& ctx);

/// On a retry, the rule that makes an enforced constraint's violation a failure:
/// "When a commit is retried against a new parent snapshot, the rows that a writer adds
/// must still satisfy the table's enforced constraints" (enf.retry-enforced), refined by
/// "A writer must also verify the rows that it adds against any constraint that a
/// concurrent commit added or changed to enforced" (enf.retry-new-constraints),
/// "verifying them against the original parent is not sufficient"
/// (enf.retry-keys-new-parent) and "A check constraint is evaluated for each row on its
/// own, so a retry cannot change its result" (enf.retry-check).
RuleId RetryRule(const ConstraintEffect& e, const TableMetadata& base);

/// The rulings of a violation of `rule` by the commit: the rule itself, for a key
/// enf.keys-against-remaining, the semantic rule broken (sem.check / sem.unique /
/// sem.primary-key) and, on a retry, "the rows that a writer adds must still satisfy the
/// table's enforced constraints" (enf.retry-enforced) with RetryRule's refinement.
Rulings RejectViolation(const ConstraintEffect& e, const CommitContext& ctx, bool must,
                        RuleId rule, const std::string& detail);

/// What a new snapshot's statuses are computed from: the commit's facts, the status the
/// parent records and, for a retry, "must recompute constraint-statuses from the new
/// parent" (enf.retry-recompute-statuses): `parent_status` is the new parent's.
struct StatusInputs {
  bool added_rows = false;
  bool removed_rows = false;
  /// Every live row after the commit was written by it.
  bool no_remaining_old_rows = false;
  std::optional<std::set<ConstraintId>> fully_validated;  ///< validate: the named ones
};
StatusContext RecomputedStatusContext(const ConstraintEffect& e,
                                      ConstraintStatus parent_status,
                                      const StatusInputs& in, const CommitContext& ctx);

}  // namespace ictk
