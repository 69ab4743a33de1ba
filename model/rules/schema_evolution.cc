#include "model/rules/schema_evolution.h"

#include <fmt/format.h>

#include <algorithm>

#include "model/iceberg/schema.h"
#include "model/rules/constraint_rules.h"
#include "model/rules/definition_rules.h"

namespace ictk {

Rulings RenameReorder(const SchemaChangeFacts& change) {
  Rulings out;
  if (change.renames)
    out.push_back(MaySucceed(RuleFinding(clauses::kSchRename,
                                         "renames keep every constraint's field IDs")));
  if (change.moves)
    out.push_back(MaySucceed(RuleFinding(clauses::kSchReorder,
                                         "moves keep every constraint's field IDs")));
  return out;
}

Rulings RemoveReferenced(const std::vector<const Constraint*>& remaining,
                         const SchemaChangeFacts& change) {
  Rulings out;
  for (const Constraint* c : remaining) {
    for (FieldId id : ReferencedFieldIds(*c)) {
      if (!change.deleted.count(id)) continue;
      // The field itself, or a struct it is in ("or its struct").
      const bool nested = !change.deleted_named.count(id);
      out.push_back(MustFail(RuleFinding(
          nested ? clauses::kSchRemoveNested : clauses::kSchRemoveRejected,
          fmt::format("field {} is referenced by constraint {}{}", id, c->name.value_or("?"),
                      nested ? ", and a struct it is in is deleted" : ""),
          c->id)));
      break;
    }
  }
  return out;
}

Rulings RemoveReferencedUnlessRemoved(const std::vector<const Constraint*>& removed,
                                      const SchemaChangeFacts& change) {
  for (const Constraint* c : removed) {
    const std::vector<FieldId> ids = ReferencedFieldIds(*c);
    if (std::any_of(ids.begin(), ids.end(),
                    [&](FieldId id) { return change.deleted.count(id) > 0; })) {
      return {MaySucceed(RuleFinding(clauses::kSchRemoveUnlessRemoved,
                                     fmt::format("the fields constraint {} references are "
                                                 "deleted with it: the change removes the "
                                                 "constraint",
                                                 c->name.value_or("?")),
                                     c->id))};
    }
  }
  return {};
}

Rulings ReferencedExistAfterChange(const std::vector<const Constraint*>& remaining,
                                   const SchemaChangeFacts& change) {
  Rulings out;
  for (const Constraint* c : remaining) {
    for (FieldId id : ReferencedFieldIds(*c)) {
      if (change.deleted.count(id) || ReferencedFieldExists(change.new_fields, id)) continue;
      out.push_back(MustFail(RuleFinding(RuleId::kSchReferencedExist,
                                         fmt::format("constraint {} references field {}, "
                                                     "which the new schema lacks",
                                                     c->name.value_or("?"), id),
                                         c->id)));
    }
  }
  return out;
}

Rulings TypeChangeOfReferenced(const std::vector<const Constraint*>& remaining,
                               const SchemaChangeFacts& change, const Switches& switches) {
  Rulings out;
  for (const Constraint* c : remaining) {
    for (FieldId id : ReferencedFieldIds(*c)) {
      if (!change.retyped.count(id)) continue;
      if (c->type == ConstraintType::kCheck) {
        out.push_back(MustFail(RuleFinding(
            RuleId::kSchCheckNoTypeChange,
            fmt::format("field {} is referenced by check {}", id, c->name.value_or("?")),
            c->id)));
      } else if (switches.key_promotions == KeyPromotions::kNone) {
        out.push_back(MustFail(RuleFinding(RuleId::kSchKeyPromotionOk,
                                           fmt::format("key field {} of {} is promoted "
                                                       "(key-promotions=none)",
                                                       id, c->name.value_or("?")),
                                           c->id)));
      } else {
        out.push_back(MaySucceed(RuleFinding(
            RuleId::kSchKeyPromotionOk,
            fmt::format("key field {} of {} may be promoted", id, c->name.value_or("?")),
            c->id)));
      }
    }
  }
  return out;
}

Rulings PkStaysRequired(const std::vector<const Constraint*>& remaining,
                        const SchemaChangeFacts& change) {
  Rulings out;
  for (const Constraint* c : remaining) {
    if (c->type != ConstraintType::kPrimaryKey || !c->field_ids) continue;
    for (FieldId id : *c->field_ids) {
      std::optional<FieldLocation> loc = FindField(change.new_fields, id);
      if (!loc) continue;  // reported by sch.remove-referenced
      if (PrimaryKeyFieldRequired(*loc)) continue;
      out.push_back(MustFail(RuleFinding(loc->field.required ? clauses::kSchPkOptionalParent
                                                             : clauses::kSchPkOwnFlag,
                                         fmt::format("primary-key field {} of {} would be "
                                                     "optional",
                                                     id, c->name.value_or("?")),
                                         c->id)));
    }
  }
  return out;
}

}  // namespace ictk
