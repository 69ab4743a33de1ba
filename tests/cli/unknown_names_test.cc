/// \file
/// Unknown names are usage errors everywhere (docs/robustness.md): a mutant, a switch
/// name or value, a --weights step kind, a sample style, profile or query key, on every
/// command and on `ictk-sample-adapter`, ends with exit 2 and an error that lists the
/// known names (never an empty run such as `0/0 killed`, exit 0).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "tests/cli/cli_support_internal.h"

namespace ictk {
namespace {

using testing::CommandResult;
using testing::RunIctk;

/// Runs `build/bin/ictk-sample-adapter ARGS` with no input (so a valid command line just
/// reads nothing and exits 0).
CommandResult RunSampleAdapter(const std::string& args) {
  const std::string cmd = std::string("'") + ICTK_BIN_DIR + "/ictk-sample-adapter' " +
                          args + " </dev/null 2>&1";
  CommandResult r;
  FILE* p = popen(cmd.c_str(), "r");
  if (!p) return r;
  char buf[4096];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, p)) > 0) r.out.append(buf, n);
  const int status = pclose(p);
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return r;
}

/// Exit 2, the unknown name quoted, and `known` (real names of the list) in the error.
void ExpectRefusedWithList(const CommandResult& r, const std::string& unknown,
                           const std::vector<std::string>& known) {
  EXPECT_EQ(r.exit_code, 2) << r.out;
  EXPECT_NE(r.out.find(unknown), std::string::npos) << r.out;
  for (const std::string& k : known)
    EXPECT_NE(r.out.find(k), std::string::npos)
        << "the list lacks " << k << ": " << r.out;
  EXPECT_EQ(r.out.find("killed"), std::string::npos) << "a run took place: " << r.out;
}

const std::vector<std::string> kSomeMutants = {"reuse-removed-id", "id-not-above-last"};

TEST(UnknownNames, MutationScoreMutant) {
  const CommandResult r =
      RunIctk("certify --mutation-score --mutant NO-SUCH-NAME --histories 1 --out ''");
  ExpectRefusedWithList(r, "NO-SUCH-NAME", kSomeMutants);
}

TEST(UnknownNames, MutantWithoutMutationScoreIsRefused) {
  const CommandResult r = RunIctk(
      "certify --adapter builtin:reference --mutant reuse-removed-id --histories 1 "
      "--out ''");
  EXPECT_EQ(r.exit_code, 2) << r.out;
  EXPECT_NE(r.out.find("--mutation-score"), std::string::npos) << r.out;
}

TEST(UnknownNames, SampleQueryMutant) {
  for (const std::string& command :
       {std::string("certify --histories 1 --quiet --no-corpus --out ''"),
        std::string("validate-adapter"),
        std::string("replay fixtures/corpus/def.by-field-id")}) {
    SCOPED_TRACE(command);
    const CommandResult r = RunIctk(command + " --adapter 'builtin:sample?mutant=NOPE'");
    ExpectRefusedWithList(r, "NOPE", kSomeMutants);
  }
}

TEST(UnknownNames, SampleQueryStyleProfileAndKey) {
  ExpectRefusedWithList(RunIctk("validate-adapter --adapter 'builtin:sample?style=NOPE'"),
                        "NOPE", {"canonical", "divergent"});
  ExpectRefusedWithList(
      RunIctk("validate-adapter --adapter 'builtin:sample?profile=NOPE'"), "NOPE",
      {"writer", "v3-reader", "v4-reader"});
  ExpectRefusedWithList(RunIctk("validate-adapter --adapter 'builtin:sample?colour=red'"),
                        "colour", {"mutant", "style", "profile"});
}

TEST(UnknownNames, Switch) {
  ExpectRefusedWithList(
      RunIctk(
          "certify --adapter builtin:reference --switch no-such-switch=x --histories 1 "
          "--out ''"),
      "no-such-switch", {"invalid-metadata-on-read"});
  ExpectRefusedWithList(
      RunIctk(
          "certify --adapter builtin:reference --switch invalid-metadata-on-read=NOPE "
          "--histories 1 --out ''"),
      "NOPE", {"either", "reject"});
  ExpectRefusedWithList(
      RunIctk("replay --adapter builtin:reference --switch no-such-switch=x "
              "fixtures/corpus/def.by-field-id"),
      "no-such-switch", {"invalid-metadata-on-read"});
  ExpectRefusedWithList(RunIctk("--switch no-such-switch=x rules"), "no-such-switch",
                        {"invalid-metadata-on-read"});
  ExpectRefusedWithList(RunIctk("spec-diff --a no-such-switch=x --b "
                                "invalid-metadata-on-read=reject --histories 1 --out ''"),
                        "no-such-switch", {"invalid-metadata-on-read"});
}

TEST(UnknownNames, WeightsKind) {
  ExpectRefusedWithList(
      RunIctk(
          "certify --adapter builtin:reference --weights nope=3 --histories 1 --out ''"),
      "nope", {"append", "upgrade"});
  ExpectRefusedWithList(
      RunIctk("spec-diff --a invalid-metadata-on-read=either --b "
              "invalid-metadata-on-read=reject --weights nope=3 --histories 1 --out ''"),
      "nope", {"append", "upgrade"});
}

TEST(UnknownNames, SampleAdapterExecutable) {
  ExpectRefusedWithList(RunSampleAdapter("--mutant NOPE"), "NOPE", kSomeMutants);
  ExpectRefusedWithList(RunSampleAdapter("--style NOPE"), "NOPE",
                        {"canonical", "divergent"});
  ExpectRefusedWithList(RunSampleAdapter("--profile NOPE"), "NOPE",
                        {"writer", "v3-reader", "v4-reader"});
  // A known name is accepted (no input: it exits 0 at once).
  EXPECT_EQ(RunSampleAdapter("--mutant reuse-removed-id").exit_code, 0);
}

}  // namespace
}  // namespace ictk
