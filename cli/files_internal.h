/// \file
/// Reading input files for the CLI, with errors that name the file.
#pragma once

#include <string>

#include "codec/result.h"

namespace ictk::cli {

/// The whole file, or an kIo error naming the path and the cause.
Result<std::string> ReadFile(const std::string& path);

}  // namespace ictk::cli
