// The streamed report (reports/stream.h): a run that keeps only its non-conformant cases
// renders every file byte for byte as the whole report does — junit.xml with every case in
// order (passing, skipped, failing for several causes, a resumed and a corpus case), and
// summary.md, report.html and badge.json from the compact report — and TotalsBuilder
// equals ComputeTotals.
#include "reports/stream.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "codec/json_text.h"
#include "model/judge/rule_catalogue.h"
#include "model/rules/switches.h"
#include "reports/digest.h"
#include "reports/render.h"
#include "tests/reports/report_test_util_internal.h"

namespace ictk {
namespace {

CaseRecord Failing(int i, Verdict v, const std::string& rule, const std::string& answered) {
  CaseRecord c;
  c.id = "random/s7/" + std::to_string(i);
  c.index = i;
  c.verdict = v;
  c.steps = 3;
  c.duration_ms = 1.5 * i;
  c.failed_rules = {rule};
  c.rules[rule] = {1, 1};
  c.ops["commit"] = 2;
  FailureDetail f = testing_util::TwoStepFailure(rule, "commit", "rejected: constraint-violation",
                                                  answered);
  f.finding = "answered " + answered + " where a rejection was required";
  f.findings = {rule + ": it broke"};
  f.fixture = "failures/" + rule + "/x.json";
  f.replay = "ictk replay x";
  c.failure = f;
  return c;
}

/// 40 cases: passing ones with rule, clause, precision, op and tag counts, a skip, an
/// xfail, two causes of fail (three cases), a crash without a failure detail, a corpus
/// case.
Report Whole() {
  Report r;
  r.header.ictk_version = "0.1.0";
  r.header.model_version = ModelVersion({});
  r.header.switches = SwitchValues({});
  r.header.seed = 7;
  r.header.adapter = "exec:sample <&>";
  r.header.capabilities = {"check", "unique", "primary-key"};
  r.header.histories = 40;
  r.header.max_steps = 10;
  r.header.profile = "v4 writer";
  for (int i = 0; i < 40; ++i) {
    CaseRecord c;
    if (i == 5) {
      c = Failing(i, Verdict::kFail, "id.no-reuse", "ok");
    } else if (i == 17 || i == 30) {
      c = Failing(i, Verdict::kFail, "enf.enforced", "ok; rows: 2");
    } else if (i == 22) {
      c.id = "random/s7/22";
      c.index = i;
      c.verdict = Verdict::kCrash;
      c.reason = "crash: the adapter exited with status 3";
    } else {
      c.id = i == 0 ? "corpus/id.no-reuse/a" : "random/s7/" + std::to_string(i);
      c.index = i == 0 ? -1'000'000 : i;
      c.steps = 4 + i % 3;
      c.duration_ms = 0.25 * i;
      c.rules["id.above-last"] = {2, static_cast<int64_t>(i % 2)};
      c.clauses["id.above-last/whole"] = {2, 0};
      c.precision["validated"] = {1, 2};
      c.ops["commit"] = 3;
      c.tags["enf.enforced"] = 1;
      if (i == 9) {
        c.verdict = Verdict::kSkip;
        c.reason = "skip: expectation <file>";
      }
      if (i == 11) {
        c.verdict = Verdict::kXfail;
        c.reason = "xfail: known \"bug\"";
      }
    }
    r.cases.push_back(c);
  }
  r.totals = ComputeTotals(r.header, r.cases, 4321.5);
  return r;
}

std::string ReadAll(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

TEST(TotalsBuilder, EqualsComputeTotals) {
  const Report r = Whole();
  TotalsBuilder b;
  for (const CaseRecord& c : r.cases) b.Add(c);
  EXPECT_EQ(DumpJson(ToJson(b.Finish(r.header, 4321.5))), DumpJson(ToJson(*r.totals)));
  // Not a constant: the counts move with the cases.
  TotalsBuilder half;
  for (size_t i = 0; i < 10; ++i) half.Add(r.cases[i]);
  EXPECT_NE(DumpJson(ToJson(half.Finish(r.header, 4321.5))), DumpJson(ToJson(*r.totals)));
}

TEST(ReportStream, KeepsOnlyTheNonConformantCases) {
  const Report whole = Whole();
  ReportStream s(whole.header);
  s.KeepIds(true);
  for (const CaseRecord& c : whole.cases) s.Add(c);
  EXPECT_EQ(s.cases(), 40);
  ASSERT_EQ(s.failures().size(), 4u);
  EXPECT_EQ(s.failures()[0].id, "random/s7/5");
  EXPECT_EQ(s.failures()[2].id, "random/s7/22");
  EXPECT_EQ(s.ids().size(), 40u);
  EXPECT_EQ(s.ids()[0], "corpus/id.no-reuse/a");
  const Report compact = s.Compact(4321.5);
  EXPECT_EQ(compact.cases.size(), 4u);
  EXPECT_EQ(DumpJson(ToJson(*compact.totals)), DumpJson(ToJson(*whole.totals)));
}

TEST(ReportStream, RendersEveryFileAsTheWholeReport) {
  const Report whole = Whole();
  ReportStream s(whole.header);
  for (const CaseRecord& c : whole.cases) s.Add(c);
  const Report compact = s.Compact(4321.5);
  EXPECT_EQ(RenderSummaryMarkdown(compact), RenderSummaryMarkdown(whole));
  EXPECT_EQ(RenderHtml(compact), RenderHtml(whole));
  EXPECT_EQ(RenderBadgeJson(compact), RenderBadgeJson(whole));

  const std::filesystem::path dir =
      std::filesystem::temp_directory_path() /
      ("ictk-stream-test-" + std::to_string(::testing::UnitTest::GetInstance()->random_seed()));
  std::string error;
  ASSERT_TRUE(s.WriteJunit(dir / "junit.xml", compact, error)) << error;
  const std::string junit = ReadAll(dir / "junit.xml");
  EXPECT_EQ(junit, RenderJunitXml(whole));
  // The failures sit among the passing cases, each with its cause.
  EXPECT_LT(junit.find("random/s7/4\""), junit.find("random/s7/5\""));
  EXPECT_LT(junit.find("random/s7/5\""), junit.find("random/s7/6\""));
  EXPECT_NE(junit.find("[cause 2 of 3, 2 case(s)]"), std::string::npos);
  // Written twice (certify writes it once, but nothing is consumed).
  ASSERT_TRUE(s.WriteJunit(dir / "again.xml", compact, error)) << error;
  EXPECT_EQ(ReadAll(dir / "again.xml"), junit);
  std::filesystem::remove_all(dir);
}

TEST(ReportStream, EmptyAndAllPassing) {
  Report whole = Whole();
  whole.cases.clear();
  whole.totals = ComputeTotals(whole.header, whole.cases, 0);
  ReportStream empty(whole.header);
  const std::filesystem::path dir = std::filesystem::temp_directory_path() /
                                    "ictk-stream-test-empty";
  std::string error;
  ASSERT_TRUE(empty.WriteJunit(dir / "junit.xml", empty.Compact(0), error)) << error;
  EXPECT_EQ(ReadAll(dir / "junit.xml"), RenderJunitXml(whole));
  // A folder that cannot be written: an error naming it, not a crash.
  EXPECT_FALSE(empty.WriteJunit("/proc/ictk-no-such/junit.xml", empty.Compact(0), error));
  EXPECT_NE(error.find("junit.xml"), std::string::npos);
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace ictk
