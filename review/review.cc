/// \file
/// `ictk review` (review.h): the trace, every switch, every open point and the change
/// from a base text, in one document.///
/// This file runs the review and diffs the sentences of two texts; the open points are
/// shown by review_open_points.cc, review.md is rendered by review_markdown.cc and
/// review.html by review_html.cc.
#include "review/review.h"

#include <fmt/format.h>

#include <algorithm>
#include <set>
#include <sstream>

#include "model/judge/rule_catalogue.h"
#include "review/fingerprint.h"
#include "review/review_internal.h"

namespace ictk {
namespace {

using json = nlohmann::json;

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

/// One comparison of a switch's readings on the generated histories, or, when none
/// disagrees, on the switch's written histories (the first that disagrees).
SwitchReview ReviewSwitch(const SwitchInfo& info, const std::string& a, const std::string& b,
                          const ReviewOptions& options) {
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
  return s;
}

/// The change from the base text: the sentences added, removed or changed, the rules
/// they touch, the switches those rules decide, and how the fingerprint moves for each
/// alternative reading of those switches.
BaseReview ReviewBase(const ReviewOptions& options, const TraceResult& trace) {
  BaseReview base;
  base.base_name = options.base_name.value_or("base");
  const TraceResult base_trace = TraceSection(*options.base, base.base_name, {});
  base.changes = DiffSentences(*options.base, options.spec);
  std::set<RuleId> touched;
  for (SentenceChange& c : base.changes) {
    std::set<RuleId> rules;
    if (!c.after.empty())
      for (RuleId r : RulesOf(trace, NormalizeSpecText(c.after))) rules.insert(r);
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
  return base;
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
      SwitchReview s = ReviewSwitch(info, a, b, options);
      for (const Disagreement& d : s.result.disagreements)
        result.fixtures.emplace_back(d.fixture_path, d.fixture);
      result.switches.push_back(std::move(s));
    }
  }

  for (const OpenPoint& p : OpenPoints()) {
    OpenPointReview r = review_internal::ReviewOpenPoint(p, options);
    if (!r.fixture_path.empty()) result.fixtures.emplace_back(r.fixture_path, r.fixture);
    result.open_points.push_back(std::move(r));
  }

  if (options.base) result.base = ReviewBase(options, result.trace);
  return result;
}

}  // namespace ictk
