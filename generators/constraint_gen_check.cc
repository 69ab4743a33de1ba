/// \file
/// Check expressions (constraint_gen.h GenCheckExpression): predicates of the kinds
/// implementations get wrong (comparisons a null breaks, transforms with Iceberg's
/// Murmur3, UDF calls), on the columns the schema has.
#include <algorithm>
#include <optional>
#include <string>
#include <vector>

#include "generators/constraint_gen.h"
#include "generators/constraint_gen_internal.h"
#include "generators/gen_internal.h"

namespace ictk {

using namespace constraint_gen_internal;  // NOLINT: the generators' shared helpers

namespace {

Expr OrNull(Expr predicate, FieldId id) {
  return Expr::Binary(ExprOp::kOr, std::move(predicate),
                      Expr::Unary(ExprOp::kIsNull, Expr::Ref(id)));
}

/// What a check expression of `kind` draws on.
struct CheckPools {
  const Columns& c;
  const std::vector<FieldId>& numbers;  ///< top-level ints and longs
  const std::vector<std::string>& udfs;
  int64_t lit = 0;
  const Capabilities& capabilities;
};

/// Kinds 0-6: comparisons, null and set tests on top-level columns.
std::optional<Expr> ComparisonCheck(int kind, const CheckPools& p) {
  const Columns& c = p.c;
  const std::vector<FieldId>& numbers = p.numbers;
  const int64_t lit = p.lit;
  switch (kind) {
    case 0:
    case 1:
      if (!numbers.empty()) {  // SQL CHECK (n > k): n > k OR n IS NULL
        const FieldId id = *rc::gen::elementOf(numbers);
        return OrNull(
            Expr::Binary(ExprOp::kGt, Expr::Ref(id), Expr::Lit(Value::Long(lit))), id);
      }
      break;
    case 2:
      if (!numbers.empty())  // a comparison that a null breaks (two-valued)
        return Expr::Binary(ExprOp::kLtEq, Expr::Ref(*rc::gen::elementOf(numbers)),
                            Expr::Lit(Value::Long(lit + 1)));
      break;
    case 3:
      if (c.ints.size() + c.longs.size() >= 2) {  // start <= end, across fields
        const FieldId a = *rc::gen::elementOf(numbers);
        FieldId b = *rc::gen::elementOf(numbers);
        if (a == b)
          b = numbers[(std::find(numbers.begin(), numbers.end(), a) - numbers.begin() +
                       1) %
                      numbers.size()];
        return Expr::Binary(ExprOp::kLtEq, Expr::Ref(a), Expr::Ref(b));
      }
      break;
    case 4:
      if (!c.any_primitive.empty())
        return Expr::Unary(ExprOp::kNotNull,
                           Expr::Ref(*rc::gen::elementOf(c.any_primitive)));
      break;
    case 5:
      if (!c.strings.empty()) {
        const FieldId id = *rc::gen::elementOf(c.strings);
        return OrNull(Expr::Binary(ExprOp::kStartsWith, Expr::Ref(id),
                                   Expr::Lit(Value::String("a"))),
                      id);
      }
      break;
    case 6:
      if (!numbers.empty())
        return Expr::Set(ExprOp::kIn, Expr::Ref(*rc::gen::elementOf(numbers)),
                         {Value::Long(0), Value::Long(1), Value::Long(2)});
      break;
    default:
      break;
  }
  return std::nullopt;
}

/// Kinds 7-12: NaN tests, transforms, UDF calls, nested fields and negations.
std::optional<Expr> TransformOrUdfCheck(int kind, const CheckPools& p) {
  const Columns& c = p.c;
  const std::vector<FieldId>& numbers = p.numbers;
  const std::vector<std::string>& udfs = p.udfs;
  const int64_t lit = p.lit;
  const Capabilities& capabilities = p.capabilities;
  switch (kind) {
    case 7:
      if (!c.floats.empty())
        return Expr::Unary(
            ExprOp::kNot,
            Expr::Unary(ExprOp::kIsNan, Expr::Ref(*rc::gen::elementOf(c.floats))));
      break;
    case 8:
      if (capabilities.transforms && (!numbers.empty() || !c.strings.empty())) {
        std::vector<FieldId> pool = numbers;
        pool.insert(pool.end(), c.strings.begin(), c.strings.end());
        const FieldId id = *rc::gen::elementOf(pool);
        // bucket(N, v) < 3N/4 OR v IS NULL: breaks for a quarter of the values, and
        // which ones depends on Iceberg's Murmur3 of the value's byte form.
        const int64_t n = *rc::gen::element<int64_t>(4, 8, 16);
        return OrNull(Expr::Binary(ExprOp::kLt,
                                   Expr::Apply("bucket", {Expr::Lit(Value::Long(n)),
                                                          Expr::Ref(id)}),
                                   Expr::Lit(Value::Long(n * 3 / 4))),
                      id);
      }
      break;
    case 9:
      if (capabilities.transforms && !c.timestamps.empty()) {
        const FieldId id = *rc::gen::elementOf(c.timestamps);
        // year(ts) >= 0 OR ts IS NULL: Iceberg's `year` transform counts years from 1970
        // (docs/writing-an-adapter.md), so this breaks at the 1969 edge.
        return OrNull(Expr::Binary(ExprOp::kGtEq, Expr::Apply("year", {Expr::Ref(id)}),
                                   Expr::Lit(Value::Long(0))),
                      id);
      }
      break;
    case 10:
      if (!udfs.empty() && !c.ints.empty())
        return UdfCheck(*rc::gen::elementOf(udfs), *rc::gen::elementOf(c.ints));
      break;
    case 12:
      if (!numbers.empty()) {  // NOT (n < k): two-valued, so a null n passes
        const FieldId id = *rc::gen::elementOf(numbers);
        return Expr::Unary(ExprOp::kNot, Expr::Binary(ExprOp::kLt, Expr::Ref(id),
                                                      Expr::Lit(Value::Long(lit))));
      }
      break;
    case 11:
      if (!c.nested_ints.empty()) {
        const FieldId id = *rc::gen::elementOf(c.nested_ints);
        return OrNull(
            Expr::Binary(ExprOp::kGt, Expr::Ref(id), Expr::Lit(Value::Long(lit))), id);
      }
      break;
    default:
      break;
  }
  return std::nullopt;
}

/// A check of `kind` (the generator's switch); nullopt when the schema lacks the columns
/// it needs.
std::optional<Expr> CheckOfKind(int kind, const CheckPools& p) {
  return kind <= 6 ? ComparisonCheck(kind, p) : TransformOrUdfCheck(kind, p);
}


/// One draw of a check expression (GenCheckExpression), whatever operators it uses.
Expr DrawCheck(const Columns& c, const std::vector<FieldId>& numbers,
               const std::vector<std::string>& udfs, const Capabilities& capabilities) {
  // A history that defined UDFs checks with them often, so that a redefinition between
  // commits makes a carried status false (expr.udf-status).
  if (!udfs.empty() && !c.ints.empty() && *Uniform<int>(0, 100) < 60)
    return UdfCheck(*rc::gen::elementOf(udfs), *rc::gen::elementOf(c.ints));
  int kind = *Uniform<int>(0, 16);
  if (kind >= 13) kind = 8;  // transforms often: implementations get Murmur3 wrong
  const int64_t lit = *Uniform<int64_t>(0, 4);
  if (std::optional<Expr> e = CheckOfKind(kind, {c, numbers, udfs, lit, capabilities}))
    return *e;
  // Fallbacks: n > k OR n IS NULL on some number, else a not-null check.
  if (!numbers.empty())
    return OrNull(
        Expr::Binary(ExprOp::kGt, Expr::Ref(numbers[0]), Expr::Lit(Value::Long(lit))),
        numbers[0]);
  if (!c.any_primitive.empty())
    return Expr::Unary(ExprOp::kNotNull, Expr::Ref(c.any_primitive[0]));
  return Expr::True();
}

}  // namespace

bool ChecksDrawable(const Schema& schema, const Capabilities& capabilities) {
  return !capabilities.expression_operators ||
         !CollectColumns(schema).any_primitive.empty() ||
         capabilities.expression_operators->count("true") > 0;
}

rc::Gen<Expr> GenCheckExpression(const Schema& schema, const FunctionCatalog& functions,
                                 const Capabilities& capabilities) {
  return rc::gen::exec([schema, functions, capabilities]() -> Expr {
    const Columns c = CollectColumns(schema);
    std::vector<FieldId> numbers = c.ints;
    numbers.insert(numbers.end(), c.longs.begin(), c.longs.end());
    const std::vector<std::string> udfs =
        SendsUdfs(capabilities) ? UsableUdfs(functions) : std::vector<std::string>{};
    // An implementation that declared its operators (docs/protocol.md section 9, "Finer
    // declarations") is sent only checks made of them: draws are retried, then the
    // check of last resort (not-null, which such a declaration holds) is sent.
    for (int attempt = 0; attempt < 16; ++attempt) {
      Expr e = DrawCheck(c, numbers, udfs, capabilities);
      if (capabilities.DeclaresOperators(e)) return e;
    }
    if (!c.any_primitive.empty())
      return Expr::Unary(ExprOp::kNotNull, Expr::Ref(*rc::gen::elementOf(c.any_primitive)));
    return Expr::True();
  });
}

}  // namespace ictk
