// Tests of model/iceberg/value_compare.h: key equality and its hash (decimals by value, -0.0 ==
// 0.0, NaN == NaN, nested values fieldwise) and predicate ordering (unsigned bytes,
// decimals by value, IEEE floats, nullopt for null/NaN), with RapidCheck properties.
#include "model/iceberg/value_compare.h"

#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include <cmath>
#include <limits>

#include "tests/model/field_test_util_internal.h"

namespace ictk {
namespace {

using testing_util::P;

NestedField Field(FieldId id, bool required, Type type) {
  NestedField f;
  f.id = id;
  f.name = "f" + std::to_string(id);
  f.required = required;
  f.type = std::move(type);
  return f;
}

const double kNaN = std::numeric_limits<double>::quiet_NaN();
const double kInf = std::numeric_limits<double>::infinity();

TEST(KeyValuesEqual, DecimalsEqualByValueAndHashEqual) {
  // 1.0 == 1.00: unique/primary-key keys compare decimals by value after aligning scale.
  const Type t = Type::Decimal(9, 2);
  const Value a = Value::DecimalOf(10, 1);
  const Value b = Value::DecimalOf(100, 2);
  EXPECT_TRUE(KeyValuesEqual(a, b, t));
  EXPECT_EQ(KeyValueHash(a, t), KeyValueHash(b, t));
  EXPECT_FALSE(KeyValuesEqual(Value::DecimalOf(101, 2), b, t));
  EXPECT_TRUE(KeyValuesEqual(Value::DecimalOf(0, 0), Value::DecimalOf(0, 5), t));
  EXPECT_EQ(KeyValueHash(Value::DecimalOf(0, 0), t),
            KeyValueHash(Value::DecimalOf(0, 5), t));
  EXPECT_TRUE(KeyValuesEqual(Value::DecimalOf(-1420, 2), Value::DecimalOf(-142, 1), t));
}

TEST(KeyValuesEqual, FloatingPointKeys) {
  for (TypeId id : {TypeId::kFloat, TypeId::kDouble}) {
    const Type t = P(id);
    EXPECT_TRUE(KeyValuesEqual(Value::Double(-0.0), Value::Double(0.0), t));
    EXPECT_EQ(KeyValueHash(Value::Double(-0.0), t), KeyValueHash(Value::Double(0.0), t));
    EXPECT_TRUE(KeyValuesEqual(Value::Double(kNaN), Value::Double(-kNaN), t));
    EXPECT_EQ(KeyValueHash(Value::Double(kNaN), t),
              KeyValueHash(Value::Double(-kNaN), t));
    EXPECT_FALSE(KeyValuesEqual(Value::Double(kNaN), Value::Double(1.0), t));
    EXPECT_FALSE(KeyValuesEqual(Value::Double(1.0), Value::Double(1.5), t));
  }
}

TEST(KeyValuesEqual, ScalarsBytesAndNulls) {
  EXPECT_TRUE(KeyValuesEqual(Value::Long(5), Value::Long(5), P(TypeId::kLong)));
  EXPECT_FALSE(KeyValuesEqual(Value::Long(5), Value::Long(6), P(TypeId::kDate)));
  EXPECT_TRUE(
      KeyValuesEqual(Value::String("ab"), Value::String("ab"), P(TypeId::kString)));
  EXPECT_FALSE(
      KeyValuesEqual(Value::String("ab"), Value::String("aB"), P(TypeId::kString)));
  EXPECT_TRUE(
      KeyValuesEqual(Value::Bytes("\x01\x02"), Value::Bytes("\x01\x02"), Type::Fixed(2)));
  EXPECT_FALSE(
      KeyValuesEqual(Value::Boolean(true), Value::Boolean(false), P(TypeId::kBoolean)));
  EXPECT_FALSE(KeyValuesEqual(Value::Null(), Value::Long(1), P(TypeId::kLong)));
}

TEST(KeyValuesEqual, StructsCompareFieldwise) {
  const Type t = Type::Struct(
      {Field(1, true, P(TypeId::kLong)), Field(2, false, Type::Decimal(9, 2))});
  const Value a = Value::Struct({1, 2}, {Value::Long(7), Value::DecimalOf(10, 1)});
  const Value b = Value::Struct({2, 1}, {Value::DecimalOf(100, 2), Value::Long(7)});
  EXPECT_TRUE(KeyValuesEqual(a, b, t));
  EXPECT_EQ(KeyValueHash(a, t), KeyValueHash(b, t));
  const Value c = Value::Struct({1, 2}, {Value::Long(7), Value::Null()});
  const Value d =
      Value::Struct({1}, {Value::Long(7)});  // a missing optional field is null
  EXPECT_TRUE(KeyValuesEqual(c, d, t));
  EXPECT_EQ(KeyValueHash(c, t), KeyValueHash(d, t));
  EXPECT_FALSE(KeyValuesEqual(a, c, t));
}

TEST(KeyValuesEqual, ListsAndMaps) {
  const Type list = Type::List(3, false, Type::Decimal(9, 2));
  EXPECT_TRUE(KeyValuesEqual(Value::List({Value::DecimalOf(1, 0), Value::Null()}),
                             Value::List({Value::DecimalOf(100, 2), Value::Null()}),
                             list));
  EXPECT_FALSE(KeyValuesEqual(Value::List({Value::DecimalOf(1, 0)}),
                              Value::List({Value::DecimalOf(1, 0), Value::Null()}),
                              list));
  const Type map = Type::Map(4, P(TypeId::kString), 5, true, P(TypeId::kLong));
  const Value m1 = Value::Map({Value::String("a"), Value::String("b")},
                              {Value::Long(1), Value::Long(2)});
  const Value m2 = Value::Map({Value::String("b"), Value::String("a")},
                              {Value::Long(2), Value::Long(1)});
  EXPECT_TRUE(KeyValuesEqual(m1, m2, map));
  EXPECT_EQ(KeyValueHash(m1, map), KeyValueHash(m2, map));
  EXPECT_FALSE(KeyValuesEqual(m1,
                              Value::Map({Value::String("a"), Value::String("b")},
                                         {Value::Long(1), Value::Long(3)}),
                              map));
}

TEST(CompareValues, NullAndNanAreUnordered) {
  EXPECT_FALSE(CompareValues(Value::Null(), Value::Long(1), P(TypeId::kLong)));
  EXPECT_FALSE(CompareValues(Value::Null(), Value::Null(), P(TypeId::kLong)));
  EXPECT_FALSE(CompareValues(Value::Double(kNaN), Value::Double(1), P(TypeId::kDouble)));
  EXPECT_FALSE(
      CompareValues(Value::Double(kNaN), Value::Double(kNaN), P(TypeId::kDouble)));
}

TEST(CompareValues, IeeeOrderForFloats) {
  const Type t = P(TypeId::kDouble);
  EXPECT_EQ(CompareValues(Value::Double(-0.0), Value::Double(0.0), t), 0);
  EXPECT_EQ(CompareValues(Value::Double(-kInf), Value::Double(-1e308), t), -1);
  EXPECT_EQ(CompareValues(Value::Double(kInf), Value::Double(1e308), t), 1);
  EXPECT_EQ(CompareValues(Value::Double(1.5), Value::Double(2), t), -1);
}

TEST(CompareValues, UnsignedBytewiseForStringsAndBytes) {
  // 0xff sorts after 'a' although it is negative as a signed char.
  EXPECT_EQ(CompareValues(Value::String("\xff"), Value::String("a"), P(TypeId::kString)),
            1);
  EXPECT_EQ(CompareValues(Value::String("a"), Value::String("ab"), P(TypeId::kString)),
            -1);
  EXPECT_EQ(CompareValues(Value::Bytes("\x80"), Value::Bytes("\x7f"), P(TypeId::kBinary)),
            1);
  EXPECT_EQ(CompareValues(Value::Bytes(std::string(16, '\x01')),
                          Value::Bytes(std::string(16, '\x01')), P(TypeId::kUuid)),
            0);
  EXPECT_EQ(CompareValues(Value::Bytes(std::string("\x00\x01", 2)),
                          Value::Bytes(std::string("\x00\x02", 2)), Type::Fixed(2)),
            -1);
}

TEST(CompareValues, DecimalsByValueAndOtherScalars) {
  const Type t = Type::Decimal(38, 2);
  EXPECT_EQ(CompareValues(Value::DecimalOf(10, 1), Value::DecimalOf(100, 2), t), 0);
  EXPECT_EQ(CompareValues(Value::DecimalOf(15, 1), Value::DecimalOf(149, 2), t), 1);
  EXPECT_EQ(CompareValues(Value::DecimalOf(-15, 1), Value::DecimalOf(-149, 2), t), -1);
  Int128 big = 1;
  for (int i = 0; i < 37; ++i) big *= 10;
  // Aligning scale would overflow 128 bits: still ordered exactly.
  EXPECT_EQ(CompareValues(Value::DecimalOf(big, 0), Value::DecimalOf(1, 30), t), 1);
  EXPECT_EQ(CompareValues(Value::DecimalOf(-big, 0), Value::DecimalOf(1, 30), t), -1);
  EXPECT_EQ(
      CompareValues(Value::Boolean(false), Value::Boolean(true), P(TypeId::kBoolean)),
      -1);
  EXPECT_EQ(CompareValues(Value::Long(-3), Value::Long(2), P(TypeId::kTimestamp)), -1);
  EXPECT_FALSE(
      CompareValues(Value::Struct({}, {}), Value::Struct({}, {}), Type::Struct({})));
}

// ---- properties

struct Typed {
  Type type;
  std::vector<Value> values;  ///< non-null values of `type`
};

std::ostream& operator<<(std::ostream& os, const Typed& t) {
  os << ToString(t.type) << ":";
  for (const Value& v : t.values) os << " " << ToString(v);
  return os;
}

/// A non-null value of `type`, drawn from a small domain so that equal values are common;
/// decimals get a random representation (extra trailing zeros in the unscaled value).
rc::Gen<Value> GenValue(const Type& type) {
  switch (type.id) {
    case TypeId::kBoolean:
      return rc::gen::map(rc::gen::arbitrary<bool>(), &Value::Boolean);
    case TypeId::kDouble:
      return rc::gen::map(
          rc::gen::element(-0.0, 0.0, 1.5, -2.0, 3.0, kNaN, kInf, -kInf, 1e-300),
          &Value::Double);
    case TypeId::kDecimal:
      return rc::gen::apply(
          [](int unscaled, int scale, int extra) {
            Int128 u = unscaled;
            for (int i = 0; i < extra; ++i) u *= 10;
            return Value::DecimalOf(u, scale + extra);
          },
          rc::gen::inRange(-30, 31), rc::gen::inRange(0, 3), rc::gen::inRange(0, 4));
    case TypeId::kString:
      return rc::gen::map(
          rc::gen::element<std::string>("", "a", "ab", "b", "\xff", "a\xff"),
          &Value::String);
    case TypeId::kBinary:
      return rc::gen::map(rc::gen::element<std::string>("", std::string(1, '\0'), "\x7f",
                                                        "\x80", "\x80\x01"),
                          &Value::Bytes);
    case TypeId::kStruct:
      return rc::gen::apply(
          [](Value a, rc::Maybe<Value> b) {
            return b ? Value::Struct({1, 2}, {std::move(a), std::move(*b)})
                     : Value::Struct({1}, {std::move(a)});
          },
          rc::gen::map(rc::gen::inRange(-2, 3), [](int x) { return Value::Long(x); }),
          rc::gen::maybe(GenValue(Type::Decimal(9, 2))));
    default:
      return rc::gen::map(rc::gen::inRange(-5, 6), [](int x) { return Value::Long(x); });
  }
}

rc::Gen<Type> GenType() {
  return rc::gen::element(P(TypeId::kBoolean), P(TypeId::kLong), P(TypeId::kDate),
                          P(TypeId::kDouble), Type::Decimal(38, 2), P(TypeId::kString),
                          P(TypeId::kBinary),
                          Type::Struct({Field(1, true, P(TypeId::kLong)),
                                        Field(2, false, Type::Decimal(9, 2))}));
}

rc::Gen<Typed> GenTyped(int n) {
  return rc::gen::mapcat(GenType(), [n](const Type& t) {
    return rc::gen::map(rc::gen::container<std::vector<Value>>(n, GenValue(t)),
                        [t](std::vector<Value> vs) {
                          return Typed{t, std::move(vs)};
                        });
  });
}

RC_GTEST_PROP(KeyValueHashProperty, EqualKeysHashEqual, ()) {
  const Typed t = *GenTyped(2);
  const Value& a = t.values[0];
  const Value& b = t.values[1];
  RC_TAG(KeyValuesEqual(a, b, t.type));
  if (KeyValuesEqual(a, b, t.type)) {
    RC_ASSERT(KeyValueHash(a, t.type) == KeyValueHash(b, t.type));
  }
  // Equality is symmetric and reflexive.
  RC_ASSERT(KeyValuesEqual(a, b, t.type) == KeyValuesEqual(b, a, t.type));
  RC_ASSERT(KeyValuesEqual(a, a, t.type));
}

int Sign(int x) { return (x > 0) - (x < 0); }

RC_GTEST_PROP(CompareValuesProperty, AntisymmetricAndTransitive, ()) {
  const Typed t = *GenTyped(3);
  const Value& a = t.values[0];
  const Value& b = t.values[1];
  const Value& c = t.values[2];
  const auto ab = CompareValues(a, b, t.type);
  const auto ba = CompareValues(b, a, t.type);
  RC_ASSERT(ab.has_value() == ba.has_value());
  if (ab) RC_ASSERT(Sign(*ab) == -Sign(*ba));
  const auto bc = CompareValues(b, c, t.type);
  const auto ac = CompareValues(a, c, t.type);
  if (ab && bc && *ab <= 0 && *bc <= 0) {
    RC_ASSERT(ac.has_value());
    RC_ASSERT(*ac <= 0);
    if (*ab < 0 || *bc < 0) RC_ASSERT(*ac < 0);
  }
  // Ordering agrees with key equality where both are defined.
  if (ab && t.type.id != TypeId::kStruct)
    RC_ASSERT((*ab == 0) == KeyValuesEqual(a, b, t.type));
}

}  // namespace
}  // namespace ictk
