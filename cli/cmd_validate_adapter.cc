/// \file
/// `ictk validate-adapter --adapter SPEC`: the handshake and a scripted session touching
/// every declared op (adapters/conformance.h), printed as a table of steps and a line per
/// op. Exit 0 only when everything the adapter declared conforms; 1 otherwise; 2 when the
/// adapter cannot be made at all.
#include <cstdio>

#include "adapters/conformance.h"
#include "cli/adapter_config.h"
#include "cli/commands.h"
#include "codec/json_text.h"

namespace ictk::cli {

int RunValidateAdapter(const GlobalOptions& global, const AdapterFlags& flags,
                       const std::string& format, bool verbose) {
  auto adapter = OpenAdapter(global, flags);
  if (!adapter) {
    std::fprintf(stderr, "ictk validate-adapter: %s\n", adapter.error().message.c_str());
    return 2;
  }
  ConformanceReport report = RunConformanceSession(**adapter);
  if (format == "json") {
    nlohmann::json steps = nlohmann::json::array();
    for (const auto& s : report.steps) {
      steps.push_back({{"op", s.op},
                       {"what", s.what},
                       {"capability", s.capability},
                       {"result", s.result},
                       {"verdict", std::string(ToString(s.verdict))},
                       {"detail", s.detail},
                       {"request", s.request},
                       {"response", s.response}});
    }
    nlohmann::json out = {{"adapter", (*adapter)->Describe()},
                          {"hello", report.hello},
                          {"profile", report.ProfileName()},
                          {"conforms", report.ok()},
                          {"steps", steps}};
    std::puts(DumpJson(out, 2).c_str());
  } else {
    std::fputs(FormatConformanceReport(report, verbose).c_str(), stdout);
  }
  return report.ok() ? 0 : 1;
}

}  // namespace ictk::cli
