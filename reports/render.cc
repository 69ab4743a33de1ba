/// \file
/// The report renderers and the diff (render.h).
#include "reports/render.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

#include "codec/json_text.h"
#include "model/judge/rule_catalogue.h"
#include "model/rules/rule_id.h"
#include "reports/history_svg.h"

namespace ictk {
namespace {

Totals TotalsOf(const Report& r) {
  if (r.totals) return *r.totals;
  return ComputeTotals(r.header, r.cases, 0);
}

int64_t Count(const std::map<Verdict, int64_t>& m, Verdict v) {
  auto it = m.find(v);
  return it == m.end() ? 0 : it->second;
}

int64_t NonConformant(const Totals& t) {
  int64_t n = 0;
  for (const auto& [v, c] : t.verdicts)
    if (!IsConformant(v)) n += c;
  return n;
}

std::string_view QuoteOf(std::string_view rule) {
  if (std::optional<RuleId> id = ParseRuleId(rule)) return FindRule(*id).quote;
  return {};
}

std::string_view SummaryOf(std::string_view rule) {
  if (std::optional<RuleId> id = ParseRuleId(rule)) return FindRule(*id).summary;
  return {};
}

std::string Sentence(std::string_view rule, std::string_view given) {
  if (!given.empty()) return std::string(given);
  std::string_view q = QuoteOf(rule);
  if (!q.empty()) return fmt::format("\"{}\"", q);
  return std::string(SummaryOf(rule));
}

std::string Percent(int64_t part, int64_t whole) {
  if (whole == 0) return "-";
  return fmt::format("{:.0f}%",
                     100.0 * static_cast<double>(part) / static_cast<double>(whole));
}

const char* kCss = R"(
body{
  font-family:system-ui,-apple-system,Segoe UI,Roboto,sans-serif;
  margin:2em;
  color:#222;
  max-width:1200px;
}
h1{font-size:1.6em}h2{margin-top:2em;border-bottom:1px solid #ddd}
table{border-collapse:collapse;margin:1em 0;font-size:.9em}
td,th{border:1px solid #ccc;padding:.25em .5em;text-align:left;vertical-align:top}
th{background:#f3f3f3}
td.n{text-align:right;font-variant-numeric:tabular-nums}
.pass{background:#e6f4ea}
.fail{background:#fce8e6}
.warn{background:#fef7e0}
.none{color:#999}
.exempt{color:#666;font-style:italic}
.verdict{
  font-weight:bold;
  font-size:1.2em;
  padding:.3em .8em;
  display:inline-block;
  border-radius:4px;
}
.ok{background:#1e8e3e;color:#fff}.bad{background:#d93025;color:#fff}
pre{
  background:#f6f8fa;
  padding:.5em;
  overflow-x:auto;
  max-width:100%;
  white-space:pre-wrap;
  word-break:break-all;
}
code{font-family:ui-monospace,Menlo,Consolas,monospace;font-size:.9em}
details{margin:.2em 0}
.failure{border:1px solid #d93025;border-radius:4px;padding:0 1em;margin:1em 0}
tr.failed-step{background:#fce8e6}
.history-box{overflow-x:auto;margin:.5em 0;border:1px solid #eee}
tr.group th{background:#e8f0fe;text-align:left}
td.v-fail{background:#f6aea9}td.v-pass{background:#ceead6}td.v-skip{background:#f1f3f4}
td.v-xfail{background:#fef7e0}
)";

}  // namespace

std::string EscapeXml(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&#39;";
        break;
      default:
        // XML 1.0 forbids most control characters.
        if (static_cast<unsigned char>(c) < 0x20 && c != '\n' && c != '\t' && c != '\r')
          out += fmt::format("&#xFFFD;");
        else
          out += c;
    }
  }
  return out;
}

namespace {

/// A clause's standing apart from its counts: "exempt: <kind>" when no mutant can break
/// it (docs/rules.md "Clauses"), "gap" when its generator step or mutant is still to do,
/// else empty.
std::string ClauseStanding(const ClauseInfo& c) {
  if (c.exempt.kind != ExemptKind::kNone)
    return fmt::format("exempt: {}", ToString(c.exempt.kind));
  return c.gap.empty() ? std::string() : std::string("gap");
}

/// summary.md's clause coverage: how many clauses the run exercised, the clauses never
/// exercised (the exempt ones apart), and per clause the steps that exercised it
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
  std::vector<std::string> items, exempt_items;
  for (const std::string& id : t.clauses_never_exercised) {
    const ClauseInfo* c = FindClause(id);
    if (c != nullptr && c->exempt.kind != ExemptKind::kNone)
      exempt_items.push_back(fmt::format("`{}` ({})", id, ToString(c->exempt.kind)));
    else
      items.push_back(fmt::format("`{}`", id));
  }
  if (!items.empty())
    out += fmt::format(" Clauses never exercised: {}.", fmt::join(items, ", "));
  if (!exempt_items.empty())
    out += fmt::format(" Exempt clauses no step exercised (no mutant can break them): {}.",
                       fmt::join(exempt_items, ", "));
  out += "\n\n| clause | positive | negative | exempt or gap |\n|---|---:|---:|---|\n";
  for (const ClauseInfo& c : AllClauses()) {
    auto it = t.clauses.find(c.id);
    const RuleUse use = it == t.clauses.end() ? RuleUse{} : it->second;
    out += fmt::format("| `{}` | {} | {} | {} |\n", c.id, use.positive, use.negative,
                       ClauseStanding(c));
  }
  return out + "\n";
}

/// Where the run's corpus came from, in words.
std::string CorpusText(const RunHeader& h) {
  if (!h.corpus.empty()) return h.corpus;
  return h.corpus_note.empty() ? "none" : "none (" + h.corpus_note + ")";
}

/// The profile, format versions, corpus and honest totals of summary.md's header.
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

/// report.html's clause coverage table.
std::string ClauseCoverageHtml(const Totals& t) {
  if (t.clauses.empty()) return {};
  std::string out =
      "<h2>Clause coverage</h2>\n<p>Steps that exercised each clause of each rule "
      "(positive: the rule allowed the answer; negative: it required a rejection).</p>\n"
      "<table id=\"clause-coverage\"><thead><tr><th>clause</th><th>positive</th>"
      "<th>negative</th><th>exempt or gap</th></tr></thead><tbody>\n";
  for (const ClauseInfo& c : AllClauses()) {
    auto it = t.clauses.find(c.id);
    const RuleUse use = it == t.clauses.end() ? RuleUse{} : it->second;
    const bool exempt = c.exempt.kind != ExemptKind::kNone;
    // An exempt clause no step exercised is not a hole: its own class, not "none".
    const char* cls = use.positive + use.negative > 0 ? "pass" : exempt ? "exempt" : "none";
    out += fmt::format(
        "<tr class=\"{}\"><td title=\"{}\"><code>{}</code></td><td class=\"n\">{}</td>"
        "<td class=\"n\">{}</td><td title=\"{}\">{}</td></tr>\n",
        cls, EscapeXml(c.words), EscapeXml(c.id), use.positive, use.negative,
        EscapeXml(exempt ? std::string(c.exempt.reason) : std::string(c.gap)),
        EscapeXml(ClauseStanding(c)));
  }
  return out + "</tbody></table>\n";
}

}  // namespace

std::string JunitHeadXml(const RunHeader& header, const Totals& t) {
  const int64_t failures =
      Count(t.verdicts, Verdict::kFail) + Count(t.verdicts, Verdict::kXpass);
  const int64_t errors =
      Count(t.verdicts, Verdict::kError) + Count(t.verdicts, Verdict::kCrash) +
      Count(t.verdicts, Verdict::kTimeout) + Count(t.verdicts, Verdict::kProtocolError);
  const int64_t skipped =
      Count(t.verdicts, Verdict::kSkip) + Count(t.verdicts, Verdict::kXfail);
  std::string out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  out += fmt::format(
      "<testsuites name=\"ictk {}\" tests=\"{}\" failures=\"{}\" errors=\"{}\" "
      "skipped=\"{}\" "
      "time=\"{:.3f}\">\n",
      EscapeXml(header.mode), t.cases, failures, errors, skipped, t.duration_ms / 1000);
  out += fmt::format(
      "  <testsuite name=\"{} (seed {})\" tests=\"{}\" failures=\"{}\" errors=\"{}\" "
      "skipped=\"{}\" time=\"{:.3f}\">\n",
      EscapeXml(header.adapter), header.seed, t.cases, failures, errors, skipped,
      t.duration_ms / 1000);
  out += "    <properties>\n";
  out += fmt::format("      <property name=\"model-version\" value=\"{}\"/>\n",
                     EscapeXml(header.model_version));
  for (const auto& [k, v] : header.switches)
    out += fmt::format("      <property name=\"switch.{}\" value=\"{}\"/>\n",
                       EscapeXml(k), EscapeXml(v));
  out += "    </properties>\n";
  return out;
}

std::map<std::string, std::string> JunitCauseNotes(const std::vector<FailureCause>& causes) {
  std::map<std::string, std::string> notes;
  for (size_t i = 0; i < causes.size(); ++i)
    for (const std::string& id : causes[i].cases)
      notes[id] = fmt::format(" [cause {} of {}, {} case(s)]", i + 1, causes.size(),
                              causes[i].cases.size());
  return notes;
}

std::string JunitCaseXml(const RunHeader& header, const CaseRecord& c,
                         std::string_view cause_note) {
  std::string out =
      fmt::format("    <testcase classname=\"ictk.{}\" name=\"{}\" time=\"{:.3f}\"",
                  EscapeXml(header.mode), EscapeXml(c.id), c.duration_ms / 1000);
  std::string body;
  const FailureDetail* f = c.failure ? &*c.failure : nullptr;
  // The finding first: why the answer is outside the allowed set; then the rule, what
  // was allowed and what was answered.
  std::string message =
      f ? fmt::format("{} ({}, step {})", FindingOf(*f), f->rule, f->step) : c.reason;
  message += cause_note;
  std::string text;
  if (f) {
    text = fmt::format("Finding: {}\nRule {}: {}\nAllowed: {}\nAnswered: {}\n",
                       FindingOf(*f), f->rule, Sentence(f->rule, f->sentence), f->allowed,
                       f->answered);
    for (const std::string& finding : f->findings) text += "  " + finding + "\n";
    if (!f->replay.empty()) text += "Replay: " + f->replay + "\n";
    if (!f->reproduce.empty()) text += "Reproduce: " + f->reproduce + "\n";
  }
  switch (c.verdict) {
    case Verdict::kPass:
      break;
    case Verdict::kSkip:
    case Verdict::kXfail:
      body = fmt::format("      <skipped message=\"{}\"/>\n",
                         EscapeXml(std::string(ToString(c.verdict)) + ": " + c.reason));
      break;
    case Verdict::kFail:
    case Verdict::kXpass:
      body = fmt::format("      <failure type=\"{}\" message=\"{}\">{}</failure>\n",
                         ToString(c.verdict), EscapeXml(message), EscapeXml(text));
      break;
    default:
      body = fmt::format("      <error type=\"{}\" message=\"{}\">{}</error>\n",
                         ToString(c.verdict), EscapeXml(message),
                         EscapeXml(text + c.reason));
      break;
  }
  out += body.empty() ? "/>\n" : ">\n" + body + "    </testcase>\n";
  return out;
}

std::string JunitTailXml() { return "  </testsuite>\n</testsuites>\n"; }

std::string RenderJunitXml(const Report& report) {
  std::string out = JunitHeadXml(report.header, TotalsOf(report));
  const std::map<std::string, std::string> notes =
      JunitCauseNotes(FailureCauses(report.cases));
  for (const CaseRecord& c : report.cases) {
    auto it = notes.find(c.id);
    out += JunitCaseXml(report.header, c, it == notes.end() ? "" : it->second);
  }
  return out + JunitTailXml();
}

std::string RenderSummaryMarkdown(const Report& report) {
  const Totals t = TotalsOf(report);
  const RunHeader& h = report.header;
  std::string out;
  out += fmt::format("# ictk {}: {}\n\n", h.mode, VerdictText(t));
  out += fmt::format("- adapter: `{}`", h.adapter);
  if (h.hello.is_object() && h.hello.contains("implementation"))
    out += fmt::format(" ({})", MdCell(DumpJson(h.hello.at("implementation"))));
  out += "\n";
  out += fmt::format(
      "- seed {}, {} (max {} steps){}; model {}, protocol {}, ictk {}\n",
      h.seed, CasesText(t), h.max_steps, h.shard.empty() ? "" : ", shard " + h.shard,
      h.model_version, h.protocol_version, h.ictk_version);
  std::vector<std::string> non_default;
  for (const auto& [k, v] : h.switches) non_default.push_back(k + "=" + v);
  out += fmt::format("- switches: {}\n", fmt::join(non_default, ", "));
  out += fmt::format("- {} requests in {:.1f} s\n", t.steps, t.duration_ms / 1000);
  out += ProfileLinesMarkdown(h, t) + "\n";

  out += "| verdict | cases |\n|---|---:|\n";
  for (Verdict v : kAllVerdicts)
    if (Count(t.verdicts, v) > 0)
      out += fmt::format("| {} | {} |\n", ToString(v), Count(t.verdicts, v));
  out += "\n";

  // Rules with a non-passing verdict.
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

  out += CausesMarkdown(report);

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

namespace {

/// The spec subsection a rule group comes from (SPEC.md's headings).
std::string_view GroupTitle(std::string_view group) {
  static const std::map<std::string_view, std::string_view> kTitles = {
      {"def", "Definitions and fields"},
      {"key", "Key fields of unique and primary-key"},
      {"sem", "What \"holds\" means"},
      {"enf", "Enforcement and retries"},
      {"id", "Constraint IDs"},
      {"upg", "Upgrade to v4"},
      {"expr", "Check expressions"},
      {"sch", "Schema evolution"},
      {"upd", "Updating a constraint"},
      {"st", "Statuses"},
      {"ice", "Surrounding Iceberg rules"},
      {"proto", "Protocol conventions"}};
  auto it = kTitles.find(group);
  return it == kTitles.end() ? group : it->second;
}

}  // namespace

std::string RenderHtml(const Report& report) {
  const Totals t = TotalsOf(report);
  const RunHeader& h = report.header;
  std::string out = "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n";
  // Self-contained: nothing may be loaded (no script, font, image or frame); the inline
  // style and the inline SVG pictures need nothing from outside.
  out +=
      "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
      "style-src 'unsafe-inline'\">\n";
  out += fmt::format("<title>ictk {} — {}</title>\n<style>{}</style></head><body>\n",
                     EscapeXml(h.mode), EscapeXml(h.adapter), kCss);
  out += fmt::format("<h1>Iceberg v4 constraints: <code>{}</code></h1>\n",
                     EscapeXml(h.adapter));
  out += fmt::format("<p><span id=\"verdict\" class=\"verdict {}\">{}</span></p>\n",
                     t.conformant ? "ok" : "bad", EscapeXml(VerdictText(t)));
  out += "<table id=\"run\"><tbody>\n";
  auto row = [&](std::string_view k, const std::string& v) {
    out += fmt::format("<tr><th>{}</th><td>{}</td></tr>\n", k, v);
  };
  if (h.hello.is_object())
    row("implementation",
        "<code>" +
            EscapeXml(DumpJson(h.hello.value("implementation", nlohmann::json()))) +
            "</code>");
  row("seed", std::to_string(h.seed));
  row("cases", fmt::format("{} (max {} steps){}", CasesText(t), h.max_steps,
                               h.shard.empty() ? "" : ", shard " + EscapeXml(h.shard)));
  row("requests", fmt::format("{} in {:.1f} s", t.steps, t.duration_ms / 1000));
  row("model version", EscapeXml(h.model_version));
  row("protocol version", std::to_string(h.protocol_version));
  std::string sw;
  for (const auto& [k, v] : h.switches)
    sw += fmt::format("<code>{}={}</code> ", EscapeXml(k), EscapeXml(v));
  row("switches", sw);
  row("capabilities", EscapeXml(fmt::format("{}", fmt::join(h.capabilities, ", "))));
  if (!h.profile.empty())
    row("profile", EscapeXml(fmt::format("{} (format versions {})", h.profile,
                                         fmt::join(h.format_versions, ", "))));
  if (!h.profile.empty()) row("corpus", EscapeXml(CorpusText(h)));
  row("command line", "<code>" + EscapeXml(h.command_line) + "</code>");
  out += "</tbody></table>\n";

  out += "<h2>Totals</h2>\n<table id=\"totals\"><tr>";
  for (Verdict v : kAllVerdicts) out += fmt::format("<th>{}</th>", ToString(v));
  out += "</tr><tr>";
  for (Verdict v : kAllVerdicts) {
    const int64_t n = Count(t.verdicts, v);
    out += fmt::format("<td class=\"n {}\">{}</td>",
                       n == 0 ? "none" : (IsConformant(v) ? "pass" : "fail"), n);
  }
  out += "</tr></table>\n";

  out +=
      "<h2>Rules</h2>\n<p>Cases per rule and verdict, grouped by the spec's subsections; "
      "a case counts for a rule when a step exercised it. The bar shows the steps that "
      "exercised it: <span style=\"color:#1e8e3e\">positive</span> (the rule allowed the "
      "answer) and <span style=\"color:#1a73e8\">negative</span> (it required a "
      "rejection).</p>\n<table id=\"rule-matrix\"><thead><tr><th>rule</th>";
  for (Verdict v : kAllVerdicts) out += fmt::format("<th>{}</th>", ToString(v));
  out += "<th>positive</th><th>negative</th><th>coverage</th></tr></thead><tbody>\n";
  int64_t most = 1;
  for (const auto& [rule, rt] : t.rules) most = std::max(most, rt.positive + rt.negative);
  std::string_view group;
  for (const RuleInfo& info : RuleCatalogue()) {
    if (info.group != group) {
      group = info.group;
      out += fmt::format(
          "<tr class=\"group\" id=\"group-{0}\"><th colspan=\"{1}\">{2} "
          "(<code>{0}.*</code>)</th></tr>\n",
          EscapeXml(group), std::size(kAllVerdicts) + 4, EscapeXml(GroupTitle(group)));
    }
    const std::string rule(RuleIdName(info.id));
    auto it = t.rules.find(rule);
    const RuleTotals rt = it == t.rules.end() ? RuleTotals{} : it->second;
    int64_t bad = 0;
    for (const auto& [v, n] : rt.cases)
      if (!IsConformant(v)) bad += n;
    const char* cls =
        bad > 0 ? "fail" : (rt.positive + rt.negative > 0 ? "pass" : "none");
    std::string title = std::string(info.quote.empty() ? info.summary : info.quote);
    out += fmt::format(
        "<tr class=\"{}\" id=\"rule-{}\"><td title=\"{}\"><code>{}</code>{}</td>", cls,
        EscapeXml(rule), EscapeXml(title), EscapeXml(rule),
        info.coverage_exempt ? " <small>(exempt)</small>" : "");
    for (Verdict v : kAllVerdicts) {
      const int64_t n = Count(rt.cases, v);
      const char* vcls = v == Verdict::kPass                            ? "v-pass"
                         : v == Verdict::kSkip                          ? "v-skip"
                         : v == Verdict::kXfail || v == Verdict::kXpass ? "v-xfail"
                                                                        : "v-fail";
      out += n == 0 ? "<td class=\"n none\">·</td>"
                    : fmt::format("<td class=\"n {}\">{}</td>", vcls, n);
    }
    // The coverage bar: positive and negative steps, scaled to the most-used rule
    // (square root, so that rarely exercised rules still show).
    auto scale = [&](int64_t n) {
      return n == 0 ? 0.0 : 4 + 116 * std::sqrt(static_cast<double>(n) / most);
    };
    out += fmt::format(
        "<td class=\"n\">{}</td><td class=\"n\">{}</td><td><svg class=\"coverage\" "
        "width=\"124\" height=\"14\" role=\"img\"><title>{} positive, {} "
        "negative</title><rect x=\"0\" y=\"1\" width=\"{:.1f}\" height=\"5\" "
        "fill=\"#1e8e3e\"/><rect x=\"0\" y=\"8\" width=\"{:.1f}\" height=\"5\" "
        "fill=\"#1a73e8\"/></svg></td></tr>\n",
        rt.positive, rt.negative, rt.positive, rt.negative, scale(rt.positive),
        scale(rt.negative));
  }
  out += "</tbody></table>\n";

  const std::vector<FailureCause> causes = FailureCauses(report.cases);
  if (!causes.empty()) {
    out +=
        "<h2>Failures by cause</h2>\n<table id=\"causes\"><thead><tr><th>cause</th>"
        "<th>cases</th><th>first case</th><th>fixture</th></tr></thead><tbody>\n";
    for (const FailureCause& c : causes) {
      const CaseRecord& first = report.cases[c.first];
      out += fmt::format(
          "<tr><td>{}</td><td class=\"n\">{}</td><td><code>{}</code></td>"
          "<td><code>{}</code></td></tr>\n",
          EscapeXml(c.cause), c.cases.size(), EscapeXml(first.id),
          EscapeXml(first.failure ? first.failure->fixture : ""));
    }
    out += "</tbody></table>\n";
  }

  out += "<h2>Failures</h2>\n";
  int shown = 0;
  for (const CaseRecord& c : report.cases) {
    if (IsConformant(c.verdict)) continue;
    ++shown;
    out += fmt::format(
        "<div class=\"failure\" id=\"failure-{}\"><h3><code>{}</code>: {}</h3>\n", shown,
        EscapeXml(c.id), ToString(c.verdict));
    if (!c.failure) {
      out += fmt::format("<p>{}</p></div>\n", EscapeXml(c.reason));
      continue;
    }
    const FailureDetail& f = *c.failure;
    out += fmt::format("<p class=\"finding\"><b>Finding:</b> {}</p>\n",
                       EscapeXml(FindingOf(f)));
    if (shown <= 20)
      if (std::string svg = HistorySvg(f, Sentence(f.rule, f.sentence)); !svg.empty())
        out += "<div class=\"history-box\">" + svg + "</div>\n";
    out += fmt::format(
        "<p>Step {} of {}{}: rule "
        "<code>{}</code></p>\n<blockquote>{}</blockquote>\n",
        f.step, f.steps.size(),
        WasMinimized(f) ? fmt::format(" (minimized from {} requests in {} runs)",
                                      f.original_steps, f.shrink_runs)
                        : std::string(),
        EscapeXml(f.rule), EscapeXml(Sentence(f.rule, f.sentence)));
    out += fmt::format("<p><b>Allowed:</b> {}<br><b>Answered:</b> {}</p>\n",
                       EscapeXml(f.allowed), EscapeXml(f.answered));
    if (!f.findings.empty()) {
      out += "<ul class=\"findings\">";
      for (const std::string& x : f.findings) out += "<li>" + EscapeXml(x) + "</li>";
      out += "</ul>\n";
    }
    out +=
        "<table "
        "class=\"step-table\"><thead><tr><th>#</th><th>request</th><th>allowed</th>"
        "<th>answered</th></tr></thead><tbody>\n";
    for (const StepRow& s : f.steps) {
      out += fmt::format(
          "<tr{}><td class=\"n\">{}</td><td><details><summary><code>{}</code> "
          "{}</summary>"
          "<pre><code>{}</code></pre><pre><code>{}</code></pre></details></td><td>{}</td>"
          "<td>{}</td></tr>\n",
          s.failed ? " class=\"failed-step\"" : "", s.index, EscapeXml(s.op),
          EscapeXml(s.label), EscapeXml(DumpJson(s.request)),
          EscapeXml(DumpJson(s.response)), EscapeXml(s.allowed), EscapeXml(s.answered));
    }
    out += "</tbody></table>\n";
    if (!f.fixture.empty())
      out += fmt::format("<p>Fixture: <code>{}</code> ({})</p>\n", EscapeXml(f.fixture),
                         EscapeXml(f.fixture_id));
    if (!f.replay.empty())
      out += fmt::format("<p>Replay:</p><pre class=\"replay\"><code>{}</code></pre>\n",
                         EscapeXml(f.replay));
    if (!f.reproduce.empty())
      out +=
          fmt::format("<p>Reproduce:</p><pre class=\"reproduce\"><code>{}</code></pre>\n",
                      EscapeXml(f.reproduce));
    if (!f.stderr_tail.empty())
      out += fmt::format(
          "<details><summary>adapter stderr</summary><pre>{}</pre></details>\n",
          EscapeXml(f.stderr_tail));
    out += "</div>\n";
    if (shown >= 50) {
      out += "<p>(further failures are in report.jsonl)</p>\n";
      break;
    }
  }
  if (shown == 0) out += "<p id=\"no-failures\">None.</p>\n";

  out += "<h2>Coverage</h2>\n<div id=\"coverage\">";
  if (t.never_exercised.empty()) {
    out += "<p>Every rule that a history can exercise was exercised.</p>";
  } else {
    out += "<p>Rules never exercised:</p><ul>";
    for (const std::string& r : t.never_exercised) {
      auto it = t.untested_because.find(r);
      out += fmt::format("<li><code>{}</code>{}</li>", EscapeXml(r),
                         it == t.untested_because.end()
                             ? ""
                             : fmt::format(" — the adapter lacks <code>{}</code>",
                                           EscapeXml(it->second)));
    }
    out += "</ul>";
  }
  out += "</div>\n" + ClauseCoverageHtml(t);
  out +=
      "<h2>Precision</h2>\n<p>Informational: how often the implementation "
      "recorded "
      "the most precise status the model allows.</p>\n<table "
      "id=\"precision\"><tr><th>status"
      "</th><th>most precise recorded</th><th>of</th></tr>\n";
  for (const auto& [status, p] : t.precision)
    out += fmt::format(
        "<tr><td>{}</td><td class=\"n\">{} ({})</td><td class=\"n\">{}</td></tr>\n",
        EscapeXml(status), p.precise, Percent(p.precise, p.total), p.total);
  out +=
      "</table>\n<h2>Requests</h2>\n<table "
      "id=\"ops\"><tr><th>op</th><th>requests</th></tr>\n";
  for (const auto& [op, n] : t.ops)
    out += fmt::format("<tr><td><code>{}</code></td><td class=\"n\">{}</td></tr>\n",
                       EscapeXml(op), n);
  out += "</table>\n</body></html>\n";
  return out;
}

std::string RenderBadgeJson(const Report& report) {
  const Totals t = TotalsOf(report);
  const int64_t bad = NonConformant(t);
  nlohmann::json badge = {
      {"schemaVersion", 1},
      {"label", "iceberg v4 constraints"},
      {"message", t.conformant ? fmt::format("conformant ({})", CasesText(t))
                               : fmt::format("{} of {} failing", bad, t.cases)},
      {"color", t.conformant ? "brightgreen" : "red"}};
  return DumpJson(badge, 2) + "\n";
}

ReportDiff DiffReports(const Report& a, const Report& b) {
  ReportDiff d;
  if (a.header.model_version != b.header.model_version) {
    d.comparable = false;
    d.incomparable_because = fmt::format("model versions differ ({} vs {})",
                                         a.header.model_version, b.header.model_version);
  } else if (a.header.protocol_version != b.header.protocol_version) {
    d.comparable = false;
    d.incomparable_because =
        fmt::format("protocol versions differ ({} vs {})", a.header.protocol_version,
                    b.header.protocol_version);
  }
  std::map<std::string, Verdict> va, vb;
  for (const CaseRecord& c : a.cases) va[c.id] = c.verdict;
  for (const CaseRecord& c : b.cases) vb[c.id] = c.verdict;
  for (const auto& [id, v] : va) {
    auto it = vb.find(id);
    if (it == vb.end()) {
      d.only_in_a.push_back(id);
      continue;
    }
    const Verdict w = it->second;
    if (w == Verdict::kSkip && v != Verdict::kSkip)
      d.newly_skipped.push_back(id);
    else if (IsConformant(v) && !IsConformant(w))
      d.new_failures.push_back(id);
    else if (!IsConformant(v) && IsConformant(w))
      d.fixed.push_back(id);
    else if (!IsConformant(v) && !IsConformant(w))
      d.still_failing.push_back(id);
  }
  for (const auto& [id, v] : vb)
    if (!va.count(id)) {
      d.only_in_b.push_back(id);
      if (!IsConformant(v)) d.new_failures.push_back(id);
    }
  return d;
}

std::string ToString(const ReportDiff& d) {
  std::string out;
  if (!d.comparable) out += "incomparable: " + d.incomparable_because + "\n";
  auto section = [&](std::string_view title, const std::vector<std::string>& ids) {
    out += fmt::format("{} ({})\n", title, ids.size());
    for (const std::string& id : ids) out += "  " + id + "\n";
  };
  section("new failures", d.new_failures);
  section("fixed", d.fixed);
  section("still failing", d.still_failing);
  section("newly skipped", d.newly_skipped);
  section("only in A", d.only_in_a);
  section("only in B", d.only_in_b);
  return out;
}

std::string MdCell(std::string_view text) {
  std::string out;
  for (char c : text) {
    if (c == '|')
      out += "\\|";
    else if (c == '\n')
      out += ' ';
    else
      out += c;
  }
  return out;
}

}  // namespace ictk
