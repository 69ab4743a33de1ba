/// \file
/// The rule catalogue: one table in code with every rule ID, its quoted sentence (verbatim
/// from the seed after collapsing whitespace, or empty for derived rules), whom it binds, and
/// the functions that check it. `ictk rules` prints it; `trace` matches on the quotes.
#pragma once

#include <string_view>
#include <vector>

#include "model/rule_id.h"

namespace ictk {

enum class Binds { kWriter, kReader, kMetadata, kInformational };

struct RuleInfo {
  RuleId id;
  std::string_view group;        ///< "def", "key", ... as in SPEC.md headings
  std::string_view quote;        ///< the spec's words ("" for derived rules)
  std::string_view summary;      ///< SPEC.md's rule text outside quotes, shortened
  Binds binds;
  std::vector<std::string_view> checked_by;  ///< model functions that implement the rule
  bool coverage_exempt = false;  ///< enf.untrusted, def.evolve-independently, ...
};

/// Every rule, in RuleId order; `RuleCatalogue()[i].id == kAllRuleIds[i]`.
const std::vector<RuleInfo>& RuleCatalogue();
const RuleInfo& FindRule(RuleId id);
std::string_view ToString(Binds binds);

}  // namespace ictk
