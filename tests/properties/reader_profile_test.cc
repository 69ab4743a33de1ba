// Readers certified on what v4 writers write: the sample's reader profiles
// (sample/reader_profile_internal.h) pass random histories of parse-metadata and
// read-statuses on model-written metadata; the v4 reader that drops constraints fails
// under def.reader-preserves with the pointer of what went missing; a reader that keeps
// v4-only keys in v3 metadata fails under v3-constraint-fields=reject; and an answer
// whose metadata breaks an Iceberg rule fails under that ice.* rule, not as a protocol
// error.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <map>
#include <memory>
#include <set>
#include <string>

#include "codec/json_text.h"
#include "properties/runner.h"
#include "reports/digest.h"
#include "sample/sample_adapter.h"

namespace ictk {
namespace {

std::unique_ptr<AdapterSession> OpenSample(const std::string& query) {
  Result<std::unique_ptr<Adapter>> a = MakeSampleAdapter(query);
  EXPECT_TRUE(a.has_value()) << (a ? "" : a.error().message);
  auto session = std::make_unique<AdapterSession>(std::move(*a));
  Result<HelloInfo> hello = session->Handshake();
  EXPECT_TRUE(hello.has_value()) << (hello ? "" : hello.error().message);
  return session;
}

CertifyOptions Options(Switches switches = {}) {
  CertifyOptions o;
  o.seed = 3;
  o.gen.max_steps = 12;
  o.adapter_spec = "builtin:test";
  o.shrink_budget = 60;
  o.switches = switches;
  o.model_version = ModelVersion(o.switches);
  return o;
}

std::string Explain(const CaseRecord& r) {
  if (!r.failure) return std::string(ToString(r.verdict)) + ": " + r.reason;
  std::string out = fmt::format("{} {} at step {}: {}\n  allowed: {}\n  answered: {}\n",
                                r.id, ToString(r.verdict), r.failure->step,
                                r.failure->rule, r.failure->allowed, r.failure->answered);
  for (const std::string& x : r.failure->findings) out += "  finding: " + x + "\n";
  for (const StepRow& s : r.failure->steps)
    out += fmt::format("  {}{} {}\n  -> {}\n", s.index, s.failed ? "*" : " ",
                       DumpJson(s.request), DumpJson(s.response));
  return out;
}

struct Tally {
  int passed = 0;
  int failed = 0;
  std::set<std::string> exercised;
  std::set<std::string> failed_rules;
  std::map<std::string, int64_t> ops;
  std::string first_failure;
};

Tally Certify(const std::string& query, int histories, Switches switches = {}) {
  auto session = OpenSample(query);
  const CertifyOptions options = Options(switches);
  Tally run;
  for (int64_t i = 0; i < histories; ++i) {
    const CaseResult r = CertifyCase(*session, i, options);
    if (IsConformant(r.record.verdict)) {
      ++run.passed;
    } else {
      ++run.failed;
      if (run.first_failure.empty()) run.first_failure = Explain(r.record);
      for (const std::string& f : r.record.failed_rules) run.failed_rules.insert(f);
    }
    for (const auto& [rule, use] : r.record.rules) run.exercised.insert(rule);
    for (const auto& [op, n] : r.record.ops) run.ops[op] += n;
  }
  return run;
}

TEST(ReaderProfiles, TheHelloOfEachProfile) {
  auto v3 = OpenSample("profile=v3-reader");
  EXPECT_FALSE(v3->capabilities().writer);
  EXPECT_EQ(v3->capabilities().format_versions, (std::set<int32_t>{1, 2, 3}));
  EXPECT_TRUE(v3->capabilities().parse_metadata && v3->capabilities().reader);
  EXPECT_FALSE(v3->capabilities().check);
  auto v4 = OpenSample("profile=v4-reader");
  EXPECT_FALSE(v4->capabilities().writer);
  EXPECT_EQ(v4->capabilities().format_versions, (std::set<int32_t>{1, 2, 3, 4}));
  auto writer = OpenSample("");
  EXPECT_TRUE(writer->capabilities().writer);
  EXPECT_FALSE(MakeSampleAdapter("profile=v9-reader").has_value());
  EXPECT_TRUE(MakeSampleAdapter("profile=v4-reader&mutant=reader-drops-constraints"));
  // A reader does not write.
  CallResult r = v3->Call({{"op", "create-table"}, {"table", "t"}});
  ASSERT_TRUE(r.response);
  EXPECT_EQ((*r.response)["result"], "unsupported");
}

TEST(ReaderProfiles, TheV3ReaderCertifiesCleanUnderBothReadings) {
  const Tally either = Certify("profile=v3-reader", 40);
  EXPECT_EQ(either.failed, 0) << either.first_failure;
  EXPECT_GT(either.ops.at("parse-metadata"), 20);
  EXPECT_GT(either.ops.at("read-statuses"), 20);
  EXPECT_EQ(either.ops.count("create-table"), 0u);
  for (const char* rule : {"st.reader-lookup", "def.v4-only", "ice.current-schema-exists"})
    EXPECT_TRUE(either.exercised.count(rule)) << rule;
  Switches reject;
  reject.v3_constraint_fields = V3ConstraintFields::kReject;
  const Tally strict = Certify("profile=v3-reader", 40, reject);
  EXPECT_EQ(strict.failed, 0) << strict.first_failure;
}

TEST(ReaderProfiles, TheV4ReaderCertifiesCleanAndExercisesEveryReaderRule) {
  const Tally run = Certify("profile=v4-reader", 60);
  EXPECT_EQ(run.failed, 0) << run.first_failure;
  for (const char* rule :
       {"def.reader-preserves", "st.reader-lookup", "id.readers-tolerate-missing",
        "upg.readers-ignore-identifiers", "ice.format-version-known", "def.v4-only",
        "def.single-pk", "ice.metadata-required"})
    EXPECT_TRUE(run.exercised.count(rule)) << rule;
}

TEST(ReaderProfiles, KeepingV4OnlyKeysInV3MetadataFailsUnderReject) {
  Switches reject;
  reject.v3_constraint_fields = V3ConstraintFields::kReject;
  const Tally run = Certify("profile=v4-reader", 40, reject);
  EXPECT_GT(run.failed, 0);
  EXPECT_TRUE(run.failed_rules.count("def.v4-only")) << run.first_failure;
}

TEST(ReaderProfiles, AReaderThatDropsConstraintsFailsUnderItsRule) {
  auto session = OpenSample("profile=v4-reader&mutant=reader-drops-constraints");
  const CertifyOptions options = Options();
  std::optional<CaseResult> kill;
  for (int64_t i = 0; i < 40 && !kill; ++i) {
    CaseResult r = CertifyCase(*session, i, options);
    if (!IsConformant(r.record.verdict)) kill = std::move(r);
  }
  ASSERT_TRUE(kill);
  EXPECT_EQ(kill->record.verdict, Verdict::kFail) << Explain(kill->record);
  ASSERT_TRUE(kill->record.failure);
  EXPECT_EQ(kill->record.failure->rule, "def.reader-preserves") << Explain(kill->record);
  const std::string findings = fmt::format("{}", fmt::join(kill->record.failure->findings, "\n"));
  EXPECT_NE(findings.find("/constraints"), std::string::npos) << findings;
  EXPECT_EQ(findings.find("proto.answer"), std::string::npos) << findings;
  // Minimized to one request.
  EXPECT_LE(kill->record.failure->steps.size(), 2u) << Explain(kill->record);
}

/// The sample, except that every metadata it answers carries a v1-style
/// `partition-spec` written as an object (iceberg-cpp's form), not "only fields".
class PartitionSpecAsObject : public Adapter {
 public:
  PartitionSpecAsObject() : inner_(std::move(*MakeSampleAdapter(""))) {}
  Result<nlohmann::json> Call(const nlohmann::json& request) override {
    Result<nlohmann::json> r = inner_->Call(request);
    if (r && r->contains("metadata"))
      (*r)["metadata"]["partition-spec"] = {{"spec-id", 0}, {"fields", nlohmann::json::array()}};
    return r;
  }
  std::string Describe() const override { return "partition-spec-as-object"; }

 private:
  std::unique_ptr<Adapter> inner_;
};

TEST(IceAttribution, MetadataBreakingAnIcebergRuleIsThatRulesFailure) {
  AdapterSession session(std::make_unique<PartitionSpecAsObject>());
  ASSERT_TRUE(session.Handshake());
  CertifyOptions options = Options();
  options.shrink = false;
  const CaseResult r = CertifyCase(session, 0, options);
  EXPECT_EQ(r.record.verdict, Verdict::kFail) << Explain(r.record);
  ASSERT_TRUE(r.record.failure);
  EXPECT_EQ(r.record.failure->rule, "ice.metadata-shape") << Explain(r.record);
  const std::string findings = fmt::format("{}", fmt::join(r.record.failure->findings, "\n"));
  EXPECT_NE(findings.find("/metadata/partition-spec"), std::string::npos) << findings;
}

}  // namespace
}  // namespace ictk
