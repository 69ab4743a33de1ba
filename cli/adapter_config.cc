/// \file
/// Adapter specs on the command line (adapter_config.h).
#include "cli/adapter_config.h"

#include "adapters/reference_adapter.h"
#include "cli/files_internal.h"

#if defined(ICTK_HAVE_SAMPLE) && __has_include("sample/sample_adapter.h")
#include "sample/sample_adapter.h"
#define ICTK_WITH_SAMPLE 1
#endif

namespace ictk::cli {

void AddAdapterFlags(CLI::App* command, AdapterFlags& flags) {
  command
      ->add_option(
          "--adapter", flags.spec,
          "The implementation: exec:CMD ARGS..., lib:PATH.so, builtin:reference, "
          "builtin:sample[?mutant=NAME][&style=divergent] (quote it in a shell)")
      ->required();
  command->add_option("--timeout-ms", flags.timeout_ms, "Per-request timeout (exec)")
      ->check(CLI::PositiveNumber);
  command->add_flag("--isolate", flags.isolate,
                    "Run the adapter in a child process behind `ictk serve`");
  command
      ->add_option("--max-memory", flags.max_memory_mb,
                   "Address-space limit of the adapter process in MiB (exec:, or any "
                   "adapter with --isolate); 0 = none")
      ->type_name("MB");
  command
      ->add_option(
          "--max-answer-bytes", flags.max_answer_bytes,
          "Longest answer line accepted, in bytes (default 67108864 = 64 MiB); a "
          "longer one is a protocol-error, refused after reading no more than "
          "this (exec:, lib:, --isolate)")
      ->type_name("N")
      ->check(CLI::PositiveNumber);
}

BuiltinFactories MakeBuiltinFactories(const GlobalOptions& global) {
  BuiltinFactories builtins;
  builtins["reference"] = ReferenceAdapterFactory(global.switches);
#ifdef ICTK_WITH_SAMPLE
  builtins["sample"] = [](const std::string& query) { return MakeSampleAdapter(query); };
#endif
  return builtins;
}

AdapterOptions MakeAdapterOptions(const AdapterFlags& flags) {
  AdapterOptions options;
  options.timeout_ms = flags.timeout_ms;
  options.isolate = flags.isolate;
  options.max_memory_mb = flags.max_memory_mb;
  options.max_line_bytes = flags.max_answer_bytes;
  options.ictk_path = ExecutablePath();
  return options;
}

Result<std::unique_ptr<Adapter>> OpenAdapter(const GlobalOptions& global,
                                             const AdapterFlags& flags) {
  if (flags.max_memory_mb > 0 && flags.spec.rfind("exec:", 0) != 0 && !flags.isolate) {
    return MakeError(ErrorKind::kUsage,
                     "--max-memory limits a child process: it needs an exec: adapter or "
                     "--isolate");
  }
  return MakeAdapter(flags.spec, MakeAdapterOptions(flags), MakeBuiltinFactories(global));
}

}  // namespace ictk::cli
