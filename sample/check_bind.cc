/// \file
/// The binding helpers of the sample's check compiler (check_node_internal.h): the
/// built-ins by name, type classes, the safe alignment of two operand types, and literals
/// bound to the type of what they are compared with.
#include <fmt/format.h>

#include <cmath>
#include <functional>
#include <limits>

#include "sample/check_internal.h"
#include "sample/check_node_internal.h"
#include "sample/decode_internal.h"
#include "sample/schema_internal.h"
#include "sample/single_value_internal.h"
#include "sample/values_internal.h"

namespace ictk::sample {

using Kind = CheckNode::Kind;

Builtin BuiltinNamed(std::string_view name) {
  if (name == "if_else") return Builtin::kIfElse;
  if (name == "identity") return Builtin::kIdentity;
  if (name == "year") return Builtin::kYear;
  if (name == "month") return Builtin::kMonth;
  if (name == "day") return Builtin::kDay;
  if (name == "hour") return Builtin::kHour;
  if (name == "bucket") return Builtin::kBucket;
  if (name == "truncate") return Builtin::kTruncate;
  return Builtin::kNone;
}

bool IsInteger(TypeId t) { return t == TypeId::kInt || t == TypeId::kLong; }
bool IsFloat(TypeId t) { return t == TypeId::kFloat || t == TypeId::kDouble; }
bool IsTimestamp(TypeId t) {
  return t == TypeId::kTimestamp || t == TypeId::kTimestampTz ||
         t == TypeId::kTimestampNs || t == TypeId::kTimestampTzNs;
}
bool IsNanoType(TypeId t) {
  return t == TypeId::kTimestampNs || t == TypeId::kTimestampTzNs;
}

bool IsNullLike(const Value& v) {
  return v.is_null() || (v.kind == ValueKind::kDouble && std::isnan(v.as_double()));
}

bool IsUntypedLiteral(const Expr& e) { return e.op == ExprOp::kLiteral && !e.data_type; }

Int128 Pow10(int n) {
  Int128 p = 1;
  for (int i = 0; i < n; ++i) p *= 10;
  return p;
}

int64_t FloorDiv(int64_t a, int64_t b) {
  int64_t q = a / b;
  if ((a % b != 0) && ((a < 0) != (b < 0))) --q;
  return q;
}

/// Parses "[-]digits[.digits]" exactly.
std::optional<Decimal> ParseDecimalText(std::string_view s) {
  Decimal d;
  bool neg = false;
  size_t i = 0;
  if (i < s.size() && (s[i] == '-' || s[i] == '+')) neg = s[i++] == '-';
  bool digits = false;
  bool dot = false;
  for (; i < s.size(); ++i) {
    if (s[i] == '.' && !dot) {
      dot = true;
      continue;
    }
    if (s[i] < '0' || s[i] > '9') return std::nullopt;
    if (d.unscaled > Pow10(37)) return std::nullopt;
    d.unscaled = d.unscaled * 10 + (s[i] - '0');
    digits = true;
    if (dot) ++d.scale;
  }
  if (!digits) return std::nullopt;
  if (neg) d.unscaled = -d.unscaled;
  return d;
}

/// The common domain and type of two operand types, when values of both compare safely.
std::optional<std::pair<Domain, Type>> Align(const Type& a, const Type& b) {
  if (a.id == TypeId::kUnknown && b.id == TypeId::kUnknown) {
    return std::pair{Domain::kBool, a};
  }
  if (a.id == TypeId::kUnknown) return Align(b, b);
  if (b.id == TypeId::kUnknown) return Align(a, a);
  const TypeId x = a.id, y = b.id;
  if (IsInteger(x) && IsInteger(y)) {
    return std::pair{
        Domain::kExact,
        Type::Primitive(x == TypeId::kLong || y == TypeId::kLong ? TypeId::kLong
                                                                 : TypeId::kInt)};
  }
  if ((x == TypeId::kDecimal || IsInteger(x)) &&
      (y == TypeId::kDecimal || IsInteger(y))) {
    const int32_t sa = x == TypeId::kDecimal ? a.scale : 0;
    const int32_t sb = y == TypeId::kDecimal ? b.scale : 0;
    return std::pair{Domain::kExact, Type::Decimal(38, std::max(sa, sb))};
  }
  if ((IsFloat(x) || IsInteger(x)) && (IsFloat(y) || IsInteger(y))) {
    return std::pair{
        Domain::kDouble,
        Type::Primitive(x == TypeId::kFloat && y == TypeId::kFloat ? TypeId::kFloat
                                                                   : TypeId::kDouble)};
  }
  if (x == y) {
    switch (x) {
      case TypeId::kBoolean:
        return std::pair{Domain::kBool, a};
      case TypeId::kDate:
      case TypeId::kTime:
      case TypeId::kTimestamp:
      case TypeId::kTimestampTz:
      case TypeId::kTimestampNs:
      case TypeId::kTimestampTzNs:
        return std::pair{Domain::kExact, a};
      case TypeId::kString:
      case TypeId::kUuid:
      case TypeId::kBinary:
        return std::pair{Domain::kBytes, a};
      case TypeId::kFixed:
        if (a.length == b.length) return std::pair{Domain::kBytes, a};
        return std::nullopt;
      default:
        return std::nullopt;
    }
  }
  if (x == TypeId::kDate && (y == TypeId::kTimestamp || y == TypeId::kTimestampNs)) {
    return std::pair{Domain::kExact, b};
  }
  if (y == TypeId::kDate && (x == TypeId::kTimestamp || x == TypeId::kTimestampNs)) {
    return std::pair{Domain::kExact, a};
  }
  return std::nullopt;
}

std::optional<Value> FromText(const std::string& text, const Type& type) {
  return ValueOfText(type, text);
}

/// Binds an untyped literal compared with (or passed as) a value of `type`: the type it
/// takes and its value, trying `type` first and then the wider domains a safe comparison
/// allows (an int field against 5.5 compares as double; a date against a timestamp string
/// as a timestamp).
std::optional<std::pair<Type, Value>> BindLiteral(const Value& lit, const Type& type) {
  switch (type.id) {
    case TypeId::kBoolean:
      if (lit.kind == ValueKind::kBoolean) return std::pair{type, lit};
      return std::nullopt;
    case TypeId::kInt:
    case TypeId::kLong:
      if (lit.kind == ValueKind::kLong) {
        const int64_t x = lit.as_long();
        const bool fits =
            type.id == TypeId::kLong || (x >= std::numeric_limits<int32_t>::min() &&
                                         x <= std::numeric_limits<int32_t>::max());
        return std::pair{fits ? type : Type::Primitive(TypeId::kLong), lit};
      }
      if (lit.kind == ValueKind::kDouble)
        return std::pair{Type::Primitive(TypeId::kDouble), lit};
      return std::nullopt;
    case TypeId::kFloat:
    case TypeId::kDouble:
      if (lit.kind == ValueKind::kLong) {
        return std::pair{type, Value::Double(static_cast<double>(lit.as_long()))};
      }
      if (lit.kind == ValueKind::kDouble) return std::pair{type, lit};
      return std::nullopt;
    case TypeId::kDecimal: {
      std::optional<Decimal> d;
      if (lit.kind == ValueKind::kLong) d = Decimal{lit.as_long(), 0};
      if (lit.kind == ValueKind::kDecimal) d = lit.as_decimal();
      if (lit.kind == ValueKind::kString) d = ParseDecimalText(lit.as_string());
      if (lit.kind == ValueKind::kDouble && std::isfinite(lit.as_double())) {
        d = ParseDecimalText(fmt::format("{}", lit.as_double()));
      }
      if (!d) return std::nullopt;
      if (d->scale <= type.scale) {
        d->unscaled *= Pow10(type.scale - d->scale);
        d->scale = type.scale;
        return std::pair{type, Value::DecimalOf(d->unscaled, d->scale)};
      }
      return std::pair{Type::Decimal(38, d->scale),
                       Value::DecimalOf(d->unscaled, d->scale)};
    }
    case TypeId::kString:
      if (lit.kind == ValueKind::kString) return std::pair{type, lit};
      return std::nullopt;
    case TypeId::kDate:
      if (lit.kind != ValueKind::kString) return std::nullopt;
      if (auto v = FromText(lit.as_string(), type)) return std::pair{type, *v};
      for (TypeId wider : {TypeId::kTimestamp, TypeId::kTimestampNs}) {
        if (auto v = FromText(lit.as_string(), Type::Primitive(wider))) {
          return std::pair{Type::Primitive(wider), *v};
        }
      }
      return std::nullopt;
    case TypeId::kTime:
    case TypeId::kTimestamp:
    case TypeId::kTimestampTz:
    case TypeId::kTimestampNs:
    case TypeId::kTimestampTzNs:
    case TypeId::kUuid:
    case TypeId::kFixed:
    case TypeId::kBinary:
      if (lit.kind != ValueKind::kString) return std::nullopt;
      if (auto v = FromText(lit.as_string(), type)) return std::pair{type, *v};
      return std::nullopt;
    case TypeId::kUnknown:
      switch (lit.kind) {
        case ValueKind::kBoolean:
          return std::pair{Type::Primitive(TypeId::kBoolean), lit};
        case ValueKind::kLong:
          return std::pair{Type::Primitive(TypeId::kLong), lit};
        case ValueKind::kDouble:
          return std::pair{Type::Primitive(TypeId::kDouble), lit};
        case ValueKind::kString:
          return std::pair{Type::Primitive(TypeId::kString), lit};
        default:
          return std::nullopt;
      }
    default:
      return std::nullopt;
  }
}

/// The type an untyped literal has on its own.
std::optional<Type> NaturalType(const Value& v) {
  auto bound = BindLiteral(v, Type::Primitive(TypeId::kUnknown));
  if (!bound) return std::nullopt;
  return bound->first;
}

/// `v` of type `from` as a value of the wider `to` (for if_else branches and UDF
/// arguments).
Value Widen(const Value& v, const Type& from, const Type& to) {
  if (v.is_null()) return v;
  if (IsInteger(from.id) && IsFloat(to.id))
    return Value::Double(static_cast<double>(v.as_long()));
  if (IsInteger(from.id) && to.id == TypeId::kDecimal) {
    return Value::DecimalOf(static_cast<Int128>(v.as_long()) * Pow10(to.scale), to.scale);
  }
  if (from.id == TypeId::kDecimal && to.id == TypeId::kDecimal && to.scale > from.scale) {
    return Value::DecimalOf(
        v.as_decimal().unscaled * Pow10(to.scale - v.as_decimal().scale), to.scale);
  }
  return PromoteValue(v, from, to);
}

}  // namespace ictk::sample
