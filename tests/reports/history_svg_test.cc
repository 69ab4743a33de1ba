// report.html's pictures and sharded runs: a failing history with a transaction draws the
// fork and the retry on the new parent, the colliding keys, the status outside the allowed
// set and the failing step in red; the rule matrix is grouped with coverage bars and the page
// forbids every load; MergeShards refuses shards that do not belong together, naming the
// field, and merges the others into the unsharded order with one fixture per cause.
#include "reports/history_svg.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <regex>

#include "model/judge/rule_catalogue.h"
#include "reports/digest.h"
#include "reports/merge.h"
#include "reports/render.h"

namespace ictk {
namespace {

using json = nlohmann::json;

json Metadata(std::optional<int64_t> current, json snapshots, bool with_pk = true) {
  json md = {{"format-version", 4}, {"snapshots", snapshots}};
  if (current) md["current-snapshot-id"] = *current;
  md["constraints"] = json::array();
  if (with_pk)
    md["constraints"].push_back({{"constraint-id", 1},
                                 {"name", "pk"},
                                 {"type", "primary-key"},
                                 {"enforced", true},
                                 {"field-ids", {1}}});
  return md;
}

StepRow Step(int index, std::string op, json request, json response,
             std::string allowed = "ok", bool failed = false) {
  StepRow s;
  s.index = index;
  s.op = op;
  request["op"] = op;
  s.request = request;
  s.response = response;
  s.allowed = allowed;
  s.failed = failed;
  return s;
}

json Row(std::string key, int id) { return {{"key", key}, {"values", {{"1", id}}}}; }

/// create, add pk, append r1 (S1), begin w1, staged append r2 (id 7), concurrent append
/// r3 (id 7, S2), finish w1 answered ok with pk valid (S3 on parent S2): the retry should
/// have been rejected, and the status is outside {invalid, unvalidated}.
FailureDetail Retry() {
  FailureDetail f;
  f.step = 7;
  f.rule = "enf.retry-keys-new-parent";
  f.finding = "the retry adds key 7, which the new parent has";
  const json s1 = {{"snapshot-id", 1}, {"constraint-statuses", {{"validated", {1}}}}};
  const json s2 = {{"snapshot-id", 2},
                   {"parent-snapshot-id", 1},
                   {"constraint-statuses", {{"validated", {1}}}}};
  const json s3 = {{"snapshot-id", 3},
                   {"parent-snapshot-id", 2},
                   {"constraint-statuses", {{"valid", {1}}}}};
  f.steps = {
      Step(1, "create-table", {{"format-version", 4}},
           {{"result", "ok"}, {"metadata", Metadata(std::nullopt, json::array(), false)}}),
      Step(2, "add-constraint", json::object(),
           {{"result", "ok"}, {"metadata", Metadata(std::nullopt, json::array())}}),
      Step(3, "commit", {{"operation", "append"}, {"add", {Row("r1", 1)}}},
           {{"result", "ok"}, {"metadata", Metadata(1, {s1})}}),
      Step(4, "begin", {{"txn", "w1"}}, {{"result", "ok"}, {"metadata", Metadata(1, {s1})}}),
      Step(5, "commit", {{"txn", "w1"}, {"operation", "append"}, {"add", {Row("r2", 7)}}},
           {{"result", "ok"}, {"metadata", Metadata(2, {s1, s2})}}),
      Step(6, "commit", {{"operation", "append"}, {"add", {Row("r3", 7)}}},
           {{"result", "ok"}, {"metadata", Metadata(2, {s1, s2})}}),
      Step(7, "finish", {{"txn", "w1"}},
           {{"result", "ok"}, {"metadata", Metadata(3, {s1, s2, s3})}},
           "rejected (constraint-violation); statuses: pk in {invalid, unvalidated}", true)};
  return f;
}

TEST(HistorySvg, DrawsTheForkTheRetryTheCollisionAndTheFailingStep) {
  const std::string svg = HistorySvg(Retry(), "\"Writers must check ...\"");
  ASSERT_FALSE(svg.empty());
  EXPECT_EQ(svg.rfind("<svg class=\"history\"", 0), 0u);
  EXPECT_NE(svg.find("fork w1 (base S1)"), std::string::npos) << svg;
  EXPECT_NE(svg.find("retry on new parent S2"), std::string::npos) << svg;
  // The finish brings r2 (7) onto a parent where r3 (7) is live.
  EXPECT_NE(svg.find("r2 = r3 on pk"), std::string::npos) << svg;
  EXPECT_NE(svg.find("class=\"collide\""), std::string::npos);
  // valid is outside {invalid, unvalidated}.
  EXPECT_NE(svg.find("∉ invalid|unvalidated"), std::string::npos) << svg;
  EXPECT_NE(svg.find("class=\"status outside\""), std::string::npos);
  EXPECT_NE(svg.find("class=\"failed-step\""), std::string::npos);
  EXPECT_NE(svg.find("enf.retry-keys-new-parent"), std::string::npos);
  EXPECT_NE(svg.find("Writers must check"), std::string::npos);
  // Snapshots on the main line, the staged commit apart.
  EXPECT_NE(svg.find(">S1<"), std::string::npos);
  EXPECT_NE(svg.find(">S3<"), std::string::npos);
  EXPECT_NE(svg.find("staged commit of transaction w1"), std::string::npos);
  // No script, no external reference.
  EXPECT_EQ(svg.find("<script"), std::string::npos);
  EXPECT_EQ(svg.find("href="), std::string::npos);
}

TEST(HistorySvg, NoCollisionWhereKeysDiffer) {
  FailureDetail f = Retry();
  f.steps[5].request["add"] = {Row("r3", 8)};
  const std::string svg = HistorySvg(f, "");
  EXPECT_EQ(svg.find("class=\"collide\""), std::string::npos) << svg;
}

int ViewBoxWidth(const std::string& svg) {
  const size_t vb = svg.find("viewBox=\"0 0 ");
  return vb == std::string::npos ? 0 : std::stoi(svg.substr(vb + 13));
}

// Nothing is cut: a long rejection kind, a long constraint name and a long sentence are
// drawn whole (the sentence wrapped), the columns sized to them, the picture at the full
// width of its box.
TEST(HistorySvg, DrawsEveryLabelWholeAndTakesTheFullWidth) {
  FailureDetail f = Retry();
  f.steps[6].response = {
      {"result", "rejected"},
      {"error", {{"kind", "constraint-violation-of-an-unusually-long-kind"}}}};
  for (StepRow& step : f.steps)
    if (step.response.contains("metadata") &&
        !step.response["metadata"]["constraints"].empty())
      step.response["metadata"]["constraints"][0]["name"] =
          "a_primary_key_with_a_long_name";
  const std::string sentence(400, 'w');
  const std::string svg = HistorySvg(f, "A sentence. " + sentence);
  EXPECT_EQ(svg.find("…"), std::string::npos) << svg;
  EXPECT_NE(svg.find(">rejected (constraint-violation-of-an-unusually-long-kind)<"),
            std::string::npos)
      << svg;
  EXPECT_NE(svg.find("a_primary_key_with_a_long_name #1"), std::string::npos) << svg;
  EXPECT_NE(svg.find("width=\"100%\""), std::string::npos);
  // The sentence's 400 letters on more than one line, all of them drawn.
  size_t lines = 0, letters = 0;
  for (size_t at = svg.find("class=\"failure-sentence\""); at != std::string::npos;
       at = svg.find("class=\"failure-sentence\"", at + 1)) {
    ++lines;
    const size_t text = svg.find('>', at) + 1;
    const std::string line = svg.substr(text, svg.find('<', text) - text);
    letters += static_cast<size_t>(std::count(line.begin(), line.end(), 'w'));
  }
  EXPECT_GT(lines, 1u);
  EXPECT_EQ(letters, 400u);
  // The viewBox is at least the minimum width, and wider than the same history's with
  // short texts.
  const int width = ViewBoxWidth(svg);
  EXPECT_GE(width, 1100);
  EXPECT_GT(width, ViewBoxWidth(HistorySvg(Retry(), ""))) << "the long texts widen it";
}

// More than four keys in a row: the first four, then how many more (no ellipsis).
TEST(HistorySvg, CountsTheKeysItDoesNotShow) {
  FailureDetail f = Retry();
  f.steps[2].request["add"] = {Row("r1", 1), Row("r4", 4), Row("r5", 5),
                               Row("r6", 6), Row("r7", 8), Row("r8", 9)};
  const std::string svg = HistorySvg(f, "");
  EXPECT_NE(svg.find("and 2 more"), std::string::npos) << svg;
  EXPECT_EQ(svg.find("…"), std::string::npos);
}

TEST(HistorySvg, NothingForAFailureWithoutSteps) {
  EXPECT_EQ(HistorySvg(FailureDetail{}, ""), "");
}

Report Shard(int i, int n, int per_shard, uint64_t seed = 1) {
  Report r;
  r.header.model_version = "m";
  r.header.seed = seed;
  r.header.adapter = "builtin:sample?mutant=x";
  r.header.shard = std::to_string(i) + "/" + std::to_string(n);
  r.header.histories = per_shard;
  CaseRecord corpus;
  corpus.id = "fixture/a";
  corpus.index = -1'000'000;
  r.cases.push_back(corpus);
  for (int k = 0; k < per_shard; ++k) {
    CaseRecord c;
    c.index = i + k * n;
    c.id = "random/s1/" + std::to_string(c.index);
    if (c.index % 3 == 1) {  // every third case fails, all for one cause
      c.verdict = Verdict::kFail;
      FailureDetail f;
      f.rule = "st.valid";
      f.fixture = "failures/st.valid/case-" + std::to_string(c.index) + ".json";
      f.fixture_id = "fx-" + std::to_string(c.index);
      f.replay = "ictk replay shard" + std::to_string(i) + "/" + f.fixture;
      c.failure = f;
      c.failed_rules = {"st.valid"};
    }
    r.cases.push_back(c);
  }
  r.totals = ComputeTotals(r.header, r.cases, 10.0 * (i + 1));
  return r;
}

TEST(MergeShards, MergesIntoTheUnshardedOrderWithOneFixturePerCause) {
  std::vector<ShardInput> shards;
  for (int i : {2, 0, 1}) shards.push_back({"s" + std::to_string(i), Shard(i, 3, 4)});
  Result<MergedReport> m = MergeShards(
      shards, [](const std::string& f) { return "ictk replay merged/" + f; }, "cmd");
  ASSERT_TRUE(m) << m.error().message;
  const Report& r = m->report;
  ASSERT_EQ(r.cases.size(), 13u);  // the corpus once, 12 random cases
  EXPECT_EQ(r.cases[0].id, "fixture/a");
  for (int k = 0; k < 12; ++k) EXPECT_EQ(r.cases[k + 1].index, k);
  EXPECT_EQ(r.header.shard, "");
  EXPECT_EQ(r.header.histories, 12);
  // Case 1 (shard 1) heads the cause; 4, 7, 10 point at it and its fixture.
  ASSERT_EQ(m->fixtures.size(), 1u);
  EXPECT_EQ(m->fixtures[0].second, "failures/st.valid/case-1.json");
  EXPECT_EQ(shards[m->fixtures[0].first].source, "s1");
  EXPECT_EQ(r.cases[2].failure->replay, "ictk replay merged/failures/st.valid/case-1.json");
  EXPECT_EQ(r.cases[5].failure->same_cause_as, "random/s1/1");
  EXPECT_EQ(r.cases[5].failure->fixture, "failures/st.valid/case-1.json");
  EXPECT_EQ(r.totals->duration_ms, 30.0);
  EXPECT_EQ(r.totals->verdicts.at(Verdict::kFail), 4);
}

TEST(MergeShards, RefusesShardsThatDoNotBelongTogetherNamingTheField) {
  auto refused = [](std::vector<Report> reports) {
    std::vector<ShardInput> shards;
    for (size_t i = 0; i < reports.size(); ++i)
      shards.push_back({"s" + std::to_string(i), reports[i]});
    Result<MergedReport> m =
        MergeShards(shards, [](const std::string& f) { return f; }, "");
    return m ? std::string("merged") : m.error().message;
  };
  EXPECT_NE(refused({Shard(0, 2, 2), Shard(1, 2, 2, 7)}).find("field seed differs"),
            std::string::npos);
  EXPECT_NE(refused({Shard(0, 2, 2)}).find("missing shard(s) 1/2"), std::string::npos);
  EXPECT_NE(refused({Shard(0, 2, 2), Shard(0, 2, 2)}).find("both shard 0/2"),
            std::string::npos);
  EXPECT_NE(refused({Shard(0, 2, 2), Shard(1, 3, 2)}).find("different N"),
            std::string::npos);
  Report other = Shard(1, 2, 2);
  other.header.switches["name-case"] = "insensitive";
  EXPECT_NE(refused({Shard(0, 2, 2), other}).find("field switches differs"),
            std::string::npos);
  Report unfinished = Shard(1, 2, 2);
  unfinished.totals.reset();
  EXPECT_NE(refused({Shard(0, 2, 2), unfinished}).find("field totals"), std::string::npos);
  Report short_run = Shard(1, 2, 2);
  short_run.cases.pop_back();
  EXPECT_NE(refused({Shard(0, 2, 2), short_run}).find("field histories"),
            std::string::npos);
  Report unsharded = Shard(0, 1, 2);
  unsharded.header.shard = "";
  EXPECT_NE(refused({unsharded}).find("field shard"), std::string::npos);
  EXPECT_EQ(refused({Shard(0, 2, 2), Shard(1, 2, 2)}), "merged");
}

TEST(ExactDifferences, IgnoreDurationsAndCommandLinesOnly) {
  Report a = Shard(0, 1, 3), b = Shard(0, 1, 3);
  b.header.command_line = "other";
  b.cases[1].duration_ms = 99;
  b.cases[2].failure->replay = "elsewhere";
  b.totals->duration_ms = 1;
  EXPECT_TRUE(ExactDifferences(a, b).empty());
  b.cases[2].failure->fixture_id = "changed";
  const std::vector<std::string> d = ExactDifferences(a, b);
  ASSERT_EQ(d.size(), 1u);
  EXPECT_NE(d[0].find("failure.fixture-id"), std::string::npos) << d[0];
}

TEST(RenderHtml, ForbidsEveryLoadAndGroupsTheRuleMatrix) {
  Report r = Shard(0, 1, 3);
  r.cases[2].failure->steps = Retry().steps;
  r.cases[2].failure->step = 7;
  const std::string html = RenderHtml(r);
  EXPECT_NE(
      html.find("content=\"default-src 'none'; style-src 'unsafe-inline'; script-src "
                "'sha256-"),
      std::string::npos);
  EXPECT_NE(html.find("<svg class=\"history\""), std::string::npos);
  EXPECT_NE(html.find("id=\"group-def\""), std::string::npos);
  EXPECT_NE(html.find("id=\"group-st\""), std::string::npos);
  EXPECT_NE(html.find("<svg class=\"coverage\""), std::string::npos);
  EXPECT_EQ(html.find("src="), std::string::npos);
  // summary.md stays text.
  EXPECT_EQ(RenderSummaryMarkdown(r).find("<svg"), std::string::npos);
}

TEST(Sha256Base64, MatchesTheKnownDigests) {
  EXPECT_EQ(Sha256Base64("abc"), "ungWv48Bz+pBQUDeXa4iI7ADYaOWF3qctBD/YfIAFa0=");
  EXPECT_EQ(Sha256Base64(""), "47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU=");
}

// The one script of the page is allowed by its own policy: the hash in script-src is the
// hash of the script's exact text, and there is no other script.
TEST(RenderHtml, AllowsItsFilterScriptByItsHashOnly) {
  Report r = Shard(0, 1, 3);
  const std::string html = RenderHtml(r);
  std::smatch csp;
  ASSERT_TRUE(std::regex_search(html, csp, std::regex("script-src 'sha256-([^']+)'")));
  const size_t open = html.find("<script>");
  ASSERT_NE(open, std::string::npos);
  const size_t close = html.find("</script>", open);
  const std::string script = html.substr(open + 8, close - open - 8);
  EXPECT_EQ(csp[1].str(), Sha256Base64(script));
  EXPECT_EQ(html.find("<script", open + 1), std::string::npos) << "a second script";
}

// The filter: every rule row and failure carries its rule and verdicts; the form is
// hidden until the script shows it, and nothing else is hidden, so without script the
// page shows everything.
TEST(RenderHtml, MarksRowsAndFailuresForTheFilter) {
  Report r = Shard(0, 1, 3);
  r.cases[2].failure->steps = Retry().steps;
  const std::string html = RenderHtml(r);
  EXPECT_NE(html.find("<form id=\"filter\" hidden>"), std::string::npos);
  EXPECT_NE(
      html.find("id=\"rule-st.valid\" data-rule=\"st.valid\" data-verdicts=\"fail\""),
      std::string::npos)
      << html;
  EXPECT_NE(html.find("class=\"failure\" id=\"failure-1\" data-rule=\"st.valid\" "
                      "data-verdicts=\"fail\""),
            std::string::npos);
  EXPECT_NE(html.find("<option>xfail</option>"), std::string::npos);
  size_t hidden = 0;
  for (size_t at = html.find(" hidden"); at != std::string::npos;
       at = html.find(" hidden", at + 1))
    ++hidden;
  EXPECT_EQ(hidden, 1u) << "only the form is hidden without script";
}

}  // namespace
}  // namespace ictk
