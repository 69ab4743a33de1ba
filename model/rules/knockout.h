/// \file
/// Clause knock-outs: the model judging a request as if one clause of a rule did not
/// exist (docs/rules.md "Blame by the clause broken"). When an answer is outside what
/// the model allows, the judge asks which clause's knock-out would admit it: that clause
/// is the one the answer broke, and the failure is filed under it (model/judge/blame.h).
/// A knock-out is carried in `Switches::knock_out` (switches.h); it is never a reading
/// the kit certifies against, has no name on the command line and is pinned by no
/// fixture. Each rule function that a knock-out bears on asks `KnockedOut` once.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "model/iceberg/constraint.h"
#include "model/rules/finding.h"
#include "model/rules/rule_id.h"

namespace ictk {

/// The clauses the model can judge without. kNone: every clause in force.
enum class KnockOut : uint8_t {
  kNone,
  /// enf.not-enforced/whole: writers may refuse data that break a constraint that is
  /// not enforced.
  kEnfNotEnforced,
  /// enf.modified-row/whole: a modified row is not checked as an added row.
  kEnfModifiedRow,
  /// enf.keys-against-remaining/among-added: added keys are not compared with each other.
  kEnfKeysAmongAdded,
  /// enf.keys-against-remaining/against-remaining: added keys are compared only among
  /// themselves, not with the rows remaining from the parent.
  kEnfKeysAgainstRemaining,
  /// enf.keys-against-remaining/after-removals: added keys are compared with the
  /// parent's rows before the commit's removals.
  kEnfKeysAfterRemovals,
  /// sem.unique/nulls-not-compared: a null in a unique key is compared like a value.
  kSemUniqueNullsNotCompared,
  /// enf.retry-new-constraints/added: on retry, a constraint that a concurrent commit
  /// added is not verified.
  kEnfRetryNewAdded,
  /// enf.retry-new-constraints/changed-to-enforced: on retry, a constraint that a
  /// concurrent commit changed to enforced is not verified.
  kEnfRetryNewChangedToEnforced,
  /// enf.retry-keys-new-parent/whole: on retry, added keys are verified against the
  /// original parent's rows instead of the new parent's.
  kEnfRetryKeysNewParent,
  /// enf.retry-recompute-statuses/whole: on retry, the statuses are computed from the
  /// transaction's original parent instead of the new one.
  kEnfRetryRecomputeStatuses,
  /// def.timestamp-informational/applies: a reader may take a constraint whose
  /// timestamp-ms is after the snapshot's as not applying to that snapshot (unvalidated).
  kDefTimestampInformationalApplies,
};

/// One knock-out: the clause it removes, how specific that clause is, and what the model
/// does without it.
struct KnockOutInfo {
  KnockOut knock_out;
  RuleId rule;
  std::string_view clause;  ///< "enf.not-enforced/whole" (model/judge/rule_clauses*.cc)
  /// When several knock-outs admit an answer, the highest wins: 3 a clause that applies
  /// only on a retry, 2 a clause about which rows a writer compares or checks, 1 what a
  /// constraint means. The more specific clause is the one whose absence the answer
  /// shows: a retry that skips a concurrently enforced constraint also skips its keys
  /// against the remaining rows, but only the retry clause says why.
  int specificity;
  /// What the model judges without the clause, in words (for docs and findings).
  std::string_view without;
  /// What the clause requires, said in a finding filed under it.
  std::string_view requires_;
};

/// Every knock-out but kNone, in catalogue order.
const std::vector<KnockOutInfo>& KnockOuts();
/// The entry of `k` (not kNone).
const KnockOutInfo& KnockOutOf(KnockOut k);

/// One rule more specific than another: where one answer breaks both at once, the
/// breach of `specific` entails that of `general` there, and the failure is filed under
/// `specific` (docs/rules.md "Blame by the clause broken"). Every rule is more specific
/// than proto.answer, the protocol's catch-all; that pair is not listed.
struct Refinement {
  RuleId specific;
  RuleId general;
  std::string_view why;
};

/// Every listed refinement.
const std::vector<Refinement>& Refinements();
/// Whether `a` is more specific than `b` (a listed refinement, or `b` is proto.answer and
/// `a` is not).
bool Refines(RuleId a, RuleId b);
/// Orders `findings` so that no finding comes after one whose rule it refines; findings
/// not related by Refines keep their order.
void OrderBySpecificity(Findings& findings);

/// The clause a constraint of `type` states about the rows ("sem.check/whole",
/// "sem.unique/distinct", "sem.primary-key/distinct") and its rule: a writer that
/// claims such a constraint broken (rejects a commit for it, or records it `invalid`)
/// where every row satisfies it has evaluated what the constraint means wrongly.
struct SemanticClause {
  RuleId rule;
  std::string_view clause;
  std::string_view requires_;
};
SemanticClause SemanticClauseOf(ConstraintType type);

}  // namespace ictk
