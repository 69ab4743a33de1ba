/// \file
/// `ictk expectations update --report DIR [--out FILE]` (docs/replay.md): the proposed
/// expectation file for a run: one `xfail` line per failing case naming its rule ID (or
/// the verdict when no rule is named), and a `skip` line per case skipped for a missing
/// capability, each with the reason as its comment.
#include <fmt/format.h>

#include <CLI/CLI.hpp>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>

#include "cli/commands.h"
#include "reports/report.h"

namespace ictk::cli {
namespace {

struct ExpectationsArgs {
  std::string report;
  std::string out;
};

std::string OneLine(std::string s) {
  for (char& c : s)
    if (c == '\n' || c == '\r' || c == '#') c = ' ';
  if (s.size() > 160) s = s.substr(0, 157) + "...";
  return s;
}

int Run(const ExpectationsArgs& a) {
  std::filesystem::path path(a.report);
  if (std::filesystem::is_directory(path)) path /= "report.jsonl";
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    std::fprintf(stderr, "ictk expectations update: %s: cannot read\n",
                 path.string().c_str());
    return 2;
  }
  std::stringstream text;
  text << in.rdbuf();
  Result<Report> report = ParseReportJsonl(text.str(), path.string());
  if (!report) {
    std::fprintf(stderr, "ictk expectations update: %s\n",
                 report.error().message.c_str());
    return 2;
  }
  std::string out = fmt::format(
      "# Expectations proposed by `ictk expectations update` from {}\n"
      "# adapter {}; one entry a line: <id or glob> skip|xfail [<rule id or error kind>] "
      "[max=N]  # reason\n",
      path.string(), report->header.adapter);
  int64_t lines = 0;
  for (const CaseRecord& c : report->cases) {
    if (c.id.starts_with("expectations/")) continue;
    if (c.verdict == Verdict::kSkip) {
      if (c.reason.find("lacks capability") == std::string::npos) continue;
      out += fmt::format("{} skip  # {}\n", c.id, OneLine(c.reason));
      ++lines;
    } else if (!IsConformant(c.verdict) || c.verdict == Verdict::kXfail) {
      if (c.verdict == Verdict::kXpass) continue;  // passes now: no entry
      const std::string rule =
          c.failure && !c.failure->rule.empty()
              ? c.failure->rule
              : (c.failed_rules.empty() ? "" : c.failed_rules.front());
      std::string why = c.failure && !c.failure->findings.empty()
                            ? c.failure->findings.front()
                            : c.reason;
      out += fmt::format("{} xfail{}  # {}: {}\n", c.id, rule.empty() ? "" : " " + rule,
                         ToString(c.verdict), OneLine(why));
      ++lines;
    }
  }
  if (a.out.empty()) {
    std::fputs(out.c_str(), stdout);
  } else {
    std::ofstream f(a.out, std::ios::binary | std::ios::trunc);
    f << out;
    f.close();
    if (!f) {
      std::fprintf(stderr, "ictk expectations update: cannot write %s\n", a.out.c_str());
      return 2;
    }
    std::fprintf(stderr, "ictk expectations update: %lld entries written to %s\n",
                 static_cast<long long>(lines), a.out.c_str());
  }
  return 0;
}

}  // namespace

SubcommandRunner AddExpectationsCommand(CLI::App& app, CLI::App** subcommand) {
  auto args = std::make_shared<ExpectationsArgs>();
  CLI::App* c = app.add_subcommand("expectations", "Expectation files (docs/replay.md)");
  c->require_subcommand(1);
  CLI::App* update = c->add_subcommand(
      "update",
      "Write the proposed expectation file of a run: an xfail per failing case, a "
      "skip per case skipped for a missing capability");
  update->add_option("--report", args->report, "Run folder (or its report.jsonl)")
      ->required();
  update->add_option("--out", args->out, "Expectation file to write (default stdout)");
  *subcommand = c;
  return [args](const GlobalOptions&) { return Run(*args); };
}

}  // namespace ictk::cli
