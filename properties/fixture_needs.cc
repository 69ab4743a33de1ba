/// \file
/// What a fixture needs of `hello`'s finer declarations (fixture.h RequiredDeclarations).
#include <set>
#include <string>
#include <type_traits>
#include <variant>
#include <vector>

#include "model/judge/capability.h"
#include "properties/fixture.h"

namespace ictk {
namespace {

/// The names of `all` that are in `used`, in the order of `all`.
std::vector<std::string> InOrder(const std::vector<std::string_view>& all,
                                 const std::set<std::string>& used) {
  std::vector<std::string> out;
  for (std::string_view name : all)
    if (used.count(std::string(name))) out.emplace_back(name);
  return out;
}

}  // namespace

DeclarationNeeds RequiredDeclarations(const std::vector<Request>& requests) {
  std::set<std::string> ops, operators;
  auto add_operators = [&](const Expr& e) {
    for (const std::string& op : OperatorsOf(e)) operators.insert(op);
  };
  for (const Request& r : requests) {
    std::visit(
        [&](const auto& op) {
          using T = std::decay_t<decltype(op)>;
          if constexpr (std::is_same_v<T, AddConstraint>) {
            ops.insert("add-constraint");
            if (op.constraint.expression) add_operators(*op.constraint.expression);
          } else if constexpr (std::is_same_v<T, UpdateConstraint>) {
            ops.insert("update-constraint");
            if (op.set.expression) add_operators(*op.set.expression);
          } else if constexpr (std::is_same_v<T, RemoveConstraint>) {
            ops.insert("remove-constraint");
          } else if constexpr (std::is_same_v<T, DefineFunction>) {
            add_operators(op.function.body);
          }
        },
        r.op);
  }
  return {InOrder(ConstraintOpNames(), ops), InOrder(ExpressionOperatorNames(), operators)};
}

}  // namespace ictk
