/// \file
/// The reader side through the model (model/judge/reader_ops.cc): read-statuses
/// (st.reader-lookup, id.readers-tolerate-missing, upg.readers-ignore-identifiers,
/// switch v3-constraint-fields) and parse-metadata.
#include <gtest/gtest.h>

#include "model/judge/operations.h"
#include "tests/model/operations_test_util_internal.h"

namespace ictk {
namespace {

using namespace ops_test;  // NOLINT


/// A v4 metadata with pk (1) and a check (2), one snapshot recording pk validated.
TableMetadata Sample() {
  ModelSession m;
  m.Create();
  m.Add(Pk("pk", true, {1}));
  m.Add(Check("qty_positive", false, PositiveOrNull(2)));
  m.Write(Append({Order("r1", 1, 5)}));
  TableMetadata md = m.metadata();
  ConstraintStatuses st;
  st.validated = std::vector<ConstraintId>{1};
  SetStatuses(md, st);
  return md;
}

Answer StatusAnswer(std::map<ConstraintId, ConstraintStatus> statuses) {
  Answer a;
  a.statuses = std::move(statuses);
  return a;
}

TEST(StReaderLookup, ListedStatusOtherwiseUnvalidated) {
  SCOPED_TRACE("st.reader-lookup");
  ModelSession m;
  AllowedOutcome o = m.Outcome(ReadStatuses{Sample(), std::nullopt}, "");
  ASSERT_TRUE(o.reader_statuses.has_value());
  EXPECT_TRUE(Judge(o, StatusAnswer({{1, kValidated}, {2, kUnvalidated}})).empty());
  EXPECT_TRUE(Names(Judge(o, StatusAnswer({{1, kValidated}, {2, kValidated}})),
                    RuleId::kStReaderLookup));
  EXPECT_TRUE(Names(Judge(o, StatusAnswer({{1, kValidated}})), RuleId::kStReaderLookup));
  // No snapshot: every constraint unvalidated.
  TableMetadata empty = Sample();
  empty.snapshots.clear();
  empty.current_snapshot_id.reset();
  empty.refs.clear();
  AllowedOutcome none = m.Outcome(ReadStatuses{empty, std::nullopt}, "");
  EXPECT_TRUE(Judge(none, StatusAnswer({{1, kUnvalidated}, {2, kUnvalidated}})).empty());
}

TEST(IdReadersTolerateMissing, ASnapshotMayListIdsThatAreGone) {
  SCOPED_TRACE("id.readers-tolerate-missing");
  TableMetadata md = Sample();
  md.snapshots.mutable_back().constraint_statuses->invalid = std::vector<ConstraintId>{7};
  ModelSession m;
  AllowedOutcome o = m.Outcome(ReadStatuses{md, std::nullopt}, "");
  EXPECT_TRUE(OnlyOk(o));
  EXPECT_TRUE(Decides(o, RuleId::kIdReadersTolerateMissing));
  EXPECT_TRUE(Judge(o, StatusAnswer({{1, kValidated}, {2, kUnvalidated}})).empty());
  EXPECT_TRUE(Names(Judge(o, Answer::Rejected(RejectKind::kInvalidMetadata)),
                    RuleId::kIdReadersTolerateMissing));
  EXPECT_TRUE(Names(Judge(o, StatusAnswer({{1, kValidated},
                                           {2, kUnvalidated},
                                           {7, ConstraintStatus::kInvalid}})),
                    RuleId::kIdReadersTolerateMissing));
  AllowedOutcome parse = m.Outcome(ParseMetadata{md}, "");
  EXPECT_TRUE(OnlyOk(parse)) << ToString(parse);
  EXPECT_TRUE(Judge(parse, Answer::Ok(md)).empty())
      << Describe(Judge(parse, Answer::Ok(md)));
}

TEST(UpgReadersIgnoreIdentifiers, IdentifierFieldsInV4DoNotMatter) {
  SCOPED_TRACE("upg.readers-ignore-identifiers");
  TableMetadata md = Sample();
  md.schemas[0].identifier_field_ids = std::vector<FieldId>{3};
  ModelSession m;
  AllowedOutcome o = m.Outcome(ReadStatuses{md, std::nullopt}, "");
  EXPECT_TRUE(OnlyOk(o));
  EXPECT_TRUE(Decides(o, RuleId::kUpgReadersIgnoreIdentifiers));
  EXPECT_TRUE(Judge(o, StatusAnswer({{1, kValidated}, {2, kUnvalidated}})).empty());
  AllowedOutcome parse = m.Outcome(ParseMetadata{md}, "");
  EXPECT_TRUE(parse.ok_allowed);
}

TEST(V3ConstraintFields, AReaderOfV3MetadataWithConstraintFields) {
  SCOPED_TRACE("def.v4-only, v3-constraint-fields");
  TableMetadata md = Sample();
  md.format_version = 3;
  ModelSession m;
  AllowedOutcome either = m.Outcome(ReadStatuses{md, std::nullopt}, "");
  EXPECT_TRUE(either.ok_allowed && either.reject_allowed);
  EXPECT_TRUE(Judge(either, StatusAnswer({})).empty()) << "ignored: no constraints";
  AllowedOutcome parse = m.Outcome(ParseMetadata{md}, "");
  TableMetadata dropped = md;
  dropped.constraints.reset();
  dropped.last_constraint_id.reset();
  for (size_t i = 0; i < dropped.snapshots.size(); ++i)
    dropped.snapshots.mutable_at(i).constraint_statuses.reset();
  EXPECT_TRUE(Judge(parse, Answer::Ok(dropped)).empty())
      << Describe(Judge(parse, Answer::Ok(dropped)));
  m.switches().v3_constraint_fields = V3ConstraintFields::kReject;
  EXPECT_TRUE(MustReject(m.Outcome(ReadStatuses{md, std::nullopt}, ""),
                         RejectKind::kInvalidMetadata));
}

TEST(ParseMetadata, UnknownVersionsAndBrokenDefinitions) {
  SCOPED_TRACE("parse-metadata");
  ModelSession m;
  TableMetadata md = Sample();
  AllowedOutcome ok = m.Outcome(ParseMetadata{md}, "");
  EXPECT_TRUE(OnlyOk(ok));
  TableMetadata other = md;
  other.constraints->front().enforced = false;
  EXPECT_TRUE(Names(Judge(ok, Answer::Ok(other)), RuleId::kDefReaderPreserves));
  TableMetadata v9 = md;
  v9.format_version = 9;
  EXPECT_TRUE(MustReject(m.Outcome(ParseMetadata{v9}, ""),
                         RejectKind::kUnsupportedFormatVersion));
  TableMetadata above = md;
  above.last_constraint_id = 1;  // constraint 2 is above it
  AllowedOutcome open = m.Outcome(ParseMetadata{above}, "");
  EXPECT_TRUE(open.ok_allowed && open.reject_allowed) << "open point: accept or reject";
}

}  // namespace
}  // namespace ictk
