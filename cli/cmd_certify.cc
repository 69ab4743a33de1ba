/// \file
/// `ictk certify`: runs N random histories against an adapter, judges every answer with
/// the model, shrinks each failure to a minimal history, and writes the run directory:
/// report.jsonl (flushed per case), junit.xml, summary.md, report.html, badge.json and
/// one fixture file per failure under failures/. With `--mutation-score` it certifies
/// every sample mutant (builtin:sample?mutant=NAME) instead and reports how many are
/// killed. Exit 0 conformant, 1 not conformant, 2 usage error or an adapter that cannot
/// start.
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "cli/adapter_config.h"
#include "cli/certify_resume.h"
#include "cli/commands.h"
#include "cli/files_internal.h"
#include "codec/json_text.h"
#include "codec/protocol.h"
#include "model/judge/rule_catalogue.h"
#include "properties/corpus.h"
#include "properties/runner.h"
#include "reports/digest.h"
#include "reports/render.h"
#include "reports/report.h"
#include "reports/stream.h"

#if defined(ICTK_HAVE_SAMPLE) && __has_include("sample/sample_adapter.h")
#include "sample/sample_adapter.h"
#define ICTK_CERTIFY_WITH_SAMPLE 1
#endif

#ifndef ICTK_VERSION
#define ICTK_VERSION "0.0.0"
#endif

