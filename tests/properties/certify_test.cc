// The properties against real adapters: one abstract suite (TEST_P over adapter
// factories) that certifies random histories, instantiated for builtin:reference and
// builtin:sample; sample mutants are caught and the kill names the mutant's rule;
// shrinking minimizes; runs are deterministic in the seed.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <functional>
#include <memory>
#include <string>
#include <thread>

#include "adapters/reference_adapter.h"
#include "codec/json_text.h"
#include "model/judge/rule_catalogue.h"
#include "fixtures/fixture_file.h"
#include "model/rules/switches.h"
#include "fixtures/replay.h"
#include "properties/runner.h"
#include "tests/properties/session_test_util_internal.h"
#include "reports/digest.h"
#include "sample/sample_adapter.h"

namespace ictk {
namespace {

using testing_sessions::Factory;

struct AdapterParam {
  std::string name;
  Factory make;
  int histories;
};

using testing_sessions::Open;
using testing_sessions::Sample;

CertifyOptions Options(uint64_t seed, int max_steps = 15) {
  return testing_sessions::CaseOptions(seed, max_steps, /*shrink_budget=*/150);
}

std::string Explain(const CaseRecord& r) {
  if (!r.failure) return std::string(ToString(r.verdict)) + ": " + r.reason;
  const FailureDetail& f = *r.failure;
  std::string out =
      fmt::format("{} {} at step {}: {}\n  allowed: {}\n  answered: {}\n", r.id,
                  ToString(r.verdict), f.step, f.rule, f.allowed, f.answered);
  for (const std::string& x : f.findings) out += "  finding: " + x + "\n";
  for (const StepRow& s : f.steps)
    out += fmt::format("  {}{} {} -> {}\n", s.index, s.failed ? "*" : " ",
                       DumpJson(s.request), s.answered);
  return out;
}

class CertifyProperties : public ::testing::TestWithParam<AdapterParam> {};

// Every random history passes against a correct implementation: each answer is in the
// model's allowed set (st.sound, enf.*, id.*, sch.*, ...), rejections change nothing
// (proto.answer) and every returned metadata keeps the invariants.
TEST_P(CertifyProperties, RandomHistoriesPass) {
  auto session = Open(GetParam().make);
  const CertifyOptions options = Options(7);
  int64_t steps = 0;
  for (int64_t i = 0; i < GetParam().histories; ++i) {
    const CaseResult r = CertifyCase(*session, i, options);
    steps += r.record.steps;
    ASSERT_EQ(r.record.verdict, Verdict::kPass) << Explain(r.record);
  }
  EXPECT_GT(steps, GetParam().histories * 3);
}

INSTANTIATE_TEST_SUITE_P(
    Adapters, CertifyProperties,
    ::testing::Values(AdapterParam{"reference", [] { return MakeReferenceAdapter(); },
                                   150},
                      AdapterParam{"sample", [] { return Sample(""); }, 150}),
    [](const ::testing::TestParamInfo<AdapterParam>& info) { return info.param.name; });

/// Certifies `mutant` until a case fails (at most `budget` cases); with `rule`, until a
/// case fails naming that rule (a mutant's bug may first show through another rule, e.g.
/// a key check skipped for an unenforced key shows as a false `valid`: st.valid).
std::optional<CaseResult> FirstKill(const std::string& mutant, int budget,
                                    const std::string& rule = "") {
  auto session = Open([&] { return Sample("mutant=" + mutant); });
  const CertifyOptions options = Options(1, 20);
  for (int64_t i = 0; i < budget; ++i) {
    CaseResult r = CertifyCase(*session, i, options);
    if (IsConformant(r.record.verdict)) continue;
    const auto& named = r.record.failed_rules;
    if (rule.empty() || std::find(named.begin(), named.end(), rule) != named.end())
      return r;
  }
  return std::nullopt;
}

// A handful of sample mutants are killed within a small budget, and each kill names the
// mutant's rule (id.no-reuse, id.above-last, def.v4-only, key.no-float-double,
// def.single-pk, enf.not-enforced, sch.remove-referenced, upd.timestamp,
// upg.pk-from-identifiers, ice.v4-snapshot-timestamps).
TEST(MutationScore, MutantsAreKilledNamingTheirRule) {
  const std::pair<const char*, const char*> mutants[] = {
      {"reuse-removed-id", "id.no-reuse"},
      {"id-not-above-last", "id.above-last"},
      {"constraints-on-v3", "def.v4-only"},
      {"float-key-accepted", "key.no-float-double"},
      {"two-pks-accepted", "def.single-pk"},
      {"unenforced-rejects", "enf.not-enforced"},
      {"referenced-column-deletable", "sch.remove-referenced"},
      {"timestamp-not-updated", "upd.timestamp"},
      {"upgrade-pk-enforced", "upg.pk-from-identifiers"},
      {"snapshot-timestamp-not-increasing", "ice.v4-snapshot-timestamps"},
  };
  for (const auto& [mutant, rule] : mutants) {
    SCOPED_TRACE(mutant);
    std::optional<CaseResult> kill = FirstKill(mutant, 400, rule);
    ASSERT_TRUE(kill.has_value()) << mutant << " survived, or no kill named " << rule;
    const CaseRecord& r = kill->record;
    EXPECT_NE(std::find(r.failed_rules.begin(), r.failed_rules.end(), rule),
              r.failed_rules.end())
        << Explain(r);
  }
}

// Shrinking removes steps: the minimized history is no longer than the original, still
// fails by the same rule, and is written as a fixture whose hash is the SHA-256 of its
// canonical {requires, switches, steps} (FIXTURES.md).
TEST(Shrinking, MinimizesAndWritesAFixture) {
  std::optional<CaseResult> kill = FirstKill("reuse-removed-id", 60);
  ASSERT_TRUE(kill.has_value());
  const CaseRecord& r = kill->record;
  ASSERT_TRUE(r.failure.has_value());
  EXPECT_LE(r.failure->steps.size(), static_cast<size_t>(r.failure->original_steps));
  // Reusing removed ID 1 when last-constraint-id is 1 breaks id.no-reuse and
  // id.above-last.
  EXPECT_NE(std::find(r.failed_rules.begin(), r.failed_rules.end(), "id.no-reuse"),
            r.failed_rules.end())
      << Explain(r);
  EXPECT_LE(r.failure->steps.size(), 8u) << Explain(r);
  ASSERT_TRUE(kill->fixture.has_value());
  const nlohmann::json& f = kill->fixture->content;
  EXPECT_EQ(f.at("format"), "ictk-fixture");
  EXPECT_EQ(f.at("format-version"), 1);
  EXPECT_EQ(f.at("rules").at(0), r.failure->rule);
  EXPECT_EQ(f.at("id").get<std::string>().rfind(r.failure->rule + "/", 0), 0u);
  EXPECT_NE(DumpJson(f.at("rules")).find("id.no-reuse"), std::string::npos);
  const nlohmann::json hashed = {{"requires", f.at("requires")},
                                 {"switches", f.at("switches")},
                                 {"steps", f.at("steps")}};
  EXPECT_EQ(f.at("hash"), Sha256Hex(DumpJson(hashed)));
  EXPECT_EQ(f.at("steps").size(), r.failure->steps.size());
  for (const auto& step : f.at("steps")) {
    EXPECT_FALSE(step.at("request").contains("id"));
    EXPECT_TRUE(step.at("expect").contains("result"));
  }
  EXPECT_NE(r.failure->replay.find("ictk replay --adapter"), std::string::npos);
  EXPECT_NE(r.failure->reproduce.find("--case"), std::string::npos);
}

// Certify's failure fixtures record only the switches their expectations depend on
// (SwitchesThatMatter, as the corpus does): the fixture of a mutant names fewer switches
// than exist, still fails when replayed under another value of each switch it does not
// record (not skipped), and so keeps its ID when a switch is added. A history that was
// not minimized does not say "minimized from".
TEST(FailureFixtures, RecordOnlyTheSwitchesTheyDependOn) {
  for (const char* mutant : {"reuse-removed-id", "timestamp-not-updated"}) {
    SCOPED_TRACE(mutant);
    std::optional<CaseResult> kill = FirstKill(mutant, 200);
    ASSERT_TRUE(kill.has_value() && kill->fixture.has_value());
    const nlohmann::json& doc = kill->fixture->content;
    ASSERT_TRUE(doc.at("switches").is_object());
    EXPECT_LT(doc.at("switches").size(), AllSwitches().size()) << DumpJson(doc);
    Result<Fixture> fixture = DecodeFixture(doc, "failure");
    ASSERT_TRUE(fixture.has_value()) << fixture.error().message;
    int replayed = 0;
    for (const SwitchInfo& info : AllSwitches()) {
      if (doc.at("switches").contains(std::string(info.name))) continue;
      for (size_t v = 1; v < info.values.size(); ++v) {
        auto session = Open([&] { return Sample(std::string("mutant=") + mutant); });
        ReplayOptions options;
        ASSERT_EQ(SetSwitch(options.switches, info.name, info.values[v]), "");
        const CaseRecord r = ReplayFixture(*session, *fixture, options, 0);
        EXPECT_FALSE(IsConformant(r.verdict) || r.verdict == Verdict::kSkip)
            << info.name << "=" << info.values[v] << ": " << ToString(r.verdict) << " "
            << r.reason;
        ++replayed;
      }
    }
    EXPECT_GT(replayed, 0);
    const std::string description = doc.at("description").get<std::string>();
    EXPECT_EQ(description.find("minimized from") != std::string::npos,
              WasMinimized(*kill->record.failure))
        << description;
  }
  // Without shrinking nothing is minimized, and the fixture does not claim it was.
  auto session = Open([] { return Sample("mutant=reuse-removed-id"); });
  CertifyOptions options = Options(1, 20);
  options.shrink = false;
  for (int64_t i = 0; i < 200; ++i) {
    CaseResult r = CertifyCase(*session, i, options);
    if (IsConformant(r.record.verdict)) continue;
    ASSERT_TRUE(r.fixture.has_value() && r.record.failure.has_value());
    EXPECT_FALSE(WasMinimized(*r.record.failure));
    const std::string description = r.fixture->content.at("description");
    EXPECT_EQ(description.find("minimized from"), std::string::npos) << description;
    EXPECT_NE(description.find("not minimized"), std::string::npos) << description;
    break;
  }
}

// The same seed gives the same histories and the same verdicts (apart from timing).
TEST(Determinism, SameSeedSameRecords) {
  auto strip = [](nlohmann::json j) {
    j.erase("duration-ms");
    return j;
  };
  auto a = Open([] { return Sample("mutant=keys-before-removals"); });
  auto b = Open([] { return Sample("mutant=keys-before-removals"); });
  const CertifyOptions options = Options(3);
  for (int64_t i = 0; i < 12; ++i) {
    const CaseResult x = CertifyCase(*a, i, options);
    const CaseResult y = CertifyCase(*b, i, options);
    EXPECT_EQ(DumpJson(strip(ToJson(x.record))), DumpJson(strip(ToJson(y.record)))) << i;
  }
}

// An implementation that declares fewer capabilities is only sent what it declared, and
// the report says which rules that leaves untested.
TEST(Capabilities, RulesLeftUntestedNameTheMissingCapability) {
  RunHeader header;
  header.capabilities = {"check", "unique"};
  std::vector<CaseRecord> none;
  const Totals t = ComputeTotals(header, none, 0);
  EXPECT_EQ(t.untested_because.at("upg.pk-from-identifiers"), "upgrade");
  EXPECT_EQ(t.untested_because.at("enf.retry-keys-new-parent"), "concurrent-commits");
}

// The same records whichever adapter session and thread runs a case (certify --jobs):
// each case derives its table, clock and function names from the seed and its index.
TEST(Determinism, ParallelSessionsGiveTheSameRecords) {
  auto strip = [](nlohmann::json j) {
    j.erase("duration-ms");
    return DumpJson(j);
  };
  const CertifyOptions options = Options(5);
  auto one = Open([] { return Sample("mutant=keys-before-removals"); });
  std::vector<std::string> sequential;
  for (int64_t i = 0; i < 16; ++i)
    sequential.push_back(strip(ToJson(CertifyCase(*one, i, options).record)));
  std::vector<std::string> parallel(16);
  std::vector<std::thread> threads;
  for (int t = 0; t < 2; ++t)
    threads.emplace_back([&, t] {
      auto session = Open([] { return Sample("mutant=keys-before-removals"); });
      for (int64_t i = t; i < 16; i += 2)
        parallel[i] = strip(ToJson(CertifyCase(*session, i, options).record));
    });
  for (std::thread& th : threads) th.join();
  EXPECT_EQ(sequential, parallel);
}

/// An adapter that behaves like the reference until call `fail_at`, then fails the way
/// `kind` says: a transport error ("crash: ...", "timeout: ..."), a line that is not a
/// response, or an `error` answer.
class FailingAdapter : public Adapter {
 public:
  FailingAdapter(int fail_at, std::string kind)
      : inner_(MakeReferenceAdapter()), fail_at_(fail_at), kind_(std::move(kind)) {}
  Result<nlohmann::json> Call(const nlohmann::json& request) override {
    if (++calls_ < fail_at_ || request.value("op", "") == "hello")
      return inner_->Call(request);
    if (kind_ == "crash")
      return MakeError(ErrorKind::kAdapter, "crash: exited with status 139");
    if (kind_ == "timeout")
      return MakeError(ErrorKind::kAdapter, "timeout: no answer in 10 ms");
    if (kind_ == "garbage")
      return nlohmann::json{{"id", request.at("id")}, {"result", 7}};
    return nlohmann::json{
        {"id", request.at("id")}, {"result", "error"}, {"message", "boom"}};
  }
  std::string Describe() const override { return "failing"; }

