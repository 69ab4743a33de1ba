/// \file
/// Appendix D string forms of single values, without JSON: "2017-11-16" as a date,
/// "22:31:08.123456" as a time, "2017-11-16T22:31:08.123456+00:00" as timestamptz, 9-digit
/// fractions for the _ns types, "14.20" as a decimal, lower-case uuid, hex for fixed and
/// binary. The codec uses these for JSON values; the evaluator uses BindLiteral to give an
/// untyped literal the type of the field it is compared with.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "model/iceberg/types.h"
#include "model/iceberg/value.h"

namespace ictk {

/// Parses the Appendix D string form of a value of primitive type `type` (date, time,
/// timestamp*, decimal, uuid, fixed, binary, string). nullopt when malformed or out of range.
std::optional<Value> ParseValueString(const Type& type, std::string_view text);

/// The canonical Appendix D string form of a primitive value (the inverse of
/// ParseValueString). For types whose JSON form is not a string (numbers, booleans) returns
/// nullopt.
std::optional<std::string> FormatValueString(const Type& type, const Value& value);

/// Converts an untyped literal (kLong / kDouble / kString / kBoolean / kDecimal, as decoded
/// from JSON) to a value of `type`, when that conversion is exact and safe (no unsafe casts:
/// 5 -> long 5 or double 5.0 or decimal(9,2) 5.00; "2017-11-16" -> date; 5.5 -> int is not
/// exact, so nullopt). Values already of the right kind pass through after range checks.
std::optional<Value> BindLiteral(const Value& literal, const Type& type);

/// Whether `value` is a well-formed value of `type` (ranges, decimal precision, fixed length,
/// struct field IDs, nulls only where optional).
bool ValueFitsType(const Value& value, const Type& type);

}  // namespace ictk
