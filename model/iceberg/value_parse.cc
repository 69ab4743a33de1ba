/// \file
/// Appendix D string forms (SURROUNDINGS.md "Single values in JSON") and literal binding.
/// Dates are days from 1970-01-01, times micros from midnight, timestamps micros (or
/// nanos for the _ns types) from the epoch in UTC; decimals are exact 128-bit unscaled
/// integers.
#include "model/iceberg/value_parse.h"

#include <charconv>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <string_view>

namespace ictk {
namespace {

constexpr int kMaxDecimalPrecision = 38;
constexpr int64_t kMicrosPerSecond = 1'000'000;
constexpr int64_t kNanosPerSecond = 1'000'000'000;
constexpr int64_t kSecondsPerDay = 86'400;
constexpr int64_t kMicrosPerDay = kSecondsPerDay * kMicrosPerSecond;
/// Dates from -999999-01-01 to +999999-12-31 (beyond Java's LocalDate range is rejected).
constexpr int64_t kMaxYear = 999'999;

/// 10^n for 0 <= n <= 38 (10^38 < 2^127).
Int128 Pow10(int n) {
  Int128 r = 1;
  for (int i = 0; i < n; ++i) r *= 10;
  return r;
}

Int128 Abs128(Int128 v) { return v < 0 ? -v : v; }

bool IsDigit(char c) { return c >= '0' && c <= '9'; }

int HexDigit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

/// Reads exactly `n` digits at `pos` into `out`.
bool ReadDigits(std::string_view s, size_t& pos, size_t n, int64_t& out) {
  if (pos + n > s.size()) return false;
  int64_t v = 0;
  for (size_t i = 0; i < n; ++i) {
    char c = s[pos + i];
    if (!IsDigit(c)) return false;
    v = v * 10 + (c - '0');
  }
  pos += n;
  out = v;
  return true;
}

// --- civil calendar (proleptic Gregorian), after H. Hinnant's public-domain algorithms
// ---

int64_t DaysFromCivil(int64_t y, int64_t m, int64_t d) {
  y -= m <= 2;
  const int64_t era = (y >= 0 ? y : y - 399) / 400;
  const int64_t yoe = y - era * 400;
  const int64_t doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
  const int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + doe - 719468;
}

void CivilFromDays(int64_t z, int64_t& y, int64_t& m, int64_t& d) {
  z += 719468;
  const int64_t era = (z >= 0 ? z : z - 146096) / 146097;
  const int64_t doe = z - era * 146097;
  const int64_t yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
  y = yoe + era * 400;
  const int64_t doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
  const int64_t mp = (5 * doy + 2) / 153;
  d = doy - (153 * mp + 2) / 5 + 1;
  m = mp < 10 ? mp + 3 : mp - 9;
  y += m <= 2;
}

bool IsLeap(int64_t y) { return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0; }

int64_t DaysInMonth(int64_t y, int64_t m) {
  static constexpr int kDays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  return m == 2 && IsLeap(y) ? 29 : kDays[m - 1];
}

/// "[+-]YYYY-MM-DD" (at least 4 year digits; a sign is needed for more than 4) at `pos`.
bool ParseDatePart(std::string_view s, size_t& pos, int64_t& days) {
  bool negative = false;
  bool signed_year = false;
  if (pos < s.size() && (s[pos] == '+' || s[pos] == '-')) {
    negative = s[pos] == '-';
    signed_year = true;
    ++pos;
  }
  size_t start = pos;
  while (pos < s.size() && IsDigit(s[pos])) ++pos;
  size_t year_digits = pos - start;
  if (year_digits < 4 || year_digits > 6 || (year_digits > 4 && !signed_year))
    return false;
  int64_t year = 0;
  for (size_t i = start; i < pos; ++i) year = year * 10 + (s[i] - '0');
  if (negative) year = -year;
  if (year > kMaxYear || year < -kMaxYear) return false;
  int64_t month = 0, day = 0;
  if (pos >= s.size() || s[pos] != '-') return false;
  ++pos;
  if (!ReadDigits(s, pos, 2, month)) return false;
  if (pos >= s.size() || s[pos] != '-') return false;
  ++pos;
  if (!ReadDigits(s, pos, 2, day)) return false;
  if (month < 1 || month > 12 || day < 1 || day > DaysInMonth(year, month)) return false;
  days = DaysFromCivil(year, month, day);
  return true;
}

/// "HH:MM[:SS[.fffffffff]]" at `pos`, as nanoseconds from midnight.
bool ParseTimePart(std::string_view s, size_t& pos, int64_t& nanos) {
  int64_t h = 0, m = 0, sec = 0, frac = 0;
  if (!ReadDigits(s, pos, 2, h)) return false;
  if (pos >= s.size() || s[pos] != ':') return false;
  ++pos;
  if (!ReadDigits(s, pos, 2, m)) return false;
  if (pos < s.size() && s[pos] == ':') {
    ++pos;
    if (!ReadDigits(s, pos, 2, sec)) return false;
    if (pos < s.size() && s[pos] == '.') {
      ++pos;
      size_t start = pos;
      while (pos < s.size() && IsDigit(s[pos])) ++pos;
      size_t n = pos - start;
      if (n == 0 || n > 9) return false;
      for (size_t i = start; i < pos; ++i) frac = frac * 10 + (s[i] - '0');
      for (size_t i = n; i < 9; ++i) frac *= 10;
    }
  }
  if (h > 23 || m > 59 || sec > 59) return false;
  nanos = ((h * 60 + m) * 60 + sec) * kNanosPerSecond + frac;
  return true;
}

/// "Z", "+HH:MM", "-HH:MM", "+HHMM" or "+HH" at `pos`, as seconds east of UTC.
bool ParseOffsetPart(std::string_view s, size_t& pos, int64_t& offset_seconds) {
  if (pos >= s.size()) return false;
  if (s[pos] == 'Z' || s[pos] == 'z') {
    ++pos;
    offset_seconds = 0;
    return true;
  }
  if (s[pos] != '+' && s[pos] != '-') return false;
  const bool negative = s[pos] == '-';
  ++pos;
  int64_t h = 0, m = 0;
  if (!ReadDigits(s, pos, 2, h)) return false;
  if (pos < s.size() && s[pos] == ':') {
    ++pos;
    if (!ReadDigits(s, pos, 2, m)) return false;
  } else if (pos < s.size()) {
    if (!ReadDigits(s, pos, 2, m)) return false;
  }
  if (h > 18 || m > 59) return false;
  offset_seconds = (h * 3600 + m * 60) * (negative ? -1 : 1);
  return true;
}

/// Whole-string date-time parse: date 'T' time [offset]. Result in nanos from the epoch
/// (as Int128 so that far dates do not overflow before the range check).
bool ParseDateTime(std::string_view s, bool with_offset, Int128& epoch_nanos) {
  size_t pos = 0;
  int64_t days = 0, nanos = 0, offset = 0;
  if (!ParseDatePart(s, pos, days)) return false;
  if (pos >= s.size() || (s[pos] != 'T' && s[pos] != 't')) return false;
  ++pos;
  if (!ParseTimePart(s, pos, nanos)) return false;
  if (with_offset) {
    if (!ParseOffsetPart(s, pos, offset)) return false;
  }
  if (pos != s.size()) return false;
  epoch_nanos = Int128(days) * kSecondsPerDay * kNanosPerSecond + nanos -
                Int128(offset) * kNanosPerSecond;
  return true;
}

/// Converts nanos to the unit of `per_second` when exact; nullopt when precision would be
/// lost or the result leaves int64.
std::optional<int64_t> FromNanos(Int128 nanos, int64_t per_second) {
  const int64_t divisor = kNanosPerSecond / per_second;
  if (nanos % divisor != 0) return std::nullopt;
  Int128 v = nanos / divisor;
  if (v > std::numeric_limits<int64_t>::max() || v < std::numeric_limits<int64_t>::min())
    return std::nullopt;
  return static_cast<int64_t>(v);
}

int64_t FloorDiv(int64_t a, int64_t b) {
  int64_t q = a / b;
  if ((a % b != 0) && ((a < 0) != (b < 0))) --q;
  return q;
}

std::string Pad(int64_t v, int width) {
  std::string s = std::to_string(v);
  if (static_cast<int>(s.size()) < width) s.insert(0, width - s.size(), '0');
  return s;
}

std::string FormatDate(int64_t days) {
  int64_t y = 0, m = 0, d = 0;
  CivilFromDays(days, y, m, d);
  std::string out;
  if (y < 0) {
    out = "-" + Pad(-y, 4);
  } else if (y > 9999) {
    out = "+" + Pad(y, 4);
  } else {
    out = Pad(y, 4);
  }
  return out + "-" + Pad(m, 2) + "-" + Pad(d, 2);
}

/// "HH:MM:SS.ffffff" (digits = 6) or ".fffffffff" (digits = 9) for a time of day.
std::string FormatTimeOfDay(int64_t units, int64_t per_second, int digits) {
  int64_t secs = units / per_second;
  int64_t frac = units % per_second;
  return Pad(secs / 3600, 2) + ":" + Pad(secs / 60 % 60, 2) + ":" + Pad(secs % 60, 2) +
         "." + Pad(frac, digits);
}

std::string FormatTimestamp(int64_t value, int64_t per_second, int digits) {
  const int64_t per_day = kSecondsPerDay * per_second;
  int64_t days = FloorDiv(value, per_day);
  int64_t rem = value - days * per_day;
  return FormatDate(days) + "T" + FormatTimeOfDay(rem, per_second, digits);
}

std::string Int128ToString(Int128 v) {
  if (v == 0) return "0";
  bool negative = v < 0;
  // Work on the negative side so that the minimum value does not overflow.
  std::string digits;
  Int128 n = negative ? v : -v;
  while (n != 0) {
    int d = static_cast<int>(-(n % 10));
    digits.push_back(static_cast<char>('0' + d));
    n /= 10;
  }
  if (negative) digits.push_back('-');
  return std::string(digits.rbegin(), digits.rend());
}

/// An exact decimal read from text: "[+-]digits[.digits][(e|E)[+-]digits]".
bool ParseDecimalText(std::string_view s, Decimal& out) {
  size_t pos = 0;
  bool negative = false;
  if (pos < s.size() && (s[pos] == '+' || s[pos] == '-')) {
    negative = s[pos] == '-';
    ++pos;
  }
  std::string digits;
  int64_t scale = 0;
  bool any_digit = false;
  while (pos < s.size() && IsDigit(s[pos])) {
    digits.push_back(s[pos++]);
    any_digit = true;
  }
  if (pos < s.size() && s[pos] == '.') {
    ++pos;
    while (pos < s.size() && IsDigit(s[pos])) {
      digits.push_back(s[pos++]);
      ++scale;
      any_digit = true;
    }
  }
  if (!any_digit) return false;
  if (pos < s.size() && (s[pos] == 'e' || s[pos] == 'E')) {
    ++pos;
    bool exp_negative = false;
    if (pos < s.size() && (s[pos] == '+' || s[pos] == '-')) {
      exp_negative = s[pos] == '-';
      ++pos;
    }
    size_t start = pos;
    int64_t exp = 0;
    while (pos < s.size() && IsDigit(s[pos])) {
      if (exp > 100000) return false;
      exp = exp * 10 + (s[pos++] - '0');
    }
    if (pos == start) return false;
    scale -= exp_negative ? -exp : exp;
  }
  if (pos != s.size()) return false;
  // Normalize: drop leading zeros, and trailing zeros (adjusting the scale) while that
  // is needed to fit 38 digits.
  size_t first = digits.find_first_not_of('0');
  digits = first == std::string::npos ? std::string() : digits.substr(first);
  while (digits.size() > static_cast<size_t>(kMaxDecimalPrecision) &&
         digits.back() == '0') {
    digits.pop_back();
    --scale;
  }
  if (digits.size() > static_cast<size_t>(kMaxDecimalPrecision)) return false;
  if (scale > 1000 || scale < -1000) {
    if (!digits.empty()) return false;
    scale = 0;
  }
  Int128 unscaled = 0;
  for (char c : digits) unscaled = unscaled * 10 + (c - '0');
  out.unscaled = negative ? -unscaled : unscaled;
  out.scale = static_cast<int32_t>(scale);
  return true;
}

/// Rescales `d` to `scale` exactly and checks it fits `precision` digits.
std::optional<Decimal> FitDecimal(const Decimal& d, int32_t precision, int32_t scale) {
  if (precision < 1 || precision > kMaxDecimalPrecision || scale < 0 || scale > precision)
    return std::nullopt;
  Int128 unscaled = d.unscaled;
  if (unscaled == 0) return Decimal{0, scale};
  const Int128 limit = Pow10(precision);
  if (d.scale < scale) {
    int64_t diff = int64_t(scale) - d.scale;
    if (diff > kMaxDecimalPrecision) return std::nullopt;
    // Overflow-free: |unscaled| * 10^diff < limit  <=>  |unscaled| < ceil(limit /
    // 10^diff).
    Int128 factor = Pow10(static_cast<int>(diff));
    if (Abs128(unscaled) > (limit - 1) / factor) return std::nullopt;
    unscaled *= factor;
  } else if (d.scale > scale) {
    int64_t diff = int64_t(d.scale) - scale;
    if (diff > kMaxDecimalPrecision)
      return std::nullopt;  // nonzero value would lose digits
    Int128 factor = Pow10(static_cast<int>(diff));
    if (unscaled % factor != 0) return std::nullopt;
    unscaled /= factor;
  }
  if (Abs128(unscaled) >= limit) return std::nullopt;
  return Decimal{unscaled, scale};
}

std::string FormatDecimal(const Decimal& d) {
  Int128 abs = Abs128(d.unscaled);
  std::string digits = Int128ToString(abs);
  std::string out = d.unscaled < 0 ? "-" : "";
  if (d.scale <= 0) {
    out += digits;
    if (abs != 0) out.append(static_cast<size_t>(-d.scale), '0');
    return out;
  }
  const size_t scale = static_cast<size_t>(d.scale);
  if (digits.size() <= scale) digits.insert(0, scale - digits.size() + 1, '0');
  out += digits.substr(0, digits.size() - scale);
  out += '.';
  out += digits.substr(digits.size() - scale);
  return out;
}

std::optional<std::string> ParseHex(std::string_view s) {
  if (s.size() % 2 != 0) return std::nullopt;
  std::string out;
  out.reserve(s.size() / 2);
  for (size_t i = 0; i < s.size(); i += 2) {
    int hi = HexDigit(s[i]);
    int lo = HexDigit(s[i + 1]);
    if (hi < 0 || lo < 0) return std::nullopt;
    out.push_back(static_cast<char>((hi << 4) | lo));
  }
  return out;
}

std::string FormatHex(std::string_view raw) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out;
  out.reserve(raw.size() * 2);
  for (unsigned char c : raw) {
    out.push_back(kHex[c >> 4]);
    out.push_back(kHex[c & 0xf]);
  }
  return out;
}

std::optional<std::string> ParseUuid(std::string_view s) {
  if (s.size() != 36) return std::nullopt;
  std::string hex;
  for (size_t i = 0; i < s.size(); ++i) {
    if (i == 8 || i == 13 || i == 18 || i == 23) {
      if (s[i] != '-') return std::nullopt;
    } else {
      hex.push_back(s[i]);
    }
  }
  return ParseHex(hex);
}

std::string FormatUuid(std::string_view raw) {
  std::string hex = FormatHex(raw);
  return hex.substr(0, 8) + "-" + hex.substr(8, 4) + "-" + hex.substr(12, 4) + "-" +
         hex.substr(16, 4) + "-" + hex.substr(20);
}

bool FitsInt32(int64_t v) {
  return v >= std::numeric_limits<int32_t>::min() &&
         v <= std::numeric_limits<int32_t>::max();
}

/// Days of the supported date range (years -999999..999999).
bool DateInRange(int64_t days) {
  return days >= DaysFromCivil(-kMaxYear, 1, 1) &&
         days <= DaysFromCivil(kMaxYear, 12, 31);
}

bool FloatInRange(double v) {
  return !std::isfinite(v) || std::fabs(v) <= std::numeric_limits<float>::max();
}

/// The shortest text that reads back as `v` (what Java's Double.toString gives in value).
std::string ShortestDouble(double v) {
  char buf[64];
  auto res = std::to_chars(buf, buf + sizeof(buf), v);
  return std::string(buf, res.ptr);
}

}  // namespace

