// `ictk trace`, `ictk spec-diff`, `ictk fingerprint` and `ictk review` as CI scripts call
// them: exit codes and the lines they print.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>

#include "cli_support_internal.h"

namespace ictk {
namespace {

using testing::RunIctk;

TEST(ReviewCli, TraceSeedExitsZero) {
  const auto r = RunIctk("trace --spec tests/data/seed/000_f6814d186b7076a8.txt");
  EXPECT_EQ(r.exit_code, 0) << r.out;
  EXPECT_NE(r.out.find("0 untraced, 0 stale rules"), std::string::npos) << r.out;
}

TEST(ReviewCli, TraceEditedCopyExitsOneNamingBoth) {
  const auto r =
      RunIctk("trace --spec tests/data/review/edited-seed.txt --format markdown");
  EXPECT_EQ(r.exit_code, 1) << r.out;
  EXPECT_NE(r.out.find("**2 untraced**"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("`key.no-float-double`"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("more than 100 constraints"), std::string::npos) << r.out;
}

TEST(ReviewCli, TraceBadInputExitsTwoNamingTheFile) {
  const auto missing = RunIctk("trace --spec tests/data/review/no-such-file.md");
  EXPECT_EQ(missing.exit_code, 2) << missing.out;
  EXPECT_NE(missing.out.find("no-such-file.md"), std::string::npos) << missing.out;
  const auto no_section = RunIctk("trace --spec tests/data/seed/README.md");
  EXPECT_EQ(no_section.exit_code, 2) << no_section.out;
  EXPECT_NE(no_section.out.find("tests/data/seed/README.md"), std::string::npos);
  EXPECT_EQ(RunIctk("trace --spec tests/data/review/spec.md --format xml").exit_code, 2);
  const auto directory = RunIctk("trace --spec tests/data/review");
  EXPECT_EQ(directory.exit_code, 2) << directory.out;
  EXPECT_NE(directory.out.find("tests/data/review: not a readable file"),
            std::string::npos);
}

TEST(ReviewCli, SpecDiffPrintsTheCountAndExitsZero) {
  const std::filesystem::path out =
      std::filesystem::temp_directory_path() /
      ("ictk-review-cli-spec-diff-" + std::to_string(getpid()));
  std::filesystem::remove_all(out);
  const auto r = RunIctk(
      "spec-diff --a modified-counts-as-added=true --b modified-counts-as-added=false "
      "--histories 100 --max-reported 1 --out '" +
      out.string() + "'");
  EXPECT_EQ(r.exit_code, 0) << r.out;
  EXPECT_NE(r.out.find("100 histories: "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("wrote 1 fixtures"), std::string::npos) << r.out;
  int files = 0;
  for (const auto& e : std::filesystem::recursive_directory_iterator(out))
    files += e.path().extension() == ".json" ? 1 : 0;
  EXPECT_EQ(files, 1);
  // The fixture holds reading a's expectations: the reference model under a passes it.
  const auto replay =
      RunIctk("replay --adapter builtin:reference '" + out.string() + "'");
  EXPECT_EQ(replay.exit_code, 0) << replay.out;
  EXPECT_NE(replay.out.find("1 passed, 0 failed"), std::string::npos) << replay.out;
  std::filesystem::remove_all(out);
}

TEST(ReviewCli, SpecDiffBadSwitchExitsTwo) {
  const auto r =
      RunIctk("spec-diff --a no-such-switch=1 --b modified-counts-as-added=false");
  EXPECT_EQ(r.exit_code, 2) << r.out;
  EXPECT_NE(r.out.find("no-such-switch"), std::string::npos) << r.out;
  EXPECT_EQ(RunIctk("spec-diff --a modified-counts-as-added").exit_code, 2);
}

TEST(ReviewCli, FingerprintGoldenMatchesAndADifferenceExitsOne) {
  const auto same =
      RunIctk("fingerprint --golden tests/data/review/fingerprint.golden.json");
  EXPECT_EQ(same.exit_code, 0) << same.out;
  EXPECT_NE(same.out.find("enumerated "), std::string::npos) << same.out;
  // A golden of another depth differs, and the message says how to update it.
  const std::filesystem::path golden =
      std::filesystem::temp_directory_path() /
      ("ictk-review-cli-golden-" + std::to_string(getpid()) + ".json");
  ASSERT_EQ(RunIctk("fingerprint --steps 1 --write '" + golden.string() + "'").exit_code,
            0);
  const auto moved = RunIctk("fingerprint --steps 2 --golden '" + golden.string() + "'");
  EXPECT_EQ(moved.exit_code, 1) << moved.out;
  EXPECT_NE(moved.out.find("digest: "), std::string::npos) << moved.out;
  EXPECT_NE(moved.out.find("--write"), std::string::npos) << moved.out;
  std::filesystem::remove(golden);
  EXPECT_EQ(RunIctk("fingerprint --golden tests/data/review/no-such.json").exit_code, 2);
  EXPECT_EQ(RunIctk("fingerprint --golden tests/data/review").exit_code, 2);
  EXPECT_EQ(RunIctk("fingerprint --golden tests/data/review/spec.md").exit_code, 2);
}

TEST(ReviewCli, ReviewWritesTheDocumentsAndFixtures) {
  const std::filesystem::path out =
      std::filesystem::temp_directory_path() /
      ("ictk-review-cli-review-" + std::to_string(getpid()));
  std::filesystem::remove_all(out);
  const auto r = RunIctk(
      "review --spec tests/data/review/edited-seed.txt --base "
      "tests/data/seed/000_f6814d186b7076a8.txt --histories 12 --out '" +
      out.string() + "'");
  ASSERT_EQ(r.exit_code, 0) << r.out;
  EXPECT_NE(r.out.find("1 stale rules"), std::string::npos) << r.out;
  std::ifstream md(out / "review.md");
  const std::string text((std::istreambuf_iterator<char>(md)), {});
  EXPECT_NE(text.find("# Review of the Constraints section"), std::string::npos);
  EXPECT_NE(text.find("## 4. Changes from the base"), std::string::npos);
  EXPECT_TRUE(std::filesystem::is_regular_file(out / "review.html"));
  int files = 0;
  if (std::filesystem::is_directory(out / "fixtures"))
    for (const auto& e : std::filesystem::recursive_directory_iterator(out / "fixtures"))
      files += e.path().extension() == ".json" ? 1 : 0;
  EXPECT_NE(r.out.find(" " + std::to_string(files) + " fixtures under"), std::string::npos)
      << r.out;
  // (tests/review/review_test.cc checks each fixture's expectations against the model.)
  EXPECT_GT(files, 0);
  std::filesystem::remove_all(out);
}

TEST(ReviewCli, ReviewBadInputExitsTwo) {
  EXPECT_EQ(RunIctk("review --spec tests/data/seed/000_f6814d186b7076a8.txt").exit_code, 2)
      << "--out is required";
  const auto missing = RunIctk("review --spec tests/data/review/no-such.md --out /tmp/x");
  EXPECT_EQ(missing.exit_code, 2) << missing.out;
  EXPECT_NE(missing.out.find("no-such.md"), std::string::npos) << missing.out;
  const auto base = RunIctk(
      "review --spec tests/data/review/spec.md --base tests/data/seed/README.md --out "
      "/tmp/x");
  EXPECT_EQ(base.exit_code, 2) << base.out;
  EXPECT_NE(base.out.find("README.md"), std::string::npos) << base.out;
}

}  // namespace
}  // namespace ictk
