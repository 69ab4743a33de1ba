/// \file
/// Usage errors for people (README "Commands"): a misspelled subcommand or flag is named,
/// with the nearest known name (`did you mean `certify`?`), instead of CLI11's generic
/// "A subcommand is required" or "The following arguments were not expected".
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace CLI {
class App;
}  // namespace CLI

namespace ictk::cli {

/// The optimal-string-alignment distance of `a` and `b` (Damerau–Levenshtein where no
/// substring is edited twice): insertions, deletions, substitutions and transpositions of
/// two neighbouring characters, one each.
size_t EditDistance(std::string_view a, std::string_view b);

/// The names of `known` nearest to `word`: those within the edit distance a word of its
/// length allows (0 up to 2 characters, 1 up to 4, else 2), the nearest first, ties in
/// the order of `known`; failing those, the names `word` (3 characters or more) is the
/// start of. Empty when nothing is near.
std::vector<std::string> NearestNames(std::string_view word,
                                      const std::vector<std::string>& known);

/// After a parse error of `app` on `args` (argv without the program): the first word
/// that names no subcommand or flag where it stands, as a one-line message ("ictk
/// certify: error: unknown flag `--histries`; did you mean `--histories`?"), the
/// "error:" coloured for stderr (cli/console_internal.h). "" when every word is known (the
/// error is another one, CLI11's message says which).
std::string UnknownWordMessage(CLI::App& app, const std::vector<std::string>& args);

}  // namespace ictk::cli
