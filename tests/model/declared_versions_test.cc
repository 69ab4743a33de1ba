/// \file
/// proto.declared-versions: a request at a known format version the implementation did
/// not declare in `hello`'s `format-versions` may be refused with
/// unsupported-format-version (Switches::declared_format_versions); a version no format
/// defines must still be refused, and a declared one is judged as before.
#include <gtest/gtest.h>

#include "model/judge/operations.h"
#include "tests/model/operations_test_util_internal.h"

namespace ictk {
namespace {

using namespace ops_test;  // NOLINT

bool MayRefuseAsUnsupported(const AllowedOutcome& o) {
  return o.ok_allowed && o.reject_allowed &&
         o.reject_kinds.count(RejectKind::kUnsupportedFormatVersion) > 0;
}

bool NamesRule(const AllowedOutcome& o, RuleId rule) {
  for (const Finding& f : o.decided_by)
    if (f.rule == rule) return true;
  return false;
}

TEST(ProtoDeclaredVersions, CreateTableAtAnUndeclaredVersionMayBeRefused) {
  SCOPED_TRACE("proto.declared-versions");
  ModelSession m;
  EXPECT_TRUE(OnlyOk(m.Outcome(CreateTable{4, OrdersSchema()}, "a")));
  m.switches().declared_format_versions = {1, 2, 3};
  const AllowedOutcome v4 = m.Outcome(CreateTable{4, OrdersSchema()}, "a");
  EXPECT_TRUE(MayRefuseAsUnsupported(v4));
  EXPECT_TRUE(NamesRule(v4, RuleId::kProtoDeclaredVersions));
  EXPECT_TRUE(OnlyOk(m.Outcome(CreateTable{3, OrdersSchema()}, "a")));
  // Refusing a declared version is a failure.
  const AllowedOutcome v3 = m.Outcome(CreateTable{3, OrdersSchema()}, "a");
  EXPECT_FALSE(
      Judge(v3, Answer::Rejected(RejectKind::kUnsupportedFormatVersion)).empty());
  // A version no format defines must still be refused.
  EXPECT_TRUE(MustReject(m.Outcome(CreateTable{5, OrdersSchema()}, "a"),
                         RejectKind::kUnsupportedFormatVersion));
}

TEST(ProtoDeclaredVersions, UpgradeToAnUndeclaredVersionMayBeRefused) {
  SCOPED_TRACE("proto.declared-versions");
  ModelSession m;
  m.switches().declared_format_versions = {2, 3};
  m.Create(OrdersSchema(), 2);
  EXPECT_TRUE(OnlyOk(m.Outcome(Upgrade{3})));
  EXPECT_TRUE(MayRefuseAsUnsupported(m.Outcome(Upgrade{4})));
  EXPECT_TRUE(MustReject(m.Outcome(Upgrade{5}), RejectKind::kUnsupportedFormatVersion));
}

TEST(ProtoDeclaredVersions, AReaderMayRefuseMetadataOfAnUndeclaredVersion) {
  SCOPED_TRACE("proto.declared-versions");
  ModelSession writer;
  writer.Create();
  writer.Add(Pk("pk", true, {1}));
  const TableMetadata v4 = writer.metadata();
  ModelSession m;
  // Every version declared (the default): v4 metadata is read.
  EXPECT_TRUE(OnlyOk(m.Outcome(ParseMetadata{v4}, "")));
  EXPECT_TRUE(OnlyOk(m.Outcome(ReadStatuses{v4, std::nullopt}, "")));
  m.switches().declared_format_versions = {1, 2, 3};
  const AllowedOutcome parse = m.Outcome(ParseMetadata{v4}, "");
  EXPECT_TRUE(MayRefuseAsUnsupported(parse));
  EXPECT_TRUE(
      Judge(parse, Answer::Rejected(RejectKind::kUnsupportedFormatVersion))
          .empty());
  // Read anyway, it is judged as usual.
  EXPECT_TRUE(Judge(parse, Answer::Ok(v4)).empty());
  EXPECT_TRUE(MayRefuseAsUnsupported(m.Outcome(ReadStatuses{v4, std::nullopt}, "")));
  TableMetadata v9 = v4;
  v9.format_version = 9;
  EXPECT_TRUE(MustReject(m.Outcome(ParseMetadata{v9}, ""),
                         RejectKind::kUnsupportedFormatVersion));
}

}  // namespace
}  // namespace ictk
