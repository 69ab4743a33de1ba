/// \file
/// What the engine's operations share (engine_support_internal.h): constraint lookups, the
/// leniencies a mutant grants, field lookups and ID reassignment in a schema being
/// evolved, default checks.
#include <fmt/format.h>

#include <set>

#include "sample/engine_support_internal.h"
#include "sample/single_value_internal.h"

namespace ictk::sample {

std::string_view TypeText(ConstraintType t) {
  switch (t) {
    case ConstraintType::kCheck:
      return "check";
    case ConstraintType::kUnique:
      return "unique";
    case ConstraintType::kPrimaryKey:
      return "primary-key";
  }
  return "";
}

Constraint* FindByName(std::vector<Constraint>& cs, const std::string& name) {
  for (Constraint& c : cs)
    if (c.name && *c.name == name) return &c;
  return nullptr;
}

SchemaLeniency SchemaLenientOf(const Engine& e) {
  SchemaLeniency l;
  l.v3_types_anywhere = e.Has(Mutant::kV3TypeBeforeV3);
  l.sibling_names_shared = e.Has(Mutant::kSiblingNameReused);
  return l;
}

/// The ice.identifier-fields clause the engine's mutant skips, if any.
IdentifierLeniency IdentifierLenientOf(const Engine& e) {
  IdentifierLeniency l;
  l.non_primitive_ok = e.Has(Mutant::kNonPrimitiveIdentifierAccepted);
  l.float_ok = e.Has(Mutant::kFloatIdentifierAccepted);
  l.optional_ok = e.Has(Mutant::kOptionalIdentifierAccepted);
  l.repeated_ok = e.Has(Mutant::kRepeatedIdentifierAccepted);
  l.optional_parent_ok = e.Has(Mutant::kIdentifierUnderOptionalAccepted);
  return l;
}

std::set<FieldId> Referenced(const Constraint& c) {
  if (c.field_ids) return {c.field_ids->begin(), c.field_ids->end()};
  if (c.expression) return ReferencedIds(*c.expression);
  return {};
}

/// Assigns fresh IDs (from `last`) to a type given in add-column, as Iceberg does.
void ReassignIds(Type& type, FieldId& last) {
  switch (type.id) {
    case TypeId::kStruct:
      for (NestedField& f : type.fields) f.id = ++last;
      for (NestedField& f : type.fields) ReassignIds(f.type, last);
      break;
    case TypeId::kList:
      type.element_id = ++last;
      for (Type& c : type.children) ReassignIds(c, last);
      break;
    case TypeId::kMap:
      type.key_id = ++last;
      type.value_id = ++last;
      for (Type& c : type.children) ReassignIds(c, last);
      break;
    default:
      break;
  }
}

/// The sibling list that holds field `id` (top level or a struct's fields), or nullptr.
std::vector<NestedField>* SiblingsOf(std::vector<NestedField>& fields, FieldId id) {
  for (NestedField& f : fields) {
    if (f.id == id) return &fields;
  }
  for (NestedField& f : fields) {
    Type* t = &f.type;
    while (t->id == TypeId::kList || t->id == TypeId::kMap) {
      t = t->id == TypeId::kList ? &t->children[0] : &t->children[1];
    }
    if (t->id == TypeId::kStruct) {
      if (auto* s = SiblingsOf(t->fields, id)) return s;
    }
  }
  return nullptr;
}

NestedField* FieldById(std::vector<NestedField>& fields, FieldId id) {
  std::vector<NestedField>* sib = SiblingsOf(fields, id);
  if (sib == nullptr) return nullptr;
  for (NestedField& f : *sib)
    if (f.id == id) return &f;
  return nullptr;
}

/// The struct fields a column added under `parent` goes into, or nullptr.
std::vector<NestedField>* ChildrenOf(std::vector<NestedField>& fields, FieldId parent) {
  NestedField* f = FieldById(fields, parent);
  Type* t = nullptr;
  if (f != nullptr) {
    t = &f->type;
  } else {
    return nullptr;
  }
  while (t->id == TypeId::kList || t->id == TypeId::kMap) {
    t = t->id == TypeId::kList ? &t->children[0] : &t->children[1];
  }
  return t->id == TypeId::kStruct ? &t->fields : nullptr;
}

void CollectAllIds(const Type& t, std::set<FieldId>& out) {
  for (const NestedField& f : t.fields) {
    out.insert(f.id);
    CollectAllIds(f.type, out);
  }
  if (t.id == TypeId::kList) out.insert(t.element_id);
  if (t.id == TypeId::kMap) {
    out.insert(t.key_id);
    out.insert(t.value_id);
  }
  for (const Type& c : t.children) CollectAllIds(c, out);
}

bool DefaultFits(const std::optional<std::string>& text, const Type& type) {
  if (!text) return true;
  return ValueOfJsonText(*text, type, /*utc_only=*/true).has_value();
}

/// ASCII lower case (mutant type-name-case-insensitive).
std::string LowerCase(std::string text) {
  for (char& ch : text)
    if (ch >= 'A' && ch <= 'Z') ch = static_cast<char>(ch - 'A' + 'a');
  return text;
}

}  // namespace ictk::sample
