/// \file
/// Capabilities (capabilities.h).
#include "model/judge/capability.h"
#include "generators/capabilities.h"

#include <algorithm>
#include <string>

namespace ictk {
namespace {

bool* Member(Capabilities& c, std::string_view name) {
  const std::optional<Capability> id = ParseCapability(name);
  if (!id) return nullptr;
  switch (*id) {
    case Capability::kCheck: return &c.check;
    case Capability::kUnique: return &c.unique;
    case Capability::kPrimaryKey: return &c.primary_key;
    case Capability::kNestedKeys: return &c.nested_keys;
    case Capability::kUpgrade: return &c.upgrade;
    case Capability::kSchemaEvolution: return &c.schema_evolution;
    case Capability::kModifyRows: return &c.modify_rows;
    case Capability::kConcurrentCommits: return &c.concurrent_commits;
    case Capability::kValidate: return &c.validate;
    case Capability::kUdf: return &c.udf;
    case Capability::kTransforms: return &c.transforms;
    case Capability::kReader: return &c.reader;
    case Capability::kParseMetadata: return &c.parse_metadata;
  }
  return nullptr;
}

}  // namespace

const std::vector<std::string_view>& AllCapabilityNames() {
  static const std::vector<std::string_view> kNames = [] {
    std::vector<std::string_view> names;
    for (const CapabilityInfo& c : CapabilityTable()) names.push_back(c.name);
    return names;
  }();
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

bool Capabilities::ConstraintsDeclared() const {
  return (check || unique || primary_key) && format_versions.count(4) > 0;
}

bool Capabilities::SendsConstraintOp(std::string_view op) const {
  return ConstraintsDeclared() && (!constraint_ops || constraint_ops->count(std::string(op)));
}

bool Capabilities::DeclaresOperators(const Expr& e) const {
  if (!expression_operators) return true;
  for (const std::string& op : OperatorsOf(e))
    if (!expression_operators->count(op)) return false;
  return true;
}

}  // namespace ictk
