/// \file
/// Builders for the operation tests: requests on a table named "t" with an increasing
/// clock, rows, constraints, and a `ModelSession` that runs requests through the model
/// the way builtin:reference does (Apply, CanonicalAnswer, Adopt) while checking that the
/// canonical answer is itself allowed (Judge finds nothing).
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <initializer_list>
#include <string>
#include <utility>
#include <vector>

#include "model/judge/operations.h"
#include "model/judge/outcome.h"
#include "model/judge/requests.h"
#include "model/rules/constraint_rules.h"
#include "model/rules/rule_id.h"
#include "model/rules/switches.h"
#include "tests/model/field_test_util_internal.h"

namespace ictk::ops_test {

inline NestedField Col(FieldId id, std::string name, bool required, Type type) {
  return testing_util::Field(id, std::move(name), required, std::move(type));
}

using testing_util::P;

/// A schema update of one change, removing the constraints named in `remove`.
inline UpdateSchema Change(SchemaChange c, std::vector<std::string> remove = {}) {
  UpdateSchema u;
  u.changes.push_back(std::move(c));
  u.remove_constraints = std::move(remove);
  return u;
}

/// The four statuses, by their short names.
constexpr ConstraintStatus kValidated = ConstraintStatus::kValidated;
constexpr ConstraintStatus kValid = ConstraintStatus::kValid;
constexpr ConstraintStatus kInvalid = ConstraintStatus::kInvalid;
constexpr ConstraintStatus kUnvalidated = ConstraintStatus::kUnvalidated;

/// EXAMPLE-SESSION's `orders`: 1 order_id long required, 2 qty int, 3 email string.
inline Schema OrdersSchema() {
  Schema s;
  s.schema_id = 0;
  s.fields = {Col(1, "order_id", true, P(TypeId::kLong)),
              Col(2, "qty", false, P(TypeId::kInt)),
              Col(3, "email", false, P(TypeId::kString))};
  return s;
}

/// A row keyed `key` with top-level values by field ID.
inline Row MakeRow(std::string key, std::vector<std::pair<FieldId, Value>> values) {
  std::vector<FieldId> ids;
  std::vector<Value> vs;
  for (auto& [id, v] : values) {
    ids.push_back(id);
    vs.push_back(std::move(v));
  }
  return Row{std::move(key), Value::Struct(std::move(ids), std::move(vs))};
}

/// An orders row: order_id, qty (nullopt = null), email.
inline Row Order(std::string key, int64_t id, std::optional<int64_t> qty,
                 std::optional<std::string> email = std::nullopt) {
  return MakeRow(std::move(key), {{1, Value::Long(id)},
                                  {2, qty ? Value::Long(*qty) : Value::Null()},
                                  {3, email ? Value::String(*email) : Value::Null()}});
}

inline Constraint KeyConstraint(ConstraintType type, std::string name, bool enforced,
                                std::vector<FieldId> ids) {
  Constraint c;
  c.type = type;
  c.raw_type = std::string(ToString(type));
  c.name = std::move(name);
  c.enforced = enforced;
  c.field_ids = std::move(ids);
  return c;
}
inline Constraint Pk(std::string name, bool enforced, std::vector<FieldId> ids) {
  return KeyConstraint(ConstraintType::kPrimaryKey, std::move(name), enforced,
                       std::move(ids));
}
inline Constraint Unique(std::string name, bool enforced, std::vector<FieldId> ids) {
  return KeyConstraint(ConstraintType::kUnique, std::move(name), enforced,
                       std::move(ids));
}
inline Constraint Check(std::string name, bool enforced, Expr e) {
  Constraint c;
  c.type = ConstraintType::kCheck;
  c.raw_type = "check";
  c.name = std::move(name);
  c.enforced = enforced;
  c.expression = std::move(e);
  return c;
}
/// `field > 0 OR field IS NULL` (EXAMPLE-SESSION step 4).
inline Expr PositiveOrNull(FieldId field) {
  return Expr::Binary(
      ExprOp::kOr, Expr::Binary(ExprOp::kGt, Expr::Ref(field), Expr::Lit(Value::Long(0))),
      Expr::Unary(ExprOp::kIsNull, Expr::Ref(field)));
}

inline Commit Append(std::vector<Row> rows) {
  Commit c;
  c.operation = CommitOperation::kAppend;
  c.add = std::move(rows);
  return c;
}
inline Commit Delete(std::vector<std::string> keys) {
  Commit c;
  c.operation = CommitOperation::kDelete;
  c.remove = std::move(keys);
  return c;
}
inline Commit Overwrite(std::vector<Row> add, std::vector<std::string> remove,
                        std::vector<Row> modify) {
  Commit c;
  c.operation = CommitOperation::kOverwrite;
  c.add = std::move(add);
  c.remove = std::move(remove);
  c.modify = std::move(modify);
  return c;
}

inline bool Names(const Findings& findings, RuleId rule) {
  return std::any_of(findings.begin(), findings.end(),
                     [&](const Finding& f) { return f.rule == rule; });
}

inline std::string Describe(const Findings& findings) {
  std::string s;
  for (const Finding& f : findings) s += ToString(f) + "\n";
  return s;
}

/// A catalog driven like builtin:reference.
class ModelSession {
 public:
  explicit ModelSession(Switches switches = {}) : switches_(switches) {}

