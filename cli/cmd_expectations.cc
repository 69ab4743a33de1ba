/// \file
/// `ictk expectations update --report DIR [--out FILE]` (docs/replay.md): the proposed
/// expectation file for a run, real xfails only: a failing corpus fixture by its fixture
/// ID (with the rule it failed under), the failing random cases by rule (`rule:<rule id>
/// xfail`, one line per rule, so the file does not depend on the seed), each with the
/// verdict and finding as its comment. No `skip` lines: a case skipped for a capability
/// the adapter did not declare is out of the run's scope already.
#include <fmt/format.h>

#include <CLI/CLI.hpp>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "cli/commands.h"
#include "fixtures/expectation_file.h"
#include "reports/report.h"

namespace ictk::cli {
namespace {

struct ExpectationsArgs {
  std::string report;
  std::string out;
};

std::string OneLine(std::string s) {
  for (char& c : s)
    if (c == '\n' || c == '\r' || c == '#') c = ' ';
  if (s.size() > 160) s = s.substr(0, 157) + "...";
  return s;
}

/// One proposed entry: the pattern, its cause and the comment.
struct Proposal {
  std::string pattern;
  std::string cause;
  std::string comment;
  std::vector<std::string> cases;  ///< the random cases a rule key stands for
};

bool IsRandomCase(const CaseRecord& c) { return c.id.starts_with("random/"); }

/// The entries a run's failing cases call for: a corpus fixture by its ID, a random case
/// by the rule it failed under (`rule:<rule id>`, one line per rule), a random case that
/// names no rule (a crash, a timeout) by its ID. Skips get none: a case skipped for a
/// capability the adapter did not declare is out of scope already.
std::vector<Proposal> Propose(const Report& report) {
  std::vector<Proposal> out;
  std::map<std::string, size_t> by_rule;
  for (const CaseRecord& c : report.cases) {
    if (c.id.starts_with("expectations/") || c.verdict == Verdict::kXpass) continue;
    if (IsConformant(c.verdict) && c.verdict != Verdict::kXfail) continue;
    const std::vector<std::string> rules = RulesFailedUnder(c);
    const std::string rule = rules.empty() ? "" : rules.front();
    const std::string why = c.failure && !FindingOf(*c.failure).empty()
                                ? FindingOf(*c.failure)
                                : c.reason;
    const std::string comment = fmt::format("{}: {}", ToString(c.verdict), OneLine(why));
    if (!IsRandomCase(c) || rule.empty()) {
      out.push_back({c.id, rule, comment, {}});
      continue;
    }
    auto [it, added] = by_rule.emplace(rule, out.size());
    if (added) out.push_back({std::string(kRuleKeyPrefix) + rule, "", comment, {}});
    out[it->second].cases.push_back(c.id);
  }
  return out;
}

std::string ProposalLine(const Proposal& p) {
  std::string comment = p.comment;
  if (!p.cases.empty()) {
    std::string ids = p.cases.front();
    for (size_t i = 1; i < p.cases.size() && i < 3; ++i) ids += ", " + p.cases[i];
    if (p.cases.size() > 3) ids += ", ...";
    comment = fmt::format("{} random case(s), e.g. {}; {}", p.cases.size(), ids, comment);
  }
  return fmt::format("{} xfail{}  # {}\n", p.pattern, p.cause.empty() ? "" : " " + p.cause,
                     comment);
}

int Run(const ExpectationsArgs& a) {
  std::filesystem::path path(a.report);
  if (std::filesystem::is_directory(path)) path /= "report.jsonl";
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    std::fprintf(stderr, "ictk expectations update: %s: cannot read\n",
                 path.string().c_str());
    return 2;
  }
  std::stringstream text;
  text << in.rdbuf();
  Result<Report> report = ParseReportJsonl(text.str(), path.string());
  if (!report) {
    std::fprintf(stderr, "ictk expectations update: %s\n",
                 report.error().message.c_str());
    return 2;
  }
  std::string out = fmt::format(
      "# Expectations proposed by `ictk expectations update` from {}\n"
      "# adapter {}; one entry a line: <fixture id, glob or rule:<rule id>> skip|xfail "
      "[<rule id or error kind>] [max=N]  # reason\n",
      path.string(), report->header.adapter);
  const std::vector<Proposal> proposals = Propose(*report);
  for (const Proposal& p : proposals) out += ProposalLine(p);
  if (a.out.empty()) {
    std::fputs(out.c_str(), stdout);
  } else {
    std::ofstream f(a.out, std::ios::binary | std::ios::trunc);
    f << out;
    f.close();
    if (!f) {
      std::fprintf(stderr, "ictk expectations update: cannot write %s\n", a.out.c_str());
      return 2;
    }
    std::fprintf(stderr, "ictk expectations update: %zu entries written to %s\n",
                 proposals.size(), a.out.c_str());
  }
  return 0;
}

}  // namespace

SubcommandRunner AddExpectationsCommand(CLI::App& app, CLI::App** subcommand) {
  auto args = std::make_shared<ExpectationsArgs>();
  CLI::App* c = app.add_subcommand("expectations", "Expectation files (docs/replay.md)");
  c->require_subcommand(1);
  CLI::App* update = c->add_subcommand(
      "update",
      "Write the proposed expectation file of a run: an xfail per failing corpus "
      "fixture, one `rule:<rule id> xfail` per rule the random cases failed under");
  update->add_option("--report", args->report, "Run folder (or its report.jsonl)")
      ->required();
  update->add_option("--out", args->out, "Expectation file to write (default stdout)");
  *subcommand = c;
  return [args](const GlobalOptions&) { return Run(*args); };
}

}  // namespace ictk::cli
