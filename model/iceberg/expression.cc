/// \file
/// JSON operator names and the readable infix form of check expressions.
#include "model/iceberg/expression.h"

#include <fmt/format.h>

#include <ostream>

namespace ictk {

std::string_view ExprOpName(ExprOp op) {
  switch (op) {
    case ExprOp::kTrue:
      return "true";
    case ExprOp::kFalse:
      return "false";
    case ExprOp::kNot:
      return "not";
    case ExprOp::kAnd:
      return "and";
    case ExprOp::kOr:
      return "or";
    case ExprOp::kIsNull:
      return "is-null";
    case ExprOp::kNotNull:
      return "not-null";
    case ExprOp::kIsNan:
      return "is-nan";
    case ExprOp::kNotNan:
      return "not-nan";
    case ExprOp::kLt:
      return "lt";
    case ExprOp::kLtEq:
      return "lt-eq";
    case ExprOp::kGt:
      return "gt";
    case ExprOp::kGtEq:
      return "gt-eq";
    case ExprOp::kEq:
      return "eq";
    case ExprOp::kNotEq:
      return "not-eq";
    case ExprOp::kStartsWith:
      return "starts-with";
    case ExprOp::kNotStartsWith:
      return "not-starts-with";
    case ExprOp::kIn:
      return "in";
    case ExprOp::kNotIn:
      return "not-in";
    case ExprOp::kReference:
      return "reference";
    case ExprOp::kNamedReference:
      return "reference";
    case ExprOp::kLiteral:
      return "literal";
    case ExprOp::kApply:
      return "apply";
    case ExprOp::kParameter:
      return "parameter";
  }
  return "?";
}

namespace {

std::string Child(const Expr& e, size_t i) {
  return i < e.children.size() ? ToString(e.children[i]) : "?";
}

std::string LiteralToString(const Value& v, const std::optional<Type>& data_type) {
  std::string out = ToString(v);
  if (data_type) out += "::" + ToString(*data_type);
  return out;
}

}  // namespace

std::string_view InfixSymbol(ExprOp op) {
  switch (op) {
    case ExprOp::kLt:
      return "<";
    case ExprOp::kLtEq:
      return "<=";
    case ExprOp::kGt:
      return ">";
    case ExprOp::kGtEq:
      return ">=";
    case ExprOp::kEq:
      return "==";
    case ExprOp::kNotEq:
      return "!=";
    case ExprOp::kStartsWith:
      return "starts with";
    case ExprOp::kNotStartsWith:
      return "not starts with";
    default:
      return "?";
  }
}

std::string ToString(const Expr& e) {
  switch (e.op) {
    case ExprOp::kTrue:
      return "true";
    case ExprOp::kFalse:
      return "false";
    case ExprOp::kNot: {
      const std::string child = Child(e, 0);
      return child.starts_with("(") ? "not " + child : "not (" + child + ")";
    }
    case ExprOp::kAnd:
    case ExprOp::kOr:
      return fmt::format("({} {} {})", Child(e, 0), ExprOpName(e.op), Child(e, 1));
    case ExprOp::kIsNull:
      return Child(e, 0) + " is null";
    case ExprOp::kNotNull:
      return Child(e, 0) + " is not null";
    case ExprOp::kIsNan:
      return Child(e, 0) + " is nan";
    case ExprOp::kNotNan:
      return Child(e, 0) + " is not nan";
    case ExprOp::kLt:
    case ExprOp::kLtEq:
    case ExprOp::kGt:
    case ExprOp::kGtEq:
    case ExprOp::kEq:
    case ExprOp::kNotEq:
    case ExprOp::kStartsWith:
    case ExprOp::kNotStartsWith:
      return fmt::format("{} {} {}", Child(e, 0), InfixSymbol(e.op), Child(e, 1));
    case ExprOp::kIn:
    case ExprOp::kNotIn: {
      std::string out = Child(e, 0) + (e.op == ExprOp::kIn ? " in (" : " not in (");
      for (size_t i = 0; i < e.values.size(); ++i) {
        if (i > 0) out += ", ";
        out += ToString(e.values[i]);
      }
      out += ")";
      if (e.data_type) out += "::" + ToString(*e.data_type);
      return out;
    }
    case ExprOp::kReference:
      return fmt::format("#{}", e.field_id);
    case ExprOp::kNamedReference:
      return fmt::format("`{}`", e.name);
    case ExprOp::kLiteral:
      return e.values.empty() ? "?" : LiteralToString(e.values[0], e.data_type);
    case ExprOp::kApply: {
      std::string name = e.catalog ? *e.catalog + ":" : "";
      for (size_t i = 0; i < e.function.size(); ++i) {
        if (i > 0) name += ".";
        name += e.function[i];
      }
      std::string out = name + "(";
      for (size_t i = 0; i < e.children.size(); ++i) {
        if (i > 0) out += ", ";
        out += ToString(e.children[i]);
      }
      return out + ")";
    }
    case ExprOp::kParameter:
      return "$" + e.name;
  }
  return "?";
}

std::ostream& operator<<(std::ostream& os, const Expr& expr) {
  return os << ToString(expr);
}

}  // namespace ictk
