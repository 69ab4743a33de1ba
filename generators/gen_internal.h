/// \file
/// Helpers shared by the generators (not installed). RapidCheck scales `gen::inRange` by
/// the size, so at small sizes only the low end of a range is drawn; choices between
/// variants (which kind of step, which flavour, whether a value is null) must not depend
/// on the size, or a shrunk history would lose them.
#pragma once

#include <rapidcheck.h>

namespace ictk {

/// A value in [min, max), uniform whatever the size.
template <typename T>
rc::Gen<T> Uniform(T min, T max) {
  return rc::gen::resize(rc::kNominalSize, rc::gen::inRange<T>(min, max));
}

}  // namespace ictk
