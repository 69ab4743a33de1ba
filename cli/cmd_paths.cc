/// \file
/// `ictk paths [--format text|json]` (README, "Commands"): where this ictk finds what it
/// ships beside the binary — the fixture corpus certify replays, the adapter examples,
/// the CI steps, the stand-alone fixture runner and the docs — installed
/// (`<prefix>/bin/ictk` -> `<prefix>/share/ictk/...`, `<prefix>/share/doc/ictk`) or in the
/// checkout a build tree's binary came from (`build/bin/ictk` -> the checkout). Exit 0
/// when every one is found, 1 when one is not (it says where it looked).
#include <fmt/format.h>

#include <CLI/CLI.hpp>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "cli/certify_internal.h"
#include "cli/commands.h"
#include "cli/files_internal.h"
#include "codec/json_text.h"

namespace ictk::cli {
namespace {

namespace fs = std::filesystem;

struct Place {
  std::string name;               ///< "corpus", "examples", ...
  std::vector<fs::path> candidates;  ///< where it may be, in order
  std::string found;              ///< the first candidate that exists, or ""
};

std::vector<Place> Places() {
  const fs::path bin = fs::path(ExecutablePath()).parent_path();
  const fs::path prefix = bin.parent_path();             // <prefix>/bin/ictk
  const fs::path checkout = bin.parent_path().parent_path();  // <checkout>/build/bin/ictk
  const fs::path share = prefix / "share" / "ictk";
  std::vector<Place> places = {
      {"examples", {share / "examples", checkout / "examples"}, ""},
      {"ci", {share / "ci", checkout / "scripts" / "ci"}, ""},
      {"runner", {share / "runner", checkout / "fixtures" / "runner"}, ""},
      {"docs", {prefix / "share" / "doc" / "ictk", checkout / "docs"}, ""},
  };
  for (Place& p : places)
    for (const fs::path& c : p.candidates) {
      std::error_code ec;
      if (p.found.empty() && !bin.empty() && fs::is_directory(c, ec))
        p.found = c.lexically_normal().string();
    }
  // The corpus as certify finds it ($ICTK_CORPUS first), so the two never disagree.
  Place corpus{"corpus", {}, ""};
  std::string note;
  corpus.found = CorpusDir(CertifyArgs{}, &note);
  if (!corpus.found.empty())
    corpus.found = fs::absolute(corpus.found).lexically_normal().string();
  if (corpus.found.empty()) corpus.candidates.push_back(note);
  places.insert(places.begin(), std::move(corpus));
  return places;
}

int Run(const std::string& format) {
  const std::vector<Place> places = Places();
  bool all = true;
  nlohmann::json j = nlohmann::json::object();
  for (const Place& p : places) {
    all = all && !p.found.empty();
    std::vector<std::string> looked;
    for (const fs::path& c : p.candidates) looked.push_back(c.lexically_normal().string());
    if (format == "json") {
      j[p.name] = p.found.empty() ? nlohmann::json(nullptr) : nlohmann::json(p.found);
    } else if (p.found.empty()) {
      std::printf("%-9s (not found; looked in: %s)\n", p.name.c_str(),
                  fmt::format("{}", fmt::join(looked, ", ")).c_str());
    } else {
      std::printf("%-9s %s\n", p.name.c_str(), p.found.c_str());
    }
  }
  if (format == "json") std::printf("%s\n", DumpJson(j, 2).c_str());
  return all ? 0 : 1;
}

}  // namespace

SubcommandRunner AddPathsCommand(CLI::App& app, CLI::App** subcommand) {
  auto format = std::make_shared<std::string>("text");
  CLI::App* c = app.add_subcommand(
      "paths",
      "Where this ictk finds the corpus, the adapter examples, the CI steps, the fixture "
      "runner and the docs (installed or in its checkout); exit 1 when one is missing");
  c->add_option("--format", *format, "text or json")->check(CLI::IsMember({"text", "json"}));
  *subcommand = c;
  return [format](const GlobalOptions&) { return Run(*format); };
}

}  // namespace ictk::cli
