/// \file
/// `ictk spec-diff`: the same generated histories judged by the model under two readings
/// (interpretation switches, model/rules/switches.h), on the model alone. A history disagrees
/// at the first step where the two allowed outcomes differ in the result (`ok` allowed,
/// rejection allowed), the allowed error kinds, the allowed status set of a constraint in
/// the new snapshot, whether that snapshot may list removed constraint IDs, what a reader
/// takes from metadata, or where each reading's canonical answer is not allowed by the
/// other. Each disagreeing history is shrunk over
/// RapidCheck's shrink tree of its plan (as properties/runner.h shrinks failures) to the
/// shortest history that disagrees the same way, and written as a fixture (FIXTURES.md,
/// under the `a` reading) with prose on which step differs and how.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "generators/history.h"
#include "model/rules/switches.h"

namespace ictk {

/// What `spec-diff` runs.
struct SpecDiffOptions {
  Switches a;
  Switches b;
  int histories = 200;
  uint64_t seed = 1;
  GenWeights weights = GenWeights::Default();  ///< the step kinds' mix
  int max_steps = 12;                          ///< plan steps per history
  int max_reported = 5;      ///< disagreements (of distinct kinds) shrunk and reported
  int shrink_budget = 2000;  ///< histories run while shrinking one disagreement
  std::string tool = "ictk";
  /// How the readings are named in the output ("" = the switches that differ from the
  /// defaults).
  std::string a_label, b_label;
};

/// The first step at which two readings disagree.
struct StepDisagreement {
  int step = 0;        ///< 1-based request index
  std::string op;      ///< "commit", "add-constraint", ...
  std::string label;   ///< the generator's step label
  std::string aspect;  ///< "result", "error-kind", "status", "stale-ids", "answer", ...
  std::string detail;  ///< how they differ, in words
  /// The rule the difference is about when the comparison knows it (st.exactly-one-list for
  /// stale IDs, the first finding's rule for an answer one reading refuses); else empty and
  /// the fixture is filed under the first rule that decided one reading and not the other.
  std::string rule;
  std::string allowed_a;  ///< DescribeAllowed under a
  std::string allowed_b;
  bool operator==(const StepDisagreement&) const = default;
};

/// One minimized disagreeing history.
struct Disagreement {
  int64_t case_index = 0;
  int original_requests = 0;
  int shrink_runs = 0;
  StepDisagreement at;
  std::vector<std::string> requests;  ///< one line per request, for printing
  nlohmann::json fixture;             ///< MakeFixture under the `a` reading
  std::string fixture_path;           ///< FixtureRelativePath(fixture)
  int64_t same_kind = 1;              ///< histories that disagreed the same way
  std::string rule;                   ///< the fixture's primary rule
  Plan plan;                          ///< the minimized plan (properties/minimize.h)
  bool minimal = false;  ///< the minimizer's passes reached their fixpoint
  std::vector<Request> request_values;  ///< `requests` as requests
  RenderOptions render;                 ///< where the history ran (table, clock)
  /// A written history's name (RequestsDisagreement; `case_index` is then -1), "" for a
  /// generated one.
  std::string history;
};

struct SpecDiffResult {
  int histories = 0;
  int64_t disagreeing = 0;                  ///< histories with at least one disagreement
  std::vector<Disagreement> disagreements;  ///< one per kind, in case order
  /// Kinds beyond max_reported, counted but not shrunk.
  int64_t unreported_kinds = 0;
  std::string a_text;  ///< the switches that differ from the defaults, "name=value ..."
  std::string b_text;
};

/// The first disagreement of `plan` rendered with `options` (the requests follow the `a`
/// reading's canonical answers, which both readings adopt), or nullopt. `requests`
/// receives the requests up to and including the disagreeing step and `expects` their
/// fixture expectations under `a`.
std::optional<StepDisagreement> FirstDisagreement(
    const Plan& plan, const RenderOptions& options, const Switches& a, const Switches& b,
    std::vector<Request>* requests = nullptr,
    std::vector<nlohmann::json>* expects = nullptr);

/// The first disagreement of a history given as requests (a review's written history,
/// review.h ReviewHistory) under `options.a` and `options.b`, as a Disagreement with its
/// fixture (slug `spec-diff-<name>`), or nullopt when the readings agree on every request.
/// Nothing is shrunk: a written history is as small as its author made it.
std::optional<Disagreement> RequestsDisagreement(const std::vector<Request>& requests,
                                                 const std::string& name,
                                                 const SpecDiffOptions& options);

/// Runs, compares and shrinks.
SpecDiffResult RunSpecDiff(const SpecDiffOptions& options);

/// The switches of `s` that differ from the defaults, "name=value name=value" ("defaults"
/// when none).
std::string SwitchesText(const Switches& s);

std::string RenderSpecDiffText(const SpecDiffResult& result);
std::string RenderSpecDiffMarkdown(const SpecDiffResult& result);
std::string RenderSpecDiffJson(const SpecDiffResult& result);

}  // namespace ictk
