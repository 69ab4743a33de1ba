/// \file
/// The sample is an independent implementation: its core, libictk_sample_core, references
/// outside its own namespace only the printing of the model's plain data types
/// (ictk::model_types) — never the codec, nor the model's parsing, rule, evaluation,
/// comparison or judging code. The build graph enforces it (sample/CMakeLists.txt,
/// cmake/IctkLinkGraph.cmake; tests/sample/link_graph/); this scan of the built archive
/// with `nm` is a second line.
#include <gtest/gtest.h>

#include <cstdio>
#include <set>
#include <string>

namespace {

TEST(SampleIndependence, ReferencesOnlyThePrintingOfPlainTypes) {
  // The printing of the model's plain data types (ictk::model_types), nothing else.
  const std::set<std::string> allowed = {"ToString", "operator<<"};
  FILE* pipe = popen(
      (std::string("nm -C --undefined-only '") + ICTK_SAMPLE_ARCHIVE + "' 2>&1").c_str(),
      "r");
  ASSERT_NE(pipe, nullptr);
  std::string out;
  char buf[4096];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, pipe)) > 0) out.append(buf, n);
  ASSERT_EQ(pclose(pipe), 0) << out;
  size_t checked = 0;
  size_t pos = 0;
  while ((pos = out.find(" U ictk::", pos)) != std::string::npos) {
    pos += 9;
    const std::string rest = out.substr(pos, out.find('\n', pos) - pos);
    if (rest.rfind("sample::", 0) == 0) continue;
    std::string name = rest.substr(0, rest.find_first_of("(<["));
    if (rest.rfind("operator<<", 0) == 0) name = "operator<<";
    ++checked;
    EXPECT_EQ(allowed.count(name), 1u) << "the sample references ictk::" << rest;
  }
  EXPECT_GT(checked, 0u) << out.substr(0, 2000);
}

}  // namespace
