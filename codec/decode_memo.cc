#include "codec/decode_memo.h"

#include "codec/json_constraint.h"
#include "codec/json_schema.h"
#include "codec/json_table_metadata.h"

namespace ictk {

bool SameJson(const nlohmann::json& a, const nlohmann::json& b) {
  if (a.type() != b.type()) return false;
  switch (a.type()) {
    case nlohmann::json::value_t::object: {
      if (a.size() != b.size()) return false;
      for (auto it = a.begin(), jt = b.begin(); it != a.end(); ++it, ++jt) {
        // Objects keep their members sorted by key, so equal objects pair up in order.
        if (it.key() != jt.key() || !SameJson(*it, *jt)) return false;
      }
      return true;
    }
    case nlohmann::json::value_t::array: {
      if (a.size() != b.size()) return false;
      for (size_t i = 0; i < a.size(); ++i)
        if (!SameJson(a[i], b[i])) return false;
      return true;
    }
    default:
      return a == b;
  }
}

template <typename T, typename F>
Result<T> MetadataDecodeMemo::Lookup(Kind<T>& kind, const nlohmann::json& json,
                                     std::string_view pointer, F decode) {
  // The elements of one array are decoded in order, so this is the element's index.
  const size_t index = kind.next.size();
  // A kept element of a metadata delta is the last answer's without reading it.
  if (index < kind.last.size() &&
      (index < kind.trusted || SameJson(kind.last[index]->json, json))) {
    Entry<T>* entry = kind.last[index];
    entry->generation = generation_;
    ++stats_.reused;
    kind.next.push_back(entry);
    return entry->value;
  }
  const size_t hash = std::hash<nlohmann::json>{}(json);
  const auto [first, last] = kind.entries.equal_range(hash);
  for (auto it = first; it != last; ++it) {
    if (!SameJson(it->second.json, json)) continue;
    it->second.generation = generation_;
    ++stats_.reused;
    kind.next.push_back(&it->second);
    return it->second.value;
  }
  ++stats_.decoded;
  Result<T> value = decode(json, pointer);
  if (value) {
    auto it = kind.entries.emplace(hash, Entry<T>{json, *value, generation_});
    kind.next.push_back(&it->second);
  }
  return value;
}

Result<std::shared_ptr<const Snapshot>> MetadataDecodeMemo::DecodeSnapshot(
    const nlohmann::json& json, std::string_view pointer) {
  return Lookup(snapshots_, json, pointer,
                [](const nlohmann::json& j,
                   std::string_view p) -> Result<std::shared_ptr<const Snapshot>> {
                  auto s = SnapshotFromJson(j, p);
                  if (!s) return tl::unexpected(s.error());
                  return std::make_shared<const Snapshot>(std::move(*s));
                });
}

Result<Schema> MetadataDecodeMemo::DecodeSchema(const nlohmann::json& json,
                                                std::string_view pointer) {
  return Lookup(schemas_, json, pointer, SchemaFromJson);
}

Result<Constraint> MetadataDecodeMemo::DecodeConstraint(const nlohmann::json& json,
                                                        std::string_view pointer) {
  return Lookup(constraints_, json, pointer, ConstraintFromJson);
}

void MetadataDecodeMemo::Sweep() {
  auto sweep = [this](auto& kind) {
    auto& entries = kind.entries;
    for (auto it = entries.begin(); it != entries.end();) {
      if (it->second.generation != generation_) {
        it = entries.erase(it);
      } else {
        ++it;
      }
    }
  };
  sweep(snapshots_);
  sweep(schemas_);
  sweep(constraints_);
}

template <typename T, typename F>
nlohmann::json MetadataEncodeMemo::Lookup(std::vector<Slot<T>>& slots, const T& value,
                                          size_t index, F encode) {
  if (index < slots.size() && slots[index].value == value) return slots[index].json;
  nlohmann::json json = encode(value);
  if (index < slots.size()) {
    slots[index] = Slot<T>{value, json};
  } else if (index == slots.size()) {
    slots.push_back(Slot<T>{value, json});
  }
  return json;
}

nlohmann::json MetadataEncodeMemo::EncodeSnapshot(
    const std::shared_ptr<const Snapshot>& snapshot, size_t index) {
  if (index < snapshots_.size()) {
    Slot<std::shared_ptr<const Snapshot>>& slot = snapshots_[index];
    if (slot.value == snapshot) return slot.json;
    if (*slot.value == *snapshot) {
      // Equal, so the same JSON; keep the newer object, which the next metadata most
      // likely shares, so that the next comparison is of pointers.
      slot.value = snapshot;
      return slot.json;
    }
  }
  nlohmann::json json = SnapshotToJson(*snapshot);
  if (index < snapshots_.size()) {
    snapshots_[index] = {snapshot, json};
  } else if (index == snapshots_.size()) {
    snapshots_.push_back({snapshot, json});
  }
  return json;
}

nlohmann::json MetadataEncodeMemo::EncodeSchema(const Schema& schema, size_t index) {
  return Lookup(schemas_, schema, index, SchemaToJson);
}

Result<TableMetadata> MetadataDecodeMemo::DecodeMetadata(const nlohmann::json& json,
                                                         std::string_view pointer,
                                                         const MetadataLineage* lineage) {
  ++generation_;
  const bool known = lineage != nullptr && lineage->base != 0 &&
                     lineage->base == last_version_;
  auto start = [known](auto& kind, size_t kept) {
    kind.next.clear();
    kind.trusted = known ? kept : 0;
  };
  start(snapshots_, lineage ? lineage->snapshots_kept : 0);
  start(schemas_, lineage ? lineage->schemas_kept : 0);
  start(constraints_, lineage ? lineage->constraints_kept : 0);
  Result<TableMetadata> md = TableMetadataFromJson(json, pointer, this);
  // A refused answer keeps what the memo held (the next answer is compared with the last
  // one that decoded).
  if (!md) return md;
  last_version_ = lineage != nullptr ? lineage->version : 0;
  Sweep();
  // Every entry of `next` was used by this decode, so the sweep kept it.
  auto finish = [](auto& kind) { kind.last.swap(kind.next); };
  finish(snapshots_);
  finish(schemas_);
  finish(constraints_);
  return md;
}

Result<Response> MetadataDecodeMemo::DecodeResponse(
    const nlohmann::json& json, const std::vector<NestedField>* schema_fields,
    const nlohmann::json* metadata, const MetadataLineage* lineage) {
  lineage_ = lineage;
  Result<Response> r =
      ResponseFromJson(json, schema_fields, this, /*keep_json=*/false, metadata);
  lineage_ = nullptr;
  return r;
}

}  // namespace ictk
