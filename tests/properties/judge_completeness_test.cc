// Judge completeness: the judge is exactly as wide as the spec. On generated histories run
// on the reference model, every step's canonical answer is varied once per freedom the
// spec and the protocol grant (docs/writing-an-adapter.md, "The freedoms an implementation
// has") and each variation must be judged `pass`; variations the spec does not grant must
// be judged `fail`, naming the rule they break.
#include <fmt/format.h>
#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "adapters/reference_adapter.h"
#include "codec/json_text.h"
#include "codec/protocol.h"
#include "generators/history.h"
#include "model/judge/operations.h"
#include "model/rules/rule_id.h"
#include "model/rules/status_rules.h"
#include "properties/fixture.h"
#include "properties/runner.h"
#include "adapters/session.h"

namespace ictk {
namespace {

using json = nlohmann::json;

/// One variation of a canonical answer: legal ones must pass; an illegal one must fail,
/// naming `rule` when given, else a rule that decided the outcome or a proto.* convention.
struct Variation {
  std::string name;
  json response;
  bool legal = true;
  std::optional<RuleId> rule;
};

/// How often each variation was applied (legal) or caught (illegal).
struct Tally {
  std::map<std::string, int> applied;
  int steps = 0;
};

// --- JSON helpers ----------------------------------------------------------------------

json* CurrentSnapshot(json& md) {
  if (!md.contains("current-snapshot-id") || !md.contains("snapshots")) return nullptr;
  const json& cur = md["current-snapshot-id"];
  if (!cur.is_number_integer()) return nullptr;
  for (json& s : md["snapshots"])
    if (s.contains("snapshot-id") && s["snapshot-id"] == cur) return &s;
  return nullptr;
}

/// Replaces constraint ID `from` by `to` in the constraints and every status list.
void RenumberConstraint(json& md, int64_t from, int64_t to) {
  if (md.contains("constraints"))
    for (json& c : md["constraints"])
      if (c.value("constraint-id", int64_t{-1}) == from) c["constraint-id"] = to;
  if (md.contains("snapshots"))
    for (json& s : md["snapshots"])
      if (s.contains("constraint-statuses"))
        for (auto& [status, ids] : s["constraint-statuses"].items())
          for (json& id : ids)
            if (id == from) id = to;
}

/// The IDs of the constraints an `ok` answer assigned (above the base last-constraint-id).
std::vector<int64_t> NewConstraintIds(const json& md, ConstraintId base_last) {
  std::vector<int64_t> out;
  if (!md.contains("constraints")) return out;
  for (const json& c : md["constraints"]) {
    const int64_t id = c.value("constraint-id", int64_t{0});
    if (id > base_last) out.push_back(id);
  }
  return out;
}

/// Lists `id` under `to` alone in the snapshot's constraint-statuses.
void MoveStatus(json& snap, ConstraintId id, ConstraintStatus to) {
  json& st = snap["constraint-statuses"];
  for (auto& [status, ids] : st.items()) {
    json kept = json::array();
    for (const json& x : ids)
      if (x != id) kept.push_back(x);
    ids = kept;
  }
  const std::string key(ToString(to));
  if (!st.contains(key)) st[key] = json::array();
  st[key].push_back(id);
}

std::optional<ConstraintStatus> ListedAs(const json& snap, ConstraintId id) {
  if (!snap.contains("constraint-statuses")) return std::nullopt;
  for (const auto& [status, ids] : snap["constraint-statuses"].items())
    for (const json& x : ids)
      if (x == id) return ParseConstraintStatus(status);
  return std::nullopt;
}

void Reverse(json& list) {
  if (!list.is_array()) return;
  std::vector<json> v(list.begin(), list.end());
  std::reverse(v.begin(), v.end());
  list = json(v);
}

/// The rule a status outside its allowed set breaks (as outcome.cc names it): a UDF
/// check's `valid`, and its parent's `validated` kept by a commit that added no rows where
/// the UDF forbids the carry, break expr.udf-status.
RuleId RuleOfStatus(ConstraintStatus s, const StatusContext& context) {
  switch (s) {
    case ConstraintStatus::kValidated:
      if (!context.commit_added_rows && context.parent_status == s &&
          !UdfStatusPermits(context, s, /*as_carry=*/true, Switches{}))
        return RuleId::kExprUdfStatus;
      return RuleId::kStValidated;
    case ConstraintStatus::kValid:
      return context.calls_udf ? RuleId::kExprUdfStatus : RuleId::kStValid;
    case ConstraintStatus::kInvalid:
      return RuleId::kStInvalid;
    case ConstraintStatus::kUnvalidated:
      break;
  }
  return RuleId::kStNoAddCarry;
}

json Rejection(const json& id, RejectKind kind, std::optional<std::vector<ConstraintId>> ids) {
  json r = {{"id", id},
            {"result", "rejected"},
            {"error", {{"kind", ToString(kind)}, {"message", "varied"}}}};
  if (ids) r["error"]["constraint-ids"] = *ids;
  return r;
}

// --- the variations --------------------------------------------------------------------

std::vector<Variation> Variations(const json& canonical, const AllowedOutcome& o,
                                  const TableState* table) {
  std::vector<Variation> out;
  const json id = canonical.contains("id") ? canonical["id"] : json();
  const bool ok = canonical.value("result", "") == "ok";
  const bool rejected = canonical.value("result", "") == "rejected";
  const std::set<ConstraintId> any_ids = o.AnyConstraintIds();

  // Unknown members, wherever a reader must ignore them (protocol section 2).
  {
    json v = canonical;
    v["x-unknown-member"] = {{"from", "a later minor version"}};
    if (v.contains("error")) v["error"]["x-unknown-member"] = 1;
    if (v.contains("metadata") && v["metadata"].is_object()) {
      json& md = v["metadata"];
      md["x-unknown-member"] = "ignored";
      if (md.contains("constraints"))
        for (json& c : md["constraints"]) c["x-unknown-member"] = true;
      if (md.contains("snapshots"))
        for (json& s : md["snapshots"]) s["x-unknown-member"] = true;
    }
    out.push_back({"extra-members", v});
  }

  if (ok && canonical.contains("metadata") && o.metadata) {
    const json& md0 = canonical["metadata"];
    const MetadataExpectation& m = *o.metadata;
    const std::vector<int64_t> fresh = NewConstraintIds(md0, m.base_last_constraint_id);

    // New constraint IDs with a gap above last-constraint-id (id.above-last: "higher
    // than", not "next").
    if (!fresh.empty()) {
      json v = canonical;
      int64_t highest = md0.value("last-constraint-id", int64_t{0});
      for (auto it = fresh.rbegin(); it != fresh.rend(); ++it) {
        RenumberConstraint(v["metadata"], *it, *it + 7);
        highest = std::max(highest, *it + 7);
      }
      v["metadata"]["last-constraint-id"] = highest;
      out.push_back({"ids-with-gaps", v});

      // Not granted: an ID not above last-constraint-id.
      json below = canonical;
      RenumberConstraint(below["metadata"], fresh.front(),
                         static_cast<int64_t>(m.base_last_constraint_id));
      out.push_back({"id-not-above-last", below, false, RuleId::kIdAboveLast});
      // Not granted: a removed ID again.
      if (!m.removed_ids.empty()) {
        json reuse = canonical;
        RenumberConstraint(reuse["metadata"], fresh.front(), *m.removed_ids.rbegin());
        out.push_back({"reused-removed-id", reuse, false, RuleId::kIdNoReuse});
      }
    }

    // Another snapshot ID for the new snapshot ("a unique long ID").
    if (m.new_snapshot) {
      json v = canonical;
      json& md = v["metadata"];
      if (json* snap = CurrentSnapshot(md)) {
        const int64_t from = (*snap)["snapshot-id"].get<int64_t>();
        const int64_t to = 4'611'686'018'427'387'904LL + from * 7919;
        (*snap)["snapshot-id"] = to;
        md["current-snapshot-id"] = to;
        if (md.contains("refs"))
          for (auto& [name, ref] : md["refs"].items())
            if (ref.value("snapshot-id", int64_t{0}) == from) ref["snapshot-id"] = to;
        if (md.contains("snapshot-log"))
          for (json& e : md["snapshot-log"])
            if (e.value("snapshot-id", int64_t{0}) == from) e["snapshot-id"] = to;
        out.push_back({"other-snapshot-id", v});
      }
    }

    // Other orders of the lists whose order means nothing.
    {
      json v = canonical;
      json& md = v["metadata"];
      bool changed = false;
      auto reverse = [&](json& list) {
        if (list.is_array() && list.size() > 1) changed = true;
        Reverse(list);
      };
      if (md.contains("constraints")) {
        reverse(md["constraints"]);
        for (json& c : md["constraints"])
          if (c.contains("field-ids")) reverse(c["field-ids"]);
      }
      if (md.contains("snapshots")) {
        reverse(md["snapshots"]);
        for (json& s : md["snapshots"])
          if (s.contains("constraint-statuses"))
            for (auto& [status, ids] : s["constraint-statuses"].items()) reverse(ids);
      }
      if (changed) out.push_back({"permuted-lists", v});
    }

    // Empty status lists written or left out.
    if (md0.contains("snapshots")) {
      json v = canonical;
      bool changed = false;
      for (json& s : v["metadata"]["snapshots"]) {
        if (!s.contains("constraint-statuses")) continue;
        json& st = s["constraint-statuses"];
        bool any_empty = false;
        for (auto it = st.begin(); it != st.end(); ++it) any_empty |= it->empty();
        if (any_empty) {
          json kept = json::object();
          for (auto& [status, ids] : st.items())
            if (!ids.empty()) kept[status] = ids;
          st = kept;
        } else {
          for (ConstraintStatus s2 : kAllStatuses)
            if (!st.contains(std::string(ToString(s2))))
              st[std::string(ToString(s2))] = json::array();
        }
        changed = true;
      }
      if (changed) out.push_back({"empty-status-lists-toggled", v});
    }

    // Statuses: another member of each allowed set; a status outside it is not granted.
    if (m.new_snapshot) {
      json v = canonical;
      bool changed = false;
      std::optional<Variation> outside;
      if (json* snap = CurrentSnapshot(v["metadata"])) {
        for (const StatusExpectation& e : m.new_snapshot->statuses) {
          if (!e.id) continue;
          const std::optional<ConstraintStatus> now = ListedAs(*snap, *e.id);
          for (ConstraintStatus s : e.allowed.ToVector()) {
            if (now && s == *now) continue;
            MoveStatus(*snap, *e.id, s);
            changed = true;
            break;
          }
          if (outside) continue;
          for (ConstraintStatus s : kAllStatuses) {
            if (e.allowed.Contains(s)) continue;
            json bad = canonical;
            if (json* bsnap = CurrentSnapshot(bad["metadata"])) {
              MoveStatus(*bsnap, *e.id, s);
              outside = Variation{"status-outside-allowed", bad, false,
                                  RuleOfStatus(s, e.context)};
            }
            break;
          }
        }
      }
      if (changed) out.push_back({"another-allowed-status", v});
      if (outside) out.push_back(*outside);
    }
  }

  // A rejection's constraint-ids: any subset of what the rejection is about, none
  // included; an ID outside that set is not granted.
  if ((rejected || (ok && o.reject_allowed)) && !o.reject_kinds.empty()) {
    const std::optional<RejectKind> answered =
        rejected ? ParseRejectKind(canonical["error"].value("kind", ""))
                 : std::optional<RejectKind>();
    // The error kind of any cause, naming the first constraint that kind is about.
    const auto first_of = [&](RejectKind kind) {
      const std::set<ConstraintId>& ids = o.ConstraintIdsOf(kind);
      return ids.empty() ? std::optional<std::vector<ConstraintId>>()
                         : std::optional(std::vector<ConstraintId>{*ids.begin()});
    };
    for (RejectKind kind : o.reject_kinds) {
      if (kind == answered) continue;
      out.push_back({rejected ? "other-allowed-kind" : "allowed-rejection",
                     Rejection(id, kind, first_of(kind))});
    }
    const RejectKind k0 = answered.value_or(*o.reject_kinds.begin());
    const std::set<ConstraintId>& k0_ids = o.ConstraintIdsOf(k0);
    const std::vector<ConstraintId> violated(k0_ids.begin(), k0_ids.end());
    if (const auto first = first_of(k0))
      out.push_back({"constraint-ids-subset", Rejection(id, k0, first)});
    out.push_back({"constraint-ids-none", Rejection(id, k0, std::vector<ConstraintId>{})});
    if (violated.size() > 1) {
      std::vector<ConstraintId> rev(violated.rbegin(), violated.rend());
      out.push_back({"constraint-ids-reordered", Rejection(id, k0, rev)});
    }
    // Not granted: naming a constraint the rejection is not about.
    ConstraintId unrelated = 1000;
    for (ConstraintId x : any_ids) unrelated = std::max(unrelated, x + 1000);
    if (table) {
      for (const Constraint& c : ConstraintsOf(table->metadata))
        if (c.id && !any_ids.count(*c.id)) unrelated = *c.id;
    }
    out.push_back(
        {"unrelated-constraint-ids", Rejection(id, k0, std::vector{unrelated}), false});
  }
  // Not granted: a kind outside the allowed set (or any rejection where ok is required).
  for (RejectKind kind : kAllRejectKinds) {
    if (o.reject_allowed && o.reject_kinds.count(kind)) continue;
    out.push_back({"kind-not-allowed", Rejection(id, kind, std::nullopt), false});
    break;
  }

  // Scan rows in another order.
  if (ok && canonical.contains("rows") && canonical["rows"].size() > 1) {
    json v = canonical;
    Reverse(v["rows"]);
    out.push_back({"permuted-rows", v});
  }
  return out;
}

bool IsProto(RuleId rule) { return RuleIdName(rule).rfind("proto.", 0) == 0; }

/// Judges every variation of one step's canonical answer; "" when each is judged as the
/// spec says.
std::string CheckStep(const AllowedOutcome& o, const json& canonical,
                      const TableState* table, Tally& tally) {
  const std::vector<NestedField>* fields =
      o.rows_schema ? &o.rows_schema->fields : nullptr;
  auto judge = [&](const json& r) -> std::optional<Findings> {
    Result<Response> resp = ResponseFromJson(r, fields);
    if (!resp) return std::nullopt;
    return Judge(o, ToAnswer(*resp));
  };
  auto names = [](const Findings& fs) {
    std::vector<std::string> n;
    for (const Finding& f : fs) n.push_back(fmt::format("{}: {}", RuleIdName(f.rule), f.detail));
    return fmt::format("{}", fmt::join(n, "; "));
  };
  std::optional<Findings> base = judge(canonical);
  if (!base || !base->empty())
    return "the canonical answer itself fails: " + (base ? names(*base) : "undecodable");
  std::set<RuleId> deciding;
  for (const Finding& f : o.decided_by) deciding.insert(f.rule);
  for (const Finding& f : o.reject_required_by) deciding.insert(f.rule);
  for (const Variation& v : Variations(canonical, o, table)) {
    std::optional<Findings> got = judge(v.response);
    if (!got) return fmt::format("variation {} does not decode: {}", v.name, DumpJson(v.response));
    if (v.legal) {
      if (!got->empty())
        return fmt::format("legal variation {} is judged fail: {}\n  allowed: {}\n  answer: {}",
                           v.name, names(*got), ToString(o), DumpJson(v.response));
    } else {
      if (got->empty())
        return fmt::format("variation {} (not granted) is judged pass\n  allowed: {}\n  answer: {}",
                           v.name, ToString(o), DumpJson(v.response));
      bool named = false;
      for (const Finding& f : *got) {
        if (v.rule ? f.rule == *v.rule : (deciding.count(f.rule) || IsProto(f.rule)))
          named = true;
      }
      if (!named)
        return fmt::format("variation {} fails, but not by {}: {}", v.name,
                           v.rule ? std::string(RuleIdName(*v.rule))
                                  : std::string("a deciding rule or a proto.* convention"),
                           names(*got));
    }
    ++tally.applied[v.name];
  }
  ++tally.steps;
  return {};
}

/// Runs `plan` on the reference model, checking every step; "" when all hold.
std::string CheckPlan(const Plan& plan, const std::string& table_name, Tally& tally) {
  const Switches switches;
  AdapterSession session(MakeReferenceAdapter(switches));
  if (!session.Handshake()) return "the reference does not answer hello";
  RenderOptions options;
  options.table = table_name;
  options.function_prefix = table_name + "_";
  options.capabilities = session.capabilities();
  options.switches = switches;
  CatalogState state;
  HistoryRenderer renderer(plan, options);
  int index = 0;
  while (std::optional<RenderedStep> step = renderer.Next(state)) {
    const Request& request = step->request;
    const AllowedOutcome o = Apply(state, request, switches);
    CallResult call = session.Call(RequestToJson(request));
    if (!call.response) return "the reference failed: " + call.failure->message;
    std::string problem = CheckStep(o, *call.response, state.FindTable(request.table), tally);
    if (!problem.empty())
      return fmt::format("step {} {} ({}): {}", index, step->label,
                         DumpJson(RequestToJson(request)), problem);
    const std::vector<NestedField>* fields =
        o.rows_schema ? &o.rows_schema->fields : nullptr;
    Result<Response> resp = ResponseFromJson(*call.response, fields);
    if (!resp) return "the reference's answer does not decode";
    Adopt(state, request, ToAnswer(*resp), switches);
    ++index;
  }
  return {};
}

HistoryGenConfig Config() {
  HistoryGenConfig c;
  c.max_steps = 12;
  return c;
}

// Every legal variation of every canonical answer passes and every variation the spec does
// not grant fails naming its rule, on histories RapidCheck generates (and shrinks).
RC_GTEST_PROP(JudgeCompleteness, LegalVariationsPassOthersFailByTheirRule, ()) {
  const Plan plan = *GenPlan(Config());
  Tally tally;
  const std::string problem = CheckPlan(plan, "jc", tally);
  if (!problem.empty()) RC_FAIL(problem);
}

// The same on fixed plans, counting the variations: each freedom was applied, and each
// variation that is not granted was caught, at least once.
TEST(JudgeCompleteness, EveryVariationIsExercised) {
  Tally tally;
  for (int64_t i = 0; i < 80; ++i) {
    std::optional<Plan> plan = PlanValue(CasePlan(3, i, Config()));
    if (!plan) continue;
    const std::string problem = CheckPlan(*plan, fmt::format("jc{}", i), tally);
    ASSERT_EQ(problem, "") << "plan " << i;
  }
  EXPECT_GT(tally.steps, 400);
  for (const char* name :
       {"extra-members", "ids-with-gaps", "other-snapshot-id", "permuted-lists",
        "empty-status-lists-toggled", "another-allowed-status", "other-allowed-kind",
        "allowed-rejection", "constraint-ids-none", "permuted-rows", "id-not-above-last",
        "reused-removed-id", "status-outside-allowed", "unrelated-constraint-ids",
        "kind-not-allowed"}) {
    EXPECT_GT(tally.applied[name], 0) << name << " was never applied";
  }
}

}  // namespace
}  // namespace ictk
