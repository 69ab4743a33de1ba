/// \file
/// The text forms of Appendix D (single_value_internal.h): dates "YYYY-MM-DD" (a sign and
/// up to six year digits beyond 9999), times "HH:MM:SS.ssssss", timestamps "date T time"
/// with an offset for the tz types, decimals as plain or scientific text, UUIDs with
/// dashes, binary and fixed as hex; and the calendar they count days with.
#include <fmt/format.h>

#include <cmath>
#include <limits>

#include "sample/single_value_internal.h"

namespace ictk::sample {
namespace {

constexpr int64_t kNanosInSecond = 1'000'000'000;
constexpr int64_t kSecondsInDay = 86'400;
constexpr int64_t kYearLimit = 999'999;
constexpr int kMaxDigits = 38;

/// floor(a / b) for b > 0.
int64_t Floor(int64_t a, int64_t b) { return a >= 0 ? a / b : -((-a + b - 1) / b); }

/// Leap years among the years before `year` counted from year 0 (negative below it).
int64_t LeapsBefore(int64_t year) {
  const int64_t y = year - 1;
  return Floor(y, 4) - Floor(y, 100) + Floor(y, 400);
}

/// Days from 0000-01-01 to January 1st of `year`.
int64_t YearStart(int64_t year) { return 365 * year + LeapsBefore(year) + 1; }

Int128 TenTo(int n) {
  Int128 p = 1;
  while (n-- > 0) p *= 10;
  return p;
}

Int128 Magnitude(Int128 v) { return v < 0 ? -v : v; }

bool Digit(char c) { return c >= '0' && c <= '9'; }

/// A text reader: the position in `s` and small matchers.
struct Cursor {
  std::string_view s;
  size_t at = 0;

