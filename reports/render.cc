/// \file
/// The report renderers' shared helpers, the escaping of XML and Markdown cells,
/// badge.json and the diff of two reports (render.h). junit.xml, summary.md and
/// report.html are rendered by render_junit.cc, render_markdown.cc and render_html.cc.
#include "reports/render.h"

#include <fmt/format.h>

#include <map>

#include "codec/json_text.h"
#include "model/judge/rule_catalogue.h"
#include "model/rules/rule_id.h"
#include "reports/render_internal.h"

namespace ictk {
namespace reports_internal {

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

namespace {

std::string_view QuoteOf(std::string_view rule) {
  if (std::optional<RuleId> id = ParseRuleId(rule)) return FindRule(*id).quote;
  return {};
}

std::string_view SummaryOf(std::string_view rule) {
  if (std::optional<RuleId> id = ParseRuleId(rule)) return FindRule(*id).summary;
  return {};
}

}  // namespace

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

std::string ClauseStanding(const ClauseInfo& c) {
  if (c.exempt.kind != ExemptKind::kNone)
    return fmt::format("exempt: {}", ToString(c.exempt.kind));
  return c.gap.empty() ? std::string() : std::string("gap");
}

/// summary.md's clause coverage: how many clauses the run exercised, the clauses never

/// Where the run's corpus came from, in words.
std::string CorpusText(const RunHeader& h) {
  if (!h.corpus.empty()) return h.corpus;
  return h.corpus_note.empty() ? "none" : "none (" + h.corpus_note + ")";
}


}  // namespace reports_internal

using namespace reports_internal;  // NOLINT: the renderers' shared helpers

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

std::string RenderBadgeJson(const Report& report) {
  const Totals t = TotalsOf(report);
  const int64_t bad = NonConformant(t);
  nlohmann::json badge = {
      {"schemaVersion", 1},
      {"label", "iceberg v4 constraints"},
      {"message", t.conformant ? (t.profile.empty()
                                      ? fmt::format("conformant ({})", CasesText(t))
                                      : fmt::format("conformant: {} ({})", ScopeText(t),
                                                    CasesText(t)))
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
