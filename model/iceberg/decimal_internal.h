/// \file
/// Small exact helpers for 128-bit decimal values (value.h `Decimal`), shared by
/// value.cc, value_compare.cc and evaluate.cc: printing, normalization and three-way
/// comparison by value.
#pragma once

#include <cstdint>
#include <string>

#include "model/iceberg/value.h"

namespace ictk::internal {

/// Decimal digits of a 128-bit integer, with a leading '-' when negative.
inline std::string Int128ToString(Int128 v) {
  if (v == 0) return "0";
  const bool negative = v < 0;
  // Work on the magnitude as unsigned so that the minimum value does not overflow.
  unsigned __int128 m =
      negative ? -static_cast<unsigned __int128>(v) : static_cast<unsigned __int128>(v);
  std::string digits;
  while (m > 0) {
    digits.insert(digits.begin(), static_cast<char>('0' + static_cast<int>(m % 10)));
    m /= 10;
  }
  return negative ? "-" + digits : digits;
}

/// "14.20" for {1420, 2}; "-0.05" for {-5, 2}; "1200" for {12, -2}.
inline std::string DecimalToString(const Decimal& d) {
  std::string digits = Int128ToString(d.unscaled);
  const bool negative = !digits.empty() && digits[0] == '-';
  if (negative) digits.erase(0, 1);
  if (d.scale <= 0) {
    if (d.unscaled != 0) digits.append(static_cast<size_t>(-d.scale), '0');
    return (negative ? "-" : "") + digits;
  }
  const auto scale = static_cast<size_t>(d.scale);
  if (digits.size() <= scale) digits.insert(0, scale - digits.size() + 1, '0');
  digits.insert(digits.size() - scale, ".");
  return (negative ? "-" : "") + digits;
}

/// The same value with trailing zeros of the unscaled integer removed (scale may go
/// negative); zero becomes {0, 0}. Equal values normalize to identical pairs.
inline Decimal NormalizeDecimal(Decimal d) {
  if (d.unscaled == 0) return Decimal{0, 0};
  while (d.unscaled % 10 == 0) {
    d.unscaled /= 10;
    --d.scale;
  }
  return d;
}

/// Three-way comparison of two decimals by value (after aligning scale), exact.
inline int CompareDecimals(const Decimal& a, const Decimal& b) {
  auto sign = [](Int128 x) { return x < 0 ? -1 : (x > 0 ? 1 : 0); };
  const int sa = sign(a.unscaled);
  const int sb = sign(b.unscaled);
  if (sa != sb) return sa < sb ? -1 : 1;
  if (sa == 0) return 0;
  Decimal x = NormalizeDecimal(a);
  Decimal y = NormalizeDecimal(b);
  // Scale the one with fewer fractional digits up; when that would overflow, its
  // magnitude is larger than the other's (both magnitudes fit in 128 bits).
  const bool swap = x.scale > y.scale;
  if (swap) std::swap(x, y);
  Int128 up = x.unscaled;
  bool overflow = false;
  for (int32_t s = x.scale; s < y.scale; ++s) {
    if (__builtin_mul_overflow(up, static_cast<Int128>(10), &up)) {
      overflow = true;
      break;
    }
  }
  int result;
  if (overflow) {
    result = sa;  // |x| > |y|, so x > y when positive and x < y when negative
  } else {
    result = up < y.unscaled ? -1 : (up > y.unscaled ? 1 : 0);
  }
  return swap ? -result : result;
}

}  // namespace ictk::internal
