// Random histories rendered and played on the model alone (each step answered with the
// model's CanonicalAnswer and adopted), for the generator tests that count what the
// histories send.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <functional>
#include <optional>

#include "generators/history.h"
#include "generators/value_gen.h"
#include "model/judge/operations.h"

namespace ictk {

/// Plays `histories` plans of `config` (seeds 0, 1, ..., size 50) on table "t"; calls
/// `visit` with the history's index, the state before each step, the step and its allowed
/// outcome.
inline void WalkOnTheModel(
    const HistoryGenConfig& config, uint64_t histories,
    const std::function<void(uint64_t, const CatalogState&, const RenderedStep&,
                             const AllowedOutcome&)>& visit) {
  for (uint64_t i = 0; i < histories; ++i) {
    std::optional<Plan> plan = Sample(GenPlan(config), i, 50);
    ASSERT_TRUE(plan);
    RenderOptions options;
    options.table = "t";
    options.function_prefix = "t_";
    options.capabilities = config.capabilities;
    CatalogState state;
    HistoryRenderer renderer(*plan, options);
    while (std::optional<RenderedStep> step = renderer.Next(state)) {
      const AllowedOutcome outcome = Apply(state, step->request, options.switches);
      visit(i, state, *step, outcome);
      const Answer answer = CanonicalAnswer(state, step->request, outcome, options.switches);
      Adopt(state, step->request, answer, options.switches);
    }
  }
}

}  // namespace ictk
