/// \file
/// The mutants whose kill is filed under another rule than their own, each with that rule
/// and a one-line reason (sample/mutants.cc): the answer the mutant gives breaks the other
/// rule, and the judge, which sees the answer and not the bug, names that one.
/// `ictk mutants --list --format json` shows it as `other-rule` and `other-rule-reason`;
/// tests/cli/mutation_attribution_test.cc accepts a kill under the declared rule only.
#pragma once

#include <string_view>

namespace ictk::sample {

struct OtherRule {
  std::string_view rule;    ///< the rule the kill is filed under
  std::string_view reason;  ///< why the mutant's answer breaks it, in one line
};

/// The declared other rule of the mutant named `name`, or nullptr.
const OtherRule* DeclaredOtherRule(std::string_view name);

}  // namespace ictk::sample
