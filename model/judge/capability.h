/// \file
/// The capabilities an implementation declares in `hello` (docs/protocol.md section 2):
/// one enum, one table of their names and the request that exercises each, and the
/// capability each rule needs to be exercised. The codec (the names `hello` may carry),
/// the generators (what a history may send), the reports (what a run did not exercise,
/// and why) and the sample (what it declares) all read this table.
#pragma once

#include <optional>
#include <string_view>
#include <vector>

#include "model/rules/rule_id.h"

namespace ictk {

enum class Capability {
  kCheck,
  kUnique,
  kPrimaryKey,
  kNestedKeys,
  kUpgrade,
  kSchemaEvolution,
  kModifyRows,
  kConcurrentCommits,
  kValidate,
  kUdf,
  kTransforms,
  kReader,
  kParseMetadata,
};

struct CapabilityInfo {
  Capability id;
  std::string_view name;  ///< as `hello` spells it, e.g. "primary-key"
  /// The request whose sending shows the declared capability was exercised ("" for a
  /// capability no request of its own shows: nested-keys, modify-rows, transforms).
  std::string_view request_op;
};

/// Every capability, in the protocol's order.
const std::vector<CapabilityInfo>& CapabilityTable();

std::string_view ToString(Capability capability);
std::optional<Capability> ParseCapability(std::string_view name);

/// The capability an implementation must declare for `rule` to be exercised at all
/// (nullopt: every writer meets the rule). A retry rule needs concurrent commits (a
/// transaction), whatever its constraint kind.
std::optional<Capability> CapabilityOfRule(RuleId rule);

}  // namespace ictk