std::optional<Value> ParseValueString(const Type& type, std::string_view text) {
  switch (type.id) {
    case TypeId::kDate: {
      size_t pos = 0;
      int64_t days = 0;
      if (!ParseDatePart(text, pos, days) || pos != text.size()) return std::nullopt;
      return Value::Long(days);
    }
    case TypeId::kTime: {
      size_t pos = 0;
      int64_t nanos = 0;
      if (!ParseTimePart(text, pos, nanos) || pos != text.size()) return std::nullopt;
      if (nanos % 1000 != 0) return std::nullopt;  // more precision than micros
      return Value::Long(nanos / 1000);
    }
    case TypeId::kTimestamp:
    case TypeId::kTimestampTz:
    case TypeId::kTimestampNs:
    case TypeId::kTimestampTzNs: {
      const bool tz =
          type.id == TypeId::kTimestampTz || type.id == TypeId::kTimestampTzNs;
      const bool ns =
          type.id == TypeId::kTimestampNs || type.id == TypeId::kTimestampTzNs;
      Int128 nanos = 0;
      if (!ParseDateTime(text, tz, nanos)) return std::nullopt;
      auto v = FromNanos(nanos, ns ? kNanosPerSecond : kMicrosPerSecond);
      if (!v) return std::nullopt;
      return Value::Long(*v);
    }
    case TypeId::kDecimal: {
      Decimal d;
      if (!ParseDecimalText(text, d)) return std::nullopt;
      auto fitted = FitDecimal(d, type.precision, type.scale);
      if (!fitted) return std::nullopt;
      return Value::DecimalOf(fitted->unscaled, fitted->scale);
    }
    case TypeId::kUuid: {
      auto raw = ParseUuid(text);
      if (!raw) return std::nullopt;
      return Value::Bytes(*raw);
    }
    case TypeId::kFixed: {
      auto raw = ParseHex(text);
      if (!raw || static_cast<int64_t>(raw->size()) != type.length) return std::nullopt;
      return Value::Bytes(*raw);
    }
    case TypeId::kBinary: {
      auto raw = ParseHex(text);
      if (!raw) return std::nullopt;
      return Value::Bytes(*raw);
    }
    case TypeId::kString:
    case TypeId::kGeometry:
    case TypeId::kGeography:
      return Value::String(std::string(text));
    case TypeId::kFloat:
    case TypeId::kDouble:
      // ARCHITECTURE.md: NaN and infinities travel as these strings.
      if (text == "NaN") return Value::Double(std::numeric_limits<double>::quiet_NaN());
      if (text == "Infinity")
        return Value::Double(std::numeric_limits<double>::infinity());
      if (text == "-Infinity")
        return Value::Double(-std::numeric_limits<double>::infinity());
      return std::nullopt;
    default:
      return std::nullopt;
  }
}

