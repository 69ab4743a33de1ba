/// \file
/// Plans, weights, the model-only rendering of a history and the op distribution
/// (history.h). The renderer itself is in render.cc.
#include "generators/history.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstdlib>
#include <ostream>
#include <set>
#include <string>

#include "generators/gen_internal.h"
#include "model/judge/operations.h"
#include "model/judge/rule_catalogue.h"

namespace ictk {
namespace {

struct KindName {
  StepKind kind;
  std::string_view name;
};

constexpr KindName kKindNames[] = {
    {StepKind::kAppend, "append"},
    {StepKind::kDelete, "delete"},
    {StepKind::kOverwrite, "overwrite"},
    {StepKind::kModify, "modify"},
    {StepKind::kReplace, "replace"},
    {StepKind::kAddConstraint, "add-constraint"},
    {StepKind::kAddInvalidConstraint, "add-invalid-constraint"},
    {StepKind::kUpdateConstraint, "update-constraint"},
    {StepKind::kRemoveConstraint, "remove-constraint"},
    {StepKind::kUpdateSchema, "update-schema"},
    {StepKind::kUpgrade, "upgrade"},
    {StepKind::kTransaction, "transaction"},
    {StepKind::kDefineFunction, "define-function"},
    {StepKind::kValidate, "validate"},
    {StepKind::kScan, "scan"},
    {StepKind::kLoadTable, "load-table"},
    {StepKind::kReadStatuses, "read-statuses"},
    {StepKind::kParseMetadata, "parse-metadata"},
};

rc::Gen<StepKind> GenKind(const HistoryGenConfig& config) {
  std::vector<std::pair<int, StepKind>> cumulative;
  int total = 0;
  for (StepKind k : kAllStepKinds) {
    if (!KindAllowed(k, config.capabilities)) continue;
    const int w = config.weights.Of(k);
    if (w <= 0) continue;
    total += w;
    cumulative.emplace_back(total, k);
  }
  if (total == 0) return rc::gen::just(StepKind::kScan);
  return rc::gen::noShrink(rc::gen::map(Uniform<int>(0, total), [cumulative](int x) {
    for (const auto& [bound, kind] : cumulative)
      if (x < bound) return kind;
    return cumulative.back().second;
  }));
}

/// The kinds committed concurrently inside a transaction: what makes a retry interesting
/// (rows with the staged keys, constraints added or set enforced, schema changes).
HistoryGenConfig ConcurrentConfig(const HistoryGenConfig& config) {
  HistoryGenConfig inner = config;
  for (auto& [kind, w] : inner.weights.weights) {
    if (w == 0) continue;
    switch (kind) {
      case StepKind::kAppend:
        w = 12;
        break;
      case StepKind::kAddConstraint:
        w = 6;
        break;
      case StepKind::kUpdateConstraint:
        w = 8;
        break;
      case StepKind::kUpdateSchema:
        w = 2;
        break;
      case StepKind::kTransaction:
        w = 16;
        break;
      case StepKind::kDelete:
      case StepKind::kOverwrite:
        w = 3;
        break;
      default:
        w = 1;
        break;
    }
  }
  return inner;
}

/// How deep transactions may nest where a step is generated: a history's own steps may be
/// transactions whose concurrent steps include another transaction (its begin, staged
/// commit and finish between the outer transaction's begin and finish), which has no
/// concurrent steps of its own.
enum class Nesting { kInner, kOuter };

rc::Gen<PlanStep> GenStep(const HistoryGenConfig& config, Nesting nesting) {
  return rc::gen::mapcat(GenKind(config), [config, nesting](StepKind kind) {
    rc::Gen<std::vector<PlanStep>> inner =
        kind == StepKind::kTransaction && nesting == Nesting::kOuter
            ? rc::gen::resize(3, rc::gen::container<std::vector<PlanStep>>(
                                     GenStep(ConcurrentConfig(config), Nesting::kInner)))
            : rc::gen::just(std::vector<PlanStep>{});
    return rc::gen::build<PlanStep>(
        rc::gen::set(&PlanStep::kind, rc::gen::just(kind)),
        rc::gen::set(&PlanStep::concurrent, inner),
        rc::gen::set(&PlanStep::count, Uniform<uint32_t>(1, 5)),
        rc::gen::set(&PlanStep::size, Uniform<int>(0, 101)),
        rc::gen::set(&PlanStep::flavour, Uniform<uint32_t>(0, 840)),
        rc::gen::set(&PlanStep::pick, Uniform<uint32_t>(0, 1000)),
        rc::gen::set(&PlanStep::concurrent_before_staging, rc::gen::arbitrary<bool>()),
        rc::gen::set(&PlanStep::seed, rc::gen::noShrink(rc::gen::arbitrary<uint64_t>())));
  });
}

/// The table of a plan at one of `versions` (v4 most of the time; older versions to
/// upgrade, or to be refused constraints). `upgrade`: whether the histories may upgrade.
/// `reader`: the metadata of a reader profile, at every version (v1 1, v2 2, v3 3, v4 4).
rc::Gen<TablePlan> GenTableAt(const std::set<int32_t>& declared, bool upgrade,
                              bool reader = false) {
  std::vector<std::pair<int, int32_t>> versions;
  int total = 0;
  for (int32_t v : declared) {
    if (v < 1 || v > 4) continue;
    const int w = reader ? v : v == 4 ? 10 : (upgrade ? 1 : 0) + (v == 3 ? 1 : 0);
    if (w == 0) continue;
    total += w;
    versions.emplace_back(total, v);
  }
  // Only versions that the weights above leave out (say v1 and v2 without upgrade):
  // each of them equally, never a version that was not declared.
  if (versions.empty())
    for (int32_t v : declared)
      if (v >= 1 && v <= 4) versions.emplace_back(++total, v);
  // No known version declared at all: CertifyCase skips such an implementation; the plan
  // keeps v4 so that the model-only renderings stay well defined.
  if (versions.empty()) versions.emplace_back(total = 1, 4);
  rc::Gen<int32_t> version = rc::gen::map(Uniform<int>(0, total), [versions](int x) {
    for (const auto& [bound, v] : versions)
      if (x < bound) return v;
    return versions.back().second;
  });
  return rc::gen::mapcat(rc::gen::noShrink(version), [](int32_t v) {
    rc::Gen<IdentifierFields> ids =
        v < 4 ? rc::gen::weightedElement<IdentifierFields>(
                    {{1, IdentifierFields::kNone},
                     {3, IdentifierFields::kEligible},
                     {v == 3 ? 1u : 0u, IdentifierFields::kIneligible}})
              : rc::gen::weightedElement<IdentifierFields>(
                    {{19, IdentifierFields::kNone}, {1, IdentifierFields::kEligible}});
    return rc::gen::build<TablePlan>(
        rc::gen::set(&TablePlan::format_version, rc::gen::just(v)),
        rc::gen::set(&TablePlan::schema_size, Uniform<int>(0, 101)),
        rc::gen::set(&TablePlan::identifier_fields, ids),
        rc::gen::set(&TablePlan::schema_seed,
                     rc::gen::noShrink(rc::gen::arbitrary<uint64_t>())));
  });
}

rc::Gen<TablePlan> GenTable(const HistoryGenConfig& config) {
  return GenTableAt(config.capabilities.format_versions, config.capabilities.upgrade);
}

}  // namespace

std::string_view ToString(StepKind kind) {
  for (const KindName& k : kKindNames)
    if (k.kind == kind) return k.name;
  return "?";
}

std::optional<StepKind> ParseStepKind(std::string_view text) {
  for (const KindName& k : kKindNames)
    if (k.name == text) return k.kind;
  return std::nullopt;
}

std::string_view ToString(Intent intent) {
  switch (intent) {
    case Intent::kOk:
      return "ok";
    case Intent::kReject:
      return "reject";
    case Intent::kAny:
      break;
  }
  return "any";
}

namespace {

std::string StepToString(const PlanStep& s) {
  std::string out = fmt::format("{}(f{},p{},n{},s{})", ToString(s.kind), s.flavour,
                                s.pick, s.count, s.size);
  if (s.kind == StepKind::kTransaction) {
    std::vector<std::string> inner;
    for (const PlanStep& c : s.concurrent) inner.push_back(StepToString(c));
    out += fmt::format("[{}{}{}]", s.serial ? "serial, " : "",
                       s.concurrent_before_staging ? "before: " : "after: ",
                       fmt::join(inner, ", "));
  }
  return out;
}

}  // namespace

std::string ToString(const Plan& plan) {
  std::vector<std::string> steps;
  for (const PlanStep& s : plan.steps) steps.push_back(StepToString(s));
  std::string edits;
  for (const SchemaEdit& e : plan.table.schema_edits) edits += " " + ToString(e);
  if (plan.table.plain_values) edits += " plain-values";
  return fmt::format("v{} table (schema seed {}, size {}{}); {}", plan.table.format_version,
                     plan.table.schema_seed, plan.table.schema_size, edits,
                     fmt::join(steps, "; "));
}

std::ostream& operator<<(std::ostream& os, const Plan& plan) {
  return os << ToString(plan);
}

GenWeights GenWeights::Default() {
  GenWeights w;
  w.weights = {
      {StepKind::kAppend, 14},
      {StepKind::kDelete, 5},
      {StepKind::kOverwrite, 6},
      {StepKind::kModify, 3},
      {StepKind::kReplace, 2},
      {StepKind::kAddConstraint, 10},
      // Raised from 6 so that each of the ~30 clauses an invalid constraint can break
      // alone (and each rare column type) is aimed at within the default 200 histories.
      {StepKind::kAddInvalidConstraint, 9},
      {StepKind::kUpdateConstraint, 4},
      {StepKind::kRemoveConstraint, 2},
      {StepKind::kUpdateSchema, 5},
      {StepKind::kUpgrade, 3},
      {StepKind::kTransaction, 5},
      {StepKind::kDefineFunction, 4},
      {StepKind::kValidate, 4},
      {StepKind::kScan, 3},
      {StepKind::kLoadTable, 1},
      {StepKind::kReadStatuses, 2},
      {StepKind::kParseMetadata, 1},
  };
  return w;
}

std::string GenWeights::Parse(std::string_view text) {
  size_t pos = 0;
  while (pos < text.size()) {
    size_t end = text.find(',', pos);
    if (end == std::string_view::npos) end = text.size();
    std::string_view item = text.substr(pos, end - pos);
    pos = end + 1;
    if (item.empty()) continue;
    const size_t eq = item.find('=');
    if (eq == std::string_view::npos)
      return fmt::format("weight '{}': expected KIND=N", item);
    std::optional<StepKind> kind = ParseStepKind(item.substr(0, eq));
    if (!kind) {
      std::string known;
      for (StepKind k : kAllStepKinds)
        known += (known.empty() ? "" : ", ") + std::string(ToString(k));
      return fmt::format("weight '{}': unknown step kind (known: {})", item, known);
    }
    const std::string number(item.substr(eq + 1));
    char* tail = nullptr;
    const long n = std::strtol(number.c_str(), &tail, 10);
    if (number.empty() || *tail != '\0' || n < 0 || n > 1000000)
      return fmt::format("weight '{}': expected a number 0..1000000", item);
    weights[*kind] = static_cast<int>(n);
  }
  return {};
}

int GenWeights::Of(StepKind kind) const {
  auto it = weights.find(kind);
  return it == weights.end() ? 0 : it->second;
}

std::recursive_mutex& RapidCheckMutex() {
  static std::recursive_mutex mutex;  // guards RapidCheck's process-wide state
  return mutex;
}

bool KindAllowed(StepKind kind, const Capabilities& c) {
  if (!c.writer && !IsReaderKind(kind)) return false;
  switch (kind) {
    case StepKind::kModify:
      return c.modify_rows;
    // Constraints exist from v4 on: a v1-v3 writer is sent none (docs/protocol.md
    // section 9, "Profiles"); `constraint-ops` narrows the ops ("Finer declarations").
    case StepKind::kAddConstraint:
    case StepKind::kAddInvalidConstraint:
      return c.SendsConstraintOp("add-constraint");
    case StepKind::kUpdateConstraint:
      return c.SendsConstraintOp("update-constraint");
    case StepKind::kRemoveConstraint:
      return c.SendsConstraintOp("remove-constraint");
    case StepKind::kUpdateSchema:
      return c.schema_evolution;
    case StepKind::kUpgrade:
      return c.upgrade;
    case StepKind::kTransaction:
      return c.concurrent_commits;
    case StepKind::kDefineFunction:
      return SendsUdfs(c);
    case StepKind::kValidate:
      return c.validate;
    case StepKind::kReadStatuses:
      return c.reader;
    case StepKind::kParseMetadata:
      return c.parse_metadata;
    default:
      return true;
  }
}

bool IsReaderKind(StepKind kind) {
  return kind == StepKind::kReadStatuses || kind == StepKind::kParseMetadata;
}

Capabilities SetupCapabilities() { return Capabilities::All(); }

namespace {

/// The generation config of a reader profile's plan: every capability for the setup
/// steps, the reader kinds as the implementation declared them.
HistoryGenConfig ReaderSetupConfig(const HistoryGenConfig& config) {
  HistoryGenConfig setup = config;
  setup.capabilities = SetupCapabilities();
  for (StepKind k : kAllStepKinds) {
    if (!IsReaderKind(k)) continue;
    // The reader requests are what the run is about: about one step in two, each only
    // when the implementation declared the capability it needs.
    setup.weights.weights[k] =
        KindAllowed(k, config.capabilities) && config.weights.Of(k) > 0
            ? std::max(config.weights.Of(k), k == StepKind::kParseMetadata ? 40 : 50)
            : 0;
  }
  return setup;
}

}  // namespace

rc::Gen<Plan> GenReaderPlan(const HistoryGenConfig& config) {
  const HistoryGenConfig setup = ReaderSetupConfig(config);
  // The model writes tables at every known version, declared or not: a reader is given
  // metadata it may refuse (proto.declared-versions) as well as metadata it must read.
  return rc::gen::build<Plan>(
      rc::gen::set(&Plan::steps,
                   rc::gen::resize(std::max(1, config.max_steps),
                                   rc::gen::container<std::vector<PlanStep>>(
                                       GenStep(setup, Nesting::kOuter)))),
      rc::gen::set(&Plan::table,
                   GenTableAt({1, 2, 3, 4}, /*upgrade=*/true, /*reader=*/true)));
}

rc::Gen<Plan> GenPlan(const HistoryGenConfig& config) {
  if (!config.capabilities.writer) return GenReaderPlan(config);
  return rc::gen::build<Plan>(
      rc::gen::set(&Plan::steps,
                   rc::gen::resize(std::max(1, config.max_steps),
                                   rc::gen::container<std::vector<PlanStep>>(
                                       GenStep(config, Nesting::kOuter)))),
      rc::gen::set(&Plan::table, GenTable(config)));
}

History RenderHistory(const Plan& plan, const RenderOptions& options,
                      CatalogState* final_state) {
  CatalogState local;
  CatalogState& state = final_state ? *final_state : local;
  HistoryRenderer renderer(plan, options);
  History history;
  history.table = options.table;
  while (std::optional<RenderedStep> step = renderer.Next(state)) {
    const AllowedOutcome outcome = Apply(state, step->request, options.switches);
    const Answer answer =
        CanonicalAnswer(state, step->request, outcome, options.switches);
    Adopt(state, step->request, answer, options.switches);
    history.steps.push_back(std::move(*step));
  }
  return history;
}

void Distribution::Add(const RenderedStep& step) {
  ++steps;
  ++ops[std::string(OpName(step.request.op))];
  ++labels[step.label];
  for (RuleId r : step.tags) ++tags[r];
  for (const std::string& c : step.clauses) ++clauses[c];
}

void Distribution::Merge(const Distribution& other) {
  steps += other.steps;
  for (const auto& [k, v] : other.ops) ops[k] += v;
  for (const auto& [k, v] : other.labels) labels[k] += v;
  for (const auto& [k, v] : other.tags) tags[k] += v;
  for (const auto& [k, v] : other.clauses) clauses[k] += v;
}

std::string Distribution::ToString() const {
  auto line = [](std::string_view title,
                 std::vector<std::pair<std::string, int64_t>> items) {
    std::sort(items.begin(), items.end(), [](const auto& a, const auto& b) {
      return a.second > b.second || (a.second == b.second && a.first < b.first);
    });
    if (items.empty()) return std::string();
    std::string out = fmt::format("{}:", title);
    for (const auto& [k, v] : items) out += fmt::format(" {}={}", k, v);
    return out + "\n";
  };
  std::vector<std::pair<std::string, int64_t>> o(ops.begin(), ops.end());
  std::vector<std::pair<std::string, int64_t>> l(labels.begin(), labels.end());
  std::vector<std::pair<std::string, int64_t>> t;
  for (const auto& [r, v] : tags) t.emplace_back(std::string(RuleIdName(r)), v);
  return fmt::format("{} requests\n", steps) + line("ops", o) + line("steps", l) +
         line("rule tags", t);
}

}  // namespace ictk
