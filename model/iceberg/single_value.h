/// \file
/// ice.single-value: which single values of a request sit at a type extreme or are spelled
/// in an unusual (yet legal) Appendix D form. The judge files a refusal of a request the
/// model judges well-formed under ice.single-value, not under the rule of the request,
/// when the request carries such a value (docs/protocol.md section 10), so that an
/// expectation file can mark "cannot read this legal value" apart from a constraint bug.
#pragma once

#include <string>
#include <vector>

#include "model/iceberg/types.h"
#include "model/iceberg/value.h"

namespace ictk {

/// Why one primitive value in request form (value.h: a date is its string, a decimal its
/// string, bytes hex) of `type` is unusual, or "" when it is ordinary or does not bind to
/// `type` at all (then the request is malformed, not unusual). The criterion
/// (docs/protocol.md section 10):
/// - spelled otherwise than its canonical Appendix D form (a timestamptz at another
///   offset, an upper-case uuid, a decimal with fewer fraction digits);
/// - int at INT32_MIN or INT32_MAX; long beyond +-2^53 (not exact as a JSON double);
/// - float/double NaN, infinite, -0.0, subnormal, or beyond 1e38 (float) / 1e300 (double);
/// - decimal with more than 18 digits;
/// - date / timestamp / timestamptz in year 0 or before, or in year 9999 or after (the
///   edges of the four-digit year); the _ns types in year 1678 or before or 2261 or
///   after (the edges of a 64-bit nanosecond count); time at 23:59:59 or later;
/// - string with a byte outside ASCII or longer than 255 bytes; binary or fixed that is
///   empty or longer than 255 bytes.
std::string UnusualSingleValue(const Value& request_form, const Type& type);

/// Every unusual value of a row in request form (a kStruct keyed by field ID) under
/// `fields`, nested values included, as "field N: why"; empty when none.
std::vector<std::string> UnusualSingleValues(const Value& row,
                                             const std::vector<NestedField>& fields);

/// Why a value already bound to `type` (the model's form of a live row's field: a date
/// its day count, a decimal its unscaled value), nested values included, sits at a type
/// extreme by the criterion above, as "field N: why"; empty when it does not. A bound
/// value has no spelling, so only the extremes count: what a scan answer must write back
/// (ice.single-value/writes).
std::vector<std::string> UnusualBoundValues(const Value& bound, const Type& type,
                                            const std::string& where);

}  // namespace ictk
