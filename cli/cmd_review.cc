/// \file
/// `ictk review [--spec FILE] [--base FILE] [--histories N] [--seed S] [--max-steps K]
/// --out DIR`: writes DIR/review.md, DIR/review.html and every history they cite as a
/// fixture under DIR/fixtures/ (review/review.h, docs/spec-review.md). Exit 0 on success
/// whatever the review finds, 2 on bad input.
#include <fmt/format.h>

#include <CLI/CLI.hpp>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <memory>
#include <string>

#include "cli/commands.h"
#include "cli/files_internal.h"
#include "codec/json_text.h"
#include "review/review.h"
#include "review/trace.h"

#ifndef ICTK_VERSION
#define ICTK_VERSION "0.0.0"
#endif

namespace ictk::cli {
namespace {

namespace fs = std::filesystem;

struct ReviewArgs {
  std::string spec;
  std::string base;
  std::string out;
  int histories = 200;
  uint64_t seed = 1;
  int max_steps = 12;
  int max_reported = 2;
};

/// The Constraints section of `path`, or an error printed and nullopt.
std::optional<SpecSection> ReadSection(const std::string& path, const char* flag) {
  std::error_code ec;
  if (!fs::is_regular_file(path, ec)) {
    std::fprintf(stderr, "ictk review: %s %s: not a readable file\n", flag, path.c_str());
    return std::nullopt;
  }
  Result<std::string> text = ReadFile(path);
  if (!text) {
    std::fprintf(stderr, "ictk review: %s\n", text.error().message.c_str());
    return std::nullopt;
  }
  Result<SpecSection> section = ReadConstraintsSection(*text, path);
  if (!section) {
    std::fprintf(stderr, "ictk review: %s\n", section.error().message.c_str());
    return std::nullopt;
  }
  if (section->sentences.empty()) {
    std::fprintf(stderr, "ictk review: %s: the Constraints section has no sentences\n",
                 path.c_str());
    return std::nullopt;
  }
  return std::move(*section);
}

bool WriteText(const fs::path& path, const std::string& text) {
  std::error_code ec;
  fs::create_directories(path.parent_path(), ec);
  std::ofstream file(path, std::ios::binary | std::ios::trunc);
  file << text;
  file.close();
  if (!file) {
    std::fprintf(stderr, "ictk review: cannot write %s\n", path.c_str());
    return false;
  }
  return true;
}

int RunReviewCommand(const ReviewArgs& args) {
  ReviewOptions options;
  std::string spec = args.spec;
  if (spec.empty()) {
    // The seed the kit implements, from the source tree.
    const std::string source = FindSourceDir("");
    if (source.empty()) {
      std::fprintf(stderr, "ictk review: no --spec given and no source tree found\n");
      return 2;
    }
    spec = source + "/tests/data/seed/000_f6814d186b7076a8.txt";
  }
  std::optional<SpecSection> section = ReadSection(spec, "--spec");
  if (!section) return 2;
  options.spec_name = args.spec.empty() ? "tests/data/seed/000_f6814d186b7076a8.txt" : spec;
  options.spec = std::move(*section);
  if (!args.base.empty()) {
    std::optional<SpecSection> base = ReadSection(args.base, "--base");
    if (!base) return 2;
    options.base_name = args.base;
    options.base = std::move(*base);
  }
  options.histories = args.histories;
  options.seed = args.seed;
  options.max_steps = args.max_steps;
  options.max_reported = args.max_reported;
  options.tool = std::string("ictk ") + ICTK_VERSION;
  const ReviewResult review = RunReview(options);
  const fs::path out(args.out);
  for (const auto& [path, fixture] : review.fixtures)
    if (!WriteText(out / "fixtures" / path, DumpJson(fixture, 2) + "\n")) return 2;
  if (!WriteText(out / "review.md", RenderReviewMarkdown(review))) return 2;
  if (!WriteText(out / "review.html", RenderReviewHtml(review))) return 2;
  int disagreeing = 0;
  for (const SwitchReview& s : review.switches) disagreeing += s.result.disagreeing > 0;
  int shown = 0, written = 0, with_written = 0;
  for (const OpenPointReview& p : review.open_points) {
    shown += p.case_index.has_value();
    written += !p.written.empty();
  }
  for (const SwitchReview& s : review.switches) with_written += !s.written.empty();
  std::printf(
      "review of %s: %zu untraced sentences, %zu stale rules; %d of %zu switch comparisons "
      "disagree on generated histories, %d more on a written history; %d of %zu open points "
      "shown by a generated history, %d by a written history\nwrote %s/review.md, "
      "%s/review.html and %zu fixtures under %s/fixtures\n",
      options.spec_name.c_str(), review.trace.untraced.size(), review.trace.stale.size(),
      disagreeing, review.switches.size(), with_written, shown, review.open_points.size(),
      written,
      args.out.c_str(), args.out.c_str(), review.fixtures.size(), args.out.c_str());
  return 0;
}

}  // namespace

SubcommandRunner AddReviewCommand(CLI::App& app, CLI::App** subcommand) {
  auto args = std::make_shared<ReviewArgs>();
  CLI::App* c = app.add_subcommand(
      "review",
      "Write review.md and review.html for a spec text: the trace, every switch and open "
      "point with its shortest history, and the change from --base; exit 0 on success, 2 "
      "bad input");
  c->add_option("--spec", args->spec,
                "The spec text (spec.md, a diff of it, or a mail-formatted review; default: "
                "the seed in the source tree)");
  c->add_option("--base", args->base, "The previous version of the text");
  c->add_option("--out", args->out, "Directory for review.md, review.html and fixtures/")
      ->required();
  c->add_option("--histories", args->histories,
                "Generated histories per switch comparison and open point (default 200)")
      ->check(CLI::NonNegativeNumber);
  c->add_option("--seed", args->seed, "Seed (default 1)");
  c->add_option("--max-steps", args->max_steps, "Plan steps per history (default 12)")
      ->check(CLI::PositiveNumber);
  c->add_option("--max-reported", args->max_reported,
                "Kinds of disagreement shrunk per comparison, at most (default 2)")
      ->check(CLI::NonNegativeNumber);
  *subcommand = c;
  return [args](const GlobalOptions&) { return RunReviewCommand(*args); };
}

}  // namespace ictk::cli
