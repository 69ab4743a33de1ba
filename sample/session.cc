/// \file
/// The sample behind the adapter protocol (session_internal.h): decodes requests with its
/// own decoder (decode_internal.h; commit rows typed by the table's schema), hands them to
/// the engine, encodes its replies (encode_internal.h). Every transport goes through here.
#include <fmt/format.h>

#include <algorithm>

#include "sample/decode_internal.h"
#include "sample/encode_internal.h"
#include "sample/engine_internal.h"
#include "sample/session_internal.h"
#include "sample/wire_internal.h"

namespace ictk::sample {
namespace {

using nlohmann::json;

/// The protocol version the sample speaks (docs/protocol.md section 12).
constexpr int kProtocolVersion = 1;

/// Every capability of protocol version 1, as docs/protocol.md section 9 lists them: the
/// sample declares them all.
const std::vector<std::string>& Capabilities() {
  static const std::vector<std::string> kAll = {
      "check", "unique", "primary-key", "nested-keys", "upgrade", "schema-evolution",
      "modify-rows", "concurrent-commits", "validate", "udf", "transforms", "reader",
      "parse-metadata"};
  return kAll;
}

/// The `op` of a request object ("" when there is none or it is not a string).
std::string OpOf(const json& request) {
  auto it = request.find("op");
  return it != request.end() && it->is_string() ? it->get<std::string>() : std::string();
}

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
  if (reply.metadata) j["metadata"] = MetadataJson(*reply.metadata);
  if (reply.rows) {
    json rows = json::array();
    for (const Row& r : *reply.rows) rows.push_back(RowJson(r, reply.row_fields));
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

/// The unknown member the divergent style adds where a reader must ignore unknown members
/// (protocol section 2; Iceberg table metadata, its snapshots and constraints).
namespace {

constexpr const char* kExtraMember = "x-ictk-sample";

void AddExtra(json& object, std::string_view what) {
  if (object.is_object()) object[kExtraMember] = {{"style", "divergent"}, {"in", what}};
}

}  // namespace

bool ParseStyle(std::string_view name, Style& style) {
  if (name == "canonical") {
    style = Style::kCanonical;
    return true;
  }
  if (name == "divergent") {
    style = Style::kDivergent;
    return true;
  }
  return false;
}

uint64_t SeedOf(std::string_view text) {
  uint64_t h = 0xcbf29ce484222325ull;
  for (unsigned char c : text) {
    h ^= c;
    h *= 0x100000001b3ull;
  }
  return h;
}

Session::Session(Mutant mutant, Style style, Profile profile)
    : mutant_(mutant),
      style_(style),
      profile_(profile),
      engine_(std::make_unique<Engine>(mutant, style)) {
  engine_->set_strict_reader(profile == Profile::kV4Reader);
}
Session::~Session() = default;

namespace {

/// The same JSON, types included (nlohmann's == calls 1 and 1.0 equal; a delta must not
/// keep one where the other was answered).
bool Identical(const json& a, const json& b) {
  if (a.type() != b.type()) return false;
  if (a.is_object()) {
    if (a.size() != b.size()) return false;
    for (auto i = a.begin(), j = b.begin(); i != a.end(); ++i, ++j)
      if (i.key() != j.key() || !Identical(*i, *j)) return false;
    return true;
  }
  if (a.is_array()) {
    if (a.size() != b.size()) return false;
    for (size_t i = 0; i < a.size(); ++i)
      if (!Identical(a[i], b[i])) return false;
    return true;
  }
  return a == b;
}

}  // namespace

json Session::Call(const json& request) {
  json answer = CallWhole(request);
  if (delta_offered_) AnswerDelta(request, answer);
  return answer;
}

void Session::AnswerDelta(const json& request, json& answer) {
  const auto table = request.find("table");
  const auto result = answer.find("result");
  const auto metadata = answer.find("metadata");
  if (table == request.end() || !table->is_string() || result == answer.end() ||
      *result != "ok" || metadata == answer.end() || !metadata->is_object())
    return;
  const auto id = request.find("id");
  auto last = std::find_if(sent_.begin(), sent_.end(),
                           [&](const Sent& s) { return s.table == *table; });
  if (id == request.end() || !id->is_number_integer()) {
    if (last != sent_.end()) sent_.erase(last);
    return;
  }
  json next = std::move(*metadata);
  if (last != sent_.end()) {
    // What changed: members set or removed, and each list cut after the elements it
    // still starts with, the rest appended.
    json set = json::object(), remove = json::array(), splice = json::object();
    for (auto it = next.begin(); it != next.end(); ++it) {
      const auto old = last->metadata.find(it.key());
      if (old != last->metadata.end() && Identical(*old, *it)) continue;
      if (old != last->metadata.end() && old->is_array() && it->is_array()) {
        size_t keep = 0;
        while (keep < old->size() && keep < it->size() && Identical((*old)[keep], (*it)[keep]))
          ++keep;
        json add = json::array();
        for (size_t i = keep; i < it->size(); ++i) add.push_back((*it)[i]);
        splice[it.key()] = {{"keep", keep}, {"add", std::move(add)}};
      } else {
        set[it.key()] = *it;
      }
    }
    for (auto it = last->metadata.begin(); it != last->metadata.end(); ++it)
      if (!next.contains(it.key())) remove.push_back(it.key());
    json delta = {{"base", last->id}};
    if (!set.empty()) delta["set"] = std::move(set);
    if (!remove.empty()) delta["remove"] = std::move(remove);
    if (!splice.empty()) delta["splice"] = std::move(splice);
    answer.erase("metadata");
    answer["metadata-delta"] = std::move(delta);
    std::rotate(last, last + 1, sent_.end());
  } else {
    answer["metadata"] = next;
    if (sent_.size() == 4) sent_.erase(sent_.begin());
    sent_.push_back(Sent{table->get<std::string>(), 0, {}});
  }
  sent_.back().id = id->get<int64_t>();
  sent_.back().metadata = std::move(next);
}

json Session::CallWhole(const json& request) {
  try {
    if (style_ != Style::kDivergent) return CallUnchecked(request);
    // The seed of this request's choices: its text without the `id` the harness numbers
    // requests with (the table name is in it), so the same request on the same table is
    // answered alike on every run and every transport.
    uint64_t seed = 0;
    if (request.is_object()) {
      json keyed = request;
      keyed.erase("id");
      seed = SeedOf(WriteJsonText(keyed));
    }
    seed_ = seed;
    json answer = CallUnchecked(request);
    Diverge(answer, seed ^ 0x5a17ull);
    return answer;
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
  const std::string op = OpOf(request);
  if (op.empty())
    return Rejected(id, kinds::kInvalidRequest, "the request has no \"op\"");
  if (op == "hello") {
    std::optional<int32_t> version;
    try {
      version = DecodeHelloVersion(Slot(request, ""));
    } catch (const Malformed& e) {
      return Rejected(id, kinds::kInvalidRequest, e.what());
    }
    if (!version) {
      return Rejected(id, kinds::kInvalidRequest, "hello needs \"protocol-version\"");
    }
    if (*version != kProtocolVersion) {
      json j = Envelope(id, "unsupported");
      j["message"] = fmt::format("protocol version {} is not supported (only {})",
                                 *version, kProtocolVersion);
      return j;
    }
    json j = Envelope(id, "ok");
    j["protocol-version"] = kProtocolVersion;
    const std::string mutant = MutantName(mutant_);
    std::string name = mutant.empty() ? std::string("ictk-sample") : "ictk-sample+" + mutant;
    if (style_ == Style::kDivergent) name += " (divergent)";
    j["implementation"] = {
        {"name", name},
        {"version", "0.1.0"},
        {"language", "c++"}};
    j["format-versions"] = {1, 2, 3, 4};
    j["capabilities"] = Capabilities();
    ProfileHello(profile_, j);
    // protocol section 7: answers that carry only what changed, when offered.
    const auto offer = request.find("metadata-delta");
    delta_offered_ = offer != request.end() && offer->is_boolean() && offer->get<bool>() &&
                     profile_ == Profile::kWriter;
    sent_.clear();
    if (delta_offered_) j["metadata-delta"] = true;
    return j;
  }
  if (std::optional<json> answer = ProfileAnswer(profile_, op, request, id)) return *answer;
  if (std::optional<json> answer = RefuseAsMutant(mutant_, op, request, id)) return *answer;
  Request req;
  try {
    req = Decode(request);
  } catch (const UnknownOp& e) {
    json j = Envelope(id, "unsupported");
    j["message"] = e.what();
    return j;
  } catch (const std::exception& e) {
    const bool metadata = op == "parse-metadata" || op == "read-statuses";
    return Rejected(id, metadata ? kinds::kInvalidMetadata : kinds::kInvalidRequest,
                    e.what());
  }
  Reply reply = engine_->Handle(req, seed_);
  ApplyReaderMutants(mutant_, req, reply);
  json answer = Encode(id, reply);
  ApplyAnswerMutants(mutant_, op, request, answer);
  return answer;
}

Request Session::Decode(const json& request) const {
  Request req = DecodeRequest(Slot(request, ""));
  auto* commit = std::get_if<Commit>(&req.op);
  if (commit == nullptr) return req;
  // Rows are typed by the schema the commit writes under (read without one when the
  // table or transaction is unknown, which the engine refuses).
  const std::vector<NestedField>* fields = engine_->CommitFields(req.table, commit->txn);
  if (fields == nullptr) return req;
  for (auto [key, list] : {std::pair{"add", &commit->add}, std::pair{"modify", &commit->modify}}) {
    list->clear();
    auto rows = request.find(key);
    if (rows == request.end() || !rows->is_array()) continue;
    const Slot all(*rows, PointerTo("", key));
    for (size_t i = 0; i < all.Size(); ++i) list->push_back(DecodeRow(all.At(i), *fields));
  }
  return req;
}

void Session::Diverge(json& answer, uint64_t seed) const {
  if (!answer.is_object()) return;
  Chooser choose(seed);
  // "Unknown members must be ignored by both sides" (protocol section 2).
  AddExtra(answer, "response");
  if (answer.contains("error")) AddExtra(answer["error"], "error");
  if (json* rows = answer.contains("rows") ? &answer["rows"] : nullptr;
      rows != nullptr && rows->is_array()) {
    // scan: "in any order (the harness compares them as a set by key)".
    std::vector<json> list(rows->begin(), rows->end());
    choose.Shuffle(list);
    *rows = json(list);
  }
  if (!answer.contains("metadata") || !answer["metadata"].is_object()) return;
  json& md = answer["metadata"];
  AddExtra(md, "metadata");
  if (md.contains("constraints") && md["constraints"].is_array()) {
    // Constraints are referred to by ID, never by position; `field-ids` is "the set of
    // field IDs".
    std::vector<json> list(md["constraints"].begin(), md["constraints"].end());
    for (json& c : list) {
      AddExtra(c, "constraint");
      if (c.contains("field-ids") && c["field-ids"].is_array()) {
        std::vector<json> ids(c["field-ids"].begin(), c["field-ids"].end());
        choose.Shuffle(ids);
        c["field-ids"] = json(ids);
      }
    }
    choose.Shuffle(list);
    md["constraints"] = json(list);
  }
  if (md.contains("snapshots") && md["snapshots"].is_array()) {
    // Snapshots are found by ID (`current-snapshot-id`, `parent-snapshot-id`); each
    // status list is a set of IDs.
    std::vector<json> list(md["snapshots"].begin(), md["snapshots"].end());
    for (json& snap : list) {
      AddExtra(snap, "snapshot");
      if (!snap.contains("constraint-statuses")) continue;
      for (auto& [status, ids] : snap["constraint-statuses"].items()) {
        if (!ids.is_array()) continue;
        std::vector<json> l(ids.begin(), ids.end());
        choose.Shuffle(l);
        ids = json(l);
      }
    }
    choose.Shuffle(list);
    md["snapshots"] = json(list);
  }
}

std::string Session::CallLine(std::string_view line) {
  json parsed;
  try {
    parsed = ReadJsonText(line);
  } catch (const Malformed& e) {
    return WriteJsonText(Rejected(nullptr, kinds::kInvalidRequest, e.what()));
  }
  return WriteJsonText(Call(parsed));
}

std::string ParseSampleQuery(const std::string& query, Mutant& mutant, Style& style,
                             Profile& profile) {
  mutant = Mutant::kNone;
  style = Style::kCanonical;
  profile = Profile::kWriter;
  if (query.empty()) return {};
  bool seen_mutant = false, seen_style = false, seen_profile = false;
  size_t start = 0;
  while (start <= query.size()) {
    size_t end = query.find('&', start);
    if (end == std::string::npos) end = query.size();
    const std::string item = query.substr(start, end - start);
    start = end + 1;
    const size_t eq = item.find('=');
    const std::string key = item.substr(0, eq);
    const std::string value = eq == std::string::npos ? "" : item.substr(eq + 1);
    if (eq != std::string::npos && key == "mutant") {
      if (seen_mutant) return "mutant= is given twice";
      seen_mutant = true;
      if (value.empty()) continue;
      auto m = ParseMutant(value);
      if (!m) {
        std::string known;
        size_t count = 0;
        const MutantRow* rows = MutantTable(&count);
        for (size_t i = 0; i < count; ++i)
          known += (known.empty() ? "" : ", ") + std::string(rows[i].name);
        return fmt::format(
            "unknown mutant '{}' (known: {}; `ictk mutants --list` describes them)",
            value, known);
      }
      mutant = *m;
    } else if (eq != std::string::npos && key == "style") {
      if (seen_style) return "style= is given twice";
      seen_style = true;
      if (!ParseStyle(value, style)) {
        return fmt::format("unknown style '{}' (expected canonical or divergent)", value);
      }
    } else if (eq != std::string::npos && key == "profile") {
      if (seen_profile) return "profile= is given twice";
      seen_profile = true;
      std::optional<Profile> p = ParseProfile(value);
      if (!p)
        return fmt::format("unknown profile '{}' (writer, v3-reader or v4-reader)", value);
      profile = *p;
    } else {
      return fmt::format(
          "unknown sample option '{}' (expected mutant=NAME, "
          "style=canonical|divergent or profile=NAME, joined by &)",
          item);
    }
  }
  return {};
}

}  // namespace ictk::sample
