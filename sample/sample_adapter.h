/// \file
/// The sample implementation of the Iceberg v4 constraint rules: an in-memory engine
/// (catalog -> table -> transaction -> commit with conflict detection and retry) written
/// independently of the reference model (it shares only the model's plain data types,
/// `ictk::model_types`, and none of its parsing, rule, evaluation, comparison or judging
/// code, nor the codec), behind the adapter protocol. It is reachable three ways, which answer byte for byte alike:
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
#include "sample/mutant_info.h"

namespace ictk {

/// The sample as an Adapter. `query` is "" (the correct sample) or `&`-separated
/// "mutant=NAME" and "style=canonical|divergent" (e.g. "style=divergent&mutant=NAME");
/// an unknown mutant, style or query key is a kUsage error. The divergent style answers,
/// at every step, a legal answer as far from the canonical one as the spec allows
/// (docs/writing-an-adapter.md, "The freedoms an implementation has").
Result<std::unique_ptr<Adapter>> MakeSampleAdapter(const std::string& query);

}  // namespace ictk
