#include "model/rules/semantics.h"

#include "model/iceberg/value_compare.h"
#include "model/iceberg/kinds.h"

namespace ictk {
namespace {

std::optional<bool> KeyHolds(const Constraint& constraint, const Schema& schema,
                             const std::vector<Value>& live_rows) {
  const std::optional<std::vector<KeyField>> fields = KeyFieldsOf(constraint, schema);
  if (!fields) return std::nullopt;
  const bool primary_key = constraint.type == ConstraintType::kPrimaryKey;
  // The compared rows: those whose every key field is non-null.
  std::vector<std::vector<const Value*>> keys;
  for (const Value& row : live_rows) {
    std::vector<const Value*> key;
    for (const KeyField& f : *fields) {
      const Value* v = ValueAtPath(row, f.path);
      if (v == nullptr) break;
      key.push_back(v);
    }
    if (key.size() == fields->size()) {
      keys.push_back(std::move(key));
    } else if (primary_key) {
      return false;  // "must not be null"
    }
  }
  // "must be distinct": no two compared rows carry equal values in every field.
  for (size_t i = 0; i < keys.size(); ++i) {
    for (size_t j = i + 1; j < keys.size(); ++j) {
      bool equal = true;
      for (size_t k = 0; k < fields->size() && equal; ++k)
        equal = KeyValuesEqual(*keys[i][k], *keys[j][k], (*fields)[k].type);
      if (equal) return false;
    }
  }
  return true;
}

}  // namespace

std::optional<std::vector<KeyField>> KeyFieldsOf(const Constraint& constraint,
                                                 const Schema& schema) {
  if (!constraint.field_ids || constraint.field_ids->empty()) return std::nullopt;
  std::vector<KeyField> fields;
  for (FieldId id : *constraint.field_ids) {
    std::optional<FieldLocation> loc = FindField(schema, id);
    if (!loc || !IsPrimitive(loc->field.type.id) || loc->in_list_or_map) return std::nullopt;
    fields.push_back(KeyField{id, loc->path, loc->field.type});
  }
  return fields;
}

std::optional<bool> HoldsOnLiveRows(const Constraint& constraint, const Schema& schema,
                          const std::vector<Value>& live_rows,
                          const FunctionCatalog& functions) {
  if (!constraint.type) return std::nullopt;
  if (*constraint.type != ConstraintType::kCheck)
    return KeyHolds(constraint, schema, live_rows);
  if (!constraint.expression) return true;  // nothing to falsify
  const CompiledCheck predicate(*constraint.expression, schema.fields, functions);
  for (const Value& row : live_rows) {
    // "every row must satisfy": false falsifies it, unknown does not show it.
    if (RowSatisfies(predicate, row) != std::optional<bool>(true)) return false;
  }
  return true;
}

std::optional<bool> RowSatisfies(const CompiledCheck& predicate, const Value& row) {
  return predicate.Evaluate(row);
}

bool CheckHolds(int64_t violating, int64_t unevaluable) {
  return violating <= 0 && unevaluable <= 0;
}

bool UniqueHolds(int64_t duplicate_keys) { return duplicate_keys == 0; }

bool PrimaryKeyHolds(int64_t duplicate_keys, int64_t null_rows) {
  return duplicate_keys == 0 && null_rows == 0;
}

const Value* ValueAtPath(const Value& row, const std::vector<FieldId>& path) {
  const Value* v = &row;
  for (FieldId id : path) {
    if (v->kind != ValueKind::kStruct) return nullptr;
    v = v->FindField(id);
    if (v == nullptr || v->is_null()) return nullptr;
  }
  return v;
}

}  // namespace ictk
