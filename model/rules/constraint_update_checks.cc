/// \file
/// The update checks of a constraint (upd.*), one function per rule, each quoting the
/// seed sentence it implements.
#include "model/rules/constraint_rules.h"

#include <fmt/format.h>

#include <algorithm>
#include <set>

#include "model/rules/constraint_rules_internal.h"
#include "model/rules/definition_rules.h"

namespace ictk {

using namespace internal;

// ---------------------------------------------------------------------------------------
// upd.*

/// "Only `name` and `enforced` fields in a constraint definition can be updated"
/// (upd.name-enforced-only): here, a change of `type` (expression and field-ids are
/// upd.definition-immutable).
Findings CheckUpdNameEnforcedOnly(const Constraint& before,
                                  const ConstraintUpdate& update) {
  Findings out;
  if (update.type) {
    Require(out, SameType(before, *update.type), RuleId::kUpdNameEnforcedOnly,
            fmt::format("type cannot be updated (from '{}' to '{}')", TypeText(before),
                        *update.type),
            before.id, "/set/type");
  }
  return out;
}

/// "The `expression` and `field-ids` fields must not change, as it would change the
/// constraint requirement. Such updates must be done by removing the constraint and
/// adding a new one with a new `constraint-id`." (upd.definition-immutable). `field-ids`
/// is a set: the same IDs in another order are not a change.
Findings CheckUpdDefinitionImmutable(const Constraint& before,
                                     const ConstraintUpdate& update) {
  Findings out;
  if (update.expression) {
    Require(out, before.expression == update.expression, clauses::kUpdExpression,
            "expression cannot change; remove the constraint and add a new one",
            before.id, "/set/expression");
  }
  if (update.field_ids) {
    const bool same =
        before.field_ids && Sorted(*before.field_ids) == Sorted(*update.field_ids);
    Require(out, same, clauses::kUpdFieldIds,
            "field-ids cannot change; remove the constraint and add a new one", before.id,
            "/set/field-ids");
  }
  return out;
}

/// Restating the current `type`, `expression` or `field-ids` in an update: not a change,
/// yet the request names a field other than name and enforced (switch
/// restated-definition).
Findings CheckUpdRestatement(const Constraint& before, const ConstraintUpdate& update) {
  Findings out;
  if (update.type && SameType(before, *update.type)) {
    Require(out, false, RuleId::kUpdNameEnforcedOnly,
            "the update restates the current type", before.id, "/set/type");
  }
  if (update.expression && before.expression == update.expression) {
    Require(out, false, clauses::kUpdExpression,
            "the update restates the current expression", before.id, "/set/expression");
  }
  if (update.field_ids && before.field_ids &&
      Sorted(*before.field_ids) == Sorted(*update.field_ids)) {
    Require(out, false, clauses::kUpdFieldIds,
            "the update restates the current field-ids", before.id, "/set/field-ids");
  }
  return out;
}

/// "`timestamp-ms` must be updated when the constraint is updated" (upd.timestamp).
Findings CheckUpdTimestamp(const Constraint& before, const Constraint& after,
                           const std::string& pointer) {
  Findings out;
  if (TimestampMustBeUpdated(before, after)) {
    Require(out, before.timestamp_ms != after.timestamp_ms, RuleId::kUpdTimestamp,
            fmt::format("the constraint was updated but timestamp-ms stayed {}",
                        before.timestamp_ms.value_or(0)),
            after.id, pointer + "/timestamp-ms");
  }
  return out;
}

}  // namespace ictk
