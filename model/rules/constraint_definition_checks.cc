/// \file
/// The definition checks of one constraint (def.*, sch.referenced-exist) and of a set of
/// constraints (def.id-unique, def.name-unique, def.single-pk), one function per rule,
/// each quoting the seed sentence it implements.
#include "model/rules/constraint_rules.h"

#include <fmt/format.h>

#include <algorithm>
#include <set>

#include "model/rules/constraint_rules_internal.h"
#include "model/rules/definition_rules.h"

namespace ictk {

using namespace internal;

// ---------------------------------------------------------------------------------------
// def.*

/// "Three constraint types are defined: `check` ..., `unique` ..., `primary-key` ..."
/// (def.types): any other `type` is invalid.
Findings CheckDefTypes(const Constraint& constraint, const std::string& pointer) {
  Findings out;
  if (!constraint.type && !constraint.raw_type.empty()) {
    Require(
        out, false, RuleId::kDefTypes,
        fmt::format("type '{}' is not check, unique or primary-key", constraint.raw_type),
        constraint.id, pointer + "/type");
  }
  return out;
}

/// The field table: `constraint-id` (int), `type`, `name`, `enforced` (boolean) and
/// `timestamp-ms` (long) are _required_ (def.required-fields). A request has no
/// `constraint-id` or `timestamp-ms` yet: the writer assigns them.
Findings CheckDefRequiredFields(const Constraint& constraint, DefinitionSource source,
                                const std::string& pointer) {
  Findings out;
  auto require = [&](bool present, std::string_view key) {
    const Clause clause = key == "name"       ? clauses::kDefRequiredName
                          : key == "enforced" ? clauses::kDefRequiredEnforced
                          : key == "type"     ? clauses::kDefRequiredType
                                              : clauses::kDefRequiredStoredIdAndTimestamp;
    Require(out, present, clause,
            fmt::format("required field '{}' is missing", key), constraint.id,
            fmt::format("{}/{}", pointer, key));
  };
  if (source == DefinitionSource::kMetadata)
    require(constraint.id.has_value(), "constraint-id");
  require(constraint.type.has_value() || !constraint.raw_type.empty(), "type");
  require(constraint.name.has_value(), "name");
  require(constraint.enforced.has_value(), "enforced");
  if (source == DefinitionSource::kMetadata) {
    require(constraint.timestamp_ms.has_value(), "timestamp-ms");
  }
  return out;
}

/// `expression`: "Required for a `check` constraint and must not be set for other types"
/// (def.check-expression).
Findings CheckDefCheckExpression(const Constraint& constraint,
                                 const std::string& pointer) {
  Findings out;
  if (IsCheck(constraint)) {
    Require(out, constraint.expression.has_value(), clauses::kDefCheckExpressionRequired,
            "a check constraint has no expression", constraint.id,
            pointer + "/expression");
  } else if (IsKeyType(constraint)) {
    Require(out, !constraint.expression.has_value(), clauses::kDefCheckExpressionAbsent,
            fmt::format("a {} constraint must not set expression", TypeText(constraint)),
            constraint.id, pointer + "/expression");
  }
  return out;
}

/// `field-ids`: "Must contain at least one field ID and no duplicates. Required for a
/// `unique` or `primary-key` constraint and must not be set for a `check` constraint"
/// (def.key-field-ids).
Findings CheckDefKeyFieldIds(const Constraint& constraint, const std::string& pointer) {
  Findings out;
  if (IsCheck(constraint)) {
    Require(out, !constraint.field_ids.has_value(), clauses::kDefKeyFieldIdsAbsentForCheck,
            "a check constraint must not set field-ids", constraint.id,
            pointer + "/field-ids");
    return out;
  }
  if (!IsKeyType(constraint)) return out;
  if (!Require(out, constraint.field_ids.has_value(), clauses::kDefKeyFieldIdsRequired,
               fmt::format("a {} constraint has no field-ids", TypeText(constraint)),
               constraint.id, pointer + "/field-ids")) {
    return out;
  }
  const auto& ids = *constraint.field_ids;
  Require(out, !ids.empty(), clauses::kDefKeyFieldIdsAtLeastOne,
          "field-ids must contain at least one field ID", constraint.id,
          pointer + "/field-ids");
  std::set<FieldId> seen;
  for (size_t i = 0; i < ids.size(); ++i) {
    Require(out, seen.insert(ids[i]).second, clauses::kDefKeyFieldIdsNoDuplicates,
            fmt::format("field ID {} is listed more than once", ids[i]), constraint.id,
            FieldPointer(pointer, i));
  }
  return out;
}

/// "Every field referenced by a constraint must exist in the table's current schema."
/// (sch.referenced-exist). "The referenced fields of a `check` constraint are the field
/// IDs in its `expression`; the referenced fields of a `unique` or `primary-key`
/// constraint are its `field-ids`."
Findings CheckReferencedExist(const Constraint& constraint, const Schema& schema,
                              const std::string& pointer) {
  Findings out;
  if (IsKeyType(constraint) && constraint.field_ids) {
    const auto& ids = *constraint.field_ids;
    for (size_t i = 0; i < ids.size(); ++i) {
      Require(out, ReferencedFieldExists(schema.fields, ids[i]),
              RuleId::kSchReferencedExist,
              fmt::format("field ID {} is not in the current schema", ids[i]),
              constraint.id, FieldPointer(pointer, i));
    }
  }
  if (IsCheck(constraint) && constraint.expression) {
    Walk(*constraint.expression, pointer + "/expression",
         [&](const Expr& e, const std::string& at) {
           if (e.op != ExprOp::kReference) return;
           Require(out, ReferencedFieldExists(schema.fields, e.field_id),
                   RuleId::kSchReferencedExist,
                   fmt::format("field ID {} is not in the current schema", e.field_id),
                   constraint.id, at);
         });
  }
  return out;
}

// ---------------------------------------------------------------------------------------
// The set of constraints.

bool SameConstraintName(const std::string& a, const std::string& b,
                        const Switches& switches) {
  if (switches.name_case == NameCase::kSensitive) return a == b;
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (AsciiLower(a[i]) != AsciiLower(b[i])) return false;
  }
  return true;
}

