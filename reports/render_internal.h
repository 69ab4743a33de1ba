/// \file
/// What the report renderers share (not installed). render.cc holds these, the escaping
/// helpers, badge.json and the diff; render_junit.cc junit.xml; render_markdown.cc
/// summary.md; render_html.cc report.html.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>

#include "model/judge/rule_catalogue.h"
#include "reports/report.h"

namespace ictk::reports_internal {

/// The report's totals, computed from its cases when it has none.
Totals TotalsOf(const Report& r);
int64_t Count(const std::map<Verdict, int64_t>& m, Verdict v);
/// The cases of non-conformant verdicts.
int64_t NonConformant(const Totals& t);
/// The sentence that explains a rule: `given` when not empty, else the rule's quote from
/// the spec, else its summary.
std::string Sentence(std::string_view rule, std::string_view given);
/// "42%", or "-" when `whole` is 0.
std::string Percent(int64_t part, int64_t whole);
/// A clause's standing apart from its counts: "exempt: <kind>" when no mutant can break
/// it (docs/rules.md "Clauses"), "gap" when its generator step or mutant is still to do,
/// else empty.
std::string ClauseStanding(const ClauseInfo& c);
/// Where the run's corpus came from, in words.
std::string CorpusText(const RunHeader& h);

}  // namespace ictk::reports_internal
