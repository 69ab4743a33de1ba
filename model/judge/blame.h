/// \file
/// Blame by the clause broken (docs/rules.md "Blame by the clause broken"). `Judge`
/// (outcome.h) names the rules that decided the allowed outcome; when an answer is
/// outside it, those are often the rules that require success, not the clause the answer
/// broke. `BlameByClause` asks the model instead: it judges the request again with each
/// clause of knockout.h knocked out, and the clause whose absence admits the answer is
/// the one it broke (of several, the most specific; of none, the findings stay as Judge
/// gave them: the rules that together forbid the answer). The harness, the fixture
/// replay and the mutation score all take a failure's rule from here.
#pragma once

#include <optional>
#include <string>

#include "model/judge/outcome.h"
#include "model/judge/requests.h"
#include "model/judge/table_state.h"
#include "model/rules/finding.h"
#include "model/rules/knockout.h"
#include "model/rules/switches.h"

namespace ictk {

/// A failing answer's findings, re-filed.
struct BlameResult {
  /// The findings to report, the blamed one first. Without a knock-out that admits the
  /// answer, Judge's findings unchanged.
  Findings findings;
  /// The knock-out that admits the answer, kNone when none does.
  KnockOut knock_out = KnockOut::kNone;
  /// The clause the answer broke ("enf.retry-new-constraints/changed-to-enforced"), ""
  /// when no knock-out admits it.
  std::string clause;
  /// The first finding's rule before it was re-filed (Judge's findings, the most specific
  /// first): what a shrinker keeps, so that the minimized history is the simplest one
  /// that fails the same way, and is then blamed afresh.
  std::optional<RuleId> judged_rule;
};

/// Re-files `findings`, what Judge(outcome, answer) found for `request` in `state` under
/// `switches` (outcome = Apply(state, request, switches)): the first finding is the one
/// blamed. For a result the outcome does not allow (ok where a rejection is required, a
/// rejection where success is, a kind no cause allows), a knock-out admits the answer
/// when its outcome allows that result and kind; for any other finding, when judged
/// under it the answer has no finding at the same constraint and pointer. Pure; costs one
/// Apply per knock-out, and only for a failing answer.
BlameResult BlameByClause(const CatalogState& state, const Request& request,
                          const Switches& switches, const AllowedOutcome& outcome,
                          const Answer& answer, Findings findings);

}  // namespace ictk
