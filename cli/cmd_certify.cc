/// \file
/// `ictk certify`: the flags, the options of the certification run they make
/// (properties/certify_run.h: N random histories against an adapter, every answer judged
/// with the model, each failure shrunk to a minimal history, the run directory written)
/// and the summary printed after it. With `--mutation-score` it certifies every sample
/// mutant instead (certify_mutation_score.cc). Exit 0 conformant, 1 not conformant, 2
/// usage error or an adapter that cannot start.
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "cli/adapter_config.h"
#include "cli/certify_internal.h"
#include "cli/commands.h"
#include "cli/console_internal.h"
#include "cli/files_internal.h"
#include "cli/interrupt_internal.h"
#include "fixtures/replay.h"
#include "model/judge/rule_catalogue.h"
#include "properties/certify_run.h"
#include "reports/digest.h"
#include "reports/report.h"

#ifndef ICTK_VERSION
#define ICTK_VERSION "0.0.0"
#endif

namespace ictk::cli {
namespace {

namespace fs = std::filesystem;

/// The flags of ReproduceFlags that `ictk replay` takes too (a corpus failure's
/// reproduce command).
std::string ReplayFlags(const CertifyArgs& a, const Switches& switches) {
  std::vector<std::string> parts;
  const auto defaults = SwitchValues(Switches{});
  for (const auto& [k, v] : SwitchValues(switches))
    if (defaults.at(k) != v) parts.push_back(fmt::format("--switch {}={}", k, v));
  if (a.adapter.timeout_ms != 10000)
    parts.push_back(fmt::format("--timeout-ms {}", a.adapter.timeout_ms));
  if (a.adapter.max_answer_bytes != AdapterFlags{}.max_answer_bytes)
    parts.push_back(fmt::format("--max-answer-bytes {}", a.adapter.max_answer_bytes));
  return fmt::format("{}", fmt::join(parts, " "));
}

/// The flags a random case's reproduce command must repeat.
std::string ReproduceFlags(const CertifyArgs& a, const Switches& switches) {
  std::string out = fmt::format("--max-steps {}", a.max_steps);
  if (!a.weights.empty()) out += " --weights " + ShellQuote(a.weights);
  if (a.no_metadata_delta) out += " --no-metadata-delta";
  if (const std::string rest = ReplayFlags(a, switches); !rest.empty()) out += " " + rest;
  return out;
}

/// `ictk` when the first `ictk` on the PATH is this binary, else this binary's absolute
/// path (quoted for a shell).
std::string IctkProgram() {
  const fs::path self = ExecutablePath();
  std::string ictk = "ictk";
  if (!self.empty()) {
    bool on_path = false;
    const char* path = std::getenv("PATH");
    std::string_view rest = path ? path : "";
    while (!rest.empty() && !on_path) {
      const size_t colon = rest.find(':');
      const fs::path dir(std::string(rest.substr(0, colon)));
      rest = colon == std::string_view::npos ? std::string_view() : rest.substr(colon + 1);
      if (dir.empty()) continue;
      std::error_code e2;
      if (fs::exists(dir / "ictk", e2)) {
        on_path = fs::equivalent(dir / "ictk", self, e2) && !e2;
        if (!on_path) break;  // another ictk comes first
      }
    }
    if (!on_path) ictk = ShellQuote(self.string());
  }
  return ictk;
}

/// "cd 'CWD' && ICTK": a failure's reproduce command runs from a fresh shell (another
/// working directory, no PATH of this one's); ICTK is IctkProgram().
std::string FreshShellPrefix() {
  std::error_code ec;
  const fs::path cwd = fs::current_path(ec);
  return ec ? IctkProgram()
            : fmt::format("cd {} && {}", ShellQuote(cwd.string()), IctkProgram());
}

/// Progress of the corpus replay ("corpus", "fixtures") or of the random cases ("",
/// "cases"): on a terminal (stdout and stderr both) a live bar with cases, failures, rate
/// and ETA; otherwise (CI logs, pipes) one line per 10% with the failures so far.
class Progress {
 public:
  /// `open_ended`: --until-stable, where `total` is only the cap: no bar and no ETA, a
  /// line per 100 cases instead of per 10%.
  Progress(int64_t total, bool quiet, std::string phase, std::string unit,
           bool open_ended = false)
      : total_(total), quiet_(quiet), tty_(::isatty(1) == 1 && ::isatty(2) == 1),
        phase_(phase.empty() ? phase : phase + " "), unit_(std::move(unit)),
        open_ended_(open_ended) {}
  void Update(int64_t done, int64_t failing, double elapsed_ms) {
    if (quiet_ || total_ == 0) return;
    const double secs = elapsed_ms / 1000;
    const double rate = secs > 0 ? static_cast<double>(done) / secs : 0;
    if (open_ended_) {
      if (!tty_ && done % 100 != 0) return;
      std::fprintf(stderr,
                   "%scertify: %s%lld %s until stable (at most %lld), %lld failing so far, "
                   "%.1f %s/s%s",
                   tty_ ? "\r" : "", phase_.c_str(), static_cast<long long>(done),
                   unit_.c_str(), static_cast<long long>(total_),
                   static_cast<long long>(failing), rate, unit_.c_str(), tty_ ? " " : "\n");
      return;
    }
    const double eta = rate > 0 ? static_cast<double>(total_ - done) / rate : 0;
    if (tty_) {
      const int width = 30;
      const int filled = static_cast<int>(width * done / total_);
      std::fprintf(stderr, "\r[%s%s] %s%lld/%lld %s, %lld failing, %.1f/s, ETA %.0fs ",
                   std::string(filled, '=').c_str(),
                   std::string(width - filled, ' ').c_str(), phase_.c_str(),
                   static_cast<long long>(done), static_cast<long long>(total_),
                   unit_.c_str(), static_cast<long long>(failing), rate, eta);
      if (done == total_) std::fprintf(stderr, "\n");
      return;
    }
    // One line each time another tenth is done (at most 10 lines, whatever the total).
    const int64_t tenth = done * 10 / total_;
    if (tenth <= printed_tenth_) return;
    printed_tenth_ = tenth;
    std::fprintf(stderr,
                 "certify: %s%3lld%% %lld/%lld %s, %lld failing so far, %.1f %s/s, "
                 "ETA %.0fs\n",
                 phase_.c_str(), static_cast<long long>(tenth * 10),
                 static_cast<long long>(done), static_cast<long long>(total_), unit_.c_str(),
                 static_cast<long long>(failing), rate, unit_.c_str(), eta);
  }

