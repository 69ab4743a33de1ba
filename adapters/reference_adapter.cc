/// \file
/// `builtin:reference` (reference_adapter.h): decode, Apply, CanonicalAnswer, Adopt,
/// encode.
#include "adapters/reference_adapter.h"

#include <fmt/format.h>

#include "codec/decode_memo.h"
#include "codec/json_row.h"
#include "codec/json_table_metadata.h"
#include "codec/metadata_delta.h"
#include "codec/protocol.h"
#include "model/judge/operations.h"
#include "model/judge/table_state.h"

#ifndef ICTK_VERSION
#define ICTK_VERSION "0.0.0"
#endif

namespace ictk {
namespace {

using nlohmann::json;

json IdOf(const json& request) {
  if (request.is_object()) {
    auto it = request.find("id");
    if (it != request.end()) return *it;
  }
  return nullptr;
}

json WithId(json response, const json& id) {
  response["id"] = id;
  return response;
}

json Rejected(const json& id, RejectKind kind, const std::string& message) {
  Response r;
  r.result = Response::Result::kRejected;
  r.error_kind = std::string(ToString(kind));
  r.message = message;
  return WithId(ResponseToJson(r), id);
}

json Unsupported(const json& id, const std::string& message) {
  Response r;
  r.result = Response::Result::kUnsupported;
  r.message = message;
  return WithId(ResponseToJson(r), id);
}

class ReferenceAdapter final : public Adapter {
 public:
  explicit ReferenceAdapter(const Switches& switches) : switches_(switches) {}

  Result<json> Call(const json& request) override {
    json id = IdOf(request);
    std::string op = RequestOpName(request);
    if (op.empty()) {
      return Rejected(id, RejectKind::kInvalidRequest, "missing \"op\" (a string)");
    }
    if (op == "hello") return Hello(request, id);
    auto decoded = RequestFromJson(request);
    if (!decoded) {
      const std::string& m = decoded.error().message;
      if (m.rfind("unsupported op", 0) == 0) return Unsupported(id, m);
      if (op == "parse-metadata") return RejectMetadata(request, id, m);
      return Rejected(id, RejectKind::kInvalidRequest, m);
    }
    const Request& req = *decoded;
    AllowedOutcome outcome = Apply(state_, req, switches_);
    Answer answer = CanonicalAnswer(state_, req, outcome, switches_);
    // Encode before adopting: a scan's rows are typed by the schema they were read under.
    json response = Encode(req, outcome, answer, id);
    Adopt(state_, req, answer, switches_);
    return WithId(std::move(response), id);
  }

  std::string Describe() const override { return "builtin:reference"; }

 private:
  json Hello(const json& request, const json& id) {
    auto hello = HelloFromJson(request);
    if (!hello) return Rejected(id, RejectKind::kInvalidRequest, hello.error().message);
    if (!hello->protocol_version) {
      return Rejected(id, RejectKind::kInvalidRequest, "missing \"protocol-version\"");
    }
    if (*hello->protocol_version != kProtocolVersion) {
      return Unsupported(
          id, fmt::format("protocol version {} (this implementation speaks {})",
                          *hello->protocol_version, kProtocolVersion));
    }
    // Answers carry only what changed in the table's metadata when the harness offers
    // it (docs/protocol.md section 7).
    metadata_delta_ = hello->offer_metadata_delta;
    return ReferenceHello(id, metadata_delta_);
  }

  /// parse-metadata of metadata the codec cannot read: a reader rejects it.
  json RejectMetadata(const json& request, const json& id, const std::string& why) {
    const json& m = request.contains("metadata") ? request["metadata"] : json();
    if (m.is_object() && m.contains("format-version") &&
        m["format-version"].is_number_integer()) {
      int64_t v = m["format-version"].get<int64_t>();
      if (v < 1 || v > kMaxFormatVersion) {
        return Rejected(id, RejectKind::kUnsupportedFormatVersion,
                        fmt::format("format-version {} is not one this reader knows", v));
      }
    }
    if (!m.is_object()) return Rejected(id, RejectKind::kInvalidRequest, why);
    return Rejected(id, RejectKind::kInvalidMetadata, why);
  }

