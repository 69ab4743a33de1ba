// Reports: report.jsonl round-trips, every rendered file carries what people look for
// (the rule x verdict matrix, totals, the first failure's step table and replay command),
// badge and junit counts agree with the records, report diff sorts cases into categories,
// and SHA-256 matches its test vectors (fixture hashes, model versions).
#include "reports/report.h"

#include <gtest/gtest.h>

#include <algorithm>

#include "codec/json_text.h"
#include "model/judge/rule_catalogue.h"
#include "reports/digest.h"
#include "reports/render.h"
#include "tests/reports/report_test_util_internal.h"

namespace ictk {
namespace {

Report Sample(bool failing) {
  Report r;
  r.header.ictk_version = "0.1.0";
  r.header.model_version = ModelVersion({});
  r.header.switches = SwitchValues({});
  r.header.seed = 42;
  r.header.adapter = "builtin:sample?mutant=x";
  r.header.hello = {{"implementation", {{"name", "sample"}}}};
  r.header.capabilities = {"check", "unique", "primary-key"};
  r.header.histories = 3;
  r.header.max_steps = 10;
  for (int i = 0; i < 3; ++i) {
    CaseRecord c;
    c.id = "random/s42/" + std::to_string(i);
    c.index = i;
    c.steps = 5;
    c.rules["id.above-last"] = {2, 0};
    c.rules["enf.enforced"] = {1, 1};
    c.clauses["id.above-last/whole"] = {2, 0};
    c.clauses["key.pk-required/own-flag"] = {0, 1};
    c.precision["validated"] = {1, 2};
    c.ops["commit"] = 3;
    if (failing && i == 1) {
      c.verdict = Verdict::kFail;
      c.failed_rules = {"id.no-reuse"};
      FailureDetail f = testing_util::TwoStepFailure("id.no-reuse", "add-constraint", "ok",
                                                      "ok; constraints: c1#1");
      f.sentence = "\"Constraint IDs must not be reused\"";
      f.findings = {"id.no-reuse: reused <1>"};
      f.fixture = "failures/id.no-reuse/add-constraint-check-0123abcd.json";
      f.replay = "ictk replay --adapter 'builtin:sample?mutant=x' R/failures/x.json";
      f.reproduce = "ictk certify --adapter 'builtin:sample?mutant=x' --seed 42 --case 1";
      c.failure = f;
    }
    r.cases.push_back(c);
  }
  r.totals = ComputeTotals(r.header, r.cases, 1234);
  return r;
}

TEST(ReportJsonl, RoundTrips) {
  const Report r = Sample(true);
  const std::string text = ToJsonl(r);
  Result<Report> back = ParseReportJsonl(text, "report.jsonl");
  ASSERT_TRUE(back) << back.error().message;
  EXPECT_EQ(ToJsonl(*back), text);
  EXPECT_EQ(back->cases.size(), 3u);
  EXPECT_EQ(back->cases[1].failure->steps.size(), 2u);
}

TEST(ReportJsonl, RejectsAReportWithoutHeader) {
  EXPECT_FALSE(
      ParseReportJsonl("{\"type\":\"case\",\"id\":\"x\",\"verdict\":\"pass\"}\n", "r"));
  EXPECT_FALSE(ParseReportJsonl("not json\n", "r"));
}

TEST(Totals, CountRulesByVerdict) {
  const Report r = Sample(true);
  const Totals& t = *r.totals;
  EXPECT_FALSE(t.conformant);
  EXPECT_EQ(t.verdicts.at(Verdict::kPass), 2);
  EXPECT_EQ(t.verdicts.at(Verdict::kFail), 1);
  // id.no-reuse failed once; id.above-last passed in all three cases.
  EXPECT_EQ(t.rules.at("id.no-reuse").cases.at(Verdict::kFail), 1);
  EXPECT_EQ(t.rules.at("id.above-last").cases.at(Verdict::kPass), 3);
  EXPECT_EQ(t.rules.at("enf.enforced").negative, 3);
  // A rule never exercised whose capability is missing says so.
  EXPECT_EQ(t.untested_because.at("upg.pk-from-identifiers"), "upgrade");
  EXPECT_EQ(t.precision.at("validated").total, 6);
}

// Clause coverage: per-case counts add up, every clause of the catalogue has a row, the
// clauses never exercised are listed (not those of coverage-exempt rules), and summary.md,
// report.html and report.jsonl carry them.
TEST(Totals, CountClauses) {
  const Report r = Sample(true);
  const Totals& t = *r.totals;
  EXPECT_EQ(t.clauses.at("key.pk-required/own-flag").negative, 3);
  EXPECT_EQ(t.clauses.at("id.above-last/whole").positive, 6);
  EXPECT_EQ(t.clauses.size(), AllClauses().size());
  const auto& never = t.clauses_never_exercised;
  EXPECT_NE(std::find(never.begin(), never.end(), "key.pk-required/optional-parent"),
            never.end());
  EXPECT_EQ(std::find(never.begin(), never.end(), "key.pk-required/own-flag"), never.end());
  EXPECT_EQ(std::find(never.begin(), never.end(), "enf.untrusted/whole"), never.end());
  const std::string md = RenderSummaryMarkdown(r);
  EXPECT_NE(md.find("## Clause coverage"), std::string::npos) << md;
  EXPECT_NE(md.find("| `key.pk-required/own-flag` | 0 | 3 |"), std::string::npos) << md;
  EXPECT_NE(md.find("`key.pk-required/optional-parent`"), std::string::npos);
  EXPECT_NE(RenderHtml(r).find("id=\"clause-coverage\""), std::string::npos);
  Result<Report> back = ParseReportJsonl(ToJsonl(r), "report.jsonl");
  ASSERT_TRUE(back);
  EXPECT_EQ(back->cases[0].clauses.at("key.pk-required/own-flag").negative, 1);
  EXPECT_EQ(back->totals->clauses_never_exercised, never);
}

TEST(Render, HtmlHasMatrixTotalsAndTheFirstFailure) {
  const std::string html = RenderHtml(Sample(true));
  EXPECT_NE(html.find("id=\"rule-matrix\""), std::string::npos);
  EXPECT_NE(html.find("id=\"totals\""), std::string::npos);
  EXPECT_NE(html.find("id=\"failure-1\""), std::string::npos);
  EXPECT_NE(html.find("class=\"step-table\""), std::string::npos);
  EXPECT_NE(html.find("class=\"replay\""), std::string::npos);
  EXPECT_NE(html.find("ictk replay --adapter &#39;builtin:sample?mutant=x&#39;"),
            std::string::npos);
  EXPECT_NE(html.find("NOT CONFORMANT"), std::string::npos);
  // Self-contained: no network.
  EXPECT_EQ(html.find("http://"), std::string::npos);
  EXPECT_EQ(html.find("https://"), std::string::npos);
  EXPECT_EQ(html.find("<script src"), std::string::npos);
  const std::string ok = RenderHtml(Sample(false));
  EXPECT_NE(ok.find("id=\"no-failures\""), std::string::npos);
  EXPECT_NE(ok.find(">CONFORMANT<"), std::string::npos);
}

TEST(Render, JunitCountsAgree) {
  const std::string xml = RenderJunitXml(Sample(true));
  EXPECT_NE(xml.find("tests=\"3\" failures=\"1\" errors=\"0\""), std::string::npos);
  EXPECT_NE(xml.find("<failure type=\"fail\""), std::string::npos);
  EXPECT_NE(xml.find("name=\"random/s42/1\""), std::string::npos);
}

// The classname of a testcase: the rule the case failed under; a passing corpus fixture's
// primary rule (the folder of its ID); else ictk.<mode> (docs/certify.md "junit.xml").
TEST(Render, JunitClassnameIsTheRuleTheCaseFailedUnder) {
  Report r = Sample(true);
  CaseRecord fixture;
  fixture.id = "enf.enforced/append-collide-0123abcd";
  r.cases.push_back(fixture);
  const std::string xml = RenderJunitXml(r);
  EXPECT_NE(xml.find("classname=\"ictk.id.no-reuse\" name=\"random/s42/1\""),
            std::string::npos)
      << xml;
  EXPECT_NE(xml.find("classname=\"ictk.certify\" name=\"random/s42/0\""),
            std::string::npos);
  EXPECT_NE(xml.find("classname=\"ictk.enf.enforced\" name=\"enf.enforced/append-"),
            std::string::npos);
  r.cases[1].verdict = Verdict::kXfail;  // an xfail still names its rule
  EXPECT_EQ(JunitClassname(r.header, r.cases[1]), "ictk.id.no-reuse");
  r.cases[1].verdict = Verdict::kXpass;  // it passed: no rule failed
  EXPECT_EQ(JunitClassname(r.header, r.cases[1]), "ictk.certify");
}

TEST(Render, SummaryAndBadge) {
  const std::string md = RenderSummaryMarkdown(Sample(true));
  EXPECT_NE(md.find("NOT CONFORMANT"), std::string::npos);
  EXPECT_NE(md.find("`id.no-reuse`"), std::string::npos);
  EXPECT_NE(md.find("replay: `ictk replay"), std::string::npos);
  Result<nlohmann::json> badge = ParseJsonText(RenderBadgeJson(Sample(true)), "badge");
  ASSERT_TRUE(badge);
  EXPECT_EQ(badge->at("schemaVersion"), 1);
  EXPECT_EQ(badge->at("color"), "red");
  Result<nlohmann::json> green = ParseJsonText(RenderBadgeJson(Sample(false)), "badge");
  EXPECT_EQ(green->at("color"), "brightgreen");
}

/// Every rendering states the finding (why the answer is outside the allowed set) before
/// what was allowed and what was answered.
TEST(Render, EveryFailureLineStatesTheFindingFirst) {
  Report r = Sample(true);
  const std::string why =
      "the rejection names constraint 1, which this invalid-schema-change is not about "
      "(allowed: any subset of [2])";
  for (CaseRecord& c : r.cases)
    if (c.failure) c.failure->finding = why;
  const auto before = [](const std::string& text, const std::string& first,
                         const std::string& then) {
    const size_t a = text.find(first);
    const size_t b = text.find(then, a == std::string::npos ? 0 : a);
    return a != std::string::npos && b != std::string::npos && a < b;
  };
  const std::string md = RenderSummaryMarkdown(r);
  EXPECT_TRUE(before(md, why, "- allowed: ok")) << md;
  const std::string html = RenderHtml(r);
  EXPECT_TRUE(before(html, "<b>Finding:</b> the rejection names constraint 1",
                     "<b>Allowed:</b>"))
      << html;
  const std::string xml = RenderJunitXml(r);
  EXPECT_NE(xml.find("message=\"the rejection names constraint 1, which this "
                     "invalid-schema-change is not about (allowed: any subset of [2]) "
                     "(id.no-reuse, step 2) [cause 1 of 1, 1 case(s)]\""),
            std::string::npos)
      << xml;
  EXPECT_TRUE(before(xml, "Finding: the rejection names", "Allowed: ok")) << xml;
  // The finding survives report.jsonl, and an old report without it falls back to the
  // first of `findings`.
  const FailureDetail& f = *r.cases[1].failure;
  const nlohmann::json j = ToJson(f);
  EXPECT_EQ(j.at("finding"), why);
  FailureDetail old = f;
  old.finding.clear();
  EXPECT_EQ(FindingOf(old), "id.no-reuse: reused <1>");
  EXPECT_EQ(FindingOf(f), why);
}

TEST(ReportDiff, SortsCasesIntoCategories) {
  Report a = Sample(false);
  Report b = Sample(true);
  CaseRecord skipped = b.cases[2];
  b.cases[2].verdict = Verdict::kSkip;
  const ReportDiff d = DiffReports(a, b);
  EXPECT_TRUE(d.comparable);
  EXPECT_EQ(d.new_failures, std::vector<std::string>{"random/s42/1"});
  EXPECT_EQ(d.newly_skipped, std::vector<std::string>{"random/s42/2"});
  EXPECT_FALSE(d.ok());
  const ReportDiff back = DiffReports(b, a);
  EXPECT_EQ(back.fixed, std::vector<std::string>{"random/s42/1"});
  EXPECT_TRUE(back.ok());
  Report other = a;
  other.header.model_version = "different";
  EXPECT_FALSE(DiffReports(a, other).comparable);
}

TEST(Digest, Sha256TestVectors) {
  EXPECT_EQ(Sha256Hex(""),
            "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  EXPECT_EQ(Sha256Hex("abc"),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  EXPECT_EQ(Sha256Hex(std::string(1000, 'a')).substr(0, 16), "41edece42d63e8d9");
  // The model version changes with the switches.
  Switches s;
  s.status_carry = StatusCarry::kMust;
  EXPECT_NE(ModelVersion(s), ModelVersion({}));
}

TEST(Escape, XmlSpecials) {
  EXPECT_EQ(EscapeXml("<a href=\"x\">&'"), "&lt;a href=&quot;x&quot;&gt;&amp;&#39;");
}

}  // namespace
}  // namespace ictk
