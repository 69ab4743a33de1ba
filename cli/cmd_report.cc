/// \file
/// `ictk report`: `diff A.jsonl B.jsonl` compares two runs by case ID (new failures,
/// fixed, still failing, newly skipped, incomparable when the model or protocol differ;
/// exit 0 when B has no new failures, 1 when it has, 2 on unreadable input), and `render
/// REPORT.jsonl [--out DIR]` re-renders junit.xml, summary.md, report.html and badge.json
/// from a report.jsonl.
#include <fmt/format.h>

#include <CLI/CLI.hpp>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>

#include "cli/commands.h"
#include "codec/json_text.h"
#include "reports/render.h"
#include "reports/report.h"

namespace ictk::cli {
namespace {

namespace fs = std::filesystem;

struct ReportArgs {
  std::string a, b;
  std::string format = "text";
  std::string input;
  std::string out;
  CLI::App* diff = nullptr;
  CLI::App* render = nullptr;
};

Result<Report> ReadReport(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return MakeError(ErrorKind::kIo, fmt::format("cannot read {}", path));
  std::stringstream text;
  text << in.rdbuf();
  Result<Report> report = ParseReportJsonl(text.str(), path);
  if (report && !report->totals)
    report->totals = ComputeTotals(report->header, report->cases, 0);
  return report;
}

int RunDiff(const ReportArgs& args) {
  Result<Report> a = ReadReport(args.a);
  Result<Report> b = ReadReport(args.b);
  for (const Result<Report>* r : {&a, &b})
    if (!*r) {
      std::fprintf(stderr, "ictk report diff: %s\n", (*r).error().message.c_str());
      return 2;
    }
  const ReportDiff d = DiffReports(*a, *b);
  if (args.format == "json") {
    nlohmann::json j = {{"comparable", d.comparable},
                        {"incomparable-because", d.incomparable_because},
                        {"new-failures", d.new_failures},
                        {"fixed", d.fixed},
                        {"still-failing", d.still_failing},
                        {"newly-skipped", d.newly_skipped},
                        {"only-in-a", d.only_in_a},
                        {"only-in-b", d.only_in_b}};
    std::printf("%s\n", DumpJson(j, 2).c_str());
  } else {
    std::printf("%s", ToString(d).c_str());
  }
  return d.ok() ? 0 : 1;
}

int RunRender(const ReportArgs& args) {
  Result<Report> r = ReadReport(args.input);
  if (!r) {
    std::fprintf(stderr, "ictk report render: %s\n", r.error().message.c_str());
    return 2;
  }
  const fs::path dir =
      args.out.empty() ? fs::path(args.input).parent_path() : fs::path(args.out);
  std::error_code ec;
  if (!dir.empty()) fs::create_directories(dir, ec);
  const std::pair<const char*, std::string> files[] = {
      {"junit.xml", RenderJunitXml(*r)},
      {"summary.md", RenderSummaryMarkdown(*r)},
      {"report.html", RenderHtml(*r)},
      {"badge.json", RenderBadgeJson(*r)}};
  for (const auto& [name, text] : files) {
    std::ofstream out(dir / name, std::ios::binary | std::ios::trunc);
    out << text;
    if (!out) {
      std::fprintf(stderr, "ictk report render: cannot write %s\n", (dir / name).c_str());
      return 2;
    }
  }
  std::printf("wrote %s/{junit.xml,summary.md,report.html,badge.json}\n",
              dir.empty() ? "." : dir.c_str());
  return 0;
}

}  // namespace

SubcommandRunner AddReportCommand(CLI::App& app, CLI::App** subcommand) {
  auto args = std::make_shared<ReportArgs>();
  CLI::App* report = app.add_subcommand("report", "Compare or re-render run reports");
  report->require_subcommand(1);
  args->diff = report->add_subcommand(
      "diff", "Compare two report.jsonl by case ID; exit 0 when B has no new failures");
  args->diff->add_option("a", args->a, "The earlier report.jsonl")->required();
  args->diff->add_option("b", args->b, "The later report.jsonl")->required();
  args->diff->add_option("--format", args->format, "text or json")
      ->check(CLI::IsMember({"text", "json"}));
  args->render = report->add_subcommand(
      "render",
      "Write junit.xml, summary.md, report.html and badge.json from a report.jsonl");
  args->render->add_option("report", args->input, "The report.jsonl")->required();
  args->render->add_option("--out", args->out, "Directory (default: the report's)");
  *subcommand = report;
  return [args](const GlobalOptions&) {
    if (*args->diff) return RunDiff(*args);
    if (*args->render) return RunRender(*args);
    return 2;
  };
}

}  // namespace ictk::cli
