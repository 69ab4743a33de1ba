// The rule catalogue (model/rule_catalogue.h): one entry per RuleId, in order, and every
// quote verbatim from the seed text.
#include "model/rule_catalogue.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <set>

#include <fstream>
#include <map>
#include <sstream>
#include <string>

#include "model/rule_catalogue_internal.h"

namespace ictk {
namespace {

/// The seed's words as the catalogue quotes them: the diff's leading "+" of each line
/// removed, whitespace collapsed to single spaces.
std::string NormalizedSeed() {
  std::ifstream in(ICTK_SOURCE_DIR "/tests/data/seed/000_f6814d186b7076a8.txt");
  EXPECT_TRUE(in.good()) << "the seed text is missing";
  std::ostringstream raw;
  raw << in.rdbuf();
  std::istringstream words(raw.str());
  std::string out, word;
  while (words >> word) {
    if (word[0] == '+') word.erase(0, 1);
    if (word.empty()) continue;
    if (!out.empty()) out += ' ';
    out += word;
  }
  return out;
}

TEST(RuleCatalogue, OneEntryPerRuleIdInOrder) {
  const auto& catalogue = RuleCatalogue();
  ASSERT_EQ(catalogue.size(), std::size(kAllRuleIds));
  for (size_t i = 0; i < catalogue.size(); ++i) {
    EXPECT_EQ(catalogue[i].id, kAllRuleIds[i]) << i;
    EXPECT_EQ(&FindRule(kAllRuleIds[i]), &catalogue[i]);
  }
}

TEST(RuleCatalogue, EveryRuleIdHasExactlyOneWrittenEntry) {
  std::map<RuleId, int> count;
  for (const RuleInfo& e : RuleCatalogueEntries()) ++count[e.id];
  for (RuleId id : kAllRuleIds) {
    EXPECT_EQ(count[id], 1) << RuleIdName(id)
                            << ": add (exactly) one entry to model/rule_catalogue.cc";
  }
  EXPECT_EQ(RuleCatalogueEntries().size(), std::size(kAllRuleIds));
}

TEST(RuleCatalogue, EveryEntryHasTextAndGroup) {
  for (const RuleInfo& r : RuleCatalogue()) {
    SCOPED_TRACE(std::string(RuleIdName(r.id)));
    EXPECT_NE(r.summary, kUncataloguedSummary);
    EXPECT_FALSE(r.quote.empty() && r.summary.empty());
    EXPECT_EQ(std::string(r.group) + ".",
              std::string(RuleIdName(r.id)).substr(0, r.group.size() + 1));
    if (!r.coverage_exempt && r.binds != Binds::kInformational) {
      EXPECT_FALSE(r.checked_by.empty()) << "a checked rule names its functions";
    }
  }
}

TEST(RuleCatalogue, QuotesAreVerbatimFromTheSeed) {
  const std::string seed = NormalizedSeed();
  ASSERT_FALSE(seed.empty());
  int quoted = 0;
  for (const RuleInfo& r : RuleCatalogue()) {
    if (r.quote.empty()) continue;
    ++quoted;
    EXPECT_NE(seed.find(r.quote), std::string::npos)
        << RuleIdName(r.id) << ": \"" << r.quote << "\" is not in the seed text";
  }
  EXPECT_GE(quoted, 60);
}

TEST(RuleCatalogue, DerivedAndSurroundingRulesHaveNoQuote) {
  EXPECT_TRUE(FindRule(RuleId::kDefRequiredFields).quote.empty());
  EXPECT_TRUE(FindRule(RuleId::kSchPkStaysRequired).quote.empty());
  for (const RuleInfo& r : RuleCatalogue()) {
    if (r.group == "ice") EXPECT_TRUE(r.quote.empty()) << RuleIdName(r.id);
  }
}

TEST(RuleCatalogue, CoverageExemptRulesOfSpec) {
  // enf.untrusted, def.evolve-independently, st.enforcement-separate (informational) and
  // expr.row-local (the expression grammar cannot break it) are exempt from coverage.
  for (RuleId id : {RuleId::kEnfUntrusted, RuleId::kDefEvolveIndependently,
                    RuleId::kStEnforcementSeparate, RuleId::kExprRowLocal}) {
    EXPECT_TRUE(FindRule(id).coverage_exempt) << RuleIdName(id);
  }
  int exempt = 0;
  for (const RuleInfo& r : RuleCatalogue()) exempt += r.coverage_exempt ? 1 : 0;
  EXPECT_EQ(exempt, 4);
}

TEST(RuleCatalogue, BindsPrints) {
  EXPECT_EQ(ToString(Binds::kWriter), "writer");
  EXPECT_EQ(ToString(Binds::kReader), "reader");
  EXPECT_EQ(ToString(Binds::kMetadata), "metadata");
  EXPECT_EQ(ToString(Binds::kInformational), "informational");
  EXPECT_EQ(FindRule(RuleId::kStReaderLookup).binds, Binds::kReader);
}

// Clauses (rule_clauses.cc): every rule has at least one; the IDs are "<rule>/<name>"
// and unique; the words are the rule's own (in its quote or summary); a clause without a
// gap names the generator tag that exercises it.
TEST(RuleClauses, EveryRuleIsSplitIntoClausesWithTheirWords) {
  std::set<std::string> ids;
  size_t split = 0;
  for (const RuleInfo& r : RuleCatalogue()) {
    SCOPED_TRACE(std::string(RuleIdName(r.id)));
    ASSERT_FALSE(r.clauses.empty());
    if (r.clauses.size() > 1) ++split;
    for (const ClauseInfo& c : r.clauses) {
      EXPECT_EQ(c.rule, r.id);
      EXPECT_EQ(c.id, std::string(RuleIdName(r.id)) + "/" + std::string(c.name));
      EXPECT_TRUE(ids.insert(c.id).second) << "duplicate clause " << c.id;
      EXPECT_FALSE(c.words.empty()) << c.id;
      EXPECT_TRUE(r.quote.find(c.words) != std::string_view::npos ||
                  r.summary.find(c.words) != std::string_view::npos)
          << c.id << ": \"" << c.words << "\" is not in the rule's quote or summary";
      if (c.gap.empty()) EXPECT_FALSE(c.tag.empty()) << c.id << " has no generator tag";
      if (r.coverage_exempt) EXPECT_FALSE(c.gap.empty()) << c.id;
      EXPECT_EQ(FindClause(c.id), &*std::find_if(AllClauses().begin(), AllClauses().end(),
                                                [&](const ClauseInfo& x) {
                                                  return x.id == c.id;
                                                }));
    }
  }
  // The rules the issue names have their clauses apart.
  EXPECT_GE(split, 20u);
  for (const char* id : {"key.pk-required/own-flag", "key.pk-required/optional-parent",
                         "sch.remove-referenced/rejected", "sch.remove-referenced/nested",
                         "sch.remove-referenced/unless-removed",
                         "key.not-in-list-map/list", "key.not-in-list-map/map"})
    EXPECT_NE(FindClause(id), nullptr) << id;
  EXPECT_EQ(FindClause("key.pk-required/no-such-clause"), nullptr);
  EXPECT_EQ(AllClauses().size(), ids.size());
}

}  // namespace
}  // namespace ictk
