/// \file
/// Helpers for the adapter tests: the test adapters in tests/adapters/hostile/, the
/// Python that runs them, and the processes the test process has left behind (/proc).
#pragma once

#include <dirent.h>
#include <signal.h>
#include <unistd.h>

#include <chrono>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

namespace ictk::testing_support {

/// Debian's python3 when present (it starts fastest and has python3-jsonschema), else the
/// first python3 in PATH.
inline std::string Python() {
  if (::access("/usr/bin/python3", X_OK) == 0) return "/usr/bin/python3";
  return "python3";
}

/// Single-quotes `s` for an exec: spec (POSIX shell word rules).
inline std::string ShellQuote(const std::string& s) {
  std::string out = "'";
  for (char c : s) {
    if (c == '\'') {
      out += "'\\''";
    } else {
      out += c;
    }
  }
  return out + "'";
}

/// `exec:` spec running tests/adapters/hostile/NAME.py with `args`.
inline std::string HostileSpec(const std::string& name, const std::string& args = "") {
  std::string script =
      std::string(ICTK_SOURCE_DIR) + "/tests/adapters/hostile/" + name + ".py";
  std::string spec = "exec:" + ShellQuote(Python()) + " " + ShellQuote(script);
  if (!args.empty()) spec += " " + args;
  return spec;
}

/// The state letter of process `pid` ('R', 'S', 'Z', ...) and its parent, from
/// /proc/PID/stat; state 0 when there is no such process.
struct ProcStat {
  char state = 0;
  int ppid = 0;
};
inline ProcStat ReadProcStat(int pid) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/stat");
  std::string text((std::istreambuf_iterator<char>(in)),
                   std::istreambuf_iterator<char>());
  ProcStat st;
  size_t close = text.rfind(')');
  if (close == std::string::npos) return st;
  std::istringstream rest(text.substr(close + 1));
  rest >> st.state >> st.ppid;
  return st;
}

/// The pids whose parent is this process (zombies included: an unreaped child is a leak).
inline std::vector<int> ChildProcesses() {
  std::vector<int> out;
  DIR* dir = ::opendir("/proc");
  if (dir == nullptr) return out;
  const int self = static_cast<int>(::getpid());
  while (dirent* e = ::readdir(dir)) {
    char* end = nullptr;
    long pid = std::strtol(e->d_name, &end, 10);
    if (end == e->d_name || *end != '\0') continue;
    ProcStat st = ReadProcStat(static_cast<int>(pid));
    if (st.state != 0 && st.ppid == self) out.push_back(static_cast<int>(pid));
  }
  ::closedir(dir);
  return out;
}

/// Whether `pid` is still running (a zombie is not), waiting up to `ms` for it to end.
inline bool StillRunning(int pid, int ms = 3000) {
  auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(ms);
  for (;;) {
    ProcStat st = ReadProcStat(pid);
    if (st.state == 0 || st.state == 'Z' || st.state == 'X') return false;
    if (std::chrono::steady_clock::now() >= deadline) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
}

}  // namespace ictk::testing_support
