/// \file
/// The sample's compiled check (check_internal.h) inside: the node of a compiled
/// expression, the binding helpers the compiler uses (check_bind.cc) and the evaluator
/// (check_eval.cc) that runs a compiled tree over a row.
#pragma once

#include <memory>
#include <optional>
#include <string_view>
#include <utility>
#include <vector>

#include "sample/check_internal.h"
#include "sample/values_internal.h"

namespace ictk::sample {

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

/// A compiled expression node. Predicates have `type` boolean.
struct CheckNode {
  enum class Kind {
    kTrue,
    kFalse,
    kNot,
    kAnd,
    kOr,
    kIsNull,
    kNotNull,
    kIsNan,
    kNotNan,
    kCompare,
    kStartsWith,
    kNotStartsWith,
    kIn,
    kNotIn,
    kTruth,
    kRef,
    kLit,
    kParam,
    kBuiltin,
    kUdf,
    kConvert,
  };
  Kind kind = Kind::kTrue;
  ExprOp op = ExprOp::kTrue;  ///< kCompare: which comparison
  Type type;                  ///< a term's type
  Domain domain = Domain::kNone;
  std::vector<CheckNode> kids;
  Value literal;                          ///< kLit
  std::vector<Comparable> set;            ///< kIn / kNotIn
  std::vector<FieldId> path;              ///< kRef
  bool unresolvable = false;              ///< kRef into a list/map (mutant): always null
  int param = -1;                         ///< kParam
  Builtin builtin = Builtin::kNone;       ///< kBuiltin
  int64_t width = 0;                      ///< bucket / truncate
  std::shared_ptr<const CheckNode> body;  ///< kUdf: the compiled body over its parameters
  bool udf_defined = true;                ///< kUdf
};

// --- binding (check_bind.cc) -----------------------------------------------------------

/// The built-in of `iceberg_functions` named `name`, or kNone.
Builtin BuiltinNamed(std::string_view name);
bool IsInteger(TypeId t);
bool IsFloat(TypeId t);
bool IsTimestamp(TypeId t);
bool IsNanoType(TypeId t);
/// Null, or a NaN (which checks treat like null).
bool IsNullLike(const Value& v);
bool IsUntypedLiteral(const Expr& e);
Int128 Pow10(int n);
int64_t FloorDiv(int64_t a, int64_t b);
/// Parses "[-]digits[.digits]" exactly.
std::optional<Decimal> ParseDecimalText(std::string_view s);
/// The common domain and type of two operand types, when values of both compare safely.
std::optional<std::pair<Domain, Type>> Align(const Type& a, const Type& b);
/// The value of `type` a JSON string `text` stands for.
std::optional<Value> FromText(const std::string& text, const Type& type);
/// Binds an untyped literal compared with (or passed as) a value of `type`: the type it
/// takes and its value.
std::optional<std::pair<Type, Value>> BindLiteral(const Value& lit, const Type& type);
/// The type a literal has on its own (long, double, string, boolean), if any.
std::optional<Type> NaturalType(const Value& v);
/// `v` of type `from` as a value of the wider type `to`.
Value Widen(const Value& v, const Type& from, const Type& to);

// --- evaluation (check_eval.cc) --------------------------------------------------------

/// Whether `row` satisfies the compiled check `root` (a SQL CHECK passes unless it is
/// false; only the three-valued-nulls mutant sees unknown).
bool EvaluateCheck(const CheckNode& root, const Value& row, const CheckOptions& options);

}  // namespace ictk::sample
