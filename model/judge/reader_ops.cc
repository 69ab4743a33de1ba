/// \file
/// The reader side: `scan` (the live rows of a snapshot, sem.live-rows), `read-statuses`
/// (st.reader-lookup, id.readers-tolerate-missing, upg.readers-ignore-identifiers) and
/// `parse-metadata` (what a reader must accept, may reject, must reject).
#include <fmt/format.h>

#include "model/rules/constraint_rules.h"
#include "model/rules/definition_rules.h"
#include "model/rules/iceberg_rules.h"
#include "model/rules/id_rules.h"
#include "model/rules/upgrade_rules.h"
#include "model/judge/operations_internal.h"
#include "model/rules/status_rules.h"

namespace ictk::internal {

namespace {

bool CarriesConstraintFields(const TableMetadata& md) {
  if (md.constraints || md.last_constraint_id) return true;
  for (const Snapshot& s : md.snapshots)
    if (s.constraint_statuses) return true;
  return false;
}

/// A reader's version check: "Readers reject a format-version they do not support"
/// (ice.format-version-known, iceberg_rules.h): a version no format defines must be
/// refused with unsupported-format-version; a known version the implementation did not
/// declare may be (proto.declared-versions), and is otherwise read as usual.
bool KnownVersion(const TableMetadata& md, const Switches& switches, OutcomeBuilder& b) {
  Findings f = CheckFormatVersionKnown(md);
  for (Finding& x : f) b.MustReject(RejectKind::kUnsupportedFormatVersion, std::move(x));
  if (!f.empty()) return false;
  DeclaredFormatVersion(md.format_version, switches, b);
  return true;
}

/// def.v4-only for readers: "What a reader does with v1–v3 metadata that carries them is
/// open" (switch v3-constraint-fields: `either` rejects or ignores, `reject` rejects).
/// Returns whether the constraint fields are ignored when accepted.
bool V3ConstraintFields(const TableMetadata& md, const Switches& switches,
                        OutcomeBuilder& b) {
  if (ConstraintsSupported(md.format_version) || !CarriesConstraintFields(md))
    return false;
  Finding f = MakeFinding(
      RuleId::kDefV4Only,
      fmt::format("v{} metadata carries constraint fields", md.format_version));
  if (switches.v3_constraint_fields == V3ConstraintFields::kReject) {
    b.MustReject(RejectKind::kInvalidMetadata, std::move(f));
  } else {
    b.MayReject(RejectKind::kInvalidMetadata, std::move(f));
  }
  return true;
}

/// v4 metadata given to a reader that breaks a definition, key or ID rule (def.*, key.*,
/// expr.*, and IDs outside 1..last-constraint-id): the spec does not say what a reader
/// does with it, so switch invalid-metadata-on-read decides: `either` (accept, or refuse
/// with invalid-metadata) or `reject` (must refuse). What a reader must tolerate (missing
/// IDs, identifier-field-ids) never counts here.
void InvalidV4MetadataOnRead(const TableMetadata& md, const FunctionCatalog& functions,
                           const Switches& switches, OutcomeBuilder& b) {
  if (md.format_version < 4) return;
  const bool must = switches.invalid_metadata_on_read == InvalidMetadataOnRead::kReject;
  const auto refuse = [&](Finding f) {
    if (must) {
      b.MustReject(RejectKind::kInvalidMetadata, std::move(f));
    } else {
      b.MayReject(RejectKind::kInvalidMetadata, std::move(f));
    }
  };
  const Schema* schema = md.CurrentSchema();
  const std::vector<Constraint>& constraints = ConstraintsOf(md);
  for (size_t i = 0; i < constraints.size() && schema != nullptr; ++i) {
    for (Finding& f :
         CheckConstraintDefinition(constraints[i], *schema, functions,
                                   DefinitionSource::kMetadata,
                                   fmt::format("/constraints/{}", i)))
      refuse(std::move(f));
  }
  for (Finding& f : CheckConstraintSet(constraints, switches, "/constraints"))
    refuse(std::move(f));
  for (const Constraint& c : constraints) {
    // "constraint ID 0, or a constraint ID above last-constraint-id, in metadata given
    // to a reader": under `either` parse-metadata may accept or reject.
    if (c.id && (!IdAboveLast(*c.id, 0) ||
                 !LastConstraintIdUpdated(LastConstraintId(md), LastConstraintId(md), *c.id))) {
      refuse(MakeFinding(RuleId::kIdUpdateLast,
                         fmt::format("constraint ID {} is not in 1..last-constraint-id {}",
                                     *c.id, LastConstraintId(md)),
                         c.id));
    }
  }
}

/// Metadata given to a reader that breaks a surrounding Iceberg rule (ice.*: a current
/// schema, spec or snapshot that does not exist, a required member missing, ...) may be
/// refused as invalid-metadata; a reader is never required to accept it. (The format
/// version is KnownVersion's.)
void ReaderMayRejectBrokenIceberg(const TableMetadata& md, OutcomeBuilder& b) {
  for (Finding& f : CheckIcebergMetadata(md)) {
    if (f.rule == RuleId::kIceFormatVersionKnown) continue;
    b.MayReject(RejectKind::kInvalidMetadata, std::move(f));
  }
}

}  // namespace

AllowedOutcome ApplyScan(const CatalogState& state, const Request& request,
                         const Scan& op, const Switches&) {
  const TableState* table = TableOf(state, request);
  if (table == nullptr)
    return InvalidRequest(fmt::format("unknown table '{}'", request.table),
                          clauses::kProtoRequestUnknownTable);
  const TableMetadata& md = table->metadata;
  const Schema* schema = md.CurrentSchema();
  std::optional<LiveRows> rows;
  if (!op.snapshot_id) {
    rows = table->rows;
  } else {
    const Snapshot* snap = md.FindSnapshot(*op.snapshot_id);
    if (snap == nullptr)
      return InvalidRequest(fmt::format("unknown snapshot {}", *op.snapshot_id),
                            clauses::kProtoRequestUnknownSnapshot);
    rows = RowsAtSnapshot(*table, *op.snapshot_id);
    if (!rows) rows.emplace();  // a snapshot the model never saw written: no rows known
    // "with snapshot-id of an older snapshot, under that snapshot's schema"
    if (snap->schema_id) {
      for (const Schema& s : md.schemas)
        if (s.schema_id == snap->schema_id) schema = &s;
    }
  }
  OutcomeBuilder b;
  b.Because(MakeFinding(RuleId::kSemLiveRows, "the live rows, after applying deletes"));
  std::map<std::string, Value> out;
  static const std::vector<NestedField> kNoFields;
  const std::vector<NestedField>& fields = schema ? schema->fields : kNoFields;
  for (const auto& [key, values] : *rows)
    out.emplace(key, ProjectRowToSchema(values, fields, table->held_promotions));
  b.outcome().rows = std::move(out);
  b.outcome().rows_schema = schema ? *schema : Schema{};
  return std::move(b).Build();
}

AllowedOutcome ApplyReadStatuses(const CatalogState& state, const Request&,
                                 const ReadStatuses& op, const Switches& switches) {
  const TableMetadata& md = op.metadata;
  OutcomeBuilder b;
  if (!KnownVersion(md, switches, b)) return std::move(b).Build();
  const bool ignored = V3ConstraintFields(md, switches, b);
  ReaderMayRejectBrokenIceberg(md, b);
  const Snapshot* snap = nullptr;
  if (op.snapshot_id) {
    snap = md.FindSnapshot(*op.snapshot_id);
    if (snap == nullptr)
      return InvalidRequest(fmt::format("unknown snapshot {}", *op.snapshot_id),
                            clauses::kProtoRequestUnknownSnapshot);
  } else {
    snap = md.CurrentSnapshot();
  }
  InvalidV4MetadataOnRead(md, state.functions, switches, b);
  b.AddPermissions(ReadersTolerateMissing(md));
  b.AddPermissions(ReadersIgnoreIdentifiers(md));
  std::map<ConstraintId, StatusSet> statuses;
  if (!ignored) {
    for (const Constraint& c : ConstraintsOf(md)) {
      if (!c.id) continue;
      // "Readers must determine the status of a constraint for a snapshot as follows"
      // (st.reader-lookup); no snapshot: every constraint unvalidated.
      StatusSet& s = statuses[*c.id];
      s = StatusSet{ReaderStatus(
          snap && snap->constraint_statuses ? &*snap->constraint_statuses : nullptr,
          *c.id)};
      // Without def.timestamp-informational/applies (a knock-out, model/rules/knockout.h)
      // a constraint dated after the snapshot would not apply to it.
      if (switches.knock_out == KnockOut::kDefTimestampInformationalApplies && snap &&
          DatedAfterSnapshot(c, snap->timestamp_ms))
        s.Add(ConstraintStatus::kUnvalidated);
    }
  }
  b.Because(MakeFinding(RuleId::kStReaderLookup, "listed status, otherwise unvalidated"));
  b.outcome().reader_statuses = std::move(statuses);
  return std::move(b).Build();
}

AllowedOutcome ApplyParseMetadata(const CatalogState& state, const Request&,
                                  const ParseMetadata& op, const Switches& switches) {
  const TableMetadata& md = op.metadata;
  OutcomeBuilder b;
  if (!KnownVersion(md, switches, b)) return std::move(b).Build();
  const bool may_drop = V3ConstraintFields(md, switches, b);
  ReaderMayRejectBrokenIceberg(md, b);
  if (md.format_version >= 4) {
    // What an `ok` answer must keep of what it read (def.reader-preserves, JudgeParsed).
    if (CarriesConstraintFields(md))
      b.Because(MakeFinding(RuleId::kDefReaderPreserves,
                            "a v4 reader keeps constraints, last-constraint-id and "
                            "constraint-statuses"));
    InvalidV4MetadataOnRead(md, state.functions, switches, b);
    b.AddPermissions(ReadersTolerateMissing(md));
    b.AddPermissions(ReadersIgnoreIdentifiers(md));
  }
  b.outcome().parsed = md;
  b.outcome().may_drop_constraint_fields = may_drop;
  return std::move(b).Build();
}

}  // namespace ictk::internal
