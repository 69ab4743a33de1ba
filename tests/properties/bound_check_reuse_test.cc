/// \file
/// Checks bound once (model/judge/table_state.h, BoundCheckOf): a check constraint's
/// binding is kept with its tally and reused by every commit, on the harness's side, in
/// the reference adapter and in the generators. Whether it is reused must decide nothing:
/// random histories certified with the reuse and without it give the same records and
/// failure fixtures (the sample and mutants of it, so that failing cases and shrinking are
/// compared too); tests/review/bound_check_reuse_test.cc compares the fingerprints.
#include <gtest/gtest.h>

#include <string>

#include "adapters/reference_adapter.h"
#include "codec/json_text.h"
#include "model/judge/table_state.h"
#include "properties/runner.h"
#include "sample/sample_adapter.h"
#include "tests/properties/session_test_util_internal.h"

namespace ictk {
namespace {

using nlohmann::json;

/// Restores the reuse however the test ends.
struct ReuseOff {
  ReuseOff() { SetBoundCheckReuse(false); }
  ~ReuseOff() { SetBoundCheckReuse(true); }
};

using testing_sessions::Comparable;

/// A session on the reference or on builtin:sample?`query`.
std::unique_ptr<AdapterSession> Open(const std::string& query) {
  return testing_sessions::Open([&]() -> std::unique_ptr<Adapter> {
    if (query == "reference") return MakeReferenceAdapter();
    return testing_sessions::Sample(query);
  });
}

/// The records and fixtures of `cases` histories of up to `max_steps` steps.
std::vector<std::string> Certified(const std::string& query, int cases, int max_steps) {
  auto session = Open(query);
  CertifyOptions options;
  options.seed = 7;
  options.gen.max_steps = max_steps;
  options.shrink_budget = 40;
  std::vector<std::string> out;
  for (int64_t i = 0; i < cases; ++i) {
    const CaseResult r = CertifyCase(*session, i, options);
    out.push_back(DumpJson(Comparable(ToJson(r.record))));
    if (r.fixture) out.push_back(DumpJson(r.fixture->content));
  }
  return out;
}

TEST(BoundCheckReuse, CertifiesTheSameWithAndWithoutIt) {
  for (const std::string query :
       {"reference", "", "mutant=bucket-wrong-hash", "mutant=udf-check-keeps-valid"}) {
    const std::vector<std::string> reused = Certified(query, 25, 60);
    std::vector<std::string> bound_anew;
    {
      ReuseOff off;
      bound_anew = Certified(query, 25, 60);
    }
    ASSERT_EQ(reused.size(), bound_anew.size()) << query;
    // A mutant fails some case: the failing path (blame, shrinking, fixture) is compared.
    if (query.rfind("mutant=", 0) == 0) EXPECT_GT(reused.size(), 25u) << query;
    for (size_t i = 0; i < reused.size(); ++i)
      EXPECT_EQ(reused[i], bound_anew[i]) << query << " record " << i;
  }
}

}  // namespace
}  // namespace ictk
