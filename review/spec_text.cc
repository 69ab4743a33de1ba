/// \file
/// Reading the Constraints section of a spec text (spec_text.h).
#include "review/spec_text.h"

#include <fmt/format.h>

#include <cctype>
#include <optional>

namespace ictk {
namespace {

bool IsAlnum(char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0; }
bool IsSpace(char c) { return std::isspace(static_cast<unsigned char>(c)) != 0; }

std::string_view Trim(std::string_view s) {
  while (!s.empty() && IsSpace(s.front())) s.remove_prefix(1);
  while (!s.empty() && IsSpace(s.back())) s.remove_suffix(1);
  return s;
}

std::string CollapseWhitespace(std::string_view s) {
  std::string out;
  bool space = false;
  for (char c : s) {
    if (IsSpace(c)) {
      space = !out.empty();
      continue;
    }
    if (space) out += ' ';
    space = false;
    out += c;
  }
  return out;
}

std::vector<std::string> SplitLines(std::string_view text) {
  std::vector<std::string> lines;
  size_t start = 0;
  while (start <= text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    std::string line(text.substr(start, end - start));
    if (!line.empty() && line.back() == '\r') line.pop_back();
    lines.push_back(std::move(line));
    if (end == text.size()) break;
    start = end + 1;
  }
  return lines;
}

/// The heading level and text of a markdown ATX heading line, or nullopt.
std::optional<std::pair<int, std::string>> Heading(std::string_view line) {
  line = Trim(line);
  int level = 0;
  while (level < static_cast<int>(line.size()) && line[level] == '#') ++level;
  if (level == 0 || level > 6 || level >= static_cast<int>(line.size()) ||
      line[level] != ' ')
    return std::nullopt;
  return std::make_pair(level, std::string(Trim(line.substr(level))));
}

/// A list item's text without its marker (`* `, `- `, `1. `), or nullopt.
std::optional<std::string_view> ListItem(std::string_view line) {
  line = Trim(line);
  if (line.starts_with("* ") || line.starts_with("- ")) return Trim(line.substr(2));
  size_t digits = 0;
  while (digits < line.size() && std::isdigit(static_cast<unsigned char>(line[digits])))
    ++digits;
  if (digits > 0 && digits + 1 < line.size() && line[digits] == '.' &&
      line[digits + 1] == ' ')
    return Trim(line.substr(digits + 2));
  return std::nullopt;
}

bool IsTableSeparator(std::string_view row) {
  for (char c : row)
    if (c != '|' && c != '-' && c != ':' && !IsSpace(c)) return false;
  return true;
}

/// The last non-empty cell of a table row (its description).
std::string LastCell(std::string_view row) {
  row = Trim(row);
  if (!row.empty() && row.front() == '|') row.remove_prefix(1);
  if (!row.empty() && row.back() == '|') row.remove_suffix(1);
  size_t bar = row.rfind('|');
  return std::string(Trim(bar == std::string_view::npos ? row : row.substr(bar + 1)));
}

/// Splits a block of text into sentences at `.`, `?` or `!` followed by a space, except
/// after "e.g." and "i.e.".
std::vector<std::string> SplitSentences(const std::string& block) {
  std::vector<std::string> out;
  size_t start = 0;
  for (size_t i = 0; i < block.size(); ++i) {
    const char c = block[i];
    if ((c != '.' && c != '?' && c != '!') || i + 1 >= block.size() ||
        block[i + 1] != ' ')
      continue;
    const std::string_view before = std::string_view(block).substr(start, i + 1 - start);
    if (before.ends_with("e.g.") || before.ends_with("i.e.")) continue;
    out.emplace_back(Trim(before));
    start = i + 1;
  }
  const std::string_view rest = Trim(std::string_view(block).substr(start));
  if (!rest.empty()) out.emplace_back(rest);
  return out;
}

std::string Lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

}  // namespace

std::string_view ToString(SpecFormat format) {
  switch (format) {
    case SpecFormat::kPlain:
      return "plain";
    case SpecFormat::kUnifiedDiff:
      return "unified-diff";
    case SpecFormat::kMailReview:
      return "mail-review";
  }
  return "plain";
}

namespace {

/// The first `c` at or after a position, over positions that only grow between calls:
/// a search is repeated only past its last answer, so a whole pass over a text costs one
/// scan of it (NormalizeSpecText on a text of many `[` and no `]` was quadratic).
class ForwardFinder {
 public:
  ForwardFinder(std::string_view text, char c) : text_(text), c_(c) {}
  size_t From(size_t pos) {
    if (!searched_ || pos > found_) {
      found_ = text_.find(c_, pos);
      searched_ = true;
    }
    return found_;
  }

