/// \file
/// ApplySwitchSettings (commands.h): NAME=VALUE settings of --switch, --a and --b.
#include <fmt/format.h>

#include "cli/commands.h"

namespace ictk::cli {

std::string ApplySwitchSettings(Switches& switches, const std::vector<std::string>& settings,
                                std::string_view flag) {
  for (const std::string& s : settings) {
    const size_t eq = s.find('=');
    const std::string error =
        eq == std::string::npos ? "expected NAME=VALUE"
                                : SetSwitch(switches, s.substr(0, eq), s.substr(eq + 1));
    if (!error.empty()) return fmt::format("{} {}: {}", flag, s, error);
  }
  return "";
}

}  // namespace ictk::cli
