/// \file
/// review.html (review.h RenderReviewHtml): review.md turned into HTML line by line
/// (headings with anchors, tables, lists one level deep, quotes, paragraphs and the
/// inline marks review.md uses).
#include <fmt/format.h>

#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "review/review.h"

namespace ictk {
namespace {

std::string Escape(std::string_view s) {
  std::string out;
  for (char c : s) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      default: out += c;
    }
  }
  return out;
}

/// Inline markdown of review.md: `code`, **bold**, ~~struck~~, [text](#anchor).
std::string Inline(std::string_view s) {
  std::string out;
  size_t i = 0;
  auto take = [&](std::string_view mark, std::string_view open, std::string_view close,
                  bool code) {
    if (s.substr(i, mark.size()) != mark) return false;
    const size_t end = s.find(mark, i + mark.size());
    if (end == std::string_view::npos) return false;
    const std::string_view inner = s.substr(i + mark.size(), end - i - mark.size());
    out += std::string(open) + (code ? Escape(inner) : Inline(inner)) + std::string(close);
    i = end + mark.size();
    return true;
  };
  while (i < s.size()) {
    if (take("`", "<code>", "</code>", true)) continue;
    if (take("**", "<strong>", "</strong>", false)) continue;
    if (take("~~", "<del>", "</del>", false)) continue;
    if (s[i] == '[') {
      const size_t close = s.find("](", i);
      const size_t end = close == std::string_view::npos ? close : s.find(')', close);
      if (end != std::string_view::npos) {
        out += fmt::format("<a href=\"{}\">{}</a>", Escape(s.substr(close + 2, end - close - 2)),
                           Inline(s.substr(i + 1, close - i - 1)));
        i = end + 1;
        continue;
      }
    }
    if (s[i] == '\\' && i + 1 < s.size() && s[i + 1] == '|') {
      out += '|';
      i += 2;
      continue;
    }
    out += Escape(s.substr(i, 1));
    ++i;
  }
  return out;
}

/// The cells of a table row as GitHub reads them: split at every `|` not escaped as `\|`,
/// inside a code span too (review.md escapes a `|` of a cell's text, code or not), and
/// `\|` read as `|`. A cell is never lost to an unclosed code span (a sentence shortened
/// inside one): its backtick is then plain text, as in review.md on GitHub.
std::vector<std::string> Cells(std::string_view line) {
  std::vector<std::string> cells;
  std::string cell;
  auto push = [&] {
    const size_t first = cell.find_first_not_of(' ');
    cells.push_back(first == std::string::npos
                        ? std::string()
                        : cell.substr(first, cell.find_last_not_of(' ') - first + 1));
    cell.clear();
  };
  for (size_t i = 1; i < line.size(); ++i) {
    if (line[i] == '\\' && i + 1 < line.size() && line[i + 1] == '|') {
      cell += '|';
      ++i;
    } else if (line[i] == '|') {
      push();
    } else {
      cell += line[i];
    }
  }
  if (cell.find_first_not_of(' ') != std::string::npos) push();  // no closing `|`
  return cells;
}

std::string AnchorOf(std::string_view heading) {
  std::string out;
  for (char c : heading) {
    if ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-')
      out += c;
    else if (c >= 'A' && c <= 'Z')
      out += static_cast<char>(c - 'A' + 'a');
    else if (c == ' ')
      out += '-';
  }
  return out;
}

/// The blocks of review.md, turned into HTML one line at a time.
class MarkdownToHtml {
 public:
  explicit MarkdownToHtml(std::string& out) : out_(out) {}

  void Line(const std::string& line) {
    if (line.empty()) {
      Close();
    } else if (line[0] == '#') {
      Heading(line);
    } else if (line[0] == '|') {
      TableRow(line);
    } else if (line.rfind("  - ", 0) == 0 &&
               (block_ == Block::kList || block_ == Block::kSubList)) {
      SubItem(line);
    } else if (line.rfind("- ", 0) == 0) {
      Item(line);
    } else if (line[0] == '>') {
      QuoteLine(line);
    } else {
      ParagraphLine(line);
    }
  }

  void Close() {
    switch (block_) {
      case Block::kTable: out_ += "</table>\n"; break;
      case Block::kSubList: out_ += "</ul></li>\n</ul>\n"; break;
      case Block::kList: out_ += "</ul>\n"; break;
      case Block::kQuote: out_ += "</blockquote>\n"; break;
      case Block::kPara: out_ += "</p>\n"; break;
      case Block::kNone: break;
    }
    block_ = Block::kNone;
  }

 private:
  enum class Block { kNone, kTable, kList, kSubList, kQuote, kPara };

  void Heading(const std::string& line) {
    Close();
    size_t level = line.find_first_not_of('#');
    const std::string text = line.substr(level + 1);
    out_ += fmt::format("<h{0} id=\"{1}\">{2}</h{0}>\n", level, AnchorOf(text), Inline(text));
  }

  void TableRow(const std::string& line) {
    if (block_ != Block::kTable) {
      Close();
      out_ += "<table>\n";
      block_ = Block::kTable;
      header_row_ = true;
    }
    if (line.rfind("|---", 0) == 0) return;
    const std::string tag = header_row_ ? "th" : "td";
    header_row_ = false;
    out_ += "<tr>";
    for (const std::string& c : Cells(line))
      out_ += fmt::format("<{0}>{1}</{0}>", tag, Inline(c));
    out_ += "</tr>\n";
  }

  void SubItem(const std::string& line) {
    if (block_ == Block::kList) {
      // Reopen the last item to nest the list in it.
      if (out_.size() >= 6 && out_.compare(out_.size() - 6, 6, "</li>\n") == 0)
        out_.resize(out_.size() - 6);
      out_ += "<ul>";
      block_ = Block::kSubList;
    }
    out_ += "<li>" + Inline(line.substr(4)) + "</li>";
  }

  void Item(const std::string& line) {
    if (block_ == Block::kSubList) {
      out_ += "</ul></li>\n";
      block_ = Block::kList;
    }
    if (block_ != Block::kList) {
      Close();
      out_ += "<ul>\n";
      block_ = Block::kList;
    }
    out_ += "<li>" + Inline(line.substr(2)) + "</li>\n";
  }

  void QuoteLine(const std::string& line) {
    if (block_ != Block::kQuote) {
      Close();
      out_ += "<blockquote>";
      block_ = Block::kQuote;
    }
    if (line.size() > 2) out_ += Inline(line.substr(2)) + "<br>";
  }

  void ParagraphLine(const std::string& line) {
    if (block_ != Block::kPara) {
      Close();
      out_ += "<p>";
      block_ = Block::kPara;
    } else {
      out_ += " ";
    }
    out_ += Inline(line);
  }

  std::string& out_;
  Block block_ = Block::kNone;
  bool header_row_ = false;
};

}  // namespace

std::string RenderReviewHtml(const ReviewResult& review) {
  const std::string md = RenderReviewMarkdown(review);
  std::string out =
      "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>Review of the "
      "Constraints section</title>\n<style>body{font-family:sans-serif;max-width:72em;"
      "margin:2em auto}table{border-collapse:collapse}td,th{border:1px solid #ccc;"
      "padding:2px 6px;vertical-align:top}code{font-size:90%}blockquote{color:#444;"
      "border-left:3px solid #ccc;margin-left:0;padding-left:1em}</style></head><body>\n";
  MarkdownToHtml html(out);
  std::istringstream in(md);
  for (std::string line; std::getline(in, line);) html.Line(line);
  html.Close();
  out += "</body></html>\n";
  return out;
}

}  // namespace ictk
