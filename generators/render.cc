/// \file
/// HistoryRenderer: plan steps into protocol requests, threading the model state
/// (history.h). Each `Render*` function looks at the current table (its schema, live
/// rows, constraints, open transactions) and turns one abstract step into one request,
/// steering values so that collisions, violations and false status claims are likely.
#include <fmt/format.h>

#include <algorithm>
#include <functional>
#include <optional>
#include <set>
#include <string>
#include <utility>

#include "generators/constraint_gen.h"
#include "generators/history.h"
#include "generators/reader_inputs.h"
#include "generators/schema_gen.h"
#include "generators/value_gen.h"
#include "model/rules/constraint_rules.h"
#include "model/iceberg/evaluate.h"
#include "model/judge/rule_catalogue.h"
#include "model/iceberg/schema.h"
#include "model/iceberg/value_compare.h"

namespace ictk {
namespace {

using Slot = HistoryRenderer::Slot;
using Counters = HistoryRenderer::Counters;

/// What one render call sees.
struct Ctx {
  const CatalogState& state;
  const TableState* table;  ///< nullptr before create-table
  const RenderOptions& options;
  Counters& counters;
  const PlanStep& step;
  bool plain_values = false;  ///< TablePlan::plain_values

  const TableMetadata& md() const { return table->metadata; }
  const Schema* schema() const { return table->metadata.CurrentSchema(); }
  const std::vector<Constraint>& constraints() const { return ConstraintsOf(md()); }
  const Capabilities& caps() const { return options.capabilities; }
  uint64_t Seed(uint64_t salt) const {
    return step.seed ^ (salt * 0x9E3779B97F4A7C15ULL);
  }
  /// A choice in [0, n) from the step's `pick` and a salt.
  size_t Pick(size_t n, uint32_t salt = 0) const {
    return n == 0 ? 0 : (static_cast<size_t>(step.pick) + salt * 7919u) % n;
  }
  uint32_t Flavour(uint32_t n) const { return step.flavour % n; }
};

RenderedStep Make(Operation op, const std::string& table, std::string label,
                  Intent intent = Intent::kAny,
                  std::optional<RuleId> aimed_at = std::nullopt,
                  std::vector<RuleId> tags = {}) {
  RenderedStep r;
  r.request.table = ActsOnTable(op) ? table : std::string();
  r.request.op = std::move(op);
  r.intent = intent;
  r.aimed_at = aimed_at;
  r.label = std::move(label);
  r.tags = std::move(tags);
  if (aimed_at && std::find(r.tags.begin(), r.tags.end(), *aimed_at) == r.tags.end())
    r.tags.insert(r.tags.begin(), *aimed_at);
  return r;
}

/// The clauses whose catalogue tag is `label` (a transaction's staged commit is tagged as
/// the commit itself).
std::vector<std::string> ClausesTaggedBy(std::string_view label) {
  static const std::map<std::string, std::vector<std::string>, std::less<>> by_tag = [] {
    std::map<std::string, std::vector<std::string>, std::less<>> m;
    for (const ClauseInfo& c : AllClauses())
      if (!c.tag.empty()) m[std::string(c.tag)].push_back(c.id);
    return m;
  }();
  constexpr std::string_view kStage = "transaction/stage-";
  if (label.substr(0, kStage.size()) == kStage) label.remove_prefix(kStage.size());
  auto it = by_tag.find(label);
  return it == by_tag.end() ? std::vector<std::string>{} : it->second;
}

/// "key.pk-required/own-flag".
std::string Clause(RuleId rule, std::string_view name) {
  return fmt::format("{}/{}", RuleIdName(rule), name);
}

// --- rows
// --------------------------------------------------------------------------------

std::vector<std::string> SortedKeys(const LiveRows& rows) {
  std::vector<std::string> keys;
  keys.reserve(rows.size());
  for (const auto& [k, v] : rows) keys.push_back(k);
  std::sort(keys.begin(), keys.end());
  return keys;
}

const Value* AtPath(const Value& row, const std::vector<FieldId>& path) {
  const Value* v = &row;
  for (FieldId id : path) {
    if (v->kind != ValueKind::kStruct) return nullptr;
    v = v->FindField(id);
    if (v == nullptr) return nullptr;
  }
  return v;
}

/// Sets the value at `path` in a request-form struct; a null enclosing struct is left
/// null (its members are then null too).
void SetAtPath(Value& row, const std::vector<FieldId>& path, Value value,
               size_t depth = 0) {
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

struct KeyPart {
  FieldId id = 0;
  std::vector<FieldId> path;
  Type type;
};

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

/// The typed key tuple of a typed row, or nullopt when a part is null (not compared).
std::optional<std::vector<Value>> KeyTuple(const Value& typed,
                                           const std::vector<KeyPart>& parts) {
  std::vector<Value> out;
  for (const KeyPart& p : parts) {
    const Value* v = AtPath(typed, p.path);
    if (v == nullptr || v->is_null()) return std::nullopt;
    out.push_back(*v);
  }
  return out;
}

bool TuplesEqual(const std::vector<Value>& a, const std::vector<Value>& b,
                 const std::vector<KeyPart>& parts) {
  for (size_t i = 0; i < parts.size(); ++i)
    if (!KeyValuesEqual(a[i], b[i], parts[i].type)) return false;
  return true;
}

/// Whether a typed row breaks a check (false or not evaluable).
bool BreaksCheck(const Constraint& c, const Value& typed, const Schema& schema,
                 const FunctionCatalog& functions) {
  if (!c.expression) return false;
  std::optional<bool> r = EvaluateCheck(*c.expression, schema.fields, typed, functions);
  return !r.has_value() || !*r;
}

/// The live rows that break `c`: for a check each failing row; for a key every row that
/// shares its key tuple with another live row (or a null part under a primary key).
std::vector<std::string> Violators(const Ctx& ctx, const Constraint& c) {
  std::vector<std::string> out;
  const Schema* schema = ctx.schema();
  if (schema == nullptr) return out;
  const std::vector<std::string> keys = SortedKeys(ctx.table->rows);
  if (c.type == ConstraintType::kCheck) {
    for (const std::string& k : keys)
      if (BreaksCheck(c, ctx.table->rows.at(k), *schema, ctx.state.functions))
        out.push_back(k);
    return out;
  }
  const std::vector<KeyPart> parts = KeyParts(c, *schema);
  if (parts.empty()) return out;
  std::vector<std::pair<std::string, std::vector<Value>>> tuples;
  for (const std::string& k : keys) {
    std::optional<std::vector<Value>> t = KeyTuple(ctx.table->rows.at(k), parts);
    if (!t) {
      if (c.type == ConstraintType::kPrimaryKey) out.push_back(k);
      continue;
    }
    tuples.emplace_back(k, std::move(*t));
  }
  for (size_t i = 0; i < tuples.size(); ++i)
    for (size_t j = 0; j < tuples.size(); ++j)
      if (i != j && TuplesEqual(tuples[i].second, tuples[j].second, parts)) {
        out.push_back(tuples[i].first);
        break;
      }
  std::sort(out.begin(), out.end());
  return out;
}

/// Checks new rows (request form) against every enforced constraint, the live rows that
/// remain after `removed`, and each other: true when the generator can promise `ok`.
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
      for (const Value& t : typed)
        if (BreaksCheck(c, t, *schema, ctx.state.functions)) return false;
      continue;
    }
    const std::vector<KeyPart> parts = KeyParts(c, *schema);
    if (parts.empty()) return false;
    std::vector<std::vector<Value>> tuples;
    for (const Value& t : typed) {
      std::optional<std::vector<Value>> k = KeyTuple(t, parts);
      if (!k) {
        if (c.type == ConstraintType::kPrimaryKey) return false;
        continue;
      }
      for (const auto& other : tuples)
        if (TuplesEqual(other, *k, parts)) return false;
      for (const auto& [key, live] : ctx.table->rows) {
        if (removed.count(key)) continue;
        std::optional<std::vector<Value>> lk = KeyTuple(live, parts);
        if (lk && TuplesEqual(*lk, *k, parts)) return false;
      }
      tuples.push_back(std::move(*k));
    }
  }
  return true;
}

