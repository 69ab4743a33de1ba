/// \file
/// Single values (Iceberg Appendix D) as the model holds them: a value is untyped storage
/// (a kind plus payload) that is interpreted against an Iceberg `Type`. Integers, dates
/// (days), times (micros), timestamps (micros) and timestamp_ns (nanos) are `int64_t`;
/// float/double are `double`; decimals are an exact unscaled 128-bit integer and a scale;
/// uuid/fixed/binary are raw bytes. Equality for keys and ordering for checks are in
/// value_compare.h.
#pragma once

#include <cstdint>
#include <string>
#include <variant>
#include <vector>

#include "model/iceberg/types.h"

namespace ictk {

using Int128 = __int128;

/// An exact decimal: `unscaled * 10^-scale`.
struct Decimal {
  Int128 unscaled = 0;
  int32_t scale = 0;
  bool operator==(const Decimal&) const = default;
};

enum class ValueKind {
  kNull,
  kBoolean,
  kLong,     ///< int, long, date, time, timestamp(tz), timestamp(tz)_ns
  kDouble,   ///< float, double
  kDecimal,
  kString,
  kBytes,    ///< uuid (16 bytes), fixed, binary
  kStruct,   ///< `field_ids[i]` -> `children[i]`, in field order
  kList,     ///< `children` are the elements
  kMap,      ///< `children` = keys then values: first half keys, second half values
};

/// One value. A literal parsed from JSON before binding may be a kLong/kDouble/kString that
/// binding converts to the field's type (see BindLiteral in value_parse.h).
struct Value {
  ValueKind kind = ValueKind::kNull;
  std::variant<std::monostate, bool, int64_t, double, Decimal, std::string> scalar;
  std::vector<FieldId> field_ids;
  std::vector<Value> children;

  bool operator==(const Value&) const = default;  ///< structural identity, not Iceberg equality

  bool is_null() const { return kind == ValueKind::kNull; }
  bool as_bool() const { return std::get<bool>(scalar); }
  int64_t as_long() const { return std::get<int64_t>(scalar); }
  double as_double() const { return std::get<double>(scalar); }
  const Decimal& as_decimal() const { return std::get<Decimal>(scalar); }
  const std::string& as_string() const { return std::get<std::string>(scalar); }  ///< string/bytes

  static Value Null() { return Value{}; }
  static Value Boolean(bool b) { Value v; v.kind = ValueKind::kBoolean; v.scalar = b; return v; }
  static Value Long(int64_t x) { Value v; v.kind = ValueKind::kLong; v.scalar = x; return v; }
  static Value Double(double x) { Value v; v.kind = ValueKind::kDouble; v.scalar = x; return v; }
  static Value DecimalOf(Int128 unscaled, int32_t scale) {
    Value v; v.kind = ValueKind::kDecimal; v.scalar = Decimal{unscaled, scale}; return v;
  }
  static Value String(std::string s) {
    Value v; v.kind = ValueKind::kString; v.scalar = std::move(s); return v;
  }
  static Value Bytes(std::string raw) {
    Value v; v.kind = ValueKind::kBytes; v.scalar = std::move(raw); return v;
  }
  static Value Struct(std::vector<FieldId> ids, std::vector<Value> values) {
    Value v; v.kind = ValueKind::kStruct; v.field_ids = std::move(ids);
    v.children = std::move(values); return v;
  }
  static Value List(std::vector<Value> elements) {
    Value v; v.kind = ValueKind::kList; v.children = std::move(elements); return v;
  }
  static Value Map(std::vector<Value> keys, std::vector<Value> values) {
    Value v; v.kind = ValueKind::kMap;
    v.children = std::move(keys);
    for (auto& x : values) v.children.push_back(std::move(x));
    return v;
  }

  /// For kStruct: the child with this field ID, or nullptr.
  const Value* FindField(FieldId id) const {
    for (size_t i = 0; i < field_ids.size(); ++i)
      if (field_ids[i] == id) return &children[i];
    return nullptr;
  }
};

/// A row of the table as the harness names it: a stable row key and a struct value keyed by
/// top-level field IDs (nested structs are kStruct values keyed by their field IDs).
struct Row {
  std::string key;
  Value values;  ///< kind == kStruct
  bool operator==(const Row&) const = default;
};

/// A readable form for messages and counterexamples (not the JSON form).
std::string ToString(const Value& value);
/// Prints ToString (for gtest and RapidCheck counterexamples).
std::ostream& operator<<(std::ostream& os, const Value& value);

/// Appends code point `cp` to `out` as UTF-8 (for decoding `\uXXXX` escapes).
void AppendUtf8(std::string& out, uint32_t cp);

}  // namespace ictk
