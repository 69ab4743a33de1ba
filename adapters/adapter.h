/// \file
/// The implementation under test, as the harness sees it: one call, a protocol request
/// object in, a response object out. Transports (exec, lib, builtin) implement it. A
/// harness failure (crash, timeout, protocol error) is an Error, never an exception;
/// an implementation's `rejected` or `error` answer is a successful call.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "codec/result.h"

namespace ictk {

/// What went wrong at the transport level (the report verdicts of ARCHITECTURE.md).
enum class TransportFailure { kCrash, kTimeout, kProtocolError };
/// "crash", "timeout", "protocol-error".
std::string_view ToString(TransportFailure failure);
/// The failure an Adapter::Call error reports (by its message prefix), or nullopt when
/// `error` is not a transport failure.
std::optional<TransportFailure> TransportFailureOf(const Error& error);

class Adapter {
 public:
  virtual ~Adapter() = default;
  /// Sends one request (it carries "id") and returns the response object. On a transport
  /// failure returns an Error of kind kAdapter whose message starts with "crash:",
  /// "timeout:" or "protocol-error:"; the adapter restarts itself on the next call.
  virtual Result<nlohmann::json> Call(const nlohmann::json& request) = 0;
  /// A description for reports, e.g. "exec:./my-adapter --flag".
  virtual std::string Describe() const = 0;
  /// The last stderr output kept for the report (exec only; "" otherwise).
  virtual std::string StderrTail() const { return {}; }
  /// Whether the next Call starts the implementation's process again, after a crash, a
  /// timeout or a protocol error ended the last one (exec only): the session then sends
  /// it `hello` first, as protocol section 4 promises.
  virtual bool Restarting() const { return false; }
};

/// Options for making an adapter from a spec string.
struct AdapterOptions {
  int timeout_ms = 10000;  ///< per request
  /// Extra time for the first request after an exec adapter's process (re)starts, for
  /// runtimes that are slow to start (a JVM).
  int startup_grace_ms = 0;
  /// The longest answer line accepted (`--max-answer-bytes`, exec: and lib:); a longer
  /// one is a protocol error after reading no more than this many bytes of it.
  size_t max_line_bytes = 64u << 20;
  size_t stderr_tail_bytes = 16u << 10;
  bool isolate = false;   ///< run a lib: or builtin: adapter in a child behind `ictk serve`
  /// Address-space limit (RLIMIT_AS) of an exec: child and everything it starts, in
  /// MiB; 0 = none. Set with prlimit() right after the child is spawned. An adapter that
  /// exceeds it fails its allocations, and the crash it then has names the limit.
  size_t max_memory_mb = 0;
  std::string ictk_path;  ///< the `ictk` executable, for --isolate
};

/// Makes a `builtin:NAME?QUERY` adapter from its query string ("" or "mutant=X").
using BuiltinFactory =
    std::function<Result<std::unique_ptr<Adapter>>(const std::string& query)>;
/// NAME -> factory. Passed in by the CLI (which knows builtin:sample); adapters/ itself
/// provides builtin:reference through ReferenceAdapterFactory().
using BuiltinFactories = std::map<std::string, BuiltinFactory>;

/// Parses `exec:CMD ARGS…` (POSIX shell word splitting, no shell run), `lib:PATH.so`, and
/// `builtin:NAME[?QUERY]` looked up in `builtins`. Errors name the spec and the cause.
Result<std::unique_ptr<Adapter>> MakeAdapter(const std::string& spec,
                                             const AdapterOptions& options,
                                             const BuiltinFactories& builtins);

}  // namespace ictk
