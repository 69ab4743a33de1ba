// What readers are fed (generators/reader_inputs.h): metadata the model writes, with
// constraints of every type and statuses in every list, removed IDs still listed,
// upgraded tables; v1-v3 metadata carrying v4-only keys; broken metadata the model lets a
// reader refuse but never requires it to accept or refuse... and every input survives the
// wire (RequestToJson / RequestFromJson) unchanged.
#include "generators/reader_inputs.h"

#include <gtest/gtest.h>

#include <map>
#include <set>

#include "codec/protocol.h"
#include "model/judge/operations.h"
#include "model/judge/table_state.h"

namespace ictk {
namespace {

PlanStep StepOf(uint64_t i) {
  PlanStep s;
  s.kind = StepKind::kParseMetadata;
  s.seed = 0x1234567ULL * (i + 1) ^ (i << 17);
  s.size = static_cast<int>((i * 37) % 101);
  s.flavour = static_cast<uint32_t>((i * 7919) % 840);
  s.pick = static_cast<uint32_t>((i * 104729) % 1000);
  return s;
}

bool Lists(const TableMetadata& md, ConstraintStatus st) {
  for (const Snapshot& s : md.snapshots)
    if (s.constraint_statuses && s.constraint_statuses->List(st) &&
        !s.constraint_statuses->List(st)->empty())
      return true;
  return false;
}

bool ListsMissingIds(const TableMetadata& md) {
  std::set<ConstraintId> present;
  for (const Constraint& c : ConstraintsOf(md)) present.insert(c.id.value_or(0));
  for (const Snapshot& s : md.snapshots)
    if (s.constraint_statuses)
      for (ConstraintStatus st : kAllStatuses)
        if (s.constraint_statuses->List(st))
          for (ConstraintId id : *s.constraint_statuses->List(st))
            if (!present.count(id)) return true;
  return false;
}

AllowedOutcome Outcome(const Operation& op, const Switches& switches = {}) {
  CatalogState state;
  return Apply(state, Request{"", 1, op}, switches);
}

TEST(ReaderInputs, ModelWrittenMetadataIsWhatV4WritersWrite) {
  std::set<ConstraintType> types;
  std::set<ConstraintStatus> statuses;
  int with_constraints = 0, missing_ids = 0, upgraded_pk = 0, old_identifiers = 0;
  const int n = 60;
  for (int i = 0; i < n; ++i) {
    const PlanStep s = StepOf(i);
    std::optional<TableMetadata> md = ModelWrittenMetadata(s.seed, s.size, 4, false, {});
    ASSERT_TRUE(md) << i;
    EXPECT_EQ(md->format_version, 4);
    if (!ConstraintsOf(*md).empty()) ++with_constraints;
    for (const Constraint& c : ConstraintsOf(*md))
      if (c.type) types.insert(*c.type);
    for (ConstraintStatus st : kAllStatuses)
      if (Lists(*md, st)) statuses.insert(st);
    if (ListsMissingIds(*md)) ++missing_ids;
    // What the reader must accept: as written, parse-metadata is ok only.
    const AllowedOutcome o = Outcome(ParseMetadata{*md});
    EXPECT_TRUE(o.ok_allowed && !o.reject_allowed) << i << ": " << ToString(o);
    std::optional<TableMetadata> up = ModelWrittenMetadata(s.seed, s.size, 4, true, {});
    if (!up) continue;
    EXPECT_EQ(up->format_version, 4);
    for (const Constraint& c : ConstraintsOf(*up))
      if (c.name == "pk" && c.type == ConstraintType::kPrimaryKey) ++upgraded_pk;
    for (const Schema& sc : up->schemas)
      if (sc.identifier_field_ids && !sc.identifier_field_ids->empty()) {
        ++old_identifiers;
        break;
      }
  }
  EXPECT_GE(with_constraints, n / 2);
  EXPECT_EQ(types.size(), 3u) << "check, unique and primary-key";
  EXPECT_EQ(statuses.size(), 4u) << "every status list";
  EXPECT_GT(missing_ids, 0) << "removed constraints' IDs still listed";
  EXPECT_GT(upgraded_pk, n / 4) << "upgraded tables carry their pk";
  EXPECT_GT(old_identifiers, n / 4) << "identifier fields left in old schemas";
}

TEST(ReaderInputs, EverySourceRendersAndSurvivesTheWire) {
  std::map<ReaderSource, int> sources;
  std::map<ReaderSource, int> must_accept;
  int v4_with_constraints = 0, parse = 0;
  for (int i = 0; i < 200; ++i) {
    const PlanStep s = StepOf(i);
    const bool parse_metadata = i % 2 == 0;
    const ReaderSource source =
        ChooseReaderSource(s, Capabilities::All(), /*have_own=*/false, parse_metadata);
    ASSERT_NE(source, ReaderSource::kOwn);
    std::optional<ReaderInput> in =
        MakeReaderInput(source, s, Capabilities::All(), {}, parse_metadata);
    ASSERT_TRUE(in) << i;
    ++sources[in->source];
    Operation op = parse_metadata ? Operation(ParseMetadata{in->metadata})
                                  : Operation(ReadStatuses{in->metadata, in->snapshot_id});
    const Request request{"", 1, op};
    Result<Request> back = RequestFromJson(RequestToJson(request));
    ASSERT_TRUE(back) << in->label << ": " << back.error().message;
    EXPECT_EQ(RequestToJson(*back), RequestToJson(request)) << in->label;
    const AllowedOutcome o = Outcome(op);
    // What the wire carries is what the model judged (e.g. a constraint's type text).
    EXPECT_EQ(ToString(Outcome(back->op)), ToString(o)) << in->label;
    if (const auto* p = std::get_if<ParseMetadata>(&back->op))
      for (size_t k = 0; k < ConstraintsOf(p->metadata).size(); ++k)
        EXPECT_EQ(ConstraintsOf(p->metadata)[k].type, ConstraintsOf(in->metadata)[k].type)
            << in->label;
    switch (in->source) {
      case ReaderSource::kModel:
      case ReaderSource::kModelUpgraded:
        EXPECT_TRUE(o.ok_allowed && !o.reject_allowed) << in->label << ": " << ToString(o);
        ++must_accept[in->source];
        break;
      case ReaderSource::kV3WithV4Keys: {
        EXPECT_LT(in->metadata.format_version, 4);
        EXPECT_TRUE(o.ok_allowed && o.reject_allowed) << in->label;
        Switches reject;
        reject.v3_constraint_fields = V3ConstraintFields::kReject;
        EXPECT_TRUE(Outcome(op, reject).must_reject()) << in->label;
        break;
      }
      case ReaderSource::kBrokenDefinition:
      case ReaderSource::kBrokenIceberg:
        if (in->aimed_at == RuleId::kIceFormatVersionKnown) {
          EXPECT_TRUE(o.must_reject()) << in->label;
          EXPECT_TRUE(o.reject_kinds.count(RejectKind::kUnsupportedFormatVersion));
          break;
        }
        EXPECT_TRUE(o.ok_allowed && o.reject_allowed) << in->label << ": " << ToString(o);
        EXPECT_TRUE(o.reject_kinds.count(RejectKind::kInvalidMetadata)) << in->label;
        break;
      case ReaderSource::kOwn:
        break;
    }
    if (parse_metadata) {
      ++parse;
      if (in->metadata.format_version == 4 && !ConstraintsOf(in->metadata).empty())
        ++v4_with_constraints;
    }
  }
  for (ReaderSource s :
       {ReaderSource::kModel, ReaderSource::kModelUpgraded, ReaderSource::kV3WithV4Keys,
        ReaderSource::kBrokenDefinition, ReaderSource::kBrokenIceberg})
    EXPECT_GT(sources[s], 0) << ToString(s);
  EXPECT_GT(v4_with_constraints, parse / 2) << "most parse-metadata requests carry constraints";
}

TEST(ReaderInputs, AV3ReaderIsSentOnlyTheVersionsItDeclared) {
  Capabilities v3 = Capabilities::All();
  v3.format_versions = {1, 2, 3};
  v3.writer = false;
  int with_keys = 0;
  for (int i = 0; i < 80; ++i) {
    const PlanStep s = StepOf(i);
    for (bool parse_metadata : {true, false}) {
      std::optional<ReaderInput> in = MakeReaderInput(
          ChooseReaderSource(s, v3, false, parse_metadata), s, v3, {}, parse_metadata);
      ASSERT_TRUE(in);
      EXPECT_LT(in->metadata.format_version, 4) << in->label;
      if (in->source == ReaderSource::kV3WithV4Keys) ++with_keys;
    }
  }
  EXPECT_GT(with_keys, 0);
}

TEST(ReaderInputs, ReadStatusesMeetsRealShapes) {
  std::set<std::string> labels;
  for (int i = 0; i < 120; ++i) {
    const PlanStep s = StepOf(i);
    std::optional<ReaderInput> in =
        MakeReaderInput(ReaderSource::kModel, s, Capabilities::All(), {}, false);
    ASSERT_TRUE(in);
    labels.insert(in->label);
    const AllowedOutcome o = Outcome(ReadStatuses{in->metadata, in->snapshot_id});
    EXPECT_TRUE(o.reader_statuses.has_value()) << in->label;
  }
  EXPECT_TRUE(labels.count("model-v4/current"));
  EXPECT_TRUE(labels.count("model-v4/older-snapshot"));
  EXPECT_TRUE(labels.count("model-v4/missing-constraint"));
}

}  // namespace
}  // namespace ictk