/// A random row in request form (values drawn at the step's size), with fresh values in
/// the fields of every key constraint so that it collides with nothing unless steered.
Row RandomRow(const Ctx& ctx, uint64_t salt, bool fresh_keys, bool small_domain = false) {
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
             Value& to, bool respell = false) {
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

// --- commits
// -----------------------------------------------------------------------------

Commit MakeCommit(CommitOperation op) {
  Commit c;
  c.operation = op;
  return c;
}

std::optional<RenderedStep> RenderAppend(const Ctx& ctx, std::optional<std::string> txn) {
  if (HasRequiredGeo(ctx)) return std::nullopt;
  const Schema& schema = *ctx.schema();
  Commit commit = MakeCommit(CommitOperation::kAppend);
  commit.txn = txn;
  const uint32_t n = std::max<uint32_t>(1, ctx.step.count);
  const auto keys = ConstraintsWhere(ctx, IsKey);
  const auto checks = ConstraintsWhere(
      ctx, [](const Constraint& c) { return c.type == ConstraintType::kCheck; });
  const std::vector<std::string> live = SortedKeys(ctx.table->rows);
  std::string label = "append/fresh";
  std::vector<RuleId> tags = {RuleId::kEnfEnforced, RuleId::kStValidated,
                              RuleId::kStValid};
  bool malformed = false;
  switch (ctx.Flavour(7)) {
    case 0:
    default:
      for (uint32_t i = 0; i < n; ++i) commit.add.push_back(RowSatisfyingChecks(ctx, i));
      break;
    case 1:  // collide with a live row on a key (enf.keys-against-remaining)
      for (uint32_t i = 0; i < n; ++i) commit.add.push_back(RandomRow(ctx, i, true));
      if (!keys.empty() && !live.empty()) {
        const Constraint& c = *keys[ctx.Pick(keys.size())];
        CopyKey(c, schema, ctx.table->rows.at(live[ctx.Pick(live.size(), 1)]),
                commit.add[0].values, (ctx.step.seed >> 7) & 1);
        label = "append/collide-live";
        tags = {RuleId::kEnfKeysAgainstRemaining, RuleId::kSemUnique,
                RuleId::kSemPrimaryKey, RuleId::kStInvalid};
        // One such commit in two also adds a row under a live row's key, a malformed
        // change: with an enforced key broken by the well-formed rows, the request has two
        // causes and either kind is accepted (docs/protocol.md section 8).
        if ((ctx.step.seed >> 13) % 2 == 0 && !txn) {
          Row again = commit.add.back();
          again.key = live[ctx.Pick(live.size(), 3)];
          commit.add.push_back(std::move(again));
          label = "append/collide-live-malformed";
          tags.push_back(RuleId::kProtoRequest);
          malformed = true;
        }
      }
      break;
    case 2:  // two added rows with one key (distinct among themselves)
      for (uint32_t i = 0; i < std::max<uint32_t>(2, n); ++i)
        commit.add.push_back(RandomRow(ctx, i, true));
      if (!keys.empty()) {
        const Constraint& c = *keys[ctx.Pick(keys.size())];
        NormalizedRow first = NormalizeRow(commit.add[0].values, schema.fields);
        if (first.values)
          CopyKey(c, schema, *first.values, commit.add[1].values,
                  (ctx.step.seed >> 7) & 1);
        label = "append/collide-among";
        tags = {RuleId::kEnfKeysAgainstRemaining, RuleId::kSemUnique,
                RuleId::kSemPrimaryKey};
      }
      break;
    case 3:  // break a check (likely one that is not enforced: false claims)
      if (!checks.empty()) {
        std::vector<const Constraint*> unenforced;
        for (const Constraint* c : checks)
          if (!c->enforced.value_or(false)) unenforced.push_back(c);
        const auto& pool =
            !unenforced.empty() && ctx.step.pick % 4 != 0 ? unenforced : checks;
        const Constraint& c = *pool[ctx.Pick(pool.size())];
        commit.add.push_back(RowBreaking(ctx, c, 1));
        for (uint32_t i = 1; i < n; ++i)
          commit.add.push_back(RandomRow(ctx, i + 10, true));
        label = "append/break-check";
        tags = {RuleId::kSemCheck, RuleId::kEnfNotEnforced, RuleId::kEnfEnforced,
                RuleId::kStInvalid};
      } else {
        for (uint32_t i = 0; i < n; ++i) commit.add.push_back(RandomRow(ctx, i, true));
      }
      break;
    case 4:  // small-domain values everywhere: keys and checks collide by chance
      for (uint32_t i = 0; i < n; ++i)
        commit.add.push_back(RandomRow(ctx, i, false, true));
      label = "append/small-domain";
      tags = {RuleId::kSemUnique, RuleId::kSemPrimaryKey, RuleId::kSemCheck};
      break;
    case 5: {  // nulls in unique key fields: rows with a null part are not compared
      for (uint32_t i = 0; i < std::max<uint32_t>(2, n); ++i)
        commit.add.push_back(RandomRow(ctx, i, true));
      std::vector<const Constraint*> uniques;
      for (const Constraint* c : keys)
        if (c->type == ConstraintType::kUnique) uniques.push_back(c);
      if (!uniques.empty()) {
        const Constraint& c = *uniques[ctx.Pick(uniques.size())];
        for (const KeyPart& p : KeyParts(c, schema)) {
          std::optional<FieldLocation> loc = FindField(schema, p.id);
          if (loc && !loc->field.required) {
            for (Row& r : commit.add) SetAtPath(r.values, p.path, Value::Null());
            break;
          }
        }
        label = "append/null-unique";
        tags = {RuleId::kSemUnique, RuleId::kKeyUniqueOptionalOk};
      }
      break;
    }
    case 6:  // plain random rows, keys not steered
      for (uint32_t i = 0; i < n; ++i) commit.add.push_back(RandomRow(ctx, i, false));
      label = "append/random";
      break;
  }
  Intent intent = Intent::kAny;
  if (ctx.md().format_version >= 1 && RowsSatisfyEnforced(ctx, commit.add, {}) && !txn)
    intent = Intent::kOk;
  if (malformed) intent = Intent::kReject;
  if (txn) label = "transaction/stage-" + label;
  return Make(std::move(commit), ctx.options.table, label, intent,
              malformed ? std::optional<RuleId>(RuleId::kProtoRequest) : std::nullopt, tags);
}

std::optional<RenderedStep> RenderDelete(const Ctx& ctx, std::optional<std::string> txn) {
  const std::vector<std::string> live = SortedKeys(ctx.table->rows);
  Commit commit = MakeCommit(CommitOperation::kDelete);
  commit.txn = txn;
  std::string label = "delete/some";
  std::vector<RuleId> tags = {RuleId::kStNoAddCarry, RuleId::kSemLiveRows};
  Intent intent = Intent::kOk;
  std::optional<RuleId> aimed;
  const uint32_t flavour = ctx.Flavour(6);
  if (live.empty() || flavour == 5) {
    if (flavour != 5 && ctx.step.pick % 3 != 0) return std::nullopt;
    commit.remove.push_back("no-such-row");
    label = "delete/not-live";
    intent = Intent::kReject;
    aimed = RuleId::kProtoRequest;
    tags = {};
  } else if (flavour == 0 || flavour == 4) {
    std::set<std::string> chosen;
    for (uint32_t i = 0; i < std::max<uint32_t>(1, ctx.step.count); ++i)
      chosen.insert(live[ctx.Pick(live.size(), i)]);
    commit.remove.assign(chosen.begin(), chosen.end());
  } else if (flavour == 3) {
    commit.remove = live;
    label = "delete/all";
  } else {
    // Remove all (flavour 1) or only some (flavour 2) of the rows that break a
    // constraint: a status carried from an `invalid` parent is then true or false.
    const auto& cs = ctx.constraints();
    std::vector<std::string> violators;
    for (size_t i = 0; i < cs.size() && violators.empty(); ++i)
      violators = Violators(ctx, cs[(ctx.Pick(cs.size()) + i) % cs.size()]);
    if (violators.empty()) {
      commit.remove.push_back(live[ctx.Pick(live.size())]);
    } else if (flavour == 1 || violators.size() == 1) {
      commit.remove = violators;
      label = "delete/all-violators";
      tags = {RuleId::kStNoAddCarry, RuleId::kStInvalid, RuleId::kStValidated};
    } else {
      commit.remove.assign(violators.begin(), violators.begin() + violators.size() / 2);
      label = "delete/some-violators";
      tags = {RuleId::kStNoAddCarry, RuleId::kStInvalid};
    }
  }
  if (txn) {
    label = "transaction/stage-" + label;
    intent = Intent::kAny;
  }
  return Make(std::move(commit), ctx.options.table, label, intent, aimed, tags);
}

std::optional<RenderedStep> RenderOverwrite(const Ctx& ctx,
                                            std::optional<std::string> txn,
                                            bool modify_only) {
  if (HasRequiredGeo(ctx)) return std::nullopt;
  const Schema& schema = *ctx.schema();
  const std::vector<std::string> live = SortedKeys(ctx.table->rows);
  const auto keys = ConstraintsWhere(ctx, IsKey);
  Commit commit = MakeCommit(CommitOperation::kOverwrite);
  commit.txn = txn;
  std::string label = "overwrite/replace-rows";
  std::vector<RuleId> tags = {RuleId::kEnfKeysAgainstRemaining, RuleId::kStValidated};
  uint32_t flavour = modify_only ? 2 + ctx.Flavour(3) : ctx.Flavour(5);
  if (!ctx.caps().modify_rows && flavour >= 2) flavour = flavour % 2;
  if (live.empty()) {
    if (modify_only) return std::nullopt;
    flavour = 0;
  }
  switch (flavour) {
    case 0:
    default:
      if (!live.empty()) commit.remove.push_back(live[ctx.Pick(live.size())]);
      for (uint32_t i = 0; i < std::max<uint32_t>(1, ctx.step.count); ++i)
        commit.add.push_back(RandomRow(ctx, i, true));
      break;
    case 1: {  // replace a key in one commit: remove X, add Y with X's key
      const std::string& x = live[ctx.Pick(live.size())];
      commit.remove.push_back(x);
      Row y = RandomRow(ctx, 1, true);
      for (const Constraint* c : keys)
        CopyKey(*c, schema, ctx.table->rows.at(x), y.values);
      commit.add.push_back(std::move(y));
      label = "overwrite/replace-key";
      tags = {RuleId::kEnfKeysAgainstRemaining, RuleId::kSemPrimaryKey,
              RuleId::kSemUnique};
      break;
    }
    case 2: {  // modify a row's other values (enf.modified-row)
      const std::string& x = live[ctx.Pick(live.size())];
      Row m = RandomRow(ctx, 2, false);
      m.key = x;
      for (const Constraint* c : keys)
        CopyKey(*c, schema, ctx.table->rows.at(x), m.values);
      commit.modify.push_back(std::move(m));
      label = "overwrite/modify-values";
      tags = {RuleId::kEnfModifiedRow, RuleId::kSemCheck, RuleId::kStValid};
      break;
    }
    case 3: {  // modify a row so that its key collides with another live row
      const std::string& x = live[ctx.Pick(live.size())];
      Row m = RandomRow(ctx, 3, true);
      m.key = x;
      if (!keys.empty() && live.size() > 1) {
        const std::string& y = live[(ctx.Pick(live.size()) + 1) % live.size()];
        CopyKey(*keys[ctx.Pick(keys.size(), 2)], schema, ctx.table->rows.at(y), m.values);
        label = "overwrite/modify-collide";
      } else {
        label = "overwrite/modify-fresh-key";
      }
      commit.modify.push_back(std::move(m));
      tags = {RuleId::kEnfModifiedRow, RuleId::kEnfKeysAgainstRemaining,
              RuleId::kEnfEnforced};
      break;
    }
    case 4: {  // swap the keys of two rows in one commit (distinct among themselves)
      if (live.size() < 2 || keys.empty()) {
        const std::string& x = live[ctx.Pick(live.size())];
        Row m = RandomRow(ctx, 4, false);
        m.key = x;
        commit.modify.push_back(std::move(m));
        label = "overwrite/modify-random";
        tags = {RuleId::kEnfModifiedRow};
        break;
      }
      const std::string& a = live[ctx.Pick(live.size())];
      const std::string& b = live[(ctx.Pick(live.size()) + 1) % live.size()];
      Row ma{a, ToRequestForm(ctx.table->rows.at(a), Type::Struct(schema.fields))};
      Row mb{b, ToRequestForm(ctx.table->rows.at(b), Type::Struct(schema.fields))};
      for (const Constraint* c : keys) {
        CopyKey(*c, schema, ctx.table->rows.at(b), ma.values);
        CopyKey(*c, schema, ctx.table->rows.at(a), mb.values);
      }
      commit.modify.push_back(std::move(ma));
      commit.modify.push_back(std::move(mb));
      label = "overwrite/swap-keys";
      tags = {RuleId::kEnfModifiedRow, RuleId::kEnfKeysAgainstRemaining};
      break;
    }
  }
  if (txn) label = "transaction/stage-" + label;
  return Make(std::move(commit), ctx.options.table, label, Intent::kAny, std::nullopt,
              tags);
}

std::optional<RenderedStep> RenderReplace(const Ctx& ctx) {
  return Make(MakeCommit(CommitOperation::kReplace), ctx.options.table,
              "replace/compaction", Intent::kOk, std::nullopt,
              {RuleId::kStNoAddCarry, RuleId::kStValidated});
}

// --- constraints
// -------------------------------------------------------------------------

FunctionCatalog HistoryFunctions(const Ctx& ctx) {
  FunctionCatalog out;
  for (const auto& [name, def] : ctx.state.functions)
    if (name.rfind(ctx.options.function_prefix, 0) == 0) out.emplace(name, def);
  return out;
}

ConstraintGenContext GenContext(const Ctx& ctx, std::string name) {
  ConstraintGenContext g;
  g.schema = *ctx.schema();
  g.format_version = ctx.md().format_version;
  g.capabilities = ctx.caps();
  g.existing = ctx.constraints();
  g.functions = HistoryFunctions(ctx);
  g.name = std::move(name);
  return g;
}

std::string FreshName(const Ctx& ctx, std::string_view stem) {
  for (;;) {
    std::string name = fmt::format("{}{}", stem, ctx.counters.next_name++);
    if (FindConstraintByName(ctx.md(), name, true) == nullptr) return name;
  }
}

FieldId TopLevelOf(const Schema& schema, FieldId id);
std::optional<RenderedStep> RenderNestedKeyFirst(const Ctx& ctx, bool primary_key);

std::optional<RenderedStep> RenderAddConstraint(const Ctx& ctx) {
  if (!ctx.caps().check && !ctx.caps().unique && !ctx.caps().primary_key)
    return std::nullopt;
  // On a v1-v3 table, half of the add-constraint steps upgrade it first (the precondition
  // repaired); the other half are refused (def.v4-only).
  if (ctx.md().format_version < 4 && ctx.caps().upgrade &&
      ctx.caps().format_versions.count(4) && ctx.step.pick % 2 == 1)
    return Make(Upgrade{4}, ctx.options.table,
                fmt::format("upgrade/v{}-to-v4-for-constraints", ctx.md().format_version),
                Intent::kOk, std::nullopt,
                {RuleId::kUpgPkFromIdentifiers, RuleId::kUpgSkipIneligible,
                 RuleId::kIdLastDefaultZero});
  // One add-constraint in five, while no constraint references a field inside a struct,
  // adds a not-enforced unique on one, and one in five, while the table has no primary
  // key, a primary key on one (inside a required struct), for the schema changes
  // constraints must refuse for nested fields.
  if (ctx.md().format_version >= 4 && ctx.caps().schema_evolution &&
      (ctx.step.pick % 5 == 4 || (ctx.step.pick % 5 == 3 && ctx.step.pick % 2 == 1))) {
    bool nested_ref = false;
    for (const Constraint& c : ctx.constraints())
      for (FieldId id : ReferencedFieldIds(c))
        nested_ref = nested_ref || TopLevelOf(*ctx.schema(), id) != id;
    std::optional<RenderedStep> first;
    if (ctx.step.pick % 2 == 1) first = RenderNestedKeyFirst(ctx, true);
    if (!first && !nested_ref) first = RenderNestedKeyFirst(ctx, false);
    if (first) return first;
  }
  ConstraintGenContext g = GenContext(ctx, FreshName(ctx, "c"));
  // One add-constraint in four is about a UDF check (one in two while the table has
  // none, for expr.udf-status/no-carry): with no deterministic UDF of this
  // history defined yet, the step defines one first (the check comes with a later step).
  // Half of them while the table has no check calling a UDF yet.
  bool has_udf_check = false;
  for (const Constraint& c : ctx.constraints())
    has_udf_check = has_udf_check || (c.type == ConstraintType::kCheck && c.expression &&
                                      CallsUserDefinedFunction(*c.expression));
  if (ctx.caps().udf && ctx.caps().check && ctx.md().format_version >= 4 &&
      (ctx.Flavour(4) == 0 || (!has_udf_check && ctx.Flavour(4) == 2))) {
    bool usable = false;
    for (const auto& [name, def] : g.functions) usable = usable || def.deterministic;
    // A UDF check calls its function on a top-level int column: a table without one gets
    // an optional int column first (the precondition repaired; without it most tables
    // never had a UDF check, and expr.udf-status/no-carry was never reached).
    const bool has_int = std::any_of(
        ctx.schema()->fields.begin(), ctx.schema()->fields.end(),
        [](const NestedField& f) { return f.type.id == TypeId::kInt; });
    if (!has_int && ctx.caps().schema_evolution) {
      AddColumn a;
      a.name = fmt::format("added_{}", ctx.counters.next_name++);
      a.type = Type::Primitive(TypeId::kInt);
      UpdateSchema u;
      u.changes.push_back(std::move(a));
      return Make(std::move(u), ctx.options.table, "update-schema/add-int-for-udf-check",
                  Intent::kOk, std::nullopt, {RuleId::kExprUdfStatus});
    }
    if (!usable)
      return Make(
          DefineFunction{UdfGreaterThan(
              fmt::format("{}f{}", ctx.options.function_prefix, ctx.step.pick % 3),
              static_cast<int64_t>(ctx.step.seed % 4), true)},
          "", "define-function/for-check", Intent::kOk, std::nullopt,
          {RuleId::kExprUdfStatus});
    g.prefer_udf_check = true;
  }
  std::optional<Constraint> c = Sample(GenValidConstraint(g), ctx.Seed(1), ctx.step.size);
  if (!c) return std::nullopt;
  // Half of the primary keys go on a field inside a required struct when the table has
  // one (RenderNestedKeyFirst), so that making that struct optional can follow
  // (sch.pk-stays-required/optional-parent).
  if (c->type == ConstraintType::kPrimaryKey && ctx.step.pick % 4 >= 2 &&
      ctx.caps().schema_evolution)
    if (std::optional<RenderedStep> nested = RenderNestedKeyFirst(ctx, true)) return nested;
  if (c->type == ConstraintType::kPrimaryKey && ctx.step.pick % 2 == 0 &&
      FindConstraintByName(ctx.md(), "pk", true) == nullptr)
    c->name = "pk";
  std::vector<RuleId> tags = {RuleId::kIdAboveLast, RuleId::kIdUpdateLast,
                              RuleId::kDefByFieldId};
  std::string label = fmt::format("add-constraint/{}", ToString(*c->type));
  if (ctx.md().format_version < 4) {
    return Make(AddConstraint{*c}, ctx.options.table, "add-constraint/v3-table",
                Intent::kReject, RuleId::kDefV4Only, {});
  }
  if (c->type == ConstraintType::kCheck && CallsUserDefinedFunction(*c->expression)) {
    label += "-udf";
    tags.push_back(RuleId::kExprUdfStatus);
  }
  if (c->type == ConstraintType::kUnique) tags.push_back(RuleId::kKeyUniqueOptionalOk);
  // A constraint that is not enforced never makes the request fail; an enforced one on
  // rows that break it may be rejected or accepted (existing-rows-on-enforce).
  const Intent intent = !c->enforced.value_or(false) ? Intent::kOk : Intent::kAny;
  RenderedStep r =
      Make(AddConstraint{*c}, ctx.options.table, label, intent, std::nullopt, tags);
  r.clauses = {Clause(RuleId::kIdAboveLast, "whole"), Clause(RuleId::kIdUpdateLast, "whole")};
  if (c->type == ConstraintType::kUnique && c->field_ids) {
    // key.unique-optional-ok: a unique key on an optional field, or on a required one
    // under an optional struct.
    bool own = false, parent = false;
    for (const KeyCandidate& k : KeyCandidates(*ctx.schema(), true)) {
      if (std::find(c->field_ids->begin(), c->field_ids->end(), k.id) ==
          c->field_ids->end())
        continue;
      own = own || !k.required;
      parent = parent || (k.required && !k.pk_eligible);
    }
    if (own) r.clauses.push_back(Clause(RuleId::kKeyUniqueOptionalOk, "own-flag"));
    if (parent) r.clauses.push_back(Clause(RuleId::kKeyUniqueOptionalOk, "optional-parent"));
  }
  return r;
}

/// The invalid-constraint clauses whose breaking step needs a column of a type that few
/// generated schemas have (RenderColumnForClause adds one).
bool IsRareColumnClause(std::string_view clause) {
  static constexpr std::string_view kRare[] = {
      "key.no-float-double/float",      "key.no-float-double/double",
      "key.no-geo/geometry",            "key.no-geo/geography",
      "key.no-unknown/whole",           "key.primitive-only/variant",
      "key.not-in-list-map/list",       "key.not-in-list-map/map",
      "expr.no-list-map-element/list",  "expr.no-list-map-element/map",
      "key.pk-required/optional-parent"};
  return std::find(std::begin(kRare), std::end(kRare), clause) != std::end(kRare);
}

/// An update-schema that adds an optional column of a type that an invalid-constraint clause
/// needs and that no reachable clause in `usable` has yet; nullopt when none is missing.
std::optional<RenderedStep> RenderColumnForClause(const Ctx& ctx,
                                                  const std::vector<InvalidTarget>& usable) {
  auto reachable = [&](std::string_view clause) {
    for (const InvalidTarget& t : usable)
      if (t.clause == clause) return true;
    return false;
  };
  std::vector<NestedField> members;
  NestedField k;
  k.name = "k";
  k.required = true;
  k.type = Type::Primitive(TypeId::kLong);
  members.push_back(k);
  struct Wanted {
    const char* clause;
    const char* stem;
    Type type;
  };
  std::vector<Wanted> wanted = {
      {"key.no-float-double/float", "fl", Type::Primitive(TypeId::kFloat)},
      {"key.no-geo/geometry", "geom", Type::Primitive(TypeId::kGeometry)},
      {"key.no-geo/geography", "geog", Type::Primitive(TypeId::kGeography)},
      {"key.no-unknown/whole", "nothing", Type::Primitive(TypeId::kUnknown)},
      // A v3+ type that is not primitive (key.primitive-only/variant); its values are
      // always null in generated rows.
      {"key.primitive-only/variant", "var", Type::Primitive(TypeId::kVariant)},
      {"key.not-in-list-map/list", "items", Type::List(1, false, Type::Primitive(TypeId::kInt))},
      {"key.not-in-list-map/map", "props",
       Type::Map(1, Type::Primitive(TypeId::kString), 2, false,
                 Type::Primitive(TypeId::kInt))},
      {"key.pk-required/optional-parent", "rec", Type::Struct(members)},
  };
  std::vector<const Wanted*> missing;
  for (const Wanted& w : wanted)
    if (!reachable(w.clause)) missing.push_back(&w);
  // The optional struct serves a primary key on a nested field: it needs both capabilities.
  if ((!ctx.caps().nested_keys || !ctx.caps().primary_key) && !missing.empty() &&
      missing.back() == &wanted.back())
    missing.pop_back();
  if (missing.empty()) return std::nullopt;
  // Two times in three, a type only this step makes (generated schemas have floats,
  // unknowns, lists, maps and structs of their own, but no geometry, geography or variant).
  std::vector<const Wanted*> only_added;
  for (const Wanted* w : missing)
    if (w->type.id == TypeId::kGeometry || w->type.id == TypeId::kGeography ||
        w->type.id == TypeId::kVariant)
      only_added.push_back(w);
  if (!only_added.empty() && ctx.step.pick % 3 != 2) missing = only_added;
  const Wanted& w = *missing[static_cast<size_t>((ctx.step.pick / 3 + 5u) % missing.size())];
  AddColumn a;
  a.name = fmt::format("{}_{}", w.stem, ctx.counters.next_name++);
  a.type = w.type;
  if (a.type.id == TypeId::kStruct) {
    std::vector<NestedField> fields = a.type.fields;
    AssignFieldIds(fields, 1);
    a.type.fields = std::move(fields);
  }
  UpdateSchema u;
  u.changes.push_back(std::move(a));
  return Make(std::move(u), ctx.options.table, "update-schema/add-for-invalid-key",
              Intent::kOk, std::nullopt, {RuleId::kSchReferencedExist});
}

std::optional<RenderedStep> RenderAddInvalidConstraint(const Ctx& ctx) {
  // On a v1-v3 table, two invalid steps in three upgrade it first (the precondition
  // repaired, as for add-constraint), so that the clauses of v4 tables are aimed at; the
  // third is refused for def.v4-only.
  if (ctx.md().format_version < 4 && ctx.caps().upgrade &&
      ctx.caps().format_versions.count(4) && ctx.step.pick % 3 != 0)
    return Make(Upgrade{4}, ctx.options.table,
                fmt::format("upgrade/v{}-to-v4-for-constraints", ctx.md().format_version),
                Intent::kOk, std::nullopt,
                {RuleId::kUpgPkFromIdentifiers, RuleId::kUpgSkipIneligible,
                 RuleId::kIdLastDefaultZero});
  ConstraintGenContext g = GenContext(ctx, FreshName(ctx, "bad"));
  std::vector<InvalidTarget> usable;
  for (InvalidTarget& t : InvalidConstraintClauses(g)) {
    const RuleId r = t.rule;
    // Aim only where the capability exists to express the constraint.
    if ((r == RuleId::kKeyPkRequired || r == RuleId::kDefSinglePk) &&
        !ctx.caps().primary_key)
      continue;
    if ((r == RuleId::kExprIdReferences || r == RuleId::kExprWellTyped ||
         r == RuleId::kExprNoListMapElement || r == RuleId::kExprDeterministic) &&
        !ctx.caps().check)
      continue;
    usable.push_back(std::move(t));
  }
  // One invalid step in three whose schema lacks the column some clause needs (a float, a
  // geometry, a map, an optional struct, ...) adds that column first, so that every clause
  // is reachable in short histories (the precondition repaired, as for UDF checks).
  if (ctx.Flavour(3) == 0 && ctx.md().format_version >= 4 && ctx.caps().schema_evolution) {
    if (std::optional<RenderedStep> add = RenderColumnForClause(ctx, usable)) return add;
  }
  if (usable.empty()) return std::nullopt;
  // Half of the time, a clause about a kind of key or referenced field (key.*,
  // expr.no-list-map-element): each needs a column type that few schemas have, and each
  // has a mutant that only such a step can catch.
  std::vector<InvalidTarget> favoured;
  for (const InvalidTarget& t : usable)
    if (t.clause.rfind("key.", 0) == 0 || t.rule == RuleId::kExprNoListMapElement)
      favoured.push_back(t);
  // Among them, a clause that needs a column of a rare type (one RenderColumnForClause
  // adds: float, double, geometry, geography, unknown, variant, a list, a map, an optional
  // struct) whenever the schema has one, so that each such column, once added, is used.
  std::vector<InvalidTarget> rare, only_added;
  for (const InvalidTarget& t : usable) {
    if (!IsRareColumnClause(t.clause)) continue;
    rare.push_back(t);
    if (t.clause == "key.no-geo/geometry" || t.clause == "key.no-geo/geography" ||
        t.clause == "key.primitive-only/variant")
      only_added.push_back(t);
  }
  // Half of those picks, a clause whose column only RenderColumnForClause makes.
  if (!only_added.empty() && (ctx.step.pick / 4) % 2 == 0) rare = only_added;
  // The other half, a clause of the definition itself (def.*, expr.*,
  // sch.referenced-exist): the key clauses have the first half, a rare column type in one
  // pick of four when the schema has one.
  std::vector<InvalidTarget> others;
  for (const InvalidTarget& t : usable)
    if (t.clause.rfind("key.", 0) != 0 && !IsRareColumnClause(t.clause)) others.push_back(t);
  // Half of those picks, a clause that only some states make reachable (a primary key or a
  // named constraint to clash with, a UDF that is not deterministic) whenever one is.
  std::vector<InvalidTarget> situational;
  for (const InvalidTarget& t : others)
    if (t.clause == "def.single-pk/whole" || t.clause == "def.name-unique/unique" ||
        t.clause == "expr.deterministic/whole")
      situational.push_back(t);
  const uint32_t quarter = ctx.step.pick % 4;
  const std::vector<InvalidTarget>& pool =
      !rare.empty() && quarter == 0                      ? rare
      : !favoured.empty() && quarter <= 1                ? favoured
      : !situational.empty() && quarter == 3             ? situational
      : !others.empty() && (quarter >= 2 || favoured.empty()) ? others
                                                         : usable;
  // The index comes from the pick without the quarter that chose the pool: pick % 4 fixed
  // would reach only some indices of a pool whose size shares a factor with 4.
  const InvalidTarget* chosen =
      &pool[static_cast<size_t>((ctx.step.pick / 4 + 11u * 7919u) % pool.size())];
  // One definition pick in eight is def.types (one clause among ~15 there, whose mutant
  // only a known type spelled in another case catches; GenInvalidConstraint).
  if (&pool == &others && (ctx.step.pick / 4) % 8 == 5)
    for (const InvalidTarget& t : others)
      if (t.clause == "def.types/whole") chosen = &t;
  const InvalidTarget& target = *chosen;
  std::optional<Constraint> c =
      Sample(GenInvalidConstraint(g, target), ctx.Seed(2), ctx.step.size);
  if (!c) return std::nullopt;
  // The label names the clause, or the rule alone when the rule has one clause.
  const bool whole = target.clause.size() > 6 &&
                     target.clause.compare(target.clause.size() - 6, 6, "/whole") == 0;
  RenderedStep r = Make(AddConstraint{*c}, ctx.options.table,
                        fmt::format("add-invalid-constraint/{}",
                                    whole ? std::string(RuleIdName(target.rule))
                                          : target.clause),
                        Intent::kReject, target.rule);
  r.clauses = {target.clause};
  return r;
}

std::optional<RenderedStep> RenderUpdateConstraint(const Ctx& ctx) {
  const auto& cs = ctx.constraints();
  if (cs.empty()) return std::nullopt;
  const Constraint& c = cs[ctx.Pick(cs.size())];
  if (!c.name) return std::nullopt;
  UpdateConstraint u;
  u.name = *c.name;
  std::string label;
  Intent intent = Intent::kOk;
  std::optional<RuleId> aimed;
  std::vector<RuleId> tags = {RuleId::kUpdTimestamp, RuleId::kUpdNameEnforcedOnly};
  std::vector<std::string> clauses;
  switch (ctx.Flavour(8)) {
    case 0:
    default:
      u.set.name = FreshName(ctx, "renamed");
      label = "update-constraint/rename";
      break;
    case 1:
    case 2:
      u.set.enforced = !c.enforced.value_or(false);
      if (ctx.Flavour(8) == 2) u.set.name = FreshName(ctx, "renamed");
      label =
          *u.set.enforced ? "update-constraint/enforce" : "update-constraint/unenforce";
      if (*u.set.enforced) {
        intent = Intent::kAny;  // existing rows may break it (existing-rows-on-enforce)
        tags.push_back(RuleId::kEnfEnforced);
      }
      break;
    case 3: {
      // Half the time a check (upd.definition-immutable/expression), else a key
      // (field-ids), whichever constraint that is.
      const Constraint* t = &c;
      const bool want_check = ctx.step.pick % 2 == 0;
      for (const Constraint& o : cs)
        if (o.name && (o.type == ConstraintType::kCheck) == want_check) {
          t = &o;
          break;
        }
      u.name = *t->name;
      if (t->type == ConstraintType::kCheck) {
        u.set.expression = Expr::Unary(ExprOp::kNotNull, Expr::Ref(1));
      } else {
        u.set.field_ids = std::vector<FieldId>{2};
      }
      label = "update-constraint/change-definition";
      intent = Intent::kReject;
      aimed = RuleId::kUpdDefinitionImmutable;
      if (t->expression && u.set.expression == t->expression) intent = Intent::kAny;
      if (t->field_ids && u.set.field_ids == t->field_ids) intent = Intent::kAny;
      if (intent == Intent::kReject)
        clauses = {Clause(RuleId::kUpdDefinitionImmutable,
                          t->type == ConstraintType::kCheck ? "expression" : "field-ids")};
      break;
    }
    case 4:
      u.set.type = c.type == ConstraintType::kUnique ? "primary-key" : "unique";
      label = "update-constraint/change-type";
      intent = Intent::kReject;
      aimed = RuleId::kUpdNameEnforcedOnly;
      break;
    case 5: {
      if (cs.size() < 2) {
        u.set.name = FreshName(ctx, "renamed");
        label = "update-constraint/rename";
        break;
      }
      const Constraint& other = cs[(ctx.Pick(cs.size()) + 1) % cs.size()];
      u.set.name = other.name;
      label = "update-constraint/rename-to-taken";
      intent = Intent::kReject;
      aimed = RuleId::kDefNameUnique;
      break;
    }
    case 6:  // restates the current definition (switch restated-definition)
      if (c.expression) u.set.expression = c.expression;
      if (c.field_ids) u.set.field_ids = c.field_ids;
      u.set.enforced = c.enforced;
      label = "update-constraint/restate";
      intent = Intent::kAny;
      tags = {RuleId::kUpdDefinitionImmutable};
      break;
    case 7:
      u.name = "no_such_constraint";
      u.set.name = FreshName(ctx, "renamed");
      label = "update-constraint/unknown-name";
      intent = Intent::kReject;
      aimed = RuleId::kProtoRequest;
      tags = {};
      break;
  }
  RenderedStep r = Make(std::move(u), ctx.options.table, label, intent, aimed, tags);
  r.clauses = std::move(clauses);
  return r;
}

std::optional<RenderedStep> RenderRemoveConstraint(const Ctx& ctx) {
  const auto& cs = ctx.constraints();
  if (cs.empty() || ctx.Flavour(6) == 5) {
    if (ctx.md().format_version < 4) return std::nullopt;
    return Make(RemoveConstraint{"no_such_constraint"}, ctx.options.table,
                "remove-constraint/unknown-name", Intent::kReject, RuleId::kProtoRequest);
  }
  const Constraint& c = cs[ctx.Pick(cs.size())];
  if (!c.name) return std::nullopt;
  return Make(RemoveConstraint{*c.name}, ctx.options.table, "remove-constraint",
              Intent::kOk, std::nullopt,
              {RuleId::kIdNoReuse, RuleId::kIdReadersTolerateMissing});
}

// --- schema
// ------------------------------------------------------------------------------

struct References {
  std::set<FieldId> by_check, by_key, by_pk;
  std::map<FieldId, std::vector<std::string>> names;  ///< field -> constraints naming it
};

References Referenced(const Ctx& ctx) {
  References r;
  for (const Constraint& c : ctx.constraints()) {
    for (FieldId id : ReferencedFieldIds(c)) {
      if (c.type == ConstraintType::kCheck)
        r.by_check.insert(id);
      else
        r.by_key.insert(id);
      if (c.type == ConstraintType::kPrimaryKey) r.by_pk.insert(id);
      if (c.name) r.names[id].push_back(*c.name);
    }
  }
  return r;
}

/// The top-level field that contains field `id` (itself when top-level).
FieldId TopLevelOf(const Schema& schema, FieldId id) {
  std::optional<FieldLocation> loc = FindField(schema, id);
  return loc && !loc->path.empty() ? loc->path.front() : id;
}

/// The precondition of a schema change that constraints must refuse for a nested field,
/// repaired: with no constraint on a field inside a struct yet, a not-enforced unique
/// (`primary_key` false) or primary key (true; only while the table has none) on a
/// field inside a top-level struct (a required one, for a primary key), so that a later
/// step can delete that struct (sch.remove-referenced/nested) or make it optional
/// (sch.pk-stays-required/optional-parent). nullopt when the table offers no such field.
std::optional<RenderedStep> RenderNestedKeyFirst(const Ctx& ctx, bool primary_key) {
  if (ctx.md().format_version < 4 || !ctx.caps().nested_keys) return std::nullopt;
  if (primary_key ? !ctx.caps().primary_key : !ctx.caps().unique) return std::nullopt;
  if (primary_key)
    for (const Constraint& c : ctx.constraints())
      if (c.type == ConstraintType::kPrimaryKey) return std::nullopt;
  const Schema& schema = *ctx.schema();
  std::vector<FieldId> pool;
  for (const KeyCandidate& k : KeyCandidates(schema, true)) {
    if (!k.nested) continue;
    const FieldId top = TopLevelOf(schema, k.id);
    std::optional<FieldLocation> outer = FindField(schema, top);
    if (!outer) continue;
    if (primary_key && (!k.pk_eligible || !outer->field.required)) continue;
    pool.push_back(k.id);
  }
  if (pool.empty()) return std::nullopt;
  Constraint c;
  c.type = primary_key ? ConstraintType::kPrimaryKey : ConstraintType::kUnique;
  c.raw_type = primary_key ? "primary-key" : "unique";
  c.name = FreshName(ctx, primary_key ? "nested_pk" : "nested_key");
  c.enforced = false;
  c.field_ids = std::vector<FieldId>{pool[ctx.Pick(pool.size(), 2)]};
  RenderedStep r = Make(AddConstraint{c}, ctx.options.table,
                        primary_key ? "add-constraint/nested-primary-key"
                                    : "add-constraint/nested-unique",
                        Intent::kOk, std::nullopt,
                        {RuleId::kIdAboveLast, RuleId::kIdUpdateLast});
  r.clauses = {Clause(RuleId::kIdAboveLast, "whole"), Clause(RuleId::kIdUpdateLast, "whole")};
  return r;
}

/// A second table's create-table whose schema breaks one clause of the Iceberg schema
/// rules alone: identifier fields (v1-v3) that are missing, not primitive, float or
/// double, optional, in a list, or under an optional struct (ice.identifier-fields), or a
/// v3 type in a v1-v2 schema (ice.types-by-version). It must be refused, and leaves the
/// history's own table alone.
std::optional<RenderedStep> RenderInvalidSchemaTable(const Ctx& ctx) {
  static constexpr std::string_view kIdentifierClauses[] = {
      "exist", "primitive", "not-float-double", "required", "not-in-list-map",
      "not-under-optional-struct"};
  const std::set<int32_t>& versions = ctx.caps().format_versions;
  const uint32_t variant = ctx.step.pick % 7;
  std::optional<int32_t> fv;
  if (variant == 6) {  // the oldest of v1-v2
    for (int32_t v : {1, 2})
      if (!fv && versions.count(v)) fv = v;
  } else {  // the newest of v1-v3
    for (int32_t v : {3, 2, 1})
      if (!fv && versions.count(v)) fv = v;
  }
  if (!fv) return std::nullopt;
  auto field = [](FieldId id, std::string name, bool required, Type type) {
    NestedField f;
    f.id = id;
    f.name = std::move(name);
    f.required = required;
    f.type = std::move(type);
    return f;
  };
  CreateTable c;
  c.format_version = *fv;
  c.schema.schema_id = 0;
  c.schema.fields = {
      field(1, "id", true, Type::Primitive(TypeId::kLong)),
      field(2, "ratio", true,
            Type::Primitive(ctx.step.pick % 2 == 0 ? TypeId::kDouble : TypeId::kFloat)),
      field(3, "point", true,
            Type::Struct({field(4, "x", true, Type::Primitive(TypeId::kInt))})),
      field(5, "tags", true, Type::List(6, true, Type::Primitive(TypeId::kInt))),
      field(7, "extra", false,
            Type::Struct({field(8, "y", true, Type::Primitive(TypeId::kInt))})),
      field(9, "note", false, Type::Primitive(TypeId::kInt)),
  };
  std::string clause;
  if (variant == 6) {
    static constexpr TypeId kV3Types[] = {TypeId::kTimestampNs, TypeId::kTimestampTzNs,
                                          TypeId::kUnknown, TypeId::kVariant,
                                          TypeId::kGeometry, TypeId::kGeography};
    c.schema.fields.push_back(
        field(10, "later", false, Type::Primitive(kV3Types[ctx.Pick(std::size(kV3Types), 1)])));
    clause = Clause(RuleId::kIceTypesByVersion, "whole");
  } else {
    static constexpr FieldId kBroken[] = {99, 3, 2, 9, 6, 8};
    c.schema.identifier_field_ids = std::vector<FieldId>{1, kBroken[variant]};
    clause = Clause(RuleId::kIceIdentifierFields, kIdentifierClauses[variant]);
  }
  const std::string table =
      fmt::format("{}_invalid_{}", ctx.options.table, ctx.counters.next_name++);
  const std::string label =
      variant == 6 ? "create-table/v3-type-before-v3"
                   : fmt::format("create-table/invalid-identifiers/{}",
                                 kIdentifierClauses[variant]);
  RenderedStep r = Make(std::move(c), table, label, Intent::kReject,
                        variant == 6 ? RuleId::kIceTypesByVersion : RuleId::kIceIdentifierFields);
  r.clauses = {clause};
  return r;
}

std::optional<RenderedStep> RenderUpdateSchemaFlavour(const Ctx& ctx) {
  const Schema& schema = *ctx.schema();
  const References refs = Referenced(ctx);
  const bool has_rows = !ctx.table->rows.empty();
  const int32_t fv = ctx.md().format_version;
  UpdateSchema u;
  std::string label;
  Intent intent = Intent::kOk;
  std::optional<RuleId> aimed;
  std::vector<RuleId> tags;
  std::vector<std::string> clauses;
  auto referenced = [&](FieldId top) {
    for (FieldId id : refs.by_check)
      if (TopLevelOf(schema, id) == top) return true;
    for (FieldId id : refs.by_key)
      if (TopLevelOf(schema, id) == top) return true;
    return false;
  };
  std::vector<FieldId> top_ids;
  for (const NestedField& f : schema.fields) top_ids.push_back(f.id);
  // Flavours 10-13 repeat the changes that constraints must refuse (a referenced column
  // deleted, a check field promoted, a primary-key field made optional); 14-15 the
  // changes they must allow (a referenced field renamed or moved, sch.rename-reorder);
  // 16-23 the changes Iceberg's schema evolution must refuse, each breaking one clause
  // (an illegal promotion, date to timestamp before v3, a field the schema lacks, a
  // sibling's name, a move beside a field that is no sibling) and three times in eight
  // a second table's create-table with an invalid schema (identifier fields, v3 types).
  static constexpr uint32_t kSchemaFlavours[] = {0,  1,  2,  3,  4,  5,  6,  7,
                                                 8,  9,  6,  8,  9,  9,  3,  4,
                                                 10, 11, 12, 13, 14, 15, 15, 15};
  uint32_t flavour = kSchemaFlavours[ctx.Flavour(24)];
  // Date to timestamp is legal from v3: on a v1-v2 table, two thirds of the legal and
  // illegal promotions and one in four of the other flavours request it instead
  // (ice.type-promotion/by-version; few update-schema steps meet a v1-v2 table).
  if (fv < 3 && ((flavour == 8 || flavour == 10) ? ctx.step.pick % 3 != 2
                                                  : ctx.step.pick % 4 == 1))
    flavour = 11;
  // Once a constraint references a field inside a struct (add-constraint sets that up,
  // RenderNestedKeyFirst), one step in six deletes the struct (sch.remove-referenced/
  // nested) and, for a primary key inside a required struct, one in two makes the struct
  // optional (sch.pk-stays-required/optional-parent).
  {
    bool nested_ref = false, pk_in_required_struct = false;
    for (const auto& ids : {refs.by_check, refs.by_key})
      for (FieldId id : ids) nested_ref = nested_ref || TopLevelOf(schema, id) != id;
    for (FieldId id : refs.by_pk) {
      const FieldId top = TopLevelOf(schema, id);
      std::optional<FieldLocation> outer = FindField(schema, top);
      pk_in_required_struct =
          pk_in_required_struct || (top != id && outer && outer->field.required);
    }
    if (nested_ref && ctx.step.pick % 6 == 0) flavour = 6;
    if (pk_in_required_struct && ctx.step.pick % 6 % 2 == 1) flavour = 9;
  }
  if (flavour == 11 && fv >= 3) flavour = 10;
  if (flavour == 15) return RenderInvalidSchemaTable(ctx);
  switch (flavour) {
    case 0:
    default: {
      AddColumn a;
      a.name = fmt::format("added_{}", ctx.counters.next_name++);
      std::optional<Type> t = Sample(GenPrimitiveType(std::min(fv, 3)), ctx.Seed(3), 10);
      a.type = t && t->id != TypeId::kGeometry && t->id != TypeId::kGeography
                   ? *t
                   : Type::Primitive(TypeId::kString);
      u.changes.push_back(std::move(a));
      label = "update-schema/add-optional";
      tags = {RuleId::kSchReferencedExist};
      break;
    }
    case 1: {
      AddColumn a;
      a.name = fmt::format("added_{}", ctx.counters.next_name++);
      a.type = Type::Primitive(TypeId::kInt);
      a.required = true;
      if (fv >= 3) {
        a.initial_default_json = "7";
        a.write_default_json = "7";
        label = "update-schema/add-required-default";
      } else {
        label = "update-schema/add-required-v2";
        intent = Intent::kAny;
      }
      tags = {RuleId::kIceRequiredNeedsDefault};
      if (!has_rows && fv >= 3) intent = Intent::kOk;
      u.changes.push_back(std::move(a));
      break;
    }
    case 2: {
      AddColumn a;
      a.name = fmt::format("added_{}", ctx.counters.next_name++);
      a.type = Type::Primitive(TypeId::kLong);
      a.required = true;
      u.changes.push_back(std::move(a));
      label = "update-schema/add-required-no-default";
      intent = has_rows ? Intent::kReject : Intent::kOk;
      if (has_rows) aimed = RuleId::kIceRequiredNeedsDefault;
      if (has_rows && fv < 3) intent = Intent::kAny;
      if (intent != Intent::kReject) aimed.reset();
      tags = {RuleId::kIceRequiredNeedsDefault};
      break;
    }
    case 3: {  // rename a referenced field (sch.rename-reorder)
      std::vector<FieldId> pool(refs.by_check.begin(), refs.by_check.end());
      pool.insert(pool.end(), refs.by_key.begin(), refs.by_key.end());
      if (pool.empty()) pool = top_ids;
      const FieldId id = pool[ctx.Pick(pool.size())];
      u.changes.push_back(
          RenameColumn{id, fmt::format("renamed_{}", ctx.counters.next_name++)});
      label = "update-schema/rename";
      tags = {RuleId::kSchRenameReorder};
      break;
    }
    case 4: {  // reorder, mostly a referenced field (sch.rename-reorder/reorder)
      MoveColumn m;
      // A top-level field a constraint references itself, else one that holds such a
      // field, else (and one time in four) any.
      std::vector<FieldId> pool;
      for (FieldId id : top_ids)
        if (refs.by_check.count(id) || refs.by_key.count(id)) pool.push_back(id);
      if (pool.empty())
        for (FieldId id : top_ids)
          if (referenced(id)) pool.push_back(id);
      if (pool.empty() || ctx.step.pick % 4 == 3) pool = top_ids;
      m.id = pool[ctx.Pick(pool.size())];
      if (ctx.step.pick % 2 == 0 || top_ids.size() < 2) {
        m.position = MoveColumn::Position::kFirst;
      } else {
        m.position = MoveColumn::Position::kAfter;
        const size_t at = static_cast<size_t>(
            std::find(top_ids.begin(), top_ids.end(), m.id) - top_ids.begin());
        m.reference = top_ids[(at + 1) % top_ids.size()];
      }
      u.changes.push_back(m);
      label = "update-schema/move";
      tags = {RuleId::kSchRenameReorder};
      break;
    }
    case 5: {  // delete an unreferenced column
      std::vector<FieldId> pool;
      for (const NestedField& f : schema.fields)
        if (!referenced(f.id) && f.id != 1 && !f.required) pool.push_back(f.id);
      if (pool.empty()) return std::nullopt;
      u.changes.push_back(DeleteColumn{pool[ctx.Pick(pool.size())]});
      label = "update-schema/delete-unreferenced";
      tags = {RuleId::kSchRemoveReferenced};
      break;
    }
    case 6:
    case 7: {  // delete a referenced column, without (6) or with (7) its constraints
      if (flavour == 6 && ctx.step.pick % 2 == 0) {
        // No constraint references a field inside a struct: one is added first.
        bool nested_ref = false;
        for (const auto& ids : {refs.by_check, refs.by_key})
          for (FieldId id : ids) nested_ref = nested_ref || TopLevelOf(schema, id) != id;
        if (!nested_ref)
          if (std::optional<RenderedStep> first = RenderNestedKeyFirst(ctx, false))
            return first;
      }
      std::vector<FieldId> pool;
      for (const NestedField& f : schema.fields)
        if (referenced(f.id)) pool.push_back(f.id);
      if (pool.empty()) return std::nullopt;
      FieldId top = pool[ctx.Pick(pool.size())];
      // Without its constraints, the deleted field is one a check, a unique or a primary
      // key references (sch.remove-referenced/rejected), or the struct that holds one
      // (sch.remove-referenced/nested).
      std::string clause = Clause(RuleId::kSchRemoveReferenced, "rejected");
      if (flavour == 6) {
        std::vector<std::pair<FieldId, bool>> targets;  // field to delete, nested
        std::set<FieldId> all = refs.by_check;
        all.insert(refs.by_key.begin(), refs.by_key.end());
        for (FieldId id : all) {
          const FieldId outer = TopLevelOf(schema, id);
          if (!FindField(schema, id)) continue;
          targets.emplace_back(id, false);
          if (outer != id) targets.emplace_back(outer, true);
        }
        // Half the time, the struct that holds a referenced field when there is one.
        std::vector<std::pair<FieldId, bool>> outer_only;
        for (const auto& t : targets)
          if (t.second) outer_only.push_back(t);
        if (!outer_only.empty() && ctx.step.pick % 2 == 0) targets = outer_only;
        if (!targets.empty()) {
          const auto& [id, nested] = targets[ctx.Pick(targets.size(), 3)];
          top = id;
          if (nested) clause = Clause(RuleId::kSchRemoveReferenced, "nested");
        }
      }
      u.changes.push_back(DeleteColumn{top});
      if (flavour == 7) {
        std::set<std::string> names;
        for (const auto& [id, ns] : refs.names)
          if (TopLevelOf(schema, id) == top) names.insert(ns.begin(), ns.end());
        u.remove_constraints.assign(names.begin(), names.end());
        label = "update-schema/delete-with-constraints";
        intent = Intent::kAny;  // other rules (e.g. a required column) may still decide
        tags = {RuleId::kSchRemoveReferenced, RuleId::kIdNoReuse};
        clauses = {Clause(RuleId::kSchRemoveReferenced, "unless-removed")};
      } else {
        label = "update-schema/delete-referenced";
        intent = Intent::kReject;
        aimed = RuleId::kSchRemoveReferenced;
        clauses = {clause};
      }
      break;
    }
    case 8: {  // promote a type: int->long, float->double, decimal widening,
               // date->timestamp
      struct Candidate {
        FieldId id;
        Type to;
      };
      std::vector<Candidate> pool;
      std::function<void(const std::vector<NestedField>&, bool)> walk =
          [&](const std::vector<NestedField>& fields, bool nested) {
            for (const NestedField& f : fields) {
              if (f.type.id == TypeId::kStruct) {
                walk(f.type.fields, true);
                continue;
              }
              if (f.type.id == TypeId::kInt)
                pool.push_back({f.id, Type::Primitive(TypeId::kLong)});
              if (f.type.id == TypeId::kFloat)
                pool.push_back({f.id, Type::Primitive(TypeId::kDouble)});
              if (f.type.id == TypeId::kDecimal && f.type.precision < 38)
                pool.push_back({f.id, Type::Decimal(std::min(38, f.type.precision + 9),
                                                    f.type.scale)});
              if (f.type.id == TypeId::kDate && fv >= 3)
                pool.push_back({f.id, Type::Primitive(TypeId::kTimestamp)});
              (void)nested;
            }
          };
      walk(schema.fields, false);
      if (pool.empty()) return std::nullopt;
      const Candidate& c = pool[ctx.Pick(pool.size())];
      u.changes.push_back(UpdateColumnType{c.id, c.to});
      if (refs.by_check.count(c.id)) {
        label = "update-schema/promote-check-field";
        intent = Intent::kReject;
        aimed = RuleId::kSchCheckNoTypeChange;
      } else if (refs.by_key.count(c.id)) {
        label = "update-schema/promote-key-field";
        intent = Intent::kAny;  // switch key-promotions
        tags = {RuleId::kSchKeyPromotionOk};
      } else {
        label = "update-schema/promote";
        tags = {RuleId::kIceTypePromotion};
      }
      break;
    }
    case 10: {  // an illegal type change (ice.type-promotion/legal-only)
      // Narrowings Iceberg does not allow, between types whose values read alike (so the
      // rows stay readable): long to int, double to float, int to date, decimal(P, S) to
      // decimal(P-1, S). A field a check references is left out: refusing its change
      // for the check's sake (sch.check-no-type-change) would hide the clause.
      struct Candidate {
        FieldId id;
        Type to;
      };
      std::vector<Candidate> pool;
      std::function<void(const std::vector<NestedField>&)> walk =
          [&](const std::vector<NestedField>& fields) {
            for (const NestedField& f : fields) {
              if (f.type.id == TypeId::kStruct) {
                walk(f.type.fields);
                continue;
              }
              if (refs.by_check.count(f.id)) continue;
              if (f.type.id == TypeId::kLong)
                pool.push_back({f.id, Type::Primitive(TypeId::kInt)});
              if (f.type.id == TypeId::kDouble)
                pool.push_back({f.id, Type::Primitive(TypeId::kFloat)});
              if (f.type.id == TypeId::kInt)
                pool.push_back({f.id, Type::Primitive(TypeId::kDate)});
              if (f.type.id == TypeId::kDecimal && f.type.precision > 1 &&
                  f.type.scale < f.type.precision)
                pool.push_back({f.id, Type::Decimal(f.type.precision - 1, f.type.scale)});
            }
          };
      walk(schema.fields);
      if (pool.empty()) return std::nullopt;
      const Candidate& c = pool[ctx.Pick(pool.size())];
      u.changes.push_back(UpdateColumnType{c.id, c.to});
      label = "update-schema/promote-illegal";
      intent = Intent::kReject;
      aimed = RuleId::kIceTypePromotion;
      clauses = {Clause(RuleId::kIceTypePromotion, "legal-only")};
      break;
    }
    case 11: {  // date to timestamp on a v1-v2 table (ice.type-promotion/by-version)
      std::vector<FieldId> dates;
      std::function<void(const std::vector<NestedField>&)> walk =
          [&](const std::vector<NestedField>& fields) {
            for (const NestedField& f : fields) {
              if (f.type.id == TypeId::kStruct) walk(f.type.fields);
              if (f.type.id == TypeId::kDate && !refs.by_check.count(f.id))
                dates.push_back(f.id);
            }
          };
      walk(schema.fields);
      if (dates.empty() || ctx.step.pick % 2 == 1) {
        // A date column added by the same change, then promoted.
        AddColumn a;
        a.name = fmt::format("added_{}", ctx.counters.next_name++);
        a.type = Type::Primitive(TypeId::kDate);
        FieldId next = ctx.md().last_column_id;
        for (FieldId id : AllFieldIds(schema.fields)) next = std::max(next, id);
        u.changes.push_back(std::move(a));
        u.changes.push_back(UpdateColumnType{next + 1, Type::Primitive(TypeId::kTimestamp)});
      } else {
        u.changes.push_back(UpdateColumnType{dates[ctx.Pick(dates.size())],
                                             Type::Primitive(TypeId::kTimestamp)});
      }
      label = "update-schema/promote-date-before-v3";
      intent = Intent::kReject;
      aimed = RuleId::kIceTypePromotion;
      clauses = {Clause(RuleId::kIceTypePromotion, "by-version")};
      break;
    }
    case 12: {  // a change naming a field the schema does not have
      FieldId ghost = ctx.md().last_column_id + 1000;
      while (FindField(schema, ghost)) ++ghost;
      switch (ctx.step.pick % 3) {
        case 0:
          u.changes.push_back(
              RenameColumn{ghost, fmt::format("renamed_{}", ctx.counters.next_name++)});
          break;
        case 1:
          u.changes.push_back(MakeOptional{ghost});
          break;
        default:
          u.changes.push_back(UpdateColumnType{ghost, Type::Primitive(TypeId::kLong)});
          break;
      }
      label = "update-schema/unknown-field";
      intent = Intent::kReject;
      aimed = RuleId::kIceSchemaEvolution;
      clauses = {Clause(RuleId::kIceSchemaEvolution, "existing-fields")};
      break;
    }
    case 13: {  // a field renamed, or a column added, to a sibling's name
      if (schema.fields.empty()) return std::nullopt;
      const NestedField& taken = schema.fields[ctx.Pick(schema.fields.size())];
      if (schema.fields.size() >= 2 && ctx.step.pick % 2 == 0) {
        const NestedField& other =
            schema.fields[(ctx.Pick(schema.fields.size()) + 1 +
                           ctx.Pick(schema.fields.size() - 1, 1)) %
                          schema.fields.size()];
        u.changes.push_back(RenameColumn{other.id, taken.name});
      } else {
        AddColumn a;
        a.name = taken.name;
        a.type = Type::Primitive(TypeId::kString);
        u.changes.push_back(std::move(a));
      }
      label = "update-schema/sibling-name";
      intent = Intent::kReject;
      aimed = RuleId::kIceSchemaEvolution;
      clauses = {Clause(RuleId::kIceSchemaEvolution, "unique-sibling-names")};
      break;
    }
    case 14: {  // a move beside a field that is not a sibling
      // A top-level field moved after a field inside a struct, or a struct's field moved
      // after a top-level field: either way out of its struct.
      std::vector<std::pair<FieldId, FieldId>> moves;  // field, reference
      for (const NestedField& s : schema.fields) {
        if (s.type.id != TypeId::kStruct) continue;
        for (const NestedField& inner : s.type.fields)
          for (const NestedField& top : schema.fields) {
            if (top.id == s.id) continue;
            moves.emplace_back(top.id, inner.id);
            moves.emplace_back(inner.id, top.id);
          }
      }
      if (moves.empty()) return std::nullopt;
      const auto& [id, reference] = moves[ctx.Pick(moves.size())];
      MoveColumn m;
      m.id = id;
      m.position = MoveColumn::Position::kAfter;
      m.reference = reference;
      u.changes.push_back(m);
      label = "update-schema/move-out-of-struct";
      intent = Intent::kReject;
      aimed = RuleId::kIceSchemaEvolution;
      clauses = {Clause(RuleId::kIceSchemaEvolution, "moves-among-siblings")};
      break;
    }
    case 9: {  // make a required field optional
      // Identifier fields must stay required (Iceberg), so they are not offered.
      const std::vector<FieldId> identifiers =
          schema.identifier_field_ids.value_or(std::vector<FieldId>{});
      std::vector<FieldId> pool;
      for (const NestedField& f : schema.fields)
        if (f.required &&
            std::none_of(identifiers.begin(), identifiers.end(),
                         [&](FieldId i) { return TopLevelOf(schema, i) == f.id; }))
          pool.push_back(f.id);
      // A required struct that holds a primary-key field: making it optional nests the
      // field under an optional struct (sch.pk-stays-required/optional-parent).
      std::set<FieldId> pk_parents;
      for (FieldId pk_id : refs.by_pk) {
        const FieldId outer = TopLevelOf(schema, pk_id);
        if (outer != pk_id && std::find(pool.begin(), pool.end(), outer) != pool.end())
          pk_parents.insert(outer);
      }
      // No primary key on a field inside a required struct: one in two such steps adds
      // one first (when the table has no primary key).
      if (pk_parents.empty() && ctx.step.pick % 4 == 1)
        if (std::optional<RenderedStep> first = RenderNestedKeyFirst(ctx, true)) return first;
      if (pool.empty()) return std::nullopt;
      FieldId id = pool[ctx.Pick(pool.size())];
      if (!refs.by_pk.empty() && ctx.step.pick % 4 != 0) id = *refs.by_pk.begin();
      if (!pk_parents.empty() && ctx.step.pick % 2 == 1) id = *pk_parents.begin();
      u.changes.push_back(MakeOptional{id});
      if (refs.by_pk.count(id) || pk_parents.count(id)) {
        label = "update-schema/pk-field-optional";
        intent = Intent::kReject;
        aimed = RuleId::kSchPkStaysRequired;
        clauses = {Clause(RuleId::kSchPkStaysRequired,
                          pk_parents.count(id) ? "optional-parent" : "own-flag")};
      } else {
        label = "update-schema/make-optional";
        tags = {RuleId::kKeyUniqueOptionalOk};
      }
      break;
    }
  }
  RenderedStep r = Make(std::move(u), ctx.options.table, label, intent, aimed, tags);
  r.clauses = std::move(clauses);
  return r;
}

/// An update-schema step. When the flavour it draws has nothing to act on (no column to
/// promote, no struct to move out of, ...), it renders a second table's create-table with
/// an invalid schema instead (RenderInvalidSchemaTable): each of its seven variants breaks
/// one clause that no other step reaches (ice.identifier-fields, ice.types-by-version),
/// and at three flavours in 24 each was drawn only about twice in 200 histories.
std::optional<RenderedStep> RenderUpdateSchema(const Ctx& ctx) {
  if (std::optional<RenderedStep> r = RenderUpdateSchemaFlavour(ctx)) return r;
  return RenderInvalidSchemaTable(ctx);
}

std::optional<RenderedStep> RenderUpgrade(const Ctx& ctx) {
  const int32_t fv = ctx.md().format_version;
  const std::set<int32_t>& versions = ctx.caps().format_versions;
  std::vector<int32_t> higher;
  for (int32_t v : versions)
    if (v > fv) higher.push_back(v);
  if (!higher.empty() && ctx.Flavour(8) != 7) {
    // Mostly straight to v4, where identifier fields become a primary key.
    const int32_t to =
        versions.count(4) && ctx.step.pick % 3 != 0 ? 4 : higher[ctx.Pick(higher.size())];
    std::vector<RuleId> tags = {RuleId::kIceFormatVersionUp};
    if (to == 4) {
      tags = {RuleId::kUpgPkFromIdentifiers, RuleId::kUpgSkipIneligible,
              RuleId::kIdLastDefaultZero, RuleId::kUpgReadersIgnoreIdentifiers};
    }
    return Make(Upgrade{to}, ctx.options.table, fmt::format("upgrade/v{}-to-v{}", fv, to),
                Intent::kOk, std::nullopt, tags);
  }
  // A downgrade, to a version the implementation declared; or version 5, which no
  // format defines (both must be refused, ice.format-version-up).
  if (fv <= 1) return std::nullopt;
  const int32_t to = ctx.step.pick % 2 == 0 && versions.count(fv - 1) ? fv - 1 : 5;
  return Make(Upgrade{to}, ctx.options.table,
              to < fv ? "upgrade/downgrade" : "upgrade/unknown-version", Intent::kReject,
              RuleId::kIceFormatVersionUp);
}

// --- functions, validate, readers
// --------------------------------------------------------

std::optional<RenderedStep> RenderDefineFunction(const Ctx& ctx) {
  const std::string name =
      fmt::format("{}f{}", ctx.options.function_prefix, ctx.step.pick % 3);
  const bool exists = ctx.state.functions.count(name) > 0;
  const uint32_t flavour = ctx.Flavour(5);
  const bool deterministic = flavour != 4;
  int64_t threshold = static_cast<int64_t>(ctx.step.seed % 4);
  std::string label = exists ? "define-function/redefine" : "define-function/define";
  // One redefinition in three raises the threshold above every generated value, so that
  // rows a UDF check was validated on now break it: a later commit without adds that
  // keeps the parent's status for the check is then caught (expr.udf-status/no-carry).
  if (exists && deterministic && ctx.step.pick % 3 == 0) {
    threshold = int64_t{1} << 40;
    label += "-stricter";
  }
  if (!deterministic) label += "-nondeterministic";
  return Make(DefineFunction{UdfGreaterThan(name, threshold, deterministic)}, "", label,
              Intent::kOk, std::nullopt,
              {RuleId::kExprUdfStatus, RuleId::kExprDeterministic});
}

std::optional<RenderedStep> RenderValidate(const Ctx& ctx) {
  const auto& cs = ctx.constraints();
  if (cs.empty() || ctx.md().format_version < 4) return std::nullopt;
  Validate v;
  std::string label = "validate/all";
  Intent intent = Intent::kAny;
  std::optional<RuleId> aimed;
  switch (ctx.Flavour(5)) {
    case 0:
    case 1:
    case 2:
    default:
      for (const Constraint& c : cs)
        if (c.name) v.names.push_back(*c.name);
      break;
    case 3: {
      const Constraint& c = cs[ctx.Pick(cs.size())];
      if (c.name) v.names.push_back(*c.name);
      label = "validate/one";
      break;
    }
    case 4:
      v.names.push_back("no_such_constraint");
      label = "validate/unknown-name";
      intent = Intent::kReject;
      aimed = RuleId::kProtoRequest;
      break;
  }
  return Make(std::move(v), ctx.options.table, label, intent, aimed,
              {RuleId::kStValidated, RuleId::kStInvalid, RuleId::kExprUdfStatus});
}

std::optional<RenderedStep> RenderScan(const Ctx& ctx) {
  Scan s;
  std::string label = "scan/current";
  Intent intent = Intent::kOk;
  std::optional<RuleId> aimed;
  const auto& snaps = ctx.md().snapshots;
  const uint32_t flavour = ctx.Flavour(4);
  if (flavour == 1 && snaps.size() > 1) {
    s.snapshot_id = snaps[ctx.Pick(snaps.size())].snapshot_id;
    label = "scan/older-snapshot";
  } else if (flavour == 2 && ctx.step.pick % 2 == 0) {
    // A table the implementation does not have (proto.request/unknown-table).
    RenderedStep r = Make(s, fmt::format("{}_unknown", ctx.options.table),
                          "scan/unknown-table", Intent::kReject, RuleId::kProtoRequest);
    r.clauses = {Clause(RuleId::kProtoRequest, "unknown-table")};
    return r;
  } else if (flavour == 3) {
    SnapshotId unknown = 987'654'321;
    while (ctx.md().FindSnapshot(unknown) != nullptr) ++unknown;
    s.snapshot_id = unknown;
    label = "scan/unknown-snapshot";
    intent = Intent::kReject;
    aimed = RuleId::kProtoRequest;
  }
  return Make(s, ctx.options.table, label, intent, aimed, {RuleId::kSemLiveRows});
}

/// A reader request on metadata the model wrote (reader_inputs.h): what v4 writers
/// write, v1-v3 metadata carrying v4-only keys, and broken metadata.
std::optional<RenderedStep> RenderReaderFromModel(const Ctx& ctx, ReaderSource source,
                                                  bool parse_metadata) {
  std::optional<ReaderInput> in = MakeReaderInput(source, ctx.step, ctx.caps(),
                                                  ctx.options.switches, parse_metadata);
  if (!in) return std::nullopt;
  if (parse_metadata)
    return Make(ParseMetadata{std::move(in->metadata)}, "", "parse-metadata/" + in->label,
                in->intent, in->aimed_at, in->tags);
  ReadStatuses r;
  r.metadata = std::move(in->metadata);
  r.snapshot_id = in->snapshot_id;
  return Make(std::move(r), "", "read-statuses/" + in->label, Intent::kAny, std::nullopt,
              in->tags);
}

/// Reader requests on crafted metadata (id.readers-tolerate-missing, st.reader-lookup,
/// upg.readers-ignore-identifiers): the table's current metadata, changed; or, most of
/// the time, metadata the model wrote (RenderReaderFromModel).
std::optional<RenderedStep> RenderReadStatuses(const Ctx& ctx) {
  const ReaderSource source =
      ChooseReaderSource(ctx.step, ctx.caps(), ctx.table != nullptr, false);
  if (source != ReaderSource::kOwn) return RenderReaderFromModel(ctx, source, false);
  TableMetadata md = ctx.md();
  // v1-v3 metadata (no constraints, no statuses) only for an implementation without v4.
  if (md.format_version < 4 && ctx.caps().format_versions.count(4)) return std::nullopt;
  ReadStatuses r;
  std::string label = "read-statuses/as-written";
  std::vector<RuleId> tags = {RuleId::kStReaderLookup};
  Snapshot* current = nullptr;
  for (Snapshot& s : md.snapshots)
    if (md.current_snapshot_id && s.snapshot_id == *md.current_snapshot_id) current = &s;
  switch (ctx.Flavour(6)) {
    case 0:
    default:
      break;
    case 1:  // a listed constraint missing from `constraints`
      if (md.constraints && !md.constraints->empty()) {
        md.constraints->erase(md.constraints->begin() + ctx.Pick(md.constraints->size()));
        label = "read-statuses/missing-constraint";
        tags = {RuleId::kIdReadersTolerateMissing};
      }
      break;
    case 2:  // empty lists omitted, and one constraint unlisted (reads unvalidated)
      if (current && current->constraint_statuses) {
        ConstraintStatuses& st = *current->constraint_statuses;
        for (ConstraintStatus s : kAllStatuses)
          if (st.List(s) && st.List(s)->empty()) st.List(s).reset();
        if (md.constraints && !md.constraints->empty()) {
          const ConstraintId id =
              (*md.constraints)[ctx.Pick(md.constraints->size())].id.value_or(0);
          for (ConstraintStatus s : kAllStatuses)
            if (st.List(s)) {
              auto& l = *st.List(s);
              l.erase(std::remove(l.begin(), l.end(), id), l.end());
            }
        }
        label = "read-statuses/unlisted";
        tags = {RuleId::kStReaderLookup};
      }
      break;
    case 3:  // an older snapshot
      if (md.snapshots.size() > 1) {
        r.snapshot_id = md.snapshots[ctx.Pick(md.snapshots.size())].snapshot_id;
        label = "read-statuses/older-snapshot";
      }
      break;
    case 4:  // identifier fields in a v4 schema (readers ignore them)
      for (Schema& s : md.schemas)
        if (s.schema_id.value_or(0) == md.current_schema_id.value_or(0))
          s.identifier_field_ids = std::vector<FieldId>{1};
      label = "read-statuses/identifiers-in-v4";
      tags = {RuleId::kUpgReadersIgnoreIdentifiers};
      break;
    case 5:  // a snapshot listing an ID above last-constraint-id
      if (current) {
        if (!current->constraint_statuses)
          current->constraint_statuses = ConstraintStatuses{};
        auto& l = current->constraint_statuses->unvalidated;
        if (!l) l = std::vector<ConstraintId>{};
        l->push_back(md.last_constraint_id.value_or(0) + 50);
        label = "read-statuses/id-above-last";
        tags = {RuleId::kIdReadersTolerateMissing};
      }
      break;
  }
  r.metadata = std::move(md);
  return Make(std::move(r), "", label, Intent::kAny, std::nullopt, tags);
}

std::optional<RenderedStep> RenderParseMetadata(const Ctx& ctx) {
  const ReaderSource source =
      ChooseReaderSource(ctx.step, ctx.caps(), ctx.table != nullptr, true);
  if (source != ReaderSource::kOwn) return RenderReaderFromModel(ctx, source, true);
  TableMetadata md = ctx.md();
  std::string label = "parse-metadata/as-written";
  Intent intent = Intent::kAny;
  std::optional<RuleId> aimed;
  std::vector<RuleId> tags = {RuleId::kDefRequiredFields};
  switch (ctx.Flavour(4)) {
    case 0:
    case 1:
    default:
      break;
    case 2:
      if (md.format_version == 4 && md.constraints && !md.constraints->empty()) {
        // The same constraint listed twice: two entries with one ID (def.id-unique).
        // (Not a renamed copy: the model's parse-metadata judging matches constraints by
        // ID, so two different constraints sharing an ID cannot be judged yet.)
        md.constraints->push_back(md.constraints->front());
        label = "parse-metadata/duplicate-id";  // a reader may reject or accept it
        tags = {RuleId::kDefIdUnique};
      }
      break;
    case 3:
      md.format_version = 5;
      label = "parse-metadata/unknown-version";
      intent = Intent::kReject;
      aimed = RuleId::kIceFormatVersionKnown;
      tags = {};
      break;
  }
  return Make(ParseMetadata{std::move(md)}, "", label, intent, aimed, tags);
}

// --- create
// ------------------------------------------------------------------------------

std::optional<RenderedStep> RenderCreate(const Plan& plan, const RenderOptions& options) {
  std::optional<Schema> schema = PlanSchema(plan.table);
  if (!schema) return std::nullopt;
  CreateTable c;
  c.format_version = plan.table.format_version;
  c.schema = std::move(*schema);
  const bool ids = c.schema.identifier_field_ids.has_value();
  const Intent intent = c.format_version == 4 && ids ? Intent::kAny : Intent::kOk;
  return Make(
      std::move(c), options.table,
      fmt::format("create-table/v{}{}", plan.table.format_version,
                  ids ? "-identifiers" : ""),
      intent, std::nullopt,
      ids ? std::vector<RuleId>{RuleId::kUpgNoIdentifiersInV4} : std::vector<RuleId>{});
}

/// The name of the first function a check expression applies, or "".
std::string FirstAppliedFunction(const Expr& e) {
  if (e.op == ExprOp::kApply && e.function.size() == 1) return e.function.front();
  for (const Expr& child : e.children)
    if (std::string name = FirstAppliedFunction(child); !name.empty()) return name;
  return "";
}

/// expr.udf-status/no-carry is caught only by a history that, in order, has a check
/// calling a UDF recorded `validated`, a stricter redefinition of that function (so rows
/// the check was validated on now break it) and then a commit that adds no rows (a
/// writer that keeps the parent's status records a `validated` that no longer holds).
/// Each link is rare on its own (a UDF check holds on every live row only when each
/// value is above the function's threshold), so while the table has a check calling one
/// of the history's functions the renderer repairs the next link in place of some steps
/// (define-function: three in four; a row commit, validate, scan, load-table or
/// update-constraint: one in four for link 1, one in two for link 2, three in four for
/// links 3 and 4):
///
/// 1. a live row breaks the check and it is not listed `validated`: the function is
///    redefined to accept every value (`define-function/redefine-lenient`);
/// 2. every live row holds it and it is not listed `validated`: a `validate` of every
///    constraint (`validate/udf-check`), which records it `validated`;
/// 3. it is listed `validated` and every live row holds it: the function is redefined
///    above every generated value (`define-function/redefine-stricter`), when some live
///    row would then break it;
/// 4. it is listed `validated` and a live row breaks it: a delete of one row that leaves
///    a breaking row live (`delete/after-stricter-udf`).
std::optional<RenderedStep> RenderUdfCarryChain(const Ctx& ctx) {
  const StepKind kind = ctx.step.kind;
  // The steps a link may stand in for: row commits, validate, the reads of the table and
  // constraint updates (never an add-constraint, an invalid one, a schema change or an
  // append that collides with a live key, whose clauses are rare enough).
  const bool adds = kind == StepKind::kAppend || kind == StepKind::kOverwrite ||
                    kind == StepKind::kModify || kind == StepKind::kValidate ||
                    kind == StepKind::kReplace || kind == StepKind::kDelete ||
                    kind == StepKind::kScan || kind == StepKind::kLoadTable ||
                    kind == StepKind::kUpdateConstraint;
  if (!adds && kind != StepKind::kDefineFunction) return std::nullopt;
  if (kind == StepKind::kAppend && ctx.Flavour(7) == 1) return std::nullopt;  // collide-live
  if (!ctx.caps().udf || ctx.md().format_version < 4 || ctx.schema() == nullptr ||
      ctx.table->rows.empty())
    return std::nullopt;
  const Snapshot* snapshot = ctx.md().CurrentSnapshot();
  const Schema& schema = *ctx.schema();
  // Which link this step may stand in for (the pick decides, so that most steps of each
  // kind stay what the plan says).
  const bool define = kind == StepKind::kDefineFunction && ctx.step.pick % 4 != 0;
  const bool lenient_now = define || (adds && ctx.step.pick % 4 == 1);
  const bool validate_now = (kind == StepKind::kValidate && ctx.step.pick % 4 != 0) ||
                            (adds && ctx.step.pick % 4 >= 2);
  const bool stricter_now = define || (adds && ctx.step.pick % 4 != 0);
  const bool delete_now = adds && ctx.step.pick % 4 != 0;
  for (const Constraint& c : ctx.constraints()) {
    if (c.type != ConstraintType::kCheck || !c.expression || !c.id ||
        !CallsUserDefinedFunction(*c.expression))
      continue;
    const std::string function = FirstAppliedFunction(*c.expression);
    if (function.rfind(ctx.options.function_prefix, 0) != 0 ||
        !ctx.state.functions.count(function))
      continue;
    bool validated = false;
    if (snapshot != nullptr && snapshot->constraint_statuses)
      for (ConstraintStatus s : {ConstraintStatus::kValidated, ConstraintStatus::kValid}) {
        const auto& list = snapshot->constraint_statuses->List(s);
        validated = validated ||
                    (list && std::find(list->begin(), list->end(), *c.id) != list->end());
      }
    const std::vector<std::string> violators = Violators(ctx, c);
    const auto redefine = [&](int64_t threshold, const char* label) {
      return Make(DefineFunction{UdfGreaterThan(function, threshold, true)}, "", label,
                  Intent::kOk, std::nullopt,
                  {RuleId::kExprUdfStatus, RuleId::kExprDeterministic});
    };
    if (!validated && !violators.empty()) {  // 1
      if (lenient_now)
        return redefine(-(int64_t{1} << 40), "define-function/redefine-lenient");
      continue;
    }
    if (!validated) {  // 2
      if (!validate_now) continue;
      Validate v;
      for (const Constraint& each : ctx.constraints())
        if (each.name) v.names.push_back(*each.name);
      return Make(std::move(v), ctx.options.table, "validate/udf-check", Intent::kAny,
                  std::nullopt,
                  {RuleId::kStValidated, RuleId::kExprUdfStatus});
    }
    if (!violators.empty()) {  // 4
      if (!delete_now) continue;
      std::vector<std::string> others;
      for (const std::string& k : SortedKeys(ctx.table->rows))
        if (k != violators.front()) others.push_back(k);
      if (others.empty()) continue;
      Commit commit = MakeCommit(CommitOperation::kDelete);
      commit.remove.push_back(others[ctx.Pick(others.size())]);
      return Make(std::move(commit), ctx.options.table, "delete/after-stricter-udf",
                  Intent::kOk, std::nullopt,
                  {RuleId::kExprUdfStatus, RuleId::kStNoAddCarry});
    }
    if (!stricter_now) continue;  // 3
    FunctionCatalog functions = ctx.state.functions;
    functions[function] = UdfGreaterThan(function, int64_t{1} << 40, true);
    bool would_break = false;
    for (const auto& [key, row] : ctx.table->rows)
      would_break = would_break || BreaksCheck(c, row, schema, functions);
    if (would_break) return redefine(int64_t{1} << 40, "define-function/redefine-stricter");
  }
  return std::nullopt;
}

/// sch.pk-stays-required/optional-parent is caught only after a primary key on a field
/// inside a required struct (RenderNestedKeyFirst), by a step that makes the struct
/// optional; update-schema steps are few, so while such a key exists one append (not a
/// collide-live one) or overwrite in four makes its struct optional instead
/// (`update-schema/pk-field-optional`, which must be refused).
std::optional<RenderedStep> RenderPkParentOptional(const Ctx& ctx) {
  if ((ctx.step.kind != StepKind::kAppend && ctx.step.kind != StepKind::kOverwrite) ||
      ctx.step.pick % 4 != 2 || !ctx.caps().schema_evolution ||
      (ctx.step.kind == StepKind::kAppend && ctx.Flavour(7) == 1) ||  // collide-live
      ctx.md().format_version < 4 || ctx.schema() == nullptr)
    return std::nullopt;
  const Schema& schema = *ctx.schema();
  const std::vector<FieldId> identifiers =
      schema.identifier_field_ids.value_or(std::vector<FieldId>{});
  for (const Constraint& c : ctx.constraints()) {
    if (c.type != ConstraintType::kPrimaryKey || !c.field_ids) continue;
    for (FieldId id : *c.field_ids) {
      const FieldId top = TopLevelOf(schema, id);
      std::optional<FieldLocation> outer = FindField(schema, top);
      if (top == id || !outer || !outer->field.required) continue;
      if (std::any_of(identifiers.begin(), identifiers.end(),
                      [&](FieldId i) { return TopLevelOf(schema, i) == top; }))
        continue;
      UpdateSchema u;
      u.changes.push_back(MakeOptional{top});
      RenderedStep r = Make(std::move(u), ctx.options.table, "update-schema/pk-field-optional",
                            Intent::kReject, RuleId::kSchPkStaysRequired);
      r.clauses = {Clause(RuleId::kSchPkStaysRequired, "optional-parent")};
      return r;
    }
  }
  return std::nullopt;
}

std::optional<RenderedStep> RenderPlain(const Ctx& ctx) {
  if (std::optional<RenderedStep> r = RenderUdfCarryChain(ctx)) return r;
  if (std::optional<RenderedStep> r = RenderPkParentOptional(ctx)) return r;
  switch (ctx.step.kind) {
    case StepKind::kAppend:
      return RenderAppend(ctx, std::nullopt);
    case StepKind::kDelete:
      return RenderDelete(ctx, std::nullopt);
    case StepKind::kOverwrite:
      return RenderOverwrite(ctx, std::nullopt, false);
    case StepKind::kModify:
      if (!ctx.caps().modify_rows) return std::nullopt;
      return RenderOverwrite(ctx, std::nullopt, true);
    case StepKind::kReplace:
      return RenderReplace(ctx);
    case StepKind::kAddConstraint:
      return RenderAddConstraint(ctx);
    case StepKind::kAddInvalidConstraint:
      return RenderAddInvalidConstraint(ctx);
    case StepKind::kUpdateConstraint:
      return RenderUpdateConstraint(ctx);
    case StepKind::kRemoveConstraint:
      return RenderRemoveConstraint(ctx);
    case StepKind::kUpdateSchema:
      if (!ctx.caps().schema_evolution) return std::nullopt;
      return RenderUpdateSchema(ctx);
    case StepKind::kUpgrade:
      if (!ctx.caps().upgrade) return std::nullopt;
      return RenderUpgrade(ctx);
    case StepKind::kTransaction:
      return std::nullopt;  // rendered through its slots
    case StepKind::kDefineFunction:
      if (!ctx.caps().udf) return std::nullopt;
      return RenderDefineFunction(ctx);
    case StepKind::kValidate:
      if (!ctx.caps().validate) return std::nullopt;
      return RenderValidate(ctx);
    case StepKind::kScan:
      return RenderScan(ctx);
    case StepKind::kLoadTable:
      return Make(LoadTable{}, ctx.options.table, "load-table", Intent::kOk);
    case StepKind::kReadStatuses:
      if (!ctx.caps().reader) return std::nullopt;
      return RenderReadStatuses(ctx);
    case StepKind::kParseMetadata:
      if (!ctx.caps().parse_metadata) return std::nullopt;
      return RenderParseMetadata(ctx);
  }
  return std::nullopt;
}

/// The staged commit of a transaction, rendered against the pinned base.
std::optional<RenderedStep> RenderStage(const Ctx& ctx, const std::string& txn) {
  auto it = ctx.table->transactions.find(txn);
  if (it == ctx.table->transactions.end() || it->second.staged) return std::nullopt;
  const TableState base = StateAtBase(*ctx.table, it->second.base, ctx.state.functions);
  Ctx at_base{ctx.state, &base, ctx.options, ctx.counters, ctx.step};
  std::optional<RenderedStep> r;
  switch (ctx.Flavour(6)) {
    case 0:
    case 1:
    case 2:
    default:
      r = RenderAppend(at_base, txn);
      break;
    case 3:
    case 4:
      r = RenderOverwrite(at_base, txn, false);
      break;
    case 5:
      r = RenderDelete(at_base, txn);
      break;
  }
  if (!r) r = RenderAppend(at_base, txn);
  if (!r) return std::nullopt;
  ctx.counters.staged_rows = std::get<Commit>(r->request.op).add;
  r->intent = Intent::kAny;
  r->aimed_at.reset();
  return r;
}

/// A concurrent step inside a transaction: plain, except that an append may take the key
/// of a row the staged commit adds (enf.retry-keys-new-parent).
std::optional<RenderedStep> RenderConcurrent(const Ctx& ctx, const Slot& slot) {
  std::optional<RenderedStep> r = RenderPlain(ctx);
  if (!r) return r;
  // A concurrent update-constraint half the time enforces a constraint that is not
  // enforced yet (a check first), which the staged rows may break
  // (enf.retry-new-constraints/changed-to-enforced).
  if (std::holds_alternative<UpdateConstraint>(r->request.op) && ctx.step.pick % 2 == 0) {
    const Constraint* target = nullptr;
    for (const Constraint& c : ctx.constraints())
      if (c.name && !c.enforced.value_or(false) &&
          (target == nullptr || c.type == ConstraintType::kCheck))
        target = &c;
    if (target != nullptr) {
      UpdateConstraint u;
      u.name = *target->name;
      u.set.enforced = true;
      r = Make(std::move(u), ctx.options.table, "update-constraint/enforce", Intent::kAny,
               std::nullopt, {RuleId::kEnfEnforced, RuleId::kEnfRetryNewConstraints});
    }
  }
  r->label = "concurrent/" + r->label;
  Commit* commit = std::get_if<Commit>(&r->request.op);
  if (commit && !commit->add.empty() && !ctx.counters.staged_rows.empty() &&
      ctx.step.pick % 4 != 0) {
    const Schema& schema = *ctx.schema();
    NormalizedRow staged =
        NormalizeRow(ctx.counters.staged_rows[0].values, schema.fields);
    if (staged.values)
      for (const Constraint& c : ctx.constraints())
        if (IsKey(c)) CopyKey(c, schema, *staged.values, commit->add[0].values);
    r->label += "-staged-key";
    r->tags.push_back(RuleId::kEnfRetryKeysNewParent);
  }
  (void)slot;
  // A concurrent change can make the staged commit's retry fail; the concurrent step
  // itself is judged as usual.
  if (r->intent == Intent::kOk && commit) r->intent = Intent::kAny;
  return r;
}

}  // namespace

