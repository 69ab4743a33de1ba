/// \file
/// Replays every input kept under tests/regressions/<target>/ (inputs that once crashed a
/// fuzz target, or broke one of its invariants) through the fuzz target's entry function
/// (fuzz/fuzz_entries.h), in the ordinary build: a fixed bug stays fixed without clang.
/// docs/robustness.md explains how an input gets here.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iterator>
#include <map>
#include <string>
#include <vector>

#include "fuzz/fuzz_entries.h"

namespace ictk {
namespace {

namespace fs = std::filesystem;
using Entry = std::function<int(const uint8_t*, size_t)>;

const std::map<std::string, Entry>& Entries() {
  static const std::map<std::string, Entry> entries = {
      {"table_metadata", fuzz::FuzzTableMetadata},
      {"schema", fuzz::FuzzSchema},
      {"expression", fuzz::FuzzExpression},
      {"value", fuzz::FuzzValue},
      {"protocol_response", fuzz::FuzzProtocolResponse},
      {"fixture", fuzz::FuzzFixture},
      {"hello", fuzz::FuzzHello},
      {"expectation_file", fuzz::FuzzExpectationFile},
      {"report", fuzz::FuzzReport},
      {"spec_text", fuzz::FuzzSpecText},
      {"metadata_delta", fuzz::FuzzMetadataDelta},
  };
  return entries;
}

const fs::path kRegressions = fs::path(ICTK_SOURCE_DIR) / "tests" / "regressions";

std::vector<fs::path> InputsOf(const std::string& target) {
  std::vector<fs::path> inputs;
  const fs::path dir = kRegressions / target;
  if (!fs::is_directory(dir)) return inputs;
  for (const auto& entry : fs::directory_iterator(dir))
    if (entry.is_regular_file() && entry.path().filename().string()[0] != '.')
      inputs.push_back(entry.path());
  std::sort(inputs.begin(), inputs.end());
  return inputs;
}

std::string ReadBytes(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in),
                     std::istreambuf_iterator<char>());
}

// Every folder under tests/regressions/ is a fuzz target: a misspelt folder would
// otherwise keep its inputs out of the replay.
TEST(RegressionReplay, EveryFolderIsAFuzzTarget) {
  for (const auto& entry : fs::directory_iterator(kRegressions)) {
    if (!entry.is_directory()) continue;
    EXPECT_TRUE(Entries().count(entry.path().filename().string()) == 1)
        << entry.path() << " is not a fuzz target of fuzz/fuzz_entries.h";
  }
}

// Each kept input runs to the end (a crash or broken invariant aborts the test binary,
// which ctest reports as a failure naming this test).
TEST(RegressionReplay, KeptInputsRunCleanly) {
  size_t replayed = 0;
  for (const auto& [target, entry] : Entries()) {
    for (const fs::path& input : InputsOf(target)) {
      SCOPED_TRACE(input.string());
      const std::string bytes = ReadBytes(input);
      EXPECT_EQ(entry(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size()), 0);
      ++replayed;
    }
  }
  RecordProperty("replayed", static_cast<int>(replayed));
}

// The entry functions accept what the fuzzers start from: each seed kind decodes, so the
// replay exercises the decoders and not only the JSON text parser.
TEST(RegressionReplay, EntriesDecodeTheirSeeds) {
  const fs::path data(ICTK_TEST_DATA_DIR);
  struct Seed {
    std::string target;
    fs::path file;
  };
  const std::vector<Seed> seeds = {
      {"table_metadata", data / "lint" / "v4-constraints-clean.json"},
      {"value", fs::path(ICTK_SOURCE_DIR) / "fuzz" / "seeds" / "value" / "v19.json"},
      {"fixture",
       fs::path(ICTK_SOURCE_DIR) / "fuzz" / "seeds" / "fixture" / "short.json"},
      {"hello", fs::path(ICTK_SOURCE_DIR) / "fuzz" / "seeds" / "hello" / "reader.json"},
      {"expectation_file",
       fs::path(ICTK_SOURCE_DIR) / "fuzz" / "seeds" / "expectation_file" / "entries.txt"},
      {"report", fs::path(ICTK_SOURCE_DIR) / "fuzz" / "seeds" / "report" / "small.jsonl"},
      {"spec_text", data / "review" / "spec.diff"},
  };
  for (const Seed& seed : seeds) {
    const std::string bytes = ReadBytes(seed.file);
    ASSERT_FALSE(bytes.empty()) << seed.file;
    EXPECT_EQ(Entries().at(seed.target)(reinterpret_cast<const uint8_t*>(bytes.data()),
                                        bytes.size()),
              0);
  }
  // Hostile shapes the fuzzers found cheap to reach: each must come back as an error.
  for (const std::string& text :
       {std::string(100000, '['), std::string("{\"format-version\": 4"),
        std::string("\xff\xfe{}"), std::string("[1e400]")}) {
    for (const auto& [target, entry] : Entries())
      EXPECT_EQ(entry(reinterpret_cast<const uint8_t*>(text.data()), text.size()), 0)
          << target;
  }
}

// Found by the `fixture` target (tests/regressions/fixture/nul-then-fixture-hashed-as-
// number.json): nlohmann ends the input at a NUL byte, so "5\0{...}" parsed as 5 and the
// rest was ignored. ParseJsonText now refuses any NUL byte, naming its position.
TEST(RegressionReplay, NulByteIsAParseErrorAtItsPosition) {
  const std::string text("{\"a\": 1}\n\0{\"b\": 2}", 18);
  Result<nlohmann::json> j = ParseJsonText(text, "input");
  ASSERT_FALSE(j.has_value()) << j->dump();
  EXPECT_EQ(j.error().kind, ErrorKind::kParse);
  EXPECT_NE(j.error().message.find("input:2:1: a NUL byte"), std::string::npos)
      << j.error().message;
  EXPECT_FALSE(ParseJsonText(std::string("5\0", 2), "input").has_value());
}

}  // namespace
}  // namespace ictk
