#include "reports/history_svg.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <optional>
#include <set>
#include <string_view>
#include <vector>

#include "reports/history_scan_internal.h"
#include "reports/render.h"

namespace ictk {

namespace {

using history_internal::Column;
using history_internal::Constraint;
using history_internal::HistoryScan;

// Sizes in the picture's user units (CSS px at full scale). A column is as wide as its
// widest text; a narrow picture's columns are widened to kMinWidth, so that the picture,
// drawn at the full width of the page, keeps its text near the page's size.
constexpr int kMinLeft = 150;  // row labels, at least
constexpr int kMinCol = 108;   // one step, at least
constexpr int kPad = 14;       // around a column's widest text
constexpr int kMinWidth = 1100;
constexpr int kMainY = 58;   // the main line
constexpr int kForkY = 104;  // a transaction's staged commit
constexpr int kRowH = 22;
constexpr int kStatusH = 32;  // a status row: the answer, and the allowed set under it
constexpr int kLineH = 18;    // a line of the caption

/// The width `s` takes at `size` px in a sans-serif font, estimated from its characters
/// (an average a little above the common fonts', so that the estimate is not short): the
/// layout sizes every column and line from it, and nothing is cut.
double TextWidth(std::string_view s, double size, bool bold = false) {
  size_t chars = 0;
  for (unsigned char c : s) chars += (c & 0xC0) != 0x80;
  return static_cast<double>(chars) * size * (bold ? 0.68 : 0.62);
}

/// `text` in lines of at most `width` px at `size` px, broken at spaces (a word wider
/// than a line gets a line of its own, broken at a character boundary).
std::vector<std::string> Wrap(const std::string& text, double width, double size,
                              bool bold) {
  std::vector<std::string> lines(1);
  size_t start = 0;
  while (start < text.size()) {
    size_t end = text.find(' ', start);
    if (end == std::string::npos) end = text.size();
    std::string word = text.substr(start, end - start);
    start = end + 1;
    const std::string joined = lines.back().empty() ? word : lines.back() + " " + word;
    if (TextWidth(joined, size, bold) <= width || lines.back().empty()) {
      lines.back() = joined;
    } else {
      lines.push_back(word);
    }
    while (TextWidth(lines.back(), size, bold) > width && lines.back().size() > 1) {
      const std::string& l = lines.back();
      size_t cut = static_cast<size_t>(width / (size * (bold ? 0.68 : 0.62)));
      cut = std::clamp<size_t>(cut, 1, l.size() - 1);
      while (cut > 1 && (static_cast<unsigned char>(l[cut]) & 0xC0) == 0x80) --cut;
      std::string rest = l.substr(cut);
      lines.back() = l.substr(0, cut);
      lines.push_back(std::move(rest));
    }
  }
  return lines;
}

const char* StatusColour(const std::string& status) {
  if (status == "validated" || status == "valid") return "#d4edda";
  if (status == "invalid") return "#fde2c8";
  if (status == "unvalidated") return "#e8eaed";
  return "#ffffff";
}

std::string Draw(const FailureDetail& f, const std::string& sentence);

}  // namespace

std::string HistorySvg(const FailureDetail& f, const std::string& sentence) {
  if (f.steps.empty()) return "";
  // A report is input: a request or answer of an unexpected shape draws nothing rather
  // than stopping the rendering.
  try {
    return Draw(f, sentence);
  } catch (const nlohmann::json::exception&) {
    return "";
  }
}

namespace {

// The texts of a column, shared by the layout (which sizes the column to the widest) and
// the drawing.

std::string OpLabel(const Column& c) {
  return fmt::format("{}. {}", c.step->index, c.step->op);
}

bool ShowsStatuses(const Column& c) {
  return c.snapshot || c.staged || (c.step->failed && !c.statuses.empty());
}

/// A constraint's answered status in a column, and the allowed set when it is outside.
struct StatusText {
  std::string status, set;
  bool outside = false;
};

StatusText StatusOf(const Column& c, const Constraint& con) {
  StatusText t;
  auto it = c.statuses.find(con.id);
  t.status = it == c.statuses.end() ? "—" : it->second;
  auto al = c.allowed.find(con.name);
  t.outside = al != c.allowed.end() && !al->second.count(t.status);
  if (t.outside)
    for (const std::string& a : al->second) t.set += (t.set.empty() ? "" : "|") + a;
  return t;
}

/// The keys one of the rows lines shows (0 added, 1 removed, 2 modified): the first four
/// with their sign, then how many more.
std::vector<std::string> RowItems(const Column& c, int r) {
  const std::vector<std::string>* lists[] = {&c.added, &c.removed, &c.modified};
  const char* signs[] = {"+", "−", "~"};
  std::vector<std::string> items;
  for (const std::string& key : *lists[r]) {
    if (items.size() == 4) {
      items.push_back(fmt::format("and {} more", lists[r]->size() - 4));
      break;
    }
    items.push_back(signs[r] + key);
  }
  return items;
}

/// The label of a transaction's fork, under its `begin` ("" for a column that is not a
/// staged commit of a transaction begun in the history).
std::string ForkLabel(const Column& c, const HistoryScan& scan) {
  if (!c.staged || !scan.begin_col.count(c.txn)) return "";
  const auto base = scan.base_of.find(c.txn);
  const bool has_base = base != scan.base_of.end() && base->second;
  return fmt::format(
      "fork {} (base {})", c.txn,
      has_base ? fmt::format("S{}", *base->second % 1000) : "no snapshot yet");
}

std::string RetryLabel(const Column& c, const HistoryScan& scan) {
  if (!c.finish || !scan.staged_col.count(c.txn)) return "";
  return c.parent ? fmt::format("retry on new parent S{}", *c.parent % 1000)
                  : std::string("retry on the new parent");
}

int StagedBoxWidth(const Column& c) {
  return std::max(26, static_cast<int>(TextWidth(c.txn, 10)) + 10);
}

/// The width column `c` needs for its own texts.
double ColumnNeeds(const Column& c, const HistoryScan& scan) {
  double w = std::max({TextWidth(OpLabel(c), 11, true), TextWidth(c.result, 11),
                       TextWidth(RetryLabel(c, scan), 9), 40.0});
  if (c.staged) w = std::max<double>(w, StagedBoxWidth(c));
  if (ShowsStatuses(c))
    for (const auto& [id, con] : scan.constraints) {
      const StatusText t = StatusOf(c, con);
      w = std::max(w, TextWidth(t.status, 10, t.outside) + 12);
      if (t.outside) w = std::max(w, TextWidth("∉ " + t.set, 8) + 12);
    }
  for (int r = 0; r < 3; ++r) {
    const std::vector<std::string> items = RowItems(c, r);
    w = std::max(
        w, TextWidth(fmt::format("{}", fmt::join(items, " ")), 11, !c.colliding.empty()));
  }
  if (!c.collision.empty()) w = std::max(w, TextWidth("⚠ " + c.collision, 10));
  return w;
}

/// The row labels: "name #id type, enf." of a constraint.
std::string ConstraintLabel(const Constraint& con) {
  return fmt::format("{} #{} {}{}", con.name, con.id,
                     con.type == "primary-key" ? "pk" : con.type,
                     con.enforced ? ", enf." : "");
}

/// Where the rows and columns of the drawing are.
struct Layout {
  std::vector<int64_t> cids;  // the constraints, one status row each
  std::vector<int> x0, w;     // each column's left edge and width
  std::vector<std::string> caption_first, caption_second;  // the caption's lines
  int left = kMinLeft, status_top = 0, rows_top = 0, foot_top = 0, width = 0, height = 0;
  int XOf(size_t k) const { return x0[k] + w[k] / 2; }
};

/// Each column as wide as its widest text (and its fork label, drawn under its `begin`),
/// the labels' column as wide as the widest label; the columns widened together to
/// kMinWidth.
void SizeColumns(const HistoryScan& scan, Layout& l) {
  double left =
      std::max(TextWidth("transactions", 11, true), TextWidth("rows modified", 11));
  for (const auto& [id, con] : scan.constraints)
    left = std::max(left, TextWidth(ConstraintLabel(con), 11));
  l.left = std::max(kMinLeft, static_cast<int>(left) + 6 + kPad);
  std::vector<double> need;
  for (const Column& c : scan.cols) need.push_back(ColumnNeeds(c, scan));
  for (const Column& c : scan.cols)
    if (const std::string fork = ForkLabel(c, scan); !fork.empty())
      need[scan.begin_col.at(c.txn)] =
          std::max(need[scan.begin_col.at(c.txn)], TextWidth(fork, 9));
  int total = l.left + 20;
  for (double n : need) {
    l.w.push_back(std::max(kMinCol, static_cast<int>(n) + kPad));
    total += l.w.back();
  }
  const int extra =
      scan.cols.empty() ? 0 : (kMinWidth - total) / static_cast<int>(l.w.size());
  for (int& w : l.w) w += std::max(0, extra);
  int x = l.left;
  for (int w : l.w) {
    l.x0.push_back(x);
    x += w;
  }
  l.width = x + 20;
}

/// The failing step's rule and finding, and the sentence, as wrapped lines.
void WrapCaption(const FailureDetail& f, const std::string& sentence, Layout& l) {
  std::string second = sentence;
  if (second.size() >= 2 && second.front() == '"' && second.back() == '"')
    second = second.substr(1, second.size() - 2);
  const double width = l.width - 12;
  l.caption_first = Wrap(fmt::format("✗ step {}: {} — {}", f.step, f.rule, FindingOf(f)),
                         width, 11, true);
  l.caption_second = Wrap("“" + second + "”", width, 11, false);
}

Layout LayOut(const FailureDetail& f, const std::string& sentence,
              const HistoryScan& scan) {
  Layout l;
  for (const auto& [id, con] : scan.constraints) l.cids.push_back(id);
  SizeColumns(scan, l);
  WrapCaption(f, sentence, l);
  l.status_top = kForkY + 40;
  l.rows_top = l.status_top + kStatusH * static_cast<int>(l.cids.size()) + 10;
  l.foot_top = l.rows_top + kRowH * 3 + 14;
  l.height = l.foot_top + 20 +
             kLineH * static_cast<int>(l.caption_first.size() + l.caption_second.size());
  return l;
}

/// The frame: title, arrow marker, the failing step's band, row labels, the main line.
/// The picture takes the width of its box (its viewBox keeps the proportions), and no
/// less than two thirds of its own size, past which the box scrolls.
std::string DrawFrame(const FailureDetail& f, const HistoryScan& scan, const Layout& l) {
  std::string out = fmt::format(
      "<svg class=\"history\" width=\"100%\" viewBox=\"0 0 {0} {1}\" "
      "style=\"min-width:{2}px\" role=\"img\" font-family=\"sans-serif\" "
      "font-size=\"11\"><title>{3}</title>\n",
      l.width, l.height, l.width * 2 / 3,
      EscapeXml(fmt::format("The failing history: {} steps, failure at step {} ({})",
                            f.steps.size(), f.step, f.rule)));
  out +=
      "<defs><marker id=\"arrow\" viewBox=\"0 0 10 10\" refX=\"9\" refY=\"5\" "
      "markerWidth=\"7\" markerHeight=\"7\" orient=\"auto-start-reverse\"><path "
      "d=\"M0,0L10,5L0,10z\" fill=\"#555\"/></marker></defs>\n";
  // The failing step's band.
  for (size_t k = 0; k < scan.cols.size(); ++k)
    if (scan.cols[k].step->failed)
      out += fmt::format(
          "<rect class=\"failed-step\" x=\"{}\" y=\"2\" width=\"{}\" height=\"{}\" "
          "fill=\"#fce8e6\" stroke=\"#d93025\" stroke-width=\"2\"/>\n",
          l.x0[k] + 2, l.w[k] - 4, l.foot_top - 6);
  // Row labels.
  out += fmt::format("<text x=\"6\" y=\"{}\" font-weight=\"bold\">snapshots</text>\n",
                     kMainY + 4);
  out += fmt::format("<text x=\"6\" y=\"{}\" font-weight=\"bold\">transactions</text>\n",
                     kForkY + 4);
  for (size_t r = 0; r < l.cids.size(); ++r) {
    const Constraint& con = scan.constraints.at(l.cids[r]);
    out += fmt::format(
        "<text x=\"6\" y=\"{}\">{} #{} <tspan fill=\"#777\">{}{}</tspan></text>\n",
        l.status_top + kStatusH * static_cast<int>(r) + 20, EscapeXml(con.name), con.id,
        con.type == "primary-key" ? "pk" : EscapeXml(con.type),
        con.enforced ? ", enf." : "");
  }
  const char* row_names[] = {"rows added", "rows removed", "rows modified"};
  for (int r = 0; r < 3; ++r)
    out += fmt::format("<text x=\"6\" y=\"{}\">{}</text>\n", l.rows_top + kRowH * r + 15,
                       row_names[r]);
  // The main line.
  out += fmt::format(
      "<line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" stroke=\"#999\" "
      "stroke-width=\"2\"/>\n",
      l.left, kMainY, l.width - 20, kMainY);
  return out;
}

/// The step's op and result at the top, and its node: a snapshot, a staged commit or a
/// dot.
std::string DrawNode(const Column& c, int x) {
  const bool bad = c.step->failed;
  std::string out = fmt::format(
      "<text x=\"{}\" y=\"16\" text-anchor=\"middle\" font-weight=\"bold\"{}>{}</text>\n",
      x, bad ? " fill=\"#d93025\"" : "", EscapeXml(OpLabel(c)));
  out += fmt::format(
      "<text x=\"{}\" y=\"30\" text-anchor=\"middle\" fill=\"{}\">{}</text>\n", x,
      c.ok ? "#1e8e3e" : "#d93025", EscapeXml(c.result));
  const int y = c.staged ? kForkY : kMainY;
  if (c.snapshot) {
    out += fmt::format(
        "<circle cx=\"{}\" cy=\"{}\" r=\"13\" fill=\"{}\" stroke=\"{}\" "
        "stroke-width=\"2\"><title>snapshot {}{}</title></circle>\n"
        "<text x=\"{}\" y=\"{}\" text-anchor=\"middle\" font-size=\"10\">S{}</text>\n",
        x, y, bad ? "#fce8e6" : "#fff", bad ? "#d93025" : "#1a73e8", *c.snapshot,
        c.parent ? fmt::format(", parent {}", *c.parent) : std::string(), x, y + 4,
        *c.snapshot % 1000);
    if (c.parent)
      out += fmt::format(
          "<text x=\"{}\" y=\"{}\" text-anchor=\"middle\" "
          "fill=\"#555\" font-size=\"9\">parent S{}</text>\n",
          x, y - 17, *c.parent % 1000);
  } else if (c.staged) {
    const int w = StagedBoxWidth(c);
    out += fmt::format(
        "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"20\" rx=\"4\" fill=\"#fff\" "
        "stroke=\"#e37400\" stroke-width=\"2\" stroke-dasharray=\"4 2\"><title>staged "
        "commit of transaction {}</title></rect>\n"
        "<text x=\"{}\" y=\"{}\" text-anchor=\"middle\" font-size=\"10\">{}</text>\n",
        x - w / 2, y - 10, w, EscapeXml(c.txn), x, y + 4, EscapeXml(c.txn));
  } else {
    out += fmt::format("<circle cx=\"{}\" cy=\"{}\" r=\"4\" fill=\"{}\"/>\n", x, kMainY,
                       c.ok ? "#999" : "#d93025");
  }
  return out;
}

/// The fork: begin's base -> the staged commit, labelled under the `begin`; the retry:
/// staged -> finish.
std::string DrawLinks(const Column& c, int x, const HistoryScan& scan, const Layout& l) {
  std::string out;
  if (const std::string fork = ForkLabel(c, scan); !fork.empty()) {
    const int bx = l.XOf(scan.begin_col.at(c.txn));
    const int half = StagedBoxWidth(c) / 2;
    out += fmt::format(
        "<path d=\"M{} {} C{} {} {} {} {} {}\" fill=\"none\" stroke=\"#e37400\" "
        "stroke-width=\"1.5\" stroke-dasharray=\"4 2\" marker-end=\"url(#arrow)\"/>\n"
        "<text x=\"{}\" y=\"{}\" text-anchor=\"middle\" fill=\"#e37400\" "
        "font-size=\"9\">{}</text>\n",
        bx, kMainY + 4, bx, kForkY, x - half - 17, kForkY, x - half - 2, kForkY, bx,
        kForkY + 20, EscapeXml(fork));
  }
  if (const std::string retry = RetryLabel(c, scan); !retry.empty()) {
    const int sx = l.XOf(scan.staged_col.at(c.txn));
    const int half = StagedBoxWidth(scan.cols[scan.staged_col.at(c.txn)]) / 2;
    out += fmt::format(
        "<path d=\"M{} {} C{} {} {} {} {} {}\" fill=\"none\" stroke=\"{}\" "
        "stroke-width=\"2\" marker-end=\"url(#arrow)\"/>\n"
        "<text x=\"{}\" y=\"{}\" text-anchor=\"middle\" fill=\"#555\" "
        "font-size=\"9\">{}</text>\n",
        sx + half, kForkY, x - 20, kForkY, x, kForkY, x, kMainY + (c.snapshot ? 14 : 5),
        c.step->failed ? "#d93025" : "#e37400", x, kForkY + 20, EscapeXml(retry));
  }
  return out;
}

/// Each constraint's answered status, and the allowed set under one outside it.
std::string DrawStatuses(const Column& c, size_t k, const HistoryScan& scan,
                         const Layout& l) {
  std::string out;
  const int x = l.XOf(k);
  for (size_t r = 0; r < l.cids.size() && ShowsStatuses(c); ++r) {
    const int ry = l.status_top + kStatusH * static_cast<int>(r);
    const Constraint& con = scan.constraints.at(l.cids[r]);
    const StatusText t = StatusOf(c, con);
    out += fmt::format(
        "<rect class=\"status{}\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" "
        "fill=\"{}\" stroke=\"{}\" stroke-width=\"{}\"><title>{}</title></rect>\n"
        "<text x=\"{}\" y=\"{}\" text-anchor=\"middle\" font-size=\"10\"{}>{}</text>\n",
        t.outside ? " outside" : "", l.x0[k] + 6, ry + 2, l.w[k] - 12, kStatusH - 4,
        StatusColour(t.status), t.outside ? "#d93025" : "#bbb", t.outside ? 2 : 1,
        EscapeXml(fmt::format("{} #{}: {}{}", con.name, con.id, t.status,
                              t.outside ? " (allowed: " + t.set + ")" : "")),
        x, t.outside ? ry + 14 : ry + 20,
        t.outside ? " fill=\"#d93025\" font-weight=\"bold\"" : "", EscapeXml(t.status));
    if (t.outside)
      out += fmt::format(
          "<text x=\"{}\" y=\"{}\" text-anchor=\"middle\" font-size=\"8\" "
          "fill=\"#d93025\">∉ {}</text>\n",
          x, ry + 26, EscapeXml(t.set));
  }
  return out;
}

/// Rows added / removed / modified, colliding keys marked, and the collision under them.
std::string DrawRowChanges(const Column& c, int x, const Layout& l) {
  std::string out;
  const std::vector<std::string>* lists[] = {&c.added, &c.removed, &c.modified};
  for (int r = 0; r < 3; ++r) {
    const std::vector<std::string> items = RowItems(c, r);
    if (items.empty()) continue;
    std::vector<std::string> spans;
    for (size_t n = 0; n < items.size(); ++n) {
      const bool hit = n < lists[r]->size() && n < 4 && c.colliding.count((*lists[r])[n]);
      spans.push_back(
          fmt::format("<tspan{}>{}</tspan>",
                      hit ? " class=\"collide\" fill=\"#d93025\" font-weight=\"bold\" "
                            "text-decoration=\"underline\""
                          : "",
                      EscapeXml(items[n])));
    }
    out += fmt::format("<text x=\"{}\" y=\"{}\" text-anchor=\"middle\">{}</text>\n", x,
                       l.rows_top + kRowH * r + 15, fmt::join(spans, " "));
  }
  if (!c.collision.empty())
    out += fmt::format(
        "<text class=\"collision\" x=\"{}\" y=\"{}\" text-anchor=\"middle\" "
        "fill=\"#d93025\" font-size=\"10\">⚠ {}</text>\n",
        x, l.rows_top + kRowH * 3 + 8, EscapeXml(c.collision));
  return out;
}

/// The failing step's rule and finding, and the sentence, each wrapped to the picture's
/// width.
std::string DrawCaption(const std::string& sentence, const Layout& l) {
  std::string out;
  int y = l.foot_top + 16;
  for (const std::string& line : l.caption_first) {
    out += fmt::format(
        "<text class=\"failure-caption\" x=\"6\" y=\"{}\" fill=\"#d93025\" "
        "font-weight=\"bold\">{}</text>\n",
        y, EscapeXml(line));
    y += kLineH;
  }
  for (const std::string& line : l.caption_second) {
    out += fmt::format(
        "<text class=\"failure-sentence\" x=\"6\" y=\"{}\" fill=\"#d93025\" "
        "font-style=\"italic\">{}<title>{}</title></text>\n",
        y, EscapeXml(line), EscapeXml(sentence));
    y += kLineH;
  }
  return out;
}

std::string Draw(const FailureDetail& f, const std::string& sentence) {
  HistoryScan scan;
  for (const StepRow& s : f.steps) scan.Step(s);
  const Layout l = LayOut(f, sentence, scan);
  std::string out = DrawFrame(f, scan, l);
  for (size_t k = 0; k < scan.cols.size(); ++k) {
    const Column& c = scan.cols[k];
    const int x = l.XOf(k);
    out += DrawNode(c, x);
    out += DrawLinks(c, x, scan, l);
    out += DrawStatuses(c, k, scan, l);
    out += DrawRowChanges(c, x, l);
  }
  out += DrawCaption(sentence, l);
  out += "</svg>";
  return out;
}

}  // namespace

}  // namespace ictk