std::optional<std::string> FormatValueString(const Type& type, const Value& value) {
  switch (type.id) {
    case TypeId::kDate:
      if (value.kind != ValueKind::kLong || !DateInRange(value.as_long()))
        return std::nullopt;
      return FormatDate(value.as_long());
    case TypeId::kTime:
      if (value.kind != ValueKind::kLong || value.as_long() < 0 ||
          value.as_long() >= kMicrosPerDay)
        return std::nullopt;
      return FormatTimeOfDay(value.as_long(), kMicrosPerSecond, 6);
    case TypeId::kTimestamp:
    case TypeId::kTimestampTz:
    case TypeId::kTimestampNs:
    case TypeId::kTimestampTzNs: {
      if (value.kind != ValueKind::kLong) return std::nullopt;
      const bool tz =
          type.id == TypeId::kTimestampTz || type.id == TypeId::kTimestampTzNs;
      const bool ns =
          type.id == TypeId::kTimestampNs || type.id == TypeId::kTimestampTzNs;
      std::string s = ns ? FormatTimestamp(value.as_long(), kNanosPerSecond, 9)
                         : FormatTimestamp(value.as_long(), kMicrosPerSecond, 6);
      if (tz) s += "+00:00";
      return s;
    }
    case TypeId::kDecimal: {
      if (value.kind != ValueKind::kDecimal) return std::nullopt;
      auto fitted = FitDecimal(value.as_decimal(), type.precision, type.scale);
      if (!fitted) return std::nullopt;
      return FormatDecimal(*fitted);
    }
    case TypeId::kUuid:
      if (value.kind != ValueKind::kBytes || value.as_string().size() != 16)
        return std::nullopt;
      return FormatUuid(value.as_string());
    case TypeId::kFixed:
    case TypeId::kBinary:
      if (value.kind != ValueKind::kBytes) return std::nullopt;
      if (type.id == TypeId::kFixed &&
          static_cast<int64_t>(value.as_string().size()) != type.length)
        return std::nullopt;
      return FormatHex(value.as_string());
    case TypeId::kString:
    case TypeId::kGeometry:
    case TypeId::kGeography:
      if (value.kind != ValueKind::kString) return std::nullopt;
      return value.as_string();
    case TypeId::kFloat:
    case TypeId::kDouble: {
      if (value.kind != ValueKind::kDouble) return std::nullopt;
      double d = value.as_double();
      if (std::isnan(d)) return std::string("NaN");
      if (std::isinf(d)) return std::string(d > 0 ? "Infinity" : "-Infinity");
      return std::nullopt;
    }
    default:
      return std::nullopt;
  }
}

