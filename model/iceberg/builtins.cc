/// \file
/// The `iceberg_functions` built-ins: their names, and the Iceberg transforms they
/// compute (year, month, day, hour, bucket with its Appendix B hash, truncate).
#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <climits>
#include <cmath>

#include "model/iceberg/evaluate.h"
#include "model/iceberg/evaluate_internal.h"
#include "model/iceberg/murmur3_internal.h"

namespace ictk {

namespace {

using internal::FloorDiv;

using internal::Builtin;
using internal::kIcebergFunctions;
using internal::kMicrosPerDay;
using internal::kMicrosPerHour;
using internal::kNanosPerMicro;

Builtin BuiltinByName(std::string_view name) {
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

/// Year and month (1-12) of a day count from 1970-01-01 (proleptic Gregorian, after
/// H. Hinnant's public-domain civil_from_days).
void YearMonthFromDays(int64_t z, int64_t& y, int64_t& m) {
  z += 719468;
  const int64_t era = (z >= 0 ? z : z - 146096) / 146097;
  const int64_t doe = z - era * 146097;
  const int64_t yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
  y = yoe + era * 400;
  const int64_t doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
  const int64_t mp = (5 * doy + 2) / 153;
  m = mp < 10 ? mp + 3 : mp - 9;
  y += m <= 2;
}

bool IsNanos(TypeId id) {
  return id == TypeId::kTimestampNs || id == TypeId::kTimestampTzNs;
}

/// Days from 1970-01-01 of a date or timestamp value (floor for instants before the
/// epoch).
int64_t DaysOf(int64_t v, TypeId type) {
  if (type == TypeId::kDate) return v;
  if (IsNanos(type)) v = FloorDiv(v, kNanosPerMicro);
  return FloorDiv(v, kMicrosPerDay);
}

/// Iceberg's minimal big-endian two's-complement form of an unscaled decimal (as Java's
/// BigInteger.toByteArray).
std::string MinimalTwosComplement(Int128 v) {
  const auto u = static_cast<unsigned __int128>(v);
  std::string bytes(16, '\0');
  for (int i = 0; i < 16; ++i) bytes[15 - i] = static_cast<char>((u >> (8 * i)) & 0xff);
  size_t start = 0;
  while (start < 15) {
    const auto b0 = static_cast<unsigned char>(bytes[start]);
    const auto b1 = static_cast<unsigned char>(bytes[start + 1]);
    if ((b0 == 0x00 && (b1 & 0x80) == 0) || (b0 == 0xff && (b1 & 0x80) != 0)) {
      ++start;
    } else {
      break;
    }
  }
  return bytes.substr(start);
}

std::string LittleEndianLong(int64_t v) {
  const auto u = static_cast<uint64_t>(v);
  std::string out(8, '\0');
  for (int i = 0; i < 8; ++i) out[i] = static_cast<char>((u >> (8 * i)) & 0xff);
  return out;
}

int32_t HashLong(int64_t v) { return internal::Murmur3X86_32(LittleEndianLong(v)); }

/// The first `width` Unicode code points of UTF-8 `s` (Iceberg truncate for strings).
std::string TruncateUtf8(const std::string& s, int64_t width) {
  size_t pos = 0;
  int64_t count = 0;
  while (pos < s.size() && count < width) {
    const auto lead = static_cast<unsigned char>(s[pos]);
    size_t len = 1;
    if (lead >= 0xf0) {
      len = 4;
    } else if (lead >= 0xe0) {
      len = 3;
    } else if (lead >= 0xc0) {
      len = 2;
    }
    pos += len;
    ++count;
  }
  return s.substr(0, std::min(pos, s.size()));
}

/// Iceberg truncate(W): integers and decimals (unscaled) to `v - (((v % W) + W) % W)`,
/// strings to their first W code points, binary to its first W bytes.
std::optional<Value> Truncate(int64_t w, const Type& type, const Value& v) {
  switch (type.id) {
    case TypeId::kInt:
    case TypeId::kLong: {
      if (v.kind != ValueKind::kLong) return std::nullopt;
      const Int128 x = v.as_long();
      const Int128 r = x - (((x % w) + w) % w);
      // Java wraps on overflow at the minimum value; so does this.
      return Value::Long(
          static_cast<int64_t>(static_cast<uint64_t>(static_cast<unsigned __int128>(r))));
    }
    case TypeId::kDecimal: {
      if (v.kind != ValueKind::kDecimal) return std::nullopt;
      const Int128 x = v.as_decimal().unscaled;
      const Int128 r = x - (((x % w) + w) % w);
      return Value::DecimalOf(r, v.as_decimal().scale);
    }
    case TypeId::kString:
      if (v.kind != ValueKind::kString) return std::nullopt;
      return Value::String(TruncateUtf8(v.as_string(), w));
    case TypeId::kBinary:
      if (v.kind != ValueKind::kBytes && v.kind != ValueKind::kString)
        return std::nullopt;
      return Value::Bytes(v.as_string().substr(0, static_cast<size_t>(w)));
    default:
      return std::nullopt;
  }
}

}  // namespace

namespace internal {

/// The built-in an `apply` names: a bare name (no catalog), the catalog
/// `iceberg_functions`, or the path {"iceberg_functions", name}. kNone for anything else.
Builtin ResolveBuiltin(const Expr& apply) {
  if (apply.op != ExprOp::kApply) return Builtin::kNone;
  const auto& path = apply.function;
  if (apply.catalog && *apply.catalog != kIcebergFunctions) return Builtin::kNone;
  if (path.size() == 1) return BuiltinByName(path[0]);
  if (path.size() == 2 && !apply.catalog && path[0] == kIcebergFunctions) {
    return BuiltinByName(path[1]);
  }
  return Builtin::kNone;
}

/// Whether the apply names the iceberg_functions catalog explicitly (so an unknown name
/// in it is an error, not a UDF).
bool NamesIcebergCatalog(const Expr& apply) {
  if (apply.catalog) return *apply.catalog == kIcebergFunctions;
  return apply.function.size() == 2 && apply.function[0] == kIcebergFunctions;
}

/// The catalog key of a UDF: its identifier path joined with ".".
std::string UdfName(const Expr& apply) {
  std::string name;
  for (size_t i = 0; i < apply.function.size(); ++i) {
    if (i > 0) name += ".";
    name += apply.function[i];
  }
  return name;
}

std::optional<Value> ApplyTransform(Builtin fn, int64_t width, const Type& type,
                                    const Value& v) {
  switch (fn) {
    case Builtin::kIdentity:
      return v;
    case Builtin::kYear:
    case Builtin::kMonth:
    case Builtin::kDay: {
      if (v.kind != ValueKind::kLong) return std::nullopt;
      const int64_t days = DaysOf(v.as_long(), type.id);
      if (fn == Builtin::kDay) return Value::Long(days);
      int64_t y = 0, m = 0;
      YearMonthFromDays(days, y, m);
      if (fn == Builtin::kYear) return Value::Long(y - 1970);
      return Value::Long((y - 1970) * 12 + (m - 1));
    }
    case Builtin::kHour: {
      if (v.kind != ValueKind::kLong) return std::nullopt;
      int64_t micros = v.as_long();
      if (IsNanos(type.id)) micros = FloorDiv(micros, kNanosPerMicro);
      return Value::Long(FloorDiv(micros, kMicrosPerHour));
    }
    case Builtin::kBucket: {
      const int32_t h = IcebergHash(v, type);
      return Value::Long((h & INT_MAX) % width);
    }
    case Builtin::kTruncate:
      return Truncate(width, type, v);
    default:
      return std::nullopt;
  }
}

}  // namespace internal

bool IsBuiltinFunction(const Expr& apply) {
  return internal::ResolveBuiltin(apply) != Builtin::kNone;
}

/// Iceberg spec Appendix B: int, long, date, time and timestamps hash as `hashLong`
/// (8 bytes little-endian), the _ns types after conversion to micros; decimals as the
/// minimal big-endian two's-complement bytes of the unscaled value; strings as UTF-8;
/// uuid, fixed and binary as their bytes; booleans as hashInt(0/1); floats and doubles as
/// hashLong(doubleToLongBits) of the value as a double, NaN and -0.0 canonicalized (the
/// spec's table for types that are not bucketed today). Null, and types Iceberg does not
/// hash, give 0.
int32_t IcebergHash(const Value& v, const Type& type) {
  if (v.is_null()) return 0;
  switch (type.id) {
    case TypeId::kInt:
    case TypeId::kLong:
    case TypeId::kDate:
    case TypeId::kTime:
    case TypeId::kTimestamp:
    case TypeId::kTimestampTz:
      if (v.kind != ValueKind::kLong) return 0;
      return HashLong(v.as_long());
    case TypeId::kTimestampNs:
    case TypeId::kTimestampTzNs:
      if (v.kind != ValueKind::kLong) return 0;
      return HashLong(FloorDiv(v.as_long(), kNanosPerMicro));
    case TypeId::kBoolean:
      if (v.kind != ValueKind::kBoolean) return 0;
      return HashLong(v.as_bool() ? 1 : 0);
    case TypeId::kFloat:
    case TypeId::kDouble: {
      if (v.kind != ValueKind::kDouble && v.kind != ValueKind::kLong) return 0;
      const double d =
          v.kind == ValueKind::kLong ? static_cast<double>(v.as_long()) : v.as_double();
      // "All NaN bit patterns must be canonicalized to 0x7ff8000000000000L. Negative zero
      // (-0.0) must be canonicalized to positive zero (0.0)."
      if (std::isnan(d)) return HashLong(int64_t{0x7ff8000000000000});
      return HashLong(std::bit_cast<int64_t>(d == 0.0 ? 0.0 : d));
    }
    case TypeId::kDecimal: {
      if (v.kind != ValueKind::kDecimal && v.kind != ValueKind::kLong) return 0;
      const Decimal d =
          v.kind == ValueKind::kLong ? Decimal{v.as_long(), 0} : v.as_decimal();
      Int128 unscaled = d.unscaled;
      // Hash at the type's scale when the value carries a smaller one.
      for (int32_t s = d.scale; s < type.scale; ++s) unscaled *= 10;
      return internal::Murmur3X86_32(MinimalTwosComplement(unscaled));
    }
    case TypeId::kString:
    case TypeId::kUuid:
    case TypeId::kFixed:
    case TypeId::kBinary:
      if (v.kind != ValueKind::kString && v.kind != ValueKind::kBytes) return 0;
      return internal::Murmur3X86_32(v.as_string());
    default:
      return 0;
  }
}

}  // namespace ictk
