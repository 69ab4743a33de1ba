/// \file
/// Reader inputs from the model's writer histories (reader_inputs.h).
#include "generators/reader_inputs.h"

#include <fmt/format.h>

#include <algorithm>
#include <set>
#include <string>

#include "generators/value_gen.h"
#include "model/judge/table_state.h"
#include "model/rules/definition_rules.h"

namespace ictk {
namespace {

constexpr uint64_t kSaltV4Keys = 0x5851F42D4C957F2DULL;

/// The writer mix behind a reader input: constraint changes, row commits that break
/// them, validation and removals, so that every status list and removed IDs show up.
GenWeights WriterWeights() {
  GenWeights w = GenWeights::Default();
  for (StepKind k : {StepKind::kReadStatuses, StepKind::kParseMetadata, StepKind::kScan,
                     StepKind::kLoadTable, StepKind::kDefineFunction, StepKind::kUpgrade})
    w.weights[k] = 0;
  w.weights[StepKind::kAddConstraint] = 14;
  w.weights[StepKind::kValidate] = 6;
  w.weights[StepKind::kRemoveConstraint] = 3;
  w.weights[StepKind::kAddInvalidConstraint] = 1;
  return w;
}

/// The declared versions in 1..3, highest first.
std::vector<int32_t> OldVersions(const Capabilities& caps) {
  std::vector<int32_t> out;
  for (int32_t v : caps.format_versions)
    if (v >= 1 && v <= 3) out.push_back(v);
  std::sort(out.rbegin(), out.rend());
  return out;
}

bool Declares4(const Capabilities& caps) { return caps.format_versions.count(4) > 0; }

/// A declared version for model-written metadata: 4 when declared, else one of 1-3.
std::optional<int32_t> VersionFor(const PlanStep& step, const Capabilities& caps) {
  if (Declares4(caps)) return 4;
  const std::vector<int32_t> old = OldVersions(caps);
  if (old.empty()) return std::nullopt;
  return old[step.pick % old.size()];
}

bool ListsMissingIds(const TableMetadata& md) {
  std::set<ConstraintId> present;
  for (const Constraint& c : ConstraintsOf(md))
    if (c.id) present.insert(*c.id);
  for (const Snapshot& s : md.snapshots) {
    if (!s.constraint_statuses) continue;
    for (ConstraintStatus st : kAllStatuses)
      if (const auto& l = s.constraint_statuses->List(st))
        for (ConstraintId id : *l)
          if (!present.count(id)) return true;
  }
  return false;
}

bool HasIdentifierFields(const TableMetadata& md) {
  for (const Schema& s : md.schemas)
    if (s.identifier_field_ids && !s.identifier_field_ids->empty()) return true;
  return false;
}

/// The rules a reader request on `md` exercises.
std::vector<RuleId> ReaderTags(const TableMetadata& md, bool parse_metadata) {
  std::vector<RuleId> tags;
  if (!parse_metadata) tags.push_back(RuleId::kStReaderLookup);
  if (md.format_version >= 4) {
    if (parse_metadata && (md.constraints || md.last_constraint_id))
      tags.push_back(RuleId::kDefReaderPreserves);
    if (ListsMissingIds(md)) tags.push_back(RuleId::kIdReadersTolerateMissing);
    if (HasIdentifierFields(md)) tags.push_back(RuleId::kUpgReadersIgnoreIdentifiers);
  }
  if (parse_metadata && tags.empty()) tags.push_back(RuleId::kDefRequiredFields);
  return tags;
}

/// Model-written metadata of `version`, trying a few seeds until the history leaves a
/// table (and, with `want_constraints`, one with constraints).
std::optional<TableMetadata> Written(const PlanStep& step, uint64_t salt, int32_t version,
                                     bool upgrade, const Switches& switches,
                                     bool want_constraints) {
  std::optional<TableMetadata> best;
  for (uint64_t attempt = 0; attempt < 4; ++attempt) {
    std::optional<TableMetadata> md = ModelWrittenMetadata(
        step.seed ^ salt ^ (attempt * 0x9E3779B97F4A7C15ULL), step.size, version, upgrade,
        switches);
    if (!md) continue;
    if (!want_constraints || !ConstraintsOf(*md).empty()) return md;
    if (!best) best = std::move(md);
  }
  return best;
}

/// read-statuses on model-written v4 metadata: the current snapshot, an older one (IDs
/// absent from its lists, removed constraints still listed), or a listed constraint
/// dropped from `constraints` (id.readers-tolerate-missing).
void ShapeForReadStatuses(const PlanStep& step, ReaderInput& in) {
  TableMetadata& md = in.metadata;
  switch ((step.pick / 3) % 3) {
    case 0:
    default:
      in.label += "/current";
      break;
    case 1:
      if (md.snapshots.size() > 1) {
        const Snapshot& snap = md.snapshots[step.pick % (md.snapshots.size() - 1)];
        in.snapshot_id = snap.snapshot_id;
        in.label += "/older-snapshot";
        for (const Constraint& c : ConstraintsOf(md))
          in.dated_after_snapshot =
              in.dated_after_snapshot || TimestampWouldChangeReaderStatus(snap, c);
      } else {
        in.label += "/current";
      }
      break;
    case 2:
      if (md.constraints && !md.constraints->empty()) {
        md.constraints->erase(md.constraints->begin() +
                              static_cast<long>(step.pick % md.constraints->size()));
        in.label += "/missing-constraint";
      } else {
        in.label += "/current";
      }
      break;
  }
}

/// v1-v3 metadata carrying one or all of the v4-only keys, taken from a v4 history.
std::optional<ReaderInput> V3WithV4Keys(const PlanStep& step, const Capabilities& caps,
                                        const Switches& switches, bool parse_metadata) {
  const std::vector<int32_t> old = OldVersions(caps);
  if (old.empty()) return std::nullopt;
  const int32_t v = old[step.pick % old.size()];
  std::optional<TableMetadata> md = Written(step, 0, v, false, switches, false);
  std::optional<TableMetadata> v4 =
      Written(step, kSaltV4Keys, 4, false, switches, /*want_constraints=*/true);
  if (!md || !v4) return std::nullopt;
  const uint32_t which = (step.pick / 5) % 4;  // 0 all, 1 constraints, 2 last id, 3 statuses
  std::string keys;
  if (which == 0 || which == 1) {
    md->constraints = ConstraintsOf(*v4);
    keys = "constraints";
  }
  if (which == 0 || which == 2) {
    md->last_constraint_id = v4->last_constraint_id.value_or(0);
    keys = keys.empty() ? "last-constraint-id" : "all";
  }
  if (which == 0 || which == 3) {
    std::vector<ConstraintId> ids;
    for (const Constraint& c : ConstraintsOf(*v4))
      if (c.id) ids.push_back(*c.id);
    for (size_t i = 0; i < md->snapshots.size(); ++i) {
      if (!v4->snapshots.empty()) {
        const Snapshot& from = v4->snapshots[std::min(i, v4->snapshots.size() - 1)];
        md->snapshots.mutable_at(i).constraint_statuses =
            from.constraint_statuses.value_or(ConstraintStatuses{});
      } else {
        ConstraintStatuses st;
        st.unvalidated = ids;
        md->snapshots.mutable_at(i).constraint_statuses = st;
      }
    }
    if (md->snapshots.empty()) {
      // No snapshot to carry statuses: the constraints key stands in.
      md->constraints = ConstraintsOf(*v4);
      if (keys.empty()) keys = "constraints";
    } else if (keys.empty()) {
      keys = "constraint-statuses";
    }
  }
  ReaderInput in;
  in.source = ReaderSource::kV3WithV4Keys;
  in.metadata = std::move(*md);
  in.label = fmt::format("v{}-with-v4-keys/{}", v, keys);
  in.tags = {RuleId::kDefV4Only};
  if (!parse_metadata) in.tags.push_back(RuleId::kStReaderLookup);
  return in;
}

/// Model-written v4 metadata with one definition, key or ID rule broken.
std::optional<ReaderInput> BrokenDefinition(const PlanStep& step, const Switches& switches) {
  std::optional<TableMetadata> md = Written(step, 0, 4, false, switches, true);
  if (!md || !md->constraints || md->constraints->empty()) return std::nullopt;
  std::vector<Constraint>& cs = *md->constraints;
  ConstraintId last = md->last_constraint_id.value_or(0);
  for (const Constraint& c : cs) last = std::max(last, c.id.value_or(0));
  ReaderInput in;
  in.source = ReaderSource::kBrokenDefinition;
  RuleId rule = RuleId::kDefIdUnique;
  const Constraint* key = nullptr;
  for (const Constraint& c : cs)
    if (c.type == ConstraintType::kPrimaryKey || c.type == ConstraintType::kUnique) key = &c;
  std::string label;
  switch ((step.pick / 3) % 6) {
    case 5: {  // a stored constraint without constraint-id or timestamp-ms
      // (def.required-fields/stored-id-and-timestamp): the keys only a writer assigns.
      Constraint& c = cs[(step.pick / 36) % cs.size()];
      if ((step.pick / 18) % 2 == 0) {
        c.id.reset();
      } else {
        c.timestamp_ms.reset();
      }
      rule = RuleId::kDefRequiredFields;
      label = "constraint-without-id-or-timestamp";
      break;
    }
    case 0:
      if (key != nullptr) {  // a second primary key (def.single-pk)
        Constraint pk = *key;
        pk.type = ConstraintType::kPrimaryKey;
        pk.raw_type = "primary-key";
        pk.name = pk.name.value_or("c") + "_pk2";
        pk.id = ++last;
        Constraint pk3 = pk;
        pk3.name = pk.name.value_or("c") + "_pk3";
        pk3.id = ++last;
        cs.push_back(pk);
        cs.push_back(pk3);
        md->last_constraint_id = last;
        rule = RuleId::kDefSinglePk;
        break;
      }
      [[fallthrough]];
    case 1:
      if (cs.size() >= 2) {  // two different constraints sharing one ID (def.id-unique)
        cs[1].id = cs[0].id;
        rule = RuleId::kDefIdUnique;
        break;
      }
      [[fallthrough]];
    case 2:
      if (cs.size() >= 2) {  // two constraints sharing one name (def.name-unique)
        cs[1].name = cs[0].name;
        rule = RuleId::kDefNameUnique;
        break;
      }
      [[fallthrough]];
    case 3: {  // an ID above last-constraint-id (id.update-last)
      cs.back().id = last + 5;
      md->last_constraint_id = last;
      rule = RuleId::kIdUpdateLast;
      break;
    }
    case 4:
    default: {  // a key over a field the schema does not have (def.key-field-ids)
      Constraint u;
      u.type = ConstraintType::kUnique;
      u.raw_type = "unique";
      u.name = "no_such_field_key";
      u.enforced = false;
      u.timestamp_ms = md->last_updated_ms;
      u.field_ids = std::vector<FieldId>{md->last_column_id + 7};
      u.id = ++last;
      md->last_constraint_id = last;
      cs.push_back(u);
      rule = RuleId::kDefKeyFieldIds;
      break;
    }
  }
  in.metadata = std::move(*md);
  in.label = label.empty() ? fmt::format("broken/{}", RuleIdName(rule)) : label;
  in.tags = {rule};
  return in;
}

/// Model-written metadata of a declared version with one surrounding Iceberg rule broken.
std::optional<ReaderInput> BrokenIceberg(const PlanStep& step, const Capabilities& caps,
                                         const Switches& switches, bool parse_metadata) {
  std::optional<int32_t> v = VersionFor(step, caps);
  if (!v) return std::nullopt;
  // Now and then an older declared version: broken v1-v3 metadata.
  const std::vector<int32_t> old = OldVersions(caps);
  if (!old.empty() && step.pick % 2 == 1) v = old[(step.pick / 2) % old.size()];
  std::optional<TableMetadata> md = Written(step, 0, *v, false, switches, false);
  if (!md) return std::nullopt;
  RuleId rule = RuleId::kIceCurrentSchemaExists;
  ReaderInput in;
  switch ((step.pick / 3) % 6) {
    case 5:
      if (parse_metadata) {  // a version no reader knows: must be refused
        md->format_version = 5;
        rule = RuleId::kIceFormatVersionKnown;
        in.intent = Intent::kReject;
        in.aimed_at = rule;
        break;
      }
      [[fallthrough]];
    case 0:
    default:
      md->current_schema_id = 900 + md->current_schema_id.value_or(0);
      rule = RuleId::kIceCurrentSchemaExists;
      break;
    case 1:
      md->default_spec_id = 77;
      rule = RuleId::kIceDefaultSpecExists;
      break;
    case 2:
      if (md->format_version >= 2) {
        md->last_partition_id.reset();
        rule = RuleId::kIceMetadataRequired;
        break;
      }
      [[fallthrough]];
    case 3:
      md->table_uuid = "not-a-uuid";
      rule = RuleId::kIceTableUuid;
      break;
    case 4:
      if (!md->snapshots.empty()) {
        SnapshotId unknown = 424'242;
        while (md->FindSnapshot(unknown) != nullptr) ++unknown;
        md->current_snapshot_id = unknown;
        rule = RuleId::kIceCurrentSnapshotExists;
      } else {
        md->default_spec_id = 78;
        rule = RuleId::kIceDefaultSpecExists;
      }
      break;
  }
  in.source = ReaderSource::kBrokenIceberg;
  in.metadata = std::move(*md);
  in.label = fmt::format("broken-v{}/{}", in.metadata.format_version, RuleIdName(rule));
  in.tags = {rule};
  if (!parse_metadata) in.tags.push_back(RuleId::kStReaderLookup);
  return in;
}

}  // namespace

std::string_view ToString(ReaderSource source) {
  switch (source) {
    case ReaderSource::kOwn:
      return "own";
    case ReaderSource::kModel:
      return "model";
    case ReaderSource::kModelUpgraded:
      return "model-upgraded";
    case ReaderSource::kV3WithV4Keys:
      return "v3-with-v4-keys";
    case ReaderSource::kBrokenDefinition:
      return "broken-definition";
    case ReaderSource::kBrokenIceberg:
      return "broken-iceberg";
  }
  return "?";
}

std::optional<TableMetadata> ModelWrittenMetadata(uint64_t seed, int size,
                                                  int32_t format_version, bool upgrade,
                                                  const Switches& switches) {
  if (format_version < 1 || format_version > 4) return std::nullopt;
  const int32_t start = upgrade ? static_cast<int32_t>(1 + seed % 3) : format_version;
  HistoryGenConfig config;
  config.capabilities = Capabilities::All();
  config.capabilities.udf = false;  // a reader's catalog has no functions
  config.capabilities.format_versions = {start};
  config.weights = WriterWeights();
  config.max_steps = 12;
  std::optional<Plan> plan = Sample(GenPlan(config), seed, 50);
  if (!plan) return std::nullopt;
  const size_t steps = static_cast<size_t>(2 + std::clamp(size, 0, 100) / 10);
  if (plan->steps.size() > steps) plan->steps.resize(steps);
  plan->table.format_version = start;
  plan->table.identifier_fields =
      start < 4 && (upgrade || seed % 3 == 0) ? IdentifierFields::kEligible
                                              : IdentifierFields::kNone;
  if (upgrade) {
    PlanStep up;
    up.kind = StepKind::kUpgrade;
    up.pick = 1;  // straight to v4 (RenderUpgrade)
    up.seed = seed;
    plan->steps.insert(plan->steps.begin() + static_cast<long>(plan->steps.size() / 2), up);
    config.capabilities.format_versions.insert(4);
  }
  RenderOptions options;
  options.table = "t";
  options.function_prefix = "m_";
  options.capabilities = config.capabilities;
  options.switches = switches;
  options.final_scan = false;
  CatalogState state;
  RenderHistory(*plan, options, &state);
  const TableState* table = state.FindTable("t");
  if (table == nullptr) return std::nullopt;
  if (upgrade && table->metadata.format_version < 4) return std::nullopt;
  return table->metadata;
}

ReaderSource ChooseReaderSource(const PlanStep& step, const Capabilities& caps,
                                bool have_own, bool parse_metadata) {
  const uint32_t r = (step.flavour / 7) % 20;
  if (have_own && r < 4) return ReaderSource::kOwn;
  if (r >= 11 && r <= 12 && Declares4(caps)) return ReaderSource::kModelUpgraded;
  if (r >= 13 && r <= 14 && !OldVersions(caps).empty()) return ReaderSource::kV3WithV4Keys;
  if (r >= 15 && r <= 16 && parse_metadata && Declares4(caps))
    return ReaderSource::kBrokenDefinition;
  if (r >= 17 && r <= 18) return ReaderSource::kBrokenIceberg;
  return ReaderSource::kModel;
}

std::optional<ReaderInput> MakeReaderInput(ReaderSource source, const PlanStep& step,
                                           const Capabilities& caps,
                                           const Switches& switches, bool parse_metadata) {
  std::optional<ReaderInput> in;
  switch (source) {
    case ReaderSource::kOwn:
      return std::nullopt;
    case ReaderSource::kV3WithV4Keys:
      in = V3WithV4Keys(step, caps, switches, parse_metadata);
      break;
    case ReaderSource::kBrokenDefinition:
      in = BrokenDefinition(step, switches);
      break;
    case ReaderSource::kBrokenIceberg:
      in = BrokenIceberg(step, caps, switches, parse_metadata);
      break;
    case ReaderSource::kModelUpgraded:
      if (Declares4(caps)) {
        std::optional<TableMetadata> md = Written(step, 0, 4, true, switches, false);
        if (md) {
          in.emplace();
          in->source = source;
          in->metadata = std::move(*md);
          in->label = "model-upgraded";
        }
      }
      break;
    case ReaderSource::kModel:
      break;
  }
  if (!in) {
    // Model-written metadata as written (also the fallback of every other source).
    std::optional<int32_t> v = VersionFor(step, caps);
    if (!v) return std::nullopt;
    std::optional<TableMetadata> md =
        Written(step, 0, *v, false, switches, /*want_constraints=*/*v == 4);
    if (!md) return std::nullopt;
    in.emplace();
    in->source = ReaderSource::kModel;
    in->metadata = std::move(*md);
    in->label = fmt::format("model-v{}", *v);
  }
  if (!parse_metadata && in->metadata.format_version >= 4 &&
      (in->source == ReaderSource::kModel || in->source == ReaderSource::kModelUpgraded))
    ShapeForReadStatuses(step, *in);
  if (in->tags.empty()) in->tags = ReaderTags(in->metadata, parse_metadata);
  return in;
}

}  // namespace ictk
