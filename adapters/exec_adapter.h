/// \file
/// The `exec:` transport: the implementation runs as a child process that reads one
/// request per line on stdin and writes one response per line on stdout
/// (docs/protocol.md). The child runs in its own process group; a crash, a hang past the
/// timeout, a line that is not a valid response, an over-long line or output nobody asked
/// for ends it, and the next call starts a fresh one. stderr is drained continuously into
/// a bounded tail for the report.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "adapters/adapter.h"
#include "codec/result.h"

namespace ictk {

/// Splits `text` into words by the POSIX shell's quoting rules, without running a shell:
/// blanks separate words; '...' keeps everything literally; "..." keeps everything but
/// `\"`, `\\`, `\$`, `` \` `` and `\<newline>`; a backslash outside quotes quotes the
/// next character. No expansion of any kind (variables, globs, `~`) is done. An
/// unterminated quote or a trailing backslash is a kUsage error.
Result<std::vector<std::string>> SplitShellWords(std::string_view text);

/// An adapter that runs `argv` (argv[0] is looked up in PATH when it has no '/').
/// `description` is what Describe() answers (the spec string). The process is started on
/// the first call, not here.
std::unique_ptr<Adapter> MakeExecAdapter(std::vector<std::string> argv,
                                         const AdapterOptions& options,
                                         std::string description);

/// "" when `program` is a bare name (looked up in PATH when started) or a path to an
/// executable file; otherwise why it cannot be run.
std::string ExecutableProblem(const std::string& program);

}  // namespace ictk
