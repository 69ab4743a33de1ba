/// \file
/// AdapterSession (session.h).
#include "adapters/session.h"

#include <fmt/format.h>

#include <chrono>

#include "codec/json_text.h"
#include "codec/metadata_delta.h"

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
  if (!hello_request_.is_null() && adapter_->Restarting()) {
    // "The handshake, sent first after every (re)start" (protocol section 4): a process
    // started again has an empty catalog and has not seen the hello.
    CallResult hello = Send(hello_request_);
    std::optional<CallFailure> failed = hello.failure;
    if (!failed) {
      const auto result = hello.response->find("result");
      if (result == hello.response->end() || *result != "ok")
        failed = CallFailure{TransportFailure::kProtocolError,
                             "answered " + DumpJson(*hello.response)};
    }
    if (failed) {
      failed->message = "hello to the adapter's restarted process: " + failed->message;
      CallResult out;
      out.failure = std::move(failed);
      return out;
    }
  }
  return Send(std::move(request));
}

CallResult AdapterSession::Send(nlohmann::json request) {
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
  if (std::optional<CallFailure> bad = TrackMetadata(request, id, out))
    out.failure = std::move(bad);
  return out;
}

CallResult AdapterSession::CallWhole(nlohmann::json request) {
  CallResult out = Call(std::move(request));
  if (out.metadata != nullptr && out.response) PutWholeMetadata(*out.response, *out.metadata);
  return out;
}

std::optional<CallFailure> AdapterSession::TrackMetadata(const nlohmann::json& request,
                                                         int64_t id, CallResult& out) {
  const nlohmann::json& response = *out.response;
  // hello's own `metadata-delta` is the adapter's declaration, a boolean.
  if (const auto op = request.find("op"); op != request.end() && *op == "hello")
    return std::nullopt;
  const auto delta = response.find(kMetadataDeltaKey);
  const bool has_delta = delta != response.end() && !delta->is_null();
  auto protocol_error = [](std::string message) {
    return CallFailure{TransportFailure::kProtocolError, std::move(message)};
  };
  if (!metadata_delta_) {
    if (has_delta)
      return protocol_error(
          "the answer carries metadata-delta, which the harness did not offer or the "
          "adapter's hello did not declare (docs/protocol.md section 7)");
    return std::nullopt;
  }
  const auto table_it = request.find("table");
  const std::string table =
      table_it != request.end() && table_it->is_string() ? table_it->get<std::string>() : "";
  const auto result = response.find("result");
  const bool ok = result != response.end() && *result == "ok";
  const auto whole = response.find("metadata");
  if (has_delta) {
    if (!ok) return protocol_error("metadata-delta in an answer that is not ok");
    if (table.empty())
      return protocol_error(
          "metadata-delta answers a request without a table: its metadata must be whole");
    if (whole != response.end())
      return protocol_error("the answer carries both metadata and metadata-delta");
  }
  if (!ok || table.empty()) return std::nullopt;
  // The one resolution of a delta (codec/metadata_delta.h, MetadataDeltaReader).
  Result<MetadataDeltaReader::Read> read = bases_.Track(table, id, response);
  if (!read) return protocol_error(read.error().message);
  if (read->metadata != nullptr) ++delta_answers_;
  out.metadata = read->metadata;
  out.lineage = read->lineage;
  return std::nullopt;
}

Result<HelloInfo> AdapterSession::Handshake(bool offer_metadata_delta) {
  nlohmann::json hello = {{"op", "hello"}, {"protocol-version", kProtocolVersion}};
  if (offer_metadata_delta) hello["metadata-delta"] = true;
  metadata_delta_ = false;
  bases_.Clear();
  hello_request_ = nullptr;
  CallResult r = Call(std::move(hello));
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
  hello_request_ = {{"op", "hello"}, {"protocol-version", kProtocolVersion}};
  if (offer_metadata_delta) hello_request_["metadata-delta"] = true;
  metadata_delta_ = offer_metadata_delta && hello_.metadata_delta;
  capabilities_ = CapabilitiesOf(hello_);
  return hello_;
}

Capabilities CapabilitiesOf(const HelloInfo& hello) {
  Capabilities c =
      Capabilities::FromHello(hello.capabilities, hello.format_versions, hello.profile);
  if (hello.constraint_ops)
    c.constraint_ops.emplace(hello.constraint_ops->begin(), hello.constraint_ops->end());
  if (hello.expression_operators)
    c.expression_operators.emplace(hello.expression_operators->begin(),
                                   hello.expression_operators->end());
  return c;
}

}  // namespace ictk
