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
#include <vector>

#include "adapters/adapter.h"
#include "codec/metadata_delta.h"
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
  /// For an `ok` answer given as a `metadata-delta` (docs/protocol.md section 7): the
  /// table metadata it stands for, rebuilt by the session, which holds it until its next
  /// call. nullptr for every other answer (whose metadata, if any, is its own member).
  const nlohmann::json* metadata = nullptr;
  /// For an `ok` answer with metadata on a table, while deltas are in use: what is known
  /// of that metadata (its number, and what a delta kept of the one before), for the
  /// decode memo (MetadataDecodeMemo::DecodeMetadata). Zero otherwise.
  MetadataLineage lineage;
};

/// What `hello` declared, as the generators read it: capability names, format versions,
/// profile and the finer declarations (docs/protocol.md section 9). The session and
/// `validate-adapter` both take their capabilities from here.
Capabilities CapabilitiesOf(const HelloInfo& hello);

class AdapterSession {
 public:
  explicit AdapterSession(std::unique_ptr<Adapter> adapter);

  /// Sends `hello`; on success the session knows the capabilities. An error here means
  /// the adapter cannot be certified at all (exit 2). `offer_metadata_delta` offers the
  /// adapter answers that carry only what changed in a table's metadata; the session
  /// then rebuilds each such answer's metadata (CallResult::metadata) from the last
  /// metadata answered for its table, and a delta it cannot apply is a protocol error.
  Result<HelloInfo> Handshake(bool offer_metadata_delta = false);

  /// Sends `request` (without "id"; one is added) and checks the answer echoes it. When
  /// the adapter's process is about to be started again (Adapter::Restarting), the
  /// handshake's `hello` goes first, with an id of its own, and must be answered `ok`;
  /// otherwise the call fails with what went wrong.
  CallResult Call(nlohmann::json request);
  /// Call, for a caller that reads answers whole (the fixture replay): an answer that
  /// came as a metadata delta carries instead the `metadata` it stands for.
  CallResult CallWhole(nlohmann::json request);

  const HelloInfo& hello() const { return hello_; }
  const nlohmann::json& hello_json() const { return hello_json_; }
  const Capabilities& capabilities() const { return capabilities_; }
  Adapter& adapter() { return *adapter_; }
  int64_t calls() const { return next_id_ - 1; }
  /// Microseconds spent inside Adapter::Call.
  int64_t adapter_micros() const { return adapter_micros_; }
  /// Whether answers may be metadata deltas: offered, and declared in the adapter's hello.
  bool metadata_delta() const { return metadata_delta_; }
  /// Answers that came as metadata deltas.
  int64_t delta_answers() const { return delta_answers_; }

 private:
  /// Rebuilds a `metadata-delta` answer's metadata into `out`, or remembers a whole
  /// metadata answered on a table; the protocol error of a delta that cannot be applied.
  std::optional<CallFailure> TrackMetadata(const nlohmann::json& request, int64_t id,
                                           CallResult& out);
  /// One request and its answer, without the restart's hello.
  CallResult Send(nlohmann::json request);
  /// The last metadata answered on each of the latest tables (the deltas' bases).
  MetadataDeltaReader bases_;
  bool metadata_delta_ = false;
  int64_t delta_answers_ = 0;
  /// The handshake's request (without "id"), sent again to a restarted process;
  /// null before a handshake succeeded.
  nlohmann::json hello_request_;
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
