/// \file
/// Fixture expectations and documents, and the words for a step (fixture.h).
#include "properties/fixture.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <set>

#include "codec/json_constraint.h"
#include "codec/json_expression.h"
#include "codec/json_row.h"
#include "codec/json_text.h"
#include "codec/json_type.h"
#include "codec/protocol.h"
#include "model/iceberg/single_value.h"
#include "model/rules/constraint_rules.h"
#include "reports/digest.h"

namespace ictk {
namespace {

using json = nlohmann::json;

/// Constraint ID -> name, from the table's metadata before the request.
std::map<ConstraintId, std::string> NamesBefore(const CatalogState& before,
                                                const Request& r) {
  std::map<ConstraintId, std::string> out;
  const TableState* t = before.FindTable(r.table);
  if (t == nullptr) return out;
  for (const Constraint& c : ConstraintsOf(t->metadata))
    if (c.id && c.name) out[*c.id] = *c.name;
  return out;
}

std::string Kinds(const std::set<RejectKind>& kinds) {
  std::vector<std::string> names;
  for (RejectKind k : kinds) names.emplace_back(ToString(k));
  return fmt::format("{}", fmt::join(names, "|"));
}

json StatusNames(const StatusSet& set) {
  json out = json::array();
  for (ConstraintStatus s : set.ToVector()) out.push_back(std::string(ToString(s)));
  return out;
}

std::string Slugify(std::string_view text) {
  std::string out;
  for (char c : text) {
    if (std::isalnum(static_cast<unsigned char>(c)))
      out += static_cast<char>(std::tolower(c));
    else if (!out.empty() && out.back() != '-')
      out += '-';
  }
  while (!out.empty() && out.back() == '-') out.pop_back();
  return out.empty() ? "history" : out.substr(0, 60);
}

/// The constraint's definition as FIXTURES.md's `constraints` partial definition.
json PartialDefinition(const Constraint& c) {
  json d = json::object();
  if (c.type) d["type"] = std::string(ToString(*c.type));
  if (c.enforced) d["enforced"] = *c.enforced;
  if (c.field_ids) d["field-ids"] = *c.field_ids;
  if (c.expression) d["expression"] = ExpressionToJson(*c.expression);
  return d;
}

}  // namespace

std::string DescribeAllowed(const AllowedOutcome& o, const CatalogState& before,
                            const Request& request) {
  std::string out;
  if (o.ok_allowed && o.reject_allowed)
    out = fmt::format("ok or rejected ({})", Kinds(o.reject_kinds));
  else if (o.ok_allowed)
    out = "ok";
  else
    out = fmt::format("rejected ({})", Kinds(o.reject_kinds));
  const Findings& why =
      !o.reject_required_by.empty() ? o.reject_required_by : o.decided_by;
  if (o.reject_allowed && !why.empty())
    out += fmt::format(" by {}: {}", RuleIdName(why.front().rule), why.front().detail);
  if (o.reject_allowed) {
    // Per kind, the constraints a rejection is about (its constraint-ids may name any of
    // them): "violated" for constraint-violation, "about" for the other kinds.
    const auto names = NamesBefore(before, request);
    for (RejectKind kind : o.reject_kinds) {
      const std::set<ConstraintId>& ids = o.ConstraintIdsOf(kind);
      if (ids.empty()) continue;
      std::vector<std::string> v;
      for (ConstraintId id : ids) {
        auto it = names.find(id);
        v.push_back(it == names.end() ? fmt::format("#{}", id)
                                      : fmt::format("{} (#{})", it->second, id));
      }
      if (kind == RejectKind::kConstraintViolation)
        out += fmt::format("; violated: {}", fmt::join(v, ", "));
      else
        out += fmt::format("; {} about: {}", ToString(kind), fmt::join(v, ", "));
    }
  }
  if (o.ok_allowed && o.metadata && o.metadata->new_snapshot) {
    std::vector<std::string> s;
    for (const StatusExpectation& e : o.metadata->new_snapshot->statuses)
      s.push_back(fmt::format("{} in {}", e.name, ToString(e.allowed)));
    if (!s.empty()) out += fmt::format("; statuses: {}", fmt::join(s, ", "));
    if (o.metadata->new_snapshot->live_row_count)
      out += fmt::format("; {} live rows", *o.metadata->new_snapshot->live_row_count);
  }
  if (o.ok_allowed && o.rows) out += fmt::format("; {} live rows", o.rows->size());
  if (o.ok_allowed && o.reader_statuses) {
    std::vector<std::string> s;
    for (const auto& [id, set] : *o.reader_statuses)
      s.push_back(fmt::format("{}: {}", id, ToString(set)));
    out += fmt::format("; statuses {{{}}}", fmt::join(s, ", "));
  }
  return out;
}

std::string DescribeAnswer(const Answer& a, const AllowedOutcome& o,
                           const CatalogState& before, const Request& request) {
  switch (a.result) {
    case AnswerResult::kError:
      return "error: " + a.message;
    case AnswerResult::kUnsupported:
      return "unsupported: " + a.message;
    case AnswerResult::kRejected: {
      std::string out = fmt::format("rejected ({})", a.error_kind_text);
      if (a.error_constraint_ids) {
        const auto names = NamesBefore(before, request);
        std::vector<std::string> v;
        for (ConstraintId id : *a.error_constraint_ids) {
          auto it = names.find(id);
          v.push_back(it == names.end() ? fmt::format("#{}", id)
                                        : fmt::format("{} (#{})", it->second, id));
        }
        out += fmt::format(", constraint-ids [{}]", fmt::join(v, ", "));
      }
      if (!a.message.empty()) out += ": " + a.message;
      return out;
    }
    case AnswerResult::kOk:
      break;
  }
  std::string out = "ok";
  if (a.metadata && o.metadata && o.metadata->new_snapshot) {
    const Snapshot* s = a.metadata->CurrentSnapshot();
    std::vector<std::string> parts;
    for (const StatusExpectation& e : o.metadata->new_snapshot->statuses) {
      ConstraintId id = e.id.value_or(0);
      if (!e.id)
        for (const Constraint& c : ConstraintsOf(*a.metadata))
          if (c.name == e.name && c.id) id = *c.id;
      const StatusSet listed = ListedStatuses(
          s && s->constraint_statuses ? &*s->constraint_statuses : nullptr, id);
      parts.push_back(fmt::format("{}={}", e.name, ToString(listed)));
    }
    if (!parts.empty()) out += fmt::format("; statuses: {}", fmt::join(parts, ", "));
  }
  if (a.metadata && o.metadata && o.metadata->new_snapshot == std::nullopt &&
      !o.metadata->constraints.empty()) {
    std::vector<std::string> parts;
    for (const Constraint& c : ConstraintsOf(*a.metadata))
      parts.push_back(fmt::format("{}#{}", c.name.value_or("?"), c.id.value_or(0)));
    out += fmt::format("; constraints: {}; last-constraint-id {}", fmt::join(parts, ", "),
                       a.metadata->last_constraint_id.value_or(0));
  }
  if (a.rows) out += fmt::format("; {} rows", a.rows->size());
  if (a.statuses) {
    std::vector<std::string> parts;
    for (const auto& [id, st] : *a.statuses)
      parts.push_back(fmt::format("{}: {}", id, ToString(st)));
    out += fmt::format("; statuses {{{}}}", fmt::join(parts, ", "));
  }
  return out;
}

namespace {

/// What a rejection must carry: its kinds, the constraints it names, an unchanged table.
void ExpectRejection(const AllowedOutcome& o, const TableState* table,
                     const std::map<ConstraintId, std::string>& names,
                     const Request& request, json& e) {
  json kinds = json::array();
  for (RejectKind k : o.reject_kinds) kinds.push_back(std::string(ToString(k)));
  e["error-kinds"] = kinds;
  json violated = json::array();
  bool all_named = true;
  // One flat list for every allowed kind: each kind's constraints, united.
  for (ConstraintId id : o.AnyConstraintIds()) {
    auto it = names.find(id);
    if (it == names.end())
      all_named = false;
    else
      violated.push_back(it->second);
  }
  // Also when the rejection is about no constraint: then `constraint-ids` must be
  // empty or absent, which the empty list says (proto.rejection-constraint-ids).
  if (all_named) e["error-constraints"] = violated;
  if (table != nullptr && ActsOnTable(request.op)) e["state-unchanged"] = true;
}

/// A metadata answer's constraints: their definitions, IDs and timestamps, and the
/// invariants every returned metadata keeps.
void ExpectConstraints(const MetadataExpectation& m, const Request& request,
                       bool any_optional, json& e) {
  e["format-version"] = m.format_version;
  // The surrounding Iceberg rules and the table's identity (JudgeIcebergMetadata).
  e["iceberg-metadata-valid"] = true;
  bool any_new = false;
  json constraints = json::object();
  json from_now = json::array();
  for (const ConstraintExpectation& c : m.constraints) {
    if (!c.id) any_new = true;
    // Every constraint that must be there, new or kept, with its definition.
    if (!c.optional) constraints[c.name] = PartialDefinition(c.definition);
    if (c.timestamp_must_be && c.timestamp_rule == RuleId::kProtoTimestampFromNow &&
        request.now_ms && *c.timestamp_must_be == *request.now_ms)
      from_now.push_back(c.name);
  }
  if (!from_now.empty()) e["timestamp-from-now"] = from_now;
  // The snapshot the request writes and the last-updated-ms of a request that changes
  // the table take its now-ms (ExpectTimestampsFromNow; corpus 1.4).
  if (m.last_updated_must_be && request.now_ms &&
      *m.last_updated_must_be == *request.now_ms)
    e["last-updated-from-now"] = true;
  if (m.new_snapshot && m.new_snapshot->timestamp_must_be && request.now_ms &&
      *m.new_snapshot->timestamp_must_be == *request.now_ms)
    e["snapshot-timestamp-from-now"] = true;
  if (!any_optional) e["constraint-count"] = m.constraints.size();
  if (!constraints.empty()) e["constraints"] = constraints;
  json new_names = json::array();
  for (const ConstraintExpectation& c : m.constraints)
    if (!c.id) new_names.push_back(c.name);
  if (!new_names.empty() && m.format_version >= 4)
    e["new-constraints-above-last"] = new_names;
  if (any_new) {
    e["new-ids-above-last"] = true;
    e["last-constraint-id-is-highest-assigned"] = true;
  }
  if (!m.removed_ids.empty()) e["ids-distinct-from-removed"] = true;
  // The invariants every returned metadata keeps (Judge and the runner's
  // CheckReturnedMetadata), each as the key that checks it.
  if (m.format_version >= 4) {
    e["ids-at-most-last"] = true;
    e["status-ids-listed-once"] = true;
    e["added-schemas-no-identifiers"] = true;
    if (!any_new && !any_optional) e["last-constraint-id-unchanged"] = true;
    if (m.new_snapshot) {
      e["snapshot-timestamps-increasing"] = true;
      if (m.stale_ids == StaleIds::kReject) e["status-ids-exist"] = true;
    }
  } else {
    e["v4-only-fields-absent"] = true;
  }
}

/// Renamed constraints keep their IDs; removed ones are gone; an upgrade's primary key.
void ExpectIdentities(const MetadataExpectation& m, const Request& request,
                      const std::map<ConstraintId, std::string>& names, bool any_optional,
                      json& e) {
  // Renames keep the ID; removed names are gone.
  std::set<std::string> after;
  for (const ConstraintExpectation& c : m.constraints) after.insert(c.name);
  json renamed = json::object();
  json timestamp_changed = json::array();
  for (const ConstraintExpectation& c : m.constraints) {
    if (!c.id) continue;
    auto it = names.find(*c.id);
    // Every kept constraint keeps its ID, under a new name or its own.
    if (it != names.end()) renamed[c.name] = it->second;
    if (c.timestamp_must_change_from) timestamp_changed.push_back(c.name);
  }
  if (!renamed.empty()) e["id-unchanged"] = renamed;
  if (!timestamp_changed.empty()) e["timestamp-changed"] = timestamp_changed;
  json absent = json::array();
  for (const auto& [id, name] : names)
    if (!after.count(name)) absent.push_back(name);
  if (!absent.empty() && !any_optional) e["constraint-absent"] = absent;
  if (m.format_version == 4 && std::holds_alternative<UpdateSchema>(request.op))
    e["identifier-field-ids-absent"] = true;
  // The primary key an upgrade to v4 generates from identifier-field-ids, or none.
  if (m.format_version == 4 && std::holds_alternative<Upgrade>(request.op) &&
      !any_optional) {
    json pk = nullptr;
    for (const ConstraintExpectation& c : m.constraints)
      if (c.definition.type == ConstraintType::kPrimaryKey) {
        pk = {{"name", c.name}};
        if (c.definition.enforced) pk["enforced"] = *c.definition.enforced;
        if (c.definition.field_ids) pk["field-ids"] = *c.definition.field_ids;
        // "its timestamp-ms is the time of the upgrade" (upg.pk-from-identifiers).
        if (c.timestamp_must_be) pk["timestamp-ms"] = *c.timestamp_must_be;
      }
    e["pk"] = pk;
  }
}

/// The current snapshot, the current schema and the new snapshot's statuses.
void ExpectSnapshotAndSchema(const MetadataExpectation& m, const TableState* table,
                             const Request& request, json& e) {
  // The current snapshot: kept, or a new one on the one current before (not for a
  // staged commit or a retry on a new parent, whose base the runner does not track).
  const Commit* commit_op = std::get_if<Commit>(&request.op);
  const bool staged_commit = commit_op != nullptr && commit_op->txn.has_value();
  const Snapshot* before_current =
      table != nullptr ? table->metadata.CurrentSnapshot() : nullptr;
  const std::optional<SnapshotId> before_id =
      before_current ? std::optional<SnapshotId>(before_current->snapshot_id)
                     : std::nullopt;
  if (table != nullptr && !staged_commit) {
    if (!m.new_snapshot && m.current_snapshot_id == before_id)
      e["current-snapshot-unchanged"] = true;
    if (m.new_snapshot && !m.new_snapshot->retry &&
        m.new_snapshot->parent_snapshot_id == before_id)
      e["snapshot-parent-is-previous"] = true;
  }
  if (m.new_snapshot && !m.new_snapshot->operation.empty())
    e["snapshot-operation"] = m.new_snapshot->operation;
  // The current schema (JudgeSchemas).
  if (m.format_version >= 4) e["referenced-fields-exist"] = true;
  if (m.new_schema_required && table != nullptr) e["new-current-schema"] = true;
  if (m.expected_schema) {
    json fields = json::array();
    for (const NestedField& f : m.expected_schema->fields)
      fields.push_back(FieldToJson(f));
    e["schema-fields"] = {{"last-column-id", m.base_last_column_id}, {"fields", fields}};
  }
  if (m.new_snapshot) {
    json statuses = json::object();
    json precise = json::object();
    for (const StatusExpectation& s : m.new_snapshot->statuses) {
      statuses[s.name] = StatusNames(s.by_truth.empty() ? s.allowed : s.by_truth);
      precise[s.name] = std::string(ToString(s.precise));
    }
    if (!statuses.empty()) {
      e["statuses"] = statuses;
      e["precise"] = precise;
    }
    // A staged commit's snapshot is not the table's yet, so no scan can read it.
    const Commit* commit = std::get_if<Commit>(&request.op);
    const bool staged = commit != nullptr && commit->txn.has_value();
    if (m.new_snapshot->live_row_count && !staged)
      e["live-row-count"] = *m.new_snapshot->live_row_count;
  }
}

/// The live rows of a scan.
void ExpectRows(const AllowedOutcome& o, json& e) {
  json keys = json::array();
  for (const auto& [key, value] : *o.rows) keys.push_back(key);
  e["live-row-keys"] = keys;
  e["live-row-count"] = o.rows->size();
  // The rows' values too when one of them holds a value at a type extreme, which a scan
  // must write back (ice.single-value/writes): a failure for a value written wrong then
  // fails again on replay (`live-rows`, compared by meaning).
  if (o.rows_schema && std::any_of(o.rows->begin(), o.rows->end(), [&](const auto& row) {
        return !UnusualBoundValues(row.second, Type::Struct(o.rows_schema->fields), "row")
                    .empty();
      })) {
    json rows = json::object();
    for (const auto& [key, values] : *o.rows)
      rows[key] = RowToJson(Row{key, values}, o.rows_schema->fields)["values"];
    e["live-rows"] = rows;
  }
}

/// What a parse-metadata answer must keep, and a reader's statuses.
void ExpectReads(const AllowedOutcome& o, json& e) {
  // A stored constraint without constraint-id (def.required-fields, given to a reader
  // that may accept it) has no form in `reserialized`, which matches constraints by ID:
  // the step states its result only.
  const auto all_have_ids = [](const TableMetadata& md) {
    const std::vector<Constraint>& cs = ConstraintsOf(md);
    return std::all_of(cs.begin(), cs.end(),
                       [](const Constraint& c) { return c.id.has_value(); });
  };
  if (o.parsed && all_have_ids(*o.parsed)) {
    // What a parse-metadata answer must keep (JudgeParsed).
    const TableMetadata& p = *o.parsed;
    json r = {{"format-version", p.format_version},
              {"last-constraint-id", p.last_constraint_id.value_or(0)}};
    json constraints = json::array();
    for (const Constraint& c : ConstraintsOf(p))
      constraints.push_back(ConstraintToJson(c));
    r["constraints"] = constraints;
    const Snapshot* cur = p.CurrentSnapshot();
    r["current-snapshot-id"] = cur ? json(cur->snapshot_id) : json(nullptr);
    json snapshots = json::object();
    for (const Snapshot& s : p.snapshots)
      snapshots[std::to_string(s.snapshot_id)] =
          s.constraint_statuses ? ConstraintStatusesToJson(*s.constraint_statuses)
                                : json(nullptr);
    r["snapshots"] = snapshots;
    if (o.may_drop_constraint_fields) r["may-drop-constraint-fields"] = true;
    e["reserialized"] = r;
  }
  if (o.reader_statuses) {
    json exact = json::object();
    bool single = true;
    for (const auto& [id, set] : *o.reader_statuses) {
      const auto v = set.ToVector();
      if (v.size() != 1)
        single = false;
      else
        exact[std::to_string(id)] = std::string(ToString(v[0]));
    }
    if (single) e["reader-statuses"] = exact;
  }
}

}  // namespace

void ExpectRejectionBlame(const AllowedOutcome& o, const CatalogState& before,
                          const Request& request, const Answer& answer, RuleId blamed,
                          json& e) {
  if (!e.contains("error-constraints") || answer.result != AnswerResult::kRejected ||
      !answer.error_constraint_ids || blamed == RuleId::kProtoRejectionConstraintIds)
    return;
  const auto names = NamesBefore(before, request);
  const std::set<ConstraintId> allowed = o.AnyConstraintIds();
  json blame = json::object();
  for (ConstraintId id : *answer.error_constraint_ids)
    if (auto it = names.find(id); it != names.end() && !allowed.count(id))
      blame[it->second] = std::string(RuleIdName(blamed));
  if (!blame.empty()) e["error-constraints-blame"] = std::move(blame);
}

json FixtureExpectation(const AllowedOutcome& o, const CatalogState& before,
                        const Request& request, const Answer& answer) {
  json e = json::object();
  json result = json::array();
  if (o.ok_allowed) result.push_back("ok");
  if (o.reject_allowed) result.push_back("rejected");
  e["result"] = result;
  const TableState* table = before.FindTable(request.table);
  const auto names = NamesBefore(before, request);
  if (o.reject_allowed) ExpectRejection(o, table, names, request, e);
  if (o.ok_allowed && o.reject_allowed) {
    if (answer.result == AnswerResult::kOk)
      e["stop-if"] = json::array({"rejected"});
    else if (answer.result == AnswerResult::kRejected)
      e["stop-if"] = json::array({"ok"});
  }
  if (!o.ok_allowed) return e;
  if (o.metadata) {
    // A constraint that may or may not be there leaves the count and the absent ones
    // open.
    const std::vector<ConstraintExpectation>& cs = o.metadata->constraints;
    const bool any_optional = std::any_of(
        cs.begin(), cs.end(), [](const ConstraintExpectation& c) { return c.optional; });
    ExpectConstraints(*o.metadata, request, any_optional, e);
    ExpectIdentities(*o.metadata, request, names, any_optional, e);
    ExpectSnapshotAndSchema(*o.metadata, table, request, e);
  }
  if (o.rows) ExpectRows(o, e);
  ExpectReads(o, e);
  return e;
}

std::vector<std::string> RequiredCapabilities(const std::vector<Request>& requests) {
  std::set<std::string> need;
  // A constraint op needs the capability of the constraint's type (protocol.md section
  // 9): the type it was added with (an upgrade's generated key `pk` is a primary key); a
  // constraint the history never named, or a type no capability covers, needs `check`.
  std::map<std::pair<std::string, std::string>, std::string> type_of;  // (table, name)
  auto constraint_op = [&](const Request& r, const std::string& name) {
    auto it = type_of.find({r.table, name});
    need.insert(it != type_of.end() ? it->second : std::string("check"));
  };
  std::function<void(const Expr&)> walk = [&](const Expr& x) {
    if (x.op == ExprOp::kApply) need.insert(IsUdfCall(x) ? "udf" : "transforms");
    for (const Expr& c : x.children) walk(c);
  };
  for (const Request& r : requests) {
    std::visit(
        [&](const auto& op) {
          using T = std::decay_t<decltype(op)>;
          if constexpr (std::is_same_v<T, AddConstraint>) {
            const std::string cap = op.constraint.type
                                        ? std::string(ToString(*op.constraint.type))
                                        : std::string("check");
            need.insert(cap);
            if (op.constraint.name) type_of[{r.table, *op.constraint.name}] = cap;
            if (op.constraint.expression) walk(*op.constraint.expression);
          } else if constexpr (std::is_same_v<T, UpdateConstraint>) {
            constraint_op(r, op.name);
            if (op.set.name) {
              auto it = type_of.find({r.table, op.name});
              if (it != type_of.end()) type_of[{r.table, *op.set.name}] = it->second;
            }
          } else if constexpr (std::is_same_v<T, RemoveConstraint>) {
            constraint_op(r, op.name);
          } else if constexpr (std::is_same_v<T, Commit>) {
            if (!op.modify.empty()) need.insert("modify-rows");
          } else if constexpr (std::is_same_v<T, Begin>) {
            need.insert("concurrent-commits");
          } else if constexpr (std::is_same_v<T, Upgrade>) {
            need.insert("upgrade");
            type_of.emplace(std::make_pair(r.table, std::string("pk")), "primary-key");
          } else if constexpr (std::is_same_v<T, UpdateSchema>) {
            need.insert("schema-evolution");
            for (const std::string& name : op.remove_constraints) constraint_op(r, name);
          } else if constexpr (std::is_same_v<T, DefineFunction>) {
            need.insert("udf");
          } else if constexpr (std::is_same_v<T, Validate>) {
            need.insert("validate");
            for (const std::string& name : op.names) constraint_op(r, name);
          } else if constexpr (std::is_same_v<T, ReadStatuses>) {
            need.insert("reader");
          } else if constexpr (std::is_same_v<T, ParseMetadata>) {
            need.insert("parse-metadata");
          }
        },
        r.op);
  }
  return std::vector<std::string>(need.begin(), need.end());
}

std::vector<int32_t> NeededFormatVersions(const std::vector<Request>& requests,
                                          const std::vector<json>& expects) {
  std::set<int32_t> need;
  for (size_t i = 0; i < requests.size(); ++i) {
    // A step that must be rejected (an upgrade to an unknown version) needs nothing.
    if (i < expects.size() && expects[i].contains("result")) {
      const json& result = expects[i]["result"];
      if (std::find(result.begin(), result.end(), "ok") == result.end()) continue;
    }
    const Request& r = requests[i];
    if (const auto* c = std::get_if<CreateTable>(&r.op)) need.insert(c->format_version);
    if (const auto* u = std::get_if<Upgrade>(&r.op)) need.insert(u->format_version);
    if (const auto* p = std::get_if<ParseMetadata>(&r.op))
      need.insert(p->metadata.format_version);
    if (const auto* s = std::get_if<ReadStatuses>(&r.op))
      need.insert(s->metadata.format_version);
  }
  return std::vector<int32_t>(need.begin(), need.end());
}

json MakeFixture(const FixtureInput& in) {
  json steps = json::array();
  for (size_t i = 0; i < in.requests.size(); ++i) {
    json request = RequestToJson(in.requests[i]);
    request.erase("id");
    steps.push_back({{"request", request},
                     {"expect", i < in.expects.size() ? in.expects[i] : json::object()}});
  }
  const json requires_ = RequiredCapabilities(in.requests);
  json switches = json::object();
  for (const auto& [k, v] : SwitchValues(in.switches))
    if (!in.recorded_switches || in.recorded_switches->count(k)) switches[k] = v;
  const json hashed = {{"requires", requires_}, {"switches", switches}, {"steps", steps}};
  const std::string hash = Sha256Hex(DumpJson(hashed));
  json rules = json::array();
  rules.push_back(in.primary_rule);
  for (const std::string& r : in.rules)
    if (r != in.primary_rule) rules.push_back(r);
  json fixture = {{"format", "ictk-fixture"},
          {"format-version", 1},
          {"id",
           fmt::format("{}/{}-{}", in.primary_rule, Slugify(in.slug), hash.substr(0, 8))},
          {"hash", hash},
          {"description", in.description},
          {"rules", rules},
          {"requires", requires_},
          {"format-versions", NeededFormatVersions(in.requests, in.expects)},
          {"switches", switches},
          {"generated-by",
           {{"tool", in.tool}, {"model", in.model_version}, {"seed", in.seed}}},
          {"steps", steps}};
  // The finer declarations a runner skips the fixture for (outside the hash: the same
  // history is the same fixture; docs/fixtures.md section 3).
  const DeclarationNeeds needs = RequiredDeclarations(in.requests);
  if (!needs.constraint_ops.empty()) fixture["requires-constraint-ops"] = needs.constraint_ops;
  if (!needs.operators.empty()) fixture["requires-operators"] = needs.operators;
  return fixture;
}

std::string FixtureRelativePath(const json& fixture) {
  return fixture.value("id", std::string("fixture")) + ".json";
}

}  // namespace ictk
