// Tests of `ictk lint-metadata`, `ictk rules` and `ictk --version` through the built binary.
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

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
  // file:line:column of the syntax error
  EXPECT_NE(r.out.find("truncated.json:3:1:"), std::string::npos) << r.out;
}

TEST(LintMetadataCli, UndecodableMetadataIsAShapeFindingWithItsPointer) {
  // Valid JSON, not valid table metadata: ice.metadata-shape with the position (exit 1),
  // as certify files such an answer, not "unreadable" (exit 2).
  auto r = RunIctk("lint-metadata tests/data/lint/partition-specs-object.json");
  EXPECT_EQ(r.exit_code, 1) << r.out;
  EXPECT_NE(r.out.find("ice.metadata-shape at /partition-specs"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("error:"), std::string::npos) << r.out;
  auto j = RunIctk("lint-metadata --format json tests/data/lint/partition-specs-object.json");
  EXPECT_EQ(j.exit_code, 1) << j.out;
  EXPECT_NE(j.out.find("\"rule\": \"ice.metadata-shape\""), std::string::npos) << j.out;
  EXPECT_NE(j.out.find("\"pointer\": \"/partition-specs"), std::string::npos) << j.out;
}

TEST(LintMetadataCli, MissingFileExitsTwo) {
  auto r = RunIctk("lint-metadata tests/data/lint/does-not-exist.json");
  EXPECT_EQ(r.exit_code, 2) << r.out;
  EXPECT_NE(r.out.find("does-not-exist.json"), std::string::npos) << r.out;
}

TEST(LintMetadataCli, ADirectoryExitsTwoNamingIt) {
  auto r = RunIctk("lint-metadata tests/data/lint");
  EXPECT_EQ(r.exit_code, 2) << r.out;
  EXPECT_NE(r.out.find("tests/data/lint: is a directory"), std::string::npos) << r.out;
}

TEST(LintMetadataCli, JsonFormatListsFindingsWithRuleAndPointer) {
  auto r = RunIctk("lint-metadata --format json tests/data/lint/two-primary-keys.json");
  EXPECT_EQ(r.exit_code, 1) << r.out;
  EXPECT_NE(r.out.find("\"rule\": \"def.single-pk\""), std::string::npos) << r.out;
}

/// The files the MANIFEST lists as valid table metadata, split by the documented exception
/// list (tests/codec/codec_exceptions_internal.h, docs/codec-exceptions.md).
std::vector<std::string> ValidRealMetadata(const std::string& which) {
  std::string cmd = std::string("cd '") + ICTK_SOURCE_DIR +
                    "' && python3 scripts/manifest_files.py "
                    "tests/data/iceberg-real/manifest.json --kind table-metadata --expect valid "
                    "--exceptions tests/codec/codec_exceptions_internal.h " + which;
  std::vector<std::string> files;
  FILE* p = popen(cmd.c_str(), "r");
  if (!p) return files;
  char buf[4096];
  while (fgets(buf, sizeof buf, p)) {
    std::string line = buf;
    if (!line.empty() && line.back() == '\n') line.pop_back();
    files.push_back(line);
  }
  pclose(p);
  return files;
}

/// Every file the MANIFEST lists as valid table metadata passes every metadata rule, apart
/// from at most 3 documented exceptions where Iceberg implementations disagree.
TEST(LintMetadataCli, EveryValidRealTableMetadataFileIsClean) {
  auto clean = ValidRealMetadata("--without-exceptions");
  auto exceptions = ValidRealMetadata("--only-exceptions");
  EXPECT_EQ(clean.size() + exceptions.size(), 51u);
  EXPECT_LE(exceptions.size(), 3u);
  std::string args;
  for (const auto& f : clean) args += " '" + f + "'";
  auto r = RunIctk("lint-metadata" + args);
  EXPECT_EQ(r.exit_code, 0) << r.out;
  for (const auto& f : exceptions) {
    auto e = RunIctk("lint-metadata '" + f + "'");
    EXPECT_NE(e.exit_code, 0) << f << " is listed as an exception but lints clean";
  }
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
