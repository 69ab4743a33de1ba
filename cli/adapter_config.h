/// \file
/// How the command line turns `--adapter SPEC` (and `--timeout-ms`, `--isolate`) into an
/// Adapter: the transport options, and the builtins the CLI knows (`builtin:reference`,
/// and `builtin:sample[?mutant=NAME]` when the sample is built in).
#pragma once

#include <CLI/CLI.hpp>
#include <memory>
#include <string>

#include "adapters/adapter.h"
#include "cli/commands.h"
#include "codec/result.h"

namespace ictk::cli {

/// The adapter flags of one subcommand.
struct AdapterFlags {
  std::string spec;
  int timeout_ms = 10000;
  bool isolate = false;
  size_t max_memory_mb = 0;  ///< --max-memory MB (exec: and --isolate children)
  /// --max-answer-bytes N: the longest answer line (exec:, lib:, --isolate).
  size_t max_answer_bytes = 64u << 20;
};

/// Adds `--adapter` (required), `--timeout-ms`, `--isolate`, `--max-memory` and
/// `--max-answer-bytes` to `command`.
void AddAdapterFlags(CLI::App* command, AdapterFlags& flags);

/// `builtin:reference` under the run's switches, and `builtin:sample` when built in.
BuiltinFactories MakeBuiltinFactories(const GlobalOptions& global);

/// The transport options for `flags`; `ictk_path` is this executable (for --isolate).
AdapterOptions MakeAdapterOptions(const AdapterFlags& flags);

/// MakeAdapter with the above.
Result<std::unique_ptr<Adapter>> OpenAdapter(const GlobalOptions& global,
                                             const AdapterFlags& flags);

}  // namespace ictk::cli
