/// \file
/// `ictk fixtures verify` on the committed corpus and on a broken copy, `ictk fixtures
/// generate` into a folder, and `certify` replaying the corpus first.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "tests/cli/cli_support_internal.h"

namespace ictk {
namespace {

namespace fs = std::filesystem;
using ::ictk::testing::RunIctk;

TEST(FixturesCli, VerifiesTheCommittedCorpus) {
  auto r = RunIctk("fixtures verify fixtures/corpus");
  EXPECT_EQ(r.exit_code, 0) << r.out;
  EXPECT_NE(r.out.find(", 0 problems"), std::string::npos) << r.out;
}

TEST(FixturesCli, VerifyFailsOnABrokenCopy) {
  const fs::path d =
      fs::temp_directory_path() / ("ictk-fxv-" + std::to_string(::getpid()));
  fs::remove_all(d);
  fs::copy(std::string(ICTK_SOURCE_DIR) + "/fixtures/corpus", d,
           fs::copy_options::recursive);
  fs::remove(d / "INDEX.json");
  auto r = RunIctk("fixtures verify " + d.string());
  EXPECT_EQ(r.exit_code, 1) << r.out;
  EXPECT_NE(r.out.find("INDEX.json: missing"), std::string::npos) << r.out;
  std::ofstream(d / "junk.json") << "{\"format\": ";
  auto junk = RunIctk("fixtures verify " + d.string());
  EXPECT_EQ(junk.exit_code, 2) << junk.out;
  EXPECT_NE(junk.out.find("junk.json"), std::string::npos) << junk.out;
  fs::remove_all(d);
}

TEST(FixturesCli, GeneratesASubset) {
  const fs::path d =
      fs::temp_directory_path() / ("ictk-fxg-" + std::to_string(::getpid()));
  fs::remove_all(d);
  auto r = RunIctk("fixtures generate --out " + d.string() +
                   " --only upd. --per-rule 1 --max-histories 200 --hand none");
  EXPECT_EQ(r.exit_code, 0) << r.out;
  EXPECT_TRUE(fs::exists(d / "INDEX.json"));
  EXPECT_TRUE(fs::exists(d / "VERSION"));
  auto v = RunIctk("fixtures verify " + d.string());
  EXPECT_EQ(v.exit_code, 0) << v.out;
  fs::remove_all(d);
}

TEST(FixturesCli, CertifyReplaysTheCorpusFirst) {
  const fs::path d =
      fs::temp_directory_path() / ("ictk-fxc-" + std::to_string(::getpid()));
  auto r = RunIctk("certify --adapter builtin:sample --histories 2 --quiet --out " +
                   d.string());
  EXPECT_EQ(r.exit_code, 0) << r.out;
  std::ifstream in(d / "report.jsonl");
  std::string header, first;
  std::getline(in, header);
  std::getline(in, first);
  EXPECT_EQ(first.find("\"id\":\"random/"), std::string::npos) << first;
  EXPECT_NE(first.find("\"type\":\"case\""), std::string::npos) << first;
  auto none = RunIctk(
      "certify --adapter builtin:sample --histories 2 --quiet --no-corpus "
      "--out " +
      d.string());
  EXPECT_EQ(none.exit_code, 0) << none.out;
  std::ifstream in2(d / "report.jsonl");
  std::getline(in2, header);
  std::getline(in2, first);
  EXPECT_NE(first.find("\"id\":\"random/s1/0\""), std::string::npos) << first;
  fs::remove_all(d);
}

}  // namespace
}  // namespace ictk
