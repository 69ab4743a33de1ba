/// \file
/// The properties: one history run on the model and on an implementation step by step.
/// Each request is rendered from the adopted state (generators/history.h), judged by the
/// model (Apply, then Judge of the decoded answer), checked for the invariants Judge does
/// not see (a rejected request changes nothing: `load-table` after it answers the state
/// before it; every returned metadata keeps IDs, timestamps and status lists sane), and
/// the implementation's legal choices are adopted (Adopt) before the next step.
///
/// A case is one generated plan (from the seed and the case index, never from
/// scheduling); a failing case is shrunk over RapidCheck's shrink tree of the plan —
/// steps are removed first, then values simplified — keeping only candidates that fail
/// the same way, and the minimal history becomes a fixture file (FIXTURES.md) with a
/// replay command and prose.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "generators/history.h"
#include "model/judge/rule_catalogue.h"
#include "model/rules/finding.h"
#include "model/judge/outcome.h"
#include "model/rules/switches.h"
#include "adapters/session.h"
#include "reports/report.h"

namespace ictk {

/// One request of a run.
struct StepOutcome {
  RenderedStep step;
  nlohmann::json request;                  ///< as sent, with "id"
  /// As answered. An answer that came as a `metadata-delta` (docs/protocol.md section 7)
  /// stays so while its history passes; when the history fails, each such answer carries
  /// instead the whole `metadata` it stood for, for the report and the failure fixture
  /// (the same whatever --jobs and shards numbered the session's requests).
  std::optional<nlohmann::json> response;
  /// The `load-table` sent after a rejected request (a rejected request changes
  /// nothing) and its answer, kept when answers may be metadata deltas: a later delta
  /// may be based on it.
  std::optional<nlohmann::json> followup_request, followup_response;
  std::string allowed;                     ///< the allowed outcome, in words
  std::string answered;                    ///< the answer, in words
  Findings findings;                       ///< why the step failed (empty: it passed)
  /// The clause the failing answer broke, when a clause's knock-out admits it
  /// (model/judge/blame.h); "" otherwise.
  std::string clause;
  /// The fixture expectation of this step (FIXTURES.md `expect`).
  nlohmann::json expect;
  /// Rules the step exercised: positive (the rule allowed the answer) or negative (it
  /// required a rejection).
  std::vector<std::pair<RuleId, bool>> exercised;
  /// Clauses (catalogue entries, AllClauses) the step exercised by the rule book's own rulings, whatever its label named:
  /// a status a writer listing it would break a half of (ClauseBrokenByListedStatus), a
  /// check calling a UDF whose parent status may not be kept, a read where the constraint's
  /// date would change the status (TimestampWouldChangeReaderStatus), ...; ClausesExercised
  /// adds them to the clauses the label named.
  std::vector<std::pair<const ClauseInfo*, bool>> exercised_clauses;
};

/// The clauses ("<rule>/<name>") a step exercised, each with its side (true: negative, the
/// rule required a rejection): a clause of a rule the step exercised, when the step named
/// it (RenderedStep::clauses) or its rule has no other clause, and every clause of
/// StepOutcome::exercised_clauses. The one definition of a
/// clause's coverage: certify counts it per step, the corpus credits a fixture with it
/// (docs/rules.md, "Clause coverage of a run").
std::vector<std::pair<const ClauseInfo*, bool>> ClausesExercised(const StepOutcome& step);

/// One history run on one adapter.
struct HistoryRun {
  Verdict verdict = Verdict::kPass;
  std::vector<StepOutcome> steps;
  int failed_step = -1;  ///< index into `steps`, -1 when it passed
  Findings findings;     ///< of the failed step
  std::string clause;    ///< of the failed step (StepOutcome::clause)
  /// The failed step's rule before the blame re-filed it (BlameResult::judged_rule);
  /// shrinking keeps it, so the minimized history is blamed afresh.
  std::optional<RuleId> judged_rule;
  std::string reason;    ///< for crash / timeout / protocol-error / error / skip
  std::map<std::string, PrecisionCount> precision;
  Distribution distribution;
  /// The setup steps the model alone performed (a reader profile's inputs), each with the
  /// number of `steps` before it: FixtureExpectations performs them again.
  std::vector<std::pair<size_t, Request>> setups;
  /// The primary rule of a failure (the first finding's), for comparing shrink
  /// candidates.
  std::optional<RuleId> primary_rule() const {
    if (findings.empty()) return std::nullopt;
    return findings.front().rule;
  }
};

/// "A rejected request changes nothing": what differs between the metadata before a
/// rejected request and what load-table answered after it ("" when nothing does). Compared
/// by meaning: the order of constraints, of a key's field-ids, of snapshots and of each
/// status list is free, and an empty status list may be written or left out.
std::string MetadataDifference(const TableMetadata& before, const TableMetadata& after);

/// Replaces in each answer of `steps` that came as a `metadata-delta` the delta by the
/// whole `metadata` it stands for, rebuilt from the answers before it in order, as the
/// session rebuilt them while the history ran. RunHistory does it for a history that
/// failed: reports and failure fixtures read answers whole.
void ExpandMetadataDeltas(std::vector<StepOutcome>& steps);

/// The fixture expectation of each step of the failed `run`: the step's own
/// (StepOutcome::expect, set by the runner only where the failure changes it), else the
/// one the model's state before the step gives, from the one step loop run again over
/// the recorded requests and answers (whole: RunHistory expands a failed run's deltas)
/// and the setup steps. Computed only for the history a fixture is written of, not for
/// every step or every shrink candidate.
std::vector<nlohmann::json> FixtureExpectations(const HistoryRun& run,
                                                const Switches& switches);

/// Runs `plan` on `session` under `switches`, rendering against the adopted state.
HistoryRun RunHistory(AdapterSession& session, const Plan& plan,
                      const RenderOptions& options, const Switches& switches);

/// Everything a certification run needs to know per case.
struct CertifyOptions {
  Switches switches;
  HistoryGenConfig gen;  ///< capabilities are narrowed to the adapter's
  uint64_t seed = 1;
  bool shrink = true;
  int shrink_budget = 400;  ///< histories run while shrinking, at most
  int64_t shrink_time_budget_ms = 60'000;
  std::string adapter_spec;               ///< for the replay and reproduce commands
  std::string failures_dir = "failures";  ///< fixture paths, relative to the run dir
  std::string out_dir;                    ///< the run dir as given on the command line
  /// Flags that must be repeated to reproduce a case (--max-steps, --switch ...).
  std::string reproduce_flags;
  /// The start of the reproduce command (CertifyRunOptions::reproduce_prefix).
  std::string reproduce_prefix = "ictk";
  std::string tool = "ictk";  ///< "ictk 0.1.0", for generated-by
  std::string model_version;
};

/// A fixture file to write: its path relative to the run dir and its content.
struct FixtureFile {
  std::string path;
  std::string id;
  nlohmann::json content;
};

struct CaseResult {
  CaseRecord record;
  std::optional<FixtureFile> fixture;
  /// The minimized plan of a failure that was shrunk (properties/minimize.h).
  std::optional<Plan> minimized;
};

// VerdictOf (the verdict of a transport failure) and ShellQuote (the words of a replay
// or reproduce command) are fixtures/replay.h's, shared with the fixture replay.

/// The case ID of random case `index` under `seed`: "random/s<seed>/<index>".
std::string RandomCaseId(uint64_t seed, int64_t index);

/// Where case `index` runs: its table name, function prefix and clock from the seed and
/// the index; `attempt` > 0 for shrink candidates (fresh tables on the same adapter).
RenderOptions CaseRenderOptions(uint64_t seed, int64_t index, int attempt,
                                const Capabilities& capabilities,
                                const Switches& switches);

/// The plan of case `index`, as a shrinkable (deterministic in seed and index).
rc::Shrinkable<Plan> CasePlan(uint64_t seed, int64_t index,
                              const HistoryGenConfig& config);

/// The value of a plan's shrinkable under RapidCheck's lock; nullopt when generating it
/// throws (a discarded candidate).
std::optional<Plan> PlanValue(const rc::Shrinkable<Plan>& shrinkable);

/// Greedy descent of RapidCheck's shrink tree of `root` (steps removed first, then values
/// simplified): at each level the first candidate plan that `accept` takes becomes the new
/// root, until a level has none, `max_runs` candidates were tried or `out_of_time` says
/// so (checked before each candidate). RapidCheck's process-wide state is locked around
/// each step of the tree. Returns the number of candidates tried. The certify runner and
/// spec-diff both shrink with it.
int ShrinkPlan(const rc::Shrinkable<Plan>& root, int max_runs,
               const std::function<bool()>& out_of_time,
               const std::function<bool(const Plan&)>& accept);

/// Generates, runs and (on failure) shrinks case `index`.
CaseResult CertifyCase(AdapterSession& session, int64_t index,
                       const CertifyOptions& options);

}  // namespace ictk
