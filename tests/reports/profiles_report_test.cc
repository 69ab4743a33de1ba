// Honest totals and failures by cause (docs/certify.md): the verdict line names the
// profile, how many of its rules were exercised and the declared capabilities that got no
// request; failing cases group by verdict, rule, request kind and answer kind; the new
// header and totals members round-trip through report.jsonl; old reports (no profile) keep
// the plain verdict.
#include <algorithm>
#include <map>
#include <string>
#include <utility>
#include <vector>
#include <gtest/gtest.h>

#include "model/judge/capability.h"
#include "model/judge/rule_catalogue.h"

#include "reports/render.h"
#include "reports/report.h"

namespace ictk {
namespace {

CaseRecord Failing(const std::string& id, const std::string& rule, const std::string& op,
                   const std::string& answered) {
  CaseRecord c;
  c.id = id;
  c.verdict = Verdict::kFail;
  c.failed_rules = {rule};
  FailureDetail f;
  f.step = 1;
  f.rule = rule;
  f.answered = answered;
  StepRow s;
  s.index = 1;
  s.op = op;
  s.failed = true;
  f.steps = {s};
  f.fixture = "failures/" + rule + "/" + id.substr(id.rfind('/') + 1) + ".json";
  c.failure = f;
  return c;
}

RunHeader ReaderHeader() {
  RunHeader h;
  h.adapter = "exec:reader";
  h.profile = "v1\u2013v3 reader";
  h.writer = false;
  h.format_versions = {1, 2, 3};
  h.capabilities = {"reader", "parse-metadata"};
  h.corpus_note = "--no-corpus";
  return h;
}

/// A report of one case (ID random/s1/0) that exercised `rules` and `clauses`
/// positively, under `header`, with its totals.
Report ReportOfOneCase(RunHeader header, const std::vector<std::string>& rules,
                       const std::vector<std::string>& clauses = {},
                       const std::map<std::string, int64_t>& ops = {}) {
  Report r;
  r.header = std::move(header);
  CaseRecord c;
  c.id = "random/s1/0";
  for (const std::string& rule : rules) c.rules[rule] = {1, 0};
  for (const std::string& clause : clauses) c.clauses[clause] = {1, 0};
  for (const auto& [op, n] : ops) c.ops[op] = n;
  r.cases.push_back(c);
  r.totals = ComputeTotals(r.header, r.cases, 10);
  return r;
}

TEST(HonestTotals, AReaderRunSaysWhatItsProfileLeftUnexercised) {
  // No read-statuses: capability `reader` got no request.
  const Report r =
      ReportOfOneCase(ReaderHeader(), {"ice.format-version-known"}, {}, {{"parse-metadata", 3}});
  const Totals& t = *r.totals;
  const std::vector<std::string> covered = ProfileRules(r.header);
  EXPECT_EQ(t.profile_rules, static_cast<int64_t>(covered.size()));
  // A v1-v3 reader covers the ice.* and proto.* rules and def.v4-only, no writer rule.
  EXPECT_NE(std::find(covered.begin(), covered.end(), "def.v4-only"), covered.end());
  EXPECT_NE(std::find(covered.begin(), covered.end(), "proto.declared-versions"),
            covered.end());
  EXPECT_EQ(std::find(covered.begin(), covered.end(), "enf.enforced"), covered.end());
  EXPECT_EQ(std::find(covered.begin(), covered.end(), "st.reader-lookup"), covered.end());
  EXPECT_EQ(t.idle_capabilities, std::vector<std::string>{"reader"});
  const std::string verdict = VerdictText(t);
  EXPECT_EQ(verdict.rfind("CONFORMANT (v1\u2013v3 reader profile, reader + parse-metadata: 1 of ",
                          0),
            0u)
      << verdict;
  EXPECT_NE(verdict.find("not exercised: "), std::string::npos) << verdict;
  EXPECT_NE(verdict.find("no request for declared capability reader"), std::string::npos)
      << verdict;
  // What the profile cannot reach is counted, with why: the writer's rules and the rules
  // that need format version 4; together with the covered ones, every rule.
  EXPECT_NE(verdict.find("more out of the profile's reach: "), std::string::npos) << verdict;
  EXPECT_NE(verdict.find(" a writer's rule"), std::string::npos) << verdict;
  int64_t out_of_reach = 0;
  for (const auto& [why, rules] : ProfileOutOfReach(r.header)) {
    EXPECT_EQ(t.profile_out_of_reach.at(why), static_cast<int64_t>(rules.size())) << why;
    out_of_reach += static_cast<int64_t>(rules.size());
    for (const std::string& rule : rules)
      EXPECT_EQ(std::find(covered.begin(), covered.end(), rule), covered.end()) << rule;
  }
  int64_t counted = 0;
  for (const RuleInfo& info : RuleCatalogue()) counted += info.coverage_exempt ? 0 : 1;
  EXPECT_EQ(t.profile_rules + out_of_reach, counted);
  const std::string md = RenderSummaryMarkdown(r);
  EXPECT_NE(md.find("# ictk certify: CONFORMANT (v1\u2013v3 reader profile"),
            std::string::npos)
      << md;
  EXPECT_NE(md.find("- corpus: none (--no-corpus)"), std::string::npos) << md;
  EXPECT_NE(RenderHtml(r).find("reader profile, reader + parse-metadata: 1 of"), std::string::npos);
  // Round trip of the new members.
  Result<Report> back = ParseReportJsonl(ToJsonl(r), "report.jsonl");
  ASSERT_TRUE(back.has_value()) << back.error().message;
  EXPECT_EQ(back->header.profile, r.header.profile);
  EXPECT_FALSE(back->header.writer);
  EXPECT_EQ(back->header.format_versions, r.header.format_versions);
  EXPECT_EQ(back->header.corpus_note, "--no-corpus");
  EXPECT_EQ(back->totals->profile_not_exercised, t.profile_not_exercised);
  EXPECT_EQ(back->totals->idle_capabilities, t.idle_capabilities);
  EXPECT_EQ(back->totals->profile_out_of_reach, t.profile_out_of_reach);
}

/// A v1-v4 writer declaring `check` and `unique`, one case that exercised enf.enforced.
Report WriterReportOfOneCase() {
  RunHeader h = ReaderHeader();
  h.writer = true;
  h.profile = "v4 writer";
  h.format_versions = {1, 2, 3, 4};
  h.capabilities = {"check", "unique"};
  return ReportOfOneCase(std::move(h), {"enf.enforced"});
}

// Issue 35: the verdict and the badge state their scope, the profile and the
// capabilities certified; an adapter that declares every writer capability says so.
TEST(HonestTotals, TheVerdictAndTheBadgeStateTheirScope) {
  const Report r = WriterReportOfOneCase();
  const std::string verdict = VerdictText(*r.totals);
  EXPECT_NE(verdict.find("(v4 writer profile, check + unique: "), std::string::npos)
      << verdict;
  const nlohmann::json badge = nlohmann::json::parse(RenderBadgeJson(r));
  EXPECT_EQ(badge["message"].get<std::string>().rfind("conformant: v4 writer, check + unique (",
                                                      0),
            0u)
      << badge.dump();
  std::vector<std::string> every;
  for (const CapabilityInfo& c : CapabilityTable())
    if (c.id != Capability::kReader && c.id != Capability::kParseMetadata)
      every.emplace_back(c.name);
  EXPECT_EQ(CapabilityScope(every), "every writer capability");
  every.pop_back();
  EXPECT_NE(CapabilityScope(every), "every writer capability");
  EXPECT_EQ(CapabilityScope({}), "no capability");
}

// A writer run says the same: "N of M" counts the rules the writer profile can reach, and
// undeclared capabilities' rules are named as out of its reach rather than silently left
// out of M; the ice.* metadata rules are in its reach (every answered metadata is judged
// by them), so a run that exercised none of them names them not exercised.
TEST(HonestTotals, AWriterRunSaysWhatIsOutOfItsReach) {
  const Report r = WriterReportOfOneCase();
  const std::string verdict = VerdictText(*r.totals);
  EXPECT_NE(verdict.find("v4 writer profile, check + unique: 1 of "), std::string::npos) << verdict;
  EXPECT_EQ(verdict.find("lint-metadata"), std::string::npos) << verdict;
  const std::vector<std::string>& missed = r.totals->profile_not_exercised;
  EXPECT_NE(std::find(missed.begin(), missed.end(), "ice.refs-snapshot-exist"), missed.end());
  EXPECT_NE(verdict.find("capability not declared"), std::string::npos) << verdict;
  EXPECT_NE(RenderSummaryMarkdown(r).find("- rules out of the profile's reach: "),
            std::string::npos);
}

// A clause of a rule out of the profile's reach is listed apart, with its reason in the
// clause table, not among the clauses never exercised.
TEST(HonestTotals, ClausesOutOfTheProfilesReachAreListedApart) {
  const Report r =
      ReportOfOneCase(ReaderHeader(), {"st.reader-lookup"}, {"st.reader-lookup/whole"});
  const std::vector<std::string>& apart = r.totals->clauses_out_of_reach;
  const std::vector<std::string>& never = r.totals->clauses_never_exercised;
  // enf.modified-row binds writers: out of a reader's reach.
  EXPECT_NE(std::find(apart.begin(), apart.end(), "enf.modified-row/whole"), apart.end());
  EXPECT_EQ(std::find(never.begin(), never.end(), "enf.modified-row/whole"), never.end());
  const std::string md = RenderSummaryMarkdown(r);
  EXPECT_NE(md.find("| `enf.modified-row/whole` | 0 | 0 | out of the profile's reach |"),
            std::string::npos)
      << md.substr(md.find("enf.enforced/"), 200);
  EXPECT_NE(RenderHtml(r).find("out of the profile&#39;s reach"), std::string::npos);
}

// report.html: every grey rule row (no step exercised it) says why.
TEST(HonestTotals, EveryGreyRuleRowSaysWhy) {
  const Report r = WriterReportOfOneCase();
  const std::string html = RenderHtml(r);
  EXPECT_NE(html.find("(the adapter lacks upgrade)"), std::string::npos);
  EXPECT_NE(html.find("(no step of this run exercised it)"), std::string::npos);
  EXPECT_NE(html.find("(out of the profile&#39;s reach: only a reader lacking a format version"),
            std::string::npos);
  size_t grey = 0, said = 0;
  for (size_t at = html.find("<tr class=\"none\" id=\"rule-"); at != std::string::npos;
       at = html.find("<tr class=\"none\" id=\"rule-", at + 1)) {
    ++grey;
    const std::string row = html.substr(at, html.find("</td>", at) - at);
    if (row.find("<small") != std::string::npos) ++said;
  }
  EXPECT_GT(grey, 10u);
  EXPECT_EQ(said, grey);
}

TEST(HonestTotals, ARunOfOldRecordsKeepsThePlainVerdict) {
  Report r;
  r.header.adapter = "builtin:sample";
  r.cases.push_back(CaseRecord{});
  r.totals = ComputeTotals(r.header, r.cases, 1);
  EXPECT_EQ(VerdictText(*r.totals), "CONFORMANT");
  // proto.declared-versions cannot be exercised when every version is declared.
  for (const std::string& rule : r.totals->never_exercised)
    EXPECT_NE(rule, "proto.declared-versions");
}

TEST(FailuresByCause, SameRuleRequestAndAnswerMakeOneCause) {
  Report r;
  r.header = ReaderHeader();
  r.header.writer = true;
  r.header.profile = "v4 writer";
  r.cases.push_back(Failing("random/s1/0", "proto.answer", "commit", "unsupported: no"));
  r.cases.push_back(CaseRecord{});
  r.cases.push_back(Failing("random/s1/2", "proto.answer", "commit", "unsupported: x"));
  r.cases.push_back(
      Failing("random/s1/3", "proto.answer", "commit", "rejected (invalid-request): y"));
  r.cases.push_back(Failing("random/s1/4", "id.no-reuse", "add-constraint", "ok"));
  r.totals = ComputeTotals(r.header, r.cases, 1);
  const std::vector<FailureCause> causes = FailureCauses(r.cases);
  ASSERT_EQ(causes.size(), 3u);
  EXPECT_EQ(causes[0].cause, "fail proto.answer at commit: answered unsupported");
  EXPECT_EQ(causes[0].cases,
            (std::vector<std::string>{"random/s1/0", "random/s1/2"}));
  EXPECT_EQ(causes[0].first, 0u);
  EXPECT_EQ(causes[1].cause,
            "fail proto.answer at commit: answered rejected (invalid-request)");
  EXPECT_EQ(causes[2].cases, std::vector<std::string>{"random/s1/4"});
  const std::string md = RenderSummaryMarkdown(r);
  EXPECT_NE(md.find("## Failures by cause"), std::string::npos) << md;
  EXPECT_NE(md.find("4 failing case(s), 3 cause(s)"), std::string::npos) << md;
  EXPECT_NE(RenderHtml(r).find("id=\"causes\""), std::string::npos);
  EXPECT_NE(RenderJunitXml(r).find("[cause 1 of 3, 2 case(s)]"), std::string::npos);
}

}  // namespace
}  // namespace ictk
