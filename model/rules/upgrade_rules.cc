#include "model/rules/upgrade_rules.h"

#include "model/rules/constraint_rules.h"

namespace ictk {

std::optional<Constraint> PrimaryKeyFromIdentifiers(const Schema& schema, bool& skipped) {
  skipped = false;
  if (!schema.identifier_field_ids || schema.identifier_field_ids->empty())
    return std::nullopt;
  if (!EligiblePrimaryKey(*schema.identifier_field_ids, schema)) {
    skipped = true;
    return std::nullopt;
  }
  Constraint pk;
  pk.name = "pk";
  pk.type = ConstraintType::kPrimaryKey;
  pk.enforced = false;
  pk.field_ids = *schema.identifier_field_ids;
  return pk;
}

Rulings ReadersIgnoreIdentifiers(const TableMetadata& metadata) {
  if (metadata.format_version < 4) return {};
  for (const Schema& s : metadata.schemas) {
    if (s.identifier_field_ids && !s.identifier_field_ids->empty())
      return {MaySucceed(RuleFinding(RuleId::kUpgReadersIgnoreIdentifiers,
                                     "a v4 reader ignores identifier-field-ids"))};
  }
  return {};
}

}  // namespace ictk
