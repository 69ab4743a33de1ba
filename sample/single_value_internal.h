/// \file
/// The sample's own Iceberg single values (the Iceberg spec, Appendix D "JSON single-value
/// serialization"): a value's JSON form per type, read and written, and the text forms of
/// dates, times, timestamps, decimals, UUIDs and binary that JSON carries as strings; the
/// proleptic Gregorian calendar they need. Written for the sample alone, from the spec.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>

#include "model/iceberg/types.h"
#include "model/iceberg/value.h"
#include "sample/wire_internal.h"

namespace ictk::sample {

// --- calendar -------------------------------------------------------------------------

/// A day of the proleptic Gregorian calendar.
struct CivilDay {
  int64_t year = 1970;
  int month = 1;  ///< 1..12
  int day = 1;    ///< 1..31
};

bool IsLeapYear(int64_t year);
int DaysInMonthOf(int64_t year, int month);
/// Days from 1970-01-01 to `d` (negative before it).
int64_t EpochDay(const CivilDay& d);
/// The day `epoch_day` days after 1970-01-01.
CivilDay CivilOf(int64_t epoch_day);
/// Whether a date value (days) lies in the years -999999..999999 the spec's text form
/// can write.
bool DateWritable(int64_t epoch_day);

// --- text forms ---------------------------------------------------------------------

/// The value of `type` that the JSON string `text` stands for (dates, times, timestamps,
/// decimals, uuid, fixed, binary, strings and geo values, and "NaN"/"Infinity"/"-Infinity"
/// for float and double); nullopt when `text` is no such value, or `type` is not one
/// whose JSON form is a string.
std::optional<Value> ValueOfText(const Type& type, std::string_view text);
/// The JSON string form of `value` as `type`, when `type` writes one and `value` fits it.
std::optional<std::string> TextOfValue(const Type& type, const Value& value);
/// An exact decimal from "[+-]digits[.digits][e[+-]digits]" (at most 38 significant
/// digits), and that decimal at `precision`/`scale` without losing a digit.
std::optional<Decimal> DecimalOfText(std::string_view text);
std::optional<Decimal> Rescaled(const Decimal& d, int32_t precision, int32_t scale);
/// "14.20" for {1420, 2}.
std::string DecimalText(const Decimal& d);
/// Lowercase hex of raw bytes.
std::string HexText(std::string_view raw);

// --- JSON forms ---------------------------------------------------------------------

/// Reads `slot` as a value of `type` (null is null at every level; whether null is
/// allowed is the caller's rule). `utc_only`: a timestamptz must end in "+00:00" (field
/// defaults); otherwise any offset is taken to UTC (rows, literals). Throws Malformed.
Value ReadTyped(const Slot& slot, const Type& type, bool utc_only = false);
/// Reads a literal without a type: boolean, integer (kLong), other number (kDouble),
/// string; null is null. Throws Malformed for arrays and objects.
Value ReadUntyped(const Slot& slot);
/// Reads a row's values without a schema: objects keyed by field ID are structs, objects
/// of exactly "keys" and "values" are maps, arrays are lists. Throws Malformed.
Value ReadUntypedNested(const Slot& slot);

/// A value kept as its JSON text (a field default) read as `type`; nullopt when the text
/// is not JSON or not a value of `type`.
std::optional<Value> ValueOfJsonText(const std::string& text, const Type& type,
                                     bool utc_only = false);

/// The JSON of `value` as `type`; a value that does not fit `type` is written untyped.
nlohmann::json WriteTyped(const Value& value, const Type& type);
/// The JSON of a value without a type (decimals as text, bytes as hex, NaN and the
/// infinities as strings).
nlohmann::json WriteUntyped(const Value& value);

}  // namespace ictk::sample
