/// \file
/// junit.xml (render.h RenderJunitXml and its parts, which the streaming writer also
/// uses): one test case per history or fixture, a failure's finding and steps in it.
#include <fmt/format.h>

#include <map>
#include <string>
#include <vector>

#include "codec/json_text.h"
#include "reports/render.h"
#include "reports/render_internal.h"

namespace ictk {

using namespace reports_internal;  // NOLINT: the renderers' shared helpers

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
      fmt::format("    <testcase classname=\"{}\" name=\"{}\" time=\"{:.3f}\"",
                  EscapeXml(JunitClassname(header, c)), EscapeXml(c.id),
                  c.duration_ms / 1000);
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
    text += EvaluationLines(*f, "");
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
}  // namespace ictk
