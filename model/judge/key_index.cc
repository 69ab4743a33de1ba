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

std::string EncodeKey(const KeyTuple& tuple, const std::vector<KeyField>& fields) {
  assert(tuple.size() == fields.size() && "a key tuple has one value per key field");
  std::string key;
  for (size_t i = 0; i < tuple.size(); ++i) AppendKeyEncoding(tuple[i], fields[i].type, key);
  return key;
}

KeyIndex::KeyIndex() : KeyIndex({}, false) {}

KeyIndex::KeyIndex(std::vector<KeyField> fields, bool primary_key)
    : fields_(std::make_shared<const std::vector<KeyField>>(std::move(fields))),
      primary_key_(primary_key) {}

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

std::optional<std::string> KeyIndex::EncodedKeyOf(const Value& row) const {
  std::string key;
  for (const KeyField& f : *fields_) {
    const Value* v = ValueAtPath(row, f.path);
    if (v == nullptr) return std::nullopt;
    AppendKeyEncoding(*v, f.type, key);
  }
  return key;
}

void KeyIndex::Insert(const Value& row) {
  std::optional<std::string> key = EncodedKeyOf(row);
  if (!key) {
    ++null_rows_;
    return;
  }
  ++keyed_rows_;
  key->shrink_to_fit();  // the map keeps the string: no spare capacity
  uint32_t& count = counts_[std::move(*key)];
  ++count;
  if (count == 2) ++duplicate_keys_;
}

void KeyIndex::Erase(const Value& row) {
  std::optional<std::string> key = EncodedKeyOf(row);
  if (!key) {
    assert(null_rows_ > 0 && "erasing a null-keyed row that was never inserted");
    --null_rows_;
    return;
  }
  auto it = counts_.find(*key);
  assert(it != counts_.end() && "erasing a row that was never inserted");
  if (it == counts_.end()) return;
  --keyed_rows_;
  if (it->second == 2) --duplicate_keys_;
  if (--it->second == 0) counts_.erase(it);
}

size_t KeyIndex::CountOf(const KeyTuple& tuple) const {
  auto it = counts_.find(EncodeKey(tuple, *fields_));
  return it == counts_.end() ? 0 : it->second;
}

bool KeyIndex::Equivalent(const KeyIndex& other) const {
  return *fields_ == *other.fields_ && primary_key_ == other.primary_key_ &&
         null_rows_ == other.null_rows_ && duplicate_keys_ == other.duplicate_keys_ &&
         keyed_rows_ == other.keyed_rows_ && counts_ == other.counts_;
}

}  // namespace ictk
