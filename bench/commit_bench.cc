/// \file
/// How the model's commit cost scales (ARCHITECTURE.md: "a commit costs time in the rows
/// it touches, not in the table's size"). A table with an enforced primary key, an
/// enforced unique constraint and an enforced check holds n live rows; a commit appends k
/// rows.
///   BM_CommitApply/n/k   Apply: the allowed outcome of the commit (every added row
///   checked
///                        against the three constraints and the remaining rows).
///   BM_CommitAdopt/n/k   Apply + CanonicalAnswer + Adopt (the reference adapter's path);
///                        the rows are removed again outside the timed region.
/// Counters: rows_per_second and row_checks_per_second (3 constraints per row), and
/// bytes_per_row (heap in use per live row, measured with mallinfo2 while building the
/// table). After the run, the ratio t(n=1e6)/t(n=1e3) of CPU time per commit is printed
/// for each k: near 1 when the cost does not grow with the table (cache misses in larger
/// hash tables account for what remains).
#include <benchmark/benchmark.h>
#include <fmt/format.h>
#include <malloc.h>

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "model/judge/operations.h"

namespace ictk {
namespace {

constexpr int64_t kSizes[] = {1'000, 10'000, 100'000, 1'000'000};
constexpr int64_t kBatches[] = {10, 100, 1'000};

NestedField Col(FieldId id, std::string name, bool required, TypeId type) {
  NestedField f;
  f.id = id;
  f.name = std::move(name);
  f.required = required;
  f.type = Type::Primitive(type);
  return f;
}

Row MakeRow(std::string key, int64_t id) {
  return Row{
      std::move(key),
      Value::Struct({1, 2, 3}, {Value::Long(id), Value::Long(id % 100 + 1),
                                Value::String(fmt::format("user{}@example.com", id))})};
}

/// A reference-implementation step: Apply, CanonicalAnswer, Adopt.
void Run(CatalogState& state, const Request& r, const Switches& sw) {
  const AllowedOutcome o = Apply(state, r, sw);
  const Answer a = CanonicalAnswer(state, r, o, sw);
  Adopt(state, r, a, sw);
}

struct Fixture {
  CatalogState state;
  Switches switches;
  int64_t now = 1;
  double bytes_per_row = 0;
};

Request Req(Fixture& f, Operation op) {
  return Request{"orders", f.now++, std::move(op)};
}

/// The table of `n` rows, built once per n (appended 50,000 rows a commit).
Fixture& TableOf(int64_t n) {
  static std::map<int64_t, std::unique_ptr<Fixture>> cache;
  auto it = cache.find(n);
  if (it != cache.end()) return *it->second;
  const size_t heap_before = mallinfo2().uordblks;
  auto f = std::make_unique<Fixture>();
  Schema schema;
  schema.schema_id = 0;
  schema.fields = {Col(1, "order_id", true, TypeId::kLong),
                   Col(2, "qty", false, TypeId::kInt),
                   Col(3, "email", false, TypeId::kString)};
  Run(f->state, Req(*f, CreateTable{4, schema}), f->switches);
  Constraint pk;
  pk.type = ConstraintType::kPrimaryKey;
  pk.raw_type = "primary-key";
  pk.name = "pk";
  pk.enforced = true;
  pk.field_ids = std::vector<FieldId>{1};
  Run(f->state, Req(*f, AddConstraint{pk}), f->switches);
  Constraint unique = pk;
  unique.type = ConstraintType::kUnique;
  unique.raw_type = "unique";
  unique.name = "email_unique";
  unique.field_ids = std::vector<FieldId>{3};
  Run(f->state, Req(*f, AddConstraint{unique}), f->switches);
  Constraint check;
  check.type = ConstraintType::kCheck;
  check.raw_type = "check";
  check.name = "qty_positive";
  check.enforced = true;
  check.expression = Expr::Binary(
      ExprOp::kOr, Expr::Binary(ExprOp::kGt, Expr::Ref(2), Expr::Lit(Value::Long(0))),
      Expr::Unary(ExprOp::kIsNull, Expr::Ref(2)));
  Run(f->state, Req(*f, AddConstraint{check}), f->switches);
  constexpr int64_t kChunk = 50'000;
  for (int64_t start = 0; start < n; start += kChunk) {
    Commit c;
    c.operation = CommitOperation::kAppend;
    for (int64_t i = start; i < std::min(n, start + kChunk); ++i)
      c.add.push_back(MakeRow(fmt::format("r{}", i), i));
    Run(f->state, Req(*f, std::move(c)), f->switches);
  }
  const size_t heap_after = mallinfo2().uordblks;
  f->bytes_per_row =
      static_cast<double>(heap_after - heap_before) / static_cast<double>(n);
  if (f->state.tables.at("orders").rows.size() != static_cast<size_t>(n)) {
    fmt::print(stderr, "table of {} rows was not built\n", n);
  }
  return *cache.emplace(n, std::move(f)).first->second;
}

Commit Batch(int64_t n, int64_t k, int64_t round) {
  Commit c;
  c.operation = CommitOperation::kAppend;
  const int64_t base = n + round * k;
  for (int64_t j = 0; j < k; ++j)
    c.add.push_back(MakeRow(fmt::format("n{}", base + j), base + j));
  return c;
}

void SetCounters(benchmark::State& state, const Fixture& f, int64_t k) {
  state.SetItemsProcessed(state.iterations() * k);
  state.counters["rows_per_second"] = benchmark::Counter(
      static_cast<double>(k), benchmark::Counter::kIsIterationInvariantRate);
  state.counters["row_checks_per_second"] = benchmark::Counter(
      static_cast<double>(3 * k), benchmark::Counter::kIsIterationInvariantRate);
  state.counters["bytes_per_row"] = f.bytes_per_row;
}

void BM_CommitApply(benchmark::State& state) {
  const int64_t n = state.range(0), k = state.range(1);
  Fixture& f = TableOf(n);
  const Request r = Req(f, Batch(n, k, 0));
  for (auto _ : state) {
    AllowedOutcome o = Apply(f.state, r, f.switches);
    if (!o.ok_allowed) state.SkipWithError("the commit was not allowed");
    benchmark::DoNotOptimize(o);
  }
  SetCounters(state, f, k);
}

void BM_CommitAdopt(benchmark::State& state) {
  const int64_t n = state.range(0), k = state.range(1);
  Fixture& f = TableOf(n);
  TableState& table = f.state.tables.at("orders");
  int64_t round = 0;
  for (auto _ : state) {
    const Commit batch = Batch(n, k, round++);
    const Request r = Req(f, batch);
    Run(f.state, r, f.switches);
    state.PauseTiming();
    // Remove the rows again and forget the two snapshots, so that every round sees a
    // table of n rows and metadata of the same size.
    Commit undo;
    undo.operation = CommitOperation::kDelete;
    for (const Row& row : batch.add) undo.remove.push_back(row.key);
    Run(f.state, Req(f, std::move(undo)), f.switches);
    auto& snaps = table.metadata.snapshots;
    if (snaps.size() > 4) snaps.erase(snaps.begin(), snaps.end() - 2);
    snaps.mutable_at(0).parent_snapshot_id.reset();
    if (table.history.size() > 4)
      table.history.erase(table.history.begin(), table.history.end() - 2);
    state.ResumeTiming();
  }
  SetCounters(state, f, k);
}

void Args(benchmark::internal::Benchmark* b) {
  for (int64_t k : kBatches)
    for (int64_t n : kSizes) b->Args({n, k});
  b->Unit(benchmark::kMicrosecond);
}

BENCHMARK(BM_CommitApply)->Apply(Args);
BENCHMARK(BM_CommitAdopt)->Apply(Args);

/// Prints as the console does and keeps each run's time per iteration by name.
class RatioReporter : public benchmark::ConsoleReporter {
 public:
  void ReportRuns(const std::vector<Run>& runs) override {
    ConsoleReporter::ReportRuns(runs);
    for (const Run& run : runs)
      if (run.run_type == Run::RT_Iteration)
        times_[run.benchmark_name()] = run.GetAdjustedCPUTime();
  }
  void PrintRatios() const {
    // CPU time: the model is single-threaded, and CPU time is what a loaded machine does
    // not distort.
    fmt::print("\nscaling with table size (CPU time per commit, n=1e6 against n=1e3):\n");
    for (const char* name : {"BM_CommitApply", "BM_CommitAdopt"}) {
      for (int64_t k : kBatches) {
        auto small = times_.find(fmt::format("{}/{}/{}", name, kSizes[0], k));
        auto large = times_.find(fmt::format("{}/{}/{}", name, kSizes[3], k));
        if (small == times_.end() || large == times_.end() || small->second <= 0)
          continue;
        fmt::print("  {} k={:<5} t(1e6)/t(1e3) = {:.2f}\n", name, k,
                   large->second / small->second);
      }
    }
  }

 private:
  std::map<std::string, double> times_;
};

}  // namespace
}  // namespace ictk

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  ictk::RatioReporter reporter;
  benchmark::RunSpecifiedBenchmarks(&reporter);
  reporter.PrintRatios();
  benchmark::Shutdown();
  return 0;
}
