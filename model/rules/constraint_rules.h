/// \file
/// Rules on constraint definitions (def.*, key.*, expr.*) and on updating one (upd.*), as
/// pure functions returning findings. Each rule is one function named after it; the
/// aggregate functions below call them. Table operations (operations.h), metadata lint
/// (metadata_rules.h) and the sample's judging all go through these.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "model/iceberg/constraint.h"
#include "model/iceberg/evaluate.h"
#include "model/rules/finding.h"
#include "model/iceberg/schema.h"
#include "model/rules/switches.h"
#include "model/iceberg/types.h"

namespace ictk {

/// Where the definition comes from: a writer's request (no `constraint-id` or
/// `timestamp-ms` yet) or stored metadata (all required fields present).
enum class DefinitionSource { kRequest, kMetadata };

/// def.types, def.required-fields, def.check-expression, def.key-field-ids, key.*
/// (against `schema`), expr.* (against `schema` and `functions`), def.by-field-id.
/// `pointer` prefixes the JSON pointer of each finding (e.g. "/constraints/2").
Findings CheckConstraintDefinition(const Constraint& constraint, const Schema& schema,
                                   const FunctionCatalog& functions,
                                   DefinitionSource source,
                                   const std::string& pointer = {});

/// def.id-unique, def.name-unique (honouring switch name-case) and def.single-pk over a
/// set of constraints, e.g. a table's after a change.
Findings CheckConstraintSet(const std::vector<Constraint>& constraints,
                            const Switches& switches, const std::string& pointer = {});

/// upd.name-enforced-only and upd.definition-immutable for an update of `before`.
Findings CheckConstraintUpdate(const Constraint& before, const ConstraintUpdate& update);
/// The same, honouring switch restated-definition: under `reject` an update that restates
/// the current expression, field-ids or type is reported too (CheckUpdRestatement).
Findings CheckConstraintUpdate(const Constraint& before, const ConstraintUpdate& update,
                               const Switches& switches);

/// Whether every field of `field_ids` may be a primary-key field of `schema` (key.* and
/// key.pk-required); used by upgrade (upg.skip-ineligible).
bool EligiblePrimaryKey(const std::vector<FieldId>& field_ids, const Schema& schema);

/// The field IDs a constraint references: its `field-ids`, or the references in its
/// `expression` (seed "Constraints and Schema Evolution").
std::vector<FieldId> ReferencedFieldIds(const Constraint& constraint);

// ---------------------------------------------------------------------------------------
// The rules one by one. Each appends nothing when the rule holds; `pointer` is the JSON
// pointer of the constraint ("/constraints/2", or "" for a request). The aggregates above
// call these; they are public so that tests and the catalogue can name them.

/// def.types: "Three constraint types are defined".
Findings CheckDefTypes(const Constraint& constraint, const std::string& pointer = {});
/// def.required-fields: `type`, `name`, `enforced`, and in metadata `constraint-id` and
/// `timestamp-ms`.
Findings CheckDefRequiredFields(const Constraint& constraint, DefinitionSource source,
                                const std::string& pointer = {});
/// def.check-expression: "Required for a `check` constraint and must not be set for other
/// types".
Findings CheckDefCheckExpression(const Constraint& constraint,
                                 const std::string& pointer = {});
/// def.key-field-ids: "Must contain at least one field ID and no duplicates. Required for
/// a `unique` or `primary-key` constraint and must not be set for a `check` constraint".
Findings CheckDefKeyFieldIds(const Constraint& constraint,
                             const std::string& pointer = {});
/// sch.referenced-exist: "Every field referenced by a constraint must exist in the
/// table's current schema."
Findings CheckReferencedExist(const Constraint& constraint, const Schema& schema,
                              const std::string& pointer = {});

/// key.*: each looks at the `field-ids` of a unique or primary-key constraint that exist
/// in `schema` (missing ones are sch.referenced-exist).
Findings CheckKeyPrimitiveOnly(const Constraint& constraint, const Schema& schema,
                               const std::string& pointer = {});
Findings CheckKeyNotInListMap(const Constraint& constraint, const Schema& schema,
                              const std::string& pointer = {});
Findings CheckKeyNoFloatDouble(const Constraint& constraint, const Schema& schema,
                               const std::string& pointer = {});
Findings CheckKeyNoGeo(const Constraint& constraint, const Schema& schema,
                       const std::string& pointer = {});
Findings CheckKeyNoUnknown(const Constraint& constraint, const Schema& schema,
                           const std::string& pointer = {});
/// key.pk-required, and its counterpart key.unique-optional-ok (a unique constraint's
/// fields may be optional or under optional structs: nothing is reported for them).
Findings CheckKeyPkRequired(const Constraint& constraint, const Schema& schema,
                            const std::string& pointer = {});

/// expr.id-references: no name-based reference, no legacy predicate form.
Findings CheckExprIdReferences(const Constraint& constraint,
                               const std::string& pointer = {});
/// expr.no-list-map-element: no reference to a field inside a list or a map (a whole list
/// or map field may be passed to a function).
Findings CheckExprNoListMapElement(const Constraint& constraint, const Schema& schema,
                                   const std::string& pointer = {});
/// How CheckExprDeterministic treats a function that `functions` does not define:
/// a request is judged against the catalog (undefined = not declared deterministic);
/// stored metadata is linted without the catalog it was written against, so an undefined
/// function is not reported there.
enum class UndefinedFunctions { kReport, kIgnore };
/// expr.deterministic: a UDF must be defined and its current definition deterministic
/// (the built-ins of iceberg_functions are deterministic).
Findings CheckExprDeterministic(
    const Constraint& constraint, const FunctionCatalog& functions,
    UndefinedFunctions undefined = UndefinedFunctions::kReport,
    const std::string& pointer = {});
/// expr.well-typed: the expression binds to `schema` (BindCheckExpression), so that its
/// types align without unsafe casts. Not reported when `already_explained` (an earlier
/// expr.* or sch.referenced-exist finding explains the binding error).
Findings CheckExprWellTyped(const Constraint& constraint, const Schema& schema,
                            const FunctionCatalog& functions,
                            bool already_explained = false,
                            const std::string& pointer = {});

/// def.id-unique, def.name-unique (switch name-case), def.single-pk over a set.
Findings CheckDefIdUnique(const std::vector<Constraint>& constraints,
                          const std::string& pointer = {});
Findings CheckDefNameUnique(const std::vector<Constraint>& constraints,
                            const Switches& switches, const std::string& pointer = {});
Findings CheckDefSinglePk(const std::vector<Constraint>& constraints,
                          const std::string& pointer = {});
/// Whether two constraint names are the same name under switch name-case.
bool SameConstraintName(const std::string& a, const std::string& b,
                        const Switches& switches);

/// upd.name-enforced-only: the update changes `type` (or anything but name and enforced,
/// other than expression and field-ids, which are upd.definition-immutable).
Findings CheckUpdNameEnforcedOnly(const Constraint& before,
                                  const ConstraintUpdate& update);
/// upd.definition-immutable: the update changes `expression` or `field-ids` (field-ids
/// compare as a set).
Findings CheckUpdDefinitionImmutable(const Constraint& before,
                                     const ConstraintUpdate& update);
/// The same two rules for an update that restates the current value (same expression,
/// same set of field IDs, same type): what switch restated-definition decides. Non-empty
/// means "an implementation may reject this (either), must reject it (reject)".
Findings CheckUpdRestatement(const Constraint& before, const ConstraintUpdate& update);
/// upd.timestamp: "`timestamp-ms` must be updated when the constraint is updated" — when
/// `after` differs from `before` in `name` or `enforced`, its `timestamp-ms` differs too.
/// An update that changes nothing may keep the timestamp (docs/interpretations.md).
Findings CheckUpdTimestamp(const Constraint& before, const Constraint& after,
                           const std::string& pointer = {});

/// Whether an expression calls a function outside iceberg_functions (a UDF).
bool CallsUserDefinedFunction(const Expr& expr);
/// Whether this node is an `apply` of a UDF (not a built-in, not a name inside the
/// iceberg_functions catalog).
bool IsUdfCall(const Expr& expr);
/// The name under which a UDF `apply` is looked up in a FunctionCatalog: the identifier
/// path joined by '.', e.g. "my_udf" or "ns.my_udf".
std::string UdfName(const Expr& apply);
/// The catalog entry a UDF `apply` calls (by UdfName), or nullptr.
const FunctionDefinition* FindUdf(const Expr& apply, const FunctionCatalog& functions);

}  // namespace ictk
