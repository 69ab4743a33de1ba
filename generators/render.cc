/// \file
/// HistoryRenderer: plan steps into protocol requests, threading the model state
/// (history.h). Each `Render*` function looks at the current table (its schema, live
/// rows, constraints, open transactions) and turns one abstract step into one request,
/// steering values so that collisions, violations and false status claims are likely.
///
/// This file holds the renderer, create-table, transactions and the dispatch of plain
/// steps; the steps of each kind are in the files render_internal.h lists.
#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "generators/history.h"
#include "generators/render_internal.h"
#include "generators/schema_gen.h"
#include "generators/value_gen.h"
#include "model/judge/rule_catalogue.h"
#include "model/iceberg/schema.h"

namespace ictk {
namespace render_internal {

RenderedStep Make(Operation op, const std::string& table, std::string label,
                  Intent intent, std::optional<RuleId> aimed_at, std::vector<RuleId> tags) {
  RenderedStep r;
  r.request.table = ActsOnTable(op) ? table : std::string();
  r.request.op = std::move(op);
  r.intent = intent;
  r.aimed_at = aimed_at;
  r.label = std::move(label);
  r.tags = std::move(tags);
  if (aimed_at && std::find(r.tags.begin(), r.tags.end(), *aimed_at) == r.tags.end())
    r.tags.insert(r.tags.begin(), *aimed_at);
  return r;
}

std::string Clause(RuleId rule, std::string_view name) {
  return fmt::format("{}/{}", RuleIdName(rule), name);
}

}  // namespace render_internal

namespace {

using namespace render_internal;

/// The clauses whose catalogue tag is `label` (a transaction's staged commit is tagged as
/// the commit itself).
std::vector<std::string> ClausesTaggedBy(std::string_view label) {
  static const std::map<std::string, std::vector<std::string>, std::less<>> by_tag = [] {
    std::map<std::string, std::vector<std::string>, std::less<>> m;
    for (const ClauseInfo& c : AllClauses())
      if (!c.tag.empty()) m[std::string(c.tag)].push_back(c.id);
    return m;
  }();
  constexpr std::string_view kStage = "transaction/stage-";
  if (label.substr(0, kStage.size()) == kStage) label.remove_prefix(kStage.size());
  auto it = by_tag.find(label);
  return it == by_tag.end() ? std::vector<std::string>{} : it->second;
}

std::optional<RenderedStep> RenderCreate(const Plan& plan, const RenderOptions& options) {
  std::optional<Schema> schema = PlanSchema(plan.table);
  if (!schema) return std::nullopt;
  CreateTable c;
  c.format_version = plan.table.format_version;
  c.schema = std::move(*schema);
  const bool ids = c.schema.identifier_field_ids.has_value();
  const Intent intent = c.format_version == 4 && ids ? Intent::kAny : Intent::kOk;
  return Make(
      std::move(c), options.table,
      fmt::format("create-table/v{}{}", plan.table.format_version,
                  ids ? "-identifiers" : ""),
      intent, std::nullopt,
      ids ? std::vector<RuleId>{RuleId::kUpgNoIdentifiersInV4} : std::vector<RuleId>{});
}


std::optional<RenderedStep> RenderPlain(const Ctx& ctx) {
  if (std::optional<RenderedStep> r = RenderUdfCarryChain(ctx)) return r;
  if (std::optional<RenderedStep> r = RenderPkParentOptional(ctx)) return r;
  switch (ctx.step.kind) {
    case StepKind::kAppend:
      return RenderAppend(ctx, std::nullopt);
    case StepKind::kDelete:
      return RenderDelete(ctx, std::nullopt);
    case StepKind::kOverwrite:
      return RenderOverwrite(ctx, std::nullopt, false);
    case StepKind::kModify:
      if (!ctx.caps().modify_rows) return std::nullopt;
      return RenderOverwrite(ctx, std::nullopt, true);
    case StepKind::kReplace:
      return RenderReplace(ctx);
    case StepKind::kAddConstraint:
      return RenderAddConstraint(ctx);
    case StepKind::kAddInvalidConstraint:
      return RenderAddInvalidConstraint(ctx);
    case StepKind::kUpdateConstraint:
      return RenderUpdateConstraint(ctx);
    case StepKind::kRemoveConstraint:
      return RenderRemoveConstraint(ctx);
    case StepKind::kUpdateSchema:
      if (!ctx.caps().schema_evolution) return std::nullopt;
      return RenderUpdateSchema(ctx);
    case StepKind::kUpgrade:
      if (!ctx.caps().upgrade) return std::nullopt;
      return RenderUpgrade(ctx);
    case StepKind::kTransaction:
      return std::nullopt;  // rendered through its slots
    case StepKind::kDefineFunction:
      if (!SendsUdfs(ctx.caps())) return std::nullopt;
      return RenderDefineFunction(ctx);
    case StepKind::kValidate:
      if (!ctx.caps().validate) return std::nullopt;
      return RenderValidate(ctx);
    case StepKind::kScan:
      return RenderScan(ctx);
    case StepKind::kLoadTable:
      return Make(LoadTable{}, ctx.options.table, "load-table", Intent::kOk);
    case StepKind::kReadStatuses:
      if (!ctx.caps().reader) return std::nullopt;
      return RenderReadStatuses(ctx);
    case StepKind::kParseMetadata:
      if (!ctx.caps().parse_metadata) return std::nullopt;
      return RenderParseMetadata(ctx);
  }
  return std::nullopt;
}

/// The staged commit of transaction `txn`, rendered on `base` (the table at its begin);
/// `serial`: sent as a plain commit (PlanStep::serial), not staged.
/// `append_only`: an append whatever the step's flavour (a nested transaction taking its
/// outer one's staged key).
std::optional<RenderedStep> RenderStagedOn(const Ctx& ctx, const TableState& base,
                                           const std::string& txn, bool serial,
                                           bool append_only = false) {
  Ctx at_base{ctx.state, &base, ctx.options, ctx.counters, ctx.step};
  const std::optional<std::string> staged_in =
      serial ? std::nullopt : std::optional<std::string>(txn);
  std::optional<RenderedStep> r;
  switch (append_only ? 0 : ctx.Flavour(6)) {
    case 0:
    case 1:
    case 2:
    default:
      r = RenderAppend(at_base, staged_in);
      break;
    case 3:
    case 4:
      r = RenderOverwrite(at_base, staged_in, false);
      break;
    case 5:
      r = RenderDelete(at_base, staged_in);
      break;
  }
  if (!r) r = RenderAppend(at_base, staged_in);
  if (!r) return std::nullopt;
  ctx.counters.staged_rows[txn] = std::get<Commit>(r->request.op).add;
  r->intent = Intent::kAny;
  r->aimed_at.reset();
  return r;
}

std::optional<RenderedStep> RenderStage(const Ctx& ctx, const std::string& txn,
                                        bool append_only) {
  auto it = ctx.table->transactions.find(txn);
  if (it == ctx.table->transactions.end() || it->second.staged) return std::nullopt;
  const TableState base = StateAtBase(*ctx.table, it->second.base, ctx.state.functions);
  return RenderStagedOn(ctx, base, txn, /*serial=*/false, append_only);
}

/// The rows `rows` holds under `txn`, or nullptr when none.
const std::vector<Row>* RowsOf(const std::map<std::string, std::vector<Row>>& rows,
                               const std::string& txn) {
  auto it = rows.find(txn);
  return it == rows.end() || it->second.empty() ? nullptr : &it->second;
}

/// Whether a commit takes the key of the first of `rows` (TakeKey), three times in four;
/// known before the commit is rendered.
bool MayTakeKey(const Ctx& ctx, const std::vector<Row>* rows) {
  return rows != nullptr && ctx.step.pick % 4 != 0;
}

/// When MayTakeKey, gives the first row that `r` (a commit) adds the key of the first of
/// `rows` (rows another open transaction stages or a nested one committed), so that one
/// of the two transactions' retries must see the other's row
/// (enf.retry-keys-new-parent); labelled `suffix`.
void TakeKey(const Ctx& ctx, const std::vector<Row>* rows, std::string_view suffix,
             RenderedStep& r) {
  Commit* commit = std::get_if<Commit>(&r.request.op);
  if (commit == nullptr || commit->add.empty() || !MayTakeKey(ctx, rows)) return;
  const Schema& schema = *ctx.schema();
  NormalizedRow row = NormalizeRow((*rows)[0].values, schema.fields);
  if (row.values)
    for (const Constraint& c : ctx.constraints())
      if (IsKey(c)) CopyKey(c, schema, *row.values, commit->add[0].values);
  r.label += suffix;
  r.tags.push_back(RuleId::kEnfRetryKeysNewParent);
}

/// A concurrent step inside a transaction: plain, except that an append may take the key
/// of a row the staged commit adds (enf.retry-keys-new-parent).
std::optional<RenderedStep> RenderConcurrent(const Ctx& ctx, const Slot& slot) {
  std::optional<RenderedStep> r = RenderPlain(ctx);
  if (!r) return r;
  // A concurrent update-constraint half the time enforces a constraint that is not
  // enforced yet (a check first), which the staged rows may break
  // (enf.retry-new-constraints/changed-to-enforced).
  if (std::holds_alternative<UpdateConstraint>(r->request.op) && ctx.step.pick % 2 == 0) {
    const Constraint* target = nullptr;
    for (const Constraint& c : ctx.constraints())
      if (c.name && !c.enforced.value_or(false) &&
          (target == nullptr || c.type == ConstraintType::kCheck))
        target = &c;
    if (target != nullptr) {
      UpdateConstraint u;
      u.name = *target->name;
      u.set.enforced = true;
      r = Make(std::move(u), ctx.options.table, "update-constraint/enforce", Intent::kAny,
               std::nullopt, {RuleId::kEnfEnforced, RuleId::kEnfRetryNewConstraints});
    }
  }
  r->label = "concurrent/" + r->label;
  TakeKey(ctx, RowsOf(ctx.counters.staged_rows, slot.txn), "-staged-key", *r);
  // A concurrent change can make the staged commit's retry fail; the concurrent step
  // itself is judged as usual.
  if (r->intent == Intent::kOk && std::holds_alternative<Commit>(r->request.op))
    r->intent = Intent::kAny;
  return r;
}

/// The flattened positions of plan step `i`, a transaction named `txn`: its begin, its
/// concurrent steps before or after its staged commit, its finish. A concurrent step
/// that is a transaction contributes its own begin, staged commit and finish (`outer`
/// is then the enclosing transaction's name).
void TransactionSlots(const PlanStep& s, int i, int inner, const std::string& txn,
                      const std::string& outer, std::vector<Slot>& slots) {
  slots.push_back({Slot::Role::kBegin, i, inner, txn, outer});
  auto concurrent = [&] {
    for (int j = 0; j < static_cast<int>(s.concurrent.size()); ++j) {
      if (s.concurrent[j].kind == StepKind::kTransaction)
        TransactionSlots(s.concurrent[j], i, j, fmt::format("{}-{}", txn, j + 1), txn,
                         slots);
      else
        slots.push_back({Slot::Role::kPlain, i, j, txn, {}});
    }
  };
  if (s.concurrent_before_staging) concurrent();
  slots.push_back({Slot::Role::kStage, i, inner, txn, outer});
  if (!s.concurrent_before_staging) concurrent();
  slots.push_back({Slot::Role::kFinish, i, inner, txn, outer});
}

}  // namespace

HistoryRenderer::HistoryRenderer(Plan plan, RenderOptions options)
    : plan_(std::move(plan)), options_(std::move(options)), setup_options_(options_) {
  setup_options_.capabilities = SetupCapabilities();
  slots_.push_back({Slot::Role::kCreate, -1, -1, {}, {}});
  for (int i = 0; i < static_cast<int>(plan_.steps.size()); ++i) {
    const PlanStep& s = plan_.steps[i];
    if (s.kind != StepKind::kTransaction) {
      slots_.push_back({Slot::Role::kPlain, i, -1, {}, {}});
      continue;
    }
    if (!options_.capabilities.concurrent_commits && options_.capabilities.writer) continue;
    TransactionSlots(s, i, -1, fmt::format("w{}", i + 1), {}, slots_);
  }
  if (options_.final_scan) {
    slots_.push_back({Slot::Role::kFinalScan, -1, -1, {}, {}});
    slots_.push_back({Slot::Role::kFinalLoad, -1, -1, {}, {}});
  }
}

void HistoryRenderer::ForgetRows(const std::string& txn) {
  counters_.staged_rows.erase(txn);
  counters_.nested_rows.erase(txn);
}

std::optional<RenderedStep> HistoryRenderer::RenderTransactionSlot(const Ctx& ctx,
                                                                  const Slot& slot) {
  const TableState& table = *ctx.table;
  const bool nested = !slot.outer_txn.empty();
  std::optional<RenderedStep> r;
  switch (slot.role) {
    case Slot::Role::kBegin:
      if (table.transactions.count(slot.txn)) break;
      ForgetRows(slot.txn);
      if (ctx.step.serial) {
        serial_[slot.txn] = {table, std::nullopt};
        break;
      }
      r = Make(Begin{slot.txn}, options_.table,
               nested ? "transaction/begin-nested" : "transaction/begin", Intent::kOk);
      break;
    case Slot::Role::kStage: {
      // A nested transaction may take the key of a row its outer one staged; an outer
      // one, staged after its nested ones, the key of a row one of them committed.
      const std::vector<Row>* source = nested
                                           ? RowsOf(counters_.staged_rows, slot.outer_txn)
                                           : RowsOf(counters_.nested_rows, slot.txn);
      const bool take_key = MayTakeKey(ctx, source);
      std::optional<RenderedStep>* staged = &r;
      if (!ctx.step.serial) {
        r = RenderStage(ctx, slot.txn, take_key);
      } else {
        auto it = serial_.find(slot.txn);
        if (it == serial_.end() || !it->second.base) break;
        it->second.held =
            RenderStagedOn(ctx, *it->second.base, slot.txn, /*serial=*/true, take_key);
        staged = &it->second.held;
      }
      if (!*staged) break;
      TakeKey(ctx, source, nested ? "-outer-key" : "-nested-key", **staged);
      if (nested)
        counters_.nested_rows[slot.outer_txn] = std::get<Commit>((*staged)->request.op).add;
      break;
    }
    case Slot::Role::kFinish: {
      if (ctx.step.serial) {
        auto it = serial_.find(slot.txn);
        if (it != serial_.end()) r = std::move(it->second.held);
        serial_.erase(slot.txn);
        ForgetRows(slot.txn);
        break;
      }
      auto it = table.transactions.find(slot.txn);
      if (it == table.transactions.end() || !it->second.staged) break;
      r = Make(Finish{slot.txn}, options_.table, "transaction/finish", Intent::kAny,
               std::nullopt,
               {RuleId::kEnfRetryEnforced, RuleId::kEnfRetryCheck,
                RuleId::kEnfRetryKeysNewParent, RuleId::kEnfRetryNewConstraints,
                RuleId::kEnfRetryRecomputeStatuses});
      ForgetRows(slot.txn);
      break;
    }
    default:
      break;
  }
  return r;
}

std::optional<RenderedStep> HistoryRenderer::Next(const CatalogState& state) {
  std::lock_guard<std::recursive_mutex> lock(RapidCheckMutex());
  static const PlanStep kNoStep{};
  while (cursor_ < slots_.size()) {
    const Slot slot = slots_[cursor_++];
    const TableState* table = state.FindTable(options_.table);
    std::optional<RenderedStep> r;
    // A reader profile is sent only its reader steps; everything else is setup that the
    // model performs alone, with every capability (GenReaderPlan).
    bool setup = false;
    if (!options_.capabilities.writer) {
      setup = true;
      if (slot.role == Slot::Role::kPlain && slot.step >= 0) {
        const PlanStep& s = slot.inner >= 0 ? plan_.steps[slot.step].concurrent[slot.inner]
                                            : plan_.steps[slot.step];
        setup = !IsReaderKind(s.kind);
      }
    }
    const RenderOptions& options = setup ? setup_options_ : options_;
    if (slot.role == Slot::Role::kCreate) {
      r = RenderCreate(plan_, options);
    } else {
      if (table == nullptr || table->metadata.CurrentSchema() == nullptr) {
        cursor_ = slots_.size();  // the table does not exist: nothing more to do
        return std::nullopt;
      }
      const PlanStep& step =
          slot.step < 0 ? kNoStep
                        : (slot.inner >= 0 ? plan_.steps[slot.step].concurrent[slot.inner]
                                           : plan_.steps[slot.step]);
      Ctx ctx{state, table, options, counters_, step, plan_.table.plain_values};
      switch (slot.role) {
        case Slot::Role::kPlain:
          r = slot.inner >= 0 ? RenderConcurrent(ctx, slot) : RenderPlain(ctx);
          break;
        case Slot::Role::kBegin:
        case Slot::Role::kStage:
        case Slot::Role::kFinish:
          r = RenderTransactionSlot(ctx, slot);
          break;
        case Slot::Role::kFinalScan:
          r = Make(Scan{}, options_.table, "final/scan", Intent::kOk, std::nullopt,
                   {RuleId::kSemLiveRows});
          break;
        case Slot::Role::kFinalLoad:
          r = Make(LoadTable{}, options_.table, "final/load-table", Intent::kOk);
          break;
        case Slot::Role::kCreate:
          break;
      }
    }
    if (!r) continue;
    if (r->clauses.empty()) r->clauses = ClausesTaggedBy(r->label);
    r->setup = setup;
    r->plan_index = slot.step;
    r->request.now_ms = options_.clock_start_ms + 1000 * counters_.requests++;
    return r;
  }
  return std::nullopt;
}

}  // namespace ictk
