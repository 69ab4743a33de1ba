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

Reply Engine::UpdateSchemaOp(Table& t, int64_t now, const UpdateSchema& op) {
  TableMetadata& md = t.meta;
  const Schema& current = CurrentSchemaOf(md);
  std::vector<NestedField> fields = current.fields;
  FieldId last = std::max(md.last_column_id, HighestFieldId(fields));
  // added-field-id-not-above-last: an ID allocator that fills holes — a new column takes
  // the ID of a top-level column an earlier schema had and the current one lacks.
  std::set<FieldId> holes;
  if (Has(Mutant::kAddedFieldIdNotAboveLast)) {
    for (const Schema& s : md.schemas)
      for (const NestedField& f : s.fields) holes.insert(f.id);
    for (const NestedField& f : fields) holes.erase(f.id);
  }
  std::vector<FieldId> unknown_added;  // unknown-column-required
  auto bad = [this](std::string message, std::optional<ConstraintId> about = {}) {
    // A refusal for a constraint's sake names that constraint (divergent).
    std::vector<ConstraintId> ids;
    if (about && divergent_) ids.push_back(*about);
    return Reply::Reject(kinds::kInvalidSchemaChange, std::move(message), ids);
  };

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

  std::set<FieldId> deleted, retyped, made_optional;
  const bool has_rows = !t.live().empty();
  // "Renaming or reordering a constraint-referenced field is allowed"
  // (sch.rename-reorder); the mutants refuse it.
  std::set<FieldId> referenced;
  for (const Constraint& c : remaining)
    for (FieldId id : Referenced(c)) referenced.insert(id);
  auto refused = [&](FieldId id, Mutant m) {
    return Has(m) && referenced.count(id) != 0;
  };
  for (const SchemaChange& change : op.changes) {
    std::string problem = std::visit(
        Overloaded{
            [&](const AddColumn& a) -> std::string {
              std::vector<NestedField>* into = &fields;
              if (a.parent_id) {
                into = ChildrenOf(fields, *a.parent_id);
                if (into == nullptr) {
                  return fmt::format("field {} is not a struct to add to", *a.parent_id);
                }
              }
              for (const NestedField& f : *into) {
                if (f.name == a.name && !Has(Mutant::kSiblingNameReused))
                  return fmt::format("a field named '{}' exists", a.name);
              }
              if ((a.initial_default_json || a.write_default_json) &&
                  md.format_version < 3) {
                return "defaults need format version 3";
              }
              if (a.required && has_rows && !a.initial_default_json &&
                  !Has(Mutant::kRequiredColumnWithoutDefault)) {
                return "a required column added to a table with rows needs an "
                       "initial-default "
                       "(ice.required-needs-default)";
              }
              NestedField f;
              // added-field-id-reused: the new column takes the highest ID in use.
              f.id = Has(Mutant::kAddedFieldIdReused) && last > 0 ? last : ++last;
              if (!holes.empty()) {
                f.id = *holes.begin();
                holes.erase(holes.begin());
              }
              f.name = a.name;
              f.required = a.required;
              if (a.type.id == TypeId::kUnknown) unknown_added.push_back(f.id);
              f.type = a.type;
              ReassignIds(f.type, last);
              f.doc = a.doc;
              f.initial_default_json = a.initial_default_json;
              f.write_default_json = a.write_default_json;
              if (!DefaultFits(f.initial_default_json, f.type) ||
                  !DefaultFits(f.write_default_json, f.type)) {
                return "a default does not fit the column's type";
              }
              into->push_back(std::move(f));
              return {};
            },
            [&](const DeleteColumn& d) -> std::string {
              std::vector<NestedField>* sib = SiblingsOf(fields, d.id);
              if (sib == nullptr) return fmt::format("no field {} to delete", d.id);
              auto it = std::find_if(sib->begin(), sib->end(),
                                     [&](const NestedField& f) { return f.id == d.id; });
              deleted.insert(d.id);
              if (!Has(Mutant::kNestedReferencedDeletable)) CollectAllIds(it->type, deleted);
              sib->erase(it);
              return {};
            },
            [&](const RenameColumn& rn) -> std::string {
              NestedField* f = FieldById(fields, rn.id);
              if (f == nullptr && Has(Mutant::kUnknownFieldChangeSkipped)) return {};
              if (f == nullptr) return fmt::format("no field {} to rename", rn.id);
              if (refused(rn.id, Mutant::kReferencedRenameRefused))
                return fmt::format("field {} is referenced by a constraint", rn.id);
              f->name = rn.name;
              return {};
            },
            [&](const UpdateColumnType& u) -> std::string {
              NestedField* f = FieldById(fields, u.id);
              if (f == nullptr && Has(Mutant::kUnknownFieldChangeSkipped)) return {};
              if (f == nullptr) return fmt::format("no field {} to change", u.id);
              // illegal-promotion-accepted changes a primitive to any primitive, keeping
              // only the v3 condition of date to timestamp; date-promotion-before-v3
              // promotes date to timestamp at any format version.
              const bool any_primitive = Has(Mutant::kIllegalPromotionAccepted) &&
                                         IsPrimitiveType(f->type.id) && IsPrimitiveType(u.type.id) &&
                                         f->type.id != TypeId::kDate;
              const bool date_early = Has(Mutant::kDatePromotionBeforeV3) &&
                                      f->type.id == TypeId::kDate &&
                                      PromotionAllowed(f->type, u.type, 3);
              if (!any_primitive && !date_early &&
                  (!IsPrimitiveType(f->type.id) ||
                   !PromotionAllowed(f->type, u.type, md.format_version))) {
                return fmt::format("{} cannot be promoted to {} (ice.type-promotion)",
                                   ToString(f->type), ToString(u.type));
              }
              if (!(f->type == u.type)) retyped.insert(u.id);
              f->type = u.type;
              return {};
            },
            [&](const MoveColumn& m) -> std::string {
              std::vector<NestedField>* sib = SiblingsOf(fields, m.id);
              if (sib == nullptr && Has(Mutant::kUnknownFieldChangeSkipped)) return {};
              if (sib == nullptr) return fmt::format("no field {} to move", m.id);
              if (refused(m.id, Mutant::kReferencedMoveRefused))
                return fmt::format("field {} is referenced by a constraint", m.id);
              auto it = std::find_if(sib->begin(), sib->end(),
                                     [&](const NestedField& f) { return f.id == m.id; });
              NestedField moving = *it;
              if (m.position != MoveColumn::Position::kFirst) {
                if (m.reference == m.id) return "a field cannot move relative to itself";
                auto ref = std::find_if(
                    sib->begin(), sib->end(),
                    [&](const NestedField& f) { return f.id == m.reference; });
                if (ref == sib->end() && !Has(Mutant::kMoveBesideNonSibling)) {
                  return fmt::format("field {} is not a sibling of field {}", m.reference,
                                     m.id);
                }
              }
              // move-beside-non-sibling: a reference that is no sibling moves the field
              // first among its siblings.
              const bool first =
                  m.position == MoveColumn::Position::kFirst ||
                  std::none_of(sib->begin(), sib->end(),
                               [&](const NestedField& f) { return f.id == m.reference; });
              sib->erase(it);
              auto pos = sib->begin();
              if (!first) {
                pos = std::find_if(sib->begin(), sib->end(), [&](const NestedField& f) {
                  return f.id == m.reference;
                });
                if (m.position == MoveColumn::Position::kAfter) ++pos;
              }
              sib->insert(pos, std::move(moving));
              return {};
            },
            [&](const MakeOptional& mo) -> std::string {
              NestedField* f = FieldById(fields, mo.id);
              if (f == nullptr && Has(Mutant::kUnknownFieldChangeSkipped)) return {};
              if (f == nullptr) return fmt::format("no field {} to make optional", mo.id);
              if (f->required) made_optional.insert(mo.id);
              f->required = false;
              return {};
            },
        },
        change);
    if (!problem.empty()) return bad(problem);
  }

  std::string problem = SchemaProblem(fields, md.format_version, SchemaLenientOf(*this));
  // added-field-id-reused does not check its own allocation for duplicate IDs.
  if (Has(Mutant::kAddedFieldIdReused) &&
      problem.find("(ice.field-ids-unique)") != std::string::npos)
    problem.clear();
  if (!problem.empty()) return bad(problem);
  if (Has(Mutant::kUnknownColumnRequired)) {
    // Writes an added column of type unknown as required, after validating the change.
    std::function<void(std::vector<NestedField>&)> mark = [&](std::vector<NestedField>& fs) {
      for (NestedField& f : fs) {
        if (std::find(unknown_added.begin(), unknown_added.end(), f.id) != unknown_added.end())
          f.required = true;
        mark(f.type.fields);
      }
    };
    mark(fields);
  }

  // The constraint rules of schema evolution, for the constraints that remain.
  const auto new_slots = IndexFields(fields);
  const std::vector<Constraint> all_before =
      md.constraints.value_or(std::vector<Constraint>{});
  for (const Constraint& c :
       Has(Mutant::kDeleteWithConstraintsRejected) ? all_before : remaining) {
    const std::set<FieldId> refs = Referenced(c);
    for (FieldId id : refs) {
      // "A schema change that removes a constraint-referenced field must be rejected
      // unless the constraint is removed in the same change" (sch.remove-referenced).
      if ((deleted.count(id) != 0 ||
           (new_slots.count(id) == 0 && !Has(Mutant::kNestedReferencedDeletable))) &&
          !Has(Mutant::kReferencedColumnDeletable)) {
        return bad(
            fmt::format("field {} is referenced by constraint '{}' "
                        "(sch.remove-referenced)",
                        id, c.name.value_or("")),
            c.id);
      }
      // "A field referenced by a check constraint must not change type or apply type
      // promotion" (sch.check-no-type-change).
      if (c.type == ConstraintType::kCheck && retyped.count(id) != 0 &&
          !Has(Mutant::kCheckFieldPromotable)) {
        return bad(
            fmt::format("field {} is referenced by check '{}' "
                        "(sch.check-no-type-change)",
                        id, c.name.value_or("")),
            c.id);
      }
    }
    // sch.pk-stays-required: primary-key fields stay required and out of optional
    // structs.
    if (c.type == ConstraintType::kPrimaryKey && !Has(Mutant::kPkFieldMadeOptional)) {
      for (FieldId id : refs) {
        auto it = new_slots.find(id);
        if (it != new_slots.end() &&
            (!it->second.required ||
             (it->second.optional_ancestor && !Has(Mutant::kPkParentMadeOptional)))) {
          return bad(
              fmt::format("primary-key field {} must stay required "
                          "(sch.pk-stays-required)",
                          id),
              c.id);
        }
      }
    }
  }

  Schema next;
  int32_t max_id = 0;
  for (const Schema& s : md.schemas) max_id = std::max(max_id, s.schema_id.value_or(0));
  next.schema_id = max_id + 1;
  next.fields = std::move(fields);
  if (current.identifier_field_ids) {
    if (md.format_version < 4) {
      // Iceberg: identifier fields must exist and stay valid.
      for (FieldId id : *current.identifier_field_ids) {
        auto it = new_slots.find(id);
        if ((it == new_slots.end() && !Has(Mutant::kMissingIdentifierAccepted)) ||
            (it != new_slots.end() &&
             !ValidIdentifierField(it->second, IdentifierLenientOf(*this)))) {
          return bad(
              fmt::format("identifier field {} would be deleted or made invalid", id));
        }
      }
      next.identifier_field_ids = current.identifier_field_ids;
    } else if (Has(Mutant::kV4SchemaKeepsIdentifiers)) {
      next.identifier_field_ids = current.identifier_field_ids;
    }
    // upg.no-identifiers-in-v4: a schema added to a v4 table carries none.
  }
  md.schemas.push_back(std::move(next));
  md.current_schema_id = max_id + 1;
  md.last_column_id = std::max(md.last_column_id, last);
  if (md.constraints) md.constraints = std::move(remaining);
  md.last_updated_ms = std::max(md.last_updated_ms, now);
  return Reply::Ok(md);
}

}  // namespace ictk::sample
