/// \file
/// The mutants of the surrounding Iceberg rules and protocol conventions that live on the
/// wire (reader_profile_internal.h): each rewrites one member of an answer the correct
/// sample encoded, the way a writer that builds its table metadata JSON by hand gets one
/// member wrong, or refuses a request before the engine sees it.
#include <cstdint>
#include <limits>
#include <string>

#include "sample/engine_internal.h"
#include "sample/reader_profile_internal.h"

namespace ictk::sample {
namespace {

using nlohmann::json;

constexpr int64_t kTwoPow53 = int64_t{1} << 53;

/// Whether `v` (a row's values, any depth) holds an integer beyond +-2^53.
bool HasLongBeyond2p53(const json& v) {
  if (v.is_number_integer()) {
    if (v.is_number_unsigned())
      return v.get<uint64_t>() > static_cast<uint64_t>(kTwoPow53);
    const int64_t n = v.get<int64_t>();
    return n > kTwoPow53 || n < -kTwoPow53;
  }
  if (v.is_object() || v.is_array())
    for (const json& x : v)
      if (HasLongBeyond2p53(x)) return true;
  return false;
}

/// Writes every integer of `v` (a row's values, any depth) through a double and back to a
/// 64-bit integer, saturating as a Java `(long)` cast does: the way a writer that keeps
/// JSON numbers as doubles writes them. An integer beyond +-2^53 comes back as the
/// nearest double (2^53 + 1 as 2^53); the ones a double holds exactly stay as they are.
void WriteIntegersThroughDouble(json& v) {
  if (v.is_number_integer()) {
    if (v.is_number_unsigned() &&
        v.get<uint64_t>() > static_cast<uint64_t>(std::numeric_limits<int64_t>::max()))
      return;  // not a long
    const double d = static_cast<double>(v.get<int64_t>());
    int64_t back = 0;
    if (d >= 9223372036854775808.0) {
      back = std::numeric_limits<int64_t>::max();
    } else if (d < -9223372036854775808.0) {
      back = std::numeric_limits<int64_t>::min();
    } else {
      back = static_cast<int64_t>(d);
    }
    if (back != v.get<int64_t>()) v = back;
    return;
  }
  if (v.is_object() || v.is_array())
    for (json& x : v) WriteIntegersThroughDouble(x);
}

int64_t IntOr(const json& md, const char* key, int64_t fallback) {
  return md.contains(key) && md[key].is_number_integer() ? md[key].get<int64_t>()
                                                         : fallback;
}

/// The highest snapshot ID of `md` (0 without snapshots).
int64_t MaxSnapshotId(const json& md) {
  int64_t max = 0;
  if (md.contains("snapshots") && md["snapshots"].is_array())
    for (const json& s : md["snapshots"])
      if (s.is_object()) max = std::max(max, IntOr(s, "snapshot-id", 0));
  return max;
}

/// The snapshot of `md` with ID `id`, or nullptr.
const json* SnapshotById(const json& md, int64_t id) {
  if (!md.contains("snapshots") || !md["snapshots"].is_array()) return nullptr;
  for (const json& s : md["snapshots"])
    if (s.is_object() && IntOr(s, "snapshot-id", -1) == id) return &s;
  return nullptr;
}

/// Whether `op` creates a snapshot on the table (a commit outside a transaction, finish,
/// validate).
bool MakesSnapshot(std::string_view op, const json& request) {
  if (op == "commit") return !request.contains("txn");
  return op == "finish" || op == "validate";
}

}  // namespace

std::optional<json> RefuseAsMutant(Mutant mutant, std::string_view op,
                                   const json& request, const json& id) {
  if (mutant != Mutant::kLongBeyond2p53Refused || op != "commit") return std::nullopt;
  // Reads JSON numbers as doubles, and refuses the integers a double cannot hold exactly.
  for (const char* key : {"add", "modify"}) {
    if (!request.contains(key) || !request[key].is_array()) continue;
    for (const json& row : request[key]) {
      if (!row.is_object() || !row.contains("values")) continue;
      if (!HasLongBeyond2p53(row["values"])) continue;
      json j = json::object();
      j["id"] = id;
      j["result"] = "rejected";
      j["error"] = {{"kind", kinds::kInvalidRequest},
                    {"message", "a number beyond 2^53 cannot be read exactly"}};
      return j;
    }
  }
  return std::nullopt;
}

namespace {

/// The mutants that rewrite the metadata of a create-table answer; whether `mutant` is
/// one.
bool ApplyCreateTableMutant(Mutant mutant, std::string_view op, json& md,
                            int64_t version) {
  switch (mutant) {
    case Mutant::kDefaultSpecIdDangling:
      // Writes default-spec-id 1 beside the one unpartitioned spec 0.
      if (op == "create-table" && version >= 2) md["default-spec-id"] = 1;
      return true;
    case Mutant::kDefaultSortOrderDangling:
      // Writes default-sort-order-id 1 without writing that sort order.
      if (op == "create-table") md["default-sort-order-id"] = 1;
      return true;
    case Mutant::kSortOrderZeroSorted:
      // Writes its first sort order, by the first column, under the reserved order ID 0.
      if (op == "create-table")
        md["sort-orders"] =
            json::array({{{"order-id", 0},
                          {"fields", json::array({{{"transform", "identity"},
                                                   {"source-id", 1},
                                                   {"direction", "asc"},
                                                   {"null-order", "nulls-first"}}})}}});
      return true;
    case Mutant::kTableUuidWithoutDashes:
      // Writes the table UUID as 32 hex digits.
      if (op == "create-table" && md.contains("table-uuid") &&
          md["table-uuid"].is_string()) {
        std::string u = md["table-uuid"].get<std::string>();
        std::erase(u, '-');
        md["table-uuid"] = u;
      }
      return true;
    case Mutant::kNextRowIdBeforeV3:
      // Writes row lineage's next-row-id whatever the format version.
      if (op == "create-table" && version < 3) md["next-row-id"] = 0;
      return true;
    case Mutant::kSequenceNumberInV1:
      // Writes last-sequence-number in v1 metadata too.
      if (op == "create-table" && version == 1) md["last-sequence-number"] = 0;
      return true;
    default:
      return false;
  }
}

/// The mutants that rewrite the metadata of an answer that made a snapshot; whether
/// `mutant` is one.
bool ApplySnapshotMutant(Mutant mutant, std::string_view op, const json& request,
                         json& md, int64_t version) {
  switch (mutant) {
    case Mutant::kCurrentSnapshotIdOffByOne:
      // Writes current-snapshot-id before the snapshot's ID is settled: one too high.
      if (MakesSnapshot(op, request) && md.contains("current-snapshot-id"))
        md["current-snapshot-id"] = MaxSnapshotId(md) + 1;
      return true;
    case Mutant::kMainRefOffByOne:
      // Moves the main branch to one past the new snapshot.
      if (MakesSnapshot(op, request) && md.contains("refs") && md["refs"].is_object() &&
          md["refs"].contains("main") && md["refs"]["main"].is_object())
        md["refs"]["main"]["snapshot-id"] = MaxSnapshotId(md) + 1;
      return true;
    case Mutant::kCurrentSnapshotIdLags:
      // Moves the main branch to the new snapshot but leaves current-snapshot-id at its
      // parent.
      if (MakesSnapshot(op, request)) {
        const json* cur = SnapshotById(md, IntOr(md, "current-snapshot-id", -1));
        if (cur != nullptr && cur->contains("parent-snapshot-id") &&
            (*cur)["parent-snapshot-id"].is_number_integer())
          md["current-snapshot-id"] = (*cur)["parent-snapshot-id"];
      }
      return true;
    case Mutant::kLastSequenceNumberStale:
      // Gives the new snapshot the next sequence number but leaves last-sequence-number.
      if (MakesSnapshot(op, request) && version >= 2 &&
          IntOr(md, "last-sequence-number", 0) > 0)
        md["last-sequence-number"] = IntOr(md, "last-sequence-number", 0) - 1;
      return true;
    default:
      return false;
  }
}

/// The other mutants of an answer's metadata (update-schema, upgrade, load-table);
/// whether `mutant` is one.
bool ApplyOtherMetadataMutant(Mutant mutant, std::string_view op, json& answer, json& md,
                              int64_t version) {
  switch (mutant) {
    case Mutant::kCurrentSchemaIdOffByOne:
      // Points current-schema-id one past the schema the change added.
      if (op == "update-schema")
        md["current-schema-id"] = IntOr(md, "current-schema-id", 0) + 1;
      return true;
    case Mutant::kTableUuidRegenerated:
      // Gives the upgraded table a new UUID, as if it were a new table.
      if (op == "upgrade" && md.contains("table-uuid") && md["table-uuid"].is_string()) {
        std::string u = md["table-uuid"].get<std::string>();
        if (!u.empty()) u[0] = u[0] == 'a' ? 'b' : 'a';
        md["table-uuid"] = u;
      }
      return true;
    case Mutant::kLastPartitionIdDropped:
      // Leaves last-partition-id out of the metadata load-table answers.
      if (op == "load-table" && version >= 2) md.erase("last-partition-id");
      return true;
    case Mutant::kLastUpdatedMsAsString:
      // Writes last-updated-ms as a string of digits.
      if (op == "load-table" && md.contains("last-updated-ms"))
        md["last-updated-ms"] = md["last-updated-ms"].dump();
      return true;
    case Mutant::kLoadAnswerWithoutMetadata:
      // Answers load-table ok without the metadata it was asked for.
      if (op == "load-table") answer.erase("metadata");
      return true;
    default:
      return false;
  }
}

}  // namespace

void ApplyAnswerMutants(Mutant mutant, std::string_view op, const json& request,
                        json& answer) {
  if (mutant == Mutant::kNone || !answer.is_object() ||
      answer.value("result", "") != "ok")
    return;
  if (mutant == Mutant::kLongBeyond2p53WrittenAsDouble && op == "scan" &&
      answer.contains("rows") && answer["rows"].is_array()) {
    // Writes the rows of a scan answer through doubles: a long beyond +-2^53 is rounded.
    for (json& row : answer["rows"])
      if (row.is_object() && row.contains("values"))
        WriteIntegersThroughDouble(row["values"]);
    return;
  }
  if (!answer.contains("metadata") || !answer["metadata"].is_object()) return;
  json& md = answer["metadata"];
  const int64_t version = IntOr(md, "format-version", 0);
  if (ApplyCreateTableMutant(mutant, op, md, version)) return;
  if (ApplySnapshotMutant(mutant, op, request, md, version)) return;
  ApplyOtherMetadataMutant(mutant, op, answer, md, version);
}

}  // namespace ictk::sample
