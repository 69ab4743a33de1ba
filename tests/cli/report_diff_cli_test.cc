/// \file
/// `ictk report diff A B` takes run folders as `report merge` does (DIR/report.jsonl), and
/// names a folder without one (exit 2).
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "tests/cli/cli_support_internal.h"

namespace ictk {
namespace {

namespace fs = std::filesystem;
using testing::CommandResult;
using testing::RunIctk;
using testing::TempDir;

/// `ictk certify` of `spec` (40 histories, no corpus) into `dir`; its exit code.
int CertifyInto(const std::string& spec, const std::string& dir) {
  return RunIctk("certify --adapter '" + spec +
                 "' --histories 40 --no-corpus --quiet --jobs 1 --out '" + dir + "'")
      .exit_code;
}

TEST(ReportDiffCli, TakesRunFolders) {
  TempDir dir("ictk-diff");
  ASSERT_EQ(CertifyInto("builtin:sample", dir / "a"), 0);
  ASSERT_EQ(CertifyInto("builtin:sample?mutant=reuse-removed-id", dir / "b"), 1);
  // Folders, a folder and a file, or files: the same comparison, B's new failure found.
  const CommandResult folders = RunIctk("report diff '" + dir / "a" + "' '" + dir / "b" + "'");
  EXPECT_EQ(folders.exit_code, 1) << folders.out;
  const CommandResult mixed =
      RunIctk("report diff '" + dir / "a" + "' '" + dir / "b/report.jsonl" + "'");
  EXPECT_EQ(mixed.exit_code, 1) << mixed.out;
  EXPECT_EQ(mixed.out, folders.out);
  const CommandResult same = RunIctk("report diff '" + dir / "a" + "' '" + dir / "a" + "'");
  EXPECT_EQ(same.exit_code, 0) << same.out;
  EXPECT_EQ(RunIctk("report diff --exact '" + dir / "a" + "' '" + dir / "a" + "'").exit_code,
            0);
}

TEST(ReportDiffCli, AFolderWithoutAReportIsNamed) {
  TempDir dir("ictk-diff");
  ASSERT_EQ(CertifyInto("builtin:sample", dir / "a"), 0);
  fs::create_directories(dir / "empty");
  const CommandResult empty = RunIctk("report diff '" + dir / "a" + "' '" + dir / "empty" + "'");
  EXPECT_EQ(empty.exit_code, 2) << empty.out;
  EXPECT_NE(empty.out.find(dir / "empty" + ": a folder without report.jsonl"),
            std::string::npos)
      << empty.out;
}

}  // namespace
}  // namespace ictk
