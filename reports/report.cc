/// \file
/// Report records (report.h): verdicts, a failure's finding, and the causes failing cases
/// share. Their JSON is in report_json.cc, the totals in report_totals.cc.
#include "model/judge/capability.h"
#include "reports/report.h"

#include <fmt/format.h>

#include <algorithm>
#include <string>

#include "model/judge/rule_catalogue.h"
#include "model/rules/rule_id.h"

namespace ictk {
namespace {

constexpr std::string_view kVerdictNames[] = {"pass",  "fail",    "error",
                                              "crash", "timeout", "protocol-error",
                                              "skip",  "xfail",   "xpass"};

}  // namespace

std::string EvaluationLines(const FailureDetail& failure, std::string_view indent) {
  std::string out;
  if (!failure.evaluation.empty())
    out += fmt::format("{}evaluation: {}\n", indent, failure.evaluation);
  if (!failure.adapter_message.empty())
    out += fmt::format("{}the adapter said: {}\n", indent, failure.adapter_message);
  return out;
}

std::string FindingOf(const FailureDetail& failure) {
  if (!failure.finding.empty()) return failure.finding;
  if (!failure.findings.empty()) return failure.findings.front();
  return {};
}

bool WasMinimized(const FailureDetail& failure) {
  return failure.shrink_runs > 0 &&
         failure.original_steps > static_cast<int>(failure.steps.size());
}

std::string_view ToString(Verdict verdict) {
  return kVerdictNames[static_cast<int>(verdict)];
}

std::optional<Verdict> ParseVerdict(std::string_view text) {
  for (Verdict v : kAllVerdicts)
    if (ToString(v) == text) return v;
  return std::nullopt;
}

bool IsConformant(Verdict verdict) {
  return verdict == Verdict::kPass || verdict == Verdict::kSkip ||
         verdict == Verdict::kXfail;
}

std::vector<std::string> RulesFailedUnder(const CaseRecord& record) {
  if (record.verdict == Verdict::kPass || record.verdict == Verdict::kSkip ||
      record.verdict == Verdict::kXpass)
    return {};
  std::vector<std::string> out;
  auto add = [&out](const std::string& rule) {
    if (!rule.empty() && std::find(out.begin(), out.end(), rule) == out.end())
      out.push_back(rule);
  };
  if (record.failure) add(record.failure->rule);
  for (const std::string& rule : record.failed_rules) add(rule);
  if (record.failure)
    for (const std::string& rule : record.failure->runner_rules) add(rule);
  return out;
}

std::string JunitClassname(const RunHeader& header, const CaseRecord& record) {
  const std::vector<std::string> failed = RulesFailedUnder(record);
  if (!failed.empty()) return "ictk." + failed.front();
  // A corpus fixture's ID is "<primary rule>/<slug>-<hash8>" (docs/replay.md).
  const size_t slash = record.id.find('/');
  if (slash != std::string::npos && ParseRuleId(record.id.substr(0, slash)))
    return "ictk." + record.id.substr(0, slash);
  return "ictk." + header.mode;
}

std::string_view CapabilityForRule(std::string_view rule) {
  const std::optional<RuleId> id = ParseRuleId(rule);
  if (!id) return {};
  const std::optional<Capability> cap = CapabilityOfRule(*id);
  return cap ? ToString(*cap) : std::string_view{};
}

std::string StopText(const RunHeader& header) {
  if (header.until_stable <= 0) return "";
  return fmt::format(", until stable (the last {} histories added no coverage)",
                     header.until_stable);
}

std::string CasesText(const Totals& totals) {
  const int64_t histories = totals.cases - totals.fixture_cases;
  if (totals.fixture_cases == 0) return fmt::format("{} histories", histories);
  if (histories == 0) return fmt::format("{} fixtures", totals.fixture_cases);
  return fmt::format("{} histories and {} fixtures", histories, totals.fixture_cases);
}

namespace {

/// "unsupported", "rejected (invalid-request)", "ok", "error": the kind of an answer
/// described by DescribeAnswer.
std::string AnswerKind(std::string_view answered) {
  if (answered.rfind("ok", 0) == 0) return "ok";
  if (answered.rfind("rejected (", 0) == 0) {
    const size_t close = answered.find(')');
    if (close != std::string_view::npos) return std::string(answered.substr(0, close + 1));
  }
  const size_t end = answered.find_first_of(":;\n");
  return std::string(answered.substr(0, end));
}

}  // namespace

std::string CauseOf(const CaseRecord& c) {
  if (c.failure) {
    const FailureDetail& f = *c.failure;
    std::string op;
    if (f.step >= 1 && static_cast<size_t>(f.step) <= f.steps.size())
      op = f.steps[static_cast<size_t>(f.step) - 1].op;
    return fmt::format("{} {}{}: answered {}", ToString(c.verdict), f.rule,
                       op.empty() ? "" : " at " + op, AnswerKind(f.answered));
  }
  std::string_view reason = c.reason;
  reason = reason.substr(0, reason.find('\n'));
  if (reason.size() > 100) reason = reason.substr(0, 100);
  return reason.empty() ? std::string(ToString(c.verdict))
                        : fmt::format("{}: {}", ToString(c.verdict), reason);
}

std::vector<FailureCause> FailureCauses(const std::vector<CaseRecord>& cases) {
  std::vector<FailureCause> out;
  std::map<std::string, size_t> index;
  for (size_t i = 0; i < cases.size(); ++i) {
    const CaseRecord& c = cases[i];
    if (IsConformant(c.verdict)) continue;
    const std::string cause = CauseOf(c);
    auto [it, inserted] = index.emplace(cause, out.size());
    if (inserted) out.push_back(FailureCause{cause, {}, i});
    out[it->second].cases.push_back(c.id);
  }
  return out;
}

}  // namespace ictk
