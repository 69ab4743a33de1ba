// The one table of capabilities (model/judge/capability.h).
#include "model/judge/capability.h"

#include <gtest/gtest.h>

#include <set>
#include <string>

#include "model/judge/rule_catalogue.h"

namespace ictk {
namespace {

TEST(CapabilityTable, NamesRoundTripAndAreDistinct) {
  std::set<std::string_view> names;
  for (const CapabilityInfo& c : CapabilityTable()) {
    EXPECT_TRUE(names.insert(c.name).second) << c.name;
    EXPECT_EQ(ToString(c.id), c.name);
    EXPECT_EQ(ParseCapability(c.name), c.id);
  }
  EXPECT_EQ(names.size(), 13u);
  EXPECT_FALSE(ParseCapability("no-such-capability"));
}

// Every rule a capability gates is one the catalogue has, and the gates are what the
// reports say a run without the capability cannot exercise: constraint kinds, transactions,
// upgrades, UDFs, schema evolution, readers, modified rows.
TEST(CapabilityTable, RulesNeedTheCapabilityOfWhatTheyAreAbout) {
  EXPECT_EQ(CapabilityOfRule(RuleId::kSemPrimaryKey), Capability::kPrimaryKey);
  EXPECT_EQ(CapabilityOfRule(RuleId::kSemUnique), Capability::kUnique);
  EXPECT_EQ(CapabilityOfRule(RuleId::kSemCheck), Capability::kCheck);
  EXPECT_EQ(CapabilityOfRule(RuleId::kEnfRetryCheck), Capability::kConcurrentCommits);
  EXPECT_EQ(CapabilityOfRule(RuleId::kExprUdfStatus), Capability::kUdf);
  EXPECT_EQ(CapabilityOfRule(RuleId::kStReaderLookup), Capability::kReader);
  EXPECT_EQ(CapabilityOfRule(RuleId::kIdAboveLast), std::nullopt);
  int gated = 0;
  for (const RuleInfo& r : RuleCatalogue()) {
    const std::optional<Capability> c = CapabilityOfRule(r.id);
    if (!c) continue;
    ++gated;
    // A gated rule's capability has a request that shows it, except modify-rows (an
    // overwrite is a commit).
    if (*c == Capability::kModifyRows) continue;
    for (const CapabilityInfo& info : CapabilityTable())
      if (info.id == *c) EXPECT_FALSE(info.request_op.empty()) << RuleIdName(r.id);
  }
  EXPECT_EQ(gated, 32);
}

}  // namespace
}  // namespace ictk
