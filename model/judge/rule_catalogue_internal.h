/// \file
/// The rule catalogue's table as written (rule_catalogue.cc), before it is put in RuleId
/// order, so that a test can check that every RuleId has exactly one entry.
#pragma once

#include <vector>

#include "model/judge/rule_catalogue.h"

namespace ictk {

/// The entries as written in rule_catalogue.cc (each carries its id; `group` is filled in
/// by RuleCatalogue()).
const std::vector<RuleInfo>& RuleCatalogueEntries();

/// One row of the clause table as written (rule_clauses.cc).
struct ClauseRow {
  RuleId rule;
  std::string_view name, words, tag, gap;
  ClauseExempt exempt = {};  ///< why no mutant can exist (kind kNone when one can)
};
/// The clause table as written; a rule without rows gets the one clause `whole` with its
/// quote (or summary) as words and a gap saying it is not split yet (or, for a
/// coverage-exempt rule, an informational exemption).
const std::vector<ClauseRow>& ClauseTable();

/// The summary RuleCatalogue() gives a RuleId that has no entry yet.
inline constexpr std::string_view kUncataloguedSummary =
    "(not yet in the rule catalogue)";

}  // namespace ictk
