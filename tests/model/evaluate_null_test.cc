// Tests of model/iceberg/evaluate.h: two-valued null-safe comparisons, null and NaN tests, and
// `in` over literal sets.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "model/iceberg/evaluate.h"
#include "tests/model/evaluate_test_util_internal.h"

namespace ictk::evaluate_test {
namespace {


// ---- null-safe two-valued comparisons

struct CmpCase {
  ExprOp op;
  Value left;
  Value right;
  bool expected;
};

TEST(NullSafeComparison, SemanticsTable) {
  // SURROUNDINGS.md: "null = null is true, 5 = null false, null < null false, null <=
  // null true; NaN behaves the same way".
  const Value n = Value::Null();
  const Value nan = Value::Double(kNaN);
  const Value five = Value::Double(5);
  const Value six = Value::Double(6);
  const std::vector<CmpCase> cases = {
      {ExprOp::kEq, n, n, true},
      {ExprOp::kEq, five, n, false},
      {ExprOp::kEq, n, five, false},
      {ExprOp::kNotEq, n, n, false},
      {ExprOp::kNotEq, five, n, true},
      {ExprOp::kLt, n, n, false},
      {ExprOp::kLtEq, n, n, true},
      {ExprOp::kGt, n, n, false},
      {ExprOp::kGtEq, n, n, true},
      {ExprOp::kLt, five, n, false},
      {ExprOp::kLtEq, five, n, false},
      {ExprOp::kGt, n, five, false},
      {ExprOp::kGtEq, n, five, false},
      {ExprOp::kEq, nan, nan, true},
      {ExprOp::kNotEq, nan, nan, false},
      {ExprOp::kLt, nan, nan, false},
      {ExprOp::kLtEq, nan, nan, true},
      {ExprOp::kGtEq, nan, nan, true},
      {ExprOp::kEq, nan, five, false},
      {ExprOp::kNotEq, nan, five, true},
      {ExprOp::kLt, nan, five, false},
      {ExprOp::kGt, nan, five, false},
      {ExprOp::kLtEq, five, nan, false},
      {ExprOp::kGtEq, five, nan, false},
      {ExprOp::kEq, nan, n, false},
      {ExprOp::kLtEq, nan, n, false},
      {ExprOp::kLt, five, six, true},
      {ExprOp::kLtEq, five, five, true},
      {ExprOp::kGt, six, five, true},
      {ExprOp::kGtEq, five, six, false},
      {ExprOp::kEq, Value::Double(-0.0), Value::Double(0.0), true},
  };
  for (const CmpCase& c : cases) {
    const Expr e = Cmp(c.op, Expr::Ref(3), Expr::Ref(4));
    SCOPED_TRACE(ToString(e) + " with #3 = " + ToString(c.left) +
                 ", #4 = " + ToString(c.right));
    EXPECT_EQ(Eval(e, Row({{3, c.left}, {4, c.right}})), c.expected);
  }
}

TEST(NullSafeComparison, AgainstLiterals) {
  const Value null_row = Row({});
  EXPECT_EQ(Eval(Cmp(ExprOp::kEq, Expr::Ref(1), LitL(5)), null_row), false);
  EXPECT_EQ(Eval(Cmp(ExprOp::kNotEq, Expr::Ref(1), LitL(5)), null_row), true);
  EXPECT_EQ(Eval(Cmp(ExprOp::kLt, Expr::Ref(1), LitL(5)), null_row), false);
  EXPECT_EQ(Eval(Cmp(ExprOp::kGtEq, Expr::Ref(1), LitL(5)), null_row), false);
  // SQL CHECK (x < 10) is stored as x < 10 OR x IS NULL.
  const Expr check = Expr::Binary(ExprOp::kOr, Cmp(ExprOp::kLt, Expr::Ref(1), LitL(10)),
                                  Expr::Unary(ExprOp::kIsNull, Expr::Ref(1)));
  EXPECT_EQ(Eval(check, null_row), true);
  EXPECT_EQ(Eval(check, Row({{1, Value::Long(9)}})), true);
  EXPECT_EQ(Eval(check, Row({{1, Value::Long(10)}})), false);
  // The literal may be on the left.
  EXPECT_EQ(Eval(Cmp(ExprOp::kLt, LitL(10), Expr::Ref(1)), Row({{1, Value::Long(11)}})),
            true);
}

TEST(NullAndNanTests, IsNullNotNullIsNanNotNan) {
  const Value row = Row({{3, Value::Double(kNaN)}, {4, Value::Double(1)}});
  EXPECT_EQ(Eval(Expr::Unary(ExprOp::kIsNull, Expr::Ref(1)), row), true);
  EXPECT_EQ(Eval(Expr::Unary(ExprOp::kNotNull, Expr::Ref(1)), row), false);
  EXPECT_EQ(Eval(Expr::Unary(ExprOp::kIsNull, Expr::Ref(3)), row), false);
  EXPECT_EQ(Eval(Expr::Unary(ExprOp::kIsNan, Expr::Ref(3)), row), true);
  EXPECT_EQ(Eval(Expr::Unary(ExprOp::kNotNan, Expr::Ref(3)), row), false);
  EXPECT_EQ(Eval(Expr::Unary(ExprOp::kIsNan, Expr::Ref(4)), row), false);
  EXPECT_EQ(Eval(Expr::Unary(ExprOp::kNotNan, Expr::Ref(4)), row), true);
  // A null is not NaN.
  EXPECT_EQ(Eval(Expr::Unary(ExprOp::kIsNan, Expr::Ref(3)), Row({})), false);
  EXPECT_EQ(Eval(Expr::Unary(ExprOp::kNotNan, Expr::Ref(3)), Row({})), true);
  // is-nan takes floats only.
  EXPECT_FALSE(Bind(Expr::Unary(ExprOp::kIsNan, Expr::Ref(1))).ok());
  EXPECT_TRUE(Bind(Expr::Unary(ExprOp::kIsNan, Expr::Ref(24))).ok());
}

TEST(InPredicate, NullSafeMembership) {
  const Expr in = Expr::Set(ExprOp::kIn, Expr::Ref(1), {Value::Long(1), Value::Long(2)});
  const Expr not_in =
      Expr::Set(ExprOp::kNotIn, Expr::Ref(1), {Value::Long(1), Value::Long(2)});
  EXPECT_EQ(Eval(in, Row({{1, Value::Long(2)}})), true);
  EXPECT_EQ(Eval(in, Row({{1, Value::Long(3)}})), false);
  EXPECT_EQ(Eval(not_in, Row({{1, Value::Long(3)}})), true);
  EXPECT_EQ(Eval(in, Row({})), false);     // null in {..} is false
  EXPECT_EQ(Eval(not_in, Row({})), true);  // null not-in {..} is true
  // NaN is in no set.
  const Expr din = Expr::Set(ExprOp::kIn, Expr::Ref(3), {Value::Double(1.5)});
  EXPECT_EQ(Eval(din, Row({{3, Value::Double(kNaN)}})), false);
  // An int field against a set of decimals written as doubles aligns as double.
  const Expr fin =
      Expr::Set(ExprOp::kIn, Expr::Ref(10), {Value::Double(1.5), Value::Double(2)});
  EXPECT_TRUE(Bind(fin).ok());
  EXPECT_EQ(Eval(fin, Row({{10, Value::Long(2)}})), true);
  // Dates from strings.
  const Expr dates = Expr::Set(ExprOp::kIn, Expr::Ref(6), {Value::String("2017-11-16")});
  EXPECT_EQ(Eval(dates, Row({{6, Value::Long(kDate20171116)}})), true);
  // Decimals by value.
  const Expr decs = Expr::Set(ExprOp::kIn, Expr::Ref(7), {Value::String("14.2")});
  EXPECT_EQ(Eval(decs, Row({{7, Value::DecimalOf(1420, 2)}})), true);
}

TEST(InPredicate, LiteralSetRules) {
  // "`in`/`not-in` values are non-null, non-NaN literals of one type".
  EXPECT_FALSE(
      Bind(Expr::Set(ExprOp::kIn, Expr::Ref(1), {Value::Long(1), Value::Null()})).ok());
  EXPECT_FALSE(Bind(Expr::Set(ExprOp::kIn, Expr::Ref(3), {Value::Double(kNaN)})).ok());
  EXPECT_FALSE(Bind(Expr::Set(ExprOp::kIn, Expr::Ref(3), {Value::String("NaN")})).ok());
  EXPECT_FALSE(
      Bind(Expr::Set(ExprOp::kIn, Expr::Ref(1), {Value::Long(1), Value::String("a")}))
          .ok());
  EXPECT_FALSE(Bind(Expr::Set(ExprOp::kIn, Expr::Ref(5), {Value::Long(1)})).ok());
  EXPECT_TRUE(Bind(Expr::Set(ExprOp::kIn, Expr::Ref(5), {Value::String("a")})).ok());
  // A typed literal set.
  Expr typed =
      Expr::Set(ExprOp::kIn, Expr::Ref(8), {Value::String("2017-11-16T22:31:08")});
  typed.data_type = P(TypeId::kTimestamp);
  EXPECT_TRUE(Bind(typed).ok());
  EXPECT_EQ(Eval(typed, Row({{8, Value::Long(kTs20171116T223108)}})), true);
}

}  // namespace
}  // namespace ictk::evaluate_test
