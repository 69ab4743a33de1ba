/// \file
/// Iceberg equality, hashing and ordering of values of one type (SURROUNDINGS.md
/// "Expressions JSON": "Order: false < true; strings, uuid, fixed and binary compare
/// unsigned byte-wise; decimals compare by value after aligning scale; floats by IEEE 754
/// for non-NaN values"). Values whose kind does not fit the type are compared
/// structurally, so the functions stay total and KeyValueHash stays consistent with
/// KeyValuesEqual.
#include "model/iceberg/value_compare.h"

#include <bit>
#include <cassert>
#include <cmath>
#include <functional>
#include <limits>
#include <string_view>

#include "model/iceberg/decimal_internal.h"
#include "model/iceberg/kinds.h"

namespace ictk {

namespace {

bool IsIntegerLike(TypeId id) {
  switch (id) {
    case TypeId::kInt:
    case TypeId::kLong:
    case TypeId::kDate:
    case TypeId::kTime:
    case TypeId::kTimestamp:
    case TypeId::kTimestampTz:
    case TypeId::kTimestampNs:
    case TypeId::kTimestampTzNs:
      return true;
    default:
      return false;
  }
}

bool IsBytesLike(TypeId id) {
  switch (id) {
    case TypeId::kString:
    case TypeId::kUuid:
    case TypeId::kFixed:
    case TypeId::kBinary:
    case TypeId::kGeometry:
    case TypeId::kGeography:
      return true;
    default:
      return false;
  }
}

/// Whether `v` (non-null) has a kind that this comparison understands for `type`.
bool KindFits(const Value& v, const Type& type) {
  switch (type.id) {
    case TypeId::kBoolean:
      return v.kind == ValueKind::kBoolean;
    case TypeId::kFloat:
    case TypeId::kDouble:
      return v.kind == ValueKind::kDouble || v.kind == ValueKind::kLong;
    case TypeId::kDecimal:
      return v.kind == ValueKind::kDecimal || v.kind == ValueKind::kLong;
    case TypeId::kStruct:
      return v.kind == ValueKind::kStruct;
    case TypeId::kList:
      return v.kind == ValueKind::kList && !type.children.empty();
    case TypeId::kMap:
      return v.kind == ValueKind::kMap && v.children.size() % 2 == 0 &&
             type.children.size() == 2;
    default:
      if (IsIntegerLike(type.id)) return v.kind == ValueKind::kLong;
      if (IsBytesLike(type.id)) {
        return v.kind == ValueKind::kString || v.kind == ValueKind::kBytes;
      }
      return false;
  }
}

double AsDouble(const Value& v) {
  return v.kind == ValueKind::kLong ? static_cast<double>(v.as_long()) : v.as_double();
}

Decimal AsDecimal(const Value& v) {
  return v.kind == ValueKind::kLong ? Decimal{v.as_long(), 0} : v.as_decimal();
}

size_t Mix(size_t seed, size_t h) {
  // boost::hash_combine's mixing step (64-bit constant).
  return seed ^ (h + 0x9e3779b97f4a7c15ULL + (seed << 6) + (seed >> 2));
}

constexpr size_t kNullHash = 0x6e756c6cULL;
constexpr size_t kNanHash = 0x4e614eULL;

size_t HashInt128(Int128 x) {
  const auto u = static_cast<unsigned __int128>(x);
  return Mix(std::hash<uint64_t>{}(static_cast<uint64_t>(u)),
             std::hash<uint64_t>{}(static_cast<uint64_t>(u >> 64)));
}

/// A hash of the value's representation, for values whose kind does not fit their type.
size_t StructuralHash(const Value& v) {
  size_t h = std::hash<int>{}(static_cast<int>(v.kind));
  switch (v.kind) {
    case ValueKind::kNull:
      break;
    case ValueKind::kBoolean:
      h = Mix(h, v.as_bool());
      break;
    case ValueKind::kLong:
      h = Mix(h, std::hash<int64_t>{}(v.as_long()));
      break;
    case ValueKind::kDouble:
      h = Mix(h, std::hash<uint64_t>{}(std::bit_cast<uint64_t>(v.as_double())));
      break;
    case ValueKind::kDecimal:
      h = Mix(Mix(h, HashInt128(v.as_decimal().unscaled)), v.as_decimal().scale);
      break;
    case ValueKind::kString:
    case ValueKind::kBytes:
      h = Mix(h, std::hash<std::string>{}(v.as_string()));
      break;
    default:
      break;
  }
  for (FieldId id : v.field_ids) h = Mix(h, std::hash<int32_t>{}(id));
  for (const Value& c : v.children) h = Mix(h, StructuralHash(c));
  return h;
}

/// Null-aware key equality used for nested values (null, or absent, equals null).
bool NullableEqual(const Value* a, const Value* b, const Type& type) {
  const bool a_null = a == nullptr || a->is_null();
  const bool b_null = b == nullptr || b->is_null();
  if (a_null || b_null) return a_null && b_null;
  return KeyValuesEqual(*a, *b, type);
}

size_t NullableHash(const Value* v, const Type& type) {
  return v == nullptr || v->is_null() ? kNullHash : KeyValueHash(*v, type);
}

bool TypedEqual(const Value& a, const Value& b, const Type& type) {
  switch (type.id) {
    case TypeId::kBoolean:
      return a.as_bool() == b.as_bool();
    case TypeId::kFloat:
    case TypeId::kDouble: {
      const double x = AsDouble(a);
      const double y = AsDouble(b);
      if (std::isnan(x) || std::isnan(y)) return std::isnan(x) && std::isnan(y);
      return x == y;  // -0.0 == 0.0
    }
    case TypeId::kDecimal:
      return internal::CompareDecimals(AsDecimal(a), AsDecimal(b)) == 0;
    case TypeId::kStruct:
      for (const NestedField& f : type.fields) {
        if (!NullableEqual(a.FindField(f.id), b.FindField(f.id), f.type)) return false;
      }
      return true;
    case TypeId::kList:
      if (a.children.size() != b.children.size()) return false;
      for (size_t i = 0; i < a.children.size(); ++i) {
        if (!NullableEqual(&a.children[i], &b.children[i], type.element())) return false;
      }
      return true;
    case TypeId::kMap: {
      // Maps are equal when they hold the same key -> value pairs, in any order.
      if (a.children.size() != b.children.size()) return false;
      const size_t n = a.children.size() / 2;
      for (size_t i = 0; i < n; ++i) {
        bool found = false;
        for (size_t j = 0; j < n && !found; ++j) {
          found = NullableEqual(&a.children[i], &b.children[j], type.key()) &&
                  NullableEqual(&a.children[n + i], &b.children[n + j], type.value());
        }
        if (!found) return false;
      }
      return true;
    }
    default:
      if (IsIntegerLike(type.id)) return a.as_long() == b.as_long();
      return a.as_string() == b.as_string();  // bytes-like
  }
}

size_t TypedHash(const Value& v, const Type& type) {
  switch (type.id) {
    case TypeId::kBoolean:
      return std::hash<bool>{}(v.as_bool());
    case TypeId::kFloat:
    case TypeId::kDouble: {
      const double d = AsDouble(v);
      if (std::isnan(d)) return kNanHash;
      return std::hash<uint64_t>{}(std::bit_cast<uint64_t>(d == 0.0 ? 0.0 : d));
    }
    case TypeId::kDecimal: {
      const Decimal n = internal::NormalizeDecimal(AsDecimal(v));
      return Mix(HashInt128(n.unscaled), std::hash<int32_t>{}(n.scale));
    }
    case TypeId::kStruct: {
      size_t h = 0x5157ULL;
      for (const NestedField& f : type.fields)
        h = Mix(h, NullableHash(v.FindField(f.id), f.type));
      return h;
    }
    case TypeId::kList: {
      size_t h = 0x4c4953ULL;
      for (const Value& e : v.children) h = Mix(h, NullableHash(&e, type.element()));
      return h;
    }
    case TypeId::kMap: {
      // Order-independent: a sum of per-entry hashes.
      const size_t n = v.children.size() / 2;
      size_t sum = 0;
      for (size_t i = 0; i < n; ++i) {
        sum += Mix(NullableHash(&v.children[i], type.key()),
                   NullableHash(&v.children[n + i], type.value()));
      }
      return Mix(0x4d4150ULL, sum);
    }
    default:
      if (IsIntegerLike(type.id)) return std::hash<int64_t>{}(v.as_long());
      return std::hash<std::string_view>{}(v.as_string());
  }
}

// ---- the key encoding (AppendKeyEncoding)

enum KeyTag : char {
  kKeyNull = 0,     ///< a null value
  kKeyFitting = 1,  ///< a value whose kind fits the type, in the type's comparison form
  kKeyForeign = 2,  ///< a value whose kind does not fit, structurally
};

void AppendVarint(unsigned __int128 x, std::string& out) {
  while (x >= 0x80) {
    out.push_back(static_cast<char>(static_cast<uint8_t>(x) | 0x80));
    x >>= 7;
  }
  out.push_back(static_cast<char>(x));
}

/// Zigzag: small magnitudes of either sign get short varints.
void AppendSignedVarint(Int128 x, std::string& out) {
  const auto u = static_cast<unsigned __int128>(x);
  AppendVarint((u << 1) ^ static_cast<unsigned __int128>(x >> 127), out);
}

void AppendBytes(std::string_view bytes, std::string& out) {
  AppendVarint(bytes.size(), out);
  out.append(bytes);
}

/// The bits of `d` with every zero as 0.0 and every NaN as one quiet NaN, little-endian.
void AppendDouble(double d, std::string& out) {
  if (std::isnan(d)) d = std::numeric_limits<double>::quiet_NaN();
  if (d == 0.0) d = 0.0;
  const auto bits = std::bit_cast<uint64_t>(d);
  for (int i = 0; i < 8; ++i) out.push_back(static_cast<char>(bits >> (8 * i)));
}

/// The whole structure of `v`, as `Value::operator==` compares it (except NaN).
void AppendStructure(const Value& v, std::string& out) {
  out.push_back(static_cast<char>(v.kind));
  out.push_back(static_cast<char>(v.scalar.index()));
  switch (v.scalar.index()) {
    case 1:
      out.push_back(static_cast<char>(std::get<bool>(v.scalar)));
      break;
    case 2:
      AppendSignedVarint(std::get<int64_t>(v.scalar), out);
      break;
    case 3:
      AppendDouble(std::get<double>(v.scalar), out);
      break;
    case 4:
      AppendSignedVarint(std::get<Decimal>(v.scalar).unscaled, out);
      AppendSignedVarint(std::get<Decimal>(v.scalar).scale, out);
      break;
    case 5:
      AppendBytes(std::get<std::string>(v.scalar), out);
      break;
    default:  // monostate
      break;
  }
  AppendVarint(v.field_ids.size(), out);
  for (FieldId id : v.field_ids) AppendSignedVarint(id, out);
  AppendVarint(v.children.size(), out);
  for (const Value& c : v.children) AppendStructure(c, out);
}

/// A value whose kind fits `type`, in the form TypedEqual compares.
void AppendTyped(const Value& v, const Type& type, std::string& out) {
  switch (type.id) {
    case TypeId::kBoolean:
      out.push_back(static_cast<char>(v.as_bool()));
      return;
    case TypeId::kFloat:
    case TypeId::kDouble:
      AppendDouble(AsDouble(v), out);
      return;
    case TypeId::kDecimal: {
      const Decimal n = internal::NormalizeDecimal(AsDecimal(v));
      AppendSignedVarint(n.scale, out);
      AppendSignedVarint(n.unscaled, out);
      return;
    }
    default:
      if (IsIntegerLike(type.id)) {
        AppendSignedVarint(v.as_long(), out);
      } else {
        AppendBytes(v.as_string(), out);  // bytes-like
      }
      return;
  }
}

}  // namespace

bool KeyValuesEqual(const Value& a, const Value& b, const Type& type) {
  if (a.is_null() || b.is_null()) return a.is_null() && b.is_null();
  const bool fa = KindFits(a, type);
  const bool fb = KindFits(b, type);
  if (fa && fb) return TypedEqual(a, b, type);
  if (!fa && !fb) return a == b;
  return false;
}

size_t KeyValueHash(const Value& v, const Type& type) {
  if (v.is_null()) return kNullHash;
  return KindFits(v, type) ? TypedHash(v, type) : StructuralHash(v);
}

void AppendKeyEncoding(const Value& v, const Type& type, std::string& out) {
  if (v.is_null()) {
    out.push_back(kKeyNull);
  } else if (KindFits(v, type)) {
    assert(IsPrimitive(type.id) && "key encoding of a nested type");
    out.push_back(kKeyFitting);
    AppendTyped(v, type, out);
  } else {
    out.push_back(kKeyForeign);
    AppendStructure(v, out);
  }
}

size_t KeyEncodingHash(std::string_view encoded) {
  // One fitting value whose varint ends at the last byte (at most ten varint bytes carry
  // the 64 bits of an integer's zigzag form): hashed as that integer.
  if (encoded.size() >= 2 && encoded.size() <= 11 && encoded[0] == kKeyFitting) {
    uint64_t zigzag = 0;
    for (size_t i = 1; i < encoded.size(); ++i) {
      const auto byte = static_cast<unsigned char>(encoded[i]);
      zigzag |= static_cast<uint64_t>(byte & 0x7f) << (7 * (i - 1));
      if ((byte & 0x80) == 0) {
        if (i + 1 != encoded.size()) break;
        return static_cast<size_t>((zigzag >> 1) ^ (~(zigzag & 1) + 1));
      }
    }
  }
  return std::hash<std::string_view>{}(encoded);
}

std::optional<int> CompareValues(const Value& a, const Value& b, const Type& type) {
  if (a.is_null() || b.is_null()) return std::nullopt;
  if (!KindFits(a, type) || !KindFits(b, type)) return std::nullopt;
  auto three_way = [](auto x, auto y) { return x < y ? -1 : (y < x ? 1 : 0); };
  switch (type.id) {
    case TypeId::kBoolean:
      return three_way(a.as_bool(), b.as_bool());
    case TypeId::kFloat:
    case TypeId::kDouble: {
      const double x = AsDouble(a);
      const double y = AsDouble(b);
      if (std::isnan(x) || std::isnan(y)) return std::nullopt;
      return three_way(x, y);
    }
    case TypeId::kDecimal:
      return internal::CompareDecimals(AsDecimal(a), AsDecimal(b));
    case TypeId::kString:
    case TypeId::kUuid:
    case TypeId::kFixed:
    case TypeId::kBinary: {
      // std::char_traits<char>::compare orders as unsigned char, i.e. byte-wise unsigned.
      const int c = a.as_string().compare(b.as_string());
      return c < 0 ? -1 : (c > 0 ? 1 : 0);
    }
    default:
      if (IsIntegerLike(type.id)) return three_way(a.as_long(), b.as_long());
      return std::nullopt;  // geometry, geography, variant, unknown and nested: no order
  }
}

}  // namespace ictk
