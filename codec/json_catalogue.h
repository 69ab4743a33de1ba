/// \file
/// JSON forms of the rule catalogue, the switches and lint findings, for `ictk rules
/// --format json` and `ictk lint-metadata --format json`.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "model/rules/finding.h"
#include "model/rules/switches.h"

namespace ictk {

/// {"rules": [{"id", "group", "binds", "quote", "summary", "checked-by", "coverage-exempt"}],
///  "switches": [{"name", "values", "default", "kind", "description"}]}
nlohmann::json RuleCatalogueToJson();

/// {"rule", "constraint-id"?, "pointer", "detail", "quote"}
nlohmann::json FindingToJson(const Finding& finding);

}  // namespace ictk
