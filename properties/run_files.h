/// \file
/// Writing the files of a run folder: one file with an error that names it, and what is
/// rendered from a report (junit.xml, summary.md, report.html, badge.json). The certify
/// run and `ictk replay`, `ictk report render` and `ictk report merge` write them alike.
#pragma once

#include <filesystem>
#include <string>

#include "reports/report.h"
#include "reports/stream.h"

namespace ictk {

/// Writes `text` to `path`, creating its folder; false with `error` naming the path.
bool WriteFile(const std::filesystem::path& path, const std::string& text,
               std::string& error);

/// Writes what is rendered from `report` into `dir`: junit.xml, summary.md, report.html
/// and badge.json (report.jsonl is the caller's, written as cases finish). With `stream`,
/// `report` is its compact report (reports/stream.h) and junit.xml lists every case the
/// stream was given.
bool WriteRenderedReports(const std::filesystem::path& dir, const Report& report,
                          std::string& error, ReportStream* stream = nullptr);

}  // namespace ictk