HistoryRenderer::HistoryRenderer(Plan plan, RenderOptions options)
    : plan_(std::move(plan)), options_(std::move(options)), setup_options_(options_) {
  setup_options_.capabilities = SetupCapabilities();
  slots_.push_back({Slot::Role::kCreate, -1, -1, {}});
  for (int i = 0; i < static_cast<int>(plan_.steps.size()); ++i) {
    const PlanStep& s = plan_.steps[i];
    if (s.kind != StepKind::kTransaction) {
      slots_.push_back({Slot::Role::kPlain, i, -1, {}});
      continue;
    }
    if (!options_.capabilities.concurrent_commits && options_.capabilities.writer) continue;
    const std::string txn = fmt::format("w{}", i + 1);
    slots_.push_back({Slot::Role::kBegin, i, -1, txn});
    auto inner = [&] {
      for (int j = 0; j < static_cast<int>(s.concurrent.size()); ++j)
        if (s.concurrent[j].kind != StepKind::kTransaction)
          slots_.push_back({Slot::Role::kPlain, i, j, txn});
    };
    if (s.concurrent_before_staging) inner();
    slots_.push_back({Slot::Role::kStage, i, -1, txn});
    if (!s.concurrent_before_staging) inner();
    slots_.push_back({Slot::Role::kFinish, i, -1, txn});
  }
  if (options_.final_scan) {
    slots_.push_back({Slot::Role::kFinalScan, -1, -1, {}});
    slots_.push_back({Slot::Role::kFinalLoad, -1, -1, {}});
  }
}

