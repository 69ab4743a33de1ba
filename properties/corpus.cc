/// \file
/// Replaying, generating and verifying the fixture corpus (corpus.h).
#include "properties/corpus.h"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <functional>
#include <fstream>
#include <set>
#include <sstream>

#include "adapters/reference_adapter.h"
#include "codec/json_text.h"
#include "codec/protocol.h"
#include "fixtures/evaluator.h"
#include "generators/history.h"
#include "model/judge/operations.h"
#include "model/judge/rule_catalogue.h"
#include "model/rules/rule_id.h"
#include "properties/fixture.h"
#include "properties/runner.h"
#include "reports/digest.h"

namespace ictk {
namespace {

using json = nlohmann::json;
namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

double MillisSince(Clock::time_point start) {
  return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

std::string RuleSentenceOf(const std::string& rule) {
  std::optional<RuleId> id = ParseRuleId(rule);
  if (!id) return {};
  const RuleInfo& info = FindRule(*id);
  if (!info.quote.empty()) return fmt::format("\"{}\"", info.quote);
  return std::string(info.summary);
}

/// A short form of an answer for step tables.
std::string AnswerText(const json& response) {
  const std::string result = response.value("result", "?");
  if (result == "rejected") {
    const json err = response.value("error", json::object());
    std::string out = fmt::format(
        "rejected ({})", err.is_object() ? err.value("kind", "?") : std::string("?"));
    if (err.is_object() && err.contains("constraint-ids"))
      out += ", constraint-ids " + DumpJson(err["constraint-ids"]);
    return out;
  }
  if (result == "ok") {
    if (response.contains("rows") && response["rows"].is_array())
      return fmt::format("ok; {} rows", response["rows"].size());
    if (response.contains("statuses"))
      return "ok; statuses " + DumpJson(response["statuses"]);
    return "ok";
  }
  return result + (response.contains("message") && response["message"].is_string()
                       ? ": " + response["message"].get<std::string>()
                       : std::string());
}

Switches SwitchesOf(const std::map<std::string, std::string>& values) {
  Switches s;
  for (const auto& [k, v] : values) SetSwitch(s, k, v);
  return s;
}

Result<std::string> ReadText(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return MakeError(ErrorKind::kIo, fmt::format("{}: cannot read", path));
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

}  // namespace

// --- replay ----------------------------------------------------------------------------

std::string FixtureSkipReason(const Fixture& fixture,
                              const std::vector<std::string>& capabilities,
                              const Switches& switches,
                              const std::vector<int32_t>* format_versions,
                              bool writer) {
  if (!writer) {
    // A reader profile answers only hello, parse-metadata and read-statuses
    // (docs/protocol.md section 9, "Profiles").
    for (const FixtureStep& step : fixture.steps) {
      const std::string op = step.request.is_object() ? step.request.value("op", "") : "";
      if (op != "hello" && op != "parse-metadata" && op != "read-statuses")
        return fmt::format("needs a writer: it sends {} (the adapter declares profile reader)",
                           op.empty() ? "a request without op" : op);
    }
  }
  if (format_versions != nullptr && !format_versions->empty())
    for (int32_t need : fixture.format_versions)
      if (std::find(format_versions->begin(), format_versions->end(), need) ==
          format_versions->end())
        return fmt::format("needs format version {} (the adapter declares [{}])", need,
                           fmt::join(*format_versions, ", "));
  for (const std::string& need : fixture.requires_)
    if (std::find(capabilities.begin(), capabilities.end(), need) == capabilities.end())
      return fmt::format("the adapter lacks capability {}", need);
  const auto run = SwitchValues(switches);
  for (const auto& [name, value] : fixture.switches) {
    auto it = run.find(name);
    if (it != run.end() && it->second != value)
      return fmt::format("the fixture assumes {}={}, the run has {}={}", name, value,
                         name, it->second);
  }
  return {};
}

/// What the model's judge finds wrong with the answer at 1-based step `failed_step` of a
/// replayed fixture, given the implementation's answers to the steps before it (adopted
/// as certify adopts them): the findings that name the rule the answer broke. Empty when
/// the judge finds nothing there (a fixture key stricter than the judge) or an answer
/// before it cannot be decoded.
Findings ModelFindingsAt(const std::vector<StepRow>& rows, int failed_step,
                         const Switches& switches) {
  CatalogState state;
  for (int i = 0; i < failed_step && i < static_cast<int>(rows.size()); ++i) {
    json sent = rows[static_cast<size_t>(i)].request;
    sent.erase("id");
    Result<Request> request = RequestFromJson(sent);
    if (!request) return {};
    const AllowedOutcome outcome = Apply(state, *request, switches);
    const std::vector<NestedField>* fields =
        outcome.rows_schema ? &outcome.rows_schema->fields : nullptr;
    Result<Response> response = ResponseFromJson(rows[static_cast<size_t>(i)].response, fields);
    if (!response) return {};
    const Answer answer = ToAnswer(*response);
    if (i + 1 == failed_step) return Judge(outcome, answer);
    Adopt(state, *request, answer, switches);
  }
  return {};
}

CaseRecord ReplayFixture(AdapterSession& session, const Fixture& fixture,
                         const ReplayOptions& options, int64_t index) {
  const auto start = Clock::now();
  CaseRecord record;
  record.id = fixture.id;
  record.index = index;
  for (const std::string& r : fixture.rules) {
    record.rules[r].positive = 1;
    // A fixture carries no generator labels, so it exercises a clause only when its rule
    // has no other (docs/rules.md, "Clause coverage of a run").
    if (std::optional<RuleId> id = ParseRuleId(r))
      if (const std::vector<ClauseInfo>& clauses = FindRule(*id).clauses; clauses.size() == 1)
        record.clauses[clauses.front().id].positive = 1;
  }
  // A switch this runner does not know is taken at the fixture's value (section 6).
  std::map<std::string, std::string> settings = SwitchValues(options.switches);
  for (const auto& [name, value] : fixture.switches) settings.emplace(name, value);
  FixtureEvaluator evaluator(settings);
  std::vector<StepRow> rows;
  std::vector<ExpectFailure> failures;
  std::string failure_reason;
  int failed_step = 0;
  Verdict verdict = Verdict::kPass;
  std::string last_kind;
  for (size_t i = 0; i < fixture.steps.size() && verdict == Verdict::kPass; ++i) {
    const FixtureStep& step = fixture.steps[i];
    const int n = static_cast<int>(i) + 1;
    StepRow row;
    row.index = n;
    row.op = step.request.value("op", "");
    row.request = step.request;
    row.request["id"] = n;
    row.allowed = DumpJson(evaluator.Effective(step.expect));
    CallResult call = session.Call(step.request);
    auto transport_failed = [&](const CallFailure& f, const std::string& what) {
      verdict = VerdictOf(f.kind);
      failure_reason = fmt::format("{}{}: {}", what, ToString(f.kind), f.message);
      const std::string tail = session.adapter().StderrTail();
      if (!tail.empty()) failure_reason += "\n" + tail;
      row.answered = failure_reason;
      row.failed = true;
      failed_step = n;
    };
    if (call.failure) {
      transport_failed(*call.failure, "");
      rows.push_back(std::move(row));
      break;
    }
    row.response = *call.response;
    if (row.response.is_object()) row.response["id"] = n;
    // An answer whose only problem is its metadata's shape is a well-formed answer of
    // metadata that breaks ice.metadata-shape (MetadataShapeFinding, as certify judges
    // it): evaluated, so `iceberg-metadata-valid` fails under that rule.
    if (Result<Response> decoded = ResponseFromJson(*call.response);
        !decoded && !MetadataShapeFinding(*call.response)) {
      verdict = Verdict::kProtocolError;
      failure_reason = "protocol-error: " + decoded.error().message;
      row.answered = failure_reason;
      row.failed = true;
      failed_step = n;
      rows.push_back(std::move(row));
      break;
    }
    row.answered = AnswerText(*call.response);
    const FollowUp follow =
        evaluator.FollowUpFor(step.request, step.expect, *call.response);
    std::optional<json> load, scan;
    for (int k = 0; k < 2 && verdict == Verdict::kPass; ++k) {
      const bool want = k == 0 ? follow.load_table : follow.scan;
      if (!want) continue;
      json extra = {{"op", k == 0 ? "load-table" : "scan"},
                    {"table", step.request.value("table", "")}};
      if (step.request.contains("now-ms")) extra["now-ms"] = step.request["now-ms"];
      CallResult r = session.Call(extra);
      if (r.failure) {
        transport_failed(*r.failure,
                         fmt::format("then {}: ", extra["op"].get<std::string>()));
        break;
      }
      (k == 0 ? load : scan) = *r.response;
    }
    if (verdict != Verdict::kPass) {
      rows.push_back(std::move(row));
      break;
    }
    StepEvaluation ev =
        evaluator.Evaluate(n, step.request, step.expect, *call.response,
                           load ? &*load : nullptr, scan ? &*scan : nullptr);
    for (const auto& [status, counts] : ev.precision) {
      record.precision[status].precise += counts.first;
      record.precision[status].total += counts.second;
    }
    last_kind = ev.error_kind;
    if (!ev.failures.empty()) {
      verdict = ev.error ? Verdict::kError : Verdict::kFail;
      failures = ev.failures;
      failed_step = n;
      row.failed = true;
      std::vector<std::string> parts;
      for (const ExpectFailure& f : failures)
        parts.push_back(fmt::format("{}: {}", f.key, f.answered));
      row.answered = fmt::format("{}; {}", row.answered, fmt::join(parts, "; "));
      if (ev.error) failure_reason = "the implementation answered error";
    }
    rows.push_back(std::move(row));
    if (ev.stop) break;
  }
  record.steps = static_cast<int64_t>(rows.size());
  // The requests sent, by op: a declared capability the corpus exercised is not idle.
  for (const StepRow& row : rows)
    if (!row.op.empty()) ++record.ops[row.op];
  record.verdict = verdict;
  if (verdict != Verdict::kPass) {
    FailureDetail f;
    f.step = failed_step;
    // The rules a failure names (docs/fixtures.md section 9, no model needed): the broken
    // key's own rule where it has one (RuleOfExpectationKey), else the fixture's rules,
    // the primary rule first.
    const std::string primary =
        fixture.rules.empty() ? std::string("proto.answer") : fixture.rules.front();
    std::vector<std::string> broken;
    auto add_rule = [&](const std::string& rule) {
      if (std::find(broken.begin(), broken.end(), rule) == broken.end())
        broken.push_back(rule);
    };
    // First the rules the model's judge finds the failing answer broke (ictk has the
    // model; docs/fixtures.md section 9): the rule shown is the one the answer broke,
    // never only a rule of what the fixture is about.
    Findings model_findings;
    if (verdict == Verdict::kFail && failed_step > 0)
      model_findings = ModelFindingsAt(rows, failed_step, options.switches);
    for (const Finding& m : model_findings) add_rule(std::string(RuleIdName(m.rule)));
    for (const ExpectFailure& x : failures) {
      if (x.rule) {
        add_rule(std::string(RuleIdName(*x.rule)));  // the rule of the key's finding
        // A status is what the fixture is about too (docs/fixtures.md section 5): its
        // rules follow the finding's.
        if (x.key == "statuses" || x.key == "statuses-by-parent")
          for (const std::string& r : fixture.rules) add_rule(r);
      } else if (const std::optional<RuleId> own = RuleOfExpectationKey(x.key)) {
        add_rule(std::string(RuleIdName(*own)));
      } else {
        add_rule(primary);
        for (const std::string& r : fixture.rules) add_rule(r);
      }
    }
    if (broken.empty()) {
      add_rule(primary);
      for (const std::string& r : fixture.rules) add_rule(r);
    }
    f.rule = broken.front();
    f.sentence = RuleSentenceOf(f.rule);
    for (const Finding& m : model_findings) f.findings.push_back(ToString(m));
    for (const ExpectFailure& x : failures)
      f.findings.push_back(fmt::format("{} (fixture rules: {})", ToString(x),
                                       fmt::join(fixture.rules, ", ")));
    if (failures.empty()) f.findings.push_back(failure_reason);
    f.finding = !model_findings.empty() ? model_findings.front().detail
                : failures.empty()      ? failure_reason
                                        : ToString(failures.front());
    if (failed_step > 0 && failed_step <= static_cast<int>(rows.size())) {
      f.allowed = rows[failed_step - 1].allowed;
      f.answered = rows[failed_step - 1].answered;
    }
    f.steps = rows;
    f.original_steps = static_cast<int>(fixture.steps.size());
    f.fixture = fixture.source;
    f.fixture_id = fixture.id;
    f.replay = fmt::format(
        "ictk replay --adapter {} {}", ShellQuote(options.adapter_spec),
        ShellQuote(fixture.source.empty() ? fixture.id + ".json" : fixture.source));
    f.reproduce = f.replay;
    f.stderr_tail = session.adapter().StderrTail();
    record.failed_rules = broken;
    std::sort(record.failed_rules.begin(), record.failed_rules.end());
    if (!last_kind.empty()) record.reason = "answered " + last_kind;
    if (!failure_reason.empty()) record.reason = failure_reason;
    record.failure = std::move(f);
  }
  record.duration_ms = MillisSince(start);
  return record;
}

bool CaseNamesCause(const CaseRecord& record, const std::string& cause) {
  if (cause.empty()) return true;
  if (std::find(record.failed_rules.begin(), record.failed_rules.end(), cause) !=
      record.failed_rules.end())
    return true;
  if (record.failure && record.failure->rule == cause) return true;
  if (record.failure && record.failure->answered.find("(" + cause) != std::string::npos)
    return true;
  return record.reason.find(cause) != std::string::npos;
}

void ApplyExpectation(CaseRecord& record, const ExpectationEntry& entry) {
  const std::string where = fmt::format("expectation line {}", entry.line);
  if (entry.action == ExpectationEntry::Action::kSkip) {
    record.verdict = Verdict::kSkip;
    record.reason = fmt::format("{}: {}", where, entry.reason);
    return;
  }
  if (record.verdict == Verdict::kPass) {
    record.verdict = Verdict::kXpass;
    record.reason =
        fmt::format("{} expected a failure{}, but it passed: {}", where,
                    entry.cause.empty() ? "" : " (" + entry.cause + ")", entry.reason);
  } else if (record.verdict != Verdict::kSkip && CaseNamesCause(record, entry.cause)) {
    record.verdict = Verdict::kXfail;
    record.reason = fmt::format("{}: {}", where, entry.reason);
  } else if (record.verdict != Verdict::kSkip) {
    record.reason += fmt::format("{}({} expected a failure naming {})",
                                 record.reason.empty() ? "" : "; ", where, entry.cause);
  }
}

void ApplyExpectations(std::vector<CaseRecord>& records, const ExpectationFile& file,
                       bool strict) {
  if (strict) return;
  for (CaseRecord& r : records)
    if (const ExpectationEntry* e = FindExpectation(file, r.id)) ApplyExpectation(r, *e);
}

std::vector<CaseRecord> ExpectationBreachRecords(const ExpectationFile& file,
                                                 const std::vector<CaseRecord>& records) {
  std::vector<std::string> ids;
  for (const CaseRecord& r : records) ids.push_back(r.id);
  return ExpectationBreachRecords(file, ids);
}

std::vector<CaseRecord> ExpectationBreachRecords(const ExpectationFile& file,
                                                 const std::vector<std::string>& ids) {
  std::vector<CaseRecord> out;
  int64_t n = 0;
  for (const std::string& message : ExpectationBreaches(file, ids)) {
    CaseRecord r;
    r.id = fmt::format("expectations/{}", ++n);
    r.index = -1;
    r.verdict = Verdict::kFail;
    r.reason = message;
    out.push_back(std::move(r));
  }
  return out;
}

namespace {

/// Replaces `from` (a whole string, or a prefix followed by `_`) with `to` in every
/// string of `j`: table names and the function names derived from them.
void RenameTable(json& j, const std::string& from, const std::string& to) {
  if (j.is_string()) {
    const std::string s = j.get<std::string>();
    if (s == from)
      j = to;
    else if (s.size() > from.size() && s.compare(0, from.size(), from) == 0 &&
             s[from.size()] == '_')
      j = to + s.substr(from.size());
  } else if (j.is_array() || j.is_object()) {
    for (auto& v : j) RenameTable(v, from, to);
  }
}

}  // namespace

std::vector<CaseRecord> ReplayFixtures(AdapterSession& session,
                                       const std::vector<Fixture>& fixtures,
                                       const ReplayOptions& options,
                                       int64_t first_index) {
  std::vector<CaseRecord> out;
  const std::vector<std::string> caps = session.capabilities().Names();
  std::set<std::string> used_tables;
  int64_t index = first_index;
  for (const Fixture& f : fixtures) {
    const ExpectationEntry* entry = options.expect && !options.strict
                                        ? FindExpectation(*options.expect, f.id)
                                        : nullptr;
    std::string skip =
        FixtureSkipReason(f, caps, options.switches, &session.hello().format_versions,
                          session.capabilities().writer);
    CaseRecord r;
    if (!skip.empty()) {
      r.id = f.id;
      r.index = index;
      r.verdict = Verdict::kSkip;
      r.reason = skip;
    } else if (entry && entry->action == ExpectationEntry::Action::kSkip) {
      r.id = f.id;
      r.index = index;
      ApplyExpectation(r, *entry);
    } else {
      // Two fixtures on one table name (failures of several runs with one seed): the
      // later one runs on a fresh name, so the adapter's catalog does not mix them.
      std::set<std::string> tables;
      for (const FixtureStep& st : f.steps)
        if (st.request.contains("table") && st.request["table"].is_string())
          tables.insert(st.request["table"].get<std::string>());
      bool clash = false;
      for (const std::string& t : tables) clash = clash || used_tables.count(t);
      if (clash) {
        Fixture renamed = f;
        const std::string suffix = fmt::format("_r{}", index);
        for (const std::string& t : tables)
          for (FixtureStep& st : renamed.steps) RenameTable(st.request, t, t + suffix);
        for (const std::string& t : tables) used_tables.insert(t + suffix);
        r = ReplayFixture(session, renamed, options, index);
      } else {
        r = ReplayFixture(session, f, options, index);
      }
      used_tables.insert(tables.begin(), tables.end());
      if (entry) ApplyExpectation(r, *entry);
    }
    ++index;
    out.push_back(std::move(r));
  }
  return out;
}

// --- the model's expectations ----------------------------------------------------------

std::set<std::string> SwitchesThatMatter(const std::vector<json>& requests,
                                         const Switches& switches,
                                         const std::vector<json>* responses) {
  std::set<std::string> out;
  const std::map<std::string, std::string> current = SwitchValues(switches);
  Result<std::vector<json>> expects = ModelExpectations(requests, switches, responses);
  for (const SwitchInfo& info : AllSwitches()) {
    const std::string name(info.name);
    // Expectations the model cannot derive here depend on everything: pin every switch.
    if (!expects) {
      out.insert(name);
      continue;
    }
    for (std::string_view value : info.values) {
      if (current.count(name) && current.at(name) == value) continue;
      Switches other = switches;
      SetSwitch(other, name, value);
      Result<std::vector<json>> alt = ModelExpectations(requests, other, responses);
      if (!alt || *alt != *expects) {
        out.insert(name);
        break;
      }
    }
  }
  return out;
}

Result<std::vector<json>> ModelExpectations(const std::vector<json>& requests,
                                            const Switches& switches,
                                            const std::vector<json>* responses) {
  std::optional<AdapterSession> session;
  if (responses == nullptr) {
    session.emplace(MakeReferenceAdapter(switches));
    if (Result<HelloInfo> hello = session->Handshake(); !hello)
      return tl::unexpected(hello.error());
  }
  CatalogState state;
  std::vector<json> out;
  std::map<std::string, std::set<std::string>> removed_names;  ///< table -> names
  for (size_t i = 0; i < requests.size(); ++i) {
    Result<Request> request = RequestFromJson(requests[i]);
    if (!request)
      return MakeError(ErrorKind::kParse,
                       fmt::format("request {}: {}", i + 1, request.error().message));
    const AllowedOutcome outcome = Apply(state, *request, switches);
    json answered;
    if (responses != nullptr) {
      if (i >= responses->size() || !(*responses)[i].is_object())
        return MakeError(ErrorKind::kAdapter, fmt::format("request {}: no answer", i + 1));
      answered = (*responses)[i];
    } else {
      CallResult call = session->Call(requests[i]);
      if (call.failure)
        return MakeError(ErrorKind::kAdapter,
                         fmt::format("request {}: {}", i + 1, call.failure->message));
      answered = *call.response;
    }
    const std::vector<NestedField>* fields =
        outcome.rows_schema ? &outcome.rows_schema->fields : nullptr;
    Result<Response> response = ResponseFromJson(answered, fields);
    if (!response)
      return MakeError(ErrorKind::kAdapter,
                       fmt::format("request {}: {}", i + 1, response.error().message));
    const Answer answer = ToAnswer(*response);
    // The reference implementation must keep to the model; recorded answers (a failure
    // found by certify) need not.
    if (Findings f = Judge(outcome, answer); !f.empty() && responses == nullptr)
      return MakeError(ErrorKind::kInternal,
                       fmt::format("request {}: the reference implementation's answer "
                                   "breaks the model: {}",
                                   i + 1, ToString(f.front())));
    json expect = FixtureExpectation(outcome, state, *request, answer);
    // A constraint removed earlier must not be listed in a later snapshot
    // (stale-ids-in-new-snapshot=reject): `unlisted`, by the name it had.
    std::set<std::string>& gone = removed_names[request->table];
    if (switches.stale_ids_in_new_snapshot == StaleIds::kReject && !gone.empty() &&
        expect.contains("statuses")) {
      json unlisted = json::array();
      for (const std::string& name : gone)
        if (!expect["statuses"].contains(name)) unlisted.push_back(name);
      if (!unlisted.empty()) expect["unlisted"] = unlisted;
    }
    if (answer.result == AnswerResult::kOk) {
      if (const auto* r = std::get_if<RemoveConstraint>(&request->op))
        gone.insert(r->name);
      if (const auto* u = std::get_if<UpdateSchema>(&request->op))
        gone.insert(u->remove_constraints.begin(), u->remove_constraints.end());
      if (const auto* a = std::get_if<AddConstraint>(&request->op);
          a && a->constraint.name)
        gone.erase(*a->constraint.name);
      if (const auto* u = std::get_if<UpdateConstraint>(&request->op); u && u->set.name)
        gone.erase(*u->set.name);
    }
    Adopt(state, *request, answer, switches);
    const bool stop = expect.contains("stop-if") &&
                      std::find(expect["stop-if"].begin(), expect["stop-if"].end(),
                                answer.result == AnswerResult::kOk ? "ok" : "rejected") !=
                          expect["stop-if"].end();
    out.push_back(std::move(expect));
    if (stop) break;
  }
  return out;
}

// --- generation ------------------------------------------------------------------------

namespace {

/// Where generation runs each history: a fresh reference implementation per history, so
/// table names never collide.
struct ModelRunner {
  Switches switches;
  Capabilities capabilities = Capabilities::All();
  int64_t runs = 0;

  std::optional<HistoryRun> Run(const Plan& plan, const std::string& table) {
    AdapterSession session(MakeReferenceAdapter(switches));
    if (!session.Handshake()) return std::nullopt;
    capabilities = session.capabilities();
    RenderOptions o;
    o.table = table;
    o.function_prefix = table + "_";
    o.clock_start_ms = 1'700'000'000'000;
    o.capabilities = capabilities;
    o.switches = switches;
    o.final_scan = false;
    ++runs;
    HistoryRun run = RunHistory(session, plan, o, switches);
    if (run.verdict != Verdict::kPass) return std::nullopt;
    return run;
  }
};

using Target = std::pair<RuleId, bool>;  ///< a rule and its side (true: reject)

/// Whether a step of `run` that came from plan step `last` exercised `target`.
bool Exercises(const HistoryRun& run, int last, const Target& target) {
  for (const StepOutcome& s : run.steps)
    if (s.step.plan_index == last)
      for (const auto& e : s.exercised)
        if (e == target) return true;
  return false;
}

/// The clauses ("<rule>/<name>") the steps from plan step `last` exercised alone (their
/// generator labels, RenderedStep::clauses).
std::set<std::string> ClausesAt(const HistoryRun& run, int last) {
  std::set<std::string> out;
  for (const StepOutcome& s : run.steps)
    if (s.step.plan_index == last) out.insert(s.step.clauses.begin(), s.step.clauses.end());
  return out;
}

/// The targets the steps from plan step `last` exercised.
std::set<Target> TargetsAt(const HistoryRun& run, int last) {
  std::set<Target> out;
  for (const StepOutcome& s : run.steps)
    if (s.step.plan_index == last)
      for (const auto& e : s.exercised) out.insert(e);
  return out;
}

/// A request a reader profile answers (its metadata inline, no table state).
bool IsReaderOp(const Operation& op) {
  return std::holds_alternative<ParseMetadata>(op) || std::holds_alternative<ReadStatuses>(op);
}

int LastIndex(const Plan& p) { return static_cast<int>(p.steps.size()) - 1; }

/// Whether the steps from plan step `last` of a run still do what a fixture is made for.
using LastStepTest = std::function<bool(const HistoryRun& run, int last)>;

/// The plan cut after plan step `at`, then made smaller while its last step still passes
/// `keeps`: a plainer schema, then each earlier step removed if it can be.
std::optional<Plan> Minimize(ModelRunner& runner, Plan plan, int at, const LastStepTest& keeps,
                             const std::string& table) {
  plan.steps.resize(static_cast<size_t>(std::max(at + 1, 0)));
  int attempt = 0;
  auto holds = [&](const Plan& p) {
    std::optional<HistoryRun> r = runner.Run(p, fmt::format("{}_{}", table, ++attempt));
    return r && keeps(*r, LastIndex(p));
  };
  if (!holds(plan)) return std::nullopt;
  for (int size : {0, 2}) {
    if (plan.table.schema_size <= size) break;
    Plan q = plan;
    q.table.schema_size = size;
    if (holds(q)) {
      plan = std::move(q);
      break;
    }
  }
  for (int k = LastIndex(plan) - 1; k >= 0; --k) {
    Plan q = plan;
    q.steps.erase(q.steps.begin() + k);
    if (holds(q)) plan = std::move(q);
  }
  if (!plan.steps.empty() && !plan.steps.back().concurrent.empty()) {
    for (int k = static_cast<int>(plan.steps.back().concurrent.size()) - 1; k >= 0; --k) {
      Plan q = plan;
      auto& c = q.steps.back().concurrent;
      if (c.size() <= 1) break;
      c.erase(c.begin() + k);
      if (holds(q)) plan = std::move(q);
    }
  }
  return plan;
}

struct Made {
  json fixture;
  std::set<Target> credits;  ///< what the fixture's last step exercises
  /// The clauses its last step exercises alone (generated fixtures; by their labels).
  std::set<std::string> clauses;
};

std::string Slug(std::string_view label) {
  std::string out;
  for (char c : label) out += std::isalnum(static_cast<unsigned char>(c)) ? c : '-';
  return out;
}

/// Whether the corpus leaves `id` out: the coverage exemptions of SPEC.md, and the rules
/// the kit adds beyond SPEC.md's table (proto.*, expr.well-typed, the metadata rules of
/// the wider Iceberg spec that `lint-metadata` checks).
bool Exempt(RuleId id) {
  const RuleInfo& info = FindRule(id);
  if (info.coverage_exempt || info.group == "proto") return true;
  static const std::set<std::string_view> kSpecIce = {
      "ice.v4-snapshot-timestamps", "ice.format-version-up",
      "ice.type-promotion",         "ice.field-ids-unique",
      "ice.unknown-optional",       "ice.required-needs-default"};
  const std::string_view name = RuleIdName(id);
  if (name == "expr.well-typed") return true;
  return info.group == "ice" && !kSpecIce.count(name);
}

/// The fixture of a minimized plan: rendered once under a neutral table name to name the
/// table after the content, then again under that name.
std::optional<Made> MakeGenerated(ModelRunner& runner, const Plan& plan,
                                  const Target& target, const CorpusOptions& options,
                                  int64_t history, const std::string& clause = "") {
  std::optional<HistoryRun> probe = runner.Run(plan, "x");
  if (!probe) return std::nullopt;
  json requests = json::array();
  for (const StepOutcome& s : probe->steps) {
    // A scan of an older snapshot names a snapshot ID only the reference chose.
    if (s.step.label == "scan/older-snapshot") return std::nullopt;
    requests.push_back(RequestToJson(s.step.request));
  }
  const std::string table = "g" + Sha256Hex(DumpJson(requests)).substr(0, 10);
  std::optional<HistoryRun> run = runner.Run(plan, table);
  if (!run) return std::nullopt;
  FixtureInput in;
  in.primary_rule = std::string(RuleIdName(target.first));
  const int last = LastIndex(plan);
  Made made;
  made.credits = TargetsAt(*run, last);
  made.clauses = ClausesAt(*run, last);
  std::set<std::string> rules;
  for (const Target& t : made.credits)
    if (!Exempt(t.first)) rules.insert(std::string(RuleIdName(t.first)));
  in.rules.assign(rules.begin(), rules.end());
  std::vector<json> request_json;
  std::string label;
  for (const StepOutcome& s : run->steps) {
    in.requests.push_back(s.step.request);
    request_json.push_back(RequestToJson(s.step.request));
    if (s.step.plan_index == last) label = s.step.label;
  }
  Result<std::vector<json>> expects = ModelExpectations(request_json, options.switches);
  if (!expects || expects->size() != request_json.size()) return std::nullopt;
  // A history ending in a reader's request (its metadata inline) keeps only the reader's
  // requests, so that a reader profile replays it (docs/fixtures.md section 8).
  if (!run->steps.empty() && IsReaderOp(run->steps.back().step.request.op)) {
    std::vector<Request> reader_requests;
    std::vector<json> reader_json;
    for (const StepOutcome& s : run->steps)
      if (IsReaderOp(s.step.request.op)) {
        reader_requests.push_back(s.step.request);
        reader_json.push_back(RequestToJson(s.step.request));
      }
    Result<std::vector<json>> alone = ModelExpectations(reader_json, options.switches);
    if (reader_json.size() < request_json.size() && alone &&
        alone->size() == reader_json.size() && alone->back() == expects->back()) {
      in.requests = std::move(reader_requests);
      request_json = std::move(reader_json);
      expects = std::move(alone);
    }
  }
  in.expects = *expects;
  in.recorded_switches = SwitchesThatMatter(request_json, options.switches);
  in.slug = (label.empty() ? std::string("history") : Slug(label)) +
            (target.second ? "-reject" : "");
  in.switches = options.switches;
  in.tool = options.tool;
  in.model_version = ModelVersion(options.switches);
  in.seed = options.seed;
  in.description = fmt::format(
      "Generated from random history {} of seed {} and minimized to {} requests; its "
      "last "
      "step ({}) exercises {}{} on the {} side: {}",
      history, options.seed, in.requests.size(), label.empty() ? "create" : label,
      in.primary_rule, clause.empty() ? "" : fmt::format(" (clause {})", clause),
      target.second ? "reject" : "accept", RuleSentenceOf(in.primary_rule));
  made.fixture = MakeFixture(in);
  return made;
}

/// Replaces "$T" in every string of `j` with `table`.
void Substitute(json& j, const std::string& table) {
  if (j.is_string()) {
    std::string s = j.get<std::string>();
    for (size_t p; (p = s.find("$T")) != std::string::npos;) s.replace(p, 2, table);
    j = s;
  } else if (j.is_array() || j.is_object()) {
    for (auto& v : j) Substitute(v, table);
  }
}

/// A hand-written template: {"slug", "rules", "description", "requests"}, "$T" standing
/// for the table name; requests without `now-ms` get the next tick of the clock.
Result<Made> MakeHand(const std::string& path, const CorpusOptions& options) {
  Result<std::string> text = ReadText(path);
  if (!text) return tl::unexpected(text.error());
  Result<json> t = ParseJsonText(*text, path);
  if (!t) return tl::unexpected(t.error());
  for (const auto& [k, v] : t->items())
    if (k != "slug" && k != "rules" && k != "description" && k != "requests")
      return MakeError(ErrorKind::kParse, fmt::format("{}: unknown key \"{}\"", path, k));
  if (!t->contains("slug") || !t->contains("rules") || !t->contains("requests") ||
      !(*t)["rules"].is_array() || (*t)["rules"].empty() || !(*t)["requests"].is_array())
    return MakeError(ErrorKind::kParse,
                     fmt::format("{}: expected slug, rules and requests", path));
  std::string slug = (*t)["slug"].get<std::string>();
  std::string table = "hand_" + slug;
  std::replace(table.begin(), table.end(), '-', '_');
  json requests = (*t)["requests"];
  Substitute(requests, table);
  int64_t clock = 1'700'000'000'000;
  FixtureInput in;
  std::vector<json> request_json;
  std::vector<std::vector<std::string>> exercises(requests.size());
  for (size_t i = 0; i < requests.size(); ++i) {
    json& r = requests[i];
    if (r.contains("exercises")) {
      exercises[i] = r["exercises"].get<std::vector<std::string>>();
      r.erase("exercises");
    }
    if (!r.contains("now-ms")) r["now-ms"] = clock;
    clock = r["now-ms"].get<int64_t>() + 1000;
    Result<Request> req = RequestFromJson(r);
    if (!req)
      return MakeError(ErrorKind::kParse,
                       fmt::format("{}: /requests/{}: {}", path, i, req.error().message));
    in.requests.push_back(*req);
    request_json.push_back(RequestToJson(*req));
  }
  Result<std::vector<json>> expects = ModelExpectations(request_json, options.switches);
  if (!expects)
    return MakeError(expects.error().kind, path + ": " + expects.error().message);
  in.requests.resize(expects->size());
  in.expects = *expects;
  in.recorded_switches = SwitchesThatMatter(request_json, options.switches);
  const auto rules = (*t)["rules"].get<std::vector<std::string>>();
  for (const std::string& r : rules)
    if (!ParseRuleId(r))
      return MakeError(ErrorKind::kParse, fmt::format("{}: unknown rule {}", path, r));
  in.primary_rule = rules.front();
  in.rules = rules;
  in.slug = slug;
  in.description = t->value("description", "");
  in.switches = options.switches;
  in.tool = options.tool;
  in.model_version = ModelVersion(options.switches);
  in.seed = 0;
  Made made;
  made.fixture = MakeFixture(in);
  // Steps marked `exercises` credit their rules on the side their result gives; without
  // marks, the last step credits every rule of the template.
  auto side = [&](size_t i) {
    return in.expects[i]["result"] == json::array({"rejected"});
  };
  bool marked = false;
  for (size_t i = 0; i < in.expects.size(); ++i)
    for (const std::string& r : exercises[i]) {
      std::optional<RuleId> id = ParseRuleId(r);
      if (!id)
        return MakeError(ErrorKind::kParse,
                         fmt::format("{}: /requests/{}/exercises: unknown "
                                     "rule {}",
                                     path, i, r));
      made.credits.insert({*id, side(i)});
      marked = true;
    }
  if (!marked)
    for (const std::string& r : rules)
      made.credits.insert({*ParseRuleId(r), side(in.expects.size() - 1)});
  return made;
}

json IndexEntry(const json& f, const std::set<Target>& credits,
               const std::set<std::string>& clauses) {
  std::set<std::string> accept, reject;
  for (const Target& t : credits)
    if (!Exempt(t.first))
      (t.second ? reject : accept).insert(std::string(RuleIdName(t.first)));
  return {{"id", f["id"]},
          {"rules", f["rules"]},
          {"requires", f["requires"]},
          {"hash", f["hash"]},
          {"path", FixtureRelativePath(f)},
          {"accept", accept},
          {"reject", reject},
          {"clauses", clauses}};
}

/// The clauses the corpus wants a fixture of: every clause that has a generator step and
/// a sample mutant (no gap, no exemption) of a rule the corpus covers (not Exempt).
std::map<std::string, int> WantedClauses(const CorpusOptions& options) {
  std::map<std::string, int> need;
  for (const ClauseInfo& c : AllClauses()) {
    if (!c.gap.empty() || c.exempt.kind != ExemptKind::kNone || Exempt(c.rule)) continue;
    if (!RuleIdName(c.rule).starts_with(options.rule_prefix)) continue;
    need[c.id] = 1;
  }
  return need;
}

}  // namespace

Result<Corpus> GenerateCorpus(const CorpusOptions& options) {
  ModelRunner runner;
  runner.switches = options.switches;
  std::map<Target, int> need;
  for (const RuleInfo& info : RuleCatalogue()) {
    if (Exempt(info.id)) continue;
    if (!RuleIdName(info.id).starts_with(options.rule_prefix)) continue;
    need[{info.id, false}] = options.per_rule;
    need[{info.id, true}] = options.per_rule;
  }
  // And one fixture per clause (issue 12: a mutant that ignores one clause of a rule is
  // caught by replaying the corpus, by any runner), credited by the generator's labels.
  std::map<std::string, int> need_clause = WantedClauses(options);
  std::map<std::string, json> by_path;
  std::map<std::string, std::set<Target>> credits;
  std::map<std::string, std::set<std::string>> clause_credits;
  std::set<std::string> hashes;
  auto add = [&](Made made) {
    const std::string path = FixtureRelativePath(made.fixture);
    // The same steps under another primary rule are the same fixture.
    if (!hashes.insert(made.fixture.value("hash", "")).second) return false;
    for (const Target& t : made.credits)
      if (auto it = need.find(t); it != need.end() && it->second > 0) --it->second;
    for (const std::string& c : made.clauses)
      if (auto it = need_clause.find(c); it != need_clause.end() && it->second > 0)
        --it->second;
    clause_credits[path] = made.clauses;
    credits[path] = made.credits;
    by_path[path] = std::move(made.fixture);
    return true;
  };
  // Hand-written fixtures first: they count towards the rules they name.
  if (!options.hand_dir.empty() && fs::is_directory(options.hand_dir)) {
    std::vector<fs::path> templates;
    for (const auto& e : fs::directory_iterator(options.hand_dir))
      if (e.path().extension() == ".json") templates.push_back(e.path());
    std::sort(templates.begin(), templates.end());
    for (const fs::path& p : templates) {
      Result<Made> made = MakeHand(p.string(), options);
      if (!made) return tl::unexpected(made.error());
      add(std::move(*made));
    }
  }
  HistoryGenConfig config;
  config.max_steps = options.max_steps;
  std::set<Target> seen;  ///< every rule and side some history exercised
  auto wanted = [](const auto& n) { return n.second > 0; };
  // The i-th history of the seed, or nullopt.
  auto plan_of = [&](int64_t i) {
    std::optional<Plan> plan;
    rc::Shrinkable<Plan> s = CasePlan(options.seed, i, config);
    std::lock_guard<std::recursive_mutex> lock(RapidCheckMutex());
    try {
      plan = s.value();
    } catch (...) {
    }
    return plan;
  };
  // First the rules, each on both sides.
  for (int64_t i = 0;
       i < options.max_histories && std::any_of(need.begin(), need.end(), wanted); ++i) {
    std::optional<Plan> plan = plan_of(i);
    if (!plan) continue;
    std::optional<HistoryRun> run = runner.Run(*plan, fmt::format("s{}", i));
    if (!run) continue;
    for (const StepOutcome& s : run->steps)
      for (const Target& t : s.exercised) seen.insert(t);
    for (const StepOutcome& s : run->steps) {
      for (const Target& t : s.exercised) {
        auto it = need.find(t);
        if (it == need.end() || it->second <= 0) continue;
        std::optional<Plan> small = Minimize(
            runner, *plan, s.step.plan_index,
            [&](const HistoryRun& r, int last) { return Exercises(r, last, t); },
            fmt::format("m{}", i));
        if (!small) continue;
        std::optional<Made> made = MakeGenerated(runner, *small, t, options, i);
        if (made) add(std::move(*made));
        // One fixture per step and history: the next history may give a different one.
        break;
      }
    }
  }
  // Then every clause no fixture exercises yet, from the same histories: the step
  // minimized while it still exercises the clause.
  for (int64_t i = 0; i < options.max_histories &&
                      std::any_of(need_clause.begin(), need_clause.end(), wanted);
       ++i) {
    std::optional<Plan> plan = plan_of(i);
    if (!plan) continue;
    std::optional<HistoryRun> run = runner.Run(*plan, fmt::format("s{}", i));
    if (!run) continue;
    for (const StepOutcome& s : run->steps) {
      for (const std::string& clause : s.step.clauses) {
        auto it = need_clause.find(clause);
        if (it == need_clause.end() || it->second <= 0) continue;
        std::optional<Plan> small = Minimize(
            runner, *plan, s.step.plan_index,
            [&](const HistoryRun& r, int last) { return ClausesAt(r, last).count(clause) > 0; },
            fmt::format("c{}", i));
        if (!small) continue;
        const RuleId rule = FindClause(clause)->rule;
        const bool reject = std::find(s.exercised.begin(), s.exercised.end(),
                                      Target{rule, true}) != s.exercised.end();
        std::optional<Made> made =
            MakeGenerated(runner, *small, Target{rule, reject}, options, i, clause);
        if (made) add(std::move(*made));
        break;
      }
    }
  }
  Corpus corpus;
  json index = json::array();
  std::map<std::string, std::pair<int, int>> counts;
  for (const auto& [path, f] : by_path) {
    corpus.files[path] = DumpJson(f, 2) + "\n";
    json entry = IndexEntry(f, credits[path], clause_credits[path]);
    for (const json& r : entry["accept"]) ++counts[r.get<std::string>()].first;
    for (const json& r : entry["reject"]) ++counts[r.get<std::string>()].second;
    index.push_back(std::move(entry));
  }
  json rules = json::object();
  json exempt = json::array();
  json short_of = json::array();
  for (const RuleInfo& info : RuleCatalogue()) {
    const std::string name(RuleIdName(info.id));
    if (Exempt(info.id) && !info.coverage_exempt) continue;
    if (info.coverage_exempt) {
      exempt.push_back(name);
      continue;
    }
    if (!name.starts_with(options.rule_prefix)) continue;
    const auto c = counts[name];
    // A side counts when some history (or hand-written fixture) exercised it.
    const bool accept_side = seen.count({info.id, false}) || c.first > 0;
    const bool reject_side = seen.count({info.id, true}) || c.second > 0;
    json sides = json::array();
    if (accept_side) sides.push_back("accept");
    if (reject_side) sides.push_back("reject");
    rules[name] = {{"accept", c.first}, {"reject", c.second}, {"sides", sides}};
    const bool covered = (accept_side || reject_side) &&
                         (!accept_side || c.first >= options.per_rule) &&
                         (!reject_side || c.second >= options.per_rule);
    if (!covered) {
      short_of.push_back(name);
      corpus.notes.push_back(fmt::format(
          "{}: {} accept, {} reject fixtures (wanted {} on each side it has){}", name,
          c.first, c.second, options.per_rule,
          c.first + c.second == 0 ? "; never exercised" : ""));
    }
  }
  json clauses = json::object();
  json short_clauses = json::array();
  for (const auto& [clause, wanted] : WantedClauses(options)) {
    int n = 0;
    for (const auto& [path, cs] : clause_credits) n += static_cast<int>(cs.count(clause));
    clauses[clause] = n;
    if (n < wanted) {
      short_clauses.push_back(clause);
      corpus.notes.push_back(
          fmt::format("{}: no fixture exercises this clause alone", clause));
    }
  }
  const json doc = {{"format", "ictk-fixture-index"},
                    {"format-version", kFixtureFormatVersion},
                    {"corpus-version", kCorpusVersion},
                    {"generated-by",
                     {{"tool", options.tool},
                      {"model", ModelVersion(options.switches)},
                      {"seed", options.seed},
                      {"per-rule", options.per_rule}}},
                    {"fixtures", index},
                    {"rules", rules},
                    {"exempt", exempt},
                    {"short", short_of},
                    {"clauses", clauses},
                    {"short-clauses", short_clauses}};
  corpus.files["INDEX.json"] = DumpJson(doc, 2) + "\n";
  corpus.files["VERSION"] = std::string(kCorpusVersion) + "\n";
  return corpus;
}

Result<void> WriteCorpus(const Corpus& corpus, const std::string& dir) {
  std::error_code ec;
  fs::create_directories(dir, ec);
  // Stale fixtures of an earlier generation go, but only in a folder that is a corpus
  // (it has an INDEX.json) and only files at <rule ID>/<name>.json.
  if (fs::exists(fs::path(dir) / "INDEX.json")) {
    std::vector<fs::path> stale;
    for (const auto& sub : fs::directory_iterator(dir, ec)) {
      if (!sub.is_directory() || !ParseRuleId(sub.path().filename().string())) continue;
      for (const auto& f : fs::directory_iterator(sub.path(), ec))
        if (f.is_regular_file() && f.path().extension() == ".json" &&
            !corpus.files.count(fs::relative(f.path(), dir).generic_string()))
          stale.push_back(f.path());
    }
    for (const fs::path& p : stale) fs::remove(p, ec);
  }
  for (const auto& [path, text] : corpus.files) {
    const fs::path p = fs::path(dir) / path;
    fs::create_directories(p.parent_path(), ec);
    std::ofstream out(p, std::ios::binary | std::ios::trunc);
    out << text;
    out.close();
    if (!out)
      return MakeError(ErrorKind::kIo, fmt::format("cannot write {}", p.string()));
  }
  // Rule folders left empty by removed fixtures.
  std::vector<fs::path> empty;
  for (const auto& sub : fs::directory_iterator(dir, ec))
    if (sub.is_directory() && ParseRuleId(sub.path().filename().string()) &&
        fs::is_empty(sub.path()))
      empty.push_back(sub.path());
  for (const fs::path& p : empty) fs::remove(p, ec);
  return {};
}

// --- verification ----------------------------------------------------------------------

namespace {

/// The first key whose value differs between two expectation objects.
std::string FirstDifference(const json& file, const json& model) {
  std::set<std::string> keys;
  for (const auto& [k, v] : file.items()) keys.insert(k);
  for (const auto& [k, v] : model.items()) keys.insert(k);
  for (const std::string& k : keys) {
    const json a = file.contains(k) ? file[k] : json();
    const json b = model.contains(k) ? model[k] : json();
    if (a != b || file.contains(k) != model.contains(k))
      return fmt::format("`{}`: the file has {}, the model derives {}", k,
                         file.contains(k) ? DumpJson(a) : "nothing",
                         model.contains(k) ? DumpJson(b) : "nothing");
  }
  return "no difference";
}

}  // namespace

VerifyResult VerifyCorpus(const std::string& dir, const Switches& switches) {
  (void)switches;  // each fixture is judged under the switches it records
  VerifyResult out;
  auto problem = [&](std::string text) { out.problems.push_back(std::move(text)); };
  Result<std::vector<std::string>> files = ListFixtureFiles({dir});
  if (!files) {
    problem(files.error().message);
    out.unreadable = true;
    return out;
  }
  std::map<std::string, json> index_by_id;
  const fs::path index_path = fs::path(dir) / "INDEX.json";
  json index;
  if (Result<std::string> text = ReadText(index_path.string()); !text) {
    problem(fmt::format("{}: missing", index_path.string()));
  } else if (Result<json> doc = ParseJsonText(*text, index_path.string()); !doc) {
    problem(doc.error().message);
    out.unreadable = true;
  } else {
    index = *doc;
    if (index.contains("fixtures") && index["fixtures"].is_array())
      for (const json& e : index["fixtures"])
        if (e.is_object() && e.contains("id") && e["id"].is_string())
          index_by_id[e["id"].get<std::string>()] = e;
  }
  if (Result<std::string> v = ReadText((fs::path(dir) / "VERSION").string()); !v)
    problem(fmt::format("{}/VERSION: missing", dir));
  else if (*v != std::string(kCorpusVersion) + "\n")
    problem(fmt::format("{}/VERSION: {} (this ictk writes {})", dir,
                        v->substr(0, v->find('\n')), kCorpusVersion));

  std::set<std::string> ids_seen;
  std::map<std::string, std::pair<int, int>> counts;
  for (const std::string& path : *files) {
    ++out.files;
    Result<Fixture> f = ReadFixtureFile(path);
    if (!f) {
      problem(f.error().message);
      out.unreadable = true;
      continue;
    }
    const std::string hash = Sha256Hex(FixtureHashedText(f->document));
    if (hash != f->hash)
      problem(fmt::format("{}: hash {} does not match the content (sha256 {})", path,
                          f->hash, hash));
    const std::string want_suffix = "-" + hash.substr(0, 8);
    if (!f->id.ends_with(want_suffix) || !f->id.starts_with(f->rules.front() + "/"))
      problem(fmt::format("{}: id {} is not <primary rule>/<slug>{}", path, f->id,
                          want_suffix));
    const std::string rel = fs::relative(path, dir).generic_string();
    if (rel != f->id + ".json")
      problem(fmt::format("{}: the file of fixture {} must be {}/{}.json", path, f->id,
                          dir, f->id));
    if (!ids_seen.insert(f->id).second)
      problem(fmt::format("{}: a second fixture with id {}", path, f->id));
    auto entry = index_by_id.find(f->id);
    if (entry == index_by_id.end()) {
      problem(fmt::format("{}: fixture {} is not in INDEX.json", path, f->id));
    } else {
      const json& e = entry->second;
      if (e.value("hash", "") != f->hash ||
          e.value("rules", json()) != f->document["rules"] ||
          e.value("requires", json()) != f->document["requires"] ||
          e.value("path", "") != f->id + ".json")
        problem(fmt::format("{}: INDEX.json's entry for {} disagrees with the file", path,
                            f->id));
      for (const char* side : {"accept", "reject"})
        if (e.contains(side) && e[side].is_array())
          for (const json& r : e[side])
            if (r.is_string())
              (side[0] == 'a' ? counts[r.get<std::string>()].first
                              : counts[r.get<std::string>()].second)++;
    }
    // Re-judge with the model, under the fixture's switches.
    const Switches fs_switches = SwitchesOf(f->switches);
    std::vector<json> requests;
    for (const FixtureStep& s : f->steps) requests.push_back(s.request);
    Result<std::vector<json>> model = ModelExpectations(requests, fs_switches);
    if (!model) {
      problem(
          fmt::format("{}: the model cannot run it: {}", path, model.error().message));
    } else {
      for (size_t i = 0; i < f->steps.size(); ++i) {
        if (i >= model->size()) {
          problem(
              fmt::format("{}: step {}: drift: the model ends the history at step {} "
                          "(stop-if)",
                          path, i + 1, model->size()));
          break;
        }
        if ((*model)[i] != f->steps[i].expect) {
          problem(fmt::format("{}: step {} ({}): drift: {}", path, i + 1,
                              f->steps[i].request.value("op", "?"),
                              FirstDifference(f->steps[i].expect, (*model)[i])));
          break;
        }
      }
    }
    // Replay on the reference implementation.
    AdapterSession session(MakeReferenceAdapter(fs_switches));
    if (!session.Handshake()) {
      problem("the reference implementation does not start");
      continue;
    }
    ReplayOptions ro;
    ro.switches = fs_switches;
    ro.adapter_spec = "builtin:reference";
    CaseRecord r = ReplayFixture(session, *f, ro, 0);
    if (r.verdict != Verdict::kPass)
      problem(fmt::format(
          "{}: replay on builtin:reference: {}{}", path, ToString(r.verdict),
          r.failure && !r.failure->findings.empty() ? ": " + r.failure->findings.front()
                                                    : ""));
  }
  for (const auto& [id, e] : index_by_id)
    if (!ids_seen.count(id))
      problem(fmt::format("{}: lists {}, which has no file", index_path.string(), id));
  if (index.contains("rules") && index["rules"].is_object())
    for (const auto& [rule, c] : index["rules"].items()) {
      const auto got = counts[rule];
      if (c.value("accept", -1) != got.first || c.value("reject", -1) != got.second)
        problem(
            fmt::format("{}: rules/{}: counts {} accept, {} reject; the entries give "
                        "{} and {}",
                        index_path.string(), rule, c.value("accept", -1),
                        c.value("reject", -1), got.first, got.second));
    }
  return out;
}

}  // namespace ictk
