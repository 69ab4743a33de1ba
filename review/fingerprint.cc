/// \file
/// The behaviour fingerprint (fingerprint.h): bounded exhaustive enumeration on the
/// model.
#include "review/fingerprint.h"

#include <fmt/format.h>

#include <algorithm>
#include <optional>
#include <set>

#include "model/judge/operations.h"
#include "model/judge/outcome.h"
#include "model/judge/requests.h"
#include "model/rules/constraint_rules.h"
#include "model/judge/table_state.h"
#include "reports/digest.h"
#include "review/spec_diff.h"

namespace ictk {
namespace {

using json = nlohmann::json;

constexpr FieldId kK = 1;
constexpr FieldId kV = 2;
constexpr int64_t kClockStart = 1'700'000'000'000;
const char* const kTable = "t";
const char* const kTxn = "x";

NestedField Column(FieldId id, std::string name, bool required) {
  NestedField f;
  f.id = id;
  f.name = std::move(name);
  f.required = required;
  f.type = Type::Primitive(TypeId::kInt);
  return f;
}

Schema TinySchema(bool identifier) {
  Schema s;
  s.schema_id = 0;
  s.fields = {Column(kK, "k", true), Column(kV, "v", false)};
  if (identifier) s.identifier_field_ids = std::vector<FieldId>{kK};
  return s;
}

/// null, 0, 1 as values; -1 stands for null.
Value Small(int x) { return x < 0 ? Value::Null() : Value::Long(x); }

Row MakeRow(std::string key, Value k, Value v) {
  return Row{std::move(key), Value::Struct({kK, kV}, {std::move(k), std::move(v)})};
}

Constraint PrimaryKey() {
  Constraint c;
  c.type = ConstraintType::kPrimaryKey;
  c.raw_type = "primary-key";
  c.name = "pk";
  c.enforced = true;
  c.field_ids = std::vector<FieldId>{kK};
  return c;
}

Constraint PositiveCheck() {
  Constraint c;
  c.type = ConstraintType::kCheck;
  c.raw_type = "check";
  c.name = "pos";
  c.enforced = false;
  c.expression = Expr::Binary(ExprOp::kGt, Expr::Ref(kV), Expr::Lit(Value::Long(0)));
  return c;
}

/// The oldest live row (smallest key; keys are numbered by step), or nullptr.
const std::pair<const std::string, Value>* OldestRow(const CatalogState& state) {
  const TableState* t = state.FindTable(kTable);
  if (t == nullptr || t->rows.empty()) return nullptr;
  return &*std::min_element(
      t->rows.begin(), t->rows.end(),
      [](const auto& a, const auto& b) { return a.first < b.first; });
}

std::optional<bool> EnforcedOf(const CatalogState& state, std::string_view name) {
  const TableState* t = state.FindTable(kTable);
  if (t == nullptr) return std::nullopt;
  const Constraint* c = FindConstraintByName(t->metadata, name);
  if (c == nullptr) return std::nullopt;
  return c->enforced.value_or(false);
}

/// The next value of v in null -> 0 -> 1 -> null.
Value NextV(const Value* v) {
  if (v == nullptr || v->is_null()) return Value::Long(0);
  if (v->kind == ValueKind::kLong && v->as_long() == 0) return Value::Long(1);
  return Value::Null();
}

Value FlipK(const Value* k) {
  if (k != nullptr && k->kind == ValueKind::kLong && k->as_long() == 0)
    return Value::Long(1);
  return Value::Long(0);
}

/// The number of letters in the alphabet.
constexpr int kLetters = 26;

/// Letter `letter` of the alphabet in `state` at `depth`, or nullopt when it does not
/// apply (a delete or modification with no live row).
std::optional<Operation> Letter(int letter, const CatalogState& state, int depth) {
  const std::string key = fmt::format("r{:02}", depth);
  if (letter < 6) {  // append (k, v), k in {0, 1}, v in {null, 0, 1}
    Commit c;
    c.operation = CommitOperation::kAppend;
    c.add = {MakeRow(key, Small(letter / 3), Small(letter % 3 - 1))};
    return c;
  }
  switch (letter) {
    case 6: {  // delete the oldest row
      const auto* row = OldestRow(state);
      if (row == nullptr) return std::nullopt;
      Commit c;
      c.operation = CommitOperation::kDelete;
      c.remove = {row->first};
      return c;
    }
    case 7:
    case 8: {  // modify the oldest row: flip k, or step v
      const auto* row = OldestRow(state);
      if (row == nullptr) return std::nullopt;
      const Value* k = row->second.FindField(kK);
      const Value* v = row->second.FindField(kV);
      Commit c;
      c.operation = CommitOperation::kOverwrite;
      c.modify = {letter == 7 ? MakeRow(row->first, FlipK(k), v ? *v : Value::Null())
                              : MakeRow(row->first, k ? *k : Value::Long(0), NextV(v))};
      return c;
    }
    case 9:
      return AddConstraint{PrimaryKey()};
    case 10:
      return AddConstraint{PositiveCheck()};
    case 11:
    case 12: {  // toggle enforced
      const std::string name = letter == 11 ? "pk" : "pos";
      UpdateConstraint u;
      u.name = name;
      u.set.enforced = !EnforcedOf(state, name).value_or(false);
      return u;
    }
    case 13:
      return RemoveConstraint{"pk"};
    case 14:
      return RemoveConstraint{"pos"};
    case 15: {
      UpdateSchema u;
      u.changes = {RenameColumn{kV, "w"}};
      return u;
    }
    case 16: {
      UpdateSchema u;
      u.changes = {DeleteColumn{kV}};
      return u;
    }
    case 17: {  // validate every constraint
      Validate v;
      if (const TableState* t = state.FindTable(kTable))
        for (const Constraint& c : ConstraintsOf(t->metadata))
          if (c.name) v.names.push_back(*c.name);
      return v;
    }
    case 18:
      return Upgrade{4};
    case 19:
      return Scan{};
    case 20:
      return Begin{kTxn};
    case 21: {  // a staged append
      Commit c;
      c.operation = CommitOperation::kAppend;
      c.add = {MakeRow(key, Small(1), Small(1))};
      c.txn = kTxn;
      return c;
    }
    case 22:
      return Finish{kTxn};
    case 23:
      return LoadTable{};
    case 24:
    case 25: {  // a reader given the table's current metadata
      const TableState* t = state.FindTable(kTable);
      if (t == nullptr) return std::nullopt;
      if (letter == 24) return ReadStatuses{t->metadata, std::nullopt};
      return ParseMetadata{t->metadata};
    }
    default:
      return std::nullopt;
  }
}

/// A request that changes nothing: what follows it repeats what follows its parent, so
/// it is enumerated only as the last request of a history.
bool ReadOnly(const Operation& op) {
  return std::holds_alternative<Scan>(op) || std::holds_alternative<LoadTable>(op) ||
         std::holds_alternative<ReadStatuses>(op) ||
         std::holds_alternative<ParseMetadata>(op);
}

std::string ResultClass(const AllowedOutcome& o) {
  if (o.ok_allowed && o.reject_allowed) return "ok-or-rejected";
  return o.ok_allowed ? "ok" : "rejected";
}

std::string KindsKey(const std::set<RejectKind>& kinds) {
  std::vector<std::string> names;
  for (RejectKind k : kinds) names.emplace_back(ToString(k));
  return fmt::format("{}", fmt::join(names, "|"));
}

class Enumerator {
 public:
  Enumerator(int steps, const Switches& switches, Fingerprint& fp)
      : steps_(steps), fp_(fp), switches_(switches) {}

