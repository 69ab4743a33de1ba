/// \file
/// Resource limits of the exec transport (docs/robustness.md): `max_memory_mb`
/// (`--max-memory`) stops an adapter that leaks memory, and says so in the crash it
/// reports; `timeout_ms` (`--timeout-ms`) stops one that hangs, however many children it
/// forked; and no process an adapter started outlives the adapter. The hostile adapters
/// are small Python scripts written to a temporary folder by each test.
#include <gtest/gtest.h>
#include <sys/resource.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "adapters/adapter.h"
#include "tests/adapters/adapter_test_support_internal.h"

namespace ictk {
namespace {

namespace fs = std::filesystem;
using testing_support::Python;
using testing_support::ShellQuote;
using testing_support::StillRunning;
using Clock = std::chrono::steady_clock;

/// Answers hello like every test adapter; then runs `body` (Python, with the request in
/// `q`) for the first other request.
const char* const kPrelude =
    "import json, os, sys, time\n"
    "def answer(obj):\n"
    "    sys.stdout.write(json.dumps(obj) + '\\n')\n"
    "    sys.stdout.flush()\n"
    "for line in sys.stdin:\n"
    "    q = json.loads(line)\n"
    "    if q.get('op') == 'hello':\n"
    "        answer({'id': q['id'], 'result': 'ok', 'protocol-version': 1,\n"
    "                'implementation': {'name': 'limits', 'version': '0',\n"
    "                                   'language': 'python'},\n"
    "                'format-versions': [4], 'capabilities': []})\n"
    "        continue\n";

class LimitsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    char tmpl[] = "/tmp/ictk-limits-XXXXXX";
    ASSERT_NE(::mkdtemp(tmpl), nullptr);
    dir_ = tmpl;
  }
  void TearDown() override {
    std::error_code ec;
    fs::remove_all(dir_, ec);
  }
  /// An exec: adapter running the prelude and then `body` (indented by 4).
  std::unique_ptr<Adapter> Make(const std::string& name, const std::string& body,
                                AdapterOptions options) {
    const fs::path script = dir_ / (name + ".py");
    std::ofstream(script) << kPrelude << body;
    auto adapter = MakeAdapter(
        "exec:" + ShellQuote(Python()) + " " + ShellQuote(script.string()), options, {});
    EXPECT_TRUE(adapter.has_value());
    return adapter ? std::move(*adapter) : nullptr;
  }
  static nlohmann::json Hello() { return {{"id", 0}, {"op", "hello"}}; }
  static nlohmann::json Load() {
    return {{"id", 1}, {"op", "load-table"}, {"table", "t"}};
  }
  /// The pids an adapter wrote to its stderr as "pid N" lines.
  static std::vector<int> PidsIn(const std::string& tail) {
    std::vector<int> pids;
    std::regex re(R"(pid (\d+))");
    for (std::sregex_iterator it(tail.begin(), tail.end(), re), end; it != end; ++it)
      pids.push_back(std::stoi((*it)[1]));
    return pids;
  }
  fs::path dir_;
};

// A leak under --max-memory ends as a crash that names the limit, long before the
// timeout, and the harness's own memory is untouched.
TEST_F(LimitsTest, MemoryLeakIsStoppedByMaxMemoryAndReportedAsACrash) {
  AdapterOptions options;
  options.timeout_ms = 60000;
  options.max_memory_mb = 256;
  auto adapter = Make("leak",
                      "    hoard = []\n"
                      "    while True:\n"
                      "        hoard.append(bytearray(1 << 20))\n",
                      options);
  ASSERT_NE(adapter, nullptr);
  ASSERT_TRUE(adapter->Call(Hello()).has_value()) << adapter->StderrTail();
  rusage before{};
  ::getrusage(RUSAGE_SELF, &before);
  const auto start = Clock::now();
  Result<nlohmann::json> r = adapter->Call(Load());
  const auto took =
      std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - start).count();
  ASSERT_FALSE(r.has_value());
  EXPECT_EQ(TransportFailureOf(r.error()), TransportFailure::kCrash) << r.error().message;
  EXPECT_NE(r.error().message.find("--max-memory 256 MiB"), std::string::npos)
      << r.error().message;
  EXPECT_NE(adapter->StderrTail().find("MemoryError"), std::string::npos)
      << adapter->StderrTail();
  EXPECT_LT(took, 30000);
  rusage after{};
  ::getrusage(RUSAGE_SELF, &after);
  EXPECT_LT(after.ru_maxrss - before.ru_maxrss, 64L << 10) << "KiB";
  // The next call starts a fresh process under the same limit.
  EXPECT_TRUE(adapter->Call(Hello()).has_value()) << adapter->StderrTail();
}

