/// \file
/// report.html (render.h RenderHtml): a self-contained page with the run, the totals, a
/// filter by rule and verdict, the rule matrix by spec subsection, the failures (with
/// their history pictures), coverage, precision and the requests by op.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <string>
#include <vector>

#include "codec/json_text.h"
#include "model/judge/rule_catalogue.h"
#include "model/rules/rule_id.h"
#include "reports/digest.h"
#include "reports/history_svg.h"
#include "reports/render.h"
#include "reports/render_internal.h"

namespace ictk {

using namespace reports_internal;  // NOLINT: the renderers' shared helpers

namespace {

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
svg.history{display:block;height:auto}
[hidden]{display:none!important}
#filter{margin:1em 0;padding:.5em;background:#f6f8fa;border:1px solid #ddd;border-radius:4px}
#filter input,#filter select{margin:0 1em 0 .3em}
tr.group th{background:#e8f0fe;text-align:left}
td.v-fail{background:#f6aea9}td.v-pass{background:#ceead6}td.v-skip{background:#f1f3f4}
td.v-xfail{background:#fef7e0}
)";

/// The filter (FilterHtml): shows the rule rows and failures whose rule contains the text
/// and that have a case of the verdict, hides the others (and a group left empty), counts
/// what it shows; `#rule=TEXT&verdict=V` in the URL presets it. The form is hidden until
/// this runs, so without script the page shows everything. Its hash is in the page's
/// Content-Security-Policy (HeadHtml), so the policy lets it run and nothing else.
const char* kFilterJs = R"(
(function () {
  var form = document.getElementById('filter');
  var rule = document.getElementById('filter-rule');
  var verdict = document.getElementById('filter-verdict');
  var count = document.getElementById('filter-count');
  function apply() {
    var q = rule.value.trim().toLowerCase(), v = verdict.value;
    var shown = {TR: 0, DIV: 0}, all = {TR: 0, DIV: 0};
    document.querySelectorAll('[data-rule]').forEach(function (el) {
      var verdicts = ' ' + el.getAttribute('data-verdicts') + ' ';
      var ok = el.getAttribute('data-rule').toLowerCase().indexOf(q) >= 0 &&
          (!v || verdicts.indexOf(' ' + v + ' ') >= 0);
      el.hidden = !ok;
      all[el.tagName]++;
      if (ok) shown[el.tagName]++;
    });
    document.querySelectorAll('#rule-matrix tr.group').forEach(function (g) {
      var any = false;
      for (var n = g.nextElementSibling; n && !n.classList.contains('group');
           n = n.nextElementSibling)
        any = any || !n.hidden;
      g.hidden = !any;
    });
    count.textContent = shown.TR + ' of ' + all.TR + ' rules, ' + shown.DIV + ' of ' +
        all.DIV + ' failures shown';
  }
  var preset = new URLSearchParams(location.hash.slice(1));
  if (preset.has('rule')) rule.value = preset.get('rule');
  if (preset.has('verdict')) verdict.value = preset.get('verdict');
  rule.addEventListener('input', apply);
  verdict.addEventListener('change', apply);
  form.addEventListener('submit', function (e) { e.preventDefault(); });
  form.hidden = false;
  apply();
})();
)";

/// The filter's form (hidden until kFilterJs shows it): a text box for the rule, a
/// choice of verdict, and the count of what is shown.
std::string FilterHtml() {
  std::string out =
      "<form id=\"filter\" hidden><label>rule <input type=\"search\" id=\"filter-rule\" "
      "placeholder=\"e.g. enf. or st.valid\"></label><label>verdict <select "
      "id=\"filter-verdict\"><option value=\"\">any</option>";
  for (Verdict v : kAllVerdicts) out += fmt::format("<option>{}</option>", ToString(v));
  return out + "</select></label><output id=\"filter-count\"></output></form>\n";
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
    const bool out_of_reach =
        std::find(t.clauses_out_of_reach.begin(), t.clauses_out_of_reach.end(), c.id) !=
        t.clauses_out_of_reach.end();
    // An exempt clause no step exercised is not a hole, nor is one out of the profile's
    // reach: their own class, not "none", and a reason.
    const char* cls = use.positive + use.negative > 0 ? "pass"
                      : exempt || out_of_reach      ? "exempt"
                                                    : "none";
    const std::string standing =
        ClauseStanding(c).empty() && out_of_reach ? "out of the profile's reach"
                                                  : std::string(ClauseStanding(c));
    out += fmt::format(
        "<tr class=\"{}\"><td title=\"{}\"><code>{}</code></td><td class=\"n\">{}</td>"
        "<td class=\"n\">{}</td><td title=\"{}\">{}</td></tr>\n",
        cls, EscapeXml(c.words), EscapeXml(c.id), use.positive, use.negative,
        EscapeXml(exempt ? std::string(c.exempt.reason) : std::string(c.gap)),
        EscapeXml(standing));
  }
  return out + "</tbody></table>\n";
}

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

/// The document's head, the title and the verdict.
std::string HeadHtml(const RunHeader& h, const Totals& t) {
  std::string out = "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n";
  // Self-contained: nothing may be loaded (no script, font, image or frame); the inline
  // style and the inline SVG pictures need nothing from outside, and the one script that
  // may run is the filter's, by the hash of its exact text.
  out += fmt::format(
      "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
      "style-src 'unsafe-inline'; script-src 'sha256-{}'\">\n",
      Sha256Base64(kFilterJs));
  out += fmt::format("<title>ictk {} — {}</title>\n<style>{}</style></head><body>\n",
                     EscapeXml(h.mode), EscapeXml(h.adapter), kCss);
  out += fmt::format("<h1>Iceberg v4 constraints: <code>{}</code></h1>\n",
                     EscapeXml(h.adapter));
  out += fmt::format("<p><span id=\"verdict\" class=\"verdict {}\">{}</span></p>\n",
                     t.conformant ? "ok" : "bad", EscapeXml(VerdictText(t)));
  return out;
}

/// The table of the run: implementation, seed, cases, versions, switches, profile.
std::string RunTableHtml(const RunHeader& h, const Totals& t) {
  std::string out;
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
  row("cases", fmt::format("{}{} (max {} steps){}", CasesText(t), EscapeXml(StopText(h)),
                           h.max_steps,
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
  return out;
}

/// Cases per verdict.
std::string TotalsHtml(const Totals& t) {
  std::string out;
  out += "<h2>Totals</h2>\n<table id=\"totals\"><tr>";
  for (Verdict v : kAllVerdicts) out += fmt::format("<th>{}</th>", ToString(v));
  out += "</tr><tr>";
  for (Verdict v : kAllVerdicts) {
    const int64_t n = Count(t.verdicts, v);
    out += fmt::format("<td class=\"n {}\">{}</td>",
                       n == 0 ? "none" : (IsConformant(v) ? "pass" : "fail"), n);
  }
  out += "</tr></table>\n";
  return out;
}

/// Why a rule no step exercised is grey: out of the profile's reach (and why), a
/// capability the adapter lacks, coverage-exempt, or not reached by this run.
std::string GreyRowReason(const RunHeader& h, const Totals& t, const RuleInfo& info) {
  const std::string rule(RuleIdName(info.id));
  if (info.coverage_exempt) return "coverage-exempt: no request can break it alone";
  if (auto it = t.untested_because.find(rule); it != t.untested_because.end())
    return fmt::format("the adapter lacks {}", it->second);
  if (!h.profile.empty())
    if (std::string why = OutOfReachReason(h, info); !why.empty())
      return "out of the profile's reach: " + why;
  return "no step of this run exercised it";
}

/// Cases per rule and verdict, grouped by the spec's subsections, with coverage bars.
std::string RuleMatrixHtml(const RunHeader& h, const Totals& t) {
  std::string out;
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
    // A grey row says why no step exercised the rule.
    const std::string grey =
        rt.positive + rt.negative > 0 ? ""
        : info.coverage_exempt        ? " <small>(exempt)</small>"
                                      : fmt::format(" <small class=\"why\">({})</small>",
                                                    EscapeXml(GreyRowReason(h, t, info)));
    std::vector<std::string_view> verdicts;  // for the filter
    for (Verdict v : kAllVerdicts)
      if (Count(rt.cases, v) > 0) verdicts.push_back(ToString(v));
    out += fmt::format(
        "<tr class=\"{0}\" id=\"rule-{1}\" data-rule=\"{1}\" data-verdicts=\"{2}\"><td "
        "title=\"{3}\"><code>{1}</code>{4}</td>",
        cls, EscapeXml(rule), fmt::join(verdicts, " "), EscapeXml(title), grey);
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
  return out;
}

/// The failures by cause.
std::string CausesHtml(const Report& report) {
  std::string out;
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
  return out;
}

/// One failure's finding, history picture (for the first 20), steps, fixture and
/// commands.
std::string FailureHtml(const FailureDetail& f, int shown) {
  std::string out;
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
  if (!f.evaluation.empty())
    out += fmt::format("<p class=\"evaluation\"><b>Evaluation:</b> <code>{}</code></p>\n",
                       EscapeXml(f.evaluation));
  if (!f.adapter_message.empty())
    out += fmt::format("<p><b>The adapter said:</b> {}</p>\n", EscapeXml(f.adapter_message));
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
  return out;
}

/// The failures (the first 50).
std::string FailuresHtml(const Report& report) {
  std::string out;
  out += "<h2>Failures</h2>\n";
  int shown = 0;
  for (const CaseRecord& c : report.cases) {
    if (IsConformant(c.verdict)) continue;
    ++shown;
    out += fmt::format(
        "<div class=\"failure\" id=\"failure-{0}\" data-rule=\"{1}\" "
        "data-verdicts=\"{2}\">"
        "<h3><code>{3}</code>: {2}</h3>\n",
        shown, EscapeXml(c.failure ? c.failure->rule : std::string()),
        ToString(c.verdict), EscapeXml(c.id));
    if (!c.failure) {
      out += fmt::format("<p>{}</p></div>\n", EscapeXml(c.reason));
      continue;
    }
    out += FailureHtml(*c.failure, shown);
    out += "</div>\n";
    if (shown >= 50) {
      out += "<p>(further failures are in report.jsonl)</p>\n";
      break;
    }
  }
  if (shown == 0) out += "<p id=\"no-failures\">None.</p>\n";
  return out;
}



/// The rules never exercised, the clause coverage, precision and the requests by op.
std::string CoverageHtml(const Totals& t) {
  std::string out;
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
  out += fmt::format("</table>\n<script>{}</script>\n</body></html>\n", kFilterJs);
  return out;
}

}  // namespace

std::string RenderHtml(const Report& report) {
  const Totals t = TotalsOf(report);
  const RunHeader& h = report.header;
  std::string out = HeadHtml(h, t);
  out += RunTableHtml(h, t);
  out += TotalsHtml(t);
  out += FilterHtml();
  out += RuleMatrixHtml(h, t);
  out += CausesHtml(report);
  out += FailuresHtml(report);
  out += CoverageHtml(t);
  return out;
}

}  // namespace ictk
