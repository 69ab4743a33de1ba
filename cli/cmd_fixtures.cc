/// \file
/// `ictk fixtures generate --out DIR [--seed S] [--per-rule N]` and `ictk fixtures verify
/// DIR` (docs/replay.md): the committed corpus, generated deterministically from
/// histories run against the model plus the hand-written templates under fixtures/hand/,
/// and its verification (strict decoding, hashes, ids, paths, INDEX.json, a replay on the
/// reference implementation and the expectations the model derives now).
#include <fmt/format.h>

#include <CLI/CLI.hpp>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <string>

#include "cli/commands.h"
#include "fixtures/corpus.h"

#ifndef ICTK_VERSION
#define ICTK_VERSION "0.0.0"
#endif

namespace ictk::cli {
namespace {

namespace fs = std::filesystem;

struct FixturesArgs {
  std::string out;
  uint64_t seed = 1;
  int per_rule = 3;
  int64_t max_histories = 6000;
  std::string hand;
  std::string only;
  std::string verify_dir;
};

/// fixtures/hand beside the corpus folder when it exists, else the repository's.
std::string DefaultHandDir(const std::string& out) {
  const fs::path beside = fs::path(out).parent_path() / "hand";
  if (fs::is_directory(beside)) return beside.string();
  if (fs::is_directory("fixtures/hand")) return "fixtures/hand";
  return {};
}

int RunGenerate(const GlobalOptions& global, const FixturesArgs& a) {
  CorpusOptions o;
  o.seed = a.seed;
  o.per_rule = a.per_rule;
  o.max_histories = a.max_histories;
  o.hand_dir = a.hand.empty() ? DefaultHandDir(a.out) : (a.hand == "none" ? "" : a.hand);
  o.tool = std::string("ictk ") + ICTK_VERSION;
  o.switches = global.switches;
  o.rule_prefix = a.only;
  Result<Corpus> corpus = GenerateCorpus(o);
  if (!corpus) {
    std::fprintf(stderr, "ictk fixtures generate: %s\n", corpus.error().message.c_str());
    return 2;
  }
  if (Result<void> w = WriteCorpus(*corpus, a.out); !w) {
    std::fprintf(stderr, "ictk fixtures generate: %s\n", w.error().message.c_str());
    return 2;
  }
  std::printf(
      "ictk fixtures generate: %zu fixtures in %s (seed %llu, hand templates %s)\n",
      corpus->files.size() - 2, a.out.c_str(), static_cast<unsigned long long>(a.seed),
      o.hand_dir.empty() ? "none" : o.hand_dir.c_str());
  for (const std::string& n : corpus->notes) std::printf("  short: %s\n", n.c_str());
  return 0;
}

int RunVerify(const GlobalOptions& global, const FixturesArgs& a) {
  if (!fs::is_directory(a.verify_dir)) {
    std::fprintf(stderr, "ictk fixtures verify: %s: no such folder\n",
                 a.verify_dir.c_str());
    return 2;
  }
  VerifyResult r = VerifyCorpus(a.verify_dir, global.switches);
  for (const std::string& p : r.problems) std::printf("%s\n", p.c_str());
  std::printf("ictk fixtures verify: %lld files, %zu problems\n",
              static_cast<long long>(r.files), r.problems.size());
  if (r.unreadable) return 2;
  return r.problems.empty() ? 0 : 1;
}

}  // namespace

SubcommandRunner AddFixturesCommand(CLI::App& app, CLI::App** subcommand) {
  auto args = std::make_shared<FixturesArgs>();
  CLI::App* c = app.add_subcommand(
      "fixtures", "Generate or verify the fixture corpus (docs/replay.md)");
  c->require_subcommand(1);
  CLI::App* gen =
      c->add_subcommand("generate",
                        "Generate the corpus deterministically: histories run against "
                        "the model, minimized, "
                        "deduplicated by hash, plus the hand-written templates");
  gen->add_option("--out", args->out, "Corpus folder (e.g. fixtures/corpus)")->required();
  gen->add_option("--seed", args->seed, "Seed (default 1)");
  gen->add_option("--per-rule", args->per_rule,
                  "Fixtures per rule and side, accept and reject (default 3)")
      ->check(CLI::PositiveNumber);
  gen->add_option("--max-histories", args->max_histories,
                  "Random histories to look through, at most (default 6000)")
      ->check(CLI::PositiveNumber);
  gen->add_option("--hand", args->hand,
                  "Folder of hand-written templates (default: hand/ beside --out, else "
                  "fixtures/hand; `none` for none)");
  gen->add_option("--only", args->only,
                  "Only rules whose ID starts with this (a subset)");
  CLI::App* ver = c->add_subcommand(
      "verify",
      "Check a corpus: strict decoding, hashes, ids, paths, INDEX.json, a replay on "
      "builtin:reference and the model's expectations now; exit 0 sound, 1 drift, 2 "
      "unreadable");
  ver->add_option("dir", args->verify_dir, "Corpus folder")->required();
  *subcommand = c;
  return [args, gen, ver](const GlobalOptions& global) {
    if (*gen) return RunGenerate(global, *args);
    if (*ver) return RunVerify(global, *args);
    return 2;
  };
}

}  // namespace ictk::cli
