/// \file
/// The clock the certification run, its cases and the history runner time themselves with
/// (not installed).
#pragma once

#include <chrono>

namespace ictk::internal {

using Clock = std::chrono::steady_clock;

/// Milliseconds from `start` to now.
inline double MillisSince(Clock::time_point start) {
  return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

}  // namespace ictk::internal