  bool Done() const { return at == s.size(); }
  bool Take(char c) {
    if (at < s.size() && s[at] == c) {
      ++at;
      return true;
    }
    return false;
  }
  /// Exactly `n` digits.
  std::optional<int64_t> Fixed(size_t n) {
    if (s.size() - at < n) return std::nullopt;
    int64_t v = 0;
    for (size_t i = 0; i < n; ++i) {
      if (!Digit(s[at + i])) return std::nullopt;
      v = v * 10 + (s[at + i] - '0');
    }
    at += n;
    return v;
  }
  /// A run of digits (possibly empty).
  std::string Run() {
    const size_t from = at;
    while (at < s.size() && Digit(s[at])) ++at;
    return std::string(s.substr(from, at - from));
  }
};

/// "[+-]YYYY-MM-DD" as a day number.
std::optional<int64_t> ReadDate(Cursor& c) {
  bool minus = false, sign = false;
  if (c.Take('+')) {
    sign = true;
  } else if (c.Take('-')) {
    sign = minus = true;
  }
  const std::string year_digits = c.Run();
  if (year_digits.size() < 4 || year_digits.size() > 6) return std::nullopt;
  if (year_digits.size() > 4 && !sign) return std::nullopt;
  int64_t year = std::stoll(year_digits);
  if (minus) year = -year;
  if (!c.Take('-')) return std::nullopt;
  auto month = c.Fixed(2);
  if (!month || !c.Take('-')) return std::nullopt;
  auto day = c.Fixed(2);
  if (!day || *month < 1 || *month > 12) return std::nullopt;
  if (*day < 1 || *day > DaysInMonthOf(year, static_cast<int>(*month))) return std::nullopt;
  return EpochDay(CivilDay{year, static_cast<int>(*month), static_cast<int>(*day)});
}

/// "HH:MM[:SS[.f...]]" (up to nine fraction digits) as nanoseconds into the day.
std::optional<int64_t> ReadTimeOfDay(Cursor& c) {
  auto hour = c.Fixed(2);
  if (!hour || !c.Take(':')) return std::nullopt;
  auto minute = c.Fixed(2);
  if (!minute) return std::nullopt;
  int64_t second = 0, nanos = 0;
  if (c.Take(':')) {
    auto s = c.Fixed(2);
    if (!s) return std::nullopt;
    second = *s;
    if (c.Take('.')) {
      std::string fraction = c.Run();
      if (fraction.empty() || fraction.size() > 9) return std::nullopt;
      fraction.resize(9, '0');
      nanos = std::stoll(fraction);
    }
  }
  if (*hour > 23 || *minute > 59 || second > 59) return std::nullopt;
  return ((*hour * 60 + *minute) * 60 + second) * kNanosInSecond + nanos;
}

/// "Z" or "+HH:MM" / "+HHMM" / "+HH" (either sign), as seconds east of UTC.
std::optional<int64_t> ReadOffset(Cursor& c) {
  if (c.Take('Z') || c.Take('z')) return 0;
  int64_t sign = 1;
  if (c.Take('-')) {
    sign = -1;
  } else if (!c.Take('+')) {
    return std::nullopt;
  }
  auto hours = c.Fixed(2);
  if (!hours) return std::nullopt;
  int64_t minutes = 0;
  if (c.Take(':') || !c.Done()) {
    auto m = c.Fixed(2);
    if (!m) return std::nullopt;
    minutes = *m;
  }
  if (*hours > 18 || minutes > 59) return std::nullopt;
  return sign * (*hours * 3600 + minutes * 60);
}

/// A timestamp's text in units of 10^-digits seconds (6: micros, 9: nanos).
std::optional<int64_t> ReadTimestamp(std::string_view text, bool zoned, int digits) {
  Cursor c{text};
  auto day = ReadDate(c);
  if (!day || !(c.Take('T') || c.Take('t'))) return std::nullopt;
  auto nanos = ReadTimeOfDay(c);
  if (!nanos) return std::nullopt;
  int64_t offset = 0;
  if (zoned) {
    auto o = ReadOffset(c);
    if (!o) return std::nullopt;
    offset = *o;
  }
  if (!c.Done()) return std::nullopt;
  const Int128 total =
      (Int128(*day) * kSecondsInDay - offset) * kNanosInSecond + Int128(*nanos);
  const Int128 per_unit = TenTo(9 - digits);
  if (total % per_unit != 0) return std::nullopt;
  const Int128 units = total / per_unit;
  if (units > std::numeric_limits<int64_t>::max() ||
      units < std::numeric_limits<int64_t>::min())
    return std::nullopt;
  return static_cast<int64_t>(units);
}

std::optional<std::string> BytesOfHex(std::string_view hex) {
  if (hex.size() % 2 != 0) return std::nullopt;
  auto nibble = [](char c) -> int {
    if (Digit(c)) return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
  };
  std::string raw;
  for (size_t i = 0; i < hex.size(); i += 2) {
    const int hi = nibble(hex[i]), lo = nibble(hex[i + 1]);
    if (hi < 0 || lo < 0) return std::nullopt;
    raw.push_back(static_cast<char>(hi * 16 + lo));
  }
  return raw;
}

std::optional<std::string> BytesOfUuid(std::string_view text) {
  if (text.size() != 36) return std::nullopt;
  std::string hex;
  for (size_t i = 0; i < text.size(); ++i) {
    const bool dash_here = i == 8 || i == 13 || i == 18 || i == 23;
    if (dash_here != (text[i] == '-')) return std::nullopt;
    if (!dash_here) hex.push_back(text[i]);
  }
  return BytesOfHex(hex);
}

std::string DateText(int64_t epoch_day) {
  const CivilDay d = CivilOf(epoch_day);
  std::string year;
  if (d.year < 0) {
    year = fmt::format("-{:04}", -d.year);
  } else if (d.year > 9999) {
    year = fmt::format("+{:04}", d.year);
  } else {
    year = fmt::format("{:04}", d.year);
  }
  return fmt::format("{}-{:02}-{:02}", year, d.month, d.day);
}

/// "HH:MM:SS." and `digits` fraction digits of `units` (10^-digits seconds) into a day.
std::string ClockText(int64_t units, int digits) {
  const int64_t per_second = static_cast<int64_t>(TenTo(digits));
  const int64_t seconds = units / per_second;
  return fmt::format("{:02}:{:02}:{:02}.{:0{}}", seconds / 3600, seconds / 60 % 60,
                     seconds % 60, units % per_second, digits);
}

std::string TimestampText(int64_t units, int digits) {
  const int64_t per_day = kSecondsInDay * static_cast<int64_t>(TenTo(digits));
  const int64_t day = Floor(units, per_day);
  return DateText(day) + "T" + ClockText(units - day * per_day, digits);
}

bool IsZoned(TypeId t) { return t == TypeId::kTimestampTz || t == TypeId::kTimestampTzNs; }
int FractionDigits(TypeId t) {
  return t == TypeId::kTimestampNs || t == TypeId::kTimestampTzNs ? 9 : 6;
}

}  // namespace

bool IsLeapYear(int64_t year) {
  return year % 400 == 0 || (year % 4 == 0 && year % 100 != 0);
}

int DaysInMonthOf(int64_t year, int month) {
  static constexpr int kLength[12] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  return kLength[month - 1] + (month == 2 && IsLeapYear(year) ? 1 : 0);
}

int64_t EpochDay(const CivilDay& d) {
  int64_t day = YearStart(d.year) - YearStart(1970);
  for (int m = 1; m < d.month; ++m) day += DaysInMonthOf(d.year, m);
  return day + d.day - 1;
}

CivilDay CivilOf(int64_t epoch_day) {
  const int64_t from_zero = epoch_day + YearStart(1970);
  // A guess from the mean year, then corrected by whole years.
  int64_t year = static_cast<int64_t>(std::floor(static_cast<double>(from_zero) / 365.2425));
  while (YearStart(year) > from_zero) --year;
  while (YearStart(year + 1) <= from_zero) ++year;
  CivilDay d{year, 1, 1};
  int64_t left = from_zero - YearStart(year);
  while (left >= DaysInMonthOf(year, d.month)) left -= DaysInMonthOf(year, d.month++);
  d.day = static_cast<int>(left) + 1;
  return d;
}

bool DateWritable(int64_t epoch_day) {
  return epoch_day >= EpochDay(CivilDay{-kYearLimit, 1, 1}) &&
         epoch_day <= EpochDay(CivilDay{kYearLimit, 12, 31});
}

std::optional<Decimal> DecimalOfText(std::string_view text) {
  Cursor c{text};
  bool minus = false;
  if (c.Take('-')) {
    minus = true;
  } else {
    c.Take('+');
  }
  std::string digits = c.Run();
  int64_t scale = 0;
  if (c.Take('.')) {
    const std::string fraction = c.Run();
    digits += fraction;
    scale = static_cast<int64_t>(fraction.size());
  }
  if (digits.empty()) return std::nullopt;
  if (c.Take('e') || c.Take('E')) {
    bool down = false;
    if (c.Take('-')) {
      down = true;
    } else {
      c.Take('+');
    }
    const std::string exponent = c.Run();
    if (exponent.empty()) return std::nullopt;
    int64_t e = 0;
    for (char ch : exponent) {
      if (e > 100'000) return std::nullopt;  // far beyond any representable scale
      e = e * 10 + (ch - '0');
    }
    scale += down ? e : -e;
  }
  if (!c.Done()) return std::nullopt;
  digits.erase(0, std::min(digits.find_first_not_of('0'), digits.size()));
  while (digits.size() > static_cast<size_t>(kMaxDigits) && digits.back() == '0') {
    digits.pop_back();
    --scale;
  }
  if (digits.size() > static_cast<size_t>(kMaxDigits)) return std::nullopt;
  if (std::abs(scale) > 1000) {
    if (!digits.empty()) return std::nullopt;
    scale = 0;
  }
  Decimal d;
  for (char ch : digits) d.unscaled = d.unscaled * 10 + (ch - '0');
  if (minus) d.unscaled = -d.unscaled;
  d.scale = static_cast<int32_t>(scale);
  return d;
}

std::optional<Decimal> Rescaled(const Decimal& d, int32_t precision, int32_t scale) {
  if (precision < 1 || precision > kMaxDigits || scale < 0 || scale > precision)
    return std::nullopt;
  if (d.unscaled == 0) return Decimal{0, scale};
  const Int128 bound = TenTo(precision);
  Int128 u = d.unscaled;
  const int64_t shift = int64_t{scale} - d.scale;
  if (shift > kMaxDigits || shift < -kMaxDigits) return std::nullopt;
  if (shift > 0) {
    const Int128 f = TenTo(static_cast<int>(shift));
    if (Magnitude(u) > (bound - 1) / f) return std::nullopt;
    u *= f;
  } else if (shift < 0) {
    const Int128 f = TenTo(static_cast<int>(-shift));
    if (u % f != 0) return std::nullopt;
    u /= f;
  }
  if (Magnitude(u) >= bound) return std::nullopt;
  return Decimal{u, scale};
}

std::string DecimalText(const Decimal& d) {
  std::string digits;
  for (Int128 m = Magnitude(d.unscaled); m != 0; m /= 10)
    digits.insert(digits.begin(), static_cast<char>('0' + static_cast<int>(m % 10)));
  if (digits.empty()) digits = "0";
  const std::string sign = d.unscaled < 0 ? "-" : "";
  if (d.scale <= 0) {
    if (d.unscaled != 0) digits.append(static_cast<size_t>(-d.scale), '0');
    return sign + digits;
  }
  const size_t scale = static_cast<size_t>(d.scale);
  if (digits.size() <= scale) digits.insert(0, scale + 1 - digits.size(), '0');
  return sign + digits.substr(0, digits.size() - scale) + "." +
         digits.substr(digits.size() - scale);
}

std::string HexText(std::string_view raw) {
  std::string out;
  for (unsigned char b : raw) out += fmt::format("{:02x}", b);
  return out;
}

std::optional<Value> ValueOfText(const Type& type, std::string_view text) {
  switch (type.id) {
    case TypeId::kDate: {
      Cursor c{text};
      auto day = ReadDate(c);
      if (!day || !c.Done()) return std::nullopt;
      return Value::Long(*day);
    }
    case TypeId::kTime: {
      Cursor c{text};
      auto nanos = ReadTimeOfDay(c);
      if (!nanos || !c.Done() || *nanos % 1000 != 0) return std::nullopt;
      return Value::Long(*nanos / 1000);
    }
    case TypeId::kTimestamp:
    case TypeId::kTimestampTz:
    case TypeId::kTimestampNs:
    case TypeId::kTimestampTzNs: {
      auto units = ReadTimestamp(text, IsZoned(type.id), FractionDigits(type.id));
      if (!units) return std::nullopt;
      return Value::Long(*units);
    }
    case TypeId::kDecimal: {
      auto d = DecimalOfText(text);
      if (!d) return std::nullopt;
      auto fitted = Rescaled(*d, type.precision, type.scale);
      if (!fitted) return std::nullopt;
      return Value::DecimalOf(fitted->unscaled, fitted->scale);
    }
    case TypeId::kUuid:
    case TypeId::kFixed:
    case TypeId::kBinary: {
      auto raw = type.id == TypeId::kUuid ? BytesOfUuid(text) : BytesOfHex(text);
      if (!raw) return std::nullopt;
      if (type.id == TypeId::kFixed && static_cast<int64_t>(raw->size()) != type.length)
        return std::nullopt;
      return Value::Bytes(std::move(*raw));
    }
    case TypeId::kString:
    case TypeId::kGeometry:
    case TypeId::kGeography:
      return Value::String(std::string(text));
    case TypeId::kFloat:
    case TypeId::kDouble: {
      constexpr double kInf = std::numeric_limits<double>::infinity();
      if (text == "NaN") return Value::Double(std::numeric_limits<double>::quiet_NaN());
      if (text == "Infinity") return Value::Double(kInf);
      if (text == "-Infinity") return Value::Double(-kInf);
      return std::nullopt;
    }
    default:
      return std::nullopt;
  }
}

std::optional<std::string> TextOfValue(const Type& type, const Value& value) {
  const ValueKind k = value.kind;
  switch (type.id) {
    case TypeId::kDate:
      if (k != ValueKind::kLong || !DateWritable(value.as_long())) return std::nullopt;
      return DateText(value.as_long());
    case TypeId::kTime:
      if (k != ValueKind::kLong || value.as_long() < 0 ||
          value.as_long() >= kSecondsInDay * 1'000'000)
        return std::nullopt;
      return ClockText(value.as_long(), 6);
    case TypeId::kTimestamp:
    case TypeId::kTimestampTz:
    case TypeId::kTimestampNs:
    case TypeId::kTimestampTzNs:
      if (k != ValueKind::kLong) return std::nullopt;
      return TimestampText(value.as_long(), FractionDigits(type.id)) +
             (IsZoned(type.id) ? "+00:00" : "");
    case TypeId::kDecimal: {
      if (k != ValueKind::kDecimal) return std::nullopt;
      auto fitted = Rescaled(value.as_decimal(), type.precision, type.scale);
      if (!fitted) return std::nullopt;
      return DecimalText(*fitted);
    }
    case TypeId::kUuid: {
      if (k != ValueKind::kBytes || value.as_string().size() != 16) return std::nullopt;
      const std::string h = HexText(value.as_string());
      return fmt::format("{}-{}-{}-{}-{}", h.substr(0, 8), h.substr(8, 4), h.substr(12, 4),
                         h.substr(16, 4), h.substr(20));
    }
    case TypeId::kFixed:
    case TypeId::kBinary:
      if (k != ValueKind::kBytes) return std::nullopt;
      if (type.id == TypeId::kFixed &&
          static_cast<int64_t>(value.as_string().size()) != type.length)
        return std::nullopt;
      return HexText(value.as_string());
    case TypeId::kString:
    case TypeId::kGeometry:
    case TypeId::kGeography:
      if (k != ValueKind::kString) return std::nullopt;
      return value.as_string();
    case TypeId::kFloat:
    case TypeId::kDouble:
      if (k != ValueKind::kDouble || std::isfinite(value.as_double())) return std::nullopt;
      if (std::isnan(value.as_double())) return std::string("NaN");
      return std::string(value.as_double() > 0 ? "Infinity" : "-Infinity");
    default:
      return std::nullopt;
  }
}

}  // namespace ictk::sample