std::optional<Value> BindLiteral(const Value& literal, const Type& type) {
  if (literal.is_null()) return literal;
  if (IsNested(type.id)) {
    return ValueFitsType(literal, type) ? std::optional<Value>(literal) : std::nullopt;
  }
  switch (type.id) {
    case TypeId::kBoolean:
      if (literal.kind == ValueKind::kBoolean) return literal;
      return std::nullopt;
    case TypeId::kInt:
      if (literal.kind == ValueKind::kLong && FitsInt32(literal.as_long()))
        return literal;
      return std::nullopt;
    case TypeId::kLong:
      if (literal.kind == ValueKind::kLong) return literal;
      return std::nullopt;
    case TypeId::kFloat:
    case TypeId::kDouble: {
      double d = 0;
      if (literal.kind == ValueKind::kDouble) {
        d = literal.as_double();
      } else if (literal.kind == ValueKind::kLong) {
        // Exact only within the type's integer-exact range (2^24 / 2^53).
        const int64_t limit =
            type.id == TypeId::kFloat ? (int64_t{1} << 24) : (int64_t{1} << 53);
        if (literal.as_long() > limit || literal.as_long() < -limit) return std::nullopt;
        d = static_cast<double>(literal.as_long());
      } else if (literal.kind == ValueKind::kString) {
        return ParseValueString(type, literal.as_string());
      } else {
        return std::nullopt;
      }
      if (type.id == TypeId::kFloat) {
        // As Iceberg's DoubleLiteral.to(FloatType): in range, rounded to the nearest
        // float.
        if (!FloatInRange(d)) return std::nullopt;
        d = static_cast<double>(static_cast<float>(d));
      }
      return Value::Double(d);
    }
    case TypeId::kDecimal: {
      Decimal d;
      if (literal.kind == ValueKind::kDecimal) {
        d = literal.as_decimal();
      } else if (literal.kind == ValueKind::kLong) {
        d = Decimal{literal.as_long(), 0};
      } else if (literal.kind == ValueKind::kDouble) {
        if (!std::isfinite(literal.as_double())) return std::nullopt;
        if (!ParseDecimalText(ShortestDouble(literal.as_double()), d))
          return std::nullopt;
      } else if (literal.kind == ValueKind::kString) {
        if (!ParseDecimalText(literal.as_string(), d)) return std::nullopt;
      } else {
        return std::nullopt;
      }
      auto fitted = FitDecimal(d, type.precision, type.scale);
      if (!fitted) return std::nullopt;
      return Value::DecimalOf(fitted->unscaled, fitted->scale);
    }
    case TypeId::kDate:
    case TypeId::kTime:
    case TypeId::kTimestamp:
    case TypeId::kTimestampTz:
    case TypeId::kTimestampNs:
    case TypeId::kTimestampTzNs:
      if (literal.kind == ValueKind::kString)
        return ParseValueString(type, literal.as_string());
      if (literal.kind == ValueKind::kLong && ValueFitsType(literal, type))
        return literal;
      return std::nullopt;
    case TypeId::kString:
      if (literal.kind == ValueKind::kString) return literal;
      return std::nullopt;
    case TypeId::kUuid:
    case TypeId::kFixed:
    case TypeId::kBinary:
      if (literal.kind == ValueKind::kString)
        return ParseValueString(type, literal.as_string());
      if (literal.kind == ValueKind::kBytes && ValueFitsType(literal, type))
        return literal;
      return std::nullopt;
    case TypeId::kGeometry:
    case TypeId::kGeography:
      if (literal.kind == ValueKind::kString || literal.kind == ValueKind::kBytes)
        return literal;
      return std::nullopt;
    case TypeId::kUnknown:
      return std::nullopt;  // only null, handled above
    case TypeId::kVariant:
      return literal;
    default:
      return std::nullopt;
  }
}

