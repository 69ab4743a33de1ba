/// \file
/// A certification case (runner.h): its plan from the seed and the index, its run, and
/// for a failure the shrinking, the failure's description and its fixture file.
#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <mutex>
#include <set>

#include "codec/protocol.h"
#include "fixtures/replay.h"
#include "generators/value_gen.h"
#include "model/judge/rule_catalogue.h"
#include "properties/clock_internal.h"
#include "properties/fixture.h"
#include "properties/minimize.h"
#include "properties/model_expectations.h"
#include "properties/runner.h"

namespace ictk {

using json = nlohmann::json;

namespace {

using internal::Clock;
using internal::MillisSince;

}  // namespace

std::string RandomCaseId(uint64_t seed, int64_t index) {
  return fmt::format("random/s{}/{}", seed, index);
}

RenderOptions CaseRenderOptions(uint64_t seed, int64_t index, int attempt,
                                const Capabilities& capabilities,
                                const Switches& switches) {
  RenderOptions o;
  o.table = attempt == 0 ? fmt::format("h{}_{}", seed, index)
                         : fmt::format("h{}_{}_s{}", seed, index, attempt);
  o.function_prefix = o.table + "_";
  // A clock of its own per history: a fixed origin, so the same seed and index always
  // give the same timestamps.
  o.clock_start_ms = 1'700'000'000'000 + static_cast<int64_t>(index % 1000) * 1'000'000;
  o.capabilities = capabilities;
  o.switches = switches;
  return o;
}

rc::Shrinkable<Plan> CasePlan(uint64_t seed, int64_t index,
                              const HistoryGenConfig& config) {
  const rc::Random random(rc::Random::Key{seed, static_cast<uint64_t>(index),
                                          0x696374'6b'63657274ULL, 0x68697374ULL});
  // Sizes cycle through 10..100 with the index, as RapidCheck grows them over a run.
  const int size = 10 + static_cast<int>((static_cast<uint64_t>(index) * 37) % 91);
  std::lock_guard<std::recursive_mutex> lock(RapidCheckMutex());
  return GenPlan(config)(random, size);
}

namespace {

struct Signature {
  Verdict verdict;
  std::optional<RuleId> rule;
  bool operator==(const Signature&) const = default;
};

/// What a shrink keeps: the verdict and the failed step's rule as the judge found it,
/// before the blame re-filed it (model/judge/blame.h), so that a simpler history with the
/// same failure is taken and then blamed on its own.
Signature SignatureOf(const HistoryRun& r) {
  return {r.verdict, r.judged_rule ? r.judged_rule : r.primary_rule()};
}

std::string RuleSentence(RuleId rule) {
  const RuleInfo& info = FindRule(rule);
  if (!info.quote.empty()) return fmt::format("\"{}\"", info.quote);
  return std::string(info.summary);
}

StepRow ToRow(const StepOutcome& s, int index, bool failed) {
  StepRow row;
  row.index = index;
  row.op = std::string(OpName(s.step.request.op));
  row.label = s.step.label;
  // The transport's request id depends on what else ran on the adapter (--jobs), so the
  // report numbers a case's requests from 1 instead.
  row.request = s.request;
  if (row.request.is_object()) row.request["id"] = index;
  row.response = s.response ? *s.response : json(nullptr);
  if (row.response.is_object() && row.response.contains("id")) row.response["id"] = index;
  row.allowed = s.allowed;
  row.answered = s.answered;
  row.failed = failed;
  return row;
}

/// Coverage, precision and op counts of a case: from its original run.
void RecordCoverage(const HistoryRun& original, CaseRecord& record) {
  record.verdict = original.verdict;
  record.steps = static_cast<int64_t>(original.steps.size());
  for (const StepOutcome& s : original.steps) {
    for (const auto& [rule, negative] : s.exercised) {
      RuleUse& use = record.rules[std::string(RuleIdName(rule))];
      (negative ? use.negative : use.positive)++;
    }
    for (const auto& [clause, negative] : ClausesExercised(s)) {
      RuleUse& cu = record.clauses[clause->id];
      (negative ? cu.negative : cu.positive)++;
    }
  }
  record.precision = original.precision;
  for (const auto& [op, n] : original.distribution.ops) record.ops[op] = n;
  for (const auto& [tag, n] : original.distribution.tags)
    record.tags[std::string(RuleIdName(tag))] = n;
}

/// Where one case runs: its session, options, index, the adapter's capabilities and the
/// switches the model judges with.
struct CaseContext {
  AdapterSession& session;
  const CertifyOptions& options;
  int64_t index;
  const Capabilities& capabilities;
  const Switches& switches;
  Clock::time_point start;
};

/// Shrink: walk RapidCheck's shrink tree, keeping candidates that fail the same way as
/// `original`, into `best` (and the minimized plan into `minimized`); the histories run.
int ShrinkFailure(const CaseContext& c, const rc::Shrinkable<Plan>& root,
                  const HistoryRun& original, HistoryRun& best,
                  std::optional<Plan>* minimized) {
  if (!c.options.shrink || original.verdict == Verdict::kTimeout) return 0;
  int attempts = 0;
  const Signature want = SignatureOf(original);
  // The shrink tree, then the passes that drop columns, unnest structs, lower types and
  // plain the values (properties/minimize.h).
  const MinimizeStats stats = MinimizePlan(
      root, c.options.shrink_budget,
      [&] {
        return MillisSince(c.start) >= static_cast<double>(c.options.shrink_time_budget_ms);
      },
      [&](const Plan& p) {
        const int attempt = ++attempts;
        HistoryRun r = RunHistory(c.session, p,
                                  CaseRenderOptions(c.options.seed, c.index, attempt,
                                                    c.capabilities, c.switches),
                                  c.switches);
        if (SignatureOf(r) != want) return false;
        best = std::move(r);
        return true;
      },
      minimized);
  return stats.tree_runs + stats.further_runs;
}

/// The failure of a case from its minimized run `best`: the rule, the findings, the step
/// table and the reproduce command; the record's failed rules and reason.
FailureDetail DescribeFailure(const CaseContext& c, const HistoryRun& original,
                              const HistoryRun& best, int runs, CaseRecord& record) {
  const CertifyOptions& options = c.options;
  FailureDetail f;
  f.original_steps = static_cast<int>(original.steps.size());
  f.shrink_runs = runs;
  f.step = best.failed_step + 1;
  const RuleId rule = best.primary_rule().value_or(RuleId::kProtoAnswer);
  f.rule = std::string(RuleIdName(rule));
  f.clause = best.clause;
  f.sentence = RuleSentence(rule);
  for (const Finding& x : best.findings) f.findings.push_back(ToString(x));
  // The finding stated first in every report: the detail of the primary finding.
  if (!best.findings.empty()) f.finding = best.findings.front().detail;
  if (f.finding.empty()) f.finding = best.reason;
  if (!best.findings.empty()) f.evaluation = best.findings.front().evaluation;
  std::set<std::string> failed_rules;
  for (const Finding& x : best.findings)
    failed_rules.insert(std::string(RuleIdName(x.rule)));
  record.failed_rules.assign(failed_rules.begin(), failed_rules.end());
  // A rule the minimized failure names was exercised, even when the original run's
  // failing step named it differently.
  for (const std::string& r : record.failed_rules) {
    RuleUse& use = record.rules[r];
    if (use.positive + use.negative == 0) use.positive = 1;
  }
  if (best.failed_step >= 0) {
    const StepOutcome& s = best.steps[best.failed_step];
    f.allowed = s.allowed;
    f.answered = s.answered;
    if (s.response) f.adapter_message = AdapterMessageOf(*s.response);
  }
  for (size_t i = 0; i < best.steps.size(); ++i)
    f.steps.push_back(ToRow(best.steps[i], static_cast<int>(i) + 1,
                            static_cast<int>(i) == best.failed_step));
  f.stderr_tail = c.session.adapter().StderrTail();
  record.reason = best.reason;
  f.reproduce =
      fmt::format("{} certify --adapter {} --seed {} --case {}{}{}",
                  options.reproduce_prefix, ShellQuote(options.adapter_spec), options.seed, c.index,
                  options.reproduce_flags.empty() ? "" : " ", options.reproduce_flags);
  return f;
}

/// The minimized history as a fixture file; `f` gets its path, ID and replay command.
FixtureFile FailureFixture(const CaseContext& c, const HistoryRun& best,
                           const CaseRecord& record, FailureDetail& f) {
  const CertifyOptions& options = c.options;
  FixtureInput in;
  in.primary_rule = f.rule;
  for (const std::string& r : record.failed_rules) in.rules.push_back(r);
  if (best.failed_step >= 0) {
    const StepOutcome& s = best.steps[best.failed_step];
    in.slug = s.step.label;
  }
  std::vector<json> sent;
  std::vector<json> answers;
  in.expects = FixtureExpectations(best, c.switches);
  for (const StepOutcome& s : best.steps) {
    in.requests.push_back(s.step.request);
    sent.push_back(RequestToJson(s.step.request));
    answers.push_back(s.response.value_or(json(nullptr)));
  }
  // Only the switches the expectations depend on, decided as for the corpus (with the
  // implementation's own answers), so the fixture replays under other values of the rest.
  in.recorded_switches = SwitchesThatMatter(sent, c.switches, &answers);
  in.switches = options.switches;
  in.tool = options.tool;
  in.model_version = options.model_version;
  in.seed = options.seed;
  in.description = fmt::format(
      "Found by `{}` (case {}), {}. At step {} ({}) the rule {} applies: {}. The model "
      "allowed: {}. The implementation answered: {}.",
      f.reproduce, record.id,
      WasMinimized(f) ? fmt::format("minimized from {} to {} requests", f.original_steps,
                                    best.steps.size())
                      : fmt::format("{} requests, not minimized", best.steps.size()),
      f.step,
      f.steps.empty() ? "?" : f.steps.back().op, f.rule, f.sentence, f.allowed,
      f.answered);
  json fixture = MakeFixture(in);
  FixtureFile file;
  file.id = fixture.value("id", "");
  file.path = options.failures_dir + "/" + FixtureRelativePath(fixture);
  file.content = std::move(fixture);
  f.fixture = file.path;
  f.fixture_id = file.id;
  const std::string shown_path =
      options.out_dir.empty() ? file.path : options.out_dir + "/" + file.path;
  f.replay = fmt::format("ictk replay --adapter {} {}", ShellQuote(options.adapter_spec),
                         ShellQuote(shown_path));
  return file;
}

}  // namespace

CaseResult CertifyCase(AdapterSession& session, int64_t index,
                       const CertifyOptions& options) {
  const auto start = Clock::now();
  CaseResult result;
  CaseRecord& record = result.record;
  record.id = RandomCaseId(options.seed, index);
  record.index = index;

  HistoryGenConfig config = options.gen;
  config.capabilities = session.capabilities();
  // The model judges every request against what the implementation declared
  // (proto.declared-versions).
  Switches switches = options.switches;
  switches.declared_format_versions = config.capabilities.format_versions;
  if (config.capabilities.writer &&
      std::none_of(config.capabilities.format_versions.begin(),
                   config.capabilities.format_versions.end(),
                   [](int32_t v) { return v >= 1 && v <= 4; })) {
    record.verdict = Verdict::kSkip;
    record.reason =
        "the implementation declares no format version 1-4: no table can be created";
    record.duration_ms = MillisSince(start);
    return result;
  }
  rc::Shrinkable<Plan> root = CasePlan(options.seed, index, config);
  std::optional<Plan> plan = PlanValue(root);
  if (!plan) {
    record.verdict = Verdict::kSkip;
    record.reason = "the generator could not make a plan";
    record.duration_ms = MillisSince(start);
    return result;
  }
  const CaseContext c{session, options, index, config.capabilities, switches, start};
  const RenderOptions first =
      CaseRenderOptions(options.seed, index, 0, config.capabilities, switches);
  const HistoryRun original = RunHistory(session, *plan, first, switches);
  RecordCoverage(original, record);
  if (original.verdict == Verdict::kPass) {
    record.duration_ms = MillisSince(start);
    return result;
  }
  HistoryRun best = original;
  const int runs = ShrinkFailure(c, root, original, best, &result.minimized);
  FailureDetail f = DescribeFailure(c, original, best, runs, record);
  result.fixture = FailureFixture(c, best, record, f);
  record.failure = std::move(f);
  record.duration_ms = MillisSince(start);
  return result;
}

std::optional<Plan> PlanValue(const rc::Shrinkable<Plan>& shrinkable) {
  std::lock_guard<std::recursive_mutex> lock(RapidCheckMutex());
  try {
    return shrinkable.value();
  } catch (...) {
    return std::nullopt;
  }
}

int ShrinkPlan(const rc::Shrinkable<Plan>& root, int max_runs,
               const std::function<bool()>& out_of_time,
               const std::function<bool(const Plan&)>& accept) {
  rc::Shrinkable<Plan> current = root;
  int runs = 0;
  bool progressed = true;
  while (progressed && runs < max_runs && !out_of_time()) {
    progressed = false;
    std::unique_lock<std::recursive_mutex> lock(RapidCheckMutex());
    rc::Seq<rc::Shrinkable<Plan>> shrinks = current.shrinks();
    lock.unlock();
    for (;;) {
      lock.lock();
      rc::Maybe<rc::Shrinkable<Plan>> candidate = shrinks.next();
      lock.unlock();
      if (!candidate || runs >= max_runs || out_of_time()) break;
      const std::optional<Plan> plan = PlanValue(*candidate);
      if (!plan) continue;
      ++runs;
      if (accept(*plan)) {
        current = *candidate;
        progressed = true;
        break;
      }
    }
  }
  return runs;
}

}  // namespace ictk
