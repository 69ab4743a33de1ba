/// \file
/// Reading input files for the CLI, with errors that name the file.
#pragma once

#include <filesystem>
#include <string>

#include "codec/result.h"
#include "reports/report.h"
#include "reports/stream.h"

namespace ictk::cli {

/// The whole file, or an kIo error naming the path and the cause.
Result<std::string> ReadFile(const std::string& path);

/// Writes `text` to `path`, creating its folder; false with `error` naming the path.
bool WriteFile(const std::filesystem::path& path, const std::string& text,
               std::string& error);

/// Writes what is rendered from `report` into `dir`: junit.xml, summary.md, report.html
/// and badge.json (report.jsonl is the caller's, written as cases finish). With `stream`,
/// `report` is its compact report (reports/stream.h) and junit.xml lists every case the
/// stream was given.
bool WriteRenderedReports(const std::filesystem::path& dir, const Report& report,
                          std::string& error, ReportStream* stream = nullptr);

}  // namespace ictk::cli
