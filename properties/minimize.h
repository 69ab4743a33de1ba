/// \file
/// Minimal means minimal: the passes that run after the walk of RapidCheck's shrink tree
/// (ShrinkPlan, runner.h) on a plan that still fails (certify) or disagrees (spec-diff,
/// review) the same way. The shrink tree removes steps and simplifies each step's
/// numbers, but the table keeps every column its schema seed gave it (four fixed ones and
/// up to six more: geography, decimals, lists, structs) and values keep their edges. The
/// passes, repeated until a round changes nothing:
///
/// 1. drop each top-level column (SchemaEditKind::kDrop);
/// 2. remove each step, and each concurrent step of a transaction; then play each
///    transaction serially (PlanStep::serial: its staged commit as a plain commit after
///    the concurrent steps, no retry), so that a failure that is not the retry's is shown
///    without one and blamed on the clause it breaks (model/judge/blame.h);
/// 3. one row fewer in each step (`count`);
/// 4. unnest each struct column (kUnnest), then try dropping again;
/// 5. lower each column's type to `int` (kLower);
/// 6. values toward 0, "" and null: each step's `size` to 0, then plain values (no edge
///    values, no respellings; TablePlan::plain_values);
/// 7. a table without identifier fields.
///
/// Then, once, plain names (SchemaEditKind::kPlainNames): the columns become `a`, `b`,
/// `c` (`id` for an identifier field), as a person would write the table, in the step
/// table and the fixture alike; kept only when `accept` still takes the plan.
///
/// Each candidate is kept when `accept` takes it. When the passes end without running out
/// of budget or time, no single column, step or row can be removed from the result
/// without losing the failure (tests/properties/minimize_test.cc checks it).
#pragma once

#include <rapidcheck.h>

#include <functional>
#include <optional>

#include "generators/history.h"

namespace ictk {

struct MinimizeStats {
  int tree_runs = 0;     ///< candidates tried on the shrink tree (ShrinkPlan)
  int further_runs = 0;  ///< candidates tried by the passes
  bool fixpoint = false;  ///< the passes ended because a round changed nothing
};

/// The passes on `plan` (which `accept` already took), changing it in place. At most
/// `max_runs` candidates; `out_of_time` is checked before each.
MinimizeStats MinimizeFurther(Plan& plan, int max_runs,
                              const std::function<bool()>& out_of_time,
                              const std::function<bool(const Plan&)>& accept);

/// ShrinkPlan over `root`'s shrink tree, then MinimizeFurther from the last plan accepted
/// (or the root's value), each with a budget of `max_runs`. `result` receives the
/// minimized plan (nullopt when the root does not generate).
MinimizeStats MinimizePlan(const rc::Shrinkable<Plan>& root, int max_runs,
                           const std::function<bool()>& out_of_time,
                           const std::function<bool(const Plan&)>& accept,
                           std::optional<Plan>* result = nullptr);

/// The corpus's shrinker (`ictk fixtures generate`, fixtures/corpus.h): `plan` cut after
/// plan step `at`, then made smaller while `holds` still takes it — a plainer schema
/// (schema size 0, else 2), then each earlier step removed if it can be (last to first),
/// then each concurrent commit of the last step but one. Unlike MinimizePlan it never
/// changes the last step: a corpus fixture is made for what its last step exercises.
/// nullopt when `holds` does not take the cut plan.
std::optional<Plan> MinimizeUpToStep(Plan plan, int at,
                                     const std::function<bool(const Plan&)>& holds);

}  // namespace ictk