 private:
  int64_t total_;
  bool quiet_;
  bool tty_;
  std::string phase_;  ///< "corpus " or ""
  std::string unit_;   ///< "fixtures" or "cases"
  bool open_ended_ = false;
  int64_t printed_tenth_ = 0;
};

/// The verdict text of the console's first line, its verdict word coloured
/// (cli/console_internal.h).
std::string ShownVerdict(const Totals& t) {
  const std::string text = VerdictText(t);
  const std::string word = t.conformant ? "CONFORMANT" : "NOT CONFORMANT";
  if (!text.starts_with(word)) return text;
  return Painted(word, t.conformant ? Tint::kGreen : Tint::kRed, stdout) +
         text.substr(word.size());
}

/// A fixture path as the console shows it: relative paths under the run folder, absolute
/// ones (corpus fixtures) as they are.
std::string ShownFixturePath(const std::string& out_dir, const std::string& fixture) {
  if (out_dir.empty() || fixture.empty() || fs::path(fixture).is_absolute()) return fixture;
  return (fs::path(out_dir) / fixture).string();
}

/// The run's first lines: the verdict, the verdicts, the profile and the corpus, the
/// declared capabilities that received no request.
void PrintRunLines(const CertifyRunResult& r, const CertifyArgs& args) {
  const Totals& t = *r.report.totals;
  std::vector<std::string> verdicts;
  for (Verdict v : kAllVerdicts) {
    auto it = t.verdicts.find(v);
    if (it != t.verdicts.end() && it->second > 0)
      verdicts.push_back(fmt::format("{} {}", it->second, ToString(v)));
  }
  std::printf(
      "%s",
      fmt::format("ictk certify {}: {} ({}{}, {} requests, seed {}, "
                  "{:.1f} s)\n",
                  r.report.header.adapter, ShownVerdict(t),
                  CasesText(t), StopText(r.report.header), t.steps, args.seed, t.duration_ms / 1000)
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
}

/// The rules exercised and failing, and those never exercised (with the capability
/// missing, where one is). With a profile, every count is of the rules the profile
/// reaches, the count the verdict line gives (docs/certify.md, "The console").
void PrintRules(const Totals& t) {
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
  const bool profile = !t.profile.empty() && t.profile_rules > 0;
  const std::vector<std::string>& never =
      profile ? t.profile_not_exercised : t.never_exercised;
  if (profile) {
    int64_t out_of_reach = 0;
    for (const auto& [why, n] : t.profile_out_of_reach) out_of_reach += n;
    std::printf("%s", fmt::format("  rules of the {} profile: {} of {} exercised, {} "
                                  "failing, {} never exercised{}\n",
                                  t.profile,
                                  t.profile_rules - static_cast<int64_t>(never.size()),
                                  t.profile_rules, failed, never.size(),
                                  out_of_reach == 0
                                      ? std::string()
                                      : fmt::format(" ({} more out of its reach: "
                                                    "summary.md)",
                                                    out_of_reach))
                          .c_str());
  } else {
    std::printf("  rules: %lld exercised, %lld failing, %zu never exercised\n",
                static_cast<long long>(exercised), static_cast<long long>(failed),
                never.size());
  }
  for (const std::string& f : failing_rules)
    std::printf("    %s %s\n", Painted("FAIL", Tint::kRed, stdout).c_str(), f.c_str());
  if (!never.empty()) {
    std::vector<std::string> items;
    for (const std::string& rule : never) {
      auto it = t.untested_because.find(rule);
      items.push_back(it == t.untested_because.end() ? rule
                                                     : rule + " (no " + it->second + ")");
    }
    std::printf("  never exercised: %s\n",
                fmt::format("{}", fmt::join(items, ", ")).c_str());
  }
  // The clauses (docs/rules.md, "Clause coverage of a run"): of those no step exercised,
  // the ones no mutant can break (exempt clauses) are said apart from the others.
  int64_t clauses = 0, exempt = 0, clauses_exercised = 0;
  for (const ClauseInfo& c : AllClauses()) {
    ++clauses;
    if (FindRule(c.rule).coverage_exempt) ++exempt;
    auto it = t.clauses.find(c.id);
    if (it != t.clauses.end() && it->second.positive + it->second.negative > 0)
      ++clauses_exercised;
  }
  const ClauseSplit unexercised = SplitByExemption(t.clauses_never_exercised);
  std::printf("%s", fmt::format("  clauses: {} of {} exercised, {} never exercised ({} more "
                                "exempt clauses not exercised), {} of exempt rules, {} out "
                                "of the profile's reach (summary.md, \"Clause coverage\")\n",
                                clauses_exercised, clauses, unexercised.breakable.size(),
                                unexercised.exempt.size(),
                                exempt, t.clauses_out_of_reach.size())
                        .c_str());
}

/// Failures by cause: one line per cause, the details of its first case (five causes at
/// most; the rest are in summary.md).
void PrintCauses(const Report& report, const std::string& out_dir) {
  const std::vector<FailureCause> causes = FailureCauses(report.cases);
  if (!causes.empty()) {
    size_t failing_cases = 0;
    for (const FailureCause& c : causes) failing_cases += c.cases.size();
    std::printf("  failures: %zu case(s), %zu cause(s)\n", failing_cases, causes.size());
  }
  size_t shown = 0;
  for (const FailureCause& cause : causes) {
    const CaseRecord& c = report.cases[cause.first];
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
                            "    answered: {}\n{}    fixture: {}\n    replay: {}\n"
                            "    reproduce: {}\n",
                            Painted(ToString(c.verdict), Tint::kRed, stdout), c.id,
                            FindingOf(f), f.rule, f.sentence,
                            f.step, f.steps.size(),
                            WasMinimized(f)
                                ? fmt::format(", minimized from {}", f.original_steps)
                                : std::string(),
                            f.allowed, f.answered, EvaluationLines(f, "    "),
                            ShownFixturePath(out_dir, f.fixture),
                            f.replay, f.reproduce)
                    .c_str());
  }
}

void PrintSummary(const CertifyRunResult& r, const std::string& out_dir,
                  const CertifyArgs& args, const Switches& switches) {
  const Totals& t = *r.report.totals;
  PrintRunLines(r, args);
  PrintRules(t);
  PrintCauses(r.report, out_dir);
  if (!args.quiet) {
    std::string text = r.distribution.ToString();  // one line per kind of count
    for (size_t at = text.find('\n'); at != std::string::npos && at + 1 < text.size();
         at = text.find('\n', at + 5))
      text.insert(at + 1, "    ");
    std::printf("  distribution: %s", text.c_str());
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
  std::string corpus;
  if (args.no_corpus) corpus = " --no-corpus";
  else if (!args.corpus.empty()) corpus = " --corpus " + ShellQuote(args.corpus);
  std::printf(
      "  reproduce the run: %s certify --adapter %s%s --seed %llu --histories %lld%s %s\n",
      FreshShellPrefix().c_str(), ShellQuote(r.report.header.adapter).c_str(),
      corpus.c_str(),
      static_cast<unsigned long long>(args.seed), static_cast<long long>(args.histories),
      args.until_stable > 0 ? fmt::format(" --until-stable {}", args.until_stable).c_str()
                            : "",
      ReproduceFlags(args, switches).c_str());
}

/// `words` quoted for a shell where they need it, joined by spaces.
std::string QuotedWords(const std::vector<std::string>& words) {
  std::vector<std::string> quoted;
  for (const std::string& w : words) quoted.push_back(ShellQuote(w));
  return fmt::format("{}", fmt::join(quoted, " "));
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
  if (args.mutation_score) {
    ExitOnInterrupt("certify", "");
    return RunMutationScore(global, args, switches);
  }
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
  // On SIGINT: the cases finished and the command that continues the run (--resume).
  ExitOnInterrupt("certify", args.out.empty()
                                 ? std::string()
                                 : ResumeCommand(args.argv, IctkProgram(), args.out));
  CertifyRunResult r =
      Certify(global, args, switches, args.adapter.spec, args.out, args.fail_fast);
  if (r.exit_code == 2) return 2;
  PrintSummary(r, args.out, args, switches);
  return r.exit_code;
}

}  // namespace

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
  if (const std::string self = ExecutablePath(); !self.empty()) {
    const fs::path bin = fs::path(self).parent_path();
    candidates.push_back(bin.parent_path() / "share" / "ictk" / "corpus");
    candidates.push_back(bin.parent_path().parent_path() / "fixtures" / "corpus");
  }
  candidates.push_back(fs::path("fixtures") / "corpus");
  for (const fs::path& p : candidates)
    if (fs::exists(p / "INDEX.json")) return p.lexically_normal().string();
  *note = "none found: give --corpus DIR or set ICTK_CORPUS";
  return {};
}

