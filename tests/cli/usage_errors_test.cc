/// \file
/// Usage errors for people (README "Commands"): a misspelled subcommand or flag is named,
/// with the nearest known name, and exits 2 (usage); an error about something else keeps
/// CLI11's message.
#include <gtest/gtest.h>

#include <string>

#include "tests/cli/cli_support_internal.h"

namespace ictk {
namespace {

using testing::CommandResult;
using testing::RunIctk;

/// Exit 2 and every one of `parts` in the output.
void ExpectUsageError(const CommandResult& r, const std::vector<std::string>& parts) {
  EXPECT_EQ(r.exit_code, 2) << r.out;
  for (const std::string& p : parts)
    EXPECT_NE(r.out.find(p), std::string::npos) << "no \"" << p << "\" in: " << r.out;
}

TEST(UsageErrors, MisspelledSubcommandGetsASuggestion) {
  ExpectUsageError(RunIctk("certfy"),
                   {"ictk: error: unknown subcommand `certfy`", "did you mean `certify`?"});
  ExpectUsageError(RunIctk("rulse --format json"), {"`rulse`", "did you mean `rules`?"});
  // A prefix of one name.
  ExpectUsageError(RunIctk("valid --adapter builtin:sample"),
                   {"`valid`", "did you mean `validate-adapter`?"});
}

TEST(UsageErrors, UnknownSubcommandWithNothingNearListsTheSubcommands) {
  const CommandResult r = RunIctk("frobnicate");
  ExpectUsageError(r, {"unknown subcommand `frobnicate`", "certify", "replay", "rules"});
  EXPECT_EQ(r.out.find("did you mean"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("A subcommand is required"), std::string::npos) << r.out;
}

TEST(UsageErrors, MisspelledFlagGetsASuggestion) {
  ExpectUsageError(RunIctk("certify --adapter builtin:sample --histries 5 --out ''"),
                   {"ictk certify: error: unknown flag `--histries`",
                    "did you mean `--histories`?"});
  // After values of other flags, `=VALUE` forms and a repeatable flag.
  ExpectUsageError(RunIctk("certify --adapter=builtin:sample --switch a=b --seed 3 --qiet"),
                   {"`--qiet`", "did you mean `--quiet`?"});
  ExpectUsageError(RunIctk("certify --adapter builtin:sample --max-step=3"),
                   {"`--max-step`", "did you mean `--max-steps`?"});
}

TEST(UsageErrors, NestedSubcommandsAndTheirFlags) {
  ExpectUsageError(RunIctk("report dif a.jsonl b.jsonl"),
                   {"ictk report: error: unknown subcommand `dif`", "did you mean `diff`?"});
  ExpectUsageError(RunIctk("report diff --exatc a.jsonl b.jsonl"),
                   {"ictk report diff: error: unknown flag `--exatc`",
                    "did you mean `--exact`?"});
  ExpectUsageError(RunIctk("fixtures verfy fixtures/corpus"), {"did you mean `verify`?"});
}

TEST(UsageErrors, UnknownFlagWithNothingNearPointsAtHelp) {
  const CommandResult r = RunIctk("rules --zzzzzzzz");
  ExpectUsageError(r, {"unknown flag `--zzzzzzzz`", "`ictk rules --help` lists the flags"});
  EXPECT_EQ(r.out.find("did you mean"), std::string::npos) << r.out;
}

// An error about a known word keeps CLI11's own message (no guessed "unknown").
TEST(UsageErrors, OtherErrorsKeepTheirMessage) {
  const CommandResult bad_value = RunIctk("rules --format xml");
  EXPECT_EQ(bad_value.exit_code, 2) << bad_value.out;
  EXPECT_EQ(bad_value.out.find("unknown"), std::string::npos) << bad_value.out;
  EXPECT_NE(bad_value.out.find("xml"), std::string::npos) << bad_value.out;
  const CommandResult none = RunIctk("");
  EXPECT_EQ(none.exit_code, 2) << none.out;
  EXPECT_NE(none.out.find("A subcommand is required"), std::string::npos) << none.out;
  // A correct command line is untouched.
  EXPECT_EQ(RunIctk("--color=never rules --format json").exit_code, 0);
}

}  // namespace
}  // namespace ictk
