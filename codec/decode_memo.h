/// \file
/// Decoding answers whose table metadata mostly repeats the previous answer's. Every `ok`
/// answer of a history carries the table's whole metadata: all its snapshots, schemas and
/// constraints, most of them unchanged since the previous answer. A `MetadataDecodeMemo`
/// remembers the elements of `snapshots`, `schemas` and `constraints` it decoded for the
/// last answer, by the hash of their JSON; an element of the next answer whose JSON is
/// the same (the element at the same place in the last answer first, then those of the
/// same hash; the same JSON, member for member and of the same JSON types) takes the
/// remembered value and is not decoded again. Decoding one of these elements
/// depends on its JSON alone (SnapshotFromJson, SchemaFromJson, ConstraintFromJson), so
/// the result is exactly TableMetadataFromJson's; a refused element is never remembered,
/// so an error is found and worded as before. The memo holds the elements of the last
/// answer only (those the new answer no longer has are dropped after each decode), so it
/// does not grow with the history. One memo per sequence of answers (the runner keeps one
/// per history). `MetadataEncodeMemo` is the same idea on the encoding side, for the
/// reference adapter.
#pragma once

#include <cstdint>
#include <memory>
#include <nlohmann/json.hpp>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "codec/metadata_delta.h"
#include "codec/protocol.h"
#include "codec/result.h"
#include "model/iceberg/table_metadata.h"

namespace ictk {

class MetadataDecodeMemo {
 public:
  /// Counts of elements (snapshots, schemas, constraints) taken from the memo and
  /// decoded.
  struct Stats {
    int64_t reused = 0;
    int64_t decoded = 0;
  };

  /// TableMetadataFromJson(json, pointer), reusing what the memo recognises. With a
  /// `lineage` whose base is the last metadata this memo decoded, the elements it says
  /// were kept are reused without comparing their JSON (a metadata delta rebuilt by the
  /// session, codec/metadata_delta.h): a long history's answers then cost what changed.
  Result<TableMetadata> DecodeMetadata(const nlohmann::json& json,
                                       std::string_view pointer = {},
                                       const MetadataLineage* lineage = nullptr);
  /// ResponseFromJson(json, schema_fields), its metadata decoded with DecodeMetadata,
  /// except that `metadata_json` and `rows_json` are left empty: the caller holds the
  /// answer, and a copy of the whole table's metadata per answer is what a long history
  /// cannot afford.
  /// `metadata`, when given, is the answer's metadata in place of its own `metadata`
  /// member: what a `metadata-delta` answer stands for (codec/metadata_delta.h), and
  /// `lineage` what is known of it (DecodeMetadata).
  Result<Response> DecodeResponse(
      const nlohmann::json& json,
      const std::vector<NestedField>* schema_fields = nullptr,
      const nlohmann::json* metadata = nullptr,
      const MetadataLineage* lineage = nullptr);

  const Stats& stats() const { return stats_; }
  /// The lineage of the metadata of the response DecodeResponse is decoding (nullptr
  /// otherwise), for the response decoder to hand to DecodeMetadata.
  const MetadataLineage* lineage() const { return lineage_; }

  /// The decoder of one kind of element, consulting and filling the memo (used by the
  /// table metadata decoder). A snapshot is handed out as the memo's shared object: the
  /// decoded metadata holds it as it is (`SharedVector::push_back_shared`), so an answer
  /// repeating the last answer's snapshots copies none of them. Nothing changes it in
  /// place: a metadata changing its snapshot copies it first (`mutable_at`).
  Result<std::shared_ptr<const ictk::Snapshot>> DecodeSnapshot(const nlohmann::json& json,
                                                               std::string_view pointer);
  Result<ictk::Schema> DecodeSchema(const nlohmann::json& json, std::string_view pointer);
  Result<ictk::Constraint> DecodeConstraint(const nlohmann::json& json,
                                            std::string_view pointer);

