/// \file
/// Single values as JSON (Iceberg Appendix D, SURROUNDINGS.md "Single values in JSON"):
/// typed against an Iceberg type, or untyped as a literal without a `data-type` is.
#pragma once

#include <nlohmann/json.hpp>
#include <string_view>

#include "codec/result.h"
#include "model/iceberg/types.h"
#include "model/iceberg/value.h"

namespace ictk {

struct ValueDecodeOptions {
  /// Appendix D: a timestamptz "must include a zone offset and it must be '+00:00'". When
  /// false (rows, literals) other offsets are accepted and normalized to UTC; when true
  /// (field defaults, as iceberg-cpp) they are rejected.
  bool require_utc_offset = false;
};

/// Decodes a value of `type`. Checks shapes, kinds and ranges (an int that does not fit,
/// a fixed of the wrong length, a decimal with too many digits, an unknown struct field
/// ID); it does not check nullability (a null where a field is required decodes as null,
/// and an absent struct member stays absent): that is ValueFitsType's job, so that
/// callers can apply `write-default`s or report the null as their own error.
Result<Value> ValueFromJson(const nlohmann::json& json, const Type& type,
                            std::string_view pointer, ValueDecodeOptions options = {});
/// The Appendix D JSON of `value` read as `type` (struct members keyed by field ID as
/// strings, maps as {"keys": [..], "values": [..]}, NaN/infinities as strings). A value
/// whose kind does not match the type is written as UntypedValueToJson writes it.
nlohmann::json ValueToJson(const Value& value, const Type& type);

/// An untyped literal: boolean -> kBoolean, integer -> kLong, other number -> kDouble,
/// string -> kString; null -> kNull. Arrays and objects are an error.
Result<Value> UntypedValueFromJson(const nlohmann::json& json, std::string_view pointer);
/// kBoolean/kLong/kDouble/kString as JSON scalars; kDecimal as its string, kBytes as hex,
/// non-finite doubles as "NaN"/"Infinity"/"-Infinity", nested values element-wise.
nlohmann::json UntypedValueToJson(const Value& value);

}  // namespace ictk
