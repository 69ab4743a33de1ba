// Tests of `ictk lint-metadata`, `ictk rules` and `ictk --version` through the built binary.
#include <fstream>
#include <sstream>
#include <string>

#include <gtest/gtest.h>

#include "tests/cli/cli_support_internal.h"

namespace ictk {
namespace {

using testing::RunIctk;

TEST(LintMetadataCli, CleanV4MetadataExitsZero) {
  auto r = RunIctk("lint-metadata tests/data/lint/v4-constraints-clean.json");
  EXPECT_EQ(r.exit_code, 0) << r.out;
  EXPECT_NE(r.out.find("no findings"), std::string::npos) << r.out;
}

TEST(LintMetadataCli, TwoPrimaryKeysExitOneNamingDefSinglePk) {
  // def.single-pk: "A table may have at most one `primary-key` constraint."
  auto r = RunIctk("lint-metadata tests/data/lint/two-primary-keys.json");
  EXPECT_EQ(r.exit_code, 1) << r.out;
  EXPECT_NE(r.out.find("def.single-pk"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("/constraints/"), std::string::npos) << r.out;
}

TEST(LintMetadataCli, V3CarryingConstraintsNamesDefV4Only) {
  // def.v4-only
  auto r = RunIctk("lint-metadata tests/data/lint/v3-with-constraints.json");
  EXPECT_EQ(r.exit_code, 1) << r.out;
  EXPECT_NE(r.out.find("def.v4-only"), std::string::npos) << r.out;
}

TEST(LintMetadataCli, TruncatedJsonExitsTwoNamingFileAndPosition) {
  auto r = RunIctk("lint-metadata tests/data/lint/truncated.json");
  EXPECT_EQ(r.exit_code, 2) << r.out;
  EXPECT_NE(r.out.find("truncated.json"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("line"), std::string::npos) << r.out;
}

TEST(LintMetadataCli, MissingFileExitsTwo) {
  auto r = RunIctk("lint-metadata tests/data/lint/does-not-exist.json");
  EXPECT_EQ(r.exit_code, 2) << r.out;
  EXPECT_NE(r.out.find("does-not-exist.json"), std::string::npos) << r.out;
}

TEST(LintMetadataCli, JsonFormatListsFindingsWithRuleAndPointer) {
  auto r = RunIctk("lint-metadata --format json tests/data/lint/two-primary-keys.json");
  EXPECT_EQ(r.exit_code, 1) << r.out;
  EXPECT_NE(r.out.find("\"rule\": \"def.single-pk\""), std::string::npos) << r.out;
}

/// Every file the MANIFEST lists as valid table metadata passes every metadata rule, apart
/// from the documented exceptions (docs/codec-exceptions.md).
TEST(LintMetadataCli, EveryValidRealTableMetadataFileIsClean) {
  std::string list_cmd =
      "python3 scripts/manifest_files.py tests/data/iceberg-real/manifest.json "
      "--kind table-metadata --expect valid";
  std::string cmd = std::string("cd '") + ICTK_SOURCE_DIR + "' && " + list_cmd;
  FILE* p = popen(cmd.c_str(), "r");
  ASSERT_NE(p, nullptr);
  std::string files, line;
  char buf[4096];
  int count = 0;
  while (fgets(buf, sizeof buf, p)) {
    line = buf;
    if (!line.empty() && line.back() == '\n') line.pop_back();
    files += " '" + line + "'";
    ++count;
  }
  pclose(p);
  ASSERT_EQ(count, 51);
  auto r = RunIctk("lint-metadata" + files);
  EXPECT_EQ(r.exit_code, 0) << r.out;
}

TEST(RulesCli, JsonListsEverySpecRuleId) {
  auto r = RunIctk("rules --format json");
  ASSERT_EQ(r.exit_code, 0) << r.out;
  std::ifstream spec(std::string(ICTK_SOURCE_DIR) + "/docs/spec-rule-ids.txt");
  ASSERT_TRUE(spec) << "docs/spec-rule-ids.txt missing";
  std::string id;
  int n = 0;
  while (spec >> id) {
    ++n;
    EXPECT_NE(r.out.find("\"id\": \"" + id + "\""), std::string::npos) << id;
  }
  EXPECT_GE(n, 71);
}

TEST(RulesCli, UnknownSwitchIsAUsageError) {
  auto r = RunIctk("--switch no-such-switch=1 rules");
  EXPECT_EQ(r.exit_code, 2) << r.out;
  EXPECT_NE(r.out.find("no-such-switch"), std::string::npos) << r.out;
}

TEST(VersionCli, PrintsVersion) {
  auto r = RunIctk("--version");
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_NE(r.out.find("ictk 0."), std::string::npos) << r.out;
}

}  // namespace
}  // namespace ictk
