/// \file
/// The JSON Schemas of docs/protocol/ and the C++ decoder (RequestFromJson,
/// HelloFromJson, ResponseForOpFromJson) agree on a corpus of good and bad messages
/// (tests/adapters/messages/{good,bad}/): every good message is valid to both, every bad
/// one invalid to both. The schema side runs Python's jsonschema (Debian's
/// python3-jsonschema) through tests/adapters/schema_agreement.py; without it the schema
/// half is skipped and the decoder half still runs.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include "codec/json_text.h"
#include "codec/protocol.h"
#include "tests/adapters/adapter_test_support_internal.h"

namespace ictk {
namespace {

namespace fs = std::filesystem;
using testing_support::Python;
using testing_support::ShellQuote;

const fs::path kMessages = fs::path(ICTK_SOURCE_DIR) / "tests/adapters/messages";
const fs::path kSchemas = fs::path(ICTK_SOURCE_DIR) / "docs/protocol";

std::vector<fs::path> Files(const std::string& sub) {
  std::vector<fs::path> out;
  for (const auto& e : fs::directory_iterator(kMessages / sub))
    if (e.path().extension() == ".json") out.push_back(e.path());
  std::sort(out.begin(), out.end());
  return out;
}

/// "" when the C++ decoder accepts the message, else its error.
std::string DecoderVerdict(const fs::path& file) {
  std::ifstream in(file);
  std::stringstream text;
  text << in.rdbuf();
  auto j = ParseJsonText(text.str(), file.filename().string());
  if (!j) return j.error().message;
  std::string name = file.filename().string();
  if (name.rfind("request.", 0) == 0) {
    if (RequestOpName(*j) == "hello") {
      auto h = HelloFromJson(*j);
      return h ? "" : h.error().message;
    }
    auto r = RequestFromJson(*j);
    return r ? "" : r.error().message;
  }
  // response.<op>.<name>.json
  size_t a = name.find('.'), b = name.find('.', a + 1);
  std::string op = name.substr(a + 1, b - a - 1);
  auto r = ResponseForOpFromJson(op, *j);
  return r ? "" : r.error().message;
}

TEST(ProtoSchemaAgreement, DecoderAcceptsEveryGoodMessage) {
  SCOPED_TRACE("proto.request / proto.answer: the decoder and the schemas agree");
  auto files = Files("good");
  ASSERT_GT(files.size(), 30u);
  for (const auto& f : files) {
    EXPECT_EQ(DecoderVerdict(f), "") << f.filename();
  }
}

TEST(ProtoSchemaAgreement, DecoderRejectsEveryBadMessage) {
  auto files = Files("bad");
  ASSERT_GT(files.size(), 30u);
  for (const auto& f : files) {
    EXPECT_NE(DecoderVerdict(f), "") << f.filename() << " was accepted";
  }
}

TEST(ProtoSchemaAgreement, JsonSchemaAgreesWithTheDecoder) {
  std::string python = Python();
  if (std::system((ShellQuote(python) + " -c 'import jsonschema' 2>/dev/null").c_str()) !=
      0) {
    GTEST_SKIP() << "python3-jsonschema is not installed; only the decoder half ran";
  }
  std::string script =
      std::string(ICTK_SOURCE_DIR) + "/tests/adapters/schema_agreement.py";
  fs::path out = fs::temp_directory_path() /
                 ("ictk_schema_agreement_" + std::to_string(::getpid()) + ".txt");
  std::string cmd =
      ShellQuote(python) + " " + ShellQuote(script) + " " + ShellQuote(kSchemas.string());
  std::map<std::string, bool> expected_valid;
  for (const std::string sub : {"good", "bad"}) {
    for (const auto& f : Files(sub)) {
      cmd += " " + ShellQuote(f.string());
      expected_valid[f.filename().string()] = sub == "good";
    }
  }
  cmd += " > " + ShellQuote(out.string());
  ASSERT_EQ(std::system(cmd.c_str()), 0) << cmd;
  std::ifstream in(out);
  std::string line;
  size_t seen = 0;
  while (std::getline(in, line)) {
    std::istringstream fields(line);
    std::string name, verdict, why;
    std::getline(fields, name, '\t');
    std::getline(fields, verdict, '\t');
    std::getline(fields, why);
    ASSERT_TRUE(expected_valid.count(name)) << line;
    ++seen;
    bool schema_valid = verdict == "valid";
    EXPECT_EQ(schema_valid, expected_valid[name])
        << name << ": the schema says " << verdict << " " << why;
    std::string decoder =
        DecoderVerdict(kMessages / (expected_valid[name] ? "good" : "bad") / name);
    EXPECT_EQ(schema_valid, decoder.empty())
        << name << ": schema " << verdict << " " << why
        << "; decoder: " << (decoder.empty() ? "valid" : decoder);
  }
  fs::remove(out);
  EXPECT_EQ(seen, expected_valid.size());
}

}  // namespace
}  // namespace ictk
