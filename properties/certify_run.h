/// \file
/// The certification run behind `ictk certify` (docs/certify.md): one adapter session per
/// job, each after its `hello`; the run's header; with `resume`, the cases a killed run
/// finished kept (certify_resume.h); the fixture corpus replayed first on the first
/// session (fixtures/replay.h); then the random cases (this shard's, or one `--case`)
/// taken by the jobs in index order, each judged and shrunk (CertifyCase, runner.h), and
/// written in index order as they finish — report.jsonl flushed per case, a failure's
/// fixture file before its record, one fixture per cause of failure — so the report does
/// not depend on the number of jobs; then the expectation file's breaches, the totals and
/// the rendered reports. The caller parses flags and prints; the run only says what
/// happens through `note`, `progress`, `corpus_progress` and `finished`.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "adapters/adapter.h"
#include "codec/result.h"
#include "fixtures/expectation_file.h"
#include "generators/history.h"
#include "model/rules/switches.h"
#include "reports/report.h"

namespace ictk {

/// The random histories certify (and the CI steps, the mutation score) runs by default,
/// chosen from a measurement of how many histories the sample's mutants need
/// (docs/certify.md, "How many histories"): at seeds 1-3, 500 random histories alone
/// kill 401 of the 405 mutant runs, 200 only 388.
inline constexpr int64_t kDefaultHistories = 500;

/// With --until-stable and no --histories: the most histories the run goes to.
inline constexpr int64_t kUntilStableCap = 10000;

/// Opens one adapter of the run (each job has its own).
using AdapterOpener = std::function<Result<std::unique_ptr<Adapter>>()>;

struct CertifyRunOptions {
  std::string adapter_spec;  ///< as given (the header's `adapter`, the replay commands)
  AdapterOpener open_adapter;
  Switches switches;
  int64_t histories = kDefaultHistories;
  /// Stop once this many random histories in a row added no coverage (no clause
  /// exercised positively or negatively for the first time in the run, the corpus
  /// included); `histories` is then the most it runs. 0: run all `histories`. Decided in
  /// index order, so the report does not depend on the number of jobs.
  int64_t until_stable = 0;
  int max_steps = 20;
  uint64_t seed = 1;
  int jobs = 1;       ///< parallel adapter sessions
  std::string shard;  ///< "I/N" (checked by the caller) or ""
  std::optional<int64_t> case_index;  ///< only this case
  std::string weights;                ///< step-kind weights (checked by the caller)
  bool shrink = true;
  int shrink_budget = 400;
  /// Offer the adapter answers that carry only what changed in a table's metadata
  /// (docs/protocol.md section 7); an adapter that does not declare them answers whole.
  bool metadata_delta = true;
  bool fail_fast = false;  ///< stop at the first failing case
  bool quiet = false;      ///< no progress notes
  std::string ictk_version;  ///< the header's `ictk-version`; "ictk <it>" made the fixtures
  std::string command_line;  ///< the header's `command-line`
  /// Flags a case's reproduce command repeats (--max-steps, --switch, ...).
  std::string reproduce_flags;
  /// The start of a reproduce command that works from a fresh shell: "cd 'DIR' && ICTK"
  /// (the working directory, and the ictk binary by an absolute path unless `ictk` on the
  /// PATH is this one); "ictk" when not given.
  std::string reproduce_prefix = "ictk";
  /// Flags a corpus failure's reproduce command (`ictk replay`) repeats (--switch, ...).
  std::string replay_flags;
  std::string out_dir;  ///< the run folder; "" writes nothing
  bool resume = false;  ///< continue the killed run in `out_dir`
  std::string corpus_dir;   ///< the fixture corpus replayed first; "" for none
  std::string corpus_note;  ///< why there is none (the header's `corpus-note`)
  const ExpectationFile* expectations = nullptr;
  bool strict = false;  ///< certification mode: expectation entries are not honoured
  /// A line for the console (certify prefixes "ictk certify: "): errors, resuming, the
  /// corpus replayed, the expectation file's breaches.
  std::function<void(const std::string&)> note;
  /// After each random case: cases done and in all, failing so far, milliseconds since
  /// the run started.
  std::function<void(int64_t done, int64_t total, int64_t failing, double elapsed_ms)>
      progress;
  /// The same for the fixture corpus, after each fixture replayed: fixtures done and in
  /// all, failing so far, milliseconds since the corpus replay started.
  std::function<void(int64_t done, int64_t total, int64_t failing, double elapsed_ms)>
      corpus_progress;
  /// Once the cases are known and after each case record (corpus and random): the run's
  /// cases finished so far (those a resumed run kept included) and in all (the corpus's
  /// fixtures and the random cases). Called from one thread, the one that writes
  /// report.jsonl (certify's hint on SIGINT, cli/interrupt_internal.h).
  std::function<void(int64_t finished, int64_t total)> finished;
};

/// What one certification run produced.
struct CertifyRunResult {
  int exit_code = 0;  ///< 0 conformant, 1 not, 2 could not run (noted)
  Report report;      ///< the header, the non-conformant cases and the totals of all
  Distribution distribution;
  std::optional<int64_t> first_failing_index;
  double first_failure_ms = 0;
  int64_t harness_micros = 0;
  int64_t adapter_micros = 0;
};

CertifyRunResult RunCertification(const CertifyRunOptions& options);

}  // namespace ictk
