/// \file
/// What the constraint generators (constraint_gen.h) share (not installed): the columns of
/// a schema by the role they can play in a constraint, and small constructors.
/// constraint_gen.cc holds the columns, the key candidates and valid constraints;
/// constraint_gen_check.cc check expressions; constraint_gen_invalid.cc the invalid
/// definitions, one clause each.
#pragma once

#include <string>
#include <vector>

#include "generators/constraint_gen.h"

namespace ictk::constraint_gen_internal {

/// A constraint of `type` with a name and an enforced flag (no fields or expression).
Constraint Make(ConstraintType type, const std::string& name, bool enforced);

/// The columns of a schema by the role they can play in a constraint.
struct Columns {
  std::vector<FieldId> ints, longs, strings, floats, timestamps, any_primitive,
      list_elements, map_keys, structs, geo, unknown;
  // Finer pools for the invalid generators' clauses (any depth outside lists and maps).
  std::vector<FieldId> float_only, double_only, geometry, geography, collections;
  std::vector<FieldId> variants;  ///< variant fields (v3+), not primitive

  std::vector<FieldId> nested_ints;  ///< int members of structs (not in lists or maps)
};

Columns CollectColumns(const Schema& schema);

bool HasPrimaryKey(const std::vector<Constraint>& existing);

/// The deterministic UDFs of `functions` that take one int and return a boolean.
std::vector<std::string> UsableUdfs(const FunctionCatalog& functions);

}  // namespace ictk::constraint_gen_internal
