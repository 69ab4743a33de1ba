/// \file
/// The sample implementation of the Iceberg v4 constraint rules: an in-memory engine
/// (catalog -> table -> transaction -> commit with conflict detection and retry) written
/// independently of the reference model (it shares the codec and the model's plain data
/// types, but none of its rule, evaluation, comparison or judging code), behind the
/// adapter protocol. It is reachable three ways, which answer byte for byte alike:
/// `builtin:sample[?mutant=NAME][&style=divergent]` (MakeSampleAdapter), the executable
/// `ictk-sample-adapter [--mutant NAME] [--style divergent]` (exec protocol on
/// stdin/stdout), and the shared library `libictk_sample_adapter.so`
/// (include/ictk/adapter.h), whose `ictk_adapter_init` takes the mutant from the
/// environment variable `ICTK_SAMPLE_MUTANT` (unset or empty: the correct sample) and the
/// style from `ICTK_SAMPLE_STYLE` — the only environment reads outside cli/, since a C
/// ABI init takes no arguments.
///
/// A **mutant** is the sample with one realistic bug tied to one rule ID; the kit's
/// mutation score is how many of them a run catches.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "adapters/adapter.h"
#include "codec/result.h"

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
};

/// Every mutant, in a fixed order.
const std::vector<MutantInfo>& SampleMutants();

/// The sample as an Adapter. `query` is "" (the correct sample) or `&`-separated
/// "mutant=NAME" and "style=canonical|divergent" (e.g. "style=divergent&mutant=NAME");
/// an unknown mutant, style or query key is a kUsage error. The divergent style answers,
/// at every step, a legal answer as far from the canonical one as the spec allows
/// (docs/writing-an-adapter.md, "The freedoms an implementation has").
Result<std::unique_ptr<Adapter>> MakeSampleAdapter(const std::string& query);

}  // namespace ictk
