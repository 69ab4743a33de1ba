/// \file
/// Profiles and declared format versions end to end (docs/protocol.md section 9,
/// docs/certify.md "Honest totals"): the example reader-only adapter
/// (examples/reader-adapter/) passes `validate-adapter` and `certify`; a false claim of
/// format version 4 fails; the sample behind a proxy that declares format versions 1-3
/// certifies as a v1-v3 writer; the verdict line names the profile and what it left
/// unexercised; failures are grouped by cause with one fixture per cause; and the small
/// CLI defects: `--resume` before a flag, the reproduce line's `--switch`, corpus fixture
/// paths, a run without a corpus.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "tests/cli/cli_support_internal.h"

namespace ictk {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;
using testing::ReadJsonl;
using testing::RunIctk;
using testing::ReadText;
using testing::TempDir;

const char* kReader = "'exec:python3 examples/reader-adapter/reader_adapter.py'";

std::string V3Writer() {
  return std::string("'exec:python3 tests/data/profiles/hello_proxy.py --format-versions "
                     "1,2,3 -- ") +
         ICTK_BIN_DIR + "/ictk-sample-adapter'";
}

TEST(ProfilesCli, TheExampleReaderPassesValidateAdapter) {
  const auto r = RunIctk(std::string("validate-adapter --adapter ") + kReader);
  EXPECT_EQ(r.exit_code, 0) << r.out;
  EXPECT_NE(r.out.find("profile: v1\u2013v3 reader"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("FAIL"), std::string::npos) << r.out;
  // The reader script, not the writer session: no create-table was sent.
  EXPECT_NE(r.out.find("re-serialize v3 metadata"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("v4 metadata (may be refused)"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("a v4 table"), std::string::npos) << r.out;
}

TEST(ProfilesCli, AFalseClaimOfFormatVersion4FailsValidateAdapter) {
  const auto r = RunIctk(
      "validate-adapter --adapter 'exec:python3 examples/reader-adapter/reader_adapter.py "
      "--declare 1,2,3,4'");
  EXPECT_EQ(r.exit_code, 1) << r.out;
  EXPECT_NE(r.out.find("a false claim of format version 4"), std::string::npos) << r.out;
}

TEST(ProfilesCli, AnHonestV1ToV3WriterPassesValidateAdapter) {
  const auto r = RunIctk("validate-adapter --adapter " + V3Writer());
  EXPECT_EQ(r.exit_code, 0) << r.out;
  EXPECT_NE(r.out.find("profile: v1\u2013v3 writer"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("a v3 table"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("format version 4 not declared"), std::string::npos) << r.out;
  // The later steps ran: commits and scans after the table.
  EXPECT_NE(r.out.find("append two rows"), std::string::npos) << r.out;
}

TEST(ProfilesCli, TheExampleReaderCertifiesWithHonestTotals) {
  TempDir dir("ictk-profiles");
  const auto r = RunIctk(std::string("certify --adapter ") + kReader +
                         " --histories 12 --max-steps 12 --no-corpus --quiet --out '" +
                         dir / "run" + "'");
  EXPECT_EQ(r.exit_code, 0) << r.out;
  EXPECT_NE(r.out.find("CONFORMANT (v1\u2013v3 reader profile, "), std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("corpus: none (--no-corpus)"), std::string::npos) << r.out;
  const std::vector<json> records = ReadJsonl(dir / "run/report.jsonl");
  ASSERT_FALSE(records.empty());
  EXPECT_EQ(records.front().value("profile", ""), "v1\u2013v3 reader");
  EXPECT_EQ(records.front().value("corpus-note", ""), "--no-corpus");
  const json& totals = records.back();
  ASSERT_EQ(totals.value("type", ""), "totals");
  // Only reader requests reached the adapter.
  std::set<std::string> ops;
  for (const auto& [op, n] : totals.at("ops").items()) ops.insert(op);
  EXPECT_EQ(ops, (std::set<std::string>{"parse-metadata", "read-statuses"}));
  EXPECT_GT(totals.value("profile-rules", 0), 0);
  // The verdict's scope is recorded: the header's declared capabilities, in words (a
  // reader declares no writer capability, so they are listed, joined by " + ").
  std::string declared;
  for (const std::string& c :
       records.front().value("capabilities", std::vector<std::string>{}))
    declared += (declared.empty() ? "" : " + ") + c;
  EXPECT_FALSE(declared.empty());
  EXPECT_EQ(totals.value("capability-scope", ""), declared);
  EXPECT_NE(r.out.find(totals.value("capability-scope", "") + ": "), std::string::npos)
      << r.out;
  const std::string summary = ReadText(dir / "run/summary.md");
  EXPECT_NE(summary.find("- profile: v1\u2013v3 reader"), std::string::npos) << summary;
  EXPECT_NE(summary.find("- corpus: none (--no-corpus)"), std::string::npos) << summary;
}

TEST(ProfilesCli, ADeclaredCapabilityWithoutRequestsIsNamedInTheVerdict) {
  TempDir dir("ictk-profiles");
  const auto r = RunIctk(std::string("certify --adapter ") + kReader +
                         " --histories 4 --max-steps 8 --no-corpus --quiet "
                         "--weights read-statuses=0 --out '" +
                         dir / "run" + "'");
  EXPECT_EQ(r.exit_code, 0) << r.out;
  EXPECT_NE(r.out.find("no request for declared capability reader"), std::string::npos)
      << r.out;
  EXPECT_NE(ReadText(dir / "run/summary.md")
                .find("declared capabilities that received no request: reader"),
            std::string::npos);
}

TEST(ProfilesCli, AV1ToV3WriterCertifiesWithoutV4Requests) {
  TempDir dir("ictk-profiles");
  const auto r = RunIctk("certify --adapter " + V3Writer() +
                         " --histories 10 --max-steps 10 --no-corpus --quiet --out '" +
                         dir / "run" + "'");
  EXPECT_EQ(r.exit_code, 0) << r.out;
  EXPECT_NE(r.out.find("v1\u2013v3 writer"), std::string::npos) << r.out;
  for (const json& rec : ReadJsonl(dir / "run/report.jsonl")) {
    if (rec.value("type", "") != "totals") continue;
    EXPECT_FALSE(rec.at("ops").contains("add-constraint")) << rec.at("ops").dump();
    EXPECT_TRUE(rec.at("ops").contains("create-table"));
  }
}

TEST(ProfilesCli, FailuresAreGroupedByCauseWithOneFixturePerCause) {
  TempDir dir("ictk-profiles");
  const auto r = RunIctk(
      "certify --adapter 'builtin:sample?mutant=status-list-missing-constraint' --histories 30 "
      "--no-shrink --no-corpus --quiet --out '" +
      dir / "run" + "'");
  ASSERT_EQ(r.exit_code, 1) << r.out;
  size_t failing = 0, heads = 0;
  std::set<std::string> fixtures_named;
  for (const json& rec : ReadJsonl(dir / "run/report.jsonl")) {
    if (rec.value("type", "") != "case" || !rec.at("failure").is_object()) continue;
    ++failing;
    const json& f = rec.at("failure");
    if (f.value("same-cause-as", "").empty()) ++heads;
    fixtures_named.insert(f.value("fixture", ""));
  }
  size_t files = 0;
  for (const auto& e : fs::recursive_directory_iterator(dir / "run/failures"))
    if (e.is_regular_file()) ++files;
  EXPECT_GT(failing, 1u);
  EXPECT_EQ(files, heads) << "one fixture per cause";
  EXPECT_EQ(fixtures_named.size(), heads);
  EXPECT_NE(r.out.find("failures: " + std::to_string(failing) + " case(s), " +
                       std::to_string(heads) + " cause(s)"),
            std::string::npos)
      << r.out;
  EXPECT_NE(ReadText(dir / "run/summary.md").find("## Failures by cause"),
            std::string::npos);
  EXPECT_NE(ReadText(dir / "run/report.html").find("Failures by cause"),
            std::string::npos);
  EXPECT_NE(ReadText(dir / "run/junit.xml").find("[cause 1 of "), std::string::npos);
}

TEST(ProfilesCli, ResumeBeforeAFlagDoesNotTakeItAsTheFolder) {
  TempDir dir("ictk-profiles");
  const std::string out = dir / "run";
  const auto r = RunIctk("certify --adapter builtin:sample --histories 2 --no-corpus --out '" +
                         out + "' --resume --quiet");
  EXPECT_EQ(r.exit_code, 0) << r.out;
  EXPECT_TRUE(fs::exists(out + "/report.jsonl")) << r.out;
  EXPECT_FALSE(fs::exists(fs::path(ICTK_SOURCE_DIR) / "--quiet"));
  // Quiet was honoured, not eaten: no distribution line.
  EXPECT_EQ(r.out.find("distribution:"), std::string::npos) << r.out;
}

TEST(ProfilesCli, TheReproduceLineKeepsTheSwitches) {
  TempDir dir("ictk-profiles");
  const auto r = RunIctk(
      "certify --adapter builtin:sample --histories 2 --no-corpus --quiet "
      "--switch unenforced-may-reject=true --out '" +
      dir / "run" + "'");
  EXPECT_NE(r.exit_code, 2) << r.out;
  const size_t at = r.out.find("reproduce the run:");
  ASSERT_NE(at, std::string::npos) << r.out;
  const std::string line = r.out.substr(at, r.out.find('\n', at) - at);
  EXPECT_NE(line.find("--switch unenforced-may-reject=true"), std::string::npos) << line;
}

TEST(ProfilesCli, CorpusFixturePathsPrintWithoutTheRunFolder) {
  TempDir dir("ictk-profiles");
  const std::string out = dir / "run";
  const auto r = RunIctk(
      "certify --adapter 'builtin:sample?mutant=reuse-removed-id' --histories 0 "
      "--corpus '" + std::string(ICTK_SOURCE_DIR) + "/fixtures/corpus' --out '" + out +
      "'");
  ASSERT_EQ(r.exit_code, 1) << r.out;
  EXPECT_EQ(r.out.find(out + "//"), std::string::npos) << r.out;
  // A corpus failure's fixture is the copy in the run folder (docs/certify.md).
  EXPECT_NE(r.out.find("fixture: " + out + "/failures/"), std::string::npos) << r.out;
}

TEST(ProfilesCli, TheCorpusComesFromIctkCorpus) {
  TempDir dir("ictk-profiles");
  const auto r = RunIctk("certify --adapter builtin:sample --histories 0 --out '" +
                         dir / "run" + "' < /dev/null; ICTK_CORPUS=/nonexistent '" +
                         ICTK_BIN_DIR +
                         "/ictk' certify --adapter builtin:sample --histories 1 --out '" +
                         dir / "none" + "'");
  EXPECT_EQ(r.exit_code, 0) << r.out;
  // From a build tree the checkout's corpus is found.
  const std::vector<json> found = ReadJsonl(dir / "run/report.jsonl");
  ASSERT_FALSE(found.empty());
  EXPECT_NE(found.front().value("corpus", "").find("fixtures/corpus"), std::string::npos);
  // ICTK_CORPUS names a folder without a corpus: the run says it has none.
  const std::vector<json> none = ReadJsonl(dir / "none/report.jsonl");
  ASSERT_FALSE(none.empty());
  EXPECT_EQ(none.front().value("corpus", "x"), "");
  EXPECT_NE(none.front().value("corpus-note", "").find("ICTK_CORPUS"), std::string::npos);
  EXPECT_NE(r.out.find("no fixture corpus"), std::string::npos) << r.out;
}

}  // namespace
}  // namespace ictk
