/// \file
/// AdapterSession (session.h).
#include "adapters/session.h"

#include <fmt/format.h>

#include <chrono>

namespace ictk {

CallFailure ClassifyAdapterError(const Error& error) {
  CallFailure f;
  f.message = error.message;
  const std::string& m = error.message;
  if (m.rfind("crash", 0) == 0)
    f.kind = TransportFailure::kCrash;
  else if (m.rfind("timeout", 0) == 0)
    f.kind = TransportFailure::kTimeout;
  else
    f.kind = TransportFailure::kProtocolError;
  // The transports prefix their messages with the kind ("crash: ..."); the kind is said
  // apart, so the message keeps only what follows.
  const std::string prefix = std::string(ToString(f.kind)) + ": ";
  if (m.rfind(prefix, 0) == 0) f.message = m.substr(prefix.size());
  return f;
}

AdapterSession::AdapterSession(std::unique_ptr<Adapter> adapter)
    : adapter_(std::move(adapter)) {}

CallResult AdapterSession::Call(nlohmann::json request) {
  const int64_t id = next_id_++;
  request["id"] = id;
  const auto start = std::chrono::steady_clock::now();
  Result<nlohmann::json> r = adapter_->Call(request);
  adapter_micros_ += std::chrono::duration_cast<std::chrono::microseconds>(
                         std::chrono::steady_clock::now() - start)
                         .count();
  CallResult out;
  if (!r) {
    out.failure = ClassifyAdapterError(r.error());
    return out;
  }
  if (!r->is_object()) {
    out.failure =
        CallFailure{TransportFailure::kProtocolError, "the response is not an object"};
    return out;
  }
  auto it = r->find("id");
  if (it == r->end() || !it->is_number_integer() || it->get<int64_t>() != id) {
    out.failure = CallFailure{TransportFailure::kProtocolError,
                              fmt::format("the response does not echo id {}", id)};
    out.response = std::move(*r);
    return out;
  }
  out.response = std::move(*r);
  return out;
}

Result<HelloInfo> AdapterSession::Handshake() {
  CallResult r = Call({{"op", "hello"}, {"protocol-version", kProtocolVersion}});
  if (r.failure)
    return MakeError(
        ErrorKind::kAdapter,
        fmt::format("hello: {}: {}", ToString(r.failure->kind), r.failure->message));
  Result<Response> response = ResponseFromJson(*r.response);
  if (!response)
    return MakeError(ErrorKind::kAdapter, "hello: " + response.error().message);
  if (response->result != Response::Result::kOk || !response->hello)
    return MakeError(ErrorKind::kAdapter,
                     fmt::format("hello answered {}: {}", ToString(response->result),
                                 response->message));
  if (response->hello->protocol_version != kProtocolVersion)
    return MakeError(ErrorKind::kAdapter,
                     fmt::format("hello: protocol version {} (the harness speaks {})",
                                 response->hello->protocol_version, kProtocolVersion));
  hello_ = *response->hello;
  hello_json_ = *r.response;
  capabilities_ = Capabilities::FromHello(hello_.capabilities, hello_.format_versions,
                                         hello_.profile);
  return hello_;
}

}  // namespace ictk