bool ValueFitsType(const Value& value, const Type& type) {
  if (value.is_null())
    return true;  // whether null is allowed is the enclosing field's rule
  switch (type.id) {
    case TypeId::kBoolean:
      return value.kind == ValueKind::kBoolean;
    case TypeId::kInt:
      return value.kind == ValueKind::kLong && FitsInt32(value.as_long());
    case TypeId::kLong:
    case TypeId::kTimestamp:
    case TypeId::kTimestampTz:
    case TypeId::kTimestampNs:
    case TypeId::kTimestampTzNs:
      return value.kind == ValueKind::kLong;
    case TypeId::kDate:
      return value.kind == ValueKind::kLong && DateInRange(value.as_long());
    case TypeId::kTime:
      return value.kind == ValueKind::kLong && value.as_long() >= 0 &&
             value.as_long() < kMicrosPerDay;
    case TypeId::kFloat:
      return value.kind == ValueKind::kDouble && FloatInRange(value.as_double());
    case TypeId::kDouble:
      return value.kind == ValueKind::kDouble;
    case TypeId::kDecimal: {
      if (value.kind != ValueKind::kDecimal) return false;
      const Decimal& d = value.as_decimal();
      if (type.precision < 1 || type.precision > kMaxDecimalPrecision) return false;
      return d.scale == type.scale && Abs128(d.unscaled) < Pow10(type.precision);
    }
    case TypeId::kString:
      return value.kind == ValueKind::kString;
    case TypeId::kUuid:
      return value.kind == ValueKind::kBytes && value.as_string().size() == 16;
    case TypeId::kFixed:
      return value.kind == ValueKind::kBytes &&
             static_cast<int64_t>(value.as_string().size()) == type.length;
    case TypeId::kBinary:
      return value.kind == ValueKind::kBytes;
    case TypeId::kGeometry:
    case TypeId::kGeography:
      return value.kind == ValueKind::kString || value.kind == ValueKind::kBytes;
    case TypeId::kUnknown:
      return false;  // "unknown" values are always null
    case TypeId::kVariant:
      return true;
    case TypeId::kStruct: {
      if (value.kind != ValueKind::kStruct ||
          value.field_ids.size() != value.children.size())
        return false;
      // Every value ID names a field of the type, at most once.
      for (size_t i = 0; i < value.field_ids.size(); ++i) {
        bool known = false;
        for (const auto& f : type.fields) known = known || f.id == value.field_ids[i];
        if (!known) return false;
        for (size_t j = 0; j < i; ++j)
          if (value.field_ids[j] == value.field_ids[i]) return false;
      }
      for (const auto& f : type.fields) {
        const Value* child = value.FindField(f.id);
        if (child == nullptr || child->is_null()) {
          if (f.required) return false;
          continue;
        }
        if (!ValueFitsType(*child, f.type)) return false;
      }
      return true;
    }
    case TypeId::kList: {
      if (value.kind != ValueKind::kList || type.children.size() != 1) return false;
      for (const auto& e : value.children) {
        if (e.is_null()) {
          if (type.element_required) return false;
        } else if (!ValueFitsType(e, type.element())) {
          return false;
        }
      }
      return true;
    }
    case TypeId::kMap: {
      if (value.kind != ValueKind::kMap || type.children.size() != 2 ||
          value.children.size() % 2 != 0)
        return false;
      const size_t n = value.children.size() / 2;
      for (size_t i = 0; i < n; ++i) {
        const Value& k = value.children[i];
        const Value& v = value.children[n + i];
        if (k.is_null() || !ValueFitsType(k, type.key())) return false;
        if (v.is_null()) {
          if (type.value_required) return false;
        } else if (!ValueFitsType(v, type.value())) {
          return false;
        }
      }
      return true;
    }
  }
  return false;
}

}  // namespace ictk
