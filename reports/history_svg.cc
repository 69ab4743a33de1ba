#include "reports/history_svg.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <optional>
#include <regex>
#include <set>
#include <vector>

#include "codec/json_text.h"
#include "reports/render.h"

namespace ictk {

namespace {

using json = nlohmann::json;

constexpr int kLeft = 150;   // row labels
constexpr int kCol = 108;    // one step
constexpr int kMainY = 58;   // the main line
constexpr int kForkY = 104;  // a transaction's staged commit
constexpr int kRowH = 22;
constexpr int kStatusH = 32;  // a status row: the answer, and the allowed set under it

struct Constraint {
  int64_t id = 0;
  std::string name, type;
  std::vector<int64_t> field_ids;
  bool enforced = false;
};

/// What one column shows.
struct Column {
  const StepRow* step = nullptr;
  bool ok = false;
  std::string result;               ///< "ok", "rejected (kind)", ...
  std::optional<int64_t> snapshot;  ///< a snapshot this step put on the main line
  std::optional<int64_t> parent;
  bool staged = false;  ///< a commit naming a transaction
  bool finish = false;
  std::string txn;
  std::map<int64_t, std::string> statuses;  ///< constraint ID -> answered status
  std::map<std::string, std::set<std::string>> allowed;  ///< name -> allowed statuses
  std::vector<std::string> added, removed, modified;
  std::set<std::string> colliding;  ///< keys of this step that collide
  std::string collision;            ///< "r3 ~ r1 on pk"
};

/// `s` cut to about `n` bytes (at a UTF-8 character boundary, with "…"), escaped.
std::string Short(std::string s, size_t n) {
  if (s.size() > n) {
    size_t cut = n - 1;
    while (cut > 0 && (static_cast<unsigned char>(s[cut]) & 0xC0) == 0x80) --cut;
    s = s.substr(0, cut) + "…";
  }
  return EscapeXml(s);
}

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

const char* StatusColour(const std::string& status) {
  if (status == "validated" || status == "valid") return "#d4edda";
  if (status == "invalid") return "#fde2c8";
  if (status == "unvalidated") return "#e8eaed";
  return "#ffffff";
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

std::string Draw(const FailureDetail& f, const std::string& sentence);

}  // namespace

std::string HistorySvg(const FailureDetail& f, const std::string& sentence) {
  if (f.steps.empty()) return "";
  // A report is input: a request or answer of an unexpected shape draws nothing rather
  // than stopping the rendering.
  try {
    return Draw(f, sentence);
  } catch (const nlohmann::json::exception&) {
    return "";
  }
}

namespace {

/// Reads the steps of a failing history into columns: what each step answered, the
/// constraints seen, the committed and staged rows (to find key collisions), the main
/// line and the transactions forked from it.
class HistoryScan {
 public:
  void Step(const StepRow& s);

  std::vector<Column> cols;
  std::map<int64_t, Constraint> constraints;              // every constraint seen
  std::map<std::string, std::optional<int64_t>> base_of;  // txn -> base snapshot
  std::map<std::string, size_t> staged_col;  // txn -> column of its staged commit
  std::map<std::string, size_t> begin_col;

 private:
  void ReadConstraints(const json& md);
  void RowChanges(Column& c, const json& rq, const std::string& op);
  void FindCollisions(Column& c, const std::map<std::string, json>& table,
                      const std::map<std::string, json>& incoming) const;

