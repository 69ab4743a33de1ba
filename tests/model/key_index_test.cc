/// \file
/// The key index (model/judge/key_index.h): what it counts, how nulls are treated (sem.unique,
/// sem.primary-key), nested key fields, key promotion, and a property: after any sequence
/// of inserts, erases and modifications the incremental index equals one rebuilt from
/// scratch and agrees with a brute-force pairwise comparison. The canonical key encoding
/// the index stores (EncodeKey): equal exactly when KeyTupleEqual says so.
#include "model/judge/key_index.h"

#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include <cmath>
#include <limits>
#include <map>
#include <memory>

#include "model/judge/table_state.h"
#include "model/iceberg/value_compare.h"
#include "tests/model/operations_test_util_internal.h"

namespace ictk {
namespace {

using ops_test::Col;
using ops_test::P;

/// 1 a int optional, 2 b string optional, 3 s struct optional {4 c long required}.
Schema KeySchema() {
  Schema s;
  s.schema_id = 0;
  s.fields = {Col(1, "a", false, P(TypeId::kInt)), Col(2, "b", false, P(TypeId::kString)),
              Col(3, "s", false, Type::Struct({Col(4, "c", true, P(TypeId::kLong))}))};
  return s;
}

Value RowOf(std::optional<int64_t> a, std::optional<std::string> b,
            std::optional<int64_t> c = std::nullopt, bool struct_null = false) {
  Value s = struct_null ? Value::Null()
                        : Value::Struct({4}, {c ? Value::Long(*c) : Value::Null()});
  return Value::Struct({1, 2, 3}, {a ? Value::Long(*a) : Value::Null(),
                                   b ? Value::String(*b) : Value::Null(), std::move(s)});
}

KeyIndex IndexOn(ConstraintType type, std::vector<FieldId> ids, const Schema& schema) {
  Constraint c = ops_test::KeyConstraint(type, "k", true, std::move(ids));
  std::optional<KeyIndex> index = KeyIndex::ForConstraint(c, schema);
  EXPECT_TRUE(index.has_value());
  return index.value_or(KeyIndex());
}

TEST(KeyIndex, CountsDuplicatesAndUndoesThem) {
  KeyIndex index = IndexOn(ConstraintType::kUnique, {1, 2}, KeySchema());
  index.Insert(RowOf(1, "x"));
  index.Insert(RowOf(1, "y"));
  EXPECT_TRUE(index.Holds());
  index.Insert(RowOf(1, "x"));
  EXPECT_FALSE(index.Holds());
  EXPECT_EQ(index.duplicate_keys(), 1u);
  EXPECT_EQ(index.CountOf({Value::Long(1), Value::String("x")}), 2u);
  index.Erase(RowOf(1, "x"));
  EXPECT_TRUE(index.Holds());
  EXPECT_EQ(index.keyed_rows(), 2u);
}

TEST(SemUnique, RowsWithANullKeyFieldAreNotCompared) {
  // sem.unique: "a row in which any field in the set is null is not compared"
  KeyIndex index = IndexOn(ConstraintType::kUnique, {1, 2}, KeySchema());
  index.Insert(RowOf(1, std::nullopt));
  index.Insert(RowOf(1, std::nullopt));
  EXPECT_TRUE(index.Holds());
  EXPECT_EQ(index.null_rows(), 2u);
  EXPECT_FALSE(index.Extract(RowOf(1, std::nullopt)).has_value());
  index.Insert(RowOf(2, "x"));
  index.Insert(RowOf(2, "x"));
  EXPECT_FALSE(index.Holds()) << "sem.unique: non-null duplicates break it";
}

TEST(SemPrimaryKey, NullKeyBreaksIt) {
  // sem.primary-key: "must be distinct across all rows and must not be null"
  KeyIndex index = IndexOn(ConstraintType::kPrimaryKey, {1}, KeySchema());
  index.Insert(RowOf(1, "x"));
  EXPECT_TRUE(index.Holds());
  index.Insert(RowOf(std::nullopt, "x"));
  EXPECT_FALSE(index.Holds());
  index.Erase(RowOf(std::nullopt, "x"));
  EXPECT_TRUE(index.Holds());
  index.Insert(RowOf(1, "y"));
  EXPECT_FALSE(index.Holds());
}

TEST(KeyIndex, NestedKeyFieldAndNullStruct) {
  KeyIndex index = IndexOn(ConstraintType::kUnique, {4}, KeySchema());
  ASSERT_EQ(index.fields().size(), 1u);
  EXPECT_EQ(index.fields()[0].path, (std::vector<FieldId>{3, 4}));
  index.Insert(RowOf(1, "x", 7));
  index.Insert(RowOf(2, "y", 7));
  EXPECT_FALSE(index.Holds());
  index.Erase(RowOf(2, "y", 7));
  index.Insert(RowOf(2, "y", std::nullopt, /*struct_null=*/true));
  EXPECT_TRUE(index.Holds()) << "a key in a null struct is null: not compared";
  EXPECT_EQ(index.null_rows(), 1u);
}

TEST(KeyIndex, ForConstraintRefusesMissingOrNonPrimitiveFields) {
  EXPECT_FALSE(KeyIndex::ForConstraint(ops_test::Unique("u", true, {99}), KeySchema()));
  EXPECT_FALSE(KeyIndex::ForConstraint(ops_test::Unique("u", true, {3}), KeySchema()));
  EXPECT_FALSE(
      KeyIndex::ForConstraint(ops_test::Check("c", true, Expr::True()), KeySchema()));
}

TEST(SchKeyPromotionOk, PromotedKeyFieldKeepsEqualValuesEqual) {
  // sch.key-promotion-ok: "type promotion preserves distinctness" — an index rebuilt
  // under the promoted type (int -> long) finds the same duplicates.
  Schema promoted = KeySchema();
  promoted.fields[0].type = P(TypeId::kLong);
  for (const Schema& schema : {KeySchema(), promoted}) {
    KeyIndex index = IndexOn(ConstraintType::kUnique, {1}, schema);
    index.Insert(RowOf(5, "x"));
    index.Insert(RowOf(6, "x"));
    EXPECT_TRUE(index.Holds());
    index.Insert(RowOf(5, "y"));
    EXPECT_FALSE(index.Holds()) << ToString(schema.fields[0].type);
  }
  // Decimal precision widening: 1.50 in decimal(9,2) equals 1.50 in decimal(12,2).
  Schema dec;
  dec.fields = {Col(1, "d", true, Type::Decimal(9, 2))};
  Schema wider;
  wider.fields = {Col(1, "d", true, Type::Decimal(12, 2))};
  for (const Schema& schema : {dec, wider}) {
    KeyIndex index = IndexOn(ConstraintType::kPrimaryKey, {1}, schema);
    index.Insert(Value::Struct({1}, {Value::DecimalOf(150, 2)}));
    index.Insert(Value::Struct({1}, {Value::DecimalOf(150, 2)}));
    EXPECT_FALSE(index.Holds());
  }
}

TEST(KeyIndex, EquivalentComparesCounts) {
  KeyIndex a = IndexOn(ConstraintType::kUnique, {1}, KeySchema());
  KeyIndex b = IndexOn(ConstraintType::kUnique, {1}, KeySchema());
  a.Insert(RowOf(1, "x"));
  EXPECT_FALSE(a.Equivalent(b));
  b.Insert(RowOf(1, "y"));
  EXPECT_TRUE(a.Equivalent(b));
  b.Insert(RowOf(1, "z"));
  EXPECT_FALSE(a.Equivalent(b));
}

// ---- the key encoding

const double kNaN = std::numeric_limits<double>::quiet_NaN();

std::shared_ptr<const std::vector<KeyField>> FieldsOf(std::vector<Type> types) {
  std::vector<KeyField> fields;
  for (size_t i = 0; i < types.size(); ++i) {
    const auto id = static_cast<FieldId>(i + 1);
    fields.push_back(KeyField{id, {id}, std::move(types[i])});
  }
  return std::make_shared<const std::vector<KeyField>>(std::move(fields));
}

/// Whether the encodings of `a` and `b` under `fields` are equal.
bool SameEncoding(const std::shared_ptr<const std::vector<KeyField>>& fields,
                  const KeyTuple& a, const KeyTuple& b) {
  return EncodeKey(a, *fields) == EncodeKey(b, *fields);
}

TEST(KeyEncoding, ZeroesAreEqualAndNansAreEqual) {
  const auto fields = FieldsOf({P(TypeId::kDouble)});
  const KeyTupleEqual eq{fields};
  const KeyTuple zero{Value::Double(0.0)};
  const KeyTuple negative_zero{Value::Double(-0.0)};
  EXPECT_TRUE(eq(zero, negative_zero));
  EXPECT_TRUE(SameEncoding(fields, zero, negative_zero));
  const KeyTuple nan{Value::Double(kNaN)};
  const KeyTuple negative_nan{Value::Double(-kNaN)};
  EXPECT_TRUE(eq(nan, negative_nan));
  EXPECT_TRUE(SameEncoding(fields, nan, nan));
  EXPECT_TRUE(SameEncoding(fields, nan, negative_nan));
  EXPECT_FALSE(SameEncoding(fields, nan, zero));
  // A long in a double field compares as a double.
  EXPECT_TRUE(SameEncoding(fields, zero, {Value::Long(0)}));
  EXPECT_TRUE(SameEncoding(fields, {Value::Double(3.0)}, {Value::Long(3)}));
  const auto floats = FieldsOf({P(TypeId::kFloat)});
  EXPECT_TRUE(SameEncoding(floats, zero, negative_zero));
  EXPECT_TRUE(SameEncoding(floats, nan, negative_nan));
}

TEST(KeyEncoding, DecimalsEqualByValueAcrossScales) {
  const auto fields = FieldsOf({Type::Decimal(9, 2)});
  const KeyTuple a{Value::DecimalOf(150, 2)};   // 1.50
  const KeyTuple b{Value::DecimalOf(15, 1)};    // 1.5
  const KeyTuple c{Value::DecimalOf(151, 2)};   // 1.51
  EXPECT_TRUE(KeyTupleEqual{fields}(a, b));
  EXPECT_TRUE(SameEncoding(fields, a, b));
  EXPECT_FALSE(SameEncoding(fields, a, c));
  EXPECT_TRUE(SameEncoding(fields, {Value::DecimalOf(0, 2)}, {Value::DecimalOf(0, 7)}));
  EXPECT_TRUE(SameEncoding(fields, {Value::DecimalOf(0, 2)}, {Value::Long(0)}));
  EXPECT_TRUE(SameEncoding(fields, {Value::DecimalOf(300, 2)}, {Value::Long(3)}));
  EXPECT_FALSE(SameEncoding(fields, {Value::DecimalOf(3, 2)}, {Value::Long(3)}));
  EXPECT_FALSE(SameEncoding(fields, {Value::DecimalOf(-15, 1)}, b));
}

TEST(KeyEncoding, KindThatDoesNotFitNeverEqualsOneThatFits) {
  const auto fields = FieldsOf({P(TypeId::kString)});
  const KeyTupleEqual eq{fields};
  const KeyTuple as_long{Value::Long(1)};
  const KeyTuple as_string{Value::String("1")};
  EXPECT_FALSE(eq(as_long, as_string));
  EXPECT_FALSE(SameEncoding(fields, as_long, as_string));
  EXPECT_TRUE(SameEncoding(fields, as_long, {Value::Long(1)}));
  EXPECT_FALSE(SameEncoding(fields, as_long, {Value::Long(2)}));
  // Strings and bytes compare byte for byte under a string type.
  EXPECT_TRUE(SameEncoding(fields, as_string, {Value::Bytes("1")}));
  // A struct compares structurally, field IDs included.
  EXPECT_FALSE(SameEncoding(fields, {Value::Struct({1}, {Value::Long(1)})},
                            {Value::Struct({2}, {Value::Long(1)})}));
  EXPECT_TRUE(SameEncoding(fields, {Value::Struct({1}, {Value::Double(-0.0)})},
                           {Value::Struct({1}, {Value::Double(0.0)})}));
}

TEST(KeyEncoding, PositionsDoNotRunTogether) {
  const auto fields = FieldsOf({P(TypeId::kString), P(TypeId::kString)});
  EXPECT_FALSE(SameEncoding(fields, {Value::String("ab"), Value::String("c")},
                            {Value::String("a"), Value::String("bc")}));
  const auto longs = FieldsOf({P(TypeId::kLong), P(TypeId::kLong)});
  EXPECT_FALSE(SameEncoding(longs, {Value::Long(1), Value::Long(300)},
                            {Value::Long(300), Value::Long(1)}));
}

TEST(KeyEncoding, ForeignNanEqualsItself) {
  // A value whose kind does not fit compares structurally, where a NaN double is not equal
  // to itself; the encoding makes every NaN one value so that such a key stays reflexive.
  const auto fields = FieldsOf({P(TypeId::kString)});
  const KeyTuple nan{Value::Double(kNaN)};
  EXPECT_TRUE(SameEncoding(fields, nan, nan));
  EXPECT_FALSE(SameEncoding(fields, nan, {Value::Double(0.0)}));
}

/// Key field types: every kind of primitive comparison, plus kUnknown (no kind fits).
rc::Gen<Type> GenKeyType() {
  return rc::gen::element(
      P(TypeId::kBoolean), P(TypeId::kInt), P(TypeId::kLong), P(TypeId::kDate),
      P(TypeId::kTimestampNs), P(TypeId::kFloat), P(TypeId::kDouble), Type::Decimal(9, 2),
      Type::Decimal(38, 10), P(TypeId::kString), P(TypeId::kUuid), Type::Fixed(2),
      P(TypeId::kBinary), P(TypeId::kUnknown));
}

rc::Gen<std::string> GenBytes() {
  return rc::gen::element<std::string>("", "a", "ab", "b", "1", std::string(1, '\0'),
                                       std::string("a\0b", 3), "\xff");
}

/// A decimal drawn so that equal values with different scales are common.
rc::Gen<Value> GenDecimal() {
  return rc::gen::apply(
      [](int unscaled, int scale, int extra, bool huge) {
        Int128 u = unscaled;
        if (huge) u *= static_cast<Int128>(1'000'000'000'000'000'000LL) * 1'000'000'000LL;
        for (int i = 0; i < extra; ++i) u *= 10;
        return Value::DecimalOf(u, scale + extra);
      },
      rc::gen::inRange(-30, 31), rc::gen::inRange(-2, 4), rc::gen::inRange(0, 4),
      rc::gen::weightedElement<bool>({{9, false}, {1, true}}));
}

/// A value whose kind fits `type` (NaN only where doubles fit).
rc::Gen<Value> GenFitting(const Type& type) {
  const auto small_long =
      rc::gen::map(rc::gen::inRange(-3, 4), [](int x) { return Value::Long(x); });
  switch (type.id) {
    case TypeId::kBoolean:
      return rc::gen::map(rc::gen::arbitrary<bool>(), &Value::Boolean);
    case TypeId::kFloat:
    case TypeId::kDouble: {
      constexpr int64_t k2p53 = int64_t{1} << 53;
      return rc::gen::oneOf(
          rc::gen::map(rc::gen::element(-0.0, 0.0, 1.5, -2.0, 3.0, kNaN, -kNaN,
                                        std::numeric_limits<double>::infinity(),
                                        static_cast<double>(k2p53)),
                       &Value::Double),
          rc::gen::map(rc::gen::element<int64_t>(0, 3, -2, k2p53, k2p53 + 1), &Value::Long));
    }
    case TypeId::kDecimal:
      return rc::gen::oneOf(GenDecimal(), small_long);
    case TypeId::kString:
    case TypeId::kUuid:
    case TypeId::kFixed:
    case TypeId::kBinary:
      return rc::gen::oneOf(rc::gen::map(GenBytes(), &Value::String),
                            rc::gen::map(GenBytes(), &Value::Bytes));
    case TypeId::kUnknown:
      return rc::gen::just(Value::Null());  // no kind fits
    default:  // integer-like
      return rc::gen::oneOf(
          small_long, rc::gen::map(rc::gen::element(std::numeric_limits<int64_t>::min(),
                                                    std::numeric_limits<int64_t>::max()),
                                   &Value::Long));
  }
}

/// A scalar of any kind (it may or may not fit a key type), without NaN: a value that does
/// not fit compares structurally, where NaN is not equal to itself (see
/// ForeignNanEqualsItself).
rc::Gen<Value> GenAnyScalar() {
  return rc::gen::weightedOneOf<Value>({
      {1, rc::gen::just(Value::Null())},
      {1, rc::gen::map(rc::gen::inRange(0, 3),
                       [](int x) {
                         Value v;  // a null that carries a stray payload
                         v.scalar = int64_t{x};
                         return v;
                       })},
      {2, rc::gen::map(rc::gen::arbitrary<bool>(), &Value::Boolean)},
      {3, rc::gen::map(rc::gen::inRange(-2, 4), [](int x) { return Value::Long(x); })},
      {2, rc::gen::map(rc::gen::element(-0.0, 0.0, 1.0, 1.5), &Value::Double)},
      {2, GenDecimal()},
      {2, rc::gen::map(GenBytes(), &Value::String)},
      {2, rc::gen::map(GenBytes(), &Value::Bytes)},
      {1, rc::gen::map(rc::gen::inRange(0, 3),
                       [](int x) {
                         Value v = Value::Long(1);  // a scalar that carries field IDs
                         v.field_ids = {x};
                         return v;
                       })},
  });
}

/// A value of any kind, nested up to `depth` levels, without NaN (as GenAnyScalar).
rc::Gen<Value> GenAnyValue(int depth) {
  if (depth == 0) return GenAnyScalar();
  const rc::Gen<Value> child = GenAnyValue(depth - 1);
  return rc::gen::weightedOneOf<Value>({
      {6, GenAnyScalar()},
      {2, rc::gen::apply(
              [](int id, Value c) { return Value::Struct({id}, {std::move(c)}); },
              rc::gen::inRange(1, 3), child)},
      {1, rc::gen::mapcat(rc::gen::inRange(0, 3),
                          [child](int n) {
                            return rc::gen::map(
                                rc::gen::container<std::vector<Value>>(n, child),
                                [](std::vector<Value> elements) {
                                  return Value::List(std::move(elements));
                                });
                          })},
      {1, rc::gen::apply(
              [](Value k, Value v) { return Value::Map({std::move(k)}, {std::move(v)}); },
              child, child)},
  });
}

rc::Gen<Value> GenKeyValue(const Type& type) {
  return rc::gen::weightedOneOf<Value>({{3, GenFitting(type)}, {1, GenAnyValue(2)}});
}

RC_GTEST_PROP(KeyEncodingProperty, EqualEncodingsExactlyForEqualTuples, ()) {
  const auto fields = FieldsOf(*rc::gen::container<std::vector<Type>>(
      *rc::gen::inRange(1, 4), GenKeyType()));
  KeyTuple a;
  KeyTuple b;
  for (const KeyField& f : *fields) {
    a.push_back(*GenKeyValue(f.type));
    // Half the time the same value (or an equal one), so that equal tuples are common.
    b.push_back(*rc::gen::arbitrary<bool>() ? a.back() : *GenKeyValue(f.type));
  }
  const bool equal = KeyTupleEqual{fields}(a, b);
  RC_TAG(equal);
  RC_ASSERT(SameEncoding(fields, a, b) == equal);
  RC_ASSERT(SameEncoding(fields, a, a));
}

/// Whether `type` holds on `rows`, by comparing every pair (the definition, no index).
bool BruteForceHolds(const std::vector<Value>& rows, const KeyIndex& shape) {
  std::vector<KeyTuple> keyed;
  for (const Value& r : rows) {
    std::optional<KeyTuple> t = shape.Extract(r);
    if (!t) {
      if (shape.primary_key()) return false;
      continue;
    }
    keyed.push_back(*t);
  }
  for (size_t i = 0; i < keyed.size(); ++i) {
    for (size_t j = i + 1; j < keyed.size(); ++j) {
      bool equal = true;
      for (size_t k = 0; k < keyed[i].size(); ++k)
        equal = equal && KeyValuesEqual(keyed[i][k], keyed[j][k], shape.fields()[k].type);
      if (equal) return false;
    }
  }
  return true;
}

RC_GTEST_PROP(KeyIndexProperty, IncrementalEqualsRebuilt, ()) {
  const bool pk = *rc::gen::arbitrary<bool>();
  const std::vector<FieldId> ids = *rc::gen::element(
      std::vector<FieldId>{1}, std::vector<FieldId>{1, 2}, std::vector<FieldId>{2, 4});
  const Schema schema = KeySchema();
  KeyIndex index =
      IndexOn(pk ? ConstraintType::kPrimaryKey : ConstraintType::kUnique, ids, schema);
  // -1 stands for null.
  const auto gen_row = rc::gen::apply(
      [](int a, int b, int c, bool struct_null) {
        return RowOf(
            a < 0 ? std::nullopt : std::optional<int64_t>(a),
            b < 0 ? std::nullopt : std::optional<std::string>(b == 0 ? "x" : "y"),
            c < 0 ? std::nullopt : std::optional<int64_t>(c), struct_null);
      },
      rc::gen::inRange(-1, 5), rc::gen::inRange(-1, 2), rc::gen::inRange(-1, 4),
      rc::gen::arbitrary<bool>());
  std::map<int, Value> live;  // row key -> values
  int next_key = 0;
  const int steps = *rc::gen::inRange(0, 60);
  for (int i = 0; i < steps; ++i) {
    const int kind = *rc::gen::inRange(0, 3);
    if (kind == 0 || live.empty()) {  // add
      Value row = *gen_row;
      index.Insert(row);
      live.emplace(next_key++, std::move(row));
      continue;
    }
    auto it =
        std::next(live.begin(), *rc::gen::inRange<int>(0, static_cast<int>(live.size())));
    index.Erase(it->second);
    if (kind == 1) {  // remove
      live.erase(it);
    } else {  // modify: a removed row and an added row (enf.modified-row)
      it->second = *gen_row;
      index.Insert(it->second);
    }
  }
  KeyIndex rebuilt =
      IndexOn(pk ? ConstraintType::kPrimaryKey : ConstraintType::kUnique, ids, schema);
  std::vector<Value> rows;
  for (const auto& [key, row] : live) {
    rebuilt.Insert(row);
    rows.push_back(row);
  }
  RC_ASSERT(index.Equivalent(rebuilt));
  RC_ASSERT(index.Holds() == BruteForceHolds(rows, index));
}

}  // namespace
}  // namespace ictk
