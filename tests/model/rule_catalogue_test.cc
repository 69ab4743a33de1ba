// The rule catalogue (model/judge/rule_catalogue.h): one entry per RuleId, in order, and every
// quote verbatim from the seed text.
#include "model/judge/rule_catalogue.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <set>

#include <fstream>
#include <map>
#include <sstream>
#include <string>

#include "model/judge/rule_catalogue_internal.h"

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
                            << ": add (exactly) one entry to model/judge/rule_entries_*.cc";
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

// Every function a catalogue entry names as checking its rule is defined in the source
// tree (a name of the form `Name` or `Class::Name` followed by its parameter list at the
// start of a definition), so `checked_by` cannot go stale.
/// The source files (.cc and .h) under `folders` of the tree, path -> text.
std::map<std::string, std::string> SourcesUnder(std::initializer_list<const char*> folders) {
  std::map<std::string, std::string> out;
  for (const char* folder : folders) {
    for (const auto& e : std::filesystem::recursive_directory_iterator(
             std::filesystem::path(ICTK_SOURCE_DIR) / folder)) {
      const std::string ext = e.path().extension().string();
      if (ext != ".cc" && ext != ".h") continue;
      std::ifstream in(e.path());
      std::ostringstream text;
      text << in.rdbuf();
      out[std::filesystem::relative(e.path(), ICTK_SOURCE_DIR).generic_string()] = text.str();
    }
  }
  return out;
}

/// Whether `source` defines function `name` (`Name` or `Class::Name`): the name after a
/// return type (or a class's "Class::"), then "(", and the body's "{" before the next ";".
/// A member defined in its class's body is found after `class Class` / `struct Class`.
bool Defines(const std::string& source, const std::string& name) {
  size_t from = 0;
  std::string look = name;
  if (const size_t colons = name.find("::"); colons != std::string::npos) {
    const std::string cls = name.substr(0, colons);
    if (source.find(name + "(") == std::string::npos) {
      from = std::min(source.find("class " + cls + " "), source.find("struct " + cls + " "));
      look = name.substr(colons + 2);
      if (from == std::string::npos) return false;
    }
  }
  for (size_t at = source.find(look + "(", from); at != std::string::npos;
       at = source.find(look + "(", at + 1)) {
    const char before = at == 0 ? '\n' : source[at - 1];
    if (before != ' ' && before != '\n' && before != ':' && before != '*' && before != '&')
      continue;
    const size_t brace = source.find('{', at);
    const size_t semi = source.find(';', at);
    if (brace != std::string::npos && (semi == std::string::npos || brace < semi))
      return true;
  }
  return false;
}

/// The files of `sources` that define free function `name` at namespace scope: a line
/// that starts, in its first column, with the return type and then `name(`, and whose body's
/// "{" comes before the next ";" (a call inside `if (...) {` is indented, a declaration
/// ends with ";").
std::vector<std::string> DefiningFiles(const std::map<std::string, std::string>& sources,
                                       const std::string& name) {
  std::vector<std::string> out;
  for (const auto& [path, text] : sources) {
    for (size_t at = text.find(name + "("); at != std::string::npos;
         at = text.find(name + "(", at + 1)) {
      const size_t line = text.rfind('\n', at) + 1;  // npos + 1 == 0
      const std::string prefix = text.substr(line, at - line);
      if (prefix.empty() || prefix[0] == ' ' || prefix[0] == '/' || prefix[0] == '#' ||
          prefix.find_first_of("(=;") != std::string::npos || prefix.back() != ' ')
        continue;
      const size_t brace = text.find('{', at);
      const size_t semi = text.find(';', at);
      if (brace != std::string::npos && (semi == std::string::npos || brace < semi)) {
        out.push_back(path);
        break;
      }
    }
  }
  return out;
}

TEST(RuleCatalogue, EveryCheckingFunctionResolves) {
  const std::map<std::string, std::string> sources =
      SourcesUnder({"model", "codec", "properties", "adapters", "fixtures"});
  ASSERT_GT(sources.size(), 50u);
  int resolved = 0;
  for (const RuleInfo& r : RuleCatalogue()) {
    for (std::string_view fn : r.checked_by) {
      SCOPED_TRACE(std::string(RuleIdName(r.id)) + ": " + std::string(fn));
      bool defined = false;
      for (const auto& [path, text] : sources) defined = defined || Defines(text, std::string(fn));
      EXPECT_TRUE(defined) << "no definition of " << fn << " in the sources";
      resolved += defined;
    }
  }
  EXPECT_GT(resolved, 90);
}

