#include "codec/json_catalogue.h"

#include "model/judge/rule_catalogue.h"

namespace ictk {

nlohmann::json RuleCatalogueToJson() {
  nlohmann::json rules = nlohmann::json::array();
  for (const RuleInfo& r : RuleCatalogue()) {
    nlohmann::json checked = nlohmann::json::array();
    for (auto f : r.checked_by) checked.push_back(std::string(f));
    nlohmann::json clauses = nlohmann::json::array();
    for (const ClauseInfo& c : r.clauses) {
      clauses.push_back({{"id", c.id},
                         {"words", std::string(c.words)},
                         {"tag", std::string(c.tag)},
                         {"gap", std::string(c.gap)},
                         {"exempt", std::string(c.exempt.reason)},
                         {"exempt-kind", std::string(ToString(c.exempt.kind))}});
    }
    rules.push_back({{"id", std::string(RuleIdName(r.id))},
                     {"group", std::string(r.group)},
                     {"binds", std::string(ToString(r.binds))},
                     {"quote", std::string(r.quote)},
                     {"summary", std::string(r.summary)},
                     {"checked-by", checked},
                     {"coverage-exempt", r.coverage_exempt},
                     {"clauses", clauses}});
  }
  nlohmann::json switches = nlohmann::json::array();
  for (const SwitchInfo& s : AllSwitches()) {
    nlohmann::json values = nlohmann::json::array();
    for (auto v : s.values) values.push_back(std::string(v));
    switches.push_back({{"name", std::string(s.name)},
                        {"values", values},
                        {"default", s.values.empty() ? "" : std::string(s.values.front())},
                        {"kind", std::string(s.kind)},
                        {"description", std::string(s.description)}});
  }
  return {{"rules", rules}, {"switches", switches}};
}

nlohmann::json FindingToJson(const Finding& finding) {
  nlohmann::json j = {{"rule", std::string(RuleIdName(finding.rule))},
                      {"pointer", finding.pointer},
                      {"detail", finding.detail},
                      {"quote", std::string(FindRule(finding.rule).quote)}};
  if (finding.constraint_id) j["constraint-id"] = *finding.constraint_id;
  return j;
}

}  // namespace ictk
