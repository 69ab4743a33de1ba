/// \file
/// `ictk replay`: the committed corpus passes on the builtins, a mutant fails it with the
/// failure printed and exit 1, expectation files turn that into xfail (and an xfail that
/// passes, an entry matching nothing, into exit 1), and a fixture with an unknown key is
/// refused with exit 2.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <regex>

#include "tests/cli/cli_support_internal.h"

namespace ictk {
namespace {

namespace fs = std::filesystem;
using ::ictk::testing::RunIctk;

/// The closing line "N passed, M failed[, K skipped, X xfailed]".
std::smatch Closing(const std::string& out) {
  static const std::regex re(
      R"((\d+) passed, (\d+) failed(, (\d+) skipped)?(, (\d+) xfailed)?\n$)");
  std::smatch m;
  std::regex_search(out, m, re);
  return m;
}

fs::path TempDir(const std::string& name) {
  fs::path d =
      fs::temp_directory_path() / ("ictk-replay-" + std::to_string(::getpid()) + name);
  fs::remove_all(d);
  fs::create_directories(d);
  return d;
}

TEST(ReplayCli, CorpusPassesOnTheBuiltins) {
  for (const char* adapter : {"builtin:reference", "builtin:sample"}) {
    auto r = RunIctk(std::string("replay --adapter ") + adapter + " fixtures/corpus");
    EXPECT_EQ(r.exit_code, 0) << r.out;
    const auto m = Closing(r.out);
    ASSERT_FALSE(m.empty()) << r.out;
    EXPECT_GT(std::stoi(m[1]), 100);
    EXPECT_EQ(m[2], "0");
  }
}

TEST(ReplayCli, AMutantFailsWithTheFailurePrinted) {
  // Mutant keys-only-among-added breaks enf.keys-against-remaining.
  auto r = RunIctk(
      "replay --adapter 'builtin:sample?mutant=keys-only-among-added' "
      "fixtures/corpus");
  EXPECT_EQ(r.exit_code, 1) << r.out;
  EXPECT_NE(r.out.find("enf.keys-against-remaining"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("replay: ictk replay --adapter"), std::string::npos) << r.out;
  const auto m = Closing(r.out);
  ASSERT_FALSE(m.empty()) << r.out;
  EXPECT_NE(m[2], "0");
}

TEST(ReplayCli, ExpectationFilesAreStrict) {
  const fs::path d = TempDir("expect");
  const std::string adapter = "--adapter 'builtin:sample?mutant=keys-only-among-added'";
  // First the failing fixtures, then an expectation file marking them xfail.
  auto first = RunIctk("replay " + adapter + " --out " + (d / "run").string() +
                       " fixtures/corpus");
  ASSERT_EQ(first.exit_code, 1);
  auto update = RunIctk("expectations update --report " + (d / "run").string() +
                        " --out " + (d / "impl.expect").string());
  ASSERT_EQ(update.exit_code, 0) << update.out;
  auto xfailed = RunIctk("replay " + adapter + " --expect " +
                         (d / "impl.expect").string() + " fixtures/corpus");
  EXPECT_EQ(xfailed.exit_code, 0) << xfailed.out;
  const auto m = Closing(xfailed.out);
  ASSERT_FALSE(m.empty()) << xfailed.out;
  EXPECT_EQ(m[2], "0");
  EXPECT_NE(m[6], "");
  // --strict does not honour them.
  auto strict = RunIctk("replay " + adapter + " --strict --expect " +
                        (d / "impl.expect").string() + " fixtures/corpus");
  EXPECT_EQ(strict.exit_code, 1) << strict.out;
  // The same file against the sample: every xfail passes, so the run fails (xpass).
  auto xpass = RunIctk("replay --adapter builtin:sample --expect " +
                       (d / "impl.expect").string() + " fixtures/corpus");
  EXPECT_EQ(xpass.exit_code, 1) << xpass.out;
  EXPECT_NE(xpass.out.find("xpass"), std::string::npos) << xpass.out;
  // An entry that matches nothing fails the run.
  std::ofstream(d / "stale.expect") << "no.such/fixture-00000000 xfail  # gone\n";
  auto stale = RunIctk("replay --adapter builtin:sample --expect " +
                       (d / "stale.expect").string() + " fixtures/corpus");
  EXPECT_EQ(stale.exit_code, 1) << stale.out;
  EXPECT_NE(stale.out.find("matches no case"), std::string::npos) << stale.out;
  // A glob over 20 fixtures without max= fails the run.
  std::ofstream(d / "glob.expect") << "* skip  # everything\n";
  auto glob = RunIctk("replay --adapter builtin:sample --expect " +
                      (d / "glob.expect").string() + " fixtures/corpus");
  EXPECT_EQ(glob.exit_code, 1) << glob.out;
  EXPECT_NE(glob.out.find("needs max=N"), std::string::npos) << glob.out;
  fs::remove_all(d);
}

TEST(ReplayCli, WritesTheReportFiles) {
  const fs::path d = TempDir("reports");
  auto r = RunIctk("replay --adapter builtin:reference --out " + d.string() +
                   " fixtures/corpus/sem.unique");
  EXPECT_EQ(r.exit_code, 0) << r.out;
  for (const char* f :
       {"report.jsonl", "junit.xml", "summary.md", "report.html", "badge.json"})
    EXPECT_TRUE(fs::exists(d / f)) << f;
  fs::remove_all(d);
}

TEST(ReplayCli, RefusesAFixtureWithAnUnknownKey) {
  const fs::path d = TempDir("unknown");
  fs::path src;
  for (const auto& e : fs::recursive_directory_iterator(std::string(ICTK_SOURCE_DIR) +
                                                        "/fixtures/corpus"))
    if (e.path().extension() == ".json" && e.path().filename() != "INDEX.json") {
      src = e.path();
      break;
    }
  std::ifstream in(src);
  std::string text((std::istreambuf_iterator<char>(in)),
                   std::istreambuf_iterator<char>());
  const size_t at = text.find("\"expect\": {");
  ASSERT_NE(at, std::string::npos);
  text.insert(at + 11, "\"live-rows-later\": 1, ");
  std::ofstream(d / "bad.json") << text;
  auto r = RunIctk("replay --adapter builtin:reference " + (d / "bad.json").string());
  EXPECT_EQ(r.exit_code, 2) << r.out;
  EXPECT_NE(r.out.find("bad.json: /steps/0/expect: unknown key \"live-rows-later\""),
            std::string::npos)
      << r.out;
  auto missing = RunIctk("replay --adapter builtin:reference no/such/dir");
  EXPECT_EQ(missing.exit_code, 2);
  fs::remove_all(d);
}

TEST(ReplayCli, TwoFixturesOnOneTableNameDoNotMix) {
  const fs::path d = TempDir("twice");
  fs::path src;
  for (const auto& e : fs::directory_iterator(std::string(ICTK_SOURCE_DIR) +
                                              "/fixtures/corpus/sem.unique"))
    if (src.empty()) src = e.path();
  fs::create_directories(d / "a");
  fs::create_directories(d / "b");
  fs::copy_file(src, d / "a" / src.filename());
  fs::copy_file(src, d / "b" / src.filename());
  auto r = RunIctk("replay --adapter builtin:sample " + d.string());
  EXPECT_EQ(r.exit_code, 0) << r.out;
  EXPECT_NE(r.out.find("2 passed, 0 failed"), std::string::npos) << r.out;
  fs::remove_all(d);
}

TEST(ReplayCli, ReplaysWhatCertifyPrints) {
  const fs::path d = TempDir("certify");
  auto c = RunIctk(
      "certify --adapter 'builtin:sample?mutant=reuse-removed-id' --histories 40 "
      "--no-corpus --quiet --out " +
      d.string());
  ASSERT_EQ(c.exit_code, 1) << c.out;
  std::smatch m;
  ASSERT_TRUE(std::regex_search(c.out, m, std::regex("replay: ictk (replay [^\n]+)")))
      << c.out;
  auto r = RunIctk(m[1].str());
  EXPECT_EQ(r.exit_code, 1) << r.out;
  EXPECT_NE(r.out.find("0 passed, 1 failed"), std::string::npos) << r.out;
  fs::remove_all(d);
}

}  // namespace
}  // namespace ictk
