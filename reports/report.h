/// \file
/// The canonical record of a run (ARCHITECTURE.md "Reports"): `report.jsonl`, one JSON
/// object a line — a header (ictk, protocol and model versions, switches, seed, command
/// line, the adapter and its `hello`), one record per case (a verdict, the rules it
/// exercised, steps, time, and for a failure the minimized history with its replay
/// command and the rule, sentence, allowed outcome and answer in spec terms), and a
/// closing record with totals per rule and per verdict. Everything else a run writes
/// (junit.xml, summary.md, report.html, badge.json; render.h) is a pure function of these
/// records, so `ictk report` can re-render and diff old runs.
#pragma once

#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "codec/result.h"

namespace ictk {

struct RuleInfo;  // model/judge/rule_catalogue.h

/// A case's verdict (ARCHITECTURE.md's list).
enum class Verdict {
  kPass,
  kFail,   ///< an answer outside the allowed set
  kError,  ///< the implementation answered `error`
  kCrash,
  kTimeout,
  kProtocolError,  ///< a line that is not a valid response
  kSkip,
  kXfail,  ///< failed, as an expectation file said it would
  kXpass,  ///< passed, though an expectation file said it would fail
};

inline constexpr Verdict kAllVerdicts[] = {
    Verdict::kPass,  Verdict::kFail,    Verdict::kError,
    Verdict::kCrash, Verdict::kTimeout, Verdict::kProtocolError,
    Verdict::kSkip,  Verdict::kXfail,   Verdict::kXpass};

/// "pass", "fail", "error", "crash", "timeout", "protocol-error", "skip", "xfail",
/// "xpass".
std::string_view ToString(Verdict verdict);
std::optional<Verdict> ParseVerdict(std::string_view text);
/// pass, skip and xfail leave a run conformant; every other verdict does not.
bool IsConformant(Verdict verdict);

/// One row of a failure's step table: a request of the minimized history and its answer.
struct StepRow {
  int index = 0;  ///< 1-based
  std::string op;
  std::string label;        ///< what the generator meant, e.g. "append/collide-live"
  nlohmann::json request;   ///< as sent (with "id")
  nlohmann::json response;  ///< as answered (null when there was none)
  std::string allowed;      ///< what the model allowed, in words
  std::string answered;     ///< what the implementation answered, in words
  bool failed = false;      ///< the step the failure is at
};

/// What went wrong in a case, in spec terms.
struct FailureDetail {
  int step = 0;                       ///< 1-based index into `steps`
  /// Why the answer is outside the allowed set, in one sentence (the primary finding's
  /// detail, e.g. "the rejection names constraint 1, which this invalid-schema-change is
  /// not about (allowed: any subset of [2])"). Stated first wherever a failure is shown;
  /// empty in reports written before it existed (FindingOf falls back to `findings`).
  std::string finding;
  std::string rule;                   ///< the primary rule ID
  /// The clause the answer broke ("enf.retry-new-constraints/changed-to-enforced"), when
  /// the model admits the answer with that clause knocked out (docs/rules.md "Blame by
  /// the clause broken"); "" when no single clause's absence admits it.
  std::string clause;
  /// A replayed fixture's failure: the rules any runner names without the model
  /// (docs/fixtures.md section 9: the failing keys' own rules, else the fixture's rules),
  /// which an `xfail` written for any runner matches. In memory only; `failed_rules`
  /// holds the rules failed.
  std::vector<std::string> runner_rules;
  std::string sentence;               ///< its quoted sentence (or derived text)
  std::string allowed;                ///< what the model allowed
  std::string answered;               ///< what the implementation answered
  /// The failure's constraint evaluated on the rows concerned (Finding::evaluation,
  /// model/judge/explain_rows.h): a check step by step, a key's collision or its
  /// distinct keys; "" when the failure concerns no written rows.
  std::string evaluation;
  /// The adapter's own message at the failing step (AdapterMessageOf, codec/protocol.h):
  /// a rejection's `error.message`, an error's `message`; "" when it sent none.
  std::string adapter_message;
  std::vector<std::string> findings;  ///< every finding, "rule: detail"
  std::vector<StepRow> steps;         ///< the minimized history
  std::string fixture;  ///< path of the fixture file, relative to the run dir
  std::string fixture_id;
  std::string replay;       ///< one-line command replaying the fixture
  std::string reproduce;    ///< one-line command re-running this case
  int original_steps = 0;   ///< requests before shrinking
  int shrink_runs = 0;      ///< histories run while shrinking
  std::string stderr_tail;  ///< the adapter's stderr (exec)
  /// When an earlier case failed for the same cause (FailureCauses): its ID. This case's
  /// `fixture` and `replay` are then that case's (one fixture per cause).
  std::string same_cause_as;
};

/// The finding of a failure: `finding`, else the first of `findings`, else "".
std::string FindingOf(const FailureDetail& failure);

/// "evaluation: ...\n" and "the adapter said: ...\n", each line prefixed by `indent`,
/// for the parts the failure has ("" when neither): the console and JUnit text.
std::string EvaluationLines(const FailureDetail& failure, std::string_view indent);

/// Whether the failure's history was minimized: shrinking ran and left fewer requests
/// than the original (not a corpus fixture replayed as it is, nor a run with --no-shrink).
bool WasMinimized(const FailureDetail& failure);

/// How often a rule was exercised in one case: steps where it allowed the answer
/// (positive) and where it required a rejection (negative).
struct RuleUse {
  int64_t positive = 0;
  int64_t negative = 0;
};

/// Precision (informational): for each status, how often the implementation recorded it
/// when it was the most precise allowed status, out of how often it was.
struct PrecisionCount {
  int64_t precise = 0;
  int64_t total = 0;
};

struct CaseRecord {
  std::string id;  ///< "random/s1/17"; the key of `report diff`
  int64_t index = 0;
  Verdict verdict = Verdict::kPass;
  std::map<std::string, RuleUse> rules;   ///< rule ID -> use, over the steps that ran
  std::vector<std::string> failed_rules;  ///< the rules the failure names
  int64_t steps = 0;
  double duration_ms = 0;
  std::optional<FailureDetail> failure;
  std::map<std::string, PrecisionCount> precision;  ///< status -> count
  std::map<std::string, int64_t> ops;               ///< protocol op -> requests
  std::map<std::string, int64_t> tags;              ///< generator rule tags -> steps
  /// clause ID -> use: steps that named the clause and exercised its rule (a rule with
  /// one clause counts for its clause on every step that exercised it).
  std::map<std::string, RuleUse> clauses;
  std::string reason;                               ///< for skip / error / crash: why
};

struct RunHeader {
  std::string ictk_version;
  int protocol_version = 1;
  std::string model_version;
  std::map<std::string, std::string> switches;
  uint64_t seed = 1;
  std::string command_line;
  std::string adapter;   ///< the spec
  nlohmann::json hello;  ///< the adapter's hello answer
  std::vector<std::string> capabilities;
  int64_t histories = 0;
  /// --until-stable N: the run stopped once N histories in a row added no coverage
  /// (then `histories` is the most it would run); 0 without it.
  int64_t until_stable = 0;
  int max_steps = 0;
  std::string shard;             ///< "I/N" or ""
  std::string mode = "certify";  ///< "certify" | "mutants"
  /// The profile in words ("v4 writer", "v1–v3 reader"; docs/protocol.md section 9), ""
  /// in runs recorded before profiles existed.
  std::string profile;
  bool writer = true;  ///< false for a reader profile (`hello`'s "profile": "reader")
  std::vector<int32_t> format_versions = {1, 2, 3, 4};  ///< as `hello` declared them
  /// The fixture corpus replayed first: its folder, or "" when the run had none (then
  /// `corpus_note` says why, e.g. "--no-corpus" or "none found").
  std::string corpus;
  std::string corpus_note;
};

struct RuleTotals {
  std::map<Verdict, int64_t> cases;  ///< cases in which the rule got this verdict
  int64_t positive = 0;
  int64_t negative = 0;
};

struct Totals {
  std::map<Verdict, int64_t> verdicts;
  std::map<std::string, RuleTotals> rules;   ///< every rule of the catalogue
  std::vector<std::string> never_exercised;  ///< not coverage-exempt, never used
  std::map<std::string, std::string> untested_because;  ///< rule -> missing capability
  std::map<std::string, PrecisionCount> precision;
  std::map<std::string, int64_t> ops;
  std::map<std::string, int64_t> tags;
  std::map<std::string, RuleUse> clauses;  ///< every clause of the catalogue
  /// Clauses of rules that are not coverage-exempt that no step exercised.
  std::vector<std::string> clauses_never_exercised;
  /// Clauses no step exercised whose rule is out of the profile's reach (OutOfReachReason):
  /// listed apart, not among clauses_never_exercised.
  std::vector<std::string> clauses_out_of_reach;
  int64_t cases = 0;
  int64_t fixture_cases = 0;  ///< of `cases`, fixtures replayed (IDs not "random/...")
  int64_t steps = 0;
  double duration_ms = 0;
  bool conformant = true;
  /// Honest totals (docs/certify.md): the header's profile, the rules it covers
  /// (ProfileRules), those of them no case exercised, and the declared capabilities that
  /// received no request.
  std::string profile;
  /// The declared capabilities the verdict is about, in words ("check + unique", "every
  /// writer capability"; CapabilityScope); "" without a profile.
  std::string capability_scope;
  int64_t profile_rules = 0;
  std::vector<std::string> profile_not_exercised;
  std::vector<std::string> idle_capabilities;
  /// The rules the profile cannot reach (not in `profile_rules`), counted by why
  /// (OutOfReachReason): "capability not declared", "needs format version 4", ...
  std::map<std::string, int64_t> profile_out_of_reach;
};

/// The rules a profile can break and a run should exercise: not coverage-exempt, their
/// capability declared; for a reader profile the reader and metadata rules; without
/// format version 4 only the `ice.*` and `proto.*` rules and the v1–v3 side of
/// `def.v4-only` (and, for a writer, `sem.live-rows`).
std::vector<std::string> ProfileRules(const RunHeader& header);

/// Why the profile of `header` cannot exercise `rule` ("" when it can): "capability not
/// declared", "metadata rule judged by lint-metadata" (a writer's `ice.*` metadata
/// rules), "a writer's rule" (a reader profile), "needs format version 4", "only a reader
/// lacking a format version meets it" (proto.declared-versions). ProfileRules is every
/// rule, not coverage-exempt, with none.
std::string OutOfReachReason(const RunHeader& header, const RuleInfo& rule);

/// The rules out of the profile's reach, by OutOfReachReason.
std::map<std::string, std::vector<std::string>> ProfileOutOfReach(const RunHeader& header);

/// The protocol op a declared capability is seen to be used by ("" when no single op
/// shows it, e.g. nested-keys); for a reader profile only its reader capabilities.
std::string_view RequestOfCapability(std::string_view capability);

/// What `hello`'s finer declarations (`constraint-ops`, `expression-operators`) leave out,
/// in words (NarrowingText), "" when the answer has none: the verdict's scope names it.
std::string HelloNarrowing(const nlohmann::json& hello);

/// The verdict in words: "CONFORMANT", "NOT CONFORMANT", followed, when a declared
/// capability received no request or the run exercised fewer rules than its profile
/// covers, by "(v1–v3 reader profile: 9 of 23 rules exercised; not exercised: ...; 60
/// more out of the profile's reach: 50 a writer's rule, 10 needs format version 4; no
/// request for declared capability: reader)": M counts the rules the profile can reach,
/// and the rest are counted by why they are out of its reach.
std::string VerdictText(const Totals& totals);
/// The declared capabilities in words: "every writer capability" when every capability
/// but the reader ones is declared, else the declared ones joined by " + " in the
/// protocol's order ("check + unique"), "no capability" when none.
std::string CapabilityScope(const std::vector<std::string>& declared);
/// The profile, `after_profile` and the capability scope: "v4 writer profile, check +
/// unique" (the scope left out for records that have none).
std::string ScopeText(const Totals& totals, std::string_view after_profile = {});

/// Clause IDs parted into those a mutant could break and those no mutant can (an
/// exemption, ClauseInfo::exempt), each in the given order.
struct ClauseSplit {
  std::vector<std::string> breakable;
  std::vector<std::string> exempt;
};
ClauseSplit SplitByExemption(const std::vector<std::string>& clauses);

/// One cause of failure: the non-conformant cases that failed the same way — the same
/// verdict, primary rule, kind of request and kind of answer. The first case stands for
/// the group: its fixture is the one written.
struct FailureCause {
  std::string cause;               ///< CauseOf the cases
  std::vector<std::string> cases;  ///< case IDs, in report order
  size_t first = 0;                ///< index of the first case in the report's cases
};

/// The rules a case failed under (docs/replay.md "Expectation files"), its primary rule
/// first: for a case that failed or was xfailed, its failure's rule, then the other rules
/// it names (`failed_rules`) and, for a replayed fixture, the rules any runner names
/// (`runner_rules`); empty for a case that passed, was skipped or passed against an xfail.
std::vector<std::string> RulesFailedUnder(const CaseRecord& record);

/// The JUnit `classname` of a case (docs/certify.md "junit.xml"): `ictk.<rule>` of the rule
/// it failed under (RulesFailedUnder's first); for a corpus fixture that passed, its
/// primary rule (the folder of its ID); else `ictk.<mode>` ("ictk.certify").
std::string JunitClassname(const RunHeader& header, const CaseRecord& record);

/// "fail proto.answer at commit: answered unsupported", "crash: ...".
std::string CauseOf(const CaseRecord& record);

/// The causes of the non-conformant cases, in order of first appearance.
std::vector<FailureCause> FailureCauses(const std::vector<CaseRecord>& cases);

/// A whole run.
struct Report {
  RunHeader header;
  std::vector<CaseRecord> cases;
  std::optional<Totals> totals;
};

/// "500 histories", "168 fixtures" or "500 histories and 168 fixtures": what a run's
/// cases were, for the summaries.
std::string CasesText(const Totals& totals);

/// ", until stable (the last 40 histories added no coverage)" for a run with
/// --until-stable, else "": why the run stopped where it did.
std::string StopText(const RunHeader& header);

/// The totals of `cases` under `header` (which capabilities were declared).
Totals ComputeTotals(const RunHeader& header, const std::vector<CaseRecord>& cases,
                     double duration_ms);

/// ComputeTotals one case at a time, for a run that does not keep its records
/// (reports/stream.h): Finish after Add of every case equals ComputeTotals of them.
class TotalsBuilder {
 public:
  TotalsBuilder();
  void Add(const CaseRecord& record);
  /// The totals of the cases added so far, under `header`.
  Totals Finish(const RunHeader& header, double duration_ms) const;

 private:
  Totals t_;  ///< the per-case sums (rules of the catalogue present, even unused)
};

/// The capability whose absence leaves `rule` untested, or "" when none does.
std::string_view CapabilityForRule(std::string_view rule);

/// One JSON object per record; `"type"` is "header", "case" or "totals".
nlohmann::json ToJson(const RunHeader& header);
nlohmann::json ToJson(const CaseRecord& record);
nlohmann::json ToJson(const Totals& totals);
nlohmann::json ToJson(const FailureDetail& failure);
Result<RunHeader> HeaderFromJson(const nlohmann::json& j);
Result<CaseRecord> CaseFromJson(const nlohmann::json& j);
Result<Totals> TotalsFromJson(const nlohmann::json& j);

/// Parses the text of a report.jsonl (`source` names it in errors).
Result<Report> ParseReportJsonl(std::string_view text, std::string_view source);

/// The report as report.jsonl text (header, cases, totals).
std::string ToJsonl(const Report& report);

}  // namespace ictk
