/// \file
/// Colour on the console (console_internal.h).
#include <unistd.h>

#include <cstdlib>

#include "cli/console_internal.h"

namespace ictk::cli {
namespace {

ColorChoice g_choice = ColorChoice::kAuto;

}  // namespace

ColorChoice ParseColorChoice(std::string_view text) {
  if (text == "always") return ColorChoice::kAlways;
  if (text == "never") return ColorChoice::kNever;
  return ColorChoice::kAuto;
}

void SetColorChoice(ColorChoice choice) { g_choice = choice; }

bool ColorOn(std::FILE* stream) {
  if (g_choice != ColorChoice::kAuto) return g_choice == ColorChoice::kAlways;
  const char* no_color = std::getenv("NO_COLOR");
  if (no_color != nullptr && *no_color != '\0') return false;
  return stream != nullptr && ::isatty(::fileno(stream)) == 1;
}

std::string Painted(std::string_view text, Tint tint, std::FILE* stream) {
  if (!ColorOn(stream)) return std::string(text);
  const char* start = tint == Tint::kGreen ? "\x1b[32m" : "\x1b[31m";
  return std::string(start) + std::string(text) + "\x1b[0m";
}

std::string ErrorWord() { return Painted("error:", Tint::kRed, stderr); }

}  // namespace ictk::cli
