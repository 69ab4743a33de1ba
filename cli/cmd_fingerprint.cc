/// \file
/// `ictk fingerprint [--steps K] [--golden FILE] [--write FILE] [--format text|json]`:
/// the model's behaviour fingerprint (review/fingerprint.h). Prints the canonical JSON
/// (or a summary), the number of histories and the time taken (on stderr); with --golden,
/// exit 1 when the fingerprint differs from the file, printing each difference; --write
/// stores it. The global `--switch NAME=VALUE` judges under another reading (the golden
/// is taken at the defaults). Exit 2 on bad input.
#include <fmt/format.h>

#include <CLI/CLI.hpp>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <memory>
#include <string>

#include "cli/commands.h"
#include "cli/files_internal.h"
#include "codec/json_text.h"
#include "review/fingerprint.h"

namespace ictk::cli {
namespace {

struct FingerprintArgs {
  int steps = kDefaultFingerprintSteps;
  std::string golden;
  std::string write;
  std::string format = "text";
};

int RunFingerprint(const GlobalOptions& global, const FingerprintArgs& args) {
  std::optional<nlohmann::json> golden;
  if (!args.golden.empty()) {
    std::error_code ec;
    if (!std::filesystem::is_regular_file(args.golden, ec)) {
      std::fprintf(stderr, "ictk fingerprint: %s: not a readable file\n",
                   args.golden.c_str());
      return 2;
    }
    Result<std::string> text = ReadFile(args.golden);
    if (!text) {
      std::fprintf(stderr, "ictk fingerprint: %s\n", text.error().message.c_str());
      return 2;
    }
    Result<nlohmann::json> parsed = ParseJsonText(*text, args.golden);
    if (!parsed) {
      std::fprintf(stderr, "ictk fingerprint: %s\n", parsed.error().message.c_str());
      return 2;
    }
    golden = *parsed;
  }
  const auto start = std::chrono::steady_clock::now();
  const Fingerprint fp = ComputeFingerprint(args.steps, global.switches);
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::fprintf(
      stderr, "ictk fingerprint: enumerated %lld histories of up to %d steps in %.2f s\n",
      static_cast<long long>(fp.histories), fp.steps, seconds);
  const nlohmann::json doc = FingerprintToJson(fp);
  const std::string text = DumpJson(doc, 2) + "\n";
  if (!args.write.empty()) {
    std::ofstream out(args.write, std::ios::binary | std::ios::trunc);
    out << text;
    if (!out) {
      std::fprintf(stderr, "ictk fingerprint: cannot write %s\n", args.write.c_str());
      return 2;
    }
    std::fprintf(stderr, "ictk fingerprint: wrote %s\n", args.write.c_str());
  }
  if (args.format == "json") {
    std::fputs(text.c_str(), stdout);
  } else {
    std::printf("fingerprint %s\n", fp.digest.c_str());
    std::printf("histories %lld (up to %d steps)\n", static_cast<long long>(fp.histories),
                fp.steps);
    for (const auto& [result, n] : fp.results)
      std::printf("  %-16s %lld\n", result.c_str(), static_cast<long long>(n));
  }
  if (!golden) return 0;
  const std::vector<std::string> diff = DiffFingerprintJson(*golden, doc);
  if (diff.empty()) {
    std::printf("matches %s\n", args.golden.c_str());
    return 0;
  }
  std::printf("differs from %s in %zu places:\n", args.golden.c_str(), diff.size());
  for (const std::string& line : diff) std::printf("  %s\n", line.c_str());
  const std::string steps =
      fp.steps == kDefaultFingerprintSteps ? "" : fmt::format(" --steps {}", fp.steps);
  std::printf(
      "If the model change is intended, update the golden in the same change:\n"
      "  ictk fingerprint%s --write %s\n",
      steps.c_str(), args.golden.c_str());
  return 1;
}

}  // namespace

SubcommandRunner AddFingerprintCommand(CLI::App& app, CLI::App** subcommand) {
  auto args = std::make_shared<FingerprintArgs>();
  CLI::App* c = app.add_subcommand(
      "fingerprint",
      "Enumerate every short history over a tiny domain on the model and count the "
      "outcomes; with --golden exit 1 when they moved");
  c->add_option("--steps", args->steps,
                fmt::format("Requests after create-table, at most (default {})",
                            kDefaultFingerprintSteps))
      ->check(CLI::Range(0, 5));
  c->add_option("--golden", args->golden, "Compare with this fingerprint JSON");
  c->add_option("--write", args->write, "Write the fingerprint JSON here");
  c->add_option("--format", args->format, "text or json")
      ->check(CLI::IsMember({"text", "json"}));
  *subcommand = c;
  return [args](const GlobalOptions& global) { return RunFingerprint(global, *args); };
}

}  // namespace ictk::cli