namespace ictk::cli {
namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

struct CertifyArgs {
  AdapterFlags adapter;
  int64_t histories = 200;
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
  int shrink_budget = 400;
  bool quiet = false;
  std::string command_line;
  std::string corpus;      ///< --corpus DIR ("" = found by CorpusDir)
  bool no_corpus = false;  ///< --no-corpus
  std::string expect;      ///< --expect FILE
  bool strict = false;     ///< --strict: certification mode
  std::optional<ExpectationFile> expectations;  ///< --expect, read
  std::string resume;  ///< --resume DIR: continue the killed run in DIR
};

double MillisSince(Clock::time_point start) {
  return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

/// The flags a reproduce command must repeat.
std::string ReproduceFlags(const CertifyArgs& a, const Switches& switches) {
  std::vector<std::string> parts;
  parts.push_back(fmt::format("--max-steps {}", a.max_steps));
  const auto defaults = SwitchValues(Switches{});
  for (const auto& [k, v] : SwitchValues(switches))
    if (defaults.at(k) != v) parts.push_back(fmt::format("--switch {}={}", k, v));
  if (!a.weights.empty()) parts.push_back("--weights " + ShellQuote(a.weights));
  if (a.adapter.timeout_ms != 10000)
    parts.push_back(fmt::format("--timeout-ms {}", a.adapter.timeout_ms));
  if (a.adapter.max_answer_bytes != AdapterFlags{}.max_answer_bytes)
    parts.push_back(fmt::format("--max-answer-bytes {}", a.adapter.max_answer_bytes));
  return fmt::format("{}", fmt::join(parts, " "));
}

/// Progress: on a terminal (stdout and stderr both) a live bar with cases, failures, rate
/// and ETA; otherwise (CI logs, pipes) one line per 10% with the failures so far.
class Progress {
 public:
  Progress(int64_t total, bool quiet)
      : total_(total), quiet_(quiet), tty_(::isatty(1) == 1 && ::isatty(2) == 1) {}
  void Update(int64_t done, int64_t failing, Clock::time_point start) {
    if (quiet_ || total_ == 0) return;
    const double secs = MillisSince(start) / 1000;
    const double rate = secs > 0 ? static_cast<double>(done) / secs : 0;
    const double eta = rate > 0 ? static_cast<double>(total_ - done) / rate : 0;
    if (tty_) {
      const int width = 30;
      const int filled = static_cast<int>(width * done / total_);
      std::fprintf(stderr, "\r[%s%s] %lld/%lld cases, %lld failing, %.1f/s, ETA %.0fs ",
                   std::string(filled, '=').c_str(),
                   std::string(width - filled, ' ').c_str(), static_cast<long long>(done),
                   static_cast<long long>(total_), static_cast<long long>(failing), rate,
                   eta);
      if (done == total_) std::fprintf(stderr, "\n");
      return;
    }
    // One line each time another tenth is done (at most 10 lines, whatever the total).
    const int64_t tenth = done * 10 / total_;
    if (tenth <= printed_tenth_) return;
    printed_tenth_ = tenth;
    std::fprintf(stderr,
                 "certify: %3lld%% %lld/%lld cases, %lld failing so far, %.1f cases/s, "
                 "ETA %.0fs\n",
                 static_cast<long long>(tenth * 10), static_cast<long long>(done),
                 static_cast<long long>(total_), static_cast<long long>(failing), rate, eta);
  }

 private:
  int64_t total_;
  bool quiet_;
  bool tty_;
  int64_t printed_tenth_ = 0;
};

/// The fixture corpus certify replays first, or "" with the reason in `note`:
/// --no-corpus; --corpus DIR; $ICTK_CORPUS; the installed corpus next to this executable
/// (<prefix>/bin/ictk -> <prefix>/share/ictk/corpus, as `cmake --install` puts it); the
/// checkout's fixtures/corpus when run from a build tree (build/bin/ictk); fixtures/corpus
/// under the working folder. A candidate counts when it has an INDEX.json.
std::string CorpusDir(const CertifyArgs& a, std::string* note) {
  if (a.no_corpus) {
    *note = "--no-corpus";
    return {};
  }
  if (!a.corpus.empty()) return a.corpus;
  std::vector<fs::path> candidates;
  if (const char* env = std::getenv("ICTK_CORPUS"); env != nullptr && *env != '\0') {
    if (fs::exists(fs::path(env) / "INDEX.json")) return env;
    *note = fmt::format("ICTK_CORPUS={} has no INDEX.json", env);
    return {};
  }
  char self[4096];
  const ssize_t n = ::readlink("/proc/self/exe", self, sizeof self - 1);
  if (n > 0) {
    const fs::path bin =
        fs::path(std::string(self, static_cast<size_t>(n))).parent_path();
    candidates.push_back(bin.parent_path() / "share" / "ictk" / "corpus");
    candidates.push_back(bin.parent_path().parent_path() / "fixtures" / "corpus");
  }
  candidates.push_back(fs::path("fixtures") / "corpus");
  for (const fs::path& p : candidates)
    if (fs::exists(p / "INDEX.json")) return p.lexically_normal().string();
  *note = "none found: give --corpus DIR or set ICTK_CORPUS";
  return {};
}

/// A fixture path as the console shows it: relative paths under the run folder, absolute
/// ones (corpus fixtures) as they are.
std::string ShownFixturePath(const std::string& out_dir, const std::string& fixture) {
  if (out_dir.empty() || fixture.empty() || fs::path(fixture).is_absolute()) return fixture;
  return (fs::path(out_dir) / fixture).string();
}

/// The expectation file's entry for a random case (xfail / skip), unless --strict.
void ApplyCertifyExpectation(const CertifyArgs& a, CaseRecord& record) {
  if (!a.expectations || a.strict) return;
  if (const ExpectationEntry* e = FindExpectation(*a.expectations, record.id))
    ApplyExpectation(record, *e);
}

/// What one certification run produced.
struct RunOutcome {
  int exit_code = 0;
  Report report;
  Distribution distribution;
  std::optional<int64_t> first_failing_index;
  double first_failure_ms = 0;
  int64_t harness_micros = 0;
  int64_t adapter_micros = 0;
};

/// One certification of `spec` into `out_dir` ("" = write nothing).
RunOutcome Certify(const GlobalOptions& global, const CertifyArgs& args,
                   const Switches& switches, const std::string& spec,
                   const std::string& out_dir, bool fail_fast) {
  RunOutcome result;
  const auto start = Clock::now();
  GlobalOptions with_switches = global;
  with_switches.switches = switches;
  AdapterFlags flags = args.adapter;
  flags.spec = spec;

  const int jobs = std::max(1, args.jobs);
  std::vector<std::unique_ptr<AdapterSession>> sessions;
  for (int j = 0; j < jobs; ++j) {
    Result<std::unique_ptr<Adapter>> adapter = OpenAdapter(with_switches, flags);
    if (!adapter) {
      std::fprintf(stderr, "ictk certify: %s\n", adapter.error().message.c_str());
      result.exit_code = 2;
      return result;
    }
    auto session = std::make_unique<AdapterSession>(std::move(*adapter));
    Result<HelloInfo> hello = session->Handshake();
    if (!hello) {
      std::fprintf(stderr, "ictk certify: %s: %s\n", spec.c_str(),
                   hello.error().message.c_str());
      result.exit_code = 2;
      return result;
    }
    sessions.push_back(std::move(session));
  }

  // Which cases: all of 0..N-1, this shard's, or the one given with --case.
  std::vector<int64_t> indices;
  int64_t shard_i = 0, shard_n = 1;
  if (!args.shard.empty())
    std::sscanf(args.shard.c_str(), "%lld/%lld", reinterpret_cast<long long*>(&shard_i),
                reinterpret_cast<long long*>(&shard_n));
  if (args.case_index) {
    indices.push_back(*args.case_index);
  } else {
    for (int64_t i = 0; i < args.histories; ++i)
      if (i % shard_n == shard_i) indices.push_back(i);
  }

  RunHeader& h = result.report.header;
  h.ictk_version = ICTK_VERSION;
  h.protocol_version = kProtocolVersion;
  h.model_version = ModelVersion(switches);
  h.switches = SwitchValues(switches);
  h.seed = args.seed;
  h.command_line = args.command_line;
  h.adapter = spec;
  h.hello = sessions[0]->hello_json();
  h.capabilities = sessions[0]->capabilities().Names();
  h.histories = static_cast<int64_t>(indices.size());
  h.max_steps = args.max_steps;
  h.shard = args.shard;
  const Capabilities& declared = sessions[0]->capabilities();
  h.profile = declared.ProfileName();
  h.writer = declared.writer;
  h.format_versions.assign(declared.format_versions.begin(),
                           declared.format_versions.end());
  std::string corpus_note;
  std::string corpus_dir = CorpusDir(args, &corpus_note);
  if (args.mutation_score || args.case_index) {
    corpus_dir.clear();
    corpus_note = args.case_index ? "--case" : "--mutation-score";
  }
  h.corpus = corpus_dir;
  h.corpus_note = corpus_note;

  CertifyOptions options;
  options.switches = switches;
  options.gen.max_steps = args.max_steps;
  if (!args.weights.empty()) options.gen.weights.Parse(args.weights);
  options.seed = args.seed;
  options.shrink = !args.no_shrink;
  options.shrink_budget = args.shrink_budget;
  options.adapter_spec = spec;
  options.out_dir = out_dir;
  options.reproduce_flags = ReproduceFlags(args, switches);
  options.tool = std::string("ictk ") + ICTK_VERSION;
  options.model_version = h.model_version;

  // The report streams (reports/stream.h): each record goes to report.jsonl as it is
  // final, and the run keeps the totals and the non-conformant cases only.
  ReportStream stream(h);
  stream.KeepIds(args.expectations && !args.strict);

  // --resume: the cases the killed run finished are kept, not run again.
  ResumeState resumed;
  int64_t resumed_failing = 0;
  if (!args.resume.empty() && !out_dir.empty()) {
    Result<ResumeState> state = LoadResumeState(out_dir, h, [&](CaseRecord&& c) {
      if (!IsConformant(c.verdict)) {
        if (c.index >= 0) ++resumed_failing;
        if (!result.first_failing_index) result.first_failing_index = c.index;
      }
      stream.Add(std::move(c));
    });
    if (!state) {
      std::fprintf(stderr, "ictk certify: %s\n", state.error().message.c_str());
      result.exit_code = 2;
      return result;
    }
    resumed = std::move(*state);
    std::erase_if(indices, [&](int64_t i) { return resumed.done.count(i) > 0; });
    if (fail_fast && result.first_failing_index)
      indices.clear();  // the killed run had already failed
    if (!args.quiet)
      std::fprintf(stderr, "ictk certify: resuming %s: %zu case(s) done, %zu to run\n",
                   out_dir.c_str(), resumed.done.size(), indices.size());
  }

  std::ofstream jsonl;
  if (!out_dir.empty() && resumed.found) {
    std::string error;
    if (!ReopenReportForAppend(out_dir, resumed.keep_bytes, jsonl, error)) {
      std::fprintf(stderr, "ictk certify: %s\n", error.c_str());
      result.exit_code = 2;
      return result;
    }
  } else if (!out_dir.empty()) {
    std::error_code ec;
    fs::create_directories(out_dir, ec);
    jsonl.open(fs::path(out_dir) / "report.jsonl", std::ios::binary | std::ios::trunc);
    if (!jsonl) {
      std::fprintf(stderr, "ictk certify: cannot write %s/report.jsonl\n",
                   out_dir.c_str());
      result.exit_code = 2;
      return result;
    }
    jsonl << DumpJson(ToJson(h)) << "\n" << std::flush;
  }

  // The corpus first (docs/replay.md), on the first session before any worker starts:
  // one case per fixture, its ID the fixture's.
  if (const std::string dir = corpus_dir; !dir.empty()) {
    Result<std::vector<Fixture>> corpus = ReadFixtures({dir});
    if (!corpus) {
      std::fprintf(stderr, "ictk certify: --corpus: %s\n", corpus.error().message.c_str());
      result.exit_code = 2;
      return result;
    }
    ReplayOptions ro;
    ro.switches = switches;
    ro.switches.declared_format_versions = declared.format_versions;
    ro.adapter_spec = spec;
    ro.expect = args.expectations ? &*args.expectations : nullptr;
    ro.strict = args.strict;
    // --resume: a corpus the killed run finished is not replayed again.
    const size_t corpus_size = corpus->size();
    std::vector<Fixture> remaining;
    if (!CorpusDone(resumed, -1'000'000, corpus_size)) remaining = std::move(*corpus);
    for (CaseRecord& c : ReplayFixtures(*sessions[0], remaining, ro, -1'000'000)) {
      if (resumed.done.count(c.index) > 0) continue;  // kept from the killed run
      if (!IsConformant(c.verdict) && !result.first_failing_index)
        result.first_failing_index = c.index;
      if (jsonl.is_open()) jsonl << DumpJson(ToJson(c)) << "\n" << std::flush;
      stream.Add(std::move(c));
    }
    if (!args.quiet)
      std::fprintf(stderr, "ictk certify: corpus %s: %zu fixtures replayed\n", dir.c_str(),
                   corpus_size);
    if (fail_fast && result.first_failing_index) indices.clear();
  } else if (!args.quiet && !args.mutation_score) {
    std::fprintf(stderr, "ictk certify: no fixture corpus (%s)\n", corpus_note.c_str());
  }

  // Workers take cases in index order; the main thread writes records in index order as
  // they complete, so the report does not depend on --jobs.
  // Finished cases wait here until the cases before them are written (a few: workers
  // take cases in order), keyed by their position in `indices`.
  std::map<size_t, CaseResult> done;
  std::mutex mu;
  std::condition_variable cv;
  std::atomic<size_t> next{0};
  std::atomic<bool> stop{false};
  std::vector<Distribution> dists(jobs);
  std::vector<std::thread> threads;
  for (int j = 0; j < jobs; ++j) {
    threads.emplace_back([&, j] {
      for (;;) {
        if (stop.load()) return;
        const size_t k = next.fetch_add(1);
        if (k >= indices.size()) return;
        CaseResult r = CertifyCase(*sessions[j], indices[k], options);
        {
          std::lock_guard<std::mutex> lock(mu);
          if (fail_fast && !IsConformant(r.record.verdict)) stop.store(true);
          done.emplace(k, std::move(r));
        }
        cv.notify_all();
      }
    });
  }

  Progress progress(static_cast<int64_t>(indices.size()), args.quiet);
  int64_t failing = resumed_failing;
  std::vector<FixtureFile> fixtures;
  // One fixture per cause of failure: a later case failing for the same cause as an
  // earlier one (resumed or corpus cases included) points at that case's fixture.
  std::map<std::string, const CaseRecord*> first_of_cause;
  // Copies (the stream's failures grow below); a deque keeps the pointers valid.
  std::deque<CaseRecord> earlier_failures(stream.failures().begin(),
                                          stream.failures().end());
  for (const CaseRecord& c : earlier_failures) first_of_cause.emplace(CauseOf(c), &c);
  std::deque<CaseRecord> cause_heads;  // the first case of each new cause
  for (size_t k = 0; k < indices.size(); ++k) {
    std::unique_lock<std::mutex> lock(mu);
    cv.wait(lock, [&] {
      return done.count(k) > 0 || (stop.load() && next.load() > k && false);
    });
    auto node = done.extract(k);
    lock.unlock();
    CaseResult& r = node.mapped();
    if (!IsConformant(r.record.verdict)) {
      ++failing;
      if (!result.first_failing_index) {
        result.first_failing_index = r.record.index;
        result.first_failure_ms = MillisSince(start);
      }
    }
    if (r.record.failure && !IsConformant(r.record.verdict)) {
      const std::string cause = CauseOf(r.record);
      auto it = first_of_cause.find(cause);
      if (it != first_of_cause.end()) {
        FailureDetail& f = *r.record.failure;
        const CaseRecord& head = *it->second;
        f.same_cause_as = head.id;
        if (head.failure) {
          f.fixture = head.failure->fixture;
          f.fixture_id = head.failure->fixture_id;
          f.replay = head.failure->replay;
        }
        r.fixture.reset();
      } else {
        cause_heads.push_back(r.record);
        first_of_cause.emplace(cause, &cause_heads.back());
      }
    }
    // The fixture first, then the record: a record in report.jsonl means its fixture
    // file is on disk, even if the run is killed next (--resume keeps both).
    if (r.fixture && !out_dir.empty()) {
      std::string error;
      if (!WriteFile(fs::path(out_dir) / r.fixture->path,
                     DumpJson(r.fixture->content, 2) + "\n", error))
        std::fprintf(stderr, "ictk certify: %s\n", error.c_str());
    }
    ApplyCertifyExpectation(args, r.record);
    if (jsonl.is_open()) jsonl << DumpJson(ToJson(r.record)) << "\n" << std::flush;
    if (r.fixture) fixtures.push_back(std::move(*r.fixture));
    stream.Add(std::move(r.record));
    progress.Update(static_cast<int64_t>(k + 1), failing, start);
    if (fail_fast && failing > 0) break;
  }
  stop.store(true);
  for (std::thread& t : threads) t.join();

  for (const auto& s : sessions) result.adapter_micros += s->adapter_micros();
  const double total_ms = MillisSince(start);
  result.harness_micros =
      static_cast<int64_t>(total_ms * 1000) - result.adapter_micros / jobs;
  if (args.expectations && !args.strict)
    for (CaseRecord& c : ExpectationBreachRecords(*args.expectations, stream.ids())) {
      std::fprintf(stderr, "ictk certify: %s\n", c.reason.c_str());
      if (jsonl.is_open()) jsonl << DumpJson(ToJson(c)) << "\n" << std::flush;
      stream.Add(std::move(c));
    }
  // The compact report: the header, the non-conformant cases and the totals of all.
  result.report = stream.Compact(total_ms);
  const Report& report = result.report;
  // The distribution of every case (expectation breaches have no requests).
  for (const auto& [op, n] : report.totals->ops) result.distribution.ops[op] += n;
  for (const auto& [tag, n] : report.totals->tags)
    if (std::optional<RuleId> r = ParseRuleId(tag)) result.distribution.tags[*r] += n;
  result.distribution.steps += report.totals->steps;
  result.exit_code = report.totals->conformant ? 0 : 1;

  if (!out_dir.empty()) {
    jsonl << DumpJson(ToJson(*report.totals)) << "\n" << std::flush;
    jsonl.close();
    std::string error;
    const fs::path dir(out_dir);
    bool ok = WriteRenderedReports(dir, report, error, &stream);
    for (const FixtureFile& f : fixtures)
      ok = ok && WriteFile(dir / f.path, DumpJson(f.content, 2) + "\n", error);
    if (!ok) {
      std::fprintf(stderr, "ictk certify: %s\n", error.c_str());
      result.exit_code = 2;
    }
  }
  return result;
}

void PrintSummary(const RunOutcome& r, const std::string& out_dir,
                  const CertifyArgs& args, const Switches& switches) {
  const Totals& t = *r.report.totals;
  std::vector<std::string> verdicts;
  for (Verdict v : kAllVerdicts) {
    auto it = t.verdicts.find(v);
    if (it != t.verdicts.end() && it->second > 0)
      verdicts.push_back(fmt::format("{} {}", it->second, ToString(v)));
  }
  std::printf(
      "%s",
      fmt::format("ictk certify {}: {} ({}, {} requests, seed {}, "
                  "{:.1f} s)\n",
                  r.report.header.adapter, VerdictText(t),
                  CasesText(t), t.steps, args.seed, t.duration_ms / 1000)
          .c_str());
  std::printf("  verdicts: %s\n", fmt::format("{}", fmt::join(verdicts, ", ")).c_str());
  const RunHeader& h = r.report.header;
  if (!h.profile.empty())
    std::printf("%s", fmt::format("  profile: {} (format versions {}); corpus: {}\n",
                                  h.profile, fmt::join(h.format_versions, ", "),
                                  h.corpus.empty() ? "none (" + h.corpus_note + ")"
                                                   : h.corpus)
                          .c_str());
  if (!t.idle_capabilities.empty())
    std::printf("  declared capabilities that received no request: %s\n",
                fmt::format("{}", fmt::join(t.idle_capabilities, ", ")).c_str());
  int64_t exercised = 0, failed = 0;
  std::vector<std::string> failing_rules;
  for (const auto& [rule, rt] : t.rules) {
    if (rt.positive + rt.negative > 0) ++exercised;
    int64_t bad = 0;
    for (const auto& [v, n] : rt.cases)
      if (!IsConformant(v)) bad += n;
    if (bad > 0) {
      ++failed;
      auto pass = rt.cases.find(Verdict::kPass);
      failing_rules.push_back(fmt::format("{} ({} failing, {} passing)", rule, bad,
                                          pass == rt.cases.end() ? 0 : pass->second));
    }
  }
  std::printf("  rules: %lld exercised, %lld failing, %zu never exercised\n",
              static_cast<long long>(exercised), static_cast<long long>(failed),
              t.never_exercised.size());
  for (const std::string& f : failing_rules) std::printf("    FAIL %s\n", f.c_str());
  if (!t.never_exercised.empty()) {
    std::vector<std::string> items;
    for (const std::string& rule : t.never_exercised) {
      auto it = t.untested_because.find(rule);
      items.push_back(it == t.untested_because.end() ? rule
                                                     : rule + " (no " + it->second + ")");
    }
    std::printf("  never exercised: %s\n",
                fmt::format("{}", fmt::join(items, ", ")).c_str());
  }
  // Failures by cause: one line per cause, the details of its first case.
  const std::vector<FailureCause> causes = FailureCauses(r.report.cases);
  if (!causes.empty()) {
    size_t failing_cases = 0;
    for (const FailureCause& c : causes) failing_cases += c.cases.size();
    std::printf("  failures: %zu case(s), %zu cause(s)\n", failing_cases, causes.size());
  }
  size_t shown = 0;
  for (const FailureCause& cause : causes) {
    const CaseRecord& c = r.report.cases[cause.first];
    if (++shown > 5) {
      std::printf("  ... %zu more cause(s) in %s\n", causes.size() - 5,
                  out_dir.empty() ? "the report" : (out_dir + "/summary.md").c_str());
      break;
    }
    std::printf("%s", fmt::format("  cause {}: {} ({} case(s), first {})\n", shown,
                                  cause.cause, cause.cases.size(), c.id)
                          .c_str());
    if (!c.failure) continue;
    const FailureDetail& f = *c.failure;
    // The finding first (why the answer is outside the allowed set), then the rule,
    // what was allowed and what was answered.
    std::printf("%s",
                fmt::format("  {} {}: {}\n    rule: {} — {} (step {} of {}{})\n"
                            "    allowed: {}\n"
                            "    answered: {}\n    fixture: {}\n    replay: {}\n"
                            "    reproduce: {}\n",
                            ToString(c.verdict), c.id, FindingOf(f), f.rule, f.sentence,
                            f.step, f.steps.size(),
                            WasMinimized(f)
                                ? fmt::format(", minimized from {}", f.original_steps)
                                : std::string(),
                            f.allowed, f.answered,
                            ShownFixturePath(out_dir, f.fixture),
                            f.replay, f.reproduce)
                    .c_str());
  }
  if (!args.quiet) {
    std::printf("  distribution: %s", r.distribution.ToString().c_str());
    const double total_us = t.duration_ms * 1000;
    if (total_us > 0)
      std::printf("  time: %.0f%% inside the adapter\n",
                  100.0 * static_cast<double>(r.adapter_micros) /
                      (total_us * std::max(1, args.jobs)));
  }
  if (!out_dir.empty())
    std::printf(
        "  reports: %s/{report.jsonl,junit.xml,summary.md,report.html,badge.json}\n",
        out_dir.c_str());
  std::printf(
      "  reproduce the run: ictk certify --adapter %s --seed %llu --histories %lld %s\n",
      ShellQuote(r.report.header.adapter).c_str(),
      static_cast<unsigned long long>(args.seed), static_cast<long long>(args.histories),
      ReproduceFlags(args, switches).c_str());
}

#ifdef ICTK_CERTIFY_WITH_SAMPLE
/// " (profile v4-reader, invalid-metadata-on-read=reject)" for a mutant certified under
/// its own profile or switches; "" for a writer mutant at the run's switches.
std::string MutantConditions(const MutantInfo& m) {
  std::vector<std::string> parts;
  if (!m.profile.empty()) parts.push_back("profile " + m.profile);
  parts.insert(parts.end(), m.switches.begin(), m.switches.end());
  return parts.empty() ? "" : fmt::format(" ({})", fmt::join(parts, ", "));
}
#endif

int RunMutationScore(const GlobalOptions& global, const CertifyArgs& args,
                     const Switches& switches) {
#ifdef ICTK_CERTIFY_WITH_SAMPLE
  struct Row {
    MutantInfo mutant;
    bool killed = false;
    std::optional<int64_t> histories_to_kill;
    double ms_to_kill = 0;
    std::string rule;
    bool rule_matches = false;
    std::string fixture;
    int exit_code = 0;
    // The corpus pass (unless --no-corpus): the fixture corpus replayed alone, as the
    // default certify run replays it before its random histories.
    bool by_histories = false;
    bool by_corpus = false;
    std::string corpus_fixture;  ///< the first failing fixture's ID
    std::string corpus_rule;
    bool corpus_rule_matches = false;
  };
  std::vector<Row> rows;
  // The corpus part runs when a corpus is found (as certify finds it); without one the
  // score says so, and is the random histories' alone.
  std::string corpus_note;
  const bool with_corpus = !CorpusDir(args, &corpus_note).empty();
  if (!with_corpus)
    std::fprintf(stderr, "ictk certify: --mutation-score without the corpus (%s)\n",
                 corpus_note.c_str());
  // A --mutant that names no mutant is a usage error, not an empty (0/0) score.
  for (const std::string& name : args.mutants) {
    bool known = false;
    for (const MutantInfo& m : SampleMutants()) known = known || m.name == name;
    if (!known) {
      std::vector<std::string> names;
      for (const MutantInfo& m : SampleMutants()) names.push_back(m.name);
      std::fprintf(stderr, "%s",
                   fmt::format("ictk certify: --mutant {}: no mutant of that name (known: "
                               "{}; `ictk mutants --list` describes them)\n",
                               name, fmt::join(names, ", "))
                       .c_str());
      return 2;
    }
  }
  for (const MutantInfo& m : SampleMutants()) {
    if (!args.mutants.empty() &&
        std::find(args.mutants.begin(), args.mutants.end(), m.name) == args.mutants.end())
      continue;
    // Each mutant runs under the profile and switches it declares (a reader that must
    // refuse what it accepts is caught only under invalid-metadata-on-read=reject), on
    // top of the run's own switches.
    const std::string spec = "builtin:sample?mutant=" + m.name +
                             (m.profile.empty() ? "" : "&profile=" + m.profile);
    Switches mutant_switches = switches;
    if (const std::string error = ApplySwitchSettings(mutant_switches, m.switches, "mutant");
        !error.empty()) {
      std::fprintf(stderr, "ictk certify: mutant %s: %s\n", m.name.c_str(), error.c_str());
      return 2;
    }
    const std::string dir = args.out.empty() ? "" : args.out + "/mutants/" + m.name;
    CertifyArgs quiet = args;
    quiet.quiet = true;
    Row row;
    row.mutant = m;
    // The corpus alone first (the default run's first part), into DIR/corpus.
    if (with_corpus) {
      CertifyArgs corpus_only = quiet;
      corpus_only.mutation_score = false;  // Certify keeps the corpus
      corpus_only.histories = 0;
      corpus_only.resume.clear();
      RunOutcome c = Certify(global, corpus_only, mutant_switches, spec,
                             dir.empty() ? "" : dir + "/corpus", /*fail_fast=*/false);
      if (c.exit_code == 2) {
        std::fprintf(stderr, "ictk certify: mutant %s: the corpus could not be replayed\n",
                     m.name.c_str());
        return 2;
      }
      for (const CaseRecord& k : c.report.cases) {
        if (IsConformant(k.verdict)) continue;
        row.by_corpus = true;
        row.corpus_fixture = k.id;
        row.corpus_rule = k.failure ? k.failure->rule : std::string(ToString(k.verdict));
        row.corpus_rule_matches = std::find(k.failed_rules.begin(), k.failed_rules.end(),
                                            m.rule) != k.failed_rules.end();
        break;
      }
    }
    RunOutcome r =
        Certify(global, quiet, mutant_switches, spec, dir, /*fail_fast=*/true);
    row.exit_code = r.exit_code;
    if (r.exit_code == 2) {
      std::fprintf(stderr, "ictk certify: mutant %s could not be certified\n",
                   m.name.c_str());
      return 2;
    }
    row.by_histories = r.exit_code == 1;
    row.killed = row.by_histories || row.by_corpus;
    if (r.first_failing_index) {
      row.histories_to_kill = *r.first_failing_index + 1;
      row.ms_to_kill = r.first_failure_ms;
      for (const CaseRecord& c : r.report.cases) {
        if (IsConformant(c.verdict)) continue;
        row.rule = c.failure ? c.failure->rule : std::string(ToString(c.verdict));
        row.rule_matches = std::find(c.failed_rules.begin(), c.failed_rules.end(),
                                     m.rule) != c.failed_rules.end();
        if (c.failure) row.fixture = c.failure->fixture;
        break;
      }
    }
    std::string how =
        row.by_histories
            ? fmt::format("after {} histories ({:.0f} ms) by {}{}", *row.histories_to_kill,
                          row.ms_to_kill, row.rule,
                          row.rule_matches ? "" : " (mutant's rule: " + m.rule + ")")
            : fmt::format("not by {} histories (its rule: {})", args.histories, m.rule);
    if (row.by_corpus)
      how += fmt::format("; by the corpus: fixture {} ({})", row.corpus_fixture,
                         row.corpus_rule);
    else if (with_corpus)
      how += "; not by the corpus";
    std::printf("%-40s %-8s %s%s\n", m.name.c_str(), row.killed ? "killed" : "SURVIVED",
                how.c_str(), MutantConditions(m).c_str());
    std::fflush(stdout);
    rows.push_back(std::move(row));
  }
  int64_t killed = 0, named = 0, by_histories = 0, by_corpus = 0;
  std::vector<int64_t> to_kill;
  for (const Row& r : rows) {
    if (r.killed) ++killed;
    if (r.by_histories) ++by_histories;
    if (r.by_corpus) ++by_corpus;
    if (r.rule_matches) ++named;
    if (r.histories_to_kill) to_kill.push_back(*r.histories_to_kill);
  }
  std::sort(to_kill.begin(), to_kill.end());
  const int64_t median = to_kill.empty() ? 0 : to_kill[to_kill.size() / 2];
  // Clause coverage: a clause is covered when a mutant that ignores it was killed.
  std::set<std::string> killed_clauses;
  for (const Row& r : rows)
    if (r.killed) killed_clauses.insert(r.mutant.clause);
  int64_t with_mutant = 0, covered = 0;
  std::vector<std::string> uncovered;
  for (const ClauseInfo& c : AllClauses()) {
    // An exempt clause can have no mutant; a clause with a gap has none yet.
    if (!c.gap.empty() || c.exempt.kind != ExemptKind::kNone) continue;
    ++with_mutant;
    if (killed_clauses.count(c.id))
      ++covered;
    else
      uncovered.push_back(c.id);
  }
  std::printf("clauses: %lld of the %lld clauses with a mutant were covered by a kill%s%s\n",
              static_cast<long long>(covered), static_cast<long long>(with_mutant),
              uncovered.empty() ? "" : "; not covered: ",
              fmt::format("{}", fmt::join(uncovered, ", ")).c_str());
  const std::string split =
      !with_corpus ? fmt::format(" (no corpus: {})", corpus_note)
                     : fmt::format(" ({} by the random histories, {} by the corpus)",
                                   by_histories, by_corpus);
  std::printf(
      "mutation score: %lld/%zu killed%s, %lld random kills named the mutant's rule; "
      "median histories-to-kill %lld (seed %llu, budget %lld histories)\n",
      static_cast<long long>(killed), rows.size(), split.c_str(),
      static_cast<long long>(named), static_cast<long long>(median),
      static_cast<unsigned long long>(args.seed), static_cast<long long>(args.histories));
  if (!args.out.empty()) {
    nlohmann::json j = nlohmann::json::array();
    std::string md = fmt::format(
        "# Mutation score: {}/{} killed{}\n\nseed {}, the corpus {} and at most {} random "
        "histories per mutant; {} random kills named the mutant's rule; median "
        "histories-to-kill {}; {} of the {} clauses with a mutant covered by a kill.\n\n| "
        "mutant | rule | clause | profile | switches | result | histories to kill | ms to "
        "kill | rule named | corpus fixture | corpus rule |\n"
        "|---|---|---|---|---|---|---:|---:|---|---|---|\n",
        killed, rows.size(), split, args.seed,
        with_corpus ? std::string("replayed") : "not replayed (" + corpus_note + ")",
        args.histories, named,
        median, covered, with_mutant);
    for (const Row& r : rows) {
      j.push_back({{"mutant", r.mutant.name},
                   {"rule", r.mutant.rule},
                   {"clause", r.mutant.clause},
                   {"profile", r.mutant.profile.empty() ? "writer" : r.mutant.profile},
                   {"switches", r.mutant.switches},
                   {"description", r.mutant.description},
                   {"killed", r.killed},
                   {"histories-to-kill", r.histories_to_kill
                                             ? nlohmann::json(*r.histories_to_kill)
                                             : nlohmann::json(nullptr)},
                   {"ms-to-kill", r.ms_to_kill},
                   {"named-rule", r.rule},
                   {"rule-matches", r.rule_matches},
                   {"fixture", r.fixture},
                   {"killed-by-histories", r.by_histories},
                   {"killed-by-corpus", r.by_corpus},
                   {"corpus-fixture", r.corpus_fixture},
                   {"corpus-rule", r.corpus_rule},
                   {"corpus-rule-matches", r.corpus_rule_matches}});
      md += fmt::format("| `{}` | `{}` | `{}` | {} | {} | {} | {} | {:.0f} | {} | {} | {} |\n",
                        r.mutant.name, r.mutant.rule, r.mutant.clause,
                        r.mutant.profile.empty() ? "writer" : r.mutant.profile,
                        r.mutant.switches.empty()
                            ? std::string("defaults")
                            : fmt::format("`{}`", fmt::join(r.mutant.switches, "`, `")),
                        r.killed ? "killed" : "**survived**",
                        r.histories_to_kill ? std::to_string(*r.histories_to_kill) : "-",
                        r.ms_to_kill, r.rule.empty() ? "-" : "`" + r.rule + "`",
                        r.corpus_fixture.empty() ? "-" : "`" + r.corpus_fixture + "`",
                        r.corpus_rule.empty() ? "-" : "`" + r.corpus_rule + "`");
    }
    std::string error;
    if (!WriteFile(fs::path(args.out) / "mutation-score.json", DumpJson(j, 2) + "\n",
                   error) ||
        !WriteFile(fs::path(args.out) / "mutation-score.md", md, error)) {
      std::fprintf(stderr, "ictk certify: %s\n", error.c_str());
      return 2;
    }
  }
  return killed == static_cast<int64_t>(rows.size()) ? 0 : 1;
#else
  (void)global;
  (void)args;
  (void)switches;
  std::fprintf(stderr,
               "ictk certify: --mutation-score needs the sample (built without it)\n");
  return 2;
#endif
}

int RunCertifyCommand(const GlobalOptions& global, const CertifyArgs& args) {
  Switches switches = global.switches;
  if (const std::string error = ApplySwitchSettings(switches, args.switches, "--switch");
      !error.empty()) {
    std::fprintf(stderr, "ictk certify: %s\n", error.c_str());
    return 2;
  }
  if (!args.weights.empty()) {
    GenWeights w = GenWeights::Default();
    if (std::string error = w.Parse(args.weights); !error.empty()) {
      std::fprintf(stderr, "ictk certify: --weights: %s\n", error.c_str());
      return 2;
    }
  }
  if (!args.shard.empty()) {
    long long i = -1, n = 0;
    if (std::sscanf(args.shard.c_str(), "%lld/%lld", &i, &n) != 2 || n < 1 || i < 0 ||
        i >= n) {
      std::fprintf(stderr, "ictk certify: --shard %s: expected I/N with 0 <= I < N\n",
                   args.shard.c_str());
      return 2;
    }
  }
  if (!args.expect.empty()) {
    Result<ExpectationFile> e = ReadExpectationFile(args.expect);
    if (!e) {
      std::fprintf(stderr, "ictk certify: %s\n", e.error().message.c_str());
      return 2;
    }
    const_cast<CertifyArgs&>(args).expectations = std::move(*e);
    if (args.strict && !args.expectations->entries.empty())
      std::fprintf(stderr,
                   "ictk certify: --strict: the %zu entries of %s are not honoured\n",
                   args.expectations->entries.size(), args.expect.c_str());
  }
  if (args.mutation_score) return RunMutationScore(global, args, switches);
  if (!args.mutants.empty()) {
    std::fprintf(stderr,
                 "ictk certify: --mutant selects mutants for --mutation-score; to certify "
                 "one mutant give --adapter 'builtin:sample?mutant=%s'\n",
                 args.mutants.front().c_str());
    return 2;
  }
  if (!args.quiet)
    std::fprintf(stderr,
                 "ictk certify: seed %llu, %lld histories, max %d steps, %d job(s)\n",
                 static_cast<unsigned long long>(args.seed),
                 static_cast<long long>(args.case_index ? 1 : args.histories),
                 args.max_steps, args.jobs);
  RunOutcome r =
      Certify(global, args, switches, args.adapter.spec, args.out, args.fail_fast);
  if (r.exit_code == 2) return 2;
  PrintSummary(r, args.out, args, switches);
  return r.exit_code;
}

}  // namespace

SubcommandRunner AddCertifyCommand(CLI::App& app, CLI::App** subcommand,
                                   const std::vector<std::string>& argv) {
  auto args = std::make_shared<CertifyArgs>();
  {
    std::vector<std::string> quoted;
    for (const std::string& a : argv) quoted.push_back(ShellQuote(a));
    args->command_line = fmt::format("{}", fmt::join(quoted, " "));
  }
  CLI::App* c = app.add_subcommand("certify",
                                   "Run random commit histories against an adapter, "
                                   "judge every answer with the model, "
                                   "shrink failures to fixtures and write reports; exit "
                                   "0 conformant, 1 not, 2 usage or "
                                   "adapter failure");
  AddAdapterFlags(c, args->adapter);
  c->add_option("--histories", args->histories, "Random histories to run (default 200)")
      ->check(CLI::NonNegativeNumber);
  c->add_option("--max-steps", args->max_steps,
                "Plan steps per history, at most (default 20)")
      ->check(CLI::PositiveNumber);
  c->add_option("--seed", args->seed,
                "Seed: the same seed gives the same histories (default 1)");
  c->add_option("--out", args->out,
                "Run directory for the reports (default ictk-report)");
  c->add_option("--jobs", args->jobs,
                "Parallel adapters (default: the number of cores); results do not depend on "
                "it")
      ->check(CLI::PositiveNumber);
  c->add_option("--shard", args->shard, "Run only cases with index % N == I")
      ->type_name("I/N");
  c->add_option("--switch", args->switches,
                "Interpretation switch NAME=VALUE; repeatable")
      ->type_name("NAME=VALUE");
  c->add_flag("--fail-fast", args->fail_fast, "Stop at the first failing case");
  c->add_option("--case", args->case_index,
                "Run only the case with this index (reproduce)")
      ->check(CLI::NonNegativeNumber);
  c->add_option("--weights", args->weights,
                "Step-kind weights on top of the defaults, e.g. append=20,upgrade=0");
  c->add_flag("--no-shrink", args->no_shrink, "Report failures unminimized");
  c->add_option("--shrink-budget", args->shrink_budget,
                "Histories to run while shrinking one failure (default 400)");
  c->add_flag(
      "--mutation-score", args->mutation_score,
      "Certify every sample mutant (builtin:sample?mutant=NAME) as the default run "
      "does, the corpus (unless --no-corpus) and the random histories, each apart, and "
      "report how many are killed and by which; --adapter is ignored");
  c->add_option("--mutant", args->mutants, "With --mutation-score: only these mutants");
  c->add_flag("--quiet", args->quiet, "No progress and no distribution");
  c->add_option("--corpus", args->corpus,
                "Fixture corpus replayed before the random histories (default: "
                "$ICTK_CORPUS, else <prefix>/share/ictk/corpus next to the installed "
                "binary, else the checkout's fixtures/corpus)");
  c->add_flag("--no-corpus", args->no_corpus, "Do not replay the fixture corpus");
  c->add_option("--expect", args->expect,
                "Expectation file (skip / xfail per case ID or glob; docs/replay.md)");
  c->add_flag("--strict", args->strict,
              "Certification mode: expectation entries are not honoured; only cases "
              "needing an undeclared capability are skipped");
  // The folder is optional ("--resume" alone continues the --out folder), so CLI11 never
  // takes a following flag as the folder (`--out X --resume --quiet`).
  CLI::Option* resume =
      c->add_option("--resume", args->resume,
                    "Continue the killed run in DIR (its report.jsonl) without redoing "
                    "its finished cases; give the same options as the run (implies --out "
                    "DIR); without DIR, the --out folder")
          ->type_name("[DIR]")
          ->expected(0, 1);
  // --adapter is not needed with --mutation-score.
  c->get_option("--adapter")->required(false);
  *subcommand = c;
  return [args, resume](const GlobalOptions& global) {
    if (args->adapter.spec.empty() && !args->mutation_score) {
      std::fprintf(stderr, "ictk certify: --adapter is required\n");
      return 2;
    }
    if (resume->count() > 0 && args->resume.empty()) args->resume = args->out;
    if (!args->resume.empty() && args->resume[0] == '-') {
      std::fprintf(stderr,
                   "ictk certify: --resume %s: a folder name, not a flag (write "
                   "--resume ./%s for a folder of that name)\n",
                   args->resume.c_str(), args->resume.c_str());
      return 2;
    }
    if (!args->resume.empty()) {
      if (args->mutation_score) {
        std::fprintf(stderr, "ictk certify: --resume does not apply to --mutation-score\n");
        return 2;
      }
      args->out = args->resume;
    }
    return RunCertifyCommand(global, *args);
  };
}

}  // namespace ictk::cli