  std::map<std::string, json> live_;  // key -> values (committed)
  std::map<std::string, std::map<std::string, json>> staged_rows_;  // txn -> its table
  std::optional<int64_t> current_;             // the current snapshot
  std::map<std::string, json> staged_commit_;  // txn -> the staged request
};

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

/// Where the rows of the drawing are.
struct Layout {
  std::vector<int64_t> cids;  // the constraints, one status row each
  int status_top = 0, rows_top = 0, foot_top = 0, width = 0, height = 0;
  int XOf(size_t k) const { return kLeft + kCol * static_cast<int>(k) + kCol / 2; }
};

Layout LayOut(const HistoryScan& scan) {
  Layout l;
  for (const auto& [id, con] : scan.constraints) l.cids.push_back(id);
  l.status_top = kForkY + 40;
  l.rows_top = l.status_top + kStatusH * static_cast<int>(l.cids.size()) + 10;
  l.foot_top = l.rows_top + kRowH * 3 + 14;
  l.width = kLeft + kCol * static_cast<int>(scan.cols.size()) + 20;
  l.height = l.foot_top + 54;
  return l;
}

/// The frame: title, arrow marker, the failing step's band, row labels, the main line.
std::string DrawFrame(const FailureDetail& f, const HistoryScan& scan, const Layout& l) {
  std::string out = fmt::format(
      "<svg class=\"history\" width=\"{0}\" "
      "height=\"{1}\" viewBox=\"0 0 {0} {1}\" role=\"img\" font-family=\"sans-serif\" "
      "font-size=\"11\"><title>{2}</title>\n",
      l.width, l.height,
      EscapeXml(fmt::format("The failing history: {} steps, failure at step {} ({})",
                            f.steps.size(), f.step, f.rule)));
  out +=
      "<defs><marker id=\"arrow\" viewBox=\"0 0 10 10\" refX=\"9\" refY=\"5\" "
      "markerWidth=\"7\" markerHeight=\"7\" orient=\"auto-start-reverse\"><path "
      "d=\"M0,0L10,5L0,10z\" fill=\"#555\"/></marker></defs>\n";
  // The failing step's band.
  for (size_t k = 0; k < scan.cols.size(); ++k)
    if (scan.cols[k].step->failed)
      out += fmt::format(
          "<rect class=\"failed-step\" x=\"{}\" y=\"2\" width=\"{}\" height=\"{}\" "
          "fill=\"#fce8e6\" stroke=\"#d93025\" stroke-width=\"2\"/>\n",
          kLeft + kCol * static_cast<int>(k) + 2, kCol - 4, l.foot_top - 6);
  // Row labels.
  out += fmt::format("<text x=\"6\" y=\"{}\" font-weight=\"bold\">snapshots</text>\n",
                     kMainY + 4);
  out += fmt::format("<text x=\"6\" y=\"{}\" font-weight=\"bold\">transactions</text>\n",
                     kForkY + 4);
  for (size_t r = 0; r < l.cids.size(); ++r) {
    const Constraint& con = scan.constraints.at(l.cids[r]);
    out += fmt::format(
        "<text x=\"6\" y=\"{}\">{} #{} <tspan fill=\"#777\">{}{}</tspan></text>\n",
        l.status_top + kStatusH * static_cast<int>(r) + 20, Short(con.name, 12), con.id,
        con.type == "primary-key" ? "pk" : Short(con.type, 7),
        con.enforced ? ", enf." : "");
  }
  const char* row_names[] = {"rows added", "rows removed", "rows modified"};
  for (int r = 0; r < 3; ++r)
    out += fmt::format("<text x=\"6\" y=\"{}\">{}</text>\n", l.rows_top + kRowH * r + 15,
                       row_names[r]);
  // The main line.
  out += fmt::format(
      "<line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" stroke=\"#999\" "
      "stroke-width=\"2\"/>\n",
      kLeft, kMainY, l.width - 20, kMainY);
  return out;
}

/// The step's op and result at the top, and its node: a snapshot, a staged commit or a
/// dot.
std::string DrawNode(const Column& c, int x) {
  const bool bad = c.step->failed;
  std::string out = fmt::format(
      "<text x=\"{}\" y=\"16\" text-anchor=\"middle\" font-weight=\"bold\"{}>{}. "
      "{}</text>\n",
      x, bad ? " fill=\"#d93025\"" : "", c.step->index, Short(c.step->op, 14));
  out += fmt::format(
      "<text x=\"{}\" y=\"30\" text-anchor=\"middle\" fill=\"{}\">{}</text>\n", x,
      c.ok ? "#1e8e3e" : "#d93025", Short(c.result, 20));
  const int y = c.staged ? kForkY : kMainY;
  if (c.snapshot) {
    out += fmt::format(
        "<circle cx=\"{}\" cy=\"{}\" r=\"13\" fill=\"{}\" stroke=\"{}\" "
        "stroke-width=\"2\"><title>snapshot {}{}</title></circle>\n"
        "<text x=\"{}\" y=\"{}\" text-anchor=\"middle\" font-size=\"10\">S{}</text>\n",
        x, y, bad ? "#fce8e6" : "#fff", bad ? "#d93025" : "#1a73e8", *c.snapshot,
        c.parent ? fmt::format(", parent {}", *c.parent) : std::string(), x, y + 4,
        *c.snapshot % 1000);
    if (c.parent)
      out += fmt::format(
          "<text x=\"{}\" y=\"{}\" text-anchor=\"middle\" "
          "fill=\"#555\" font-size=\"9\">parent S{}</text>\n",
          x, y - 17, *c.parent % 1000);
  } else if (c.staged) {
    out += fmt::format(
        "<rect x=\"{}\" y=\"{}\" width=\"26\" height=\"20\" rx=\"4\" fill=\"#fff\" "
        "stroke=\"#e37400\" stroke-width=\"2\" stroke-dasharray=\"4 2\"><title>staged "
        "commit of transaction {}</title></rect>\n"
        "<text x=\"{}\" y=\"{}\" text-anchor=\"middle\" font-size=\"10\">{}</text>\n",
        x - 13, y - 10, EscapeXml(c.txn), x, y + 4, Short(c.txn, 4));
  } else {
    out += fmt::format("<circle cx=\"{}\" cy=\"{}\" r=\"4\" fill=\"{}\"/>\n", x, kMainY,
                       c.ok ? "#999" : "#d93025");
  }
  return out;
}

/// The fork: begin's base -> the staged commit; the retry: staged -> finish.
std::string DrawLinks(const Column& c, int x, const HistoryScan& scan, const Layout& l) {
  std::string out;
  if (c.staged && scan.begin_col.count(c.txn)) {
    const int bx = l.XOf(scan.begin_col.at(c.txn));
    const auto base = scan.base_of.find(c.txn);
    const bool has_base = base != scan.base_of.end() && base->second;
    out += fmt::format(
        "<path d=\"M{} {} C{} {} {} {} {} {}\" fill=\"none\" stroke=\"#e37400\" "
        "stroke-width=\"1.5\" stroke-dasharray=\"4 2\" marker-end=\"url(#arrow)\"/>\n"
        "<text x=\"{}\" y=\"{}\" fill=\"#e37400\" font-size=\"9\">fork {} (base "
        "{})</text>\n",
        bx, kMainY + 4, bx, kForkY, x - 30, kForkY, x - 15, kForkY, bx + 4, kForkY + 20,
        Short(c.txn, 6),
        has_base ? fmt::format("S{}", *base->second % 1000) : "no snapshot yet");
  }
  if (c.finish && scan.staged_col.count(c.txn)) {
    const int sx = l.XOf(scan.staged_col.at(c.txn));
    out += fmt::format(
        "<path d=\"M{} {} C{} {} {} {} {} {}\" fill=\"none\" stroke=\"{}\" "
        "stroke-width=\"2\" marker-end=\"url(#arrow)\"/>\n"
        "<text x=\"{}\" y=\"{}\" text-anchor=\"middle\" fill=\"#555\" "
        "font-size=\"9\">retry on {}</text>\n",
        sx + 13, kForkY, x - 20, kForkY, x, kForkY, x, kMainY + (c.snapshot ? 14 : 5),
        c.step->failed ? "#d93025" : "#e37400", x, kForkY + 20,
        c.parent ? fmt::format("new parent S{}", *c.parent % 1000)
                 : std::string("the new parent"));
  }
  return out;
}

/// Each constraint's answered status, and the allowed set under one outside it.
std::string DrawStatuses(const Column& c, int x, const HistoryScan& scan,
                         const Layout& l) {
  std::string out;
  const bool show_statuses =
      c.snapshot || c.staged || (c.step->failed && !c.statuses.empty());
  for (size_t r = 0; r < l.cids.size() && show_statuses; ++r) {
    const int ry = l.status_top + kStatusH * static_cast<int>(r);
    const Constraint& con = scan.constraints.at(l.cids[r]);
    auto it = c.statuses.find(con.id);
    const std::string status = it == c.statuses.end() ? "—" : it->second;
    auto al = c.allowed.find(con.name);
    const bool outside = al != c.allowed.end() && !al->second.count(status);
    std::string set;
    if (outside)
      for (const std::string& a : al->second) set += (set.empty() ? "" : "|") + a;
    out += fmt::format(
        "<rect class=\"status{}\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" "
        "fill=\"{}\" stroke=\"{}\" stroke-width=\"{}\"><title>{}</title></rect>\n"
        "<text x=\"{}\" y=\"{}\" text-anchor=\"middle\" font-size=\"10\"{}>{}</text>\n",
        outside ? " outside" : "", x - kCol / 2 + 6, ry + 2, kCol - 12, kStatusH - 4,
        StatusColour(status), outside ? "#d93025" : "#bbb", outside ? 2 : 1,
        EscapeXml(fmt::format("{} #{}: {}{}", con.name, con.id, status,
                              outside ? " (allowed: " + set + ")" : "")),
        x, outside ? ry + 14 : ry + 20,
        outside ? " fill=\"#d93025\" font-weight=\"bold\"" : "", Short(status, 18));
    if (outside)
      out += fmt::format(
          "<text x=\"{}\" y=\"{}\" text-anchor=\"middle\" font-size=\"8\" "
          "fill=\"#d93025\">∉ {}</text>\n",
          x, ry + 26, Short(set, 24));
  }
  return out;
}

/// Rows added / removed / modified, colliding keys marked, and the collision under them.
std::string DrawRowChanges(const Column& c, int x, const Layout& l) {
  std::string out;
  const std::vector<std::string>* lists[] = {&c.added, &c.removed, &c.modified};
  const char* signs[] = {"+", "−", "~"};
  for (int r = 0; r < 3; ++r) {
    if (lists[r]->empty()) continue;
    std::string text;
    size_t n = 0;
    for (const std::string& key : *lists[r]) {
      if (++n > 4) {
        text += fmt::format("<tspan>…+{}</tspan>", lists[r]->size() - 4);
        break;
      }
      const bool hit = c.colliding.count(key) > 0;
      text +=
          fmt::format("<tspan{}>{}{}</tspan> ",
                      hit ? " class=\"collide\" fill=\"#d93025\" font-weight=\"bold\" "
                            "text-decoration=\"underline\""
                          : "",
                      signs[r], Short(key, 8));
    }
    out += fmt::format("<text x=\"{}\" y=\"{}\" text-anchor=\"middle\">{}</text>\n", x,
                       l.rows_top + kRowH * r + 15, text);
  }
  if (!c.collision.empty())
    out += fmt::format(
        "<text class=\"collision\" x=\"{}\" y=\"{}\" text-anchor=\"middle\" "
        "fill=\"#d93025\" font-size=\"10\">⚠ {}</text>\n",
        x, l.rows_top + kRowH * 3 + 8, Short(c.collision, 22));
  return out;
}

/// The failing step's rule and sentence.
std::string DrawCaption(const FailureDetail& f, const std::string& sentence,
                        const Layout& l) {
  std::string first = fmt::format("✗ step {}: {} — {}", f.step, f.rule, FindingOf(f));
  std::string second = sentence;
  if (second.size() >= 2 && second.front() == '"' && second.back() == '"')
    second = second.substr(1, second.size() - 2);
  const size_t chars = static_cast<size_t>(std::max(60, (l.width - 20) / 6));
  std::string out = fmt::format(
      "<text class=\"failure-caption\" x=\"6\" y=\"{}\" fill=\"#d93025\" "
      "font-weight=\"bold\">{}</text>\n",
      l.foot_top + 16, Short(first, chars));
  out += fmt::format(
      "<text x=\"6\" y=\"{}\" fill=\"#d93025\" "
      "font-style=\"italic\">{}<title>{}</title></text>\n",
      l.foot_top + 34, Short("“" + second + "”", chars), EscapeXml(second));
  return out;
}

std::string Draw(const FailureDetail& f, const std::string& sentence) {
  HistoryScan scan;
  for (const StepRow& s : f.steps) scan.Step(s);
  const Layout l = LayOut(scan);
  std::string out = DrawFrame(f, scan, l);
  for (size_t k = 0; k < scan.cols.size(); ++k) {
    const Column& c = scan.cols[k];
    const int x = l.XOf(k);
    out += DrawNode(c, x);
    out += DrawLinks(c, x, scan, l);
    out += DrawStatuses(c, x, scan, l);
    out += DrawRowChanges(c, x, l);
  }
  out += DrawCaption(f, sentence, l);
  out += "</svg>";
  return out;
}

}  // namespace

}  // namespace ictk
