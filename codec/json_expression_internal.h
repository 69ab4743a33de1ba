/// \file
/// What reading and writing check expressions share (not installed): the JSON `type`
/// spelling of every operator, the operator classes and the transforms a legacy
/// transform term may name. json_expression.cc reads expressions,
/// json_expression_write.cc writes them.
#pragma once

#include <optional>
#include <string_view>

#include "model/iceberg/expression.h"
#include "model/iceberg/kinds.h"

namespace ictk::expression_internal {

/// The JSON `type` spelling of every operator (kept here so the codec does not depend on
/// who implements ExprOpName).
struct OpName {
  ExprOp op;
  std::string_view name;
};
inline constexpr OpName kOpNames[] = {
    {ExprOp::kTrue, "true"},
    {ExprOp::kFalse, "false"},
    {ExprOp::kNot, "not"},
    {ExprOp::kAnd, "and"},
    {ExprOp::kOr, "or"},
    {ExprOp::kIsNull, "is-null"},
    {ExprOp::kNotNull, "not-null"},
    {ExprOp::kIsNan, "is-nan"},
    {ExprOp::kNotNan, "not-nan"},
    {ExprOp::kLt, "lt"},
    {ExprOp::kLtEq, "lt-eq"},
    {ExprOp::kGt, "gt"},
    {ExprOp::kGtEq, "gt-eq"},
    {ExprOp::kEq, "eq"},
    {ExprOp::kNotEq, "not-eq"},
    {ExprOp::kStartsWith, "starts-with"},
    {ExprOp::kNotStartsWith, "not-starts-with"},
    {ExprOp::kIn, "in"},
    {ExprOp::kNotIn, "not-in"},
    {ExprOp::kReference, "reference"},
    {ExprOp::kNamedReference, "reference"},
    {ExprOp::kLiteral, "literal"},
    {ExprOp::kApply, "apply"},
    {ExprOp::kParameter, "parameter"},
};

inline std::string_view NameOf(ExprOp op) {
  for (const auto& n : kOpNames)
    if (n.op == op) return n.name;
  return "?";
}

inline std::optional<ExprOp> PredicateOp(std::string_view name) {
  for (const auto& n : kOpNames)
    if (n.name == name && IsPredicate(n.op) && n.op != ExprOp::kTrue &&
        n.op != ExprOp::kFalse)
      return n.op;
  return std::nullopt;
}

inline bool IsUnary(ExprOp op) {
  return op == ExprOp::kIsNull || op == ExprOp::kNotNull || op == ExprOp::kIsNan ||
         op == ExprOp::kNotNan;
}
inline bool IsBinary(ExprOp op) { return op >= ExprOp::kLt && op <= ExprOp::kNotStartsWith; }
inline bool IsSet(ExprOp op) { return op == ExprOp::kIn || op == ExprOp::kNotIn; }

/// The transforms that a legacy transform term may name, as `iceberg_functions`.
inline constexpr std::string_view kPlainTransforms[] = {"identity", "year", "month", "day",
                                                 "hour"};
inline constexpr std::string_view kWidthTransforms[] = {"bucket", "truncate"};

}  // namespace ictk::expression_internal
