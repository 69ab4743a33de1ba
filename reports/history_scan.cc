/// \file
/// Reads a failing history into the columns of its picture (history_scan_internal.h).
#include <fmt/format.h>

#include <regex>

#include "codec/json_text.h"
#include "reports/history_scan_internal.h"

namespace ictk::history_internal {

namespace {

using json = nlohmann::json;

std::vector<std::string> Keys(const json& list, bool rows) {
  std::vector<std::string> out;
  if (!list.is_array()) return out;
  for (const json& r : list) {
    if (rows && r.is_object() && r.contains("key") && r["key"].is_string())
      out.push_back(r["key"].get<std::string>());
    else if (!rows && r.is_string())
      out.push_back(r.get<std::string>());
  }
  return out;
}

/// "statuses: pk in {invalid, unvalidated}, c2 in {valid}" -> {pk: {...}, c2: {...}}.
/// A fixture's expectation (replayed corpus cases) is JSON: {"statuses": {"c1": [...]}}.
std::map<std::string, std::set<std::string>> AllowedStatuses(const std::string& text) {
  std::map<std::string, std::set<std::string>> out;
  if (!text.empty() && text[0] == '{') {
    const json j = json::parse(text, nullptr, /*allow_exceptions=*/false);
    if (j.is_object() && j.contains("statuses") && j["statuses"].is_object())
      for (const auto& [name, list] : j["statuses"].items())
        if (list.is_array())
          for (const json& st : list)
            if (st.is_string()) out[name].insert(st.get<std::string>());
    return out;
  }
  static const std::regex re(R"(([^\s,;:{}]+) in \{([^}]*)\})");
  for (auto it = std::sregex_iterator(text.begin(), text.end(), re);
       it != std::sregex_iterator(); ++it) {
    std::set<std::string> set;
    const std::string list = (*it)[2];
    size_t start = 0;
    while (start <= list.size()) {
      size_t end = list.find(',', start);
      if (end == std::string::npos) end = list.size();
      std::string s = list.substr(start, end - start);
      s.erase(0, s.find_first_not_of(' '));
      s.erase(s.find_last_not_of(' ') + 1);
      if (!s.empty()) set.insert(s);
      start = end + 1;
    }
    out[(*it)[1]] = std::move(set);
  }
  return out;
}

/// The key tuple of `values` for a constraint's fields ("" when a field is null or
/// missing: nulls never collide).
std::string KeyTuple(const json& values, const std::vector<int64_t>& fields) {
  std::string out;
  for (int64_t f : fields) {
    const std::string k = std::to_string(f);
    if (!values.is_object() || !values.contains(k) || values[k].is_null()) return "";
    out += DumpJson(values[k]) + "\x1f";
  }
  return out;
}

/// The step's op, result and transaction.
Column Head(const StepRow& s, const json& rq, const json& rs) {
  Column c;
  c.step = &s;
  const std::string result =
      rs.is_object() && rs.contains("result") && rs["result"].is_string()
          ? rs["result"].get<std::string>()
          : std::string("no answer");
  c.ok = result == "ok";
  c.result = result;
  if (result == "rejected" && rs.contains("error") && rs["error"].is_object())
    c.result += " (" + rs["error"].value("kind", std::string("?")) + ")";
  c.txn = rq.is_object() ? rq.value("txn", std::string()) : "";
  c.staged = s.op == "commit" && !c.txn.empty();
  c.finish = s.op == "finish";
  c.allowed = AllowedStatuses(s.allowed);
  return c;
}

/// The answered statuses (and the parent) of snapshot `id` of `md`, into `c`.
void ReadStatuses(const json& md, int64_t id, Column& c) {
  if (!md.contains("snapshots") || !md["snapshots"].is_array()) return;
  for (const json& snap : md["snapshots"]) {
    if (!snap.is_object() || snap.value("snapshot-id", int64_t{-1}) != id) continue;
    if (snap.contains("parent-snapshot-id") &&
        snap["parent-snapshot-id"].is_number_integer())
      c.parent = snap["parent-snapshot-id"].get<int64_t>();
    const json st = snap.value("constraint-statuses", json::object());
    if (st.is_object())
      for (const auto& [status, ids] : st.items())
        if (ids.is_array())
          for (const json& i : ids)
            if (i.is_number_integer()) c.statuses[i.get<int64_t>()] = status;
  }
}

}  // namespace

void HistoryScan::ReadConstraints(const json& md) {
  if (!md.is_object() || !md.contains("constraints") || !md["constraints"].is_array())
    return;
  for (const json& k : md["constraints"]) {
    if (!k.is_object() || !k.contains("constraint-id")) continue;
    Constraint x;
    x.id = k.value("constraint-id", int64_t{0});
    x.name = k.value("name", std::string());
    x.type = k.value("type", std::string());
    x.enforced = k.value("enforced", false);
    if (k.contains("field-ids") && k["field-ids"].is_array())
      for (const json& id : k["field-ids"])
        if (id.is_number_integer()) x.field_ids.push_back(id.get<int64_t>());
    constraints[x.id] = x;
  }
}

/// Collisions: an added or modified row whose key tuple under a unique or primary key
/// equals another live row's (or another row of the same commit).
void HistoryScan::FindCollisions(Column& c, const std::map<std::string, json>& table,
                                 const std::map<std::string, json>& incoming) const {
  for (const auto& [cid, con] : constraints) {
    if (con.type != "unique" && con.type != "primary-key") continue;
    std::map<std::string, std::string> owner;  // tuple -> key
    for (const auto& [k, v] : table)
      if (std::string t = KeyTuple(v, con.field_ids); !t.empty()) owner.emplace(t, k);
    for (const auto& [k, v] : incoming) {
      const std::string t = KeyTuple(v, con.field_ids);
      if (t.empty()) continue;
      auto [it, fresh] = owner.emplace(t, k);
      if (!fresh) {
        c.colliding.insert(k);
        c.colliding.insert(it->second);
        if (c.collision.empty())
          c.collision = fmt::format("{} = {} on {}", k, it->second, con.name);
      }
    }
  }
}

/// The rows a commit (or the finish of a staged one) adds, modifies and removes, their
/// collisions, and the rows it leaves.
void HistoryScan::RowChanges(Column& c, const json& rq, const std::string& op) {
  const json* rows_req = &rq;
  if (c.finish && staged_commit_.count(c.txn)) rows_req = &staged_commit_[c.txn];
  if (op != "commit" && !c.finish) return;
  c.added = Keys(rows_req->value("add", json()), true);
  c.modified = Keys(rows_req->value("modify", json()), true);
  c.removed = Keys(rows_req->value("remove", json()), false);
  std::map<std::string, json> table = live_;
  if (c.staged && base_of.count(c.txn)) table = staged_rows_[c.txn];
  for (const std::string& k : c.removed) table.erase(k);
  std::map<std::string, json> incoming;
  for (const char* list : {"add", "modify"})
    if (rows_req->contains(list) && (*rows_req)[list].is_array())
      for (const json& r : (*rows_req)[list])
        if (r.is_object() && r.contains("key") && r["key"].is_string())
          incoming[r["key"].get<std::string>()] = r.value("values", json::object());
  for (const auto& [k, v] : incoming) table.erase(k);
  FindCollisions(c, table, incoming);
  // Apply what was committed.
  auto apply = [&](std::map<std::string, json>& t) {
    for (const std::string& k : c.removed) t.erase(k);
    for (const auto& [k, v] : incoming) t[k] = v;
  };
  if (c.staged && c.ok) {
    staged_commit_[c.txn] = rq;
    staged_col[c.txn] = cols.size();
    apply(staged_rows_[c.txn]);
  } else if (c.ok && !c.staged) {
    apply(live_);
  }
}

void HistoryScan::Step(const StepRow& s) {
  const json rq = s.request.is_object() ? s.request : json::object();
  const json rs = s.response.is_object() ? s.response : json::object();
  Column c = Head(s, rq, rs);
  // Constraints and the current snapshot from the answer's metadata.
  const json md = c.ok && rs.contains("metadata") && rs["metadata"].is_object()
                      ? rs["metadata"]
                      : json();
  ReadConstraints(md);
  std::optional<int64_t> cur;
  if (md.is_object() && md.contains("current-snapshot-id") &&
      md["current-snapshot-id"].is_number_integer() &&
      md["current-snapshot-id"].get<int64_t>() >= 0)
    cur = md["current-snapshot-id"].get<int64_t>();
  if (s.op == "begin" && c.ok) {
    base_of[c.txn] = current_;
    begin_col[c.txn] = cols.size();
  }
  RowChanges(c, rq, s.op);
  if (s.op == "begin" && c.ok) staged_rows_[c.txn] = live_;
  if (c.ok && cur && !c.staged && cur != current_) {
    c.snapshot = cur;
    ReadStatuses(md, *cur, c);
    current_ = cur;
  } else if (c.ok && c.staged && cur) {
    ReadStatuses(md, *cur, c);
  } else if (c.ok && cur && c.step->failed) {
    ReadStatuses(md, *cur, c);
  }
  cols.push_back(std::move(c));
}

}  // namespace ictk::history_internal
