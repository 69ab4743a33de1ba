/// \file
/// `ictk mutants --list [--format text|json]`: the sample implementation's named mutants,
/// each a realistic single bug tied to one rule ID (sample/sample_adapter.h). Run one
/// with
/// `--adapter 'builtin:sample?mutant=NAME'` (or `ictk-sample-adapter --mutant NAME`).
#include <fmt/format.h>

#include <algorithm>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <string>

#include "cli/commands.h"
#ifdef ICTK_HAVE_SAMPLE
#include "sample/sample_adapter.h"
#endif

namespace ictk::cli {

int RunMutants(const GlobalOptions& /*global*/, const std::string& format) {
#ifdef ICTK_HAVE_SAMPLE
  const auto& mutants = SampleMutants();
  if (format == "json") {
    nlohmann::json out = nlohmann::json::array();
    for (const MutantInfo& m : mutants) {
      out.push_back({{"name", m.name},
                     {"rule", m.rule},
                     {"clause", m.clause},
                     {"also-clauses", m.also_clauses},
                     {"description", m.description},
                     {"profile", m.profile.empty() ? "writer" : m.profile},
                     {"switches", m.switches}});
    }
    std::printf("%s\n", out.dump(2).c_str());
    return 0;
  }
  size_t name_width = 4, clause_width = 6;
  for (const MutantInfo& m : mutants) {
    name_width = std::max(name_width, m.name.size());
    clause_width = std::max(clause_width, m.clause.size());
  }
  std::printf("%s", fmt::format("{:<{}}  {:<{}}  {}\n", "NAME", name_width, "CLAUSE",
                                clause_width, "DESCRIPTION")
                        .c_str());
  for (const MutantInfo& m : mutants) {
    // A mutant certified under its own profile or switches says so.
    std::string conditions;
    if (!m.profile.empty()) conditions = "profile " + m.profile;
    for (const std::string& s : m.switches)
      conditions += (conditions.empty() ? "" : ", ") + s;
    std::printf("%s", fmt::format("{:<{}}  {:<{}}  {}{}\n", m.name, name_width, m.clause,
                                  clause_width, m.description,
                                  conditions.empty() ? "" : " [" + conditions + "]")
                          .c_str());
  }
  std::printf("%zu mutants; run one as builtin:sample?mutant=NAME\n", mutants.size());
  return 0;
#else
  (void)format;
  std::fprintf(stderr, "ictk: built without the sample implementation\n");
  return 2;
#endif
}

}  // namespace ictk::cli
