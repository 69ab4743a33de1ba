/// \file
/// Long runs (docs/robustness.md): `ictk certify` keeps every finished case in
/// report.jsonl when it is killed with SIGKILL mid-run, and `certify --resume DIR` then
/// finishes the run without redoing those cases, with the same report (apart from timing
/// fields and the header's command line) and the same fixture files as an uninterrupted
/// run. On SIGINT it exits 130 with the command that resumes it.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <thread>
#include <vector>

#include "sample/sample_adapter.h"
#include "tests/cli/cli_support_internal.h"

extern char** environ;

namespace ictk {
namespace {

namespace fs = std::filesystem;
using testing::ReadText;

/// Starts `build/bin/ictk ARGS` with stdout and stderr into `log`; returns its pid.
pid_t Spawn(const std::vector<std::string>& args, const fs::path& log) {
  return testing::SpawnIctk(args, log.string());
}

/// The exit code of `pid` (-signal when it was killed).
int Wait(pid_t pid) {
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  return WIFEXITED(status) ? WEXITSTATUS(status) : -WTERMSIG(status);
}

/// Runs `ictk ARGS` to the end; its exit code.
int RunToEnd(const std::vector<std::string>& args, const fs::path& log) {
  pid_t pid = Spawn(args, log);
  return pid < 0 ? -1000 : Wait(pid);
}

/// Complete lines of `text` (a cut-off last line is left out).
std::vector<std::string> CompleteLines(const std::string& text) {
  std::vector<std::string> lines;
  size_t pos = 0;
  for (size_t end; (end = text.find('\n', pos)) != std::string::npos; pos = end + 1)
    lines.push_back(text.substr(pos, end - pos));
  return lines;
}

/// A record without what differs between equal runs: timing fields and the command line.
nlohmann::json Comparable(nlohmann::json j) {
  if (j.is_object()) {
    j.erase("duration-ms");
    j.erase("command-line");
    for (auto& [key, value] : j.items()) value = Comparable(value);
  } else if (j.is_array()) {
    for (auto& value : j) value = Comparable(value);
  }
  return j;
}

/// The records of `dir`/report.jsonl, comparable across run folders: `dir` itself (in
/// the replay commands of failures) is written as "RUN".
std::vector<nlohmann::json> Records(const fs::path& dir) {
  std::vector<nlohmann::json> records;
  const std::string name = dir.string();
  for (std::string line : CompleteLines(ReadText(dir / "report.jsonl"))) {
    for (size_t at; (at = line.find(name)) != std::string::npos;)
      line.replace(at, name.size(), "RUN");
    records.push_back(Comparable(nlohmann::json::parse(line)));
  }
  return records;
}

/// Relative path -> content of every file under `dir`/failures.
std::map<std::string, std::string> Fixtures(const fs::path& dir) {
  std::map<std::string, std::string> files;
  if (!fs::exists(dir / "failures")) return files;
  for (const auto& e : fs::recursive_directory_iterator(dir / "failures"))
    if (e.is_regular_file())
      files[fs::relative(e.path(), dir).string()] = ReadText(e.path());
  return files;
}

class ResumeTest : public ::testing::Test {
 protected:
  void SetUp() override {
    char tmpl[] = "/tmp/ictk-resume-XXXXXX";
    ASSERT_NE(::mkdtemp(tmpl), nullptr);
    dir_ = tmpl;
    // A mutant, so that some cases fail and write fixture files; the first one the
    // sample offers (no name is assumed here).
    ASSERT_FALSE(SampleMutants().empty());
    spec_ = "builtin:sample?mutant=" + SampleMutants().front().name;
  }
  void TearDown() override {
    std::error_code ec;
    fs::remove_all(dir_, ec);
  }
  std::vector<std::string> Certify(const fs::path& out, int histories) const {
    return {"certify", "--adapter", spec_,     "--histories", std::to_string(histories),
            "--seed",  "11",        "--quiet", "--out",       out.string()};
  }
  fs::path dir_;
  std::string spec_;
};

// The kill-and-resume test of issue 8: SIGKILL mid-run, resume, compare with an
// uninterrupted run. Killed twice: as soon as the header is written (in the replay of the
// fixture corpus, whose records certify writes before the random cases), and once a few
// random cases are in the file.
TEST_F(ResumeTest, KilledRunResumesToTheUninterruptedReport) {
  const int histories = 40;
  const fs::path whole = dir_ / "whole";
  const int whole_exit = RunToEnd(Certify(whole, histories), dir_ / "whole.log");
  ASSERT_TRUE(whole_exit == 0 || whole_exit == 1) << ReadText(dir_ / "whole.log");
  const std::vector<nlohmann::json> expected = Records(whole);
  ASSERT_GE(expected.size(), static_cast<size_t>(histories) + 2);
  ASSERT_EQ(expected.back()["type"], "totals");
  size_t corpus = 0;  // records before the random cases (index < 0)
  for (const nlohmann::json& r : expected)
    if (r["type"] == "case" && r["index"].get<int64_t>() < 0) ++corpus;

  for (const size_t kill_at : {size_t{1}, 1 + corpus + 3}) {
    SCOPED_TRACE("killed at " + std::to_string(kill_at) + " lines");
    const fs::path killed = dir_ / ("killed-" + std::to_string(kill_at));
    pid_t pid = Spawn(Certify(killed, histories), dir_ / "killed.log");
    ASSERT_GT(pid, 0);
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
    while (std::chrono::steady_clock::now() < deadline &&
           CompleteLines(ReadText(killed / "report.jsonl")).size() < kill_at)
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    ::kill(pid, SIGKILL);
    ASSERT_EQ(Wait(pid), -SIGKILL);
    const std::vector<std::string> kept =
        CompleteLines(ReadText(killed / "report.jsonl"));
    ASSERT_GE(kept.size(), kill_at) << "the run wrote nothing before it was killed";
    if (kept.size() >= expected.size())
      GTEST_SKIP() << "the run finished before it could be killed";
    // Every finished case is in the file, as a whole record.
    for (size_t i = 1; i < kept.size(); ++i)
      EXPECT_EQ(nlohmann::json::parse(kept[i])["type"], "case") << kept[i];

    auto args = Certify(killed, histories);
    args.insert(args.end(), {"--resume", killed.string()});
    const int resumed_exit = RunToEnd(args, dir_ / "resume.log");
    EXPECT_EQ(resumed_exit, whole_exit) << ReadText(dir_ / "resume.log");

    // The finished cases were kept byte for byte (a case run again would differ at
    // least in its duration), and the run was completed to the same report and fixtures.
    const std::vector<std::string> after =
        CompleteLines(ReadText(killed / "report.jsonl"));
    ASSERT_GE(after.size(), kept.size());
    for (size_t i = 0; i < kept.size(); ++i) EXPECT_EQ(after[i], kept[i]) << i;
    EXPECT_EQ(Records(killed), expected);
    EXPECT_EQ(Fixtures(killed), Fixtures(whole));
    EXPECT_EQ(ReadText(killed / "badge.json"), ReadText(whole / "badge.json"));
  }
}

// Resuming a finished run runs nothing and rewrites the same totals.
TEST_F(ResumeTest, ResumingAFinishedRunRunsNothing) {
  const fs::path out = dir_ / "done";
  const int first = RunToEnd(Certify(out, 3), dir_ / "first.log");
  ASSERT_TRUE(first == 0 || first == 1) << ReadText(dir_ / "first.log");
  const std::vector<nlohmann::json> before = Records(out);
  auto args = Certify(out, 3);
  args.insert(args.end(), {"--resume", out.string()});
  args.erase(std::find(args.begin(), args.end(), "--quiet"));
  EXPECT_EQ(RunToEnd(args, dir_ / "again.log"), first);
  EXPECT_NE(ReadText(dir_ / "again.log").find("case(s) done, 0 to run"),
            std::string::npos)
      << ReadText(dir_ / "again.log");
  EXPECT_EQ(Records(out), before);
}

// A resume with other run parameters is refused (exit 2), naming the file and the
// field, and leaves the report as it was.
TEST_F(ResumeTest, ResumeWithOtherParametersIsRefused) {
  const fs::path out = dir_ / "run";
  const int first = RunToEnd(Certify(out, 2), dir_ / "first.log");
  ASSERT_TRUE(first == 0 || first == 1) << ReadText(dir_ / "first.log");
  const std::string before = ReadText(out / "report.jsonl");
  auto args = Certify(out, 5);
  args.insert(args.end(), {"--resume", out.string()});
  EXPECT_EQ(RunToEnd(args, dir_ / "other.log"), 2);
  const std::string log = ReadText(dir_ / "other.log");
  EXPECT_NE(log.find("report.jsonl"), std::string::npos) << log;
  EXPECT_NE(log.find("--histories was 2"), std::string::npos) << log;
  EXPECT_EQ(ReadText(out / "report.jsonl"), before);
}

// Resuming a --no-corpus run without --no-corpus (or the other way round) would append
// the corpus cases to a run that had none: refused, naming the corpus.
TEST_F(ResumeTest, ResumeWithAnotherCorpusIsRefused) {
  const fs::path out = dir_ / "nocorpus";
  auto first = Certify(out, 2);
  first.push_back("--no-corpus");
  ASSERT_LE(RunToEnd(first, dir_ / "first.log"), 1) << ReadText(dir_ / "first.log");
  const std::string before = ReadText(out / "report.jsonl");
  auto args = Certify(out, 2);
  args.insert(args.end(), {"--resume", out.string()});
  EXPECT_EQ(RunToEnd(args, dir_ / "corpus.log"), 2);
  const std::string log = ReadText(dir_ / "corpus.log");
  EXPECT_NE(log.find("the fixture corpus was none"), std::string::npos) << log;
  EXPECT_EQ(ReadText(out / "report.jsonl"), before);
}

/// The text after `marker` in `log` up to the end of its line ("" when it is not there).
std::string AfterMarker(const std::string& log, const std::string& marker) {
  const size_t at = log.find(marker);
  if (at == std::string::npos) return "";
  const size_t from = at + marker.size();
  return log.substr(from, log.find('\n', from) - from);
}

/// Runs the shell command line `line` (from this test's folder); its exit code.
int RunShellLine(const std::string& line, const fs::path& log) {
  const std::string cmd = line + " >'" + log.string() + "' 2>&1 </dev/null";
  const int status = std::system(cmd.c_str());
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/// Starts `args`, waits until its report.jsonl has `lines` complete lines, sends SIGINT
/// and returns the exit code (-1000 when the run finished first).
int Interrupt(const std::vector<std::string>& args, const fs::path& out, size_t lines,
              const fs::path& log) {
  const pid_t pid = Spawn(args, log);
  if (pid < 0) return -2000;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(120);
  while (std::chrono::steady_clock::now() < deadline &&
         CompleteLines(ReadText(out / "report.jsonl")).size() < lines)
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  const std::vector<std::string> now = CompleteLines(ReadText(out / "report.jsonl"));
  if (!now.empty() && now.back().find("\"type\":\"totals\"") != std::string::npos) {
    Wait(pid);
    return -1000;
  }
  ::kill(pid, SIGINT);
  return Wait(pid);
}

// SIGINT (Ctrl-C) ends a long run at once with exit 130 and says how many cases were
// finished and how to continue: the same command with --resume and the run folder.
TEST_F(ResumeTest, InterruptedRunPrintsTheResumeCommand) {
  const fs::path out = dir_ / "long";
  const std::vector<std::string> args = {"certify", "--adapter", "builtin:sample",
                                         "--histories", "100000", "--out", out.string()};
  // Once a case is in report.jsonl (the count is known from the corpus's reading on).
  ASSERT_EQ(Interrupt(args, out, 2, dir_ / "long.log"), 130) << ReadText(dir_ / "long.log");
  const std::string log = ReadText(dir_ / "long.log");
  const std::string resume = AfterMarker(log, " cases finished; resume with: ");
  EXPECT_NE(resume.find(" certify --adapter builtin:sample --histories 100000 --resume " +
                        out.string()),
            std::string::npos)
      << log;
  EXPECT_EQ(resume.find("--out"), std::string::npos) << log;
  // "N of M": N the records in report.jsonl (or one fewer, caught between the write and
  // the count), M the corpus's fixtures and the 100000 histories.
  long long n = -1, m = -1;
  ASSERT_EQ(std::sscanf(AfterMarker(log, "ictk certify: interrupted: ").c_str(),
                        "%lld of %lld", &n, &m),
            2)
      << log;
  const auto records =
      static_cast<long long>(CompleteLines(ReadText(out / "report.jsonl")).size()) - 1;
  EXPECT_LE(n, records) << log;
  EXPECT_GE(n, records - 1) << log;
  EXPECT_GT(m, 100000) << log;
}

// The command of the hint continues the run to the uninterrupted report.
TEST_F(ResumeTest, TheHintsCommandResumesTheInterruptedRun) {
  const fs::path whole = dir_ / "whole";
  const int whole_exit = RunToEnd(Certify(whole, 300), dir_ / "whole.log");
  ASSERT_TRUE(whole_exit == 0 || whole_exit == 1) << ReadText(dir_ / "whole.log");
  size_t corpus = 0;
  for (const nlohmann::json& r : Records(whole))
    if (r["type"] == "case" && r["index"].get<int64_t>() < 0) ++corpus;
  const fs::path cut = dir_ / "cut";
  const int code = Interrupt(Certify(cut, 300), cut, 1 + corpus + 3, dir_ / "cut.log");
  if (code == -1000) GTEST_SKIP() << "the run finished before it could be interrupted";
  ASSERT_EQ(code, 130) << ReadText(dir_ / "cut.log");
  const std::string resume =
      AfterMarker(ReadText(dir_ / "cut.log"), " cases finished; resume with: ");
  ASSERT_FALSE(resume.empty()) << ReadText(dir_ / "cut.log");
  EXPECT_EQ(RunShellLine(resume, dir_ / "resumed.log"), whole_exit)
      << resume << "\n" << ReadText(dir_ / "resumed.log");
  EXPECT_EQ(Records(cut), Records(whole));
  EXPECT_EQ(Fixtures(cut), Fixtures(whole));
}

// A report.jsonl that is not one (a hostile or damaged run directory) is refused with
// the file and line, never half-used.
TEST_F(ResumeTest, DamagedReportIsRefusedWithItsLine) {
  const fs::path out = dir_ / "bad";
  ASSERT_LE(RunToEnd(Certify(out, 2), dir_ / "first.log"), 1)
      << ReadText(dir_ / "first.log");
  const std::string header = CompleteLines(ReadText(out / "report.jsonl")).at(0);
  std::ofstream(out / "report.jsonl", std::ios::trunc) << header << "\nnot json\n";
  auto args = Certify(out, 2);
  args.insert(args.end(), {"--resume", out.string()});
  EXPECT_EQ(RunToEnd(args, dir_ / "bad.log"), 2);
  const std::string log = ReadText(dir_ / "bad.log");
  EXPECT_NE(log.find("report.jsonl:2:"), std::string::npos) << log;
}

}  // namespace
}  // namespace ictk
