/// \file
/// Iceberg data types and schemas for format versions 1-4 (SURROUNDINGS.md "Types and schema
/// JSON"): primitives, `variant`, and the nested struct/list/map types with their field IDs.
/// Plain values with defaulted equality; the classification of types (primitive, nested) is
/// in kinds.h, the lookups and promotion rules are in schema.h.
#pragma once

#include <cstdint>
#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

namespace ictk {

using FieldId = int32_t;

/// Every Iceberg type. Primitive kinds come first; `kVariant` is neither primitive nor
/// nested; `kStruct`, `kList` and `kMap` are nested.
enum class TypeId {
  kBoolean,
  kInt,
  kLong,
  kFloat,
  kDouble,
  kDecimal,
  kDate,
  kTime,
  kTimestamp,
  kTimestampTz,
  kTimestampNs,
  kTimestampTzNs,
  kString,
  kUuid,
  kFixed,
  kBinary,
  kUnknown,
  kGeometry,
  kGeography,
  kVariant,
  kStruct,
  kList,
  kMap,
};

struct NestedField;

/// One Iceberg type. Only the members that belong to `id` are meaningful:
/// decimal: `precision`, `scale`; fixed: `length`; geometry: `crs`; geography: `crs`,
/// `algorithm`; struct: `fields`; list: `element_id`, `element_required`, `children[0]`;
/// map: `key_id`, `value_id`, `value_required`, `children[0]` (key), `children[1]` (value).
struct Type {
  TypeId id = TypeId::kUnknown;
  int32_t precision = 0;
  int32_t scale = 0;
  int64_t length = 0;
  std::string crs;        ///< empty = the default CRS
  std::string algorithm;  ///< empty = the default edge algorithm
  std::vector<NestedField> fields;
  FieldId element_id = 0;
  bool element_required = false;
  FieldId key_id = 0;
  FieldId value_id = 0;
  bool value_required = false;
  std::vector<Type> children;

  bool operator==(const Type&) const;

  static Type Primitive(TypeId id);
  static Type Decimal(int32_t precision, int32_t scale);
  static Type Fixed(int64_t length);
  static Type Struct(std::vector<NestedField> fields);
  static Type List(FieldId element_id, bool element_required, Type element);
  static Type Map(FieldId key_id, Type key, FieldId value_id, bool value_required, Type value);

  const Type& element() const { return children.at(0); }
  const Type& key() const { return children.at(0); }
  const Type& value() const { return children.at(1); }
};

/// A struct field. Defaults are kept as the text of their JSON value (the model never parses
/// JSON); `has_initial_default`/`has_write_default` say whether one was given at all.
struct NestedField {
  FieldId id = 0;
  std::string name;
  bool required = false;
  Type type;
  std::optional<std::string> doc;
  std::optional<std::string> initial_default_json;  ///< raw JSON text of `initial-default`
  std::optional<std::string> write_default_json;    ///< raw JSON text of `write-default`

  bool operator==(const NestedField&) const = default;
};

// Defined after NestedField: clang (libstdc++'s constexpr vector) needs NestedField
// complete wherever a Type is constructed.
inline Type Type::Primitive(TypeId id) { Type t; t.id = id; return t; }
inline Type Type::Decimal(int32_t precision, int32_t scale) {
  Type t; t.id = TypeId::kDecimal; t.precision = precision; t.scale = scale; return t;
}
inline Type Type::Fixed(int64_t length) { Type t; t.id = TypeId::kFixed; t.length = length; return t; }

inline bool Type::operator==(const Type& o) const {
  return id == o.id && precision == o.precision && scale == o.scale && length == o.length &&
         crs == o.crs && algorithm == o.algorithm && fields == o.fields &&
         element_id == o.element_id && element_required == o.element_required &&
         key_id == o.key_id && value_id == o.value_id && value_required == o.value_required &&
         children == o.children;
}

inline Type Type::Struct(std::vector<NestedField> fields) {
  Type t; t.id = TypeId::kStruct; t.fields = std::move(fields); return t;
}
inline Type Type::List(FieldId element_id, bool element_required, Type element) {
  Type t; t.id = TypeId::kList; t.element_id = element_id;
  t.element_required = element_required; t.children.push_back(std::move(element)); return t;
}
inline Type Type::Map(FieldId key_id, Type key, FieldId value_id, bool value_required,
                      Type value) {
  Type t; t.id = TypeId::kMap; t.key_id = key_id; t.value_id = value_id;
  t.value_required = value_required; t.children.push_back(std::move(key));
  t.children.push_back(std::move(value)); return t;
}

/// A schema: the top-level struct plus `schema-id` (v2+) and `identifier-field-ids`.
/// `identifier_field_ids` is nullopt when the key is absent (an empty list is kept as such).
struct Schema {
  std::optional<int32_t> schema_id;
  std::vector<NestedField> fields;
  std::optional<std::vector<FieldId>> identifier_field_ids;

  bool operator==(const Schema&) const = default;
};

/// The canonical Iceberg spelling of a type ("decimal(9, 2)", "fixed[16]", "struct<...>").
std::string ToString(const Type& type);
std::string ToString(TypeId id);
/// Prints ToString (for gtest and RapidCheck counterexamples).
std::ostream& operator<<(std::ostream& os, const Type& type);
std::ostream& operator<<(std::ostream& os, TypeId id);

}  // namespace ictk
