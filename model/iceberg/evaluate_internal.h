/// \file
/// What the parts of check-expression binding and evaluation share (not installed):
/// the built-in functions (builtins.cc), the alignment of operand types
/// (type_alignment.cc), the bound tree and the Binder (bind.cc, bind_function.cc), its
/// evaluation (evaluation.cc); evaluate.cc is the public API of evaluate.h.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "model/iceberg/evaluate.h"
#include "model/iceberg/expression.h"
#include "model/iceberg/schema.h"
#include "model/iceberg/time_units_internal.h"
#include "model/iceberg/types.h"
#include "model/iceberg/value.h"

namespace ictk::internal {

constexpr std::string_view kIcebergFunctions = "iceberg_functions";
/// UDF bodies may call UDFs; deeper nesting than this is treated as unbounded recursion.
constexpr int kMaxCallDepth = 16;


// ---------------------------------------------------------------------------------------
// Built-in functions (builtins.cc)

enum class Builtin {
  kNone,
  kIfElse,
  kIdentity,
  kYear,
  kMonth,
  kDay,
  kHour,
  kBucket,
  kTruncate
};

/// The built-in an `apply` names: a bare name (no catalog), the catalog
/// `iceberg_functions`, or the path {"iceberg_functions", name}. kNone for anything else.
Builtin ResolveBuiltin(const Expr& apply);

/// Whether the apply names the iceberg_functions catalog explicitly (so an unknown name
/// in it is an error, not a UDF).
bool NamesIcebergCatalog(const Expr& apply);

/// The catalog key of a UDF: its identifier path joined with ".".
std::string UdfName(const Expr& apply);

/// The transform `fn` (identity, year, month, day, hour, bucket, truncate) of a non-null
/// value `v` of `type`; `width` is bucket's N or truncate's W.
std::optional<Value> ApplyTransform(Builtin fn, int64_t width, const Type& type,
                                    const Value& v);

// ---------------------------------------------------------------------------------------
// Types and alignment (type_alignment.cc)

/// Structural type equality that ignores field IDs, names, docs and requiredness (a UDF's
/// `list<int>` parameter accepts any list of ints).
bool SameShape(const Type& a, const Type& b);

bool IsIntegral(TypeId id);
bool IsFloating(TypeId id);

/// How a value of one type is converted to the aligned type.
enum class Conv { kNone, kToDouble, kToDecimal, kDateToMicros, kDateToNanos, kToNull };

/// Whether a value of `from` converts to `to` without changing what comparisons mean, and
/// how (type_alignment.cc lists the promotions).
std::optional<Conv> Widening(const Type& from, const Type& to);

/// The type both operands of a comparison are compared as, when there is one.
std::optional<Type> AlignTypes(const Type& a, const Type& b);

/// The types a literal compared with a `type` operand may be bound as, most exact first.
std::vector<Type> LiteralDomains(const Type& type);

/// The type of an untyped literal on its own.
std::optional<Type> NaturalType(const Value& v);

bool IsNanValue(const Value& v);

/// Whether ordering comparisons are defined for values of this type.
bool IsComparable(const Type& t);

/// `v` converted by `conv` (null stays null).
Value Convert(const Value& v, Conv conv);

// ---------------------------------------------------------------------------------------
// The bound tree

struct Bound {
  ExprOp op = ExprOp::kTrue;
  Type type;  ///< result type (boolean for predicates)
  std::vector<Bound> kids;
  std::vector<Conv>
      convs;      ///< per kid: conversion to `domain` (comparisons, in, UDF args)
  Type domain;    ///< comparisons / in: the aligned operand type
  Value literal;  ///< kLiteral, converted to its bound type
  std::vector<Value> set;     ///< kIn / kNotIn, bound to `domain`
  std::vector<FieldId> path;  ///< kReference: IDs from the top level down
  bool per_element = false;   ///< kReference inside a list or map: no single row value
  int param_index = -1;       ///< kParameter
  Builtin builtin = Builtin::kNone;
  int64_t width = 0;                 ///< bucket N / truncate W
  TypeId source = TypeId::kUnknown;  ///< transforms: the argument's type
  std::vector<Bound> body;           ///< UDF call: the bound body (empty when undefined)
  Conv result_conv = Conv::kNone;    ///< UDF call: body result to return type
  bool undefined = false;            ///< UDF call to a function not in the catalog
  std::string name;                  ///< UDF call: the function's name, for ExplainBound
};

/// What a binder may resolve: the row's fields (a check) or a UDF's parameters (a body).
struct Scope {
  const std::vector<NestedField>* fields = nullptr;
  const std::vector<std::pair<std::string, Type>>* params = nullptr;
  const FunctionCatalog* functions = nullptr;
  int depth = 0;
};

/// Collects the first type error, and separately the names of undefined UDFs.
struct Diagnostics {
  std::string first_error;
  std::vector<std::string> undefined;
  bool Fail(std::string message) {
    if (first_error.empty()) first_error = std::move(message);
    return false;
  }
};

/// "string field 3", "5", "year(#8) (int)": how an operand is named in messages.
std::string Describe(const Expr& e, const Type& t);

/// The bound tree of a check and what binding found.
struct BoundCheck {
  std::optional<Bound> root;
  Diagnostics diag;
  bool evaluable() const {
    return root && diag.first_error.empty() && diag.undefined.empty();
  }
};

/// Binds a check against the row's fields (bind.cc).
BoundCheck Compile(const Expr& expr, const std::vector<NestedField>& fields,
                   const FunctionCatalog& functions);

/// The value each node of a bound tree evaluated to over one row (absent: not evaluated,
/// e.g. the right side of an `and` whose left side is false).
using NodeValues = std::unordered_map<const Bound*, Value>;

/// The check's truth over one row; nullopt when it is not evaluable (evaluation.cc).
/// With `record`, every node's value in the row's frame is kept there.
std::optional<bool> EvaluateBound(const BoundCheck& c, const Value& row,
                                  NodeValues* record = nullptr);

/// The evaluation of `c` over `row`, step by step, from the one evaluator above: the
/// expression with the row's values in place of its references, then each level of
/// the tree replaced by what it evaluated to, e.g. "not(null < 1) = not(false) = true"
/// (explain.cc).
std::string ExplainBound(const BoundCheck& c, const Value& row);

// ---------------------------------------------------------------------------------------
// The binder: predicates, comparisons, sets and terms in bind.cc, built-in and UDF calls
// in bind_function.cc

class Binder {
 public:
  Binder(Scope scope, Diagnostics& diag) : scope_(scope), diag_(diag) {}
  std::optional<Bound> BindPredicate(const Expr& e);
  std::optional<Bound> Bind(const Expr& e);