// A spec reviewer reads model/rules/ alone: the function that checks each constraint rule
// (the seed's groups; ice.* and proto.* are the surroundings' and the protocol's) is
// defined there, and nowhere else in the model.
TEST(RuleCatalogue, ConstraintRulesLiveInModelRules) {
  const std::map<std::string, std::string> model = SourcesUnder({"model"});
  const std::set<std::string_view> surroundings = {"ice", "proto"};
  int checked = 0;
  for (const RuleInfo& r : RuleCatalogue()) {
    if (surroundings.count(r.group)) continue;
    for (std::string_view fn : r.checked_by) {
      SCOPED_TRACE(std::string(RuleIdName(r.id)) + ": " + std::string(fn));
      const std::vector<std::string> files = DefiningFiles(model, std::string(fn));
      ASSERT_FALSE(files.empty()) << "no definition in model/";
      for (const std::string& f : files)
        EXPECT_EQ(f.rfind("model/rules/", 0), 0u) << fn << " is defined in " << f;
      ++checked;
    }
  }
  EXPECT_GT(checked, 60);
}

// One predicate per rule: every checked rule (neither coverage-exempt nor informational)
// names exactly one function, the others at most one.
TEST(RuleCatalogue, EveryRuleNamesOneFunction) {
  int one = 0;
  for (const RuleInfo& r : RuleCatalogue()) {
    SCOPED_TRACE(std::string(RuleIdName(r.id)));
    EXPECT_LE(r.checked_by.size(), 1u) << "a rule lives in one function";
    if (!r.coverage_exempt && r.binds != Binds::kInformational)
      EXPECT_EQ(r.checked_by.size(), 1u) << "a checked rule names its one function";
    one += r.checked_by.size() == 1 ? 1 : 0;
  }
  EXPECT_EQ(one, 92);
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

// Clauses (rule_clauses_*.cc): every rule has at least one; the IDs are "<rule>/<name>"
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
      if (c.gap.empty() && c.exempt.kind == ExemptKind::kNone)
        EXPECT_FALSE(c.tag.empty()) << c.id << " has no generator tag";
      if (r.coverage_exempt) EXPECT_NE(c.exempt.kind, ExemptKind::kNone) << c.id;
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

// Every clause a rule function names in its findings (model/rules/clause.h) is a clause
// of the catalogue, listed once; and a finding filed under it is filed under that
// clause's ID, while a finding of a one-clause rule is filed under its only clause.
TEST(RuleCatalogue, EveryNamedClauseIsInTheCatalogue) {
  std::set<std::string> seen;
  for (const Clause& c : clauses::kAll) {
    const ClauseInfo* info = FindClause(c);
    ASSERT_NE(info, nullptr) << RuleIdName(c.rule) << "/" << c.name;
    EXPECT_EQ(info->id, std::string(RuleIdName(c.rule)) + "/" + std::string(c.name));
    EXPECT_TRUE(seen.insert(info->id).second) << info->id << " is listed twice";
    EXPECT_EQ(ClauseIdOf(Finding{c.rule, std::nullopt, {}, "", c.name}), info->id);
  }
  EXPECT_EQ(ClauseIdOf(Finding{RuleId::kIdNoReuse, std::nullopt, {}, ""}),
            "id.no-reuse/whole");
  // A rule of several clauses whose finding names none is filed under no clause.
  EXPECT_EQ(ClauseIdOf(Finding{RuleId::kKeyPkRequired, std::nullopt, {}, ""}), "");
  EXPECT_EQ(ClauseIdOf(Finding{RuleId::kKeyPkRequired, std::nullopt, {}, "", "nonsense"}),
            "");
}

// The constraint-rule groups: a clause either has a mutant (and a generator tag) or an
// exemption; "no mutant yet" is a gap, and one is left: the reader-side clause no generator
// step gives a reader input for yet (its gap starts "not yet:"). It is named here so that no
// other clause can hide behind it; the other reader-side clauses have mutants certified
// under the reader profile (tests/sample/sample_mutants_test.cc).
TEST(RuleClauses, ConstraintRuleGroupsHaveNoGap) {
  const std::set<std::string> groups = {"def", "key", "sem", "enf", "id",
                                        "upg", "expr", "sch", "upd", "st"};
  // The reader-side def.required-fields/stored-id-and-timestamp has a generator step
  // (parse-metadata/constraint-without-id-or-timestamp) and a mutant too.
  size_t seen = 0, exempt = 0;
  for (const RuleInfo& r : RuleCatalogue()) {
    if (!groups.count(std::string(r.group))) continue;
    for (const ClauseInfo& c : r.clauses) {
      ++seen;
      if (c.exempt.kind != ExemptKind::kNone) ++exempt;
      EXPECT_TRUE(c.gap.empty()) << c.id << " has a gap: " << c.gap;
      EXPECT_FALSE(c.exempt.kind == ExemptKind::kNone && c.tag.empty())
          << c.id << " has neither an exemption nor a generator tag";
    }
  }
  EXPECT_GE(seen, 100u);
  EXPECT_GE(exempt, 10u);
  EXPECT_LE(exempt, 20u) << "exemptions are for clauses no mutant can break";
}

/// The rule and clause IDs a reason names ("st.validated/checked-holds", "proto.request").
std::vector<std::string> NamedIds(std::string_view reason) {
  static const std::set<std::string> kGroups = {"def", "key", "sem", "enf", "id", "upg",
                                                "expr", "sch", "upd", "st", "ice", "proto"};
  std::vector<std::string> out;
  auto id_char = [](char ch) {
    return (ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9') || ch == '-' || ch == '.' ||
           ch == '/';
  };
  size_t i = 0;
  while (i < reason.size()) {
    if (!id_char(reason[i])) {
      ++i;
      continue;
    }
    size_t j = i;
    while (j < reason.size() && id_char(reason[j])) ++j;
    std::string token(reason.substr(i, j - i));
    while (!token.empty() && (token.back() == '.' || token.back() == '-')) token.pop_back();
    const size_t dot = token.find('.');
    if (dot != std::string::npos && kGroups.count(token.substr(0, dot)) &&
        dot + 1 < token.size())
      out.push_back(token);
    i = j;
  }
  return out;
}

bool IsRuleName(const std::string& name) {
  for (RuleId id : kAllRuleIds)
    if (RuleIdName(id) == name) return true;
  return false;
}

// An exemption is one of the closed kinds, with a reason that is not work left undone;
// every ID a reason names exists; a composite or inexpressible clause names the clauses
// (or rules) whose mutants catch it; a permission is a clause that says "may".
TEST(RuleClauses, ExemptionsAreOfTheClosedKinds) {
  const std::set<std::string_view> kinds = {"informational", "permission", "always-allowed",
                                            "composite", "inexpressible"};
  size_t exempt = 0;
  for (const ClauseInfo& c : AllClauses()) {
    if (c.exempt.kind == ExemptKind::kNone) {
      EXPECT_TRUE(c.exempt.reason.empty()) << c.id;
      continue;
    }
    ++exempt;
    SCOPED_TRACE(c.id);
    EXPECT_TRUE(kinds.count(ToString(c.exempt.kind))) << ToString(c.exempt.kind);
    EXPECT_TRUE(c.gap.empty()) << "an exempt clause has no gap: " << c.gap;
    ASSERT_FALSE(c.exempt.reason.empty());
    for (std::string_view undone : {"not yet", "no mutant yet", "TODO", "later", "gap"})
      EXPECT_EQ(c.exempt.reason.find(undone), std::string_view::npos)
          << "\"" << undone << "\" is work not done, a gap: " << c.exempt.reason;
    const std::vector<std::string> named = NamedIds(c.exempt.reason);
    for (const std::string& id : named) {
      if (id.find('/') != std::string::npos)
        EXPECT_NE(FindClause(id), nullptr) << "names no clause: " << id;
      else
        EXPECT_TRUE(IsRuleName(id)) << "names no rule: " << id;
    }
    const RuleInfo& rule = FindRule(c.rule);
    switch (c.exempt.kind) {
      case ExemptKind::kComposite: {
        size_t clauses = 0;
        for (const std::string& id : named) {
          if (id.find('/') == std::string::npos) continue;
          ++clauses;
          const ClauseInfo* other = FindClause(id);
          if (other == nullptr) continue;
          EXPECT_NE(other->id, c.id);
          EXPECT_EQ(other->exempt.kind, ExemptKind::kNone)
              << id << " is exempt itself, so it lends no mutant";
        }
        EXPECT_GE(clauses, 1u) << "a composite clause names the clauses of its mutants";
        break;
      }
      case ExemptKind::kInexpressible:
        EXPECT_FALSE(named.empty() && c.exempt.reason.find("grammar") == std::string::npos)
            << "say what makes a breach inexpressible: the clauses a breach breaks, or the "
               "grammar";
        break;
      case ExemptKind::kPermission:
        EXPECT_TRUE(c.words.find("may") != std::string_view::npos ||
                    rule.quote.find("may") != std::string_view::npos)
            << "a permission is a clause that says \"may\": " << c.words;
        break;
      case ExemptKind::kInformational:
        EXPECT_TRUE(rule.binds == Binds::kInformational || rule.coverage_exempt ||
                    !named.empty())
            << "an informational clause is a rule that binds nobody, or names the rules "
               "that make its fact true";
        break;
      default:
        break;
    }
  }
  EXPECT_GE(exempt, 10u);
  EXPECT_EQ(ToString(ExemptKind::kNone), "");
  EXPECT_EQ(ToString(ExemptKind::kComposite), "composite");
}

}  // namespace
}  // namespace ictk
