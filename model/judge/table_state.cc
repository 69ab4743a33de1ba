/// \file
/// The model's table state (table_state.h): derived structures, rows of older snapshots,
/// row normalization and comparison.
#include "model/judge/table_state.h"

#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <cctype>
#include <charconv>
#include <cstdlib>

#include "model/rules/constraint_rules.h"
#include "model/iceberg/schema.h"
#include "model/iceberg/value_compare.h"
#include "model/iceberg/value_parse.h"
#include "model/iceberg/kinds.h"

namespace ictk {

namespace {


bool NamesEqual(std::string_view a, std::string_view b, bool case_insensitive) {
  if (!case_insensitive) return a == b;
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (std::tolower(static_cast<unsigned char>(a[i])) !=
        std::tolower(static_cast<unsigned char>(b[i]))) {
      return false;
    }
  }
  return true;
}

KeyIndex BuildKeyIndex(KeyIndex index, const LiveRows& rows) {
  for (const auto& [key, values] : rows) index.Insert(values);
  return index;
}

// --- NormalizeRow ---------------------------------------------------------------------

std::optional<Value> BindValue(const Value& given, const Type& type, bool writing,
                               std::string& error);

/// Binds a struct value to `fields`. `writing`: fill write-defaults and refuse nulls in
/// required fields (a row a writer adds); otherwise a missing field is just null.
std::optional<Value> NormalizeStruct(const Value& given,
                                     const std::vector<NestedField>& fields, bool writing,
                                     std::string& error) {
  if (given.kind != ValueKind::kStruct) {
    error = fmt::format("expected a struct, got {}", ToString(given));
    return std::nullopt;
  }
  for (FieldId id : given.field_ids) {
    const bool known = std::any_of(fields.begin(), fields.end(),
                                   [&](const NestedField& f) { return f.id == id; });
    if (!known) {
      error = fmt::format("unknown field id {}", id);
      return std::nullopt;
    }
  }
  std::vector<FieldId> ids;
  std::vector<Value> values;
  ids.reserve(fields.size());
  values.reserve(fields.size());
  for (const NestedField& field : fields) {
    const Value* v = given.FindField(field.id);
    Value out;
    if (v == nullptr) {
      if (writing && field.write_default_json) {
        std::optional<Value> d = ParseDefaultJson(*field.write_default_json, field.type);
        if (d) out = std::move(*d);
      }
    } else if (!v->is_null()) {
      std::optional<Value> bound = BindValue(*v, field.type, writing, error);
      if (!bound) {
        if (error.empty())
          error = fmt::format("value {} of field {} is not a {}", ToString(*v), field.id,
                              ToString(field.type));
        return std::nullopt;
      }
      out = std::move(*bound);
    }
    if (writing && out.is_null() && field.required) {
      error = fmt::format("null in required field {} ({})", field.id, field.name);
      return std::nullopt;
    }
    ids.push_back(field.id);
    values.push_back(std::move(out));
  }
  return Value::Struct(std::move(ids), std::move(values));
}

std::optional<Value> BindValue(const Value& given, const Type& type, bool writing,
                               std::string& error) {
  if (given.is_null()) return Value::Null();
  switch (type.id) {
    case TypeId::kStruct:
      return NormalizeStruct(given, type.fields, writing, error);
    case TypeId::kList: {
      if (given.kind != ValueKind::kList) return std::nullopt;
      std::vector<Value> elements;
      for (const Value& e : given.children) {
        if (e.is_null()) {
          if (writing && type.element_required) {
            error = fmt::format("null element in a list of required elements (id {})",
                                type.element_id);
            return std::nullopt;
          }
          elements.push_back(Value::Null());
          continue;
        }
        std::optional<Value> b = BindValue(e, type.element(), writing, error);
        if (!b) return std::nullopt;
        elements.push_back(std::move(*b));
      }
      return Value::List(std::move(elements));
    }
    case TypeId::kMap: {
      if (given.kind != ValueKind::kMap || given.children.size() % 2 != 0)
        return std::nullopt;
      const size_t n = given.children.size() / 2;
      std::vector<Value> keys, values;
      for (size_t i = 0; i < n; ++i) {
        const Value& k = given.children[i];
        const Value& v = given.children[n + i];
        if (k.is_null()) {
          error = "null map key";
          return std::nullopt;
        }
        std::optional<Value> bk = BindValue(k, type.key(), writing, error);
        if (!bk) return std::nullopt;
        if (v.is_null()) {
          if (writing && type.value_required) {
            error = fmt::format("null value in a map of required values (id {})",
                                type.value_id);
            return std::nullopt;
          }
          keys.push_back(std::move(*bk));
          values.push_back(Value::Null());
          continue;
        }
        std::optional<Value> bv = BindValue(v, type.value(), writing, error);
        if (!bv) return std::nullopt;
        keys.push_back(std::move(*bk));
        values.push_back(std::move(*bv));
      }
      return Value::Map(std::move(keys), std::move(values));
    }
    default:
      if (ValueFitsType(given, type)) return given;
      return BindLiteral(given, type);
  }
}

// --- ParseDefaultJson -----------------------------------------------------------------

std::string_view Trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front())))
    s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back())))
    s.remove_suffix(1);
  return s;
}


