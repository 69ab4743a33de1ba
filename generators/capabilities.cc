/// \file
/// Capabilities (capabilities.h).
#include "generators/capabilities.h"

#include <algorithm>
#include <string>

namespace ictk {
namespace {

bool* Member(Capabilities& c, std::string_view name) {
  if (name == "check") return &c.check;
  if (name == "unique") return &c.unique;
  if (name == "primary-key") return &c.primary_key;
  if (name == "nested-keys") return &c.nested_keys;
  if (name == "upgrade") return &c.upgrade;
  if (name == "schema-evolution") return &c.schema_evolution;
  if (name == "modify-rows") return &c.modify_rows;
  if (name == "concurrent-commits") return &c.concurrent_commits;
  if (name == "validate") return &c.validate;
  if (name == "udf") return &c.udf;
  if (name == "transforms") return &c.transforms;
  if (name == "reader") return &c.reader;
  if (name == "parse-metadata") return &c.parse_metadata;
  return nullptr;
}

}  // namespace

const std::vector<std::string_view>& AllCapabilityNames() {
  static const std::vector<std::string_view> kNames = {
      "check",         "unique",
      "primary-key",   "nested-keys",
      "upgrade",       "schema-evolution",
      "modify-rows",   "concurrent-commits",
      "validate",      "udf",
      "transforms",    "reader",
      "parse-metadata"};
  return kNames;
}

Capabilities Capabilities::FromHello(const std::vector<std::string>& names,
                                     const std::vector<int32_t>& format_versions,
                                     std::string_view profile) {
  Capabilities c;
  c.writer = profile != "reader";
  for (std::string_view n : AllCapabilityNames()) *Member(c, n) = false;
  for (const std::string& n : names)
    if (bool* m = Member(c, n)) *m = true;
  c.format_versions = std::set<int32_t>(format_versions.begin(), format_versions.end());
  return c;
}

std::string Capabilities::ProfileName() const {
  std::string versions;
  if (format_versions.empty()) {
    versions = "no-version";
  } else {
    const int32_t lo = *format_versions.begin(), hi = *format_versions.rbegin();
    versions = lo == hi ? "v" + std::to_string(lo)
                        : "v" + std::to_string(lo) + "\u2013v" + std::to_string(hi);
  }
  return versions + (writer ? " writer" : " reader");
}

std::vector<std::string> Capabilities::Names() const {
  std::vector<std::string> out;
  for (std::string_view n : AllCapabilityNames())
    if (Has(n)) out.emplace_back(n);
  return out;
}

bool Capabilities::Has(std::string_view name) const {
  Capabilities copy = *this;
  bool* m = Member(copy, name);
  return m != nullptr && *m;
}

}  // namespace ictk
