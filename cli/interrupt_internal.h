/// \file
/// `certify` and `replay` on SIGINT (docs/robustness.md, "Long runs"): the process
/// ends at once with exit 130, as a kill would end it (report.jsonl keeps every finished
/// case, flushed as it finished), after one line on stderr: for certify how many cases
/// were finished and the command that continues the run with `--resume`.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace ictk::cli {

/// From now on SIGINT writes "ictk COMMAND: interrupted" to stderr, then, once
/// SetFinishedCases was called, ": N of M cases finished", then "; resume with: RESUME"
/// when `resume` is not empty, and exits with 130.
void ExitOnInterrupt(const std::string& command, const std::string& resume);

/// The count the SIGINT line gives (async-signal-safe to read: two atomics).
void SetFinishedCases(int64_t finished, int64_t total);

/// The command that continues the certify run of `argv` (argv[0] the program) in `dir`:
/// `program`, the words of `argv` after argv[0] without `--out` and `--resume` and their
/// folders, then `--resume DIR`, each word quoted for a shell where it needs it.
std::string ResumeCommand(const std::vector<std::string>& argv, const std::string& program,
                          const std::string& dir);

}  // namespace ictk::cli
