/// \file
/// `certify --resume` (certify_resume.h): reading a killed run's report.jsonl back.
#include "properties/certify_resume.h"

#include <fmt/format.h>
#include <unistd.h>

#include <filesystem>
#include <functional>
#include <iterator>
#include <string_view>

#include "codec/json_text.h"

namespace ictk {
namespace {

namespace fs = std::filesystem;

/// "" when `a` and `b` describe the same certification; else which field differs.
std::string HeaderMismatch(const RunHeader& was, const RunHeader& now) {
  auto differ = [](std::string_view field, const auto& a, const auto& b) {
    return fmt::format("{} was {} in the run being resumed, is {} now", field, a, b);
  };
  if (was.mode != now.mode) return differ("mode", was.mode, now.mode);
  if (was.adapter != now.adapter) return differ("the adapter", was.adapter, now.adapter);
  if (was.seed != now.seed) return differ("--seed", was.seed, now.seed);
  if (was.histories != now.histories)
    return differ("--histories", was.histories, now.histories);
  if (was.until_stable != now.until_stable)
    return differ("--until-stable", was.until_stable, now.until_stable);
  if (was.max_steps != now.max_steps)
    return differ("--max-steps", was.max_steps, now.max_steps);
  if (was.shard != now.shard) return differ("--shard", was.shard, now.shard);
  if (was.switches != now.switches) {
    for (const auto& [name, value] : now.switches) {
      auto it = was.switches.find(name);
      const std::string before = it == was.switches.end() ? "unset" : it->second;
      if (before != value) return differ("switch " + name, before, value);
    }
    return "the switches differ";
  }
  if (was.model_version != now.model_version)
    return differ("the model version", was.model_version, now.model_version);
  if (was.ictk_version != now.ictk_version)
    return differ("the ictk version", was.ictk_version, now.ictk_version);
  if (was.protocol_version != now.protocol_version)
    return differ("the protocol version", was.protocol_version, now.protocol_version);
  // The corpus cases come first in the report: a run resumed with another corpus (or
  // with one where the killed run had none, --no-corpus) would mix two certifications.
  if (was.corpus != now.corpus)
    return differ("the fixture corpus", was.corpus.empty() ? "none" : was.corpus,
                  now.corpus.empty() ? "none" : now.corpus);
  if (was.capabilities != now.capabilities)
    return "the adapter declares other capabilities than in the run being resumed";
  return {};
}

}  // namespace

Result<ResumeState> LoadResumeState(const std::string& dir, const RunHeader& expected,
                                    const std::function<void(CaseRecord&&)>& on_case) {
  ResumeState state;
  const fs::path path = fs::path(dir) / "report.jsonl";
  const std::string name = path.string();
  std::error_code ec;
  if (!fs::exists(path, ec)) return state;
  std::ifstream in(path, std::ios::binary);
  if (!in) return MakeError(ErrorKind::kIo, fmt::format("{}: cannot read", name));
  // Line by line: a long run's file is not held in memory.
  size_t pos = 0;
  size_t line_no = 0;
  std::string line;
  while (std::getline(in, line)) {
    // A line without its newline was cut off by the kill: it and what follows are
    // dropped (the case is run again).
    if (in.eof()) break;
    const size_t end = pos + line.size();
    ++line_no;
    const std::string where = fmt::format("{}:{}", name, line_no);
    Result<nlohmann::json> j = ParseJsonText(line, where);
    if (!j) {
      return MakeError(ErrorKind::kUsage,
                       fmt::format("cannot resume: {}", j.error().message));
    }
    const std::string type =
        j->is_object() && j->contains("type") && (*j)["type"].is_string()
            ? (*j)["type"].get<std::string>()
            : "";
    if (!state.found) {
      if (type != "header") {
        return MakeError(ErrorKind::kUsage,
                         fmt::format("cannot resume: {}: the first record is not a "
                                     "header",
                                     where));
      }
      Result<RunHeader> h = HeaderFromJson(*j);
      if (!h) {
        return MakeError(ErrorKind::kUsage,
                         fmt::format("cannot resume: {}: {}", where, h.error().message));
      }
      if (std::string why = HeaderMismatch(*h, expected); !why.empty()) {
        return MakeError(
            ErrorKind::kUsage,
            fmt::format("cannot resume {}: {} (run the same command with --resume)",
                        where, why));
      }
      state.header = std::move(*h);
      state.found = true;
    } else if (type == "case") {
      Result<CaseRecord> c = CaseFromJson(*j);
      if (!c) {
        return MakeError(ErrorKind::kUsage,
                         fmt::format("cannot resume: {}: {}", where, c.error().message));
      }
      // Expectation breaches are judged over every case at the end: written again.
      if (c->id.rfind("expectations/", 0) == 0) break;
      if (!state.done.insert(c->index).second) {
        return MakeError(
            ErrorKind::kUsage,
            fmt::format("cannot resume: {}: case {} is recorded twice", where, c->index));
      }
      if (on_case)
        on_case(std::move(*c));
      else
        state.cases.push_back(std::move(*c));
    } else if (type == "totals") {
      // The run had finished: its totals are written again from the same cases.
      break;
    }
    // Other records are kept as they are (new kinds of records are a minor change).
    pos = end + 1;
    state.keep_bytes = pos;
  }
  return state;
}

bool CorpusDone(const ResumeState& state, int64_t first_index, size_t count) {
  if (!state.found) return false;
  for (size_t k = 0; k < count; ++k)
    if (state.done.count(first_index + static_cast<int64_t>(k)) == 0) return false;
  return true;
}

bool ReopenReportForAppend(const std::string& dir, size_t keep_bytes, std::ofstream& out,
                           std::string& error) {
  const fs::path path = fs::path(dir) / "report.jsonl";
  if (::truncate(path.c_str(), static_cast<off_t>(keep_bytes)) != 0) {
    error = fmt::format("cannot cut {} to its finished cases", path.string());
    return false;
  }
  out.open(path, std::ios::binary | std::ios::app);
  if (!out) {
    error = fmt::format("cannot append to {}", path.string());
    return false;
  }
  return true;
}

}  // namespace ictk
