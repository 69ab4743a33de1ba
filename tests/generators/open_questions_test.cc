// The requests the generators keep out (docs/protocol.md section 10, "Requests the
// generators keep out"): over random histories rendered on the model, no request asks a
// question whose answer the seed and docs/protocol.md leave open.
#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <optional>
#include <string>

#include "generators/history.h"
#include "tests/generators/model_walk_internal.h"
#include "generators/value_gen.h"
#include "model/judge/operations.h"

namespace ictk {
namespace {

/// Whether every integer literal of `e` is in the int range.
bool IntLiteralsOnly(const Expr& e) {
  for (const Value& v : e.values)
    if (v.kind == ValueKind::kLong && (v.as_long() > std::numeric_limits<int32_t>::max() ||
                                       v.as_long() < std::numeric_limits<int32_t>::min()))
      return false;
  for (const Expr& c : e.children)
    if (!IntLiteralsOnly(c)) return false;
  return true;
}

/// Whether every function `e` calls is a built-in the docs name (`bucket`, `year`, bare)
/// or a UDF of the history (named with `prefix`), or one no history defines.
bool CallsOnlyNamedFunctions(const Expr& e, const std::string& prefix) {
  if (e.op == ExprOp::kApply) {
    if (e.catalog || e.function.size() != 1) return false;
    const std::string& f = e.function.front();
    // A function no history defines (expr.deterministic) is named `..._undefined_fn`.
    const bool undefined = f.find("_undefined_fn") != std::string::npos;
    if (f != "bucket" && f != "year" && f.rfind(prefix, 0) != 0 && !undefined) return false;
  }
  for (const Expr& c : e.children)
    if (!CallsOnlyNamedFunctions(c, prefix)) return false;
  return true;
}

struct Seen {
  int udfs = 0, checks = 0, scans_of_a_snapshot = 0, begins_beside_another = 0;
};

void CheckStep(const CatalogState& state, const RenderedStep& step, Seen& seen) {
  const Request& r = step.request;
  auto table = state.tables.find(r.table);
  const TableState* t = table == state.tables.end() ? nullptr : &table->second;
  if (const auto* f = std::get_if<DefineFunction>(&r.op)) {
    ++seen.udfs;
    bool int_parameters = true;
    for (const auto& [name, type] : f->function.parameters)
      int_parameters = int_parameters && type.id == TypeId::kInt;
    if (int_parameters)
      EXPECT_TRUE(IntLiteralsOnly(f->function.body))
          << step.label << ": a literal outside the int range in " << f->function.body;
  } else if (const auto* a = std::get_if<AddConstraint>(&r.op)) {
    if (a->constraint.expression) {
      ++seen.checks;
      EXPECT_TRUE(CallsOnlyNamedFunctions(*a->constraint.expression, "t_"))
          << step.label << ": " << *a->constraint.expression;
    }
  } else if (const auto* s = std::get_if<Scan>(&r.op)) {
    if (s->snapshot_id && t) {
      ++seen.scans_of_a_snapshot;
      const TableMetadata& md = t->metadata;
      const Snapshot* snap = md.FindSnapshot(*s->snapshot_id);
      if (snap && md.current_snapshot_id == snap->snapshot_id)
        EXPECT_TRUE(!snap->schema_id || snap->schema_id == md.current_schema_id)
            << step.label << ": a scan of the current snapshot after a schema change";
    }
  } else if (const auto* b = std::get_if<Begin>(&r.op)) {
    ASSERT_TRUE(t);
    EXPECT_EQ(t->transactions.count(b->txn), 0u) << "begin of an open transaction";
    if (!t->transactions.empty()) ++seen.begins_beside_another;
  } else if (const auto* f = std::get_if<Finish>(&r.op)) {
    ASSERT_TRUE(t);
    auto it = t->transactions.find(f->txn);
    EXPECT_TRUE(it != t->transactions.end() && it->second.staged)
        << "finish of " << f->txn << " without a staged commit";
  }
}

TEST(KeptOut, NoGeneratedRequestAsksAQuestionTheDocsLeaveOpen) {
  HistoryGenConfig config;
  config.max_steps = 40;
  Seen seen;
  WalkOnTheModel(config, 200,
                 [&](uint64_t, const CatalogState& state, const RenderedStep& step,
                     const AllowedOutcome&) { CheckStep(state, step, seen); });
  // The checks above said something: each kind of request was sent.
  EXPECT_GT(seen.udfs, 0);
  EXPECT_GT(seen.checks, 0);
  EXPECT_GT(seen.scans_of_a_snapshot, 0);
  std::cout << "udfs " << seen.udfs << ", checks " << seen.checks << ", scans of a snapshot "
            << seen.scans_of_a_snapshot << ", begins beside an open transaction "
            << seen.begins_beside_another << "\n";
}

}  // namespace
}  // namespace ictk
