/// \file
/// A run's totals (report.h TotalsBuilder, ComputeTotals): verdicts, rules and clauses
/// exercised, the profile's reach and the verdict's words.
#include <fmt/format.h>

#include <algorithm>
#include <optional>
#include <set>
#include <string>

#include "model/judge/capability.h"
#include "model/judge/rule_catalogue.h"
#include "model/rules/rule_id.h"
#include "reports/report.h"

namespace ictk {
namespace {

/// A list member of a recorded `hello` answer (nullopt when absent).
std::optional<std::vector<std::string>> HelloList(const nlohmann::json& hello,
                                                  const char* key) {
  if (!hello.is_object() || !hello.contains(key) || !hello[key].is_array())
    return std::nullopt;
  std::vector<std::string> out;
  for (const nlohmann::json& v : hello[key])
    if (v.is_string()) out.push_back(v.get<std::string>());
  return out;
}

}  // namespace

namespace {

/// Whether the header declares every known format version (1-4).
bool DeclaresEveryVersion(const RunHeader& h) {
  for (int32_t v = 1; v <= 4; ++v)
    if (std::find(h.format_versions.begin(), h.format_versions.end(), v) ==
        h.format_versions.end())
      return false;
  return true;
}

}  // namespace

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
    const RuleInfo& rule = FindRule(c.rule);
    if (rule.coverage_exempt || use.positive + use.negative > 0) continue;
    (!header.profile.empty() && !OutOfReachReason(header, rule).empty()
         ? t.clauses_out_of_reach
         : t.clauses_never_exercised)
        .push_back(c.id);
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
  if (!header.profile.empty()) {
    t.capability_scope = CapabilityScope(header.capabilities);
    if (std::string narrowed = HelloNarrowing(header.hello); !narrowed.empty())
      t.capability_scope += " (" + narrowed + ")";
  }
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
  // A rule only update-constraint or a removal reaches, where hello's `constraint-ops`
  // left that op out (id.no-reuse is reached by update-schema's removals too).
  if (const std::optional<std::string_view> op = ConstraintOpOfRule(r.id)) {
    const auto ops = HelloList(header.hello, "constraint-ops");
    const bool by_schema = r.id == RuleId::kIdNoReuse && declared.count("schema-evolution");
    if (ops && std::find(ops->begin(), ops->end(), *op) == ops->end() && !by_schema)
      return "constraint op not declared";
  }
  // A writer is never sent a known version it did not declare: only a reader can
  // exercise proto.declared-versions.
  if (r.id == RuleId::kProtoDeclaredVersions &&
      (header.writer || DeclaresEveryVersion(header)))
    return "only a reader lacking a format version meets it";
  // The Iceberg table-metadata rules are judged on every metadata a writer answers
  // (CheckIcebergMetadata), as `ictk lint-metadata` judges files: in every profile's reach.
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

std::string HelloNarrowing(const nlohmann::json& hello) {
  return NarrowingText(HelloList(hello, "constraint-ops"),
                       HelloList(hello, "expression-operators"));
}

std::string CapabilityScope(const std::vector<std::string>& declared) {
  const std::set<std::string> have(declared.begin(), declared.end());
  std::vector<std::string> shown;
  bool every = true;
  for (const CapabilityInfo& c : CapabilityTable()) {
    const bool reading = c.id == Capability::kReader || c.id == Capability::kParseMetadata;
    const bool on = have.count(std::string(c.name)) != 0;
    if (on) shown.emplace_back(c.name);
    if (!reading && !on) every = false;
  }
  if (every) return "every writer capability";
  return shown.empty() ? "no capability" : fmt::format("{}", fmt::join(shown, " + "));
}

std::string ScopeText(const Totals& t, std::string_view after_profile) {
  std::string out = t.profile + std::string(after_profile);
  if (!t.capability_scope.empty()) out += ", " + t.capability_scope;
  return out;
}

ClauseSplit SplitByExemption(const std::vector<std::string>& clauses) {
  ClauseSplit out;
  for (const std::string& id : clauses) {
    const ClauseInfo* c = FindClause(id);
    (c != nullptr && c->exempt.kind != ExemptKind::kNone ? out.exempt : out.breakable)
        .push_back(id);
  }
  return out;
}

std::string VerdictText(const Totals& t) {
  std::string out = t.conformant ? "CONFORMANT" : "NOT CONFORMANT";
  if (t.profile.empty()) return out;
  const int64_t exercised =
      t.profile_rules - static_cast<int64_t>(t.profile_not_exercised.size());
  // The scope of the verdict: the profile, the capabilities it was certified with, and
  // how many of the profile's rules the run exercised (issue 35: a verdict that states
  // its scope).
  out += fmt::format(" ({}: {} of {} rules exercised", ScopeText(t, " profile"), exercised,
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
}  // namespace ictk
