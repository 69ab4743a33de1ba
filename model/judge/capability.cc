#include "model/judge/capability.h"

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

}  // namespace ictk
