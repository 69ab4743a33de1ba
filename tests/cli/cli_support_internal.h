/// \file
/// Running the built `ictk` executable from tests: exit code and captured output.
#pragma once

#include <array>
#include <cstdio>
#include <string>
#include <sys/wait.h>

namespace ictk::testing {

struct CommandResult {
  int exit_code = -1;
  std::string out;  ///< stdout and stderr together
};

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

}  // namespace ictk::testing
