#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <fmt/format.h>

#include "cli/files_internal.h"
#include "reports/render.h"

namespace ictk::cli {

Result<std::string> ReadFile(const std::string& path) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec))
    return MakeError(ErrorKind::kIo, fmt::format("{}: is a directory, not a file", path));
  std::ifstream in(path, std::ios::binary);
  if (!in) return MakeError(ErrorKind::kIo, fmt::format("{}: cannot open: {}", path, std::strerror(errno)));
  // Read into a string of the file's size: a stream buffer would hold up to three
  // copies of a large file at once.
  std::string text;
  in.seekg(0, std::ios::end);
  const std::streamoff size = in.tellg();
  in.seekg(0, std::ios::beg);
  if (size > 0) {
    text.resize(static_cast<size_t>(size));
    in.read(text.data(), size);
    text.resize(static_cast<size_t>(in.gcount()));
    if (in.bad()) return MakeError(ErrorKind::kIo, fmt::format("{}: read error", path));
    in.clear();
  }
  // Not a regular file (a pipe), or it grew: read the rest as a stream.
  std::ostringstream rest;
  rest << in.rdbuf();
  if (in.bad()) return MakeError(ErrorKind::kIo, fmt::format("{}: read error", path));
  text += rest.str();
  return text;
}

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

}  // namespace ictk::cli
