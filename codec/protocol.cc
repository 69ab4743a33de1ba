/// \file
/// The adapter protocol's messages in JSON (protocol.h, docs/protocol.md): every request
/// of ARCHITECTURE.md's table and the four kinds of response, decoded with a JSON pointer
/// in every error and encoded deterministically. Schemas, types, values, expressions,
/// constraints, rows and table metadata go through their own codec files.///
/// This file holds the requests; protocol_responses.cc the responses, protocol_members.cc
/// the members requests are made of.
#include "codec/protocol.h"

#include <fmt/format.h>

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "codec/json_constraint.h"
#include "codec/json_keys.h"
#include "codec/json_schema.h"
#include "codec/json_table_metadata.h"
#include "codec/protocol_internal.h"
#include "model/judge/capability.h"

namespace ictk {

using namespace protocol_internal;  // NOLINT: the protocol codec's shared names

namespace {

Result<Operation> CreateTableFromJson(const json& j, std::string_view pointer) {
  CreateTable c;
  auto v = RequireInt32(j, keys::kFormatVersion, pointer);
  if (!v) return Fwd(v);
  c.format_version = *v;
  auto s = RequireMember(j, keys::kSchema, pointer);
  if (!s) return Fwd(s);
  auto schema = SchemaFromJson(**s, Child(pointer, keys::kSchema));
  if (!schema) return Fwd(schema);
  c.schema = std::move(*schema);
  return Operation(std::move(c));
}

Result<Operation> UpdateSchemaFromJson(const json& j, std::string_view pointer) {
  UpdateSchema u;
  auto changes = RequireMember(j, kChanges, pointer);
  if (!changes) return Fwd(changes);
  std::string cp = Child(pointer, kChanges);
  if (!(*changes)->is_array())
    return Expected(cp, "an array of schema changes", **changes);
  for (size_t i = 0; i < (*changes)->size(); ++i) {
    auto c = SchemaChangeFromJson((**changes)[i], Child(cp, i));
    if (!c) return Fwd(c);
    u.changes.push_back(std::move(*c));
  }
  auto remove = OptStringList(j, kRemoveConstraints, pointer);
  if (!remove) return Fwd(remove);
  u.remove_constraints = std::move(*remove);
  return Operation(std::move(u));
}

Result<Operation> CommitFromJson(const json& j, std::string_view pointer) {
  Commit c;
  auto operation = RequireString(j, keys::kOperation, pointer);
  if (!operation) return Fwd(operation);
  auto parsed = ParseCommitOperation(*operation);
  if (!parsed) {
    return ParseError(
        Child(pointer, keys::kOperation),
        fmt::format("expected append, delete, overwrite or replace, got \"{}\"",
                    *operation));
  }
  c.operation = *parsed;
  auto add = RowList(j, kAdd, pointer, nullptr);
  if (!add) return Fwd(add);
  c.add = std::move(*add);
  auto remove = OptStringList(j, kRemove, pointer);
  if (!remove) return Fwd(remove);
  c.remove = std::move(*remove);
  auto modify = RowList(j, kModify, pointer, nullptr);
  if (!modify) return Fwd(modify);
  c.modify = std::move(*modify);
  auto txn = OptString(j, kTxn, pointer);
  if (!txn) return Fwd(txn);
  c.txn = std::move(*txn);
  return Operation(std::move(c));
}

Result<Operation> OperationFromJson(const std::string& op, const json& j,
                                    std::string_view pointer) {
  auto format_version = [&]() { return RequireInt32(j, keys::kFormatVersion, pointer); };
  if (op == kCreateTable) return CreateTableFromJson(j, pointer);
  if (op == kLoadTable) return Operation(LoadTable{});
  if (op == kUpgrade) {
    auto v = format_version();
    if (!v) return Fwd(v);
    return Operation(Upgrade{*v});
  }
  if (op == kAddConstraint) {
    auto c = RequireMember(j, kConstraint, pointer);
    if (!c) return Fwd(c);
    std::string cp = Child(pointer, kConstraint);
    if (!(*c)->is_object()) return Expected(cp, "a constraint object", **c);
    auto constraint = ConstraintFromJson(**c, cp);
    if (!constraint) return Fwd(constraint);
    return Operation(AddConstraint{std::move(*constraint)});
  }
  if (op == kUpdateConstraint) {
    auto name = RequireString(j, keys::kName, pointer);
    if (!name) return Fwd(name);
    auto set = RequireMember(j, kSet, pointer);
    if (!set) return Fwd(set);
    auto u = ConstraintUpdateFromJson(**set, Child(pointer, kSet));
    if (!u) return Fwd(u);
    return Operation(UpdateConstraint{std::move(*name), std::move(*u)});
  }
  if (op == kRemoveConstraint) {
    auto name = RequireString(j, keys::kName, pointer);
    if (!name) return Fwd(name);
    return Operation(RemoveConstraint{std::move(*name)});
  }
  if (op == kUpdateSchema) return UpdateSchemaFromJson(j, pointer);
  if (op == kCommit) return CommitFromJson(j, pointer);
  if (op == kBegin || op == kFinish) {
    auto txn = RequireString(j, kTxn, pointer);
    if (!txn) return Fwd(txn);
    if (op == kBegin) return Operation(Begin{std::move(*txn)});
    return Operation(Finish{std::move(*txn)});
  }
  if (op == kDefineFunction) {
    auto f = FunctionFromJson(j, pointer);
    if (!f) return Fwd(f);
    return Operation(DefineFunction{std::move(*f)});
  }
  if (op == kValidate) {
    auto names = RequireMember(j, kNames, pointer);
    if (!names) return Fwd(names);
    auto list = StringList(**names, Child(pointer, kNames));
    if (!list) return Fwd(list);
    return Operation(Validate{std::move(*list)});
  }
  if (op == kScan) {
    auto id = OptInt64(j, keys::kSnapshotId, pointer);
    if (!id) return Fwd(id);
    return Operation(Scan{*id});
  }
  if (op == kReadStatuses || op == kParseMetadata) {
    auto m = RequireMember(j, kMetadata, pointer);
    if (!m) return Fwd(m);
    auto metadata = TableMetadataFromJson(**m, Child(pointer, kMetadata));
    if (!metadata) return Fwd(metadata);
    if (op == kParseMetadata) return Operation(ParseMetadata{std::move(*metadata)});
    auto id = OptInt64(j, keys::kSnapshotId, pointer);
    if (!id) return Fwd(id);
    return Operation(ReadStatuses{std::move(*metadata), *id});
  }
  return MakeError(ErrorKind::kParse, fmt::format("unsupported op \"{}\"", op));
}

json OperationToJson(const Operation& operation) {
  return std::visit(
      [](const auto& o) -> json {
        using T = std::decay_t<decltype(o)>;
        json j = json::object();
        if constexpr (std::is_same_v<T, CreateTable>) {
          j[std::string(keys::kFormatVersion)] = o.format_version;
          j[std::string(keys::kSchema)] = SchemaToJson(o.schema);
        } else if constexpr (std::is_same_v<T, Upgrade>) {
          j[std::string(keys::kFormatVersion)] = o.format_version;
        } else if constexpr (std::is_same_v<T, AddConstraint>) {
          j[std::string(kConstraint)] = ConstraintToJson(o.constraint);
        } else if constexpr (std::is_same_v<T, UpdateConstraint>) {
          j[std::string(keys::kName)] = o.name;
          j[std::string(kSet)] = ConstraintUpdateToJson(o.set);
        } else if constexpr (std::is_same_v<T, RemoveConstraint>) {
          j[std::string(keys::kName)] = o.name;
        } else if constexpr (std::is_same_v<T, UpdateSchema>) {
          json changes = json::array();
          for (const auto& c : o.changes) changes.push_back(SchemaChangeToJson(c));
          j[std::string(kChanges)] = std::move(changes);
          if (!o.remove_constraints.empty())
            j[std::string(kRemoveConstraints)] = o.remove_constraints;
        } else if constexpr (std::is_same_v<T, Commit>) {
          j[std::string(keys::kOperation)] = std::string(ToString(o.operation));
          auto rows = [](const std::vector<Row>& rs) {
            json a = json::array();
            for (const auto& r : rs) a.push_back(UntypedRowToJson(r));
            return a;
          };
          if (!o.add.empty()) j[std::string(kAdd)] = rows(o.add);
          if (!o.remove.empty()) j[std::string(kRemove)] = o.remove;
          if (!o.modify.empty()) j[std::string(kModify)] = rows(o.modify);
          if (o.txn) j[std::string(kTxn)] = *o.txn;
        } else if constexpr (std::is_same_v<T, Begin> || std::is_same_v<T, Finish>) {
          j[std::string(kTxn)] = o.txn;
        } else if constexpr (std::is_same_v<T, DefineFunction>) {
          j = FunctionToJson(o.function);
        } else if constexpr (std::is_same_v<T, Validate>) {
          j[std::string(kNames)] = o.names;
        } else if constexpr (std::is_same_v<T, Scan>) {
          if (o.snapshot_id) j[std::string(keys::kSnapshotId)] = *o.snapshot_id;
        } else if constexpr (std::is_same_v<T, ReadStatuses>) {
          j[std::string(kMetadata)] = TableMetadataToJson(o.metadata);
          if (o.snapshot_id) j[std::string(keys::kSnapshotId)] = *o.snapshot_id;
        } else if constexpr (std::is_same_v<T, ParseMetadata>) {
          j[std::string(kMetadata)] = TableMetadataToJson(o.metadata);
        }
        return j;
      },
      operation);
}

bool OpActsOnTable(std::string_view op) {
  return op != kHello && op != kDefineFunction && op != kReadStatuses &&
         op != kParseMetadata;
}

}  // namespace

std::string RequestOpName(const json& j) {
  if (!j.is_object()) return {};
  auto it = j.find(kOp);
  if (it == j.end() || !it->is_string()) return {};
  return it->get<std::string>();
}

Result<Request> RequestFromJson(const json& j) {
  if (!j.is_object()) return Expected("", "a request object", j);
  auto op = RequireString(j, kOp, "");
  if (!op) return Fwd(op);
  if (*op == kHello) {
    return ParseError("/op", "hello is decoded by HelloFromJson, not RequestFromJson");
  }
  if (const json* id = Find(j, kMsgId)) {
    auto v = AsInt64(*id, "/id");
    if (!v) return Fwd(v);
  }
  Request request;
  auto now = OptInt64(j, kNowMs, "");
  if (!now) return Fwd(now);
  request.now_ms = *now;
  auto operation = OperationFromJson(*op, j, "");
  if (!operation) return Fwd(operation);
  request.op = std::move(*operation);
  if (OpActsOnTable(*op)) {
    auto table = RequireString(j, kTable, "");
    if (!table) return Fwd(table);
    request.table = std::move(*table);
  }
  return request;
}

json RequestToJson(const Request& request) {
  json j = OperationToJson(request.op);
  std::string op(OpName(request.op));
  j[std::string(kOp)] = op;
  if (OpActsOnTable(op) || !request.table.empty()) j[std::string(kTable)] = request.table;
  if (request.now_ms) j[std::string(kNowMs)] = *request.now_ms;
  return j;
}

Result<HelloRequest> HelloFromJson(const json& j) {
  if (!j.is_object()) return Expected("", "a request object", j);
  if (const json* id = Find(j, kMsgId)) {
    auto v = AsInt64(*id, "/id");
    if (!v) return Fwd(v);
  }
  HelloRequest h;
  auto v = OptInt32(j, kProtocolVersionKey, "");
  if (!v) return Fwd(v);
  h.protocol_version = *v;
  if (const json* offer = Find(j, kMetadataDelta)) {
    if (!offer->is_boolean()) return Expected("/metadata-delta", "true or false", *offer);
    h.offer_metadata_delta = offer->get<bool>();
  }
  return h;
}

json HelloToJson(const HelloRequest& hello) {
  json j = {{kOp, kHello}};
  if (hello.protocol_version)
    j[std::string(kProtocolVersionKey)] = *hello.protocol_version;
  if (hello.offer_metadata_delta) j[std::string(kMetadataDelta)] = true;
  return j;
}

const std::vector<std::string>& AllCapabilities() {
  static const std::vector<std::string> kCaps = [] {
    std::vector<std::string> names;
    for (const CapabilityInfo& c : CapabilityTable()) names.emplace_back(c.name);
    return names;
  }();
  return kCaps;
}

const std::vector<std::string>& AllOps() {
  static const std::vector<std::string> kOps = {std::string(kHello),
                                                std::string(kCreateTable),
                                                std::string(kLoadTable),
                                                std::string(kUpgrade),
                                                std::string(kAddConstraint),
                                                std::string(kUpdateConstraint),
                                                std::string(kRemoveConstraint),
                                                std::string(kUpdateSchema),
                                                std::string(kCommit),
                                                std::string(kBegin),
                                                std::string(kFinish),
                                                std::string(kDefineFunction),
                                                std::string(kValidate),
                                                std::string(kScan),
                                                std::string(kReadStatuses),
                                                std::string(kParseMetadata)};
  return kOps;
}

}  // namespace ictk
