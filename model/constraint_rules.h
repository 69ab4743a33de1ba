/// \file
/// Rules on constraint definitions (def.*, key.*, expr.*) and on updating one (upd.*), as
/// pure functions returning findings. Each rule is one function named after it; the
/// aggregate functions below call them. Table operations (operations.h), metadata lint
/// (metadata_rules.h) and the sample's judging all go through these.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "model/constraint.h"
#include "model/evaluate.h"
#include "model/finding.h"
#include "model/switches.h"
#include "model/types.h"

namespace ictk {

/// The `set` of an update-constraint request: which fields the request tries to change.
struct ConstraintUpdate {
  std::optional<std::string> name;
  std::optional<bool> enforced;
  std::optional<Expr> expression;
  std::optional<std::vector<FieldId>> field_ids;
  std::optional<std::string> type;  ///< raw type text
  bool operator==(const ConstraintUpdate&) const = default;
};

/// Where the definition comes from: a writer's request (no `constraint-id` or
/// `timestamp-ms` yet) or stored metadata (all required fields present).
enum class DefinitionSource { kRequest, kMetadata };

/// def.types, def.required-fields, def.check-expression, def.key-field-ids, key.* (against
/// `schema`), expr.* (against `schema` and `functions`), def.by-field-id. `pointer` prefixes
/// the JSON pointer of each finding (e.g. "/constraints/2").
Findings CheckConstraintDefinition(const Constraint& constraint, const Schema& schema,
                                   const FunctionCatalog& functions, DefinitionSource source,
                                   const std::string& pointer = {});

/// def.id-unique, def.name-unique (honouring switch name-case) and def.single-pk over a set
/// of constraints, e.g. a table's after a change.
Findings CheckConstraintSet(const std::vector<Constraint>& constraints,
                            const Switches& switches, const std::string& pointer = {});

/// upd.name-enforced-only and upd.definition-immutable for an update of `before`.
Findings CheckConstraintUpdate(const Constraint& before, const ConstraintUpdate& update);

/// Whether every field of `field_ids` may be a primary-key field of `schema` (key.* and
/// key.pk-required); used by upgrade (upg.skip-ineligible).
bool EligiblePrimaryKey(const std::vector<FieldId>& field_ids, const Schema& schema);

/// The field IDs a constraint references: its `field-ids`, or the references in its
/// `expression` (seed "Constraints and Schema Evolution").
std::vector<FieldId> ReferencedFieldIds(const Constraint& constraint);

}  // namespace ictk
