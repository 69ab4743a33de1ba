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
#include <set>
#include <string>
#include <vector>

#include "codec/answer.h"
#include "model/judge/outcome.h"
#include "model/judge/requests.h"
#include "model/rules/constraint_rules.h"
#include "model/rules/switches.h"
#include "model/judge/table_state.h"

namespace ictk {

// ToAnswer (the decoded form of a protocol response as the model judges it) is in
// codec/answer.h, included above.

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

/// Of a failing step whose only fault is a rejection naming constraints `error-constraints`
/// does not allow, and which the model blamed on `blamed` (BlameByClause) rather than
/// proto.rejection-constraint-ids: `error-constraints-blame` in `expect`, each such
/// constraint's name with `blamed`, so that a runner without the model files the failure
/// where certify does (docs/fixtures.md section 5, "The rule of a key").
void ExpectRejectionBlame(const AllowedOutcome& outcome, const CatalogState& before,
                          const Request& request, const Answer& answer, RuleId blamed,
                          nlohmann::json& expect);

/// The capabilities a history's requests need (FIXTURES.md `requires`).
std::vector<std::string> RequiredCapabilities(const std::vector<Request>& requests);

/// What a history's requests need of `hello`'s finer declarations (docs/protocol.md
/// section 9, "Finer declarations"; docs/fixtures.md `requires-constraint-ops`,
/// `requires-operators`): the constraint ops it sends and the predicate operators of its
/// check expressions and UDF bodies, each sorted in protocol order.
struct DeclarationNeeds {
  std::vector<std::string> constraint_ops;
  std::vector<std::string> operators;
};
DeclarationNeeds RequiredDeclarations(const std::vector<Request>& requests);

/// What a fixture file is made of.
struct FixtureInput {
  std::string primary_rule;
  std::vector<std::string> rules;
  std::string slug;  ///< e.g. "append-collide-live"
  std::string description;
  std::vector<Request> requests;        ///< the minimized history
  std::vector<nlohmann::json> expects;  ///< one per request
  Switches switches;
  /// The switches whose value changes the expectations (docs/fixtures.md section 6): only
  /// these are recorded in `switches`; nullopt records every switch (certify's failure
  /// fixtures, pinned to the run's settings).
  std::optional<std::set<std::string>> recorded_switches;
  std::string tool;  ///< "ictk 0.1.0"
  std::string model_version;
  uint64_t seed = 0;
};

/// The format versions a history needs (docs/fixtures.md `format-versions`): of every
/// `create-table` and `upgrade`, and of the metadata of `parse-metadata` and
/// `read-statuses`, at the steps whose `expects` allow `ok` (a step that must be rejected,
/// such as an upgrade to an unknown version, needs none); sorted, each once.
std::vector<int32_t> NeededFormatVersions(const std::vector<Request>& requests,
                                          const std::vector<nlohmann::json>& expects);

/// The fixture document; its `id` is "<primary rule>/<slug>-<hash8>" and `hash` the
/// SHA-256 of the canonical JSON (sorted keys, no spaces) of {requires, switches, steps}.
nlohmann::json MakeFixture(const FixtureInput& input);

/// "<primary rule>/<slug>-<hash8>.json" for a fixture document.
std::string FixtureRelativePath(const nlohmann::json& fixture);

}  // namespace ictk
