/// \file
/// def.reader-preserves (reader_preserves.h).
#include "model/rules/id_rules.h"
#include "model/rules/reader_preserves.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <vector>


namespace ictk {
namespace {

std::vector<FieldId> SortedIds(std::vector<FieldId> ids) {
  std::sort(ids.begin(), ids.end());
  ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
  return ids;
}

/// The first member of a constraint definition `got` does not keep ("" when none).
std::string ChangedMember(const Constraint& want, const Constraint& got) {
  if (got.type != want.type) return "type";
  if (got.name != want.name) return "name";
  if (got.enforced != want.enforced) return "enforced";
  if (got.timestamp_ms != want.timestamp_ms) return "timestamp-ms";
  if (got.expression != want.expression) return "expression";
  if (got.field_ids.has_value() != want.field_ids.has_value() ||
      (want.field_ids && SortedIds(*want.field_ids) != SortedIds(*got.field_ids)))
    return "field-ids";
  return {};
}

std::vector<ConstraintId> SortedList(const std::optional<ConstraintStatuses>& statuses,
                                     ConstraintStatus status) {
  std::vector<ConstraintId> out;
  if (statuses && statuses->List(status)) out = *statuses->List(status);
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

std::string JoinIds(const std::vector<ConstraintId>& ids) {
  return fmt::format("[{}]", fmt::join(ids, ", "));
}

}  // namespace

Findings CheckReaderPreserves(const TableMetadata& read, const TableMetadata& written,
                              bool may_drop) {
  Findings out;
  const std::vector<Constraint>& want = ConstraintsOf(read);
  const std::vector<Constraint>& got = ConstraintsOf(written);

  // last-constraint-id (absent is 0).
  if (!(may_drop && !written.last_constraint_id)) {
    const ConstraintId w = LastConstraintIdOrZero(read.last_constraint_id);
    const ConstraintId g = LastConstraintIdOrZero(written.last_constraint_id);
    Require(out, w == g, RuleId::kDefReaderPreserves,
            written.last_constraint_id
                ? fmt::format("last-constraint-id {} is re-serialized as {}", w, g)
                : fmt::format("last-constraint-id {} is dropped", w),
            std::nullopt, "/last-constraint-id");
  }

  // Constraints, by ID.
  if (!(may_drop && got.empty())) {
    std::multimap<ConstraintId, const Constraint*> by_id;
    for (const Constraint& c : got) by_id.emplace(c.id.value_or(0), &c);
    if (got.empty() && !want.empty()) {
      out.push_back(Finding{RuleId::kDefReaderPreserves, std::nullopt, "/constraints",
                            fmt::format("all {} constraints are dropped", want.size())});
    } else {
      std::map<ConstraintId, bool> wanted;
      for (size_t i = 0; i < want.size(); ++i) {
        const Constraint& c = want[i];
        const ConstraintId id = c.id.value_or(0);
        wanted[id] = true;
        const std::string pointer = fmt::format("/constraints/{}", i);
        // Two entries may share an ID (def.id-unique broken): any one kept as given will do.
        const auto [first, last] = by_id.equal_range(id);
        if (first == last) {
          out.push_back(Finding{RuleId::kDefReaderPreserves, id, pointer,
                                fmt::format("constraint {} ({}) is dropped", id,
                                            c.name.value_or("?"))});
          continue;
        }
        std::string changed = ChangedMember(c, *first->second);
        for (auto it = first; it != last && !changed.empty(); ++it)
          if (ChangedMember(c, *it->second).empty()) changed.clear();
        Require(out, changed.empty(), RuleId::kDefReaderPreserves,
                fmt::format("constraint {} ({}) is re-serialized with another {}", id,
                            c.name.value_or("?"), changed),
                id, pointer + "/" + changed);
      }
      for (const Constraint& c : got) {
        const ConstraintId id = c.id.value_or(0);
        Require(out, wanted.count(id) > 0, RuleId::kDefReaderPreserves,
                fmt::format("constraint {} ({}) is not in the metadata read", id,
                            c.name.value_or("?")),
                id, "/constraints");
      }
    }
  }

  // Each snapshot's constraint-statuses, list by list.
  for (size_t i = 0; i < read.snapshots.size(); ++i) {
    const Snapshot& s = read.snapshots[i];
    const Snapshot* g = written.FindSnapshot(s.snapshot_id);
    if (g == nullptr) continue;  // a missing snapshot is JudgeParsed's (proto.answer)
    if (may_drop && !g->constraint_statuses) continue;
    const std::string pointer = fmt::format("/snapshots/{}/constraint-statuses", i);
    bool any = false;
    for (ConstraintStatus st : kAllStatuses) any = any || !SortedList(s.constraint_statuses, st).empty();
    if (any && !g->constraint_statuses) {
      out.push_back(Finding{RuleId::kDefReaderPreserves, std::nullopt, pointer,
                            fmt::format("snapshot {}'s constraint-statuses are dropped",
                                        s.snapshot_id)});
      continue;
    }
    for (ConstraintStatus st : kAllStatuses) {
      const std::vector<ConstraintId> w = SortedList(s.constraint_statuses, st);
      const std::vector<ConstraintId> h = SortedList(g->constraint_statuses, st);
      Require(out, w == h, RuleId::kDefReaderPreserves,
              fmt::format("snapshot {}'s {} list {} is re-serialized as {}", s.snapshot_id,
                          ToString(st), JoinIds(w), JoinIds(h)),
              std::nullopt, fmt::format("{}/{}", pointer, ToString(st)));
    }
  }
  return out;
}

}  // namespace ictk
