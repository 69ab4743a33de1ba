/// \file
/// The capabilities an implementation declares in `hello` (docs/protocol.md section 2):
/// one enum, one table of their names and the request that exercises each, and the
/// capability each rule needs to be exercised. The codec (the names `hello` may carry),
/// the generators (what a history may send), the reports (what a run did not exercise,
/// and why) and the sample (what it declares) all read this table.
#pragma once

#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "model/iceberg/expression.h"
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

// --- finer declarations (docs/protocol.md section 9, "Finer declarations")

/// The constraint ops `hello`'s optional `constraint-ops` may list, in protocol order:
/// add-constraint, update-constraint, remove-constraint. Absent, an adapter declaring a
/// constraint type answers all three.
const std::vector<std::string_view>& ConstraintOpNames();

/// The check predicates `hello`'s optional `expression-operators` may list, by their JSON
/// `type` spelling ("true" ... "not-in", the order of ExprOp). Absent: every one.
const std::vector<std::string_view>& ExpressionOperatorNames();

/// The operator a declared `expression-operators` list must hold: the harness's check of
/// last resort, `<column> not-null`, which any table can carry.
inline constexpr std::string_view kRequiredOperator = "not-null";

/// `hello`'s finer declarations in words, "" when they narrow nothing: "add-constraint
/// only; 15 of 19 operators: no is-nan, not-nan, starts-with, not-starts-with".
std::string NarrowingText(const std::optional<std::vector<std::string>>& constraint_ops,
                          const std::optional<std::vector<std::string>>& operators);

/// The predicate operators `e` uses (terms, literals and function calls are not
/// operators), by their JSON spelling, sorted.
std::set<std::string> OperatorsOf(const Expr& e);

/// The constraint op a rule needs to be exercised at all (nullopt: none beyond its
/// capability): `upd.*` need update-constraint, id.no-reuse a removal.
std::optional<std::string_view> ConstraintOpOfRule(RuleId rule);

}  // namespace ictk
