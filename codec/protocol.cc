/// \file
/// The adapter protocol's messages in JSON (protocol.h, docs/protocol.md): every request
/// of ARCHITECTURE.md's table and the four kinds of response, decoded with a JSON pointer
/// in every error and encoded deterministically. Schemas, types, values, expressions,
/// constraints, rows and table metadata go through their own codec files.
#include "model/judge/capability.h"
#include "codec/protocol.h"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>

#include "codec/decode_memo.h"
#include "codec/json_constraint.h"
#include "codec/json_expression.h"
#include "codec/json_internal.h"
#include "codec/json_keys.h"
#include "codec/json_row.h"
#include "codec/json_schema.h"
#include "codec/json_table_metadata.h"
#include "codec/json_type.h"
#include "codec/json_value.h"

namespace ictk {

using nlohmann::json;
using namespace codec_internal;  // NOLINT: the codec's shared decoding helpers

namespace {

// Protocol member names (ARCHITECTURE.md "The adapter protocol"). Kebab-case keys appear
// only as constants in codec/ (STYLE.md).
constexpr std::string_view kOp = "op";
constexpr std::string_view kMsgId = "id";
constexpr std::string_view kTable = "table";
constexpr std::string_view kNowMs = "now-ms";
constexpr std::string_view kProtocolVersionKey = "protocol-version";
constexpr std::string_view kConstraint = "constraint";
constexpr std::string_view kSet = "set";
constexpr std::string_view kChanges = "changes";
constexpr std::string_view kAction = "action";
constexpr std::string_view kParentId = "parent-id";
constexpr std::string_view kFirst = "first";
constexpr std::string_view kAfter = "after";
constexpr std::string_view kBefore = "before";
constexpr std::string_view kRemoveConstraints = "remove-constraints";
constexpr std::string_view kAdd = "add";
constexpr std::string_view kRemove = "remove";
constexpr std::string_view kModify = "modify";
constexpr std::string_view kTxn = "txn";
constexpr std::string_view kDeterministic = "deterministic";
constexpr std::string_view kParameters = "parameters";
constexpr std::string_view kReturnType = "return-type";
constexpr std::string_view kBody = "body";
constexpr std::string_view kNames = "names";
constexpr std::string_view kMetadata = "metadata";
constexpr std::string_view kResult = "result";
constexpr std::string_view kRows = "rows";
constexpr std::string_view kStatuses = "statuses";
constexpr std::string_view kImplementation = "implementation";
constexpr std::string_view kVersion = "version";
constexpr std::string_view kLanguage = "language";
constexpr std::string_view kFormatVersions = "format-versions";
constexpr std::string_view kCapabilities = "capabilities";
constexpr std::string_view kProfile = "profile";
constexpr std::string_view kError = "error";
constexpr std::string_view kKind = "kind";
constexpr std::string_view kConstraintIds = "constraint-ids";
constexpr std::string_view kMessage = "message";

// Ops.
constexpr std::string_view kHello = "hello";
constexpr std::string_view kCreateTable = "create-table";
constexpr std::string_view kLoadTable = "load-table";
constexpr std::string_view kUpgrade = "upgrade";
constexpr std::string_view kAddConstraint = "add-constraint";
constexpr std::string_view kUpdateConstraint = "update-constraint";
constexpr std::string_view kRemoveConstraint = "remove-constraint";
constexpr std::string_view kUpdateSchema = "update-schema";
constexpr std::string_view kCommit = "commit";
constexpr std::string_view kBegin = "begin";
constexpr std::string_view kFinish = "finish";
constexpr std::string_view kDefineFunction = "define-function";
constexpr std::string_view kValidate = "validate";
constexpr std::string_view kScan = "scan";
constexpr std::string_view kReadStatuses = "read-statuses";
constexpr std::string_view kParseMetadata = "parse-metadata";

// Schema change actions.
constexpr std::string_view kAddColumn = "add-column";
constexpr std::string_view kDeleteColumn = "delete-column";
constexpr std::string_view kRenameColumn = "rename-column";
constexpr std::string_view kUpdateColumnType = "update-column-type";
constexpr std::string_view kMoveColumn = "move-column";
constexpr std::string_view kMakeOptional = "make-optional";

template <typename T>
tl::unexpected<Error> Fwd(const Result<T>& r) {
  return tl::unexpected(r.error());
}

/// A required member that must not be JSON null ("a null in a required field" is an
/// invalid request, ARCHITECTURE.md).
Result<const json*> RequireMember(const json& obj, std::string_view key,
                                  std::string_view pointer) {
  const json* m = Find(obj, key, /*null_is_absent=*/false);
  if (m == nullptr) return ParseError(pointer, fmt::format("missing \"{}\"", key));
  if (m->is_null()) return ParseError(Child(pointer, key), "must not be null");
  return m;
}

Result<std::vector<std::string>> StringList(const json& j, std::string_view pointer) {
  if (!j.is_array()) return Expected(pointer, "an array of strings", j);
  std::vector<std::string> out;
  for (size_t i = 0; i < j.size(); ++i) {
    auto s = AsString(j[i], Child(pointer, i));
    if (!s) return Fwd(s);
    out.push_back(std::move(*s));
  }
  return out;
}

Result<std::vector<std::string>> OptStringList(const json& obj, std::string_view key,
                                               std::string_view pointer) {
  const json* m = Find(obj, key);
  if (m == nullptr) return std::vector<std::string>{};
  return StringList(*m, Child(pointer, key));
}

template <typename Int>
Result<std::vector<Int>> IntList(const json& j, std::string_view pointer) {
  if (!j.is_array()) return Expected(pointer, "an array of integers", j);
  std::vector<Int> out;
  for (size_t i = 0; i < j.size(); ++i) {
    std::string p = Child(pointer, i);
    if constexpr (sizeof(Int) == 4) {
      auto v = AsInt32(j[i], p);
      if (!v) return Fwd(v);
      out.push_back(*v);
    } else {
      auto v = AsInt64(j[i], p);
      if (!v) return Fwd(v);
      out.push_back(*v);
    }
  }
  return out;
}

/// A value in a request row, before the model binds it to its field's type: scalars as
/// UntypedValueFromJson reads them, objects keyed by field IDs as structs,
/// `{"keys": [..], "values": [..]}` as maps, arrays as lists.
Result<Value> UntypedNestedFromJson(const json& j, std::string_view pointer) {
  if (j.is_array()) {
    std::vector<Value> elements;
    for (size_t i = 0; i < j.size(); ++i) {
      auto e = UntypedNestedFromJson(j[i], Child(pointer, i));
      if (!e) return e;
      elements.push_back(std::move(*e));
    }
    return Value::List(std::move(elements));
  }
  if (j.is_object()) {
    if (j.size() == 2 && j.contains(keys::kKeys) && j.contains(keys::kValues)) {
      const json& ks = j[std::string(keys::kKeys)];
      const json& vs = j[std::string(keys::kValues)];
      std::string kp = Child(pointer, keys::kKeys), vp = Child(pointer, keys::kValues);
      if (!ks.is_array()) return Expected(kp, "an array of map keys", ks);
      if (!vs.is_array()) return Expected(vp, "an array of map values", vs);
      if (ks.size() != vs.size())
        return ParseError(pointer, "a map needs as many values as keys");
      std::vector<Value> kv, vv;
      for (size_t i = 0; i < ks.size(); ++i) {
        auto k = UntypedNestedFromJson(ks[i], Child(kp, i));
        if (!k) return k;
        auto v = UntypedNestedFromJson(vs[i], Child(vp, i));
        if (!v) return v;
        kv.push_back(std::move(*k));
        vv.push_back(std::move(*v));
      }
      return Value::Map(std::move(kv), std::move(vv));
    }
    std::vector<std::pair<FieldId, Value>> members;
    for (auto it = j.begin(); it != j.end(); ++it) {
      std::string p = Child(pointer, it.key());
      int32_t id = 0;
      const std::string& k = it.key();
      auto r = std::from_chars(k.data(), k.data() + k.size(), id);
      if (k.empty() || r.ec != std::errc() || r.ptr != k.data() + k.size()) {
        return ParseError(p,
                          fmt::format("expected a field ID as the key, got \"{}\"", k));
      }
      auto v = UntypedNestedFromJson(*it, p);
      if (!v) return v;
      members.emplace_back(id, std::move(*v));
    }
    std::sort(members.begin(), members.end(),
              [](const auto& a, const auto& b) { return a.first < b.first; });
    std::vector<FieldId> ids;
    std::vector<Value> values;
    for (auto& [id, v] : members) {
      ids.push_back(id);
      values.push_back(std::move(v));
    }
    return Value::Struct(std::move(ids), std::move(values));
  }
  return UntypedValueFromJson(j, pointer);
}

/// A request row `{"key": "r1", "values": {"<field-id>": value, ...}}` with untyped
/// values.
Result<Row> UntypedRowFromJson(const json& j, std::string_view pointer) {
  if (!j.is_object()) return Expected(pointer, "a row object {\"key\", \"values\"}", j);
  auto key = RequireString(j, keys::kRowKey, pointer);
  if (!key) return Fwd(key);
  auto values = RequireMember(j, keys::kRowValues, pointer);
  if (!values) return Fwd(values);
  std::string vp = Child(pointer, keys::kRowValues);
  if (!(*values)->is_object())
    return Expected(vp, "an object keyed by field ID", **values);
  auto v = UntypedNestedFromJson(**values, vp);
  if (!v) return Fwd(v);
  if (v->kind != ValueKind::kStruct)
    return Expected(vp, "an object keyed by field ID", **values);
  return Row{std::move(*key), std::move(*v)};
}

json UntypedRowToJson(const Row& row) {
  json values = row.values.kind == ValueKind::kStruct ? UntypedValueToJson(row.values)
                                                      : json::object();
  return json{{keys::kRowKey, row.key}, {keys::kRowValues, std::move(values)}};
}

Result<std::vector<Row>> RowList(const json& obj, std::string_view key,
                                 std::string_view pointer,
                                 const std::vector<NestedField>* fields) {
  const json* m = Find(obj, key);
  if (m == nullptr) return std::vector<Row>{};
  std::string p = Child(pointer, key);
  if (!m->is_array()) return Expected(p, "an array of rows", *m);
  std::vector<Row> rows;
  for (size_t i = 0; i < m->size(); ++i) {
    auto r = fields ? RowFromJson((*m)[i], *fields, Child(p, i))
                    : UntypedRowFromJson((*m)[i], Child(p, i));
    if (!r) return Fwd(r);
    rows.push_back(std::move(*r));
  }
  return rows;
}

/// A default (`initial-default`, `write-default`) kept as its raw JSON text.
std::optional<std::string> RawDefault(const json& obj, std::string_view key) {
  const json* m = Find(obj, key, /*null_is_absent=*/false);
  if (m == nullptr) return std::nullopt;
  return Dump(*m);
}

Result<FieldId> RequireFieldId(const json& obj, std::string_view key,
                               std::string_view pointer) {
  auto m = RequireMember(obj, key, pointer);
  if (!m) return Fwd(m);
  return AsInt32(**m, Child(pointer, key));
}

Result<SchemaChange> SchemaChangeFromJson(const json& j, std::string_view pointer) {
  if (!j.is_object())
    return Expected(pointer, "a schema change object {\"action\": ...}", j);
  auto action = RequireString(j, kAction, pointer);
  if (!action) return Fwd(action);
  const std::string& a = *action;
  if (a == kAddColumn) {
    AddColumn c;
    auto parent = OptInt32(j, kParentId, pointer);
    if (!parent) return Fwd(parent);
    c.parent_id = *parent;
    auto name = RequireString(j, keys::kName, pointer);
    if (!name) return Fwd(name);
    c.name = std::move(*name);
    auto type = RequireMember(j, keys::kType, pointer);
    if (!type) return Fwd(type);
    auto t = TypeFromJson(**type, Child(pointer, keys::kType));
    if (!t) return Fwd(t);
    c.type = std::move(*t);
    auto required = OptBool(j, keys::kRequired, pointer);
    if (!required) return Fwd(required);
    c.required = required->value_or(false);
    auto doc = OptString(j, keys::kDoc, pointer);
    if (!doc) return Fwd(doc);
    c.doc = std::move(*doc);
    c.initial_default_json = RawDefault(j, keys::kInitialDefault);
    c.write_default_json = RawDefault(j, keys::kWriteDefault);
    return SchemaChange(std::move(c));
  }
  auto id = RequireFieldId(j, keys::kId, pointer);
  if (!id) return Fwd(id);
  if (a == kDeleteColumn) return SchemaChange(DeleteColumn{*id});
  if (a == kMakeOptional) return SchemaChange(MakeOptional{*id});
  if (a == kRenameColumn) {
    auto name = RequireString(j, keys::kName, pointer);
    if (!name) return Fwd(name);
    return SchemaChange(RenameColumn{*id, std::move(*name)});
  }
  if (a == kUpdateColumnType) {
    auto type = RequireMember(j, keys::kType, pointer);
    if (!type) return Fwd(type);
    auto t = TypeFromJson(**type, Child(pointer, keys::kType));
    if (!t) return Fwd(t);
    return SchemaChange(UpdateColumnType{*id, std::move(*t)});
  }
  if (a == kMoveColumn) {
    MoveColumn m;
    m.id = *id;
    int given = 0;
    if (const json* first = Find(j, kFirst)) {
      if (!first->is_boolean() || !first->get<bool>())
        return Expected(Child(pointer, kFirst), "true", *first);
      m.position = MoveColumn::Position::kFirst;
      ++given;
    }
    for (auto [key, position] : {std::pair{kAfter, MoveColumn::Position::kAfter},
                                 std::pair{kBefore, MoveColumn::Position::kBefore}}) {
      if (const json* ref = Find(j, key)) {
        auto r = AsInt32(*ref, Child(pointer, key));
        if (!r) return Fwd(r);
        m.position = position;
        m.reference = *r;
        ++given;
      }
    }
    if (given != 1)
      return ParseError(pointer, "move-column needs exactly one of first, after, before");
    return SchemaChange(m);
  }
  return ParseError(Child(pointer, kAction),
                    fmt::format("unknown schema change action \"{}\"", a));
}

json SchemaChangeToJson(const SchemaChange& change) {
  return std::visit(
      [](const auto& c) -> json {
        using T = std::decay_t<decltype(c)>;
        json j;
        if constexpr (std::is_same_v<T, AddColumn>) {
          j[std::string(kAction)] = kAddColumn;
          if (c.parent_id) j[std::string(kParentId)] = *c.parent_id;
          j[std::string(keys::kName)] = c.name;
          j[std::string(keys::kType)] = TypeToJson(c.type);
          j[std::string(keys::kRequired)] = c.required;
          if (c.doc) j[std::string(keys::kDoc)] = *c.doc;
          if (c.initial_default_json)
            j[std::string(keys::kInitialDefault)] = Undump(*c.initial_default_json);
          if (c.write_default_json)
            j[std::string(keys::kWriteDefault)] = Undump(*c.write_default_json);
        } else if constexpr (std::is_same_v<T, DeleteColumn>) {
          j[std::string(kAction)] = kDeleteColumn;
          j[std::string(keys::kId)] = c.id;
        } else if constexpr (std::is_same_v<T, RenameColumn>) {
          j[std::string(kAction)] = kRenameColumn;
          j[std::string(keys::kId)] = c.id;
          j[std::string(keys::kName)] = c.name;
        } else if constexpr (std::is_same_v<T, UpdateColumnType>) {
          j[std::string(kAction)] = kUpdateColumnType;
          j[std::string(keys::kId)] = c.id;
          j[std::string(keys::kType)] = TypeToJson(c.type);
        } else if constexpr (std::is_same_v<T, MoveColumn>) {
          j[std::string(kAction)] = kMoveColumn;
          j[std::string(keys::kId)] = c.id;
          switch (c.position) {
            case MoveColumn::Position::kFirst:
              j[std::string(kFirst)] = true;
              break;
            case MoveColumn::Position::kAfter:
              j[std::string(kAfter)] = c.reference;
              break;
            case MoveColumn::Position::kBefore:
              j[std::string(kBefore)] = c.reference;
              break;
          }
        } else {
          j[std::string(kAction)] = kMakeOptional;
          j[std::string(keys::kId)] = c.id;
        }
        return j;
      },
      change);
}

Result<ConstraintUpdate> ConstraintUpdateFromJson(const json& j,
                                                  std::string_view pointer) {
  if (!j.is_object()) return Expected(pointer, "an object of the fields to set", j);
  ConstraintUpdate u;
  auto name = OptString(j, keys::kName, pointer);
  if (!name) return Fwd(name);
  u.name = std::move(*name);
  auto enforced = OptBool(j, keys::kEnforced, pointer);
  if (!enforced) return Fwd(enforced);
  u.enforced = *enforced;
  if (const json* e = Find(j, keys::kExpression)) {
    auto expr = ExpressionFromJson(*e, Child(pointer, keys::kExpression));
    if (!expr) return Fwd(expr);
    u.expression = std::move(*expr);
  }
  if (const json* f = Find(j, keys::kFieldIds)) {
    auto ids = IntList<FieldId>(*f, Child(pointer, keys::kFieldIds));
    if (!ids) return Fwd(ids);
    u.field_ids = std::move(*ids);
  }
  auto type = OptString(j, keys::kType, pointer);
  if (!type) return Fwd(type);
  u.type = std::move(*type);
  return u;
}

json ConstraintUpdateToJson(const ConstraintUpdate& u) {
  json j = json::object();
  if (u.name) j[std::string(keys::kName)] = *u.name;
  if (u.enforced) j[std::string(keys::kEnforced)] = *u.enforced;
  if (u.expression) j[std::string(keys::kExpression)] = ExpressionToJson(*u.expression);
  if (u.field_ids) j[std::string(keys::kFieldIds)] = *u.field_ids;
  if (u.type) j[std::string(keys::kType)] = *u.type;
  return j;
}

Result<FunctionDefinition> FunctionFromJson(const json& j, std::string_view pointer) {
  FunctionDefinition f;
  auto name = RequireString(j, keys::kName, pointer);
  if (!name) return Fwd(name);
  f.name = std::move(*name);
  auto deterministic = RequireBool(j, kDeterministic, pointer);
  if (!deterministic) return Fwd(deterministic);
  f.deterministic = *deterministic;
  auto params = RequireMember(j, kParameters, pointer);
  if (!params) return Fwd(params);
  std::string pp = Child(pointer, kParameters);
  if (!(*params)->is_array()) return Expected(pp, "an array of {name, type}", **params);
  for (size_t i = 0; i < (*params)->size(); ++i) {
    const json& p = (**params)[i];
    std::string ip = Child(pp, i);
    if (!p.is_object()) return Expected(ip, "a parameter {name, type}", p);
    auto pname = RequireString(p, keys::kName, ip);
    if (!pname) return Fwd(pname);
    auto ptype = RequireMember(p, keys::kType, ip);
    if (!ptype) return Fwd(ptype);
    auto t = TypeFromJson(**ptype, Child(ip, keys::kType));
    if (!t) return Fwd(t);
    f.parameters.emplace_back(std::move(*pname), std::move(*t));
  }
  auto rt = RequireMember(j, kReturnType, pointer);
  if (!rt) return Fwd(rt);
  auto return_type = TypeFromJson(**rt, Child(pointer, kReturnType));
  if (!return_type) return Fwd(return_type);
  f.return_type = std::move(*return_type);
  auto body = RequireMember(j, kBody, pointer);
  if (!body) return Fwd(body);
  std::string bp = Child(pointer, kBody);
  // A boolean function's body is usually a predicate; any body may be a term.
  Result<Expr> expr = f.return_type.id == TypeId::kBoolean
                          ? ExpressionFromJson(**body, bp)
                          : TermFromJson(**body, bp);
  if (!expr && f.return_type.id == TypeId::kBoolean) {
    auto term = TermFromJson(**body, bp);
    if (term) expr = std::move(term);
  }
  if (!expr) return Fwd(expr);
  f.body = std::move(*expr);
  return f;
}

json FunctionToJson(const FunctionDefinition& f) {
  json params = json::array();
  for (const auto& [name, type] : f.parameters)
    params.push_back({{keys::kName, name}, {keys::kType, TypeToJson(type)}});
  return json{{keys::kName, f.name},
              {kDeterministic, f.deterministic},
              {kParameters, std::move(params)},
              {kReturnType, TypeToJson(f.return_type)},
              {kBody, ExpressionToJson(f.body)}};
}

Result<Operation> OperationFromJson(const std::string& op, const json& j,
                                    std::string_view pointer) {
  auto format_version = [&]() { return RequireInt32(j, keys::kFormatVersion, pointer); };
  if (op == kCreateTable) {
    CreateTable c;
    auto v = format_version();
    if (!v) return Fwd(v);
    c.format_version = *v;
    auto s = RequireMember(j, keys::kSchema, pointer);
    if (!s) return Fwd(s);
    auto schema = SchemaFromJson(**s, Child(pointer, keys::kSchema));
    if (!schema) return Fwd(schema);
    c.schema = std::move(*schema);
    return Operation(std::move(c));
  }
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
  if (op == kUpdateSchema) {
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
  if (op == kCommit) {
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
  return j;
}

std::optional<Response::Result> ParseResult(std::string_view text) {
  for (auto r : {Response::Result::kOk, Response::Result::kRejected,
                 Response::Result::kUnsupported, Response::Result::kError}) {
    if (ToString(r) == text) return r;
  }
  return std::nullopt;
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
  return h;
}

json HelloToJson(const HelloRequest& hello) {
  json j = {{kOp, kHello}};
  if (hello.protocol_version)
    j[std::string(kProtocolVersionKey)] = *hello.protocol_version;
  return j;
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
                                  MetadataDecodeMemo* memo) {
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
    return r;
  }
  if (r.result != Response::Result::kOk) return r;
  if (const json* m = Find(j, kMetadata)) {
    auto metadata =
        memo ? memo->DecodeMetadata(*m, "/metadata") : TableMetadataFromJson(*m, "/metadata");
    if (!metadata) return Fwd(metadata);
    r.metadata = std::move(*metadata);
    r.metadata_json = *m;
  }
  if (const json* rows = Find(j, kRows)) {
    if (!rows->is_array()) return Expected("/rows", "an array of rows", *rows);
    auto list = RowList(j, kRows, "", schema_fields);
    if (!list) return Fwd(list);
    r.rows = std::move(*list);
    r.rows_json = *rows;
  }
  if (const json* statuses = Find(j, kStatuses)) {
    if (!statuses->is_object())
      return Expected("/statuses", "an object of constraint ID -> status", *statuses);
    std::map<std::string, ConstraintStatus> out;
    for (auto it = statuses->begin(); it != statuses->end(); ++it) {
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
    r.statuses = std::move(out);
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
