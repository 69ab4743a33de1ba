/// \file
/// `ictk trace --spec FILE [--format text|markdown|json] [--source-dir DIR] [--histories
/// N] [--seed S]`: the sentence -> rule matrix of a spec text's Constraints section
/// (plain spec.md, unified diff or mail-formatted review), with the tests, fixtures and
/// generator tags behind each rule. Exit 0 when every normative sentence is traced and no
/// rule is stale, 1 otherwise, 2 on unreadable input (docs/spec-review.md).
#include <fmt/format.h>

#include <CLI/CLI.hpp>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <string>

#include "cli/commands.h"
#include "cli/files_internal.h"
#include "review/spec_text.h"
#include "review/trace.h"

namespace ictk::cli {
namespace {

struct TraceArgs {
  std::string spec;
  std::string format = "text";
  std::string source_dir;
  int histories = 100;
  uint64_t seed = 1;
};

int RunTrace(const TraceArgs& args) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(args.spec, ec)) {
    std::fprintf(stderr, "ictk trace: %s: not a readable file\n", args.spec.c_str());
    return 2;
  }
  Result<std::string> text = ReadFile(args.spec);
  if (!text) {
    std::fprintf(stderr, "ictk trace: %s\n", text.error().message.c_str());
    return 2;
  }
  Result<SpecSection> section = ReadConstraintsSection(*text, args.spec);
  if (!section) {
    std::fprintf(stderr, "ictk trace: %s\n", section.error().message.c_str());
    return 2;
  }
  if (section->sentences.empty()) {
    std::fprintf(stderr, "ictk trace: %s: the Constraints section has no sentences\n",
                 args.spec.c_str());
    return 2;
  }
  const std::string source_dir = FindSourceDir(args.source_dir);
  const TraceResult trace = TraceSection(
      *section, args.spec, CollectEvidence(source_dir, args.histories, args.seed));
  std::string out;
  if (args.format == "json")
    out = RenderTraceJson(trace);
  else if (args.format == "markdown")
    out = RenderTraceMarkdown(trace);
  else
    out = RenderTraceText(trace);
  std::fputs(out.c_str(), stdout);
  return trace.clean() ? 0 : 1;
}

}  // namespace

SubcommandRunner AddTraceCommand(CLI::App& app, CLI::App** subcommand) {
  auto args = std::make_shared<TraceArgs>();
  CLI::App* c = app.add_subcommand(
      "trace",
      "Trace a spec text's Constraints sentences to rule IDs, tests, fixtures and "
      "generator tags; exit 0 all traced, 1 untraced sentences or stale rules, 2 bad "
      "input");
  c->add_option("--spec", args->spec,
                "spec.md, a unified diff, or a mail-formatted review text")
      ->required();
  c->add_option("--format", args->format, "text, markdown or json")
      ->check(CLI::IsMember({"text", "markdown", "json"}));
  c->add_option("--source-dir", args->source_dir,
                "The ictk source tree whose tests and fixtures/corpus/INDEX.json are "
                "counted (default: found from the working directory)")
      ->check(CLI::ExistingDirectory);
  c->add_option("--histories", args->histories,
                "Generated histories whose rule tags are counted (default 100)")
      ->check(CLI::NonNegativeNumber);
  c->add_option("--seed", args->seed, "Seed of those histories (default 1)");
  *subcommand = c;
  return [args](const GlobalOptions&) { return RunTrace(*args); };
}

}  // namespace ictk::cli
