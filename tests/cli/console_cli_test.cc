/// \file
/// The console for people (README "Commands", docs/certify.md "The console, line by
/// line"): colour only on a terminal and never with NO_COLOR set (`--color` overrides),
/// never in files; the corpus replay's progress (certify's hint on SIGINT is in
/// resume_test.cc).
#include <gtest/gtest.h>
#include <pty.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <thread>
#include <vector>

#include "tests/cli/cli_support_internal.h"

namespace ictk {
namespace {

namespace fs = std::filesystem;
using testing::CommandResult;
using testing::RunIctk;
using testing::ReadText;
using testing::TempDir;

bool HasEscape(const std::string& text) { return text.find('\x1b') != std::string::npos; }

/// Runs `build/bin/ictk ARGS` with stdout and stderr on a pseudo-terminal, NO_COLOR set
/// to `no_color` (unset when null); exit code and everything it wrote.
CommandResult RunOnTerminal(const std::vector<std::string>& args, const char* no_color) {
  CommandResult r;
  int master = -1;
  const pid_t pid = ::forkpty(&master, nullptr, nullptr, nullptr);
  if (pid < 0) return r;
  if (pid == 0) {
    if (no_color != nullptr) ::setenv("NO_COLOR", no_color, 1);
    else ::unsetenv("NO_COLOR");
    std::vector<std::string> argv = {std::string(ICTK_BIN_DIR) + "/ictk"};
    argv.insert(argv.end(), args.begin(), args.end());
    std::vector<char*> raw;
    for (std::string& a : argv) raw.push_back(a.data());
    raw.push_back(nullptr);
    ::execv(raw[0], raw.data());
    ::_exit(127);
  }
  char buf[4096];
  for (ssize_t n; (n = ::read(master, buf, sizeof buf)) > 0;) r.out.append(buf, n);
  ::close(master);
  int status = 0;
  ::waitpid(pid, &status, 0);
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return r;
}

class ConsoleTest : public ::testing::Test {
 protected:
  /// A short conformant certify run (no corpus) into `out`.
  std::vector<std::string> Certify(const std::string& out, const std::string& spec) const {
    return {"certify", "--adapter", spec, "--histories", "3", "--no-corpus", "--quiet",
            "--jobs", "1", "--out", out};
  }
  TempDir dir_{"ictk-console"};
};

TEST_F(ConsoleTest, ColourOnATerminalUnlessNoColor) {
  const CommandResult plain = RunOnTerminal(Certify(dir_ / "a", "builtin:sample"), nullptr);
  ASSERT_EQ(plain.exit_code, 0) << plain.out;
  EXPECT_NE(plain.out.find("\x1b[32mCONFORMANT\x1b[0m"), std::string::npos) << plain.out;
  // NO_COLOR set to anything not empty turns colour off; empty counts as unset.
  const CommandResult no_color = RunOnTerminal(Certify(dir_ / "b", "builtin:sample"), "1");
  ASSERT_EQ(no_color.exit_code, 0) << no_color.out;
  EXPECT_NE(no_color.out.find("CONFORMANT"), std::string::npos) << no_color.out;
  EXPECT_FALSE(HasEscape(no_color.out)) << no_color.out;
  EXPECT_TRUE(HasEscape(RunOnTerminal(Certify(dir_ / "c", "builtin:sample"), "").out));
  std::vector<std::string> never = Certify(dir_ / "d", "builtin:sample");
  never.push_back("--color=never");
  EXPECT_FALSE(HasEscape(RunOnTerminal(never, nullptr).out));
  // The usage error's "error:" on a terminal.
  const CommandResult typo = RunOnTerminal({"certfy"}, nullptr);
  EXPECT_EQ(typo.exit_code, 2) << typo.out;
  EXPECT_NE(typo.out.find("\x1b[31merror:\x1b[0m"), std::string::npos) << typo.out;
}

TEST_F(ConsoleTest, NoColourInAPipeOrAFileUnlessAlways) {
  const std::string mutant = "'builtin:sample?mutant=reuse-removed-id'";
  const std::string run = "certify --adapter " + mutant +
                          " --histories 40 --no-corpus --quiet --jobs 1 --out '";
  const CommandResult piped = RunIctk(run + dir_ / "piped" + "'");
  ASSERT_EQ(piped.exit_code, 1) << piped.out;
  EXPECT_NE(piped.out.find("NOT CONFORMANT"), std::string::npos) << piped.out;
  EXPECT_NE(piped.out.find("FAIL "), std::string::npos) << piped.out;
  EXPECT_FALSE(HasEscape(piped.out)) << piped.out;
  const CommandResult always = RunIctk("--color=always " + run + dir_ / "always" + "'");
  ASSERT_EQ(always.exit_code, 1) << always.out;
  EXPECT_NE(always.out.find("\x1b[31mNOT CONFORMANT\x1b[0m"), std::string::npos)
      << always.out;
  EXPECT_NE(always.out.find("\x1b[31mFAIL\x1b[0m"), std::string::npos) << always.out;
  for (const char* file : {"summary.md", "report.html", "junit.xml", "report.jsonl"})
    EXPECT_FALSE(HasEscape(ReadText(fs::path(dir_ / "always") / file))) << file;
  // --color after the subcommand too, and on replay's closing line.
  const CommandResult replay =
      RunIctk("replay --adapter builtin:sample --color=always fixtures/corpus/def.id-unique");
  EXPECT_TRUE(HasEscape(replay.out)) << replay.out;
  EXPECT_FALSE(HasEscape(RunIctk("replay --adapter builtin:sample fixtures/corpus/def.id-unique").out));
}

// The corpus replay reports progress as the random histories do: one line per 10% outside a
// terminal, the last at 100%; nothing with --quiet.
TEST_F(ConsoleTest, CorpusReplayShowsProgress) {
  const CommandResult r = RunIctk("certify --adapter builtin:sample --histories 1 --out '" +
                                  dir_ / "corpus" + "'");
  ASSERT_EQ(r.exit_code, 0) << r.out;
  size_t lines = 0, at = 0;
  std::string last;
  for (size_t pos; (pos = r.out.find("certify: corpus ", at)) != std::string::npos;) {
    const size_t end = r.out.find('\n', pos);
    last = r.out.substr(pos, end - pos);
    if (last.find("% ") != std::string::npos) ++lines;
    at = end;
  }
  EXPECT_GE(lines, 1u) << r.out;
  EXPECT_LE(lines, 10u) << r.out;
  EXPECT_NE(r.out.find("certify: corpus 100% "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find(" fixtures, 0 failing so far"), std::string::npos) << r.out;
  const CommandResult quiet = RunIctk("certify --adapter builtin:sample --histories 1 "
                                      "--quiet --out '" + dir_ / "quiet" + "'");
  ASSERT_EQ(quiet.exit_code, 0) << quiet.out;
  EXPECT_EQ(quiet.out.find("certify: corpus "), std::string::npos) << quiet.out;
}

}  // namespace
}  // namespace ictk
