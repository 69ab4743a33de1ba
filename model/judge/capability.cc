#include "model/judge/capability.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <functional>

namespace ictk {

const std::vector<CapabilityInfo>& CapabilityTable() {
  using C = Capability;
  static const std::vector<CapabilityInfo> kTable = {
      {C::kCheck, "check", "add-constraint"},
      {C::kUnique, "unique", "add-constraint"},
      {C::kPrimaryKey, "primary-key", "add-constraint"},
      {C::kNestedKeys, "nested-keys", ""},
      {C::kUpgrade, "upgrade", "upgrade"},
      {C::kSchemaEvolution, "schema-evolution", "update-schema"},
      {C::kModifyRows, "modify-rows", ""},
      {C::kConcurrentCommits, "concurrent-commits", "begin"},
      {C::kValidate, "validate", "validate"},
      {C::kUdf, "udf", "define-function"},
      {C::kTransforms, "transforms", ""},
      {C::kReader, "reader", "read-statuses"},
      {C::kParseMetadata, "parse-metadata", "parse-metadata"},
  };
  return kTable;
}

std::string_view ToString(Capability capability) {
  for (const CapabilityInfo& c : CapabilityTable())
    if (c.id == capability) return c.name;
  return "?";
}

std::optional<Capability> ParseCapability(std::string_view name) {
  for (const CapabilityInfo& c : CapabilityTable())
    if (c.name == name) return c.id;
  return std::nullopt;
}

std::optional<Capability> CapabilityOfRule(RuleId rule) {
  using R = RuleId;
  switch (rule) {
    case R::kDefSinglePk:
    case R::kKeyPkRequired:
    case R::kSemPrimaryKey:
      return Capability::kPrimaryKey;
    case R::kKeyUniqueOptionalOk:
    case R::kSemUnique:
      return Capability::kUnique;
    case R::kSemCheck:
    case R::kExprIdReferences:
    case R::kExprRowLocal:
    case R::kExprNoListMapElement:
    case R::kExprWellTyped:
      return Capability::kCheck;
    case R::kEnfModifiedRow:
      return Capability::kModifyRows;
    case R::kEnfRetryEnforced:
    case R::kEnfRetryCheck:
    case R::kEnfRetryKeysNewParent:
    case R::kEnfRetryNewConstraints:
    case R::kEnfRetryRecomputeStatuses:
      return Capability::kConcurrentCommits;
    case R::kIdReadersTolerateMissing:
    case R::kUpgReadersIgnoreIdentifiers:
    case R::kStReaderLookup:
      return Capability::kReader;
    case R::kUpgPkFromIdentifiers:
    case R::kUpgSkipIneligible:
    case R::kUpgNoIdentifiersInV4:
      return Capability::kUpgrade;
    case R::kExprDeterministic:
    case R::kExprUdfStatus:
      return Capability::kUdf;
    case R::kSchRenameReorder:
    case R::kSchReferencedExist:
    case R::kSchRemoveReferenced:
    case R::kSchCheckNoTypeChange:
    case R::kSchKeyPromotionOk:
    case R::kSchPkStaysRequired:
    case R::kIceTypePromotion:
    case R::kIceRequiredNeedsDefault:
      return Capability::kSchemaEvolution;
    default:
      return std::nullopt;
  }
}

const std::vector<std::string_view>& ConstraintOpNames() {
  static const std::vector<std::string_view> kOps = {"add-constraint", "update-constraint",
                                                     "remove-constraint"};
  return kOps;
}

const std::vector<std::string_view>& ExpressionOperatorNames() {
  static const std::vector<std::string_view> kNames = [] {
    std::vector<std::string_view> names;
    for (int op = static_cast<int>(ExprOp::kTrue); op <= static_cast<int>(ExprOp::kNotIn);
         ++op)
      names.push_back(ExprOpName(static_cast<ExprOp>(op)));
    return names;
  }();
  return kNames;
}

namespace {

/// The names of `all` that `listed` holds (`in` true) or lacks, in the order of `all`.
std::vector<std::string_view> Filter(const std::vector<std::string_view>& all,
                                     const std::vector<std::string>& listed, bool in) {
  std::vector<std::string_view> out;
  for (std::string_view name : all)
    if ((std::find(listed.begin(), listed.end(), name) != listed.end()) == in)
      out.push_back(name);
  return out;
}

}  // namespace

std::string NarrowingText(const std::optional<std::vector<std::string>>& constraint_ops,
                          const std::optional<std::vector<std::string>>& operators) {
  std::vector<std::string> parts;
  if (constraint_ops && constraint_ops->size() < ConstraintOpNames().size()) {
    const std::vector<std::string_view> ops = Filter(ConstraintOpNames(), *constraint_ops, true);
    parts.push_back(ops.empty() ? std::string("no constraint op")
                                : fmt::format("{} only", fmt::join(ops, " + ")));
  }
  if (operators) {
    const std::vector<std::string_view> missing =
        Filter(ExpressionOperatorNames(), *operators, false);
    if (!missing.empty())
      parts.push_back(fmt::format("{} of {} operators: no {}",
                                  ExpressionOperatorNames().size() - missing.size(),
                                  ExpressionOperatorNames().size(), fmt::join(missing, ", ")));
  }
  return fmt::format("{}", fmt::join(parts, "; "));
}

std::set<std::string> OperatorsOf(const Expr& e) {
  std::set<std::string> out;
  const std::function<void(const Expr&)> walk = [&](const Expr& x) {
    if (x.op <= ExprOp::kNotIn) out.emplace(ExprOpName(x.op));
    for (const Expr& c : x.children) walk(c);
  };
  walk(e);
  return out;
}

std::optional<std::string_view> ConstraintOpOfRule(RuleId rule) {
  switch (rule) {
    case RuleId::kUpdNameEnforcedOnly:
    case RuleId::kUpdTimestamp:
    case RuleId::kUpdDefinitionImmutable:
      return ConstraintOpNames()[1];
    case RuleId::kIdNoReuse:
      return ConstraintOpNames()[2];
    default:
      return std::nullopt;
  }
}

}  // namespace ictk
