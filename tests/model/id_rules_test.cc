// The constraint-ID rules as predicates (model/rules/id_rules.h).
#include "model/rules/id_rules.h"

#include <gtest/gtest.h>

namespace ictk {
namespace {

TEST(IdRules, AnAbsentLastConstraintIdIsZero) {
  EXPECT_EQ(LastConstraintIdOrZero(std::nullopt), 0);
  EXPECT_EQ(LastConstraintIdOrZero(7), 7);
}

TEST(IdRules, ANewIdIsAboveTheLast) {
  EXPECT_TRUE(IdAboveLast(4, 3));
  EXPECT_FALSE(IdAboveLast(3, 3));
  EXPECT_FALSE(IdAboveLast(0, 0));  // stored metadata: an ID must be above 0
  EXPECT_EQ(LowestIdAboveLast(3), 4);
  EXPECT_TRUE(IdAboveLast(LowestIdAboveLast(0), 0));
}

TEST(IdRules, TheLastIdIsUpdatedToTheHighestAssigned) {
  EXPECT_TRUE(LastConstraintIdUpdated(5, 3, 5));
  EXPECT_FALSE(LastConstraintIdUpdated(3, 3, 5));  // not updated
  EXPECT_TRUE(LastConstraintIdUpdated(3, 3, 0));   // nothing assigned
  EXPECT_FALSE(LastConstraintIdUpdated(2, 3, 0));  // lowered
  EXPECT_FALSE(LastConstraintIdUpdated(6, 3, 5));  // beyond the highest assigned
  // Stored metadata: an assigned ID at most last.
  EXPECT_TRUE(LastConstraintIdUpdated(5, 5, 4));
  EXPECT_FALSE(LastConstraintIdUpdated(5, 5, 6));
}

}  // namespace
}  // namespace ictk
