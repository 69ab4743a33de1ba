/// \file
/// The rule catalogue's table as written (rule_entries_*.cc), before it is put in RuleId
/// order, so that a test can check that every RuleId has exactly one entry.
#pragma once

#include <vector>

#include "model/judge/rule_catalogue.h"

namespace ictk {

/// The entries as written in rule_entries_*.cc (each carries its id; `group` is filled in
/// by RuleCatalogue()).
const std::vector<RuleInfo>& RuleCatalogueEntries();

/// The entries of each rule group (rule_entries_*.cc), in the catalogue's order: {id,
/// group (filled in later), quote, summary, binds, checked_by, coverage_exempt}.
std::vector<RuleInfo> DefEntries();
std::vector<RuleInfo> KeyEntries();
std::vector<RuleInfo> SemEntries();
std::vector<RuleInfo> EnfEntries();
std::vector<RuleInfo> IdEntries();
std::vector<RuleInfo> UpgEntries();
std::vector<RuleInfo> ExprEntries();
std::vector<RuleInfo> SchEntries();
std::vector<RuleInfo> UpdEntries();
std::vector<RuleInfo> StEntries();
std::vector<RuleInfo> IceEntries();
std::vector<RuleInfo> AppendedEntries1();
std::vector<RuleInfo> AppendedEntries2();
std::vector<RuleInfo> AppendedEntries3();

/// One row of the clause table as written (rule_clauses_*.cc).
struct ClauseRow {
  RuleId rule;
  std::string_view name, words, tag, gap;
  ClauseExempt exempt = {};  ///< why no mutant can exist (kind kNone when one can)
};
/// The clause table as written; a rule without rows gets the one clause `whole` with its
/// quote (or summary) as words and a gap saying it is not split yet (or, for a
/// coverage-exempt rule, an informational exemption).
const std::vector<ClauseRow>& ClauseTable();

/// The rows of each rule group (rule_clauses_*.cc), in the table's order.
std::vector<ClauseRow> DefClauses();
std::vector<ClauseRow> KeyClauses();
std::vector<ClauseRow> SemClauses();
std::vector<ClauseRow> EnfClauses();
std::vector<ClauseRow> IdClauses();
std::vector<ClauseRow> UpgClauses();
std::vector<ClauseRow> ExprClauses();
std::vector<ClauseRow> SchClauses();
std::vector<ClauseRow> UpdClauses();
std::vector<ClauseRow> StClauses();
std::vector<ClauseRow> IceProtoClauses1();
std::vector<ClauseRow> IceProtoClauses2();

// Reasons shared by several clauses.
inline constexpr ClauseExempt kInformational = {
    ExemptKind::kInformational, "informational (coverage-exempt): nothing to break"};
inline constexpr std::string_view kReaderSide =
    "reader side: a reader given metadata that breaks it may accept or refuse it at the "
    "default switches, so no mutant can be caught";

/// The summary RuleCatalogue() gives a RuleId that has no entry yet.
inline constexpr std::string_view kUncataloguedSummary =
    "(not yet in the rule catalogue)";

}  // namespace ictk
