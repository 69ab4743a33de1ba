/// \file
/// Schema edits for the minimizer (schema_edits.h).
#include "generators/schema_edits.h"

#include <fmt/format.h>

#include <algorithm>
#include <optional>
#include <set>

#include "generators/history.h"
#include "generators/schema_gen.h"
#include "generators/value_gen.h"

namespace ictk {
namespace {

/// Collects the field IDs of `fields` and everything nested in them.
void CollectIds(const std::vector<NestedField>& fields, std::set<FieldId>& out) {
  for (const NestedField& f : fields) {
    out.insert(f.id);
    const Type& t = f.type;
    if (t.id == TypeId::kStruct) CollectIds(t.fields, out);
    if (t.id == TypeId::kList) {
      out.insert(t.element_id);
      if (!t.children.empty() && t.children[0].id == TypeId::kStruct)
        CollectIds(t.children[0].fields, out);
    }
    if (t.id == TypeId::kMap) {
      out.insert(t.key_id);
      out.insert(t.value_id);
      if (t.children.size() > 1 && t.children[1].id == TypeId::kStruct)
        CollectIds(t.children[1].fields, out);
    }
  }
}

bool HoldsIdentifier(const Schema& schema, const NestedField& field) {
  if (!schema.identifier_field_ids) return false;
  std::set<FieldId> ids;
  CollectIds({field}, ids);
  for (FieldId id : *schema.identifier_field_ids)
    if (ids.count(id)) return true;
  return false;
}

std::optional<size_t> TopLevel(const Schema& schema, std::string_view name) {
  for (size_t i = 0; i < schema.fields.size(); ++i)
    if (schema.fields[i].name == name) return i;
  return std::nullopt;
}

/// The names from the top level down to field `id`, or empty when it is not reached
/// through structs alone.
bool PathOf(const std::vector<NestedField>& fields, FieldId id,
            std::vector<std::string>& path) {
  for (const NestedField& f : fields) {
    path.push_back(f.name);
    if (f.id == id) return true;
    if (f.type.id == TypeId::kStruct && PathOf(f.type.fields, id, path)) return true;
    path.pop_back();
  }
  return false;
}

std::optional<FieldId> IdAt(const std::vector<NestedField>& fields,
                            const std::vector<std::string>& path, size_t depth = 0) {
  for (const NestedField& f : fields) {
    if (f.name != path[depth]) continue;
    if (depth + 1 == path.size()) return f.id;
    if (f.type.id != TypeId::kStruct) return std::nullopt;
    return IdAt(f.type.fields, path, depth + 1);
  }
  return std::nullopt;
}

/// The n-th plain name of a column: a, b, ..., z, a1, b1, ...
std::string PlainName(size_t n) {
  std::string name(1, static_cast<char>('a' + n % 26));
  if (n >= 26) name += std::to_string(n / 26);
  return name;
}

/// The fields' plain names, in order (kPlainNames): identifier fields `id`, `id2`, ...,
/// the others a, b, c, ... skipping `id`-like clashes; struct fields likewise within
/// their struct (none of them is an identifier field at the top level).
void PlainNames(std::vector<NestedField>& fields, const std::set<FieldId>& identifiers) {
  size_t ids = 0, others = 0;
  for (NestedField& f : fields) {
    if (identifiers.count(f.id)) {
      f.name = ++ids == 1 ? "id" : "id" + std::to_string(ids);
    } else {
      f.name = PlainName(others++);
    }
    if (f.type.id == TypeId::kStruct) PlainNames(f.type.fields, identifiers);
  }
}

bool HasPlainNames(const std::vector<NestedField>& fields,
                   const std::set<FieldId>& identifiers) {
  std::vector<NestedField> copy = fields;
  PlainNames(copy, identifiers);
  return copy == fields;
}

std::set<FieldId> IdentifierSet(const Schema& schema) {
  std::set<FieldId> out;
  if (schema.identifier_field_ids)
    out.insert(schema.identifier_field_ids->begin(), schema.identifier_field_ids->end());
  return out;
}

}  // namespace

std::string ToString(const SchemaEdit& edit) {
  if (edit.kind == SchemaEditKind::kPlainNames) return "plain-names";
  std::string_view kind = "drop";
  if (edit.kind == SchemaEditKind::kUnnest) kind = "unnest";
  if (edit.kind == SchemaEditKind::kLower) kind = "lower";
  return fmt::format("{}({})", kind, edit.column);
}

bool EditApplies(const Schema& schema, const SchemaEdit& edit) {
  if (edit.kind == SchemaEditKind::kPlainNames)
    return !HasPlainNames(schema.fields, IdentifierSet(schema));
  const std::optional<size_t> at = TopLevel(schema, edit.column);
  if (!at) return false;
  const NestedField& f = schema.fields[*at];
  if (HoldsIdentifier(schema, f)) return false;
  switch (edit.kind) {
    case SchemaEditKind::kDrop:
      return schema.fields.size() > 1;
    case SchemaEditKind::kUnnest:
      return f.type.id == TypeId::kStruct && !f.type.fields.empty();
    case SchemaEditKind::kLower:
      return f.type.id != TypeId::kInt;
    case SchemaEditKind::kPlainNames:
      break;
  }
  return false;
}

void ApplySchemaEdits(Schema& schema, const std::vector<SchemaEdit>& edits) {
  if (edits.empty()) return;
  // Identifier fields by name path: edits never touch a column holding one, so each path
  // still leads to its field afterwards.
  std::vector<std::vector<std::string>> identifier_paths;
  if (schema.identifier_field_ids)
    for (FieldId id : *schema.identifier_field_ids) {
      std::vector<std::string> path;
      if (PathOf(schema.fields, id, path)) identifier_paths.push_back(std::move(path));
    }
  for (const SchemaEdit& edit : edits) {
    if (!EditApplies(schema, edit)) continue;
    if (edit.kind == SchemaEditKind::kPlainNames) {
      // The field IDs are still those generated (they are assigned again below), so the
      // identifier fields are found by ID, and their name paths follow the renaming.
      PlainNames(schema.fields, IdentifierSet(schema));
      identifier_paths.clear();
      if (schema.identifier_field_ids)
        for (FieldId id : *schema.identifier_field_ids) {
          std::vector<std::string> path;
          if (PathOf(schema.fields, id, path)) identifier_paths.push_back(std::move(path));
        }
      continue;
    }
    const size_t at = *TopLevel(schema, edit.column);
    switch (edit.kind) {
      case SchemaEditKind::kDrop:
        schema.fields.erase(schema.fields.begin() + static_cast<std::ptrdiff_t>(at));
        break;
      case SchemaEditKind::kUnnest: {
        NestedField parent = schema.fields[at];
        std::vector<NestedField> lifted;
        for (NestedField child : parent.type.fields) {
          std::string name = child.name;
          if (TopLevel(schema, name)) name = parent.name + "_" + child.name;
          while (TopLevel(schema, name)) name += "_";
          child.name = std::move(name);
          // An optional struct's fields are optional at the top level.
          if (!parent.required) child.required = false;
          lifted.push_back(std::move(child));
        }
        schema.fields.erase(schema.fields.begin() + static_cast<std::ptrdiff_t>(at));
        schema.fields.insert(schema.fields.begin() + static_cast<std::ptrdiff_t>(at),
                             lifted.begin(), lifted.end());
        break;
      }
      case SchemaEditKind::kLower: {
        NestedField& f = schema.fields[at];
        f.type = Type::Primitive(TypeId::kInt);
        f.initial_default_json.reset();
        f.write_default_json.reset();
        break;
      }
      case SchemaEditKind::kPlainNames:
        break;
    }
  }
  AssignFieldIds(schema.fields, 1);
  if (schema.identifier_field_ids) {
    std::vector<FieldId> ids;
    for (const auto& path : identifier_paths)
      if (std::optional<FieldId> id = IdAt(schema.fields, path)) ids.push_back(*id);
    schema.identifier_field_ids = std::move(ids);
  }
}

std::optional<Schema> PlanSchema(const TablePlan& table) {
  SchemaGenOptions so;
  so.format_version = table.format_version;
  so.identifier_fields = table.identifier_fields;
  so.nested = true;
  std::optional<Schema> schema = Sample(GenSchema(so), table.schema_seed, table.schema_size);
  if (schema) ApplySchemaEdits(*schema, table.schema_edits);
  return schema;
}

}  // namespace ictk
