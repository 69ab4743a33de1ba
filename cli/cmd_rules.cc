/// \file
/// `ictk rules`: the rule catalogue and the interpretation switches.
#include <fmt/format.h>

#include <cstdio>
#include <map>
#include <string>
#include <vector>

#include "cli/commands.h"
#include "codec/json_catalogue.h"
#include "model/judge/rule_catalogue.h"
#include "model/rules/switches.h"
#ifdef ICTK_HAVE_SAMPLE
#include "sample/sample_adapter.h"
#endif

namespace ictk::cli {
namespace {

std::string Join(const std::vector<std::string_view>& items, std::string_view sep) {
  std::string out;
  for (size_t i = 0; i < items.size(); ++i) {
    if (i) out += sep;
    out += items[i];
  }
  return out;
}

/// Markdown table cells must not contain a bare '|'.
std::string Cell(std::string_view text) {
  std::string out;
  for (char c : text) {
    if (c == '|')
      out += "\\|";
    else
      out += c;
  }
  return out;
}

/// The sample mutants that ignore each clause (empty without the sample).
std::map<std::string, std::vector<std::string>> MutantsByClause() {
  std::map<std::string, std::vector<std::string>> out;
#ifdef ICTK_HAVE_SAMPLE
  for (const MutantInfo& m : SampleMutants()) out[m.clause].push_back(m.name);
#endif
  return out;
}

std::string JoinStrings(const std::vector<std::string>& items) {
  std::string out;
  for (const std::string& s : items) out += (out.empty() ? "" : ", ") + s;
  return out;
}

}  // namespace

namespace {

/// The sample's mutants of a clause.
std::vector<std::string> MutantsOf(
    const std::map<std::string, std::vector<std::string>>& mutants, const ClauseInfo& c) {
  auto it = mutants.find(c.id);
  return it == mutants.end() ? std::vector<std::string>{} : it->second;
}

std::string ExemptOf(const ClauseInfo& c) {
  return c.exempt.kind == ExemptKind::kNone
             ? std::string()
             : fmt::format("{}: {}", ToString(c.exempt.kind), c.exempt.reason);
}

/// "N clauses; C with a generator tag and a sample mutant; E exempt (kind n, ...); G with
/// a gap".
std::string ClauseCounts(const std::map<std::string, std::vector<std::string>>& mutants) {
  size_t complete = 0, exempt = 0, gaps = 0;
  std::map<std::string, size_t> exempt_kinds;  // kind -> clauses
  for (const ClauseInfo& c : AllClauses()) {
    if (c.gap.empty() && !c.tag.empty() && !MutantsOf(mutants, c).empty()) ++complete;
    if (c.exempt.kind != ExemptKind::kNone) {
      ++exempt;
      ++exempt_kinds[std::string(ToString(c.exempt.kind))];
    }
    if (!c.gap.empty()) ++gaps;
  }
  // "9 exempt (composite 9, ...)": the exempt clauses by kind, apart from gaps.
  std::vector<std::string> kind_counts;
  for (const auto& [kind, n] : exempt_kinds)
    kind_counts.push_back(fmt::format("{} {}", kind, n));
  const std::string exempt_text =
      kind_counts.empty()
          ? fmt::format("{} exempt", exempt)
          : fmt::format("{} exempt ({})", exempt, fmt::join(kind_counts, ", "));
  return fmt::format(
      "{} clauses; {} with a generator tag and a sample mutant; {}; {} with a gap",
      AllClauses().size(), complete, exempt_text, gaps);
}

void PrintJson(const std::map<std::string, std::vector<std::string>>& mutants) {
  auto j = RuleCatalogueToJson();
  for (auto& rule : j["rules"])
    for (auto& clause : rule["clauses"])
      if (const ClauseInfo* c = FindClause(clause["id"].get<std::string>()))
        clause["mutants"] = MutantsOf(mutants, *c);
  std::puts(j.dump(2).c_str());
}

void PrintMarkdown(const std::map<std::string, std::vector<std::string>>& mutants,
                   const std::map<std::string, std::string>& values) {
  fmt::print("| rule | binds | rule text | checked by |\n|---|---|---|---|\n");
  for (const RuleInfo& r : RuleCatalogue()) {
    std::string text =
        r.quote.empty() ? std::string(r.summary) : fmt::format("\"{}\"", r.quote);
    fmt::print("| {}{} | {} | {} | {} |\n", RuleIdName(r.id),
               r.coverage_exempt ? " (exempt)" : "", ToString(r.binds), Cell(text),
               Cell(Join(r.checked_by, ", ")));
  }
  fmt::print(
      "\n| switch | values (default first) | kind | in effect |\n|---|---|---|---|\n");
  for (const SwitchInfo& s : AllSwitches()) {
    auto it = values.find(std::string(s.name));
    fmt::print("| {} | {} | {} | {} |\n", s.name, Join(s.values, ", "), s.kind,
               it == values.end() ? "" : it->second);
  }
  fmt::print(
      "\n| clause | words | generator tag | sample mutants | exempt | gap |\n"
      "|---|---|---|---|---|---|\n");
  for (const ClauseInfo& c : AllClauses()) {
    fmt::print("| {} | {} | {} | {} | {} | {} |\n", c.id, Cell(c.words),
               c.tag.empty() ? "-" : fmt::format("`{}`", c.tag),
               Cell(JoinStrings(MutantsOf(mutants, c))), Cell(ExemptOf(c)), Cell(c.gap));
  }
  fmt::print("\n{}\n", ClauseCounts(mutants));
}

void PrintText(const std::map<std::string, std::vector<std::string>>& mutants,
               const std::map<std::string, std::string>& values) {
  for (const RuleInfo& r : RuleCatalogue()) {
    fmt::print("{:<32} {:<13} {}\n", RuleIdName(r.id), ToString(r.binds),
               r.quote.empty() ? std::string(r.summary) : fmt::format("\"{}\"", r.quote));
  }
  fmt::print(
      "\nclauses (ID: generator tag; sample mutants; why none can exist, or why not "
      "yet):\n");
  for (const ClauseInfo& c : AllClauses()) {
    const std::vector<std::string> ms = MutantsOf(mutants, c);
    fmt::print("  {:<52} {}; {}{}{}\n", c.id, c.tag.empty() ? "-" : std::string(c.tag),
               ms.empty() ? "-" : JoinStrings(ms),
               c.exempt.kind == ExemptKind::kNone
                   ? ""
                   : fmt::format(" (exempt, {})", ExemptOf(c)),
               c.gap.empty() ? "" : fmt::format(" (gap: {})", c.gap));
  }
  fmt::print("{}\n", ClauseCounts(mutants));
  fmt::print("\nswitches (name = value in effect; values, default first):\n");
  for (const SwitchInfo& s : AllSwitches()) {
    auto it = values.find(std::string(s.name));
    fmt::print("  {:<28} = {:<14} [{}] ({})\n", s.name,
               it == values.end() ? "" : it->second, Join(s.values, "|"), s.kind);
  }
}

}  // namespace

int RunRules(const GlobalOptions& global, const std::string& format) {
  const auto mutants = MutantsByClause();
  if (format == "json") {
    PrintJson(mutants);
  } else if (format == "markdown") {
    PrintMarkdown(mutants, SwitchValues(global.switches));
  } else {
    PrintText(mutants, SwitchValues(global.switches));
  }
  return 0;
}

}  // namespace ictk::cli
