/// \file
/// `ictk report`: `diff A B` (each a report.jsonl or a run folder holding one) compares
/// two runs by case ID (new failures,
/// fixed, still failing, newly skipped, incomparable when the model or protocol differ;
/// exit 0 when B has no new failures, 1 when it has, 2 on unreadable input), and `render
/// REPORT.jsonl [--out DIR]` re-renders junit.xml, summary.md, report.html and badge.json
/// from a report.jsonl, and `merge SHARD_DIR... --out DIR` merges the run folders of
/// `ictk certify --shard I/N` into the folder one unsharded run would have written
/// (report.jsonl, every rendering, the failure fixtures; exit 2 naming the field when the
/// shards do not belong together). `diff --exact` compares every record apart from
/// durations and command lines.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <CLI/CLI.hpp>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>

#include "cli/commands.h"
#include "cli/files_internal.h"
#include "codec/json_text.h"
#include "fixtures/replay.h"
#include "reports/merge.h"
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
  bool exact = false;
  std::vector<std::string> shards;
  CLI::App* diff = nullptr;
  CLI::App* render = nullptr;
  CLI::App* merge = nullptr;

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

/// What `diff` reads for `arg`: a report.jsonl, or a run folder's report.jsonl (as
/// `merge` reads its shards); an error naming the folder when it has none.
Result<Report> ReadReportOrRun(const std::string& arg) {
  std::error_code ec;
  if (!fs::is_directory(arg, ec)) return ReadReport(arg);
  const fs::path path = fs::path(arg) / "report.jsonl";
  if (!fs::exists(path, ec))
    return MakeError(ErrorKind::kUsage,
                     fmt::format("{}: a folder without report.jsonl (give a run folder, "
                                 "certify's --out, or a report.jsonl)",
                                 arg));
  return ReadReport(path.string());
}