  void Run() {
    for (bool v3 : {false, true}) {
      CatalogState state;
      const Request create{kTable, kClockStart,
                           CreateTable{v3 ? 3 : 4, TinySchema(/*identifier=*/v3)}};
      path_ = v3 ? "v3" : "v4";
      Visit(state, create, 0);
    }
    fp_.digest = Sha256Hex(lines_);
  }

 private:
  /// Judges `request` in `state` (the history so far), counts it as the last request of
  /// one history and enumerates its continuations.
  void Visit(CatalogState state, const Request& request, int depth) {
    const AllowedOutcome o = Apply(state, request, switches_);
    const std::string op(OpName(request.op));
    const std::string result = ResultClass(o);
    ++fp_.histories;
    ++fp_.by_length[depth];
    ++fp_.results[result];
    ++fp_.by_op[op][result];
    std::string line = fmt::format("{} {} {}", path_, op, result);
    if (!o.ok_allowed) {
      const std::string kinds = KindsKey(o.reject_kinds);
      ++fp_.rejected[kinds];
      line += " " + kinds;
    }
    if (o.ok_allowed && o.metadata && o.metadata->new_snapshot) {
      for (const StatusExpectation& e : o.metadata->new_snapshot->statuses) {
        const std::string key = fmt::format("{} {}", e.name, ToString(e.allowed));
        ++fp_.statuses[key];
        line += " " + key;
      }
    }
    lines_ += line + "\n";
    if (depth == steps_ || ReadOnly(request.op)) return;
    const Answer answer = CanonicalAnswer(state, request, o, switches_);
    Adopt(state, request, answer, switches_);
    const std::string base = path_;
    for (int letter = 0; letter < kLetters; ++letter) {
      std::optional<Operation> next = Letter(letter, state, depth + 1);
      if (!next) continue;
      path_ = fmt::format("{}.{}", base, letter);
      const std::string table = ActsOnTable(*next) ? kTable : "";
      Visit(state, Request{table, kClockStart + (depth + 1) * 1000, std::move(*next)},
            depth + 1);
    }
    path_ = base;
  }