 private:
  std::string_view text_;
  char c_;
  bool searched_ = false;
  size_t found_ = std::string_view::npos;
};

}  // namespace

std::string NormalizeSpecText(std::string_view text) {
  // Links: [text](target) -> text.
  std::string unlinked;
  ForwardFinder close_bracket(text, ']');
  ForwardFinder close_paren(text, ')');
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '[') {
      const size_t close = close_bracket.From(i + 1);
      if (close != std::string_view::npos && close + 1 < text.size() &&
          text[close + 1] == '(') {
        const size_t paren = close_paren.From(close + 2);
        if (paren != std::string_view::npos) {
          unlinked += text.substr(i + 1, close - i - 1);
          i = paren;
          continue;
        }
      }
    }
    unlinked += text[i];
  }
  // Code ticks, emphasis: `*` anywhere, `_` where it is not inside a word.
  std::string plain;
  for (size_t i = 0; i < unlinked.size(); ++i) {
    const char c = unlinked[i];
    if (c == '`' || c == '*') continue;
    if (c == '_') {
      const bool inner = i > 0 && i + 1 < unlinked.size() && IsAlnum(unlinked[i - 1]) &&
                         IsAlnum(unlinked[i + 1]);
      if (!inner) continue;
    }
    plain += c;
  }
  return Lower(CollapseWhitespace(plain));
}

std::string NormalizeQuote(std::string_view quote) {
  std::string q = NormalizeSpecText(quote);
  while (!q.empty() &&
         (q.back() == '.' || q.back() == ':' || q.back() == ';' || q.back() == ' '))
    q.pop_back();
  return q;
}

bool IsNormative(std::string_view sentence) {
  const std::string s = NormalizeSpecText(sentence);
  std::vector<std::string> words;
  std::string word;
  for (char c : s) {
    if (IsAlnum(c) || c == '-') {
      word += c;
    } else if (!word.empty()) {
      words.push_back(std::move(word));
      word.clear();
    }
  }
  if (!word.empty()) words.push_back(std::move(word));
  for (size_t i = 0; i < words.size(); ++i) {
    const std::string& w = words[i];
    if (w == "must" || w == "required" || w == "may" || w == "only" || w == "cannot" ||
        w == "shall" || w == "should")
      return true;
    if ((w == "is" || w == "are") && i + 1 < words.size() && words[i + 1] == "defined")
      return true;
  }
  return false;
}

SpecFormat DetectSpecFormat(std::string_view text) {
  bool diff = false;
  for (const std::string& line : SplitLines(text)) {
    const size_t heading = line.find("+### Constraints");
    if (heading != std::string::npos && heading > 0) return SpecFormat::kMailReview;
    if (line.starts_with("@@ ") || line.starts_with("+++ ") ||
        line.starts_with("diff --git ") || line.starts_with("+### Constraints"))
      diff = true;
  }
  return diff ? SpecFormat::kUnifiedDiff : SpecFormat::kPlain;
}

std::vector<std::string> SpecLines(std::string_view text, SpecFormat format) {
  std::vector<std::string> lines = SplitLines(text);
  if (format == SpecFormat::kPlain) return lines;
  std::vector<std::string> out;
  if (format == SpecFormat::kUnifiedDiff) {
    bool in_hunk = false;
    for (const std::string& line : lines) {
      if (line.starts_with("@@")) {
        in_hunk = true;
        continue;
      }
      if (!in_hunk) continue;
      if (line.empty()) {
        out.emplace_back();
      } else if (line[0] == '+' || line[0] == ' ') {
        out.push_back(line.substr(1));
      } else if (line[0] == '-' || line[0] == '\\') {
        continue;
      } else {
        in_hunk = false;  // the end of the diff (a mail footer, the next file's header)
      }
    }
    if (out.empty()) {
      // No hunk header at the start of a line (a quoted review): the `+` lines.
      for (const std::string& line : lines)
        if (!line.empty() && line[0] == '+' && !line.starts_with("+++ "))
          out.push_back(line.substr(1));
    }
    return out;
  }
  // A mail review: the hunk is one line, each spec line after " +"; later lines that
  // start with "+" continue it.
  bool found = false;
  for (const std::string& line : lines) {
    if (!found) {
      if (line.find("+### Constraints") == std::string::npos) continue;
      found = true;
      size_t start = 0;
      for (;;) {
        const size_t next = line.find(" +", start);
        out.emplace_back(line.substr(
            start, next == std::string::npos ? std::string::npos : next - start));
        if (next == std::string::npos) break;
        start = next + 2;
      }
      continue;
    }
    if (line.empty() || line[0] != '+') break;
    out.push_back(line.substr(1));
  }
  // The reviewer's comment is glued onto the last spec line.
  for (size_t i = 0; i < out.size(); ++i) {
    const size_t comment = out[i].find("Review Comment:");
    if (comment != std::string::npos) {
      out[i].erase(comment);
      out.resize(i + 1);
      break;
    }
  }
  return out;
}

