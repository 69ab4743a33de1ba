/// \file
/// Iceberg equality (for unique/primary-key keys) and ordering (for check predicates) of
/// values of one type. NaN and -0.0 follow the expressions spec: comparisons are null-safe
/// and two-valued; NaN equals NaN; -0.0 equals 0.0 for key equality.
#pragma once

#include <cstddef>
#include <optional>

#include "model/iceberg/types.h"
#include "model/iceberg/value.h"

namespace ictk {

/// Key equality of two non-null values of `type` (after promotion they share one type).
/// Decimals compare by value after aligning scale; strings/uuid/fixed/binary byte-wise.
bool KeyValuesEqual(const Value& a, const Value& b, const Type& type);

/// A hash consistent with KeyValuesEqual (equal values hash equal).
size_t KeyValueHash(const Value& v, const Type& type);

/// Three-way order for predicates: <0, 0, >0; nullopt when the values are not ordered
/// (either is NaN or null). Booleans false < true; strings, uuid, fixed and binary unsigned
/// byte-wise; decimals by value; floats by IEEE 754 for non-NaN values.
std::optional<int> CompareValues(const Value& a, const Value& b, const Type& type);

}  // namespace ictk