  Request Req(Operation op, std::string table = "t") {
    return Request{std::move(table), now_++, std::move(op)};
  }
  /// What the model allows for `op` now (nothing changes).
  AllowedOutcome Outcome(Operation op, std::string table = "t") {
    return Apply(state_, Req(std::move(op), std::move(table)), switches_);
  }
  /// Runs `op` as the reference implementation would and adopts its answer; the canonical
  /// answer must be allowed. Returns the outcome; `answer` receives the answer.
  AllowedOutcome Step(Operation op, Answer* answer = nullptr, std::string table = "t") {
    const Request r = Req(std::move(op), std::move(table));
    AllowedOutcome o = Apply(state_, r, switches_);
    Answer a = CanonicalAnswer(state_, r, o, switches_);
    const Findings judged = Judge(o, a);
    EXPECT_TRUE(judged.empty()) << OpName(r.op) << ": canonical answer not allowed:\n"
                                << Describe(judged) << ToString(o);
    const Findings adopted = Adopt(state_, r, a, switches_);
    EXPECT_TRUE(adopted.empty()) << Describe(adopted);
    if (answer) *answer = a;
    return o;
  }
  /// Runs `op`, answering `answer` instead of the canonical one; returns Judge's
  /// findings.
  Findings StepWith(Operation op, const Answer& answer, AllowedOutcome* outcome = nullptr,
                    std::string table = "t") {
    const Request r = Req(std::move(op), std::move(table));
    AllowedOutcome o = Apply(state_, r, switches_);
    Findings judged = Judge(o, answer);
    Adopt(state_, r, answer, switches_);
    if (outcome) *outcome = o;
    return judged;
  }
  /// The canonical answer to `op` now, without adopting it. The clock does not move, so
  /// a StepWith of the same op that follows carries the same now-ms as the answer (the
  /// snapshot and last-updated-ms take it: proto.timestamp-from-now).
  Answer Canonical(Operation op, AllowedOutcome* outcome = nullptr,
                   std::string table = "t") {
    const Request r{std::move(table), now_, std::move(op)};
    AllowedOutcome o = Apply(state_, r, switches_);
    if (outcome) *outcome = o;
    return CanonicalAnswer(state_, r, o, switches_);
  }

  /// create-table of `schema` at `format_version`.
  void Create(Schema schema = OrdersSchema(), int32_t format_version = 4) {
    Step(CreateTable{format_version, std::move(schema)});
  }
  void Add(Constraint c) { Step(AddConstraint{std::move(c)}); }
  void Write(Commit c) { Step(std::move(c)); }

  const TableState& table(const std::string& name = "t") const {
    return state_.tables.at(name);
  }
  const TableMetadata& metadata(const std::string& name = "t") const {
    return table(name).metadata;
  }
  ConstraintId IdOf(const std::string& name) const {
    for (const Constraint& c : *metadata().constraints)
      if (c.name == name) return c.id.value_or(0);
    return 0;
  }
  CatalogState& state() { return state_; }
  Switches& switches() { return switches_; }
  int64_t now() const { return now_; }

 private:
  CatalogState state_;
  Switches switches_;
  int64_t now_ = 1000;
};

/// The allowed set of constraint `name` in the snapshot `o` expects.
inline StatusSet StatusesOf(const AllowedOutcome& o, const std::string& name) {
  if (!o.metadata || !o.metadata->new_snapshot) return {};
  for (const StatusExpectation& e : o.metadata->new_snapshot->statuses)
    if (e.name == name) return e.allowed;
  return {};
}
inline ConstraintStatus PreciseOf(const AllowedOutcome& o, const std::string& name) {
  for (const StatusExpectation& e : o.metadata->new_snapshot->statuses)
    if (e.name == name) return e.precise;
  return ConstraintStatus::kUnvalidated;
}

inline bool OnlyOk(const AllowedOutcome& o) { return o.ok_allowed && !o.reject_allowed; }
inline bool MustReject(const AllowedOutcome& o, RejectKind kind) {
  return !o.ok_allowed && o.reject_kinds.count(kind) > 0;
}
inline bool Decides(const AllowedOutcome& o, RuleId rule) {
  return Names(o.decided_by, rule);
}

/// Replaces the statuses of the current snapshot of `md` (for crafting answers).
inline void SetStatuses(TableMetadata& md, ConstraintStatuses statuses) {
  for (size_t i = 0; i < md.snapshots.size(); ++i)
    if (md.current_snapshot_id == md.snapshots[i].snapshot_id)
      md.snapshots.mutable_at(i).constraint_statuses = std::move(statuses);
}

}  // namespace ictk::ops_test
