/// \file
/// Reading input files for the CLI, with errors that name the file.
#pragma once

#include <filesystem>
#include <string>

#include "codec/result.h"
#include "properties/run_files.h"
#include "reports/report.h"
#include "reports/stream.h"

namespace ictk::cli {

/// The whole file, or an kIo error naming the path and the cause.
Result<std::string> ReadFile(const std::string& path);

/// This executable's path (/proc/self/exe), "" when it cannot be read: where certify
/// looks for the corpus beside it, `ictk paths`, the reproduce commands and the
/// `--isolate` child.
std::string ExecutablePath();

// WriteFile and WriteRenderedReports (the files of a run folder) are
// properties/run_files.h's, shared with the certify run.

}  // namespace ictk::cli
