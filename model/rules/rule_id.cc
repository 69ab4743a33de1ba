#include "model/rules/rule_id.h"

namespace ictk {

std::string_view RuleIdName(RuleId id) {
  switch (id) {
    case RuleId::kDefV4Only: return "def.v4-only";
    case RuleId::kDefTypes: return "def.types";
    case RuleId::kDefByFieldId: return "def.by-field-id";
    case RuleId::kDefRequiredFields: return "def.required-fields";
    case RuleId::kDefIdUnique: return "def.id-unique";
    case RuleId::kDefNameUnique: return "def.name-unique";
    case RuleId::kDefCheckExpression: return "def.check-expression";
    case RuleId::kDefKeyFieldIds: return "def.key-field-ids";
    case RuleId::kDefTimestampInformational: return "def.timestamp-informational";
    case RuleId::kDefSinglePk: return "def.single-pk";
    case RuleId::kDefEvolveIndependently: return "def.evolve-independently";
    case RuleId::kKeyPrimitiveOnly: return "key.primitive-only";
    case RuleId::kKeyNotInListMap: return "key.not-in-list-map";
    case RuleId::kKeyNoFloatDouble: return "key.no-float-double";
    case RuleId::kKeyNoGeo: return "key.no-geo";
    case RuleId::kKeyNoUnknown: return "key.no-unknown";
    case RuleId::kKeyPkRequired: return "key.pk-required";
    case RuleId::kKeyUniqueOptionalOk: return "key.unique-optional-ok";
    case RuleId::kSemLiveRows: return "sem.live-rows";
    case RuleId::kSemCheck: return "sem.check";
    case RuleId::kSemUnique: return "sem.unique";
    case RuleId::kSemPrimaryKey: return "sem.primary-key";
    case RuleId::kEnfEnforced: return "enf.enforced";
    case RuleId::kEnfNotEnforced: return "enf.not-enforced";
    case RuleId::kEnfModifiedRow: return "enf.modified-row";
    case RuleId::kEnfKeysAgainstRemaining: return "enf.keys-against-remaining";
    case RuleId::kEnfRetryEnforced: return "enf.retry-enforced";
    case RuleId::kEnfRetryCheck: return "enf.retry-check";
    case RuleId::kEnfRetryKeysNewParent: return "enf.retry-keys-new-parent";
    case RuleId::kEnfRetryNewConstraints: return "enf.retry-new-constraints";
    case RuleId::kEnfRetryRecomputeStatuses: return "enf.retry-recompute-statuses";
    case RuleId::kEnfUntrusted: return "enf.untrusted";
    case RuleId::kIdLastDefaultZero: return "id.last-default-zero";
    case RuleId::kIdAboveLast: return "id.above-last";
    case RuleId::kIdUpdateLast: return "id.update-last";
    case RuleId::kIdNoReuse: return "id.no-reuse";
    case RuleId::kIdReadersTolerateMissing: return "id.readers-tolerate-missing";
    case RuleId::kUpgPkFromIdentifiers: return "upg.pk-from-identifiers";
    case RuleId::kUpgSkipIneligible: return "upg.skip-ineligible";
    case RuleId::kUpgNoIdentifiersInV4: return "upg.no-identifiers-in-v4";
    case RuleId::kUpgReadersIgnoreIdentifiers: return "upg.readers-ignore-identifiers";
    case RuleId::kExprIdReferences: return "expr.id-references";
    case RuleId::kExprRowLocal: return "expr.row-local";
    case RuleId::kExprNoListMapElement: return "expr.no-list-map-element";
    case RuleId::kExprDeterministic: return "expr.deterministic";
    case RuleId::kExprUdfStatus: return "expr.udf-status";
    case RuleId::kSchRenameReorder: return "sch.rename-reorder";
    case RuleId::kSchReferencedExist: return "sch.referenced-exist";
    case RuleId::kSchRemoveReferenced: return "sch.remove-referenced";
    case RuleId::kSchCheckNoTypeChange: return "sch.check-no-type-change";
    case RuleId::kSchKeyPromotionOk: return "sch.key-promotion-ok";
    case RuleId::kSchPkStaysRequired: return "sch.pk-stays-required";
    case RuleId::kUpdNameEnforcedOnly: return "upd.name-enforced-only";
    case RuleId::kUpdTimestamp: return "upd.timestamp";
    case RuleId::kUpdDefinitionImmutable: return "upd.definition-immutable";
    case RuleId::kStValidated: return "st.validated";
    case RuleId::kStValid: return "st.valid";
    case RuleId::kStInvalid: return "st.invalid";
    case RuleId::kStUnvalidated: return "st.unvalidated";
    case RuleId::kStExactlyOneList: return "st.exactly-one-list";
    case RuleId::kStSound: return "st.sound";
    case RuleId::kStEnforcementSeparate: return "st.enforcement-separate";
    case RuleId::kStEverySnapshot: return "st.every-snapshot";
    case RuleId::kStReaderLookup: return "st.reader-lookup";
    case RuleId::kStNoAddCarry: return "st.no-add-carry";
    case RuleId::kIceV4SnapshotTimestamps: return "ice.v4-snapshot-timestamps";
    case RuleId::kIceFormatVersionUp: return "ice.format-version-up";
    case RuleId::kIceTypePromotion: return "ice.type-promotion";
    case RuleId::kIceFieldIdsUnique: return "ice.field-ids-unique";
    case RuleId::kIceUnknownOptional: return "ice.unknown-optional";
    case RuleId::kIceRequiredNeedsDefault: return "ice.required-needs-default";
    case RuleId::kExprWellTyped: return "expr.well-typed";
    case RuleId::kProtoRequest: return "proto.request";
    case RuleId::kProtoAnswer: return "proto.answer";
    case RuleId::kIceSchemaEvolution: return "ice.schema-evolution";
    case RuleId::kIceFormatVersionKnown: return "ice.format-version-known";
    case RuleId::kIceMetadataRequired: return "ice.metadata-required";
    case RuleId::kIceTableUuid: return "ice.table-uuid";
    case RuleId::kIceFieldsByVersion: return "ice.fields-by-version";
    case RuleId::kIceTypesByVersion: return "ice.types-by-version";
    case RuleId::kIceIdentifierFields: return "ice.identifier-fields";
    case RuleId::kIceCurrentSchemaExists: return "ice.current-schema-exists";
    case RuleId::kIceDefaultSpecExists: return "ice.default-spec-exists";
    case RuleId::kIceDefaultSortOrderExists: return "ice.default-sort-order-exists";
    case RuleId::kIceSortOrderZeroUnsorted: return "ice.sort-order-zero-unsorted";
    case RuleId::kIceCurrentSnapshotExists: return "ice.current-snapshot-exists";
    case RuleId::kIceRefsSnapshotExist: return "ice.refs-snapshot-exist";
    case RuleId::kIceCurrentSnapshotMain: return "ice.current-snapshot-main";
    case RuleId::kIceSequenceNumberBound: return "ice.sequence-number-bound";
    case RuleId::kProtoRejectionConstraintIds: return "proto.rejection-constraint-ids";
    case RuleId::kIceSingleValue: return "ice.single-value";
    case RuleId::kProtoTimestampFromNow: return "proto.timestamp-from-now";
    case RuleId::kProtoDeclaredVersions: return "proto.declared-versions";
    case RuleId::kDefReaderPreserves: return "def.reader-preserves";
    case RuleId::kIceMetadataShape: return "ice.metadata-shape";
  }
  return "?";
}

std::optional<RuleId> ParseRuleId(std::string_view name) {
  for (RuleId id : kAllRuleIds)
    if (RuleIdName(id) == name) return id;
  return std::nullopt;
}

}  // namespace ictk
