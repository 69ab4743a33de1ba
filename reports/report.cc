/// \file
/// Report records, their JSON and the totals (report.h).
#include "model/judge/capability.h"
#include "reports/report.h"

#include <fmt/format.h>

#include <algorithm>
#include <set>
#include <string>
#include <type_traits>

#include "codec/json_text.h"
#include "model/judge/rule_catalogue.h"
#include "model/rules/rule_id.h"

namespace ictk {
namespace {

using json = nlohmann::json;

/// Whether the header declares every known format version (1-4).
bool DeclaresEveryVersion(const RunHeader& h) {
  for (int32_t v = 1; v <= 4; ++v)
    if (std::find(h.format_versions.begin(), h.format_versions.end(), v) ==
        h.format_versions.end())
      return false;
  return true;
}

constexpr std::string_view kVerdictNames[] = {"pass",  "fail",    "error",
                                              "crash", "timeout", "protocol-error",
                                              "skip",  "xfail",   "xpass"};

// Whether `v` has the JSON shape T is read from, as far as nlohmann's get<T> does not
// check it itself: it converts a number of any kind with static_cast, and a float outside
// an integer type's range is undefined behaviour there (found by the report fuzz target).
template <typename T>
bool ShapedFor(const json& v) {
  if constexpr (std::is_same_v<T, bool> || std::is_same_v<T, std::string>) {
    return true;  // get<T> checks these and throws
  } else if constexpr (std::is_integral_v<T>) {
    return v.is_number_integer();
  } else if constexpr (std::is_floating_point_v<T>) {
    return v.is_number();
  } else if constexpr (requires { typename T::mapped_type; }) {
    if (!v.is_object()) return false;
    for (const auto& item : v) {
      if (!ShapedFor<typename T::mapped_type>(item)) return false;
    }
    return true;
  } else {
    if (!v.is_array()) return false;
    for (const auto& item : v) {
      if (!ShapedFor<typename T::value_type>(item)) return false;
    }
    return true;
  }
}

template <typename T>
T Get(const json& j, const char* key, T fallback) {
  auto it = j.find(key);
  if (it == j.end() || it->is_null()) return fallback;
  if (!ShapedFor<T>(*it)) return fallback;
  try {
    return it->get<T>();
  } catch (const json::exception&) {
    return fallback;
  }
}

json VerdictCounts(const std::map<Verdict, int64_t>& counts) {
  json out = json::object();
  for (const auto& [v, n] : counts) out[std::string(ToString(v))] = n;
  return out;
}

std::map<Verdict, int64_t> VerdictCountsFromJson(const json& j) {
  std::map<Verdict, int64_t> out;
  if (!j.is_object()) return out;
  for (const auto& [k, v] : j.items())
    if (std::optional<Verdict> verdict = ParseVerdict(k);
        verdict && v.is_number_integer())
      out[*verdict] = v.get<int64_t>();
  return out;
}

json PrecisionJson(const std::map<std::string, PrecisionCount>& p) {
  json out = json::object();
  for (const auto& [status, c] : p)
    out[status] = {{"precise", c.precise}, {"total", c.total}};
  return out;
}

std::map<std::string, PrecisionCount> PrecisionFromJson(const json& j) {
  std::map<std::string, PrecisionCount> out;
  if (!j.is_object()) return out;
  for (const auto& [k, v] : j.items())
    out[k] = {Get<int64_t>(v, "precise", 0), Get<int64_t>(v, "total", 0)};
  return out;
}

json StepRowJson(const StepRow& s) {
  return {{"index", s.index},       {"op", s.op},
          {"label", s.label},       {"request", s.request},
          {"response", s.response}, {"allowed", s.allowed},
          {"answered", s.answered}, {"failed", s.failed}};
}

StepRow StepRowFromJson(const json& j) {
  StepRow s;
  s.index = Get<int>(j, "index", 0);
  s.op = Get<std::string>(j, "op", "");
  s.label = Get<std::string>(j, "label", "");
  if (j.contains("request")) s.request = j.at("request");
  if (j.contains("response")) s.response = j.at("response");
  s.allowed = Get<std::string>(j, "allowed", "");
  s.answered = Get<std::string>(j, "answered", "");
  s.failed = Get<bool>(j, "failed", false);
  return s;
}

FailureDetail FailureFromJson(const json& j) {
  FailureDetail f;
  f.step = Get<int>(j, "step", 0);
  f.finding = Get<std::string>(j, "finding", "");
  f.rule = Get<std::string>(j, "rule", "");
  f.sentence = Get<std::string>(j, "sentence", "");
  f.allowed = Get<std::string>(j, "allowed", "");
  f.answered = Get<std::string>(j, "answered", "");
  f.findings = Get<std::vector<std::string>>(j, "findings", {});
  if (j.contains("steps") && j.at("steps").is_array())
    for (const json& s : j.at("steps")) f.steps.push_back(StepRowFromJson(s));
  f.fixture = Get<std::string>(j, "fixture", "");
  f.fixture_id = Get<std::string>(j, "fixture-id", "");
  f.replay = Get<std::string>(j, "replay", "");
  f.reproduce = Get<std::string>(j, "reproduce", "");
  f.original_steps = Get<int>(j, "original-steps", 0);
  f.shrink_runs = Get<int>(j, "shrink-runs", 0);
  f.stderr_tail = Get<std::string>(j, "stderr-tail", "");
  f.same_cause_as = Get<std::string>(j, "same-cause-as", "");
  return f;
}

}  // namespace

std::string FindingOf(const FailureDetail& failure) {
  if (!failure.finding.empty()) return failure.finding;
  if (!failure.findings.empty()) return failure.findings.front();
  return {};
}

bool WasMinimized(const FailureDetail& failure) {
  return failure.shrink_runs > 0 &&
         failure.original_steps > static_cast<int>(failure.steps.size());
}

std::string_view ToString(Verdict verdict) {
  return kVerdictNames[static_cast<int>(verdict)];
}

std::optional<Verdict> ParseVerdict(std::string_view text) {
  for (Verdict v : kAllVerdicts)
    if (ToString(v) == text) return v;
  return std::nullopt;
}

bool IsConformant(Verdict verdict) {
  return verdict == Verdict::kPass || verdict == Verdict::kSkip ||
         verdict == Verdict::kXfail;
}

std::string_view CapabilityForRule(std::string_view rule) {
  const std::optional<RuleId> id = ParseRuleId(rule);
  if (!id) return {};
  const std::optional<Capability> cap = CapabilityOfRule(*id);
  return cap ? ToString(*cap) : std::string_view{};
}

std::string CasesText(const Totals& totals) {
  const int64_t histories = totals.cases - totals.fixture_cases;
  if (totals.fixture_cases == 0) return fmt::format("{} histories", histories);
  if (histories == 0) return fmt::format("{} fixtures", totals.fixture_cases);
  return fmt::format("{} histories and {} fixtures", histories, totals.fixture_cases);
}

TotalsBuilder::TotalsBuilder() {
  for (const RuleInfo& r : RuleCatalogue()) t_.rules[std::string(RuleIdName(r.id))];
}

void TotalsBuilder::Add(const CaseRecord& c) {
  Totals& t = t_;
  ++t.cases;
  if (c.id.rfind("random/", 0) != 0) ++t.fixture_cases;
  ++t.verdicts[c.verdict];
  t.steps += c.steps;
  if (!IsConformant(c.verdict)) t.conformant = false;
  const std::set<std::string> failed(c.failed_rules.begin(), c.failed_rules.end());
  for (const auto& [rule, use] : c.rules) {
    RuleTotals& rt = t.rules[rule];
    rt.positive += use.positive;
    rt.negative += use.negative;
    if (!failed.count(rule)) ++rt.cases[Verdict::kPass];
  }
  for (const std::string& rule : failed) ++t.rules[rule].cases[c.verdict];
  for (const auto& [status, p] : c.precision) {
    t.precision[status].precise += p.precise;
    t.precision[status].total += p.total;
  }
  for (const auto& [op, n] : c.ops) t.ops[op] += n;
  for (const auto& [tag, n] : c.tags) t.tags[tag] += n;
  for (const auto& [clause, use] : c.clauses) {
    t.clauses[clause].positive += use.positive;
    t.clauses[clause].negative += use.negative;
  }
}

Totals TotalsBuilder::Finish(const RunHeader& header, double duration_ms) const {
  Totals t = t_;
  t.duration_ms = duration_ms;
  for (const ClauseInfo& c : AllClauses()) {
    const RuleUse& use = t.clauses[c.id];
    if (FindRule(c.rule).coverage_exempt || use.positive + use.negative > 0) continue;
    t.clauses_never_exercised.push_back(c.id);
  }
  const std::set<std::string> declared(header.capabilities.begin(),
                                       header.capabilities.end());
  for (const RuleInfo& r : RuleCatalogue()) {
    const std::string name(RuleIdName(r.id));
    const RuleTotals& rt = t.rules[name];
    if (r.coverage_exempt || rt.positive + rt.negative > 0) continue;
    t.never_exercised.push_back(name);
    const std::string_view cap = CapabilityForRule(name);
    if (!cap.empty() && !declared.count(std::string(cap)))
      t.untested_because[name] = std::string(cap);
  }
  // proto.declared-versions cannot be exercised by an implementation that declared
  // every known format version.
  if (DeclaresEveryVersion(header))
    std::erase(t.never_exercised, std::string(RuleIdName(RuleId::kProtoDeclaredVersions)));
  t.profile = header.profile;
  const bool v4 = std::find(header.format_versions.begin(), header.format_versions.end(),
                            4) != header.format_versions.end();
  if (!header.profile.empty()) {
    const std::vector<std::string> covered = ProfileRules(header);
    t.profile_rules = static_cast<int64_t>(covered.size());
    for (const auto& [why, rules] : ProfileOutOfReach(header))
      t.profile_out_of_reach[why] = static_cast<int64_t>(rules.size());
    for (const std::string& rule : covered) {
      const RuleTotals& rt = t.rules[rule];
      if (rt.positive + rt.negative == 0) t.profile_not_exercised.push_back(rule);
    }
    for (const std::string& cap : header.capabilities) {
      const std::string_view op = RequestOfCapability(cap);
      if (op.empty()) continue;
      if (!header.writer && op != "read-statuses" && op != "parse-metadata") continue;
      // Without format version 4 no constraint op is sent, by design.
      if (!v4 && (op == "add-constraint" || cap == "validate")) continue;
      auto it = t.ops.find(std::string(op));
      if (it == t.ops.end() || it->second == 0) t.idle_capabilities.push_back(cap);
    }
  }
  return t;
}

Totals ComputeTotals(const RunHeader& header, const std::vector<CaseRecord>& cases,
                     double duration_ms) {
  TotalsBuilder builder;
  for (const CaseRecord& c : cases) builder.Add(c);
  return builder.Finish(header, duration_ms);
}

std::string OutOfReachReason(const RunHeader& header, const RuleInfo& r) {
  const std::set<std::string> declared(header.capabilities.begin(),
                                       header.capabilities.end());
  const bool v4 = std::find(header.format_versions.begin(), header.format_versions.end(),
                            4) != header.format_versions.end();
  const std::string name(RuleIdName(r.id));
  const std::string_view cap = CapabilityForRule(name);
  if (!cap.empty() && !declared.count(std::string(cap))) return "capability not declared";
  // A writer is never sent a known version it did not declare: only a reader can
  // exercise proto.declared-versions.
  if (r.id == RuleId::kProtoDeclaredVersions &&
      (header.writer || DeclaresEveryVersion(header)))
    return "only a reader lacking a format version meets it";
  // The Iceberg table-metadata rules are judged by `ictk lint-metadata`, not per
  // request of a writer's history.
  if (header.writer && r.group == "ice" && r.binds == Binds::kMetadata)
    return "metadata rule judged by lint-metadata";
  // A v1-v3 writer is sent no constraint changes; def.v4-only is then the reader's
  // (v1-v3 metadata carrying constraint fields).
  const bool v4_only_reader = !header.writer && r.id == RuleId::kDefV4Only;
  if (!header.writer && r.binds == Binds::kWriter && r.group != "proto" && !v4_only_reader)
    return "a writer's rule";
  if (!v4 && !(r.group == "ice" || r.group == "proto" || v4_only_reader ||
               (header.writer && r.id == RuleId::kSemLiveRows)))
    return "needs format version 4";
  return {};
}

std::vector<std::string> ProfileRules(const RunHeader& header) {
  std::vector<std::string> out;
  for (const RuleInfo& r : RuleCatalogue())
    if (!r.coverage_exempt && OutOfReachReason(header, r).empty())
      out.emplace_back(RuleIdName(r.id));
  return out;
}

std::map<std::string, std::vector<std::string>> ProfileOutOfReach(const RunHeader& header) {
  std::map<std::string, std::vector<std::string>> out;
  for (const RuleInfo& r : RuleCatalogue()) {
    if (r.coverage_exempt) continue;
    if (std::string why = OutOfReachReason(header, r); !why.empty())
      out[why].emplace_back(RuleIdName(r.id));
  }
  return out;
}

std::string_view RequestOfCapability(std::string_view capability) {
  for (const CapabilityInfo& c : CapabilityTable())
    if (c.name == capability) return c.request_op;
  return {};
}

std::string VerdictText(const Totals& t) {
  std::string out = t.conformant ? "CONFORMANT" : "NOT CONFORMANT";
  if (t.profile.empty() ||
      (t.profile_not_exercised.empty() && t.idle_capabilities.empty()))
    return out;
  const int64_t exercised =
      t.profile_rules - static_cast<int64_t>(t.profile_not_exercised.size());
  out += fmt::format(" ({} profile: {} of {} rules exercised", t.profile, exercised,
                     t.profile_rules);
  if (!t.profile_not_exercised.empty()) {
    constexpr size_t kShown = 8;
    std::vector<std::string> shown(
        t.profile_not_exercised.begin(),
        t.profile_not_exercised.begin() +
            static_cast<std::ptrdiff_t>(std::min(kShown, t.profile_not_exercised.size())));
    out += fmt::format("; not exercised: {}", fmt::join(shown, ", "));
    if (t.profile_not_exercised.size() > kShown)
      out += fmt::format(" and {} more", t.profile_not_exercised.size() - kShown);
  }
  // What the profile cannot reach, and why: "N of M" counts only the reachable rules.
  if (!t.profile_out_of_reach.empty()) {
    int64_t total = 0;
    std::vector<std::string> parts;
    for (const auto& [why, n] : t.profile_out_of_reach) {
      total += n;
      parts.push_back(fmt::format("{} {}", n, why));
    }
    out += fmt::format("; {} more out of the profile's reach: {}", total,
                       fmt::join(parts, ", "));
  }
  if (!t.idle_capabilities.empty())
    out += fmt::format("; no request for declared {} {}",
                       t.idle_capabilities.size() == 1 ? "capability" : "capabilities",
                       fmt::join(t.idle_capabilities, ", "));
  return out + ")";
}

namespace {

/// "unsupported", "rejected (invalid-request)", "ok", "error": the kind of an answer
/// described by DescribeAnswer.
std::string AnswerKind(std::string_view answered) {
  if (answered.rfind("ok", 0) == 0) return "ok";
  if (answered.rfind("rejected (", 0) == 0) {
    const size_t close = answered.find(')');
    if (close != std::string_view::npos) return std::string(answered.substr(0, close + 1));
  }
  const size_t end = answered.find_first_of(":;\n");
  return std::string(answered.substr(0, end));
}

}  // namespace

std::string CauseOf(const CaseRecord& c) {
  if (c.failure) {
    const FailureDetail& f = *c.failure;
    std::string op;
    if (f.step >= 1 && static_cast<size_t>(f.step) <= f.steps.size())
      op = f.steps[static_cast<size_t>(f.step) - 1].op;
    return fmt::format("{} {}{}: answered {}", ToString(c.verdict), f.rule,
                       op.empty() ? "" : " at " + op, AnswerKind(f.answered));
  }
  std::string_view reason = c.reason;
  reason = reason.substr(0, reason.find('\n'));
  if (reason.size() > 100) reason = reason.substr(0, 100);
  return reason.empty() ? std::string(ToString(c.verdict))
                        : fmt::format("{}: {}", ToString(c.verdict), reason);
}

std::vector<FailureCause> FailureCauses(const std::vector<CaseRecord>& cases) {
  std::vector<FailureCause> out;
  std::map<std::string, size_t> index;
  for (size_t i = 0; i < cases.size(); ++i) {
    const CaseRecord& c = cases[i];
    if (IsConformant(c.verdict)) continue;
    const std::string cause = CauseOf(c);
    auto [it, inserted] = index.emplace(cause, out.size());
    if (inserted) out.push_back(FailureCause{cause, {}, i});
    out[it->second].cases.push_back(c.id);
  }
  return out;
}

json ToJson(const RunHeader& h) {
  return {{"type", "header"},
          {"ictk-version", h.ictk_version},
          {"protocol-version", h.protocol_version},
          {"model-version", h.model_version},
          {"switches", h.switches},
          {"seed", h.seed},
          {"command-line", h.command_line},
          {"adapter", h.adapter},
          {"hello", h.hello},
          {"capabilities", h.capabilities},
          {"histories", h.histories},
          {"max-steps", h.max_steps},
          {"shard", h.shard},
          {"mode", h.mode},
          {"profile", h.profile},
          {"writer", h.writer},
          {"format-versions", h.format_versions},
          {"corpus", h.corpus},
          {"corpus-note", h.corpus_note}};
}

json ToJson(const FailureDetail& f) {
  json steps = json::array();
  for (const StepRow& s : f.steps) steps.push_back(StepRowJson(s));
  return {{"step", f.step},
          {"finding", f.finding},
          {"rule", f.rule},
          {"sentence", f.sentence},
          {"allowed", f.allowed},
          {"answered", f.answered},
          {"findings", f.findings},
          {"steps", steps},
          {"fixture", f.fixture},
          {"fixture-id", f.fixture_id},
          {"replay", f.replay},
          {"reproduce", f.reproduce},
          {"original-steps", f.original_steps},
          {"shrink-runs", f.shrink_runs},
          {"stderr-tail", f.stderr_tail},
          {"same-cause-as", f.same_cause_as}};
}

namespace {

/// {"<clause>": {"positive": P, "negative": N}, ...}
json UsesJson(const std::map<std::string, RuleUse>& uses) {
  json out = json::object();
  for (const auto& [k, use] : uses)
    out[k] = {{"positive", use.positive}, {"negative", use.negative}};
  return out;
}

std::map<std::string, RuleUse> UsesFromJson(const json& j) {
  std::map<std::string, RuleUse> out;
  if (!j.is_object()) return out;
  for (const auto& [k, use] : j.items())
    out[k] = {Get<int64_t>(use, "positive", 0), Get<int64_t>(use, "negative", 0)};
  return out;
}

}  // namespace

json ToJson(const CaseRecord& c) {
  json rules = json::object();
  for (const auto& [rule, use] : c.rules)
    rules[rule] = {{"positive", use.positive}, {"negative", use.negative}};
  json out = {{"type", "case"},
              {"id", c.id},
              {"index", c.index},
              {"verdict", std::string(ToString(c.verdict))},
              {"rules", rules},
              {"failed-rules", c.failed_rules},
              {"steps", c.steps},
              {"duration-ms", c.duration_ms},
              {"precision", PrecisionJson(c.precision)},
              {"ops", c.ops},
              {"tags", c.tags},
              {"clauses", UsesJson(c.clauses)},
              {"reason", c.reason}};
  out["failure"] = c.failure ? ToJson(*c.failure) : json(nullptr);
  return out;
}

json ToJson(const Totals& t) {
  json rules = json::object();
  for (const auto& [rule, rt] : t.rules)
    rules[rule] = {{"cases", VerdictCounts(rt.cases)},
                   {"positive", rt.positive},
                   {"negative", rt.negative}};
  return {{"type", "totals"},
          {"verdicts", VerdictCounts(t.verdicts)},
          {"rules", rules},
          {"never-exercised", t.never_exercised},
          {"untested-because", t.untested_because},
          {"precision", PrecisionJson(t.precision)},
          {"ops", t.ops},
          {"tags", t.tags},
          {"clauses", UsesJson(t.clauses)},
          {"clauses-never-exercised", t.clauses_never_exercised},
          {"cases", t.cases},
          {"fixture-cases", t.fixture_cases},
          {"steps", t.steps},
          {"duration-ms", t.duration_ms},
          {"conformant", t.conformant},
          {"profile", t.profile},
          {"profile-rules", t.profile_rules},
          {"profile-not-exercised", t.profile_not_exercised},
          {"profile-out-of-reach", t.profile_out_of_reach},
          {"idle-capabilities", t.idle_capabilities}};
}

Result<RunHeader> HeaderFromJson(const json& j) {
  if (!j.is_object() || Get<std::string>(j, "type", "") != "header")
    return MakeError(ErrorKind::kParse, "expected a header record");
  RunHeader h;
  h.ictk_version = Get<std::string>(j, "ictk-version", "");
  h.protocol_version = Get<int>(j, "protocol-version", 0);
  h.model_version = Get<std::string>(j, "model-version", "");
  h.switches = Get<std::map<std::string, std::string>>(j, "switches", {});
  h.seed = Get<uint64_t>(j, "seed", 0);
  h.command_line = Get<std::string>(j, "command-line", "");
  h.adapter = Get<std::string>(j, "adapter", "");
  if (j.contains("hello")) h.hello = j.at("hello");
  h.capabilities = Get<std::vector<std::string>>(j, "capabilities", {});
  h.histories = Get<int64_t>(j, "histories", 0);
  h.max_steps = Get<int>(j, "max-steps", 0);
  h.shard = Get<std::string>(j, "shard", "");
  h.mode = Get<std::string>(j, "mode", "certify");
  h.profile = Get<std::string>(j, "profile", "");
  h.writer = Get<bool>(j, "writer", true);
  h.format_versions =
      Get<std::vector<int32_t>>(j, "format-versions", std::vector<int32_t>{1, 2, 3, 4});
  h.corpus = Get<std::string>(j, "corpus", "");
  h.corpus_note = Get<std::string>(j, "corpus-note", "");
  return h;
}

Result<CaseRecord> CaseFromJson(const json& j) {
  if (!j.is_object() || Get<std::string>(j, "type", "") != "case")
    return MakeError(ErrorKind::kParse, "expected a case record");
  CaseRecord c;
  c.id = Get<std::string>(j, "id", "");
  c.index = Get<int64_t>(j, "index", 0);
  std::optional<Verdict> v = ParseVerdict(Get<std::string>(j, "verdict", ""));
  if (!v)
    return MakeError(ErrorKind::kParse, fmt::format("case {}: unknown verdict", c.id));
  c.verdict = *v;
  if (j.contains("rules") && j.at("rules").is_object())
    for (const auto& [rule, use] : j.at("rules").items())
      c.rules[rule] = {Get<int64_t>(use, "positive", 0),
                       Get<int64_t>(use, "negative", 0)};
  c.failed_rules = Get<std::vector<std::string>>(j, "failed-rules", {});
  c.steps = Get<int64_t>(j, "steps", 0);
  c.duration_ms = Get<double>(j, "duration-ms", 0);
  if (j.contains("failure") && j.at("failure").is_object())
    c.failure = FailureFromJson(j.at("failure"));
  if (j.contains("precision")) c.precision = PrecisionFromJson(j.at("precision"));
  c.ops = Get<std::map<std::string, int64_t>>(j, "ops", {});
  c.tags = Get<std::map<std::string, int64_t>>(j, "tags", {});
  if (j.contains("clauses")) c.clauses = UsesFromJson(j.at("clauses"));
  c.reason = Get<std::string>(j, "reason", "");
  return c;
}

Result<Totals> TotalsFromJson(const json& j) {
  if (!j.is_object() || Get<std::string>(j, "type", "") != "totals")
    return MakeError(ErrorKind::kParse, "expected a totals record");
  Totals t;
  if (j.contains("verdicts")) t.verdicts = VerdictCountsFromJson(j.at("verdicts"));
  if (j.contains("rules") && j.at("rules").is_object())
    for (const auto& [rule, rt] : j.at("rules").items()) {
      RuleTotals& out = t.rules[rule];
      if (rt.contains("cases")) out.cases = VerdictCountsFromJson(rt.at("cases"));
      out.positive = Get<int64_t>(rt, "positive", 0);
      out.negative = Get<int64_t>(rt, "negative", 0);
    }
  t.never_exercised = Get<std::vector<std::string>>(j, "never-exercised", {});
  t.untested_because = Get<std::map<std::string, std::string>>(j, "untested-because", {});
  if (j.contains("precision")) t.precision = PrecisionFromJson(j.at("precision"));
  t.ops = Get<std::map<std::string, int64_t>>(j, "ops", {});
  t.tags = Get<std::map<std::string, int64_t>>(j, "tags", {});
  if (j.contains("clauses")) t.clauses = UsesFromJson(j.at("clauses"));
  t.clauses_never_exercised =
      Get<std::vector<std::string>>(j, "clauses-never-exercised", {});
  t.cases = Get<int64_t>(j, "cases", 0);
  t.fixture_cases = Get<int64_t>(j, "fixture-cases", 0);
  t.steps = Get<int64_t>(j, "steps", 0);
  t.duration_ms = Get<double>(j, "duration-ms", 0);
  t.conformant = Get<bool>(j, "conformant", true);
  t.profile = Get<std::string>(j, "profile", "");
  t.profile_rules = Get<int64_t>(j, "profile-rules", 0);
  t.profile_not_exercised =
      Get<std::vector<std::string>>(j, "profile-not-exercised", {});
  t.idle_capabilities = Get<std::vector<std::string>>(j, "idle-capabilities", {});
  t.profile_out_of_reach =
      Get<std::map<std::string, int64_t>>(j, "profile-out-of-reach", {});
  return t;
}

Result<Report> ParseReportJsonl(std::string_view text, std::string_view source) {
  Report report;
  bool have_header = false;
  size_t line_no = 0;
  size_t pos = 0;
  while (pos < text.size()) {
    size_t end = text.find('\n', pos);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = text.substr(pos, end - pos);
    pos = end + 1;
    ++line_no;
    if (line.find_first_not_of(" \t\r") == std::string_view::npos) continue;
    Result<json> j = ParseJsonText(line, fmt::format("{}:{}", source, line_no));
    if (!j) return tl::unexpected(j.error());
    const std::string type = Get<std::string>(*j, "type", "");
    auto where = [&](const Error& e) {
      return MakeError(e.kind, fmt::format("{}:{}: {}", source, line_no, e.message));
    };
    if (type == "header") {
      Result<RunHeader> h = HeaderFromJson(*j);
      if (!h) return where(h.error());
      report.header = std::move(*h);
      have_header = true;
    } else if (type == "case") {
      Result<CaseRecord> c = CaseFromJson(*j);
      if (!c) return where(c.error());
      report.cases.push_back(std::move(*c));
    } else if (type == "totals") {
      Result<Totals> t = TotalsFromJson(*j);
      if (!t) return where(t.error());
      report.totals = std::move(*t);
    }
    // Other record types are ignored: new kinds of records are a minor change.
  }
  if (!have_header)
    return MakeError(ErrorKind::kParse, fmt::format("{}: no header record", source));
  return report;
}

std::string ToJsonl(const Report& report) {
  std::string out = DumpJson(ToJson(report.header)) + "\n";
  for (const CaseRecord& c : report.cases) out += DumpJson(ToJson(c)) + "\n";
  if (report.totals) out += DumpJson(ToJson(*report.totals)) + "\n";
  return out;
}

}  // namespace ictk
