/// \file
/// The sample's reader profiles and reader mutants (reader_profile_internal.h).
#include "sample/reader_profile_internal.h"

#include <fmt/format.h>

namespace ictk::sample {
namespace {

using nlohmann::json;

json Answer(const json& id, std::string_view result) {
  json j = json::object();
  j["id"] = id;
  j["result"] = result;
  return j;
}

json Refuse(const json& id, std::string_view kind, const std::string& message) {
  json j = Answer(id, "rejected");
  j["error"] = {{"kind", kind}, {"message", message}};
  return j;
}

/// The v4-only keys a v1-v3 metadata object carries ("" when none).
std::string V4OnlyKey(const json& md) {
  for (const char* key : {"constraints", "last-constraint-id"})
    if (md.contains(key)) return key;
  if (md.contains("snapshots") && md["snapshots"].is_array())
    for (const json& s : md["snapshots"])
      if (s.is_object() && s.contains("constraint-statuses")) return "constraint-statuses";
  return {};
}

}  // namespace

std::string_view ToString(Profile profile) {
  switch (profile) {
    case Profile::kV3Reader:
      return "v3-reader";
    case Profile::kV4Reader:
      return "v4-reader";
    case Profile::kWriter:
      break;
  }
  return "writer";
}

std::optional<Profile> ParseProfile(std::string_view name) {
  for (Profile p : {Profile::kWriter, Profile::kV3Reader, Profile::kV4Reader})
    if (ToString(p) == name) return p;
  return std::nullopt;
}

void ProfileHello(Profile profile, json& hello) {
  if (profile == Profile::kWriter) return;
  hello["profile"] = "reader";
  hello["format-versions"] =
      profile == Profile::kV3Reader ? json{1, 2, 3} : json{1, 2, 3, 4};
  hello["capabilities"] = {"reader", "parse-metadata"};
  if (hello.contains("implementation") && hello["implementation"].contains("name"))
    hello["implementation"]["name"] =
        hello["implementation"]["name"].get<std::string>() + "@" +
        std::string(ToString(profile));
}

std::optional<json> ProfileAnswer(Profile profile, std::string_view op,
                                  const json& request, const json& id) {
  if (profile == Profile::kWriter) return std::nullopt;
  if (op != "parse-metadata" && op != "read-statuses") {
    json j = Answer(id, "unsupported");
    j["message"] = fmt::format("a reader does not {} (profile {})", op, ToString(profile));
    return j;
  }
  const json* md = request.contains("metadata") ? &request["metadata"] : nullptr;
  if (md == nullptr || !md->is_object() || !md->contains("format-version") ||
      !(*md)["format-version"].is_number_integer())
    return std::nullopt;  // the engine's decoder says what is wrong
  const int64_t version = (*md)["format-version"].get<int64_t>();
  if (version < 1 || version > 4) return std::nullopt;
  const std::string key = version < 4 ? V4OnlyKey(*md) : std::string();
  if (profile == Profile::kV3Reader) {
    if (version == 4)
      return Refuse(id, kinds::kUnsupportedVersion,
                    "format version 4 is not supported by this v1-v3 reader");
    if (!key.empty())
      return Refuse(id, kinds::kInvalidMetadata,
                    fmt::format("v{} metadata carries '{}', a v4-only key", version, key));
    return std::nullopt;
  }
  // The v4 reader: v1-v3 metadata is read as given, v4-only keys and all.
  if (op == "parse-metadata" && !key.empty()) {
    json j = Answer(id, "ok");
    j["metadata"] = *md;
    return j;
  }
  return std::nullopt;
}

void ApplyReaderMutants(Mutant mutant, const Request& request, Reply& reply) {
  if (mutant != Mutant::kReaderDropsConstraints) return;
  if (!std::holds_alternative<ParseMetadata>(request.op)) return;
  if (reply.kind != Reply::Kind::kOk || !reply.metadata) return;
  TableMetadata& md = *reply.metadata;
  if (md.format_version < 4) return;
  // As a reader that knows format 4 but nothing of constraints writes it back.
  md.constraints.reset();
  md.last_constraint_id.reset();
  for (size_t i = 0; i < md.snapshots.size(); ++i)
    md.snapshots.mutable_at(i).constraint_statuses.reset();
}

}  // namespace ictk::sample
