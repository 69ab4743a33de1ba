/// \file
/// The expression tree of a `check` constraint (SURROUNDINGS.md "Expressions JSON"), as
/// decoded from JSON by the codec. Predicates, terms (`reference` by ID, the legacy
/// name-based `reference`, `apply` of a function, a UDF `parameter`) and literals.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "model/iceberg/types.h"
#include "model/iceberg/value.h"

namespace ictk {

enum class ExprOp {
  // predicates
  kTrue,
  kFalse,
  kNot,            ///< children[0]
  kAnd,            ///< children[0], children[1]
  kOr,
  kIsNull,         ///< children[0] is a term
  kNotNull,
  kIsNan,
  kNotNan,
  kLt,             ///< children[0] left term, children[1] right term
  kLtEq,
  kGt,
  kGtEq,
  kEq,
  kNotEq,
  kStartsWith,
  kNotStartsWith,
  kIn,             ///< children[0] term, `values` the literal set
  kNotIn,
  // terms
  kReference,       ///< `field_id`
  kNamedReference,  ///< legacy name-based reference: `name` (invalid in a constraint)
  kLiteral,         ///< values[0], optional `data_type`
  kApply,           ///< `function` (path), `catalog`; children are the arguments
  kParameter,       ///< a UDF body's parameter: `name`
};

struct Expr {
  ExprOp op = ExprOp::kTrue;
  std::vector<Expr> children;
  std::vector<Value> values;               ///< kLiteral: one value; kIn/kNotIn: the set
  std::optional<Type> data_type;           ///< kLiteral / literal set with `data-type`
  FieldId field_id = 0;                    ///< kReference
  std::string name;                        ///< kNamedReference, kParameter
  std::vector<std::string> function;       ///< kApply: identifier path, e.g. {"bucket"}
  std::optional<std::string> catalog;      ///< kApply: e.g. "iceberg_functions"
  /// Where the JSON used the legacy predicate shape (`term`/`value`/`values` keys), so that
  /// expr.id-references can flag it even when the term is written by ID.
  bool legacy_form = false;

  bool operator==(const Expr&) const = default;

  static Expr True() { return Expr{}; }
  static Expr False() { Expr e; e.op = ExprOp::kFalse; return e; }
  static Expr Ref(FieldId id) { Expr e; e.op = ExprOp::kReference; e.field_id = id; return e; }
  static Expr Lit(Value v) { Expr e; e.op = ExprOp::kLiteral; e.values.push_back(std::move(v)); return e; }
  static Expr Unary(ExprOp op, Expr child) { Expr e; e.op = op; e.children.push_back(std::move(child)); return e; }
  static Expr Binary(ExprOp op, Expr l, Expr r) {
    Expr e; e.op = op; e.children.push_back(std::move(l)); e.children.push_back(std::move(r)); return e;
  }
  static Expr Set(ExprOp op, Expr term, std::vector<Value> values) {
    Expr e; e.op = op; e.children.push_back(std::move(term)); e.values = std::move(values); return e;
  }
  static Expr Apply(std::string function, std::vector<Expr> args) {
    Expr e; e.op = ExprOp::kApply; e.function = {std::move(function)}; e.children = std::move(args); return e;
  }
};

/// The JSON `type` spelling of an operator ("lt-eq", "not-starts-with", "reference", ...).
std::string_view ExprOpName(ExprOp op);
/// The infix symbol of a comparison ("<", "==", "starts with"), "?" for other ops.
std::string_view InfixSymbol(ExprOp op);

/// A user-defined function as given to the protocol's `define-function`: a body expression
/// over its parameters, and a definition version that each redefinition bumps.
struct FunctionDefinition {
  std::string name;
  bool deterministic = true;
  std::vector<std::pair<std::string, Type>> parameters;
  Type return_type;
  Expr body;
  int64_t version = 1;
  bool operator==(const FunctionDefinition&) const = default;
};

/// A readable infix form, e.g. "(#3 < 5 or #3 is null)".
std::string ToString(const Expr& expr);
/// Prints ToString (for gtest and RapidCheck counterexamples).
std::ostream& operator<<(std::ostream& os, const Expr& expr);

}  // namespace ictk
