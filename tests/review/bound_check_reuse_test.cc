/// \file
/// Checks bound once (model/judge/table_state.h, BoundCheckOf): whether the bindings are
/// reused decides nothing, so the fingerprint of every short history is the same with
/// and without the reuse (tests/properties/bound_check_reuse_test.cc compares certified
/// records).
#include <gtest/gtest.h>

#include "codec/json_text.h"
#include "model/judge/table_state.h"
#include "review/fingerprint.h"

namespace ictk {
namespace {

using nlohmann::json;

TEST(BoundCheckReuseFingerprint, TheFingerprintIsTheSameWithAndWithoutIt) {
  const json reused = FingerprintToJson(ComputeFingerprint(3));
  SetBoundCheckReuse(false);
  const json bound_anew = FingerprintToJson(ComputeFingerprint(3));
  SetBoundCheckReuse(true);
  EXPECT_EQ(DumpJson(reused), DumpJson(bound_anew));
}

}  // namespace
}  // namespace ictk
