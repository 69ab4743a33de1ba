/// \file
/// Key equality and hashing, comparable forms, Murmur3 and promotions for the sample.
#include <cmath>
#include <cstring>
#include <functional>

#include "sample/values_internal.h"

namespace ictk::sample {
namespace {

constexpr int64_t kNanosPerMicro = 1000;

Int128 Pow10(int n) {
  Int128 p = 1;
  for (int i = 0; i < n; ++i) p *= 10;
  return p;
}

/// Strips trailing zeros so that 1.50 and 1.5 (and 2 and 2.000) share a form.
Decimal Normalize(Decimal d) {
  if (d.unscaled == 0) return Decimal{0, 0};
  while (d.scale > 0 && d.unscaled % 10 == 0) {
    d.unscaled /= 10;
    --d.scale;
  }
  return d;
}

/// Compares a*10^-sa with b*10^-sb exactly (values up to 38 digits).
int CompareExact(Int128 a, int32_t sa, Int128 b, int32_t sb) {
  if (sa != sb) {
    // Scale the one with fewer fractional digits up; if that overflows, its magnitude
    // exceeds anything representable at 38 digits, so its sign decides.
    const bool scale_a = sa < sb;
    Int128& x = scale_a ? a : b;
    const int diff = scale_a ? sb - sa : sa - sb;
    const Int128 max = ~(static_cast<Int128>(1) << 127);
    const Int128 factor = diff > 38 ? 0 : Pow10(diff);
    const Int128 mag = x < 0 ? -x : x;
    if (factor == 0 || (mag != 0 && mag > max / factor)) {
      const int sign = x < 0 ? -1 : 1;
      return scale_a ? sign : -sign;
    }
    x *= factor;
  }
  return a < b ? -1 : (a > b ? 1 : 0);
}

long double ExactToDouble(Int128 unscaled, int32_t scale) {
  long double v = static_cast<long double>(unscaled);
  for (int i = 0; i < scale; ++i) v /= 10;
  for (int i = 0; i > scale; --i) v *= 10;
  return v;
}

uint32_t Rotl(uint32_t x, int r) { return (x << r) | (x >> (32 - r)); }

std::string LongBytesLittleEndian(int64_t v) {
  std::string out(8, '\0');
  auto u = static_cast<uint64_t>(v);
  for (int i = 0; i < 8; ++i)
    out[static_cast<size_t>(i)] = static_cast<char>((u >> (8 * i)) & 0xff);
  return out;
}

/// The minimum number of bytes holding `v` in two's complement, big-endian (Java's
/// BigInteger.toByteArray, which the spec's bucket hash of a decimal reads): bytes are
/// taken from the low end until the rest is only the sign extension of the last one.
std::string MinimalBigEndian(Int128 v) {
  std::string reversed;
  Int128 rest = v;
  do {
    reversed.push_back(static_cast<char>(static_cast<uint8_t>(rest & 0xff)));
    rest >>= 8;  // arithmetic: the sign is kept
  } while (!((rest == 0 && (reversed.back() & 0x80) == 0) ||
             (rest == -1 && (reversed.back() & 0x80) != 0)));
  return std::string(reversed.rbegin(), reversed.rend());
}

bool IsNanos(TypeId id) {
  return id == TypeId::kTimestampNs || id == TypeId::kTimestampTzNs;
}

}  // namespace

bool KeyValueEquals(const Value& a, const Value& b) {
  if (a.kind != b.kind) {
    return false;
  }
  if (a.kind == ValueKind::kDecimal) {
    const Decimal& x = a.as_decimal();
    const Decimal& y = b.as_decimal();
    return CompareExact(x.unscaled, x.scale, y.unscaled, y.scale) == 0;
  }
  if (a.kind == ValueKind::kStruct || a.kind == ValueKind::kList ||
      a.kind == ValueKind::kMap) {
    if (a.children.size() != b.children.size() || a.field_ids != b.field_ids)
      return false;
    for (size_t i = 0; i < a.children.size(); ++i) {
      if (a.children[i].is_null() != b.children[i].is_null()) return false;
      if (!a.children[i].is_null() && !KeyValueEquals(a.children[i], b.children[i]))
        return false;
    }
    return true;
  }
  return a.scalar == b.scalar;
}

size_t KeyValueHash(const Value& v) {
  switch (v.kind) {
    case ValueKind::kNull:
      return 0x9e3779b9u;
    case ValueKind::kBoolean:
      return v.as_bool() ? 1231 : 1237;
    case ValueKind::kLong:
      return std::hash<int64_t>{}(v.as_long());
    case ValueKind::kDouble:
      return std::hash<double>{}(v.as_double());
    case ValueKind::kDecimal: {
      const Decimal n = Normalize(v.as_decimal());
      const auto u = static_cast<unsigned __int128>(n.unscaled);
      return std::hash<uint64_t>{}(static_cast<uint64_t>(u) ^
                                   static_cast<uint64_t>(u >> 64)) ^
             (static_cast<size_t>(n.scale) * 0x100000001b3ull);
    }
    case ValueKind::kString:
    case ValueKind::kBytes:
      return std::hash<std::string>{}(v.as_string());
    default: {
      size_t h = static_cast<size_t>(v.kind);
      for (const Value& c : v.children) h = h * 31 + KeyValueHash(c);
      return h;
    }
  }
}

size_t KeyTupleHash::operator()(const KeyTuple& k) const {
  size_t h = 0xcbf29ce484222325ull;
  for (const Value& v : k) h = (h ^ KeyValueHash(v)) * 0x100000001b3ull;
  return h;
}

bool KeyTupleEq::operator()(const KeyTuple& a, const KeyTuple& b) const {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (a[i].is_null() || b[i].is_null()) {
      if (a[i].is_null() != b[i].is_null()) return false;
      continue;
    }
    if (!KeyValueEquals(a[i], b[i])) return false;
  }
  return true;
}

