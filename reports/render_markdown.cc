/// \file
/// summary.md (render.h RenderSummaryMarkdown): the run, the verdicts, the failing rules,
/// the failures by cause and the first failures, coverage and precision.
#include <algorithm>
#include <fmt/format.h>

#include <string>
#include <vector>

#include "codec/json_text.h"
#include "model/judge/rule_catalogue.h"
#include "reports/render.h"
#include "reports/render_internal.h"

namespace ictk {

using namespace reports_internal;  // NOLINT: the renderers' shared helpers

namespace {

/// (positive, negative) and its exempt kind or gap.
std::string ClauseCoverageMarkdown(const Totals& t) {
  if (t.clauses.empty()) return {};
  size_t exercised = 0;
  for (const auto& [id, use] : t.clauses)
    if (use.positive + use.negative > 0) ++exercised;
  std::string out = fmt::format(
      "## Clause coverage\n\n{} of {} clauses exercised (steps that named a clause and "
      "exercised its rule; docs/rules.md).",
      exercised, t.clauses.size());
  const ClauseSplit never = SplitByExemption(t.clauses_never_exercised);
  std::vector<std::string> items, exempt_items;
  for (const std::string& id : never.breakable) items.push_back(fmt::format("`{}`", id));
  for (const std::string& id : never.exempt)
    exempt_items.push_back(fmt::format("`{}` ({})", id, ToString(FindClause(id)->exempt.kind)));
  if (!items.empty())
    out += fmt::format(" Clauses never exercised: {}.", fmt::join(items, ", "));
  if (!exempt_items.empty())
    out += fmt::format(" Exempt clauses no step exercised (no mutant can break them): {}.",
                       fmt::join(exempt_items, ", "));
  if (!t.clauses_out_of_reach.empty())
    out += fmt::format(" Out of the profile's reach (their rules are; see the profile line): "
                       "{} clauses.",
                       t.clauses_out_of_reach.size());
  out += "\n\n| clause | positive | negative | exempt or gap |\n|---|---:|---:|---|\n";
  for (const ClauseInfo& c : AllClauses()) {
    auto it = t.clauses.find(c.id);
    const RuleUse use = it == t.clauses.end() ? RuleUse{} : it->second;
    const bool out_of_reach =
        std::find(t.clauses_out_of_reach.begin(), t.clauses_out_of_reach.end(), c.id) !=
        t.clauses_out_of_reach.end();
    out += fmt::format("| `{}` | {} | {} | {} |\n", c.id, use.positive, use.negative,
                       ClauseStanding(c).empty() && out_of_reach
                           ? std::string("out of the profile's reach")
                           : std::string(ClauseStanding(c)));
  }
  return out + "\n";
}


std::string ProfileLinesMarkdown(const RunHeader& h, const Totals& t) {
  if (h.profile.empty()) return {};
  std::string out = fmt::format("- profile: {} (format versions {})\n", h.profile,
                                fmt::join(h.format_versions, ", "));
  out += fmt::format("- corpus: {}\n", MdCell(CorpusText(h)));
  if (t.profile_rules > 0)
    out += fmt::format(
        "- rules the profile covers: {}, exercised {}{}\n", t.profile_rules,
        t.profile_rules - static_cast<int64_t>(t.profile_not_exercised.size()),
        t.profile_not_exercised.empty()
            ? ""
            : fmt::format("; not exercised: {}", fmt::join(t.profile_not_exercised, ", ")));
  if (!t.profile_out_of_reach.empty()) {
    std::vector<std::string> parts;
    for (const auto& [why, n] : t.profile_out_of_reach)
      parts.push_back(fmt::format("{} {}", n, why));
    out += fmt::format("- rules out of the profile's reach: {}\n", fmt::join(parts, ", "));
  }
  if (!t.idle_capabilities.empty())
    out += fmt::format("- declared capabilities that received no request: {}\n",
                       fmt::join(t.idle_capabilities, ", "));
  return out;
}

/// summary.md's "Failures by cause" table.
std::string CausesMarkdown(const Report& report) {
  const std::vector<FailureCause> causes = FailureCauses(report.cases);
  if (causes.empty()) return {};
  std::string out = fmt::format(
      "## Failures by cause\n\n{} failing case(s), {} cause(s); one fixture per "
      "cause.\n\n| cause | cases | first case | fixture |\n|---|---:|---|---|\n",
      [&] {
        size_t n = 0;
        for (const FailureCause& c : causes) n += c.cases.size();
        return n;
      }(),
      causes.size());
  for (const FailureCause& c : causes) {
    const CaseRecord& first = report.cases[c.first];
    const std::string fixture = first.failure ? first.failure->fixture : "";
    out += fmt::format("| {} | {} | `{}` | {} |\n", MdCell(c.cause), c.cases.size(),
                       first.id, fixture.empty() ? "-" : "`" + fixture + "`");
  }
  return out + "\n";
}

/// The title and the run's lines.
std::string RunLinesMarkdown(const RunHeader& h, const Totals& t) {
  std::string out;
  out += fmt::format("# ictk {}: {}\n\n", h.mode, VerdictText(t));
  out += fmt::format("- adapter: `{}`", h.adapter);
  if (h.hello.is_object() && h.hello.contains("implementation"))
    out += fmt::format(" ({})", MdCell(DumpJson(h.hello.at("implementation"))));
  out += "\n";
  out += fmt::format(
      "- seed {}, {}{} (max {} steps){}; model {}, protocol {}, ictk {}\n",
      h.seed, CasesText(t), StopText(h), h.max_steps, h.shard.empty() ? "" : ", shard " + h.shard,
      h.model_version, h.protocol_version, h.ictk_version);
  std::vector<std::string> non_default;
  for (const auto& [k, v] : h.switches) non_default.push_back(k + "=" + v);
  out += fmt::format("- switches: {}\n", fmt::join(non_default, ", "));
  out += fmt::format("- {} requests in {:.1f} s\n", t.steps, t.duration_ms / 1000);
  out += ProfileLinesMarkdown(h, t) + "\n";
  return out;
}

/// The table of verdicts.
std::string VerdictsMarkdown(const Totals& t) {
  std::string out;
  out += "| verdict | cases |\n|---|---:|\n";
  for (Verdict v : kAllVerdicts)
    if (Count(t.verdicts, v) > 0)
      out += fmt::format("| {} | {} |\n", ToString(v), Count(t.verdicts, v));
  out += "\n";
  return out;
}

/// The rules with a non-passing verdict.
std::string FailingRulesMarkdown(const Totals& t) {
  std::string out;
  std::vector<std::string> bad_rules;
  for (const auto& [rule, rt] : t.rules) {
    int64_t bad = 0;
    for (const auto& [v, n] : rt.cases)
      if (!IsConformant(v)) bad += n;
    if (bad > 0) bad_rules.push_back(rule);
  }
  if (!bad_rules.empty()) {
    out +=
        "## Failing rules\n\n| rule | failing cases | passing cases | sentence "
        "|\n|---|---:|---:|---|\n";
    for (const std::string& rule : bad_rules) {
      const RuleTotals& rt = t.rules.at(rule);
      int64_t bad = 0;
      for (const auto& [v, n] : rt.cases)
        if (!IsConformant(v)) bad += n;
      out += fmt::format("| `{}` | {} | {} | {} |\n", rule, bad,
                         Count(rt.cases, Verdict::kPass), MdCell(Sentence(rule, "")));
    }
    out += "\n";
  }
  return out;
}

/// The first five failures, each with its finding and steps.
std::string FirstFailuresMarkdown(const Report& report) {
  std::string out;
  int shown = 0;
  for (const CaseRecord& c : report.cases) {
    if (IsConformant(c.verdict)) continue;
    if (shown == 0) out += "## First failures\n\n";
    if (++shown > 5) break;
    out += fmt::format("### `{}`: {}\n\n", c.id, ToString(c.verdict));
    if (c.failure) {
      const FailureDetail& f = *c.failure;
      out += fmt::format("**{}**\n\n", MdCell(FindingOf(f)));
      out += fmt::format("Step {} of {}{}: rule `{}` — {}\n\n", f.step, f.steps.size(),
                         WasMinimized(f)
                             ? fmt::format(" (minimized from {})", f.original_steps)
                             : std::string(),
                         f.rule, Sentence(f.rule, f.sentence));
      out += fmt::format("- allowed: {}\n- answered: {}\n", MdCell(f.allowed),
                         MdCell(f.answered));
      if (!f.evaluation.empty()) out += fmt::format("- evaluation: `{}`\n", MdCell(f.evaluation));
      if (!f.adapter_message.empty())
        out += fmt::format("- the adapter said: {}\n", MdCell(f.adapter_message));
      if (!f.fixture.empty()) out += fmt::format("- fixture: `{}`\n", f.fixture);
      if (!f.replay.empty()) out += fmt::format("- replay: `{}`\n", f.replay);
      if (!f.reproduce.empty()) out += fmt::format("- reproduce: `{}`\n", f.reproduce);
      out += "\n| # | request | allowed | answered |\n|---:|---|---|---|\n";
      for (const StepRow& s : f.steps)
        out += fmt::format("| {}{} | {} | {} | {} |\n", s.index, s.failed ? " **✗**" : "",
                           MdCell(s.label.empty() ? s.op : s.label), MdCell(s.allowed),
                           MdCell(s.answered));
      out += "\n";
    } else if (!c.reason.empty()) {
      out += MdCell(c.reason) + "\n\n";
    }
  }
  return out;
}

/// The rules never exercised, the clause coverage and the precision.
std::string CoverageMarkdown(const Totals& t) {
  std::string out;
  if (!t.never_exercised.empty()) {
    out += "## Coverage\n\nRules never exercised: ";
    std::vector<std::string> items;
    for (const std::string& r : t.never_exercised) {
      auto it = t.untested_because.find(r);
      items.push_back(it == t.untested_because.end()
                          ? fmt::format("`{}`", r)
                          : fmt::format("`{}` (adapter lacks `{}`)", r, it->second));
    }
    out += fmt::format("{}\n\n", fmt::join(items, ", "));
  }
  out += ClauseCoverageMarkdown(t);
  if (!t.precision.empty()) {
    out +=
        "## Precision (informational)\n\n| status | most precise recorded | of "
        "|\n|---|---:|---:|\n";
    for (const auto& [status, p] : t.precision)
      out += fmt::format("| {} | {} ({}) | {} |\n", status, p.precise,
                         Percent(p.precise, p.total), p.total);
    out += "\n";
  }
  return out;
}

}  // namespace

std::string RenderSummaryMarkdown(const Report& report) {
  const Totals t = TotalsOf(report);
  const RunHeader& h = report.header;
  std::string out = RunLinesMarkdown(h, t);
  out += VerdictsMarkdown(t);
  out += FailingRulesMarkdown(t);
  out += CausesMarkdown(report);
  out += FirstFailuresMarkdown(report);
  out += CoverageMarkdown(t);
  return out;
}

}  // namespace ictk
