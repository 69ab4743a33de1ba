// The interpretation switches (model/rules/switches.h): names, defaults, parsing, printing.
#include "model/rules/switches.h"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <set>

namespace ictk {
namespace {

TEST(Switches, SpecSwitchesInOrderWithDefaultsFirst) {
  const std::vector<std::string_view> spec = {"modified-counts-as-added",
                                              "stale-ids-in-new-snapshot",
                                              "compaction-counts-as-added",
                                              "key-promotions",
                                              "status-carry",
                                              "existing-rows-on-enforce",
                                              "unenforced-may-reject",
                                              "v3-constraint-fields",
                                              "name-case"};
  const auto& all = AllSwitches();
  ASSERT_GE(all.size(), spec.size());
  for (size_t i = 0; i < spec.size(); ++i) EXPECT_EQ(all[i].name, spec[i]);
  const auto defaults = SwitchValues(Switches{});
  for (const SwitchInfo& s : all) {
    SCOPED_TRACE(std::string(s.name));
    ASSERT_GE(s.values.size(), 2u);
    EXPECT_EQ(defaults.at(std::string(s.name)), s.values.front());
    EXPECT_TRUE(s.kind == "reading" || s.kind == "proposed change");
    EXPECT_FALSE(s.description.empty());
  }
  EXPECT_EQ(defaults.at("modified-counts-as-added"), "true");
  EXPECT_EQ(defaults.at("stale-ids-in-new-snapshot"), "reject");
  EXPECT_EQ(defaults.at("compaction-counts-as-added"), "false");
  EXPECT_EQ(defaults.at("key-promotions"), "format-version");
  EXPECT_EQ(defaults.at("status-carry"), "may");
  EXPECT_EQ(defaults.at("existing-rows-on-enforce"), "either");
  EXPECT_EQ(defaults.at("unenforced-may-reject"), "false");
  EXPECT_EQ(defaults.at("v3-constraint-fields"), "either");
  EXPECT_EQ(defaults.at("name-case"), "sensitive");
  EXPECT_EQ(defaults.at("udf-check-carries-invalid"), "false");
  EXPECT_EQ(defaults.at("restated-definition"), "either");
  EXPECT_EQ(defaults.at("invalid-metadata-on-read"), "either");
}

TEST(Switches, KindsFollowSpec) {
  std::map<std::string_view, std::string_view> kind;
  for (const SwitchInfo& s : AllSwitches()) kind[s.name] = s.kind;
  EXPECT_EQ(kind["modified-counts-as-added"], "proposed change");
  EXPECT_EQ(kind["compaction-counts-as-added"], "proposed change");
  EXPECT_EQ(kind["key-promotions"], "proposed change");
  EXPECT_EQ(kind["status-carry"], "reading");
  EXPECT_EQ(kind["name-case"], "reading");
}

TEST(Switches, SetSwitchSetsEachMember) {
  Switches s;
  EXPECT_EQ(SetSwitch(s, "modified-counts-as-added", "false"), "");
  EXPECT_FALSE(s.modified_counts_as_added);
  EXPECT_EQ(SetSwitch(s, "stale-ids-in-new-snapshot", "allow"), "");
  EXPECT_EQ(s.stale_ids_in_new_snapshot, StaleIds::kAllow);
  EXPECT_EQ(SetSwitch(s, "compaction-counts-as-added", "true"), "");
  EXPECT_TRUE(s.compaction_counts_as_added);
  EXPECT_EQ(SetSwitch(s, "key-promotions", "none"), "");
  EXPECT_EQ(s.key_promotions, KeyPromotions::kNone);
  EXPECT_EQ(SetSwitch(s, "status-carry", "must"), "");
  EXPECT_EQ(s.status_carry, StatusCarry::kMust);
  EXPECT_EQ(SetSwitch(s, "existing-rows-on-enforce", "accept"), "");
  EXPECT_EQ(s.existing_rows_on_enforce, ExistingRowsOnEnforce::kAccept);
  EXPECT_EQ(SetSwitch(s, "existing-rows-on-enforce", "reject"), "");
  EXPECT_EQ(s.existing_rows_on_enforce, ExistingRowsOnEnforce::kReject);
  EXPECT_EQ(SetSwitch(s, "unenforced-may-reject", "true"), "");
  EXPECT_TRUE(s.unenforced_may_reject);
  EXPECT_EQ(SetSwitch(s, "v3-constraint-fields", "reject"), "");
  EXPECT_EQ(s.v3_constraint_fields, V3ConstraintFields::kReject);
  EXPECT_EQ(SetSwitch(s, "name-case", "insensitive"), "");
  EXPECT_EQ(s.name_case, NameCase::kInsensitive);
  EXPECT_EQ(SetSwitch(s, "udf-check-carries-invalid", "true"), "");
  EXPECT_TRUE(s.udf_check_carries_invalid);
  EXPECT_EQ(SetSwitch(s, "restated-definition", "reject"), "");
  EXPECT_EQ(s.restated_definition, RestatedDefinition::kReject);
  EXPECT_EQ(SetSwitch(s, "invalid-metadata-on-read", "reject"), "");
  EXPECT_EQ(s.invalid_metadata_on_read, InvalidMetadataOnRead::kReject);
  EXPECT_NE(s, Switches{});
}

TEST(Switches, SetSwitchRejectsUnknownNameAndValue) {
  Switches s;
  EXPECT_NE(SetSwitch(s, "no-such-switch", "true"), "");
  const std::string bad = SetSwitch(s, "status-carry", "sometimes");
  EXPECT_NE(bad.find("may|must"), std::string::npos) << bad;
  EXPECT_EQ(s, Switches{}) << "a rejected value changes nothing";
}

/// Setting every switch to any of its values and reading them back gives those values.
RC_GTEST_PROP(Switches, SetThenReadRoundTrips, ()) {
  Switches s;
  std::map<std::string, std::string> want;
  for (const SwitchInfo& info : AllSwitches()) {
    const std::string_view v = *rc::gen::elementOf(info.values);
    RC_ASSERT(SetSwitch(s, info.name, v).empty());
    want[std::string(info.name)] = std::string(v);
  }
  RC_ASSERT(SwitchValues(s) == want);
}

}  // namespace
}  // namespace ictk