int32_t Murmur3(const std::string& bytes) {
  const auto* data = reinterpret_cast<const unsigned char*>(bytes.data());
  const size_t len = bytes.size();
  uint32_t h = 0;
  constexpr uint32_t c1 = 0xcc9e2d51;
  constexpr uint32_t c2 = 0x1b873593;
  size_t i = 0;
  for (; i + 4 <= len; i += 4) {
    uint32_t k = static_cast<uint32_t>(data[i]) |
                 (static_cast<uint32_t>(data[i + 1]) << 8) |
                 (static_cast<uint32_t>(data[i + 2]) << 16) |
                 (static_cast<uint32_t>(data[i + 3]) << 24);
    k *= c1;
    k = Rotl(k, 15);
    k *= c2;
    h ^= k;
    h = Rotl(h, 13);
    h = h * 5 + 0xe6546b64;
  }
  uint32_t k = 0;
  switch (len & 3) {
    case 3:
      k ^= static_cast<uint32_t>(data[i + 2]) << 16;
      [[fallthrough]];
    case 2:
      k ^= static_cast<uint32_t>(data[i + 1]) << 8;
      [[fallthrough]];
    case 1:
      k ^= static_cast<uint32_t>(data[i]);
      k *= c1;
      k = Rotl(k, 15);
      k *= c2;
      h ^= k;
      break;
    default:
      break;
  }
  h ^= static_cast<uint32_t>(len);
  h ^= h >> 16;
  h *= 0x85ebca6b;
  h ^= h >> 13;
  h *= 0xc2b2ae35;
  h ^= h >> 16;
  return static_cast<int32_t>(h);
}

std::optional<int32_t> IcebergBucketHash(const Value& v, const Type& type) {
  switch (type.id) {
    case TypeId::kInt:
    case TypeId::kLong:
    case TypeId::kDate:
    case TypeId::kTime:
    case TypeId::kTimestamp:
    case TypeId::kTimestampTz:
      return Murmur3(LongBytesLittleEndian(v.as_long()));
    case TypeId::kTimestampNs:
    case TypeId::kTimestampTzNs: {
      // Hashed as microseconds, like timestamp, so both bucket alike.
      int64_t nanos = v.as_long();
      int64_t micros = nanos / kNanosPerMicro;
      if (nanos % kNanosPerMicro < 0) --micros;
      return Murmur3(LongBytesLittleEndian(micros));
    }
    case TypeId::kDecimal:
      return Murmur3(MinimalBigEndian(v.as_decimal().unscaled));
    case TypeId::kString:
    case TypeId::kUuid:
    case TypeId::kFixed:
    case TypeId::kBinary:
      return Murmur3(v.as_string());
    default:
      return std::nullopt;
  }
}

