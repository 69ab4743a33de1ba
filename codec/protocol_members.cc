/// \file
/// The members the protocol's requests are made of (protocol_internal.h): rows before the
/// model binds them to a schema, schema changes, constraint updates and function
/// definitions, decoded with a JSON pointer in every error and encoded deterministically.
#include <fmt/format.h>

#include <charconv>
#include <string>
#include <utility>
#include <vector>

#include "codec/json_constraint.h"
#include "codec/json_expression.h"
#include "codec/json_keys.h"
#include "codec/json_row.h"
#include "codec/json_schema.h"
#include "codec/json_type.h"
#include "codec/json_value.h"
#include "codec/protocol_internal.h"

namespace ictk::protocol_internal {

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

namespace {

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


}  // namespace

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


namespace {

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


}  // namespace

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

}  // namespace ictk::protocol_internal
