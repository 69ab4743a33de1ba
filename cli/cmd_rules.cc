/// \file
/// `ictk rules`: the rule catalogue and the interpretation switches.
#include <cstdio>
#include <string>

#include <fmt/format.h>

#include "cli/commands.h"
#include "codec/json_catalogue.h"
#include "model/rule_catalogue.h"
#include "model/switches.h"

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
    if (c == '|') out += "\\|";
    else out += c;
  }
  return out;
}

}  // namespace

int RunRules(const GlobalOptions& global, const std::string& format) {
  if (format == "json") {
    auto j = RuleCatalogueToJson();
    std::puts(j.dump(2).c_str());
    return 0;
  }
  const auto values = SwitchValues(global.switches);
  if (format == "markdown") {
    fmt::print("| rule | binds | rule text | checked by |\n|---|---|---|---|\n");
    for (const RuleInfo& r : RuleCatalogue()) {
      std::string text = r.quote.empty() ? std::string(r.summary)
                                         : fmt::format("\"{}\"", r.quote);
      fmt::print("| {}{} | {} | {} | {} |\n", RuleIdName(r.id),
                 r.coverage_exempt ? " (exempt)" : "", ToString(r.binds), Cell(text),
                 Cell(Join(r.checked_by, ", ")));
    }
    fmt::print("\n| switch | values (default first) | kind | in effect |\n|---|---|---|---|\n");
    for (const SwitchInfo& s : AllSwitches()) {
      auto it = values.find(std::string(s.name));
      fmt::print("| {} | {} | {} | {} |\n", s.name, Join(s.values, ", "), s.kind,
                 it == values.end() ? "" : it->second);
    }
    return 0;
  }
  for (const RuleInfo& r : RuleCatalogue()) {
    fmt::print("{:<32} {:<13} {}\n", RuleIdName(r.id), ToString(r.binds),
               r.quote.empty() ? std::string(r.summary) : fmt::format("\"{}\"", r.quote));
  }
  fmt::print("\nswitches (name = value in effect; values, default first):\n");
  for (const SwitchInfo& s : AllSwitches()) {
    auto it = values.find(std::string(s.name));
    fmt::print("  {:<28} = {:<14} [{}] ({})\n", s.name,
               it == values.end() ? "" : it->second, Join(s.values, "|"), s.kind);
  }
  return 0;
}

}  // namespace ictk::cli
