// Tests of model/iceberg/evaluate.h: the iceberg_functions transforms (year, month, day, hour,
// truncate, if_else), before the epoch and on nulls.
#include <gtest/gtest.h>

#include <optional>
#include <string>

#include "model/iceberg/evaluate.h"
#include "tests/model/evaluate_test_util_internal.h"

namespace ictk::evaluate_test {
namespace {


// ---- transforms

/// The value of a transform call over `row`, by checking equality with each candidate.
std::optional<bool> TransformIs(Expr call, const Value& row, Expr expected) {
  return Eval(Cmp(ExprOp::kEq, std::move(call), std::move(expected)), row);
}

TEST(Transforms, YearMonthDayHourSinceEpoch) {
  const Value row = Row({{6, Value::Long(kDate20171116)},
                         {8, Value::Long(kTs20171116T223108)},
                         {9, Value::Long(kTs20171116T223108 * 1000)},
                         {17, Value::Long(kTs20171116T223108)}});
  EXPECT_EQ(TransformIs(Call("year", {Expr::Ref(6)}), row, LitL(47)), true);
  EXPECT_EQ(TransformIs(Call("month", {Expr::Ref(6)}), row, LitL(47 * 12 + 10)), true);
  EXPECT_EQ(TransformIs(Call("day", {Expr::Ref(6)}), row, LitL(kDate20171116)), true);
  for (FieldId ts : {8, 9, 17}) {
    SCOPED_TRACE(ts);
    EXPECT_EQ(TransformIs(Call("year", {Expr::Ref(ts)}), row, LitL(47)), true);
    EXPECT_EQ(TransformIs(Call("month", {Expr::Ref(ts)}), row, LitL(574)), true);
    EXPECT_EQ(TransformIs(Call("day", {Expr::Ref(ts)}), row, LitL(kDate20171116)), true);
    EXPECT_EQ(TransformIs(Call("hour", {Expr::Ref(ts)}), row, LitL(419686)), true);
  }
  EXPECT_FALSE(Bind(Cmp(ExprOp::kEq, Call("hour", {Expr::Ref(6)}), LitL(1))).ok())
      << "hour is not defined for dates";
  EXPECT_FALSE(Bind(Cmp(ExprOp::kEq, Call("year", {Expr::Ref(1)}), LitL(1))).ok());
}

TEST(Transforms, BeforeTheEpochRoundsDown) {
  const Value row =
      Row({{6, Value::Long(-1)}, {8, Value::Long(-1)}, {9, Value::Long(-1)}});
  for (FieldId f : {6, 8, 9}) {
    SCOPED_TRACE(f);
    EXPECT_EQ(TransformIs(Call("year", {Expr::Ref(f)}), row, LitL(-1)), true);
    EXPECT_EQ(TransformIs(Call("month", {Expr::Ref(f)}), row, LitL(-1)), true);
    EXPECT_EQ(TransformIs(Call("day", {Expr::Ref(f)}), row, LitL(-1)), true);
  }
  EXPECT_EQ(TransformIs(Call("hour", {Expr::Ref(8)}), row, LitL(-1)), true);
  // 1969-01-01 is year -1, month -12; 1968-12-31 is year -2.
  EXPECT_EQ(TransformIs(Call("month", {Expr::Ref(6)}), Row({{6, Value::Long(-365)}}),
                        LitL(-12)),
            true);
  EXPECT_EQ(
      TransformIs(Call("year", {Expr::Ref(6)}), Row({{6, Value::Long(-366)}}), LitL(-2)),
      true);
}

TEST(Transforms, TruncateIntegersDecimalsStringsBinary) {
  const Value row = Row({{10, Value::Long(-1)},
                         {1, Value::Long(15)},
                         {7, Value::DecimalOf(1065, 2)},
                         {5, Value::String("\xc3\xa4"
                                           "bc")},
                         {16, Value::Bytes("\x01\x02\x03")}});
  EXPECT_EQ(TransformIs(Call("truncate", {LitL(10), Expr::Ref(10)}), row, LitL(-10)),
            true);
  EXPECT_EQ(TransformIs(Call("truncate", {LitL(10), Expr::Ref(1)}), row, LitL(10)), true);
  EXPECT_EQ(TransformIs(Call("truncate", {LitL(50), Expr::Ref(7)}), row, LitS("10.50")),
            true);
  EXPECT_EQ(TransformIs(Call("truncate", {LitL(2), Expr::Ref(5)}), row,
                        LitS("\xc3\xa4"
                             "b")),
            true);
  EXPECT_EQ(TransformIs(Call("truncate", {LitL(2), Expr::Ref(16)}), row,
                        Typed(Value::String("0102"), P(TypeId::kBinary))),
            true);
  EXPECT_EQ(TransformIs(Call("truncate", {LitL(3), LitS("iceberg")}), row, LitS("ice")),
            true);
  EXPECT_FALSE(
      Bind(Cmp(ExprOp::kEq, Call("truncate", {LitL(2), Expr::Ref(3)}), LitL(1))).ok());
}

TEST(Transforms, NullInNullOut) {
  const Value row = Row({});
  for (const char* fn : {"year", "month", "day", "hour"}) {
    EXPECT_EQ(Eval(Expr::Unary(ExprOp::kIsNull, Call(fn, {Expr::Ref(8)})), row), true)
        << fn;
  }
  EXPECT_EQ(
      Eval(Expr::Unary(ExprOp::kIsNull, Call("bucket", {LitL(4), Expr::Ref(1)})), row),
      true);
  EXPECT_EQ(
      Eval(Expr::Unary(ExprOp::kIsNull, Call("truncate", {LitL(4), Expr::Ref(5)})), row),
      true);
  EXPECT_EQ(Eval(Expr::Unary(ExprOp::kIsNull, Call("identity", {Expr::Ref(5)})), row),
            true);
}

TEST(Transforms, IfElse) {
  // if_else(#1 > 0, #1, 0) >= 0
  const Expr e = Cmp(
      ExprOp::kGtEq,
      Call("if_else", {Cmp(ExprOp::kGt, Expr::Ref(1), LitL(0)), Expr::Ref(1), LitL(0)}),
      LitL(0));
  EXPECT_TRUE(Bind(e).ok()) << Bind(e).error;
  EXPECT_EQ(Eval(e, Row({{1, Value::Long(-5)}})), true);
  EXPECT_EQ(Eval(e, Row({{1, Value::Long(5)}})), true);
  const Expr pick = Cmp(
      ExprOp::kEq, Call("if_else", {Expr::Ref(18), LitS("yes"), LitS("no")}), LitS("no"));
  EXPECT_EQ(Eval(pick, Row({{18, Value::Boolean(false)}})), true);
  EXPECT_EQ(Eval(pick, Row({})), true) << "a null condition takes the else branch";
  EXPECT_FALSE(
      Bind(Cmp(ExprOp::kEq, Call("if_else", {Expr::Ref(1), LitL(1), LitL(2)}), LitL(1)))
          .ok())
      << "the condition must be boolean";
  EXPECT_FALSE(
      Bind(Cmp(ExprOp::kEq, Call("if_else", {Expr::Ref(18), Expr::Ref(1), Expr::Ref(5)}),
               LitL(1)))
          .ok())
      << "branches must align";
  Expr qualified = Call("if_else", {Expr::True(), LitL(1), LitL(2)});
  qualified.function = {"iceberg_functions", "if_else"};
  EXPECT_EQ(Eval(Cmp(ExprOp::kEq, qualified, LitL(1)), Row({})), true);
}

}  // namespace
}  // namespace ictk::evaluate_test
