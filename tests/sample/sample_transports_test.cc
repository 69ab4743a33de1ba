/// \file
/// One implementation, three transports: the sample answers the same scripted session
/// byte for byte alike in-process (builtin:sample), as the executable ictk-sample-adapter
/// over the exec transport, and as libictk_sample_adapter.so over the lib transport —
/// both through the harness's transports (adapters/) and driven directly (a pipe to the
/// executable, dlopen of the library), so that a fault in either layer shows.
#include <dlfcn.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "adapters/adapter.h"
#include "codec/json_text.h"
#include "ictk/adapter.h"
#include "tests/sample/script_util.h"

namespace ictk::sample_test {
namespace {

const char* kExe = ICTK_SAMPLE_EXE;
const char* kLib = ICTK_SAMPLE_LIB;

std::vector<std::string> Dumped(const std::vector<json>& responses) {
  std::vector<std::string> out;
  for (const json& r : responses) out.push_back(DumpJson(r));
  return out;
}

/// The completed requests of a script, with "$metadata" resolved from the builtin run
/// (the same on every transport when they agree).
std::vector<json> ResolvedRequests(const Script& script,
                                   const std::vector<json>& responses) {
  std::vector<json> requests = Requests(script);
  json metadata = json::object();
  for (size_t i = 0; i < requests.size(); ++i) {
    Substitute(requests[i], metadata);
    if (responses[i].contains("metadata")) metadata = responses[i]["metadata"];
  }
  return requests;
}

/// Runs the executable directly: every request on stdin, one answer per line.
std::vector<std::string> RunExecutableDirectly(const std::vector<json>& requests,
                                               const std::string& mutant) {
  const auto dir = std::filesystem::temp_directory_path();
  const auto input = dir / fmt::format("ictk-sample-{}-{}.jsonl", getpid(), mutant);
  {
    std::ofstream out(input);
    for (const json& r : requests) out << DumpJson(r) << "\n";
  }
  std::string command = fmt::format(
      "'{}'{} < '{}'", kExe, mutant.empty() ? "" : " --mutant " + mutant, input.string());
  FILE* pipe = popen(command.c_str(), "r");
  std::vector<std::string> lines;
  if (pipe == nullptr) return lines;
  std::string line;
  char buf[65536];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, pipe)) > 0) line.append(buf, n);
  pclose(pipe);
  std::filesystem::remove(input);
  size_t start = 0;
  for (size_t i = 0; i < line.size(); ++i) {
    if (line[i] == '\n') {
      lines.push_back(line.substr(start, i - start));
      start = i + 1;
    }
  }
  return lines;
}

/// Loads the shared library directly and calls it.
std::vector<std::string> RunLibraryDirectly(const std::vector<json>& requests,
                                            const std::string& mutant) {
  std::vector<std::string> lines;
  void* handle = dlopen(kLib, RTLD_NOW | RTLD_LOCAL);
  EXPECT_NE(handle, nullptr) << dlerror();
  if (handle == nullptr) return lines;
  auto init = reinterpret_cast<int (*)(IctkAdapter*)>(dlsym(handle, "ictk_adapter_init"));
  EXPECT_NE(init, nullptr);
  if (!mutant.empty()) setenv("ICTK_SAMPLE_MUTANT", mutant.c_str(), 1);
  IctkAdapter a{};
  const int rc = init(&a);
  unsetenv("ICTK_SAMPLE_MUTANT");
  EXPECT_EQ(rc, 0);
  EXPECT_EQ(a.abi_version, ICTK_ADAPTER_ABI_VERSION);
  for (const json& r : requests) {
    char* response = nullptr;
    EXPECT_EQ(a.call(&a, DumpJson(r).c_str(), &response), 0);
    lines.push_back(response != nullptr ? response : "");
    a.free_string(&a, response);
  }
  a.release(&a);
  EXPECT_EQ(a.release, nullptr);
  dlclose(handle);
  return lines;
}

class SampleTransports : public ::testing::TestWithParam<std::string> {};