namespace {

/// Collects the sentences of the section's body, line by line: paragraphs, list items
/// and the last cell of each table row (the row before a separator is the header).
class SentenceCollector {
 public:
  explicit SentenceCollector(SpecSection& section) : section_(section) {}

  /// Takes one line; false when it is a heading at `level` or above (the section ends).
  bool Line(std::string_view line, int level) {
    if (const auto heading = Heading(line)) {
      Flush();
      if (heading->first <= level) return false;
      subsection_ = heading->second;
      return true;
    }
    if (line.empty()) {
      Flush();
      return true;
    }
    if (line.front() == '|') {
      TableRow(line);
      return true;
    }
    if (has_row_) {
      Emit(pending_row_);
      has_row_ = false;
    }
    if (const auto item = ListItem(line)) {
      if (!block_.empty()) Emit(block_);
      block_ = std::string(*item);
      return true;
    }
    if (!block_.empty()) block_ += ' ';
    block_ += line;
    return true;
  }

  void Flush() {
    if (!block_.empty()) Emit(block_);
    block_.clear();
    if (has_row_) Emit(pending_row_);
    has_row_ = false;
  }

 private:
  void TableRow(std::string_view line) {
    if (!block_.empty()) Emit(block_);
    block_.clear();
    if (IsTableSeparator(line)) {
      has_row_ = false;  // the row before a separator is the header
      return;
    }
    if (has_row_) Emit(pending_row_);
    pending_row_ = LastCell(line);
    has_row_ = true;
  }

  void Emit(const std::string& raw) {
    for (const std::string& s : SplitSentences(CollapseWhitespace(raw))) {
      SpecSentence sentence;
      sentence.index = static_cast<int>(section_.sentences.size()) + 1;
      sentence.subsection = subsection_;
      sentence.text = s;
      sentence.normalized = NormalizeSpecText(s);
      sentence.normative = IsNormative(s);
      if (!sentence.normalized.empty()) section_.sentences.push_back(std::move(sentence));
    }
  }

  SpecSection& section_;
  std::string subsection_ = "Constraints";
  std::string block_;
  std::string pending_row_;  // the last table row, not yet emitted
  bool has_row_ = false;
};

}  // namespace

Result<SpecSection> ReadConstraintsSection(std::string_view text,
                                           std::string_view source) {
  SpecSection section;
  section.format = DetectSpecFormat(text);
  const std::vector<std::string> lines = SpecLines(text, section.format);
  size_t i = 0;
  int level = 0;
  for (; i < lines.size(); ++i) {
    const auto heading = Heading(lines[i]);
    if (heading && heading->first <= 3 && heading->second == "Constraints") {
      level = heading->first;
      break;
    }
  }
  if (i == lines.size())
    return MakeError(ErrorKind::kInvalid,
                     fmt::format("{}: no `### Constraints` heading (read as {} text){}",
                                 source, ToString(section.format),
                                 section.format == SpecFormat::kPlain
                                     ? ""
                                     : "; a diff must hold the whole section, heading "
                                       "included: make it with full context (git diff "
                                       "-U100000)"));

  SentenceCollector collector(section);
  bool ended_at_heading = false;
  for (++i; i < lines.size(); ++i) {
    if (!collector.Line(Trim(lines[i]), level)) {
      ended_at_heading = true;
      break;
    }
  }
  collector.Flush();
  int hunks = 0;
  if (section.format == SpecFormat::kUnifiedDiff)
    for (const std::string& line : SplitLines(text))
      hunks += line.starts_with("@@") ? 1 : 0;
  section.maybe_partial =
      section.format != SpecFormat::kPlain && (!ended_at_heading || hunks > 1);
  return section;
}

}  // namespace ictk