Comparable ToComparable(const Value& v, const Type& type, Domain domain) {
  Comparable c;
  if (v.is_null()) return c;
  if (v.kind == ValueKind::kDouble && std::isnan(v.as_double())) {
    c.kind = Comparable::Kind::kNaN;
    return c;
  }
  switch (domain) {
    case Domain::kNone:
      return c;
    case Domain::kBool:
      c.kind = Comparable::Kind::kBool;
      c.unscaled = v.kind == ValueKind::kBoolean && v.as_bool() ? 1 : 0;
      return c;
    case Domain::kBytes:
      c.kind = Comparable::Kind::kBytes;
      if (v.kind == ValueKind::kString || v.kind == ValueKind::kBytes)
        c.bytes = v.as_string();
      return c;
    case Domain::kExact:
    case Domain::kDouble:
      break;
  }
  // Numbers and temporal values.
  Int128 unscaled = 0;
  int32_t scale = 0;
  bool is_double = false;
  double d = 0;
  switch (v.kind) {
    case ValueKind::kLong: {
      unscaled = v.as_long();
      switch (type.id) {
        case TypeId::kDate:
          unscaled *= static_cast<Int128>(kMicrosPerDay) * kNanosPerMicro;
          break;
        case TypeId::kTime:
        case TypeId::kTimestamp:
        case TypeId::kTimestampTz:
          unscaled *= kNanosPerMicro;
          break;
        default:
          break;
      }
      break;
    }
    case ValueKind::kDecimal:
      unscaled = v.as_decimal().unscaled;
      scale = v.as_decimal().scale;
      break;
    case ValueKind::kDouble:
      is_double = true;
      d = v.as_double();
      break;
    case ValueKind::kBoolean:
      unscaled = v.as_bool() ? 1 : 0;
      break;
    default:
      break;
  }
  if (domain == Domain::kDouble || is_double) {
    c.kind = Comparable::Kind::kDouble;
    c.d = is_double ? d : static_cast<double>(ExactToDouble(unscaled, scale));
    return c;
  }
  c.kind = Comparable::Kind::kExact;
  c.unscaled = unscaled;
  c.scale = scale;
  return c;
}

int CompareComparable(const Comparable& a, const Comparable& b) {
  using K = Comparable::Kind;
  if (a.kind == K::kDouble || b.kind == K::kDouble) {
    const long double x = a.kind == K::kDouble ? a.d : ExactToDouble(a.unscaled, a.scale);
    const long double y = b.kind == K::kDouble ? b.d : ExactToDouble(b.unscaled, b.scale);
    return x < y ? -1 : (x > y ? 1 : 0);
  }
  if (a.kind == K::kBytes || b.kind == K::kBytes) {
    // Unsigned byte-wise order.
    const size_t n = std::min(a.bytes.size(), b.bytes.size());
    const int c = n == 0 ? 0 : std::memcmp(a.bytes.data(), b.bytes.data(), n);
    if (c != 0) return c < 0 ? -1 : 1;
    return a.bytes.size() < b.bytes.size() ? -1
                                           : (a.bytes.size() > b.bytes.size() ? 1 : 0);
  }
  return CompareExact(a.unscaled, a.scale, b.unscaled, b.scale);
}

Value PromoteValue(const Value& v, const Type& from, const Type& to) {
  if (v.is_null()) return v;
  if (from.id == TypeId::kUnknown) return Value::Null();
  if (from.id == TypeId::kDate && v.kind == ValueKind::kLong) {
    if (to.id == TypeId::kTimestamp || to.id == TypeId::kTimestampTz) {
      return Value::Long(v.as_long() * kMicrosPerDay);
    }
    if (IsNanos(to.id)) return Value::Long(v.as_long() * kMicrosPerDay * kNanosPerMicro);
  }
  if (from.id == TypeId::kStruct && to.id == TypeId::kStruct) {
    return ProjectStruct(v, from.fields, to.fields, nullptr);
  }
  if (from.id == TypeId::kList && to.id == TypeId::kList && !from.children.empty() &&
      !to.children.empty()) {
    Value out = v;
    for (Value& e : out.children) e = PromoteValue(e, from.element(), to.element());
    return out;
  }
  if (from.id == TypeId::kMap && to.id == TypeId::kMap && from.children.size() == 2 &&
      to.children.size() == 2) {
    Value out = v;
    const size_t half = out.children.size() / 2;
    for (size_t i = 0; i < out.children.size(); ++i) {
      out.children[i] = i < half
                            ? PromoteValue(out.children[i], from.key(), to.key())
                            : PromoteValue(out.children[i], from.value(), to.value());
    }
    return out;
  }
  return v;  // int -> long, float -> double, decimal widening keep their payload
}

Value ProjectStruct(const Value& v, const std::vector<NestedField>& writer,
                    const std::vector<NestedField>& reader, DefaultLookup missing) {
  if (v.is_null()) return v;
  std::vector<FieldId> ids;
  std::vector<Value> values;
  for (const NestedField& rf : reader) {
    const NestedField* wf = nullptr;
    for (const NestedField& f : writer) {
      if (f.id == rf.id) {
        wf = &f;
        break;
      }
    }
    const Value* present = wf != nullptr ? v.FindField(rf.id) : nullptr;
    ids.push_back(rf.id);
    if (present != nullptr) {
      if (rf.type.id == TypeId::kStruct && wf->type.id == TypeId::kStruct) {
        values.push_back(
            ProjectStruct(*present, wf->type.fields, rf.type.fields, missing));
      } else {
        values.push_back(PromoteValue(*present, wf->type, rf.type));
      }
    } else if (wf != nullptr) {
      values.push_back(Value::Null());  // written under this field, but left out: null
    } else {
      values.push_back(missing != nullptr ? missing(rf) : Value::Null());
    }
  }
  return Value::Struct(std::move(ids), std::move(values));
}

}  // namespace ictk::sample
