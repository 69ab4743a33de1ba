/// \file
/// Creating a table and upgrading its format version: ice.format-version-up, the schema
/// rules of a new table, and the v4 upgrade rules (upg.*): identifier fields rewritten as
/// a primary key that is not enforced, or skipped when they cannot be one.
#include <fmt/format.h>

#include <functional>

#include "model/rules/constraint_rules.h"
#include "model/rules/definition_rules.h"
#include "model/rules/iceberg_rules.h"
#include "model/rules/id_rules.h"
#include "model/rules/upgrade_rules.h"
#include "model/judge/operations_internal.h"
#include "model/iceberg/schema.h"

namespace ictk::internal {

namespace {

bool KnownFormatVersion(int32_t v) { return v >= 1 && v <= kMaxFormatVersion; }

/// "format versions only go up; an upgrade to an unknown version is rejected"
/// (ice.format-version-up).
void FormatVersionUp(int32_t from, int32_t to, OutcomeBuilder& b) {
  if (!KnownFormatVersion(to)) {
    b.MustReject(RejectKind::kUnsupportedFormatVersion,
                 MakeFinding(clauses::kIceVersionKnownTarget,
                             fmt::format("format version {} is not known", to)));
  } else if (to < from) {
    b.MustReject(RejectKind::kUnsupportedFormatVersion,
                 MakeFinding(clauses::kIceVersionUp,
                             fmt::format("a downgrade from v{} to v{}", from, to)));
  } else if (to == from) {
    // Not an upgrade: a no-op, or a rejection of the request.
    Finding f = MakeFinding(clauses::kIceVersionUp,
                            fmt::format("the table is already v{}", to));
    b.MayReject(RejectKind::kUnsupportedFormatVersion, f);
    b.MayReject(RejectKind::kInvalidRequest, f);
  } else {
    b.Because(MakeFinding(clauses::kIceVersionUp,
                          fmt::format("an upgrade from v{} to v{}", from, to)));
  }
}

/// The expectation of the primary key an upgrade creates (PrimaryKeyFromIdentifiers,
/// upg.pk-from-identifiers): its definition; its name is compared apart.
std::optional<ConstraintExpectation> ExpectPrimaryKeyFromIdentifiers(const Schema& schema,
                                                                     bool& skipped) {
  std::optional<Constraint> pk = PrimaryKeyFromIdentifiers(schema, skipped);
  if (!pk) return std::nullopt;
  ConstraintExpectation e;
  e.name = pk->name.value_or("");
  e.definition.type = pk->type;
  e.definition.enforced = pk->enforced;
  e.definition.field_ids = pk->field_ids;
  e.rule = RuleId::kUpgPkFromIdentifiers;
  return e;
}

Constraint PkConstraint(const ConstraintExpectation& e, ConstraintId id, int64_t now) {
  Constraint c;
  c.id = id;
  c.type = ConstraintType::kPrimaryKey;
  c.raw_type = "primary-key";
  c.name = e.name;
  c.enforced = false;
  c.timestamp_ms = now;
  c.field_ids = e.definition.field_ids;
  return c;
}

}  // namespace

AllowedOutcome ApplyCreateTable(const CatalogState& state, const Request& request,
                                const CreateTable& op, const Switches& switches) {
  if (request.table.empty()) return InvalidRequest("create-table without a table name");
  if (state.FindTable(request.table) != nullptr)
    return InvalidRequest(fmt::format("table '{}' already exists", request.table));
  OutcomeBuilder b;
  if (!KnownFormatVersion(op.format_version)) {
    b.MustReject(
        RejectKind::kUnsupportedFormatVersion,
        MakeFinding(clauses::kIceVersionKnownTarget,
                    fmt::format("format version {} is not known", op.format_version)));
    return std::move(b).Build();
  }
  DeclaredFormatVersion(op.format_version, switches, b);
  // An invalid schema at create-table: `invalid-schema-change` (docs/protocol.md section
  // 8) or `invalid-request`, as a create-table is not a schema change in the text's sense
  // (section 10, "Requests the generators keep out").
  for (Finding& f : CheckIcebergSchema(op.schema, op.format_version)) {
    b.MayReject(RejectKind::kInvalidRequest, f);
    b.MustReject(RejectKind::kInvalidSchemaChange, std::move(f));
  }
  MetadataExpectation exp;
  exp.format_version = op.format_version;
  exp.stale_ids = switches.stale_ids_in_new_snapshot;
  if (!NoIdentifiersInV4Schema(op.format_version, op.schema)) {
    // "Writers must not set identifier-field-ids in a schema that is added to a v4
    // table": the request may be rejected, or accepted with the stored schema carrying
    // none (with or without a generated pk).
    Finding f = MakeFinding(RuleId::kUpgNoIdentifiersInV4,
                            "a v4 schema must not carry identifier-field-ids");
    b.MayReject(RejectKind::kInvalidSchemaChange, f);
    b.MayReject(RejectKind::kInvalidRequest, f);
    bool skipped = false;
    if (std::optional<ConstraintExpectation> pk =
            ExpectPrimaryKeyFromIdentifiers(op.schema, skipped)) {
      pk->optional = true;
      pk->definition.enforced.reset();
      pk->timestamp_must_be = request.now_ms;
      pk->timestamp_rule = RuleId::kProtoTimestampFromNow;
      exp.constraints.push_back(std::move(*pk));
    }
  }
  b.outcome().metadata = std::move(exp);
  return std::move(b).Build();
}

AllowedOutcome ApplyUpgrade(const CatalogState& state, const Request& request,
                            const Upgrade& op, const Switches& switches) {
  const TableState* table = TableOf(state, request);
  if (table == nullptr)
    return InvalidRequest(fmt::format("unknown table '{}'", request.table),
                          clauses::kProtoRequestUnknownTable);
  OutcomeBuilder b;
  const int32_t from = table->metadata.format_version;
  FormatVersionUp(from, op.format_version, b);
  if (b.must_reject()) return std::move(b).Build();
  DeclaredFormatVersion(op.format_version, switches, b);
  MetadataExpectation exp = BaseExpectation(*table, switches);
  exp.format_version = op.format_version;
  exp.format_version_rule = RuleId::kIceFormatVersionUp;
  if (from < 4 && op.format_version >= 4) {
    const Schema* schema = table->metadata.CurrentSchema();
    bool skipped = false;
    std::optional<ConstraintExpectation> pk =
        schema ? ExpectPrimaryKeyFromIdentifiers(*schema, skipped) : std::nullopt;
    if (pk) {
      b.Because(
          MakeFinding(clauses::kUpgSinglePk,
                      "identifier-field-ids become a primary key that is not enforced"));
      // "its timestamp-ms is the time of the upgrade": the request's now-ms.
      pk->timestamp_must_be = request.now_ms;
      pk->timestamp_rule = RuleId::kUpgPkFromIdentifiers;
      exp.constraints.push_back(std::move(*pk));
    } else if (skipped) {
      b.BecauseFirst(
          MakeFinding(clauses::kUpgContinues,
                      "the identifier fields cannot form a primary key: no constraint"));
      // "no constraint is created": a constraint the answer has anyway breaks this rule.
      exp.unexpected_constraint_rule = RuleId::kUpgSkipIneligible;
    }
  }
  b.outcome().metadata = std::move(exp);
  return std::move(b).Build();
}

Findings AdoptCreateTable(CatalogState& state, const Request& request, const CreateTable&,
                          const TableMetadata& answered) {
  TableState table;
  table.metadata = answered;
  for (const Constraint& c : ConstraintsOf(answered))
    if (c.id) table.seen_constraint_ids.insert(*c.id);
  RebuildDerived(table, state.functions);
  state.tables[request.table] = std::move(table);
  return {};
}

std::optional<TableMetadata> CanonicalCreateTable(const Request& request,
                                                  const CreateTable& op) {
  const int64_t now = request.now_ms.value_or(0);
  TableMetadata md;
  md.format_version = op.format_version;
  const size_t h = std::hash<std::string>{}(request.table);
  md.table_uuid = fmt::format("00000000-0000-4000-8000-{:012x}", h & 0xffffffffffffull);
  md.location = "memory://" + request.table;
  if (op.format_version >= 2) md.last_sequence_number = 0;
  md.last_updated_ms = now;
  md.last_column_id = MaxFieldId(op.schema.fields);
  Schema schema = op.schema;
  schema.schema_id = 0;
  std::optional<std::vector<FieldId>> identifiers = schema.identifier_field_ids;
  if (op.format_version >= 4) schema.identifier_field_ids.reset();
  md.schemas.push_back(schema);
  md.current_schema_id = 0;
  md.partition_specs.push_back(PartitionSpec{0, {}});
  md.default_spec_id = 0;
  md.last_partition_id = 999;
  md.sort_orders.push_back(SortOrder{0, {}});
  md.default_sort_order_id = 0;
  if (op.format_version >= 3) md.next_row_id = 0;
  if (op.format_version == 1) {
    md.has_legacy_schema = true;
    md.has_legacy_partition_spec = true;
  }
  if (op.format_version >= 4) {
    md.last_constraint_id = 0;
    md.constraints.emplace();
    bool skipped = false;
    if (identifiers && !identifiers->empty()) {
      if (std::optional<ConstraintExpectation> pk =
              ExpectPrimaryKeyFromIdentifiers(op.schema, skipped)) {
        md.constraints->push_back(PkConstraint(*pk, 1, now));
        md.last_constraint_id = 1;
      }
    }
  }
  return md;
}

std::optional<TableMetadata> CanonicalUpgrade(const TableState& table,
                                              const Request& request, const Upgrade& op) {
  const TableMetadata& base = table.metadata;
  const int64_t now = request.now_ms.value_or(base.last_updated_ms + 1);
  TableMetadata md = NextMetadata(base, now);
  if (op.format_version == base.format_version) return md;
  md.format_version = op.format_version;
  if (op.format_version >= 2) {
    if (!md.last_sequence_number) md.last_sequence_number = 0;
    md.has_legacy_schema = false;
    md.has_legacy_partition_spec = false;
    for (Schema& s : md.schemas)
      if (!s.schema_id) s.schema_id = 0;
    if (!md.current_schema_id) md.current_schema_id = 0;
  }
  if (op.format_version >= 3 && !md.next_row_id) md.next_row_id = 0;
  if (base.format_version < 4 && op.format_version >= 4) {
    md.last_constraint_id = 0;
    md.constraints.emplace();
    const Schema* schema = base.CurrentSchema();
    bool skipped = false;
    if (schema != nullptr) {
      if (std::optional<ConstraintExpectation> pk =
              ExpectPrimaryKeyFromIdentifiers(*schema, skipped)) {
        // "assigned a constraint-id from last-constraint-id in the same way as any other
        // constraint ... its timestamp-ms is the time of the upgrade"
        const ConstraintId id = LowestIdAboveLast(LastConstraintId(base));
        md.constraints->push_back(PkConstraint(*pk, id, now));
        md.last_constraint_id = id;
      }
    }
  }
  return md;
}

}  // namespace ictk::internal
