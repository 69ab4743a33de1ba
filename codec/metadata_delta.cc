/// \file
/// Metadata deltas (metadata_delta.h).
#include "codec/metadata_delta.h"

#include <fmt/format.h>

#include <algorithm>
#include <set>
#include <string>

#include "codec/decode_memo.h"
#include "codec/json_constraint.h"
#include "codec/json_internal.h"
#include "codec/json_schema.h"
#include "codec/json_table_metadata.h"
#include "codec/json_text.h"

namespace ictk {
namespace {

using nlohmann::json;
using codec_internal::Expected;
using codec_internal::Find;
using codec_internal::ParseError;

constexpr std::string_view kDeltaSet = "set";
constexpr std::string_view kDeltaRemove = "remove";
constexpr std::string_view kDeltaSplice = "splice";
constexpr std::string_view kDeltaKeep = "keep";
constexpr std::string_view kDeltaAdd = "add";

/// The checks of ApplyMetadataDelta, before anything is changed.
Result<void> CheckDelta(const json& metadata, const json& delta, std::string_view pointer) {
  if (!metadata.is_object())
    return ParseError(pointer, "the metadata it is based on is not an object");
  if (!delta.is_object())
    return Expected(pointer, "an object {base, set?, remove?, splice?}", delta);
  std::set<std::string> named;
  auto name_once = [&](const std::string& member,
                       std::string_view at) -> Result<void> {
    if (!named.insert(member).second)
      return ParseError(at, fmt::format("the member \"{}\" is changed twice", member));
    return {};
  };
  if (const json* set = Find(delta, kDeltaSet)) {
    const std::string p = codec_internal::Child(pointer, kDeltaSet);
    if (!set->is_object()) return Expected(p, "an object of members to set", *set);
    for (auto it = set->begin(); it != set->end(); ++it)
      if (auto once = name_once(it.key(), codec_internal::Child(p, it.key())); !once) return once;
  }
  if (const json* remove = Find(delta, kDeltaRemove)) {
    const std::string p = codec_internal::Child(pointer, kDeltaRemove);
    if (!remove->is_array()) return Expected(p, "an array of member names", *remove);
    for (size_t i = 0; i < remove->size(); ++i) {
      const std::string pi = fmt::format("{}/{}", p, i);
      if (!(*remove)[i].is_string()) return Expected(pi, "a member name", (*remove)[i]);
      if (auto once = name_once((*remove)[i].get<std::string>(), pi); !once) return once;
    }
  }
  if (const json* splice = Find(delta, kDeltaSplice)) {
    const std::string p = codec_internal::Child(pointer, kDeltaSplice);
    if (!splice->is_object())
      return Expected(p, "an object of arrays to splice", *splice);
    for (auto it = splice->begin(); it != splice->end(); ++it) {
      const std::string pm = codec_internal::Child(p, it.key());
      if (auto once = name_once(it.key(), pm); !once) return once;
      const json& entry = *it;
      if (!entry.is_object()) return Expected(pm, "an object {keep, add}", entry);
      const json* keep = Find(entry, kDeltaKeep);
      if (keep == nullptr || !keep->is_number_integer() ||
          (!keep->is_number_unsigned() && keep->get<int64_t>() < 0))
        return Expected(codec_internal::Child(pm, kDeltaKeep), "a count of elements (an integer >= 0)",
                        keep ? *keep : json());
      const json* add = Find(entry, kDeltaAdd);
      if (add == nullptr || !add->is_array())
        return Expected(codec_internal::Child(pm, kDeltaAdd), "an array of elements", add ? *add : json());
      const auto found = metadata.find(it.key());
      if (found == metadata.end() || !found->is_array())
        return ParseError(pm, fmt::format("the base metadata has no array \"{}\" to splice",
                                          it.key()));
      const uint64_t n = keep->get<uint64_t>();
      if (n > found->size())
        return ParseError(codec_internal::Child(pm, kDeltaKeep),
                          fmt::format("keep {} is more than the {} elements of the base's "
                                      "\"{}\"",
                                      n, found->size(), it.key()));
    }
  }
  return {};
}

/// A `splice` entry: keep the first `keep` elements, append `add`.
json SpliceEntry(size_t keep, json add) {
  return json{{std::string(kDeltaKeep), keep}, {std::string(kDeltaAdd), std::move(add)}};
}

}  // namespace

Result<void> ApplyMetadataDelta(json& metadata, const json& delta,
                                std::string_view pointer) {
  if (auto checked = CheckDelta(metadata, delta, pointer); !checked) return checked;
  if (const json* set = Find(delta, kDeltaSet))
    for (auto it = set->begin(); it != set->end(); ++it) metadata[it.key()] = *it;
  if (const json* remove = Find(delta, kDeltaRemove))
    for (const json& name : *remove) metadata.erase(name.get<std::string>());
  if (const json* splice = Find(delta, kDeltaSplice)) {
    for (auto it = splice->begin(); it != splice->end(); ++it) {
      json& array = metadata[it.key()];
      const size_t keep = it->at(std::string(kDeltaKeep)).get<size_t>();
      array.erase(array.begin() + static_cast<std::ptrdiff_t>(keep), array.end());
      for (const json& element : it->at(std::string(kDeltaAdd))) array.push_back(element);
    }
  }
  return {};
}

Result<MetadataDeltaReader::Read> MetadataDeltaReader::Track(const std::string& table,
                                                             int64_t id,
                                                             const json& response) {
  Read out;
  const auto delta = response.find(kMetadataDeltaKey);
  if (delta == response.end() || delta->is_null()) {
    const auto whole = response.find("metadata");
    if (whole == response.end() || !whole->is_object()) return out;
    out.lineage.version = ++versions_;
    Base& b = bases_.Use(table);
    b = Base{id, *whole, out.lineage.version};
    return out;
  }
  const auto base = delta->is_object() ? delta->find("base") : delta->end();
  if (!delta->is_object() || base == delta->end() || !base->is_number_integer())
    return MakeError(ErrorKind::kParse,
                     "/metadata-delta/base: expected the id of the request whose answered "
                     "metadata the delta changes");
  Base* b = bases_.Find(table);
  if (b == nullptr)
    return MakeError(ErrorKind::kParse,
                     fmt::format("/metadata-delta/base: {} names no answer with metadata on "
                                 "table {} (the first metadata answered on a table is whole)",
                                 DumpJson(*base), table));
  if (base->get<int64_t>() != b->id)
    return MakeError(ErrorKind::kParse,
                     fmt::format("/metadata-delta/base: {} is not request {}, the latest on "
                                 "table {} whose answer carried metadata",
                                 DumpJson(*base), b->id, table));
  if (Result<void> applied = ApplyMetadataDelta(b->metadata, *delta); !applied)
    return tl::unexpected(applied.error());
  b->id = id;
  auto kept = [&](const char* member) {
    const auto it = b->metadata.find(member);
    return KeptElements(*delta, member,
                        it != b->metadata.end() && it->is_array() ? it->size() : 0);
  };
  out.lineage = MetadataLineage{b->version, ++versions_, kept("snapshots"), kept("schemas"),
                                kept("constraints")};
  b->version = out.lineage.version;
  out.metadata = &bases_.Use(table).metadata;  // the same entry, now the most recent
  return out;
}

void PutWholeMetadata(json& response, json metadata) {
  response["metadata"] = std::move(metadata);
  response.erase(std::string(kMetadataDeltaKey));
}

size_t KeptElements(const json& delta, std::string_view member, size_t size) {
  const std::string name(member);
  if (const json* splice = Find(delta, kDeltaSplice); splice && splice->contains(name))
    return (*splice)[name].at(std::string(kDeltaKeep)).get<size_t>();
  if (const json* set = Find(delta, kDeltaSet); set && set->contains(name)) return 0;
  if (const json* remove = Find(delta, kDeltaRemove))
    for (const json& m : *remove)
      if (m == name) return 0;
  return size;
}

json MakeMetadataDelta(const json& base, const json& next) {
  json set = json::object();
  json remove = json::array();
  json splice = json::object();
  for (auto it = next.begin(); it != next.end(); ++it) {
    const auto old = base.find(it.key());
    if (old == base.end()) {
      set[it.key()] = *it;
      continue;
    }
    if (SameJson(*old, *it)) continue;
    if (old->is_array() && it->is_array()) {
      size_t keep = 0;
      while (keep < old->size() && keep < it->size() && SameJson((*old)[keep], (*it)[keep]))
        ++keep;
      json add = json::array();
      for (size_t i = keep; i < it->size(); ++i) add.push_back((*it)[i]);
      splice[it.key()] = SpliceEntry(keep, std::move(add));
      continue;
    }
    set[it.key()] = *it;
  }
  for (auto it = base.begin(); it != base.end(); ++it)
    if (!next.contains(it.key())) remove.push_back(it.key());
  json delta = json::object();
  if (!set.empty()) delta[std::string(kDeltaSet)] = std::move(set);
  if (!remove.empty()) delta[std::string(kDeltaRemove)] = std::move(remove);
  if (!splice.empty()) delta[std::string(kDeltaSplice)] = std::move(splice);
  return delta;
}

namespace {

/// Whether element `i` of `a` and of `b` are equal: the same shared snapshot without
/// comparing it (metadata copies share their unchanged snapshots).
template <typename T>
bool SameAt(const SharedVector<T>& a, const SharedVector<T>& b, size_t i) {
  return SharedVector<T>::SameElement(a, i, b, i) || a[i] == b[i];
}
template <typename T>
bool SameAt(const std::vector<T>& a, const std::vector<T>& b, size_t i) {
  return a[i] == b[i];
}

/// The elements of `a` and `b` equal from the start.
template <typename List>
size_t CommonPrefix(const List& a, const List& b) {
  size_t n = 0;
  while (n < a.size() && n < b.size() && SameAt(a, b, n)) ++n;
  return n;
}

/// `splice` gets `name` cut to `keep` elements of `last` and `next`'s from there on,
/// unless `next` is `last`.
template <typename List, typename Encode>
void SpliceList(json& splice, std::string_view name, const List& last, const List& next,
                Encode encode) {
  const size_t keep = CommonPrefix(last, next);
  if (keep == last.size() && keep == next.size()) return;
  json add = json::array();
  for (size_t i = keep; i < next.size(); ++i) add.push_back(encode(next[i]));
  splice[std::string(name)] = SpliceEntry(keep, std::move(add));
}

}  // namespace

void MetadataDeltaWriter::Put(json& response, const std::string& table, const json& id,
                              const TableMetadata& metadata, MetadataEncodeMemo* memo) {
  const Last* last = tables_.Find(table);
  // The constraints are compared as values and only the new ones encoded, as the
  // schemas and snapshots are: a long history's table carries many.
  json members = TableMetadataMembersToJson(metadata, /*with_constraints=*/false);
  if (last == nullptr || table.empty() || !id.is_number_integer()) {
    response["metadata"] = TableMetadataToJson(metadata, memo);
  } else {
    json delta = MakeMetadataDelta(last->members, members);
    json splice = delta.contains(kDeltaSplice) ? std::move(delta[std::string(kDeltaSplice)])
                                               : json::object();
    SpliceList(splice, "schemas", last->metadata.schemas, metadata.schemas,
               [](const Schema& s) { return SchemaToJson(s); });
    SpliceList(splice, "snapshots", last->metadata.snapshots, metadata.snapshots,
               [](const Snapshot& s) { return SnapshotToJson(s); });
    const std::string constraints = "constraints";
    if (last->metadata.constraints && metadata.constraints) {
      SpliceList(splice, constraints, *last->metadata.constraints, *metadata.constraints,
                 [](const Constraint& c) { return ConstraintToJson(c); });
    } else if (metadata.constraints) {
      json all = json::array();
      for (const Constraint& c : *metadata.constraints) all.push_back(ConstraintToJson(c));
      delta[std::string(kDeltaSet)][constraints] = std::move(all);
    } else if (last->metadata.constraints) {
      delta[std::string(kDeltaRemove)].push_back(constraints);
    }
    if (!splice.empty()) delta[std::string(kDeltaSplice)] = std::move(splice);
    delta["base"] = last->id;
    response[std::string(kMetadataDeltaKey)] = std::move(delta);
  }
  if (table.empty()) return;
  if (!id.is_number_integer()) {
    // No later delta can name this request as its base: the next answer is whole.
    tables_.Forget(table);
    return;
  }
  Last& used = tables_.Use(table);
  used.id = id.get<int64_t>();
  used.metadata = metadata;
  used.members = std::move(members);
}

}  // namespace ictk