CertifyRunResult Certify(const GlobalOptions& global, const CertifyArgs& args,
                         const Switches& switches, const std::string& spec,
                         const std::string& out_dir, bool fail_fast) {
  GlobalOptions with_switches = global;
  with_switches.switches = switches;
  AdapterFlags flags = args.adapter;
  flags.spec = spec;
  CertifyRunOptions o;
  o.adapter_spec = spec;
  o.open_adapter = [with_switches, flags] { return OpenAdapter(with_switches, flags); };
  o.switches = switches;
  o.histories = args.histories;
  o.until_stable = args.until_stable;
  o.max_steps = args.max_steps;
  o.seed = args.seed;
  o.jobs = std::max(1, args.jobs);
  o.shard = args.shard;
  o.case_index = args.case_index;
  o.weights = args.weights;
  o.shrink = !args.no_shrink;
  o.metadata_delta = !args.no_metadata_delta;
  o.shrink_budget = args.shrink_budget;
  o.fail_fast = fail_fast;
  o.quiet = args.quiet;
  o.ictk_version = ICTK_VERSION;
  o.command_line = args.command_line;
  o.reproduce_flags = ReproduceFlags(args, switches);
  o.reproduce_prefix = FreshShellPrefix();
  o.replay_flags = ReplayFlags(args, switches);
  o.out_dir = out_dir;
  o.resume = !args.resume.empty();
  o.corpus_dir = CorpusDir(args, &o.corpus_note);
  if (args.mutation_score || args.case_index) {
    o.corpus_dir.clear();
    o.corpus_note = args.case_index ? "--case" : "--mutation-score";
  }
  o.expectations = args.expectations ? &*args.expectations : nullptr;
  o.strict = args.strict;
  o.note = [](const std::string& text) {
    std::fprintf(stderr, "ictk certify: %s\n", text.c_str());
  };
  auto progress = std::make_shared<std::optional<Progress>>();
  o.progress = [progress, quiet = args.quiet, open_ended = args.until_stable > 0](
                   int64_t done, int64_t total, int64_t failing, double elapsed_ms) {
    if (!*progress) progress->emplace(total, quiet, "", "cases", open_ended);
    (*progress)->Update(done, failing, elapsed_ms);
  };
  auto corpus = std::make_shared<std::optional<Progress>>();
  o.corpus_progress = [corpus, quiet = args.quiet](int64_t done, int64_t total,
                                                   int64_t failing, double elapsed_ms) {
    if (!*corpus) corpus->emplace(total, quiet, "corpus", "fixtures");
    (*corpus)->Update(done, failing, elapsed_ms);
  };
  // The mutation score's runs are many: its SIGINT line gives no count.
  if (!args.mutation_score) o.finished = SetFinishedCases;
  return RunCertification(o);
}

