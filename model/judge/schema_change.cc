/// \file
/// update-schema: Iceberg's schema evolution (SURROUNDINGS.md "Schema evolution", rule
/// ice.schema-evolution, ice.type-promotion, ice.required-needs-default) and how it meets
/// constraints (sch.*): renames and moves are allowed, a referenced field must not be
/// removed unless its constraint goes in the same change, a check's fields keep their
/// type, key fields may be promoted, primary-key fields stay required.
#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <set>

#include "model/iceberg/schema.h"
#include "model/judge/operations_internal.h"
#include "model/rules/constraint_rules.h"
#include "model/rules/definition_rules.h"
#include "model/rules/iceberg_rules.h"
#include "model/rules/schema_evolution.h"

namespace ictk::internal {

namespace {

/// The children a struct-like field holds: a struct's fields, or the fields of the struct
/// that is a list's element or a map's value.
std::vector<NestedField>* StructFieldsOf(Type& type) {
  if (type.id == TypeId::kStruct) return &type.fields;
  if (type.id == TypeId::kList && !type.children.empty() &&
      type.children[0].id == TypeId::kStruct) {
    return &type.children[0].fields;
  }
  if (type.id == TypeId::kMap && type.children.size() == 2 &&
      type.children[1].id == TypeId::kStruct) {
    return &type.children[1].fields;
  }
  return nullptr;
}

/// Finds field `id` below `fields`; sets `siblings` to the vector that holds it.
NestedField* FindMutable(std::vector<NestedField>& fields, FieldId id,
                         std::vector<NestedField>** siblings) {
  for (NestedField& f : fields) {
    if (f.id == id) {
      *siblings = &fields;
      return &f;
    }
    for (Type* t : {&f.type}) {
      std::vector<Type*> candidates = {t};
      for (Type& child : t->children) candidates.push_back(&child);
      for (Type* c : candidates) {
        if (c->id != TypeId::kStruct) continue;
        if (NestedField* found = FindMutable(c->fields, id, siblings)) return found;
      }
    }
  }
  return nullptr;
}

/// Gives every field ID inside a new column's type a fresh ID ("IDs inside a nested type
/// are reassigned by the implementation, as Iceberg does").
void ReassignIds(Type& type, FieldId& next) {
  switch (type.id) {
    case TypeId::kStruct:
      for (NestedField& f : type.fields) {
        f.id = next++;
        ReassignIds(f.type, next);
      }
      break;
    case TypeId::kList:
      type.element_id = next++;
      for (Type& c : type.children) ReassignIds(c, next);
      break;
    case TypeId::kMap:
      type.key_id = next++;
      type.value_id = next++;
      for (Type& c : type.children) ReassignIds(c, next);
      break;
    default:
      break;
  }
}

bool HasSibling(const std::vector<NestedField>& siblings, const std::string& name,
                FieldId except) {
  return std::any_of(siblings.begin(), siblings.end(), [&](const NestedField& f) {
    return f.name == name && f.id != except;
  });
}

struct AddedColumn {
  std::optional<FieldId> parent_id;
  std::string name;
  FieldId provisional_id = 0;
  const AddColumn* op = nullptr;
};

struct Promotion {
  FieldId id = 0;
  Type from;
  Type to;
};

/// The schema a list of changes produces, with what each change did.
struct SchemaWork {
  std::vector<NestedField> fields;
  FieldId next_id = 1;
  std::set<FieldId> deleted;  ///< deleted fields and every field inside them
  std::set<FieldId> deleted_named;  ///< the fields a delete-column names
  std::set<FieldId> retyped;
  std::vector<AddedColumn> added;
  std::vector<Promotion> promotions;
  Findings structural;   ///< ice.* findings: invalid-schema-change
  Findings unknown_ids;  ///< a change names a field that does not exist
};

/// "a required column added to a table with rows needs an initial default (v3+)"
/// (ice.required-needs-default).
void RequiredNeedsDefault(const AddColumn& op, bool table_has_rows,
                          int32_t format_version, Findings& out) {
  if (!op.required || !table_has_rows) return;
  Require(out, op.initial_default_json.has_value() && format_version >= 3,
          RuleId::kIceRequiredNeedsDefault,
          format_version >= 3
              ? fmt::format("required column {} added to a table with rows has no "
                            "initial-default",
                            op.name)
              : fmt::format("required column {} cannot be added to a v{} table with rows",
                            op.name, format_version));
}

/// "only the promotions listed ..., by format version" (ice.type-promotion).
bool TypePromotionAllowed(const Type& from, const Type& to, int32_t format_version) {
  return CanPromote(from, to, format_version);
}

/// add-column: a new field with the next ID, under the top level or a struct.
void ApplyAddColumn(SchemaWork& w, const AddColumn& op, bool table_has_rows, int32_t fv) {
  std::vector<NestedField>* siblings = &w.fields;
  if (op.parent_id) {
    std::vector<NestedField>* holder = nullptr;
    NestedField* parent = FindMutable(w.fields, *op.parent_id, &holder);
    siblings = parent ? StructFieldsOf(parent->type) : nullptr;
    if (parent == nullptr) {
      w.unknown_ids.push_back(
          MakeFinding(clauses::kIceEvolutionExistingFields,
                      fmt::format("add-column under unknown field {}", *op.parent_id)));
      return;
    }
    if (siblings == nullptr) {
      w.structural.push_back(
          MakeFinding(clauses::kIceEvolutionExistingFields,
                      fmt::format("add-column under field {}, which holds no struct",
                                  *op.parent_id)));
      return;
    }
  }
  if (op.name.empty() || HasSibling(*siblings, op.name, -1)) {
    w.structural.push_back(MakeFinding(
        clauses::kIceEvolutionUniqueSiblingNames,
        fmt::format("add-column '{}': the name is empty or already taken", op.name)));
    return;
  }
  RequiredNeedsDefault(op, table_has_rows, fv, w.structural);
  if ((op.initial_default_json || op.write_default_json) && fv < 3) {
    w.structural.push_back(MakeFinding(
        RuleId::kIceSchemaEvolution,
        fmt::format("column defaults need format version 3, the table is v{}", fv)));
  }
  NestedField f;
  f.id = w.next_id++;
  f.name = op.name;
  f.required = op.required;
  f.type = op.type;
  ReassignIds(f.type, w.next_id);
  f.doc = op.doc;
  f.initial_default_json = op.initial_default_json;
  f.write_default_json = op.write_default_json;
  w.added.push_back(AddedColumn{op.parent_id, op.name, f.id, &op});
  siblings->push_back(std::move(f));
}

/// The field `id` of the schema being changed (and, through `siblings`, the fields beside
/// it), or nullptr after recording that `action` names a field the schema does not have
/// (ice.schema-evolution).
NestedField* FieldToChange(SchemaWork& w, FieldId id, std::string_view action,
                           std::vector<NestedField>** siblings) {
  NestedField* f = FindMutable(w.fields, id, siblings);
  if (f == nullptr)
    w.unknown_ids.push_back(MakeFinding(
        clauses::kIceEvolutionExistingFields,
        fmt::format("{} of unknown field {}", action, id)));
  return f;
}

/// delete-column: the field and every field inside it are deleted.
void ApplyDeleteColumn(SchemaWork& w, const DeleteColumn& op) {
  std::vector<NestedField>* siblings = nullptr;
  NestedField* f = FieldToChange(w, op.id, "delete-column", &siblings);
  if (f == nullptr) return;
  // "Removing a struct removes the fields in it."
  for (FieldId id : AllFieldIds({*f})) w.deleted.insert(id);
  w.deleted_named.insert(op.id);
  siblings->erase(siblings->begin() + (f - siblings->data()));
}

/// rename-column: a new name, not empty and not a sibling's.
void ApplyRenameColumn(SchemaWork& w, const RenameColumn& op) {
  std::vector<NestedField>* siblings = nullptr;
  NestedField* f = FieldToChange(w, op.id, "rename-column", &siblings);
  if (f == nullptr) return;
  if (op.name.empty() || HasSibling(*siblings, op.name, op.id)) {
    w.structural.push_back(
        MakeFinding(clauses::kIceEvolutionUniqueSiblingNames,
                    fmt::format("rename of field {} to '{}': the name is empty or taken",
                                op.id, op.name)));
    return;
  }
  f->name = op.name;
}

/// update-column-type: a promotion the format version allows.
void ApplyUpdateColumnType(SchemaWork& w, const UpdateColumnType& op, int32_t fv) {
  std::vector<NestedField>* siblings = nullptr;
  NestedField* f = FieldToChange(w, op.id, "update-column-type", &siblings);
  if (f == nullptr) return;
  if (f->type == op.type) return;  // not a change
  if (!TypePromotionAllowed(f->type, op.type, fv)) {
    w.structural.push_back(
        MakeFinding(TypePromotionAllowed(f->type, op.type, kMaxFormatVersion)
                        ? clauses::kIcePromotionByVersion
                        : clauses::kIcePromotionLegalOnly,
                    fmt::format("field {} cannot change from {} to {} in a v{} table",
                                op.id, ToString(f->type), ToString(op.type), fv)));
    return;
  }
  w.retyped.insert(op.id);
  w.promotions.push_back(Promotion{op.id, f->type, op.type});
  f->type = op.type;
}

/// move-column: first, or before or after a sibling.
void ApplyMoveColumn(SchemaWork& w, const MoveColumn& op) {
  std::vector<NestedField>* siblings = nullptr;
  NestedField* f = FieldToChange(w, op.id, "move-column", &siblings);
  if (f == nullptr) return;
  NestedField moved = *f;
  std::vector<NestedField> rest;
  for (const NestedField& s : *siblings)
    if (s.id != op.id) rest.push_back(s);
  size_t pos = 0;
  if (op.position != MoveColumn::Position::kFirst) {
    auto ref = std::find_if(rest.begin(), rest.end(),
                            [&](const NestedField& s) { return s.id == op.reference; });
    if (ref == rest.end()) {
      w.structural.push_back(MakeFinding(
          clauses::kIceEvolutionMovesAmongSiblings,
          fmt::format("move of field {} relative to {}, which is not a sibling", op.id,
                      op.reference)));
      return;
    }
    pos = static_cast<size_t>(ref - rest.begin()) +
          (op.position == MoveColumn::Position::kAfter ? 1 : 0);
  }
  rest.insert(rest.begin() + static_cast<std::ptrdiff_t>(pos), std::move(moved));
  *siblings = std::move(rest);
}

/// make-optional: the field becomes optional.
void ApplyMakeOptional(SchemaWork& w, const MakeOptional& op) {
  std::vector<NestedField>* siblings = nullptr;
  NestedField* f = FieldToChange(w, op.id, "make-optional", &siblings);
  if (f == nullptr) return;
  f->required = false;
}

SchemaWork ApplyChanges(const TableMetadata& md, const std::vector<SchemaChange>& changes,
                        bool table_has_rows) {
  SchemaWork w;
  if (const Schema* s = md.CurrentSchema()) w.fields = s->fields;
  w.next_id = std::max(md.last_column_id, MaxFieldId(w.fields)) + 1;
  const int32_t fv = md.format_version;
  for (const SchemaChange& change : changes) {
    std::visit(
        Overloaded{
            [&](const AddColumn& op) { ApplyAddColumn(w, op, table_has_rows, fv); },
            [&](const DeleteColumn& op) { ApplyDeleteColumn(w, op); },
            [&](const RenameColumn& op) { ApplyRenameColumn(w, op); },
            [&](const UpdateColumnType& op) { ApplyUpdateColumnType(w, op, fv); },
            [&](const MoveColumn& op) { ApplyMoveColumn(w, op); },
            [&](const MakeOptional& op) { ApplyMakeOptional(w, op); },
        },
        change);
  }
  return w;
}

/// Rows of the table get an added column's initial default; a promoted date becomes a
/// timestamp at midnight. `path` leads to the struct that holds field `id`.
void SetInStruct(Value& row, const std::vector<FieldId>& parent_path, FieldId id,
                 const Value& value) {
  Value* v = &row;
  for (FieldId step : parent_path) {
    if (v->kind != ValueKind::kStruct) return;
    Value* next = nullptr;
    for (size_t i = 0; i < v->field_ids.size(); ++i)
      if (v->field_ids[i] == step) next = &v->children[i];
    if (next == nullptr || next->is_null()) return;
    v = next;
  }
  if (v->kind != ValueKind::kStruct) return;
  for (size_t i = 0; i < v->field_ids.size(); ++i) {
    if (v->field_ids[i] == id) {
      v->children[i] = value;
      return;
    }
  }
  v->field_ids.push_back(id);
  v->children.push_back(value);
}

Value* MutableAtPath(Value& row, const std::vector<FieldId>& path) {
  Value* v = &row;
  for (FieldId step : path) {
    if (v->kind != ValueKind::kStruct) return nullptr;
    Value* next = nullptr;
    for (size_t i = 0; i < v->field_ids.size(); ++i)
      if (v->field_ids[i] == step) next = &v->children[i];
    if (next == nullptr || next->is_null()) return nullptr;
    v = next;
  }
  return v;
}

/// The schema the changes produce (schema ID not yet assigned). Before v4 it keeps the
/// current schema's identifier fields that were not deleted; a v4 schema carries none
/// ("Writers must not set identifier-field-ids in a schema that is added to a v4 table").
Schema NewSchema(const TableMetadata& md, const SchemaWork& w) {
  Schema s;
  s.fields = w.fields;
  if (md.format_version < 4) {
    if (const Schema* cur = md.CurrentSchema(); cur && cur->identifier_field_ids) {
      std::vector<FieldId> ids;
      for (FieldId id : *cur->identifier_field_ids)
        if (!w.deleted.count(id)) ids.push_back(id);
      s.identifier_field_ids = std::move(ids);
    }
  }
  return s;
}

template <typename Change>
bool AnyOf(const std::vector<SchemaChange>& changes) {
  return std::any_of(changes.begin(), changes.end(), [](const SchemaChange& c) {
    return std::holds_alternative<Change>(c);
  });
}

std::vector<const Constraint*> Remaining(const TableMetadata& md,
                                         const std::set<ConstraintId>& removed) {
  std::vector<const Constraint*> out;
  for (const Constraint& c : ConstraintsOf(md))
    if (!c.id || !removed.count(*c.id)) out.push_back(&c);
  return out;
}

}  // namespace

AllowedOutcome ApplyUpdateSchema(const CatalogState& state, const Request& request,
                                 const UpdateSchema& op, const Switches& switches) {
  const TableState* table = TableOf(state, request);
  if (table == nullptr)
    return InvalidRequest(fmt::format("unknown table '{}'", request.table),
                          clauses::kProtoRequestUnknownTable);
  const TableMetadata& md = table->metadata;
  OutcomeBuilder b;
  const bool insensitive = switches.name_case == NameCase::kInsensitive;
  std::set<ConstraintId> removed;
  for (const std::string& name : op.remove_constraints) {
    const Constraint* c = FindConstraintByName(md, name, insensitive);
    if (c == nullptr || !c->id) {
      b.MustReject(RejectKind::kInvalidRequest,
                   MakeFinding(clauses::kProtoRequestUnknownConstraint,
                               fmt::format("unknown constraint '{}'", name)));
      continue;
    }
    removed.insert(*c->id);
  }
  SchemaWork w = ApplyChanges(md, op.changes, !table->rows.empty());
  for (const Finding& f : w.unknown_ids) {
    b.MustReject(RejectKind::kInvalidSchemaChange, f);
    b.MayReject(RejectKind::kInvalidRequest, f);
  }
  for (const Finding& f : w.structural) b.MustReject(RejectKind::kInvalidSchemaChange, f);
  for (Finding& f : CheckIcebergSchema(NewSchema(md, w), md.format_version))
    b.MustReject(RejectKind::kInvalidSchemaChange, std::move(f));
  const std::vector<const Constraint*> remaining = Remaining(md, removed);
  const SchemaChangeFacts change{w.fields, w.deleted, w.deleted_named, w.retyped,
                                 AnyOf<RenameColumn>(op.changes),
                                 AnyOf<MoveColumn>(op.changes)};
  const RejectKind kind = RejectKind::kInvalidSchemaChange;
  b.Add(kind, RenameReorder(change));
  b.Add(kind, RemoveReferenced(remaining, change));
  b.Add(kind, ReferencedExistAfterChange(remaining, change));
  b.Add(kind, TypeChangeOfReferenced(remaining, change, switches));
  b.Add(kind, PkStaysRequired(remaining, change));
  if (b.must_reject()) return std::move(b).Build();
  // A deleted field that only constraints removed by the same change referenced: the
  // deletion is allowed because they are removed (sch.remove-referenced/unless-removed),
  // so a refusal of it is filed under that rule, not under proto.answer.
  std::vector<const Constraint*> removed_constraints;
  for (const Constraint& c : ConstraintsOf(md))
    if (c.id && removed.count(*c.id)) removed_constraints.push_back(&c);
  b.Add(kind, RemoveReferencedUnlessRemoved(removed_constraints, change));

  MetadataExpectation exp = BaseExpectation(*table, switches);
  std::erase_if(exp.constraints, [&](const ConstraintExpectation& e) {
    return e.id && removed.count(*e.id);
  });
  if (!op.changes.empty()) {
    Schema expected;
    expected.fields = w.fields;
    exp.expected_schema = std::move(expected);
    exp.new_schema_required = true;
  }
  b.outcome().metadata = std::move(exp);
  return std::move(b).Build();
}

std::optional<TableMetadata> CanonicalUpdateSchema(const TableState& table,
                                                   const Request& request,
                                                   const UpdateSchema& op,
                                                   const Switches& switches) {
  const TableMetadata& base = table.metadata;
  const int64_t now = request.now_ms.value_or(base.last_updated_ms + 1);
  TableMetadata md = NextMetadata(base, now);
  const bool insensitive = switches.name_case == NameCase::kInsensitive;
  std::set<ConstraintId> removed;
  for (const std::string& name : op.remove_constraints) {
    if (const Constraint* c = FindConstraintByName(base, name, insensitive))
      if (c->id) removed.insert(*c->id);
  }
  if (md.constraints) {
    std::erase_if(*md.constraints,
                  [&](const Constraint& c) { return c.id && removed.count(*c.id); });
  }
  if (op.changes.empty()) return md;
  SchemaWork w = ApplyChanges(base, op.changes, !table.rows.empty());
  Schema s = NewSchema(base, w);
  int32_t max_schema_id = 0;
  for (const Schema& x : base.schemas)
    max_schema_id = std::max(max_schema_id, x.schema_id.value_or(0));
  s.schema_id = max_schema_id + 1;
  md.last_column_id = std::max(base.last_column_id, w.next_id - 1);
  md.schemas.push_back(std::move(s));
  md.current_schema_id = max_schema_id + 1;
  return md;
}

Findings AdoptUpdateSchema(CatalogState& state, const Request& request,
                           const UpdateSchema& op, const TableMetadata& answered,
                           const Switches& switches) {
  auto it = state.tables.find(request.table);
  if (it == state.tables.end())
    return {
        MakeFinding(RuleId::kProtoAnswer, "a change to an unknown table was accepted")};
  TableState& table = it->second;
  const SchemaWork w = ApplyChanges(table.metadata, op.changes, !table.rows.empty());
  const Schema* schema = answered.CurrentSchema();
  Findings problems;
  if (schema != nullptr && !table.rows.empty()) {
    // Rows written before a column was added read its initial default.
    for (const AddedColumn& a : w.added) {
      if (!a.op->initial_default_json) continue;
      std::vector<FieldId> parent_path;
      std::optional<FieldLocation> parent;
      const std::vector<NestedField>* siblings = &schema->fields;
      if (a.parent_id) {
        parent = FindField(*schema, *a.parent_id);
        if (!parent || parent->field.type.id != TypeId::kStruct) continue;
        parent_path = parent->path;
        siblings = &parent->field.type.fields;
      }
      const NestedField* field = nullptr;
      for (const NestedField& f : *siblings)
        if (f.name == a.name) field = &f;
      if (field == nullptr) {
        problems.push_back(
            MakeFinding(RuleId::kIceSchemaEvolution,
                        fmt::format("added column {} is not in the answer", a.name)));
        continue;
      }
      std::optional<Value> d = ParseDefaultJson(*a.op->initial_default_json, field->type);
      if (d && !d->is_null())
        for (auto& [key, row] : table.rows) SetInStruct(row, parent_path, field->id, *d);
    }
    // A promoted date becomes a timestamp at midnight.
    for (const Promotion& p : w.promotions) {
      if (p.from.id != TypeId::kDate) continue;
      const int64_t factor = DayUnits(p.to.id);
      std::optional<FieldLocation> loc = FindField(*schema, p.id);
      if (factor == 0 || !loc) continue;
      auto promote = [&](Value& row) {
        Value* v = MutableAtPath(row, loc->path);
        if (v != nullptr && v->kind == ValueKind::kLong)
          *v = Value::Long(v->as_long() * factor);
      };
      for (auto& [key, row] : table.rows) promote(row);
      table.held_promotions[p.id] = p.to.id;
      // Earlier snapshots' rows are held in the current representation too, so that a
      // snapshot rebuilt from the row changes (RowsAtSnapshot) is all of one kind.
      for (SnapshotDelta& delta : table.history)
        for (auto& [key, before] : delta.replaced) promote(before);
    }
  }
  Findings more = AdoptMetadataChange(state, request, answered, switches);
  problems.insert(problems.end(), more.begin(), more.end());
  return problems;
}

}  // namespace ictk::internal
