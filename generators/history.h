/// \file
/// Random commit histories as data (STYLE.md "Generators and properties"). A history is
/// generated in two layers:
///
/// - a `Plan`: the table to create and a list of abstract `PlanStep`s (an append that
///   collides with a live key, a delete of some of the rows that break a check, a
///   transaction with a concurrent constraint add, ...). A plan is what RapidCheck
///   generates and shrinks: removing steps first (container shrinking), then simplifying
///   each step (smaller `size` = simpler values, lower `flavour` = plainer variant, fewer
///   rows).
/// - the protocol requests: `HistoryRenderer` renders each plan step into concrete
///   requests by threading the model state (the rows, constraints, schema and open
///   transactions after the previous step), so that every sub-plan renders into a valid
///   history: a step whose precondition no longer holds (a delete on an empty table, a
///   `finish` without a staged commit) is repaired or dropped.
///
/// The same renderer serves the model alone (RenderHistory: each step answered with the
/// model's CanonicalAnswer) and a run against an implementation (properties/), where the
/// state after each step is the implementation's adopted answer, so its legal choices
/// (constraint IDs, snapshot IDs, field IDs) flow into later requests.
#pragma once

#include <rapidcheck.h>

#include <cstdint>
#include <iosfwd>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "generators/capabilities.h"
#include "generators/schema_edits.h"
#include "generators/schema_gen.h"
#include "generators/value_gen.h"
#include "model/judge/requests.h"
#include "model/rules/constraint_rules.h"
#include "model/rules/rule_id.h"
#include "model/rules/switches.h"
#include "model/judge/table_state.h"

