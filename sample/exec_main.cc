/// \file
/// `ictk-sample-adapter [--mutant NAME] [--style canonical|divergent] [--profile NAME]`:
/// the sample over the exec transport, one JSON request per line on stdin, one response
/// per line on stdout, until end of input.
#include <cstdio>
#include <cstring>
#include <iostream>
#include <string>

#include "sample/session_internal.h"

int main(int argc, char** argv) {
  std::string query;
  auto add = [&query](const std::string& item) {
    query += (query.empty() ? "" : "&") + item;
  };
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--mutant" && i + 1 < argc) {
      add(std::string("mutant=") + argv[++i]);
    } else if (arg.rfind("--mutant=", 0) == 0) {
      add("mutant=" + arg.substr(std::strlen("--mutant=")));
    } else if (arg == "--style" && i + 1 < argc) {
      add(std::string("style=") + argv[++i]);
    } else if (arg.rfind("--style=", 0) == 0) {
      add("style=" + arg.substr(std::strlen("--style=")));
    } else if (arg == "--profile" && i + 1 < argc) {
      add(std::string("profile=") + argv[++i]);
    } else if (arg.rfind("--profile=", 0) == 0) {
      add("profile=" + arg.substr(std::strlen("--profile=")));
    } else if (arg == "--help" || arg == "-h") {
      std::printf(
          "usage: ictk-sample-adapter [--mutant NAME] [--style canonical|divergent] "
          "[--profile writer|v3-reader|v4-reader]\n"
          "Speaks the ictk adapter protocol on stdin/stdout (one JSON object per "
          "line).\nMutants: `ictk mutants --list`. --style divergent: at every step a "
          "legal answer as far\nfrom the canonical one as the spec allows "
          "(docs/writing-an-adapter.md).\n");
      return 0;
    } else {
      std::fprintf(stderr, "ictk-sample-adapter: unknown argument '%s'\n", arg.c_str());
      return 2;
    }
  }
  ictk::sample::Mutant mutant = ictk::sample::Mutant::kNone;
  ictk::sample::Style style = ictk::sample::Style::kCanonical;
  ictk::sample::Profile profile = ictk::sample::Profile::kWriter;
  const std::string problem = ictk::sample::ParseSampleQuery(query, mutant, style, profile);
  if (!problem.empty()) {
    std::fprintf(stderr, "ictk-sample-adapter: %s\n", problem.c_str());
    return 2;
  }
  std::ios::sync_with_stdio(false);
  ictk::sample::Session session(mutant, style, profile);
  std::string line;
  while (std::getline(std::cin, line)) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.find_first_not_of(" \t") == std::string::npos) continue;
    std::string answer = session.CallLine(line);
    answer.push_back('\n');
    std::fwrite(answer.data(), 1, answer.size(), stdout);
    std::fflush(stdout);
  }
  return 0;
}
