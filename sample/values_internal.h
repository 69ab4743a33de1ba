/// \file
/// The sample's own value semantics (none of model/iceberg/value_compare.h): Iceberg equality and
/// hashing of key tuples, the canonical comparable form that check comparisons use,
/// Murmur3 x86_32 for `bucket`, and the value conversions of type promotion, which
/// reading a row written under an older schema applies (projection by field ID).
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "model/iceberg/types.h"
#include "model/iceberg/value.h"

namespace ictk::sample {

/// Microseconds in a day: a date promoted to a timestamp, a timestamp's day.
constexpr int64_t kMicrosPerDay = 86'400'000'000LL;

/// Iceberg equality of two non-null primitive values of one key field: decimals by value,
/// everything else by kind and payload (floats never reach here: they cannot be keys).
bool KeyValueEquals(const Value& a, const Value& b);
/// A hash consistent with KeyValueEquals.
size_t KeyValueHash(const Value& v);

/// A key tuple (one value per key field, in constraint order).
using KeyTuple = std::vector<Value>;
struct KeyTupleHash {
  size_t operator()(const KeyTuple& k) const;
};
struct KeyTupleEq {
  bool operator()(const KeyTuple& a, const KeyTuple& b) const;
};

/// MurmurHash3_x86_32 with seed 0 of `bytes`, as Java's signed int.
int32_t Murmur3(const std::string& bytes);
/// Iceberg's 32-bit hash of a non-null value of `type` (spec Appendix B), or nullopt for
/// a type bucket is not defined on.
std::optional<int32_t> IcebergBucketHash(const Value& v, const Type& type);

/// A value reduced to what comparisons need: nulls and NaN apart, numbers as exact
/// decimals or doubles, temporal values as integers in one unit, text and bytes as bytes.
struct Comparable {
  enum class Kind { kNull, kNaN, kBool, kExact, kDouble, kBytes };
  Kind kind = Kind::kNull;
  Int128 unscaled = 0;  ///< kExact (with `scale`), kBool (0/1)
  int32_t scale = 0;
  double d = 0;       ///< kDouble
  std::string bytes;  ///< kBytes
};

/// How values of one type are made Comparable in a comparison's domain.
enum class Domain {
  kNone,  ///< not comparable (lists, maps, structs, geo, variant)
  kBool,
  kExact,   ///< int, long, decimal (and date/time/timestamps in their unit)
  kDouble,  ///< float, double, or integers compared with them
  kBytes,   ///< string, uuid, fixed, binary
};

/// The Comparable of `v` (of `type`) in `domain`. Temporal values are scaled to
/// nanoseconds so that a date compares with a timestamp at midnight.
Comparable ToComparable(const Value& v, const Type& type, Domain domain);

/// -1, 0 or 1; both sides must be non-null, non-NaN and of one domain.
int CompareComparable(const Comparable& a, const Comparable& b);

/// The value `v` of type `from` read as type `to` after a legal promotion (int -> long,
/// float -> double, decimal widening, date -> timestamp/timestamp_ns, unknown -> any).
Value PromoteValue(const Value& v, const Type& from, const Type& to);

/// `v`, written under struct fields `writer`, read under struct fields `reader`: members
/// matched by field ID, promoted where the type changed, missing ones filled by `missing`
/// (the reader field's initial default, or null).
using DefaultLookup = Value (*)(const NestedField& field);
Value ProjectStruct(const Value& v, const std::vector<NestedField>& writer,
                    const std::vector<NestedField>& reader, DefaultLookup missing);

}  // namespace ictk::sample
