/// \file
/// `certify` and `replay` on SIGINT (interrupt_internal.h). The handler only reads what
/// was prepared before (two strings and two atomics) and calls write(2) and _exit(2),
/// which are async-signal-safe.
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <signal.h>
#include <unistd.h>

#include <atomic>
#include <cstring>
#include <string>
#include <vector>

#include "cli/interrupt_internal.h"
#include "fixtures/replay.h"

namespace ictk::cli {
namespace {

static_assert(std::atomic<int64_t>::is_always_lock_free);

std::atomic<int64_t> g_finished{0};
std::atomic<int64_t> g_total{-1};  ///< -1: no count yet
/// "\nictk certify: interrupted" and "; resume with: ...\n" (never freed: the handler may
/// run until the process ends).
const std::string* g_head = nullptr;
const std::string* g_tail = nullptr;

void WriteAll(const char* text, size_t size) {
  while (size > 0) {
    const ssize_t n = ::write(2, text, size);
    if (n <= 0) return;
    text += n;
    size -= static_cast<size_t>(n);
  }
}

void WriteNumber(int64_t value) {
  char digits[24];
  size_t at = sizeof digits;
  uint64_t v = value < 0 ? 0 : static_cast<uint64_t>(value);
  do {
    digits[--at] = static_cast<char>('0' + v % 10);
    v /= 10;
  } while (v > 0);
  WriteAll(digits + at, sizeof digits - at);
}

extern "C" void OnInterrupt(int) {
  if (g_head != nullptr) WriteAll(g_head->data(), g_head->size());
  const int64_t total = g_total.load();
  if (total >= 0) {
    WriteAll(": ", 2);
    WriteNumber(g_finished.load());
    WriteAll(" of ", 4);
    WriteNumber(total);
    WriteAll(" cases finished", 15);
  }
  if (g_tail != nullptr) WriteAll(g_tail->data(), g_tail->size());
  ::_exit(130);
}

}  // namespace

void ExitOnInterrupt(const std::string& command, const std::string& resume) {
  // A live progress bar (a terminal) has no newline yet: the line starts after it.
  g_head = new std::string(fmt::format("{}ictk {}: interrupted", ::isatty(2) == 1 ? "\n" : "",
                                       command));
  g_tail = new std::string(resume.empty() ? "\n" : "; resume with: " + resume + "\n");
  struct sigaction action;
  std::memset(&action, 0, sizeof action);
  action.sa_handler = OnInterrupt;
  sigemptyset(&action.sa_mask);
  ::sigaction(SIGINT, &action, nullptr);
}

void SetFinishedCases(int64_t finished, int64_t total) {
  g_finished.store(finished);
  g_total.store(total);
}

std::string ResumeCommand(const std::vector<std::string>& argv, const std::string& program,
                          const std::string& dir) {
  std::vector<std::string> words = {program};
  for (size_t i = 1; i < argv.size(); ++i) {
    const std::string& w = argv[i];
    if (w.starts_with("--out=") || w.starts_with("--resume=")) continue;
    if (w == "--out") {
      ++i;  // its folder
      continue;
    }
    if (w == "--resume") {
      // Its folder is optional: the next word, unless that is a flag.
      if (i + 1 < argv.size() && !argv[i + 1].starts_with("-")) ++i;
      continue;
    }
    words.push_back(ShellQuote(w));
  }
  words.push_back("--resume");
  words.push_back(ShellQuote(dir));
  return fmt::format("{}", fmt::join(words, " "));
}

}  // namespace ictk::cli
