/// \file
/// What `ictk certify`'s two files share (cmd_certify.cc, certify_mutation_score.cc):
/// the parsed flags, where the corpus is found, and one certification run with them.
#pragma once

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "cli/adapter_config.h"
#include "cli/commands.h"
#include "fixtures/expectation_file.h"
#include "model/rules/switches.h"
#include "properties/certify_run.h"

namespace ictk::cli {

struct CertifyArgs {
  AdapterFlags adapter;
  int64_t histories = kDefaultHistories;
  /// --until-stable N (0: without); with it and no --histories, `histories` becomes
  /// kUntilStableCap.
  int64_t until_stable = 0;
  int max_steps = 20;
  uint64_t seed = 1;
  std::string out = "ictk-report";
  /// Parallel adapter sessions; the machine's cores unless --jobs says otherwise.
  int jobs = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  std::string shard;  ///< "I/N"
  std::vector<std::string> switches;
  bool fail_fast = false;
  bool mutation_score = false;
  std::vector<std::string> mutants;  ///< --mutant NAME (mutation mode: only these)
  std::optional<int64_t> case_index;
  std::string weights;
  bool no_shrink = false;
  bool no_metadata_delta = false;
  int shrink_budget = 400;
  bool quiet = false;
  std::string command_line;
  std::vector<std::string> argv;  ///< the command line as given (the SIGINT line's resume)
  std::string corpus;      ///< --corpus DIR ("" = found by CorpusDir)
  bool no_corpus = false;  ///< --no-corpus
  std::string expect;      ///< --expect FILE
  bool strict = false;     ///< --strict: certification mode
  std::optional<ExpectationFile> expectations;  ///< --expect, read
  std::string resume;  ///< --resume DIR: continue the killed run in DIR
};

/// The fixture corpus certify replays first, or "" with the reason in `note`:
/// --no-corpus; --corpus DIR; $ICTK_CORPUS; the installed corpus next to this executable
/// (<prefix>/bin/ictk -> <prefix>/share/ictk/corpus, as `cmake --install` puts it); the
/// checkout's fixtures/corpus when run from a build tree (build/bin/ictk); fixtures/corpus
/// under the working folder. A candidate counts when it has an INDEX.json.
std::string CorpusDir(const CertifyArgs& a, std::string* note);

/// One certification of `spec` into `out_dir` ("" = write nothing) under `switches`
/// (properties/certify_run.h), its notes and progress on stderr.
CertifyRunResult Certify(const GlobalOptions& global, const CertifyArgs& args,
                         const Switches& switches, const std::string& spec,
                         const std::string& out_dir, bool fail_fast);

/// `--mutation-score`: every sample mutant certified as the default run does, the score
/// printed and written to mutation-score.{json,md} under --out.
int RunMutationScore(const GlobalOptions& global, const CertifyArgs& args,
                     const Switches& switches);

}  // namespace ictk::cli
