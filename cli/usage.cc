/// \file
/// Usage errors for people (usage_internal.h): the unknown word of a command line that
/// CLI11 refused, and the known names nearest to it.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cctype>
#include <string>
#include <vector>

#include "cli/console_internal.h"
#include "cli/usage_internal.h"

namespace ictk::cli {
namespace {

/// "ictk", "ictk certify", "ictk report diff": how the messages name `app`.
std::string CommandName(const CLI::App& app) {
  std::vector<std::string> names;
  for (const CLI::App* a = &app; a != nullptr; a = a->get_parent())
    names.insert(names.begin(), a->get_parent() == nullptr ? "ictk" : a->get_name());
  return fmt::format("{}", fmt::join(names, " "));
}

std::vector<CLI::App*> Subcommands(CLI::App& app) {
  return app.get_subcommands([](CLI::App*) { return true; });
}

CLI::App* FindSubcommand(CLI::App& app, const std::string& word) {
  for (CLI::App* s : Subcommands(app))
    if (s->check_name(word)) return s;
  return nullptr;
}

bool HasPositionals(CLI::App& app) {
  return !app.get_options([](CLI::Option* o) { return o->get_positional(); }).empty();
}

/// The flag `name` ("--out", "-h") of `app`, or nullptr.
CLI::Option* FindFlag(CLI::App& app, const std::string& name) {
  for (CLI::Option* o : app.get_options())
    if (o->nonpositional() && o->check_name(name)) return o;
  return nullptr;
}

/// The flags of `app` with their dashes, long names first.
std::vector<std::string> FlagNames(CLI::App& app) {
  std::vector<std::string> longs, shorts;
  for (CLI::Option* o : app.get_options()) {
    for (const std::string& n : o->get_lnames()) longs.push_back("--" + n);
    for (const std::string& n : o->get_snames()) shorts.push_back("-" + n);
  }
  longs.insert(longs.end(), shorts.begin(), shorts.end());
  return longs;
}

/// " did you mean `a`?" / " did you mean `a` or `b`?", or `otherwise` when none is near.
std::string Suggestion(const std::string& word, const std::vector<std::string>& known,
                       const std::string& otherwise) {
  std::vector<std::string> near = NearestNames(word, known);
  if (near.size() > 3) near.resize(3);
  if (near.empty()) return otherwise;
  for (std::string& n : near) n = "`" + n + "`";
  return fmt::format("; did you mean {}?", fmt::join(near, " or "));
}

std::string UnknownFlag(CLI::App& app, const std::string& flag) {
  const std::string name = CommandName(app);
  return fmt::format("{}: {} unknown flag `{}`{}", name, ErrorWord(), flag,
                     Suggestion(flag, FlagNames(app),
                                fmt::format(" (`{} --help` lists the flags)", name)));
}

std::string UnknownSubcommand(CLI::App& app, const std::string& word) {
  std::vector<std::string> names;
  for (CLI::App* s : Subcommands(app)) names.push_back(s->get_name());
  return fmt::format("{}: {} unknown subcommand `{}`{}", CommandName(app), ErrorWord(),
                     word,
                     Suggestion(word, names,
                                fmt::format(" (the subcommands: {})", fmt::join(names, ", "))));
}

/// How many of the words after args[at] (a flag without `=VALUE`) are its values, as
/// CLI11 takes them: one for a flag that needs one, then more while they do not look like
/// flags (a repeatable option), none for a switch.
size_t ValuesAfter(const CLI::Option& flag, CLI::App& app,
                   const std::vector<std::string>& args, size_t at) {
  const int max = flag.get_items_expected_max();
  size_t n = 0;
  while (at + 1 + n < args.size() && static_cast<int>(n) < max) {
    const std::string& next = args[at + 1 + n];
    const bool needed = static_cast<int>(n) < flag.get_items_expected_min();
    if (!needed && (next.starts_with("-") || FindSubcommand(app, next) != nullptr)) break;
    ++n;
  }
  return n;
}

}  // namespace

size_t EditDistance(std::string_view a, std::string_view b) {
  // d[i][j]: the distance of a's first i and b's first j characters.
  std::vector<std::vector<size_t>> d(a.size() + 1, std::vector<size_t>(b.size() + 1));
  for (size_t i = 0; i <= a.size(); ++i) d[i][0] = i;
  for (size_t j = 0; j <= b.size(); ++j) d[0][j] = j;
  for (size_t i = 1; i <= a.size(); ++i)
    for (size_t j = 1; j <= b.size(); ++j) {
      const size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
      d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1])
        d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
    }
  return d[a.size()][b.size()];
}

std::vector<std::string> NearestNames(std::string_view word,
                                      const std::vector<std::string>& known) {
  // Flags are compared without their dashes: `--histries` is two edits from `--histories`
  // whatever the dashes.
  auto bare = [](std::string_view s) {
    return s.substr(std::min(s.find_first_not_of('-'), s.size()));
  };
  const std::string_view w = bare(word);
  const size_t allowed = w.size() <= 2 ? 0 : w.size() <= 4 ? 1 : 2;
  size_t best = allowed + 1;
  std::vector<std::string> nearest;
  for (const std::string& k : known) {
    const size_t d = EditDistance(w, bare(k));
    if (d > best) continue;
    if (d < best) nearest.clear();
    best = d;
    nearest.push_back(k);
  }
  if (!nearest.empty() || w.size() < 3) return nearest;
  for (const std::string& k : known)
    if (bare(k).starts_with(w)) nearest.push_back(k);
  return nearest;
}

std::string UnknownWordMessage(CLI::App& app, const std::vector<std::string>& args) {
  CLI::App* current = &app;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& word = args[i];
    if (word == "--") return "";
    if (word.size() > 1 && word[0] == '-' &&
        std::isdigit(static_cast<unsigned char>(word[1])) == 0) {
      const size_t eq = word.find('=');
      // -abc: CLI11 reads single-dash groups of short flags; only the first is looked up.
      const std::string name = word[1] == '-' ? word.substr(0, eq) : word.substr(0, 2);
      CLI::Option* flag = FindFlag(*current, name);
      if (flag == nullptr) return UnknownFlag(*current, name);
      if (eq == std::string::npos && (word[1] == '-' || word.size() == 2))
        i += ValuesAfter(*flag, *current, args, i);
      continue;
    }
    if (CLI::App* sub = FindSubcommand(*current, word)) {
      current = sub;
      continue;
    }
    if (!HasPositionals(*current) && !Subcommands(*current).empty())
      return UnknownSubcommand(*current, word);
  }
  return "";
}

}  // namespace ictk::cli
