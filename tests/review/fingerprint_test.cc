// The behaviour fingerprint (review/fingerprint.h) and its committed golden: a change of
// what the model allows on any short history over the tiny domain shows here.
#include "review/fingerprint.h"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>

#include "codec/json_text.h"

namespace ictk {
namespace {

const char* const kGolden = ICTK_TEST_DATA_DIR "/review/fingerprint.golden.json";

TEST(Fingerprint, MatchesTheCommittedGolden) {
  std::ifstream in(kGolden, std::ios::binary);
  ASSERT_TRUE(in.good()) << kGolden << " is missing";
  std::ostringstream text;
  text << in.rdbuf();
  Result<nlohmann::json> golden = ParseJsonText(text.str(), kGolden);
  ASSERT_TRUE(golden.has_value()) << golden.error().message;
  const int steps = golden->value("steps", kDefaultFingerprintSteps);
  const nlohmann::json now = FingerprintToJson(ComputeFingerprint(steps));
  const std::vector<std::string> diff = DiffFingerprintJson(*golden, now);
  std::string lines;
  for (const std::string& d : diff) lines += "  " + d + "\n";
  EXPECT_TRUE(diff.empty())
      << "The model's behaviour moved (tests/data/review/fingerprint.golden.json):\n"
      << lines
      << "If the change is intended, update the golden in the same commit:\n"
         "  ictk fingerprint --write tests/data/review/fingerprint.golden.json";
}

TEST(Fingerprint, CountsAddUp) {
  const Fingerprint fp = ComputeFingerprint(2);
  int64_t by_length = 0, results = 0, by_op = 0;
  for (const auto& [n, count] : fp.by_length) by_length += count;
  for (const auto& [r, count] : fp.results) results += count;
  for (const auto& [op, counts] : fp.by_op)
    for (const auto& [r, count] : counts) by_op += count;
  EXPECT_EQ(by_length, fp.histories);
  EXPECT_EQ(results, fp.histories);
  EXPECT_EQ(by_op, fp.histories);
  EXPECT_EQ(fp.by_length.at(0), 2);  // create-table as v4 and as v3
  EXPECT_EQ(fp.by_op.at("create-table").at("ok"), 2);
  EXPECT_GT(fp.by_length.at(2), fp.by_length.at(1));
  EXPECT_FALSE(fp.rejected.empty());
  EXPECT_FALSE(fp.statuses.empty());
  EXPECT_EQ(fp.digest.size(), 64u);
}

TEST(Fingerprint, DeterministicAndDeeperEnumerationsDiffer) {
  const nlohmann::json a = FingerprintToJson(ComputeFingerprint(1));
  EXPECT_EQ(a, FingerprintToJson(ComputeFingerprint(1)));
  const nlohmann::json b = FingerprintToJson(ComputeFingerprint(2));
  const std::vector<std::string> diff = DiffFingerprintJson(a, b);
  ASSERT_FALSE(diff.empty());
  bool digest = false;
  for (const std::string& d : diff) digest = digest || d.starts_with("digest: ");
  EXPECT_TRUE(digest);
}

TEST(Fingerprint, DiffNamesThePath) {
  nlohmann::json golden = FingerprintToJson(ComputeFingerprint(1));
  nlohmann::json now = golden;
  now["results"]["ok"] = now["results"].value("ok", 0) + 1;
  now["status-sets"]["pk {valid}"] = 3;
  const std::vector<std::string> diff = DiffFingerprintJson(golden, now);
  ASSERT_EQ(diff.size(), 2u);
  EXPECT_TRUE(diff[0].starts_with("results.ok: ")) << diff[0];
  EXPECT_EQ(diff[1], "status-sets.pk {valid}: (absent) -> 3");
}

}  // namespace
}  // namespace ictk
