/// \file
/// The expression checks of a check constraint (expr.*), one function per rule, each
/// quoting the seed sentence it implements.
#include "model/rules/constraint_rules.h"

#include <fmt/format.h>

#include <algorithm>
#include <set>

#include "model/rules/constraint_rules_internal.h"
#include "model/rules/definition_rules.h"

namespace ictk {

using namespace internal;

// ---------------------------------------------------------------------------------------
// expr.*

/// "The `expression` of a `check` constraint is serialized as described in the Iceberg
/// expressions spec and must use ID references so that it remains bound to the same
/// fields when columns are renamed." (expr.id-references; with def.by-field-id: "must
/// refer to fields by field ID"). The name-based forms are read-only REST compatibility.
Findings CheckExprIdReferences(const Constraint& constraint, const std::string& pointer) {
  Findings out;
  if (!IsCheck(constraint) || !constraint.expression) return out;
  Walk(*constraint.expression, pointer + "/expression",
       [&](const Expr& e, const std::string& at) {
         if (e.op == ExprOp::kNamedReference) {
           Require(out, false, RuleId::kExprIdReferences,
                   fmt::format("reference by name '{}' instead of by field ID", e.name),
                   constraint.id, at);
         } else if (e.legacy_form) {
           Require(
               out, false, RuleId::kExprIdReferences,
               fmt::format("legacy name-based predicate form of '{}'", ExprOpName(e.op)),
               constraint.id, at);
         }
       });
  return out;
}

/// "An expression must not reference a field within a `list` or a `map`, because such a
/// field has a value for each element rather than one value for the row. An expression
/// may pass a whole `list` or `map` field to a function" (expr.no-list-map-element). A
/// reference to the list or map field itself is not "within" it; comparing it directly is
/// a type error (expr.well-typed).
Findings CheckExprNoListMapElement(const Constraint& constraint, const Schema& schema,
                                   const std::string& pointer) {
  Findings out;
  if (!IsCheck(constraint) || !constraint.expression) return out;
  Walk(*constraint.expression, pointer + "/expression",
       [&](const Expr& e, const std::string& at) {
         if (e.op != ExprOp::kReference) return;
         auto loc = FindField(schema, e.field_id);
         if (!loc) return;  // sch.referenced-exist
         Require(out, !loc->in_list_or_map,
                 InnermostCollectionIsMap(schema, *loc) ? clauses::kExprNoMapElement
                                                        : clauses::kExprNoListElement,
                 fmt::format("{} is within a list or a map", Describe(*loc)),
                 constraint.id, at);
       });
  return out;
}

/// "A check expression must produce the same result every time it is evaluated for the
/// same row. A function that depends on anything other than its arguments, such as the
/// current time or a random value, must not be called. A user-defined function must not
/// be called unless its current definition version declares `deterministic` as true."
/// (expr.deterministic). The iceberg_functions built-ins depend on their arguments only.
Findings CheckExprDeterministic(const Constraint& constraint,
                                const FunctionCatalog& functions,
                                UndefinedFunctions undefined,
                                const std::string& pointer) {
  Findings out;
  if (!IsCheck(constraint) || !constraint.expression) return out;
  // The first UDF reached through `udf`'s body (and theirs) that is not deterministic.
  std::function<const FunctionDefinition*(const FunctionDefinition&, int)>
      nondeterministic =
          [&](const FunctionDefinition& udf, int depth) -> const FunctionDefinition* {
    if (!udf.deterministic) return &udf;
    if (depth >= kMaxUdfCallDepth) return nullptr;
    const FunctionDefinition* found = nullptr;
    Walk(udf.body, "", [&](const Expr& e, const std::string&) {
      if (found || !IsUdfCall(e)) return;
      if (const FunctionDefinition* callee = FindUdf(e, functions)) {
        found = nondeterministic(*callee, depth + 1);
      }
    });
    return found;
  };
  Walk(*constraint.expression, pointer + "/expression",
       [&](const Expr& e, const std::string& at) {
         if (!IsUdfCall(e)) return;
         const FunctionDefinition* udf = FindUdf(e, functions);
         if (!udf) {
           Require(
               out, undefined == UndefinedFunctions::kIgnore, RuleId::kExprDeterministic,
               fmt::format("function '{}' is not defined, so no definition declares it "
                           "deterministic",
                           UdfName(e)),
               constraint.id, at);
           return;
         }
         const FunctionDefinition* bad = nondeterministic(*udf, 0);
         Require(
             out, bad == nullptr, RuleId::kExprDeterministic,
             bad == udf
                 ? fmt::format("the current definition (version {}) of function '{}' "
                               "does not declare deterministic",
                               udf->version, UdfName(e))
                 : fmt::format("function '{}' calls '{}', whose current definition is "
                               "not deterministic",
                               UdfName(e), bad ? bad->name : std::string()),
             constraint.id, at);
       });
  return out;
}

/// The expression "is serialized as described in the Iceberg expressions spec"
/// (expr.well-typed, derived): it binds to the current schema, its operand types align by
/// promotion, with no unsafe casts (SURROUNDINGS.md "Expressions JSON").
Findings CheckExprWellTyped(const Constraint& constraint, const Schema& schema,
                            const FunctionCatalog& functions, bool already_explained,
                            const std::string& pointer) {
  Findings out;
  if (!IsCheck(constraint) || !constraint.expression || already_explained) return out;
  BindResult bound =
      BindCheckExpression(*constraint.expression, schema.fields, functions);
  Require(
      out, bound.ok(), RuleId::kExprWellTyped,
      fmt::format("the expression does not bind to the current schema: {}", bound.error),
      constraint.id, pointer + "/expression");
  return out;
}

}  // namespace ictk
