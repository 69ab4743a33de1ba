/// \file
/// Read steps: scan (current, older and unknown snapshots, an unknown table), read-statuses
/// and parse-metadata on the table's metadata changed or on metadata the model wrote.
#include <fmt/format.h>

#include <algorithm>
#include <optional>
#include <string>
#include <utility>

#include "generators/reader_inputs.h"
#include "generators/render_internal.h"
#include "model/rules/definition_rules.h"
#include "model/rules/status_rules.h"

namespace ictk::render_internal {

std::optional<RenderedStep> RenderScan(const Ctx& ctx) {
  Scan s;
  std::string label = "scan/current";
  Intent intent = Intent::kOk;
  std::optional<RuleId> aimed;
  const auto& snaps = ctx.md().snapshots;
  const uint32_t flavour = ctx.Flavour(4);
  if (flavour == 1 && snaps.size() > 1) {
    const Snapshot& snap = snaps[ctx.Pick(snaps.size())];
    // Kept out (docs/protocol.md section 10, "Requests the generators keep out"): a
    // `snapshot-id` naming the current snapshot when the schema changed after it, where
    // the text does not say whether rows come under the current schema or the snapshot's.
    const bool open_question = ctx.md().current_snapshot_id == snap.snapshot_id &&
                               snap.schema_id && snap.schema_id != ctx.md().current_schema_id;
    if (!open_question) {
      s.snapshot_id = snap.snapshot_id;
      label = "scan/older-snapshot";
    }
  } else if (flavour == 2 && ctx.step.pick % 2 == 0) {
    // A table the implementation does not have (proto.request/unknown-table).
    RenderedStep r = Make(s, fmt::format("{}_unknown", ctx.options.table),
                          "scan/unknown-table", Intent::kReject, RuleId::kProtoRequest);
    r.clauses = {Clause(RuleId::kProtoRequest, "unknown-table")};
    return r;
  } else if (flavour == 3) {
    SnapshotId unknown = 987'654'321;
    while (ctx.md().FindSnapshot(unknown) != nullptr) ++unknown;
    s.snapshot_id = unknown;
    label = "scan/unknown-snapshot";
    intent = Intent::kReject;
    aimed = RuleId::kProtoRequest;
  }
  return Make(s, ctx.options.table, label, intent, aimed, {RuleId::kSemLiveRows});
}

namespace {

/// A reader request on metadata the model wrote (reader_inputs.h): what v4 writers
/// write, v1-v3 metadata carrying v4-only keys, and broken metadata.
std::optional<RenderedStep> RenderReaderFromModel(const Ctx& ctx, ReaderSource source,
                                                  bool parse_metadata) {
  std::optional<ReaderInput> in = MakeReaderInput(source, ctx.step, ctx.caps(),
                                                  ctx.options.switches, parse_metadata);
  if (!in) return std::nullopt;
  if (parse_metadata)
    return Make(ParseMetadata{std::move(in->metadata)}, "", "parse-metadata/" + in->label,
                in->intent, in->aimed_at, in->tags);
  ReadStatuses r;
  r.metadata = std::move(in->metadata);
  r.snapshot_id = in->snapshot_id;
  RenderedStep step = Make(std::move(r), "", "read-statuses/" + in->label, Intent::kAny,
                           std::nullopt, in->tags);
  if (in->dated_after_snapshot)
    step.clauses = {Clause(RuleId::kDefTimestampInformational, "applies")};
  return step;
}

/// read-statuses of an older snapshot: picks one for `r` and answers the step's label.
/// def.timestamp-informational/applies tells only where the snapshot lists a constraint
/// dated after it: a constraint modified later (a rename) has such a timestamp-ms. One
/// that the snapshot lists gets the latest snapshot's time when none is dated after it
/// already; the step names the clause only then.
std::string ReadOlderSnapshot(const Ctx& ctx, TableMetadata& md, ReadStatuses& r) {
  const Snapshot& snap = md.snapshots[ctx.Pick(md.snapshots.size())];
  r.snapshot_id = snap.snapshot_id;
  int64_t latest = snap.timestamp_ms;
  for (const Snapshot& other : md.snapshots) latest = std::max(latest, other.timestamp_ms);
  const ConstraintStatuses* listed =
      snap.constraint_statuses ? &*snap.constraint_statuses : nullptr;
  bool dated_after = false;
  std::optional<size_t> candidate;
  for (size_t i = 0; md.constraints && i < md.constraints->size(); ++i) {
    const Constraint& c = (*md.constraints)[i];
    if (!c.id || ReaderStatus(listed, *c.id) == ConstraintStatus::kUnvalidated) continue;
    if (TimestampWouldChangeReaderStatus(snap, c)) dated_after = true;
    if (!candidate) candidate = i;
  }
  if (!dated_after && candidate && latest > snap.timestamp_ms) {
    (*md.constraints)[*candidate].timestamp_ms = latest;
    dated_after = true;
  }
  return dated_after ? "read-statuses/older-snapshot" : "read-statuses/older-snapshot-undated";
}

}  // namespace

/// Reader requests on crafted metadata (id.readers-tolerate-missing, st.reader-lookup,
/// upg.readers-ignore-identifiers): the table's current metadata, changed; or, most of
/// the time, metadata the model wrote (RenderReaderFromModel).
std::optional<RenderedStep> RenderReadStatuses(const Ctx& ctx) {
  const ReaderSource source =
      ChooseReaderSource(ctx.step, ctx.caps(), ctx.table != nullptr, false);
  if (source != ReaderSource::kOwn) return RenderReaderFromModel(ctx, source, false);
  TableMetadata md = ctx.md();
  // v1-v3 metadata (no constraints, no statuses) only for an implementation without v4.
  if (md.format_version < 4 && ctx.caps().format_versions.count(4)) return std::nullopt;
  ReadStatuses r;
  std::string label = "read-statuses/as-written";
  std::vector<RuleId> tags = {RuleId::kStReaderLookup};
  // The current snapshot's place: a flavour that changes it copies it first
  // (`mutable_at`), as the metadata shares it with the table's.
  std::optional<size_t> current;
  for (size_t i = 0; i < md.snapshots.size(); ++i)
    if (md.current_snapshot_id && md.snapshots[i].snapshot_id == *md.current_snapshot_id)
      current = i;
  switch (ctx.Flavour(6)) {
    case 0:
    default:
      break;
    case 1:  // a listed constraint missing from `constraints`
      if (md.constraints && !md.constraints->empty()) {
        md.constraints->erase(md.constraints->begin() + ctx.Pick(md.constraints->size()));
        label = "read-statuses/missing-constraint";
        tags = {RuleId::kIdReadersTolerateMissing};
      }
      break;
    case 2:  // empty lists omitted, and one constraint unlisted (reads unvalidated)
      if (current && md.snapshots[*current].constraint_statuses) {
        ConstraintStatuses& st = *md.snapshots.mutable_at(*current).constraint_statuses;
        for (ConstraintStatus s : kAllStatuses)
          if (st.List(s) && st.List(s)->empty()) st.List(s).reset();
        if (md.constraints && !md.constraints->empty()) {
          const ConstraintId id =
              (*md.constraints)[ctx.Pick(md.constraints->size())].id.value_or(0);
          for (ConstraintStatus s : kAllStatuses)
            if (st.List(s)) {
              auto& l = *st.List(s);
              l.erase(std::remove(l.begin(), l.end(), id), l.end());
            }
        }
        label = "read-statuses/unlisted";
        tags = {RuleId::kStReaderLookup};
      }
      break;
    case 3:  // an older snapshot
      if (md.snapshots.size() > 1) label = ReadOlderSnapshot(ctx, md, r);
      break;
    case 4:  // identifier fields in a v4 schema (readers ignore them)
      for (Schema& s : md.schemas)
        if (s.schema_id.value_or(0) == md.current_schema_id.value_or(0))
          s.identifier_field_ids = std::vector<FieldId>{1};
      label = "read-statuses/identifiers-in-v4";
      tags = {RuleId::kUpgReadersIgnoreIdentifiers};
      break;
    case 5:  // a snapshot listing an ID above last-constraint-id
      if (current) {
        Snapshot& snapshot = md.snapshots.mutable_at(*current);
        if (!snapshot.constraint_statuses)
          snapshot.constraint_statuses = ConstraintStatuses{};
        auto& l = snapshot.constraint_statuses->unvalidated;
        if (!l) l = std::vector<ConstraintId>{};
        l->push_back(md.last_constraint_id.value_or(0) + 50);
        label = "read-statuses/id-above-last";
        tags = {RuleId::kIdReadersTolerateMissing};
      }
      break;
  }
  r.metadata = std::move(md);
  return Make(std::move(r), "", label, Intent::kAny, std::nullopt, tags);
}

std::optional<RenderedStep> RenderParseMetadata(const Ctx& ctx) {
  const ReaderSource source =
      ChooseReaderSource(ctx.step, ctx.caps(), ctx.table != nullptr, true);
  if (source != ReaderSource::kOwn) return RenderReaderFromModel(ctx, source, true);
  TableMetadata md = ctx.md();
  std::string label = "parse-metadata/as-written";
  Intent intent = Intent::kAny;
  std::optional<RuleId> aimed;
  std::vector<RuleId> tags = {RuleId::kDefRequiredFields};
  switch (ctx.Flavour(4)) {
    case 0:
    case 1:
    default:
      break;
    case 2:
      if (md.format_version == 4 && md.constraints && !md.constraints->empty()) {
        // The same constraint listed twice: two entries with one ID (def.id-unique).
        // (Not a renamed copy: the model's parse-metadata judging matches constraints by
        // ID, so two different constraints sharing an ID cannot be judged yet.)
        md.constraints->push_back(md.constraints->front());
        label = "parse-metadata/duplicate-id";  // a reader may reject or accept it
        tags = {RuleId::kDefIdUnique};
      }
      break;
    case 3:
      md.format_version = 5;
      label = "parse-metadata/unknown-version";
      intent = Intent::kReject;
      aimed = RuleId::kIceFormatVersionKnown;
      tags = {};
      break;
  }
  return Make(ParseMetadata{std::move(md)}, "", label, intent, aimed, tags);
}

}  // namespace ictk::render_internal
