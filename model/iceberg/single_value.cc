/// \file
/// Unusual single values of a request (single_value.h).
#include "model/iceberg/single_value.h"

#include <fmt/format.h>

#include <cmath>
#include <cstdint>
#include <limits>

#include "model/iceberg/time_units_internal.h"
#include "model/iceberg/value_parse.h"

namespace ictk {

namespace {

using internal::FloorDiv;

constexpr int64_t kDayMicros = 86'400'000'000LL;
constexpr int64_t kDayNanos = 86'400'000'000'000LL;
constexpr int64_t kFirstDayOfYear1 = -719'162;     // 0001-01-01
constexpr int64_t kFirstDayOfYear9999 = 2'932'532;  // 9999-01-01
constexpr int64_t kFirstDayOfYear1679 = -106'285;   // 1679-01-01
constexpr int64_t kFirstDayOfYear2261 = 106'286;    // 2261-01-01
constexpr int64_t kLastSecondOfDayMicros = 86'399'000'000LL;  // 23:59:59
constexpr int64_t kExactInDouble = int64_t{1} << 53;

std::string FourDigitYearEdge(int64_t days) {
  if (days < kFirstDayOfYear1) return "a year before 0001";
  if (days >= kFirstDayOfYear9999) return "in year 9999 or later";
  return {};
}

std::string NanosYearEdge(int64_t nanos) {
  const int64_t days = FloorDiv(nanos, kDayNanos);
  if (days < kFirstDayOfYear1679) return "in year 1678 or earlier";
  if (days >= kFirstDayOfYear2261) return "in year 2261 or later";
  return {};
}

/// The extreme a bound (typed) primitive value sits at, or "".
std::string Extreme(const Value& v, const Type& type) {
  switch (type.id) {
    case TypeId::kInt:
      if (v.kind != ValueKind::kLong) return {};
      if (v.as_long() == std::numeric_limits<int32_t>::min()) return "INT32_MIN";
      if (v.as_long() == std::numeric_limits<int32_t>::max()) return "INT32_MAX";
      return {};
    case TypeId::kLong:
      if (v.kind != ValueKind::kLong) return {};
      if (v.as_long() > kExactInDouble || v.as_long() < -kExactInDouble)
        return "a long beyond +-2^53";
      return {};
    case TypeId::kFloat:
    case TypeId::kDouble: {
      if (v.kind != ValueKind::kDouble) return {};
      const double d = v.as_double();
      const double big = type.id == TypeId::kFloat ? 1e38 : 1e300;
      const double tiny = type.id == TypeId::kFloat
                              ? static_cast<double>(std::numeric_limits<float>::min())
                              : std::numeric_limits<double>::min();
      if (std::isnan(d)) return "NaN";
      if (std::isinf(d)) return "an infinity";
      if (d == 0 && std::signbit(d)) return "-0.0";
      if (std::fabs(d) >= big) return "a magnitude near the type's maximum";
      if (d != 0 && std::fabs(d) < tiny) return "a subnormal";
      return {};
    }
    case TypeId::kDecimal: {
      if (v.kind != ValueKind::kDecimal) return {};
      Int128 u = v.as_decimal().unscaled;
      if (u < 0) u = -u;
      int digits = 0;
      while (u > 0) {
        u /= 10;
        ++digits;
      }
      return digits > 18 ? "a decimal of more than 18 digits" : std::string();
    }
    case TypeId::kDate:
      return v.kind == ValueKind::kLong ? FourDigitYearEdge(v.as_long()) : std::string();
    case TypeId::kTimestamp:
    case TypeId::kTimestampTz:
      return v.kind == ValueKind::kLong ? FourDigitYearEdge(FloorDiv(v.as_long(), kDayMicros))
                                        : std::string();
    case TypeId::kTimestampNs:
    case TypeId::kTimestampTzNs:
      return v.kind == ValueKind::kLong ? NanosYearEdge(v.as_long()) : std::string();
    case TypeId::kTime:
      return v.kind == ValueKind::kLong && v.as_long() >= kLastSecondOfDayMicros
                 ? "23:59:59 or later"
                 : std::string();
    case TypeId::kString: {
      if (v.kind != ValueKind::kString) return {};
      const std::string& s = v.as_string();
      if (s.size() > 255) return "a string longer than 255 bytes";
      for (char c : s)
        if (static_cast<unsigned char>(c) >= 0x80) return "a string with non-ASCII bytes";
      return {};
    }
    case TypeId::kBinary:
    case TypeId::kFixed: {
      if (v.kind != ValueKind::kBytes) return {};
      const size_t n = v.as_string().size();
      if (n == 0) return "empty bytes";
      if (n > 255) return "more than 255 bytes";
      return {};
    }
    default:
      return {};
  }
}

/// `bound`: `v` is the model's typed value (only the extremes count), else a value in
/// request form (its spelling counts too).
void Collect(const Value& v, const Type& type, const std::string& where, bool bound,
             std::vector<std::string>& out) {
  if (v.is_null()) return;
  switch (type.id) {
    case TypeId::kStruct:
      if (v.kind != ValueKind::kStruct) return;
      for (const NestedField& f : type.fields)
        if (const Value* child = v.FindField(f.id))
          Collect(*child, f.type, fmt::format("field {}", f.id), bound, out);
      return;
    case TypeId::kList:
      if (v.kind != ValueKind::kList) return;
      for (const Value& e : v.children)
        Collect(e, type.element(), fmt::format("{} element", where), bound, out);
      return;
    case TypeId::kMap: {
      if (v.kind != ValueKind::kMap) return;
      const size_t n = v.children.size() / 2;
      for (size_t i = 0; i < n; ++i) {
        Collect(v.children[i], type.key(), fmt::format("{} key", where), bound, out);
        Collect(v.children[n + i], type.value(), fmt::format("{} value", where), bound,
                out);
      }
      return;
    }
    default: {
      std::string why = bound ? Extreme(v, type) : UnusualSingleValue(v, type);
      if (!why.empty()) out.push_back(fmt::format("{}: {}", where, why));
    }
  }
}

}  // namespace

std::string UnusualSingleValue(const Value& request_form, const Type& type) {
  if (request_form.is_null()) return {};
  std::optional<Value> typed = BindLiteral(request_form, type);
  if (!typed) return {};
  std::string extreme = Extreme(*typed, type);
  if (request_form.kind == ValueKind::kString) {
    std::optional<std::string> canonical = FormatValueString(type, *typed);
    if (canonical && *canonical != request_form.as_string()) {
      std::string spelled =
          fmt::format("\"{}\" (canonically \"{}\")", request_form.as_string(), *canonical);
      return extreme.empty() ? spelled : fmt::format("{}, {}", spelled, extreme);
    }
    if (!extreme.empty()) return fmt::format("\"{}\", {}", request_form.as_string(), extreme);
    return {};
  }
  if (!extreme.empty()) return fmt::format("{}, {}", ToString(request_form), extreme);
  return {};
}

std::vector<std::string> UnusualSingleValues(const Value& row,
                                             const std::vector<NestedField>& fields) {
  std::vector<std::string> out;
  if (row.kind != ValueKind::kStruct) return out;
  for (const NestedField& f : fields)
    if (const Value* v = row.FindField(f.id))
      Collect(*v, f.type, fmt::format("field {}", f.id), /*bound=*/false, out);
  return out;
}

std::vector<std::string> UnusualBoundValues(const Value& bound, const Type& type,
                                            const std::string& where) {
  std::vector<std::string> out;
  Collect(bound, type, where, /*bound=*/true, out);
  return out;
}

}  // namespace ictk
