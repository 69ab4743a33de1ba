// Round trips per second of the same scripted session over each transport, side by side with
// a bare pipe echo of the same bytes, in one run (issue 4 targets: exec within 2x of the bare
// echo; lib within 1.5x of builtin).
//
//   build/bin/ictk_adapter_bench
//
// The session: create a v4 table with a primary key, then appends of one row each and a
// load-table, repeated; each benchmark iteration is one request and its response. The
// sample implementation answers over every transport (builtin:sample, lib: its .so, exec: its
// executable); the echo is `cat` behind the exec transport's pipes, fed the same lines.
#include <string>
#include <vector>

#include <benchmark/benchmark.h>
#include <nlohmann/json.hpp>

#include "adapters/adapter.h"
#include "sample/sample_adapter.h"

namespace {

std::vector<nlohmann::json> Session(int rows) {
  std::vector<nlohmann::json> s;
  s.push_back({{"op", "hello"}, {"protocol-version", 1}});
  s.push_back(nlohmann::json::parse(R"({"op":"create-table","table":"t","now-ms":1000,
    "format-version":4,"schema":{"type":"struct","schema-id":0,"fields":[
    {"id":1,"name":"id","required":true,"type":"long"},
    {"id":2,"name":"v","required":false,"type":"string"}]}})"));
  s.push_back(nlohmann::json::parse(R"({"op":"add-constraint","table":"t","now-ms":1001,
    "constraint":{"type":"primary-key","name":"pk","enforced":true,"field-ids":[1]}})"));
  for (int i = 0; i < rows; ++i) {
    s.push_back({{"op", "commit"}, {"table", "t"}, {"now-ms", 2000 + i},
                 {"operation", "append"},
                 {"add", {{{"key", "r" + std::to_string(i)},
                           {"values", {{"1", i}, {"2", "x"}}}}}}});
  }
  return s;
}

void RunSession(benchmark::State& state, const std::string& spec, bool echo = false) {
  ictk::BuiltinFactories builtins;
  builtins["sample"] = [](const std::string& q) { return ictk::MakeSampleAdapter(q); };
  ictk::AdapterOptions options;
  const auto session = Session(50);
  int64_t calls = 0;
  for (auto _ : state) {
    state.PauseTiming();
    auto adapter = ictk::MakeAdapter(spec, options, builtins);
    if (!adapter) {
      state.SkipWithError(adapter.error().message.c_str());
      return;
    }
    state.ResumeTiming();
    int64_t id = 0;
    for (auto request : session) {
      request["id"] = ++id;
      if (echo) request["result"] = "ok";  // so the echoed line passes as a response
      auto r = (*adapter)->Call(request);
      if (!r) {
        state.SkipWithError(r.error().message.c_str());
        return;
      }
      benchmark::DoNotOptimize(r);
      ++calls;
    }
    state.PauseTiming();
    adapter->reset();
    state.ResumeTiming();
  }
  state.counters["round_trips_per_s"] =
      benchmark::Counter(static_cast<double>(calls), benchmark::Counter::kIsRate);
}

void BM_Builtin(benchmark::State& state) { RunSession(state, "builtin:sample"); }
void BM_Lib(benchmark::State& state) {
  RunSession(state, std::string("lib:") + ICTK_LIB_DIR + "/libictk_sample_adapter.so");
}
void BM_Exec(benchmark::State& state) {
  RunSession(state, std::string("exec:") + ICTK_BIN_DIR + "/ictk-sample-adapter");
}

/// The bare echo: the same request lines through `cat` over the exec transport's pipes. Each
/// request also carries `"result": "ok"`, so the echoed line (with the right id) passes the
/// transport's response checks.
void BM_BareEcho(benchmark::State& state) { RunSession(state, "exec:cat", true); }

BENCHMARK(BM_Builtin)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Lib)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Exec)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_BareEcho)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