// The limit holds for what the adapter starts too (rlimits are inherited).
TEST_F(LimitsTest, MaxMemoryCoversTheAdaptersChildren) {
  AdapterOptions options;
  options.timeout_ms = 60000;
  options.max_memory_mb = 256;
  auto adapter =
      Make("child-leak",
           "    import subprocess\n"
           "    r = subprocess.run([sys.executable, '-c', 'b = bytearray(1 << 30)'],\n"
           "                       stderr=subprocess.PIPE)\n"
           "    answer({'id': q['id'], 'result': 'error',\n"
           "            'message': 'child exit %d' % r.returncode})\n",
           options);
  ASSERT_NE(adapter, nullptr);
  ASSERT_TRUE(adapter->Call(Hello()).has_value()) << adapter->StderrTail();
  Result<nlohmann::json> r = adapter->Call(Load());
  ASSERT_TRUE(r.has_value()) << r.error().message << adapter->StderrTail();
  EXPECT_EQ((*r)["message"], "child exit 1") << r->dump();
}

// Without a limit nothing is set: the same child allocation succeeds.
TEST_F(LimitsTest, NoMaxMemoryMeansNoLimit) {
  AdapterOptions options;
  options.timeout_ms = 60000;
  auto adapter =
      Make("child-alloc",
           "    import subprocess\n"
           "    r = subprocess.run([sys.executable, '-c',\n"
           "                        'import resource; print(resource.getrlimit("
           "resource.RLIMIT_AS)[0])'], stdout=subprocess.PIPE)\n"
           "    answer({'id': q['id'], 'result': 'error',\n"
           "            'message': r.stdout.decode().strip()})\n",
           options);
  ASSERT_NE(adapter, nullptr);
  ASSERT_TRUE(adapter->Call(Hello()).has_value());
  Result<nlohmann::json> r = adapter->Call(Load());
  ASSERT_TRUE(r.has_value()) << r.error().message;
  rlimit own{};
  ::getrlimit(RLIMIT_AS, &own);
  EXPECT_EQ((*r)["message"], own.rlim_cur == RLIM_INFINITY
                                 ? std::to_string(-1)
                                 : std::to_string(own.rlim_cur));
}

// An adapter that forks many children (each with a grandchild) and hangs is stopped at
// --timeout-ms, reported as a timeout, and none of its processes survives.
TEST_F(LimitsTest, ForkingAdapterIsStoppedAtTheTimeoutWithAllItsProcesses) {
  AdapterOptions options;
  options.timeout_ms = 1500;
  auto adapter = Make("forker",
                      "    for i in range(20):\n"
                      "        if os.fork() == 0:\n"
                      "            if os.fork() == 0:\n"
                      "                sys.stderr.write('pid %d\\n' % os.getpid())\n"
                      "                sys.stderr.flush()\n"
                      "                time.sleep(1000)\n"
                      "                os._exit(0)\n"
                      "            sys.stderr.write('pid %d\\n' % os.getpid())\n"
                      "            sys.stderr.flush()\n"
                      "            time.sleep(1000)\n"
                      "            os._exit(0)\n"
                      "    time.sleep(1000)\n",
                      options);
  ASSERT_NE(adapter, nullptr);
  ASSERT_TRUE(adapter->Call(Hello()).has_value());
  const auto start = Clock::now();
  Result<nlohmann::json> r = adapter->Call(Load());
  const auto took =
      std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - start).count();
  ASSERT_FALSE(r.has_value());
  EXPECT_EQ(TransportFailureOf(r.error()), TransportFailure::kTimeout)
      << r.error().message;
  EXPECT_GE(took, 1400);
  EXPECT_LT(took, 10000);
  const std::vector<int> pids = PidsIn(adapter->StderrTail());
  EXPECT_EQ(pids.size(), 40u) << adapter->StderrTail();
  for (int pid : pids)
    EXPECT_FALSE(StillRunning(pid)) << "process " << pid << " survived";
}

// The adapter's processes end with the adapter object too (end of a run), even when the
// adapter answered everything and only its children hang on.
TEST_F(LimitsTest, DestroyingTheAdapterEndsEveryProcessItStarted) {
  AdapterOptions options;
  options.timeout_ms = 5000;
  std::vector<int> pids;
  {
    auto adapter =
        Make("background",
             "    if os.fork() == 0:\n"
             "        sys.stderr.write('pid %d\\n' % os.getpid())\n"
             "        sys.stderr.flush()\n"
             "        os.close(0)\n"
             "        time.sleep(1000)\n"
             "        os._exit(0)\n"
             "    time.sleep(0.2)\n"
             "    answer({'id': q['id'], 'result': 'error', 'message': 'x'})\n",
             options);
    ASSERT_NE(adapter, nullptr);
    ASSERT_TRUE(adapter->Call(Hello()).has_value());
    ASSERT_TRUE(adapter->Call(Load()).has_value());
    pids = PidsIn(adapter->StderrTail());
    ASSERT_EQ(pids.size(), 1u) << adapter->StderrTail();
    EXPECT_TRUE(StillRunning(pids[0], 0));
  }
  for (int pid : pids)
    EXPECT_FALSE(StillRunning(pid)) << "process " << pid << " survived";
}

