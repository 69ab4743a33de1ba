/// \file
/// Iceberg types and struct fields as JSON (SURROUNDINGS.md "Types and schema JSON";
/// Iceberg Appendix C): primitive type strings ("decimal(9, 2)", "fixed[16]",
/// "geography(srid:4326, karney)") and the struct/list/map objects.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "codec/result.h"
#include "model/iceberg/types.h"

namespace ictk {

/// Parses a type: a primitive type string or a struct/list/map object. Type names are
/// read case-insensitively; whitespace inside the parentheses is allowed. `pointer` is
/// the JSON pointer of `json`, used in every error message.
Result<Type> TypeFromJson(const nlohmann::json& json, std::string_view pointer);
/// The JSON form of a type: its canonical string for a primitive, an object otherwise.
nlohmann::json TypeToJson(const Type& type);

/// Parses a primitive type string (not struct/list/map). The default CRS "OGC:CRS84" and
/// the default algorithm "spherical" are stored as empty strings (types.h), so that
/// `geometry` and `geometry(OGC:CRS84)` are the same type.
Result<Type> TypeFromString(std::string_view text);
/// The canonical Appendix C string of a primitive type: "decimal(9, 2)", "fixed[16]",
/// "geometry(OGC:CRS84)", "geography(OGC:CRS84, spherical)" (defaults written out, as the
/// iceberg-verification canonical forms are). Nested types give "struct"/"list"/"map".
std::string TypeToString(const Type& type);

/// A struct field `{"id", "name", "required", "type", "doc"?, "initial-default"?,
/// "write-default"?}`. Defaults are checked against the field's type (Appendix D; a
/// timestamptz default must carry the "+00:00" offset) and kept as raw JSON text.
Result<NestedField> FieldFromJson(const nlohmann::json& json, std::string_view pointer);
nlohmann::json FieldToJson(const NestedField& field);

}  // namespace ictk
