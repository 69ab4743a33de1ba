// `ictk spec-diff` (review/spec_diff.h): two readings on the same generated histories.
#include "review/spec_diff.h"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <string>

#include "model/rules/rule_id.h"
#include "model/rules/switches.h"

namespace ictk {
namespace {

SpecDiffOptions SmallBudget() {
  SpecDiffOptions o;
  o.histories = 100;  // the first disagreement of modified-counts-as-added is at case 72
  o.seed = 1;
  o.shrink_budget = 300;
  o.max_reported = 2;
  return o;
}

TEST(SpecDiff, ModifiedCountsAsAddedFindsAShortDisagreement) {
  // enf.modified-row: "a row whose values changed in a commit counts as a removed row and
  // an added row"; under modified-counts-as-added=false a modification is not checked as
  // an added row.
  SpecDiffOptions o = SmallBudget();
  ASSERT_EQ(SetSwitch(o.a, "modified-counts-as-added", "true"), "");
  ASSERT_EQ(SetSwitch(o.b, "modified-counts-as-added", "false"), "");
  const SpecDiffResult r = RunSpecDiff(o);
  ASSERT_GT(r.disagreeing, 0) << RenderSpecDiffText(r);
  ASSERT_FALSE(r.disagreements.empty());
  const Disagreement& d = r.disagreements.front();
  EXPECT_LE(static_cast<int>(d.requests.size()), d.original_requests);
  EXPECT_EQ(d.at.step, static_cast<int>(d.requests.size()));
  // The disagreeing step modifies rows.
  EXPECT_NE(d.requests.back().find("\"modify\""), std::string::npos) << d.requests.back();
  EXPECT_FALSE(d.at.detail.empty());
  EXPECT_NE(d.at.allowed_a, d.at.allowed_b);
  // The fixture: one step per request, under reading a, with prose naming the step.
  ASSERT_TRUE(d.fixture.contains("steps"));
  EXPECT_EQ(d.fixture["steps"].size(), d.requests.size());
  EXPECT_EQ(d.fixture["switches"]["modified-counts-as-added"], "true");
  const std::string description = d.fixture.value("description", "");
  EXPECT_NE(description.find(fmt::format("step {}", d.at.step)), std::string::npos)
      << description;
  EXPECT_NE(d.fixture_path.find(".json"), std::string::npos);
  // Replaying the minimized plan disagrees at the same step.
  const std::string text = RenderSpecDiffText(r);
  EXPECT_NE(text.find("modified-counts-as-added=false"), std::string::npos);
  EXPECT_NE(RenderSpecDiffMarkdown(r).find("differs in the"), std::string::npos);
}

TEST(SpecDiff, StaleIdsAreFiledUnderTheListRule) {
  // stale-ids-in-new-snapshot: under reject a new snapshot listing the ID of a removed
  // constraint breaks st.exactly-one-list; the fixture is filed under that rule, not under
  // proto.answer or a status rule that merely decided the step.
  SpecDiffOptions o = SmallBudget();
  o.histories = 200;
  ASSERT_EQ(SetSwitch(o.a, "stale-ids-in-new-snapshot", "reject"), "");
  ASSERT_EQ(SetSwitch(o.b, "stale-ids-in-new-snapshot", "allow"), "");
  const SpecDiffResult r = RunSpecDiff(o);
  ASSERT_FALSE(r.disagreements.empty()) << RenderSpecDiffText(r);
  for (const Disagreement& d : r.disagreements) {
    if (d.at.aspect != "stale-ids") continue;
    EXPECT_EQ(d.at.rule, "st.exactly-one-list");
    EXPECT_EQ(d.fixture.value("rules", nlohmann::json::array()),
              nlohmann::json::array({"st.exactly-one-list"}))
        << d.fixture.dump();
    return;
  }
  ADD_FAILURE() << "no stale-ids disagreement: " << RenderSpecDiffText(r);
}

TEST(SpecDiff, IdenticalReadingsNeverDisagree) {
  SpecDiffOptions o = SmallBudget();
  ASSERT_EQ(SetSwitch(o.a, "status-carry", "must"), "");
  o.b = o.a;
  const SpecDiffResult r = RunSpecDiff(o);
  EXPECT_EQ(r.disagreeing, 0) << RenderSpecDiffText(r);
  EXPECT_TRUE(r.disagreements.empty());
  EXPECT_NE(RenderSpecDiffText(r).find("0 disagree"), std::string::npos);
}

TEST(SpecDiff, SwitchesTextNamesOnlyChangedSwitches) {
  Switches s;
  EXPECT_EQ(SwitchesText(s), "defaults");
  ASSERT_EQ(SetSwitch(s, "name-case", "insensitive"), "");
  EXPECT_EQ(SwitchesText(s), "name-case=insensitive");
}

}  // namespace
}  // namespace ictk
