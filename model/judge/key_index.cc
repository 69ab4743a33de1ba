/// \file
/// The count index of one key constraint (key_index.h).
#include "model/judge/key_index.h"

#include <cassert>

#include "model/iceberg/schema.h"
#include "model/iceberg/value_compare.h"
#include "model/iceberg/kinds.h"

namespace ictk {

size_t KeyTupleHash::operator()(const KeyTuple& tuple) const {
  size_t h = 0x9e3779b97f4a7c15ull;
  for (size_t i = 0; i < tuple.size(); ++i) {
    const size_t v = KeyValueHash(tuple[i], (*fields)[i].type);
    h ^= v + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
  }
  return h;
}

bool KeyTupleEqual::operator()(const KeyTuple& a, const KeyTuple& b) const {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i)
    if (!KeyValuesEqual(a[i], b[i], (*fields)[i].type)) return false;
  return true;
}

KeyIndex::KeyIndex() : KeyIndex({}, false) {}

KeyIndex::KeyIndex(std::vector<KeyField> fields, bool primary_key)
    : fields_(std::make_shared<const std::vector<KeyField>>(std::move(fields))),
      primary_key_(primary_key),
      counts_(MakeKeyTupleMap<uint32_t>(fields_)) {}

std::optional<KeyIndex> KeyIndex::ForConstraint(const Constraint& constraint,
                                                const Schema& schema) {
  if (!constraint.type || *constraint.type == ConstraintType::kCheck) return std::nullopt;
  std::optional<std::vector<KeyField>> fields = KeyFieldsOf(constraint, schema);
  if (!fields) return std::nullopt;
  return KeyIndex(std::move(*fields), *constraint.type == ConstraintType::kPrimaryKey);
}

std::optional<KeyTuple> KeyIndex::Extract(const Value& row) const {
  KeyTuple tuple;
  tuple.reserve(fields_->size());
  for (const KeyField& f : *fields_) {
    const Value* v = ValueAtPath(row, f.path);
    if (v == nullptr) return std::nullopt;
    tuple.push_back(*v);
  }
  return tuple;
}

void KeyIndex::Insert(const Value& row) {
  std::optional<KeyTuple> tuple = Extract(row);
  if (!tuple) {
    ++null_rows_;
    return;
  }
  ++keyed_rows_;
  uint32_t& count = counts_[std::move(*tuple)];
  ++count;
  if (count == 2) ++duplicate_keys_;
}

void KeyIndex::Erase(const Value& row) {
  std::optional<KeyTuple> tuple = Extract(row);
  if (!tuple) {
    assert(null_rows_ > 0 && "erasing a null-keyed row that was never inserted");
    --null_rows_;
    return;
  }
  auto it = counts_.find(*tuple);
  assert(it != counts_.end() && "erasing a row that was never inserted");
  if (it == counts_.end()) return;
  --keyed_rows_;
  if (it->second == 2) --duplicate_keys_;
  if (--it->second == 0) counts_.erase(it);
}

size_t KeyIndex::CountOf(const KeyTuple& tuple) const {
  auto it = counts_.find(tuple);
  return it == counts_.end() ? 0 : it->second;
}

bool KeyIndex::Equivalent(const KeyIndex& other) const {
  if (*fields_ != *other.fields_ || primary_key_ != other.primary_key_ ||
      null_rows_ != other.null_rows_ || duplicate_keys_ != other.duplicate_keys_ ||
      keyed_rows_ != other.keyed_rows_ || counts_.size() != other.counts_.size()) {
    return false;
  }
  for (const auto& [tuple, count] : counts_)
    if (other.CountOf(tuple) != count) return false;
  return true;
}

}  // namespace ictk
