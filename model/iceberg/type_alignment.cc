/// \file
/// The types of a comparison's operands: their shape, the promotions that cannot lose a
/// comparison's meaning (never an unsafe cast), the domain two operands are aligned to,
/// the types a literal may be bound as, and the conversion of a value to its domain.
#include <algorithm>
#include <cmath>
#include <limits>

#include "model/iceberg/evaluate_internal.h"
#include "model/iceberg/kinds.h"

namespace ictk::internal {

/// Structural type equality that ignores field IDs, names, docs and requiredness (a UDF's
/// `list<int>` parameter accepts any list of ints).
bool SameShape(const Type& a, const Type& b) {
  if (a.id != b.id) return false;
  switch (a.id) {
    case TypeId::kDecimal:
      return a.precision == b.precision && a.scale == b.scale;
    case TypeId::kFixed:
      return a.length == b.length;
    case TypeId::kGeometry:
    case TypeId::kGeography:
      return a.crs == b.crs && a.algorithm == b.algorithm;
    case TypeId::kStruct:
      if (a.fields.size() != b.fields.size()) return false;
      for (size_t i = 0; i < a.fields.size(); ++i) {
        if (!SameShape(a.fields[i].type, b.fields[i].type)) return false;
      }
      return true;
    case TypeId::kList:
    case TypeId::kMap:
      if (a.children.size() != b.children.size()) return false;
      for (size_t i = 0; i < a.children.size(); ++i) {
        if (!SameShape(a.children[i], b.children[i])) return false;
      }
      return true;
    default:
      return true;
  }
}

bool IsIntegral(TypeId id) { return id == TypeId::kInt || id == TypeId::kLong; }
bool IsFloating(TypeId id) { return id == TypeId::kFloat || id == TypeId::kDouble; }

/// Whether a value of `from` converts to `to` without changing what comparisons mean, and
/// how: equal types; int -> long; int/long/float -> double (an int field against 5.0 is
/// compared as a float); int/long -> decimal; decimal -> any decimal (compared by value);
/// date -> timestamp/timestamp_ns (Iceberg promotions); unknown -> anything (always
/// null).
std::optional<Conv> Widening(const Type& from, const Type& to) {
  if (SameShape(from, to)) return Conv::kNone;
  if (from.id == TypeId::kUnknown) return Conv::kToNull;
  if (from.id == TypeId::kInt && to.id == TypeId::kLong) return Conv::kNone;
  if ((IsIntegral(from.id) || from.id == TypeId::kFloat) && to.id == TypeId::kDouble) {
    return IsIntegral(from.id) ? Conv::kToDouble : Conv::kNone;
  }
  if (IsIntegral(from.id) && to.id == TypeId::kDecimal) return Conv::kToDecimal;
  if (from.id == TypeId::kDecimal && to.id == TypeId::kDecimal) return Conv::kNone;
  if (from.id == TypeId::kDate && to.id == TypeId::kTimestamp) return Conv::kDateToMicros;
  if (from.id == TypeId::kDate && to.id == TypeId::kTimestampNs)
    return Conv::kDateToNanos;
  return std::nullopt;
}

/// The type both operands of a comparison are compared as, when there is one.
std::optional<Type> AlignTypes(const Type& a, const Type& b) {
  if (a.id == TypeId::kUnknown) return b;
  if (b.id == TypeId::kUnknown) return a;
  if (a.id == TypeId::kDecimal && b.id == TypeId::kDecimal) {
    return Type::Decimal(38, std::max(a.scale, b.scale));
  }
  if (Widening(a, b)) return b;
  if (Widening(b, a)) return a;
  if ((IsIntegral(a.id) || IsFloating(a.id)) && (IsIntegral(b.id) || IsFloating(b.id))) {
    return Type::Primitive(TypeId::kDouble);  // e.g. long vs float
  }
  return std::nullopt;
}

/// The types a literal compared with a `type` operand may be bound as, most exact first.
std::vector<Type> LiteralDomains(const Type& type) {
  std::vector<Type> out{type};
  switch (type.id) {
    case TypeId::kInt:
      out.push_back(Type::Primitive(TypeId::kLong));
      out.push_back(Type::Primitive(TypeId::kDouble));
      break;
    case TypeId::kLong:
    case TypeId::kFloat:
      out.push_back(Type::Primitive(TypeId::kDouble));
      break;
    case TypeId::kDecimal:
      // A literal with more fractional digits than the field is compared by value.
      for (int32_t s = std::max(type.scale, 0); s <= 38; ++s)
        out.push_back(Type::Decimal(38, s));
      break;
    case TypeId::kDate:
      out.push_back(Type::Primitive(TypeId::kTimestamp));
      out.push_back(Type::Primitive(TypeId::kTimestampNs));
      break;
    default:
      break;
  }
  return out;
}

/// The type of an untyped literal on its own.
std::optional<Type> NaturalType(const Value& v) {
  switch (v.kind) {
    case ValueKind::kBoolean:
      return Type::Primitive(TypeId::kBoolean);
    case ValueKind::kLong:
      return Type::Primitive(TypeId::kLong);
    case ValueKind::kDouble:
      return Type::Primitive(TypeId::kDouble);
    case ValueKind::kDecimal: {
      const int32_t s = std::clamp(v.as_decimal().scale, 0, 38);
      return Type::Decimal(38, s);
    }
    case ValueKind::kString:
      return Type::Primitive(TypeId::kString);
    case ValueKind::kBytes:
      return Type::Primitive(TypeId::kBinary);
    default:
      return std::nullopt;
  }
}

bool IsNanValue(const Value& v) {
  return v.kind == ValueKind::kDouble && std::isnan(v.as_double());
}

/// Whether ordering comparisons are defined for values of this type.
bool IsComparable(const Type& t) {
  return IsPrimitive(t.id) && t.id != TypeId::kGeometry && t.id != TypeId::kGeography;
}

namespace {

/// days * per_day, saturated at the int64 range: a date too far out for the timestamp
/// type still orders before or after every timestamp.
int64_t ScaleDays(int64_t days, int64_t per_day) {
  int64_t out = 0;
  if (__builtin_mul_overflow(days, per_day, &out)) {
    return days < 0 ? std::numeric_limits<int64_t>::min()
                    : std::numeric_limits<int64_t>::max();
  }
  return out;
}

}  // namespace

Value Convert(const Value& v, Conv conv) {
  if (v.is_null()) return v;
  switch (conv) {
    case Conv::kNone:
      return v;
    case Conv::kToDouble:
      return v.kind == ValueKind::kLong ? Value::Double(static_cast<double>(v.as_long()))
                                        : v;
    case Conv::kToDecimal:
      return v.kind == ValueKind::kLong ? Value::DecimalOf(v.as_long(), 0) : v;
    case Conv::kDateToMicros:
      return v.kind == ValueKind::kLong
                 ? Value::Long(ScaleDays(v.as_long(), kMicrosPerDay))
                 : v;
    case Conv::kDateToNanos:
      return v.kind == ValueKind::kLong
                 ? Value::Long(ScaleDays(v.as_long(), kMicrosPerDay * kNanosPerMicro))
                 : v;
    case Conv::kToNull:
      return Value::Null();
  }
  return v;
}

}  // namespace ictk::internal
