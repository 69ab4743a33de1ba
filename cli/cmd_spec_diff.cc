/// \file
/// `ictk spec-diff --a NAME=VALUE... --b NAME=VALUE... [--histories N] [--seed S] [--out
/// DIR] [--format text|markdown|json] [--max-steps K] [--weights KIND=W,...]`: the same
/// generated histories judged by the model under two readings (interpretation switches);
/// prints how many disagree and the shortest disagreeing histories, written as fixtures
/// under DIR when --out is given. Exit 0 on success whatever the count (the count is the
/// output), 2 on bad input (docs/spec-review.md).
#include <fmt/format.h>

#include <CLI/CLI.hpp>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include "cli/commands.h"
#include "codec/json_text.h"
#include "review/spec_diff.h"

#ifndef ICTK_VERSION
#define ICTK_VERSION "0.0.0"
#endif

namespace ictk::cli {
namespace {

namespace fs = std::filesystem;

struct SpecDiffArgs {
  std::vector<std::string> a, b;
  int histories = 200;
  uint64_t seed = 1;
  int max_steps = 12;
  int max_reported = 5;
  std::string weights;
  std::string out;
  std::string format = "text";
};

int RunSpecDiffCommand(const SpecDiffArgs& args) {
  SpecDiffOptions options;
  for (const auto& [settings, switches, flag] :
       {std::tuple{&args.a, &options.a, "--a"}, std::tuple{&args.b, &options.b, "--b"}}) {
    const std::string error = ApplySwitchSettings(*switches, *settings, flag);
    if (!error.empty()) {
      std::fprintf(stderr, "ictk spec-diff: %s\n", error.c_str());
      return 2;
    }
  }
  if (!args.weights.empty()) {
    if (std::string error = options.weights.Parse(args.weights); !error.empty()) {
      std::fprintf(stderr, "ictk spec-diff: --weights: %s\n", error.c_str());
      return 2;
    }
  }
  options.histories = args.histories;
  options.seed = args.seed;
  options.max_steps = args.max_steps;
  options.max_reported = args.max_reported;
  options.tool = std::string("ictk ") + ICTK_VERSION;
  options.a_label = fmt::format("{}", fmt::join(args.a, " "));
  options.b_label = fmt::format("{}", fmt::join(args.b, " "));
  const SpecDiffResult result = RunSpecDiff(options);
  if (!args.out.empty()) {
    for (const Disagreement& d : result.disagreements) {
      const fs::path path = fs::path(args.out) / d.fixture_path;
      std::error_code ec;
      fs::create_directories(path.parent_path(), ec);
      std::ofstream file(path, std::ios::binary | std::ios::trunc);
      file << DumpJson(d.fixture, 2) << "\n";
      if (!file) {
        std::fprintf(stderr, "ictk spec-diff: cannot write %s\n", path.c_str());
        return 2;
      }
    }
  }
  std::string text;
  if (args.format == "json")
    text = RenderSpecDiffJson(result);
  else if (args.format == "markdown")
    text = RenderSpecDiffMarkdown(result);
  else
    text = RenderSpecDiffText(result);
  std::fputs(text.c_str(), stdout);
  if (!args.out.empty() && args.format != "json")
    std::printf("\nwrote %zu fixtures under %s\n", result.disagreements.size(),
                args.out.c_str());
  return 0;
}

}  // namespace

SubcommandRunner AddSpecDiffCommand(CLI::App& app, CLI::App** subcommand) {
  auto args = std::make_shared<SpecDiffArgs>();
  CLI::App* c = app.add_subcommand(
      "spec-diff",
      "Judge the same generated histories under two readings (switches) and print the "
      "shortest histories on which they disagree; exit 0 on success, 2 bad input");
  c->add_option("--a", args->a,
                "Reading a: switch settings NAME=VALUE (default: the "
                "defaults)")
      ->type_name("NAME=VALUE...")
      ->expected(0, CLI::detail::expected_max_vector_size);
  c->add_option("--b", args->b, "Reading b: switch settings NAME=VALUE")
      ->type_name("NAME=VALUE...")
      ->expected(0, CLI::detail::expected_max_vector_size);
  c->add_option("--histories", args->histories, "Generated histories (default 200)")
      ->check(CLI::NonNegativeNumber);
  c->add_option("--seed", args->seed, "Seed (default 1)");
  c->add_option("--max-steps", args->max_steps, "Plan steps per history (default 12)")
      ->check(CLI::PositiveNumber);
  c->add_option("--max-reported", args->max_reported,
                "Kinds of disagreement shrunk and printed, at most (default 5)")
      ->check(CLI::NonNegativeNumber);
  c->add_option("--weights", args->weights,
                "Step kinds' weights on top of the defaults, e.g. modify=20,delete=0 (as "
                "certify)");
  c->add_option("--out", args->out, "Write each minimized history as a fixture here");
  c->add_option("--format", args->format, "text, markdown or json")
      ->check(CLI::IsMember({"text", "markdown", "json"}));
  *subcommand = c;
  return [args](const GlobalOptions&) { return RunSpecDiffCommand(*args); };
}

}  // namespace ictk::cli
