/// \file
/// The key index (model/judge/key_index.h): what it counts, how nulls are treated (sem.unique,
/// sem.primary-key), nested key fields, key promotion, and a property: after any sequence
/// of inserts, erases and modifications the incremental index equals one rebuilt from
/// scratch and agrees with a brute-force pairwise comparison.
#include "model/judge/key_index.h"

#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include <map>

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
