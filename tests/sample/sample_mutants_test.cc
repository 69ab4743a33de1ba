/// \file
/// Every mutant of the sample is real: for each, a hand-written script on which the
/// mutant answers differently from the correct sample, first at a named step (the answers
/// before it agree), where the correct sample's answer is the legal one the rule demands.
/// The rule ID of each case is the mutant's (SampleMutants), printed in the test name's
/// trace.
#include <gtest/gtest.h>

#include <map>
#include <set>
#include <string>
#include <vector>

#include "model/judge/rule_catalogue.h"
#include "model/rules/switches.h"
#include "sample/sample_adapter.h"
#include "tests/sample/mutant_cases.h"

namespace ictk::sample_test {
namespace {

class SampleMutantTest : public ::testing::TestWithParam<MutantCase> {};

TEST_P(SampleMutantTest, DiffersFromTheCorrectSampleAtTheWitnessStep) {
  const MutantCase& c = GetParam();
  std::string rule;
  for (const MutantInfo& m : SampleMutants())
    if (m.name == c.mutant) rule = m.rule;
  ASSERT_FALSE(rule.empty()) << "no mutant named " << c.mutant;
  SCOPED_TRACE(fmt::format("mutant {} ({})", c.mutant, rule));
  const std::vector<json> good = RunSample(c.script);
  const std::vector<json> bad = RunSample(c.script, "mutant=" + c.mutant);
  ASSERT_EQ(good.size(), c.script.size());
  ASSERT_EQ(bad.size(), c.script.size());
  size_t first = 0;
  for (size_t i = 0; i < good.size() && first == 0; ++i)
    if (good[i] != bad[i]) first = i + 1;
  ASSERT_NE(first, 0u) << "the mutant answers every step like the correct sample";
  EXPECT_EQ(first, c.witness) << "correct: " << good[first - 1].dump()
                              << "\nmutant: " << bad[first - 1].dump();
  c.expect(good[c.witness - 1]);
}

INSTANTIATE_TEST_SUITE_P(Mutants, SampleMutantTest, ::testing::ValuesIn(MutantCases()),
                         [](const auto& info) {
                           std::string n = info.param.mutant;
                           for (char& ch : n)
                             if (ch == '-') ch = '_';
                           return n;
                         });

TEST(SampleMutants, EveryMutantHasAWitnessAndARule) {
  std::set<std::string> witnessed;
  for (const MutantCase& c : MutantCases()) witnessed.insert(c.mutant);
  ASSERT_GE(SampleMutants().size(), 70u);
  std::set<std::string> names;
  for (const MutantInfo& m : SampleMutants()) {
    EXPECT_TRUE(names.insert(m.name).second) << "duplicate mutant " << m.name;
    EXPECT_NE(m.rule.find('.'), std::string::npos) << m.name;
    EXPECT_FALSE(m.description.empty()) << m.name;
    EXPECT_EQ(witnessed.count(m.name), 1u)
        << "mutant " << m.name << " has no witness script";
  }
}

// Every mutant ignores one clause of its own rule (rule_clauses.cc).
TEST(SampleMutants, EveryMutantIgnoresAClauseOfItsRule) {
  for (const MutantInfo& m : SampleMutants()) {
    SCOPED_TRACE(m.name);
    const ClauseInfo* c = FindClause(m.clause);
    ASSERT_NE(c, nullptr) << "unknown clause " << m.clause;
    EXPECT_EQ(RuleIdName(c->rule), m.rule);
    // A second clause the same bug breaks is another clause of the same rule.
    for (const std::string& also : m.also_clauses) {
      const ClauseInfo* a = FindClause(also);
      ASSERT_NE(a, nullptr) << "unknown clause " << also;
      EXPECT_EQ(a->rule, c->rule) << also;
      EXPECT_NE(a->id, c->id) << also;
    }
  }
}

// Catalogue completeness, mutant side: every clause of the catalogue either has a mutant
// that ignores it (and a generator tag, checked by the catalogue test), or an exemption (no
// mutant can exist), or says what is not done yet (its gap); an exempt clause or one with a
// gap has no mutant, so neither is ever stale.
TEST(SampleMutants, EveryClauseWithoutAGapHasAMutant) {
  std::map<std::string, std::vector<std::string>> by_clause;
  for (const MutantInfo& m : SampleMutants()) by_clause[m.clause].push_back(m.name);
  size_t with_mutant = 0;
  for (const ClauseInfo& c : AllClauses()) {
    SCOPED_TRACE(c.id);
    const bool has = by_clause.count(c.id) != 0;
    if (c.gap.empty() && c.exempt.kind == ExemptKind::kNone) {
      EXPECT_TRUE(has) << "no sample mutant ignores this clause";
      EXPECT_FALSE(c.tag.empty());
      ++with_mutant;
    } else if (c.exempt.kind != ExemptKind::kNone) {
      EXPECT_FALSE(has) << "the clause has a mutant (" << by_clause[c.id].front()
                        << ") yet says none can exist: " << c.exempt.reason;
    } else {
      EXPECT_FALSE(has) << "the clause has a mutant (" << by_clause[c.id].front()
                        << ") yet still gives a gap: " << c.gap;
    }
  }
  EXPECT_GE(with_mutant, 80u);
}

// The mutants of the constraint-rule clauses that had none before: each ignores one
// clause, which has no gap and no exemption.
TEST(SampleMutants, FormerGapsHaveTheirMutants) {
  const std::map<std::string, std::string> mutants = {
      {"missing-type-inferred", "def.required-fields/type"},
      {"absent-last-id-one", "id.last-default-zero/whole"},
      {"ill-typed-check-accepted", "expr.well-typed/whole"},
      {"referenced-rename-refused", "sch.rename-reorder/rename"},
      {"referenced-move-refused", "sch.rename-reorder/reorder"},
      {"validated-carried-over-adds", "st.validated/carried"},
      {"unchecked-recorded-invalid", "st.invalid/checked"},
      {"statuses-omitted-without-adds", "st.every-snapshot/whole"},
      {"variant-key-accepted", "key.primitive-only/variant"},
  };
  for (const auto& [name, clause] : mutants) {
    SCOPED_TRACE(name);
    const MutantInfo* found = nullptr;
    for (const MutantInfo& m : SampleMutants())
      if (m.name == name) found = &m;
    ASSERT_NE(found, nullptr);
    EXPECT_EQ(found->clause, clause);
    const ClauseInfo* c = FindClause(clause);
    ASSERT_NE(c, nullptr);
    EXPECT_TRUE(c->gap.empty()) << c->gap;
    EXPECT_EQ(c->exempt.kind, ExemptKind::kNone);
    EXPECT_FALSE(c->tag.empty());
  }
}

// The surrounding Iceberg rules (ice.*), the protocol conventions (proto.*) and the
// reader-side clauses: each clause has a mutant, or an exemption of one of the closed
// kinds (no mutant can exist), or is one of the recorded clauses still to do ("not yet:",
// listed here so that a new one, or one since done, fails).
TEST(SampleMutants, SurroundingProtocolAndReaderSideClausesHaveAMutantOrAReason) {
  const std::set<std::string> reader_side = {
      "def.required-fields/stored-id-and-timestamp", "def.id-unique/whole",
      "id.readers-tolerate-missing/whole", "upg.readers-ignore-identifiers/whole"};
  // Empty since the last three (def.required-fields/stored-id-and-timestamp,
  // ice.single-value/writes, proto.timestamp-from-now/every-timestamp) got mutants.
  const std::set<std::string> not_yet = {};
  std::map<std::string, std::vector<const MutantInfo*>> by_clause;
  for (const MutantInfo& m : SampleMutants()) by_clause[m.clause].push_back(&m);
  size_t with_mutant = 0, exempt = 0;
  std::set<std::string> still_to_do;
  for (const ClauseInfo& c : AllClauses()) {
    const std::string group(RuleIdName(c.rule).substr(0, RuleIdName(c.rule).find('.')));
    if (group != "ice" && group != "proto" && !reader_side.count(c.id)) continue;
    SCOPED_TRACE(c.id);
    if (by_clause.count(c.id)) {
      ++with_mutant;
      EXPECT_TRUE(c.gap.empty()) << c.gap;
      EXPECT_FALSE(c.tag.empty());
      continue;
    }
    const std::string gap(c.gap);
    if (c.exempt.kind != ExemptKind::kNone) {
      EXPECT_TRUE(gap.empty()) << gap;
      ++exempt;
      continue;
    }
    EXPECT_EQ(gap.rfind("not yet:", 0), 0u)
        << "a clause without a mutant needs an exempt reason or a \"not yet:\" gap: " << gap;
    EXPECT_EQ(not_yet.count(c.id), 1u) << "a new clause without a mutant: " << gap;
    still_to_do.insert(c.id);
  }
  EXPECT_EQ(still_to_do, not_yet) << "a recorded clause now has a mutant: drop it here";
  EXPECT_GE(with_mutant, 36u);
  EXPECT_GE(exempt, 2u);
  // The reader-side clauses that a strict reader profile makes catchable have mutants
  // certified under the reader profile.
  for (const char* id : {"def.id-unique/whole", "id.readers-tolerate-missing/whole",
                         "upg.readers-ignore-identifiers/whole",
                         "def.required-fields/stored-id-and-timestamp"}) {
    ASSERT_EQ(by_clause.count(id), 1u) << id;
    EXPECT_EQ(by_clause[id].front()->profile, "v4-reader") << id;
  }
}

// A mutant's declared profile is a sample profile and each of its switches a valid
// setting; a mutant caught only under a stricter reading declares it.
TEST(SampleMutants, DeclaredProfilesAndSwitchesAreValid) {
  size_t with_profile = 0;
  for (const MutantInfo& m : SampleMutants()) {
    SCOPED_TRACE(m.name);
    if (!m.profile.empty()) {
      ++with_profile;
      EXPECT_TRUE(MakeSampleAdapter("mutant=" + m.name + "&profile=" + m.profile).has_value());
    }
    for (const std::string& setting : m.switches) {
      const size_t eq = setting.find('=');
      ASSERT_NE(eq, std::string::npos) << setting;
      Switches switches;
      EXPECT_EQ(SetSwitch(switches, setting.substr(0, eq), setting.substr(eq + 1)), "")
          << setting;
    }
  }
  EXPECT_GE(with_profile, 4u);
  for (const MutantInfo& m : SampleMutants())
    if (m.name == "reader-accepts-duplicate-ids" ||
        m.name == "reader-accepts-missing-id-or-timestamp")
      EXPECT_EQ(m.switches, std::vector<std::string>{"invalid-metadata-on-read=reject"});
}

TEST(SampleMutants, UnknownMutantIsAUsageError) {
  auto a = MakeSampleAdapter("mutant=no-such-bug");
  ASSERT_FALSE(a.has_value());
  EXPECT_EQ(a.error().kind, ErrorKind::kUsage);
  EXPECT_FALSE(MakeSampleAdapter("colour=red").has_value());
  EXPECT_TRUE(MakeSampleAdapter("").has_value());
}

}  // namespace
}  // namespace ictk::sample_test
