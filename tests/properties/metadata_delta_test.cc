// Answers that carry only what changed in a table's metadata (docs/protocol.md section
// 7): offered, the reference and the sample answer deltas, and certification gives the
// same records as with whole answers — passing and failing cases, shrinking and failure
// fixtures included; a delta that cannot be applied, or that nobody offered, is a
// protocol error naming what is wrong.
#include <gtest/gtest.h>

#include <functional>
#include <memory>
#include <string>

#include "adapters/reference_adapter.h"
#include "codec/json_text.h"
#include "fixtures/fixture_file.h"
#include "properties/runner.h"
#include "tests/properties/session_test_util_internal.h"
#include "reports/digest.h"
#include "sample/sample_adapter.h"

namespace ictk {
namespace {

using nlohmann::json;
using testing_sessions::Factory;

using testing_sessions::Open;
using testing_sessions::Sample;

CertifyOptions Options(uint64_t seed, int max_steps) {
  return testing_sessions::CaseOptions(seed, max_steps, /*shrink_budget=*/60);
}

using testing_sessions::Comparable;

struct Pair {
  std::string name;
  Factory make;
};

class MetadataDeltaCertify : public ::testing::TestWithParam<Pair> {};

// The same records, fixtures and verdicts with deltas offered as without, and the
// deltas were really used.
TEST_P(MetadataDeltaCertify, SameRecordsAsWholeAnswers) {
  auto whole = Open(GetParam().make, false);
  auto delta = Open(GetParam().make, true);
  EXPECT_FALSE(whole->metadata_delta());
  ASSERT_TRUE(delta->metadata_delta()) << GetParam().name << " did not declare deltas";
  const CertifyOptions options = Options(11, 40);
  int failing = 0;
  for (int64_t i = 0; i < 30; ++i) {
    const CaseResult a = CertifyCase(*whole, i, options);
    const CaseResult b = CertifyCase(*delta, i, options);
    EXPECT_EQ(DumpJson(Comparable(ToJson(a.record))), DumpJson(Comparable(ToJson(b.record))))
        << GetParam().name << " case " << i;
    ASSERT_EQ(a.fixture.has_value(), b.fixture.has_value()) << i;
    if (a.fixture) {
      ++failing;
      EXPECT_EQ(DumpJson(a.fixture->content), DumpJson(b.fixture->content)) << i;
    }
  }
  EXPECT_GT(delta->delta_answers(), 100);
  EXPECT_EQ(whole->delta_answers(), 0);
  if (GetParam().name.find("mutant") != std::string::npos)
    EXPECT_GT(failing, 0) << "the mutant was never caught: the failing path went untested";
}

INSTANTIATE_TEST_SUITE_P(
    Adapters, MetadataDeltaCertify,
    ::testing::Values(Pair{"reference", [] { return MakeReferenceAdapter(); }},
                      Pair{"sample", [] { return Sample(""); }},
                      Pair{"sample_divergent", [] { return Sample("style=divergent"); }},
                      Pair{"sample_mutant", [] { return Sample("mutant=keys-before-removals"); }}),
    [](const ::testing::TestParamInfo<Pair>& info) { return info.param.name; });

/// The reference adapter, its `metadata-delta` answers rewritten by `rewrite` from call
/// `from` on.
class RewrittenDeltas : public Adapter {
 public:
  RewrittenDeltas(int from, std::function<void(json&)> rewrite, bool declare = true)
      : inner_(MakeReferenceAdapter()), from_(from), rewrite_(std::move(rewrite)),
        declare_(declare) {}
  Result<json> Call(const json& request) override {
    json sent = request;
    // An adapter that sends deltas nobody offered.
    if (!declare_ && sent.value("op", "") == "hello") sent["metadata-delta"] = true;
    Result<json> r = inner_->Call(sent);
    if (r && ++calls_ >= from_ && r->contains("metadata-delta") &&
        (*r)["metadata-delta"].is_object())
      rewrite_(*r);
    return r;
  }
  std::string Describe() const override { return "rewritten-deltas"; }

 private:
  std::unique_ptr<Adapter> inner_;
  int from_;
  std::function<void(json&)> rewrite_;
  bool declare_;
  int calls_ = 0;
};

CaseRecord FirstNonPass(AdapterSession& session) {
  CertifyOptions options = Options(4, 20);
  options.shrink = false;
  for (int64_t i = 0; i < 10; ++i) {
    CaseResult r = CertifyCase(session, i, options);
    if (r.record.verdict != Verdict::kPass) return r.record;
  }
  return {};
}

void ExpectProtocolError(std::function<void(json&)> rewrite, const std::string& words,
                         bool declare = true) {
  AdapterSession session(std::make_unique<RewrittenDeltas>(4, std::move(rewrite), declare));
  ASSERT_TRUE(session.Handshake(declare).has_value());
  const CaseRecord r = FirstNonPass(session);
  EXPECT_EQ(r.verdict, Verdict::kProtocolError) << ToString(r.verdict) << ": " << r.reason;
  EXPECT_NE(r.reason.find(words), std::string::npos) << r.reason;
}

TEST(MetadataDeltaErrors, ABaseThatIsNotTheLatestAnswerOnTheTable) {
  ExpectProtocolError([](json& r) { r["metadata-delta"]["base"] = 1; },
                      "is not request");
}

TEST(MetadataDeltaErrors, AKeepBeyondTheBaseList) {
  ExpectProtocolError(
      [](json& r) {
        r["metadata-delta"]["splice"]["snapshots"] = {{"keep", 999}, {"add", json::array()}};
      },
      "/metadata-delta/splice/snapshots/keep");
}

TEST(MetadataDeltaErrors, BothMetadataAndADelta) {
  ExpectProtocolError([](json& r) { r["metadata"] = json::object(); },
                      "both metadata and metadata-delta");
}

TEST(MetadataDeltaErrors, ADeltaNobodyOffered) {
  ExpectProtocolError([](json&) {}, "did not offer", /*declare=*/false);
}

// A delta whose content is wrong but well formed (it sets last-constraint-id back to 0
// while constraints exist) is judged as the metadata it stands for: a failure of the rule
// it breaks, reported with the rebuilt metadata in place of each delta.
TEST(MetadataDeltaErrors, AWrongButWellFormedDeltaIsJudgedByWhatItStandsFor) {
  AdapterSession session(std::make_unique<RewrittenDeltas>(1, [](json& r) {
    r["metadata-delta"]["set"]["last-constraint-id"] = 0;
  }));
  ASSERT_TRUE(session.Handshake(true).has_value());
  const CaseRecord r = FirstNonPass(session);
  ASSERT_EQ(r.verdict, Verdict::kFail) << ToString(r.verdict) << ": " << r.reason;
  ASSERT_TRUE(r.failure.has_value());
  // Every ok answer of the report carries whole metadata, none a delta (whose base would
  // name a request of this session).
  int whole = 0;
  for (const StepRow& s : r.failure->steps) {
    if (!s.response.is_object()) continue;
    EXPECT_FALSE(s.response.contains("metadata-delta")) << s.response;
    if (s.response.contains("metadata")) ++whole;
  }
  EXPECT_GT(whole, 1) << "the report's answers do not carry the rebuilt metadata";
}

}  // namespace
}  // namespace ictk
