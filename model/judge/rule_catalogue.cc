/// \file
/// The rule catalogue: one entry per rule ID of SPEC.md (and those appended since), with
/// the seed's sentence verbatim (whitespace collapsed, diff markers removed), whom it
/// binds, and the model functions that implement it. tests/model/rule_catalogue_test.cc
/// checks that every quote is in the seed and that every RuleId has exactly one entry.
///
/// The entries are in rule_entries_*.cc, one function per rule group
/// (rule_catalogue_internal.h); MakeEntries concatenates them in the catalogue's order.
#include "model/judge/rule_catalogue.h"

#include <cassert>
#include <iterator>

#include "model/judge/rule_catalogue_internal.h"

namespace ictk {
namespace {

std::vector<RuleInfo> MakeEntries() {
  std::vector<RuleInfo> out;
  for (std::vector<RuleInfo> (*group)() :
       {DefEntries, KeyEntries, SemEntries, EnfEntries, IdEntries, UpgEntries,
        ExprEntries, SchEntries, UpdEntries, StEntries, IceEntries, AppendedEntries1,
        AppendedEntries2, AppendedEntries3}) {
    std::vector<RuleInfo> entries = group();
    out.insert(out.end(), std::make_move_iterator(entries.begin()),
               std::make_move_iterator(entries.end()));
  }
  return out;
}

/// "def" for "def.v4-only".
std::string_view GroupOf(RuleId id) {
  std::string_view name = RuleIdName(id);
  return name.substr(0, name.find('.'));
}

/// The clauses of `rule` from the clause table; a rule without rows there has the one
/// clause `whole`, its words the quote (or summary).
std::vector<ClauseInfo> ClausesOf(const RuleInfo& rule) {
  std::vector<ClauseInfo> out;
  const std::string rule_name(RuleIdName(rule.id));
  for (const ClauseRow& row : ClauseTable()) {
    if (row.rule != rule.id) continue;
    out.push_back({rule.id, rule_name + "/" + std::string(row.name), row.name, row.words,
                   row.tag, row.gap, row.exempt});
  }
  if (out.empty()) {
    std::string_view gap = "not split into clauses yet";
    if (rule.group == "ice")
      gap = "a surrounding Iceberg rule: the sample's mutants cover the constraint rules";
    if (rule.group == "proto") gap = "a protocol convention, not a spec clause";
    ClauseExempt exempt;
    if (rule.coverage_exempt) {
      gap = "";
      exempt = {ExemptKind::kInformational, "informational (coverage-exempt): nothing to break"};
    }
    out.push_back({rule.id, rule_name + "/whole", "whole",
                   rule.quote.empty() ? rule.summary : rule.quote, "", gap, exempt});
  }
  return out;
}

}  // namespace

const std::vector<ClauseInfo>& AllClauses() {
  static const std::vector<ClauseInfo> all = [] {
    std::vector<ClauseInfo> out;
    for (const RuleInfo& r : RuleCatalogue())
      out.insert(out.end(), r.clauses.begin(), r.clauses.end());
    return out;
  }();
  return all;
}

const ClauseInfo* FindClause(std::string_view id) {
  for (const ClauseInfo& c : AllClauses())
    if (c.id == id) return &c;
  return nullptr;
}

const ClauseInfo* FindClause(Clause clause) {
  for (const ClauseInfo& c : FindRule(clause.rule).clauses)
    if (c.name == clause.name) return &c;
  return nullptr;
}

std::string ClauseIdOf(const Finding& finding) {
  const std::vector<ClauseInfo>& clauses = FindRule(finding.rule).clauses;
  if (!finding.clause.empty()) {
    const ClauseInfo* c = FindClause(Clause{finding.rule, finding.clause});
    return c == nullptr ? std::string() : c->id;
  }
  return clauses.size() == 1 ? clauses.front().id : std::string();
}

const std::vector<RuleInfo>& RuleCatalogueEntries() {
  static const std::vector<RuleInfo> entries = MakeEntries();
  return entries;
}

const std::vector<RuleInfo>& RuleCatalogue() {
  static const std::vector<RuleInfo> catalogue = [] {
    std::vector<RuleInfo> out;
    for (RuleId id : kAllRuleIds) {
      const RuleInfo* found = nullptr;
      for (const RuleInfo& e : RuleCatalogueEntries()) {
        if (e.id == id) {
          found = &e;
          break;
        }
      }
      // An ID appended to rule_id.h before its entry here still gets a row, so that
      // FindRule never fails; the catalogue test flags it.
      RuleInfo info =
          found ? *found
                : RuleInfo{id, {},   "", kUncataloguedSummary, Binds::kInformational,
                           {}, false};
      info.group = GroupOf(id);
      info.clauses = ClausesOf(info);
      out.push_back(std::move(info));
    }
    return out;
  }();
  return catalogue;
}

const RuleInfo& FindRule(RuleId id) {
  const auto& catalogue = RuleCatalogue();
  for (const RuleInfo& r : catalogue) {
    if (r.id == id) return r;
  }
  assert(false && "every RuleId is in kAllRuleIds");
  return catalogue.front();
}

std::string_view ToString(ExemptKind kind) {
  switch (kind) {
    case ExemptKind::kNone:
      return "";
    case ExemptKind::kInformational:
      return "informational";
    case ExemptKind::kPermission:
      return "permission";
    case ExemptKind::kAlwaysAllowed:
      return "always-allowed";
    case ExemptKind::kComposite:
      return "composite";
    case ExemptKind::kInexpressible:
      return "inexpressible";
  }
  return "?";
}

std::string_view ToString(Binds binds) {
  switch (binds) {
    case Binds::kWriter:
      return "writer";
    case Binds::kReader:
      return "reader";
    case Binds::kMetadata:
      return "metadata";
    case Binds::kInformational:
      return "informational";
  }
  return "?";
}

}  // namespace ictk
