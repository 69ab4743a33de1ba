// The metadata lint (model/rules/metadata_rules.h) on metadata files decoded by the codec: the
// hand-written files of tests/data/lint and the real Apache Iceberg metadata of
// tests/data/iceberg-real. (The lint on metadata built in code is tested with the model, in
// tests/model/metadata_rules_test.cc; these need the codec, so they live in its layer.)
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "codec/json_table_metadata.h"
#include "model/rules/metadata_rules.h"
#include "model/rules/rule_id.h"
#include "tests/model/constraint_test_util_internal.h"

namespace ictk {
namespace {

using testing_util::Has;

Result<TableMetadata> ReadMetadata(const std::string& path) {
  std::ifstream in(path);
  if (!in.good()) return MakeError(ErrorKind::kIo, path + ": cannot read");
  nlohmann::json j = nlohmann::json::parse(in, nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded()) return MakeError(ErrorKind::kParse, path + ": not JSON");
  return TableMetadataFromJson(j);
}

TEST(DefSinglePk, MetadataFileWithTwoPrimaryKeys) {  // def.single-pk
  auto md = ReadMetadata(ICTK_TEST_DATA_DIR "/lint/two-primary-keys.json");
  ASSERT_TRUE(md) << md.error().message;
  Findings f = LintMetadata(*md, FunctionCatalog{}, Switches{});
  ASSERT_EQ(f.size(), 1u) << ::testing::PrintToString(f);
  EXPECT_EQ(f[0].rule, RuleId::kDefSinglePk);
  EXPECT_EQ(f[0].pointer, "/constraints/3/type");
  EXPECT_EQ(f[0].constraint_id, 4);
}

TEST(LintMetadata, CleanV4MetadataFileHasNoFindings) {
  auto md = ReadMetadata(ICTK_TEST_DATA_DIR "/lint/v4-constraints-clean.json");
  ASSERT_TRUE(md) << md.error().message;
  Findings f = LintMetadata(*md, FunctionCatalog{}, Switches{});
  EXPECT_TRUE(f.empty()) << ::testing::PrintToString(f);
}

TEST(DefV4Only, MetadataFileV3WithConstraints) {  // def.v4-only
  auto md = ReadMetadata(ICTK_TEST_DATA_DIR "/lint/v3-with-constraints.json");
  ASSERT_TRUE(md) << md.error().message;
  EXPECT_TRUE(Has(LintMetadata(*md, FunctionCatalog{}, Switches{}), RuleId::kDefV4Only));
}

/// Real v1-v3 metadata of the Apache Iceberg projects carries no constraint fields, so
/// the constraint rules have nothing to say about any of it (identifier fields included).
TEST(LintMetadata, RealIcebergMetadataHasNoConstraintFindings) {
  int linted = 0;
  for (const auto& entry : std::filesystem::directory_iterator(
           ICTK_TEST_DATA_DIR "/iceberg-real/metadata/valid")) {
    auto md = ReadMetadata(entry.path().string());
    if (!md || md->format_version >= 4) continue;
    ++linted;
    for (const Finding& f : LintMetadata(*md, FunctionCatalog{}, Switches{})) {
      const std::string_view rule = RuleIdName(f.rule);
      EXPECT_EQ(rule.substr(0, 4), "ice.") << entry.path().filename() << ": " << f;
    }
  }
  EXPECT_GT(linted, 10);
}

}  // namespace
}  // namespace ictk
