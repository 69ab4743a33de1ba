/// \file
/// The report of a conformance session in words (conformance.h).
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <map>
#include <set>
#include <string>

#include "adapters/conformance.h"
#include "codec/json_text.h"
#include "codec/protocol.h"

namespace ictk {

using json = nlohmann::json;

std::string_view ToString(StepVerdict verdict) {
  switch (verdict) {
    case StepVerdict::kOk:
      return "ok";
    case StepVerdict::kFail:
      return "FAIL";
    case StepVerdict::kUnsupported:
      return "unsupported";
    case StepVerdict::kSkipped:
      break;
  }
  return "skipped";
}

std::string ConformanceReport::ProfileName() const {
  std::set<int32_t> v(format_versions.begin(), format_versions.end());
  std::string versions = "no-version";
  if (!v.empty()) {
    const int32_t lo = *v.begin(), hi = *v.rbegin();
    versions = lo == hi ? fmt::format("v{}", lo) : fmt::format("v{}\u2013v{}", lo, hi);
  }
  return versions + (writer ? " writer" : " reader");
}

bool ConformanceReport::ok() const {
  if (steps.empty()) return false;
  for (const auto& s : steps)
    if (s.verdict == StepVerdict::kFail) return false;
  return true;
}

std::string FormatConformanceReport(const ConformanceReport& report, bool verbose) {
  std::string out;
  if (report.hello.is_object()) {
    const json& impl = report.hello.value("implementation", json::object());
    out += fmt::format("implementation: {} {} ({})\n", impl.value("name", "?"),
                       impl.value("version", "?"), impl.value("language", "?"));
    out += fmt::format("profile: {}\n", report.ProfileName());
    out += fmt::format("format versions: {}\n", fmt::join(report.format_versions, ", "));
    out += fmt::format("capabilities: {}\n\n", fmt::join(report.capabilities, ", "));
  }
  out += fmt::format("{:>4}  {:<18} {:<42} {:<28} {}\n", "step", "op", "what", "result",
                     "verdict");
  int n = 0;
  for (const auto& s : report.steps) {
    ++n;
    std::string verdict(ToString(s.verdict));
    if (!s.detail.empty()) verdict += ": " + s.detail;
    out += fmt::format("{:>4}  {:<18} {:<42} {:<28} {}\n", n, s.op, s.what, s.result,
                       verdict);
    if (verbose && s.verdict == StepVerdict::kFail) {
      out += fmt::format("      request:  {}\n", DumpJson(s.request));
      out += fmt::format("      response: {}\n", DumpJson(s.response));
    }
  }
  // One line per op: FAIL beats ok beats unsupported beats skipped.
  std::map<std::string, StepVerdict> per_op;
  auto rank = [](StepVerdict v) {
    switch (v) {
      case StepVerdict::kFail:
        return 3;
      case StepVerdict::kOk:
        return 2;
      case StepVerdict::kUnsupported:
        return 1;
      case StepVerdict::kSkipped:
        break;
    }
    return 0;
  };
  for (const auto& s : report.steps) {
    auto it = per_op.find(s.op);
    if (it == per_op.end() || rank(s.verdict) > rank(it->second))
      per_op[s.op] = s.verdict;
  }
  out += "\nper op:\n";
  for (const std::string& op : AllOps()) {
    auto it = per_op.find(op);
    out += fmt::format("  {:<18} {}\n", op,
                       it != per_op.end() ? std::string(ToString(it->second))
                       : report.writer    ? std::string("not run")
                                          : std::string("not sent (reader profile)"));
  }
  size_t failed =
      std::count_if(report.steps.begin(), report.steps.end(),
                    [](const auto& s) { return s.verdict == StepVerdict::kFail; });
  out += fmt::format("\n{} step(s), {} failed: {}\n", report.steps.size(), failed,
                     report.ok() ? "the adapter conforms to protocol version 1"
                                 : "the adapter does not conform");
  return out;
}

}  // namespace ictk
