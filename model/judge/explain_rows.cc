/// \file
/// The evaluation of a failure's constraint on the rows a commit writes (explain_rows.h).
#include "model/judge/explain_rows.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "model/iceberg/evaluate.h"
#include "model/iceberg/schema.h"
#include "model/iceberg/value_compare.h"
#include "model/judge/key_index.h"
#include "model/rules/semantics.h"

namespace ictk {
namespace {

constexpr size_t kMaxRows = 3;

/// The commit `request` applies: its own, or a finished transaction's staged one.
const Commit* CommitOf(const TableState& table, const Request& request) {
  if (const auto* c = std::get_if<Commit>(&request.op)) return c;
  if (const auto* f = std::get_if<Finish>(&request.op)) {
    const auto it = table.transactions.find(f->txn);
    if (it != table.transactions.end() && it->second.staged) return &*it->second.staged;
  }
  return nullptr;
}

std::vector<const Row*> WrittenRows(const Commit& commit) {
  std::vector<const Row*> out;
  for (const std::vector<Row>* rows : {&commit.add, &commit.modify})
    for (const Row& r : *rows) out.push_back(&r);
  return out;
}

/// The value of field `id` in `row`; nullptr when it (or a struct on the way) is null.
const Value* FieldIn(const std::vector<NestedField>& fields, FieldId id, const Value& row) {
  const std::optional<FieldLocation> loc = FindField(fields, id);
  return loc ? ValueAtPath(row, loc->path) : nullptr;
}

bool NullOrNan(const Value* v) {
  return v == nullptr || v->is_null() ||
         (v->kind == ValueKind::kDouble && std::isnan(v->as_double()));
}

/// "b (#2) = null": the value of field `id` in `row`.
std::string FieldValue(const std::vector<NestedField>& fields, FieldId id, const Value& row) {
  const std::optional<FieldLocation> loc = FindField(fields, id);
  const Value* v = FieldIn(fields, id, row);
  return fmt::format("{} (#{}) = {}", loc ? loc->field.name : std::string("?"), id,
                     v == nullptr ? std::string("null") : ToString(*v));
}

std::string ExplainCheckRows(const Constraint& c, const std::vector<NestedField>& fields,
                             const std::vector<const Row*>& rows,
                             const FunctionCatalog& functions) {
  const BindResult bound = BindCheckExpression(*c.expression, fields, functions);
  std::set<FieldId> seen;
  std::vector<FieldId> refs;
  for (FieldId id : bound.referenced_field_ids)
    if (seen.insert(id).second) refs.push_back(id);
  const CompiledCheck compiled(*c.expression, fields, functions);
  // The rows that violate it first, then those with a null or NaN among the referenced
  // values (where a reading of nulls differs), then the others.
  std::vector<std::pair<int, const Row*>> ranked;
  for (const Row* r : rows) {
    const bool unusual = std::any_of(refs.begin(), refs.end(), [&](FieldId id) {
      return NullOrNan(FieldIn(fields, id, r->values));
    });
    const std::optional<bool> holds = RowSatisfies(compiled, r->values);
    ranked.emplace_back(holds != true ? 0 : unusual ? 1 : 2, r);
  }
  std::stable_sort(ranked.begin(), ranked.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  std::vector<std::string> parts;
  for (size_t i = 0; i < ranked.size() && i < kMaxRows; ++i) {
    const Row& r = *ranked[i].second;
    std::vector<std::string> values;
    for (FieldId id : refs) values.push_back(FieldValue(fields, id, r.values));
    parts.push_back(fmt::format("row {}{}{}: {}", r.key, values.empty() ? "" : " with ",
                                fmt::join(values, ", "),
                                compiled.Explain(r.values)));
  }
  if (parts.empty()) return "";
  std::string out = fmt::format("{} on {}", ToString(*c.expression), fmt::join(parts, "; "));
  if (ranked.size() > kMaxRows) out += fmt::format("; {} more rows", ranked.size() - kMaxRows);
  return out;
}

/// "(id (#1) = 5, b (#3) = null)".
std::string KeyText(const std::vector<KeyField>& key, const std::vector<NestedField>& fields,
                    const Value& row) {
  std::vector<std::string> parts;
  for (const KeyField& f : key) parts.push_back(FieldValue(fields, f.id, row));
  return fmt::format("({})", fmt::join(parts, ", "));
}

/// The key of a written row as the judge reads it: the key index's extraction (nullopt
/// for a null key field, sem.unique) and its canonical encoding, so two rows are shown
/// as colliding exactly when the judge counts them as one key.
std::string ExplainKeyRows(const KeyIndex& index,
                           const std::vector<NestedField>& fields, const TableState& table,
                           const Commit& commit, const std::vector<const Row*>& rows) {
  const std::vector<KeyField>& key = index.fields();
  const bool primary = index.primary_key();
  const auto encode = [&](const Value& row) -> std::optional<std::string> {
    const std::optional<KeyTuple> tuple = index.Extract(row);
    if (!tuple) return std::nullopt;
    return EncodeKey(*tuple, key);
  };
  std::set<std::string> gone(commit.remove.begin(), commit.remove.end());
  for (const Row& r : commit.modify) gone.insert(r.key);
  std::vector<std::string> distinct;
  std::vector<std::string> not_compared;
  for (size_t i = 0; i < rows.size(); ++i) {
    const Row& r = *rows[i];
    const std::string text = KeyText(key, fields, r.values);
    const std::optional<std::string> enc = encode(r.values);
    if (!enc) {
      if (primary) return fmt::format("row {} has a null in primary key {}", r.key, text);
      not_compared.push_back(fmt::format("row {} {}", r.key, text));
      continue;
    }
    for (size_t j = 0; j < i; ++j)
      if (encode(rows[j]->values) == enc)
        return fmt::format("written rows {} and {} both carry key {}", rows[j]->key, r.key,
                           text);
    for (const auto& [k, v] : table.rows)
      if (!gone.count(k) && encode(v) == enc)
        return fmt::format("written row {} and remaining row {} both carry key {}", r.key,
                           k, text);
    std::string replaces;
    for (const std::string& k : gone)
      if (const auto it = k == r.key ? table.rows.end() : table.rows.find(k);
          it != table.rows.end() && encode(it->second) == enc)
        replaces = fmt::format(", the key of row {}, which the commit removes", k);
    if (distinct.size() < kMaxRows)
      distinct.push_back(fmt::format("row {} {}{}", r.key, text, replaces));
  }
  std::string out = fmt::format(
      "the written keys are distinct among themselves and from the {} remaining rows{}{}",
      std::count_if(table.rows.begin(), table.rows.end(),
                    [&](const auto& r) { return !gone.count(r.first); }),
      distinct.empty() ? "" : ": ", fmt::join(distinct, ", "));
  if (!not_compared.empty())
    out += fmt::format("; not compared, a key field is null (sem.unique): {}",
                       fmt::join(not_compared, ", "));
  return out;
}

}  // namespace

std::string ExplainRows(const CatalogState& state, const Request& request, ConstraintId id) {
  const TableState* table = state.FindTable(request.table);
  if (table == nullptr) return "";
  const Commit* commit = CommitOf(*table, request);
  const Constraint* c = FindConstraintById(table->metadata, id);
  const Schema* schema = table->metadata.CurrentSchema();
  if (commit == nullptr || c == nullptr || schema == nullptr || !c->type) return "";
  const std::vector<const Row*> rows = WrittenRows(*commit);
  if (rows.empty()) return "";
  // "unique c1 (ID 1, not enforced): ..."
  const std::string head = fmt::format("{} {} (ID {}{}): ", ToString(*c->type),
                                       c->name.value_or("?"), id,
                                       c->enforced.value_or(false) ? "" : ", not enforced");
  std::string text;
  if (*c->type == ConstraintType::kCheck) {
    if (c->expression) text = ExplainCheckRows(*c, schema->fields, rows, state.functions);
  } else if (const std::optional<KeyIndex> index = KeyIndex::ForConstraint(*c, *schema)) {
    text = ExplainKeyRows(*index, schema->fields, *table, *commit, rows);
  }
  return text.empty() ? text : head + text;
}

}  // namespace ictk
