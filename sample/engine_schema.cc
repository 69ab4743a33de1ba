/// \file
/// The engine's schema evolution: an update-schema's changes applied together as one new
/// schema, with the constraints it removes.
#include <fmt/format.h>

#include <algorithm>
#include <functional>
#include <set>
#include <variant>

#include "sample/engine_internal.h"
#include "sample/engine_support_internal.h"
#include "sample/schema_internal.h"
#include "sample/single_value_internal.h"

namespace ictk::sample {
namespace {

/// An update-schema in progress: the new schema's fields and what its changes did to
/// them.
struct SchemaEdit {
  explicit SchemaEdit(const Engine& e) : engine(e) {}

  const Engine& engine;
  int32_t format_version = 0;
  bool has_rows = false;  ///< the table has live rows
  std::vector<NestedField> fields;
  FieldId last = 0;  ///< the highest field ID assigned
  /// added-field-id-not-above-last: an ID allocator that fills holes — a new column takes
  /// the ID of a top-level column an earlier schema had and the current one lacks.
  std::set<FieldId> holes;
  std::vector<FieldId> unknown_added;  // unknown-column-required
  std::set<FieldId> deleted, retyped, made_optional;
  std::set<FieldId> referenced;  ///< by the constraints that remain

  bool Has(Mutant m) const { return engine.Has(m); }
  /// "Renaming or reordering a constraint-referenced field is allowed"
  /// (sch.rename-reorder); the mutants refuse it.
  bool Refused(FieldId id, Mutant m) const { return Has(m) && referenced.count(id) != 0; }
};

/// An invalid-schema-change; a refusal for a constraint's sake names that constraint
/// (divergent).
Reply SchemaRefusal(const Engine& engine, std::string message,
                    std::optional<ConstraintId> about = {}) {
  std::vector<ConstraintId> ids;
  if (about && engine.divergent()) ids.push_back(*about);
  return Reply::Reject(kinds::kInvalidSchemaChange, std::move(message), ids);
}

/// add-column: the problem, or "" once the column is added.
std::string AddColumnProblem(SchemaEdit& e, const AddColumn& a) {
  std::vector<NestedField>* into = &e.fields;
  if (a.parent_id) {
    into = ChildrenOf(e.fields, *a.parent_id);
    if (into == nullptr) {
      return fmt::format("field {} is not a struct to add to", *a.parent_id);
    }
  }
  for (const NestedField& f : *into) {
    if (f.name == a.name && !e.Has(Mutant::kSiblingNameReused))
      return fmt::format("a field named '{}' exists", a.name);
  }
  if ((a.initial_default_json || a.write_default_json) && e.format_version < 3) {
    return "defaults need format version 3";
  }
  if (a.required && e.has_rows && !a.initial_default_json &&
      !e.Has(Mutant::kRequiredColumnWithoutDefault)) {
    return "a required column added to a table with rows needs an "
           "initial-default "
           "(ice.required-needs-default)";
  }
  NestedField f;
  // added-field-id-reused: the new column takes the highest ID in use.
  f.id = e.Has(Mutant::kAddedFieldIdReused) && e.last > 0 ? e.last : ++e.last;
  if (!e.holes.empty()) {
    f.id = *e.holes.begin();
    e.holes.erase(e.holes.begin());
  }
  f.name = a.name;
  f.required = a.required;
  if (a.type.id == TypeId::kUnknown) e.unknown_added.push_back(f.id);
  f.type = a.type;
  ReassignIds(f.type, e.last);
  f.doc = a.doc;
  f.initial_default_json = a.initial_default_json;
  f.write_default_json = a.write_default_json;
  if (!DefaultFits(f.initial_default_json, f.type) ||
      !DefaultFits(f.write_default_json, f.type)) {
    return "a default does not fit the column's type";
  }
  into->push_back(std::move(f));
  return {};
}

/// update-column-type: the problem, or "" once the field is promoted
/// (ice.type-promotion).
std::string UpdateColumnTypeProblem(SchemaEdit& e, const UpdateColumnType& u) {
  NestedField* f = FieldById(e.fields, u.id);
  if (f == nullptr && e.Has(Mutant::kUnknownFieldChangeSkipped)) return {};
  if (f == nullptr) return fmt::format("no field {} to change", u.id);
  // illegal-promotion-accepted changes a primitive to any primitive, keeping
  // only the v3 condition of date to timestamp; date-promotion-before-v3
  // promotes date to timestamp at any format version.
  const bool any_primitive = e.Has(Mutant::kIllegalPromotionAccepted) &&
                             IsPrimitiveType(f->type.id) && IsPrimitiveType(u.type.id) &&
                             f->type.id != TypeId::kDate;
  const bool date_early = e.Has(Mutant::kDatePromotionBeforeV3) &&
                          f->type.id == TypeId::kDate &&
                          PromotionAllowed(f->type, u.type, 3);
  if (!any_primitive && !date_early &&
      (!IsPrimitiveType(f->type.id) ||
       !PromotionAllowed(f->type, u.type, e.format_version))) {
    return fmt::format("{} cannot be promoted to {} (ice.type-promotion)",
                       ToString(f->type), ToString(u.type));
  }
  if (!(f->type == u.type)) e.retyped.insert(u.id);
  f->type = u.type;
  return {};
}

/// move-column: the problem, or "" once the field is moved among its siblings.
std::string MoveColumnProblem(SchemaEdit& e, const MoveColumn& m) {
  std::vector<NestedField>* sib = SiblingsOf(e.fields, m.id);
  if (sib == nullptr && e.Has(Mutant::kUnknownFieldChangeSkipped)) return {};
  if (sib == nullptr) return fmt::format("no field {} to move", m.id);
  if (e.Refused(m.id, Mutant::kReferencedMoveRefused))
    return fmt::format("field {} is referenced by a constraint", m.id);
  auto it = std::find_if(sib->begin(), sib->end(),
                         [&](const NestedField& f) { return f.id == m.id; });
  NestedField moving = *it;
  if (m.position != MoveColumn::Position::kFirst) {
    if (m.reference == m.id) return "a field cannot move relative to itself";
    auto ref = std::find_if(sib->begin(), sib->end(),
                            [&](const NestedField& f) { return f.id == m.reference; });
    if (ref == sib->end() && !e.Has(Mutant::kMoveBesideNonSibling)) {
      return fmt::format("field {} is not a sibling of field {}", m.reference, m.id);
    }
  }
  // move-beside-non-sibling: a reference that is no sibling moves the field
  // first among its siblings.
  const bool first = m.position == MoveColumn::Position::kFirst ||
                     std::none_of(sib->begin(), sib->end(), [&](const NestedField& f) {
                       return f.id == m.reference;
                     });
  sib->erase(it);
  auto pos = sib->begin();
  if (!first) {
    pos = std::find_if(sib->begin(), sib->end(),
                       [&](const NestedField& f) { return f.id == m.reference; });
    if (m.position == MoveColumn::Position::kAfter) ++pos;
  }
  sib->insert(pos, std::move(moving));
  return {};
}

/// One change of an update-schema applied to `e`: the problem, or "".
std::string SchemaChangeProblem(SchemaEdit& e, const SchemaChange& change) {
  return std::visit(
      Overloaded{
          [&](const AddColumn& a) -> std::string { return AddColumnProblem(e, a); },
          [&](const DeleteColumn& d) -> std::string {
            std::vector<NestedField>* sib = SiblingsOf(e.fields, d.id);
            if (sib == nullptr) return fmt::format("no field {} to delete", d.id);
            auto it = std::find_if(sib->begin(), sib->end(),
                                   [&](const NestedField& f) { return f.id == d.id; });
            e.deleted.insert(d.id);
            if (!e.Has(Mutant::kNestedReferencedDeletable))
              CollectAllIds(it->type, e.deleted);
            sib->erase(it);
            return {};
          },
          [&](const RenameColumn& rn) -> std::string {
            NestedField* f = FieldById(e.fields, rn.id);
            if (f == nullptr && e.Has(Mutant::kUnknownFieldChangeSkipped)) return {};
            if (f == nullptr) return fmt::format("no field {} to rename", rn.id);
            if (e.Refused(rn.id, Mutant::kReferencedRenameRefused))
              return fmt::format("field {} is referenced by a constraint", rn.id);
            f->name = rn.name;
            return {};
          },
          [&](const UpdateColumnType& u) -> std::string {
            return UpdateColumnTypeProblem(e, u);
          },
          [&](const MoveColumn& m) -> std::string { return MoveColumnProblem(e, m); },
          [&](const MakeOptional& mo) -> std::string {
            NestedField* f = FieldById(e.fields, mo.id);
            if (f == nullptr && e.Has(Mutant::kUnknownFieldChangeSkipped)) return {};
            if (f == nullptr) return fmt::format("no field {} to make optional", mo.id);
            if (f->required) e.made_optional.insert(mo.id);
            f->required = false;
            return {};
          },
      },
      change);
}

/// Writes the added columns of type unknown (`unknown_added`) as required
/// (unknown-column-required).
void MarkUnknownRequired(std::vector<NestedField>& fields,
                         const std::vector<FieldId>& unknown_added) {
  std::function<void(std::vector<NestedField>&)> mark =
      [&](std::vector<NestedField>& fs) {
        for (NestedField& f : fs) {
          if (std::find(unknown_added.begin(), unknown_added.end(), f.id) !=
              unknown_added.end())
            f.required = true;
          mark(f.type.fields);
        }
      };
  mark(fields);
}

/// The constraint rules of schema evolution (sch.remove-referenced,
/// sch.check-no-type-change, sch.pk-stays-required) for `constraints` against the new
/// fields `new_slots`: the refusal, or nullopt.
std::optional<Reply> ConstraintRulesRefusal(
    const SchemaEdit& e, const std::vector<Constraint>& constraints,
    const std::map<FieldId, FieldSlot>& new_slots) {
  for (const Constraint& c : constraints) {
    const std::set<FieldId> refs = Referenced(c);
    for (FieldId id : refs) {
      // "A schema change that removes a constraint-referenced field must be rejected
      // unless the constraint is removed in the same change" (sch.remove-referenced).
      if ((e.deleted.count(id) != 0 ||
           (new_slots.count(id) == 0 && !e.Has(Mutant::kNestedReferencedDeletable))) &&
          !e.Has(Mutant::kReferencedColumnDeletable)) {
        return SchemaRefusal(e.engine,
                             fmt::format("field {} is referenced by constraint '{}' "
                                         "(sch.remove-referenced)",
                                         id, c.name.value_or("")),
                             c.id);
      }
      // "A field referenced by a check constraint must not change type or apply type
      // promotion" (sch.check-no-type-change).
      if (c.type == ConstraintType::kCheck && e.retyped.count(id) != 0 &&
          !e.Has(Mutant::kCheckFieldPromotable)) {
        return SchemaRefusal(e.engine,
                             fmt::format("field {} is referenced by check '{}' "
                                         "(sch.check-no-type-change)",
                                         id, c.name.value_or("")),
                             c.id);
      }
    }
    // sch.pk-stays-required: primary-key fields stay required and out of optional
    // structs.
    if (c.type == ConstraintType::kPrimaryKey && !e.Has(Mutant::kPkFieldMadeOptional)) {
      for (FieldId id : refs) {
        auto it = new_slots.find(id);
        if (it != new_slots.end() &&
            (!it->second.required ||
             (it->second.optional_ancestor && !e.Has(Mutant::kPkParentMadeOptional)))) {
          return SchemaRefusal(e.engine,
                               fmt::format("primary-key field {} must stay required "
                                           "(sch.pk-stays-required)",
                                           id),
                               c.id);
        }
      }
    }
  }
  return std::nullopt;
}

/// The new schema of `md` into `next`: the next schema ID, `fields`, and the current
/// schema's identifier fields where they stay; the refusal, or nullopt.
std::optional<Reply> NewSchema(const Engine& engine, const TableMetadata& md,
                               const Schema& current, std::vector<NestedField> fields,
                               const std::map<FieldId, FieldSlot>& new_slots,
                               Schema& next) {
  int32_t max_id = 0;
  for (const Schema& s : md.schemas) max_id = std::max(max_id, s.schema_id.value_or(0));
  next.schema_id = max_id + 1;
  next.fields = std::move(fields);
  if (current.identifier_field_ids) {
    if (md.format_version < 4) {
      // Iceberg: identifier fields must exist and stay valid.
      for (FieldId id : *current.identifier_field_ids) {
        auto it = new_slots.find(id);
        if ((it == new_slots.end() && !engine.Has(Mutant::kMissingIdentifierAccepted)) ||
            (it != new_slots.end() &&
             !ValidIdentifierField(it->second, IdentifierLenientOf(engine)))) {
          return SchemaRefusal(
              engine,
              fmt::format("identifier field {} would be deleted or made invalid", id));
        }
      }
      next.identifier_field_ids = current.identifier_field_ids;
    } else if (engine.Has(Mutant::kV4SchemaKeepsIdentifiers)) {
      next.identifier_field_ids = current.identifier_field_ids;
    }
    // upg.no-identifiers-in-v4: a schema added to a v4 table carries none.
  }
  return std::nullopt;
}

}  // namespace

Reply Engine::UpdateSchemaOp(Table& t, int64_t now, const UpdateSchema& op) {
  TableMetadata& md = t.meta;
  const Schema& current = CurrentSchemaOf(md);
  SchemaEdit e(*this);
  e.format_version = md.format_version;
  e.fields = current.fields;
  e.last = std::max(md.last_column_id, HighestFieldId(e.fields));
  if (Has(Mutant::kAddedFieldIdNotAboveLast)) {
    for (const Schema& s : md.schemas)
      for (const NestedField& f : s.fields) e.holes.insert(f.id);
    for (const NestedField& f : e.fields) e.holes.erase(f.id);
  }

  // The constraints that remain after the change.
  std::vector<Constraint> remaining = md.constraints.value_or(std::vector<Constraint>{});
  for (const std::string& name : op.remove_constraints) {
    auto it = std::find_if(remaining.begin(), remaining.end(), [&](const Constraint& c) {
      return c.name && *c.name == name;
    });
    if (it == remaining.end()) {
      return Reply::Reject(kinds::kInvalidRequest,
                           fmt::format("no constraint named '{}'", name));
    }
    remaining.erase(it);
  }

  e.has_rows = !t.live().empty();
  for (const Constraint& c : remaining)
    for (FieldId id : Referenced(c)) e.referenced.insert(id);
  for (const SchemaChange& change : op.changes) {
    std::string problem = SchemaChangeProblem(e, change);
    if (!problem.empty()) return SchemaRefusal(*this, problem);
  }

  std::string problem =
      SchemaProblem(e.fields, md.format_version, SchemaLenientOf(*this));
  // added-field-id-reused does not check its own allocation for duplicate IDs.
  if (Has(Mutant::kAddedFieldIdReused) &&
      problem.find("(ice.field-ids-unique)") != std::string::npos)
    problem.clear();
  if (!problem.empty()) return SchemaRefusal(*this, problem);
  // unknown-column-required writes an added column of type unknown as required, after
  // validating the change.
  if (Has(Mutant::kUnknownColumnRequired)) MarkUnknownRequired(e.fields, e.unknown_added);

  // The constraint rules of schema evolution, for the constraints that remain.
  const auto new_slots = IndexFields(e.fields);
  const std::vector<Constraint> all_before =
      md.constraints.value_or(std::vector<Constraint>{});
  if (auto refused = ConstraintRulesRefusal(
          e, Has(Mutant::kDeleteWithConstraintsRejected) ? all_before : remaining,
          new_slots))
    return *refused;

  Schema next;
  if (auto refused = NewSchema(*this, md, current, std::move(e.fields), new_slots, next))
    return *refused;
  const int32_t next_id = next.schema_id.value_or(0);
  md.schemas.push_back(std::move(next));
  md.current_schema_id = next_id;
  md.last_column_id = std::max(md.last_column_id, e.last);
  if (md.constraints) md.constraints = std::move(remaining);
  md.last_updated_ms = std::max(md.last_updated_ms, now);
  return Reply::Ok(md);
}

}  // namespace ictk::sample
