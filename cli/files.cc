#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <fmt/format.h>

#include "cli/files_internal.h"

namespace ictk::cli {

std::string ExecutablePath() {
  std::error_code ec;
  const std::filesystem::path self = std::filesystem::read_symlink("/proc/self/exe", ec);
  return ec ? std::string() : self.string();
}

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

}  // namespace ictk::cli
