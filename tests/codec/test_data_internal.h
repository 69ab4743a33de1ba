/// \file
/// Test-only access to tests/data: reading files, the iceberg-real manifest (which names
/// the expected result of every file), and gtest-safe names for one test per data file.
#pragma once

#include <fstream>
#include <nlohmann/json.hpp>
#include <ostream>
#include <sstream>
#include <string>
#include <vector>

#include "codec/json_text.h"

namespace ictk::testing_data {

inline std::string DataPath(const std::string& relative) {
  return std::string(ICTK_TEST_DATA_DIR) + "/" + relative;
}

inline std::string ReadText(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

/// Parses a data file that is known to be JSON (aborts the test program otherwise).
inline nlohmann::json ReadJson(const std::string& relative) {
  auto j = ParseJsonText(ReadText(DataPath(relative)), relative);
  if (!j) return nlohmann::json();
  return *j;
}

/// One row of tests/data/iceberg-real/manifest.json.
struct ManifestEntry {
  std::string file;    ///< relative to iceberg-real/, e.g. "metadata/valid/x.json"
  std::string expect;  ///< "valid" | "invalid"
  std::string kind;    ///< "table-metadata", "expression", "schema", "field", "type", ...
  std::string what;
};

/// gtest prints the file, not the bytes.
inline void PrintTo(const ManifestEntry& e, std::ostream* os) { *os << e.file; }

inline std::vector<ManifestEntry> LoadManifest() {
  std::vector<ManifestEntry> out;
  nlohmann::json m = ReadJson("iceberg-real/manifest.json");
  if (!m.is_object() || !m.contains("files")) return out;
  for (const auto& f : m["files"]) {
    out.push_back({f.value("file", ""), f.value("expect", ""), f.value("kind", ""),
                   f.value("what", "")});
  }
  return out;
}

/// Entries whose file starts with `folder` ("metadata/", "expressions/", "schemas/").
inline std::vector<ManifestEntry> ManifestEntries(const std::string& folder) {
  std::vector<ManifestEntry> out;
  for (auto& e : LoadManifest())
    if (e.file.rfind(folder, 0) == 0) out.push_back(std::move(e));
  return out;
}

/// A gtest parameter name from a file name: letters and digits only.
inline std::string TestName(const std::string& file) {
  std::string base = file.substr(file.find_last_of('/') + 1);
  if (base.size() > 5 && base.substr(base.size() - 5) == ".json")
    base = base.substr(0, base.size() - 5);
  std::string out;
  for (char c : base) {
    const bool ok =
        (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
    out.push_back(ok ? c : '_');
  }
  if (file.find("/invalid/") != std::string::npos) out = "invalid_" + out;
  return out;
}

}  // namespace ictk::testing_data
