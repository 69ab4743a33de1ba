/// \file
/// Appendix D text of dates, times and timestamps: dates are days from 1970-01-01, times
/// micros from midnight, timestamps micros (or nanos for the _ns types) from the epoch in
/// UTC.
#include <limits>
#include <string>
#include <string_view>

#include "model/iceberg/value_parse_internal.h"

namespace ictk::internal {

namespace {

/// Dates from -999999-01-01 to +999999-12-31 (beyond Java's LocalDate range is rejected).
constexpr int64_t kMaxYear = 999'999;

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

std::string Pad(int64_t v, int width) {
  std::string s = std::to_string(v);
  if (static_cast<int>(s.size()) < width) s.insert(0, width - s.size(), '0');
  return s;
}

}  // namespace

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

/// Days of the supported date range (years -999999..999999).
bool DateInRange(int64_t days) {
  return days >= DaysFromCivil(-kMaxYear, 1, 1) &&
         days <= DaysFromCivil(kMaxYear, 12, 31);
}

}  // namespace ictk::internal