namespace ictk {

/// The abstract kinds of plan steps.
enum class StepKind {
  kAppend,
  kDelete,
  kOverwrite,
  kModify,
  kReplace,
  kAddConstraint,
  kAddInvalidConstraint,
  kUpdateConstraint,
  kRemoveConstraint,
  kUpdateSchema,
  kUpgrade,
  kTransaction,  ///< begin, a staged commit, concurrent steps, finish
  kDefineFunction,
  kValidate,
  kScan,
  kLoadTable,
  kReadStatuses,
  kParseMetadata,
};

inline constexpr StepKind kAllStepKinds[] = {StepKind::kAppend,
                                             StepKind::kDelete,
                                             StepKind::kOverwrite,
                                             StepKind::kModify,
                                             StepKind::kReplace,
                                             StepKind::kAddConstraint,
                                             StepKind::kAddInvalidConstraint,
                                             StepKind::kUpdateConstraint,
                                             StepKind::kRemoveConstraint,
                                             StepKind::kUpdateSchema,
                                             StepKind::kUpgrade,
                                             StepKind::kTransaction,
                                             StepKind::kDefineFunction,
                                             StepKind::kValidate,
                                             StepKind::kScan,
                                             StepKind::kLoadTable,
                                             StepKind::kReadStatuses,
                                             StepKind::kParseMetadata};

/// "append", "add-invalid-constraint", "transaction", ...
std::string_view ToString(StepKind kind);
std::optional<StepKind> ParseStepKind(std::string_view text);

/// One abstract step. Every choice is a small number the renderer reduces modulo what the
/// state offers, so any value renders; 0 is the plainest choice.
struct PlanStep {
  StepKind kind = StepKind::kAppend;
  uint32_t flavour =
      0;               ///< which variant of the step (collide, violate, remove some, ...)
  uint32_t pick = 0;   ///< which constraint, row, field or target rule
  uint32_t count = 1;  ///< how many rows (1..4)
  int size = 0;        ///< value complexity, the RapidCheck size the values are drawn at
  uint64_t seed = 0;   ///< the values
  /// kTransaction: steps committed concurrently, and whether they run before the staged
  /// commit (the staged commit is then checked against the pinned base) or after it.
  /// A concurrent step may itself be a transaction (with no concurrent steps of its own):
  /// its begin, staged commit and finish come where the step is, so that its finish is a
  /// concurrent commit the outer transaction's retry must see; its staged commit may take
  /// the key of a row the outer one stages.
  std::vector<PlanStep> concurrent;
  bool concurrent_before_staging = false;
  /// Made by the minimizer (properties/minimize.h), never generated: the transaction
  /// played serially — no begin or finish, its staged commit (rendered on the base as
  /// before) sent as a plain commit where finish would be, after the concurrent steps.
  /// The same rows and constraints, no retry: a failure that remains was not the retry's.
  bool serial = false;
  bool operator==(const PlanStep&) const = default;
};

/// The table a history creates.
struct TablePlan {
  int32_t format_version = 4;
  uint64_t schema_seed = 0;
  int schema_size = 0;
  IdentifierFields identifier_fields = IdentifierFields::kNone;
  /// Made by the minimizer (properties/minimize.h), never generated: edits applied in
  /// order to the schema generated from `schema_seed` (schema_edits.h), and rows drawn
  /// without edge values or respellings (plain values: at a step's size 0, every value is
  /// 0, "" or null).
  std::vector<SchemaEdit> schema_edits;
  bool plain_values = false;
  bool operator==(const TablePlan&) const = default;
};

struct Plan {
  TablePlan table;
  std::vector<PlanStep> steps;
  bool operator==(const Plan&) const = default;
};

/// The schema `create-table` carries for `table`: generated from its schema seed and
/// size, with its schema edits applied (generators/schema_edits.cc).
std::optional<Schema> PlanSchema(const TablePlan& table);

/// A readable form of a plan ("v4 table; append(f3,p17,n2,s40); transaction[...]"), so
/// RapidCheck and gtest print counterexamples.
std::string ToString(const Plan& plan);
std::ostream& operator<<(std::ostream& os, const Plan& plan);

/// Relative weights of the step kinds; a kind with weight 0 is never generated.
struct GenWeights {
  std::map<StepKind, int> weights;
  /// The default mix: mostly row commits and constraint changes.
  static GenWeights Default();
  /// Parses "append=10,delete=3,..." on top of the defaults; returns an error message
  /// (empty on success).
  std::string Parse(std::string_view text);
  int Of(StepKind kind) const;
};

/// What histories are generated for.
struct HistoryGenConfig {
  Capabilities capabilities = Capabilities::All();
  GenWeights weights = GenWeights::Default();
  int max_steps = 20;  ///< plan steps (a transaction counts once)
};


/// Whether the capabilities allow a step kind at all: a reader profile
/// (`Capabilities::writer` false) only the reader kinds, and only those it declared; a
/// writer without format version 4 no constraint changes.
bool KindAllowed(StepKind kind, const Capabilities& capabilities);

/// The kinds a reader profile is sent: read-statuses and parse-metadata.
bool IsReaderKind(StepKind kind);

/// What the model itself may do to prepare a reader's inputs: every capability.
Capabilities SetupCapabilities();

/// A plan for `config`: GenReaderPlan for a reader profile, otherwise a writer's plan
/// whose table is created at a declared format version (never a silent fallback to v4).
rc::Gen<Plan> GenPlan(const HistoryGenConfig& config);

/// The plan of a reader profile. Its writer steps are *setup*: the model alone performs
/// them (the renderer marks them `RenderedStep::setup`; the runner never sends them) so
/// that the table's metadata has constraints, snapshots and statuses; its reader steps
/// (`read-statuses`, `parse-metadata`, as the implementation declared them) are sent,
/// carrying metadata the model wrote. The table is created at any known format version,
/// declared or not. This is the one place that decides what a reader is given: extend
/// it (and RenderReadStatuses / RenderParseMetadata in render.cc) for new reader inputs.
rc::Gen<Plan> GenReaderPlan(const HistoryGenConfig& config);

/// What the generator intends a step's outcome to be. `kAny` where the spec lets the
/// implementation choose or the generator did not steer the values.
enum class Intent { kAny, kOk, kReject };
std::string_view ToString(Intent intent);

/// One rendered request.
struct RenderedStep {
  Request request;
  Intent intent = Intent::kAny;
  std::optional<RuleId> aimed_at;  ///< for kReject: the rule the step is aimed at
  std::string label;               ///< "append/collide-live", "transaction/finish", ...
  std::vector<RuleId> tags;        ///< rules the step means to exercise
  /// The clauses ("<rule>/<name>", rule_catalogue.h) the step exercises alone: the one it
  /// breaks for a step aimed at a rule, else those whose catalogue tag is the step's label.
  std::vector<std::string> clauses;
  int plan_index = -1;  ///< the plan step it came from (-1: create, final scan)
  /// Performed by the model alone, never sent to the implementation: the writer steps
  /// that prepare a reader profile's inputs (GenReaderPlan).
  bool setup = false;
};

/// Where a history runs: its table, function-name prefix and clock, derived from the seed
/// and the case index (never from scheduling), and what the implementation supports.
struct RenderOptions {
  std::string table = "t";
  std::string function_prefix = "t_";
  int64_t clock_start_ms = 1'700'000'000'000;
  Capabilities capabilities = Capabilities::All();
  Switches switches;
  /// Append a `scan` and a `load-table` after the last plan step.
  bool final_scan = true;
};

namespace render_internal {
struct Ctx;
}  // namespace render_internal

/// Renders a plan step by step against whatever state the caller threads through.
class HistoryRenderer {
 public:
  HistoryRenderer(Plan plan, RenderOptions options);

