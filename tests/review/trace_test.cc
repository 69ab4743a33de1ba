// `ictk trace` (review/trace.h, review/spec_text.h): reading the Constraints section from
// its three forms, normalization, and tracing sentences to rule IDs.
#include "review/trace.h"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <fstream>
#include <set>
#include <sstream>
#include <string>

#include "model/judge/rule_catalogue.h"
#include "review/spec_text.h"

namespace ictk {
namespace {

std::string ReadData(const std::string& relative) {
  std::ifstream in(std::string(ICTK_TEST_DATA_DIR) + "/" + relative, std::ios::binary);
  EXPECT_TRUE(in.good()) << relative << " is missing";
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

const char* const kSeed = "seed/000_f6814d186b7076a8.txt";

TraceResult TraceData(const std::string& relative, SpecFormat* format = nullptr) {
  Result<SpecSection> section = ReadConstraintsSection(ReadData(relative), relative);
  EXPECT_TRUE(section.has_value()) << (section ? "" : section.error().message);
  if (!section) return {};
  if (format) *format = section->format;
  return TraceSection(*section, relative, CollectEvidence("", 0, 1));
}

bool HasStale(const TraceResult& t, RuleId rule) {
  for (const StaleQuote& q : t.stale)
    if (q.rule == rule) return true;
  return false;
}

TEST(SpecText, NormalizeDropsMarkdown) {
  EXPECT_EQ(NormalizeSpecText("| _required_ | **`constraint-id`**  is\n  an `int`"),
            "| required | constraint-id is an int");
  EXPECT_EQ(NormalizeSpecText("see [Row Lineage](#row-lineage)."), "see row lineage.");
  // An underscore inside a word is not emphasis.
  EXPECT_EQ(NormalizeSpecText("`start_date <= end_date`"), "start_date <= end_date");
  EXPECT_EQ(NormalizeQuote("Three constraint types are defined:"),
            "three constraint types are defined");
}

// A link is `[text](target)` with the first `]` after its `[` and the first `)` after
// that; anything else stays as written. The searches are remembered between brackets
// (found by the `spec_text` fuzz target: a text of many `[` and no `]` took quadratic
// time), so these cases pin that the answers did not change.
TEST(SpecText, LinksAreTheFirstCloseAfterTheirOpen) {
  EXPECT_EQ(NormalizeSpecText("see [the spec](https://x) and [b] [c](d)"),
            "see the spec and [b] c");
  EXPECT_EQ(NormalizeSpecText("[[a](b)"), "[a");
  EXPECT_EQ(NormalizeSpecText("[a] (b)"), "[a] (b)");
  EXPECT_EQ(NormalizeSpecText("[a](b [c](d)"), "a");
  EXPECT_EQ(NormalizeSpecText("x [a](b"), "x [a](b");
  EXPECT_EQ(NormalizeSpecText("[a][b](c)"), "[a]b");
  EXPECT_EQ(NormalizeSpecText("[[[x]]](y)"), "[[[x]]](y)");
  EXPECT_EQ(NormalizeSpecText("[a](b)[c](d)"), "ac");
  // 200,000 `[` without a `]`, and 100,000 `[a]` without a `(`: kept whole.
  const std::string opens(200000, '[');
  EXPECT_EQ(NormalizeSpecText(opens), opens);
  std::string brackets;
  for (int i = 0; i < 100000; ++i) brackets += "[a]";
  EXPECT_EQ(NormalizeSpecText(brackets + "(x"), brackets + "(x");
}

TEST(SpecText, NormativeWords) {
  EXPECT_TRUE(IsNormative("Writers must not set it."));
  EXPECT_TRUE(IsNormative("Required for a `check` constraint"));
  EXPECT_TRUE(IsNormative("A list with no constraints may be omitted."));
  EXPECT_TRUE(IsNormative("Only `name` can be updated"));
  EXPECT_TRUE(
      IsNormative("A commit that does not add rows cannot introduce a violation."));
  EXPECT_TRUE(IsNormative("Three constraint types are defined:"));
  EXPECT_FALSE(IsNormative("Its definition is stored in table metadata."));
  EXPECT_FALSE(IsNormative("Iceberg never guaranteed uniqueness for identifier fields."));
  EXPECT_FALSE(IsNormative("Mustard is yellow; mayonnaise is white."));  // inside words
}

TEST(SpecText, MailReviewIsSplitAndTheCommentCut) {
  const std::string seed = ReadData(kSeed);
  ASSERT_EQ(DetectSpecFormat(seed), SpecFormat::kMailReview);
  Result<SpecSection> section = ReadConstraintsSection(seed, kSeed);
  ASSERT_TRUE(section.has_value()) << section.error().message;
  ASSERT_FALSE(section->sentences.empty());
  EXPECT_EQ(section->sentences.front().text,
            "Constraints are added in v4 and are not supported in v3 or earlier.");
  EXPECT_EQ(
      section->sentences.back().text,
      "Such a commit, for example a delete or a compaction operation, may carry over "
      "the parent snapshot's `validated` or `valid` status for a constraint without "
      "checking rows again.");
  for (const SpecSentence& s : section->sentences) {
    EXPECT_EQ(s.text.find("Review Comment"), std::string::npos) << s.text;
    EXPECT_EQ(s.text.find("Sorting floating-point"), std::string::npos) << s.text;
  }
}

TEST(SpecText, MissingSectionNamesTheFile) {
  Result<SpecSection> section = ReadConstraintsSection(
      "# Spec\n\n### Sorting\n\nRows must be sorted.\n", "x/spec.md");
  ASSERT_FALSE(section.has_value());
  EXPECT_EQ(section.error().kind, ErrorKind::kInvalid);
  EXPECT_NE(section.error().message.find("x/spec.md"), std::string::npos);
  EXPECT_NE(section.error().message.find("Constraints"), std::string::npos);
}

TEST(SpecText, TableHeaderRowsAreSkippedAndDescriptionsKept) {
  const std::string text =
      "### Constraints\n\n| Requirement | Field name | Description |\n|---|---|---|\n"
      "| _required_ | **`name`** | A name that must be unique |\n"
      "| _optional_ | **`doc`** | Free text |\n\nAfter the table.\n";
  Result<SpecSection> section = ReadConstraintsSection(text, "t.md");
  ASSERT_TRUE(section.has_value());
  ASSERT_EQ(section->sentences.size(), 3u);
  EXPECT_EQ(section->sentences[0].text, "A name that must be unique");
  EXPECT_TRUE(section->sentences[0].normative);
  EXPECT_EQ(section->sentences[1].text, "Free text");
  EXPECT_FALSE(section->sentences[1].normative);
  EXPECT_EQ(section->sentences[2].text, "After the table.");
}

TEST(Trace, CountRuleMentionsMatchesWholeIds) {
  EXPECT_EQ(
      CountRuleMentions("\"st.valid\" st.validated st.valid, xst.valid", "st.valid"), 2);
  EXPECT_EQ(CountRuleMentions("id.above-last id.above-lastx", "id.above-last"), 1);
  EXPECT_EQ(CountRuleMentions("", "id.above-last"), 0);
}

TEST(Trace, AnchorsAreVerbatimInTheSeed) {
  const std::string seed = ReadData(kSeed);
  std::istringstream words(seed);
  std::string collapsed, word;
  while (words >> word) {
    if (word[0] == '+') word.erase(0, 1);
    if (word.empty()) continue;
    if (!collapsed.empty()) collapsed += ' ';
    collapsed += word;
  }
  ASSERT_FALSE(TraceAnchors().empty());
  for (const TraceAnchor& a : TraceAnchors())
    EXPECT_NE(collapsed.find(a.quote), std::string::npos)
        << RuleIdName(a.rule) << ": \"" << a.quote << "\" is not in the seed";
}

TEST(Trace, SeedTracesEveryNormativeSentenceAndNoRuleIsStale) {
  SpecFormat format{};
  const TraceResult t = TraceData(kSeed, &format);
  EXPECT_EQ(format, SpecFormat::kMailReview);
  EXPECT_TRUE(t.untraced.empty()) << RenderTraceText(t);
  EXPECT_TRUE(t.stale.empty()) << RenderTraceText(t);
  EXPECT_TRUE(t.clean());
  // Every quoted rule traces at least one sentence.
  std::set<RuleId> traced;
  for (const SentenceTrace& row : t.rows)
    traced.insert(row.rules.begin(), row.rules.end());
  for (const RuleInfo& r : RuleCatalogue())
    if (!r.quote.empty()) EXPECT_TRUE(traced.count(r.id)) << RuleIdName(r.id);
}

TEST(Trace, QuoteSpanningTwoSentencesTracesBoth) {
  // def.name-unique quotes "A name for the constraint that is unique within the table.
  // Names are ... metadata": two sentences of the field table.
  const TraceResult t = TraceData(kSeed);
  int rows = 0;
  for (const SentenceTrace& row : t.rows)
    for (RuleId r : row.rules) rows += r == RuleId::kDefNameUnique ? 1 : 0;
  EXPECT_EQ(rows, 2);
}

TEST(Trace, QuotedPercentShowsWordingNoQuoteCovers) {
  const TraceResult t = TraceData(kSeed);
  auto row = [&](std::string_view start) -> const SentenceTrace* {
    for (const SentenceTrace& r : t.rows)
      if (r.sentence.text.starts_with(start)) return &r;
    return nullptr;
  };
  const SentenceTrace* whole = row("Constraints are added in v4");
  ASSERT_NE(whole, nullptr);
  EXPECT_EQ(whole->quoted_percent, 100);  // def.v4-only quotes all of it
  // st.every-snapshot quotes the first half; "and must place every constraint ... into
  // exactly one status list" is no rule's quote.
  const SentenceTrace* half = row("Writers must record `constraint-statuses`");
  ASSERT_NE(half, nullptr);
  EXPECT_GT(half->quoted_percent, 20);
  EXPECT_LT(half->quoted_percent, 80);
  EXPECT_NE(RenderTraceText(t).find(fmt::format("(quoted {}%)", half->quoted_percent)),
            std::string::npos);
}

TEST(Trace, EditedCopyNamesTheChangedAndTheAddedSentence) {
  // tests/data/review/edited-seed.txt: the seed with key.no-float-double's sentence
  // changed ("`float`, `double` or `decimal`") and one sentence added.
  const TraceResult t = TraceData("review/edited-seed.txt");
  EXPECT_FALSE(t.clean());
  ASSERT_EQ(t.untraced.size(), 2u) << RenderTraceText(t);
  EXPECT_EQ(t.rows[t.untraced[0]].sentence.text,
            "Fields of type `float`, `double` or `decimal` must not be used.");
  EXPECT_EQ(t.rows[t.untraced[1]].sentence.text,
            "Writers must not add a constraint to a table that has more than 100 "
            "constraints.");
  ASSERT_EQ(t.stale.size(), 1u);
  EXPECT_TRUE(HasStale(t, RuleId::kKeyNoFloatDouble)) << "key.no-float-double";
  const std::string text = RenderTraceText(t);
  EXPECT_NE(text.find("key.no-float-double"), std::string::npos);
  EXPECT_NE(text.find("more than 100 constraints"), std::string::npos);
  const std::string markdown = RenderTraceMarkdown(t);
  EXPECT_NE(markdown.find("### Untraced sentences"), std::string::npos);
  EXPECT_NE(markdown.find("`key.no-float-double`"), std::string::npos);
}

TEST(Trace, PlainDiffAndMailFormsTraceTheSame) {
  SpecFormat plain_format{}, diff_format{};
  const TraceResult mail = TraceData(kSeed);
  const TraceResult plain = TraceData("review/spec.md", &plain_format);
  const TraceResult diff = TraceData("review/spec.diff", &diff_format);
  EXPECT_EQ(plain_format, SpecFormat::kPlain);
  EXPECT_EQ(diff_format, SpecFormat::kUnifiedDiff);
  for (const TraceResult* other : {&plain, &diff}) {
    ASSERT_EQ(other->rows.size(), mail.rows.size());
    for (size_t i = 0; i < mail.rows.size(); ++i) {
      EXPECT_EQ(other->rows[i].sentence, mail.rows[i].sentence) << i;
      EXPECT_EQ(other->rows[i].rules, mail.rows[i].rules) << i;
    }
    EXPECT_EQ(other->untraced, mail.untraced);
    EXPECT_EQ(other->stale, mail.stale);
  }
}

TEST(Trace, DiffWithSeveralHunksSaysItMayBePartial) {
  // tests/data/review/two-hunks.diff: spec.diff without the expression and schema
  // evolution subsections (a second hunk starts at Constraint Validation).
  const TraceResult t = TraceData("review/two-hunks.diff");
  EXPECT_TRUE(t.maybe_partial);
  EXPECT_TRUE(HasStale(t, RuleId::kExprDeterministic)) << "expr.deterministic";
  EXPECT_TRUE(HasStale(t, RuleId::kSchRemoveReferenced)) << "sch.remove-referenced";
  EXPECT_FALSE(HasStale(t, RuleId::kStNoAddCarry)) << "st.no-add-carry";
  EXPECT_NE(RenderTraceText(t).find("git diff -U100000"), std::string::npos);
  EXPECT_FALSE(TraceData("review/spec.diff").maybe_partial);
  EXPECT_FALSE(TraceData("review/spec.md").maybe_partial);
}

TEST(SpecText, PlusLinesWithoutAHunkHeaderAreRead) {
  Result<SpecSection> section = ReadConstraintsSection(
      "Subject: review\n\n+### Constraints\n+\n+Writers must do it.\n", "mail.txt");
  ASSERT_TRUE(section.has_value()) << section.error().message;
  ASSERT_EQ(section->sentences.size(), 1u);
  EXPECT_EQ(section->sentences[0].text, "Writers must do it.");
}

TEST(SpecText, DiffWithoutTheHeadingSaysHowToMakeOne) {
  Result<SpecSection> section = ReadConstraintsSection(
      "--- a/format/spec.md\n+++ b/format/spec.md\n@@ -700,2 +700,2 @@\n"
      "-Writers must do it.\n+Writers must not do it.\n",
      "change.diff");
  ASSERT_FALSE(section.has_value());
  EXPECT_NE(section.error().message.find("change.diff"), std::string::npos);
  EXPECT_NE(section.error().message.find("-U100000"), std::string::npos);
}

TEST(Trace, JsonNamesTheCounts) {
  const TraceResult t = TraceData("review/edited-seed.txt");
  const std::string json = RenderTraceJson(t);
  EXPECT_NE(json.find("\"clean\": false"), std::string::npos);
  EXPECT_NE(json.find("\"rule\": \"key.no-float-double\""), std::string::npos);
}

TEST(Trace, EvidenceCountsTestsAndTags) {
  const TraceEvidence e = CollectEvidence(ICTK_SOURCE_DIR, 5, 1);
  EXPECT_GT(e.test_files, 0);
  // The model tests name id.above-last.
  EXPECT_GT(e.rules.at(RuleId::kIdAboveLast).tests, 0);
  int64_t tags = 0;
  for (const auto& [id, ev] : e.rules) tags += ev.tags;
  EXPECT_GT(tags, 0);
  const TraceEvidence none = CollectEvidence("", 0, 1);
  EXPECT_EQ(none.test_files, 0);
  EXPECT_EQ(none.rules.at(RuleId::kIdAboveLast).tests, 0);
}

}  // namespace
}  // namespace ictk
