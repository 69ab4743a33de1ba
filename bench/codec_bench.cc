// Metadata decode throughput relative to a bare nlohmann parse of the same file, in the same
// run (issue target: ratio >= 0.5). "Decode" is the whole reader path of lint-metadata:
// ParseJsonText (text -> json, depth-checked) + TableMetadataFromJson (json -> model).
//
//   build/bin/ictk_codec_bench --benchmark_counters_tabular=true
//
// BM_BareParse is nlohmann::json::parse of the same bytes; the reported ratio is
// bare time / decode time (1.0 = as fast as the bare parse).
#include <fstream>
#include <sstream>
#include <string>

#include <benchmark/benchmark.h>
#include <nlohmann/json.hpp>

#include "codec/json_table_metadata.h"
#include "codec/json_text.h"

namespace {

/// The largest bundled real metadata files (several snapshots, schemas, statistics), plus the
/// hand-written v4 file with constraints and statuses.
const char* kFiles[] = {
    "iceberg-real/metadata/valid/apache-iceberg__TableMetadataV2Valid.json",
    "iceberg-real/metadata/valid/apache-iceberg__TableMetadataStatisticsFiles.json",
    "lint/v4-constraints-clean.json",
};

std::string Read(const std::string& name) {
  std::ifstream in(std::string(ICTK_TEST_DATA_DIR) + "/" + name, std::ios::binary);
  std::ostringstream buf;
  buf << in.rdbuf();
  return buf.str();
}

void BM_BareParse(benchmark::State& state) {
  std::string text = Read(kFiles[state.range(0)]);
  if (text.empty()) {
    state.SkipWithError("missing data file");
    return;
  }
  for (auto _ : state) {
    auto j = nlohmann::json::parse(text);
    benchmark::DoNotOptimize(j);
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * text.size()));
  state.SetLabel(kFiles[state.range(0)]);
}

void BM_Decode(benchmark::State& state) {
  std::string text = Read(kFiles[state.range(0)]);
  if (text.empty()) {
    state.SkipWithError("missing data file");
    return;
  }
  for (auto _ : state) {
    auto j = ictk::ParseJsonText(text, "bench");
    auto m = ictk::TableMetadataFromJson(*j);
    if (!m) state.SkipWithError(m.error().message.c_str());
    benchmark::DoNotOptimize(m);
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * text.size()));
  state.SetLabel(kFiles[state.range(0)]);
}

BENCHMARK(BM_BareParse)->DenseRange(0, 2);
BENCHMARK(BM_Decode)->DenseRange(0, 2);

}  // namespace

BENCHMARK_MAIN();
