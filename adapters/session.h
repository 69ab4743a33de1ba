/// \file
/// One conversation with an implementation under test: the `hello` handshake first (the
/// harness only uses the capabilities and format versions it declares), then requests
/// with increasing `id`s, each answer checked to echo its `id`. Transport failures come
/// back as a `TransportFailure` value, never an exception.
#pragma once

#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "adapters/adapter.h"
#include "codec/protocol.h"
#include "codec/result.h"
#include "generators/capabilities.h"

namespace ictk {

/// A transport failure of one call, as a report verdict names it.
struct CallFailure {
  TransportFailure kind = TransportFailure::kProtocolError;
  std::string message;
};

/// One call's outcome: the response object, or why there is none.
struct CallResult {
  std::optional<nlohmann::json> response;
  std::optional<CallFailure> failure;
};

class AdapterSession {
 public:
  explicit AdapterSession(std::unique_ptr<Adapter> adapter);

  /// Sends `hello`; on success the session knows the capabilities. An error here means
  /// the adapter cannot be certified at all (exit 2).
  Result<HelloInfo> Handshake();

  /// Sends `request` (without "id"; one is added) and checks the answer echoes it.
  CallResult Call(nlohmann::json request);

  const HelloInfo& hello() const { return hello_; }
  const nlohmann::json& hello_json() const { return hello_json_; }
  const Capabilities& capabilities() const { return capabilities_; }
  Adapter& adapter() { return *adapter_; }
  int64_t calls() const { return next_id_ - 1; }
  /// Microseconds spent inside Adapter::Call.
  int64_t adapter_micros() const { return adapter_micros_; }

 private:
  std::unique_ptr<Adapter> adapter_;
  HelloInfo hello_;
  nlohmann::json hello_json_;
  Capabilities capabilities_;
  int64_t next_id_ = 1;
  int64_t adapter_micros_ = 0;
};

/// Splits an adapter error message "crash: ..." / "timeout: ..." / "protocol-error: ..."
/// into its kind (protocol-error when it names none).
CallFailure ClassifyAdapterError(const Error& error);

}  // namespace ictk
