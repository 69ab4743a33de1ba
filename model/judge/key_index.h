/// \file
/// A hash index over the live rows for one `unique` or `primary-key` constraint: key
/// tuple (the values of its `field-ids`, compared with KeyValuesEqual under the current
/// field types, held as its canonical encoding EncodeKey) -> how many live rows carry it.
/// A commit checks its added rows against the index in time proportional to the rows it
/// touches (enf.keys-against-remaining), and the index knows whether the constraint holds
/// on all live rows (sem.unique, sem.primary-key) without a scan.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "model/iceberg/constraint.h"
#include "model/iceberg/types.h"
#include "model/iceberg/value.h"
#include "model/iceberg/value_compare.h"
#include "model/rules/semantics.h"

namespace ictk {

/// The values of a key constraint's fields, in `field-ids` order, all non-null.
using KeyTuple = std::vector<Value>;

/// Hash and equality of key tuples under the key fields' types.
struct KeyTupleHash {
  std::shared_ptr<const std::vector<KeyField>> fields;
  size_t operator()(const KeyTuple& tuple) const;
};
struct KeyTupleEqual {
  std::shared_ptr<const std::vector<KeyField>> fields;
  bool operator()(const KeyTuple& a, const KeyTuple& b) const;
};

/// A map keyed by key tuples under one set of key fields.
template <typename V>
using KeyTupleMap = std::unordered_map<KeyTuple, V, KeyTupleHash, KeyTupleEqual>;

template <typename V>
KeyTupleMap<V> MakeKeyTupleMap(std::shared_ptr<const std::vector<KeyField>> fields) {
  return KeyTupleMap<V>(16, KeyTupleHash{fields}, KeyTupleEqual{fields});
}

/// The hash of an encoded key (KeyEncodingHash, value_compare.h): a key that is one
/// integer hashes to that integer, as keys hashed by value did.
struct EncodedKeyHash {
  size_t operator()(const std::string& key) const { return KeyEncodingHash(key); }
};
using EncodedKeyCounts = std::unordered_map<std::string, uint32_t, EncodedKeyHash>;

/// The canonical encoding of `tuple` under `fields` (one value per field): its values'
/// AppendKeyEncoding (value_compare.h) concatenated. Two tuples encode to equal strings
/// exactly when KeyTupleEqual{fields} says they are equal (up to the NaN noted there).
std::string EncodeKey(const KeyTuple& tuple, const std::vector<KeyField>& fields);

/// The count index of one key constraint.
class KeyIndex {
 public:
  KeyIndex();
  KeyIndex(std::vector<KeyField> fields, bool primary_key);

  /// The index for `constraint` (unique or primary-key) under `schema`, empty of rows;
  /// nullopt when a field is missing or not primitive.
  static std::optional<KeyIndex> ForConstraint(const Constraint& constraint,
                                               const Schema& schema);

  /// The key tuple of `row` (a kStruct value keyed by top-level field IDs); nullopt when
  /// any key field is null (or sits in a null struct): "a row in which any field in the
  /// set is null is not compared" (sem.unique); for a primary key such a row is a
  /// violation.
  std::optional<KeyTuple> Extract(const Value& row) const;

  void Insert(const Value& row);
  void Erase(const Value& row);  ///< `row` must have been inserted

  /// How many indexed rows carry `tuple`.
  size_t CountOf(const KeyTuple& tuple) const;
  /// Distinct tuples carried by more than one row.
  size_t duplicate_keys() const { return duplicate_keys_; }
  /// Rows with a null key field (not in the tuple counts).
  size_t null_rows() const { return null_rows_; }
  /// Rows in the tuple counts.
  size_t keyed_rows() const { return keyed_rows_; }
  /// Whether the constraint holds on the indexed rows: sem.unique ("the values of a set
  /// of fields must be distinct across the rows in which every field in the set is
  /// non-null") or sem.primary-key ("must be distinct across all rows and must not be
  /// null").
  bool Holds() const {
    return primary_key_ ? PrimaryKeyHolds(static_cast<int64_t>(duplicate_keys_),
                                          static_cast<int64_t>(null_rows_))
                        : UniqueHolds(static_cast<int64_t>(duplicate_keys_));
  }

  bool primary_key() const { return primary_key_; }
  const std::vector<KeyField>& fields() const { return *fields_; }
  const std::shared_ptr<const std::vector<KeyField>>& shared_fields() const {
    return fields_;
  }

  /// Same fields, kind, counts and null rows.
  bool Equivalent(const KeyIndex& other) const;

 private:
  /// EncodeKey of the key tuple of `row`; nullopt when Extract would give nullopt.
  std::optional<std::string> EncodedKeyOf(const Value& row) const;

  std::shared_ptr<const std::vector<KeyField>> fields_;
  bool primary_key_ = false;
  /// Keyed by the canonical encoding, which takes a fraction of the heap of a KeyTuple.
  EncodedKeyCounts counts_;
  size_t duplicate_keys_ = 0;
  size_t null_rows_ = 0;
  size_t keyed_rows_ = 0;
};

}  // namespace ictk