 private:
  std::unique_ptr<Adapter> inner_;
  int fail_at_;
  std::string kind_;
  int calls_ = 0;
};

// Transport failures and `error` answers get their own verdicts (crash, timeout,
// protocol-error, error), never `pass`, and a timeout is not shrunk.
TEST(Verdicts, TransportFailuresAndErrorAnswers) {
  const std::pair<const char*, Verdict> cases[] = {{"crash", Verdict::kCrash},
                                                   {"timeout", Verdict::kTimeout},
                                                   {"garbage", Verdict::kProtocolError},
                                                   {"error", Verdict::kError}};
  for (const auto& [kind, verdict] : cases) {
    SCOPED_TRACE(kind);
    AdapterSession session(std::make_unique<FailingAdapter>(4, kind));
    ASSERT_TRUE(session.Handshake().has_value());
    CertifyOptions options = Options(2);
    options.shrink_budget = 5;
    const CaseResult r = CertifyCase(session, 0, options);
    EXPECT_EQ(r.record.verdict, verdict);
    EXPECT_FALSE(IsConformant(r.record.verdict));
    ASSERT_TRUE(r.record.failure.has_value());
    if (verdict == Verdict::kTimeout) EXPECT_EQ(r.record.failure->shrink_runs, 0);
    // The kind is said once: "crash: exited with status 139", not "crash: crash: ...".
    const std::string kind(ToString(verdict));
    EXPECT_EQ(r.record.reason.find(kind + ": " + kind + ":"), std::string::npos)
        << r.record.reason;
  }
}

}  // namespace
}  // namespace ictk
