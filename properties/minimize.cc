/// \file
/// The minimizer's passes after the shrink tree (minimize.h).
#include "properties/minimize.h"

#include <algorithm>
#include <string>
#include <vector>

#include "properties/runner.h"

namespace ictk {
namespace {

struct Budget {
  int max_runs;
  const std::function<bool()>& out_of_time;
  const std::function<bool(const Plan&)>& accept;
  int runs = 0;
  bool exhausted = false;

  /// Tries `candidate`; true when it was accepted (and `plan` became it).
  bool Try(Plan& plan, Plan candidate) {
    if (exhausted || candidate == plan) return false;
    if (runs >= max_runs || out_of_time()) {
      exhausted = true;
      return false;
    }
    ++runs;
    if (!accept(candidate)) return false;
    plan = std::move(candidate);
    return true;
  }
};

bool TryEdits(Budget& b, Plan& plan, SchemaEditKind kind) {
  bool changed = false;
  // Columns are re-read after every accepted edit (unnesting adds columns).
  for (bool again = true; again && !b.exhausted;) {
    again = false;
    const std::optional<Schema> schema = PlanSchema(plan.table);
    if (!schema) return changed;
    for (const NestedField& f : schema->fields) {
      const SchemaEdit edit{kind, f.name};
      if (!EditApplies(*schema, edit)) continue;
      Plan candidate = plan;
      candidate.table.schema_edits.push_back(edit);
      if (b.Try(plan, std::move(candidate))) {
        changed = again = true;
        break;
      }
      if (b.exhausted) break;
    }
  }
  return changed;
}

bool TrySteps(Budget& b, Plan& plan) {
  bool changed = false;
  for (size_t i = plan.steps.size(); i-- > 0 && !b.exhausted;) {
    Plan candidate = plan;
    candidate.steps.erase(candidate.steps.begin() + static_cast<std::ptrdiff_t>(i));
    if (b.Try(plan, std::move(candidate))) {
      changed = true;
      continue;
    }
    for (size_t j = plan.steps[i].concurrent.size(); j-- > 0 && !b.exhausted;) {
      Plan inner = plan;
      auto& concurrent = inner.steps[i].concurrent;
      concurrent.erase(concurrent.begin() + static_cast<std::ptrdiff_t>(j));
      if (b.Try(plan, std::move(inner))) changed = true;
    }
  }
  return changed;
}

/// Applies `change` to each step and concurrent step in turn (a candidate each).
template <typename Change>
bool TryEachStep(Budget& b, Plan& plan, Change change) {
  bool changed = false;
  for (size_t i = 0; i < plan.steps.size() && !b.exhausted; ++i) {
    Plan candidate = plan;
    if (change(candidate.steps[i]) && b.Try(plan, std::move(candidate))) changed = true;
    for (size_t j = 0; j < plan.steps[i].concurrent.size() && !b.exhausted; ++j) {
      Plan inner = plan;
      if (change(inner.steps[i].concurrent[j]) && b.Try(plan, std::move(inner)))
        changed = true;
    }
  }
  return changed;
}

}  // namespace

MinimizeStats MinimizeFurther(Plan& plan, int max_runs,
                              const std::function<bool()>& out_of_time,
                              const std::function<bool(const Plan&)>& accept) {
  Budget b{max_runs, out_of_time, accept};
  bool changed = true;
  while (changed && !b.exhausted) {
    changed = false;
    changed |= TryEdits(b, plan, SchemaEditKind::kDrop);
    changed |= TrySteps(b, plan);
    // Each transaction played serially: a failure that remains without the retry was
    // not the retry's (PlanStep::serial).
    changed |= TryEachStep(b, plan, [](PlanStep& s) {
      if (s.kind != StepKind::kTransaction || s.serial) return false;
      s.serial = true;
      return true;
    });
    // One row fewer, again while it is taken (a step renders 1..4 rows).
    while (TryEachStep(b, plan, [](PlanStep& s) {
      if (s.count <= 1) return false;
      --s.count;
      return true;
    }))
      changed = true;
    if (TryEdits(b, plan, SchemaEditKind::kUnnest)) {
      changed = true;
      TryEdits(b, plan, SchemaEditKind::kDrop);
    }
    changed |= TryEdits(b, plan, SchemaEditKind::kLower);
    changed |= TryEachStep(b, plan, [](PlanStep& s) {
      if (s.size == 0) return false;
      s.size = 0;
      return true;
    });
    if (!plan.table.plain_values) {
      Plan candidate = plan;
      candidate.table.plain_values = true;
      changed |= b.Try(plan, std::move(candidate));
    }
    if (plan.table.identifier_fields != IdentifierFields::kNone) {
      Plan candidate = plan;
      candidate.table.identifier_fields = IdentifierFields::kNone;
      changed |= b.Try(plan, std::move(candidate));
    }
  }
  MinimizeStats stats;
  stats.fixpoint = !b.exhausted;
  // Plain names last (a, b, c; id for identifier fields): a renamed column makes nothing
  // smaller, only easier to read, so it ends the passes.
  if (!b.exhausted)
    if (const std::optional<Schema> schema = PlanSchema(plan.table)) {
      const SchemaEdit edit{SchemaEditKind::kPlainNames, ""};
      if (EditApplies(*schema, edit)) {
        Plan candidate = plan;
        candidate.table.schema_edits.push_back(edit);
        b.Try(plan, std::move(candidate));
      }
    }
  stats.further_runs = b.runs;
  return stats;
}

MinimizeStats MinimizePlan(const rc::Shrinkable<Plan>& root, int max_runs,
                           const std::function<bool()>& out_of_time,
                           const std::function<bool(const Plan&)>& accept,
                           std::optional<Plan>* result) {
  std::optional<Plan> best = PlanValue(root);
  MinimizeStats stats;
  stats.tree_runs = ShrinkPlan(root, max_runs, out_of_time, [&](const Plan& p) {
    if (!accept(p)) return false;
    best = p;
    return true;
  });
  if (best) {
    const MinimizeStats further = MinimizeFurther(*best, max_runs, out_of_time, accept);
    stats.further_runs = further.further_runs;
    stats.fixpoint = further.fixpoint;
  }
  if (result) *result = std::move(best);
  return stats;
}

std::optional<Plan> MinimizeUpToStep(Plan plan, int at,
                                     const std::function<bool(const Plan&)>& holds) {
  plan.steps.resize(static_cast<size_t>(std::max(at + 1, 0)));
  if (!holds(plan)) return std::nullopt;
  for (int size : {0, 2}) {
    if (plan.table.schema_size <= size) break;
    Plan q = plan;
    q.table.schema_size = size;
    if (holds(q)) {
      plan = std::move(q);
      break;
    }
  }
  for (int k = static_cast<int>(plan.steps.size()) - 2; k >= 0; --k) {
    Plan q = plan;
    q.steps.erase(q.steps.begin() + k);
    if (holds(q)) plan = std::move(q);
  }
  if (!plan.steps.empty() && !plan.steps.back().concurrent.empty()) {
    for (int k = static_cast<int>(plan.steps.back().concurrent.size()) - 1; k >= 0; --k) {
      Plan q = plan;
      auto& c = q.steps.back().concurrent;
      if (c.size() <= 1) break;
      c.erase(c.begin() + k);
      if (holds(q)) plan = std::move(q);
    }
  }
  return plan;
}

}  // namespace ictk
