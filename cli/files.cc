#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>

#include <fmt/format.h>

#include "cli/files_internal.h"

namespace ictk::cli {

Result<std::string> ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return MakeError(ErrorKind::kIo, fmt::format("{}: cannot open: {}", path, std::strerror(errno)));
  std::ostringstream buf;
  buf << in.rdbuf();
  if (in.bad()) return MakeError(ErrorKind::kIo, fmt::format("{}: read error", path));
  return buf.str();
}

}  // namespace ictk::cli
