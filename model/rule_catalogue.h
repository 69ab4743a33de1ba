/// \file
/// The rule catalogue: one table in code with every rule ID, its quoted sentence (verbatim
/// from the seed after collapsing whitespace, or empty for derived rules), whom it binds, and
/// the functions that check it. `ictk rules` prints it; `trace` matches on the quotes.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "model/rule_id.h"

namespace ictk {

enum class Binds { kWriter, kReader, kMetadata, kInformational };

/// One clause of a rule: a condition of its sentence joined to the others by "and", "or",
/// "unless", or one item of a list (docs/rules.md "Clauses"). Its ID is
/// `<rule>/<name>`, e.g. `key.pk-required/optional-parent`; a rule with one condition has
/// the one clause `<rule>/whole`.
struct ClauseInfo {
  RuleId rule;
  std::string id;          ///< "key.pk-required/optional-parent"
  std::string_view name;   ///< "optional-parent"
  std::string_view words;  ///< the clause's words, verbatim from the quote or summary
  /// The generator's step label that exercises the clause alone (a step breaking it, or
  /// for a clause that permits something, a step relying on it); "" when none does.
  std::string_view tag;
  /// Why the clause has no generator step or no sample mutant yet; "" when it has both.
  std::string_view gap;
};

struct RuleInfo {
  RuleId id;
  std::string_view group;        ///< "def", "key", ... as in SPEC.md headings
  std::string_view quote;        ///< the spec's words ("" for derived rules)
  std::string_view summary;      ///< SPEC.md's rule text outside quotes, shortened
  Binds binds;
  std::vector<std::string_view> checked_by;  ///< model functions that implement the rule
  bool coverage_exempt = false;  ///< enf.untrusted, def.evolve-independently, ...
  std::vector<ClauseInfo> clauses = {};  ///< filled in by RuleCatalogue() (rule_clauses.cc)
};

/// Every rule, in RuleId order; `RuleCatalogue()[i].id == kAllRuleIds[i]`.
const std::vector<RuleInfo>& RuleCatalogue();
const RuleInfo& FindRule(RuleId id);
std::string_view ToString(Binds binds);

/// Every clause of every rule, in catalogue order.
const std::vector<ClauseInfo>& AllClauses();
/// The clause with ID `id` ("key.pk-required/own-flag"), or nullptr.
const ClauseInfo* FindClause(std::string_view id);

}  // namespace ictk
