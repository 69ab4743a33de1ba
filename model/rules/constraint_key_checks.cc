/// \file
/// The key-field checks of a unique or primary-key constraint (key.*), one function per
/// rule, each quoting the seed sentence it implements.
#include "model/rules/constraint_rules.h"

#include <fmt/format.h>

#include <algorithm>
#include <set>

#include "model/rules/constraint_rules_internal.h"
#include "model/rules/definition_rules.h"
#include "model/iceberg/kinds.h"

namespace ictk {

using namespace internal;

// ---------------------------------------------------------------------------------------
// key.*


/// "The `field-ids` of a `unique` or `primary-key` constraint must only reference
/// primitive fields" (key.primitive-only): no struct, list, map or variant.
Findings CheckKeyPrimitiveOnly(const Constraint& constraint, const Schema& schema,
                               const std::string& pointer) {
  Findings out;
  ForEachKeyField(constraint, schema, [&](size_t i, const FieldLocation& loc) {
    const TypeId t = loc.field.type.id;
    Require(out, IsPrimitive(t),
            t == TypeId::kStruct    ? clauses::kKeyPrimitiveStruct
            : t == TypeId::kVariant ? clauses::kKeyPrimitiveVariant
                                    : clauses::kKeyPrimitiveListOrMap,
            fmt::format("{} is not a primitive field", Describe(loc)), constraint.id,
            FieldPointer(pointer, i));
  });
  return out;
}

/// "... and must not reference fields within a `list` or a `map`" (key.not-in-list-map).
Findings CheckKeyNotInListMap(const Constraint& constraint, const Schema& schema,
                              const std::string& pointer) {
  Findings out;
  ForEachKeyField(constraint, schema, [&](size_t i, const FieldLocation& loc) {
    Require(out, !loc.in_list_or_map,
            InnermostCollectionIsMap(schema, loc) ? clauses::kKeyNotInMap
                                                  : clauses::kKeyNotInList,
            fmt::format("{} is within a list or a map", Describe(loc)), constraint.id,
            FieldPointer(pointer, i));
  });
  return out;
}

/// "Fields of type `float` or `double` must not be used." (key.no-float-double)
Findings CheckKeyNoFloatDouble(const Constraint& constraint, const Schema& schema,
                               const std::string& pointer) {
  Findings out;
  ForEachKeyField(constraint, schema, [&](size_t i, const FieldLocation& loc) {
    const TypeId t = loc.field.type.id;
    Require(out, t != TypeId::kFloat && t != TypeId::kDouble,
            t == TypeId::kFloat ? clauses::kKeyNoFloat : clauses::kKeyNoDouble,
            fmt::format("{} is a float or double field", Describe(loc)), constraint.id,
            FieldPointer(pointer, i));
  });
  return out;
}

/// "Fields of type `geometry` or `geography` must not be used because Iceberg does not
/// define equality for them." (key.no-geo)
Findings CheckKeyNoGeo(const Constraint& constraint, const Schema& schema,
                       const std::string& pointer) {
  Findings out;
  ForEachKeyField(constraint, schema, [&](size_t i, const FieldLocation& loc) {
    const TypeId t = loc.field.type.id;
    Require(out, t != TypeId::kGeometry && t != TypeId::kGeography,
            t == TypeId::kGeometry ? clauses::kKeyNoGeometry : clauses::kKeyNoGeography,
            fmt::format("{} is a geometry or geography field", Describe(loc)),
            constraint.id, FieldPointer(pointer, i));
  });
  return out;
}

/// "Fields of type `unknown` must not be used because their values are always null."
/// (key.no-unknown)
Findings CheckKeyNoUnknown(const Constraint& constraint, const Schema& schema,
                           const std::string& pointer) {
  Findings out;
  ForEachKeyField(constraint, schema, [&](size_t i, const FieldLocation& loc) {
    Require(out, loc.field.type.id != TypeId::kUnknown, RuleId::kKeyNoUnknown,
            fmt::format("{} is an unknown field", Describe(loc)), constraint.id,
            FieldPointer(pointer, i));
  });
  return out;
}

/// "The fields of a `primary-key` constraint must be `required` and must not be nested in
/// an optional struct" (key.pk-required). "The fields of a `unique` constraint may be
/// optional or nested in optional structs" (key.unique-optional-ok): nothing to report
/// for them.
Findings CheckKeyPkRequired(const Constraint& constraint, const Schema& schema,
                            const std::string& pointer) {
  Findings out;
  if (constraint.type != ConstraintType::kPrimaryKey) return out;
  ForEachKeyField(constraint, schema, [&](size_t i, const FieldLocation& loc) {
    if (PrimaryKeyFieldRequired(loc)) return;
    Require(out, loc.field.required, clauses::kKeyPkOwnFlag,
            fmt::format("{} of a primary key is optional", Describe(loc)), constraint.id,
            FieldPointer(pointer, i));
    Require(
        out, !loc.under_optional_struct, clauses::kKeyPkOptionalParent,
        fmt::format("{} of a primary key is nested in an optional struct", Describe(loc)),
        constraint.id, FieldPointer(pointer, i));
  });
  return out;
}

}  // namespace ictk
