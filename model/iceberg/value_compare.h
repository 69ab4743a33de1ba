/// \file
/// Iceberg equality (for unique/primary-key keys) and ordering (for check predicates) of
/// values of one type. NaN and -0.0 follow the expressions spec: comparisons are null-safe
/// and two-valued; NaN equals NaN; -0.0 equals 0.0 for key equality.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

#include "model/iceberg/types.h"
#include "model/iceberg/value.h"

namespace ictk {

/// Key equality of two non-null values of `type` (after promotion they share one type).
/// Decimals compare by value after aligning scale; strings/uuid/fixed/binary byte-wise.
bool KeyValuesEqual(const Value& a, const Value& b, const Type& type);

/// A hash consistent with KeyValuesEqual (equal values hash equal).
size_t KeyValueHash(const Value& v, const Type& type);

/// Appends to `out` a canonical encoding of `v` (null allowed) under `type`, a primitive
/// type, consistent with KeyValuesEqual: two values encode to equal bytes exactly when
/// KeyValuesEqual says they are equal (and a null equals only a null). The encoding
/// delimits itself, so the encodings of a tuple's values can be concatenated. One tag byte
/// comes first: null; a value whose kind fits `type`, followed by its value in the form
/// of the type's comparison (boolean: one byte; integer-like: int64; float and double: the
/// double's bits, every zero as 0.0 and every NaN as one NaN; decimal: the value with the
/// trailing zeros of its unscaled integer removed, zero as {0, 0}; strings and byte-like
/// types: length and bytes); or a value whose kind does not fit, followed by its whole
/// structure (kind, scalar alternative and content, field IDs, children). Integers and
/// lengths are LEB128 varints (signed ones zigzag-encoded). The one departure from
/// KeyValuesEqual: a NaN inside a value whose kind does not fit is encoded as every other
/// NaN, so such a value equals itself (structural `==` says NaN != NaN).
void AppendKeyEncoding(const Value& v, const Type& type, std::string& out);

/// A hash of an AppendKeyEncoding result (or a concatenation of them). An encoding that is
/// one integer-like value hashes to that integer, as std::hash of an integer does, so that
/// consecutive integer keys land in neighbouring buckets of a hash table; any other by
/// std::hash of its bytes.
size_t KeyEncodingHash(std::string_view encoded);

/// Three-way order for predicates: <0, 0, >0; nullopt when the values are not ordered
/// (either is NaN or null). Booleans false < true; strings, uuid, fixed and binary unsigned
/// byte-wise; decimals by value; floats by IEEE 754 for non-NaN values.
std::optional<int> CompareValues(const Value& a, const Value& b, const Type& type);

}  // namespace ictk
