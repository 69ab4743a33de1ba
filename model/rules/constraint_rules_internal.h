/// \file
/// The helpers the constraint rules share (not installed): constraint_rules.cc defines
/// them with the aggregates of constraint_rules.h; the rules themselves are split as the
/// spec's subsections: definition checks (constraint_definition_checks.cc), key-field
/// checks (constraint_key_checks.cc), expression checks (constraint_expr_checks.cc) and
/// update checks (constraint_update_checks.cc).
#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "model/iceberg/constraint.h"
#include "model/iceberg/expression.h"
#include "model/iceberg/schema.h"
#include "model/rules/finding.h"

namespace ictk::internal {

bool IsKeyType(const Constraint& c);

bool IsCheck(const Constraint& c);

inline constexpr std::string_view kIcebergFunctionsCatalog = "iceberg_functions";
/// How deep CheckExprDeterministic follows UDF bodies calling UDFs (as the binder does).
inline constexpr int kMaxUdfCallDepth = 16;

std::string TypeText(const Constraint& c);

/// Visits every node of `e` with its JSON pointer.
void Walk(const Expr& e, const std::string& pointer,
          const std::function<void(const Expr&, const std::string&)>& visit);

/// Calls `visit(field_index, location)` for each key field of a unique or primary-key
/// constraint that exists in `schema`.
void ForEachKeyField(const Constraint& c, const Schema& schema,
                     const std::function<void(size_t, const FieldLocation&)>& visit);

std::string FieldPointer(const std::string& pointer, size_t i);

std::string Describe(const FieldLocation& loc);

/// Whether the innermost list or map that encloses `loc` is a map (which clause of
/// key.not-in-list-map or expr.no-list-map-element a field within one breaks).
bool InnermostCollectionIsMap(const Schema& schema, const FieldLocation& loc);

void Append(Findings& out, Findings more);

char AsciiLower(char c);

std::vector<FieldId> Sorted(std::vector<FieldId> ids);

/// Whether the update names `type` and it is the constraint's current type.
bool SameType(const Constraint& before, const std::string& type);

}  // namespace ictk::internal
