/// \file
/// Running the built `ictk` executable from tests: exit code and captured output.
#pragma once

#include <fcntl.h>
#include <spawn.h>
#include <stdlib.h>
#include <sys/wait.h>

#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

extern char** environ;

namespace ictk::testing {

struct CommandResult {
  int exit_code = -1;
  std::string out;  ///< stdout and stderr together
};

/// A fresh directory under the system's temp dir (`PREFIX-XXXXXX`), removed with
/// everything in it at the end of the test.
class TempDir {
 public:
  explicit TempDir(const std::string& prefix = "ictk-test") {
    std::string tmpl =
        (std::filesystem::temp_directory_path() / (prefix + "-XXXXXX")).string();
    if (mkdtemp(tmpl.data()) != nullptr) path_ = tmpl;
  }
  ~TempDir() {
    std::error_code ec;
    if (!path_.empty()) std::filesystem::remove_all(path_, ec);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  std::string operator/(const std::string& name) const { return (path_ / name).string(); }

 private:
  std::filesystem::path path_;
};

/// A file's whole text ("" when it is missing).
inline std::string ReadText(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

/// The JSON lines of a file (report.jsonl), empty lines skipped; none when it is missing.
inline std::vector<nlohmann::json> ReadJsonl(const std::string& path) {
  std::ifstream in(path);
  std::vector<nlohmann::json> out;
  std::string line;
  while (std::getline(in, line))
    if (!line.empty()) out.push_back(nlohmann::json::parse(line));
  return out;
}

/// Runs `build/bin/ictk ARGS` from the source root (so relative data paths work).
inline CommandResult RunIctk(const std::string& args) {
  std::string cmd = std::string("cd '") + ICTK_SOURCE_DIR + "' && '" + ICTK_BIN_DIR +
                    "/ictk' " + args + " 2>&1";
  CommandResult r;
  FILE* p = popen(cmd.c_str(), "r");
  if (!p) return r;
  std::array<char, 4096> buf;
  size_t n;
  while ((n = fread(buf.data(), 1, buf.size(), p)) > 0) r.out.append(buf.data(), n);
  int status = pclose(p);
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return r;
}

/// Runs the shell command line `line` as a user would paste it into a fresh shell: from
/// the root folder, with only PATH=/usr/bin:/bin in the environment (so neither this
/// process's working folder nor its PATH helps it).
inline CommandResult RunInFreshShell(const std::string& line) {
  std::string quoted = "'";
  for (char ch : line) quoted += ch == '\'' ? std::string("'\\''") : std::string(1, ch);
  quoted += "'";
  const std::string cmd = "cd / && env -i PATH=/usr/bin:/bin sh -c " + quoted + " 2>&1";
  CommandResult r;
  FILE* p = popen(cmd.c_str(), "r");
  if (!p) return r;
  std::array<char, 4096> buf;
  size_t n;
  while ((n = fread(buf.data(), 1, buf.size(), p)) > 0) r.out.append(buf.data(), n);
  int status = pclose(p);
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return r;
}

/// Spawns `argv` (searched on PATH when its first word names no folder) with stdin from
/// /dev/null and stdout and stderr into `log`; its pid, or -1.
inline pid_t SpawnWithLog(std::vector<std::string> argv, const std::string& log) {
  std::vector<char*> raw;
  for (std::string& a : argv) raw.push_back(a.data());
  raw.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 1, log.c_str(), O_WRONLY | O_CREAT | O_TRUNC,
                                   0644);
  posix_spawn_file_actions_adddup2(&actions, 1, 2);
  posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
  pid_t pid = -1;
  const int rc = posix_spawnp(&pid, raw[0], &actions, nullptr, raw.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  return rc == 0 ? pid : -1;
}

/// Starts `build/bin/ictk ARGS` (no shell) with stdin from /dev/null and stdout and
/// stderr into the file `log`, so that a flood of output cannot block the child; returns
/// its pid, -1 when it cannot be started. The caller waits for it.
inline pid_t SpawnIctk(const std::vector<std::string>& args, const std::string& log) {
  std::vector<std::string> argv = {std::string(ICTK_BIN_DIR) + "/ictk"};
  argv.insert(argv.end(), args.begin(), args.end());
  return SpawnWithLog(std::move(argv), log);
}

}  // namespace ictk::testing