 private:
  template <typename T>
  struct Entry {
    nlohmann::json json;
    T value;
    uint64_t generation = 0;
  };
  /// The remembered elements of one kind, by the hash of their JSON, and those of the
  /// last answer that decoded in its order (`last`) and of the answer being decoded
  /// (`next`): the element at the same place in the last answer is tried first, which
  /// finds an unchanged element without hashing it.
  template <typename T>
  struct Kind {
    std::unordered_multimap<size_t, Entry<T>> entries;
    std::vector<Entry<T>*> last;
    std::vector<Entry<T>*> next;
    /// Elements of the answer being decoded known to be the last answer's (lineage).
    size_t trusted = 0;
  };

  template <typename T, typename F>
  Result<T> Lookup(Kind<T>& kind, const nlohmann::json& json, std::string_view pointer,
                   F decode);
  /// Drops the entries the last decode did not use.
  void Sweep();

  Kind<std::shared_ptr<const ictk::Snapshot>> snapshots_;
  Kind<ictk::Schema> schemas_;
  Kind<ictk::Constraint> constraints_;
  uint64_t generation_ = 0;
  /// The lineage version of the last metadata decoded (0: unknown).
  uint64_t last_version_ = 0;
  /// While decoding a response: the lineage of its metadata.
  const MetadataLineage* lineage_ = nullptr;
  Stats stats_;
};

/// The encoding side, for an implementation that answers the table's whole metadata at
/// every step (the reference adapter): the JSON of each snapshot and schema of the last
/// metadata encoded, by position; an element equal to the one encoded at the same place
/// last time (operator==, which compares every member exactly) takes a copy of its JSON
/// instead of being encoded again. SnapshotToJson and SchemaToJson depend on the element
/// alone, so the result is exactly TableMetadataToJson's. Constraints are always encoded
/// (their expressions' literals compare by value: 0.0 equals -0.0). A snapshot is kept as
/// the metadata's shared object, not copied: the very object encoded last time needs no
/// comparison (metadata copied from step to step shares its unchanged snapshots). Holds
/// one entry per position, so it grows with the largest metadata, not with the history.
class MetadataEncodeMemo {
 public:
  nlohmann::json EncodeSnapshot(const std::shared_ptr<const ictk::Snapshot>& snapshot,
                                size_t index);
  nlohmann::json EncodeSchema(const ictk::Schema& schema, size_t index);

 private:
  template <typename T>
  struct Slot {
    T value;
    nlohmann::json json;
  };
  template <typename T, typename F>
  nlohmann::json Lookup(std::vector<Slot<T>>& slots, const T& value, size_t index,
                        F encode);

  std::vector<Slot<std::shared_ptr<const ictk::Snapshot>>> snapshots_;
  std::vector<Slot<ictk::Schema>> schemas_;
};

/// TableMetadataToJson with an encode memo (nullptr: none). Defined in
/// json_table_metadata.cc.
nlohmann::json TableMetadataToJson(const TableMetadata& metadata, MetadataEncodeMemo* memo);

/// Whether `a` and `b` are the same JSON: the same types everywhere (an integer 1 is not
/// the float 1.0, which nlohmann's == calls equal) and equal values.
bool SameJson(const nlohmann::json& a, const nlohmann::json& b);

/// TableMetadataFromJson with a memo (nullptr: none). Defined in json_table_metadata.cc.
Result<TableMetadata> TableMetadataFromJson(const nlohmann::json& json,
                                            std::string_view pointer,
                                            MetadataDecodeMemo* memo);
/// ResponseFromJson with a memo (nullptr: none); `keep_json` false leaves
/// `metadata_json` and `rows_json` empty; `metadata`, when given, stands for the
/// answer's `metadata` member (a rebuilt metadata delta). Defined in
/// protocol_responses.cc.
Result<Response> ResponseFromJson(const nlohmann::json& json,
                                  const std::vector<NestedField>* schema_fields,
                                  MetadataDecodeMemo* memo, bool keep_json = true,
                                  const nlohmann::json* metadata = nullptr);

}  // namespace ictk
