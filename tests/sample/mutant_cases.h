/// \file
/// The witness scripts of the sample's mutants (sample_mutants_test.cc runs them against
/// the correct sample, sample_judged_test.cc against the reference model): for each
/// mutant, a script on which it first answers differently from the correct sample at
/// `witness`, and what the correct sample answers there. The cases are grouped by the rules
/// their mutants break, one header per group.
#pragma once

#include <vector>

#include "tests/sample/mutant_case_util.h"
#include "tests/sample/mutant_cases_definitions.h"
#include "tests/sample/mutant_cases_enforcement.h"
#include "tests/sample/mutant_cases_evolution.h"
#include "tests/sample/mutant_cases_iceberg.h"

namespace ictk::sample_test {

/// Every mutant's witness case.
inline std::vector<MutantCase> MutantCases() {
  std::vector<MutantCase> out;
  for (auto group : {DefinitionMutantCases, EnforcementMutantCases, EvolutionMutantCases,
                     IcebergMutantCases})
    for (MutantCase& c : group()) out.push_back(std::move(c));
  return out;
}

}  // namespace ictk::sample_test
