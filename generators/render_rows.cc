/// \file
/// The rows a render step writes: random rows with fresh key values, keys copied from live
/// rows, rows that break or satisfy checks; and which rows break a constraint, asked of the
/// model's predicates (key_index.h, table_state.h, evaluate.h).
#include <fmt/format.h>

#include <algorithm>
#include <functional>
#include <optional>
#include <set>
#include <string>
#include <utility>

#include "generators/render_internal.h"
#include "generators/value_gen.h"
#include "model/iceberg/evaluate.h"
#include "model/judge/key_index.h"
#include "model/iceberg/schema.h"
#include "model/judge/table_state.h"
#include "model/iceberg/value_compare.h"

namespace ictk::render_internal {

std::vector<std::string> SortedKeys(const LiveRows& rows) {
  std::vector<std::string> keys;
  keys.reserve(rows.size());
  for (const auto& [k, v] : rows) keys.push_back(k);
  std::sort(keys.begin(), keys.end());
  return keys;
}

namespace {

const Value* AtPath(const Value& row, const std::vector<FieldId>& path) {
  const Value* v = &row;
  for (FieldId id : path) {
    if (v->kind != ValueKind::kStruct) return nullptr;
    v = v->FindField(id);
    if (v == nullptr) return nullptr;
  }
  return v;
}

}  // namespace

/// Sets the value at `path` in a request-form struct; a null enclosing struct is left
/// null (its members are then null too).
void SetAtPath(Value& row, const std::vector<FieldId>& path, Value value,
               size_t depth) {
  if (row.kind != ValueKind::kStruct || depth >= path.size()) return;
  for (size_t i = 0; i < row.field_ids.size(); ++i) {
    if (row.field_ids[i] != path[depth]) continue;
    if (depth + 1 == path.size()) {
      row.children[i] = std::move(value);
    } else {
      SetAtPath(row.children[i], path, std::move(value), depth + 1);
    }
    return;
  }
}

namespace {

/// A value of `type` that no other call with a different `n` returns (for the types that
/// have enough values).
Value FreshTyped(const Type& type, int64_t n) {
  auto bytes = [](size_t len, int64_t x) {
    std::string out(len, '\0');
    for (size_t i = 0; i < len && i < 8; ++i)
      out[len - 1 - i] = static_cast<char>((static_cast<uint64_t>(x) >> (8 * i)) & 0xff);
    return out;
  };
  switch (type.id) {
    case TypeId::kBoolean:
      return Value::Boolean(n % 2 == 0);
    case TypeId::kInt:
    case TypeId::kLong:
    case TypeId::kTimestamp:
    case TypeId::kTimestampTz:
    case TypeId::kTimestampNs:
    case TypeId::kTimestampTzNs:
      return Value::Long(n);
    case TypeId::kDate:
      return Value::Long(n % 2'932'896);
    case TypeId::kTime:
      return Value::Long(n % 86'400'000'000LL);
    case TypeId::kDecimal:
      return Value::DecimalOf(n, type.scale);
    case TypeId::kString:
      return Value::String(fmt::format("k{}", n));
    case TypeId::kUuid:
      return Value::Bytes(bytes(16, n));
    case TypeId::kFixed:
      return Value::Bytes(bytes(static_cast<size_t>(type.length), n));
    case TypeId::kBinary:
      return Value::Bytes(bytes(8, n));
    default:
      return Value::Null();
  }
}

}  // namespace

std::vector<KeyPart> KeyParts(const Constraint& c, const Schema& schema) {
  std::vector<KeyPart> out;
  if (!c.field_ids) return out;
  for (FieldId id : *c.field_ids) {
    std::optional<FieldLocation> loc = FindField(schema, id);
    if (!loc || loc->in_list_or_map) continue;
    out.push_back({id, loc->path, loc->field.type});
  }
  return out;
}

bool IsKey(const Constraint& c) {
  return c.type == ConstraintType::kUnique || c.type == ConstraintType::kPrimaryKey;
}

namespace {

/// Whether check `compiled` breaks on one typed row: sem.check (CheckHolds) on that row
/// alone, a row whose predicate is false or not evaluable breaking it.
bool RowBreaks(const CompiledCheck& compiled, const Value& typed) {
  const std::optional<bool> r = compiled.Evaluate(typed);
  const bool violating = r.has_value() && !*r;
  return !CheckHolds(violating ? 1 : 0, r.has_value() ? 0 : 1);
}

/// The live rows (sorted keys) that break a check.
std::vector<std::string> CheckViolators(const Ctx& ctx, const Constraint& c,
                                        const Schema& schema,
                                        const std::vector<std::string>& keys) {
  std::vector<std::string> out;
  if (!c.expression) return out;
  const CompiledCheck compiled =
      BoundCheckOf(*ctx.table, c, schema.fields, ctx.state.functions);
  for (const std::string& k : keys)
    if (RowBreaks(compiled, ctx.table->rows.at(k))) out.push_back(k);
  return out;
}

/// The live rows (sorted keys) that break a key, by the model's index of the
/// constraint (KeyIndex): a key tuple that more than one row carries, or a null key
/// field under a primary key.
std::vector<std::string> KeyViolators(const Ctx& ctx, const Constraint& c,
                                      const Schema& schema,
                                      const std::vector<std::string>& keys) {
  std::vector<std::string> out;
  std::optional<KeyIndex> index = KeyIndex::ForConstraint(c, schema);
  if (!index) return out;
  for (const std::string& k : keys) index->Insert(ctx.table->rows.at(k));
  if (index->Holds()) return out;
  for (const std::string& k : keys) {
    const std::optional<KeyTuple> tuple = index->Extract(ctx.table->rows.at(k));
    if (tuple ? index->CountOf(*tuple) > 1 : index->primary_key()) out.push_back(k);
  }
  return out;
}

/// Whether new typed rows keep enforced key `c` on the live rows that remain after
/// `removed`: no added row's key tuple is carried by a remaining row or an earlier added
/// row, and under a primary key no added row has a null key field.
bool AddedRowsKeepKey(const Ctx& ctx, const Constraint& c, const Schema& schema,
                      const std::vector<Value>& typed,
                      const std::set<std::string>& removed) {
  std::optional<KeyIndex> index = KeyIndex::ForConstraint(c, schema);
  if (!index) return false;
  for (const auto& [key, live] : ctx.table->rows)
    if (!removed.count(key)) index->Insert(live);
  for (const Value& t : typed) {
    const std::optional<KeyTuple> tuple = index->Extract(t);
    if (!tuple) {
      if (index->primary_key()) return false;
      continue;
    }
    if (index->CountOf(*tuple) > 0) return false;
    index->Insert(t);
  }
  return true;
}

}  // namespace

bool BreaksCheck(const Constraint& c, const Value& typed, const Schema& schema,
                 const FunctionCatalog& functions) {
  if (!c.expression) return false;
  return RowBreaks(CompiledCheck(*c.expression, schema.fields, functions), typed);
}

std::vector<std::string> Violators(const Ctx& ctx, const Constraint& c) {
  const Schema* schema = ctx.schema();
  if (schema == nullptr) return {};
  const std::vector<std::string> keys = SortedKeys(ctx.table->rows);
  if (c.type == ConstraintType::kCheck) return CheckViolators(ctx, c, *schema, keys);
  return KeyViolators(ctx, c, *schema, keys);
}

bool RowsSatisfyEnforced(const Ctx& ctx, const std::vector<Row>& added,
                         const std::set<std::string>& removed) {
  const Schema* schema = ctx.schema();
  if (schema == nullptr) return false;
  std::vector<Value> typed;
  for (const Row& r : added) {
    NormalizedRow n = NormalizeRow(r.values, schema->fields);
    if (!n.values) return false;
    typed.push_back(std::move(*n.values));
  }
  for (const Constraint& c : ctx.constraints()) {
    if (!c.enforced.value_or(false)) continue;
    if (c.type == ConstraintType::kCheck) {
      if (!c.expression) continue;
      const CompiledCheck compiled =
          BoundCheckOf(*ctx.table, c, schema->fields, ctx.state.functions);
      for (const Value& t : typed)
        if (RowBreaks(compiled, t)) return false;
      continue;
    }
    if (!AddedRowsKeepKey(ctx, c, *schema, typed, removed)) return false;
  }
  return true;
}

/// A random row in request form (values drawn at the step's size), with fresh values in
/// the fields of every key constraint so that it collides with nothing unless steered.
Row RandomRow(const Ctx& ctx, uint64_t salt, bool fresh_keys, bool small_domain) {
  const Schema& schema = *ctx.schema();
  ValueGenOptions opts;
  opts.small_domain = small_domain;
  if (ctx.plain_values) {
    opts.edge_percent = 0;
    opts.respell = false;
  }
  Row row;
  row.key = fmt::format("r{}", ctx.counters.next_row++);
  std::optional<Value> values =
      Sample(GenRowValues(schema.fields, opts), ctx.Seed(salt), ctx.step.size);
  row.values = values ? std::move(*values) : Value::Struct({}, {});
  if (fresh_keys) {
    std::set<FieldId> done;
    for (const Constraint& c : ctx.constraints()) {
      if (!IsKey(c)) continue;
      for (const KeyPart& p : KeyParts(c, schema)) {
        if (!done.insert(p.id).second) continue;
        SetAtPath(row.values, p.path,
                  ToRequestForm(FreshTyped(p.type, ctx.counters.next_fresh++), p.type));
      }
    }
  }
  return row;
}

/// Copies the key values of constraint `c` from typed row `from` into request-form `to`;
/// `respell` writes equal values in another spelling where Iceberg has one (a timestamptz
/// at another zone offset), so that key equality is by value, not by text.
void CopyKey(const Constraint& c, const Schema& schema, const Value& from_typed,
             Value& to, bool respell) {
  for (const KeyPart& p : KeyParts(c, schema)) {
    const Value* v = AtPath(from_typed, p.path);
    SetAtPath(to, p.path, v ? ToRequestForm(*v, p.type, respell) : Value::Null());
  }
}

std::vector<const Constraint*> ConstraintsWhere(
    const Ctx& ctx, const std::function<bool(const Constraint&)>& f) {
  std::vector<const Constraint*> out;
  for (const Constraint& c : ctx.constraints())
    if (f(c)) out.push_back(&c);
  return out;
}

/// Tries a few candidate rows until one breaks check `c`; returns the last one otherwise.
Row RowBreaking(const Ctx& ctx, const Constraint& c, uint64_t salt) {
  const Schema& schema = *ctx.schema();
  Row best;
  for (int attempt = 0; attempt < 12; ++attempt) {
    const int saved = ctx.counters.next_row;
    Row row = RandomRow(ctx, salt * 31 + attempt, true, attempt % 2 == 1);
    NormalizedRow n = NormalizeRow(row.values, schema.fields);
    best = row;
    if (n.values && BreaksCheck(c, *n.values, schema, ctx.state.functions)) return row;
    ctx.counters.next_row = saved;
  }
  ctx.counters.next_row++;
  return best;
}

/// A fresh-keyed row that satisfies every enforced check, when one of a few candidates
/// does (so that commits succeed and later statuses can be carried, rightly or wrongly).
Row RowSatisfyingChecks(const Ctx& ctx, uint64_t salt) {
  const Schema& schema = *ctx.schema();
  std::vector<const Constraint*> enforced;
  for (const Constraint& c : ctx.constraints())
    if (c.type == ConstraintType::kCheck && c.enforced.value_or(false))
      enforced.push_back(&c);
  Row best;
  for (int attempt = 0; attempt < 10; ++attempt) {
    const int saved = ctx.counters.next_row;
    Row row = RandomRow(ctx, salt * 37 + attempt, true, attempt % 2 == 1);
    best = row;
    NormalizedRow n = NormalizeRow(row.values, schema.fields);
    bool ok = n.values.has_value();
    for (const Constraint* c : enforced)
      ok = ok && !BreaksCheck(*c, *n.values, schema, ctx.state.functions);
    if (ok || enforced.empty()) return row;
    ctx.counters.next_row = saved;
  }
  ctx.counters.next_row++;
  return best;
}

bool HasRequiredGeo(const Ctx& ctx) {
  const Schema* s = ctx.schema();
  return s == nullptr || !RowsWritable(s->fields);
}

}  // namespace ictk::render_internal
