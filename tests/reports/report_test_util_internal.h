/// \file
/// The one builder of a failure detail for the report tests: a history of two steps, a
/// `create-table` and the failing request OP, with the rule broken at step 2 and the allowed
/// and answered lines; the callers set the finding, fixture and commands they test.
#pragma once

#include <string>
#include <utility>

#include "reports/report.h"

namespace ictk::testing_util {

inline FailureDetail TwoStepFailure(const std::string& rule, const std::string& op,
                                    std::string allowed, std::string answered) {
  FailureDetail f;
  f.step = 2;
  f.rule = rule;
  f.allowed = std::move(allowed);
  f.answered = std::move(answered);
  StepRow create;
  create.index = 1;
  create.op = "create-table";
  create.request = {{"op", "create-table"}};
  StepRow failing;
  failing.index = 2;
  failing.op = op;
  failing.failed = true;
  failing.request = {{"op", op}};
  f.steps = {create, failing};
  return f;
}

}  // namespace ictk::testing_util
