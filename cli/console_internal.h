/// \file
/// Colour on the console (README "Commands", docs/certify.md "The console, line by line"):
/// the verdict words and `FAIL` / `error:` are coloured only on a terminal and only when
/// NO_COLOR (https://no-color.org) is unset or empty, unless `--color=always|never` says
/// otherwise. Files (summary.md, report.html, ...) are never coloured: only the console
/// printing of cli/ calls Painted.
#pragma once

#include <cstdio>
#include <string>
#include <string_view>

namespace ictk::cli {

enum class ColorChoice { kAuto, kAlways, kNever };

/// "auto", "always" or "never" (the values `--color` takes); kAuto for anything else.
ColorChoice ParseColorChoice(std::string_view text);

/// How ColorOn decides from now on (the `--color` flag); kAuto until set.
void SetColorChoice(ColorChoice choice);

/// Whether text written to `stream` (stdout or stderr) is coloured: `--color=always`; or
/// `--color=auto` (the default), the stream is a terminal and NO_COLOR is unset or empty.
bool ColorOn(std::FILE* stream);

enum class Tint { kGreen, kRed };

/// `text` wrapped in the ANSI escapes of `tint` when ColorOn(stream), else unchanged.
std::string Painted(std::string_view text, Tint tint, std::FILE* stream);

/// "error:" red for stderr (Painted).
std::string ErrorWord();

}  // namespace ictk::cli
