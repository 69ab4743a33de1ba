// The definition, upgrade and update rules as predicates (model/rules/definition_rules.h), and
// the semantic ones over counts (key_index.h, table_state.h).
#include "model/rules/definition_rules.h"

#include <gtest/gtest.h>

#include "model/judge/key_index.h"
#include "model/judge/table_state.h"

namespace ictk {
namespace {

TEST(DefinitionRules, ConstraintsAreSupportedFromV4) {
  EXPECT_FALSE(ConstraintsSupported(3));
  EXPECT_TRUE(ConstraintsSupported(4));
}

TEST(DefinitionRules, APrimaryKeyFieldIsRequiredAndNotUnderAnOptionalStruct) {
  FieldLocation loc;
  loc.field.required = true;
  EXPECT_TRUE(PrimaryKeyFieldRequired(loc));
  loc.under_optional_struct = true;
  EXPECT_FALSE(PrimaryKeyFieldRequired(loc));
  loc.under_optional_struct = false;
  loc.field.required = false;
  EXPECT_FALSE(PrimaryKeyFieldRequired(loc));
}

TEST(DefinitionRules, AReferencedFieldExistsInTheSchema) {
  NestedField f;
  f.id = 3;
  EXPECT_TRUE(ReferencedFieldExists({f}, 3));
  EXPECT_FALSE(ReferencedFieldExists({f}, 4));
}

TEST(DefinitionRules, NoIdentifierFieldsInASchemaAddedToAV4Table) {
  Schema s;
  EXPECT_TRUE(NoIdentifiersInV4Schema(4, s));
  s.identifier_field_ids = std::vector<FieldId>{};
  EXPECT_TRUE(NoIdentifiersInV4Schema(4, s));
  s.identifier_field_ids = std::vector<FieldId>{1};
  EXPECT_FALSE(NoIdentifiersInV4Schema(4, s));
  EXPECT_TRUE(NoIdentifiersInV4Schema(3, s));
}

TEST(DefinitionRules, AnUpdateOfNameOrEnforcedMustUpdateTheTimestamp) {
  Constraint before;
  before.name = "a";
  before.enforced = false;
  Constraint after = before;
  EXPECT_FALSE(TimestampMustBeUpdated(before, after)) << "nothing changes";
  after.name = "b";
  EXPECT_TRUE(TimestampMustBeUpdated(before, after));
  after = before;
  after.enforced = true;
  EXPECT_TRUE(TimestampMustBeUpdated(before, after));
}

TEST(SemanticRules, HoldsOverCounts) {
  EXPECT_TRUE(CheckHolds(0, 0));
  EXPECT_FALSE(CheckHolds(1, 0));
  EXPECT_FALSE(CheckHolds(0, 1)) << "an unevaluable row does not satisfy the predicate";
  EXPECT_TRUE(UniqueHolds(0));
  EXPECT_FALSE(UniqueHolds(1));
  EXPECT_TRUE(PrimaryKeyHolds(0, 0));
  EXPECT_FALSE(PrimaryKeyHolds(0, 1)) << "a primary key must not be null";
  EXPECT_FALSE(PrimaryKeyHolds(1, 0));
}

}  // namespace
}  // namespace ictk
