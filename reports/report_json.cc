/// \file
/// Report records as JSON and report.jsonl (report.h ToJson, HeaderFromJson, CaseFromJson,
/// TotalsFromJson, ParseReportJsonl, ToJsonl): read leniently (a member of the wrong
/// shape is left at its default) and written deterministically.
#include <fmt/format.h>

#include <string>
#include <type_traits>

#include "codec/json_text.h"
#include "reports/report.h"

namespace ictk {
namespace {

using json = nlohmann::json;

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
  f.clause = Get<std::string>(j, "clause", "");
  f.sentence = Get<std::string>(j, "sentence", "");
  f.allowed = Get<std::string>(j, "allowed", "");
  f.answered = Get<std::string>(j, "answered", "");
  f.evaluation = Get<std::string>(j, "evaluation", "");
  f.adapter_message = Get<std::string>(j, "adapter-message", "");
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

json ToJson(const RunHeader& h) {
  json out = {{"type", "header"},
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
  // Written only with --until-stable (readers that do not know it ignore it).
  if (h.until_stable > 0) out["until-stable"] = h.until_stable;
  return out;
}

json ToJson(const FailureDetail& f) {
  json steps = json::array();
  for (const StepRow& s : f.steps) steps.push_back(StepRowJson(s));
  json out = {{"step", f.step},
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
  // The clause the answer broke, written when the blame found one (added in report
  // format 1: readers that do not know it ignore it).
  if (!f.clause.empty()) out["clause"] = f.clause;
  // The evaluation on the rows concerned and the adapter's own message, written when
  // there is one (added in report format 1 as well).
  if (!f.evaluation.empty()) out["evaluation"] = f.evaluation;
  if (!f.adapter_message.empty()) out["adapter-message"] = f.adapter_message;
  return out;
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
          {"clauses-out-of-reach", t.clauses_out_of_reach},
          {"cases", t.cases},
          {"fixture-cases", t.fixture_cases},
          {"steps", t.steps},
          {"duration-ms", t.duration_ms},
          {"conformant", t.conformant},
          {"profile", t.profile},
          {"capability-scope", t.capability_scope},
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
  h.until_stable = Get<int64_t>(j, "until-stable", 0);
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
  t.clauses_out_of_reach = Get<std::vector<std::string>>(j, "clauses-out-of-reach", {});
  t.cases = Get<int64_t>(j, "cases", 0);
  t.fixture_cases = Get<int64_t>(j, "fixture-cases", 0);
  t.steps = Get<int64_t>(j, "steps", 0);
  t.duration_ms = Get<double>(j, "duration-ms", 0);
  t.conformant = Get<bool>(j, "conformant", true);
  t.profile = Get<std::string>(j, "profile", "");
  t.capability_scope = Get<std::string>(j, "capability-scope", "");
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
