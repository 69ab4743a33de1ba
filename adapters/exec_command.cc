/// \file
/// The command line of an `exec:` adapter (exec_adapter.h): its words by the shell's
/// quoting rules, and whether its program can be run.
#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <string>
#include <vector>

#include "adapters/exec_adapter.h"

namespace ictk {

Result<std::vector<std::string>> SplitShellWords(std::string_view text) {
  std::vector<std::string> words;
  std::string word;
  bool in_word = false;
  size_t i = 0;
  auto is_blank = [](char c) { return c == ' ' || c == '\t' || c == '\n'; };
  while (i < text.size()) {
    char c = text[i];
    if (is_blank(c)) {
      if (in_word) words.push_back(std::move(word));
      word.clear();
      in_word = false;
      ++i;
      continue;
    }
    in_word = true;
    if (c == '\\') {
      if (i + 1 >= text.size()) {
        return MakeError(ErrorKind::kUsage,
                         fmt::format("`{}`: a trailing backslash quotes nothing", text));
      }
      if (text[i + 1] != '\n') word.push_back(text[i + 1]);  // \<newline> joins lines
      i += 2;
      continue;
    }
    if (c == '\'') {
      size_t end = text.find('\'', i + 1);
      if (end == std::string_view::npos) {
        return MakeError(ErrorKind::kUsage, fmt::format("`{}`: unterminated '", text));
      }
      word.append(text.substr(i + 1, end - i - 1));
      i = end + 1;
      continue;
    }
    if (c == '"') {
      ++i;
      bool closed = false;
      while (i < text.size()) {
        char d = text[i];
        if (d == '"') {
          closed = true;
          ++i;
          break;
        }
        if (d == '\\' && i + 1 < text.size()) {
          char e = text[i + 1];
          if (e == '"' || e == '\\' || e == '$' || e == '`') {
            word.push_back(e);
            i += 2;
            continue;
          }
          if (e == '\n') {
            i += 2;
            continue;
          }
        }
        word.push_back(d);
        ++i;
      }
      if (!closed) {
        return MakeError(ErrorKind::kUsage, fmt::format("`{}`: unterminated \"", text));
      }
      continue;
    }
    word.push_back(c);
    ++i;
  }
  if (in_word) words.push_back(std::move(word));
  return words;
}

std::string ExecutableProblem(const std::string& program) {
  auto check = [](const std::string& path) -> std::string {
    struct stat st;
    if (::stat(path.c_str(), &st) != 0) return std::strerror(errno);
    if (S_ISDIR(st.st_mode)) return "is a directory";
    if (::access(path.c_str(), X_OK) != 0) return "is not executable";
    return {};
  };
  if (program.empty()) return "no command given";
  // A bare name is looked up in PATH by posix_spawnp at the first call; this layer reads
  // no environment, so only a path is checked here.
  if (program.find('/') != std::string::npos) return check(program);
  return {};
}

}  // namespace ictk