  /// The next request for `state` (the catalog after every request so far), or nullopt
  /// when the plan is done. Steps whose preconditions do not hold are skipped.
  std::optional<RenderedStep> Next(const CatalogState& state);

  const Plan& plan() const { return plan_; }
  const RenderOptions& options() const { return options_; }

  /// One position in the flattened plan.
  struct Slot {
    enum class Role { kCreate, kPlain, kBegin, kStage, kFinish, kFinalScan, kFinalLoad };
    Role role = Role::kPlain;
    int step = -1;   ///< index into plan().steps
    int inner = -1;  ///< index into its `concurrent` steps, or -1
    std::string txn;
    /// kBegin, kStage, kFinish of a transaction nested in another's concurrent steps:
    /// the outer transaction's name.
    std::string outer_txn;
  };

  /// Counters that make names, keys and fresh values unique within the history.
  struct Counters {
    int64_t requests = 0;
    int next_row = 1;
    int next_name = 1;
    int64_t next_fresh = 1'000'000;
    /// The rows each open transaction's staged commit adds, by transaction name.
    std::map<std::string, std::vector<Row>> staged_rows;
    /// By outer transaction: the rows its latest nested transaction staged.
    std::map<std::string, std::vector<Row>> nested_rows;
  };

 private:
  /// The begin, staged commit or finish of a transaction (render.cc).
  std::optional<RenderedStep> RenderTransactionSlot(const render_internal::Ctx& ctx,
                                                    const Slot& slot);
  /// Drops what the counters keep of transaction `txn`'s rows (at its begin and finish).
  void ForgetRows(const std::string& txn);

  Plan plan_;
  RenderOptions options_;
  RenderOptions setup_options_;  ///< options_ with SetupCapabilities()
  std::vector<Slot> slots_;
  size_t cursor_ = 0;
  Counters counters_;
  /// A serial transaction (PlanStep::serial): the table at its begin, and its staged
  /// commit until the finish's position; by transaction name (one may be nested in
  /// another).
  struct SerialTransaction {
    std::optional<TableState> base;
    std::optional<RenderedStep> held;
  };
  std::map<std::string, SerialTransaction> serial_;
};

/// A history rendered on the model alone: every request answered with the model's
/// CanonicalAnswer and adopted.
struct History {
  std::string table;
  std::vector<RenderedStep> steps;
};
History RenderHistory(const Plan& plan, const RenderOptions& options,
                      CatalogState* final_state = nullptr);

/// Counts of ops, step labels and rule tags over histories (printed by every run).
struct Distribution {
  std::map<std::string, int64_t> ops;
  std::map<std::string, int64_t> labels;
  std::map<RuleId, int64_t> tags;
  std::map<std::string, int64_t> clauses;  ///< clause ID -> steps naming it
  int64_t steps = 0;
  void Add(const RenderedStep& step);
  void Merge(const Distribution& other);
  /// A few lines: ops by count, labels, rule tags.
  std::string ToString() const;
};

}  // namespace ictk
