/// \file
/// Appendix D text of decimals: exact 128-bit unscaled integers with a scale, read from
/// "[+-]digits[.digits][(e|E)[+-]digits]", rescaled to a type's precision and scale.
#include <string>
#include <string_view>

#include "model/iceberg/decimal_internal.h"
#include "model/iceberg/value_parse_internal.h"

namespace ictk::internal {

/// 10^n for 0 <= n <= 38 (10^38 < 2^127).
Int128 Pow10(int n) {
  Int128 r = 1;
  for (int i = 0; i < n; ++i) r *= 10;
  return r;
}

Int128 Abs128(Int128 v) { return v < 0 ? -v : v; }

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

}  // namespace ictk::internal
