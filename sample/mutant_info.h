/// \file
/// The sample's named mutants as the CLI and the tests list them (sample/mutants.cc):
/// their names, the rule and clause each breaks, and what it is certified under. Part of
/// the sample's core (`ictk::sample_core`), which links no adapter or codec code.
#pragma once

#include <string>
#include <vector>

namespace ictk {

/// One named mutant of the sample.
struct MutantInfo {
  std::string name;         ///< e.g. "reuse-removed-id"
  std::string rule;         ///< the rule ID it breaks, e.g. "id.no-reuse"
  std::string description;  ///< the bug, in one sentence
  std::string clause;  ///< the clause of `rule` it ignores, e.g. "key.pk-required/own-flag"
  /// The sample profile it is certified under ("" = writer, "v4-reader", "v3-reader"):
  /// `ictk certify --mutation-score` runs `builtin:sample?mutant=NAME&profile=PROFILE`.
  std::string profile = {};
  /// The switches it is certified under, "NAME=VALUE" each (empty: the defaults), e.g.
  /// {"invalid-metadata-on-read=reject"} for a reader that must refuse what it accepts.
  std::vector<std::string> switches = {};
  /// Other clauses of `rule` the same bug breaks: a kill filed under one of them is under
  /// the mutant's own clause, for the answer that killed it shows only that breach (a
  /// writer that applies the primary key's required rule to unique keys refuses an
  /// optional field and one under an optional struct alike).
  std::vector<std::string> also_clauses = {};
};

/// Every mutant, in a fixed order.
const std::vector<MutantInfo>& SampleMutants();

}  // namespace ictk
