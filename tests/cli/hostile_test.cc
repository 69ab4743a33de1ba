/// \file
/// Hostile input end to end (docs/robustness.md): `lint-metadata`, `replay`, `fixtures
/// verify` and `certify` fed truncated, huge (100 MB, written to a temporary folder by
/// the test), deeply nested (10^5 levels), non-UTF-8 and wrongly typed input. Each run
/// must end with exit 2 and a short error that names the file and a position (line and
/// column, or a JSON pointer), within a bounded peak RSS (ictk's own, RunIctk), and
/// without a crash, an uncaught exception or a sanitizer report.
#include <dirent.h>
#include <fcntl.h>
#include <gtest/gtest.h>
#include <spawn.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <limits>
#include <regex>
#include <string>
#include <vector>

#include "tests/cli/cli_support_internal.h"

extern char** environ;

namespace ictk {
namespace {

namespace fs = std::filesystem;
using testing::ReadText;

constexpr size_t kHugeBytes = 100u << 20;  // 100 MiB
/// Peak RSS allowed for one run on any input here, in KiB: a few times the 100 MiB input
/// (the text, the parser's token buffer and the decoded value), far below what an
/// unbounded reader would use on 10^5 levels or a retry loop. Sanitizer builds
/// (shadow memory, quarantine) get more room.
#if defined(__SANITIZE_ADDRESS__)
constexpr long kMaxRssKib = 1400L << 10;
#else
constexpr long kMaxRssKib = 600L << 10;
#endif
/// Peak RSS allowed while refusing a 300 MB answer line over --max-answer-bytes 1000000,
/// in KiB (ictk's own few tens of MiB, the adapter's, and the 1 MB read).
#if defined(__SANITIZE_ADDRESS__)
constexpr long kMaxAnswerRssKib = 400L << 10;
#else
constexpr long kMaxAnswerRssKib = 150L << 10;
#endif
/// An error is a few lines, not a dump of the input.
constexpr size_t kMaxOutputBytes = 16u << 10;

struct RunResult {
  int exit_code = -1000;  ///< -signal when killed by one
  long peak_rss_kib = 0;
  std::string output;  ///< stdout and stderr (the first 1 MiB)
  size_t output_bytes = 0;
};

/// Runs `build/bin/ictk ARGS` from the source root; output goes to a file (so that a
/// flood cannot block the child), and ictk's own peak RSS is measured.
///
/// wait4() on a child spawned from this test process would report at least this process's
/// own peak: Linux keeps, across exec, the high-water mark of the memory image the new
/// program replaces, and a spawned child starts out on its parent's image (which grows
/// over a whole test run). So a small Python process in between spawns ictk from its own
/// small image, waits for it, and writes ictk's ru_maxrss (and ictk's exit) for us.
RunResult RunIctk(const std::vector<std::string>& args, const fs::path& log) {
  RunResult r;
  static const char* kMeasure =
      "import os, signal, sys\n"
      "pid = os.fork()\n"
      "if pid == 0:\n"
      "    os.execv(sys.argv[2], sys.argv[2:])\n"
      "_, status, usage = os.wait4(pid, 0)\n"
      "with open(sys.argv[1], 'w') as f:\n"
      "    f.write(str(usage.ru_maxrss))\n"
      "if os.WIFSIGNALED(status):\n"
      "    signal.signal(os.WTERMSIG(status), signal.SIG_DFL)\n"
      "    os.kill(os.getpid(), os.WTERMSIG(status))\n"
      "sys.exit(os.WEXITSTATUS(status))\n";
  const std::string rss_file = log.string() + ".maxrss";
  std::vector<std::string> argv = {"python3", "-c", kMeasure, rss_file,
                                   std::string(ICTK_BIN_DIR) + "/ictk"};
  argv.insert(argv.end(), args.begin(), args.end());
  const pid_t pid = testing::SpawnWithLog(std::move(argv), log.string());
  if (pid < 0) return r;
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -WTERMSIG(status);
  // No figure (the measuring process failed) is no proof of a small peak.
  std::ifstream rss(rss_file);
  if (!(rss >> r.peak_rss_kib)) r.peak_rss_kib = std::numeric_limits<long>::max();
  std::ifstream in(log, std::ios::binary);
  r.output.resize(1u << 20);
  in.read(r.output.data(), static_cast<std::streamsize>(r.output.size()));
  r.output.resize(static_cast<size_t>(in.gcount()));
  std::error_code ec;
  r.output_bytes = static_cast<size_t>(fs::file_size(log, ec));
  return r;
}

void WriteText(const fs::path& path, const std::string& text) {
  fs::create_directories(path.parent_path());
  std::ofstream(path, std::ios::binary | std::ios::trunc) << text;
}

/// One hostile input: a name, the file's text, and the position its error must name
/// (a regular expression over the output, after the file name).
struct Hostile {
  std::string name;
  std::string text;
  std::string position;
};

/// A real v4 metadata file of the test data, as a base to damage.
std::string CleanMetadata() {
  return ReadText(fs::path(ICTK_TEST_DATA_DIR) / "lint" / "v4-constraints-clean.json");
}

/// The hostile inputs, each built here; `huge` adds the two of 100 MB (never committed,
/// and only where they matter, so that the suite stays quick).
std::vector<Hostile> HostileInputs(bool huge) {
  const std::string clean = CleanMetadata();
  std::vector<Hostile> inputs;
  inputs.push_back({"truncated", clean.substr(0, clean.size() / 2), R"(:\d+:\d+: )"});
  inputs.push_back({"empty", "", R"(:1:1: )"});
  inputs.push_back({"nested-arrays", std::string(100000, '[') + std::string(100000, ']'),
                    R"(:1:513: JSON nested deeper than 512)"});
  {
    std::string objects;
    for (int i = 0; i < 100000; ++i) objects += "{\"a\":";
    objects += "1" + std::string(100000, '}');
    inputs.push_back({"nested-objects", objects, R"(:1:\d+: JSON nested deeper)"});
  }
  inputs.push_back({"non-utf8",
                    "{\"format-version\": 4,\n \"location\": \"s3://b/\xff\xfe\"}\n",
                    R"(:2:\d+: )"});
  inputs.push_back(
      {"nul-byte", clean + std::string("\0garbage", 8), R"(:\d+:\d+: a NUL byte)"});
  inputs.push_back({"utf16-bom", std::string("\xff\xfe{\0\"\0", 6), R"(:1:\d+: )"});
  inputs.push_back({"wrong-type",
                    std::regex_replace(clean, std::regex(R"("format-version"\s*:\s*4)"),
                                       R"("format-version": "4")"),
                    R"(/format-version)"});
  inputs.push_back({"wrong-top-level", "[1, 2, 3]\n", R"(: .*(object|array))"});
  if (!huge) return inputs;
  // Huge: a string member of 100 MB in otherwise clean metadata, made wrongly typed.
  {
    std::string huge = std::regex_replace(
        clean, std::regex(R"("location"\s*:\s*"[^"]*")"), R"("location": 7)");
    const size_t brace = huge.find('{');
    huge.insert(brace + 1, "\"padding\": \"" + std::string(kHugeBytes, 'a') + "\", ");
    inputs.push_back({"huge-wrong-type", std::move(huge), R"(/location)"});
  }
  // Huge: 100 MB of blanks and then the document cut off inside a 1 MB string.
  inputs.push_back(
      {"huge-truncated",
       std::string(kHugeBytes, ' ') + "{\"a\": \"" + std::string(1u << 20, 'x'),
       R"(:1:\d+: )"});
  return inputs;
}

class HostileTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    char tmpl[] = "/tmp/ictk-hostile-XXXXXX";
    ASSERT_NE(::mkdtemp(tmpl), nullptr);
    dir_ = new fs::path(tmpl);
  }
  /// The hostile inputs, written to files (Input() names them).
  static std::vector<Hostile> Inputs(bool huge) {
    std::vector<Hostile> inputs = HostileInputs(huge);
    for (const Hostile& h : inputs) WriteText(Input(h), h.text);
    return inputs;
  }
  static void TearDownTestSuite() {
    std::error_code ec;
    fs::remove_all(*dir_, ec);
    delete dir_;
  }
  /// Whether `ictk COMMAND... --help` exists in this build.
  static bool HasCommand(const std::vector<std::string>& command) {
    std::vector<std::string> args = command;
    args.push_back("--help");
    return RunIctk(args, *dir_ / "help.log").exit_code == 0;
  }
  /// The checks every hostile run must pass.
  static void ExpectCleanFailure(const RunResult& r, const std::string& file,
                                 const std::string& position, int exit_code = 2) {
    EXPECT_EQ(r.exit_code, exit_code) << r.output.substr(0, 2000);
    EXPECT_NE(r.output.find(file), std::string::npos)
        << "the error does not name " << file << ": " << r.output.substr(0, 2000);
    EXPECT_TRUE(std::regex_search(r.output, std::regex(position)))
        << "the error does not name the position /" << position
        << "/: " << r.output.substr(0, 2000);
    EXPECT_LE(r.output_bytes, kMaxOutputBytes) << "the error dumps its input";
    EXPECT_LE(r.peak_rss_kib, kMaxRssKib) << "peak RSS " << r.peak_rss_kib << " KiB";
    for (const char* bad : {"terminate called", "AddressSanitizer",
                            "runtime error:", "LeakSanitizer", "Segmentation fault"})
      EXPECT_EQ(r.output.find(bad), std::string::npos) << r.output.substr(0, 2000);
  }
  static fs::path Input(const Hostile& h) { return *dir_ / "in" / (h.name + ".json"); }

  static fs::path* dir_;
};
fs::path* HostileTest::dir_ = nullptr;

/// JSON that is not table metadata (a member of the wrong type, an array at the top): for
/// `lint-metadata` a finding of ice.metadata-shape with its pointer (exit 1), not
/// unreadable input (exit 2).
int LintExit(const Hostile& h) {
  return h.name == "wrong-type" || h.name == "huge-wrong-type" ||
                 h.name == "wrong-top-level"
             ? 1
             : 2;
}

TEST_F(HostileTest, LintMetadataText) {
  for (const Hostile& h : Inputs(/*huge=*/true)) {
    SCOPED_TRACE(h.name);
    const fs::path file = Input(h);
    RunResult r = RunIctk({"lint-metadata", file.string()}, *dir_ / "lint.log");
    ExpectCleanFailure(r, file.string(), h.position, LintExit(h));
    if (LintExit(h) == 1)
      EXPECT_NE(r.output.find("ice.metadata-shape"), std::string::npos);
  }
}

// The JSON report carries the same errors; invalid UTF-8 in an input must not make the
// report itself unwritable.
TEST_F(HostileTest, LintMetadataJson) {
  for (const Hostile& h : Inputs(/*huge=*/false)) {
    SCOPED_TRACE(h.name);
    const fs::path file = Input(h);
    RunResult r = RunIctk({"lint-metadata", "--format", "json", file.string()},
                          *dir_ / "lint-json.log");
    ExpectCleanFailure(r, file.string(), h.position, LintExit(h));
  }
}

// replay reads fixture files: each hostile file in the place of one.
TEST_F(HostileTest, Replay) {
  if (!HasCommand({"replay"})) GTEST_SKIP() << "this build has no `ictk replay`";
  for (const Hostile& h : Inputs(/*huge=*/false)) {
    if (h.name == "wrong-type" || h.name == "huge-wrong-type") continue;  // below
    SCOPED_TRACE(h.name);
    const fs::path file = Input(h);
    RunResult r = RunIctk({"replay", "--adapter", "builtin:reference", file.string()},
                          *dir_ / "replay.log");
    ExpectCleanFailure(r, file.string(), h.position);
  }
  // A fixture whose members have the wrong JSON type.
  const fs::path typed = *dir_ / "typed" / "wrong-steps.json";
  WriteText(
      typed,
      "{\"format\": \"ictk-fixture\", \"format-version\": 1, \"steps\": \"none\"}\n");
  RunResult r = RunIctk({"replay", "--adapter", "builtin:reference", typed.string()},
                        *dir_ / "replay.log");
  ExpectCleanFailure(r, typed.string(), R"(: /\S*: )");
}

// An expectation file for replay: non-UTF-8, huge and truncated lines.
TEST_F(HostileTest, ReplayExpectationFile) {
  if (!HasCommand({"replay"})) GTEST_SKIP() << "this build has no `ictk replay`";
  const fs::path fixture = *dir_ / "nofixtures";
  fs::create_directories(fixture);
  struct Expect {
    std::string name, text;
  };
  for (const Expect& e : std::vector<Expect>{
           {"garbage", "this is not an entry\n"},
           {"non-utf8", "def.single-pk/\xff\xfe skip  # reason\n"},
           {"huge", std::string(kHugeBytes, 'x') + " skip\n"},
       }) {
    SCOPED_TRACE(e.name);
    const fs::path file = *dir_ / "expect" / (e.name + ".txt");
    WriteText(file, e.text);
    RunResult r = RunIctk({"replay", "--adapter", "builtin:reference", "--expect",
                           file.string(), fixture.string()},
                          *dir_ / "expect.log");
    ExpectCleanFailure(r, file.string(), R"(:1\b)");
  }
}

// fixtures verify reads a corpus folder: one hostile file in it at a time.
TEST_F(HostileTest, FixturesVerify) {
  if (!HasCommand({"fixtures", "verify"}))
    GTEST_SKIP() << "this build has no `ictk fixtures verify`";
  for (const Hostile& h : Inputs(/*huge=*/false)) {
    SCOPED_TRACE(h.name);
    const fs::path corpus = *dir_ / "corpus" / h.name;
    const fs::path file = corpus / "rule" / (h.name + ".json");
    fs::create_directories(file.parent_path());
    std::error_code ec;
    fs::remove(file, ec);
    fs::create_hard_link(Input(h), file, ec);
    if (ec) WriteText(file, h.text);
    RunResult r = RunIctk({"fixtures", "verify", corpus.string()}, *dir_ / "verify.log");
    ExpectCleanFailure(r, file.string(),
                       h.position == R"(/format-version)" || h.position == R"(/location)"
                           ? R"(: /|:\d+:\d+)"
                           : h.position);
    fs::remove_all(corpus, ec);
  }
}

/// A python adapter (written to the temporary folder) that answers `hello` properly and
/// then every other request with `answer` (a Python expression of the request `q`,
/// giving bytes), or answers hello itself with it when `at_hello`.
fs::path WriteAdapter(const fs::path& dir, const std::string& name,
                      const std::string& answer, bool at_hello) {
  const fs::path script = dir / "adapters" / (name + ".py");
  WriteText(script,
            "import json, sys\n"
            "out = sys.stdout.buffer\n"
            "for line in sys.stdin:\n"
            "    q = json.loads(line)\n"
            "    hello = q.get('op') == 'hello'\n"
            "    if hello and not " +
                std::string(at_hello ? "True" : "False") +
                ":\n"
                "        out.write(json.dumps({'id': q['id'], 'result': 'ok', "
                "'protocol-version': 1, 'implementation': {'name': 'h', 'version': '0', "
                "'language': 'python'}, 'format-versions': [1, 2, 3, 4], "
                "'capabilities': []}).encode() + b'\\n')\n"
                "    else:\n"
                "        out.write(" +
                answer +
                " + b'\\n')\n"
                "    out.flush()\n");
  return script;
}

// certify against adapters that answer hello with hostile lines: exit 2 ("the adapter
// cannot start"), naming the response and the position; bounded memory.
TEST_F(HostileTest, CertifyAdapterHostileHello) {
  struct Case {
    std::string name, answer, position;
  };
  const std::vector<Case> cases = {
      {"truncated", "b'{\"id\": 0, \"result\": '", R"(response:1:\d+)"},
      {"nested", "b'[' * 100000 + b']' * 100000", R"(response:1:513)"},
      {"non-utf8", "b'{\"id\": 0, \"result\": \"ok\", \"x\": \"\\xff\"}'",
       R"(response:1:\d+)"},
      {"huge", "b'\"' + b'a' * (100 << 20) + b'\"'", R"(longer than \d+ bytes)"},
      {"wrong-type",
       "json.dumps({'id': q['id'], 'result': 'ok', 'protocol-version': 'one'}).encode()",
       R"(/protocol-version)"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    const fs::path script = WriteAdapter(*dir_, "hello-" + c.name, c.answer, true);
    RunResult r =
        RunIctk({"certify", "--adapter", "exec:python3 " + script.string(), "--histories",
                 "2", "--quiet", "--no-corpus", "--out", (*dir_ / "out").string()},
                *dir_ / "certify.log");
    ExpectCleanFailure(r, script.filename().string(), c.position);
  }
}

// Hostile answers after a good hello are the adapter's failures, not the kit's: exit 1
// and a protocol-error verdict whose reason names the position, bounded memory.
TEST_F(HostileTest, CertifyAdapterHostileAnswers) {
  const fs::path script =
      WriteAdapter(*dir_, "answers-nested",
                   "b'{\"id\": ' + str(q['id']).encode() + b', \"x\": ' + "
                   "b'[' * 100000 + b']' * 100000 + b'}'",
                   false);
  const fs::path out = *dir_ / "answers";
  RunResult r =
      RunIctk({"certify", "--adapter", "exec:python3 " + script.string(), "--histories",
               "2", "--quiet", "--no-shrink", "--no-corpus", "--out", out.string()},
              *dir_ / "answers.log");
  EXPECT_EQ(r.exit_code, 1) << r.output.substr(0, 2000);
  EXPECT_LE(r.peak_rss_kib, kMaxRssKib);
  const std::string report = ReadText(out / "report.jsonl");
  EXPECT_NE(report.find("\"protocol-error\""), std::string::npos)
      << report.substr(0, 2000);
  EXPECT_NE(report.find("nested deeper than 512"), std::string::npos)
      << report.substr(0, 2000);
}

// certify's fixture corpus (--corpus DIR), replayed before the random histories: a
// hostile file in it stops the run before any case, naming the file and the position.
TEST_F(HostileTest, CertifyCorpus) {
  const RunResult help = RunIctk({"certify", "--help"}, *dir_ / "help.log");
  if (help.output.find("--corpus") == std::string::npos)
    GTEST_SKIP() << "this build's `ictk certify` replays no fixture corpus (--corpus)";
  for (const Hostile& h : Inputs(/*huge=*/false)) {
    if (h.position == R"(/format-version)") continue;  // a fixture has no format-version
    SCOPED_TRACE(h.name);
    const fs::path corpus = *dir_ / "certify-corpus" / h.name;
    const fs::path file = corpus / "rule" / (h.name + ".json");
    WriteText(file, h.text);
    RunResult r = RunIctk(
        {"certify", "--adapter", "builtin:reference", "--histories", "1", "--quiet",
         "--corpus", corpus.string(), "--out", (*dir_ / "cc").string()},
        *dir_ / "certify-corpus.log");
    ExpectCleanFailure(r, file.string(), h.position);
    std::error_code ec;
    fs::remove_all(corpus, ec);
  }
}

// certify's own file inputs: an expectation file, when certify takes one.
TEST_F(HostileTest, CertifyExpectationFile) {
  const RunResult help = RunIctk({"certify", "--help"}, *dir_ / "help.log");
  if (help.output.find("--expect") == std::string::npos)
    GTEST_SKIP() << "this build's `ictk certify` reads no expectation file (--expect)";
  const fs::path file = *dir_ / "expect" / "certify-non-utf8.txt";
  WriteText(file, "random/\xff\xfe skip  # reason\nnot an entry at all\n");
  RunResult r =
      RunIctk({"certify", "--adapter", "builtin:reference", "--histories", "1", "--quiet",
               "--expect", file.string(), "--out", (*dir_ / "ce").string()},
              *dir_ / "certify-expect.log");
  ExpectCleanFailure(r, file.string(), R"(:[12]\b)");
}

/// A python adapter that answers hello and runs `body` (Python, 4 spaces in, the request
/// in `q`, `out` its binary stdout) for every other request.
fs::path WriteScriptAdapter(const fs::path& dir, const std::string& name,
                            const std::string& body) {
  const fs::path script = dir / "adapters" / (name + ".py");
  WriteText(script,
            "import json, os, sys, time\n"
            "out = sys.stdout.buffer\n"
            "for line in sys.stdin:\n"
            "    q = json.loads(line)\n"
            "    if q.get('op') == 'hello':\n"
            "        out.write(json.dumps({'id': q['id'], 'result': 'ok', "
            "'protocol-version': 1, 'implementation': {'name': 'h', 'version': '0', "
            "'language': 'python'}, 'format-versions': [1, 2, 3, 4], "
            "'capabilities': []}).encode() + b'\\n')\n"
            "        out.flush()\n"
            "        continue\n" +
                body);
  return script;
}

/// The processes of process group `pgid` that are alive (not zombies), from /proc.
std::vector<int> LiveMembersOf(int pgid) {
  std::vector<int> members;
  DIR* proc = ::opendir("/proc");
  if (proc == nullptr) return members;
  while (dirent* e = ::readdir(proc)) {
    const std::string name = e->d_name;
    if (name.empty() || name.find_first_not_of("0123456789") != std::string::npos)
      continue;
    const std::string stat = ReadText(fs::path("/proc") / name / "stat");
    // pid (comm) state ppid pgrp ...; comm may hold blanks and parentheses.
    const size_t close = stat.rfind(')');
    if (close == std::string::npos) continue;
    char state = 0;
    int ppid = 0, pgrp = 0;
    if (std::sscanf(stat.c_str() + close + 1, " %c %d %d", &state, &ppid, &pgrp) != 3)
      continue;
    if (pgrp == pgid && state != 'Z' && state != 'X') members.push_back(std::stoi(name));
  }
  ::closedir(proc);
  return members;
}

// An adapter that forks a child holding its stdout and then exits with status 3 is a
// crash naming the status as soon as it exits, not a timeout once the child lets go of
// the pipe; and its whole process group is ended (docs/robustness.md).
TEST_F(HostileTest, ForkingAdapterThatExitsIsACrashAtOnce) {
  const fs::path pids = *dir_ / "fork-pids.txt";
  const fs::path script = WriteScriptAdapter(
      *dir_, "fork-exit",
      "    child = os.fork()\n"
      "    if child == 0:\n"
      "        with open('" +
          pids.string() +
          ".tmp', 'w') as f:\n"
          "            f.write('%d %d\\n' % (os.getpid(), os.getpgrp()))\n"
          "        os.rename('" +
          pids.string() + ".tmp', '" + pids.string() +
          "')\n"
          "        time.sleep(120)\n"
          "        os._exit(0)\n"
          "    while not os.path.exists('" +
          pids.string() +
          "'):\n"
          "        time.sleep(0.01)\n"
          "    os._exit(3)\n");
  const int timeout_ms = 10000;
  const fs::path out = *dir_ / "fork-out";
  const auto start = std::chrono::steady_clock::now();
  RunResult r = RunIctk({"certify", "--adapter", "exec:python3 " + script.string(),
                         "--histories", "1", "--timeout-ms", std::to_string(timeout_ms),
                         "--no-shrink", "--no-corpus", "--quiet", "--out", out.string()},
                        *dir_ / "fork.log");
  const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(
                      std::chrono::steady_clock::now() - start)
                      .count();
  EXPECT_EQ(r.exit_code, 1) << r.output.substr(0, 2000);
  // Generous (the machine may be loaded): a timeout would take the whole timeout_ms.
  EXPECT_LT(ms, timeout_ms / 2) << r.output.substr(0, 2000);
  const std::string report = ReadText(out / "report.jsonl");
  EXPECT_NE(report.find("\"verdict\":\"crash\""), std::string::npos)
      << report.substr(0, 3000);
  EXPECT_NE(report.find("exited with status 3"), std::string::npos)
      << report.substr(0, 3000);
  EXPECT_EQ(report.find("\"verdict\":\"timeout\""), std::string::npos);
  // The forked child was in the adapter's process group; nothing of the group is left.
  int child = 0, pgid = 0;
  ASSERT_EQ(std::sscanf(ReadText(pids).c_str(), "%d %d", &child, &pgid), 2)
      << "the adapter's child did not record its pid";
  std::vector<int> left = LiveMembersOf(pgid);
  for (int i = 0; i < 200 && !left.empty(); ++i) {  // SIGKILL is delivered at once
    ::usleep(10000);
    left = LiveMembersOf(pgid);
  }
  EXPECT_TRUE(left.empty()) << left.size() << " process(es) of group " << pgid
                            << " outlived the run, e.g. " << (left.empty() ? 0 : left[0]);
  if (!left.empty()) ::kill(-pgid, SIGKILL);
}

// An answer line longer than --max-answer-bytes is a protocol-error, refused after
// reading no more than the limit: the adapter writes a 300 MB line in small pieces (so
// that it stays small itself), and ictk's peak RSS stays far below the line's size.
TEST_F(HostileTest, OversizedAnswerIsRefusedWithBoundedMemory) {
  const fs::path script =
      WriteScriptAdapter(*dir_, "oversized",
                         "    out.write(b'{\"id\": ' + str(q['id']).encode() + b', "
                         "\"result\": \"ok\", \"x\": \"')\n"
                         "    piece = b'a' * 65536\n"
                         "    for _ in range(300 * 16):\n"
                         "        out.write(piece)\n"
                         "    out.write(b'\"}\\n')\n"
                         "    out.flush()\n");
  const fs::path out = *dir_ / "oversized-out";
  RunResult r = RunIctk({"certify", "--adapter", "exec:python3 " + script.string(),
                         "--histories", "1", "--max-answer-bytes", "1000000",
                         "--no-shrink", "--no-corpus", "--quiet", "--out", out.string()},
                        *dir_ / "oversized.log");
  EXPECT_EQ(r.exit_code, 1) << r.output.substr(0, 2000);
  const std::string report = ReadText(out / "report.jsonl");
  EXPECT_NE(report.find("\"verdict\":\"protocol-error\""), std::string::npos)
      << report.substr(0, 3000);
  EXPECT_NE(report.find("longer than 1000000 bytes"), std::string::npos)
      << report.substr(0, 3000);
  // ictk (and the adapter, whose usage wait4 adds) well under the 300 MB line; reading
  // it whole would need at least that.
  EXPECT_LT(r.peak_rss_kib, kMaxAnswerRssKib) << "peak RSS " << r.peak_rss_kib << " KiB";
  EXPECT_LE(r.output_bytes, kMaxOutputBytes) << "the error dumps the answer";
}

// Every transport failure states its finding (why the case failed) on the console, in
// summary.md and in junit.xml: never an "allowed: ... / answered: ..." pair without a
// reason.
TEST_F(HostileTest, TransportFailuresStateTheirFinding) {
  struct Case {
    std::string name, body, verdict, finding;
    std::vector<std::string> flags;
  };
  const std::vector<Case> cases = {
      {"crash", "    os._exit(3)\n", "crash", "exited with status 3", {}},
      {"timeout",
       "    time.sleep(60)\n",
       "timeout",
       "no response to request",
       {"--timeout-ms", "2000"}},
      {"garbage",
       "    out.write(b'this is not json\\n')\n    out.flush()\n",
       "protocol-error",
       "is not JSON",
       {}},
      {"oversized",
       "    out.write(b'[' + b'1,' * 5000 + b'1]\\n')\n    out.flush()\n",
       "protocol-error",
       "longer than 1000 bytes",
       {"--max-answer-bytes", "1000"}},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    const fs::path script = WriteScriptAdapter(*dir_, "finding-" + c.name, c.body);
    const fs::path out = *dir_ / ("finding-" + c.name);
    std::vector<std::string> args = {
        "certify",     "--adapter", "exec:python3 " + script.string(),
        "--histories", "1",         "--no-shrink",
        "--no-corpus", "--quiet",   "--out",
        out.string()};
    args.insert(args.end(), c.flags.begin(), c.flags.end());
    RunResult r = RunIctk(args, *dir_ / "finding.log");
    EXPECT_EQ(r.exit_code, 1) << r.output.substr(0, 3000);
    // Console: "  VERDICT CASE: FINDING" under the cause line.
    EXPECT_TRUE(std::regex_search(
        r.output, std::regex("\n  " + c.verdict + " random/\\S+: [^\n]*" + c.finding)))
        << r.output.substr(0, 3000);
    const std::string summary = ReadText(out / "summary.md");
    EXPECT_NE(summary.find("`: " + c.verdict + "\n"), std::string::npos)
        << summary.substr(0, 3000);
    EXPECT_TRUE(std::regex_search(summary, std::regex("\\*\\*[^*\n]*" + c.finding)))
        << summary.substr(0, 3000);
    const std::string junit = ReadText(out / "junit.xml");
    EXPECT_TRUE(std::regex_search(junit, std::regex("<error type=\"" + c.verdict +
                                                    "\" message=\"[^\"]*" + c.finding)))
        << junit.substr(0, 3000);
  }
}

}  // namespace
}  // namespace ictk