  json Encode(const Request& req, const AllowedOutcome& outcome, const Answer& answer,
              const json& id) {
    Response r;
    switch (answer.result) {
      case AnswerResult::kOk:
        r.result = Response::Result::kOk;
        break;
      case AnswerResult::kRejected:
        r.result = Response::Result::kRejected;
        break;
      case AnswerResult::kUnsupported:
        r.result = Response::Result::kUnsupported;
        break;
      case AnswerResult::kError:
        r.result = Response::Result::kError;
        break;
    }
    r.message = answer.message;
    if (answer.result == AnswerResult::kRejected) {
      r.error_kind = answer.error_kind ? std::string(ToString(*answer.error_kind))
                                       : answer.error_kind_text;
      r.error_constraint_ids = answer.error_constraint_ids;
      if (r.message.empty()) r.message = *r.error_kind;
      return ResponseToJson(r);
    }
    if (answer.result != AnswerResult::kOk) return ResponseToJson(r);
    // The metadata and the rows go into the object by move after ResponseToJson (which
    // would copy them): an answer's metadata is the whole table's.
    std::optional<json> metadata;
    const bool delta = answer.metadata && metadata_delta_ && !req.table.empty();
    if (answer.metadata && !delta)
      metadata = TableMetadataToJson(*answer.metadata, &encode_memo_);
    std::optional<json> rows_json;
    if (answer.rows) {
      const std::vector<NestedField>* fields = nullptr;
      if (outcome.rows_schema) {
        fields = &outcome.rows_schema->fields;
      } else if (const TableState* t = state_.FindTable(req.table)) {
        if (const Schema* s = t->metadata.CurrentSchema()) fields = &s->fields;
      }
      json rows = json::array();
      for (const Row& row : *answer.rows) {
        rows.push_back(fields ? RowToJson(row, *fields)
                              : json{{"key", row.key}, {"values", json::object()}});
      }
      rows_json = std::move(rows);
    }
    if (answer.statuses) {
      std::map<std::string, ConstraintStatus> statuses;
      for (const auto& [cid, status] : *answer.statuses)
        statuses[std::to_string(cid)] = status;
      r.statuses = std::move(statuses);
    }
    json response = ResponseToJson(r);
    if (metadata) response["metadata"] = std::move(*metadata);
    if (delta) delta_writer_.Put(response, req.table, id, *answer.metadata, &encode_memo_);
    if (rows_json) response["rows"] = std::move(*rows_json);
    return response;
  }

  Switches switches_;
  CatalogState state_;
  /// The snapshots and schemas of the last answer, encoded: most of them repeat in the
  /// next one (codec/decode_memo.h).
  MetadataEncodeMemo encode_memo_;
  bool metadata_delta_ = false;
  MetadataDeltaWriter delta_writer_;
};

}  // namespace

json ReferenceHello(const json& id, bool metadata_delta) {
  Response r;
  HelloInfo h;
  h.name = "ictk-reference";
  h.version = ICTK_VERSION;
  h.language = "c++";
  for (int32_t v = 1; v <= kMaxFormatVersion; ++v) h.format_versions.push_back(v);
  h.capabilities = AllCapabilities();
  h.metadata_delta = metadata_delta;
  r.hello = std::move(h);
  return WithId(ResponseToJson(r), id);
}

std::unique_ptr<Adapter> MakeReferenceAdapter(const Switches& switches) {
  return std::make_unique<ReferenceAdapter>(switches);
}

BuiltinFactory ReferenceAdapterFactory(const Switches& switches) {
  return [switches](const std::string& query) -> Result<std::unique_ptr<Adapter>> {
    if (!query.empty()) {
      return MakeError(ErrorKind::kUsage,
                       fmt::format("builtin:reference takes no query (got `{}`)", query));
    }
    return MakeReferenceAdapter(switches);
  };
}

}  // namespace ictk