/// The text of a JSON string literal `"..."` (escapes decoded); nullopt when malformed.
std::optional<std::string> UnquoteJsonString(std::string_view s) {
  if (s.size() < 2 || s.front() != '"' || s.back() != '"') return std::nullopt;
  s = s.substr(1, s.size() - 2);
  std::string out;
  for (size_t i = 0; i < s.size(); ++i) {
    char c = s[i];
    if (c != '\\') {
      if (c == '"') return std::nullopt;
      out += c;
      continue;
    }
    if (++i >= s.size()) return std::nullopt;
    switch (s[i]) {
      case '"':
        out += '"';
        break;
      case '\\':
        out += '\\';
        break;
      case '/':
        out += '/';
        break;
      case 'b':
        out += '\b';
        break;
      case 'f':
        out += '\f';
        break;
      case 'n':
        out += '\n';
        break;
      case 'r':
        out += '\r';
        break;
      case 't':
        out += '\t';
        break;
      case 'u': {
        if (s.size() - i <= 4) return std::nullopt;
        uint32_t cp = 0;
        auto r = std::from_chars(s.data() + i + 1, s.data() + i + 5, cp, 16);
        if (r.ec != std::errc() || r.ptr != s.data() + i + 5) return std::nullopt;
        i += 4;
        AppendUtf8(out, cp);
        break;
      }
      default:
        return std::nullopt;
    }
  }
  return out;
}

}  // namespace

const Constraint* FindConstraintByName(const TableMetadata& metadata,
                                       std::string_view name, bool case_insensitive) {
  for (const Constraint& c : ConstraintsOf(metadata))
    if (c.name && NamesEqual(*c.name, name, case_insensitive)) return &c;
  return nullptr;
}

namespace {
std::atomic<bool> g_reuse_bound_checks{true};

/// The expression a check without one is bound as.
const Expr& TrueExpr() {
  static const Expr kTrue = Expr::True();
  return kTrue;
}
}  // namespace

void SetBoundCheckReuse(bool reuse) { g_reuse_bound_checks = reuse; }
bool BoundCheckReuse() { return g_reuse_bound_checks.load(std::memory_order_relaxed); }

const CompiledCheck& BoundCheckOf(const CheckTally& tally,
                                  const std::vector<NestedField>& fields,
                                  const FunctionCatalog& functions,
                                  std::optional<CompiledCheck>& scratch) {
  if (tally.compiled && BoundCheckReuse() && tally.bound_fields == fields)
    return *tally.compiled;
  scratch.emplace(tally.expression ? *tally.expression : TrueExpr(), fields, functions);
  return *scratch;
}

CompiledCheck BoundCheckOf(const TableState& table, const Constraint& c,
                           const std::vector<NestedField>& fields,
                           const FunctionCatalog& functions) {
  if (c.id)
    if (auto it = table.check_tallies.find(*c.id);
        it != table.check_tallies.end() && it->second.expression == c.expression) {
      std::optional<CompiledCheck> scratch;
      return BoundCheckOf(it->second, fields, functions, scratch);
    }
  return CompiledCheck(c.expression ? *c.expression : TrueExpr(), fields, functions);
}

CheckTally TallyCheck(const Constraint& check, const std::vector<NestedField>& fields,
                      const LiveRows& rows, const FunctionCatalog& functions,
                      const CheckTally* bound) {
  CheckTally tally;
  tally.expression = check.expression;
  if (!check.expression) return tally;
  if (bound != nullptr && bound->compiled && bound->expression == check.expression &&
      BoundCheckReuse() && bound->bound_fields == fields) {
    tally.calls_udf = bound->calls_udf;
    tally.calls_nondeterministic = bound->calls_nondeterministic;
    tally.called_functions = bound->called_functions;
    tally.calls_beyond_depth = bound->calls_beyond_depth;
    tally.compiled = bound->compiled;
  } else {
    BindResult calls = SurveyCalls(*check.expression, functions);
    tally.calls_udf = calls.calls_udf;
    tally.calls_nondeterministic = calls.calls_nondeterministic;
    tally.called_functions = std::move(calls.called_functions);
    tally.calls_beyond_depth = calls.calls_beyond_depth;
    tally.compiled.emplace(*check.expression, fields, functions);  // bound once
  }
  tally.bound_fields = fields;
  const CompiledCheck& compiled = *tally.compiled;
  for (const auto& [key, values] : rows) {
    std::optional<bool> ok = RowSatisfies(compiled, values);
    if (!ok) {
      ++tally.unevaluable;
    } else if (!*ok) {
      ++tally.violating;
    }
  }
  return tally;
}

