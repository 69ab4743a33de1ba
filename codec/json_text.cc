#include "codec/json_text.h"

#include <string>

namespace ictk {
namespace {

/// 1-based line and column of byte offset `offset` in `text`.
std::string LineColumn(std::string_view text, size_t offset) {
  size_t line = 1, column = 1;
  for (size_t i = 0; i < offset && i < text.size(); ++i) {
    if (text[i] == '\n') {
      ++line;
      column = 1;
    } else {
      ++column;
    }
  }
  return std::to_string(line) + ":" + std::to_string(column);
}

/// The byte offset where nesting first exceeds kMaxJsonDepth, or npos. Strings are
/// skipped so that brackets inside them do not count.
size_t FindTooDeep(std::string_view text) {
  int depth = 0;
  bool in_string = false;
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (in_string) {
      if (c == '\\') {
        ++i;
      } else if (c == '"') {
        in_string = false;
      }
      continue;
    }
    if (c == '"') {
      in_string = true;
    } else if (c == '[' || c == '{') {
      if (++depth > kMaxJsonDepth) return i;
    } else if (c == ']' || c == '}') {
      --depth;
    }
  }
  return std::string_view::npos;
}

/// At most this many bytes of the text nlohmann quotes ("last read: '...'") are kept.
constexpr size_t kMaxQuoted = 40;

/// `text` with bytes outside printable ASCII written as \xHH, so that a message about
/// hostile input is itself valid UTF-8 and prints safely.
std::string Printable(std::string_view text) {
  std::string out;
  for (unsigned char c : text) {
    if (c >= 0x20 && c < 0x7f) {
      out.push_back(static_cast<char>(c));
    } else {
      static const char kHex[] = "0123456789ABCDEF";
      out += "\\x";
      out.push_back(kHex[c >> 4]);
      out.push_back(kHex[c & 15]);
    }
  }
  return out;
}

/// nlohmann's message without its "[json.exception...] parse error at line L, column C: "
/// prefix (we print our own position), with the quoted input cut to its last kMaxQuoted
/// bytes (the error is at its end; a 100 MB string would otherwise be quoted whole).
std::string Detail(const std::string& what) {
  std::string s = what;
  if (auto p = s.find("] "); p != std::string::npos && s.rfind("[json.exception", 0) == 0)
    s = s.substr(p + 2);
  if (auto p = s.find(": "); p != std::string::npos && s.rfind("parse error", 0) == 0)
    s = s.substr(p + 2);
  static constexpr std::string_view kLastRead = "last read: '";
  if (auto p = s.find(kLastRead); p != std::string::npos) {
    const size_t from = p + kLastRead.size();
    const size_t to = s.size() > from && s.back() == '\'' ? s.size() - 1 : s.size();
    std::string_view quoted(s.data() + from, to - from);
    std::string cut = quoted.size() > kMaxQuoted
                          ? "..." + Printable(quoted.substr(quoted.size() - kMaxQuoted))
                          : Printable(quoted);
    s = s.substr(0, from) + cut + "'";
  }
  return Printable(s);
}

}  // namespace

Result<nlohmann::json> ParseJsonText(std::string_view text,
                                     std::string_view source_name) {
  const std::string source(source_name.empty() ? "<json>" : source_name);
  // nlohmann takes a NUL byte for the end of the input and would accept "5\0garbage" as
  // 5; JSON text never contains one (in a string it must be escaped as \u0000).
  if (size_t nul = text.find('\0'); nul != std::string_view::npos) {
    return MakeError(ErrorKind::kParse, source + ":" + LineColumn(text, nul) +
                                            ": a NUL byte (JSON text cannot contain one)");
  }
  if (size_t deep = FindTooDeep(text); deep != std::string_view::npos) {
    return MakeError(ErrorKind::kParse, source + ":" + LineColumn(text, deep) +
                                            ": JSON nested deeper than " +
                                            std::to_string(kMaxJsonDepth) + " levels");
  }
  try {
    return nlohmann::json::parse(text.begin(), text.end());
  } catch (const nlohmann::json::parse_error& e) {
    // e.byte is 1-based: the position of the offending character.
    size_t offset = e.byte == 0 ? 0 : e.byte - 1;
    return MakeError(ErrorKind::kParse,
                     source + ":" + LineColumn(text, offset) + ": " + Detail(e.what()));
  } catch (const nlohmann::json::out_of_range& e) {
    // Number overflow ("1e400"): nlohmann gives no position, so find the literal.
    std::string detail = Detail(e.what());
    std::string where;
    if (auto q1 = detail.find('\''), q2 = detail.rfind('\'');
        q1 != std::string::npos && q2 > q1) {
      std::string literal = detail.substr(q1 + 1, q2 - q1 - 1);
      if (auto at = text.find(literal); at != std::string_view::npos)
        where = ":" + LineColumn(text, at);
    }
    return MakeError(ErrorKind::kParse, source + where + ": " + detail +
                                            " (the number does not fit a double)");
  } catch (const std::exception& e) {
    return MakeError(ErrorKind::kParse, source + ": " + Detail(e.what()));
  }
}

std::string DumpJson(const nlohmann::json& json, int indent) {
  try {
    return json.dump(indent, ' ', false, nlohmann::json::error_handler_t::replace);
  } catch (const std::exception&) {
    return "null";
  }
}

}  // namespace ictk
