/// \file
/// Judging the answers of the reading requests: a scan's rows against the live rows
/// (ice.single-value, sem.live-rows), read-statuses against the statuses allowed, and
/// parse-metadata against what a reader must preserve (def.reader-preserves).
#include "model/rules/id_rules.h"
#include "model/judge/outcome.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>

#include "model/rules/constraint_rules.h"
#include "model/rules/iceberg_rules.h"
#include "model/rules/metadata_rules.h"
#include "model/rules/reader_preserves.h"
#include "model/iceberg/schema.h"
#include "model/iceberg/single_value.h"
#include "model/rules/status_rules.h"
#include "model/judge/table_state.h"
#include "model/iceberg/value_parse.h"
#include "model/judge/outcome_internal.h"
#include "model/iceberg/kinds.h"

namespace ictk {

namespace {

using namespace internal;

/// "every legal value must be read and written" (ice.single-value/writes,
/// docs/protocol.md section 10): the top-level fields in which a scanned row (`answered`,
/// as the answer gives it) differs from the live row (`want`, bound), each as "field N
/// (name): written W, expected E (why)", when every such field's live value sits at a
/// type extreme (UnusualBoundValues): the implementation could not write those legal
/// values, which is filed apart from a wrong row (sem.live-rows). Empty when a differing
/// field holds only ordinary values, or when no single field differs (then the row as a
/// whole is wrong: an unknown field ID, say).
std::vector<std::string> SingleValuesWrittenWrong(
    const Value& answered, const Value& want, const std::vector<NestedField>& fields) {
  static const Value kNull;
  std::vector<std::string> out;
  if (answered.kind != ValueKind::kStruct) return out;
  for (const NestedField& f : fields) {
    const Value* a = answered.FindField(f.id);
    const Value* w = want.kind == ValueKind::kStruct ? want.FindField(f.id) : nullptr;
    const std::vector<NestedField> one = {f};
    const Value given = a ? Value::Struct({f.id}, {*a}) : Value::Struct({}, {});
    const Value expected = w ? Value::Struct({f.id}, {*w}) : Value::Struct({}, {});
    std::optional<Value> bound = BindRowForReading(given, one);
    if (bound && RowValuesEqual(*bound, expected, one)) continue;
    const std::vector<std::string> why =
        w ? UnusualBoundValues(*w, f.type, fmt::format("field {}", f.id))
          : std::vector<std::string>{};
    if (why.empty()) return {};  // an ordinary value written wrong: a wrong row
    std::optional<std::string> text =
        w && IsPrimitive(f.type.id) ? FormatValueString(f.type, *w) : std::nullopt;
    out.push_back(fmt::format("field {} ({}): written {}, expected {} ({})", f.id, f.name,
                              ToString(a ? *a : kNull),
                              text ? fmt::format("\"{}\"", *text) : ToString(*w),
                              fmt::join(why, "; ")));
  }
  return out;
}


}  // namespace

namespace internal {

void JudgeRows(const std::map<std::string, Value>& want, const Schema& schema,
               const std::optional<std::vector<Row>>& got, Findings& out) {
  if (!got) {
    out.push_back(MakeFinding(clauses::kProtoAnswerCarries, "the scan answer carries no rows"));
    return;
  }
  std::set<std::string> seen;
  for (const Row& r : *got) {
    if (!seen.insert(r.key).second) {
      out.push_back(MakeFinding(RuleId::kSemLiveRows,
                                fmt::format("row {} is returned twice", r.key)));
      continue;
    }
    auto it = want.find(r.key);
    if (it == want.end()) {
      out.push_back(
          MakeFinding(RuleId::kSemLiveRows,
                      fmt::format("row {} is returned but is not live", r.key)));
      continue;
    }
    std::optional<Value> bound = BindRowForReading(r.values, schema.fields);
    if (!bound || !RowValuesEqual(*bound, it->second, schema.fields)) {
      const std::vector<std::string> unusual =
          SingleValuesWrittenWrong(r.values, it->second, schema.fields);
      if (!unusual.empty()) {
        out.push_back(MakeFinding(
            clauses::kIceSingleValueWrites,
            fmt::format("row {} is live with legal single values at a type extreme that "
                        "the scan wrote otherwise: {}",
                        r.key, fmt::join(unusual, "; "))));
        continue;
      }
      out.push_back(MakeFinding(RuleId::kSemLiveRows,
                                fmt::format("row {} has values {}, expected {}", r.key,
                                            ToString(r.values), ToString(it->second))));
    }
  }
  for (const auto& [key, values] : want) {
    if (!seen.count(key)) {
      out.push_back(
          MakeFinding(RuleId::kSemLiveRows,
                      fmt::format("live row {} is missing from the scan", key)));
    }
  }
}

void JudgeReaderStatuses(
    const std::map<ConstraintId, StatusSet>& want,
    const std::optional<std::map<ConstraintId, ConstraintStatus>>& got, Findings& out) {
  if (!got) {
    out.push_back(MakeFinding(clauses::kProtoAnswerCarries, "the answer carries no statuses"));
    return;
  }
  for (const auto& [id, allowed] : want) {
    auto it = got->find(id);
    if (it == got->end()) {
      out.push_back(MakeFinding(RuleId::kStReaderLookup,
                                fmt::format("no status for constraint {}", id), id));
      continue;
    }
    Require(out, allowed.Contains(it->second), RuleId::kStReaderLookup,
            fmt::format("constraint {} read as {}, expected {}", id, ToString(it->second),
                        ToString(allowed)),
            id);
  }
  for (const auto& [id, status] : *got) {
    Require(out, want.count(id) > 0, RuleId::kIdReadersTolerateMissing,
            fmt::format("a status for ID {}, which is not in constraints", id), id);
  }
}

/// parse-metadata: the reader's re-serialization of `want`. What it must keep of the
/// constraint fields is def.reader-preserves (CheckReaderPreserves, with the pointer of
/// what went missing); the format version, the current snapshot and every snapshot are
/// the protocol's convention (proto.answer: "answer it re-serialized").
void JudgeParsed(const TableMetadata& want, bool may_drop, const TableMetadata& got,
                 Findings& out) {
  Require(out, got.format_version == want.format_version, RuleId::kProtoAnswer,
          fmt::format("format-version {} re-serialized as {}", want.format_version,
                      got.format_version),
          std::nullopt, "/format-version");
  for (Finding& f : CheckReaderPreserves(want, got, may_drop)) out.push_back(std::move(f));
  const auto cur = [](const TableMetadata& m) {
    const Snapshot* s = m.CurrentSnapshot();
    return s ? std::optional<SnapshotId>(s->snapshot_id) : std::nullopt;
  };
  Require(out, cur(got) == cur(want), RuleId::kProtoAnswer,
          "re-serialized metadata has another current snapshot", std::nullopt,
          "/current-snapshot-id");
  for (size_t i = 0; i < want.snapshots.size(); ++i) {
    const Snapshot& s = want.snapshots[i];
    Require(out, got.FindSnapshot(s.snapshot_id) != nullptr, RuleId::kProtoAnswer,
            fmt::format("snapshot {} is missing", s.snapshot_id), std::nullopt,
            fmt::format("/snapshots/{}", i));
  }
}

}  // namespace internal

}  // namespace ictk
