#include "reports/merge.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cstdio>
#include <map>
#include <set>

#include "codec/json_text.h"

namespace ictk {

namespace {

using json = nlohmann::json;

/// The header fields shards must agree on (as report.jsonl names them).
constexpr const char* kSameFields[] = {
    "ictk-version",    "protocol-version", "model-version", "seed",    "adapter",
    "switches",        "max-steps",        "mode",          "profile", "writer",
    "format-versions", "capabilities",     "hello",         "corpus",  "corpus-note"};

bool ParseShard(const std::string& text, long long& i, long long& n) {
  return std::sscanf(text.c_str(), "%lld/%lld", &i, &n) == 2 && n >= 1 && i >= 0 && i < n;
}

std::string Shown(const json& j) {
  std::string s = DumpJson(j);
  if (s.size() > 80) s = s.substr(0, 77) + "...";
  return s;
}

}  // namespace

namespace {

/// Each shard is I/N, all with the same N, and every I is there once: shard I -> its
/// position in `shards`.
Result<std::map<long long, size_t>> ShardNumbers(const std::vector<ShardInput>& shards) {
  long long n = 0;
  std::map<long long, size_t> by_shard;
  for (size_t s = 0; s < shards.size(); ++s) {
    const RunHeader& h = shards[s].report.header;
    long long i = 0, k = 0;
    if (!ParseShard(h.shard, i, k))
      return MakeError(ErrorKind::kInvalid,
                       fmt::format("{}: field shard is \"{}\", not I/N (a run without "
                                   "--shard is not a shard)",
                                   shards[s].source, h.shard));
    if (s == 0) n = k;
    if (k != n)
      return MakeError(ErrorKind::kInvalid,
                       fmt::format("field shard: {} is {} but {} is {} (different N)",
                                   shards[0].source, shards[0].report.header.shard,
                                   shards[s].source, h.shard));
    if (auto [it, fresh] = by_shard.emplace(i, s); !fresh)
      return MakeError(ErrorKind::kInvalid,
                       fmt::format("field shard: {} and {} are both shard {}",
                                   shards[it->second].source, shards[s].source, h.shard));
  }
  if (static_cast<long long>(by_shard.size()) != n) {
    std::vector<std::string> missing;
    for (long long i = 0; i < n; ++i)
      if (!by_shard.count(i)) missing.push_back(fmt::format("{}/{}", i, n));
    return MakeError(ErrorKind::kInvalid, fmt::format("field shard: missing shard(s) {}",
                                                      fmt::join(missing, ", ")));
  }
  return by_shard;
}

/// The header fields every shard must share.
Result<void> SameHeaders(const std::vector<ShardInput>& shards) {
  const json first = ToJson(shards[0].report.header);
  for (size_t s = 1; s < shards.size(); ++s) {
    const json other = ToJson(shards[s].report.header);
    for (const char* field : kSameFields)
      if (first.value(field, json()) != other.value(field, json()))
        return MakeError(
            ErrorKind::kInvalid,
            fmt::format("field {} differs: {} in {}, {} in {}", field,
                        Shown(first.value(field, json())), shards[0].source,
                        Shown(other.value(field, json())), shards[s].source));
  }
  return {};
}

/// Each shard complete: totals written, every history of its header there.
Result<void> Complete(const std::vector<ShardInput>& shards) {
  for (const ShardInput& shard : shards) {
    if (!shard.report.totals)
      return MakeError(ErrorKind::kInvalid,
                       fmt::format("{}: field totals is missing (the run did not finish; "
                                   "`ictk certify --resume` completes it)",
                                   shard.source));
    int64_t random = 0;
    for (const CaseRecord& c : shard.report.cases)
      if (c.index >= 0) ++random;
    if (random != shard.report.header.histories)
      return MakeError(
          ErrorKind::kInvalid,
          fmt::format("{}: field histories is {} but the report has {} random case(s) (a "
                      "--fail-fast or --case run is not a whole shard)",
                      shard.source, shard.report.header.histories, random));
  }

  return {};
}

/// The corpus records of shard 0 (before its first random case), then the random cases
/// in index order, each index once; `origin` gets the shard of each.
Result<void> MergeCases(const std::vector<ShardInput>& shards, size_t zero,
                        Report& merged, std::vector<size_t>& origin) {
  // The corpus: shard 0's records before its first random case.
  for (const CaseRecord& c : shards[zero].report.cases) {
    if (c.index >= 0) break;
    if (c.id.rfind("expectations/", 0) == 0) continue;
    merged.cases.push_back(c);
    origin.push_back(zero);
  }
  // The random cases in index order; each index once, in its shard.
  std::vector<std::pair<int64_t, std::pair<size_t, size_t>>> random;
  for (size_t s = 0; s < shards.size(); ++s)
    for (size_t k = 0; k < shards[s].report.cases.size(); ++k)
      if (shards[s].report.cases[k].index >= 0)
        random.push_back({shards[s].report.cases[k].index, {s, k}});
  std::sort(random.begin(), random.end());
  for (size_t k = 0; k < random.size(); ++k) {
    const auto [s, at] = random[k].second;
    if (random[k].first != static_cast<int64_t>(k))
      return MakeError(
          ErrorKind::kInvalid,
          fmt::format("field index: the shards' random cases are not 0..{} once each "
                      "(case {} of {}, expected index {})",
                      random.size() - 1, shards[s].report.cases[at].id, shards[s].source,
                      k));
    merged.cases.push_back(shards[s].report.cases[at]);
    origin.push_back(s);
  }
  return {};
}

/// Expectation breaches: an entry no case of the whole run matched is reported by every
/// shard; one that some shard's case matched is not a breach of the merged run.
void MergeBreaches(const std::vector<ShardInput>& shards, size_t zero, Report& merged,
                   std::vector<size_t>& origin) {
  std::map<std::string, int> seen;
  std::vector<CaseRecord> breaches;
  for (const ShardInput& shard : shards) {
    std::set<std::string> mine;
    for (const CaseRecord& c : shard.report.cases)
      if (c.id.rfind("expectations/", 0) == 0 && mine.insert(c.reason).second) {
        if (++seen[c.reason] == 1 && &shard == &shards[0]) breaches.push_back(c);
      }
  }
  int numbered = 0;
  for (CaseRecord& c : breaches)
    if (seen[c.reason] == static_cast<int>(shards.size())) {
      c.id = fmt::format("expectations/{}", ++numbered);
      merged.cases.push_back(std::move(c));
      origin.push_back(zero);
    }
}

/// One fixture per cause, as an unsharded run writes them.
void OneFixturePerCause(
    const std::vector<size_t>& origin,
    const std::function<std::string(const std::string&)>& replay_of,
    const std::function<std::string(size_t, const std::string&, const std::string&)>&
        reproduce_of,
    MergedReport& out) {
  Report& merged = out.report;
  std::map<std::string, size_t> head_of;
  for (size_t k = 0; k < merged.cases.size(); ++k) {
    CaseRecord& c = merged.cases[k];
    if (!c.failure || IsConformant(c.verdict)) continue;
    FailureDetail& f = *c.failure;
    const std::string cause = CauseOf(c);
    auto it = head_of.find(cause);
    // A corpus case keeps its own fixture (the copy its shard wrote, or the corpus file
    // of a run without --out), as in an unsharded run; it heads its cause for the random
    // cases after it.
    if (c.index < 0) {
      head_of.emplace(cause, k);
      if (!f.fixture.empty() && f.fixture[0] != '/') {
        out.fixtures.push_back({origin[k], f.fixture});
        f.replay = replay_of(f.fixture);
        if (reproduce_of) f.reproduce = reproduce_of(origin[k], f.fixture, f.reproduce);
      }
      continue;
    }
    if (it == head_of.end()) {
      head_of.emplace(cause, k);
      f.same_cause_as.clear();
      // A fixture the shard wrote (relative to its folder) moves into the merged one.
      if (!f.fixture.empty() && f.fixture[0] != '/') {
        out.fixtures.push_back({origin[k], f.fixture});
        f.replay = replay_of(f.fixture);
      }
      continue;
    }
    const FailureDetail& head = *merged.cases[it->second].failure;
    f.same_cause_as = merged.cases[it->second].id;
    f.fixture = head.fixture;
    f.fixture_id = head.fixture_id;
    f.replay = head.replay;
  }
}

}  // namespace

Result<MergedReport> MergeShards(
    const std::vector<ShardInput>& shards,
    const std::function<std::string(const std::string&)>& replay_of,
    const std::string& command_line,
    const std::function<std::string(size_t, const std::string&, const std::string&)>&
        reproduce_of) {
  if (shards.empty()) return MakeError(ErrorKind::kInvalid, "no shards to merge");
  auto by_shard = ShardNumbers(shards);
  if (!by_shard) return tl::unexpected(by_shard.error());
  if (auto same = SameHeaders(shards); !same) return tl::unexpected(same.error());
  if (auto complete = Complete(shards); !complete)
    return tl::unexpected(complete.error());

  MergedReport out;
  Report& merged = out.report;
  const size_t zero = by_shard->at(0);
  merged.header = shards[zero].report.header;
  merged.header.shard.clear();
  merged.header.command_line = command_line;
  merged.header.histories = 0;
  for (const ShardInput& shard : shards)
    merged.header.histories += shard.report.header.histories;

  // Which shard each kept record comes from (for its fixture file).
  std::vector<size_t> origin;
  if (auto cases = MergeCases(shards, zero, merged, origin); !cases)
    return tl::unexpected(cases.error());
  MergeBreaches(shards, zero, merged, origin);
  OneFixturePerCause(origin, replay_of, reproduce_of, out);

  double duration = 0;
  for (const ShardInput& shard : shards)
    duration = std::max(duration, shard.report.totals->duration_ms);
  merged.totals = ComputeTotals(merged.header, merged.cases, duration);
  return out;
}

namespace {

void Strip(json& j) {
  if (j.is_object()) {
    j.erase("duration-ms");
    j.erase("command-line");
    j.erase("replay");
    j.erase("reproduce");
    for (auto& [k, v] : j.items()) Strip(v);
  } else if (j.is_array()) {
    for (auto& v : j) Strip(v);
  }
}

/// The first differing key of two objects (or "" when only order differs).
std::string FirstDifference(const json& a, const json& b) {
  if (!a.is_object() || !b.is_object()) return "";
  for (const auto& [k, v] : a.items())
    if (!b.contains(k) || b.at(k) != v) return k;
  for (const auto& [k, v] : b.items())
    if (!a.contains(k)) return k;
  return "";
}

}  // namespace

std::vector<std::string> ExactDifferences(const Report& a, const Report& b) {
  std::vector<std::string> out;
  json ha = ToJson(a.header), hb = ToJson(b.header);
  Strip(ha);
  Strip(hb);
  for (const auto& [k, v] : ha.items())
    if (hb.value(k, json()) != v)
      out.push_back(
          fmt::format("header {}: {} vs {}", k, Shown(v), Shown(hb.value(k, json()))));
  if (a.cases.size() != b.cases.size())
    out.push_back(fmt::format("cases: {} vs {}", a.cases.size(), b.cases.size()));
  for (size_t k = 0; k < std::min(a.cases.size(), b.cases.size()); ++k) {
    json ca = ToJson(a.cases[k]), cb = ToJson(b.cases[k]);
    Strip(ca);
    Strip(cb);
    if (ca == cb) continue;
    if (a.cases[k].id != b.cases[k].id) {
      out.push_back(
          fmt::format("case {}: {} vs {}", k + 1, a.cases[k].id, b.cases[k].id));
      continue;
    }
    std::string field = FirstDifference(ca, cb);
    if (field == "failure" && ca["failure"].is_object() && cb["failure"].is_object())
      field = "failure." + FirstDifference(ca["failure"], cb["failure"]);
    out.push_back(fmt::format("case {}: {} differs", a.cases[k].id, field));
  }
  if (a.totals.has_value() != b.totals.has_value()) {
    out.push_back("totals: in one report only");
  } else if (a.totals) {
    json ta = ToJson(*a.totals), tb = ToJson(*b.totals);
    Strip(ta);
    Strip(tb);
    if (ta != tb) out.push_back("totals: " + FirstDifference(ta, tb) + " differs");
  }
  return out;
}

}  // namespace ictk