void RebuildDerived(TableState& table, const FunctionCatalog& functions,
                    const TableState* bindings) {
  table.key_indexes.clear();
  table.check_tallies.clear();
  if (bindings == nullptr) {
    SyncDerived(table, functions);
    return;
  }
  // The checks as `bindings` bound them, counted again over these rows; the keys built.
  if (const Schema* schema = table.metadata.CurrentSchema())
    for (const Constraint& c : ConstraintsOf(table.metadata)) {
      if (!c.id || c.type != ConstraintType::kCheck) continue;
      const auto it = bindings->check_tallies.find(*c.id);
      table.check_tallies.emplace(
          *c.id, TallyCheck(c, schema->fields, table.rows, functions,
                            it == bindings->check_tallies.end() ? nullptr : &it->second));
    }
  SyncDerived(table, functions);
}

void SyncDerived(TableState& table, const FunctionCatalog& functions) {
  const Schema* schema = table.metadata.CurrentSchema();
  std::map<ConstraintId, KeyIndex> indexes;
  std::map<ConstraintId, CheckTally> tallies;
  for (const Constraint& c : ConstraintsOf(table.metadata)) {
    if (!c.id || !c.type || schema == nullptr) continue;
    if (*c.type == ConstraintType::kCheck) {
      // A check's tally depends on its expression (immutable under
      // upd.definition-immutable, but an adopted answer may break it) and on the UDFs
      // (recounted by define-function).
      auto it = table.check_tallies.find(*c.id);
      if (it != table.check_tallies.end() && it->second.expression == c.expression) {
        CheckTally& kept = tallies.emplace(*c.id, std::move(it->second)).first->second;
        // Bound again for a schema whose fields changed (which UDFs it calls does not
        // change with them), so that commits reuse the binding.
        if (kept.expression && kept.bound_fields != schema->fields) {
          kept.compiled.emplace(*kept.expression, schema->fields, functions);
          kept.bound_fields = schema->fields;
        }
      } else {
        tallies.emplace(*c.id, TallyCheck(c, schema->fields, table.rows, functions));
      }
      continue;
    }
    std::optional<KeyIndex> fresh = KeyIndex::ForConstraint(c, *schema);
    if (!fresh) continue;
    auto it = table.key_indexes.find(*c.id);
    if (it != table.key_indexes.end() && it->second.fields() == fresh->fields() &&
        it->second.primary_key() == fresh->primary_key()) {
      indexes.emplace(*c.id, std::move(it->second));
    } else {
      indexes.emplace(*c.id, BuildKeyIndex(std::move(*fresh), table.rows));
    }
  }
  table.key_indexes = std::move(indexes);
  table.check_tallies = std::move(tallies);
}

std::optional<LiveRows> RowsAtSnapshot(const TableState& table, SnapshotId id) {
  if (table.metadata.current_snapshot_id == id) return table.rows;
  size_t i = 0;
  while (i < table.history.size() && table.history[i].snapshot_id != id) ++i;
  if (i == table.history.size()) return std::nullopt;
  LiveRows rows = table.rows;
  for (size_t j = table.history.size(); j-- > i + 1;) {
    for (const std::string& key : table.history[j].added) rows.erase(key);
    for (const auto& [key, before] : table.history[j].replaced) rows[key] = before;
  }
  return rows;
}

TableState StateAtBase(const TableState& table, const TableMetadata& base,
                       const FunctionCatalog& functions) {
  TableState s;
  s.metadata = base;
  if (const Snapshot* snap = base.CurrentSnapshot()) {
    std::optional<LiveRows> rows = RowsAtSnapshot(table, snap->snapshot_id);
    if (rows) s.rows = std::move(*rows);
  }
  s.removed_constraint_ids = table.removed_constraint_ids;
  s.seen_constraint_ids = table.seen_constraint_ids;
  s.versions = table.versions;
  s.held_promotions = table.held_promotions;
  RebuildDerived(s, functions, &table);
  return s;
}

NormalizedRow NormalizeRow(const Value& given, const std::vector<NestedField>& fields) {
  NormalizedRow out;
  // Every primitive is checked (ValueFitsType) or bound (BindLiteral) on the way, nulls
  // in required fields are refused: the row as a whole fits.
  out.values = NormalizeStruct(given, fields, /*writing=*/true, out.error);
  if (!out.values && out.error.empty()) out.error = "values do not fit the schema";
  return out;
}