SubcommandRunner AddCertifyCommand(CLI::App& app, CLI::App** subcommand,
                                   const std::vector<std::string>& argv) {
  auto args = std::make_shared<CertifyArgs>();
  args->argv = argv;
  args->command_line = QuotedWords(argv);
  CLI::App* c = app.add_subcommand("certify",
                                   "Run random commit histories against an adapter, "
                                   "judge every answer with the model, "
                                   "shrink failures to fixtures and write reports; exit "
                                   "0 conformant, 1 not, 2 usage or "
                                   "adapter failure");
  AddAdapterFlags(c, args->adapter);
  CLI::Option* histories =
      c->add_option("--histories", args->histories,
                    fmt::format("Random histories to run (default {}, measured: "
                                "docs/certify.md \"How many histories\")",
                                kDefaultHistories))
          ->check(CLI::NonNegativeNumber);
  c->add_option("--until-stable", args->until_stable,
                fmt::format("Stop once N histories in a row add no clause coverage; "
                            "--histories is then the most it runs (default {})",
                            kUntilStableCap))
      ->type_name("N")
      ->check(CLI::PositiveNumber);
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
  c->add_flag("--no-metadata-delta", args->no_metadata_delta,
              "Do not offer the adapter metadata-delta answers: every answer carries "
              "the table's whole metadata (docs/protocol.md section 7)");
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
  return [args, resume, histories](const GlobalOptions& global) {
    if (args->adapter.spec.empty() && !args->mutation_score) {
      std::fprintf(stderr, "ictk certify: --adapter is required\n");
      return 2;
    }
    if (args->until_stable > 0) {
      // A stop decided by coverage in index order: one run, all of its cases.
      for (const auto& [given, flag] :
           {std::pair{!args->shard.empty(), "--shard"},
            std::pair{args->case_index.has_value(), "--case"},
            std::pair{args->mutation_score, "--mutation-score"}}) {
        if (!given) continue;
        std::fprintf(stderr, "ictk certify: --until-stable does not apply to %s\n", flag);
        return 2;
      }
      if (histories->count() == 0) args->histories = kUntilStableCap;
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
