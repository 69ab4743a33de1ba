/// \file
/// `ictk review` (review.h): the trace, every switch, every open point and the change
/// from a base text, in one document.
#include "review/review.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <set>
#include <sstream>
#include <variant>

#include "codec/json_text.h"
#include "codec/protocol.h"
#include "model/judge/operations.h"
#include "model/judge/rule_catalogue.h"
#include "properties/fixture.h"
#include "properties/minimize.h"
#include "properties/runner.h"
#include "review/fingerprint.h"

namespace ictk {
namespace {

using json = nlohmann::json;

// --- open points -----------------------------------------------------------------------

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

bool StartsWith(std::string_view s, std::string_view prefix) {
  return s.substr(0, prefix.size()) == prefix;
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
    if (after_seen && StartsWith(step->label, point.label) &&
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
    if (!point.after_label.empty() && StartsWith(step->label, point.after_label))
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

OpenPointReview ReviewOpenPoint(const OpenPoint& point, const ReviewOptions& options) {
  OpenPointReview out;
  out.point = &point;
  for (const ReviewHistory& h : OpenPointHistories(point.title)) {
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
  if (!point.not_shown.empty()) return out;
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

// --- base ------------------------------------------------------------------------------

std::set<std::string> Words(std::string_view s) {
  std::set<std::string> out;
  std::string w;
  for (char c : s) {
    if ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '_') {
      w += c;
    } else if (!w.empty()) {
      out.insert(w);
      w.clear();
    }
  }
  if (!w.empty()) out.insert(w);
  return out;
}

double Overlap(std::string_view a, std::string_view b) {
  const std::set<std::string> wa = Words(a), wb = Words(b);
  if (wa.empty() || wb.empty()) return 0;
  size_t common = 0;
  for (const std::string& w : wa) common += wb.count(w);
  return static_cast<double>(common) / static_cast<double>(std::max(wa.size(), wb.size()));
}

std::vector<RuleId> RulesOf(const TraceResult& trace, std::string_view normalized) {
  for (const SentenceTrace& row : trace.rows)
    if (row.sentence.normalized == normalized) return row.rules;
  return {};
}

std::string Join(const std::vector<RuleId>& rules) {
  std::vector<std::string> names;
  for (RuleId r : rules) names.emplace_back(RuleIdName(r));
  return fmt::format("{}", fmt::join(names, ", "));
}

// --- rendering -------------------------------------------------------------------------

std::string Shorten(std::string s, size_t max) {
  if (s.size() <= max) return s;
  size_t cut = max;
  while (cut > 0 && (static_cast<unsigned char>(s[cut]) & 0xC0) == 0x80) --cut;
  return s.substr(0, cut) + " …";
}

/// A request as a table cell: its JSON without the table name and clock.
std::string RequestCell(const Request& r) {
  json j = RequestToJson(r);
  if (j.is_object()) {
    j.erase("table");
    j.erase("now-ms");
  }
  std::string text = DumpJson(j);
  std::string out;
  for (char c : text) {
    if (c == '|')
      out += "\\|";
    else
      out += c;
  }
  return "`" + out + "`";
}

std::string RequestCount(size_t n) {
  return fmt::format("{} request{}", n, n == 1 ? "" : "s");
}

/// The table of a history: the schema of its first `create-table`.
std::string SchemaLine(const std::vector<Request>& requests) {
  const Schema* schema = nullptr;
  for (const Request& r : requests)
    if (const auto* c = std::get_if<CreateTable>(&r.op)) {
      schema = &c->schema;
      break;
    }
  if (!schema) return "none";
  std::vector<std::string> cols;
  for (const NestedField& f : schema->fields)
    cols.push_back(fmt::format("`{}` {}{}", f.name, ToString(f.type),
                               f.required ? " required" : ""));
  return fmt::format("{} column{}: {}", cols.size(), cols.size() == 1 ? "" : "s",
                     fmt::join(cols, ", "));
}

std::string StepTable(const std::vector<Request>& requests, int marked) {
  std::string out = "| # | request |\n|---|---|\n";
  for (size_t i = 0; i < requests.size(); ++i)
    out += fmt::format("| {}{} | {} |\n", i + 1,
                       static_cast<int>(i) + 1 == marked ? " ◀" : "",
                       RequestCell(requests[i]));
  return out;
}

std::string Quote(RuleId rule) {
  const RuleInfo& info = FindRule(rule);
  if (!info.quote.empty()) return fmt::format("{}: \"{}\"", RuleIdName(rule), info.quote);
  return fmt::format("{}: {}", RuleIdName(rule), info.summary);
}

}  // namespace

std::vector<SentenceChange> DiffSentences(const SpecSection& base, const SpecSection& now) {
  std::set<std::string> in_base, in_now;
  for (const SpecSentence& s : base.sentences) in_base.insert(s.normalized);
  for (const SpecSentence& s : now.sentences) in_now.insert(s.normalized);
  std::vector<const SpecSentence*> added, removed;
  for (const SpecSentence& s : now.sentences)
    if (!in_base.count(s.normalized)) added.push_back(&s);
  for (const SpecSentence& s : base.sentences)
    if (!in_now.count(s.normalized)) removed.push_back(&s);
  std::vector<SentenceChange> out;
  std::vector<bool> paired(removed.size(), false);
  for (const SpecSentence* a : added) {
    int best = -1;
    double best_overlap = 0.5;
    for (size_t i = 0; i < removed.size(); ++i) {
      if (paired[i] || removed[i]->subsection != a->subsection) continue;
      const double o = Overlap(a->normalized, removed[i]->normalized);
      if (o > best_overlap) {
        best_overlap = o;
        best = static_cast<int>(i);
      }
    }
    SentenceChange c;
    c.after = a->text;
    if (best >= 0) {
      paired[static_cast<size_t>(best)] = true;
      c.kind = "changed";
      c.before = removed[static_cast<size_t>(best)]->text;
    } else {
      c.kind = "added";
    }
    out.push_back(std::move(c));
  }
  for (size_t i = 0; i < removed.size(); ++i) {
    if (paired[i]) continue;
    SentenceChange c;
    c.kind = "removed";
    c.before = removed[i]->text;
    out.push_back(std::move(c));
  }
  return out;
}

ReviewResult RunReview(const ReviewOptions& options) {
  ReviewResult result;
  result.spec_name = options.spec_name;
  result.histories = options.histories;
  result.seed = options.seed;
  // No evidence counts: they move with every test added, and the review is about the text.
  result.trace = TraceSection(options.spec, options.spec_name, TraceEvidence{});

  for (const SwitchInfo& info : AllSwitches()) {
    for (const auto& [a, b] : SwitchComparisons(info)) {
      SwitchReview s;
      s.name = std::string(info.name);
      s.kind = std::string(info.kind);
      s.a_value = a;
      s.b_value = b;
      s.rules = SwitchRules(info.name);
      s.weights = std::string(SwitchWeights(info.name));
      SpecDiffOptions o;
      o.weights.Parse(s.weights);
      SetSwitch(o.a, info.name, a);
      SetSwitch(o.b, info.name, b);
      o.histories = options.histories;
      o.seed = options.seed;
      o.max_steps = options.max_steps;
      o.max_reported = options.max_reported;
      o.shrink_budget = options.shrink_budget;
      o.tool = options.tool;
      o.a_label = fmt::format("{}={}", info.name, a);
      o.b_label = fmt::format("{}={}", info.name, b);
      s.result = RunSpecDiff(o);
      if (s.result.disagreements.empty()) {
        // Generated histories do not reach it: the written histories, in order.
        for (const ReviewHistory& h : SwitchHistories(info.name)) {
          SpecDiffOptions w = o;
          std::istringstream shared{std::string(h.shared)};
          for (std::string setting; shared >> setting;) {
            const size_t eq = setting.find('=');
            if (eq == std::string::npos) continue;
            SetSwitch(w.a, setting.substr(0, eq), setting.substr(eq + 1));
            SetSwitch(w.b, setting.substr(0, eq), setting.substr(eq + 1));
          }
          Result<std::vector<Request>> requests = BuildHistory(h, w.a);
          if (!requests) continue;
          std::optional<Disagreement> d =
              RequestsDisagreement(*requests, std::string(h.name), w);
          if (!d) continue;
          s.written = std::string(h.name);
          s.shared = std::string(h.shared);
          s.result.disagreements.push_back(std::move(*d));
          break;
        }
      }
      for (const Disagreement& d : s.result.disagreements)
        result.fixtures.emplace_back(d.fixture_path, d.fixture);
      result.switches.push_back(std::move(s));
    }
  }

  for (const OpenPoint& p : OpenPoints()) {
    OpenPointReview r = ReviewOpenPoint(p, options);
    if (!r.fixture_path.empty()) result.fixtures.emplace_back(r.fixture_path, r.fixture);
    result.open_points.push_back(std::move(r));
  }

  if (options.base) {
    BaseReview base;
    base.base_name = options.base_name.value_or("base");
    const TraceResult base_trace = TraceSection(*options.base, base.base_name, {});
    base.changes = DiffSentences(*options.base, options.spec);
    std::set<RuleId> touched;
    for (SentenceChange& c : base.changes) {
      std::set<RuleId> rules;
      if (!c.after.empty())
        for (RuleId r : RulesOf(result.trace, NormalizeSpecText(c.after))) rules.insert(r);
      if (!c.before.empty())
        for (RuleId r : RulesOf(base_trace, NormalizeSpecText(c.before))) rules.insert(r);
      c.rules.assign(rules.begin(), rules.end());
      touched.insert(rules.begin(), rules.end());
    }
    const json defaults =
        FingerprintToJson(ComputeFingerprint(options.fingerprint_steps, Switches{}));
    for (const SwitchInfo& info : AllSwitches()) {
      bool hit = false;
      for (RuleId r : SwitchRules(info.name)) hit |= touched.count(r) > 0;
      if (!hit) continue;
      base.switches.emplace_back(info.name);
      for (size_t i = 1; i < info.values.size(); ++i) {
        Switches s;
        SetSwitch(s, info.name, info.values[i]);
        const json moved =
            FingerprintToJson(ComputeFingerprint(options.fingerprint_steps, s));
        base.fingerprint_moves.emplace_back(fmt::format("{}={}", info.name, info.values[i]),
                                            DiffFingerprintJson(defaults, moved));
      }
    }
    result.base = std::move(base);
  }
  return result;
}

std::string RenderReviewMarkdown(const ReviewResult& r) {
  std::string out = fmt::format("# Review of the Constraints section: `{}`\n\n", r.spec_name);
  const TraceResult& t = r.trace;
  std::vector<const SentenceTrace*> partial;
  for (const SentenceTrace& row : t.rows)
    if (!row.rules.empty() && row.quoted_percent < 100) partial.push_back(&row);
  int disagreeing = 0;
  for (const SwitchReview& s : r.switches) disagreeing += s.result.disagreeing > 0;
  int shown = 0, written = 0, not_outcomes = 0;
  for (const OpenPointReview& p : r.open_points) {
    shown += p.case_index.has_value();
    written += !p.written.empty();
    not_outcomes += p.written.empty() && !p.case_index && !p.point->not_shown.empty();
  }
  int written_switches = 0;
  for (const SwitchReview& s : r.switches) written_switches += !s.written.empty();
  out += fmt::format(
      "Generated by `ictk review --spec {} --histories {} --seed {}{}` ({} generated "
      "histories per comparison). Each history below is minimized (steps, rows, columns, "
      "types and values) and written as a fixture under `DIR/fixtures/` by `--out DIR`: "
      "`ictk replay --adapter ADAPTER DIR/fixtures/PATH` runs it against an "
      "implementation. A step table marks the deciding step with ◀.\n\n",
      r.spec_name, r.histories, r.seed,
      r.base ? fmt::format(" --base {}", r.base->base_name) : "", r.histories);
  out += "| part | |\n|---|---|\n";
  out += fmt::format(
      "| [trace](#1-trace) | {} sentences traced or normative; **{} untraced**, **{} stale "
      "rules**, {} quoted only in part |\n",
      t.rows.size(), t.untraced.size(), t.stale.size(), partial.size());
  out += fmt::format(
      "| [switches](#2-switches) | {} comparisons of readings; {} with disagreeing "
      "generated histories, {} with a written history |\n",
      r.switches.size(), disagreeing, written_switches);
  out += fmt::format(
      "| [open points](#3-open-points) | {} open points; {} shown by a generated history, "
      "{} by a written history, {} not about the outcome of a request |\n",
      r.open_points.size(), shown, written, not_outcomes);
  if (r.base)
    out += fmt::format(
        "| [changes](#4-changes-from-the-base) | {} sentences added, removed or changed "
        "since `{}` |\n",
        r.base->changes.size(), r.base->base_name);
  out += "\n## 1. Trace\n\n";
  if (t.maybe_partial)
    out +=
        "Note: the text may not hold the whole Constraints section, so a rule listed as "
        "stale may only quote a sentence outside it.\n\n";
  out += fmt::format("**Untraced sentences** (normative, no rule implements them): {}\n\n",
                     t.untraced.empty() ? "none." : "");
  for (int i : t.untraced) {
    const SpecSentence& s = t.rows[static_cast<size_t>(i)].sentence;
    out += fmt::format("- [{}] {}: {}\n", s.index, s.subsection, s.text);
  }
  if (!t.untraced.empty()) out += "\n";
  out += fmt::format("**Stale rules** (their quoted sentence is not in the text): {}\n\n",
                     t.stale.empty() ? "none." : "");
  for (const StaleQuote& q : t.stale)
    out += fmt::format("- {}{}: \"{}\"\n", RuleIdName(q.rule), q.anchor ? " (anchor)" : "",
                       q.quote);
  if (!t.stale.empty()) out += "\n";
  out += fmt::format(
      "**Sentences quoted only in part** ({}): a change in the words no rule quotes goes "
      "unnoticed, so these are the words to read.\n\n",
      partial.size());
  if (!partial.empty()) {
    out += "| # | quoted | rules | sentence |\n|---|---|---|---|\n";
    for (const SentenceTrace* row : partial)
      out += fmt::format("| {} | {}% | {} | {} |\n", row->sentence.index,
                         row->quoted_percent, Join(row->rules),
                         Shorten(row->sentence.text, 160));
    out += "\n";
  }

  out += "## 2. Switches\n\n";
  out +=
      "Each interpretation switch (docs/interpretations.md) against its default, and for a "
      "switch whose default is `either` each side against the other, judged on the same "
      "generated histories by the model alone. A **reading** is a choice the text allows; a "
      "**proposed change** contradicts today's text.\n\n";
  out += "| switch | kind | compared | histories that disagree |\n|---|---|---|---|\n";
  for (const SwitchReview& s : r.switches)
    out += fmt::format(
        "| `{}` | {} | `{}` vs `{}` | {} of {}{}{} |\n", s.name, s.kind, s.a_value,
        s.b_value, s.result.disagreeing, s.result.histories,
        s.weights.empty() ? "" : fmt::format(" (aimed: `{}`)", s.weights),
        s.written.empty()
            ? ""
            : fmt::format("; a written history{}",
                          s.shared.empty() ? "" : fmt::format(" with `{}`", s.shared)));
  for (const SwitchReview& s : r.switches) {
    out += fmt::format("\n### `{}`: `{}` vs `{}` ({})\n\n", s.name, s.a_value, s.b_value,
                       s.kind);
    if (!s.rules.empty()) {
      out += "Decided by:\n\n";
      for (RuleId rule : s.rules) out += "> " + Quote(rule) + "\n>\n";
      out.resize(out.size() - 2);
      out += "\n";
    }
    if (s.result.disagreements.empty()) {
      out += fmt::format(
          "No generated history of {} disagrees, and no written history: the histories do "
          "not reach the situation this switch decides, or the two readings allow the same "
          "answers on them.\n",
          s.result.histories);
      continue;
    }
    if (!s.written.empty() && s.shared.empty()) {
      out += fmt::format(
          "**No generated history of {} disagrees**: they do not reach the situation this "
          "switch decides. A history written for the review shows it.\n",
          s.result.histories);
    } else if (!s.written.empty()) {
      out += fmt::format(
          "**No generated history of {} disagrees, and none can under the defaults of the "
          "other switches**: the model judges statuses by truth, so the two readings allow "
          "the same statuses unless a carry is required. A history written for the review "
          "shows the difference with `{}` on both sides; docs/interpretations.md questions "
          "this switch.\n",
          s.result.histories, s.shared);
    } else {
      out += fmt::format("**{} of {} histories disagree.**\n", s.result.disagreeing,
                         s.result.histories);
    }
    for (const Disagreement& d : s.result.disagreements) {
      const std::string where =
          d.history.empty()
              ? fmt::format("{} disagree this way; case {}, minimized from {} to {} "
                            "requests{}",
                            d.same_kind == 1 ? std::string("1 history")
                                             : fmt::format("{} histories", d.same_kind),
                            d.case_index, d.original_requests, d.requests.size(),
                            d.minimal ? "" : " (the minimizer ran out of budget)")
              : fmt::format("written history `{}`, {}", d.history,
                            RequestCount(d.requests.size()));
      out += fmt::format(
          "\n{}At step {} (`{}`, {}) the readings differ in the {}: {}.\n\n"
          "- `{}` allows: {}\n- `{}` allows: {}\n- the sentence: {}\n- table: {}\n"
          "- {}\n- fixture: `{}`\n\n",
          s.result.disagreements.size() > 1 ? "**" + d.at.aspect + ".** " : "", d.at.step,
          d.at.op, d.at.label, d.at.aspect, d.at.detail, s.a_value, d.at.allowed_a,
          s.b_value, d.at.allowed_b,
          d.rule.empty() ? "-" : Quote(ParseRuleId(d.rule).value_or(RuleId::kProtoAnswer)),
          SchemaLine(d.request_values), where, d.fixture_path);
      out += StepTable(d.request_values, d.at.step);
    }
  }

  out += "\n## 3. Open points\n\n";
  out +=
      "Where the text does not decide, the model allows every outcome the text permits "
      "(docs/interpretations.md, \"Open points and what the model does\"). Each point with "
      "the shortest generated history on which the model leaves the choice open, or a "
      "history written for the review where generated histories do not reach it; where "
      "the model decides the point, the history shows what it decides. A point that is not "
      "about the outcome of a request says why.\n";
  for (const OpenPointReview& p : r.open_points) {
    out += fmt::format("\n### {}\n\n", p.point->title);
    if (!p.error.empty()) {
      out += fmt::format("Not shown: {}.\n", p.error);
      continue;
    }
    if (!p.written.empty()) {
      if (!p.point->decided.empty())
        out += fmt::format("What the model does: {}. ", p.point->decided);
      out += fmt::format(
          "At step {} the model {}: {}.\n\n- table: {}\n- written history `{}`, {}\n"
          "- fixture: `{}`\n\n",
          p.step, p.point->decided.empty() ? "leaves the choice open" : "allows", p.allowed,
          SchemaLine(p.requests), p.written, RequestCount(p.requests.size()), p.fixture_path);
      out += StepTable(p.requests, p.step);
      continue;
    }
    if (!p.point->not_shown.empty()) {
      out += fmt::format("No history: {}.\n", p.point->not_shown);
      continue;
    }
    if (!p.case_index) {
      std::string step = p.point->label.empty()
                             ? std::string("any step")
                             : fmt::format("a step `{}`", p.point->label);
      if (!p.point->after_label.empty())
        step += fmt::format(" after a `{}`", p.point->after_label);
      out += fmt::format(
          "No generated history of {}{} reaches it ({}{}).\n", r.histories,
          p.point->reader ? " (as a reader's)" : "", step,
          !p.point->open_outcome ? ""
          : p.point->reject_kind.empty()
              ? " whose outcome the model leaves open"
              : fmt::format(" that may be accepted or rejected with `{}`", p.point->reject_kind));
      continue;
    }
    out += fmt::format(
        "At step {} the model allows: {}.\n\n- table: {}\n- case {}, minimized to {}\n"
        "- fixture: `{}`\n\n",
        p.step, p.allowed, SchemaLine(p.requests), *p.case_index,
        RequestCount(p.requests.size()),
        p.fixture_path);
    out += StepTable(p.requests, p.step);
  }

  if (r.base) {
    const BaseReview& b = *r.base;
    out += fmt::format("\n## 4. Changes from the base\n\nFrom `{}` to `{}`: {} sentences.\n\n",
                       b.base_name, r.spec_name, b.changes.size());
    if (!b.changes.empty()) {
      out += "| change | rules | sentence |\n|---|---|---|\n";
      for (const SentenceChange& c : b.changes) {
        std::string text;
        if (c.kind == "changed")
          text = fmt::format("~~{}~~ → {}", Shorten(c.before, 200), Shorten(c.after, 200));
        else
          text = Shorten(c.kind == "removed" ? c.before : c.after, 200);
        out += fmt::format("| {} | {} | {} |\n", c.kind,
                           c.rules.empty() ? "-" : Join(c.rules), text);
      }
      out += "\n";
    }
    if (b.switches.empty()) {
      out += "The changed sentences decide no switch.\n";
    } else {
      out += fmt::format(
          "The changed sentences decide the switches {}. How the model's fingerprint "
          "(`ictk fingerprint`, every history of up to a few requests on a tiny domain) "
          "moves from the defaults to each alternative reading:\n\n",
          fmt::format("`{}`", fmt::join(b.switches, "`, `")));
      for (const auto& [setting, lines] : b.fingerprint_moves) {
        out += fmt::format("- `{}`: {}\n", setting,
                           lines.empty() ? "no movement" : fmt::format("{} differences", lines.size()));
        for (size_t i = 0; i < lines.size() && i < 6; ++i)
          out += fmt::format("  - `{}`\n", lines[i]);
        if (lines.size() > 6) out += fmt::format("  - … {} more\n", lines.size() - 6);
      }
    }
  }
  return out;
}

namespace {

std::string Escape(std::string_view s) {
  std::string out;
  for (char c : s) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      default: out += c;
    }
  }
  return out;
}

/// Inline markdown of review.md: `code`, **bold**, ~~struck~~, [text](#anchor).
std::string Inline(std::string_view s) {
  std::string out;
  size_t i = 0;
  auto take = [&](std::string_view mark, std::string_view open, std::string_view close,
                  bool code) {
    if (s.substr(i, mark.size()) != mark) return false;
    const size_t end = s.find(mark, i + mark.size());
    if (end == std::string_view::npos) return false;
    const std::string_view inner = s.substr(i + mark.size(), end - i - mark.size());
    out += std::string(open) + (code ? Escape(inner) : Inline(inner)) + std::string(close);
    i = end + mark.size();
    return true;
  };
  while (i < s.size()) {
    if (take("`", "<code>", "</code>", true)) continue;
    if (take("**", "<strong>", "</strong>", false)) continue;
    if (take("~~", "<del>", "</del>", false)) continue;
    if (s[i] == '[') {
      const size_t close = s.find("](", i);
      const size_t end = close == std::string_view::npos ? close : s.find(')', close);
      if (end != std::string_view::npos) {
        out += fmt::format("<a href=\"{}\">{}</a>", Escape(s.substr(close + 2, end - close - 2)),
                           Inline(s.substr(i + 1, close - i - 1)));
        i = end + 1;
        continue;
      }
    }
    if (s[i] == '\\' && i + 1 < s.size() && s[i + 1] == '|') {
      out += '|';
      i += 2;
      continue;
    }
    out += Escape(s.substr(i, 1));
    ++i;
  }
  return out;
}

std::vector<std::string> Cells(std::string_view line) {
  std::vector<std::string> cells;
  std::string cell;
  bool code = false;
  for (size_t i = 1; i < line.size(); ++i) {
    const char c = line[i];
    if (c == '`') code = !code;
    if (c == '\\' && i + 1 < line.size() && line[i + 1] == '|') {
      cell += "\\|";
      ++i;
      continue;
    }
    if (c == '|' && !code) {
      while (!cell.empty() && cell.front() == ' ') cell.erase(cell.begin());
      while (!cell.empty() && cell.back() == ' ') cell.pop_back();
      cells.push_back(cell);
      cell.clear();
      continue;
    }
    cell += c;
  }
  return cells;
}

std::string AnchorOf(std::string_view heading) {
  std::string out;
  for (char c : heading) {
    if ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-')
      out += c;
    else if (c >= 'A' && c <= 'Z')
      out += static_cast<char>(c - 'A' + 'a');
    else if (c == ' ')
      out += '-';
  }
  return out;
}

}  // namespace

std::string RenderReviewHtml(const ReviewResult& review) {
  const std::string md = RenderReviewMarkdown(review);
  std::string out =
      "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>Review of the "
      "Constraints section</title>\n<style>body{font-family:sans-serif;max-width:72em;"
      "margin:2em auto}table{border-collapse:collapse}td,th{border:1px solid #ccc;"
      "padding:2px 6px;vertical-align:top}code{font-size:90%}blockquote{color:#444;"
      "border-left:3px solid #ccc;margin-left:0;padding-left:1em}</style></head><body>\n";
  std::istringstream in(md);
  std::string line;
  enum class Block { kNone, kTable, kList, kSubList, kQuote, kPara } block = Block::kNone;
  bool header_row = false;
  auto close = [&] {
    switch (block) {
      case Block::kTable: out += "</table>\n"; break;
      case Block::kSubList: out += "</ul></li>\n</ul>\n"; break;
      case Block::kList: out += "</ul>\n"; break;
      case Block::kQuote: out += "</blockquote>\n"; break;
      case Block::kPara: out += "</p>\n"; break;
      case Block::kNone: break;
    }
    block = Block::kNone;
  };
  while (std::getline(in, line)) {
    if (line.empty()) {
      close();
      continue;
    }
    if (line[0] == '#') {
      close();
      size_t level = line.find_first_not_of('#');
      const std::string text = line.substr(level + 1);
      out += fmt::format("<h{0} id=\"{1}\">{2}</h{0}>\n", level, AnchorOf(text), Inline(text));
      continue;
    }
    if (line[0] == '|') {
      if (block != Block::kTable) {
        close();
        out += "<table>\n";
        block = Block::kTable;
        header_row = true;
      }
      if (line.rfind("|---", 0) == 0) continue;
      const std::string tag = header_row ? "th" : "td";
      header_row = false;
      out += "<tr>";
      for (const std::string& c : Cells(line))
        out += fmt::format("<{0}>{1}</{0}>", tag, Inline(c));
      out += "</tr>\n";
      continue;
    }
    if (line.rfind("  - ", 0) == 0 && (block == Block::kList || block == Block::kSubList)) {
      if (block == Block::kList) {
        // Reopen the last item to nest the list in it.
        if (out.size() >= 6 && out.compare(out.size() - 6, 6, "</li>\n") == 0)
          out.resize(out.size() - 6);
        out += "<ul>";
        block = Block::kSubList;
      }
      out += "<li>" + Inline(line.substr(4)) + "</li>";
      continue;
    }
    if (line.rfind("- ", 0) == 0) {
      if (block == Block::kSubList) {
        out += "</ul></li>\n";
        block = Block::kList;
      }
      if (block != Block::kList) {
        close();
        out += "<ul>\n";
        block = Block::kList;
      }
      out += "<li>" + Inline(line.substr(2)) + "</li>\n";
      continue;
    }
    if (line[0] == '>') {
      if (block != Block::kQuote) {
        close();
        out += "<blockquote>";
        block = Block::kQuote;
      }
      if (line.size() > 2) out += Inline(line.substr(2)) + "<br>";
      continue;
    }
    if (block != Block::kPara) {
      close();
      out += "<p>";
      block = Block::kPara;
    } else {
      out += " ";
    }
    out += Inline(line);
  }
  close();
  out += "</body></html>\n";
  return out;
}

}  // namespace ictk
