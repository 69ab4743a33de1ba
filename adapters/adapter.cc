/// \file
/// Adapter spec strings (adapter.h): `exec:`, `lib:`, `builtin:` and `--isolate`.
#include "adapters/adapter.h"

#include <fmt/format.h>

#include "adapters/exec_adapter.h"
#include "adapters/lib_adapter.h"
#include "adapters/reference_adapter.h"

namespace ictk {

std::string_view ToString(TransportFailure failure) {
  switch (failure) {
    case TransportFailure::kCrash:
      return "crash";
    case TransportFailure::kTimeout:
      return "timeout";
    case TransportFailure::kProtocolError:
      break;
  }
  return "protocol-error";
}

std::optional<TransportFailure> TransportFailureOf(const Error& error) {
  if (error.kind != ErrorKind::kAdapter) return std::nullopt;
  for (TransportFailure f : {TransportFailure::kCrash, TransportFailure::kTimeout,
                             TransportFailure::kProtocolError}) {
    std::string_view name = ToString(f);
    if (error.message.size() > name.size() &&
        error.message.compare(0, name.size(), name) == 0 &&
        error.message[name.size()] == ':') {
      return f;
    }
  }
  return std::nullopt;
}

Result<std::unique_ptr<Adapter>> MakeAdapter(const std::string& spec,
                                             const AdapterOptions& options,
                                             const BuiltinFactories& builtins) {
  auto usage = [&](const std::string& why) {
    return MakeError(ErrorKind::kUsage, fmt::format("adapter `{}`: {}", spec, why));
  };
  auto has_prefix = [&](std::string_view prefix) {
    return spec.compare(0, prefix.size(), prefix) == 0;
  };
  if (!has_prefix("exec:") && !has_prefix("lib:") && !has_prefix("builtin:")) {
    return usage("expected exec:CMD ARGS..., lib:PATH.so or builtin:NAME[?QUERY]");
  }
  // An exec: adapter already runs in a child of its own; wrapping it in `ictk serve` would
  // only add a process that, if killed, leaves the adapter's process group behind.
  if (options.isolate && !has_prefix("exec:")) {
    if (options.ictk_path.empty()) return usage("--isolate needs the path of ictk");
    AdapterOptions inner = options;
    inner.isolate = false;
    return MakeExecAdapter({options.ictk_path, "serve", "--adapter", spec}, inner,
                           "isolated " + spec);
  }
  if (has_prefix("exec:")) {
    auto words = SplitShellWords(std::string_view(spec).substr(5));
    if (!words) return usage(words.error().message);
    if (words->empty()) return usage("no command after exec:");
    std::string problem = ExecutableProblem((*words)[0]);
    if (!problem.empty()) {
      return MakeError(ErrorKind::kAdapter,
                       fmt::format("crash: cannot start {}: {}", (*words)[0], problem));
    }
    return MakeExecAdapter(std::move(*words), options, spec);
  }
  if (has_prefix("lib:")) {
    std::string path = spec.substr(4);
    if (path.empty()) return usage("no path after lib:");
    return MakeLibAdapter(path, spec, options.max_line_bytes);
  }
  std::string rest = spec.substr(8);
  size_t q = rest.find('?');
  std::string name = rest.substr(0, q);
  std::string query = q == std::string::npos ? std::string() : rest.substr(q + 1);
  auto it = builtins.find(name);
  if (it != builtins.end()) return it->second(query);
  if (name == "reference") return ReferenceAdapterFactory()(query);
  std::string known;
  for (const auto& [n, f] : builtins) known += (known.empty() ? "" : ", ") + n;
  if (builtins.find("reference") == builtins.end())
    known += (known.empty() ? "" : ", ") + std::string("reference");
  return usage(fmt::format("unknown builtin `{}` (known: {})", name, known));
}

}  // namespace ictk