std::optional<Value> BindRowForReading(const Value& given,
                                       const std::vector<NestedField>& fields) {
  std::string error;
  return NormalizeStruct(given, fields, /*writing=*/false, error);
}

std::optional<Value> ParseDefaultJson(std::string_view json, const Type& type) {
  std::string_view s = Trim(json);
  if (s.empty()) return std::nullopt;
  if (s == "null") return Value::Null();
  Value untyped;
  if (s == "true" || s == "false") {
    untyped = Value::Boolean(s == "true");
  } else if (s.front() == '"') {
    std::optional<std::string> text = UnquoteJsonString(s);
    if (!text) return std::nullopt;
    untyped = Value::String(std::move(*text));
  } else if (s.front() == '-' || std::isdigit(static_cast<unsigned char>(s.front()))) {
    if (s.find_first_of(".eE") == std::string_view::npos) {
      int64_t x = 0;
      auto r = std::from_chars(s.data(), s.data() + s.size(), x);
      if (r.ec != std::errc() || r.ptr != s.data() + s.size()) return std::nullopt;
      untyped = Value::Long(x);
    } else {
      std::string copy(s);
      char* end = nullptr;
      double d = std::strtod(copy.c_str(), &end);
      if (end != copy.c_str() + copy.size()) return std::nullopt;
      untyped = Value::Double(d);
    }
  } else {
    return std::nullopt;  // objects and arrays: only primitive defaults are read
  }
  if (!IsPrimitive(type.id)) return std::nullopt;
  if (ValueFitsType(untyped, type)) return untyped;
  return BindLiteral(untyped, type);
}

Value ProjectRow(const Value& values, const std::vector<NestedField>& fields) {
  return ProjectRowToSchema(values, fields, {});
}

int64_t DayUnits(TypeId id) {
  switch (id) {
    case TypeId::kTimestamp:
    case TypeId::kTimestampTz:
      return 86400LL * 1000000LL;
    case TypeId::kTimestampNs:
    case TypeId::kTimestampTzNs:
      return 86400LL * 1000000000LL;
    default:
      return 0;
  }
}

Value ProjectRowToSchema(const Value& values, const std::vector<NestedField>& fields,
                         const std::map<FieldId, TypeId>& held_promotions) {
  std::vector<FieldId> ids;
  std::vector<Value> out;
  ids.reserve(fields.size());
  out.reserve(fields.size());
  for (const NestedField& f : fields) {
    const Value* v = values.kind == ValueKind::kStruct ? values.FindField(f.id) : nullptr;
    auto held = held_promotions.find(f.id);
    const int64_t units = held == held_promotions.end() ? 0 : DayUnits(held->second);
    ids.push_back(f.id);
    if (v == nullptr || v->is_null()) {
      out.push_back(Value::Null());
    } else if (f.type.id == TypeId::kStruct) {
      out.push_back(ProjectRowToSchema(*v, f.type.fields, held_promotions));
    } else if (f.type.id == TypeId::kDate && units != 0 && v->kind == ValueKind::kLong) {
      // Promoted values are midnights, so the division is exact.
      const int64_t x = v->as_long();
      out.push_back(Value::Long(x / units - (x % units < 0 ? 1 : 0)));
    } else {
      out.push_back(*v);
    }
  }
  return Value::Struct(std::move(ids), std::move(out));
}

namespace {

bool ValuesEqual(const Value& a, const Value& b, const Type& type) {
  if (a.is_null() || b.is_null()) return a.is_null() && b.is_null();
  switch (type.id) {
    case TypeId::kStruct:
      return RowValuesEqual(a, b, type.fields);
    case TypeId::kList:
      if (a.children.size() != b.children.size()) return false;
      for (size_t i = 0; i < a.children.size(); ++i)
        if (!ValuesEqual(a.children[i], b.children[i], type.element())) return false;
      return true;
    case TypeId::kMap: {
      if (a.children.size() != b.children.size()) return false;
      const size_t n = a.children.size() / 2;
      for (size_t i = 0; i < n; ++i) {
        if (!ValuesEqual(a.children[i], b.children[i], type.key())) return false;
        if (!ValuesEqual(a.children[n + i], b.children[n + i], type.value()))
          return false;
      }
      return true;
    }
    default:
      return KeyValuesEqual(a, b, type);
  }
}

}  // namespace

bool RowValuesEqual(const Value& a, const Value& b,
                    const std::vector<NestedField>& fields) {
  static const Value kNull;
  for (const NestedField& f : fields) {
    const Value* va = a.kind == ValueKind::kStruct ? a.FindField(f.id) : nullptr;
    const Value* vb = b.kind == ValueKind::kStruct ? b.FindField(f.id) : nullptr;
    if (!ValuesEqual(va ? *va : kNull, vb ? *vb : kNull, f.type)) return false;
  }
  return true;
}

}  // namespace ictk
