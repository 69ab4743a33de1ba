/// \file
/// The `ictk` command line: parses arguments with CLI11, builds the run configuration
/// (switches, formats) and dispatches to the subcommands in commands.h. No other layer reads
/// the command line or the environment.
#include <cstdio>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "cli/adapter_config.h"
#include "cli/commands.h"
#include "model/rules/switches.h"

#ifndef ICTK_VERSION
#define ICTK_VERSION "0.0.0"
#endif

int main(int argc, char** argv) {
  CLI::App app{"ictk: the Iceberg v4 table-constraints conformance kit"};
  app.require_subcommand(1);
  app.set_version_flag("--version", std::string("ictk ") + ICTK_VERSION);

  ictk::cli::GlobalOptions global;
  std::vector<std::string> switch_args;
  app.add_option("--switch", switch_args,
                 "Interpretation switch NAME=VALUE (see `ictk rules` and docs/interpretations.md); "
                 "repeatable")
      ->type_name("NAME=VALUE");

  std::string rules_format = "text";
  auto* rules = app.add_subcommand("rules", "Print the rule catalogue");
  rules->add_option("--format", rules_format, "text, markdown or json")
      ->check(CLI::IsMember({"text", "markdown", "json"}));

  std::vector<std::string> lint_files;
  std::string lint_format = "text";
  auto* lint = app.add_subcommand(
      "lint-metadata",
      "Check table metadata files against every metadata rule; exit 0 clean, 1 findings, "
      "2 unreadable input");
  lint->add_option("files", lint_files, "Table metadata JSON files")->required();
  lint->add_option("--format", lint_format, "text or json")
      ->check(CLI::IsMember({"text", "json"}));

  std::string mutants_format = "text";
  bool mutants_list = true;
  auto* mutants = app.add_subcommand(
      "mutants", "List the sample implementation's named mutants (name, rule ID, bug)");
  mutants->add_flag("--list", mutants_list, "List the mutants (the default)");
  mutants->add_option("--format", mutants_format, "text or json")
      ->check(CLI::IsMember({"text", "json"}));

  ictk::cli::AdapterFlags serve_flags;
  auto* serve = app.add_subcommand(
      "serve", "Speak the exec protocol on stdin/stdout for any adapter (e.g. an oracle)");
  ictk::cli::AddAdapterFlags(serve, serve_flags);

  ictk::cli::AdapterFlags validate_flags;
  std::string validate_format = "text";
  bool validate_verbose = false;
  auto* validate = app.add_subcommand(
      "validate-adapter",
      "Check an adapter's messages against protocol version 1; exit 0 when it conforms");
  ictk::cli::AddAdapterFlags(validate, validate_flags);
  validate->add_option("--format", validate_format, "text or json")
      ->check(CLI::IsMember({"text", "json"}));
  validate->add_flag("--verbose", validate_verbose, "Print the messages of failed steps");

  CLI::App* certify = nullptr;
  auto run_certify = ictk::cli::AddCertifyCommand(app, &certify,
                                                  std::vector<std::string>(argv, argv + argc));
  CLI::App* report = nullptr;
  auto run_report = ictk::cli::AddReportCommand(app, &report);
  CLI::App* trace = nullptr;
  auto run_trace = ictk::cli::AddTraceCommand(app, &trace);
  CLI::App* spec_diff = nullptr;
  auto run_spec_diff = ictk::cli::AddSpecDiffCommand(app, &spec_diff);
  CLI::App* review = nullptr;
  auto run_review = ictk::cli::AddReviewCommand(app, &review);
  CLI::App* fingerprint = nullptr;
  auto run_fingerprint = ictk::cli::AddFingerprintCommand(app, &fingerprint);

  CLI::App* replay = nullptr;
  auto run_replay = ictk::cli::AddReplayCommand(app, &replay,
                                                std::vector<std::string>(argv, argv + argc));
  CLI::App* fixtures = nullptr;
  auto run_fixtures = ictk::cli::AddFixturesCommand(app, &fixtures);
  CLI::App* expectations = nullptr;
  auto run_expectations = ictk::cli::AddExpectationsCommand(app, &expectations);

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e) == 0 ? 0 : 2;
  }

  if (const std::string error =
          ictk::cli::ApplySwitchSettings(global.switches, switch_args, "--switch");
      !error.empty()) {
    std::fprintf(stderr, "ictk: %s\n", error.c_str());
    return 2;
  }

  if (*certify) return run_certify(global);
  if (*replay) return run_replay(global);
  if (*fixtures) return run_fixtures(global);
  if (*expectations) return run_expectations(global);
  if (*report) return run_report(global);
  if (*trace) return run_trace(global);
  if (*spec_diff) return run_spec_diff(global);
  if (*review) return run_review(global);
  if (*fingerprint) return run_fingerprint(global);
  if (*rules) return ictk::cli::RunRules(global, rules_format);
  if (*lint) return ictk::cli::RunLintMetadata(global, lint_files, lint_format);
  if (*mutants) return ictk::cli::RunMutants(global, mutants_format);
  if (*serve) return ictk::cli::RunServe(global, serve_flags);
  if (*validate) {
    return ictk::cli::RunValidateAdapter(global, validate_flags, validate_format,
                                         validate_verbose);
  }
  return 2;
}
