/// \file
/// Field index, schema validity, key eligibility and promotion for the sample.
#include <fmt/format.h>

#include <set>

#include "sample/schema_internal.h"

namespace ictk::sample {

bool IsPrimitiveType(TypeId t) {
  switch (t) {
    case TypeId::kVariant:
    case TypeId::kStruct:
    case TypeId::kList:
    case TypeId::kMap:
      return false;
    default:
      return true;
  }
}
namespace {

void IndexType(const Type& type, FieldId owner, const FieldSlot& at,
               std::map<FieldId, FieldSlot>& out);

void IndexStructFields(const std::vector<NestedField>& fields, FieldId owner,
                       const FieldSlot& at, std::map<FieldId, FieldSlot>& out) {
  for (const NestedField& f : fields) {
    FieldSlot s;
    s.id = f.id;
    s.type = &f.type;
    s.field = &f;
    s.required = f.required;
    s.path = at.path;
    s.path.push_back(f.id);
    s.in_repeated = at.in_repeated;
    s.in_map = at.in_map;
    s.optional_ancestor = at.optional_ancestor;
    s.parent = owner;
    out.emplace(f.id, s);
    FieldSlot inner = s;
    inner.optional_ancestor = at.optional_ancestor || !f.required;
    IndexType(f.type, f.id, inner, out);
  }
}

void IndexType(const Type& type, FieldId owner, const FieldSlot& at,
               std::map<FieldId, FieldSlot>& out) {
  switch (type.id) {
    case TypeId::kStruct:
      IndexStructFields(type.fields, owner, at, out);
      break;
    case TypeId::kList: {
      if (type.children.empty()) break;
      FieldSlot e;
      e.id = type.element_id;
      e.type = &type.children[0];
      e.required = type.element_required;
      e.in_repeated = true;
      e.in_map = at.in_map;
      e.optional_ancestor = at.optional_ancestor;
      e.parent = owner;
      out.emplace(e.id, e);
      IndexType(type.children[0], e.id, e, out);
      break;
    }
    case TypeId::kMap: {
      if (type.children.size() < 2) break;
      FieldSlot k;
      k.id = type.key_id;
      k.type = &type.children[0];
      k.required = true;
      k.in_repeated = true;
      k.in_map = true;
      k.optional_ancestor = at.optional_ancestor;
      k.parent = owner;
      out.emplace(k.id, k);
      IndexType(type.children[0], k.id, k, out);
      FieldSlot v = k;
      v.id = type.value_id;
      v.type = &type.children[1];
      v.required = type.value_required;
      out.emplace(v.id, v);
      IndexType(type.children[1], v.id, v, out);
      break;
    }
    default:
      break;
  }
}

bool IsV3Type(TypeId id) {
  return id == TypeId::kUnknown || id == TypeId::kTimestampNs ||
         id == TypeId::kTimestampTzNs || id == TypeId::kGeometry ||
         id == TypeId::kGeography || id == TypeId::kVariant;
}

void CollectIds(const Type& type, std::vector<FieldId>& ids);

void CollectFieldIds(const std::vector<NestedField>& fields, std::vector<FieldId>& ids) {
  for (const NestedField& f : fields) {
    ids.push_back(f.id);
    CollectIds(f.type, ids);
  }
}

void CollectIds(const Type& type, std::vector<FieldId>& ids) {
  if (type.id == TypeId::kStruct) CollectFieldIds(type.fields, ids);
  if (type.id == TypeId::kList) {
    ids.push_back(type.element_id);
    for (const Type& c : type.children) CollectIds(c, ids);
  }
  if (type.id == TypeId::kMap) {
    ids.push_back(type.key_id);
    ids.push_back(type.value_id);
    for (const Type& c : type.children) CollectIds(c, ids);
  }
}

std::string TypeProblem(const Type& type, int32_t format_version,
                        const std::string& where, const SchemaLeniency& lenient);

std::string FieldsProblem(const std::vector<NestedField>& fields,
                          int32_t format_version, const SchemaLeniency& lenient) {
  std::set<std::string> names;
  for (const NestedField& f : fields) {
    if (!names.insert(f.name).second && !lenient.sibling_names_shared) {
      return fmt::format("two fields are named '{}'", f.name);
    }
    if (f.type.id == TypeId::kUnknown && f.required) {
      return fmt::format(
          "field {} of type unknown must be optional (ice.unknown-optional)", f.id);
    }
    if ((f.initial_default_json || f.write_default_json) && format_version < 3) {
      return fmt::format("field {} has a default, which needs format version 3", f.id);
    }
    std::string p =
        TypeProblem(f.type, format_version, fmt::format("field {}", f.id), lenient);
    if (!p.empty()) return p;
  }
  return {};
}

std::string TypeProblem(const Type& type, int32_t format_version,
                        const std::string& where, const SchemaLeniency& lenient) {
  if (IsV3Type(type.id) && format_version < 3 && !lenient.v3_types_anywhere) {
    return fmt::format("{}: type {} needs format version 3", where, ToString(type.id));
  }
  if (type.id == TypeId::kDecimal && (type.precision < 1 || type.precision > 38 ||
                                      type.scale < 0 || type.scale > type.precision)) {
    return fmt::format("{}: decimal({}, {}) is out of range", where, type.precision,
                       type.scale);
  }
  if (type.id == TypeId::kStruct) return FieldsProblem(type.fields, format_version, lenient);
  for (const Type& c : type.children) {
    std::string p = TypeProblem(c, format_version, where, lenient);
    if (!p.empty()) return p;
  }
  if (type.id == TypeId::kList && type.children[0].id == TypeId::kUnknown &&
      type.element_required) {
    return fmt::format("{}: a list of unknown must have optional elements", where);
  }
  if (type.id == TypeId::kMap && type.children.size() == 2 &&
      type.children[1].id == TypeId::kUnknown && type.value_required) {
    return fmt::format("{}: a map of unknown must have optional values", where);
  }
  return {};
}

}  // namespace

std::map<FieldId, FieldSlot> IndexFields(const std::vector<NestedField>& fields) {
  std::map<FieldId, FieldSlot> out;
  IndexStructFields(fields, 0, FieldSlot{}, out);
  return out;
}

std::string SchemaProblem(const std::vector<NestedField>& fields, int32_t format_version,
                          const SchemaLeniency& lenient) {
  std::vector<FieldId> ids;
  CollectFieldIds(fields, ids);
  std::set<FieldId> seen;
  for (FieldId id : ids) {
    if (!seen.insert(id).second) {
      return fmt::format("field ID {} is used twice (ice.field-ids-unique)", id);
    }
    if (id <= 0) return fmt::format("field ID {} is not positive", id);
  }
  return FieldsProblem(fields, format_version, lenient);
}

FieldId HighestFieldId(const std::vector<NestedField>& fields) {
  std::vector<FieldId> ids;
  CollectFieldIds(fields, ids);
  FieldId max = 0;
  for (FieldId id : ids) max = std::max(max, id);
  return max;
}

KeyFieldVerdict CheckKeyField(const FieldSlot& slot, bool primary_key,
                              const KeyFieldLeniency& leniency) {
  const TypeId t = slot.type->id;
  if (slot.in_repeated && !(slot.in_map ? leniency.map_ok : leniency.repeated_ok)) {
    return {fmt::format("field {} is inside a list or a map", slot.id),
            "key.not-in-list-map"};
  }
  const bool collection = t == TypeId::kList || t == TypeId::kMap;
  if (!IsPrimitiveType(t) && !(t == TypeId::kStruct && leniency.struct_ok) &&
      !(collection && leniency.collection_ok) &&
      !(t == TypeId::kVariant && leniency.variant_ok)) {
    return {fmt::format("field {} is not primitive", slot.id), "key.primitive-only"};
  }
  if ((t == TypeId::kFloat && !leniency.float_ok) ||
      (t == TypeId::kDouble && !leniency.double_ok)) {
    return {fmt::format("field {} is a {}", slot.id, ToString(t)), "key.no-float-double"};
  }
  if ((t == TypeId::kGeometry && !leniency.geo_ok) ||
      (t == TypeId::kGeography && !leniency.geography_ok)) {
    return {fmt::format("field {} is a {}", slot.id, ToString(t)), "key.no-geo"};
  }
  if (t == TypeId::kUnknown && !leniency.unknown_ok) {
    return {fmt::format("field {} is of type unknown", slot.id), "key.no-unknown"};
  }
  if (!primary_key && ((!slot.required && leniency.unique_needs_required) ||
                       (slot.optional_ancestor && leniency.unique_needs_required_parent))) {
    return {fmt::format("unique field {} is optional", slot.id), "key.unique-optional-ok"};
  }
  if (primary_key && ((!slot.required && !leniency.optional_ok) ||
                      (slot.optional_ancestor && !leniency.optional_parent_ok))) {
    return {fmt::format("primary-key field {} is optional or under an optional struct",
                        slot.id),
            "key.pk-required"};
  }
  return {};
}

bool ValidIdentifierField(const FieldSlot& slot, const IdentifierLeniency& lenient) {
  const TypeId t = slot.type->id;
  return (IsPrimitiveType(t) || lenient.non_primitive_ok) &&
         ((t != TypeId::kFloat && t != TypeId::kDouble) || lenient.float_ok) &&
         (slot.required || lenient.optional_ok) && (!slot.in_repeated || lenient.repeated_ok) &&
         (!slot.optional_ancestor || lenient.optional_parent_ok);
}

bool PromotionAllowed(const Type& from, const Type& to, int32_t format_version) {
  if (from == to) return true;
  if (from.id == TypeId::kInt && to.id == TypeId::kLong) return true;
  if (from.id == TypeId::kFloat && to.id == TypeId::kDouble) return true;
  if (from.id == TypeId::kDecimal && to.id == TypeId::kDecimal) {
    return to.scale == from.scale && to.precision > from.precision && to.precision <= 38;
  }
  if (format_version >= 3) {
    if (from.id == TypeId::kDate &&
        (to.id == TypeId::kTimestamp || to.id == TypeId::kTimestampNs)) {
      return true;
    }
    if (from.id == TypeId::kUnknown) return true;
  }
  return false;
}

bool SameTypeShape(const Type& a, const Type& b) {
  if (a.id != b.id) return false;
  switch (a.id) {
    case TypeId::kDecimal:
      return a.precision == b.precision && a.scale == b.scale;
    case TypeId::kFixed:
      return a.length == b.length;
    case TypeId::kStruct: {
      if (a.fields.size() != b.fields.size()) return false;
      for (size_t i = 0; i < a.fields.size(); ++i) {
        if (!SameTypeShape(a.fields[i].type, b.fields[i].type)) return false;
      }
      return true;
    }
    case TypeId::kList:
    case TypeId::kMap: {
      if (a.children.size() != b.children.size()) return false;
      for (size_t i = 0; i < a.children.size(); ++i) {
        if (!SameTypeShape(a.children[i], b.children[i])) return false;
      }
      return true;
    }
    default:
      return true;
  }
}

}  // namespace ictk::sample
