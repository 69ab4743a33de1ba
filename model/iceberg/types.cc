/// \file
/// Printable forms of Iceberg types: the canonical spellings of SURROUNDINGS.md "Types
/// and schema JSON" for primitives, and Iceberg Java's readable
/// struct<...>/list<...>/map<...>.
#include "model/iceberg/types.h"

#include <fmt/format.h>

#include <ostream>

namespace ictk {

std::string ToString(TypeId id) {
  switch (id) {
    case TypeId::kBoolean:
      return "boolean";
    case TypeId::kInt:
      return "int";
    case TypeId::kLong:
      return "long";
    case TypeId::kFloat:
      return "float";
    case TypeId::kDouble:
      return "double";
    case TypeId::kDecimal:
      return "decimal";
    case TypeId::kDate:
      return "date";
    case TypeId::kTime:
      return "time";
    case TypeId::kTimestamp:
      return "timestamp";
    case TypeId::kTimestampTz:
      return "timestamptz";
    case TypeId::kTimestampNs:
      return "timestamp_ns";
    case TypeId::kTimestampTzNs:
      return "timestamptz_ns";
    case TypeId::kString:
      return "string";
    case TypeId::kUuid:
      return "uuid";
    case TypeId::kFixed:
      return "fixed";
    case TypeId::kBinary:
      return "binary";
    case TypeId::kUnknown:
      return "unknown";
    case TypeId::kGeometry:
      return "geometry";
    case TypeId::kGeography:
      return "geography";
    case TypeId::kVariant:
      return "variant";
    case TypeId::kStruct:
      return "struct";
    case TypeId::kList:
      return "list";
    case TypeId::kMap:
      return "map";
  }
  return "?";
}

namespace {

/// "1: id: required long" (with " (doc)" when the field has one), as Iceberg Java prints
/// it.
std::string FieldToString(const NestedField& field) {
  std::string out =
      fmt::format("{}: {}: {} {}", field.id, field.name,
                  field.required ? "required" : "optional", ToString(field.type));
  if (field.doc) out += fmt::format(" ({})", *field.doc);
  return out;
}

}  // namespace

std::string ToString(const Type& type) {
  switch (type.id) {
    case TypeId::kDecimal:
      return fmt::format("decimal({}, {})", type.precision, type.scale);
    case TypeId::kFixed:
      return fmt::format("fixed[{}]", type.length);
    case TypeId::kGeometry:
      return type.crs.empty() ? "geometry" : fmt::format("geometry({})", type.crs);
    case TypeId::kGeography:
      if (type.crs.empty() && type.algorithm.empty()) return "geography";
      if (type.algorithm.empty()) return fmt::format("geography({})", type.crs);
      // The default CRS is spelled out when only the algorithm is given.
      return fmt::format("geography({}, {})", type.crs.empty() ? "OGC:CRS84" : type.crs,
                         type.algorithm);
    case TypeId::kStruct: {
      std::string out = "struct<";
      for (size_t i = 0; i < type.fields.size(); ++i) {
        if (i > 0) out += ", ";
        out += FieldToString(type.fields[i]);
      }
      return out + ">";
    }
    case TypeId::kList:
      // Iceberg Java's ListType/MapType spelling: element and key/value types only.
      if (type.children.empty()) return "list<?>";
      return fmt::format("list<{}>", ToString(type.element()));
    case TypeId::kMap:
      if (type.children.size() < 2) return "map<?>";
      return fmt::format("map<{}, {}>", ToString(type.key()), ToString(type.value()));
    default:
      return ToString(type.id);
  }
}

std::ostream& operator<<(std::ostream& os, const Type& type) {
  return os << ToString(type);
}
std::ostream& operator<<(std::ostream& os, TypeId id) { return os << ToString(id); }

}  // namespace ictk
