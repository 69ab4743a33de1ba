/// \file
/// Check expressions: binding to a schema (type alignment by promotion, no unsafe casts),
/// two-valued null-safe evaluation over one row, the `iceberg_functions` built-ins
/// (if_else, identity, year, month, day, hour, bucket with Iceberg's Murmur3, truncate) and
/// user-defined functions from a FunctionCatalog (protocol `define-function`).
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "model/iceberg/expression.h"
#include "model/iceberg/types.h"
#include "model/iceberg/value.h"

namespace ictk {

/// The UDFs current at one moment: name -> its current definition (with version).
/// A plain value passed in, never a global.
using FunctionCatalog = std::map<std::string, FunctionDefinition>;

/// What binding found. `error` is empty when the expression is well-typed against the
/// schema; otherwise it says which subexpression cannot be aligned (e.g. "string field 3
/// compared with 5", "unknown function f", "reference to missing field 9").
struct BindResult {
  std::string error;
  bool calls_udf = false;        ///< some `apply` names a function outside iceberg_functions
  bool calls_nondeterministic = false;  ///< a called UDF's current definition is not deterministic
  std::vector<FieldId> referenced_field_ids;  ///< every `reference` id, in order of appearance
  /// UDF names called but absent from the FunctionCatalog. When `error` is only about these
  /// (no type error elsewhere), `error` is "unknown function NAME": a caller can tell an
  /// expression that cannot be evaluated now from one that is ill-typed.
  std::vector<std::string> undefined_functions;
  /// Every UDF name the expression calls, directly or through the bodies of the called
  /// functions' current definitions (defined or not); `calls_beyond_depth` when a chain
  /// of calls went deeper than binding follows, so that any definition may matter.
  std::set<std::string> called_functions;
  bool calls_beyond_depth = false;
  bool ok() const { return error.empty(); }
};

/// What BindCheckExpression finds of the UDFs an expression calls (calls_udf,
/// calls_nondeterministic, called_functions, calls_beyond_depth, referenced_field_ids),
/// without binding it: those depend on the expression and `functions` alone.
BindResult SurveyCalls(const Expr& expr, const FunctionCatalog& functions);

/// Type-checks a check expression against the top-level fields of a schema and the UDFs
/// in `functions`.
BindResult BindCheckExpression(const Expr& expr, const std::vector<NestedField>& fields,
                               const FunctionCatalog& functions);

/// Evaluates a predicate over one row (a kStruct value keyed by field ID), two-valued:
/// returns true/false; nullopt only when the expression cannot be evaluated (unbound or an
/// undefined function), which callers treat as "cannot verify".
std::optional<bool> EvaluateCheck(const Expr& expr, const std::vector<NestedField>& fields,
                                  const Value& row, const FunctionCatalog& functions);

/// The evaluation of a check over one row, step by step, as the one evaluator computes
/// it: the expression with the row's values in place of its references, then each level
/// replaced by its value, e.g. "not(null < 1) = not(false) = true" (two-valued: a
/// comparison with null is false); "... (cannot be evaluated: ...)" when it cannot be.
/// For messages: findings show it for the rows a failure concerns.
std::string ExplainCheck(const Expr& expr, const std::vector<NestedField>& fields,
                         const Value& row, const FunctionCatalog& functions);

namespace internal {
struct BoundCheck;
}  // namespace internal

/// A check expression bound once to a schema and to the UDF definitions current at
/// construction, for evaluating many rows: EvaluateCheck binds again on every call.
/// Self-contained (it keeps no reference to its arguments) and cheap to copy.
class CompiledCheck {
 public:
  CompiledCheck(const Expr& expr, const std::vector<NestedField>& fields,
                const FunctionCatalog& functions);
  /// Whether the expression bound: no type error and every called UDF defined.
  bool ok() const;
  /// The same answer as EvaluateCheck(expr, fields, row, functions) with the arguments
  /// given at construction.
  std::optional<bool> Evaluate(const Value& row) const;
  /// ExplainCheck(expr, fields, row, functions) with the binding made at construction.
  std::string Explain(const Value& row) const;

 private:
  std::shared_ptr<const internal::BoundCheck> bound_;
};

/// Whether the predicate, when it is a built-in transform or if_else call, is a member of
/// iceberg_functions (also accepts the bare name).
bool IsBuiltinFunction(const Expr& apply);

/// Iceberg's 32-bit Murmur3 (x86_32, seed 0) of the spec's byte form of a value of `type`,
/// and bucket(N) = (hash & INT_MAX) % N.
int32_t IcebergHash(const Value& v, const Type& type);

}  // namespace ictk
