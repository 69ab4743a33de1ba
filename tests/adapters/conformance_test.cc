/// \file
/// The conformance session of `ictk validate-adapter` (adapters/conformance.h): it passes
/// on builtin:reference (and the sample, when built in), and reports specific schema
/// errors, with their JSON pointers, on a deliberately broken adapter
/// (tests/adapters/hostile/broken_shapes.py).
#include "adapters/conformance.h"

#include <gtest/gtest.h>

#include "adapters/reference_adapter.h"
#include "codec/protocol.h"
#include "tests/adapters/adapter_test_support_internal.h"

#if __has_include("sample/sample_adapter.h")
#include "sample/sample_adapter.h"
#define ICTK_TEST_WITH_SAMPLE 1
#endif

namespace ictk {
namespace {

const ConformanceStep* FindStep(const ConformanceReport& r, const std::string& op,
                                StepVerdict verdict) {
  for (const auto& s : r.steps)
    if (s.op == op && s.verdict == verdict) return &s;
  return nullptr;
}

TEST(ValidateAdapter, ReferenceConforms) {
  SCOPED_TRACE("proto.answer");
  auto adapter = MakeReferenceAdapter();
  ConformanceReport report = RunConformanceSession(*adapter);
  EXPECT_TRUE(report.ok()) << FormatConformanceReport(report, /*verbose=*/true);
  // Every op was exercised, none skipped: the reference declares every capability.
  for (const std::string& op : AllOps()) {
    EXPECT_NE(FindStep(report, op, StepVerdict::kOk), nullptr) << op;
  }
  for (const auto& s : report.steps) EXPECT_NE(s.verdict, StepVerdict::kSkipped) << s.op;
  std::string text = FormatConformanceReport(report, false);
  EXPECT_NE(text.find("the adapter conforms"), std::string::npos) << text;
}

#ifdef ICTK_TEST_WITH_SAMPLE
TEST(ValidateAdapter, SampleConforms) {
  auto adapter = MakeSampleAdapter("");
  ASSERT_TRUE(adapter.has_value()) << adapter.error().message;
  ConformanceReport report = RunConformanceSession(**adapter);
  EXPECT_TRUE(report.ok()) << FormatConformanceReport(report, /*verbose=*/true);
}
#endif

TEST(ValidateAdapter, BrokenAdapterGetsSpecificSchemaErrors) {
  AdapterOptions o;
  o.timeout_ms = 5000;
  auto adapter = MakeAdapter(testing_support::HostileSpec("broken_shapes"), o, {});
  ASSERT_TRUE(adapter.has_value()) << adapter.error().message;
  ConformanceReport report = RunConformanceSession(**adapter);
  std::string text = FormatConformanceReport(report, true);
  EXPECT_FALSE(report.ok()) << text;
  const ConformanceStep* create = FindStep(report, "create-table", StepVerdict::kFail);
  ASSERT_NE(create, nullptr) << text;
  EXPECT_NE(create->detail.find("schema error at /metadata"), std::string::npos) << text;
  EXPECT_NE(create->detail.find("last-column-id"), std::string::npos) << text;
  // The rest of the session ran against a table whose metadata could not be read.
  EXPECT_EQ(report.steps.size() > 3, true) << text;
  EXPECT_NE(text.find("per op:"), std::string::npos);
}

TEST(ValidateAdapter, DeclaredButUnsupportedAndUnknownKindsFail) {
  // The same broken adapter, but with a readable create-table: load-table answers valid
  // metadata, so feed the session through a wrapper that fixes create-table's answer.
  class FixCreate final : public Adapter {
   public:
    explicit FixCreate(std::unique_ptr<Adapter> inner) : inner_(std::move(inner)) {}
    Result<nlohmann::json> Call(const nlohmann::json& request) override {
      nlohmann::json r = request;
      if (request.value("op", "") == "create-table") r["op"] = "load-table";
      auto answer = inner_->Call(r);
      return answer;
    }
    std::string Describe() const override { return "fixed"; }

   private:
    std::unique_ptr<Adapter> inner_;
  };
  AdapterOptions o;
  o.timeout_ms = 5000;
  auto inner = MakeAdapter(testing_support::HostileSpec("broken_shapes"), o, {});
  ASSERT_TRUE(inner.has_value());
  FixCreate adapter(std::move(*inner));
  ConformanceReport report = RunConformanceSession(adapter);
  std::string text = FormatConformanceReport(report, true);
  EXPECT_FALSE(report.ok());
  const ConformanceStep* add = FindStep(report, "add-constraint", StepVerdict::kFail);
  ASSERT_NE(add, nullptr) << text;
  EXPECT_NE(add->detail.find("capability `check` is declared"), std::string::npos)
      << text;
  const ConformanceStep* commit = FindStep(report, "commit", StepVerdict::kFail);
  ASSERT_NE(commit, nullptr) << text;
  EXPECT_NE(commit->detail.find("/error/kind"), std::string::npos) << text;
  EXPECT_NE(commit->detail.find("duplicate-key"), std::string::npos) << text;
  const ConformanceStep* scan = FindStep(report, "scan", StepVerdict::kFail);
  ASSERT_NE(scan, nullptr) << text;
  EXPECT_NE(scan->detail.find("/rows/0/values"), std::string::npos) << text;
  // Ops whose capability was not declared are `unsupported`, not failures.
  EXPECT_NE(FindStep(report, "define-function", StepVerdict::kSkipped), nullptr) << text;
}

TEST(ValidateAdapter, AFailedHandshakeStopsTheSession) {
  AdapterOptions o;
  o.timeout_ms = 2000;
  auto adapter = MakeAdapter(testing_support::HostileSpec("crash_at_hello"), o, {});
  ASSERT_TRUE(adapter.has_value());
  ConformanceReport report = RunConformanceSession(**adapter);
  EXPECT_FALSE(report.ok());
  ASSERT_EQ(report.steps.size(), 1u);
  EXPECT_EQ(report.steps[0].result, "crash");
}

}  // namespace
}  // namespace ictk
