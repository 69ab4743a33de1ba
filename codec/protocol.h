/// \file
/// The adapter protocol's messages (ARCHITECTURE.md, docs/protocol.md) in JSON: requests
/// (model/judge/requests.h) and responses, each decoded with a JSON pointer in every error and
/// encoded deterministically. Every transport carries exactly these objects.
#pragma once

#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "codec/result.h"
#include "model/iceberg/constraint.h"
#include "model/rules/finding.h"
#include "model/judge/outcome.h"
#include "model/judge/requests.h"
#include "model/rules/constraint_rules.h"
#include "model/iceberg/table_metadata.h"
#include "model/iceberg/value.h"

namespace ictk {

inline constexpr int kProtocolVersion = 1;

/// The values of `hello`'s optional `profile` member.
inline constexpr std::string_view kWriterProfile = "writer";
inline constexpr std::string_view kReaderProfile = "reader";

/// The `hello` answer.
struct HelloInfo {
  int protocol_version = kProtocolVersion;
  std::string name, version, language;
  std::vector<int32_t> format_versions;
  std::vector<std::string> capabilities;
  /// `profile` (optional, protocol v1 addition): "writer" (the default when absent) or
  /// "reader" (the implementation does not write: only `hello`, `parse-metadata` and
  /// `read-statuses`). docs/protocol.md section 9.
  std::string profile = std::string(kWriterProfile);
  /// `metadata-delta` (optional, protocol v1 addition): the adapter may answer a
  /// `metadata-delta` instead of `metadata` (codec/metadata_delta.h), which it may only
  /// do when the harness offered it in its `hello`. docs/protocol.md section 7.
  bool metadata_delta = false;
  /// `constraint-ops` (optional, protocol v1 addition): the constraint ops answered, a
  /// subset of add-constraint, update-constraint, remove-constraint; absent, all three
  /// (when a constraint type is declared). docs/protocol.md section 9.
  std::optional<std::vector<std::string>> constraint_ops;
  /// `expression-operators` (optional, protocol v1 addition): the check predicates
  /// evaluated, by JSON `type`; absent, every one. It must hold `not-null`.
  std::optional<std::vector<std::string>> expression_operators;
  bool operator==(const HelloInfo&) const = default;
};

/// A `hello` request (not part of model::Operation since it concerns no table).
struct HelloRequest {
  std::optional<int> protocol_version;
  /// `metadata-delta: true` (optional, protocol v1 addition): the harness accepts
  /// answers that carry only what changed in the table's metadata.
  bool offer_metadata_delta = false;
};

/// One response, typed. `result` decides which members are meaningful.
struct Response {
  enum class Result { kOk, kRejected, kUnsupported, kError };
  std::optional<int64_t> id;  ///< echoed request id (null for an unparseable line)
  Result result = Result::kOk;
  // ok:
  std::optional<TableMetadata> metadata;
  std::optional<nlohmann::json> metadata_json;  ///< the metadata exactly as answered
  std::optional<std::vector<Row>> rows;         ///< scan (values decoded by the schema)
  std::optional<nlohmann::json> rows_json;      ///< scan rows exactly as answered
  std::optional<std::map<std::string, ConstraintStatus>> statuses;  ///< read-statuses
  std::optional<HelloInfo> hello;
  // rejected:
  std::optional<std::string> error_kind;  ///< raw text; ParseRejectKind to interpret
  std::optional<std::vector<ConstraintId>> error_constraint_ids;
  std::string message;  ///< rejected / unsupported / error
};

std::string_view ToString(Response::Result result);

/// Decodes one request object. `hello` decodes to HelloRequest via HelloFromJson instead;
/// RequestFromJson on a hello returns an error of kind kParse naming the op.
/// Unknown `op` -> error whose message starts with "unsupported op".
Result<Request> RequestFromJson(const nlohmann::json& j);
nlohmann::json RequestToJson(const Request& request);  ///< without "id"
Result<HelloRequest> HelloFromJson(const nlohmann::json& j);
/// The op name of a request object, or "" when absent / not a string.
std::string RequestOpName(const nlohmann::json& j);

/// Decodes a response. `schema_fields` (when given) types the values of `scan` rows.
Result<Response> ResponseFromJson(
    const nlohmann::json& j, const std::vector<NestedField>* schema_fields = nullptr);
nlohmann::json ResponseToJson(const Response& response);

/// The adapter's own words in a response, decoded or not: `error.message` of a
/// rejection, else the top-level `message` (an error, unsupported, or a note on ok);
/// "" when neither is a string. Shown with every failure (docs/certify.md).
std::string AdapterMessageOf(const nlohmann::json& response);

/// When `j` is a response that ResponseFromJson refuses only because of its `metadata` —
/// an object that is not valid Iceberg table metadata (a member of the wrong JSON form,
/// such as a v1 `partition-spec` written as an object where the spec says "stored as only
/// fields", or a required member missing) — the finding for it: ice.metadata-shape with
/// the decoder's JSON pointer (under "/metadata") and message. Such an answer is the
/// implementation's Iceberg metadata breaking an Iceberg rule, not a protocol error.
/// nullopt when the response is fine or its problem is the protocol's (not an object, no
/// `result`, `metadata` not an object, another member malformed).
std::optional<Finding> MetadataShapeFinding(
    const nlohmann::json& j, const std::vector<NestedField>* schema_fields = nullptr);

/// The ice.metadata-shape finding for metadata the decoder refused with `message` (which
/// reads "<pointer>: <detail>" when the decoder knows where): the pointer when it starts
/// with `base` ("/metadata" in a response, "" in a metadata file), else `base` itself.
/// MetadataShapeFinding and `ictk lint-metadata` both report a shape problem with it.
Finding MetadataShapeFindingOf(const std::string& message, const std::string& base);

/// A `hello` request object (without "id").
nlohmann::json HelloToJson(const HelloRequest& hello);

/// What an `ok` answer to an op must carry (docs/protocol.md "Answers").
enum class OkAnswerShape { kHello, kMetadata, kRows, kStatuses, kNothing };
/// The shape for a protocol op name; nullopt for an unknown op.
std::optional<OkAnswerShape> OkShapeOfOp(std::string_view op);

/// ResponseFromJson plus what docs/protocol.md requires of an answer to `op` and what the
/// JSON Schemas in docs/protocol/ say: a `message` on every rejected / unsupported /
/// error answer, a known error kind, and the members an `ok` answer to `op` carries
/// (`metadata`, `rows`, `statuses`, or the hello fields). This is the conformance check
/// of `ictk validate-adapter`; errors name the JSON pointer.
Result<Response> ResponseForOpFromJson(
    std::string_view op, const nlohmann::json& j,
    const std::vector<NestedField>* schema_fields = nullptr);

/// Every capability of protocol version 1, in the order docs/protocol.md lists them.
const std::vector<std::string>& AllCapabilities();
/// Every op of protocol version 1, `hello` first.
const std::vector<std::string>& AllOps();

}  // namespace ictk
