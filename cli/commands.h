/// \file
/// The subcommands of `ictk`. main.cc builds the CLI11 app and the run configuration, and
/// hands each subcommand its options as plain values; each returns the process exit code.
#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "model/rules/switches.h"

namespace CLI {
class App;
}  // namespace CLI

namespace ictk::cli {

/// Options every subcommand shares.
struct GlobalOptions {
  Switches switches;
};

/// Applies NAME=VALUE settings (of `flag`: --switch, --a, --b) to `switches`; "" on
/// success, else "FLAG SETTING: why".
std::string ApplySwitchSettings(Switches& switches, const std::vector<std::string>& settings,
                                std::string_view flag);

/// `ictk rules [--format text|markdown|json]`.
int RunRules(const GlobalOptions& global, const std::string& format);

/// `ictk lint-metadata [--format text|json] FILE...`: exit 0 clean, 1 findings, 2 unreadable.
int RunLintMetadata(const GlobalOptions& global, const std::vector<std::string>& files,
                    const std::string& format);

/// `ictk mutants [--list] [--format text|json]`: the sample's named mutants
/// (cli/cmd_mutants.cc).
int RunMutants(const GlobalOptions& global, const std::string& format);

struct AdapterFlags;  // cli/adapter_config.h

/// `ictk serve --adapter SPEC`: the exec protocol on stdin/stdout in front of any adapter.
int RunServe(const GlobalOptions& global, const AdapterFlags& flags);

/// `ictk validate-adapter --adapter SPEC [--format text|json] [--verbose]`: exit 0 only
/// when everything the adapter declares conforms to the protocol.
int RunValidateAdapter(const GlobalOptions& global, const AdapterFlags& flags,
                       const std::string& format, bool verbose);

/// A subcommand that registers its own options on the app; the function runs it once the
/// command line is parsed and returns the exit code.
using SubcommandRunner = std::function<int(const GlobalOptions&)>;

/// `ictk certify --adapter SPEC [--histories N] [--seed S] [--out DIR] [--jobs J] ...`
/// (cli/cmd_certify.cc, docs/certify.md). `argv` is recorded in the report header.
SubcommandRunner AddCertifyCommand(CLI::App& app, CLI::App** subcommand,
                                   const std::vector<std::string>& argv);

/// `ictk report diff A B` (report.jsonl files or run folders), `ictk report render
/// REPORT.jsonl` and `ictk report merge SHARD_DIR... --out DIR` (cli/cmd_report.cc).
SubcommandRunner AddReportCommand(CLI::App& app, CLI::App** subcommand);

/// `ictk trace --spec FILE [--format text|markdown|json]`: spec sentences -> rule IDs ->
/// tests, fixtures, generator tags; exit 1 on untraced sentences or stale rules
/// (cli/cmd_trace.cc, docs/spec-review.md).
SubcommandRunner AddTraceCommand(CLI::App& app, CLI::App** subcommand);

/// `ictk spec-diff --a NAME=VALUE... --b NAME=VALUE... [--histories N] [--seed S] [--out
/// DIR] [--format ...]`: shortest histories on which two readings disagree; exit 0 on
/// success (cli/cmd_spec_diff.cc).
SubcommandRunner AddSpecDiffCommand(CLI::App& app, CLI::App** subcommand);

/// `ictk review [--spec FILE] [--base FILE] [--histories N] [--seed S] --out DIR`: one
/// document for a spec change's authors (cli/cmd_review.cc, docs/spec-review.md).
SubcommandRunner AddReviewCommand(CLI::App& app, CLI::App** subcommand);

/// `ictk paths [--format text|json]`: where the corpus, examples, CI steps, fixture runner
/// and docs are found, installed or in the checkout (cli/cmd_paths.cc).
SubcommandRunner AddPathsCommand(CLI::App& app, CLI::App** subcommand);

/// `ictk fingerprint [--steps K] [--golden FILE] [--write FILE] [--format text|json]`:
/// the model's behaviour fingerprint; exit 1 when it differs from the golden
/// (cli/cmd_fingerprint.cc).
SubcommandRunner AddFingerprintCommand(CLI::App& app, CLI::App** subcommand);

/// `ictk replay --adapter SPEC [--expect FILE] [--strict] [--switch N=V]... [--out DIR]
/// PATH...` (cli/cmd_replay.cc, docs/replay.md): replays fixture files or folders.
SubcommandRunner AddReplayCommand(CLI::App& app, CLI::App** subcommand,
                                  const std::vector<std::string>& argv);

/// `ictk fixtures generate --out DIR [--seed S] [--per-rule N]` and `ictk fixtures verify
/// DIR` (cli/cmd_fixtures.cc).
SubcommandRunner AddFixturesCommand(CLI::App& app, CLI::App** subcommand);

/// `ictk expectations update --report DIR [--out FILE]` (cli/cmd_expectations.cc).
SubcommandRunner AddExpectationsCommand(CLI::App& app, CLI::App** subcommand);

}  // namespace ictk::cli
