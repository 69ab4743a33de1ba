/// \file
/// `certify --until-stable N` (docs/certify.md): the run stops at the first random
/// history that ends N in a row adding no clause coverage, the same with one job or two,
/// resumable, and refused where the stop could not be decided over one run's cases.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <set>
#include <string>
#include <vector>

#include "tests/cli/cli_support_internal.h"

namespace ictk {
namespace {

using testing::ReadJsonl;
using testing::ReadText;
using testing::RunIctk;
using testing::TempDir;

std::string StableRun(const std::string& dir, const std::string& flags) {
  return "certify --adapter builtin:reference --no-corpus --seed 1 --until-stable 30 "
         "--quiet --color never --out '" + dir + "' " + flags;
}

/// The case records of a report, without what varies between runs (durations).
std::vector<nlohmann::json> Cases(const std::string& report) {
  std::vector<nlohmann::json> out;
  for (nlohmann::json j : ReadJsonl(report)) {
    if (j.value("type", "") != "case") continue;
    j.erase("duration-ms");
    out.push_back(std::move(j));
  }
  return out;
}

TEST(UntilStableCli, StopsAtTheFirstRunOfNHistoriesWithoutNewCoverage) {
  TempDir dir("ictk-stable");
  const auto one = RunIctk(StableRun(dir / "one", "--jobs 1"));
  ASSERT_EQ(one.exit_code, 0) << one.out;
  EXPECT_NE(one.out.find("until stable (the last 30 histories added no coverage)"),
            std::string::npos)
      << one.out;
  const std::vector<nlohmann::json> cases = Cases(dir / "one/report.jsonl");
  ASSERT_GT(cases.size(), 30u);
  EXPECT_LT(cases.size(), 10000u);
  // Counted again from the records: the last 30 added no (clause, sign), the one before
  // them did, and no earlier window of 30 was without one.
  std::set<std::string> seen;
  int64_t quiet = 0;
  for (size_t i = 0; i < cases.size(); ++i) {
    bool added = false;
    for (const auto& [clause, use] : cases[i].at("clauses").items()) {
      if (use.value("positive", 0) > 0) added = seen.insert(clause + "+").second || added;
      if (use.value("negative", 0) > 0) added = seen.insert(clause + "-").second || added;
    }
    quiet = added ? 0 : quiet + 1;
    if (i + 1 < cases.size()) EXPECT_LT(quiet, 30) << "a stable window ended at case " << i;
  }
  EXPECT_EQ(quiet, 30);
  const std::string summary = ReadText(dir / "one/summary.md");
  EXPECT_NE(summary.find("until stable"), std::string::npos);

  // Two jobs: the same cases, the same stop.
  const auto two = RunIctk(StableRun(dir / "two", "--jobs 2"));
  ASSERT_EQ(two.exit_code, 0) << two.out;
  EXPECT_EQ(Cases(dir / "two/report.jsonl"), cases);

  // A run killed after its first 40 cases, resumed: the same report.
  {
    const std::string text = ReadText(dir / "one/report.jsonl");
    std::ofstream cut(dir / "cut.jsonl");
    size_t from = 0;
    for (int line = 0; line < 41; ++line) {
      const size_t end = text.find('\n', from);
      cut << text.substr(from, end + 1 - from);
      from = end + 1;
    }
  }
  std::filesystem::create_directories(dir / "resumed");
  std::filesystem::copy_file(dir / "cut.jsonl", dir / "resumed/report.jsonl");
  const auto resumed = RunIctk(StableRun(dir / "resumed", "--jobs 1 --resume"));
  ASSERT_EQ(resumed.exit_code, 0) << resumed.out;
  EXPECT_EQ(Cases(dir / "resumed/report.jsonl"), cases);
}

// Its progress counts cases against no total: the cap is not an estimate.
TEST(UntilStableCli, ProgressHasNoBarAndNoEta) {
  TempDir dir("ictk-stable");
  const auto r = RunIctk("certify --adapter builtin:reference --no-corpus --seed 1 "
                         "--until-stable 30 --color never --out '" + dir / "p" + "'");
  ASSERT_EQ(r.exit_code, 0) << r.out;
  EXPECT_NE(r.out.find("certify: 100 cases until stable (at most 10000), 0 failing so far"),
            std::string::npos)
      << r.out;
  EXPECT_EQ(r.out.find("ETA"), std::string::npos) << r.out;
}

TEST(UntilStableCli, IsRefusedWithAShardACaseOrTheMutationScore) {
  TempDir dir("ictk-stable");
  for (const std::string flags : {"--shard 0/2", "--case 3"}) {
    const auto r = RunIctk(StableRun(dir / "x", flags));
    EXPECT_EQ(r.exit_code, 2) << r.out;
    EXPECT_NE(r.out.find("--until-stable does not apply to " + flags.substr(0, flags.find(' '))),
              std::string::npos)
        << r.out;
  }
  const auto m = RunIctk("certify --mutation-score --until-stable 5 --out '" + dir / "m" + "'");
  EXPECT_EQ(m.exit_code, 2) << m.out;
}

}  // namespace
}  // namespace ictk
