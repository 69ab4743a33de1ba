// Appendix D string forms (SURROUNDINGS.md "Single values in JSON"), literal binding and
// ValueFitsType.
#include "model/iceberg/value_parse.h"

#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include <cmath>
#include <limits>

#include "tests/model/field_test_util_internal.h"

namespace ictk {
namespace {

using testing_util::P;

std::optional<int64_t> Long(const Type& t, std::string_view text) {
  auto v = ParseValueString(t, text);
  if (!v || v->kind != ValueKind::kLong) return std::nullopt;
  return v->as_long();
}

TEST(ValueStrings, Dates) {
  const Type date = P(TypeId::kDate);
  EXPECT_EQ(Long(date, "1970-01-01"), 0);
  EXPECT_EQ(Long(date, "2017-11-16"), 17486);
  EXPECT_EQ(Long(date, "1969-12-31"), -1);
  EXPECT_EQ(Long(date, "2024-02-29"), 19782);
  EXPECT_EQ(Long(date, "-0001-01-01"), -719893);
  EXPECT_EQ(Long(date, "+10000-01-01"), 2932897);
  for (const char* bad :
       {"2023-02-29", "2017-13-01", "2017-11-31", "17-11-16", "2017/11/16",
        "2017-11-16T00:00", "10000-01-01", " 2017-11-16", ""}) {
    EXPECT_FALSE(ParseValueString(date, bad).has_value()) << bad;
  }
  EXPECT_EQ(FormatValueString(date, Value::Long(17486)), "2017-11-16");
  EXPECT_EQ(FormatValueString(date, Value::Long(-719893)), "-0001-01-01");
  EXPECT_EQ(FormatValueString(date, Value::Long(2932897)), "+10000-01-01");
}

TEST(ValueStrings, TimesAndTimestampsByPrecision) {
  const Type time = P(TypeId::kTime);
  EXPECT_EQ(Long(time, "22:31:08.123456"), 81068123456);
  EXPECT_EQ(Long(time, "22:31"), 81060000000);
  EXPECT_EQ(Long(time, "22:31:08.1"), 81068100000);
  EXPECT_FALSE(Long(time, "22:31:08.1234567").has_value());   // below micros
  EXPECT_TRUE(Long(time, "22:31:08.123456000").has_value());  // zeros lose nothing
  EXPECT_FALSE(Long(time, "24:00:00").has_value());
  EXPECT_EQ(FormatValueString(time, Value::Long(81068123456)), "22:31:08.123456");

  const Type ts = P(TypeId::kTimestamp);
  const Type ts_ns = P(TypeId::kTimestampNs);
  EXPECT_EQ(Long(ts, "2017-11-16T22:31:08.123456"), 1510871468123456);
  EXPECT_EQ(Long(ts_ns, "2017-11-16T22:31:08.123456789"), 1510871468123456789);
  EXPECT_FALSE(Long(ts, "2017-11-16T22:31:08.123456789").has_value());
  EXPECT_FALSE(
      Long(ts, "2017-11-16T22:31:08+00:00").has_value());  // no offset on timestamp
  EXPECT_EQ(Long(ts, "1969-12-31T23:59:59.999999"), -1);
  EXPECT_EQ(FormatValueString(ts, Value::Long(-1)), "1969-12-31T23:59:59.999999");
  EXPECT_EQ(FormatValueString(ts_ns, Value::Long(1510871468123456789)),
            "2017-11-16T22:31:08.123456789");
  // timestamp_ns spans 1677..2262: beyond it the value does not fit a long.
  EXPECT_FALSE(Long(ts_ns, "2300-01-01T00:00:00").has_value());
}

TEST(ValueStrings, TimestamptzOffsetsNormalizeToUtc) {
  const Type tz = P(TypeId::kTimestampTz);
  const int64_t utc = 1510871468123456;
  EXPECT_EQ(Long(tz, "2017-11-16T22:31:08.123456+00:00"), utc);
  EXPECT_EQ(Long(tz, "2017-11-16T22:31:08.123456Z"), utc);
  EXPECT_EQ(Long(tz, "2017-11-17T00:01:08.123456+01:30"), utc);
  EXPECT_EQ(Long(tz, "2017-11-16T14:31:08.123456-08:00"), utc);
  EXPECT_EQ(Long(tz, "2017-11-16T14:31:08.123456-0800"), utc);
  EXPECT_FALSE(Long(tz, "2017-11-16T22:31:08.123456").has_value());  // offset required
  EXPECT_FALSE(Long(tz, "2017-11-16T22:31:08+25:00").has_value());
  EXPECT_EQ(FormatValueString(tz, Value::Long(utc)), "2017-11-16T22:31:08.123456+00:00");
  EXPECT_EQ(FormatValueString(P(TypeId::kTimestampTzNs), Value::Long(utc * 1000 + 789)),
            "2017-11-16T22:31:08.123456789+00:00");
}

TEST(ValueStrings, DecimalsAreExactTo38Digits) {
  const Type d92 = Type::Decimal(9, 2);
  EXPECT_EQ(ParseValueString(d92, "14.20"), Value::DecimalOf(1420, 2));
  EXPECT_EQ(ParseValueString(d92, "14.2"), Value::DecimalOf(1420, 2));
  EXPECT_EQ(ParseValueString(d92, "-0.05"), Value::DecimalOf(-5, 2));
  EXPECT_EQ(ParseValueString(d92, "3.14E+4"), Value::DecimalOf(3140000, 2));
  EXPECT_EQ(ParseValueString(d92, "1400e-2"), Value::DecimalOf(1400, 2));
  EXPECT_FALSE(ParseValueString(d92, "14.205").has_value());       // would round
  EXPECT_FALSE(ParseValueString(d92, "10000000.00").has_value());  // 10 digits
  EXPECT_FALSE(ParseValueString(d92, "1.2.3").has_value());
  EXPECT_FALSE(ParseValueString(d92, "").has_value());
  EXPECT_FALSE(ParseValueString(d92, "NaN").has_value());
  const Type d38 = Type::Decimal(38, 0);
  const std::string max38(38, '9');
  auto big = ParseValueString(d38, max38);
  ASSERT_TRUE(big.has_value());
  EXPECT_EQ(FormatValueString(d38, *big), max38);
  EXPECT_EQ(FormatValueString(d38, *ParseValueString(d38, "-" + max38)), "-" + max38);
  EXPECT_FALSE(
      ParseValueString(d38, "1" + std::string(38, '0')).has_value());  // 39 digits
  EXPECT_FALSE(ParseValueString(d38, "1e39").has_value());
  const Type d3810 = Type::Decimal(38, 10);
  EXPECT_EQ(FormatValueString(d3810, *ParseValueString(d3810, "0.0000000001")),
            "0.0000000001");
  EXPECT_EQ(FormatValueString(d92, Value::DecimalOf(5, 2)), "0.05");
  EXPECT_EQ(FormatValueString(d92, Value::DecimalOf(-1420, 2)), "-14.20");
  EXPECT_EQ(FormatValueString(Type::Decimal(5, 0), Value::DecimalOf(42, 0)), "42");
}

TEST(ValueStrings, UuidFixedBinary) {
  const Type uuid = P(TypeId::kUuid);
  auto u = ParseValueString(uuid, "F79C3E09-677C-4BBD-A479-3F349CB785E7");
  ASSERT_TRUE(u.has_value());
  EXPECT_EQ(u->as_string().size(), 16u);
  EXPECT_EQ(FormatValueString(uuid, *u),
            "f79c3e09-677c-4bbd-a479-3f349cb785e7");  // lower-case
  EXPECT_FALSE(ParseValueString(uuid, "f79c3e09677c4bbda4793f349cb785e7").has_value());
  EXPECT_FALSE(
      ParseValueString(uuid, "g79c3e09-677c-4bbd-a479-3f349cb785e7").has_value());
  EXPECT_EQ(ParseValueString(Type::Fixed(3), "0A0b0C"), Value::Bytes("\x0a\x0b\x0c"));
  EXPECT_FALSE(ParseValueString(Type::Fixed(4), "0102").has_value());
  EXPECT_FALSE(ParseValueString(P(TypeId::kBinary), "abc").has_value());
  EXPECT_EQ(ParseValueString(P(TypeId::kBinary), ""), Value::Bytes(""));
  EXPECT_EQ(FormatValueString(P(TypeId::kBinary), Value::Bytes("\xde\xad")), "dead");
}

TEST(ValueStrings, NumbersHaveNoStringFormExceptNonFinite) {
  EXPECT_FALSE(FormatValueString(P(TypeId::kInt), Value::Long(5)).has_value());
  EXPECT_FALSE(FormatValueString(P(TypeId::kDouble), Value::Double(1.5)).has_value());
  EXPECT_EQ(FormatValueString(P(TypeId::kDouble),
                              Value::Double(-std::numeric_limits<double>::infinity())),
            "-Infinity");
  auto nan = ParseValueString(P(TypeId::kFloat), "NaN");
  ASSERT_TRUE(nan.has_value());
  EXPECT_TRUE(std::isnan(nan->as_double()));
  EXPECT_FALSE(ParseValueString(P(TypeId::kDouble), "1.5").has_value());
}

TEST(BindLiteral, ExactAndSafeConversionsOnly) {
  EXPECT_EQ(BindLiteral(Value::Long(5), P(TypeId::kLong)), Value::Long(5));
  EXPECT_EQ(BindLiteral(Value::Long(5), P(TypeId::kDouble)), Value::Double(5.0));
  EXPECT_EQ(BindLiteral(Value::Long(5), Type::Decimal(9, 2)), Value::DecimalOf(500, 2));
  EXPECT_EQ(BindLiteral(Value::Double(3.14), Type::Decimal(9, 2)),
            Value::DecimalOf(314, 2));
  EXPECT_EQ(BindLiteral(Value::String("2017-11-16"), P(TypeId::kDate)),
            Value::Long(17486));
  EXPECT_EQ(BindLiteral(Value::String("3.14E+4"), Type::Decimal(9, 2)),
            Value::DecimalOf(3140000, 2));
  EXPECT_FALSE(BindLiteral(Value::Double(5.5), P(TypeId::kInt)).has_value());
  EXPECT_FALSE(BindLiteral(Value::Double(5.0), P(TypeId::kInt)).has_value());
  EXPECT_FALSE(BindLiteral(Value::Long(int64_t{1} << 31), P(TypeId::kInt)).has_value());
  EXPECT_FALSE(BindLiteral(Value::String("5"), P(TypeId::kInt)).has_value());
  EXPECT_FALSE(BindLiteral(Value::Long(5), P(TypeId::kString)).has_value());
  EXPECT_FALSE(BindLiteral(Value::Double(3.145), Type::Decimal(9, 2)).has_value());
  EXPECT_FALSE(
      BindLiteral(Value::Long((int64_t{1} << 53) + 1), P(TypeId::kDouble)).has_value());
  EXPECT_FALSE(BindLiteral(Value::String("0102"), Type::Fixed(4)).has_value());
  EXPECT_FALSE(BindLiteral(Value::Boolean(true), P(TypeId::kLong)).has_value());
  // Float: as Iceberg's DoubleLiteral.to(FloatType), rounded to the nearest float.
  auto f = BindLiteral(Value::Double(3.14), P(TypeId::kFloat));
  ASSERT_TRUE(f.has_value());
  EXPECT_EQ(f->as_double(), static_cast<double>(3.14f));
  EXPECT_FALSE(BindLiteral(Value::Double(1e300), P(TypeId::kFloat)).has_value());
  // Already bound values pass through after range checks.
  EXPECT_EQ(BindLiteral(Value::Long(17486), P(TypeId::kDate)), Value::Long(17486));
  EXPECT_FALSE(BindLiteral(Value::Long(-1), P(TypeId::kTime)).has_value());
  EXPECT_EQ(BindLiteral(Value::DecimalOf(15, 1), Type::Decimal(9, 2)),
            Value::DecimalOf(150, 2));
  EXPECT_TRUE(BindLiteral(Value::Null(), P(TypeId::kInt))->is_null());
}

TEST(ValueFitsType, RangesLengthsAndNullability) {
  EXPECT_TRUE(ValueFitsType(Value::Long(1), P(TypeId::kInt)));
  EXPECT_FALSE(ValueFitsType(Value::Long(int64_t{1} << 40), P(TypeId::kInt)));
  EXPECT_FALSE(ValueFitsType(Value::String("x"), P(TypeId::kInt)));
  EXPECT_TRUE(ValueFitsType(Value::DecimalOf(99999, 2), Type::Decimal(5, 2)));
  EXPECT_FALSE(ValueFitsType(Value::DecimalOf(100000, 2), Type::Decimal(5, 2)));
  EXPECT_FALSE(
      ValueFitsType(Value::DecimalOf(1, 3), Type::Decimal(5, 2)));  // scale differs
  EXPECT_FALSE(ValueFitsType(Value::Bytes("abc"), Type::Fixed(4)));
  EXPECT_FALSE(ValueFitsType(Value::Bytes(std::string(15, 'a')), P(TypeId::kUuid)));
  EXPECT_FALSE(ValueFitsType(Value::Long(0), P(TypeId::kUnknown)));
  EXPECT_TRUE(ValueFitsType(Value::Null(), P(TypeId::kUnknown)));

  NestedField req;
  req.id = 1;
  req.name = "id";
  req.required = true;
  req.type = P(TypeId::kLong);
  NestedField opt = req;
  opt.id = 2;
  opt.required = false;
  const Type row = Type::Struct({req, opt});
  EXPECT_TRUE(ValueFitsType(Value::Struct({1}, {Value::Long(1)}), row));
  EXPECT_FALSE(
      ValueFitsType(Value::Struct({2}, {Value::Long(1)}), row));  // required absent
  EXPECT_FALSE(
      ValueFitsType(Value::Struct({1, 2}, {Value::Null(), Value::Long(1)}), row));
  EXPECT_FALSE(
      ValueFitsType(Value::Struct({1, 9}, {Value::Long(1), Value::Long(1)}), row));
  const Type list = Type::List(3, true, P(TypeId::kInt));
  EXPECT_FALSE(ValueFitsType(Value::List({Value::Long(1), Value::Null()}), list));
  const Type map = Type::Map(4, P(TypeId::kString), 5, false, P(TypeId::kInt));
  EXPECT_TRUE(ValueFitsType(Value::Map({Value::String("a")}, {Value::Null()}), map));
  EXPECT_FALSE(ValueFitsType(Value::Map({Value::Null()}, {Value::Long(1)}), map));
}

// Format then parse is the identity on every value of the string-formed types.
RC_GTEST_PROP(ValueStrings, FormatThenParseIsIdentity, ()) {
  const int which = *rc::gen::inRange(0, 8);
  Type t;
  Value v;
  switch (which) {
    case 0:
      t = P(TypeId::kDate);
      // Within the supported years -999999..999999 (about +-364.5 million days).
      v = Value::Long(*rc::gen::inRange(-364000000, 364000000));
      break;
    case 1:
      t = P(TypeId::kTime);
      v = Value::Long(*rc::gen::inRange<int64_t>(0, int64_t{86400000000}));
      break;
    case 2:
      t = P(TypeId::kTimestamp);
      v = Value::Long(*rc::gen::arbitrary<int64_t>());
      break;
    case 3:
      t = P(TypeId::kTimestampTzNs);
      v = Value::Long(*rc::gen::arbitrary<int64_t>());
      break;
    case 4: {
      const int p = *rc::gen::inRange(1, 39);
      const int s = *rc::gen::inRange(0, p + 1);
      t = Type::Decimal(p, s);
      Int128 x = *rc::gen::arbitrary<int64_t>();
      x = x * *rc::gen::arbitrary<int64_t>();
      Int128 limit = 1;
      for (int i = 0; i < p; ++i) limit *= 10;
      v = Value::DecimalOf(x % limit, s);
      break;
    }
    case 5:
      t = P(TypeId::kUuid);
      v = Value::Bytes(*rc::gen::container<std::string>(16, rc::gen::arbitrary<char>()));
      break;
    case 6:
      t = Type::Fixed(*rc::gen::inRange(1, 40));
      v = Value::Bytes(*rc::gen::container<std::string>(static_cast<size_t>(t.length),
                                                        rc::gen::arbitrary<char>()));
      break;
    default:
      t = P(TypeId::kBinary);
      v = Value::Bytes(*rc::gen::arbitrary<std::string>());
      break;
  }
  RC_ASSERT(ValueFitsType(v, t));
  auto text = FormatValueString(t, v);
  RC_ASSERT(text.has_value());
  RC_ASSERT(ParseValueString(t, *text) == std::optional<Value>(v));
  RC_ASSERT(BindLiteral(Value::String(*text), t) == std::optional<Value>(v));
}

}  // namespace
}  // namespace ictk
