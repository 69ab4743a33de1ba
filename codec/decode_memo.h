/// \file
/// Decoding answers whose table metadata mostly repeats the previous answer's. Every `ok`
/// answer of a history carries the table's whole metadata: all its snapshots, schemas and
/// constraints, most of them unchanged since the previous answer. A `MetadataDecodeMemo`
/// remembers the elements of `snapshots`, `schemas` and `constraints` it decoded for the
/// last answer, by the hash of their JSON; an element of the next answer whose JSON is
/// the same (same hash, then the same JSON, member for member and of the same JSON types)
/// takes the remembered value and is not decoded again. Decoding one of these elements
/// depends on its JSON alone (SnapshotFromJson, SchemaFromJson, ConstraintFromJson), so
/// the result is exactly TableMetadataFromJson's; a refused element is never remembered,
/// so an error is found and worded as before. The memo holds the elements of the last
/// answer only (those the new answer no longer has are dropped after each decode), so it
/// does not grow with the history. One memo per sequence of answers (the runner keeps one
/// per history).
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string_view>
#include <unordered_map>
#include <vector>

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

  /// TableMetadataFromJson(json, pointer), reusing what the memo recognises.
  Result<TableMetadata> DecodeMetadata(const nlohmann::json& json,
                                       std::string_view pointer = {});
  /// ResponseFromJson(json, schema_fields), its metadata decoded with DecodeMetadata.
  Result<Response> DecodeResponse(
      const nlohmann::json& json,
      const std::vector<NestedField>* schema_fields = nullptr);

  const Stats& stats() const { return stats_; }

  /// The decoder of one kind of element, consulting and filling the memo (used by the
  /// table metadata decoder).
  Result<ictk::Snapshot> DecodeSnapshot(const nlohmann::json& json,
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
  template <typename T>
  using Entries = std::unordered_multimap<size_t, Entry<T>>;

  template <typename T, typename F>
  Result<T> Lookup(Entries<T>& entries, const nlohmann::json& json,
                   std::string_view pointer, F decode);
  /// Drops the entries the last decode did not use.
  void Sweep();

  Entries<ictk::Snapshot> snapshots_;
  Entries<ictk::Schema> schemas_;
  Entries<ictk::Constraint> constraints_;
  uint64_t generation_ = 0;
  Stats stats_;
};

/// Whether `a` and `b` are the same JSON: the same types everywhere (an integer 1 is not
/// the float 1.0, which nlohmann's == calls equal) and equal values.
bool SameJson(const nlohmann::json& a, const nlohmann::json& b);

/// TableMetadataFromJson with a memo (nullptr: none). Defined in json_table_metadata.cc.
Result<TableMetadata> TableMetadataFromJson(const nlohmann::json& json,
                                            std::string_view pointer,
                                            MetadataDecodeMemo* memo);
/// ResponseFromJson with a memo (nullptr: none). Defined in protocol.cc.
Result<Response> ResponseFromJson(const nlohmann::json& json,
                                  const std::vector<NestedField>* schema_fields,
                                  MetadataDecodeMemo* memo);

}  // namespace ictk
