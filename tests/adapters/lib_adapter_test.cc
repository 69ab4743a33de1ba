/// \file
/// The lib: transport, through the sample's shared library (libictk_sample_adapter.so)
/// when it is built (otherwise those tests are skipped), and its load-time checks.
#include <gtest/gtest.h>
#include <unistd.h>

#include "adapters/adapter.h"
#include "adapters/conformance.h"

namespace ictk {
namespace {

std::string SampleLibrary() {
  std::string path = std::string(ICTK_BIN_DIR) + "/../lib/libictk_sample_adapter.so";
  return ::access(path.c_str(), R_OK) == 0 ? path : std::string();
}

TEST(LibAdapter, SampleLibraryAnswersHello) {
  std::string lib = SampleLibrary();
  if (lib.empty()) GTEST_SKIP() << "libictk_sample_adapter.so is not built";
  auto a = MakeAdapter("lib:" + lib, {}, {});
  ASSERT_TRUE(a.has_value()) << a.error().message;
  EXPECT_EQ((*a)->Describe(), "lib:" + lib);
  auto r = (*a)->Call({{"id", 1}, {"op", "hello"}, {"protocol-version", 1}});
  ASSERT_TRUE(r.has_value()) << r.error().message;
  EXPECT_EQ((*r)["id"], 1);
  EXPECT_EQ((*r)["result"], "ok");
  EXPECT_EQ((*r)["protocol-version"], 1);
}

TEST(LibAdapter, SampleLibraryConforms) {
  std::string lib = SampleLibrary();
  if (lib.empty()) GTEST_SKIP() << "libictk_sample_adapter.so is not built";
  auto a = MakeAdapter("lib:" + lib, {}, {});
  ASSERT_TRUE(a.has_value()) << a.error().message;
  ConformanceReport report = RunConformanceSession(**a);
  EXPECT_TRUE(report.ok()) << FormatConformanceReport(report, true);
}

TEST(LibAdapter, MissingLibraryCannotLoad) {
  auto a = MakeAdapter("lib:/nonexistent/libnothing.so", {}, {});
  ASSERT_FALSE(a.has_value());
  EXPECT_EQ(a.error().kind, ErrorKind::kAdapter);
  EXPECT_NE(a.error().message.find("cannot load"), std::string::npos)
      << a.error().message;
}

TEST(LibAdapter, LibraryWithoutTheInitSymbolIsRefused) {
  // Any shared library that is not an adapter will do; the C math library is everywhere.
  std::string libm;
  for (const char* p :
       {"/lib/x86_64-linux-gnu/libm.so.6", "/usr/lib/x86_64-linux-gnu/libm.so.6",
        "/lib64/libm.so.6", "/usr/lib/libm.so.6", "/lib/libm.so.6"}) {
    if (::access(p, R_OK) == 0) {
      libm = p;
      break;
    }
  }
  if (libm.empty()) GTEST_SKIP() << "no libm.so.6 found to load";
  auto a = MakeAdapter("lib:" + libm, {}, {});
  ASSERT_FALSE(a.has_value());
  EXPECT_NE(a.error().message.find("does not export ictk_adapter_init"),
            std::string::npos)
      << a.error().message;
}

}  // namespace
}  // namespace ictk
