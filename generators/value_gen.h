/// \file
/// RapidCheck generators for single values and rows (Iceberg Appendix D) with the edges
/// that break implementations: null, NaN, -0.0, +-infinity, extreme ints and longs,
/// decimals at maximum precision and scale, empty, long and non-ASCII strings, timestamps
/// at precision boundaries, and equal values spelled differently (a timestamptz written
/// with another zone offset denotes the same instant).
///
/// Two forms: a *typed* value is what the model holds (value.h: a date is a day count);
/// the *request form* is what a protocol request carries before binding (a date is the
/// string "2017-11-16", a decimal its string, bytes hex), so that the codec writes the
/// Appendix D JSON without knowing the schema. Rows in generated requests are in request
/// form.
#pragma once

#include <rapidcheck.h>

#include <cstdint>
#include <mutex>
#include <vector>

#include "model/iceberg/types.h"
#include "model/iceberg/value.h"

namespace ictk {

struct ValueGenOptions {
  int null_percent = 15;  ///< chance of null for an optional field
  int edge_percent = 30;  ///< chance of an edge value rather than an ordinary one
  /// Draw from a tiny domain (0..3, "a"/"b"/"A", ...) so that keys collide and checks
  /// with small literals break often.
  bool small_domain = false;
  /// Write some values in another spelling of the same value (timestamptz offsets).
  bool respell = true;
};

/// A typed value of `type` (kStruct values keyed by field ID). `required`: never null.
rc::Gen<Value> GenTypedValue(const Type& type, bool required,
                             const ValueGenOptions& options);

/// The request form of a value of `type` (see the file comment).
rc::Gen<Value> GenValue(const Type& type, bool required, const ValueGenOptions& options);

/// Converts a typed value to its request form; `respell` writes a timestamptz with a
/// +01:00 offset (the same instant).
Value ToRequestForm(const Value& typed, const Type& type, bool respell = false);

/// A row's values in request form for `fields` (a kStruct keyed by top-level field ID).
rc::Gen<Value> GenRowValues(const std::vector<NestedField>& fields,
                            const ValueGenOptions& options);

/// The edge values of a primitive type (typed), for tests and for targeted generators.
std::vector<Value> EdgeValues(const Type& type);

/// RapidCheck keeps its generation context in process-wide state, so generating,
/// rendering and walking shrink trees from several threads (`certify --jobs`) takes this
/// lock. Sample and HistoryRenderer::Next take it themselves.
std::recursive_mutex& RapidCheckMutex();

/// Samples a generator deterministically: the value of `gen` for `seed` at `size`.
/// Generation failures yield nullopt. Takes RapidCheckMutex().
template <typename T>
std::optional<T> Sample(const rc::Gen<T>& gen, uint64_t seed, int size) {
  std::lock_guard<std::recursive_mutex> lock(RapidCheckMutex());
  try {
    return gen(rc::Random(seed), size).value();
  } catch (...) {
    return std::nullopt;
  }
}

}  // namespace ictk
