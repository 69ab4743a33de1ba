/// \file
/// The sample engine's dispatch and its table-level operations that change no schema or
/// constraint: create, UDFs, scans and the reader operations. Upgrades and the constraint
/// DDL are in engine_constraints.cc, schema evolution in engine_schema.cc.
#include <fmt/format.h>

#include <algorithm>
#include <functional>
#include <set>
#include <variant>

#include "sample/engine_internal.h"
#include "sample/engine_support_internal.h"
#include "sample/schema_internal.h"
#include "sample/single_value_internal.h"

namespace ictk::sample {

CheckOptions Engine::CheckOpts() const {
  CheckOptions o;
  o.accept_named_references = Has(Mutant::kNameReferenceAccepted);
  o.accept_repeated_references = Has(Mutant::kListElementReferenceAccepted);
  o.accept_map_references = Has(Mutant::kMapElementReferenceAccepted);
  o.three_valued = Has(Mutant::kThreeValuedNulls);
  o.wrong_bucket_hash = Has(Mutant::kBucketWrongHash);
  o.accept_ill_typed = Has(Mutant::kIllTypedCheckAccepted);
  return o;
}

SnapshotId Engine::PickSnapshotId(const std::string& table) const {
  auto last = last_snapshot_id_.find(table);
  if (!divergent_) return (last == last_snapshot_id_.end() ? 0 : last->second) + 1;
  // "snapshot-id: A unique long ID" (Iceberg): any positive long the table has not used.
  auto used = used_snapshot_ids_.find(table);
  for (;;) {
    const SnapshotId id = static_cast<SnapshotId>(choose_.Next() >> 1);
    if (id > 0 && (used == used_snapshot_ids_.end() || used->second.count(id) == 0))
      return id;
  }
}

void Engine::UseSnapshotId(const std::string& table, SnapshotId id) {
  last_snapshot_id_[table] = id;
  used_snapshot_ids_[table].insert(id);
}

ConstraintId Engine::IdGap() const {
  return divergent_ ? static_cast<ConstraintId>(choose_.Below(6)) : 0;
}

std::vector<ConstraintId> Engine::NameSome(std::vector<ConstraintId> ids) const {
  if (!divergent_ || ids.empty()) return ids;
  choose_.Shuffle(ids);
  ids.resize(1 + choose_.Below(ids.size()));
  return ids;
}

const std::vector<NestedField>* Engine::CommitFields(
    const std::string& table, const std::optional<std::string>& txn) const {
  if (txn) {
    auto it = txns_.find({table, *txn});
    if (it != txns_.end()) return &CurrentSchemaOf(it->second.base.meta).fields;
  }
  auto it = tables_.find(table);
  if (it == tables_.end()) return nullptr;
  return &CurrentSchemaOf(it->second.meta).fields;
}

Reply Engine::Handle(const Request& r, uint64_t seed) {
  choose_ = Chooser(seed);
  // Operations that concern no table.
  if (auto* op = std::get_if<CreateTable>(&r.op)) return CreateTableOp(r, *op);
  if (auto* op = std::get_if<DefineFunction>(&r.op)) return DefineFunctionOp(*op);
  if (auto* op = std::get_if<ReadStatuses>(&r.op)) return ReadStatusesOp(*op);
  if (auto* op = std::get_if<ParseMetadata>(&r.op)) return ParseMetadataOp(*op);

  auto it = tables_.find(r.table);
  if (it == tables_.end() && std::holds_alternative<Scan>(r.op) &&
      Has(Mutant::kUnknownTableScansEmpty)) {
    // Takes a table it does not have as one without rows.
    Reply empty;
    empty.rows.emplace();
    return empty;
  }
  if (it == tables_.end()) {
    return Reply::Reject(kinds::kInvalidRequest,
                         fmt::format("no table named '{}'", r.table));
  }
  const Table& current = it->second;
  const int64_t now = r.now_ms.value_or(current.meta.last_updated_ms + 1);
  if (std::holds_alternative<LoadTable>(r.op)) return Reply::Ok(current.meta);
  if (auto* op = std::get_if<Scan>(&r.op)) return ScanOp(current, *op);
  if (auto* op = std::get_if<Begin>(&r.op)) return BeginOp(r.table, current, *op);

  // Everything else changes the table: work on a copy, keep it only on success.
  Table t = current;
  Reply reply = std::visit(
      Overloaded{
          [&](const Upgrade& op) { return UpgradeOp(t, now, op); },
          [&](const AddConstraint& op) { return AddConstraintOp(t, now, op); },
          [&](const UpdateConstraint& op) { return UpdateConstraintOp(t, now, op); },
          [&](const RemoveConstraint& op) { return RemoveConstraintOp(t, now, op); },
          [&](const UpdateSchema& op) { return UpdateSchemaOp(t, now, op); },
          [&](const Commit& op) { return CommitOp(r.table, t, now, op); },
          [&](const Finish& op) { return FinishOp(r.table, t, now, op); },
          [&](const Validate& op) { return ValidateOp(r.table, t, now, op); },
          [&](const auto&) {
            Reply u;
            u.kind = Reply::Kind::kUnsupported;
            u.message = "unsupported op";
            return u;
          },
      },
      r.op);
  const bool staged_only =
      std::holds_alternative<Commit>(r.op) && std::get<Commit>(r.op).txn.has_value();
  if (reply.kind == Reply::Kind::kOk && !staged_only) {
    t.version = current.version + 1;
    t.finishes = current.finishes + (std::holds_alternative<Finish>(r.op) ? 1 : 0);
    it->second = std::move(t);
  }
  if (reply.kind == Reply::Kind::kRejected && Has(Mutant::kRejectionNamesAllConstraints)) {
    // Names every constraint of the table, whatever the rejection is about.
    reply.constraint_ids.clear();
    for (const Constraint& c : it->second.meta.constraints.value_or(std::vector<Constraint>{}))
      if (c.id) reply.constraint_ids.push_back(*c.id);
  }
  if (reply.kind == Reply::Kind::kRejected && Has(Mutant::kRejectionTouchesTable) &&
      std::holds_alternative<AddConstraint>(r.op)) {
    // Allocates the new constraint's ID before validating it: the rejected request
    // still raised last-constraint-id.
    TableMetadata& md = it->second.meta;
    md.last_constraint_id = md.last_constraint_id.value_or(0) + 1;
  }
  return reply;
}

Reply Engine::CreateTableOp(const Request& r, const CreateTable& op) {
  if (r.table.empty())
    return Reply::Reject(kinds::kInvalidRequest, "create-table needs a table");
  if (tables_.count(r.table) != 0) {
    return Reply::Reject(kinds::kInvalidRequest,
                         fmt::format("table '{}' exists", r.table));
  }
  if (op.format_version < 1 || op.format_version > 4) {
    return Reply::Reject(
        kinds::kUnsupportedVersion,
        fmt::format("format version {} is not supported", op.format_version));
  }
  Schema schema = op.schema;
  std::string problem = SchemaProblem(schema.fields, op.format_version, SchemaLenientOf(*this));
  if (!problem.empty()) return Reply::Reject(kinds::kInvalidSchemaChange, problem);
  const int64_t now = r.now_ms.value_or(0);
  std::optional<std::vector<FieldId>> pk_fields;
  if (schema.identifier_field_ids) {
    const auto slots = IndexFields(schema.fields);
    bool eligible = !schema.identifier_field_ids->empty();
    for (FieldId id : *schema.identifier_field_ids) {
      auto it = slots.find(id);
      const bool missing_ok = Has(Mutant::kMissingIdentifierAccepted);
      if (op.format_version < 4 &&
          ((it == slots.end() && !missing_ok) ||
           (it != slots.end() && !ValidIdentifierField(it->second, IdentifierLenientOf(*this))))) {
        return Reply::Reject(kinds::kInvalidSchemaChange,
                             fmt::format("identifier field {} is not valid", id));
      }
      if (it == slots.end() || !CheckKeyField(it->second, true).problem.empty()) {
        eligible = false;
      }
    }
    if (op.format_version >= 4) {
      // upg.no-identifiers-in-v4: the stored schema carries none; the identifier fields
      // become an unenforced primary key, as an upgrade would make them.
      if (eligible) pk_fields = *schema.identifier_field_ids;
      if (!Has(Mutant::kV4SchemaKeepsIdentifiers)) schema.identifier_field_ids.reset();
    }
  }
  Table t;
  t.meta = NewTableMetadata(r.table, op.format_version, std::move(schema), now);
  if (pk_fields) {
    Constraint pk;
    pk.id = 1 + IdGap();
    pk.type = ConstraintType::kPrimaryKey;
    pk.raw_type = "primary-key";
    pk.name = "pk";
    pk.enforced = false;
    pk.timestamp_ms = now;
    pk.field_ids = *pk_fields;
    t.meta.last_constraint_id = pk.id;
    t.meta.constraints->push_back(std::move(pk));
  }
  Reply reply = Reply::Ok(t.meta);
  tables_.emplace(r.table, std::move(t));
  last_snapshot_id_.erase(r.table);
  used_snapshot_ids_.erase(r.table);
  created_.push_back(r.table);
  if (created_.size() > kKeptTables) {
    Forget(created_.front());
    created_.erase(created_.begin());
  }
  return reply;
}

void Engine::Forget(const std::string& table) {
  tables_.erase(table);
  last_snapshot_id_.erase(table);
  used_snapshot_ids_.erase(table);
  std::erase_if(txns_, [&](const auto& x) { return x.first.first == table; });
  std::erase_if(udf_owner_, [&](const auto& x) {
    if (x.second != table) return false;
    udfs_.erase(x.first);
    return true;
  });
}

/// "When a table is upgraded to v4, the identifier-field-ids of the table's current
/// schema are rewritten as a single primary-key constraint that is not enforced" and "If
/// any of those fields cannot be used in a primary-key constraint ... no constraint is
/// created and the upgrade continues without it" (upg.pk-from-identifiers,
/// upg.skip-ineligible).

Reply Engine::DefineFunctionOp(const DefineFunction& op) {
  FunctionDefinition def = op.function;
  if (def.name.empty())
    return Reply::Reject(kinds::kInvalidRequest, "a function needs a name");
  auto it = udfs_.find(def.name);
  def.version = it == udfs_.end() ? 1 : it->second.version + 1;
  // The function belongs to the newest table (the history defining it), or to none.
  if (!created_.empty())
    udf_owner_[def.name] = created_.back();
  else
    udf_owner_.erase(def.name);
  udfs_[def.name] = std::move(def);
  return Reply{};
}

Reply Engine::ScanOp(const Table& t, const Scan& op) const {
  const RowSet* rows = &t.live();
  const Schema* schema = &CurrentSchemaOf(t.meta);
  if (op.snapshot_id) {
    auto it = t.rows_at.find(*op.snapshot_id);
    const Snapshot* snap = t.meta.FindSnapshot(*op.snapshot_id);
    if ((it == t.rows_at.end() || snap == nullptr) &&
        Has(Mutant::kUnknownSnapshotScansCurrent)) {
      snap = nullptr;  // scans the current rows instead
    } else if (it == t.rows_at.end() || snap == nullptr) {
      return Reply::Reject(kinds::kInvalidRequest,
                           fmt::format("no snapshot {}", *op.snapshot_id));
    } else {
      rows = it->second.get();
    }
    if (snap != nullptr && snap->schema_id) {
      if (const Schema* s = SchemaById(t.meta, *snap->schema_id)) schema = s;
    }
  }
  Reply reply;
  reply.rows.emplace();
  reply.row_fields = schema->fields;
  for (const auto& [key, row] : *rows) {
    reply.rows->push_back(Row{key, ReadRow(t.meta, row, schema->fields)});
  }
  return reply;
}

/// "Readers must determine the status of a constraint for a snapshot as follows: 1. If
/// the constraint's constraint-id is listed in validated, valid, invalid, or unvalidated,
/// that is its status 2. Otherwise, the constraint is unvalidated for the snapshot"
/// (st.reader-lookup). v1-v3 metadata has no constraints a reader uses.
Reply Engine::ReadStatusesOp(const ReadStatuses& op) const {
  const TableMetadata& md = op.metadata;
  const Snapshot* snap = nullptr;
  if (op.snapshot_id) {
    snap = md.FindSnapshot(*op.snapshot_id);
    if (snap == nullptr) {
      return Reply::Reject(kinds::kInvalidRequest,
                           fmt::format("no snapshot {}", *op.snapshot_id));
    }
  } else {
    snap = md.CurrentSnapshot();
  }
  if (md.format_version == 4 && (strict_reader_ || Has(Mutant::kReaderRefusesV4Identifiers)))
    if (std::optional<Reply> refusal = V4ReaderRefusal(md)) return std::move(*refusal);
  if (md.format_version == 4 && Has(Mutant::kReaderRefusesMissingConstraint)) {
    // Assumes every ID a snapshot lists names a constraint of `constraints`.
    std::set<ConstraintId> present;
    for (const Constraint& c : md.constraints.value_or(std::vector<Constraint>{}))
      if (c.id) present.insert(*c.id);
    for (const Snapshot& s : md.snapshots) {
      if (!s.constraint_statuses) continue;
      for (ConstraintStatus st : kAllStatuses)
        if (const auto& list = s.constraint_statuses->List(st))
          for (ConstraintId id : *list)
            if (!present.count(id))
              return Reply::Reject(
                  kinds::kInvalidMetadata,
                  fmt::format("snapshot {} lists constraint ID {}, which is not in "
                              "constraints",
                              s.snapshot_id, id));
    }
  }
  Reply reply;
  reply.statuses.emplace();
  if (md.format_version < 4 || !md.constraints) return reply;
  for (const Constraint& c : *md.constraints) {
    if (!c.id) continue;
    std::optional<ConstraintStatus> s;
    if (snap != nullptr && snap->constraint_statuses)
      s = ListedStatus(*snap->constraint_statuses, *c.id);
    const ConstraintStatus unlisted = Has(Mutant::kReaderUnlistedValidated)
                                          ? ConstraintStatus::kValidated
                                          : ConstraintStatus::kUnvalidated;
    (*reply.statuses)[*c.id] = s.value_or(unlisted);
    // reader-status-by-timestamp: a constraint dated after the snapshot is taken as not
    // applying to it.
    if (Has(Mutant::kReaderStatusByTimestamp) && snap != nullptr && c.timestamp_ms &&
        *c.timestamp_ms > snap->timestamp_ms)
      (*reply.statuses)[*c.id] = ConstraintStatus::kUnvalidated;
  }
  return reply;
}

Reply Engine::ParseMetadataOp(const ParseMetadata& op) const {
  TableMetadata md = op.metadata;
  // reader-accepts-unknown-version: reads a version above 4 as if it were 4.
  if (md.format_version > 4 && Has(Mutant::kReaderAcceptsUnknownVersion)) md.format_version = 4;
  if (md.format_version < 1 || md.format_version > 4) {
    return Reply::Reject(
        kinds::kUnsupportedVersion,
        fmt::format("format version {} is not supported", md.format_version));
  }
  if (md.format_version < 4) {
    // def.v4-only: a v1-v3 reader ignores constraint fields (and would never write them);
    // what it does with metadata that carries them is open (switch v3-constraint-fields,
    // default either): the divergent sample refuses it.
    bool carries = md.constraints.has_value() || md.last_constraint_id.has_value();
    for (const Snapshot& s : md.snapshots) carries = carries || s.constraint_statuses;
    if (divergent_ && carries) {
      return Reply::Reject(
          kinds::kInvalidMetadata,
          fmt::format("v{} metadata carries constraint fields (def.v4-only)",
                      md.format_version));
    }
    md.constraints.reset();
    md.last_constraint_id.reset();
    for (size_t i = 0; i < md.snapshots.size(); ++i)
      md.snapshots.mutable_at(i).constraint_statuses.reset();
    return Reply::Ok(std::move(md));
  }
  if (std::optional<Reply> refusal = V4ReaderRefusal(md)) return std::move(*refusal);
  return Reply::Ok(std::move(md));
}

std::optional<Reply> Engine::V4ReaderRefusal(const TableMetadata& md) const {
  if (Has(Mutant::kReaderRefusesV4Identifiers)) {
    // Takes identifier-field-ids in a v4 table as a writer's error, not as ignorable.
    for (const Schema& s : md.schemas)
      if (s.identifier_field_ids && !s.identifier_field_ids->empty())
        return Reply::Reject(kinds::kInvalidMetadata,
                             "a v4 schema carries identifier-field-ids "
                             "(upg.no-identifiers-in-v4)");
  }
  const Schema* schema = md.CurrentSchema();
  if (schema == nullptr) {
    return Reply::Reject(kinds::kInvalidMetadata, "current-schema-id names no schema");
  }
  if (md.constraints && (divergent_ || strict_reader_)) {
    // Open point: a constraint ID of 0 or less, or above last-constraint-id, may be
    // refused (docs/interpretations.md); the divergent sample and the strict reader
    // (profile v4-reader) refuse it.
    const ConstraintId last = md.last_constraint_id.value_or(0);
    for (const Constraint& c : *md.constraints) {
      if (c.id && (*c.id <= 0 || *c.id > last)) {
        return Reply::Reject(
            kinds::kInvalidMetadata,
            fmt::format("constraint ID {} is not in 1..last-constraint-id {}", *c.id,
                        last));
      }
    }
  }
  if (md.constraints) {
    std::vector<Constraint> before;
    for (const Constraint& c : *md.constraints) {
      std::string rule;
      std::string problem = ConstraintProblem(c, *schema, before, rule, true);
      if (!problem.empty()) {
        return Reply::Reject(kinds::kInvalidMetadata,
                             fmt::format("{} ({})", problem, rule));
      }
      before.push_back(c);
    }
  }
  return std::nullopt;
}

}  // namespace ictk::sample
