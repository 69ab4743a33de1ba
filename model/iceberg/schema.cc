/// \file
/// Field lookups through nested types and the type-promotion table (SURROUNDINGS.md "Type
/// promotion", rule ice.type-promotion).
#include "model/iceberg/schema.h"

#include <algorithm>

namespace ictk {

namespace {

/// The synthesized field of a list element or a map key/value.
NestedField Synthesized(FieldId id, std::string name, bool required, const Type& type) {
  NestedField f;
  f.id = id;
  f.name = std::move(name);
  f.required = required;
  f.type = type;
  return f;
}

/// The child fields of a field's type: struct fields, the list element, the map key and
/// value (each synthesized), in schema order.
std::vector<NestedField> ChildFields(const Type& type) {
  switch (type.id) {
    case TypeId::kStruct:
      return type.fields;
    case TypeId::kList:
      if (type.children.empty()) return {};
      return {
          Synthesized(type.element_id, "element", type.element_required, type.element())};
    case TypeId::kMap:
      if (type.children.size() < 2) return {};
      return {Synthesized(type.key_id, "key", true, type.key()),
              Synthesized(type.value_id, "value", type.value_required, type.value())};
    default:
      return {};
  }
}

/// Depth-first search of `fields` for `id`; the flags and `path` describe what encloses
/// `fields`. Fills `out` and returns true when found.
bool FindIn(const std::vector<NestedField>& fields, FieldId id, bool in_list_or_map,
            bool under_optional_struct, std::vector<FieldId>& path, FieldLocation& out) {
  for (const NestedField& field : fields) {
    path.push_back(field.id);
    if (field.id == id) {
      out.field = field;
      out.in_list_or_map = in_list_or_map;
      out.under_optional_struct = under_optional_struct;
      out.path = path;
      return true;
    }
    const bool child_in_list_or_map =
        in_list_or_map || field.type.id == TypeId::kList || field.type.id == TypeId::kMap;
    const bool child_under_optional =
        under_optional_struct || (field.type.id == TypeId::kStruct && !field.required);
    if (FindIn(ChildFields(field.type), id, child_in_list_or_map, child_under_optional,
               path, out)) {
      return true;
    }
    path.pop_back();
  }
  return false;
}

void CollectIds(const std::vector<NestedField>& fields, std::vector<FieldId>& out) {
  for (const NestedField& field : fields) {
    out.push_back(field.id);
    CollectIds(ChildFields(field.type), out);
  }
}

}  // namespace

std::optional<FieldLocation> FindField(const std::vector<NestedField>& fields,
                                       FieldId id) {
  FieldLocation loc;
  std::vector<FieldId> path;
  if (!FindIn(fields, id, false, false, path, loc)) return std::nullopt;
  return loc;
}

std::vector<FieldId> AllFieldIds(const std::vector<NestedField>& fields) {
  std::vector<FieldId> out;
  CollectIds(fields, out);
  return out;
}

FieldId MaxFieldId(const std::vector<NestedField>& fields) {
  std::vector<FieldId> ids = AllFieldIds(fields);
  return ids.empty() ? 0 : *std::max_element(ids.begin(), ids.end());
}

/// "int -> long, float -> double, decimal(P,S) -> decimal(P',S) where P' > P (all
/// versions); date -> timestamp, timestamp_ns and unknown -> any type (v3+)"
/// (ice.type-promotion).
bool CanPromote(const Type& from, const Type& to, int format_version) {
  if (from == to) return false;
  switch (from.id) {
    case TypeId::kInt:
      return to.id == TypeId::kLong;
    case TypeId::kFloat:
      return to.id == TypeId::kDouble;
    case TypeId::kDecimal:
      return to.id == TypeId::kDecimal && to.scale == from.scale &&
             to.precision > from.precision && to.precision <= 38;
    case TypeId::kDate:
      return format_version >= 3 &&
             (to.id == TypeId::kTimestamp || to.id == TypeId::kTimestampNs);
    case TypeId::kUnknown:
      return format_version >= 3 && to.id != TypeId::kUnknown;
    default:
      return false;
  }
}

}  // namespace ictk
