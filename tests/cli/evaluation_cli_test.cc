/// \file
/// Findings that show the evaluation, end to end (docs/certify.md, "The evaluation and
/// the adapter's message"): a certify failure of a check shows the check evaluated on
/// the offending row in the console and report.jsonl; a key failure shows the key of the
/// rows concerned and the adapter's own message, and its fixture's replay shows both
/// again, from the same model.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "tests/cli/cli_support_internal.h"

namespace ictk {
namespace {

using testing::ReadJsonl;
using testing::RunIctk;
using testing::TempDir;

/// The failure record of the first failing case of `report`.
nlohmann::json FirstFailure(const std::string& report) {
  for (const nlohmann::json& j : ReadJsonl(report))
    if (j.value("type", "") == "case" && j.contains("failure") && j.at("failure").is_object())
      return j.at("failure");
  return nlohmann::json();
}

TEST(EvaluationCli, ACheckFailureShowsTheCheckEvaluatedOnTheRow) {
  TempDir dir("ictk-eval");
  // Seed 1's case 169 is the first that a writer with SQL's three-valued logic fails: it
  // accepts a row whose check compares a null.
  const auto r = RunIctk(
      "certify --adapter 'builtin:sample?mutant=three-valued-nulls' --no-corpus --seed 1 "
      "--case 169 --max-steps 20 --color never --out '" + dir / "run" + "'");
  EXPECT_EQ(r.exit_code, 1) << r.out;
  const nlohmann::json f = FirstFailure(dir / "run/report.jsonl");
  ASSERT_TRUE(f.is_object()) << r.out;
  EXPECT_EQ(f.value("rule", ""), "sem.check");
  const std::string evaluation = f.value("evaluation", "");
  EXPECT_NE(evaluation.find("with a (#2) = null"), std::string::npos) << evaluation;
  EXPECT_NE(evaluation.find("null <= "), std::string::npos) << evaluation;
  EXPECT_NE(evaluation.find("= false"), std::string::npos) << evaluation;
  EXPECT_NE(r.out.find("    evaluation: " + evaluation), std::string::npos) << r.out;
}

TEST(EvaluationCli, AKeyFailureShowsTheKeysAndTheAdaptersMessageInCertifyAndReplay) {
  TempDir dir("ictk-eval");
  const std::string adapter = "'builtin:sample?mutant=keys-before-removals'";
  const auto r = RunIctk("certify --adapter " + adapter +
                         " --no-corpus --seed 1 --histories 5 --color never --out '" +
                         dir / "run" + "'");
  EXPECT_EQ(r.exit_code, 1) << r.out;
  const nlohmann::json f = FirstFailure(dir / "run/report.jsonl");
  ASSERT_TRUE(f.is_object()) << r.out;
  EXPECT_EQ(f.value("rule", ""), "enf.keys-against-remaining");
  const std::string evaluation = f.value("evaluation", "");
  EXPECT_NE(evaluation.find("which the commit removes"), std::string::npos) << evaluation;
  // The sample's own words for its rejection.
  EXPECT_EQ(f.value("adapter-message", ""), "rows break ['c1'] (enf.enforced)");
  EXPECT_NE(r.out.find("the adapter said: rows break ['c1']"), std::string::npos) << r.out;

  const std::string fixture =
      (std::filesystem::path(dir / "run") / f.value("fixture", "")).string();
  ASSERT_TRUE(std::filesystem::exists(fixture)) << fixture;
  const auto replay = RunIctk("replay --adapter " + adapter + " --color never --out '" +
                              dir / "replay" + "' '" + fixture + "'");
  EXPECT_EQ(replay.exit_code, 1) << replay.out;
  EXPECT_NE(replay.out.find("    evaluation: " + evaluation), std::string::npos)
      << replay.out;
  EXPECT_NE(replay.out.find("the adapter said: rows break ['c1']"), std::string::npos)
      << replay.out;
  const nlohmann::json g = FirstFailure(dir / "replay/report.jsonl");
  EXPECT_EQ(g.value("evaluation", ""), evaluation);
  EXPECT_EQ(g.value("adapter-message", ""), "rows break ['c1'] (enf.enforced)");
}

}  // namespace
}  // namespace ictk
