/// \file
/// Appendix D string forms (SURROUNDINGS.md "Single values in JSON") and literal binding,
/// by type family: the forms of dates, times and timestamps are in value_temporal.cc, of
/// decimals in value_decimal.cc, of binary, fixed and uuid in value_bytes.cc.
/// Dates are days from 1970-01-01, times micros from midnight, timestamps micros (or
/// nanos for the _ns types) from the epoch in UTC; decimals are exact 128-bit unscaled
/// integers.
#include "model/iceberg/value_parse.h"

#include <charconv>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <string_view>

#include "model/iceberg/value_parse_internal.h"
#include "model/iceberg/kinds.h"

namespace ictk {
namespace {

using namespace internal;

bool FitsInt32(int64_t v) {
  return v >= std::numeric_limits<int32_t>::min() &&
         v <= std::numeric_limits<int32_t>::max();
}

bool FloatInRange(double v) {
  return !std::isfinite(v) || std::fabs(v) <= std::numeric_limits<float>::max();
}

/// The shortest text that reads back as `v` (what Java's Double.toString gives in value).
std::string ShortestDouble(double v) {
  char buf[64];
  auto res = std::to_chars(buf, buf + sizeof(buf), v);
  return std::string(buf, res.ptr);
}

/// A literal bound to float or double: a double, an integer exact in the type, or
/// Appendix D text (NaN, Infinity).
std::optional<Value> BindFloatingLiteral(const Value& literal, const Type& type) {
  double d = 0;
  if (literal.kind == ValueKind::kDouble) {
    d = literal.as_double();
  } else if (literal.kind == ValueKind::kLong) {
    // Exact only within the type's integer-exact range (2^24 / 2^53).
    const int64_t limit =
        type.id == TypeId::kFloat ? (int64_t{1} << 24) : (int64_t{1} << 53);
    if (literal.as_long() > limit || literal.as_long() < -limit) return std::nullopt;
    d = static_cast<double>(literal.as_long());
  } else if (literal.kind == ValueKind::kString) {
    return ParseValueString(type, literal.as_string());
  } else {
    return std::nullopt;
  }
  if (type.id == TypeId::kFloat) {
    // As Iceberg's DoubleLiteral.to(FloatType): in range, rounded to the nearest
    // float.
    if (!FloatInRange(d)) return std::nullopt;
    d = static_cast<double>(static_cast<float>(d));
  }
  return Value::Double(d);
}

/// A literal bound to a decimal type: a decimal, an integer, a finite double (by its
/// shortest text) or decimal text, rescaled to the type.
std::optional<Value> BindDecimalLiteral(const Value& literal, const Type& type) {
  Decimal d;
  if (literal.kind == ValueKind::kDecimal) {
    d = literal.as_decimal();
  } else if (literal.kind == ValueKind::kLong) {
    d = Decimal{literal.as_long(), 0};
  } else if (literal.kind == ValueKind::kDouble) {
    if (!std::isfinite(literal.as_double())) return std::nullopt;
    if (!ParseDecimalText(ShortestDouble(literal.as_double()), d))
      return std::nullopt;
  } else if (literal.kind == ValueKind::kString) {
    if (!ParseDecimalText(literal.as_string(), d)) return std::nullopt;
  } else {
    return std::nullopt;
  }
  auto fitted = FitDecimal(d, type.precision, type.scale);
  if (!fitted) return std::nullopt;
  return Value::DecimalOf(fitted->unscaled, fitted->scale);
}

/// ValueFitsType of a non-null struct, list or map value.
bool NestedValueFitsType(const Value& value, const Type& type) {
  switch (type.id) {
    case TypeId::kStruct: {
      if (value.kind != ValueKind::kStruct ||
          value.field_ids.size() != value.children.size())
        return false;
      // Every value ID names a field of the type, at most once.
      for (size_t i = 0; i < value.field_ids.size(); ++i) {
        bool known = false;
        for (const auto& f : type.fields) known = known || f.id == value.field_ids[i];
        if (!known) return false;
        for (size_t j = 0; j < i; ++j)
          if (value.field_ids[j] == value.field_ids[i]) return false;
      }
      for (const auto& f : type.fields) {
        const Value* child = value.FindField(f.id);
        if (child == nullptr || child->is_null()) {
          if (f.required) return false;
          continue;
        }
        if (!ValueFitsType(*child, f.type)) return false;
      }
      return true;
    }
    case TypeId::kList: {
      if (value.kind != ValueKind::kList || type.children.size() != 1) return false;
      for (const auto& e : value.children) {
        if (e.is_null()) {
          if (type.element_required) return false;
        } else if (!ValueFitsType(e, type.element())) {
          return false;
        }
      }
      return true;
    }
    case TypeId::kMap: {
      if (value.kind != ValueKind::kMap || type.children.size() != 2 ||
          value.children.size() % 2 != 0)
        return false;
      const size_t n = value.children.size() / 2;
      for (size_t i = 0; i < n; ++i) {
        const Value& k = value.children[i];
        const Value& v = value.children[n + i];
        if (k.is_null() || !ValueFitsType(k, type.key())) return false;
        if (v.is_null()) {
          if (type.value_required) return false;
        } else if (!ValueFitsType(v, type.value())) {
          return false;
        }
      }
      return true;
    }
    default:
      return false;
  }
}

}  // namespace

std::optional<Value> ParseValueString(const Type& type, std::string_view text) {
  switch (type.id) {
    case TypeId::kDate: {
      size_t pos = 0;
      int64_t days = 0;
      if (!ParseDatePart(text, pos, days) || pos != text.size()) return std::nullopt;
      return Value::Long(days);
    }
    case TypeId::kTime: {
      size_t pos = 0;
      int64_t nanos = 0;
      if (!ParseTimePart(text, pos, nanos) || pos != text.size()) return std::nullopt;
      if (nanos % 1000 != 0) return std::nullopt;  // more precision than micros
      return Value::Long(nanos / 1000);
    }
    case TypeId::kTimestamp:
    case TypeId::kTimestampTz:
    case TypeId::kTimestampNs:
    case TypeId::kTimestampTzNs: {
      const bool tz =
          type.id == TypeId::kTimestampTz || type.id == TypeId::kTimestampTzNs;
      const bool ns =
          type.id == TypeId::kTimestampNs || type.id == TypeId::kTimestampTzNs;
      Int128 nanos = 0;
      if (!ParseDateTime(text, tz, nanos)) return std::nullopt;
      auto v = FromNanos(nanos, ns ? kNanosPerSecond : kMicrosPerSecond);
      if (!v) return std::nullopt;
      return Value::Long(*v);
    }
    case TypeId::kDecimal: {
      Decimal d;
      if (!ParseDecimalText(text, d)) return std::nullopt;
      auto fitted = FitDecimal(d, type.precision, type.scale);
      if (!fitted) return std::nullopt;
      return Value::DecimalOf(fitted->unscaled, fitted->scale);
    }
    case TypeId::kUuid: {
      auto raw = ParseUuid(text);
      if (!raw) return std::nullopt;
      return Value::Bytes(*raw);
    }
    case TypeId::kFixed: {
      auto raw = ParseHex(text);
      if (!raw || static_cast<int64_t>(raw->size()) != type.length) return std::nullopt;
      return Value::Bytes(*raw);
    }
    case TypeId::kBinary: {
      auto raw = ParseHex(text);
      if (!raw) return std::nullopt;
      return Value::Bytes(*raw);
    }
    case TypeId::kString:
    case TypeId::kGeometry:
    case TypeId::kGeography:
      return Value::String(std::string(text));
    case TypeId::kFloat:
    case TypeId::kDouble:
      // ARCHITECTURE.md: NaN and infinities travel as these strings.
      if (text == "NaN") return Value::Double(std::numeric_limits<double>::quiet_NaN());
      if (text == "Infinity")
        return Value::Double(std::numeric_limits<double>::infinity());
      if (text == "-Infinity")
        return Value::Double(-std::numeric_limits<double>::infinity());
      return std::nullopt;
    default:
      return std::nullopt;
  }
}

std::optional<std::string> FormatValueString(const Type& type, const Value& value) {
  switch (type.id) {
    case TypeId::kDate:
      if (value.kind != ValueKind::kLong || !DateInRange(value.as_long()))
        return std::nullopt;
      return FormatDate(value.as_long());
    case TypeId::kTime:
      if (value.kind != ValueKind::kLong || value.as_long() < 0 ||
          value.as_long() >= kMicrosPerDay)
        return std::nullopt;
      return FormatTimeOfDay(value.as_long(), kMicrosPerSecond, 6);
    case TypeId::kTimestamp:
    case TypeId::kTimestampTz:
    case TypeId::kTimestampNs:
    case TypeId::kTimestampTzNs: {
      if (value.kind != ValueKind::kLong) return std::nullopt;
      const bool tz =
          type.id == TypeId::kTimestampTz || type.id == TypeId::kTimestampTzNs;
      const bool ns =
          type.id == TypeId::kTimestampNs || type.id == TypeId::kTimestampTzNs;
      std::string s = ns ? FormatTimestamp(value.as_long(), kNanosPerSecond, 9)
                         : FormatTimestamp(value.as_long(), kMicrosPerSecond, 6);
      if (tz) s += "+00:00";
      return s;
    }
    case TypeId::kDecimal: {
      if (value.kind != ValueKind::kDecimal) return std::nullopt;
      auto fitted = FitDecimal(value.as_decimal(), type.precision, type.scale);
      if (!fitted) return std::nullopt;
      return FormatDecimal(*fitted);
    }
    case TypeId::kUuid:
      if (value.kind != ValueKind::kBytes || value.as_string().size() != 16)
        return std::nullopt;
      return FormatUuid(value.as_string());
    case TypeId::kFixed:
    case TypeId::kBinary:
      if (value.kind != ValueKind::kBytes) return std::nullopt;
      if (type.id == TypeId::kFixed &&
          static_cast<int64_t>(value.as_string().size()) != type.length)
        return std::nullopt;
      return FormatHex(value.as_string());
    case TypeId::kString:
    case TypeId::kGeometry:
    case TypeId::kGeography:
      if (value.kind != ValueKind::kString) return std::nullopt;
      return value.as_string();
    case TypeId::kFloat:
    case TypeId::kDouble: {
      if (value.kind != ValueKind::kDouble) return std::nullopt;
      double d = value.as_double();
      if (std::isnan(d)) return std::string("NaN");
      if (std::isinf(d)) return std::string(d > 0 ? "Infinity" : "-Infinity");
      return std::nullopt;
    }
    default:
      return std::nullopt;
  }
}

std::optional<Value> BindLiteral(const Value& literal, const Type& type) {
  if (literal.is_null()) return literal;
  if (IsNested(type.id)) {
    return ValueFitsType(literal, type) ? std::optional<Value>(literal) : std::nullopt;
  }
  switch (type.id) {
    case TypeId::kBoolean:
      if (literal.kind == ValueKind::kBoolean) return literal;
      return std::nullopt;
    case TypeId::kInt:
      if (literal.kind == ValueKind::kLong && FitsInt32(literal.as_long()))
        return literal;
      return std::nullopt;
    case TypeId::kLong:
      if (literal.kind == ValueKind::kLong) return literal;
      return std::nullopt;
    case TypeId::kFloat:
    case TypeId::kDouble:
      return BindFloatingLiteral(literal, type);
    case TypeId::kDecimal:
      return BindDecimalLiteral(literal, type);
    case TypeId::kDate:
    case TypeId::kTime:
    case TypeId::kTimestamp:
    case TypeId::kTimestampTz:
    case TypeId::kTimestampNs:
    case TypeId::kTimestampTzNs:
      if (literal.kind == ValueKind::kString)
        return ParseValueString(type, literal.as_string());
      if (literal.kind == ValueKind::kLong && ValueFitsType(literal, type))
        return literal;
      return std::nullopt;
    case TypeId::kString:
      if (literal.kind == ValueKind::kString) return literal;
      return std::nullopt;
    case TypeId::kUuid:
    case TypeId::kFixed:
    case TypeId::kBinary:
      if (literal.kind == ValueKind::kString)
        return ParseValueString(type, literal.as_string());
      if (literal.kind == ValueKind::kBytes && ValueFitsType(literal, type))
        return literal;
      return std::nullopt;
    case TypeId::kGeometry:
    case TypeId::kGeography:
      if (literal.kind == ValueKind::kString || literal.kind == ValueKind::kBytes)
        return literal;
      return std::nullopt;
    case TypeId::kUnknown:
      return std::nullopt;  // only null, handled above
    case TypeId::kVariant:
      return literal;
    default:
      return std::nullopt;
  }
}

bool ValueFitsType(const Value& value, const Type& type) {
  if (value.is_null())
    return true;  // whether null is allowed is the enclosing field's rule
  switch (type.id) {
    case TypeId::kBoolean:
      return value.kind == ValueKind::kBoolean;
    case TypeId::kInt:
      return value.kind == ValueKind::kLong && FitsInt32(value.as_long());
    case TypeId::kLong:
    case TypeId::kTimestamp:
    case TypeId::kTimestampTz:
    case TypeId::kTimestampNs:
    case TypeId::kTimestampTzNs:
      return value.kind == ValueKind::kLong;
    case TypeId::kDate:
      return value.kind == ValueKind::kLong && DateInRange(value.as_long());
    case TypeId::kTime:
      return value.kind == ValueKind::kLong && value.as_long() >= 0 &&
             value.as_long() < kMicrosPerDay;
    case TypeId::kFloat:
      return value.kind == ValueKind::kDouble && FloatInRange(value.as_double());
    case TypeId::kDouble:
      return value.kind == ValueKind::kDouble;
    case TypeId::kDecimal: {
      if (value.kind != ValueKind::kDecimal) return false;
      const Decimal& d = value.as_decimal();
      if (type.precision < 1 || type.precision > kMaxDecimalPrecision) return false;
      return d.scale == type.scale && Abs128(d.unscaled) < Pow10(type.precision);
    }
    case TypeId::kString:
      return value.kind == ValueKind::kString;
    case TypeId::kUuid:
      return value.kind == ValueKind::kBytes && value.as_string().size() == 16;
    case TypeId::kFixed:
      return value.kind == ValueKind::kBytes &&
             static_cast<int64_t>(value.as_string().size()) == type.length;
    case TypeId::kBinary:
      return value.kind == ValueKind::kBytes;
    case TypeId::kGeometry:
    case TypeId::kGeography:
      return value.kind == ValueKind::kString || value.kind == ValueKind::kBytes;
    case TypeId::kUnknown:
      return false;  // "unknown" values are always null
    case TypeId::kVariant:
      return true;
    case TypeId::kStruct:
    case TypeId::kList:
    case TypeId::kMap:
      return NestedValueFitsType(value, type);
  }
  return false;
}

}  // namespace ictk
