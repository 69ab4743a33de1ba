/// \file
/// The clauses of the definition rules (def.*) and the key rules (key.*).
/// The scheme is rule_clauses.cc's.
#include "model/judge/rule_catalogue_internal.h"

namespace ictk {

namespace {

using R = RuleId;

using E = ExemptKind;

}  // namespace

/// The clauses of def.*.
std::vector<ClauseRow> DefClauses() {
  return {
      {R::kDefV4Only, "whole",
       "Constraints are added in v4 and are not supported in v3 or earlier.",
       "add-constraint/v3-table", ""},
      {R::kDefTypes, "whole", "Three constraint types are defined",
       "add-invalid-constraint/def.types", ""},
      {R::kDefByFieldId, "whole", "must refer to fields by field ID",
       "add-invalid-constraint/expr.id-references", "",
       {E::kInexpressible,
        "a request names key fields only by ID (field-ids), so the one way to refer to a "
        "field otherwise is a name in a check expression: expr.id-references/whole"}},
      {R::kDefRequiredFields, "name", "name", "add-invalid-constraint/def.required-fields/name",
       ""},
      {R::kDefRequiredFields, "enforced", "enforced (boolean)",
       "add-invalid-constraint/def.required-fields/enforced", ""},
      {R::kDefRequiredFields, "type", "type", "add-invalid-constraint/def.required-fields/type",
       ""},
      // Reader side: a strict reader (switch invalid-metadata-on-read=reject) must refuse
      // a stored constraint without constraint-id or timestamp-ms.
      {R::kDefRequiredFields, "stored-id-and-timestamp", "constraint-id (int)",
       "parse-metadata/constraint-without-id-or-timestamp", ""},
      {R::kDefIdUnique, "whole", "ID of the constraint; unique within the table",
       "parse-metadata/broken/def.id-unique", ""},
      {R::kDefNameUnique, "unique",
       "A name for the constraint that is unique within the table",
       "add-invalid-constraint/def.name-unique/unique", ""},
      {R::kDefNameUnique, "not-identifier",
       "must not be used to identify a constraint in metadata", "update-constraint/rename",
       ""},
      {R::kDefCheckExpression, "required-for-check", "Required for a `check` constraint",
       "add-invalid-constraint/def.check-expression/required-for-check", ""},
      {R::kDefCheckExpression, "absent-for-others", "must not be set for other types",
       "add-invalid-constraint/def.check-expression/absent-for-others", ""},
      {R::kDefKeyFieldIds, "at-least-one", "Must contain at least one field ID",
       "add-invalid-constraint/def.key-field-ids/at-least-one", ""},
      {R::kDefKeyFieldIds, "no-duplicates", "no duplicates",
       "add-invalid-constraint/def.key-field-ids/no-duplicates", ""},
      {R::kDefKeyFieldIds, "required-for-keys",
       "Required for a `unique` or `primary-key` constraint",
       "add-invalid-constraint/def.key-field-ids/required-for-keys", ""},
      {R::kDefKeyFieldIds, "absent-for-check", "must not be set for a `check` constraint",
       "add-invalid-constraint/def.key-field-ids/absent-for-check", ""},
      // A reader that takes a constraint dated after a snapshot as not applying to it
      // reads it unvalidated where the snapshot lists it (a knock-out, blame.h); a
      // writer's such bug shows in the statuses it records (st.valid/parent, ...).
      {R::kDefTimestampInformational, "applies",
       "must not be used to determine whether a constraint applies to a snapshot",
       "read-statuses/older-snapshot", ""},
      {R::kDefTimestampInformational, "holds", "or whether it holds",
       "update-constraint/rename", "",
       {E::kComposite,
        "a writer that decides by timestamp-ms whether a constraint holds can show it only "
        "in the statuses it records, which the judge checks against the rows: its mutants "
        "are those of st.validated/checked-holds, st.validated/carried, st.valid/parent "
        "and st.invalid/checked"}},
      {R::kDefSinglePk, "whole", "A table may have at most one `primary-key` constraint.",
       "add-invalid-constraint/def.single-pk", ""},
      {R::kDefEvolveIndependently, "whole",
       "Constraints may evolve independently from the schema", "", "", kInformational},
  };
}

/// The clauses of key.*.
std::vector<ClauseRow> KeyClauses() {
  return {
      {R::kKeyPrimitiveOnly, "struct", "no struct",
       "add-invalid-constraint/key.primitive-only/struct", ""},
      {R::kKeyPrimitiveOnly, "list-or-map", "list, map",
       "add-invalid-constraint/key.primitive-only/list-or-map", ""},
      {R::kKeyPrimitiveOnly, "variant", "variant",
       "add-invalid-constraint/key.primitive-only/variant", ""},
      {R::kKeyNotInListMap, "list", "within a `list`",
       "add-invalid-constraint/key.not-in-list-map/list", ""},
      {R::kKeyNotInListMap, "map", "a `map`", "add-invalid-constraint/key.not-in-list-map/map",
       ""},
      {R::kKeyNoFloatDouble, "float", "`float`",
       "add-invalid-constraint/key.no-float-double/float", ""},
      {R::kKeyNoFloatDouble, "double", "`double`",
       "add-invalid-constraint/key.no-float-double/double", ""},
      {R::kKeyNoGeo, "geometry", "`geometry`", "add-invalid-constraint/key.no-geo/geometry",
       ""},
      {R::kKeyNoGeo, "geography", "`geography`", "add-invalid-constraint/key.no-geo/geography",
       ""},
      {R::kKeyNoUnknown, "whole",
       "Fields of type `unknown` must not be used because their values are always null.",
       "add-invalid-constraint/key.no-unknown", ""},
      {R::kKeyPkRequired, "own-flag", "must be `required`",
       "add-invalid-constraint/key.pk-required/own-flag", ""},
      {R::kKeyPkRequired, "optional-parent", "must not be nested in an optional struct",
       "add-invalid-constraint/key.pk-required/optional-parent", ""},
      {R::kKeyUniqueOptionalOk, "own-flag", "may be optional", "add-constraint/unique", ""},
      {R::kKeyUniqueOptionalOk, "optional-parent", "nested in optional structs",
       "add-constraint/unique", ""},
  };
}

}  // namespace ictk
