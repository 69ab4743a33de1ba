/// \file
/// Lookups over a schema by field ID through nesting, and the type-promotion table by format
/// version (SURROUNDINGS.md "Type promotion"). Used by the key, expression and schema-change
/// rules.
#pragma once

#include <optional>
#include <vector>

#include "model/iceberg/types.h"

namespace ictk {

/// Where a field sits: the field itself (for list elements and map keys/values a synthesized
/// NestedField with that ID, name "element"/"key"/"value"), and what encloses it.
struct FieldLocation {
  NestedField field;
  bool in_list_or_map = false;          ///< some ancestor is a list or a map (or it is an element/key/value)
  bool under_optional_struct = false;   ///< some enclosing struct field is optional
  std::vector<FieldId> path;            ///< IDs from the top level down to the field itself
};

/// Finds a field by ID anywhere in the schema (structs, list elements, map keys and values).
std::optional<FieldLocation> FindField(const std::vector<NestedField>& fields, FieldId id);
inline std::optional<FieldLocation> FindField(const Schema& schema, FieldId id) {
  return FindField(schema.fields, id);
}

/// Every field ID in the schema, including list element and map key/value IDs, in
/// depth-first order (duplicates kept, so ice.field-ids-unique can find them).
std::vector<FieldId> AllFieldIds(const std::vector<NestedField>& fields);

/// The highest field ID in the schema (0 when empty).
FieldId MaxFieldId(const std::vector<NestedField>& fields);

/// ice.type-promotion: whether `from` may be promoted to `to` in a table of `format_version`
/// (int->long, float->double, decimal precision widening, date->timestamp[_ns] in v3+,
/// unknown->anything in v3+). `from == to` is not a promotion (returns false).
bool CanPromote(const Type& from, const Type& to, int format_version);

}  // namespace ictk
