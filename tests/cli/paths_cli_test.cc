/// \file
/// `ictk paths` (README, "Commands"): a build tree's ictk finds the corpus, the examples,
/// the CI steps, the fixture runner and the docs in the checkout it was built from, as
/// text and as JSON; a copy of the binary with nothing beside it says where it looked
/// and exits 1. The installed layout is checked on the unpacked .deb
/// (tests/package/ci_from_deb_test.sh).
#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>

#include "tests/cli/cli_support_internal.h"

namespace ictk {
namespace {

using testing::RunIctk;
using testing::RunInFreshShell;
using testing::TempDir;

namespace fs = std::filesystem;

TEST(PathsCli, ABuildTreeFindsEverythingInItsCheckout) {
  const auto r = RunIctk("paths --format json");
  ASSERT_EQ(r.exit_code, 0) << r.out;
  const nlohmann::json j = nlohmann::json::parse(r.out);
  const fs::path source = fs::canonical(ICTK_SOURCE_DIR);
  EXPECT_EQ(j.at("corpus"), (source / "fixtures/corpus").string());
  EXPECT_EQ(j.at("examples"), (source / "examples").string());
  EXPECT_EQ(j.at("ci"), (source / "scripts/ci").string());
  EXPECT_EQ(j.at("runner"), (source / "fixtures/runner").string());
  EXPECT_EQ(j.at("docs"), (source / "docs").string());
  const auto text = RunIctk("paths");
  EXPECT_EQ(text.exit_code, 0);
  EXPECT_NE(text.out.find("examples  " + (source / "examples").string()), std::string::npos)
      << text.out;
}

TEST(PathsCli, ABinaryWithNothingBesideItSaysWhereItLooked) {
  TempDir dir("ictk-paths");
  const std::string root = fs::path(dir / "bin").parent_path().string();
  fs::create_directories(dir / "bin");
  fs::copy_file(fs::path(ICTK_BIN_DIR) / "ictk", dir / "bin/ictk");
  const auto r = RunInFreshShell("cd '" + root + "' && ICTK_CORPUS= ./bin/ictk paths");
  EXPECT_EQ(r.exit_code, 1) << r.out;
  EXPECT_NE(r.out.find("examples  (not found; looked in: " + root + "/share/ictk/examples"),
            std::string::npos)
      << r.out;
}

}  // namespace
}  // namespace ictk
