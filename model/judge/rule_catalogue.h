/// \file
/// The rule catalogue: one table in code with every rule ID, its quoted sentence (verbatim
/// from the seed after collapsing whitespace, or empty for derived rules), whom it binds, and
/// the functions that check it. `ictk rules` prints it; `trace` matches on the quotes.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "model/rules/finding.h"
#include "model/rules/rule_id.h"

namespace ictk {

enum class Binds { kWriter, kReader, kMetadata, kInformational };

/// Why no sample mutant can exist for a clause: one of a small closed set of kinds
/// (docs/rules.md "Clauses"). Work not done is a clause's `gap`, never an exemption.
enum class ExemptKind {
  kNone,
  /// The clause states a fact, an intent or a freedom of readers: nothing to break.
  kInformational,
  /// A permission the implementation may use or not ("may"): neither answer breaks it.
  kPermission,
  /// The clause allows its answer everywhere: no answer breaks it.
  kAlwaysAllowed,
  /// The clause is the conjunction of other clauses, which its reason names by ID; their
  /// mutants are its mutants.
  kComposite,
  /// No request the protocol can express breaks the clause alone: every breach is a breach
  /// of the clauses its reason names by ID, and is reported under them.
  kInexpressible,
};

/// "informational", "permission", "always-allowed", "composite", "inexpressible"; "" for
/// kNone.
std::string_view ToString(ExemptKind kind);

/// A clause's exemption: its kind and the reason in one sentence.
struct ClauseExempt {
  ExemptKind kind = ExemptKind::kNone;
  std::string_view reason;
};

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
  /// Work not done: why the clause has no generator step or no sample mutant yet; ""
  /// when it has both or is exempt.
  std::string_view gap;
  /// Why no mutant can exist for the clause (kind kNone when one can).
  ClauseExempt exempt = {};
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
/// The clause `clause` names, or nullptr when the catalogue has none of that name.
const ClauseInfo* FindClause(Clause clause);
/// The ID of the clause a finding is filed under: the clause it names, else its rule's
/// only clause; "" when its rule has several and the finding names none.
std::string ClauseIdOf(const Finding& finding);

}  // namespace ictk
