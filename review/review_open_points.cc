/// \file
/// The open points of `ictk review` (review_internal.h ReviewOpenPoint): each shown on a
/// history written for it, or on the shortest generated history where the model leaves
/// the choice open, minimized and written as a fixture.
#include <fmt/format.h>

#include <optional>
#include <set>
#include <string>
#include <vector>

#include "model/judge/operations.h"
#include "model/judge/rule_catalogue.h"
#include "properties/fixture.h"
#include "properties/minimize.h"
#include "properties/runner.h"
#include "review/review.h"
#include "review/review_internal.h"

namespace ictk {
namespace review_internal {
namespace {

using json = nlohmann::json;

bool OutcomeOpen(const AllowedOutcome& o, std::string_view reject_kind) {
  if (!reject_kind.empty()) {
    if (!o.ok_allowed || !o.reject_allowed) return false;
    for (RejectKind k : o.reject_kinds)
      if (ToString(k) == reject_kind) return true;
    return false;
  }
  if (o.ok_allowed && o.reject_allowed) return true;
  if (o.ok_allowed && o.metadata && o.metadata->new_snapshot)
    for (const StatusExpectation& e : o.metadata->new_snapshot->statuses)
      if (e.allowed.ToVector().size() > 1) return true;
  return false;
}

struct Shown {
  int step = 0;  ///< 1-based
  std::string allowed;
  RuleId rule = RuleId::kProtoAnswer;
  std::string label;
  std::vector<Request> requests;
  std::vector<json> expects;
  bool open = false;  ///< the model leaves the shown step's outcome open
};

/// The first step of `plan` that shows `point`, on the model alone at the defaults.
std::optional<Shown> ShowOpenPoint(const Plan& plan, const RenderOptions& options,
                                   const OpenPoint& point) {
  const Switches switches;
  Shown shown;
  CatalogState state;
  HistoryRenderer renderer(plan, options);
  bool after_seen = point.after_label.empty();
  while (std::optional<RenderedStep> step = renderer.Next(state)) {
    const Request& r = step->request;
    const AllowedOutcome o = Apply(state, r, switches);
    const Answer a = CanonicalAnswer(state, r, o, switches);
    shown.requests.push_back(r);
    shown.expects.push_back(FixtureExpectation(o, state, r, a));
    if (after_seen && step->label.starts_with(point.label) &&
        (!point.open_outcome || OutcomeOpen(o, point.reject_kind))) {
      shown.step = static_cast<int>(shown.requests.size());
      shown.allowed = DescribeAllowed(o, state, r);
      shown.label = step->label;
      if (!o.decided_by.empty())
        shown.rule = o.decided_by.front().rule;
      else if (!step->tags.empty())
        shown.rule = step->tags.front();
      return shown;
    }
    if (!point.after_label.empty() && step->label.starts_with(point.after_label))
      after_seen = true;
    if (!Adopt(state, r, a, switches).empty()) break;
  }
  return std::nullopt;
}

std::string Slug(std::string_view prefix, std::string label) {
  for (char& c : label)
    if (c == '/' || c == ' ') c = '-';
  while (!label.empty() && label.back() == '-') label.pop_back();
  return std::string(prefix) + label;
}

/// The last request of a written history, on the model alone at the defaults.
std::optional<Shown> ShowOnRequests(const std::vector<Request>& requests,
                                    const std::string& label) {
  const Switches switches;
  Shown shown;
  CatalogState state;
  for (const Request& r : requests) {
    const AllowedOutcome o = Apply(state, r, switches);
    const Answer a = CanonicalAnswer(state, r, o, switches);
    shown.requests.push_back(r);
    shown.expects.push_back(FixtureExpectation(o, state, r, a));
    if (shown.requests.size() == requests.size()) {
      shown.step = static_cast<int>(requests.size());
      shown.allowed = DescribeAllowed(o, state, r);
      shown.label = label;
      shown.open = OutcomeOpen(o, "");
      if (!o.decided_by.empty()) shown.rule = o.decided_by.front().rule;
      return shown;
    }
    if (!Adopt(state, r, a, switches).empty()) break;
  }
  return std::nullopt;
}

/// The point shown on its written history `h`; `error` says why when the history cannot
/// show it.
OpenPointReview ReviewWrittenHistory(const OpenPoint& point, const ReviewOptions& options,
                                     const ReviewHistory& h) {
  OpenPointReview out;
  out.point = &point;
  Result<std::vector<Request>> requests = BuildHistory(h, Switches{});
  if (!requests) {
    out.error = requests.error().message;
    return out;
  }
  std::optional<Shown> best = ShowOnRequests(*requests, "history/" + std::string(h.name));
  if (!best) {
    out.error = fmt::format("the written history {} stops before its last request", h.name);
    return out;
  }
  if (point.decided.empty() && !best->open) {
    out.error = fmt::format(
        "the written history {} leaves no choice open at its last request: {}", h.name,
        best->allowed);
    return out;
  }
  out.written = std::string(h.name);
  out.original_requests = best->step;
  out.step = best->step;
  out.allowed = best->allowed;
  out.requests = best->requests;
  FixtureInput in;
  RuleId rule = best->rule;
  if (rule == RuleId::kProtoAnswer && !point.rule.empty())
    rule = ParseRuleId(point.rule).value_or(rule);
  in.primary_rule = std::string(RuleIdName(rule));
  in.rules = {in.primary_rule};
  in.slug = Slug("open-point-", std::string(h.name));
  in.requests = best->requests;
  in.expects = best->expects;
  in.recorded_switches = std::set<std::string>{};
  in.tool = options.tool;
  in.seed = options.seed;
  in.description = fmt::format(
      "The review's written history `{}` ({} requests). An open point of "
      "docs/interpretations.md: {}. At step {} the model {}: {}.",
      h.name, best->requests.size(), point.title, best->step,
      point.decided.empty() ? "leaves the choice open" : "decides it", best->allowed);
  out.fixture = MakeFixture(in);
  out.fixture_path = FixtureRelativePath(out.fixture);
  return out;
}

/// The point shown on the shortest generated history where the model leaves its choice
/// open: the first of `options.histories` that shows it, minimized. `case_index` is unset
/// when none does.
OpenPointReview ReviewGeneratedHistories(const OpenPoint& point,
                                         const ReviewOptions& options) {
  OpenPointReview out;
  out.point = &point;
  HistoryGenConfig config;
  config.max_steps = options.max_steps;
  if (point.reader) config.capabilities.writer = false;
  for (int i = 0; i < options.histories; ++i) {
    const rc::Shrinkable<Plan> root = CasePlan(options.seed, i, config);
    const std::optional<Plan> plan = PlanValue(root);
    if (!plan) continue;
    const RenderOptions render =
        CaseRenderOptions(options.seed, i, 0, config.capabilities, Switches{});
    std::optional<Shown> first = ShowOpenPoint(*plan, render, point);
    if (!first) continue;
    Shown best = *first;
    std::optional<Plan> minimized;
    MinimizePlan(
        root, options.shrink_budget, [] { return false; },
        [&](const Plan& p) {
          std::optional<Shown> s = ShowOpenPoint(p, render, point);
          if (!s || s->requests.size() > best.requests.size()) return false;
          best = std::move(*s);
          return true;
        },
        &minimized);
    out.case_index = i;
    out.original_requests = first->step;
    out.step = best.step;
    out.allowed = best.allowed;
    out.requests = best.requests;
    if (minimized) out.plan = *minimized;
    FixtureInput in;
    in.primary_rule = std::string(RuleIdName(best.rule));
    in.rules = {in.primary_rule};
    in.slug = Slug("open-point-", best.label);
    in.requests = best.requests;
    in.expects = best.expects;
    in.recorded_switches = std::set<std::string>{};
    in.tool = options.tool;
    in.seed = options.seed;
    in.description = fmt::format(
        "Found by `ictk review` (seed {}, case {}), minimized to {} requests. An open "
        "point of docs/interpretations.md: {}. At step {} ({}) the model leaves the choice "
        "open: {}.",
        options.seed, i, best.requests.size(), point.title, best.step, best.label,
        best.allowed);
    out.fixture = MakeFixture(in);
    out.fixture_path = FixtureRelativePath(out.fixture);
    return out;
  }
  return out;
}

}  // namespace

OpenPointReview ReviewOpenPoint(const OpenPoint& point, const ReviewOptions& options) {
  // A point with a written history is shown on the first.
  const std::vector<ReviewHistory> written = OpenPointHistories(point.title);
  if (!written.empty()) return ReviewWrittenHistory(point, options, written.front());
  if (!point.not_shown.empty()) {
    OpenPointReview out;
    out.point = &point;
    return out;
  }
  return ReviewGeneratedHistories(point, options);
}

}  // namespace review_internal
}  // namespace ictk
