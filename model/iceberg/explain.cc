/// \file
/// A check's evaluation over one row, step by step (ExplainBound, ExplainCheck): the
/// values come from the one evaluator (evaluation.cc, which records what each node of
/// the bound tree evaluated to); this file only prints them.
#include <fmt/format.h>

#include <algorithm>
#include <string>
#include <vector>

#include "model/iceberg/evaluate_internal.h"

namespace ictk::internal {

namespace {

std::string_view BuiltinName(Builtin b) {
  switch (b) {
    case Builtin::kIfElse:
      return "if_else";
    case Builtin::kIdentity:
      return "identity";
    case Builtin::kYear:
      return "year";
    case Builtin::kMonth:
      return "month";
    case Builtin::kDay:
      return "day";
    case Builtin::kHour:
      return "hour";
    case Builtin::kBucket:
      return "bucket";
    case Builtin::kTruncate:
      return "truncate";
    case Builtin::kNone:
      break;
  }
  return "?";
}

/// Prints a bound tree with every node of height at most `level` replaced by its value,
/// where the evaluator recorded one.
class Printer {
 public:
  explicit Printer(const NodeValues& values) : values_(values) {}

  int Height(const Bound& b) {
    int h = 0;
    for (const Bound& k : b.kids) h = std::max(h, Height(k) + 1);
    return h;
  }

  std::string Print(const Bound& b, int level) {
    const auto it = values_.find(&b);
    if (it != values_.end() && Height(b) <= level) return ToString(it->second);
    return PrintOp(b, level);
  }

 private:
  std::string Kid(const Bound& b, size_t i, int level) {
    return i < b.kids.size() ? Print(b.kids[i], level) : "?";
  }

  std::string PrintOp(const Bound& b, int level) {
    switch (b.op) {
      case ExprOp::kTrue:
        return "true";
      case ExprOp::kFalse:
        return "false";
      case ExprOp::kNot:
        return fmt::format("not({})", Kid(b, 0, level));
      case ExprOp::kAnd:
      case ExprOp::kOr:
        return fmt::format("({} {} {})", Kid(b, 0, level), ExprOpName(b.op),
                           Kid(b, 1, level));
      case ExprOp::kIsNull:
        return Kid(b, 0, level) + " is null";
      case ExprOp::kNotNull:
        return Kid(b, 0, level) + " is not null";
      case ExprOp::kIsNan:
        return Kid(b, 0, level) + " is nan";
      case ExprOp::kNotNan:
        return Kid(b, 0, level) + " is not nan";
      case ExprOp::kIn:
      case ExprOp::kNotIn: {
        std::vector<std::string> set;
        for (const Value& v : b.set) set.push_back(ToString(v));
        return fmt::format("{} {} ({})", Kid(b, 0, level),
                           b.op == ExprOp::kIn ? "in" : "not in", fmt::join(set, ", "));
      }
      case ExprOp::kReference:
        return b.path.empty() ? "#?" : fmt::format("#{}", b.path.back());
      case ExprOp::kNamedReference:
        return "`?`";
      case ExprOp::kLiteral:
        return ToString(b.literal);
      case ExprOp::kParameter:
        return fmt::format("${}", b.param_index);
      case ExprOp::kApply: {
        std::vector<std::string> args;
        if (b.builtin == Builtin::kBucket || b.builtin == Builtin::kTruncate)
          args.push_back(std::to_string(b.width));
        for (size_t i = 0; i < b.kids.size(); ++i) args.push_back(Kid(b, i, level));
        const std::string_view name =
            b.builtin == Builtin::kNone ? std::string_view(b.name) : BuiltinName(b.builtin);
        return fmt::format("{}({})", name, fmt::join(args, ", "));
      }
      default:
        return fmt::format("{} {} {}", Kid(b, 0, level), InfixSymbol(b.op),
                           Kid(b, 1, level));
    }
  }

  const NodeValues& values_;
};

}  // namespace

std::string ExplainBound(const BoundCheck& c, const Value& row) {
  if (!c.root) return "cannot be bound";
  NodeValues values;
  const std::optional<bool> truth = EvaluateBound(c, row, &values);
  Printer printer(values);
  std::vector<std::string> steps;
  const int height = printer.Height(*c.root);
  for (int level = 0; level <= height; ++level) {
    std::string s = printer.Print(*c.root, level);
    if (steps.empty() || steps.back() != s) steps.push_back(std::move(s));
  }
  std::string out = fmt::format("{}", fmt::join(steps, " = "));
  if (!truth) {
    out += fmt::format(" (cannot be evaluated{})",
                       c.diag.undefined.empty()
                           ? std::string()
                           : ": undefined function " + c.diag.undefined.front());
  } else if (steps.back() != (*truth ? "true" : "false")) {
    out += fmt::format(" = {}", *truth);  // a null is not true
  }
  return out;
}

}  // namespace ictk::internal

namespace ictk {

std::string ExplainCheck(const Expr& expr, const std::vector<NestedField>& fields,
                         const Value& row, const FunctionCatalog& functions) {
  return internal::ExplainBound(internal::Compile(expr, fields, functions), row);
}

}  // namespace ictk
