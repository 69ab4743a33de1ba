/// \file
/// Blame by the clause broken (blame.h).
#include "model/judge/blame.h"

#include <fmt/format.h>

#include <algorithm>
#include <vector>

#include "model/judge/explain_rows.h"
#include "model/judge/operations.h"
#include "model/judge/rule_catalogue.h"

namespace ictk {
namespace {

bool SamePlace(const Finding& a, const Finding& b) {
  return a.constraint_id == b.constraint_id && a.pointer == b.pointer;
}

bool ClaimsHolds(RuleId rule) {
  return rule == RuleId::kStValid || rule == RuleId::kStValidated;
}

/// The status expectation of constraint `id` in the snapshot `outcome` requires.
const StatusExpectation* StatusOf(const AllowedOutcome& outcome,
                                  std::optional<ConstraintId> id) {
  if (!id || !outcome.metadata || !outcome.metadata->new_snapshot) return nullptr;
  for (const StatusExpectation& e : outcome.metadata->new_snapshot->statuses)
    if (e.id == id) return &e;
  return nullptr;
}

/// Whether judged under `knocked` the answer no longer has the failure `first` reports.
/// A result (ok where a rejection is required, a rejection or kind no cause allows) is
/// admitted when the knocked outcome allows it — a rejection only with nothing else
/// wrong, since its `constraint-ids` say what it is about. Another finding is admitted
/// when the answer has none at the same place under `knocked`, or, for a status claiming
/// the constraint holds, when without the clause the rows the commit wrote would not
/// break it: the writer could "prove that the rows it added follow the constraint".
bool Admits(const AllowedOutcome& outcome, const AllowedOutcome& knocked,
            const Answer& answer, bool result_failed, const Finding& first,
            int specificity) {
  if (result_failed) {
    if (!ResultAllowed(knocked, answer)) return false;
    return answer.result != AnswerResult::kRejected || Judge(knocked, answer).empty();
  }
  if (!ResultAllowed(knocked, answer)) return false;
  const Findings again = Judge(knocked, answer);
  if (std::none_of(again.begin(), again.end(),
                   [&](const Finding& f) { return SamePlace(f, first); }))
    return true;
  // Only a retry's clause is the specific one here: elsewhere a status claiming that
  // the rows hold where the added rows break them is the status rule's breach (a writer
  // that compared keys wrongly is caught on an enforced constraint, as a result).
  if (!ClaimsHolds(first.rule) || specificity < 3) return false;
  const StatusExpectation* before = StatusOf(outcome, first.constraint_id);
  const StatusExpectation* after = StatusOf(knocked, first.constraint_id);
  return before != nullptr && after != nullptr && before->facts.added_rows_violate &&
         !after->facts.added_rows_violate;
}

/// The constraint a knock-out's admission concerns: for a result, the first constraint
/// named by a ruling of `outcome` that the knocked-out outcome no longer has; otherwise
/// the failing finding's.
std::optional<ConstraintId> ConcernedConstraint(const AllowedOutcome& outcome,
                                                const AllowedOutcome& knocked,
                                                bool result_failed, const Finding& first) {
  if (!result_failed) return first.constraint_id;
  const auto has = [](const Findings& in, const Finding& f) {
    return std::any_of(in.begin(), in.end(), [&](const Finding& g) {
      return g.rule == f.rule && g.constraint_id == f.constraint_id;
    });
  };
  for (const Findings* why : {&outcome.reject_required_by, &outcome.decided_by})
    for (const Finding& f : *why)
      if (f.constraint_id && !has(knocked.decided_by, f)) return f.constraint_id;
  for (const Finding& f : knocked.decided_by)
    if (f.constraint_id && !has(outcome.decided_by, f)) return f.constraint_id;
  return first.constraint_id;
}

/// A constraint the answer claims broken that every row satisfies: a
/// constraint-violation naming it where no cause is about it, or `invalid` recorded for
/// it where the parent's `invalid` was not carried and no UDF is called. Such a writer
/// evaluated what the constraint means wrongly (SemanticClauseOf).
std::optional<ConstraintId> FalselyBroken(const AllowedOutcome& outcome,
                                          const Answer& answer, bool result_failed,
                                          const Finding& first) {
  if (result_failed) {
    if (answer.result != AnswerResult::kRejected ||
        answer.error_kind != RejectKind::kConstraintViolation || !answer.error_constraint_ids)
      return std::nullopt;
    const std::set<ConstraintId>& about =
        outcome.ConstraintIdsOf(RejectKind::kConstraintViolation);
    for (ConstraintId id : *answer.error_constraint_ids)
      if (!about.count(id)) return id;
    return std::nullopt;
  }
  if (first.rule != RuleId::kStInvalid) return std::nullopt;
  const StatusExpectation* e = StatusOf(outcome, first.constraint_id);
  // Only where the writer checked every row (all were written by this commit, or the
  // commit validated them): elsewhere a writer that listed `invalid` without checking
  // the rows it did not write explains the answer as well, and st.invalid ("because the
  // constraint was checked") is the clause it broke.
  if (e == nullptr || !e->facts.holds || e->facts.calls_udf || !e->facts.full_validation ||
      e->facts.parent == ConstraintStatus::kInvalid)
    return std::nullopt;
  return first.constraint_id;
}

const Constraint* ConstraintOf(const CatalogState& state, const Request& request,
                               ConstraintId id) {
  const TableState* table = state.FindTable(request.table);
  return table == nullptr ? nullptr : FindConstraintById(table->metadata, id);
}

/// The findings of the same failure as `first` (every rule that decided the result, or
/// the rules named at the same place), which the blamed clause explains, are dropped;
/// the others stay, after `blamed`.
Findings WithBlamed(Finding blamed, Findings findings, bool result_failed,
                    const Finding& first) {
  Findings out;
  out.push_back(std::move(blamed));
  for (Finding& f : findings)
    if (!result_failed && !SamePlace(f, first)) out.push_back(std::move(f));
  return out;
}

BlameResult Blame(const CatalogState& state, const Request& request,
                  const Switches& switches, const AllowedOutcome& outcome,
                  const Answer& answer, Findings findings) {
  BlameResult out;
  // An error or an unsupported answer breaks no clause of the spec: it is judged as
  // the protocol says (proto.answer, ice.single-value). Findings that the judge did not
  // make (an invariant of every returned metadata, a rejection that changed the table)
  // name their own rule.
  const Findings judged = Judge(outcome, answer);
  if (findings.empty() || answer.result == AnswerResult::kError ||
      answer.result == AnswerResult::kUnsupported || switches.knock_out != KnockOut::kNone ||
      std::find(judged.begin(), judged.end(), findings.front()) == judged.end()) {
    OrderBySpecificity(findings);
    if (!findings.empty()) {
      out.judged_rule = findings.front().rule;
      out.clause = ClauseIdOf(findings.front());
    }
    out.findings = std::move(findings);
    return out;
  }
  OrderBySpecificity(findings);
  const Finding first = findings.front();
  out.judged_rule = first.rule;
  const bool result_failed = !ResultAllowed(outcome, answer);
  // The most specific first; of equally specific ones, the first in catalogue order.
  static const std::vector<const KnockOutInfo*> kBySpecificity = [] {
    std::vector<const KnockOutInfo*> v;
    for (const KnockOutInfo& k : KnockOuts()) v.push_back(&k);
    std::stable_sort(v.begin(), v.end(), [](const KnockOutInfo* a, const KnockOutInfo* b) {
      return a->specificity > b->specificity;
    });
    return v;
  }();
  for (const KnockOutInfo* k : kBySpecificity) {
    Switches knocked = switches;
    knocked.knock_out = k->knock_out;
    const AllowedOutcome o = Apply(state, request, knocked);
    if (!Admits(outcome, o, answer, result_failed, first, k->specificity)) continue;
    out.knock_out = k->knock_out;
    out.clause = std::string(k->clause);
    Finding blamed{k->rule, ConcernedConstraint(outcome, o, result_failed, first),
                   result_failed ? std::string() : first.pointer,
                   fmt::format("{} — {} (the model allows this answer only without {})",
                               first.detail, k->requires_, k->clause)};
    out.findings = WithBlamed(std::move(blamed), std::move(findings), result_failed, first);
    return out;
  }
  // No clause's absence admits it. A constraint claimed broken that every row satisfies
  // was evaluated wrongly: the clause of what it means.
  if (const std::optional<ConstraintId> id =
          FalselyBroken(outcome, answer, result_failed, first)) {
    const Constraint* c = ConstraintOf(state, request, *id);
    if (c != nullptr && c->type) {
      const SemanticClause sem = SemanticClauseOf(*c->type);
      out.clause = std::string(sem.clause);
      Finding blamed{sem.rule, id, result_failed ? std::string() : first.pointer,
                     fmt::format("{} — the answer claims constraint {} (ID {}) broken, but "
                                 "{} ({})",
                                 first.detail, c->name.value_or("?"), *id, sem.requires_,
                                 sem.clause)};
      out.findings = WithBlamed(std::move(blamed), std::move(findings), result_failed, first);
      return out;
    }
  }
  // Otherwise the rules that together forbid the answer, the most specific first; the
  // clause is the one the first finding names (or its rule's only clause).
  out.clause = ClauseIdOf(first);
  out.findings = std::move(findings);
  return out;
}

}  // namespace

BlameResult BlameByClause(const CatalogState& state, const Request& request,
                          const Switches& switches, const AllowedOutcome& outcome,
                          const Answer& answer, Findings findings) {
  BlameResult out = Blame(state, request, switches, outcome, answer, std::move(findings));
  // The blamed finding shows its constraint on the rows the commit writes.
  if (!out.findings.empty() && out.findings.front().constraint_id &&
      switches.knock_out == KnockOut::kNone)
    out.findings.front().evaluation =
        ExplainRows(state, request, *out.findings.front().constraint_id);
  return out;
}

}  // namespace ictk
