// Histories per second and requests per second of `ictk certify`'s inner loop (generate a
// plan, render it against the adopted state, judge every answer), against
// builtin:reference, builtin:sample and the exec sample adapter; the share of time spent
// inside the adapter is reported as the counter `adapter_share`, and the wall-clock cost of
// one request as `us_per_request`. The argument is the plan's `max_steps` (20, the default
// of `ictk certify`, and 400: a long history); scripts/bench_ratios.py prints the cost per
// request at 400 steps against 20 (issue 15: within 1.5x) and the harness share at 20
// steps against the exec sample (target <= 20%). Figures go into docs/performance.md.
#include <benchmark/benchmark.h>

#include <chrono>
#include <memory>
#include <string>

#include "adapters/adapter.h"
#include "adapters/reference_adapter.h"
#include "generators/history.h"
#include "properties/runner.h"
#include "sample/sample_adapter.h"

namespace ictk {
namespace {

/// The 400-step benchmarks run this many histories, always the same ones (cases 0 to 11,
/// as `ictk certify --histories 12` does), so that every variant and every build is
/// measured on the same requests: a time-based count would run other histories.
constexpr int kLongHistories = 12;

/// A session as `ictk certify` opens it: offering metadata-delta answers unless `whole`
/// (`--no-metadata-delta`).
std::unique_ptr<AdapterSession> Open(std::unique_ptr<Adapter> adapter, bool whole = false) {
  auto session = std::make_unique<AdapterSession>(std::move(adapter));
  if (!session->Handshake(/*offer_metadata_delta=*/!whole)) return nullptr;
  return session;
}

void RunCases(benchmark::State& state, AdapterSession& session) {
  CertifyOptions options;
  options.gen.max_steps = static_cast<int>(state.range(0));
  options.shrink = false;
  int64_t index = 0;
  int64_t requests = 0;
  const int64_t adapter_before = session.adapter_micros();
  const auto start = std::chrono::steady_clock::now();
  for (auto _ : state) {
    CaseResult r = CertifyCase(session, index++, options);
    requests += r.record.steps;
    benchmark::DoNotOptimize(r);
  }
  const double wall_us =
      std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - start)
          .count();
  state.counters["histories_per_s"] =
      benchmark::Counter(static_cast<double>(index), benchmark::Counter::kIsRate);
  state.counters["requests_per_s"] =
      benchmark::Counter(static_cast<double>(requests), benchmark::Counter::kIsRate);
  state.counters["steps_per_history"] =
      index > 0 ? static_cast<double>(requests) / static_cast<double>(index) : 0;
  if (requests > 0) state.counters["us_per_request"] = wall_us / static_cast<double>(requests);
  if (wall_us > 0)
    state.counters["adapter_share"] =
        static_cast<double>(session.adapter_micros() - adapter_before) / wall_us;
}

void BM_CertifyReference(benchmark::State& state) {
  auto session = Open(MakeReferenceAdapter());
  if (!session) return state.SkipWithError("reference adapter did not answer hello");
  RunCases(state, *session);
}
BENCHMARK(BM_CertifyReference)->Arg(20)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_CertifyReference)->Arg(400)->Iterations(kLongHistories)->Unit(benchmark::kMillisecond);

// The same with every answer carrying the whole metadata (`--no-metadata-delta`).
void BM_CertifyReferenceWhole(benchmark::State& state) {
  auto session = Open(MakeReferenceAdapter(), /*whole=*/true);
  if (!session) return state.SkipWithError("reference adapter did not answer hello");
  RunCases(state, *session);
}
BENCHMARK(BM_CertifyReferenceWhole)->Arg(20)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_CertifyReferenceWhole)->Arg(400)->Iterations(kLongHistories)->Unit(benchmark::kMillisecond);

void BM_CertifySample(benchmark::State& state) {
  Result<std::unique_ptr<Adapter>> adapter = MakeSampleAdapter("");
  if (!adapter) return state.SkipWithError("no sample adapter");
  auto session = Open(std::move(*adapter));
  if (!session) return state.SkipWithError("sample adapter did not answer hello");
  RunCases(state, *session);
}
BENCHMARK(BM_CertifySample)->Arg(20)->Unit(benchmark::kMillisecond);

void CertifyExecSample(benchmark::State& state, bool whole) {
  Result<std::unique_ptr<Adapter>> adapter =
      MakeAdapter(std::string("exec:") + ICTK_BIN_DIR + "/ictk-sample-adapter",
                  AdapterOptions{}, BuiltinFactories{});
  if (!adapter)
    return state.SkipWithError("no exec sample adapter (build ictk-sample-adapter)");
  auto session = Open(std::move(*adapter), whole);
  if (!session) return state.SkipWithError("exec sample adapter did not answer hello");
  RunCases(state, *session);
}
void BM_CertifyExecSample(benchmark::State& state) { CertifyExecSample(state, false); }
BENCHMARK(BM_CertifyExecSample)->Arg(20)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_CertifyExecSample)->Arg(400)->Iterations(kLongHistories)->Unit(benchmark::kMillisecond);
void BM_CertifyExecSampleWhole(benchmark::State& state) { CertifyExecSample(state, true); }
BENCHMARK(BM_CertifyExecSampleWhole)->Arg(20)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_CertifyExecSampleWhole)->Arg(400)->Iterations(kLongHistories)->Unit(benchmark::kMillisecond);

// Generation and rendering alone (the model answers), without any adapter.
void BM_RenderHistory(benchmark::State& state) {
  HistoryGenConfig config;
  int64_t index = 0, requests = 0;
  for (auto _ : state) {
    const Plan plan = CasePlan(1, index, config).value();
    RenderOptions options = CaseRenderOptions(1, index, 0, config.capabilities, {});
    const History h = RenderHistory(plan, options);
    requests += static_cast<int64_t>(h.steps.size());
    ++index;
  }
  state.counters["requests_per_s"] =
      benchmark::Counter(static_cast<double>(requests), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_RenderHistory)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace ictk

BENCHMARK_MAIN();
