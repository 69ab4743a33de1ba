/// \file
/// What a run writes besides report.jsonl, each a pure function of the records
/// (report.h): `junit.xml` for CI test tabs, `summary.md` (fits a CI step summary), a
/// self-contained `report.html` (no network: a rule x verdict matrix, each failure with
/// its step table and replay command, coverage and precision) and `badge.json` (a
/// shields.io endpoint). `ictk report diff` compares two runs by case ID.
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "reports/report.h"

namespace ictk {

std::string RenderJunitXml(const Report& report);

/// junit.xml in pieces, for a run written case by case (reports/stream.h):
/// RenderJunitXml is JunitHeadXml, then JunitCaseXml of each case with its note from
/// JunitCauseNotes (none for a conformant case), then JunitTailXml.
std::string JunitHeadXml(const RunHeader& header, const Totals& totals);
/// Case ID -> " [cause I of N, K case(s)]" for every case of `causes`.
std::map<std::string, std::string> JunitCauseNotes(const std::vector<FailureCause>& causes);
/// One `<testcase>` element; `cause_note` is appended to a failure's message.
std::string JunitCaseXml(const RunHeader& header, const CaseRecord& record,
                         std::string_view cause_note);
std::string JunitTailXml();
std::string RenderSummaryMarkdown(const Report& report);
std::string RenderHtml(const Report& report);
std::string RenderBadgeJson(const Report& report);

/// `text` as one Markdown table cell: `|` escaped, line breaks as spaces.
std::string MdCell(std::string_view text);

/// How two runs differ, keyed by case ID.
struct ReportDiff {
  bool comparable = true;
  std::string incomparable_because;       ///< different model or protocol version
  std::vector<std::string> new_failures;  ///< conformant in A, not in B
  std::vector<std::string> fixed;         ///< not conformant in A, conformant in B
  std::vector<std::string> still_failing;
  std::vector<std::string> newly_skipped;  ///< not skipped in A, skipped in B
  std::vector<std::string> only_in_a, only_in_b;
  /// Whether B is no worse than A: comparable and no new failures.
  bool ok() const { return comparable && new_failures.empty(); }
};

ReportDiff DiffReports(const Report& a, const Report& b);
/// The diff as text, one section per category.
std::string ToString(const ReportDiff& diff);

/// Escapes &, <, >, " and ' for HTML and XML text and attributes.
std::string EscapeXml(std::string_view text);

}  // namespace ictk
