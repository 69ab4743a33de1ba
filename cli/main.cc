/// \file
/// The `ictk` command line: parses arguments with CLI11, builds the run configuration
/// (switches, formats) and dispatches to the subcommands in commands.h. No other layer
/// reads the command line or the environment.
#include <fmt/format.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "cli/adapter_config.h"
#include "cli/commands.h"
#include "cli/console_internal.h"
#include "cli/usage_internal.h"
#include "model/rules/switches.h"

#ifndef ICTK_VERSION
#define ICTK_VERSION "0.0.0"
#endif

namespace {

using ictk::cli::SubcommandRunner;

/// A subcommand and what runs it when it is the one given.
struct Command {
  CLI::App* app = nullptr;
  SubcommandRunner run;
};

Command AddRules(CLI::App& app) {
  auto format = std::make_shared<std::string>("text");
  auto* c = app.add_subcommand("rules", "Print the rule catalogue");
  c->add_option("--format", *format, "text, markdown or json")
      ->check(CLI::IsMember({"text", "markdown", "json"}));
  return {c,
          [format](const auto& global) { return ictk::cli::RunRules(global, *format); }};
}

Command AddLintMetadata(CLI::App& app) {
  auto files = std::make_shared<std::vector<std::string>>();
  auto format = std::make_shared<std::string>("text");
  auto* c = app.add_subcommand(
      "lint-metadata",
      "Check table metadata files against every metadata rule; exit 0 clean, 1 findings, "
      "2 unreadable input");
  c->add_option("files", *files, "Table metadata JSON files")->required();
  c->add_option("--format", *format, "text or json")
      ->check(CLI::IsMember({"text", "json"}));
  return {c, [files, format](const auto& global) {
            return ictk::cli::RunLintMetadata(global, *files, *format);
          }};
}

Command AddMutants(CLI::App& app) {
  auto format = std::make_shared<std::string>("text");
  auto list = std::make_shared<bool>(true);
  auto* c = app.add_subcommand(
      "mutants", "List the sample implementation's named mutants (name, rule ID, bug)");
  c->add_flag("--list", *list, "List the mutants (the default)");
  c->add_option("--format", *format, "text or json")
      ->check(CLI::IsMember({"text", "json"}));
  // `list` is captured although unused: CLI11 writes to it when it parses `--list`, after
  // this function has returned (ASan found it freed when only `format` was kept).
  return {c, [format, list](const auto& global) {
            (void)list;
            return ictk::cli::RunMutants(global, *format);
          }};
}

Command AddServe(CLI::App& app) {
  auto flags = std::make_shared<ictk::cli::AdapterFlags>();
  auto* c = app.add_subcommand(
      "serve",
      "Speak the exec protocol on stdin/stdout for any adapter (e.g. an oracle)");
  ictk::cli::AddAdapterFlags(c, *flags);
  return {c, [flags](const auto& global) { return ictk::cli::RunServe(global, *flags); }};
}

Command AddValidateAdapter(CLI::App& app) {
  auto flags = std::make_shared<ictk::cli::AdapterFlags>();
  auto format = std::make_shared<std::string>("text");
  auto verbose = std::make_shared<bool>(false);
  auto* c = app.add_subcommand(
      "validate-adapter",
      "Check an adapter's messages against protocol version 1; exit 0 when it conforms");
  ictk::cli::AddAdapterFlags(c, *flags);
  c->add_option("--format", *format, "text or json")
      ->check(CLI::IsMember({"text", "json"}));
  c->add_flag("--verbose", *verbose, "Print the messages of failed steps");
  return {c, [flags, format, verbose](const auto& global) {
            return ictk::cli::RunValidateAdapter(global, *flags, *format, *verbose);
          }};
}

/// A subcommand whose Add*Command function reports the subcommand through a pointer.
template <typename Add, typename... Args>
Command AddWith(Add add, CLI::App& app, Args&&... args) {
  Command c;
  c.run = add(app, &c.app, std::forward<Args>(args)...);
  return c;
}

/// Every subcommand, in the order `ictk --help` lists them.
std::vector<Command> AddCommands(CLI::App& app, const std::vector<std::string>& argv) {
  std::vector<Command> commands;
  commands.push_back(AddRules(app));
  commands.push_back(AddLintMetadata(app));
  commands.push_back(AddMutants(app));
  commands.push_back(AddServe(app));
  commands.push_back(AddValidateAdapter(app));
  commands.push_back(AddWith(ictk::cli::AddCertifyCommand, app, argv));
  commands.push_back(AddWith(ictk::cli::AddReportCommand, app));
  commands.push_back(AddWith(ictk::cli::AddTraceCommand, app));
  commands.push_back(AddWith(ictk::cli::AddSpecDiffCommand, app));
  commands.push_back(AddWith(ictk::cli::AddReviewCommand, app));
  commands.push_back(AddWith(ictk::cli::AddFingerprintCommand, app));
  commands.push_back(AddWith(ictk::cli::AddReplayCommand, app, argv));
  commands.push_back(AddWith(ictk::cli::AddFixturesCommand, app));
  commands.push_back(AddWith(ictk::cli::AddExpectationsCommand, app));
  commands.push_back(AddWith(ictk::cli::AddPathsCommand, app));
  return commands;
}

/// `--color=auto|always|never` on `app` and every subcommand under it, so that it may
/// stand anywhere on the command line (cli/console_internal.h).
void AddColorFlag(CLI::App& app, const std::shared_ptr<std::string>& color) {
  app.add_option("--color", *color,
                 "Colour the verdicts, FAIL and error: auto (on a terminal, unless "
                 "NO_COLOR is set), always or never")
      ->check(CLI::IsMember({"auto", "always", "never"}))
      ->type_name("WHEN");
  for (CLI::App* sub : app.get_subcommands([](CLI::App*) { return true; }))
    AddColorFlag(*sub, color);
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"ictk: the Iceberg v4 table-constraints conformance kit"};
  app.require_subcommand(1);
  app.set_version_flag("--version", std::string("ictk ") + ICTK_VERSION);

  ictk::cli::GlobalOptions global;
  std::vector<std::string> switch_args;
  app.add_option("--switch", switch_args,
                 "Interpretation switch NAME=VALUE (see `ictk rules` and "
                 "docs/interpretations.md); "
                 "repeatable")
      ->type_name("NAME=VALUE");
  const std::vector<Command> commands =
      AddCommands(app, std::vector<std::string>(argv, argv + argc));
  auto color = std::make_shared<std::string>("auto");
  AddColorFlag(app, color);

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    // CLI11 has stored the options it read before the error (--color among them).
    ictk::cli::SetColorChoice(ictk::cli::ParseColorChoice(*color));
    if (e.get_exit_code() != 0)
      if (const std::string message = ictk::cli::UnknownWordMessage(
              app, std::vector<std::string>(argv + std::min(argc, 1), argv + argc));
          !message.empty()) {
        std::fprintf(stderr, "%s\n", message.c_str());
        return 2;
      }
    return app.exit(e) == 0 ? 0 : 2;
  }
  ictk::cli::SetColorChoice(ictk::cli::ParseColorChoice(*color));

  if (const std::string error =
          ictk::cli::ApplySwitchSettings(global.switches, switch_args, "--switch");
      !error.empty()) {
    std::fprintf(stderr, "ictk: %s\n", error.c_str());
    return 2;
  }
  for (const Command& c : commands)
    if (*c.app) return c.run(global);
  return 2;
}