 private:
  static Bound Leaf(ExprOp op, Type type);
  bool Arity(const Expr& e, size_t n);
  std::optional<Bound> BindLogical(const Expr& e);
  std::optional<Bound> BindUnaryTest(const Expr& e);
  bool IsUntypedLiteral(const Expr& e) const;
  std::optional<std::pair<Type, Value>> LiteralAgainst(const Value& lit,
                                                       const Type& other);
  bool CheckDirectLiteral(const Expr& cmp, const Value& v);
  bool AlignLiterals(const Expr& owner, const Expr& l, const Expr& r, Bound& b);
  bool AlignLiteralWithTerm(const Expr& owner, const Expr& term, const Expr& lit,
                            bool literal_left, Bound& b);
  bool AlignTerms(const Expr& owner, const Expr& l, const Expr& r, Bound& b);
  bool AlignPair(const Expr& owner, const Expr& l, const Expr& r, Bound& b,
                 bool direct_literals);
  bool MismatchLiteral(const Expr& owner, const Expr& term, const Type& type,
                       const Expr& lit);
  std::optional<Bound> BindComparison(const Expr& e);
  std::optional<Bound> BindSet(const Expr& e);
  /// A value of `from` converted to `to` (for typed literal sets), when Widening allows
  /// it.
  static std::optional<Value> ConvertTyped(const Value& v, const Type& from,
                                           const Type& to);
  std::optional<Bound> BindReference(const Expr& e);
  std::optional<Bound> BindParameter(const Expr& e);
  std::optional<Bound> BindLiteralTerm(const Expr& e);
  std::optional<Bound> BindApply(const Expr& e);
  std::optional<int64_t> WidthArgument(const Expr& e, const Expr& arg);
  std::optional<Bound> TransformArgument(const Expr& arg,
                                         const std::vector<TypeId>& accepted);
  bool Accepts(const std::vector<TypeId>& accepted, TypeId id);
  std::optional<Bound> BindBuiltin(const Expr& e, Builtin builtin);
  std::optional<Bound> BindDatePart(const Expr& e, Bound b);
  std::optional<Bound> BindWidthTransform(const Expr& e, Bound b);
  std::optional<Bound> BindUdf(const Expr& e);
  bool BindUdfArguments(const Expr& e, const FunctionDefinition& def,
                        const std::string& name, Bound& b);
  Scope scope_;
  Diagnostics& diag_;
};

}  // namespace ictk::internal
