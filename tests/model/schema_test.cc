// Tests of model/iceberg/schema.h: FindField through nesting (the flags the key and expression
// rules use), AllFieldIds/MaxFieldId, and CanPromote by format version
// (ice.type-promotion).
#include "model/iceberg/schema.h"
#include "tests/model/field_test_util_internal.h"

#include <gtest/gtest.h>

namespace ictk {
namespace {

using testing_util::Field;

using testing_util::P;

/// 1 id long (required)
/// 2 loc struct (optional) { 3 lat double (required), 4 inner struct (required) { 5 x int
/// } } 6 tags list<7: struct{8 t string}> 9 attrs map<10: string, 11: struct{12 v long}>
/// (value optional) 13 req struct (required) { 14 y int (required) }
std::vector<NestedField> NestedSchema() {
  return {
      Field(1, "id", true, P(TypeId::kLong)),
      Field(2, "loc", false,
            Type::Struct({Field(3, "lat", true, P(TypeId::kDouble)),
                          Field(4, "inner", true,
                                Type::Struct({Field(5, "x", false, P(TypeId::kInt))}))})),
      Field(6, "tags", false,
            Type::List(7, true, Type::Struct({Field(8, "t", true, P(TypeId::kString))}))),
      Field(9, "attrs", true,
            Type::Map(10, P(TypeId::kString), 11, false,
                      Type::Struct({Field(12, "v", true, P(TypeId::kLong))}))),
      Field(13, "req", true, Type::Struct({Field(14, "y", true, P(TypeId::kInt))})),
  };
}

TEST(FindField, TopLevelField) {
  auto loc = FindField(NestedSchema(), 1);
  ASSERT_TRUE(loc);
  EXPECT_EQ(loc->field.name, "id");
  EXPECT_FALSE(loc->in_list_or_map);
  EXPECT_FALSE(loc->under_optional_struct);
  EXPECT_EQ(loc->path, (std::vector<FieldId>{1}));
}

TEST(FindField, UnderOptionalStructIsFlagged) {
  // key.pk-required: "must not be nested in an optional struct".
  auto lat = FindField(NestedSchema(), 3);
  ASSERT_TRUE(lat);
  EXPECT_TRUE(lat->under_optional_struct);
  EXPECT_FALSE(lat->in_list_or_map);
  EXPECT_EQ(lat->path, (std::vector<FieldId>{2, 3}));
  auto x = FindField(NestedSchema(), 5);
  ASSERT_TRUE(x);
  EXPECT_TRUE(x->under_optional_struct);  // the outer struct 2 is optional
  EXPECT_EQ(x->path, (std::vector<FieldId>{2, 4, 5}));
  // The optional struct itself is not under an optional struct.
  auto loc = FindField(NestedSchema(), 2);
  ASSERT_TRUE(loc);
  EXPECT_FALSE(loc->under_optional_struct);
  // A required struct does not set the flag.
  auto y = FindField(NestedSchema(), 14);
  ASSERT_TRUE(y);
  EXPECT_FALSE(y->under_optional_struct);
  EXPECT_EQ(y->path, (std::vector<FieldId>{13, 14}));
}

TEST(FindField, ListElementsAndTheirFieldsAreInListOrMap) {
  // key.not-in-list-map / expr.no-list-map-element need these flags.
  auto list = FindField(NestedSchema(), 6);
  ASSERT_TRUE(list);
  EXPECT_FALSE(list->in_list_or_map);  // the list field itself is one value per row
  auto element = FindField(NestedSchema(), 7);
  ASSERT_TRUE(element);
  EXPECT_TRUE(element->in_list_or_map);
  EXPECT_EQ(element->field.name, "element");
  EXPECT_TRUE(element->field.required);
  EXPECT_EQ(element->field.type.id, TypeId::kStruct);
  auto t = FindField(NestedSchema(), 8);
  ASSERT_TRUE(t);
  EXPECT_TRUE(t->in_list_or_map);
  EXPECT_EQ(t->path, (std::vector<FieldId>{6, 7, 8}));
}

TEST(FindField, MapKeysValuesAndTheirFields) {
  auto key = FindField(NestedSchema(), 10);
  ASSERT_TRUE(key);
  EXPECT_EQ(key->field.name, "key");
  EXPECT_TRUE(key->field.required);
  EXPECT_TRUE(key->in_list_or_map);
  auto value = FindField(NestedSchema(), 11);
  ASSERT_TRUE(value);
  EXPECT_EQ(value->field.name, "value");
  EXPECT_FALSE(value->field.required);
  EXPECT_TRUE(value->in_list_or_map);
  auto v = FindField(NestedSchema(), 12);
  ASSERT_TRUE(v);
  EXPECT_TRUE(v->in_list_or_map);
  EXPECT_TRUE(v->under_optional_struct);  // the map value struct is optional
  EXPECT_EQ(v->path, (std::vector<FieldId>{9, 11, 12}));
}

TEST(FindField, MissingIdAndSchemaOverload) {
  EXPECT_FALSE(FindField(NestedSchema(), 99));
  Schema schema;
  schema.fields = NestedSchema();
  EXPECT_TRUE(FindField(schema, 12));
  EXPECT_FALSE(FindField(Schema{}, 1));
}

TEST(AllFieldIds, DepthFirstIncludingElementKeyValueIds) {
  EXPECT_EQ(AllFieldIds(NestedSchema()),
            (std::vector<FieldId>{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14}));
  EXPECT_EQ(MaxFieldId(NestedSchema()), 14);
  EXPECT_EQ(MaxFieldId({}), 0);
}

TEST(AllFieldIds, KeepsDuplicatesForFieldIdsUnique) {
  // ice.field-ids-unique is checked by counting duplicates in this list.
  std::vector<NestedField> dup = {
      Field(1, "a", true, P(TypeId::kInt)),
      Field(2, "l", true, Type::List(1, true, P(TypeId::kInt))),
  };
  EXPECT_EQ(AllFieldIds(dup), (std::vector<FieldId>{1, 2, 1}));
  // The largest ID may be a nested one.
  std::vector<NestedField> deep = {
      Field(1, "m", true, Type::Map(50, P(TypeId::kString), 40, true, P(TypeId::kInt)))};
  EXPECT_EQ(MaxFieldId(deep), 50);
}

TEST(TypePromotion, AllVersionPromotions) {
  SCOPED_TRACE("ice.type-promotion");
  for (int v = 1; v <= 4; ++v) {
    EXPECT_TRUE(CanPromote(P(TypeId::kInt), P(TypeId::kLong), v));
    EXPECT_TRUE(CanPromote(P(TypeId::kFloat), P(TypeId::kDouble), v));
    EXPECT_TRUE(CanPromote(Type::Decimal(9, 2), Type::Decimal(18, 2), v));
    EXPECT_TRUE(CanPromote(Type::Decimal(9, 2), Type::Decimal(38, 2), v));
  }
}

TEST(TypePromotion, NoNarrowingOrOtherChanges) {
  SCOPED_TRACE("ice.type-promotion");
  for (int v = 1; v <= 4; ++v) {
    EXPECT_FALSE(CanPromote(P(TypeId::kLong), P(TypeId::kInt), v));
    EXPECT_FALSE(CanPromote(P(TypeId::kDouble), P(TypeId::kFloat), v));
    EXPECT_FALSE(CanPromote(P(TypeId::kInt), P(TypeId::kDouble), v));
    EXPECT_FALSE(CanPromote(P(TypeId::kInt), P(TypeId::kString), v));
    EXPECT_FALSE(CanPromote(Type::Decimal(18, 2), Type::Decimal(9, 2), v));
    EXPECT_FALSE(
        CanPromote(Type::Decimal(9, 2), Type::Decimal(18, 3), v));  // scale changes
    EXPECT_FALSE(CanPromote(Type::Decimal(9, 2), Type::Decimal(9, 2), v));  // same type
    EXPECT_FALSE(CanPromote(P(TypeId::kLong), P(TypeId::kLong), v));
    EXPECT_FALSE(CanPromote(P(TypeId::kTimestamp), P(TypeId::kTimestampNs), v));
    EXPECT_FALSE(CanPromote(P(TypeId::kDate), P(TypeId::kTimestampTz), v));
    EXPECT_FALSE(CanPromote(Type::Fixed(4), Type::Fixed(8), v));
    EXPECT_FALSE(CanPromote(P(TypeId::kString), P(TypeId::kBinary), v));
    EXPECT_FALSE(CanPromote(P(TypeId::kInt), Type::Struct({}), v));
  }
}

TEST(TypePromotion, DateToTimestampOnlyInV3AndLater) {
  SCOPED_TRACE("ice.type-promotion");
  for (TypeId to : {TypeId::kTimestamp, TypeId::kTimestampNs}) {
    EXPECT_FALSE(CanPromote(P(TypeId::kDate), P(to), 1));
    EXPECT_FALSE(CanPromote(P(TypeId::kDate), P(to), 2));
    EXPECT_TRUE(CanPromote(P(TypeId::kDate), P(to), 3));
    EXPECT_TRUE(CanPromote(P(TypeId::kDate), P(to), 4));
  }
}

TEST(TypePromotion, UnknownToAnyOnlyInV3AndLater) {
  SCOPED_TRACE("ice.type-promotion");
  const Type targets[] = {P(TypeId::kInt), P(TypeId::kString), Type::Decimal(9, 2),
                          Type::Struct({Field(5, "a", false, P(TypeId::kInt))}),
                          Type::List(6, false, P(TypeId::kLong))};
  for (const Type& to : targets) {
    EXPECT_FALSE(CanPromote(P(TypeId::kUnknown), to, 2)) << to;
    EXPECT_TRUE(CanPromote(P(TypeId::kUnknown), to, 3)) << to;
    EXPECT_TRUE(CanPromote(P(TypeId::kUnknown), to, 4)) << to;
  }
  EXPECT_FALSE(CanPromote(P(TypeId::kUnknown), P(TypeId::kUnknown), 4));
  EXPECT_FALSE(CanPromote(P(TypeId::kInt), P(TypeId::kUnknown), 4));
}

}  // namespace
}  // namespace ictk
