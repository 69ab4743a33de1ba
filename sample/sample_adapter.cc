/// \file
/// The sample behind the adapter protocol: decodes requests with the codec (commit rows
/// against the table's schema), hands them to the engine, encodes its replies; and the
/// builtin transport (MakeSampleAdapter).
#include "sample/sample_adapter.h"

#include <fmt/format.h>

#include "codec/json_row.h"
#include "codec/json_table_metadata.h"
#include "codec/json_text.h"
#include "codec/protocol.h"
#include "sample/engine_internal.h"
#include "sample/session_internal.h"

namespace ictk::sample {
namespace {

using nlohmann::json;

constexpr const char* kCapabilities[] = {"check",         "unique",
                                         "primary-key",   "nested-keys",
                                         "upgrade",       "schema-evolution",
                                         "modify-rows",   "concurrent-commits",
                                         "validate",      "udf",
                                         "transforms",    "reader",
                                         "parse-metadata"};

json Envelope(const json& id, std::string_view result) {
  json j = json::object();
  j["id"] = id;
  j["result"] = result;
  return j;
}

json Rejected(const json& id, std::string_view kind, const std::string& message,
              const std::vector<ConstraintId>& ids = {}) {
  json j = Envelope(id, "rejected");
  json error = {{"kind", kind}, {"message", message}};
  if (!ids.empty()) error["constraint-ids"] = ids;
  j["error"] = std::move(error);
  return j;
}

json Encode(const json& id, const Reply& reply) {
  switch (reply.kind) {
    case Reply::Kind::kRejected:
      return Rejected(id, reply.error_kind, reply.message, reply.constraint_ids);
    case Reply::Kind::kUnsupported: {
      json j = Envelope(id, "unsupported");
      j["message"] = reply.message;
      return j;
    }
    case Reply::Kind::kError: {
      json j = Envelope(id, "error");
      j["message"] = reply.message;
      return j;
    }
    case Reply::Kind::kOk:
      break;
  }
  json j = Envelope(id, "ok");
  if (reply.metadata) j["metadata"] = TableMetadataToJson(*reply.metadata);
  if (reply.rows) {
    json rows = json::array();
    for (const Row& r : *reply.rows) rows.push_back(RowToJson(r, reply.row_fields));
    j["rows"] = std::move(rows);
  }
  if (reply.statuses) {
    json s = json::object();
    for (const auto& [cid, status] : *reply.statuses)
      s[std::to_string(cid)] = ToString(status);
    j["statuses"] = std::move(s);
  }
  return j;
}

std::string MutantName(Mutant m) {
  size_t n = 0;
  const MutantRow* rows = MutantTable(&n);
  for (size_t i = 0; i < n; ++i)
    if (rows[i].mutant == m) return std::string(rows[i].name);
  return {};
}

}  // namespace

Session::Session(Mutant mutant, Profile profile)
    : mutant_(mutant), profile_(profile), engine_(std::make_unique<Engine>(mutant)) {}
Session::~Session() = default;

json Session::Call(const json& request) {
  try {
    return CallUnchecked(request);
  } catch (const std::exception& e) {
    // A bug of the sample is its own failure (`error`), never a dead process.
    json j = Envelope(
        request.is_object() && request.contains("id") ? request["id"] : json(), "error");
    j["message"] = std::string("internal failure: ") + e.what();
    return j;
  }
}

json Session::CallUnchecked(const json& request) {
  if (!request.is_object()) {
    return Rejected(nullptr, kinds::kInvalidRequest, "a request is a JSON object");
  }
  const json id = request.contains("id") ? request["id"] : json(nullptr);
  const std::string op = RequestOpName(request);
  if (op.empty())
    return Rejected(id, kinds::kInvalidRequest, "the request has no \"op\"");
  if (op == "hello") {
    auto hello = HelloFromJson(request);
    if (!hello) return Rejected(id, kinds::kInvalidRequest, hello.error().message);
    if (!hello->protocol_version) {
      return Rejected(id, kinds::kInvalidRequest, "hello needs \"protocol-version\"");
    }
    if (*hello->protocol_version != kProtocolVersion) {
      json j = Envelope(id, "unsupported");
      j["message"] = fmt::format("protocol version {} is not supported (only {})",
                                 *hello->protocol_version, kProtocolVersion);
      return j;
    }
    json j = Envelope(id, "ok");
    j["protocol-version"] = kProtocolVersion;
    const std::string mutant = MutantName(mutant_);
    j["implementation"] = {
        {"name", mutant.empty() ? std::string("ictk-sample") : "ictk-sample+" + mutant},
        {"version", "0.1.0"},
        {"language", "c++"}};
    j["format-versions"] = {1, 2, 3, 4};
    j["capabilities"] = kCapabilities;
    ProfileHello(profile_, j);
    return j;
  }
  if (std::optional<json> answer = ProfileAnswer(profile_, op, request, id)) return *answer;
  auto decoded = RequestFromJson(request);
  if (!decoded) {
    const std::string& m = decoded.error().message;
    if (m.rfind("unsupported op", 0) == 0) {
      json j = Envelope(id, "unsupported");
      j["message"] = m;
      return j;
    }
    if (op == "parse-metadata" || op == "read-statuses") {
      return Rejected(id, kinds::kInvalidMetadata, m);
    }
    return Rejected(id, kinds::kInvalidRequest, m);
  }
  Request req = std::move(*decoded);
  if (auto* commit = std::get_if<Commit>(&req.op)) {
    // Rows are typed by the schema the commit writes under.
    const std::vector<NestedField>* fields =
        engine_->CommitFields(req.table, commit->txn);
    if (fields != nullptr) {
      for (auto [key, list] :
           {std::pair{"add", &commit->add}, std::pair{"modify", &commit->modify}}) {
        list->clear();
        const json* rows = request.contains(key) ? &request[key] : nullptr;
        if (rows == nullptr || !rows->is_array()) continue;
        for (size_t i = 0; i < rows->size(); ++i) {
          auto row = RowFromJson((*rows)[i], *fields, fmt::format("/{}/{}", key, i));
          if (!row) return Rejected(id, kinds::kInvalidRequest, row.error().message);
          list->push_back(std::move(*row));
        }
      }
    }
  }
  Reply reply = engine_->Handle(req);
  ApplyReaderMutants(mutant_, req, reply);
  return Encode(id, reply);
}

std::string Session::CallLine(std::string_view line) {
  auto parsed = ParseJsonText(line, "request");
  if (!parsed) {
    return DumpJson(Rejected(nullptr, kinds::kInvalidRequest, parsed.error().message));
  }
  return DumpJson(Call(*parsed));
}

std::string ParseSampleQuery(const std::string& query, Mutant& mutant) {
  Profile profile = Profile::kWriter;
  return ParseSampleQuery(query, mutant, profile);
}

std::string ParseSampleQuery(const std::string& query, Mutant& mutant, Profile& profile) {
  mutant = Mutant::kNone;
  profile = Profile::kWriter;
  size_t pos = 0;
  while (pos < query.size()) {
    size_t end = query.find('&', pos);
    if (end == std::string::npos) end = query.size();
    const std::string item = query.substr(pos, end - pos);
    pos = end + 1;
    if (item.empty()) continue;
    if (item.rfind("profile=", 0) == 0) {
      const std::string name = item.substr(std::string("profile=").size());
      std::optional<Profile> p = ParseProfile(name);
      if (!p)
        return fmt::format("unknown profile '{}' (writer, v3-reader or v4-reader)", name);
      profile = *p;
      continue;
    }
    const std::string prefix = "mutant=";
    if (item.rfind(prefix, 0) != 0) {
      return fmt::format(
          "unknown sample option '{}' (expected mutant=NAME or profile=NAME)", item);
    }
    const std::string name = item.substr(prefix.size());
    if (name.empty()) continue;
    auto m = ParseMutant(name);
    if (!m) return fmt::format("unknown mutant '{}' (see `ictk mutants --list`)", name);
    mutant = *m;
  }
  return {};
}

namespace {

/// builtin:sample — the session in-process.
class BuiltinSampleAdapter : public Adapter {
 public:
  BuiltinSampleAdapter(Mutant mutant, Profile profile, std::string description)
      : session_(mutant, profile), description_(std::move(description)) {}
  Result<json> Call(const json& request) override { return session_.Call(request); }
  std::string Describe() const override { return description_; }

 private:
  Session session_;
  std::string description_;
};

}  // namespace
}  // namespace ictk::sample

namespace ictk {

Result<std::unique_ptr<Adapter>> MakeSampleAdapter(const std::string& query) {
  sample::Mutant mutant = sample::Mutant::kNone;
  sample::Profile profile = sample::Profile::kWriter;
  std::string problem = sample::ParseSampleQuery(query, mutant, profile);
  if (!problem.empty()) return MakeError(ErrorKind::kUsage, problem);
  std::string description = query.empty() ? "builtin:sample" : "builtin:sample?" + query;
  return std::unique_ptr<Adapter>(std::make_unique<sample::BuiltinSampleAdapter>(
      mutant, profile, std::move(description)));
}

}  // namespace ictk
