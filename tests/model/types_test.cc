// Tests of model/iceberg/types.h, model/iceberg/value.h and model/iceberg/expression.h printing: canonical type
// spellings (SURROUNDINGS.md "Types and schema JSON"), readable values and expressions.
#include "model/iceberg/types.h"

#include <gtest/gtest.h>

#include <cmath>
#include <sstream>

#include "model/iceberg/expression.h"
#include "model/iceberg/value.h"
#include "tests/model/field_test_util_internal.h"

namespace ictk {
namespace {

using testing_util::Field;

TEST(TypeToString, PrimitivesUseCanonicalSpellings) {
  EXPECT_EQ(ToString(Type::Primitive(TypeId::kBoolean)), "boolean");
  EXPECT_EQ(ToString(Type::Primitive(TypeId::kInt)), "int");
  EXPECT_EQ(ToString(Type::Primitive(TypeId::kLong)), "long");
  EXPECT_EQ(ToString(Type::Primitive(TypeId::kFloat)), "float");
  EXPECT_EQ(ToString(Type::Primitive(TypeId::kDouble)), "double");
  EXPECT_EQ(ToString(Type::Decimal(9, 2)), "decimal(9, 2)");
  EXPECT_EQ(ToString(Type::Primitive(TypeId::kDate)), "date");
  EXPECT_EQ(ToString(Type::Primitive(TypeId::kTime)), "time");
  EXPECT_EQ(ToString(Type::Primitive(TypeId::kTimestamp)), "timestamp");
  EXPECT_EQ(ToString(Type::Primitive(TypeId::kTimestampTz)), "timestamptz");
  EXPECT_EQ(ToString(Type::Primitive(TypeId::kTimestampNs)), "timestamp_ns");
  EXPECT_EQ(ToString(Type::Primitive(TypeId::kTimestampTzNs)), "timestamptz_ns");
  EXPECT_EQ(ToString(Type::Primitive(TypeId::kString)), "string");
  EXPECT_EQ(ToString(Type::Primitive(TypeId::kUuid)), "uuid");
  EXPECT_EQ(ToString(Type::Fixed(16)), "fixed[16]");
  EXPECT_EQ(ToString(Type::Primitive(TypeId::kBinary)), "binary");
  EXPECT_EQ(ToString(Type::Primitive(TypeId::kUnknown)), "unknown");
  EXPECT_EQ(ToString(Type::Primitive(TypeId::kVariant)), "variant");
}

TEST(TypeToString, GeoTypesShowCrsAndAlgorithmOnlyWhenSet) {
  Type geometry = Type::Primitive(TypeId::kGeometry);
  EXPECT_EQ(ToString(geometry), "geometry");
  geometry.crs = "srid:4326";
  EXPECT_EQ(ToString(geometry), "geometry(srid:4326)");

  Type geography = Type::Primitive(TypeId::kGeography);
  EXPECT_EQ(ToString(geography), "geography");
  geography.crs = "srid:4326";
  EXPECT_EQ(ToString(geography), "geography(srid:4326)");
  geography.algorithm = "spherical";
  EXPECT_EQ(ToString(geography), "geography(srid:4326, spherical)");
  geography.crs.clear();
  EXPECT_EQ(ToString(geography), "geography(OGC:CRS84, spherical)");
}

TEST(TypeToString, NestedTypesAreReadable) {
  Type s = Type::Struct(
      {Field(1, "id", true, Type::Primitive(TypeId::kLong)),
       Field(2, "tags", false, Type::List(3, true, Type::Primitive(TypeId::kString)))});
  EXPECT_EQ(ToString(s), "struct<1: id: required long, 2: tags: optional list<string>>");
  Type m = Type::Map(4, Type::Primitive(TypeId::kString), 5, false,
                     Type::Primitive(TypeId::kDouble));
  EXPECT_EQ(ToString(m), "map<string, double>");
  NestedField documented = Field(7, "x", true, Type::Primitive(TypeId::kInt));
  documented.doc = "a doc";
  EXPECT_EQ(ToString(Type::Struct({documented})), "struct<7: x: required int (a doc)>");
}

TEST(TypeToString, TypeIdAndStreamOperator) {
  EXPECT_EQ(ToString(TypeId::kDecimal), "decimal");
  EXPECT_EQ(ToString(TypeId::kTimestampTzNs), "timestamptz_ns");
  EXPECT_EQ(ToString(TypeId::kMap), "map");
  std::ostringstream os;
  os << Type::Fixed(3) << " " << TypeId::kGeography;
  EXPECT_EQ(os.str(), "fixed[3] geography");
}

TEST(ValueToString, ScalarsAndNestedValues) {
  EXPECT_EQ(ToString(Value::Null()), "null");
  EXPECT_EQ(ToString(Value::Boolean(true)), "true");
  EXPECT_EQ(ToString(Value::Long(-34)), "-34");
  EXPECT_EQ(ToString(Value::Double(5)), "5.0");
  EXPECT_EQ(ToString(Value::Double(2.5)), "2.5");
  EXPECT_EQ(ToString(Value::Double(std::nan(""))), "NaN");
  EXPECT_EQ(ToString(Value::DecimalOf(1420, 2)), "14.20");
  EXPECT_EQ(ToString(Value::DecimalOf(-5, 2)), "-0.05");
  EXPECT_EQ(ToString(Value::DecimalOf(12, -2)), "1200");
  EXPECT_EQ(ToString(Value::String("a\"b")), "\"a\\\"b\"");
  EXPECT_EQ(ToString(Value::Bytes(std::string("\x00\x01\xff", 3))), "0x0001ff");
  EXPECT_EQ(ToString(Value::Struct({1, 2}, {Value::Long(1), Value::Null()})),
            "{1: 1, 2: null}");
  EXPECT_EQ(ToString(Value::List({Value::Long(1), Value::Long(2)})), "[1, 2]");
  EXPECT_EQ(ToString(Value::Map({Value::String("k")}, {Value::Double(1.5)})),
            "{\"k\" => 1.5}");
}

TEST(ValueToString, LargestDecimalPrintsExactly) {
  Int128 max38 = 1;
  for (int i = 0; i < 38; ++i) max38 *= 10;
  max38 -= 1;
  EXPECT_EQ(ToString(Value::DecimalOf(max38, 0)), std::string(38, '9'));
  EXPECT_EQ(ToString(Value::DecimalOf(-max38, 38)), "-0." + std::string(38, '9'));
}

TEST(ExprOpName, JsonSpellings) {
  const std::pair<ExprOp, std::string_view> expected[] = {
      {ExprOp::kTrue, "true"},
      {ExprOp::kFalse, "false"},
      {ExprOp::kNot, "not"},
      {ExprOp::kAnd, "and"},
      {ExprOp::kOr, "or"},
      {ExprOp::kIsNull, "is-null"},
      {ExprOp::kNotNull, "not-null"},
      {ExprOp::kIsNan, "is-nan"},
      {ExprOp::kNotNan, "not-nan"},
      {ExprOp::kLt, "lt"},
      {ExprOp::kLtEq, "lt-eq"},
      {ExprOp::kGt, "gt"},
      {ExprOp::kGtEq, "gt-eq"},
      {ExprOp::kEq, "eq"},
      {ExprOp::kNotEq, "not-eq"},
      {ExprOp::kStartsWith, "starts-with"},
      {ExprOp::kNotStartsWith, "not-starts-with"},
      {ExprOp::kIn, "in"},
      {ExprOp::kNotIn, "not-in"},
      {ExprOp::kReference, "reference"},
      {ExprOp::kNamedReference, "reference"},
      {ExprOp::kLiteral, "literal"},
      {ExprOp::kApply, "apply"},
      {ExprOp::kParameter, "parameter"},
  };
  for (const auto& [op, name] : expected) EXPECT_EQ(ExprOpName(op), name);
}

TEST(ExprToString, ReadableInfix) {
  Expr check = Expr::Binary(
      ExprOp::kOr, Expr::Binary(ExprOp::kLt, Expr::Ref(3), Expr::Lit(Value::Long(10))),
      Expr::Unary(ExprOp::kIsNull, Expr::Ref(3)));
  EXPECT_EQ(ToString(check), "(#3 < 10 or #3 is null)");
  Expr in =
      Expr::Set(ExprOp::kNotIn, Expr::Ref(1), {Value::String("a"), Value::String("b")});
  EXPECT_EQ(ToString(in), "#1 not in (\"a\", \"b\")");
  Expr apply = Expr::Apply("bucket", {Expr::Lit(Value::Long(16)), Expr::Ref(2)});
  EXPECT_EQ(ToString(Expr::Unary(ExprOp::kNot, Expr::Binary(ExprOp::kEq, apply,
                                                            Expr::Lit(Value::Long(0))))),
            "not (bucket(16, #2) == 0)");
  Expr typed = Expr::Lit(Value::String("2017-11-16"));
  typed.data_type = Type::Primitive(TypeId::kDate);
  EXPECT_EQ(ToString(typed), "\"2017-11-16\"::date");
  Expr param;
  param.op = ExprOp::kParameter;
  param.name = "x";
  EXPECT_EQ(ToString(param), "$x");
  std::ostringstream os;
  os << Expr::False();
  EXPECT_EQ(os.str(), "false");
}

}  // namespace
}  // namespace ictk
