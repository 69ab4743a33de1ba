/// \file
/// The clauses a rule function names when it finds a rule broken (docs/rules.md "Blame
/// by the clause broken"). A rule of several clauses (def.key-field-ids: at least one,
/// no duplicates, required for keys, absent for a check) says in its finding which one
/// the request or answer breaks, so that a failure is filed under that clause and not
/// only under its rule. Each clause a predicate names is listed here once, by rule and
/// by its name in the catalogue (model/judge/rule_clauses*.cc); a test checks that every
/// one of them is a clause of the catalogue, and the compiler that no predicate names a
/// clause not listed.
#pragma once

#include <array>
#include <string_view>

#include "model/rules/rule_id.h"

namespace ictk {

/// One clause of a rule: the rule and the clause's name within it ("at-least-one").
struct Clause {
  RuleId rule;
  std::string_view name;
  constexpr bool operator==(const Clause&) const = default;
};

// X(constant, rule, name): every clause a predicate names, grouped by rule.
#define ICTK_NAMED_CLAUSES(X)                                                        \
  X(kDefRequiredName, kDefRequiredFields, "name")                                    \
  X(kDefRequiredEnforced, kDefRequiredFields, "enforced")                            \
  X(kDefRequiredType, kDefRequiredFields, "type")                                    \
  X(kDefRequiredStoredIdAndTimestamp, kDefRequiredFields, "stored-id-and-timestamp") \
  X(kDefNameUnique, kDefNameUnique, "unique")                                        \
  X(kDefNameNotIdentifier, kDefNameUnique, "not-identifier")                         \
  X(kDefTimestampApplies, kDefTimestampInformational, "applies")                     \
  X(kDefCheckExpressionRequired, kDefCheckExpression, "required-for-check")          \
  X(kDefCheckExpressionAbsent, kDefCheckExpression, "absent-for-others")             \
  X(kDefKeyFieldIdsAtLeastOne, kDefKeyFieldIds, "at-least-one")                      \
  X(kDefKeyFieldIdsNoDuplicates, kDefKeyFieldIds, "no-duplicates")                   \
  X(kDefKeyFieldIdsRequired, kDefKeyFieldIds, "required-for-keys")                   \
  X(kDefKeyFieldIdsAbsentForCheck, kDefKeyFieldIds, "absent-for-check")              \
  X(kKeyPrimitiveStruct, kKeyPrimitiveOnly, "struct")                                \
  X(kKeyPrimitiveListOrMap, kKeyPrimitiveOnly, "list-or-map")                        \
  X(kKeyPrimitiveVariant, kKeyPrimitiveOnly, "variant")                              \
  X(kKeyNotInList, kKeyNotInListMap, "list")                                         \
  X(kKeyNotInMap, kKeyNotInListMap, "map")                                           \
  X(kKeyNoFloat, kKeyNoFloatDouble, "float")                                         \
  X(kKeyNoDouble, kKeyNoFloatDouble, "double")                                       \
  X(kKeyNoGeometry, kKeyNoGeo, "geometry")                                           \
  X(kKeyNoGeography, kKeyNoGeo, "geography")                                         \
  X(kKeyPkOwnFlag, kKeyPkRequired, "own-flag")                                       \
  X(kKeyPkOptionalParent, kKeyPkRequired, "optional-parent")                         \
  X(kKeyUniqueOwnFlag, kKeyUniqueOptionalOk, "own-flag")                             \
  X(kKeyUniqueOptionalParent, kKeyUniqueOptionalOk, "optional-parent")                \
  X(kExprNoListElement, kExprNoListMapElement, "list")                               \
  X(kExprNoMapElement, kExprNoListMapElement, "map")                                 \
  X(kExprUdfNotValid, kExprUdfStatus, "not-valid")                                   \
  X(kExprUdfNoCarry, kExprUdfStatus, "no-carry")                                     \
  X(kSchRename, kSchRenameReorder, "rename")                                         \
  X(kSchReorder, kSchRenameReorder, "reorder")                                       \
  X(kSchRemoveRejected, kSchRemoveReferenced, "rejected")                            \
  X(kSchRemoveNested, kSchRemoveReferenced, "nested")                                \
  X(kSchRemoveUnlessRemoved, kSchRemoveReferenced, "unless-removed")                 \
  X(kSchPkOwnFlag, kSchPkStaysRequired, "own-flag")                                  \
  X(kSchPkOptionalParent, kSchPkStaysRequired, "optional-parent")                    \
  X(kUpdExpression, kUpdDefinitionImmutable, "expression")                           \
  X(kUpdFieldIds, kUpdDefinitionImmutable, "field-ids")                              \
  X(kUpgSinglePk, kUpgPkFromIdentifiers, "single-pk")                                \
  X(kUpgNotEnforced, kUpgPkFromIdentifiers, "not-enforced")                          \
  X(kUpgNoConstraint, kUpgSkipIneligible, "no-constraint")                           \
  X(kUpgContinues, kUpgSkipIneligible, "continues")                                  \
  X(kStValidatedCheckedHolds, kStValidated, "checked-holds")                         \
  X(kStValidatedCarried, kStValidated, "carried")                                    \
  X(kStValidParent, kStValid, "parent")                                              \
  X(kStValidAddsVerified, kStValid, "adds-verified")                                 \
  X(kStInvalidChecked, kStInvalid, "checked")                                        \
  X(kStInvalidCarried, kStInvalid, "carried")                                        \
  X(kStEveryExisting, kStExactlyOneList, "every-existing")                           \
  X(kStOneList, kStExactlyOneList, "one-list")                                       \
  X(kIceVersionUp, kIceFormatVersionUp, "up")                                        \
  X(kIceVersionKnownTarget, kIceFormatVersionUp, "known-target")                     \
  X(kIcePromotionLegalOnly, kIceTypePromotion, "legal-only")                         \
  X(kIcePromotionByVersion, kIceTypePromotion, "by-version")                         \
  X(kIceEvolutionExistingFields, kIceSchemaEvolution, "existing-fields")             \
  X(kIceEvolutionNewIdsAboveLast, kIceSchemaEvolution, "new-ids-above-last")         \
  X(kIceEvolutionUniqueSiblingNames, kIceSchemaEvolution, "unique-sibling-names")    \
  X(kIceEvolutionMovesAmongSiblings, kIceSchemaEvolution, "moves-among-siblings")    \
  X(kIceTableUuidIsUuid, kIceTableUuid, "is-uuid")                                   \
  X(kIceTableUuidIdentifies, kIceTableUuid, "identifies-the-table")                  \
  X(kIceV3Members, kIceFieldsByVersion, "v3-members")                                \
  X(kIceV1SequenceNumber, kIceFieldsByVersion, "v1-sequence-number")                 \
  X(kIceIdentifiersExist, kIceIdentifierFields, "exist")                             \
  X(kIceIdentifiersPrimitive, kIceIdentifierFields, "primitive")                     \
  X(kIceIdentifiersNotFloatDouble, kIceIdentifierFields, "not-float-double")         \
  X(kIceIdentifiersRequired, kIceIdentifierFields, "required")                       \
  X(kIceIdentifiersNotInListMap, kIceIdentifierFields, "not-in-list-map")            \
  X(kIceIdentifiersNotUnderOptional, kIceIdentifierFields, "not-under-optional-struct") \
  X(kIceSingleValueReads, kIceSingleValue, "reads")                                  \
  X(kIceSingleValueWrites, kIceSingleValue, "writes")                                \
  X(kProtoRequestMalformed, kProtoRequest, "malformed")                              \
  X(kProtoRequestUnknownTable, kProtoRequest, "unknown-table")                       \
  X(kProtoRequestUnknownConstraint, kProtoRequest, "unknown-constraint")             \
  X(kProtoRequestUnknownSnapshot, kProtoRequest, "unknown-snapshot")                 \
  X(kProtoAnswerCarries, kProtoAnswer, "carries-what-was-asked")                     \
  X(kProtoAnswerRejectedChangesNothing, kProtoAnswer, "rejected-changes-nothing")    \
  X(kProtoRejectionOnlyAbout, kProtoRejectionConstraintIds, "only-about")            \
  X(kProtoTimestampEvery, kProtoTimestampFromNow, "every-timestamp")                 \
  X(kProtoTimestampConstraint, kProtoTimestampFromNow, "constraint-added-or-updated")

namespace clauses {
#define ICTK_CLAUSE_CONSTANT(constant, rule, name) \
  inline constexpr Clause constant{RuleId::rule, name};
ICTK_NAMED_CLAUSES(ICTK_CLAUSE_CONSTANT)
#undef ICTK_CLAUSE_CONSTANT

/// Every clause above, in order.
inline constexpr auto kAll = [] {
#define ICTK_CLAUSE_ENTRY(constant, rule, name) Clause{RuleId::rule, name},
  return std::array{ICTK_NAMED_CLAUSES(ICTK_CLAUSE_ENTRY)};
#undef ICTK_CLAUSE_ENTRY
}();
}  // namespace clauses

}  // namespace ictk
