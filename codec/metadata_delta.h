/// \file
/// Answers that carry only what changed in a table's metadata (docs/protocol.md section
/// 7, "Metadata deltas"; an optional addition to protocol version 1). Every `ok` answer
/// of a history carries the table's whole metadata, so a history of n steps moves O(n)
/// snapshots per answer and O(n²) in all: the adapter encodes and writes them, the
/// harness reads and compares them, at every step. A harness that offers it in `hello`
/// may be answered instead
///
///     "metadata-delta": {"base": 41,
///                        "set": {"last-updated-ms": 1007, "current-snapshot-id": 9},
///                        "remove": ["properties"],
///                        "splice": {"snapshots": {"keep": 8, "add": [{...}]}}}
///
/// meaning: the metadata answered to request 41 (the latest earlier request on the same
/// table whose `ok` answer carried metadata), with each member of `set` put in, each
/// member of `remove` taken out, and each array of `splice` cut to its first `keep`
/// elements with `add` appended. The metadata so rebuilt is judged exactly as if it had
/// been answered whole.
#pragma once

#include <algorithm>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "codec/result.h"
#include "model/iceberg/table_metadata.h"

namespace ictk {

inline constexpr std::string_view kMetadataDeltaKey = "metadata-delta";

/// Checks `delta` (the value of a `metadata-delta` member) against `metadata` and, when
/// it is well formed, applies it to `metadata` in place; `metadata` is left as it was
/// when it is not. Errors name the JSON pointer under `pointer` ("/metadata-delta"):
/// not an object, `set` not an object, `remove` not an array of strings, a `splice`
/// entry that is not `{keep, add}`, `keep` above the base array's length, a spliced
/// member that is not an array in the base, a member named twice. `base` is the
/// caller's to check (it needs the history).
Result<void> ApplyMetadataDelta(nlohmann::json& metadata, const nlohmann::json& delta,
                                std::string_view pointer = "/metadata-delta");

/// An answer that came with a `metadata-delta`, made whole: `metadata` (what the delta
/// stands for, rebuilt) put in its place. The delta's `base` names a request of one
/// session, which differs with --jobs and shards, so nothing that reads answers whole
/// keeps it: the runner's checks and failure records, the fixture replay.
void PutWholeMetadata(nlohmann::json& response, nlohmann::json metadata);

/// What is known of a metadata rebuilt from a delta: it is the metadata numbered
/// `version`, made from the one numbered `base` (0: none; the numbers are the session's)
/// by keeping, of each array that decoding remembers, its first elements as they were.
/// A decode memo whose last metadata was `base` takes those elements without comparing
/// their JSON (MetadataDecodeMemo::DecodeMetadata).
struct MetadataLineage {
  uint64_t base = 0;
  uint64_t version = 0;
  size_t snapshots_kept = 0;
  size_t schemas_kept = 0;
  size_t constraints_kept = 0;
};

/// How many leading elements of the array `member` a delta applied to a metadata left as
/// they were: `keep` when it spliced the array, none when it set or removed it, all of
/// them (`size`, the array's size now) when it did not name it.
size_t KeptElements(const nlohmann::json& delta, std::string_view member, size_t size);

/// A delta that turns `base` into `next` (both metadata objects), without `base`'s
/// request ID (the caller adds it): arrays present in both as arrays are spliced after
/// their longest common prefix (compared as the same JSON, types included), every other
/// member that changed is set, and members `next` lacks are removed. A member that did
/// not change appears nowhere. ApplyMetadataDelta(base, MakeMetadataDelta(base, next))
/// makes `base` the same JSON as `next`.
nlohmann::json MakeMetadataDelta(const nlohmann::json& base, const nlohmann::json& next);

/// What a connection keeps per table for metadata deltas, for the few tables it used
/// last, the most recent last. A history sends its requests to its own table
/// (docs/protocol.md section 3), so a few entries hold every legal delta base and the
/// memory stays flat over a long run.
template <typename T>
class RecentTables {
 public:
  static constexpr size_t kKept = 4;

  /// The entry of `table`, or nullptr.
  T* Find(const std::string& table) {
    for (auto& [name, entry] : entries_)
      if (name == table) return &entry;
    return nullptr;
  }
  /// The entry of `table` (a new one when there was none, the oldest forgotten beyond
  /// kKept), made the most recent. Valid until the next Use or Forget.
  T& Use(const std::string& table) {
    auto it = std::find_if(entries_.begin(), entries_.end(),
                           [&](const auto& e) { return e.first == table; });
    if (it == entries_.end()) {
      if (entries_.size() == kKept) entries_.erase(entries_.begin());
      entries_.emplace_back(table, T{});
    } else {
      std::rotate(it, it + 1, entries_.end());
    }
    return entries_.back().second;
  }
  void Forget(const std::string& table) {
    std::erase_if(entries_, [&](const auto& e) { return e.first == table; });
  }
  void Clear() { entries_.clear(); }

 private:
  std::vector<std::pair<std::string, T>> entries_;
};

/// The reading side: remembers the last metadata answered on each of the latest tables
/// and rebuilds each `metadata-delta` answer from it. The session reads every answer
/// through one (AdapterSession::Call), and so does a failed history's record when it makes
/// its answers whole (ExpandMetadataDeltas): a delta is resolved by this code alone.
class MetadataDeltaReader {
 public:
  /// What is known of the metadata of one answer.
  struct Read {
    /// For a delta: the metadata it stands for, rebuilt, valid until the next Track or
    /// Clear. nullptr for a whole metadata.
    const nlohmann::json* metadata = nullptr;
    MetadataLineage lineage;
  };

  /// The `ok` answer `response` to request `id` on `table`, which carries a whole
  /// `metadata` or a `metadata-delta`: a whole metadata becomes the table's base; a delta
  /// must name the latest such answer on `table` as its base and is applied to it. The
  /// error names what is wrong with the delta (it is then not applied).
  Result<Read> Track(const std::string& table, int64_t id, const nlohmann::json& response);
  void Clear() { bases_.Clear(); }

 private:
  struct Base {
    int64_t id = 0;
    nlohmann::json metadata;
    uint64_t version = 0;  ///< MetadataLineage::version
  };
  RecentTables<Base> bases_;
  uint64_t versions_ = 0;  ///< the last MetadataLineage::version given
};

class MetadataEncodeMemo;

/// The answering side, for an implementation built on the model (the reference
/// adapter): remembers the last metadata it answered on each of its latest tables and
/// answers the next one on that table as a delta from it. The snapshots and schemas are
/// compared as values, so only the new ones are encoded; the other members are encoded
/// (they do not grow with the history) and compared as JSON.
class MetadataDeltaWriter {
 public:
  /// Puts the metadata answered to request `id` on `table` into the `ok` answer
  /// `response`: as `metadata-delta` when the last metadata answered on `table` is
  /// remembered, else whole as `metadata` (encoded with `memo`, which may be nullptr).
  void Put(nlohmann::json& response, const std::string& table, const nlohmann::json& id,
           const TableMetadata& metadata, MetadataEncodeMemo* memo);

 private:
  struct Last {
    int64_t id = 0;
    TableMetadata metadata;
    nlohmann::json members;  ///< TableMetadataMembersToJson(metadata)
  };
  RecentTables<Last> tables_;
};

}  // namespace ictk