std::optional<RenderedStep> HistoryRenderer::Next(const CatalogState& state) {
  std::lock_guard<std::recursive_mutex> lock(RapidCheckMutex());
  static const PlanStep kNoStep{};
  while (cursor_ < slots_.size()) {
    const Slot slot = slots_[cursor_++];
    const TableState* table = state.FindTable(options_.table);
    std::optional<RenderedStep> r;
    // A reader profile is sent only its reader steps; everything else is setup that the
    // model performs alone, with every capability (GenReaderPlan).
    bool setup = false;
    if (!options_.capabilities.writer) {
      setup = true;
      if (slot.role == Slot::Role::kPlain && slot.step >= 0) {
        const PlanStep& s = slot.inner >= 0 ? plan_.steps[slot.step].concurrent[slot.inner]
                                            : plan_.steps[slot.step];
        setup = !IsReaderKind(s.kind);
      }
    }
    const RenderOptions& options = setup ? setup_options_ : options_;
    if (slot.role == Slot::Role::kCreate) {
      r = RenderCreate(plan_, options);
    } else {
      if (table == nullptr || table->metadata.CurrentSchema() == nullptr) {
        cursor_ = slots_.size();  // the table does not exist: nothing more to do
        return std::nullopt;
      }
      const PlanStep& step =
          slot.step < 0 ? kNoStep
                        : (slot.inner >= 0 ? plan_.steps[slot.step].concurrent[slot.inner]
                                           : plan_.steps[slot.step]);
      Ctx ctx{state, table, options, counters_, step, plan_.table.plain_values};
      switch (slot.role) {
        case Slot::Role::kPlain:
          r = slot.inner >= 0 ? RenderConcurrent(ctx, slot) : RenderPlain(ctx);
          break;
        case Slot::Role::kBegin:
          if (table->transactions.count(slot.txn)) break;
          counters_.staged_rows.clear();
          r = Make(Begin{slot.txn}, options_.table, "transaction/begin", Intent::kOk);
          break;
        case Slot::Role::kStage:
          r = RenderStage(ctx, slot.txn);
          break;
        case Slot::Role::kFinish: {
          auto it = table->transactions.find(slot.txn);
          if (it == table->transactions.end() || !it->second.staged) break;
          r = Make(Finish{slot.txn}, options_.table, "transaction/finish", Intent::kAny,
                   std::nullopt,
                   {RuleId::kEnfRetryEnforced, RuleId::kEnfRetryCheck,
                    RuleId::kEnfRetryKeysNewParent, RuleId::kEnfRetryNewConstraints,
                    RuleId::kEnfRetryRecomputeStatuses});
          counters_.staged_rows.clear();
          break;
        }
        case Slot::Role::kFinalScan:
          r = Make(Scan{}, options_.table, "final/scan", Intent::kOk, std::nullopt,
                   {RuleId::kSemLiveRows});
          break;
        case Slot::Role::kFinalLoad:
          r = Make(LoadTable{}, options_.table, "final/load-table", Intent::kOk);
          break;
        case Slot::Role::kCreate:
          break;
      }
    }
    if (!r) continue;
    if (r->clauses.empty()) r->clauses = ClausesTaggedBy(r->label);
    r->setup = setup;
    r->plan_index = slot.step;
    r->request.now_ms = options_.clock_start_ms + 1000 * counters_.requests++;
    return r;
  }
  return std::nullopt;
}

}  // namespace ictk
