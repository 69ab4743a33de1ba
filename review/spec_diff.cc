/// \file
/// `ictk spec-diff` (spec_diff.h): two readings side by side on generated histories.
#include "review/spec_diff.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <functional>
#include <mutex>
#include <set>

#include "codec/json_text.h"
#include "codec/protocol.h"
#include "model/judge/operations.h"
#include "model/judge/rule_catalogue.h"
#include "properties/fixture.h"
#include "properties/minimize.h"
#include "properties/runner.h"

namespace ictk {
namespace {

using json = nlohmann::json;

std::string ResultWords(const AllowedOutcome& o) {
  if (o.ok_allowed && o.reject_allowed) return "may be accepted or rejected";
  if (o.ok_allowed) return "must be accepted";
  return "must be rejected";
}

std::string KindsText(const std::set<RejectKind>& kinds) {
  std::vector<std::string> names;
  for (RejectKind k : kinds) names.emplace_back(ToString(k));
  return "{" + fmt::format("{}", fmt::join(names, ", ")) + "}";
}

std::map<std::string, StatusSet> StatusesByName(const AllowedOutcome& o) {
  std::map<std::string, StatusSet> out;
  if (!o.ok_allowed || !o.metadata || !o.metadata->new_snapshot) return out;
  for (const StatusExpectation& e : o.metadata->new_snapshot->statuses)
    out[e.name] = e.allowed;
  return out;
}

std::string FindingsText(const Findings& findings) {
  std::vector<std::string> parts;
  for (const Finding& f : findings) parts.push_back(ToString(f));
  return fmt::format("{}", fmt::join(parts, "; "));
}

/// How `a` and `b` differ on one request, or nullopt when they allow the same answers
/// (as far as result, error kinds, statuses, reader statuses and each other's canonical
/// answer go).
std::optional<StepDisagreement> Compare(const AllowedOutcome& a, const AllowedOutcome& b,
                                        const Answer& canonical_a,
                                        const Answer& canonical_b) {
  StepDisagreement d;
  if (a.ok_allowed != b.ok_allowed || a.reject_allowed != b.reject_allowed) {
    d.aspect = "result";
    d.detail = fmt::format("under a the request {}, under b it {}", ResultWords(a),
                           ResultWords(b));
    return d;
  }
  if (a.reject_allowed && a.reject_kinds != b.reject_kinds) {
    d.aspect = "error-kind";
    d.detail = fmt::format("a rejection may be {} under a, {} under b",
                           KindsText(a.reject_kinds), KindsText(b.reject_kinds));
    return d;
  }
  const auto sa = StatusesByName(a);
  const auto sb = StatusesByName(b);
  if (sa != sb) {
    d.aspect = "status";
    std::set<std::string> names;
    for (const auto& [n, s] : sa) names.insert(n);
    for (const auto& [n, s] : sb) names.insert(n);
    std::vector<std::string> parts;
    for (const std::string& n : names) {
      const auto ia = sa.find(n);
      const auto ib = sb.find(n);
      if (ia != sa.end() && ib != sb.end() && ia->second == ib->second) continue;
      parts.push_back(fmt::format("the status of `{}` may be {} under a, {} under b", n,
                                  ia == sa.end() ? "(absent)" : ToString(ia->second),
                                  ib == sb.end() ? "(absent)" : ToString(ib->second)));
    }
    d.detail = fmt::format("{}", fmt::join(parts, "; "));
    return d;
  }
  if (a.ok_allowed && a.metadata && b.metadata && a.metadata->new_snapshot &&
      b.metadata->new_snapshot && a.metadata->stale_ids != b.metadata->stale_ids &&
      !a.metadata->removed_ids.empty()) {
    // A new snapshot after a constraint was removed: one reading lets it list IDs of
    // constraints that no longer exist (st.exactly-one-list, stale-ids-in-new-snapshot).
    auto words = [](StaleIds s) { return s == StaleIds::kAllow ? "may" : "must not"; };
    d.aspect = "stale-ids";
    d.rule = RuleIdName(RuleId::kStExactlyOneList);
    d.detail = fmt::format(
        "the new snapshot {} list IDs of constraints that no longer exist under a, {} "
        "under b",
        words(a.metadata->stale_ids), words(b.metadata->stale_ids));
    return d;
  }
  if (a.may_drop_constraint_fields != b.may_drop_constraint_fields) {
    d.aspect = "reader-metadata";
    d.detail = fmt::format(
        "a reader of v1-v3 metadata {} ignore its constraint fields under a, {} under b",
        a.may_drop_constraint_fields ? "may" : "may not",
        b.may_drop_constraint_fields ? "may" : "may not");
    return d;
  }
  if (a.reader_statuses != b.reader_statuses) {
    d.aspect = "reader-statuses";
    d.detail = "a reader takes different statuses under a and under b";
    return d;
  }
  const Findings ab = Judge(b, canonical_a);
  if (!ab.empty()) {
    d.aspect = "answer";
    d.rule = RuleIdName(ab.front().rule);
    d.detail =
        fmt::format("the answer a allows is not allowed under b: {}", FindingsText(ab));
    return d;
  }
  const Findings ba = Judge(a, canonical_b);
  if (!ba.empty()) {
    d.aspect = "answer";
    d.rule = RuleIdName(ba.front().rule);
    d.detail =
        fmt::format("the answer b allows is not allowed under a: {}", FindingsText(ba));
    return d;
  }
  return std::nullopt;
}

/// What makes two disagreements "the same way" while shrinking.
struct Signature {
  std::string aspect;
  std::string op;
  bool operator==(const Signature&) const = default;
  bool operator<(const Signature& o) const {
    return std::tie(aspect, op) < std::tie(o.aspect, o.op);
  }
};

Signature SignatureOf(const StepDisagreement& d) { return {d.aspect, d.op}; }

/// The rule a fixture of this disagreement is filed under: for statuses st.sound, the rule
/// the comparison named (StepDisagreement::rule), else the first rule that decided one
/// reading and not the other.
RuleId PrimaryRule(const StepDisagreement& d, const AllowedOutcome& a,
                   const AllowedOutcome& b) {
  if (d.aspect == "status") return RuleId::kStSound;
  if (!d.rule.empty())
    if (std::optional<RuleId> known = ParseRuleId(d.rule)) return *known;
  std::set<RuleId> qa, qb;
  for (const Finding& f : a.reject_required_by) qa.insert(f.rule);
  for (const Finding& f : b.reject_required_by) qb.insert(f.rule);
  for (const Finding& f : a.reject_required_by)
    if (!qb.count(f.rule)) return f.rule;
  for (const Finding& f : b.reject_required_by)
    if (!qa.count(f.rule)) return f.rule;
  std::set<RuleId> ra, rb;
  for (const Finding& f : a.decided_by) ra.insert(f.rule);
  for (const Finding& f : b.decided_by) rb.insert(f.rule);
  for (RuleId r : ra)
    if (!rb.count(r)) return r;
  for (RuleId r : rb)
    if (!ra.count(r)) return r;
  if (!ra.empty()) return *ra.begin();
  if (!rb.empty()) return *rb.begin();
  return RuleId::kProtoAnswer;
}

struct Run {
  std::optional<StepDisagreement> at;
  std::vector<Request> requests;
  std::vector<json> expects;
  RuleId primary = RuleId::kProtoAnswer;
};

/// The steps of a history for the state under `a`: a plan's renderer, or a review's
/// hand-written requests.
using StepSource = std::function<std::optional<RenderedStep>(const CatalogState&)>;

Run RunSteps(const StepSource& next, const Switches& a, const Switches& b) {
  Run run;
  CatalogState state_a, state_b;
  int index = 0;
  while (std::optional<RenderedStep> step = next(state_a)) {
    ++index;
    const Request& r = step->request;
    const AllowedOutcome oa = Apply(state_a, r, a);
    const AllowedOutcome ob = Apply(state_b, r, b);
    const Answer ca = CanonicalAnswer(state_a, r, oa, a);
    const Answer cb = CanonicalAnswer(state_b, r, ob, b);
    run.requests.push_back(r);
    run.expects.push_back(FixtureExpectation(oa, state_a, r, ca));
    std::optional<StepDisagreement> d = Compare(oa, ob, ca, cb);
    if (!d) {
      // b first: a failed Adopt leaves its state unchanged, so both states are still the
      // ones before the step when the disagreement is described.
      const Findings adopted = Adopt(state_b, r, ca, b);
      if (adopted.empty()) {
        Adopt(state_a, r, ca, a);
        continue;
      }
      d = StepDisagreement{};
      d->aspect = "answer";
      if (!adopted.empty()) d->rule = RuleIdName(adopted.front().rule);
      d->detail = fmt::format("the answer a allows cannot be taken under b: {}",
                              FindingsText(adopted));
    }
    d->step = index;
    d->op = std::string(OpName(r.op));
    d->label = step->label;
    d->allowed_a = DescribeAllowed(oa, state_a, r);
    d->allowed_b = DescribeAllowed(ob, state_b, r);
    run.primary = PrimaryRule(*d, oa, ob);
    run.at = std::move(d);
    return run;
  }
  return run;
}

Run RunPlan(const Plan& plan, const RenderOptions& options, const Switches& a,
            const Switches& b) {
  HistoryRenderer renderer(plan, options);
  return RunSteps([&](const CatalogState& state) { return renderer.Next(state); }, a, b);
}

std::string LabelSlug(std::string label) {
  for (char& c : label)
    if (c == '/' || c == ' ') c = '-';
  return "spec-diff-" + label;
}

}  // namespace

std::optional<StepDisagreement> FirstDisagreement(const Plan& plan,
                                                  const RenderOptions& options,
                                                  const Switches& a, const Switches& b,
                                                  std::vector<Request>* requests,
                                                  std::vector<json>* expects) {
  Run run = RunPlan(plan, options, a, b);
  if (requests) *requests = std::move(run.requests);
  if (expects) *expects = std::move(run.expects);
  return run.at;
}

std::optional<Disagreement> RequestsDisagreement(const std::vector<Request>& requests,
                                                 const std::string& name,
                                                 const SpecDiffOptions& options) {
  size_t cursor = 0;
  Run run = RunSteps(
      [&](const CatalogState&) -> std::optional<RenderedStep> {
        if (cursor >= requests.size()) return std::nullopt;
        RenderedStep step;
        step.request = requests[cursor++];
        step.label = "history/" + name;
        return step;
      },
      options.a, options.b);
  if (!run.at) return std::nullopt;
  const std::string a_text = options.a_label.empty() ? SwitchesText(options.a) : options.a_label;
  const std::string b_text = options.b_label.empty() ? SwitchesText(options.b) : options.b_label;
  Disagreement d;
  d.case_index = -1;
  d.history = name;
  d.original_requests = static_cast<int>(requests.size());
  d.minimal = true;
  d.request_values = run.requests;
  d.at = *run.at;
  for (const Request& r : run.requests) d.requests.push_back(DumpJson(RequestToJson(r)));
  FixtureInput in;
  in.primary_rule = std::string(RuleIdName(run.primary));
  in.rules = {in.primary_rule};
  in.slug = LabelSlug(name);
  in.requests = run.requests;
  in.expects = run.expects;
  in.switches = options.a;
  in.tool = options.tool;
  in.seed = options.seed;
  in.description = fmt::format(
      "The review's written history `{}` ({} requests). Reading a ({}) and reading b ({}) "
      "disagree at step {} ({}) on the {}: {}. Under a the model allows: {}. Under b it "
      "allows: {}. The expectations are those of reading a.",
      name, run.requests.size(), a_text, b_text, d.at.step, d.at.op, d.at.aspect,
      d.at.detail, d.at.allowed_a, d.at.allowed_b);
  d.rule = in.primary_rule;
  d.fixture = MakeFixture(in);
  d.fixture_path = FixtureRelativePath(d.fixture);
  return d;
}

std::string SwitchesText(const Switches& s) {
  const auto defaults = SwitchValues(Switches{});
  std::vector<std::string> parts;
  for (const auto& [name, value] : SwitchValues(s))
    if (defaults.at(name) != value) parts.push_back(name + "=" + value);
  if (parts.empty()) return "defaults";
  return fmt::format("{}", fmt::join(parts, " "));
}

SpecDiffResult RunSpecDiff(const SpecDiffOptions& options) {
  SpecDiffResult result;
  result.histories = options.histories;
  result.a_text = options.a_label.empty() ? SwitchesText(options.a) : options.a_label;
  result.b_text = options.b_label.empty() ? SwitchesText(options.b) : options.b_label;
  HistoryGenConfig config;
  config.max_steps = options.max_steps;
  config.weights = options.weights;
  std::map<Signature, size_t> reported;  // signature -> index into disagreements
  for (int i = 0; i < options.histories; ++i) {
    const rc::Shrinkable<Plan> root = CasePlan(options.seed, i, config);
    const std::optional<Plan> plan = PlanValue(root);
    if (!plan) continue;
    const RenderOptions render =
        CaseRenderOptions(options.seed, i, 0, config.capabilities, options.a);
    Run original = RunPlan(*plan, render, options.a, options.b);
    if (!original.at) continue;
    ++result.disagreeing;
    const Signature want = SignatureOf(*original.at);
    if (auto it = reported.find(want); it != reported.end()) {
      ++result.disagreements[it->second].same_kind;
      continue;
    }
    if (static_cast<int>(reported.size()) >= options.max_reported) {
      ++result.unreported_kinds;
      continue;
    }
    // Shrink: walk the plan's shrink tree, keeping candidates that disagree the same way.
    // Shrink tree first, then the minimizer's passes (columns, structs, types, values).
    Run best = original;
    std::optional<Plan> minimized;
    const MinimizeStats stats = MinimizePlan(
        root, options.shrink_budget, [] { return false; },
        [&](const Plan& p) {
          Run r = RunPlan(p, render, options.a, options.b);
          if (!r.at || SignatureOf(*r.at) != want ||
              r.requests.size() > best.requests.size())
            return false;
          best = std::move(r);
          return true;
        },
        &minimized);
    Disagreement d;
    d.case_index = i;
    d.original_requests = static_cast<int>(original.requests.size());
    d.shrink_runs = stats.tree_runs + stats.further_runs;
    d.minimal = stats.fixpoint;
    if (minimized) d.plan = *minimized;
    d.request_values = best.requests;
    d.render = render;
    d.at = *best.at;
    for (const Request& r : best.requests)
      d.requests.push_back(DumpJson(RequestToJson(r)));
    FixtureInput in;
    in.primary_rule = std::string(RuleIdName(best.primary));
    in.rules = {in.primary_rule};
    in.slug = LabelSlug(d.at.label.empty() ? d.at.op : d.at.label);
    in.requests = best.requests;
    in.expects = best.expects;
    in.switches = options.a;
    in.tool = options.tool;
    in.seed = options.seed;
    in.description = fmt::format(
        "Found by `ictk spec-diff` (seed {}, case {}), minimized from {} to {} requests. "
        "Reading a ({}) and reading b ({}) disagree at step {} ({}, {}) on the {}: {}. "
        "Under a the model allows: {}. Under b it allows: {}. The expectations are "
        "those of reading a.",
        options.seed, i, d.original_requests, best.requests.size(), result.a_text,
        result.b_text, d.at.step, d.at.op, d.at.label, d.at.aspect, d.at.detail,
        d.at.allowed_a, d.at.allowed_b);
    d.rule = in.primary_rule;
    d.fixture = MakeFixture(in);
    d.fixture_path = FixtureRelativePath(d.fixture);
    reported[want] = result.disagreements.size();
    result.disagreements.push_back(std::move(d));
  }
  return result;
}

std::string RenderSpecDiffText(const SpecDiffResult& r) {
  std::string out = fmt::format("spec-diff: a = {}; b = {}\n", r.a_text, r.b_text);
  out += fmt::format("{} histories: {} disagree ({} kinds shown{})\n", r.histories,
                     r.disagreeing, r.disagreements.size(),
                     r.unreported_kinds ? fmt::format(", {} more histories of other "
                                                      "kinds not shrunk",
                                                      r.unreported_kinds)
                                        : "");
  int n = 0;
  for (const Disagreement& d : r.disagreements) {
    out += fmt::format(
        "\n{}. case {}: minimized from {} to {} requests ({} shrink runs); {} "
        "histories disagree this way\n",
        ++n, d.case_index, d.original_requests, d.requests.size(), d.shrink_runs,
        d.same_kind);
    out += fmt::format("   step {} ({}, {}) differs in the {}: {}\n", d.at.step, d.at.op,
                       d.at.label, d.at.aspect, d.at.detail);
    out +=
        fmt::format("   a allows: {}\n   b allows: {}\n", d.at.allowed_a, d.at.allowed_b);
    for (size_t i = 0; i < d.requests.size(); ++i)
      out += fmt::format("   {:>2}. {}\n", i + 1, d.requests[i]);
    out += fmt::format("   fixture: {}\n", d.fixture_path);
  }
  return out;
}

namespace {

std::string Capitalized(std::string s) {
  if (!s.empty() && s[0] >= 'a' && s[0] <= 'z')
    s[0] = static_cast<char>(s[0] - 'a' + 'A');
  return s;
}

}  // namespace

std::string RenderSpecDiffMarkdown(const SpecDiffResult& r) {
  std::string out = fmt::format("## spec-diff: `{}` vs `{}`\n\n", r.a_text, r.b_text);
  out += fmt::format("{} histories, **{} disagree** ({} kinds shown).\n", r.histories,
                     r.disagreeing, r.disagreements.size());
  int n = 0;
  for (const Disagreement& d : r.disagreements) {
    out += fmt::format(
        "\n### {}. Step {} ({}) differs in the {}\n\n{}.\n\n- a allows: {}\n- b allows: "
        "{}\n- case {}, minimized from {} to {} requests; {} histories disagree this "
        "way\n- fixture: `{}`\n\n```\n",
        ++n, d.at.step, d.at.op, d.at.aspect, Capitalized(d.at.detail), d.at.allowed_a,
        d.at.allowed_b, d.case_index, d.original_requests, d.requests.size(), d.same_kind,
        d.fixture_path);
    for (size_t i = 0; i < d.requests.size(); ++i)
      out += fmt::format("{}. {}\n", i + 1, d.requests[i]);
    out += "```\n";
  }
  return out;
}

std::string RenderSpecDiffJson(const SpecDiffResult& r) {
  json list = json::array();
  for (const Disagreement& d : r.disagreements) {
    list.push_back({{"case", d.case_index},
                    {"original-requests", d.original_requests},
                    {"requests", d.requests.size()},
                    {"shrink-runs", d.shrink_runs},
                    {"same-kind", d.same_kind},
                    {"step", d.at.step},
                    {"op", d.at.op},
                    {"label", d.at.label},
                    {"aspect", d.at.aspect},
                    {"detail", d.at.detail},
                    {"allowed-a", d.at.allowed_a},
                    {"allowed-b", d.at.allowed_b},
                    {"fixture-path", d.fixture_path},
                    {"fixture", d.fixture}});
  }
  const json doc = {{"a", r.a_text},
                    {"b", r.b_text},
                    {"histories", r.histories},
                    {"disagreeing", r.disagreeing},
                    {"unreported", r.unreported_kinds},
                    {"disagreements", std::move(list)}};
  return DumpJson(doc, 2) + "\n";
}

}  // namespace ictk
