/// \file
/// `hello`'s finer declarations end to end (docs/protocol.md section 9, "Finer
/// declarations"), on the sample behind tests/data/profiles/hello_proxy.py: an adapter that
/// refuses update-constraint without narrowing `constraint-ops` fails validate-adapter,
/// which says why the op is required; one that narrows them passes, with the undeclared ops
/// skipped; and the corpus skips the fixtures that need what it left out.
#include <gtest/gtest.h>

#include <string>

#include "tests/cli/cli_support_internal.h"

namespace ictk {
namespace {

using testing::ReadText;
using testing::RunIctk;
using testing::TempDir;

std::string Proxy(const std::string& flags) {
  return "'exec:python3 tests/data/profiles/hello_proxy.py --format-versions 4 --strict " +
         flags + " -- " + ICTK_BIN_DIR + "/ictk-sample-adapter'";
}

TEST(FinerDeclarationsCli, ARefusedConstraintOpIsRequiredUnlessNarrowed) {
  const auto refused = RunIctk("validate-adapter --adapter " +
                               Proxy("--refuse update-constraint"));
  EXPECT_EQ(refused.exit_code, 1) << refused.out;
  EXPECT_NE(refused.out.find("hello has no `constraint-ops`, so every constraint op must "
                             "be answered"),
            std::string::npos)
      << refused.out;

  const auto narrowed = RunIctk(
      "validate-adapter --adapter " +
      Proxy("--refuse update-constraint --hello "
            "'\"'\"'{\"constraint-ops\": [\"add-constraint\", \"remove-constraint\"]}'\"'\"'"));
  EXPECT_EQ(narrowed.exit_code, 0) << narrowed.out;
  EXPECT_NE(narrowed.out.find("not in constraint-ops"), std::string::npos) << narrowed.out;
  EXPECT_EQ(narrowed.out.find("FAIL"), std::string::npos) << narrowed.out;
}

TEST(FinerDeclarationsCli, TheCorpusSkipsWhatTheDeclarationsLeaveOut) {
  TempDir dir("ictk-finer");
  const auto r = RunIctk(
      "certify --adapter " +
      Proxy("--hello '\"'\"'{\"constraint-ops\": [\"add-constraint\"]}'\"'\"'") +
      " --histories 20 --seed 1 --quiet --color never --corpus fixtures/corpus --out '" +
      dir / "run" + "'");
  EXPECT_EQ(r.exit_code, 0) << r.out;
  EXPECT_NE(r.out.find("add-constraint only"), std::string::npos) << r.out;
  const std::string report = ReadText(dir / "run/report.jsonl");
  EXPECT_NE(report.find("the adapter's constraint-ops lack update-constraint"),
            std::string::npos);
}

}  // namespace
}  // namespace ictk
