/// \file
/// What the parts of Appendix D parsing share (not installed): the units, and the
/// string forms by type family: dates, times and timestamps (value_temporal.cc), decimals
/// (value_decimal.cc), binary, fixed and uuid (value_bytes.cc). value_parse.cc is the
/// public API of value_parse.h.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "model/iceberg/time_units_internal.h"
#include "model/iceberg/value.h"

namespace ictk::internal {

constexpr int kMaxDecimalPrecision = 38;

inline bool IsDigit(char c) { return c >= '0' && c <= '9'; }

// ---------------------------------------------------------------------------------------
// Dates, times and timestamps (value_temporal.cc)

/// "[+-]YYYY-MM-DD" (at least 4 year digits; a sign is needed for more than 4) at `pos`.
bool ParseDatePart(std::string_view s, size_t& pos, int64_t& days);

/// "HH:MM[:SS[.fffffffff]]" at `pos`, as nanoseconds from midnight.
bool ParseTimePart(std::string_view s, size_t& pos, int64_t& nanos);

/// Whole-string date-time parse: date 'T' time [offset]. Result in nanos from the epoch
/// (as Int128 so that far dates do not overflow before the range check).
bool ParseDateTime(std::string_view s, bool with_offset, Int128& epoch_nanos);

/// Converts nanos to the unit of `per_second` when exact; nullopt when precision would be
/// lost or the result leaves int64.
std::optional<int64_t> FromNanos(Int128 nanos, int64_t per_second);

/// "[+-]YYYY-MM-DD" of a day count from 1970-01-01.
std::string FormatDate(int64_t days);

/// "HH:MM:SS.ffffff" (digits = 6) or ".fffffffff" (digits = 9) for a time of day.
std::string FormatTimeOfDay(int64_t units, int64_t per_second, int digits);

/// "YYYY-MM-DDTHH:MM:SS.ffffff" (digits = 6) or with 9 digits, of micros or nanos.
std::string FormatTimestamp(int64_t value, int64_t per_second, int digits);

/// Days of the supported date range (years -999999..999999).
bool DateInRange(int64_t days);

// ---------------------------------------------------------------------------------------
// Decimals (value_decimal.cc)

/// 10^n for 0 <= n <= 38 (10^38 < 2^127).
Int128 Pow10(int n);

Int128 Abs128(Int128 v);

/// An exact decimal read from text: "[+-]digits[.digits][(e|E)[+-]digits]".
bool ParseDecimalText(std::string_view s, Decimal& out);

/// Rescales `d` to `scale` exactly and checks it fits `precision` digits.
std::optional<Decimal> FitDecimal(const Decimal& d, int32_t precision, int32_t scale);

/// The plain text of a decimal: its digits with the point `scale` places from the right
/// (a negative scale appends zeros).
std::string FormatDecimal(const Decimal& d);

// ---------------------------------------------------------------------------------------
// Binary, fixed and uuid (value_bytes.cc)

/// The bytes of a hex string (either case); nullopt for an odd length or a non-hex digit.
std::optional<std::string> ParseHex(std::string_view s);

/// Lower-case hex of raw bytes.
std::string FormatHex(std::string_view raw);

/// The 16 bytes of "xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx".
std::optional<std::string> ParseUuid(std::string_view s);

/// The canonical lower-case form of 16 uuid bytes.
std::string FormatUuid(std::string_view raw);

}  // namespace ictk::internal
