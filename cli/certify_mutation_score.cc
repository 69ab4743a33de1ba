/// \file
/// `ictk certify --mutation-score`: certifies every sample mutant
/// (builtin:sample?mutant=NAME) as the default run does — the fixture corpus alone, then
/// the random histories — and reports how many are killed, by which and how soon; a
/// clause is covered when a mutant that ignores it was killed. Exit 0 every mutant
/// killed, 1 a survivor, 2 usage.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <vector>

#include "cli/certify_internal.h"
#include "cli/files_internal.h"
#include "codec/json_text.h"
#include "model/judge/rule_catalogue.h"

#if defined(ICTK_HAVE_SAMPLE) && __has_include("sample/sample_adapter.h")
#include "sample/sample_adapter.h"
#define ICTK_CERTIFY_WITH_SAMPLE 1
#endif

namespace ictk::cli {

#ifdef ICTK_CERTIFY_WITH_SAMPLE
namespace {

namespace fs = std::filesystem;

/// One mutant's line of the score.
struct Row {
  MutantInfo mutant;
  bool killed = false;
  std::optional<int64_t> histories_to_kill;
  double ms_to_kill = 0;
  std::string rule;
  /// The first random kill is filed under the mutant's own rule: the failure's primary
  /// rule is the mutant's (not merely one of the rules its findings name).
  bool rule_matches = false;
  std::string clause;  ///< the clause the first random kill is filed under ("" none)
  bool clause_matches = false;
  std::string fixture;
  int exit_code = 0;
  // The corpus pass (unless --no-corpus): the fixture corpus replayed alone, as the
  // default certify run replays it before its random histories.
  bool by_histories = false;
  bool by_corpus = false;
  std::string corpus_fixture;  ///< the first failing fixture's ID
  std::string corpus_rule;
  bool corpus_rule_matches = false;
  std::string corpus_clause;
  /// Whether the mutant's kill (the random one, else the corpus one) is filed under its
  /// own rule.
  bool OwnRule() const { return by_histories ? rule_matches : corpus_rule_matches; }
};

/// The score over all rows.
struct Score {
  int64_t killed = 0, named = 0, by_histories = 0, by_corpus = 0;
  int64_t own_rule = 0, own_clause = 0;  ///< kills filed under the mutant's rule, clause
  int64_t median = 0;  ///< histories to kill
  int64_t with_mutant = 0, covered = 0;  ///< clauses
  std::vector<std::string> uncovered;
  std::string split;  ///< " (N by the random histories, M by the corpus)"
};

/// " (profile v4-reader, invalid-metadata-on-read=reject)" for a mutant certified under
/// its own profile or switches; "" for a writer mutant at the run's switches.
std::string MutantConditions(const MutantInfo& m) {
  std::vector<std::string> parts;
  if (!m.profile.empty()) parts.push_back("profile " + m.profile);
  parts.insert(parts.end(), m.switches.begin(), m.switches.end());
  return parts.empty() ? "" : fmt::format(" ({})", fmt::join(parts, ", "));
}

/// A --mutant that names no mutant is a usage error, not an empty (0/0) score.
bool KnownMutants(const CertifyArgs& args) {
  for (const std::string& name : args.mutants) {
    bool known = false;
    for (const MutantInfo& m : SampleMutants()) known = known || m.name == name;
    if (!known) {
      std::vector<std::string> names;
      for (const MutantInfo& m : SampleMutants()) names.push_back(m.name);
      std::fprintf(stderr, "%s",
                   fmt::format("ictk certify: --mutant {}: no mutant of that name (known: "
                               "{}; `ictk mutants --list` describes them)\n",
                               name, fmt::join(names, ", "))
                       .c_str());
      return false;
    }
  }
  return true;
}

/// The corpus alone (the default run's first part), into DIR/corpus; false when it could
/// not be replayed.
bool CorpusPass(const GlobalOptions& global, const CertifyArgs& quiet,
                const Switches& mutant_switches, const std::string& spec,
                const std::string& dir, Row& row) {
  const MutantInfo& m = row.mutant;
  CertifyArgs corpus_only = quiet;
  corpus_only.mutation_score = false;  // Certify keeps the corpus
  corpus_only.histories = 0;
  corpus_only.resume.clear();
  CertifyRunResult c = Certify(global, corpus_only, mutant_switches, spec,
                               dir.empty() ? "" : dir + "/corpus", /*fail_fast=*/false);
  if (c.exit_code == 2) {
    std::fprintf(stderr, "ictk certify: mutant %s: the corpus could not be replayed\n",
                 m.name.c_str());
    return false;
  }
  for (const CaseRecord& k : c.report.cases) {
    if (IsConformant(k.verdict)) continue;
    row.by_corpus = true;
    row.corpus_fixture = k.id;
    row.corpus_rule = k.failure ? k.failure->rule : std::string(ToString(k.verdict));
    row.corpus_rule_matches = row.corpus_rule == m.rule;
    if (k.failure) row.corpus_clause = k.failure->clause;
    break;
  }
  return true;
}

/// The random histories, until the first failure; false when the mutant could not be
/// certified.
bool HistoriesPass(const GlobalOptions& global, const CertifyArgs& quiet,
                   const Switches& mutant_switches, const std::string& spec,
                   const std::string& dir, Row& row) {
  const MutantInfo& m = row.mutant;
  CertifyRunResult r = Certify(global, quiet, mutant_switches, spec, dir, /*fail_fast=*/true);
  row.exit_code = r.exit_code;
  if (r.exit_code == 2) {
    std::fprintf(stderr, "ictk certify: mutant %s could not be certified\n", m.name.c_str());
    return false;
  }
  row.by_histories = r.exit_code == 1;
  row.killed = row.by_histories || row.by_corpus;
  if (r.first_failing_index) {
    row.histories_to_kill = *r.first_failing_index + 1;
    row.ms_to_kill = r.first_failure_ms;
    for (const CaseRecord& c : r.report.cases) {
      if (IsConformant(c.verdict)) continue;
      row.rule = c.failure ? c.failure->rule : std::string(ToString(c.verdict));
      row.rule_matches = row.rule == m.rule;
      if (c.failure) {
        row.fixture = c.failure->fixture;
        row.clause = c.failure->clause;
        row.clause_matches =
            row.clause == m.clause || std::find(m.also_clauses.begin(), m.also_clauses.end(),
                                                row.clause) != m.also_clauses.end();
      }
      break;
    }
  }
  return true;
}

void PrintRow(const Row& row, const CertifyArgs& args, bool with_corpus) {
  const MutantInfo& m = row.mutant;
  std::string how =
      row.by_histories
          ? fmt::format("after {} histories ({:.0f} ms) by {}{}", *row.histories_to_kill,
                        row.ms_to_kill, row.clause.empty() ? row.rule : row.clause,
                        !row.rule_matches ? " (NOT the mutant's rule: " + m.rule + ")"
                        : !row.clause_matches ? " (NOT the mutant's clause: " + m.clause + ")"
                                              : "")
          : fmt::format("not by {} histories (its rule: {})", args.histories, m.rule);
  if (row.by_corpus)
    how += fmt::format("; by the corpus: fixture {} ({}{})", row.corpus_fixture,
                       row.corpus_rule,
                       row.corpus_rule_matches || row.by_histories
                           ? ""
                           : ", NOT the mutant's rule: " + m.rule);
  else if (with_corpus)
    how += "; not by the corpus";
  std::printf("%-40s %-8s %s%s\n", m.name.c_str(), row.killed ? "killed" : "SURVIVED",
              how.c_str(), MutantConditions(m).c_str());
  std::fflush(stdout);
}

Score ScoreOf(const std::vector<Row>& rows, bool with_corpus, const std::string& corpus_note) {
  Score s;
  std::vector<int64_t> to_kill;
  for (const Row& r : rows) {
    if (r.killed) ++s.killed;
    if (r.by_histories) ++s.by_histories;
    if (r.by_corpus) ++s.by_corpus;
    if (r.rule_matches) ++s.named;
    if (r.killed && r.OwnRule()) ++s.own_rule;
    if (r.by_histories && r.clause_matches) ++s.own_clause;
    if (r.histories_to_kill) to_kill.push_back(*r.histories_to_kill);
  }
  std::sort(to_kill.begin(), to_kill.end());
  s.median = to_kill.empty() ? 0 : to_kill[to_kill.size() / 2];
  // Clause coverage: a clause is covered when a mutant that ignores it was killed.
  std::set<std::string> killed_clauses;
  for (const Row& r : rows)
    if (r.killed) killed_clauses.insert(r.mutant.clause);
  for (const ClauseInfo& c : AllClauses()) {
    // An exempt clause can have no mutant; a clause with a gap has none yet.
    if (!c.gap.empty() || c.exempt.kind != ExemptKind::kNone) continue;
    ++s.with_mutant;
    if (killed_clauses.count(c.id))
      ++s.covered;
    else
      s.uncovered.push_back(c.id);
  }
  s.split = !with_corpus ? fmt::format(" (no corpus: {})", corpus_note)
                         : fmt::format(" ({} by the random histories, {} by the corpus)",
                                       s.by_histories, s.by_corpus);
  return s;
}

void PrintScore(const Score& s, size_t mutants, const CertifyArgs& args) {
  std::printf("clauses: %lld of the %lld clauses with a mutant were covered by a kill%s%s\n",
              static_cast<long long>(s.covered), static_cast<long long>(s.with_mutant),
              s.uncovered.empty() ? "" : "; not covered: ",
              fmt::format("{}", fmt::join(s.uncovered, ", ")).c_str());
  std::printf(
      "mutation score: %lld/%zu killed%s, %lld random kills named the mutant's rule; "
      "median histories-to-kill %lld (seed %llu, budget %lld histories)\n",
      static_cast<long long>(s.killed), mutants, s.split.c_str(),
      static_cast<long long>(s.named), static_cast<long long>(s.median),
      static_cast<unsigned long long>(args.seed), static_cast<long long>(args.histories));
  std::printf(
      "blame: %lld of the %lld kills filed under the mutant's own rule; %lld of the %lld "
      "random kills under its own clause\n",
      static_cast<long long>(s.own_rule), static_cast<long long>(s.killed),
      static_cast<long long>(s.own_clause), static_cast<long long>(s.by_histories));
}

nlohmann::json RowJson(const Row& r) {
  return {{"mutant", r.mutant.name},
          {"rule", r.mutant.rule},
          {"clause", r.mutant.clause},
          {"also-clauses", r.mutant.also_clauses},
          {"profile", r.mutant.profile.empty() ? "writer" : r.mutant.profile},
          {"switches", r.mutant.switches},
          {"description", r.mutant.description},
          {"killed", r.killed},
          {"histories-to-kill", r.histories_to_kill ? nlohmann::json(*r.histories_to_kill)
                                                    : nlohmann::json(nullptr)},
          {"ms-to-kill", r.ms_to_kill},
          {"named-rule", r.rule},
          {"rule-matches", r.rule_matches},
          {"named-clause", r.clause},
          {"clause-matches", r.clause_matches},
          {"own-rule", r.killed && r.OwnRule()},
          {"fixture", r.fixture},
          {"killed-by-histories", r.by_histories},
          {"killed-by-corpus", r.by_corpus},
          {"corpus-fixture", r.corpus_fixture},
          {"corpus-rule", r.corpus_rule},
          {"corpus-rule-matches", r.corpus_rule_matches},
          {"corpus-clause", r.corpus_clause}};
}

std::string RowMarkdown(const Row& r) {
  return fmt::format("| `{}` | `{}` | `{}` | {} | {} | {} | {} | {:.0f} | {} | {} | {} |\n",
                     r.mutant.name, r.mutant.rule, r.mutant.clause,
                     r.mutant.profile.empty() ? "writer" : r.mutant.profile,
                     r.mutant.switches.empty()
                         ? std::string("defaults")
                         : fmt::format("`{}`", fmt::join(r.mutant.switches, "`, `")),
                     r.killed ? "killed" : "**survived**",
                     r.histories_to_kill ? std::to_string(*r.histories_to_kill) : "-",
                     r.ms_to_kill, r.rule.empty() ? "-" : "`" + r.rule + "`",
                     r.corpus_fixture.empty() ? "-" : "`" + r.corpus_fixture + "`",
                     r.corpus_rule.empty() ? "-" : "`" + r.corpus_rule + "`");
}

/// mutation-score.json and mutation-score.md under --out; false (printed) when one
/// cannot be written.
bool WriteScoreFiles(const std::vector<Row>& rows, const Score& s, const CertifyArgs& args,
                     bool with_corpus, const std::string& corpus_note) {
  nlohmann::json j = nlohmann::json::array();
  std::string md = fmt::format(
      "# Mutation score: {}/{} killed{}\n\nseed {}, the corpus {} and at most {} random "
      "histories per mutant; {} random kills named the mutant's rule; median "
      "histories-to-kill {}; {} of the {} clauses with a mutant covered by a kill.\n\n| "
      "mutant | rule | clause | profile | switches | result | histories to kill | ms to "
      "kill | rule named | corpus fixture | corpus rule |\n"
      "|---|---|---|---|---|---|---:|---:|---|---|---|\n",
      s.killed, rows.size(), s.split, args.seed,
      with_corpus ? std::string("replayed") : "not replayed (" + corpus_note + ")",
      args.histories, s.named, s.median, s.covered, s.with_mutant);
  for (const Row& r : rows) {
    j.push_back(RowJson(r));
    md += RowMarkdown(r);
  }
  std::string error;
  if (!WriteFile(fs::path(args.out) / "mutation-score.json", DumpJson(j, 2) + "\n", error) ||
      !WriteFile(fs::path(args.out) / "mutation-score.md", md, error)) {
    std::fprintf(stderr, "ictk certify: %s\n", error.c_str());
    return false;
  }
  return true;
}

}  // namespace
#endif

int RunMutationScore(const GlobalOptions& global, const CertifyArgs& args,
                     const Switches& switches) {
#ifdef ICTK_CERTIFY_WITH_SAMPLE
  std::vector<Row> rows;
  // The corpus part runs when a corpus is found (as certify finds it); without one the
  // score says so, and is the random histories' alone.
  std::string corpus_note;
  const bool with_corpus = !CorpusDir(args, &corpus_note).empty();
  if (!with_corpus)
    std::fprintf(stderr, "ictk certify: --mutation-score without the corpus (%s)\n",
                 corpus_note.c_str());
  if (!KnownMutants(args)) return 2;
  for (const MutantInfo& m : SampleMutants()) {
    if (!args.mutants.empty() &&
        std::find(args.mutants.begin(), args.mutants.end(), m.name) == args.mutants.end())
      continue;
    // Each mutant runs under the profile and switches it declares (a reader that must
    // refuse what it accepts is caught only under invalid-metadata-on-read=reject), on
    // top of the run's own switches.
    const std::string spec = "builtin:sample?mutant=" + m.name +
                             (m.profile.empty() ? "" : "&profile=" + m.profile);
    Switches mutant_switches = switches;
    if (const std::string error = ApplySwitchSettings(mutant_switches, m.switches, "mutant");
        !error.empty()) {
      std::fprintf(stderr, "ictk certify: mutant %s: %s\n", m.name.c_str(), error.c_str());
      return 2;
    }
    const std::string dir = args.out.empty() ? "" : args.out + "/mutants/" + m.name;
    CertifyArgs quiet = args;
    quiet.quiet = true;
    Row row;
    row.mutant = m;
    if (with_corpus && !CorpusPass(global, quiet, mutant_switches, spec, dir, row)) return 2;
    if (!HistoriesPass(global, quiet, mutant_switches, spec, dir, row)) return 2;
    PrintRow(row, args, with_corpus);
    rows.push_back(std::move(row));
  }
  const Score score = ScoreOf(rows, with_corpus, corpus_note);
  PrintScore(score, rows.size(), args);
  if (!args.out.empty() && !WriteScoreFiles(rows, score, args, with_corpus, corpus_note))
    return 2;
  return score.killed == static_cast<int64_t>(rows.size()) ? 0 : 1;
#else
  (void)global;
  (void)args;
  (void)switches;
  std::fprintf(stderr,
               "ictk certify: --mutation-score needs the sample (built without it)\n");
  return 2;
#endif
}

}  // namespace ictk::cli
