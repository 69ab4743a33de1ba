// `ictk review` (review/review.h): its tables, the sentence diff against a base text, the
// rendering, and the committed review of the seed (docs/review-of-the-seed.md), which must
// match a fresh run like the fingerprint golden.
#include "review/review.h"

#include <gtest/gtest.h>

#include <fstream>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

#include "generators/history.h"
#include "model/rules/rule_id.h"
#include "model/rules/switches.h"
#include "properties/model_expectations.h"
#include "review/spec_diff.h"

namespace ictk {
namespace {

std::string ReadAll(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

const char* const kSeed = ICTK_TEST_DATA_DIR "/seed/000_f6814d186b7076a8.txt";
const char* const kSeedName = "tests/data/seed/000_f6814d186b7076a8.txt";
const char* const kCommitted = ICTK_SOURCE_DIR "/docs/review-of-the-seed.md";

/// A table cell's text with the marks review.md and review.html put on it taken off:
/// links to their text, code, bold and strike marks dropped, surrounding spaces trimmed.
std::string CellPlainText(std::string s) {
  s = std::regex_replace(s, std::regex(R"(\[([^\]]*)\]\([^)]*\))"), "$1");
  std::string out;
  for (char c : s)
    if (c != '`' && c != '*' && c != '~') out += c;
  const size_t first = out.find_first_not_of(' ');
  return first == std::string::npos
             ? ""
             : out.substr(first, out.find_last_not_of(' ') - first + 1);
}

/// The rows of every table of review.md, each a list of cell texts (cells split at every
/// `|` not written `\|`, as GitHub does).
std::vector<std::vector<std::string>> MarkdownCells(const std::string& md) {
  std::vector<std::vector<std::string>> rows;
  std::istringstream in(md);
  for (std::string line; std::getline(in, line);) {
    if (line.empty() || line[0] != '|' || line.rfind("|---", 0) == 0) continue;
    std::vector<std::string> row;
    std::string cell;
    for (size_t i = 1; i < line.size(); ++i) {
      if (line[i] == '\\' && i + 1 < line.size() && line[i + 1] == '|') {
        cell += line[++i];
      } else if (line[i] == '|') {
        row.push_back(CellPlainText(cell));
        cell.clear();
      } else {
        cell += line[i];
      }
    }
    rows.push_back(row);
  }
  return rows;
}

/// The rows of every table of review.html, each a list of cell texts (tags dropped,
/// entities read).
std::vector<std::vector<std::string>> HtmlCells(const std::string& html) {
  std::vector<std::vector<std::string>> rows;
  for (size_t tr = html.find("<tr>"); tr != std::string::npos;
       tr = html.find("<tr>", tr + 1)) {
    const std::string row_html = html.substr(tr, html.find("</tr>", tr) - tr);
    std::vector<std::string> row;
    for (size_t at = row_html.find("<t"); at != std::string::npos;
         at = row_html.find("<t", at + 1)) {
      if (row_html.compare(at, 4, "<td>") != 0 && row_html.compare(at, 4, "<th>") != 0)
        continue;
      const size_t end = row_html.find("</t", at);
      std::string text;
      bool in_tag = false;
      for (char c : row_html.substr(at + 4, end - at - 4)) {
        if (c == '<' || c == '>')
          in_tag = c == '<';
        else if (!in_tag)
          text += c;
      }
      constexpr std::pair<std::string_view, const char*> kEntities[] = {
          {"&lt;", "<"}, {"&gt;", ">"}, {"&quot;", "\""}, {"&amp;", "&"}};
      for (const auto& [entity, ch] : kEntities)
        for (size_t e = text.find(entity); e != std::string::npos;
             e = text.find(entity, e + 1))
          text.replace(e, entity.size(), ch);
      row.push_back(CellPlainText(text));
      at = end;
    }
    rows.push_back(row);
  }
  return rows;
}

/// review.html has the tables of review.md, row for row and cell for cell, no cell empty
/// in one and filled in the other.
void ExpectSameCells(const ReviewResult& r) {
  const auto md = MarkdownCells(RenderReviewMarkdown(r));
  const auto html = HtmlCells(RenderReviewHtml(r));
  ASSERT_FALSE(md.empty());
  ASSERT_EQ(md.size(), html.size()) << "table rows";
  for (size_t i = 0; i < md.size(); ++i) {
    ASSERT_EQ(md[i].size(), html[i].size()) << "cells of table row " << i;
    for (size_t k = 0; k < md[i].size(); ++k)
      EXPECT_EQ(md[i][k], html[i][k]) << "table row " << i << ", cell " << k;
  }
}

SpecSection Section(const std::string& path) {
  Result<SpecSection> s = ReadConstraintsSection(ReadAll(path), path);
  EXPECT_TRUE(s.has_value());
  return s ? *s : SpecSection{};
}

TEST(ReviewTables, EverySwitchHasItsRulesAndComparisons) {
  int comparisons = 0;
  for (const SwitchInfo& info : AllSwitches()) {
    SCOPED_TRACE(std::string(info.name));
    EXPECT_FALSE(SwitchRules(info.name).empty()) << "no rule decides this switch";
    GenWeights weights = GenWeights::Default();
    EXPECT_EQ(weights.Parse(SwitchWeights(info.name)), "");
    const auto pairs = SwitchComparisons(info);
    EXPECT_EQ(pairs.size(), info.values[0] == "either" && info.values.size() == 3
                                ? 3u
                                : info.values.size() - 1);
    for (const auto& [a, b] : pairs) EXPECT_NE(a, b);
    comparisons += static_cast<int>(pairs.size());
  }
  EXPECT_GE(comparisons, static_cast<int>(AllSwitches().size()));
}

// Every row of docs/interpretations.md's open points table is one OpenPoint, in order, and
// each is either shown by a generator step label or says why not.
TEST(ReviewTables, OpenPointsMatchTheDoc) {
  const std::string doc = ReadAll(ICTK_SOURCE_DIR "/docs/interpretations.md");
  const size_t start = doc.find("## Open points and what the model does");
  ASSERT_NE(start, std::string::npos);
  std::vector<std::string> titles;
  std::istringstream in(doc.substr(start));
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("| ", 0) != 0 || line.rfind("| point |", 0) == 0) continue;
    const size_t end = line.find(" | ", 2);
    ASSERT_NE(end, std::string::npos) << line;
    titles.push_back(line.substr(2, end - 2));
  }
  ASSERT_EQ(titles.size(), OpenPoints().size());
  for (size_t i = 0; i < titles.size(); ++i) {
    const OpenPoint& p = OpenPoints()[i];
    EXPECT_EQ(std::string(p.title), titles[i]);
    EXPECT_TRUE(!p.not_shown.empty() || !p.label.empty() || !p.after_label.empty() ||
                !OpenPointHistories(p.title).empty())
        << p.title;
    // A point the model decides says what it decides, and a written history shows it.
    if (!p.decided.empty()) EXPECT_FALSE(OpenPointHistories(p.title).empty()) << p.title;
    // The rule a point names for its fixture is a rule of the catalogue.
    if (!p.rule.empty()) EXPECT_TRUE(ParseRuleId(p.rule)) << p.title << ": " << p.rule;
  }
}

/// The comparison of a written switch history: the switch's two values, with the shared
/// switches on both sides.
SpecDiffOptions WrittenComparison(const ReviewHistory& h, std::string_view name,
                                  const std::string& a, const std::string& b,
                                  bool with_shared = true) {
  SpecDiffOptions o;
  EXPECT_EQ(SetSwitch(o.a, name, a), "");
  EXPECT_EQ(SetSwitch(o.b, name, b), "");
  std::istringstream shared{std::string(h.shared)};
  for (std::string setting; with_shared && shared >> setting;) {
    const size_t eq = setting.find('=');
    EXPECT_EQ(SetSwitch(o.a, setting.substr(0, eq), setting.substr(eq + 1)), "");
    EXPECT_EQ(SetSwitch(o.b, setting.substr(0, eq), setting.substr(eq + 1)), "");
  }
  return o;
}

size_t Columns(const std::vector<Request>& requests) {
  for (const Request& r : requests)
    if (const auto* c = std::get_if<CreateTable>(&r.op)) return c->schema.fields.size();
  return 0;
}

// Every switch with a written history: the history disagrees at its last request, on a
// table of at most three columns; without any one of its requests (or without the
// switches it shares) it no longer disagrees that way.
TEST(ReviewHistories, SwitchHistoriesDisagreeAndAreMinimal) {
  int checked = 0;
  for (const SwitchInfo& info : AllSwitches()) {
    for (const ReviewHistory& h : SwitchHistories(info.name)) {
      SCOPED_TRACE(std::string(info.name) + ": " + std::string(h.name));
      const auto pairs = SwitchComparisons(info);
      ASSERT_FALSE(pairs.empty());
      const SpecDiffOptions o = WrittenComparison(h, info.name, pairs[0].first, pairs[0].second);
      Result<std::vector<Request>> requests = BuildHistory(h, o.a);
      ASSERT_TRUE(requests.has_value()) << requests.error().message;
      EXPECT_LE(Columns(*requests), 3u);
      const std::optional<Disagreement> d = RequestsDisagreement(*requests, "h", o);
      ASSERT_TRUE(d) << "the written history does not disagree";
      EXPECT_EQ(d->at.step, static_cast<int>(h.requests.size()));
      for (size_t i = 0; i < h.requests.size(); ++i) {
        ReviewHistory fewer = h;
        fewer.requests.erase(fewer.requests.begin() + static_cast<std::ptrdiff_t>(i));
        Result<std::vector<Request>> r = BuildHistory(fewer, o.a);
        if (!r) continue;
        const std::optional<Disagreement> still = RequestsDisagreement(*r, "h", o);
        EXPECT_FALSE(still && still->at.aspect == d->at.aspect && still->at.op == d->at.op)
            << "still disagrees without request " << i + 1;
      }
      if (!h.shared.empty()) {
        const SpecDiffOptions alone =
            WrittenComparison(h, info.name, pairs[0].first, pairs[0].second, false);
        EXPECT_FALSE(RequestsDisagreement(*requests, "h", alone))
            << "disagrees without the shared switches: they are not needed";
      }
      ++checked;
    }
  }
  EXPECT_GE(checked, 4);
}

// Every open point with a written history: it builds, and at its last request the model
// leaves the choice open, or (a point the model decides) the review names what it decides.
TEST(ReviewHistories, OpenPointHistoriesShowTheirPoint) {
  ReviewOptions o;
  o.histories = 0;
  int checked = 0;
  for (const OpenPoint& p : OpenPoints()) {
    if (OpenPointHistories(p.title).empty()) continue;
    SCOPED_TRACE(std::string(p.title));
    for (const ReviewHistory& h : OpenPointHistories(p.title)) {
      Result<std::vector<Request>> requests = BuildHistory(h, Switches{});
      ASSERT_TRUE(requests.has_value()) << requests.error().message;
      EXPECT_LE(Columns(*requests), 3u);
    }
    ++checked;
  }
  EXPECT_GE(checked, 10);
  o.spec = Section(kSeed);
  o.spec_name = kSeedName;
  const ReviewResult r = RunReview(o);
  for (const OpenPointReview& p : r.open_points) {
    SCOPED_TRACE(std::string(p.point->title));
    EXPECT_EQ(p.error, "");
    if (OpenPointHistories(p.point->title).empty()) continue;
    EXPECT_FALSE(p.written.empty());
    EXPECT_EQ(p.step, static_cast<int>(p.requests.size()));
    EXPECT_FALSE(p.fixture_path.empty());
  }
  // With no generated history at all, every switch still has a history.
  for (const SwitchReview& s : r.switches) {
    SCOPED_TRACE(s.name + " " + s.a_value + " vs " + s.b_value);
    if (!SwitchHistories(s.name).empty()) EXPECT_FALSE(s.result.disagreements.empty());
  }
}

TEST(ReviewDiff, AddedRemovedAndChangedSentences) {
  const SpecSection seed = Section(kSeed);
  const SpecSection edited = Section(ICTK_TEST_DATA_DIR "/review/edited-seed.txt");
  const std::vector<SentenceChange> changes = DiffSentences(seed, edited);
  // edited-seed.txt: `decimal` added to the float/double sentence, and one sentence added.
  int changed = 0, added = 0;
  for (const SentenceChange& c : changes) {
    if (c.kind == "changed") {
      ++changed;
      EXPECT_NE(c.after.find("decimal"), std::string::npos) << c.after;
      EXPECT_NE(c.before.find("`float` or `double`"), std::string::npos) << c.before;
    }
    if (c.kind == "added") {
      ++added;
      EXPECT_NE(c.after.find("more than 100 constraints"), std::string::npos) << c.after;
    }
  }
  EXPECT_EQ(changed, 1);
  EXPECT_EQ(added, 1);
  EXPECT_TRUE(DiffSentences(seed, seed).empty());
}

TEST(Review, WithABaseNamesTheChangedRuleAndRendersHtml) {
  ReviewOptions o;
  o.spec_name = "edited-seed.txt";
  o.spec = Section(ICTK_TEST_DATA_DIR "/review/edited-seed.txt");
  o.base_name = "seed.txt";
  o.base = Section(kSeed);
  o.histories = 12;
  o.shrink_budget = 200;
  o.fingerprint_steps = 2;
  const ReviewResult r = RunReview(o);
  ASSERT_TRUE(r.base);
  bool named = false;
  for (const SentenceChange& c : r.base->changes)
    for (RuleId rule : c.rules) named |= RuleIdName(rule) == "key.no-float-double";
  EXPECT_TRUE(named) << "the changed float/double sentence names its rule";
  EXPECT_EQ(r.trace.stale.size(), 1u);
  const std::string md = RenderReviewMarkdown(r);
  EXPECT_NE(md.find("## 4. Changes from the base"), std::string::npos);
  EXPECT_NE(md.find("key.no-float-double"), std::string::npos);
  // Every switch comparison has its section.
  for (const SwitchReview& s : r.switches)
    EXPECT_NE(md.find("### `" + s.name + "`: `" + s.a_value + "` vs `" + s.b_value + "`"),
              std::string::npos)
        << s.name;
  const std::string html = RenderReviewHtml(r);
  ExpectSameCells(r);
  EXPECT_EQ(html.rfind("<!DOCTYPE html>", 0), 0u);
  EXPECT_NE(html.find("<h2 id=\"4-changes-from-the-base\">"), std::string::npos);
  EXPECT_NE(html.find("<table>"), std::string::npos);
  EXPECT_EQ(html.find("```"), std::string::npos);
  // Fixtures are cited by path, each once, and each step's expectation is the model's
  // under the switches the fixture records.
  std::set<std::string> paths;
  ASSERT_FALSE(r.fixtures.empty());
  for (const auto& [path, fixture] : r.fixtures) {
    EXPECT_TRUE(paths.insert(path).second) << path;
    EXPECT_NE(md.find("`" + path + "`"), std::string::npos) << path;
    ASSERT_TRUE(fixture.contains("steps")) << path;
    Switches switches;
    if (fixture.contains("switches"))
      for (const auto& [name, value] : fixture["switches"].items())
        ASSERT_EQ(SetSwitch(switches, name, value.get<std::string>()), "") << path;
    std::vector<nlohmann::json> requests, expects;
    for (const nlohmann::json& step : fixture["steps"]) {
      requests.push_back(step["request"]);
      expects.push_back(step["expect"]);
    }
    Result<std::vector<nlohmann::json>> model = ModelExpectations(requests, switches);
    ASSERT_TRUE(model.has_value()) << path << ": " << model.error().message;
    EXPECT_EQ(*model, expects) << path;
  }
}

// A review of the seed: its trace table shortens sentences inside a code span (an odd
// number of backticks in the cell), which review.html once left empty.
TEST(Review, HtmlHasEveryTableCellOfTheMarkdown) {
  ReviewOptions o;
  o.spec_name = kSeedName;
  o.spec = Section(kSeed);
  o.histories = 12;
  o.shrink_budget = 200;
  const ReviewResult r = RunReview(o);
  EXPECT_NE(RenderReviewMarkdown(r).find("`constraint-sta … |"), std::string::npos)
      << "the trace table has the shortened sentence this test is about";
  ExpectSameCells(r);
}

// docs/review-of-the-seed.md is what `ictk review --spec tests/data/seed/... --histories N
// --seed S` writes (N and S from its first paragraph). A difference fails: regenerate it
// (the message says how) and commit it with the change that moved it.
TEST(ReviewOfTheSeed, MatchesAFreshRun) {
  const std::string committed = ReadAll(kCommitted);
  ASSERT_FALSE(committed.empty()) << kCommitted;
  std::smatch m;
  ASSERT_TRUE(std::regex_search(committed, m,
                                std::regex("--histories ([0-9]+) --seed ([0-9]+)")));
  ReviewOptions o;
  o.spec_name = kSeedName;
  o.spec = Section(kSeed);
  o.histories = std::stoi(m[1]);
  o.seed = std::stoull(m[2]);
  const std::string fresh = RenderReviewMarkdown(RunReview(o));
  if (fresh == committed) return;
  std::istringstream a(committed), b(fresh);
  std::string la, lb;
  int line = 0;
  while (true) {
    ++line;
    const bool ha = static_cast<bool>(std::getline(a, la));
    const bool hb = static_cast<bool>(std::getline(b, lb));
    if (!ha && !hb) break;
    if (la != lb || ha != hb) {
      ADD_FAILURE() << "docs/review-of-the-seed.md differs from a fresh run at line " << line
                    << ":\n  committed: " << (ha ? la : "(end)")
                    << "\n  fresh:     " << (hb ? lb : "(end)")
                    << "\nRegenerate it: build/bin/ictk review --spec " << kSeedName
                    << " --histories " << o.histories << " --seed " << o.seed
                    << " --out /tmp/review && cp /tmp/review/review.md "
                       "docs/review-of-the-seed.md";
      return;
    }
  }
}

}  // namespace
}  // namespace ictk