// An adapter that forks a child holding its stdout and stderr and then exits is a crash
// naming its exit status as soon as it exits (the transport watches the process, not only
// its pipes), and the child ends with it.
TEST_F(LimitsTest, AdapterThatExitsWhileItsChildHoldsItsOutputIsACrashAtOnce) {
  AdapterOptions options;
  options.timeout_ms = 10000;
  auto adapter = Make("fork-exit",
                      "    if os.fork() == 0:\n"
                      "        sys.stderr.write('pid %d\\n' % os.getpid())\n"
                      "        sys.stderr.flush()\n"
                      "        time.sleep(1000)\n"
                      "        os._exit(0)\n"
                      "    time.sleep(0.1)\n"
                      "    os._exit(3)\n",
                      options);
  ASSERT_NE(adapter, nullptr);
  ASSERT_TRUE(adapter->Call(Hello()).has_value());
  const auto start = Clock::now();
  Result<nlohmann::json> r = adapter->Call(Load());
  const auto took =
      std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - start).count();
  ASSERT_FALSE(r.has_value());
  EXPECT_EQ(TransportFailureOf(r.error()), TransportFailure::kCrash) << r.error().message;
  EXPECT_NE(r.error().message.find("exited with status 3"), std::string::npos)
      << r.error().message;
  // The adapter sleeps 0.1 s before exiting; a timeout would take 10 s.
  EXPECT_LT(took, options.timeout_ms / 2);
  const std::vector<int> pids = PidsIn(adapter->StderrTail());
  ASSERT_EQ(pids.size(), 1u) << adapter->StderrTail();
  EXPECT_FALSE(StillRunning(pids[0])) << "process " << pids[0] << " survived";
  // The next call starts a fresh process.
  EXPECT_TRUE(adapter->Call(Hello()).has_value()) << adapter->StderrTail();
}

// Killed by a signal while a child holds its output: a crash naming the signal.
TEST_F(LimitsTest, AdapterKilledByASignalIsACrashNamingTheSignal) {
  AdapterOptions options;
  options.timeout_ms = 10000;
  auto adapter = Make("fork-signal",
                      "    if os.fork() == 0:\n"
                      "        time.sleep(1000)\n"
                      "        os._exit(0)\n"
                      "    os.kill(os.getpid(), 9)\n",
                      options);
  ASSERT_NE(adapter, nullptr);
  ASSERT_TRUE(adapter->Call(Hello()).has_value());
  const auto start = Clock::now();
  Result<nlohmann::json> r = adapter->Call(Load());
  const auto took =
      std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - start).count();
  ASSERT_FALSE(r.has_value());
  EXPECT_EQ(TransportFailureOf(r.error()), TransportFailure::kCrash) << r.error().message;
  EXPECT_NE(r.error().message.find("killed by signal 9"), std::string::npos)
      << r.error().message;
  EXPECT_LT(took, options.timeout_ms / 2);
}

// An answer written just before the adapter exits is still taken; the exit is the
// next request's crash.
TEST_F(LimitsTest, AnswerWrittenBeforeExitCounts) {
  AdapterOptions options;
  options.timeout_ms = 10000;
  auto adapter = Make("answer-exit",
                      "    if os.fork() == 0:\n"
                      "        time.sleep(1000)\n"
                      "        os._exit(0)\n"
                      "    answer({'id': q['id'], 'result': 'error', 'message': 'bye'})\n"
                      "    os._exit(0)\n",
                      options);
  ASSERT_NE(adapter, nullptr);
  ASSERT_TRUE(adapter->Call(Hello()).has_value());
  Result<nlohmann::json> r = adapter->Call(Load());
  ASSERT_TRUE(r.has_value()) << r.error().message;
  EXPECT_EQ((*r)["message"], "bye");
  ::usleep(200000);
  Result<nlohmann::json> next = adapter->Call(Load());
  ASSERT_FALSE(next.has_value());
  EXPECT_EQ(TransportFailureOf(next.error()), TransportFailure::kCrash)
      << next.error().message;
  EXPECT_NE(next.error().message.find("exited with status 0"), std::string::npos)
      << next.error().message;
}

}  // namespace
}  // namespace ictk