/// `constraint-id`: "ID of the constraint; unique within the table" (def.id-unique).
Findings CheckDefIdUnique(const std::vector<Constraint>& constraints,
                          const std::string& pointer) {
  Findings out;
  std::set<ConstraintId> seen;
  for (size_t i = 0; i < constraints.size(); ++i) {
    const auto& id = constraints[i].id;
    if (!id) continue;
    Require(out, seen.insert(*id).second, RuleId::kDefIdUnique,
            fmt::format("constraint-id {} is used by more than one constraint", *id), id,
            fmt::format("{}/{}/constraint-id", pointer, i));
  }
  return out;
}

/// `name`: "A name for the constraint that is unique within the table" (def.name-unique);
/// whether case matters is switch name-case.
Findings CheckDefNameUnique(const std::vector<Constraint>& constraints,
                            const Switches& switches, const std::string& pointer) {
  Findings out;
  for (size_t i = 0; i < constraints.size(); ++i) {
    if (!constraints[i].name) continue;
    for (size_t j = 0; j < i; ++j) {
      if (!constraints[j].name) continue;
      if (SameConstraintName(*constraints[i].name, *constraints[j].name, switches)) {
        Require(out, false, clauses::kDefNameUnique,
                fmt::format("name '{}' is also the name of constraint {}",
                            *constraints[i].name, j),
                constraints[i].id, fmt::format("{}/{}/name", pointer, i));
        break;
      }
    }
  }
  return out;
}

/// "A table may have at most one `primary-key` constraint." (def.single-pk)
Findings CheckDefSinglePk(const std::vector<Constraint>& constraints,
                          const std::string& pointer) {
  Findings out;
  std::optional<size_t> first;
  for (size_t i = 0; i < constraints.size(); ++i) {
    if (constraints[i].type != ConstraintType::kPrimaryKey) continue;
    if (!first) {
      first = i;
      continue;
    }
    Require(
        out, false, RuleId::kDefSinglePk,
        fmt::format("a second primary-key constraint (the first is at index {})", *first),
        constraints[i].id, fmt::format("{}/{}/type", pointer, i));
  }
  return out;
}

}  // namespace ictk