int RunDiff(const ReportArgs& args) {
  Result<Report> a = ReadReportOrRun(args.a);
  Result<Report> b = ReadReportOrRun(args.b);
  for (const Result<Report>* r : {&a, &b})
    if (!*r) {
      std::fprintf(stderr, "ictk report diff: %s\n", (*r).error().message.c_str());
      return 2;
    }
  if (args.exact) {
    const std::vector<std::string> diffs = ExactDifferences(*a, *b);
    if (args.format == "json") {
      std::printf("%s\n", DumpJson(nlohmann::json{{"same", diffs.empty()},
                                                  {"differences", diffs}},
                                   2)
                              .c_str());
    } else if (diffs.empty()) {
      std::printf("same run (apart from durations and command lines)\n");
    } else {
      std::printf("%zu difference(s):\n", diffs.size());
      for (const std::string& d : diffs) std::printf("  %s\n", d.c_str());
    }
    return diffs.empty() ? 0 : 1;
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

int RunMerge(const ReportArgs& args) {
  std::vector<ShardInput> shards;
  for (const std::string& dir : args.shards) {
    const std::string path = (fs::path(dir) / "report.jsonl").string();
    Result<Report> r = ReadReport(path);
    if (!r) {
      std::fprintf(stderr, "ictk report merge: %s\n", r.error().message.c_str());
      return 2;
    }
    // ReadReport fills in missing totals; a shard without them did not finish.
    Result<std::string> text = ReadFile(path);
    if (text && text->find("\"type\":\"totals\"") == std::string::npos)
      r->totals.reset();
    shards.push_back({dir, std::move(*r)});
  }
  const fs::path out(args.out);
  const std::string adapter =
      shards.empty() ? std::string() : shards[0].report.header.adapter;
  auto replay_of = [&](const std::string& fixture) {
    return "ictk replay --adapter " + ShellQuote(adapter) + " " +
           ShellQuote((out / fixture).string());
  };
  std::vector<std::string> words = {"ictk", "report", "merge"};
  for (const std::string& dir : args.shards) words.push_back(ShellQuote(dir));
  words.push_back("--out");
  words.push_back(ShellQuote(args.out));
  // A corpus failure's reproduce command names its fixture by absolute path: the shard's
  // copy becomes the merged folder's.
  auto reproduce_of = [&](size_t shard, const std::string& fixture,
                          const std::string& reproduce) {
    auto absolute = [&](const fs::path& dir) {
      return ShellQuote(fs::absolute(dir / fixture).lexically_normal().string());
    };
    const std::string old = absolute(fs::path(shards[shard].source));
    const size_t at = reproduce.rfind(old);
    if (at == std::string::npos) return reproduce;
    return reproduce.substr(0, at) + absolute(out) + reproduce.substr(at + old.size());
  };
  Result<MergedReport> merged = MergeShards(
      shards, replay_of, fmt::format("{}", fmt::join(words, " ")), reproduce_of);
  if (!merged) {
    std::fprintf(stderr, "ictk report merge: %s\n", merged.error().message.c_str());
    return 2;
  }
  std::string error;
  bool ok = WriteFile(out / "report.jsonl", ToJsonl(merged->report), error) &&
            WriteRenderedReports(out, merged->report, error);
  for (const auto& [shard, fixture] : merged->fixtures) {
    if (!ok) break;
    Result<std::string> text = ReadFile((fs::path(shards[shard].source) / fixture).string());
    if (!text) {
      error = text.error().message;
      ok = false;
      break;
    }
    ok = WriteFile(out / fixture, *text, error);
  }
  if (!ok) {
    std::fprintf(stderr, "ictk report merge: %s\n", error.c_str());
    return 2;
  }
  const Totals& t = *merged->report.totals;
  std::printf("merged %zu shard(s): %s, %s; %zu failure fixture(s)\n", shards.size(),
              VerdictText(t).c_str(), CasesText(t).c_str(), merged->fixtures.size());
  std::printf("  reports: %s/{report.jsonl,junit.xml,summary.md,report.html,badge.json}\n",
              args.out.c_str());
  return t.conformant ? 0 : 1;
}

}  // namespace

SubcommandRunner AddReportCommand(CLI::App& app, CLI::App** subcommand) {
  auto args = std::make_shared<ReportArgs>();
  CLI::App* report = app.add_subcommand("report", "Compare or re-render run reports");
  report->require_subcommand(1);
  args->diff = report->add_subcommand(
      "diff",
      "Compare two runs (report.jsonl files or run folders) by case ID; exit 0 when B has "
      "no new failures");
  args->diff->add_option("a", args->a, "The earlier report.jsonl or run folder")->required();
  args->diff->add_option("b", args->b, "The later report.jsonl or run folder")->required();
  args->diff->add_option("--format", args->format, "text or json")
      ->check(CLI::IsMember({"text", "json"}));
  args->diff->add_flag("--exact", args->exact,
                       "Compare every record (header, cases, totals) apart from durations "
                       "and command lines; exit 0 when the runs are the same");
  args->render = report->add_subcommand(
      "render",
      "Write junit.xml, summary.md, report.html and badge.json from a report.jsonl");
  args->render->add_option("report", args->input, "The report.jsonl")->required();
  args->render->add_option("--out", args->out, "Directory (default: the report's)");
  args->merge = report->add_subcommand(
      "merge",
      "Merge the run folders of `ictk certify --shard I/N` into one run folder "
      "(report.jsonl, renderings, failure fixtures); exit 0 conformant, 1 not, 2 when the "
      "shards do not belong together");
  args->merge->add_option("shards", args->shards, "The shards' run folders")
      ->required()
      ->type_name("SHARD_DIR...");
  args->merge->add_option("--out", args->out, "The merged run folder")->required();
  *subcommand = report;
  return [args](const GlobalOptions&) {
    if (*args->diff) return RunDiff(*args);
    if (*args->render) return RunRender(*args);
    if (*args->merge) return RunMerge(*args);
    return 2;
  };
}

}  // namespace ictk::cli
