// Tests of model/iceberg/evaluate.h: Iceberg's Murmur3 hash (the vectors of the Iceberg spec
// Appendix B), the bucket transform, and the names of the iceberg_functions built-ins.
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "model/iceberg/evaluate.h"
#include "tests/model/evaluate_test_util_internal.h"

namespace ictk::evaluate_test {
namespace {


// ---- Iceberg spec Appendix B hash vectors

/// hashLong of the given bits, through the long hash (the same bytes).
int32_t HashOfLongBits(int64_t bits) {
  return IcebergHash(Value::Long(bits), P(TypeId::kLong));
}

TEST(IcebergHash, SpecAppendixBVectors) {
  EXPECT_EQ(IcebergHash(Value::Long(34), P(TypeId::kInt)), 2017239379);
  EXPECT_EQ(IcebergHash(Value::Long(34), P(TypeId::kLong)), 2017239379);
  EXPECT_EQ(IcebergHash(Value::DecimalOf(1420, 2), Type::Decimal(9, 2)), -500754589);
  EXPECT_EQ(IcebergHash(Value::Long(kDate20171116), P(TypeId::kDate)), -653330422);
  EXPECT_EQ(IcebergHash(Value::Long(kTime223108), P(TypeId::kTime)), -662762989);
  EXPECT_EQ(IcebergHash(Value::Long(kTs20171116T223108), P(TypeId::kTimestamp)),
            -2047944441);
  EXPECT_EQ(IcebergHash(Value::Long(kTs20171116T223108), P(TypeId::kTimestampTz)),
            -2047944441);
  EXPECT_EQ(IcebergHash(Value::String("iceberg"), P(TypeId::kString)), 1210000089);
  EXPECT_EQ(IcebergHash(Value::Bytes(UuidBytes()), P(TypeId::kUuid)), 1488055340);
  EXPECT_EQ(IcebergHash(Value::Bytes(std::string("\x00\x01\x02\x03", 4)), Type::Fixed(4)),
            -188683207);
  EXPECT_EQ(
      IcebergHash(Value::Bytes(std::string("\x00\x01\x02\x03", 4)), P(TypeId::kBinary)),
      -188683207);
}

TEST(IcebergHash, NanosAreHashedAsMicros) {
  // The spec hashes timestamp_ns after converting to microseconds.
  EXPECT_EQ(
      IcebergHash(Value::Long(kTs20171116T223108 * 1000 + 999), P(TypeId::kTimestampNs)),
      -2047944441);
  EXPECT_EQ(
      IcebergHash(Value::Long(kTs20171116T223108 * 1000), P(TypeId::kTimestampTzNs)),
      -2047944441);
}

TEST(IcebergHash, FloatsHashAsCanonicalDoubles) {
  // Appendix B note: NaN canonicalized to 0x7ff8000000000000, -0.0 to 0.0, and a float
  // hashes as the double it promotes to.
  const Type d = P(TypeId::kDouble);
  EXPECT_EQ(IcebergHash(Value::Double(-0.0), d), IcebergHash(Value::Double(0.0), d));
  EXPECT_EQ(IcebergHash(Value::Double(-kNaN), d), IcebergHash(Value::Double(kNaN), d));
  EXPECT_EQ(IcebergHash(Value::Double(1.5), P(TypeId::kFloat)),
            IcebergHash(Value::Double(1.5), d));
  EXPECT_EQ(IcebergHash(Value::Double(1.0), d), HashOfLongBits(0x3ff0000000000000));
  EXPECT_EQ(IcebergHash(Value::Double(kNaN), d), HashOfLongBits(0x7ff8000000000000));
}

TEST(IcebergHash, DecimalUsesMinimalTwosComplementAtTheTypeScale) {
  // 14.2 held with scale 1 is hashed as the decimal(9, 2) value 14.20.
  EXPECT_EQ(IcebergHash(Value::DecimalOf(142, 1), Type::Decimal(9, 2)), -500754589);
  // Sign handling: -1 is the single byte 0xff; 128 needs a leading zero byte.
  EXPECT_NE(IcebergHash(Value::DecimalOf(-1, 0), Type::Decimal(9, 0)),
            IcebergHash(Value::DecimalOf(255, 0), Type::Decimal(9, 0)));
  EXPECT_EQ(IcebergHash(Value::Null(), P(TypeId::kInt)), 0);
}

TEST(BucketTransform, AppliesHashModN) {
  const Value row = Row({{10, Value::Long(34)},
                         {5, Value::String("iceberg")},
                         {7, Value::DecimalOf(1420, 2)},
                         {8, Value::Long(kTs20171116T223108)}});
  EXPECT_EQ(
      Eval(Cmp(ExprOp::kEq, Call("bucket", {LitL(100), Expr::Ref(10)}), LitL(79)), row),
      true);
  EXPECT_EQ(
      Eval(Cmp(ExprOp::kEq, Call("bucket", {LitL(16), Expr::Ref(5)}), LitL(9)), row),
      true);
  EXPECT_EQ(
      Eval(Cmp(ExprOp::kEq, Call("bucket", {LitL(10), Expr::Ref(7)}), LitL(9)), row),
      true);
  EXPECT_EQ(Eval(Cmp(ExprOp::kEq, Call("bucket", {LitL(7), Expr::Ref(8)}), LitL(5)), row),
            true);
  EXPECT_EQ(Eval(Cmp(ExprOp::kEq, Call("bucket", {LitL(7), Expr::Ref(8)}), LitL(4)), row),
            false);
}

TEST(BucketTransform, ArgumentRules) {
  EXPECT_FALSE(
      Bind(Cmp(ExprOp::kEq, Call("bucket", {LitL(16), Expr::Ref(3)}), LitL(1))).ok())
      << "bucket is not defined for double";
  EXPECT_FALSE(
      Bind(Cmp(ExprOp::kEq, Call("bucket", {Expr::Ref(1), Expr::Ref(2)}), LitL(1))).ok())
      << "N must be a literal";
  EXPECT_FALSE(
      Bind(Cmp(ExprOp::kEq, Call("bucket", {LitL(0), Expr::Ref(2)}), LitL(1))).ok());
  EXPECT_FALSE(Bind(Cmp(ExprOp::kEq, Call("bucket", {Expr::Ref(2)}), LitL(1))).ok());
  EXPECT_TRUE(
      Bind(Cmp(ExprOp::kEq, Call("bucket", {LitL(16), Expr::Ref(15)}), LitL(1))).ok());
}

// ---- function names

TEST(IsBuiltinFunction, AcceptsTheIcebergFunctionsCatalogSpellings) {
  Expr bare = Call("bucket", {});
  EXPECT_TRUE(IsBuiltinFunction(bare));
  Expr in_catalog = bare;
  in_catalog.catalog = "iceberg_functions";
  EXPECT_TRUE(IsBuiltinFunction(in_catalog));
  Expr path = bare;
  path.function = {"iceberg_functions", "truncate"};
  EXPECT_TRUE(IsBuiltinFunction(path));
  Expr other_catalog = bare;
  other_catalog.catalog = "my_catalog";
  EXPECT_FALSE(IsBuiltinFunction(other_catalog));
  EXPECT_FALSE(IsBuiltinFunction(Call("is_positive", {})));
  EXPECT_FALSE(IsBuiltinFunction(Expr::Ref(1)));
  for (const char* name : {"if_else", "identity", "year", "month", "day", "hour"}) {
    EXPECT_TRUE(IsBuiltinFunction(Call(name, {}))) << name;
  }
}

TEST(IsBuiltinFunction, UnknownNameInIcebergFunctionsIsAnError) {
  Expr e = Call("now", {});
  e.catalog = "iceberg_functions";
  BindResult r = Bind(Cmp(ExprOp::kEq, e, LitL(1)));
  EXPECT_FALSE(r.ok());
  EXPECT_FALSE(r.calls_udf);
  EXPECT_TRUE(r.undefined_functions.empty());
}

}  // namespace
}  // namespace ictk::evaluate_test
