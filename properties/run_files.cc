/// \file
/// The files of a run folder (run_files.h).
#include "properties/run_files.h"

#include <fmt/format.h>

#include <fstream>

#include "reports/render.h"

namespace ictk {

bool WriteFile(const std::filesystem::path& path, const std::string& text,
               std::string& error) {
  std::error_code ec;
  if (path.has_parent_path()) std::filesystem::create_directories(path.parent_path(), ec);
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  if (out) {
    out << text;
    out.close();
  }
  if (!out) {
    error = fmt::format("cannot write {}", path.string());
    return false;
  }
  return true;
}

bool WriteRenderedReports(const std::filesystem::path& dir, const Report& report,
                          std::string& error, ReportStream* stream) {
  const bool junit = stream != nullptr
                         ? stream->WriteJunit(dir / "junit.xml", report, error)
                         : WriteFile(dir / "junit.xml", RenderJunitXml(report), error);
  return junit &&
         WriteFile(dir / "summary.md", RenderSummaryMarkdown(report), error) &&
         WriteFile(dir / "report.html", RenderHtml(report), error) &&
         WriteFile(dir / "badge.json", RenderBadgeJson(report), error);
}

}  // namespace ictk
