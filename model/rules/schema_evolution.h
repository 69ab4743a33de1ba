/// \file
/// The spec's "Schema evolution" rules for constraints (sch.*), each one function over
/// what a schema change does to the fields (SchemaChangeFacts, found by the judge's
/// schema evolution in model/judge/schema_change.cc). A failure they require is the
/// protocol's `invalid-schema-change`.
#pragma once

#include <set>
#include <vector>

#include "model/iceberg/constraint.h"
#include "model/iceberg/types.h"
#include "model/rules/ruling.h"
#include "model/rules/switches.h"

namespace ictk {

/// What one schema change does to the table's fields.
struct SchemaChangeFacts {
  const std::vector<NestedField>& new_fields;  ///< the fields after the change
  const std::set<FieldId>& deleted;  ///< deleted fields and every field inside them
  const std::set<FieldId>& deleted_named;  ///< the fields a delete-column names
  const std::set<FieldId>& retyped;  ///< fields whose type changes (promotions)
  bool renames = false;              ///< the change renames some field
  bool moves = false;                ///< the change moves some field
};

/// "Renaming or reordering a constraint-referenced field is allowed; the constraint
/// continues to apply to the same fields." (sch.rename-reorder) Nothing to reject: the
/// constraints refer to fields by ID; a reason for success.
Rulings RenameReorder(const SchemaChangeFacts& change);

/// "A schema change that removes a constraint-referenced field must be rejected unless
/// the constraint is removed in the same change." (sch.remove-referenced), for the
/// constraints that `remaining` after the change.
Rulings RemoveReferenced(const std::vector<const Constraint*>& remaining,
                         const SchemaChangeFacts& change);

/// The "unless" clause of sch.remove-referenced: a deleted field that only the
/// constraints `removed` by the same change referenced is a reason for success.
Rulings RemoveReferencedUnlessRemoved(const std::vector<const Constraint*>& removed,
                                      const SchemaChangeFacts& change);

/// "Every field referenced by a constraint must exist in the table's current schema"
/// (sch.referenced-exist), after the change (a deleted field is RemoveReferenced's).
Rulings ReferencedExistAfterChange(const std::vector<const Constraint*>& remaining,
                                   const SchemaChangeFacts& change);

/// "A field referenced by a check constraint must not change type or apply type
/// promotion" (sch.check-no-type-change); "A field referenced by a unique or primary-key
/// constraint may apply type promotion, because type promotion preserves distinctness"
/// (sch.key-promotion-ok; switch key-promotions=none forbids it).
Rulings TypeChangeOfReferenced(const std::vector<const Constraint*>& remaining,
                               const SchemaChangeFacts& change, const Switches& switches);

/// Derived from key.pk-required: "The fields of a primary-key constraint must be required
/// and must not be nested in an optional struct", so a change that makes one optional is
/// rejected unless the primary key is removed in the same change (sch.pk-stays-required).
Rulings PkStaysRequired(const std::vector<const Constraint*>& remaining,
                        const SchemaChangeFacts& change);

}  // namespace ictk
