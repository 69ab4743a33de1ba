/// \file
/// The metadata lint (metadata_rules.h): the constraint rules judged on one decoded table
/// metadata, each finding with its JSON pointer.
#include "model/rules/metadata_rules.h"

#include <fmt/format.h>

#include <algorithm>
#include <set>

#include "model/rules/constraint_rules.h"
#include "model/rules/definition_rules.h"
#include "model/rules/iceberg_rules.h"
#include "model/rules/id_rules.h"
#include "model/rules/status_rules.h"

namespace ictk {
namespace {

std::string SnapshotPointer(size_t i) { return fmt::format("/snapshots/{}", i); }

std::string StatusesPointer(size_t i) {
  return SnapshotPointer(i) + "/constraint-statuses";
}

/// Every ID a snapshot lists, with its status and position.
struct Listed {
  ConstraintId id;
  ConstraintStatus status;
  size_t index;
};

std::vector<Listed> AllListed(const ConstraintStatuses& statuses) {
  std::vector<Listed> out;
  for (ConstraintStatus s : kAllStatuses) {
    const auto& list = statuses.List(s);
    if (!list) continue;
    for (size_t i = 0; i < list->size(); ++i) out.push_back({(*list)[i], s, i});
  }
  return out;
}

const Constraint* FindConstraint(const TableMetadata& metadata, ConstraintId id) {
  if (!metadata.constraints) return nullptr;
  for (const Constraint& c : *metadata.constraints) {
    if (c.id == id) return &c;
  }
  return nullptr;
}

std::optional<size_t> SchemaPosition(const TableMetadata& metadata, int32_t schema_id) {
  for (size_t i = 0; i < metadata.schemas.size(); ++i) {
    if (metadata.schemas[i].schema_id.value_or(0) == schema_id) return i;
  }
  return std::nullopt;
}

/// The current constraints a snapshot's lists prove existed when it was written (under
/// switch stale-ids-in-new-snapshot=reject, else none): IDs grow with time and are never
/// reused, so a current constraint with an ID below one the snapshot lists (and that
/// exists now) existed then.
std::vector<ConstraintId> ProvenExisting(const std::vector<Listed>& listed,
                                         const std::vector<ConstraintId>& current,
                                         const Switches& switches) {
  std::vector<ConstraintId> existed;
  if (switches.stale_ids_in_new_snapshot != StaleIds::kReject) return existed;
  std::optional<ConstraintId> newest;
  for (const Listed& l : listed) {
    if (std::find(current.begin(), current.end(), l.id) != current.end())
      newest = std::max(newest.value_or(l.id), l.id);
  }
  if (!newest) return existed;
  for (ConstraintId id : current)
    if (id < *newest) existed.push_back(id);
  return existed;
}

}  // namespace

/// "Constraints are added in v4 and are not supported in v3 or earlier." (def.v4-only): a
/// writer must not write `constraints`, `last-constraint-id` or `constraint-statuses`
/// into v1-v3 metadata.
Findings CheckV4OnlyFields(const TableMetadata& metadata) {
  Findings out;
  if (ConstraintsSupported(metadata.format_version)) return out;
  const std::string version = fmt::format("format-version {}", metadata.format_version);
  Require(out, !metadata.constraints.has_value(), RuleId::kDefV4Only,
          fmt::format("{} metadata carries constraints", version), std::nullopt,
          "/constraints");
  Require(out, !metadata.last_constraint_id.has_value(), RuleId::kDefV4Only,
          fmt::format("{} metadata carries last-constraint-id", version), std::nullopt,
          "/last-constraint-id");
  for (size_t i = 0; i < metadata.snapshots.size(); ++i) {
    Require(out, !metadata.snapshots[i].constraint_statuses.has_value(),
            RuleId::kDefV4Only,
            fmt::format("a snapshot of {} metadata carries constraint-statuses", version),
            std::nullopt, StatusesPointer(i));
  }
  return out;
}

/// "Constraint IDs are assigned from the table's `last-constraint-id`, which is treated
/// as 0 when it is not present (id.last-default-zero). Writers must assign a new
/// constraint an ID that is higher than the table's current `last-constraint-id`
/// (id.above-last) and must update `last-constraint-id` to the highest assigned ID
/// (id.update-last)." In stored metadata: an ID of 0 or less was never above any
/// `last-constraint-id`; an ID above `last-constraint-id` means it was not updated.
Findings CheckConstraintIdsBelowLast(const TableMetadata& metadata) {
  Findings out;
  if (!metadata.constraints) return out;
  const auto& constraints = *metadata.constraints;
  for (size_t i = 0; i < constraints.size(); ++i) {
    if (!constraints[i].id) continue;  // def.required-fields
    const ConstraintId id = *constraints[i].id;
    Require(out, IdAboveLast(id, 0), RuleId::kIdAboveLast,
            fmt::format("constraint-id {} is not above 0, the last-constraint-id of a "
                        "table that never had a constraint",
                        id),
            id, fmt::format("/constraints/{}/constraint-id", i));
  }
  // An ID not above 0 is at most any last-constraint-id that is not negative.
  AppendFindings(out, CheckIdsAtMostLast(metadata));
  return out;
}

Findings CheckIdsAtMostLast(const TableMetadata& metadata) {
  Findings out;
  if (!metadata.constraints) return out;
  const ConstraintId last = LastConstraintIdOrZero(metadata.last_constraint_id);
  const auto& constraints = *metadata.constraints;
  for (size_t i = 0; i < constraints.size(); ++i) {
    if (!constraints[i].id) continue;  // def.required-fields
    const ConstraintId id = *constraints[i].id;
    Require(out, LastConstraintIdUpdated(last, last, id), RuleId::kIdUpdateLast,
            metadata.last_constraint_id
                ? fmt::format("constraint {} has ID {} above last-constraint-id {}",
                              constraints[i].name.value_or("?"), id, last)
                : fmt::format("constraint {} has ID {} above last-constraint-id, which "
                              "is absent (treated as 0)",
                              constraints[i].name.value_or("?"), id),
            id, fmt::format("/constraints/{}/constraint-id", i));
  }
  return out;
}

Findings CheckNoRemovedIdReused(const TableMetadata& metadata,
                                const std::set<ConstraintId>& removed_ids) {
  Findings out;
  const std::vector<Constraint>& constraints = ConstraintsOf(metadata);
  for (size_t i = 0; i < constraints.size(); ++i) {
    const ConstraintId id = constraints[i].id.value_or(0);
    Require(out, IdNotReused(id, removed_ids), RuleId::kIdNoReuse,
            fmt::format("constraint {} reuses the removed ID {}",
                        constraints[i].name.value_or("?"), id),
            id, fmt::format("/constraints/{}/constraint-id", i));
  }
  return out;
}

Findings CheckReferencedFieldsExist(const TableMetadata& metadata) {
  Findings out;
  const Schema* schema = metadata.CurrentSchema();
  const std::vector<Constraint>& constraints = ConstraintsOf(metadata);
  for (size_t i = 0; i < constraints.size(); ++i)
    for (FieldId f : ReferencedFieldIds(constraints[i]))
      Require(out, schema != nullptr && FindField(*schema, f).has_value(),
              RuleId::kSchReferencedExist,
              fmt::format("constraint {} references field {}, which the current schema "
                          "lacks",
                          constraints[i].name.value_or("?"), f),
              constraints[i].id, fmt::format("/constraints/{}", i));
  return out;
}

namespace {

/// The current snapshot's status lists and their JSON pointer; nullptr when it has none.
const ConstraintStatuses* CurrentStatuses(const TableMetadata& metadata, std::string& at) {
  const Snapshot* snapshot = metadata.CurrentSnapshot();
  if (snapshot == nullptr || !snapshot->constraint_statuses) return nullptr;
  for (size_t i = 0; i < metadata.snapshots.size(); ++i)
    if (&metadata.snapshots[i] == snapshot) at = StatusesPointer(i);
  return &*snapshot->constraint_statuses;
}

}  // namespace

Findings CheckCurrentStatusListedOnce(const TableMetadata& metadata) {
  std::string at;
  const ConstraintStatuses* statuses = CurrentStatuses(metadata, at);
  return statuses ? CheckListedOnce(*statuses, at) : Findings{};
}

Findings CheckCurrentStatusIdsExist(const TableMetadata& metadata) {
  std::string at;
  const ConstraintStatuses* statuses = CurrentStatuses(metadata, at);
  if (statuses == nullptr) return {};
  std::vector<ConstraintId> existing;
  for (const Constraint& c : ConstraintsOf(metadata))
    if (c.id) existing.push_back(*c.id);
  Switches reject;
  reject.stale_ids_in_new_snapshot = StaleIds::kReject;
  return CheckNoStaleIds(*statuses, existing, reject, at);
}

namespace {

/// At switch stale-ids-in-new-snapshot=reject: a snapshot (at `at`) lists no ID that
/// never belonged to a constraint (the existing constraints it must list are
/// CheckExactlyOneList's, over ProvenExisting).
void CheckNoStaleIds(const std::vector<Listed>& listed, ConstraintId last,
                     const std::string& at, Findings& out) {
  // An ID of 0 or less, or above last-constraint-id, never belonged to a constraint.
  for (const Listed& l : listed) {
    Require(out, l.id > 0 && l.id <= last, clauses::kStEveryExisting,
            fmt::format("constraint {} is listed as {} but no constraint ever had that "
                        "ID (last-constraint-id is {})",
                        l.id, ToString(l.status), last),
            l.id, fmt::format("{}/{}/{}", at, ToString(l.status), l.index));
  }
}

/// The `valid` list of a snapshot (at `at`).
void CheckValidStatuses(const TableMetadata& metadata, const Snapshot& snapshot,
                        const ConstraintStatuses& statuses, const Switches& switches,
                        const std::string& at, Findings& out) {
  // `valid` needs a parent whose status is `validated` or `valid` (st.valid), and is
  // never recorded for a check that calls a UDF (expr.udf-status).
  const Snapshot* parent = snapshot.parent_snapshot_id
                               ? metadata.FindSnapshot(*snapshot.parent_snapshot_id)
                               : nullptr;
  const bool parent_known = !snapshot.parent_snapshot_id || parent != nullptr;
  if (statuses.valid) {
    for (size_t k = 0; k < statuses.valid->size(); ++k) {
      const ConstraintId id = (*statuses.valid)[k];
      const std::string item = fmt::format("{}/valid/{}", at, k);
      if (parent_known) {
        const ConstraintStatus p = ReaderStatus(parent && parent->constraint_statuses
                                                    ? &*parent->constraint_statuses
                                                    : nullptr,
                                                id);
        // st.valid on what metadata shows: the parent's status (the rows are not seen,
        // and a UDF is expr.udf-status below).
        StatusContext valid;
        valid.parent_status = p;
        valid.holds_on_new_snapshot = true;
        Require(out, ValidAllowed(valid), clauses::kStValidParent,
                parent ? fmt::format("constraint {} is valid but its status in parent "
                                     "snapshot {} is {}",
                                     id, parent->snapshot_id, ToString(p))
                       : fmt::format("constraint {} is valid in a snapshot without a "
                                     "parent",
                                     id),
                id, item);
      }
      const Constraint* c = FindConstraint(metadata, id);
      if (c && c->type == ConstraintType::kCheck && c->expression) {
        StatusContext udf;
        udf.calls_udf = CallsUserDefinedFunction(*c->expression);
        Require(
            out,
            UdfStatusPermits(udf, ConstraintStatus::kValid, /*as_carry=*/false, switches),
            clauses::kExprUdfNotValid,
            fmt::format("constraint {} calls a user-defined function and must not be "
                        "recorded valid",
                        id),
            id, item);
      }
    }
  }
}

}  // namespace

Findings CheckSnapshotStatusLists(const TableMetadata& metadata,
                                  const Switches& switches) {
  Findings out;
  const ConstraintId last = LastConstraintIdOrZero(metadata.last_constraint_id);
  std::vector<ConstraintId> current;
  if (metadata.constraints) {
    for (const Constraint& c : *metadata.constraints) {
      if (c.id) current.push_back(*c.id);
    }
  }
  for (size_t i = 0; i < metadata.snapshots.size(); ++i) {
    const Snapshot& snapshot = metadata.snapshots[i];
    if (!snapshot.constraint_statuses) continue;
    const ConstraintStatuses& statuses = *snapshot.constraint_statuses;
    const std::string at = StatusesPointer(i);
    const std::vector<Listed> listed = AllListed(statuses);
    AppendFindings(out,
           CheckExactlyOneList(statuses, ProvenExisting(listed, current, switches), at));

    if (switches.stale_ids_in_new_snapshot == StaleIds::kReject)
      CheckNoStaleIds(listed, last, at, out);
    CheckValidStatuses(metadata, snapshot, statuses, switches, at, out);
  }
  return out;
}

/// "Writers must not set `identifier-field-ids` in a schema that is added to a v4 table"
/// (upg.no-identifiers-in-v4). Only a snapshot carrying `constraint-statuses` proves the
/// table was v4 when it was written; a schema after that snapshot's schema in `schemas`
/// was added later (schemas are appended), so in v4. Schemas before it may predate the
/// upgrade and keep their identifiers (upg.readers-ignore-identifiers).
Findings CheckNoIdentifiersAddedInV4(const TableMetadata& metadata) {
  if (metadata.format_version < 4) return {};
  std::optional<size_t> first_v4;
  for (const Snapshot& s : metadata.snapshots) {
    if (!s.constraint_statuses || !s.schema_id) continue;
    if (auto pos = SchemaPosition(metadata, *s.schema_id)) {
      first_v4 = std::min(first_v4.value_or(*pos), *pos);
    }
  }
  if (!first_v4) return {};
  std::set<int32_t> earlier;
  for (size_t j = 0; j <= *first_v4; ++j)
    earlier.insert(metadata.schemas[j].schema_id.value_or(0));
  return CheckNoIdentifiersInAddedSchemas(metadata, earlier);
}

Findings CheckNoIdentifiersInAddedSchemas(const TableMetadata& metadata,
                                          const std::set<int32_t>& earlier_schema_ids) {
  Findings out;
  if (metadata.format_version < 4) return out;
  for (size_t j = 0; j < metadata.schemas.size(); ++j) {
    const Schema& schema = metadata.schemas[j];
    if (earlier_schema_ids.count(schema.schema_id.value_or(0))) continue;
    Require(out, NoIdentifiersInV4Schema(metadata.format_version, schema),
            RuleId::kUpgNoIdentifiersInV4,
            fmt::format("schema {} was added to the v4 table and carries "
                        "identifier-field-ids",
                        schema.schema_id.value_or(0)),
            std::nullopt, fmt::format("/schemas/{}/identifier-field-ids", j));
  }
  return out;
}

Findings LintMetadata(const TableMetadata& metadata, const FunctionCatalog& functions,
                      const Switches& switches) {
  Findings out = CheckIcebergMetadata(metadata);
  if (metadata.format_version < 4) {
    AppendFindings(out, CheckV4OnlyFields(metadata));
    return out;
  }
  const Schema no_schema;  // no current schema (ice.current-schema-exists)
  const Schema* current = metadata.CurrentSchema();
  const Schema& schema = current ? *current : no_schema;
  if (metadata.constraints) {
    const auto& constraints = *metadata.constraints;
    for (size_t i = 0; i < constraints.size(); ++i) {
      Findings definition = CheckConstraintDefinition(constraints[i], schema, functions,
                                                      DefinitionSource::kMetadata,
                                                      fmt::format("/constraints/{}", i));
      if (!current) {
        // ice.current-schema-exists explains every missing field at once.
        std::erase_if(definition, [](const Finding& f) {
          return f.rule == RuleId::kSchReferencedExist;
        });
      }
      AppendFindings(out, std::move(definition));
    }
    AppendFindings(out, CheckConstraintSet(constraints, switches, "/constraints"));
  }
  AppendFindings(out, CheckConstraintIdsBelowLast(metadata));
  AppendFindings(out, CheckSnapshotStatusLists(metadata, switches));
  AppendFindings(out, CheckNoIdentifiersAddedInV4(metadata));
  return out;
}

}  // namespace ictk
