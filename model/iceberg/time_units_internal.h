/// \file
/// The units of Iceberg's date, time and timestamp values (not installed), shared by
/// Appendix D parsing (value_parse_internal.h) and check-expression evaluation
/// (evaluate_internal.h).
#pragma once

#include <cstdint>

namespace ictk::internal {

constexpr int64_t kMicrosPerSecond = 1'000'000;
constexpr int64_t kNanosPerSecond = 1'000'000'000;
constexpr int64_t kNanosPerMicro = 1000;
constexpr int64_t kSecondsPerDay = 86'400;
constexpr int64_t kMicrosPerHour = 3'600 * kMicrosPerSecond;
constexpr int64_t kMicrosPerDay = kSecondsPerDay * kMicrosPerSecond;

/// a / b rounded towards negative infinity (b != 0): the day, hour or unit a negative
/// count of smaller units falls in.
inline int64_t FloorDiv(int64_t a, int64_t b) {
  int64_t q = a / b;
  if ((a % b != 0) && ((a < 0) != (b < 0))) --q;
  return q;
}

}  // namespace ictk::internal