  int steps_;
  Fingerprint& fp_;
  Switches switches_;
  std::string path_;
  std::string lines_;
};

void Diff(const json& golden, const json& now, const std::string& path,
          std::vector<std::string>& out) {
  if (golden.is_object() && now.is_object()) {
    std::set<std::string> keys;
    for (auto it = golden.begin(); it != golden.end(); ++it) keys.insert(it.key());
    for (auto it = now.begin(); it != now.end(); ++it) keys.insert(it.key());
    for (const std::string& k : keys) {
      const std::string p = path.empty() ? k : path + "." + k;
      if (!golden.contains(k))
        out.push_back(fmt::format("{}: (absent) -> {}", p, now[k].dump()));
      else if (!now.contains(k))
        out.push_back(fmt::format("{}: {} -> (absent)", p, golden[k].dump()));
      else
        Diff(golden[k], now[k], p, out);
    }
    return;
  }
  if (golden != now)
    out.push_back(fmt::format("{}: {} -> {}", path.empty() ? "(document)" : path,
                              golden.dump(), now.dump()));
}

}  // namespace

Fingerprint ComputeFingerprint(int steps, const Switches& switches) {
  Fingerprint fp;
  fp.steps = steps;
  fp.switches = SwitchesText(switches);
  Enumerator(steps, switches, fp).Run();
  return fp;
}

json FingerprintToJson(const Fingerprint& fp) {
  json by_length = json::object();
  for (const auto& [n, count] : fp.by_length) by_length[std::to_string(n)] = count;
  return {{"fingerprint-version", 1},
          {"steps", fp.steps},
          {"domain",
           "table t (v4, or v3 with identifier field k); k int required, v int "
           "optional; values null, 0, 1; constraints pk (primary-key k, enforced) and "
           "pos (check v > 0, not enforced)"},
          {"switches", fp.switches},
          {"histories", fp.histories},
          {"histories-by-length", by_length},
          {"results", fp.results},
          {"rejected-by-kind", fp.rejected},
          {"status-sets", fp.statuses},
          {"by-op", fp.by_op},
          {"digest", fp.digest}};
}

std::vector<std::string> DiffFingerprintJson(const json& golden, const json& now) {
  std::vector<std::string> out;
  Diff(golden, now, "", out);
  return out;
}

}  // namespace ictk
