/// \file
/// Counterexamples as fixture files (FIXTURES.md, format-version 1), and the words a
/// report uses for one step: what the model allowed and what the implementation answered.
/// A fixture's expectations are written from the model's AllowedOutcome so that they hold
/// whatever legal choice an implementation makes: constraints by name, `valid` only after
/// a `validated`/`valid` parent, `stop-if` where both results are allowed and later steps
/// assume the one the implementation under test gave.
#pragma once

#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "model/outcome.h"
#include "model/requests.h"
#include "model/switches.h"
#include "model/table_state.h"

namespace ictk {

/// The decoded form of a protocol response as the model judges it.
struct Response;
Answer ToAnswer(const Response& response);

/// The allowed outcome in words, constraints by name: "ok; statuses: pk in {validated,
/// unvalidated}" or "rejected (constraint-violation): enf.enforced: ...".
std::string DescribeAllowed(const AllowedOutcome& outcome, const CatalogState& before,
                            const Request& request);
/// The answer in words: "ok; statuses: pk=valid, qty_positive=invalid",
/// "rejected (constraint-violation, constraint-ids [1])", "error: ...".
std::string DescribeAnswer(const Answer& answer, const AllowedOutcome& outcome,
                           const CatalogState& before, const Request& request);

/// The fixture expectation (`expect`) of one step: from the allowed outcome in the state
/// before the step, and the implementation's answer (for `stop-if`).
nlohmann::json FixtureExpectation(const AllowedOutcome& outcome,
                                  const CatalogState& before, const Request& request,
                                  const Answer& answer);

/// The capabilities a history's requests need (FIXTURES.md `requires`).
std::vector<std::string> RequiredCapabilities(const std::vector<Request>& requests);

/// What a fixture file is made of.
struct FixtureInput {
  std::string primary_rule;
  std::vector<std::string> rules;
  std::string slug;  ///< e.g. "append-collide-live"
  std::string description;
  std::vector<Request> requests;        ///< the minimized history
  std::vector<nlohmann::json> expects;  ///< one per request
  Switches switches;
  std::string tool;  ///< "ictk 0.1.0"
  std::string model_version;
  uint64_t seed = 0;
};

/// The fixture document; its `id` is "<primary rule>/<slug>-<hash8>" and `hash` the
/// SHA-256 of the canonical JSON (sorted keys, no spaces) of {requires, switches, steps}.
nlohmann::json MakeFixture(const FixtureInput& input);

/// "<primary rule>/<slug>-<hash8>.json" for a fixture document.
std::string FixtureRelativePath(const nlohmann::json& fixture);

}  // namespace ictk
