/// \file
/// The rule catalogue's entries of the definition rules (def.*) and the key rules
/// (key.*).
#include "model/judge/rule_catalogue_internal.h"

namespace ictk {

namespace {

using B = Binds;
using R = RuleId;

}  // namespace

/// def.*: the definition of a constraint.
std::vector<RuleInfo> DefEntries() {
  return {
      {R::kDefV4Only,
       {},
       "Constraints are added in v4 and are not supported in v3 or earlier.",
       "no constraints, last-constraint-id or constraint-statuses in v1-v3 metadata; "
       "adding a constraint to a v1-v3 table is rejected; readers: switch "
       "v3-constraint-fields",
       B::kWriter,
       {"ConstraintsSupported"}},
      {R::kDefTypes,
       {},
       "Three constraint types are defined",
       "check, unique and primary-key; any other type is invalid",
       B::kMetadata,
       {"CheckDefTypes"}},
      {R::kDefByFieldId,
       {},
       "A constraint is stored separately from the table schema and must refer to "
       "fields by field ID.",
       "field-ids are field IDs; a check expression references fields by ID",
       B::kMetadata,
       {"CheckExprIdReferences"}},
      {R::kDefRequiredFields,
       {},
       "",
       "constraint-id (int), type, name, enforced (boolean) and timestamp-ms (long) are "
       "required (the field table)",
       B::kMetadata,
       {"CheckDefRequiredFields"}},
      {R::kDefIdUnique,
       {},
       "ID of the constraint; unique within the table",
       "constraint-id is unique within the table",
       B::kMetadata,
       {"CheckDefIdUnique"}},
      {R::kDefNameUnique,
       {},
       "A name for the constraint that is unique within the table. Names are for human "
       "consumption and must not be used to identify a constraint in metadata",
       "names are unique (switch name-case); metadata refers to constraints by ID",
       B::kMetadata,
       {"SameConstraintName"}},
      {R::kDefCheckExpression,
       {},
       "Required for a `check` constraint and must not be set for other types",
       "expression: required for check, absent otherwise",
       B::kMetadata,
       {"CheckDefCheckExpression"}},
      {R::kDefKeyFieldIds,
       {},
       "Must contain at least one field ID and no duplicates. Required for a `unique` "
       "or `primary-key` constraint and must not be set for a `check` constraint",
       "field-ids: non-empty, no duplicates, required for unique/primary-key, absent "
       "for check",
       B::kMetadata,
       {"CheckDefKeyFieldIds"}},
      {R::kDefTimestampInformational,
       {},
       "The timestamp is informational and must not be used to determine whether a "
       "constraint applies to a snapshot or whether it holds",
       "timestamp-ms never decides whether a constraint applies or holds (the judging "
       "functions take no timestamp)",
       B::kReader,
       {"AppliesToNewSnapshot"}},
      {R::kDefSinglePk,
       {},
       "A table may have at most one `primary-key` constraint.",
       "at most one primary-key constraint",
       B::kMetadata,
       {"CheckDefSinglePk"}},
      {R::kDefEvolveIndependently,
       {},
       "Constraints may evolve independently from the schema, being added, modified, or "
       "removed.",
       "informational",
       B::kInformational,
       {},
       true},
  };
}

/// key.*: the fields of a unique or primary key.
std::vector<RuleInfo> KeyEntries() {
  return {
      {R::kKeyPrimitiveOnly,
       {},
       "The `field-ids` of a `unique` or `primary-key` constraint must only reference "
       "primitive fields",
       "key fields are primitive (no struct, list, map, variant)",
       B::kMetadata,
       {"CheckKeyPrimitiveOnly"}},
      {R::kKeyNotInListMap,
       {},
       "must not reference fields within a `list` or a `map`",
       "key fields are not inside a list or map",
       B::kMetadata,
       {"CheckKeyNotInListMap"}},
      {R::kKeyNoFloatDouble,
       {},
       "Fields of type `float` or `double` must not be used.",
       "no float or double key fields",
       B::kMetadata,
       {"CheckKeyNoFloatDouble"}},
      {R::kKeyNoGeo,
       {},
       "Fields of type `geometry` or `geography` must not be used because Iceberg does "
       "not define equality for them.",
       "no geometry or geography key fields",
       B::kMetadata,
       {"CheckKeyNoGeo"}},
      {R::kKeyNoUnknown,
       {},
       "Fields of type `unknown` must not be used because their values are always null.",
       "no unknown key fields",
       B::kMetadata,
       {"CheckKeyNoUnknown"}},
      {R::kKeyPkRequired,
       {},
       "The fields of a `primary-key` constraint must be `required` and must not be "
       "nested in an optional struct",
       "primary-key fields are required and not under an optional struct",
       B::kMetadata,
       {"PrimaryKeyFieldRequired"}},
      {R::kKeyUniqueOptionalOk,
       {},
       "The fields of a `unique` constraint may be optional or nested in optional "
       "structs",
       "unique fields may be optional (nothing to reject)",
       B::kMetadata,
       {"CheckKeyPkRequired"}},
  };
}

}  // namespace ictk