TEST_P(SampleTransports, AnswerByteForByteAlike) {
  const std::string mutant = GetParam();
  const std::string query = mutant.empty() ? "" : "mutant=" + mutant;
  for (const Script& script :
       {EveryOp(), Script{Create(), AddPk("[1]"), Append({RowJson("r1", 1)}),
                          Append({RowJson("r2", 1)})}}) {
    const std::vector<json> builtin = RunSample(script, query);
    const std::vector<std::string> expected = Dumped(builtin);
    const std::vector<json> requests = ResolvedRequests(script, builtin);

    BuiltinFactories builtins{{"sample", MakeSampleAdapter}};
    AdapterOptions options;
    auto exec = MakeAdapter(
        fmt::format("exec:{}{}", kExe, mutant.empty() ? "" : " --mutant " + mutant),
        options, builtins);
    ASSERT_TRUE(exec.has_value()) << exec.error().message;
    EXPECT_EQ(Dumped(RunScript(**exec, script)), expected) << "exec transport";

    if (!mutant.empty()) setenv("ICTK_SAMPLE_MUTANT", mutant.c_str(), 1);
    auto lib = MakeAdapter(std::string("lib:") + kLib, options, builtins);
    ASSERT_TRUE(lib.has_value()) << lib.error().message;
    const auto lib_answers = Dumped(RunScript(**lib, script));
    unsetenv("ICTK_SAMPLE_MUTANT");
    EXPECT_EQ(lib_answers, expected) << "lib transport";

    auto named = MakeAdapter("builtin:sample" + (query.empty() ? "" : "?" + query),
                             options, builtins);
    ASSERT_TRUE(named.has_value());
    EXPECT_EQ(Dumped(RunScript(**named, script)), expected) << "builtin:sample spec";

    EXPECT_EQ(RunExecutableDirectly(requests, mutant), expected)
        << "executable via a pipe";
    EXPECT_EQ(RunLibraryDirectly(requests, mutant), expected) << "library via dlopen";
  }
}

INSTANTIATE_TEST_SUITE_P(CorrectAndMutants, SampleTransports,
                         ::testing::Values(std::string(),
                                           std::string("keys-only-among-added"),
                                           std::string("udf-check-keeps-valid")),
                         [](const auto& info) {
                           std::string n = info.param.empty() ? "correct" : info.param;
                           for (char& c : n)
                             if (c == '-') c = '_';
                           return n;
                         });

TEST(SampleExecutable, AnswersANonJsonLineAndRefusesAnUnknownMutant) {
  FILE* pipe = popen(fmt::format("echo 'not json' | '{}'", kExe).c_str(), "r");
  ASSERT_NE(pipe, nullptr);
  char buf[4096] = {0};
  size_t n = fread(buf, 1, sizeof buf - 1, pipe);
  pclose(pipe);
  json answer = json::parse(std::string(buf, n));
  EXPECT_TRUE(answer["id"].is_null());
  EXPECT_EQ(Outcome(answer), "invalid-request");
  const int rc = std::system(
      fmt::format("'{}' --mutant no-such-bug < /dev/null 2>/dev/null", kExe).c_str());
  EXPECT_NE(rc, 0);
}

TEST(SampleLibrary, ExportsOnlyTheInitSymbolAndRefusesAnUnknownMutant) {
  void* handle = dlopen(kLib, RTLD_NOW | RTLD_LOCAL);
  ASSERT_NE(handle, nullptr) << dlerror();
  EXPECT_EQ(dlsym(handle,
                  "_ZN4ictk17MakeSampleAdapterERKNSt7__cxx1112basic_stringIcSt11char_"
                  "traitsIcESaIcEEE"),
            nullptr);
  auto init = reinterpret_cast<int (*)(IctkAdapter*)>(dlsym(handle, "ictk_adapter_init"));
  ASSERT_NE(init, nullptr);
  setenv("ICTK_SAMPLE_MUTANT", "no-such-bug", 1);
  IctkAdapter a{};
  EXPECT_NE(init(&a), 0);
  unsetenv("ICTK_SAMPLE_MUTANT");
  dlclose(handle);
}

}  // namespace
}  // namespace ictk::sample_test
