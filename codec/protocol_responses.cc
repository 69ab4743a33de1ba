/// \file
/// The adapter protocol's responses in JSON (protocol.h, docs/protocol.md): the four kinds
/// of response and hello's answer, decoded with a JSON pointer in every error (and the
/// shape an `ok` answer must have for its op) and encoded deterministically.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <charconv>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "codec/decode_memo.h"
#include "model/judge/capability.h"
#include "codec/json_keys.h"
#include "codec/json_table_metadata.h"
#include "codec/protocol.h"
#include "codec/protocol_internal.h"

namespace ictk {
namespace protocol_internal {

/// An optional list of `hello` (`constraint-ops`, `expression-operators`): strings from
/// `known`, each once, holding `required` when it is not empty.
Result<std::optional<std::vector<std::string>>> DeclaredNames(
    const json& j, std::string_view key, std::string_view pointer,
    const std::vector<std::string_view>& known, std::string_view required) {
  const json* member = Find(j, key);
  if (member == nullptr) return std::optional<std::vector<std::string>>();
  const std::string mp = Child(pointer, key);
  auto list = StringList(*member, mp);
  if (!list) return Fwd(list);
  for (size_t i = 0; i < list->size(); ++i) {
    const std::string& name = (*list)[i];
    const std::string at = fmt::format("{}/{}", mp, i);
    if (std::find(known.begin(), known.end(), name) == known.end())
      return Expected(at, fmt::format("one of {}", fmt::join(known, ", ")), json(name));
    if (std::find(list->begin(), list->begin() + static_cast<std::ptrdiff_t>(i), name) !=
        list->begin() + static_cast<std::ptrdiff_t>(i))
      return Expected(at, "a name listed once", json(name));
  }
  if (!required.empty() && std::find(list->begin(), list->end(), required) == list->end())
    return Expected(mp, fmt::format("a list holding \"{}\" (the check of last resort)", required),
                    *member);
  return std::optional<std::vector<std::string>>(std::move(*list));
}

Result<HelloInfo> HelloInfoFromJson(const json& j, std::string_view pointer) {
  HelloInfo h;
  auto version = RequireInt32(j, kProtocolVersionKey, pointer);
  if (!version) return Fwd(version);
  h.protocol_version = *version;
  auto impl = RequireMember(j, kImplementation, pointer);
  if (!impl) return Fwd(impl);
  std::string ip = Child(pointer, kImplementation);
  if (!(*impl)->is_object())
    return Expected(ip, "an object {name, version, language}", **impl);
  auto name = RequireString(**impl, keys::kName, ip);
  if (!name) return Fwd(name);
  auto ver = RequireString(**impl, kVersion, ip);
  if (!ver) return Fwd(ver);
  auto lang = RequireString(**impl, kLanguage, ip);
  if (!lang) return Fwd(lang);
  h.name = std::move(*name);
  h.version = std::move(*ver);
  h.language = std::move(*lang);
  auto fv = RequireMember(j, kFormatVersions, pointer);
  if (!fv) return Fwd(fv);
  auto versions = IntList<int32_t>(**fv, Child(pointer, kFormatVersions));
  if (!versions) return Fwd(versions);
  h.format_versions = std::move(*versions);
  auto caps = RequireMember(j, kCapabilities, pointer);
  if (!caps) return Fwd(caps);
  auto list = StringList(**caps, Child(pointer, kCapabilities));
  if (!list) return Fwd(list);
  h.capabilities = std::move(*list);
  if (const json* profile = Find(j, kProfile)) {
    const std::string pp = Child(pointer, kProfile);
    if (!profile->is_string() || (profile->get<std::string>() != kWriterProfile &&
                                  profile->get<std::string>() != kReaderProfile))
      return Expected(pp, "\"writer\" or \"reader\"", *profile);
    h.profile = profile->get<std::string>();
  }
  if (const json* delta = Find(j, kMetadataDelta)) {
    if (!delta->is_boolean())
      return Expected(Child(pointer, kMetadataDelta), "true or false", *delta);
    h.metadata_delta = delta->get<bool>();
  }
  auto ops = DeclaredNames(j, kConstraintOps, pointer, ConstraintOpNames(), "");
  if (!ops) return Fwd(ops);
  h.constraint_ops = std::move(*ops);
  auto operators = DeclaredNames(j, kExpressionOperators, pointer, ExpressionOperatorNames(),
                                 kRequiredOperator);
  if (!operators) return Fwd(operators);
  h.expression_operators = std::move(*operators);
  return h;
}

json HelloInfoToJson(const HelloInfo& h) {
  json j{{kProtocolVersionKey, h.protocol_version},
              {kImplementation,
               {{keys::kName, h.name}, {kVersion, h.version}, {kLanguage, h.language}}},
              {kFormatVersions, h.format_versions},
              {kCapabilities, h.capabilities}};
  // `profile` is written only when it is not the default, so that a writer's hello is
  // the same bytes as before the member existed.
  if (h.profile != kWriterProfile) j[std::string(kProfile)] = h.profile;
  if (h.metadata_delta) j[std::string(kMetadataDelta)] = true;
  if (h.constraint_ops) j[std::string(kConstraintOps)] = *h.constraint_ops;
  if (h.expression_operators) j[std::string(kExpressionOperators)] = *h.expression_operators;
  return j;
}


}  // namespace protocol_internal

using namespace protocol_internal;  // NOLINT: the protocol codec's shared names

namespace {

std::optional<Response::Result> ParseResult(std::string_view text) {
  for (auto r : {Response::Result::kOk, Response::Result::kRejected,
                 Response::Result::kUnsupported, Response::Result::kError}) {
    if (ToString(r) == text) return r;
  }
  return std::nullopt;
}

/// The `error` member of a `rejected` response into `r`: its kind, the constraint IDs it
/// names and its message.
Result<bool> DecodeRejection(const json& j, Response& r) {
  auto error = RequireMember(j, kError, "");
  if (!error) return Fwd(error);
  if (!(*error)->is_object())
    return Expected("/error", "an error object {kind, message}", **error);
  auto kind = RequireString(**error, kKind, "/error");
  if (!kind) return Fwd(kind);
  r.error_kind = std::move(*kind);
  if (const json* ids = Find(**error, kConstraintIds)) {
    auto list = IntList<ConstraintId>(*ids, "/error/constraint-ids");
    if (!list) return Fwd(list);
    r.error_constraint_ids = std::move(*list);
  }
  auto m = OptString(**error, kMessage, "/error");
  if (!m) return Fwd(m);
  if (*m) r.message = std::move(**m);
  return true;
}

/// The `statuses` member of an `ok` answer: constraint ID -> status.
Result<std::map<std::string, ConstraintStatus>> StatusesFromJson(const json& statuses) {
  if (!statuses.is_object())
    return Expected("/statuses", "an object of constraint ID -> status", statuses);
  std::map<std::string, ConstraintStatus> out;
  for (auto it = statuses.begin(); it != statuses.end(); ++it) {
    std::string p = Child("/statuses", it.key());
    const std::string& k = it.key();
    int32_t cid = 0;
    auto pr = std::from_chars(k.data(), k.data() + k.size(), cid);
    if (k.empty() || pr.ec != std::errc() || pr.ptr != k.data() + k.size())
      return ParseError(
          p, fmt::format("expected a constraint ID as the key, got \"{}\"", k));
    auto s = AsString(*it, p);
    if (!s) return Fwd(s);
    auto status = ParseConstraintStatus(*s);
    if (!status) {
      return ParseError(
          p, fmt::format("expected validated, valid, invalid or unvalidated, "
                         "got \"{}\"",
                         *s));
    }
    out[k] = *status;
  }
  return out;
}

}  // namespace

std::string_view ToString(Response::Result result) {
  switch (result) {
    case Response::Result::kOk:
      return "ok";
    case Response::Result::kRejected:
      return "rejected";
    case Response::Result::kUnsupported:
      return "unsupported";
    case Response::Result::kError:
      break;
  }
  return "error";
}

std::optional<Finding> MetadataShapeFinding(const json& j,
                                           const std::vector<NestedField>* schema_fields) {
  if (!j.is_object()) return std::nullopt;
  const json* m = Find(j, kMetadata);
  if (m == nullptr || !m->is_object()) return std::nullopt;
  Result<TableMetadata> md = TableMetadataFromJson(*m, "/metadata");
  if (md) return std::nullopt;
  json rest = j;
  rest.erase(std::string(kMetadata));
  if (!ResponseFromJson(rest, schema_fields)) return std::nullopt;
  Finding f = MetadataShapeFindingOf(md.error().message, "/metadata");
  f.detail = "the answer's " + f.detail;
  return f;
}

Finding MetadataShapeFindingOf(const std::string& message, const std::string& base) {
  // The decoder's messages read "<pointer>: <detail>".
  std::string pointer = base;
  const size_t colon = message.find(": ");
  if (colon != std::string::npos && message.rfind(base + "/", 0) == 0)
    pointer = message.substr(0, colon);
  return Finding{RuleId::kIceMetadataShape, std::nullopt, pointer,
                 "metadata is not valid Iceberg table metadata: " + message};
}

Result<Response> ResponseFromJson(const json& j,
                                  const std::vector<NestedField>* schema_fields) {
  return ResponseFromJson(j, schema_fields, nullptr);
}

Result<Response> ResponseFromJson(const json& j,
                                  const std::vector<NestedField>* schema_fields,
                                  MetadataDecodeMemo* memo, bool keep_json,
                                  const json* metadata) {
  if (!j.is_object()) return Expected("", "a response object", j);
  Response r;
  const json* id = Find(j, kMsgId, /*null_is_absent=*/false);
  if (id == nullptr) return ParseError("", "missing \"id\"");
  if (!id->is_null()) {
    auto v = AsInt64(*id, "/id");
    if (!v) return Fwd(v);
    r.id = *v;
  }
  auto result = RequireString(j, kResult, "");
  if (!result) return Fwd(result);
  auto parsed = ParseResult(*result);
  if (!parsed) {
    return ParseError("/result",
                      fmt::format("expected ok, rejected, unsupported or error, "
                                  "got \"{}\"",
                                  *result));
  }
  r.result = *parsed;
  auto message = OptString(j, kMessage, "");
  if (!message) return Fwd(message);
  r.message = message->value_or("");
  if (r.result == Response::Result::kRejected) {
    if (auto e = DecodeRejection(j, r); !e) return Fwd(e);
    return r;
  }
  if (r.result != Response::Result::kOk) return r;
  if (const json* m = metadata != nullptr ? metadata : Find(j, kMetadata)) {
    auto decoded =
        memo ? memo->DecodeMetadata(*m, "/metadata", memo->lineage())
             : TableMetadataFromJson(*m, "/metadata");
    if (!decoded) return Fwd(decoded);
    r.metadata = std::move(*decoded);
    if (keep_json) r.metadata_json = *m;
  }
  if (const json* rows = Find(j, kRows)) {
    if (!rows->is_array()) return Expected("/rows", "an array of rows", *rows);
    auto list = RowList(j, kRows, "", schema_fields);
    if (!list) return Fwd(list);
    r.rows = std::move(*list);
    if (keep_json) r.rows_json = *rows;
  }
  if (const json* statuses = Find(j, kStatuses)) {
    auto decoded = StatusesFromJson(*statuses);
    if (!decoded) return Fwd(decoded);
    r.statuses = std::move(*decoded);
  }
  if (Find(j, kProtocolVersionKey) != nullptr || Find(j, kCapabilities) != nullptr) {
    auto hello = HelloInfoFromJson(j, "");
    if (!hello) return Fwd(hello);
    r.hello = std::move(*hello);
  }
  return r;
}

json ResponseToJson(const Response& response) {
  json j = json::object();
  j[std::string(kMsgId)] = response.id ? json(*response.id) : json(nullptr);
  j[std::string(kResult)] = std::string(ToString(response.result));
  switch (response.result) {
    case Response::Result::kOk:
      if (response.metadata_json) {
        j[std::string(kMetadata)] = *response.metadata_json;
      } else if (response.metadata) {
        j[std::string(kMetadata)] = TableMetadataToJson(*response.metadata);
      }
      if (response.rows_json) {
        j[std::string(kRows)] = *response.rows_json;
      } else if (response.rows) {
        json rows = json::array();
        for (const auto& row : *response.rows) rows.push_back(UntypedRowToJson(row));
        j[std::string(kRows)] = std::move(rows);
      }
      if (response.statuses) {
        json s = json::object();
        for (const auto& [id, status] : *response.statuses)
          s[id] = std::string(ToString(status));
        j[std::string(kStatuses)] = std::move(s);
      }
      if (response.hello) {
        json hello = HelloInfoToJson(*response.hello);
        for (auto& [k, v] : hello.items()) j[k] = v;
      }
      break;
    case Response::Result::kRejected: {
      json e = json::object();
      e[std::string(kKind)] = response.error_kind.value_or("");
      if (response.error_constraint_ids)
        e[std::string(kConstraintIds)] = *response.error_constraint_ids;
      e[std::string(kMessage)] = response.message;
      j[std::string(kError)] = std::move(e);
      break;
    }
    case Response::Result::kUnsupported:
    case Response::Result::kError:
      j[std::string(kMessage)] = response.message;
      break;
  }
  return j;
}

std::optional<OkAnswerShape> OkShapeOfOp(std::string_view op) {
  if (op == kHello) return OkAnswerShape::kHello;
  if (op == kDefineFunction) return OkAnswerShape::kNothing;
  if (op == kScan) return OkAnswerShape::kRows;
  if (op == kReadStatuses) return OkAnswerShape::kStatuses;
  for (std::string_view m : {kCreateTable, kLoadTable, kUpgrade, kAddConstraint,
                             kUpdateConstraint, kRemoveConstraint, kUpdateSchema, kCommit,
                             kBegin, kFinish, kValidate, kParseMetadata}) {
    if (op == m) return OkAnswerShape::kMetadata;
  }
  return std::nullopt;
}

Result<Response> ResponseForOpFromJson(std::string_view op, const json& j,
                                       const std::vector<NestedField>* schema_fields) {
  auto r = ResponseFromJson(j, schema_fields);
  if (!r) return r;
  switch (r->result) {
    case Response::Result::kRejected: {
      const json& e = j[std::string(kError)];
      if (Find(e, kMessage) == nullptr)
        return ParseError("/error", "missing \"message\"");
      if (!ParseRejectKind(*r->error_kind)) {
        std::string known;
        for (RejectKind k : kAllRejectKinds)
          known += (known.empty() ? "" : ", ") + std::string(ToString(k));
        return ParseError("/error/kind",
                          fmt::format("unknown error kind \"{}\" (expected one "
                                      "of {})",
                                      *r->error_kind, known));
      }
      return r;
    }
    case Response::Result::kUnsupported:
    case Response::Result::kError:
      if (Find(j, kMessage) == nullptr) return ParseError("", "missing \"message\"");
      return r;
    case Response::Result::kOk:
      break;
  }
  auto shape = OkShapeOfOp(op);
  if (!shape) return r;
  switch (*shape) {
    case OkAnswerShape::kHello:
      if (!r->hello) {
        auto hello = HelloInfoFromJson(j, "");
        if (!hello) return Fwd(hello);
      }
      break;
    case OkAnswerShape::kMetadata:
      if (!r->metadata) return ParseError("", "missing \"metadata\"");
      break;
    case OkAnswerShape::kRows:
      if (!r->rows) return ParseError("", "missing \"rows\"");
      break;
    case OkAnswerShape::kStatuses:
      if (!r->statuses) return ParseError("", "missing \"statuses\"");
      break;
    case OkAnswerShape::kNothing:
      break;
  }
  return r;
}
std::string AdapterMessageOf(const nlohmann::json& response) {
  if (!response.is_object()) return "";
  const auto error = response.find(kError);
  if (error != response.end() && error->is_object()) {
    const auto m = error->find(kMessage);
    if (m != error->end() && m->is_string() && !m->get_ref<const std::string&>().empty())
      return m->get<std::string>();
  }
  const auto m = response.find(kMessage);
  return m != response.end() && m->is_string() ? m->get<std::string>() : "";
}

}  // namespace ictk
