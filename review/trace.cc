/// \file
/// `ictk trace` (trace.h): quotes matched against spec sentences, evidence per rule.
#include "review/trace.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "codec/json_text.h"
#include "reports/render.h"
#include "generators/history.h"
#include "model/judge/rule_catalogue.h"
#include "properties/runner.h"

#ifndef ICTK_REVIEW_SOURCE_DIR
#define ICTK_REVIEW_SOURCE_DIR ""
#endif

namespace ictk {
namespace {

namespace fs = std::filesystem;
using json = nlohmann::json;

bool IdChar(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '-' || c == '_';
}

bool IsSourceDir(const fs::path& dir) {
  std::error_code ec;
  return fs::exists(dir / "model" / "judge" / "rule_catalogue.cc", ec) &&
         fs::is_directory(dir / "tests", ec);
}

std::string ReadAll(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

bool WordBoundaryAt(const std::string& text, size_t pos, size_t len) {
  auto alnum = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0; };
  if (pos > 0 && alnum(text[pos - 1]) && alnum(text[pos])) return false;
  const size_t end = pos + len;
  if (end < text.size() && alnum(text[end - 1]) && alnum(text[end])) return false;
  return true;
}

std::string Shorten(std::string_view text, size_t max) {
  if (text.size() <= max) return std::string(text);
  return std::string(text.substr(0, max - 3)) + "...";
}

constexpr std::string_view kPartialHint =
    "the text may not hold the whole Constraints section (it ends before the next "
    "heading, "
    "or the diff has several hunks): a rule whose sentence lies outside it shows as "
    "stale. "
    "Trace the spec file itself, or a diff with full context (git diff -U100000).";

}  // namespace

int64_t CountRuleMentions(std::string_view text, std::string_view rule_id) {
  if (rule_id.empty()) return 0;
  int64_t count = 0;
  size_t pos = 0;
  while ((pos = text.find(rule_id, pos)) != std::string_view::npos) {
    const size_t end = pos + rule_id.size();
    const bool left_ok = pos == 0 || (!IdChar(text[pos - 1]) && text[pos - 1] != '.');
    const bool right_ok = end >= text.size() || !IdChar(text[end]);
    if (left_ok && right_ok) ++count;
    pos = end;
  }
  return count;
}

std::string FindSourceDir(const std::string& given) {
  if (!given.empty()) return given;
  std::error_code ec;
  for (fs::path dir = fs::current_path(ec); !ec && !dir.empty();
       dir = dir.parent_path()) {
    if (IsSourceDir(dir)) return dir.string();
    if (dir == dir.root_path()) break;
  }
  const fs::path built = ICTK_REVIEW_SOURCE_DIR;
  if (!built.empty() && IsSourceDir(built)) return built.string();
  return "";
}

TraceEvidence CollectEvidence(const std::string& source_dir, int histories,
                              uint64_t seed) {
  TraceEvidence evidence;
  evidence.source_dir = source_dir;
  evidence.histories = histories;
  evidence.seed = seed;
  for (RuleId id : kAllRuleIds) evidence.rules[id] = {};
  if (!source_dir.empty()) {
    const fs::path root = source_dir;
    std::error_code ec;
    std::vector<fs::path> tests;
    for (fs::recursive_directory_iterator it(root / "tests", ec), end; !ec && it != end;
         it.increment(ec)) {
      const std::string name = it->path().filename().string();
      if (it->is_regular_file(ec) && name.ends_with("_test.cc"))
        tests.push_back(it->path());
    }
    std::sort(tests.begin(), tests.end());
    evidence.test_files = static_cast<int>(tests.size());
    for (const fs::path& p : tests) {
      const std::string text = ReadAll(p);
      for (RuleId id : kAllRuleIds)
        evidence.rules[id].tests += CountRuleMentions(text, RuleIdName(id));
    }
    const fs::path index = root / "fixtures" / "corpus" / "INDEX.json";
    if (fs::exists(index, ec)) {
      // Each fixture of the index that names the rule (in its rules, accept or reject
      // lists or its id) counts once; an index of another shape counts mentions.
      evidence.fixture_index = true;
      const std::string text = ReadAll(index);
      const json doc = json::parse(text, nullptr, /*allow_exceptions=*/false);
      const bool per_fixture =
          doc.is_object() && doc.contains("fixtures") && doc["fixtures"].is_array();
      std::vector<std::string> entries;
      if (per_fixture) {
        for (const json& entry : doc["fixtures"]) entries.push_back(entry.dump());
      } else {
        entries.push_back(text);
      }
      for (const std::string& entry : entries)
        for (RuleId id : kAllRuleIds) {
          const int64_t n = CountRuleMentions(entry, RuleIdName(id));
          evidence.rules[id].fixtures += per_fixture ? (n > 0 ? 1 : 0) : n;
        }
    }
  }
  HistoryGenConfig config;
  Distribution distribution;
  for (int i = 0; i < histories; ++i) {
    const rc::Shrinkable<Plan> plan = CasePlan(seed, i, config);
    std::optional<Plan> value;
    {
      std::lock_guard<std::recursive_mutex> lock(RapidCheckMutex());
      try {
        value = plan.value();
      } catch (...) {
        continue;
      }
    }
    const History h = RenderHistory(
        *value, CaseRenderOptions(seed, i, 0, config.capabilities, Switches{}));
    for (const RenderedStep& s : h.steps) distribution.Add(s);
  }
  for (const auto& [id, n] : distribution.tags) evidence.rules[id].tags = n;
  return evidence;
}

TraceResult TraceSection(const SpecSection& section, std::string source,
                         TraceEvidence evidence) {
  TraceResult result;
  result.source = std::move(source);
  result.format = section.format;
  result.maybe_partial = section.maybe_partial;
  result.evidence = std::move(evidence);

  // The normalized text, sentence after sentence, with each sentence's span.
  std::string text;
  std::vector<std::pair<size_t, size_t>> spans;
  for (const SpecSentence& s : section.sentences) {
    if (!text.empty()) text += ' ';
    spans.emplace_back(text.size(), text.size() + s.normalized.size());
    text += s.normalized;
  }
  std::vector<std::set<RuleId>> traced(section.sentences.size());
  std::vector<bool> covered(text.size(), false);
  auto match = [&](RuleId rule, std::string_view raw, bool anchor) {
    const std::string quote = NormalizeQuote(raw);
    bool found = false;
    for (size_t pos = text.find(quote); pos != std::string::npos;
         pos = text.find(quote, pos + 1)) {
      if (!WordBoundaryAt(text, pos, quote.size())) continue;
      found = true;
      const size_t end = pos + quote.size();
      std::fill(covered.begin() + pos, covered.begin() + end, true);
      for (size_t i = 0; i < spans.size(); ++i)
        if (spans[i].first < end && pos < spans[i].second) traced[i].insert(rule);
    }
    if (!found) result.stale.push_back({rule, std::string(raw), anchor});
  };
  for (const RuleInfo& rule : RuleCatalogue()) {
    if (rule.quote.empty())
      result.unquoted.push_back(rule.id);
    else
      match(rule.id, rule.quote, false);
  }
  for (const TraceAnchor& a : TraceAnchors()) match(a.rule, a.quote, true);
  for (size_t i = 0; i < section.sentences.size(); ++i) {
    const SpecSentence& s = section.sentences[i];
    if (!s.normative && traced[i].empty()) continue;
    SentenceTrace row;
    row.sentence = s;
    for (RuleId id : kAllRuleIds)
      if (traced[i].count(id)) row.rules.push_back(id);
    int letters = 0, quoted = 0;
    for (size_t c = spans[i].first; c < spans[i].second; ++c) {
      if (!std::isalnum(static_cast<unsigned char>(text[c]))) continue;
      ++letters;
      quoted += covered[c] ? 1 : 0;
    }
    row.quoted_percent = letters == 0 ? 100 : quoted * 100 / letters;
    if (row.rules.empty())
      result.untraced.push_back(static_cast<int>(result.rows.size()));
    result.rows.push_back(std::move(row));
  }
  return result;
}

std::string RenderTraceText(const TraceResult& t) {
  std::string out = fmt::format(
      "trace {} ({}): {} sentences traced or normative, {} untraced, {} stale rules\n",
      t.source, ToString(t.format), t.rows.size(), t.untraced.size(), t.stale.size());
  out += fmt::format(
      "evidence: {} test files{}, fixture index {}, rule tags of {} histories (seed "
      "{})\n\n",
      t.evidence.test_files,
      t.evidence.source_dir.empty() ? " (no source tree found)" : "",
      t.evidence.fixture_index ? "found" : "absent (fixtures 0)", t.evidence.histories,
      t.evidence.seed);
  for (const SentenceTrace& row : t.rows) {
    out += fmt::format("[{}] {}{}: {}\n", row.sentence.index, row.sentence.subsection,
                       row.quoted_percent < 100 && !row.rules.empty()
                           ? fmt::format(" (quoted {}%)", row.quoted_percent)
                           : "",
                       Shorten(row.sentence.text, 200));
    if (row.rules.empty()) out += "    UNTRACED: no rule quotes this sentence\n";
    for (RuleId id : row.rules) {
      const RuleEvidence& e = t.evidence.rules.at(id);
      out += fmt::format("    {:<32} tests {:>3}  fixtures {:>3}  tags {:>5}\n",
                         RuleIdName(id), e.tests, e.fixtures, e.tags);
    }
  }
  out += fmt::format("\nuntraced sentences: {}\n", t.untraced.size());
  for (int i : t.untraced)
    out += fmt::format("  [{}] {}\n", t.rows[i].sentence.index, t.rows[i].sentence.text);
  out += fmt::format("stale rules (quote not in the text): {}\n", t.stale.size());
  for (const StaleQuote& q : t.stale)
    out += fmt::format("  {}{}: \"{}\"\n", RuleIdName(q.rule),
                       q.anchor ? " (anchor)" : "", q.quote);
  if (t.maybe_partial && !t.stale.empty()) out += fmt::format("note: {}\n", kPartialHint);
  return out;
}

std::string RenderTraceMarkdown(const TraceResult& t) {
  std::string out = fmt::format("## Spec trace of `{}`\n\n", t.source);
  out += fmt::format(
      "{} sentences, **{} untraced**, **{} stale rules** (read as {} text; evidence: {} "
      "test files, fixture index {}, rule tags of {} histories, seed {}).\n\n",
      t.rows.size(), t.untraced.size(), t.stale.size(), ToString(t.format),
      t.evidence.test_files, t.evidence.fixture_index ? "found" : "absent",
      t.evidence.histories, t.evidence.seed);
  if (!t.untraced.empty()) {
    out += "### Untraced sentences\n\n";
    for (int i : t.untraced)
      out +=
          fmt::format("- [{}] {}\n", t.rows[i].sentence.index, t.rows[i].sentence.text);
    out += "\n";
  }
  if (!t.stale.empty()) {
    out += "### Stale rules (quote no longer in the text)\n\n";
    for (const StaleQuote& q : t.stale)
      out += fmt::format("- `{}`{}: \"{}\"\n", RuleIdName(q.rule),
                         q.anchor ? " (anchor)" : "", q.quote);
    if (t.maybe_partial) out += fmt::format("\nNote: {}\n", kPartialHint);
    out += "\n";
  }
  out += "### Matrix\n\n| # | Sentence | Quoted | Rule | Tests | Fixtures | Tags |\n";
  out += "|---|----------|-------:|------|------:|---------:|-----:|\n";
  for (const SentenceTrace& row : t.rows) {
    const std::string sentence = MdCell(Shorten(row.sentence.text, 160));
    if (row.rules.empty()) {
      out += fmt::format("| {} | {} | | **untraced** | | | |\n", row.sentence.index,
                         sentence);
      continue;
    }
    bool first = true;
    for (RuleId id : row.rules) {
      const RuleEvidence& e = t.evidence.rules.at(id);
      out += fmt::format("| {} | {} | {} | `{}` | {} | {} | {} |\n",
                         first ? std::to_string(row.sentence.index) : "",
                         first ? sentence : "",
                         first ? fmt::format("{}%", row.quoted_percent) : "",
                         RuleIdName(id), e.tests, e.fixtures, e.tags);
      first = false;
    }
  }
  return out;
}

std::string RenderTraceJson(const TraceResult& t) {
  json rows = json::array();
  for (const SentenceTrace& row : t.rows) {
    json rules = json::array();
    for (RuleId id : row.rules) {
      const RuleEvidence& e = t.evidence.rules.at(id);
      rules.push_back({{"rule", RuleIdName(id)},
                       {"tests", e.tests},
                       {"fixtures", e.fixtures},
                       {"tags", e.tags}});
    }
    rows.push_back({{"index", row.sentence.index},
                    {"subsection", row.sentence.subsection},
                    {"sentence", row.sentence.text},
                    {"normative", row.sentence.normative},
                    {"quoted-percent", row.quoted_percent},
                    {"rules", std::move(rules)}});
  }
  json untraced = json::array();
  for (int i : t.untraced)
    untraced.push_back(
        {{"index", t.rows[i].sentence.index}, {"sentence", t.rows[i].sentence.text}});
  json stale = json::array();
  for (const StaleQuote& q : t.stale)
    stale.push_back(
        {{"rule", RuleIdName(q.rule)}, {"quote", q.quote}, {"anchor", q.anchor}});
  json unquoted = json::array();
  for (RuleId id : t.unquoted) unquoted.push_back(RuleIdName(id));
  const json doc = {{"source", t.source},
                    {"format", ToString(t.format)},
                    {"clean", t.clean()},
                    {"maybe-partial", t.maybe_partial},
                    {"sentences", std::move(rows)},
                    {"untraced", std::move(untraced)},
                    {"stale", std::move(stale)},
                    {"unquoted-rules", std::move(unquoted)},
                    {"evidence",
                     {{"test-files", t.evidence.test_files},
                      {"fixture-index", t.evidence.fixture_index},
                      {"histories", t.evidence.histories},
                      {"seed", t.evidence.seed}}}};
  return DumpJson(doc, 2) + "\n";
}

}  // namespace ictk
