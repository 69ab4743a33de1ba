/// \file
/// `ictk replay --adapter SPEC [--expect FILE] [--strict] [--switch NAME=VALUE]... [--out
/// DIR] PATH...` (docs/replay.md): replays fixture files or folders (recursively, sorted)
/// on an adapter, one case per fixture with the fixture's ID, prints each failure and a
/// closing `N passed, M failed[, K skipped, X xfailed]`, and with `--out` writes the same
/// report files as `certify`. Exit 0 when every case passed, was skipped or xfailed, 1
/// otherwise, 2 for a bad fixture, expectation file or adapter.
#include <fmt/format.h>

#include <CLI/CLI.hpp>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include "cli/adapter_config.h"
#include "cli/commands.h"
#include "cli/console_internal.h"
#include "cli/files_internal.h"
#include "cli/interrupt_internal.h"
#include "codec/json_text.h"
#include "codec/protocol.h"
#include "fixtures/replay.h"
#include "properties/runner.h"
#include "reports/digest.h"
#include "reports/render.h"
#include "reports/report.h"

#ifndef ICTK_VERSION
#define ICTK_VERSION "0.0.0"
#endif

namespace ictk::cli {
namespace {

namespace fs = std::filesystem;

struct ReplayArgs {
  AdapterFlags adapter;
  std::string expect;
  bool strict = false;
  std::vector<std::string> switches;
  std::string out;
  std::vector<std::string> paths;
  std::string command_line;
};

/// Prints each failure (the finding first, then where and under which rule) and the
/// closing count; true when every case passed, was skipped or xfailed and no expectation
/// entry was breached.
bool PrintCases(const Report& report) {
  int64_t passed = 0, failed = 0, skipped = 0, xfailed = 0, breaches = 0;
  for (const CaseRecord& c : report.cases) {
    // An expectation-file breach (a stale or over-matching entry) is not a fixture's
    // verdict: printed apart, not counted, and it fails the run (docs/fixtures.md 9).
    if (c.index < 0 && c.id.rfind("expectations/", 0) == 0) {
      ++breaches;
      std::printf("EXPECT %s\n", c.reason.c_str());
      continue;
    }
    switch (c.verdict) {
      case Verdict::kPass:
        ++passed;
        continue;
      case Verdict::kSkip:
        ++skipped;
        continue;
      case Verdict::kXfail:
        ++xfailed;
        continue;
      default:
        ++failed;
    }
    // The finding first, then where and under which rule.
    std::printf("%s %s: %s\n", Painted(ToString(c.verdict), Tint::kRed, stdout).c_str(),
                c.id.c_str(),
                c.failure ? fmt::format("{} (step {} of {}, rule {})",
                                        FindingOf(*c.failure), c.failure->step,
                                        c.failure->original_steps, c.failure->rule)
                                .c_str()
                          : c.reason.c_str());
    if (c.failure) {
      for (const std::string& f : c.failure->findings) std::printf("    %s\n", f.c_str());
      std::printf("%s", EvaluationLines(*c.failure, "    ").c_str());
      if (!c.reason.empty() && c.verdict != Verdict::kFail)
        std::printf("    %s\n", c.reason.c_str());
      std::printf("    replay: %s\n", c.failure->replay.c_str());
    } else if (c.verdict == Verdict::kXpass) {
      std::printf("    %s\n", c.reason.c_str());
    }
  }
  std::string closing = fmt::format("{} passed, {} failed", passed, failed);
  if (skipped > 0) closing += fmt::format(", {} skipped", skipped);
  if (xfailed > 0) closing += fmt::format(", {} xfailed", xfailed);
  const bool ok = failed == 0 && breaches == 0;
  std::printf("%s\n", Painted(closing, ok ? Tint::kGreen : Tint::kRed, stdout).c_str());
  return ok;
}

/// The report's header and totals, as certify writes them.
void FillHeader(const ReplayArgs& a, const Switches& switches,
                const AdapterSession& session,
                std::chrono::steady_clock::time_point start, Report& report) {
  RunHeader& h = report.header;
  h.ictk_version = ICTK_VERSION;
  h.protocol_version = kProtocolVersion;
  h.model_version = ModelVersion(switches);
  h.switches = SwitchValues(switches);
  h.seed = 0;
  h.command_line = a.command_line;
  h.adapter = a.adapter.spec;
  h.hello = session.hello_json();
  h.capabilities = session.capabilities().Names();
  h.histories = static_cast<int64_t>(report.cases.size());
  h.mode = "replay";
  report.totals = ComputeTotals(
      h, report.cases,
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
          .count());
}

/// The report files under --out; false (after printing why) when one cannot be written.
bool WriteReports(const ReplayArgs& a, const Report& report) {
  const RunHeader& h = report.header;
  const fs::path dir(a.out);
  std::string jsonl = DumpJson(ToJson(h)) + "\n";
  for (const CaseRecord& c : report.cases) jsonl += DumpJson(ToJson(c)) + "\n";
  jsonl += DumpJson(ToJson(*report.totals)) + "\n";
  std::string error;
  const bool ok = WriteFile(dir / "report.jsonl", jsonl, error) &&
                  WriteRenderedReports(dir, report, error);
  if (!ok) {
    std::fprintf(stderr, "ictk replay: %s\n", error.c_str());
    return false;
  }
  std::printf("reports: %s/{report.jsonl,junit.xml,summary.md,report.html,badge.json}\n",
              a.out.c_str());
  return true;
}

int Run(const GlobalOptions& global, const ReplayArgs& a) {
  Switches switches = global.switches;
  if (const std::string error = ApplySwitchSettings(switches, a.switches, "--switch");
      !error.empty()) {
    std::fprintf(stderr, "ictk replay: %s\n", error.c_str());
    return 2;
  }
  std::optional<ExpectationFile> expect;
  if (!a.expect.empty()) {
    Result<ExpectationFile> e = ReadExpectationFile(a.expect);
    if (!e) {
      std::fprintf(stderr, "ictk replay: %s\n", e.error().message.c_str());
      return 2;
    }
    expect = std::move(*e);
  }
  Result<std::vector<Fixture>> fixtures = ReadFixtures(a.paths);
  if (!fixtures) {
    std::fprintf(stderr, "ictk replay: %s\n", fixtures.error().message.c_str());
    return 2;
  }
  GlobalOptions with = global;
  with.switches = switches;
  Result<std::unique_ptr<Adapter>> adapter = OpenAdapter(with, a.adapter);
  if (!adapter) {
    std::fprintf(stderr, "ictk replay: %s\n", adapter.error().message.c_str());
    return 2;
  }
  AdapterSession session(std::move(*adapter));
  if (Result<HelloInfo> hello = session.Handshake(); !hello) {
    std::fprintf(stderr, "ictk replay: %s: %s\n", a.adapter.spec.c_str(),
                 hello.error().message.c_str());
    return 2;
  }
  const auto start = std::chrono::steady_clock::now();
  ReplayOptions options;
  options.switches = switches;
  // The model judges against the format versions the adapter declared
  // (proto.declared-versions).
  options.switches.declared_format_versions = session.capabilities().format_versions;
  options.adapter_spec = a.adapter.spec;
  options.expect = expect ? &*expect : nullptr;
  options.strict = a.strict;
  Report report;
  ExitOnInterrupt("replay", "");  // exit 130, as certify; nothing to resume
  report.cases = ReplayFixtures(session, *fixtures, options);
  if (expect && a.strict && !expect->entries.empty())
    std::printf("note: --strict: the %zu entries of %s are not honoured\n",
                expect->entries.size(), a.expect.c_str());
  if (expect && !a.strict)
    for (CaseRecord& r : ExpectationBreachRecords(*expect, report.cases))
      report.cases.push_back(std::move(r));

  const bool all_passed = PrintCases(report);
  FillHeader(a, switches, session, start, report);
  if (!a.out.empty() && !WriteReports(a, report)) return 2;
  return all_passed ? 0 : 1;
}

}  // namespace

SubcommandRunner AddReplayCommand(CLI::App& app, CLI::App** subcommand,
                                  const std::vector<std::string>& argv) {
  auto args = std::make_shared<ReplayArgs>();
  {
    std::vector<std::string> quoted;
    for (const std::string& s : argv) quoted.push_back(ShellQuote(s));
    args->command_line = fmt::format("{}", fmt::join(quoted, " "));
  }
  CLI::App* c =
      app.add_subcommand("replay",
                         "Replay fixture files or folders on an adapter "
                         "(docs/replay.md); exit 0 all passed, "
                         "1 a failure, 2 a bad fixture, expectation file or adapter");
  AddAdapterFlags(c, args->adapter);
  c->add_option("--expect", args->expect,
                "Expectation file: `<id or glob> skip|xfail [<rule or kind>] [max=N]  # "
                "reason` lines");
  c->add_flag("--strict", args->strict,
              "Certification mode: expectation entries are not honoured; only fixtures "
              "needing an undeclared capability are skipped");
  c->add_option("--switch", args->switches,
                "Interpretation switch NAME=VALUE; repeatable")
      ->type_name("NAME=VALUE");
  c->add_option("--out", args->out, "Write the report files (as certify) into DIR");
  c->add_option("paths", args->paths, "Fixture files or folders")->required();
  *subcommand = c;
  return [args](const GlobalOptions& global) { return Run(global, *args); };
}

}  // namespace ictk::cli
