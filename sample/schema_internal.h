/// \file
/// The sample's schema knowledge (independent of model/iceberg/schema.h): an index of every field
/// ID of a schema with where it sits (its struct path, whether it is inside a list or a
/// map, whether an enclosing struct is optional), Iceberg's schema validity by format
/// version, key-field eligibility, and type promotion.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "model/iceberg/types.h"

namespace ictk::sample {

/// Where one field ID sits in a schema. `field` is null for list elements and map
/// keys/values (which are types, not named fields).
struct FieldSlot {
  FieldId id = 0;
  const Type* type = nullptr;
  const NestedField* field = nullptr;
  bool required = false;
  /// Top-level-to-here struct field IDs; meaningful only when !in_repeated.
  std::vector<FieldId> path;
  bool in_repeated = false;        ///< a list element, a map key/value, or inside one
  bool in_map = false;             ///< a map key/value, or inside one
  bool optional_ancestor = false;  ///< some enclosing struct field is optional
  FieldId parent = 0;              ///< enclosing field ID (0 = top level)
};

/// Whether `t` is one of the spec's primitive types ("Primitive Types": boolean through
/// geography); variant and the nested struct, list and map are not.
bool IsPrimitiveType(TypeId t);

/// Every field ID of `fields`, recursively.
std::map<FieldId, FieldSlot> IndexFields(const std::vector<NestedField>& fields);

/// "" when `fields` is a valid Iceberg schema body for `format_version`: unique field IDs
/// (ice.field-ids-unique), unique sibling names, types known to the version, `unknown`
/// optional (ice.unknown-optional), defaults only in v3+, decimal precision <= 38.
/// Otherwise the problem.
/// `lenient` skips the checks two mutants ignore (v3-type-before-v3, sibling-name-reused).
struct SchemaLeniency {
  bool v3_types_anywhere = false;  ///< mutant v3-type-before-v3
  bool sibling_names_shared = false;  ///< mutant sibling-name-reused
};
std::string SchemaProblem(const std::vector<NestedField>& fields, int32_t format_version,
                          const SchemaLeniency& lenient = {});

/// The largest field ID in `fields` (element, key and value IDs included), or 0.
FieldId HighestFieldId(const std::vector<NestedField>& fields);

/// Why field `slot` cannot be a key field of a unique (or, when `primary_key`, a
/// primary-key) constraint, with the rule ID; empty strings when it can.
struct KeyFieldVerdict {
  std::string problem;
  std::string rule;
};
struct KeyFieldLeniency {
  bool float_ok = false;     ///< mutant float-key-accepted
  bool geo_ok = false;       ///< mutant geo-key-accepted
  bool optional_ok = false;  ///< mutant pk-allows-optional
  bool repeated_ok = false;  ///< mutant list-key-accepted (inside a list only)
  bool map_ok = false;                 ///< mutant map-key-accepted
  bool struct_ok = false;              ///< mutant struct-key-accepted
  bool collection_ok = false;          ///< mutant collection-key-accepted
  bool variant_ok = false;             ///< mutant variant-key-accepted
  bool double_ok = false;              ///< mutant double-key-accepted
  bool geography_ok = false;           ///< mutant geography-key-accepted
  bool unknown_ok = false;             ///< mutant unknown-key-accepted
  bool optional_parent_ok = false;     ///< mutant pk-allows-optional-parent
  bool unique_needs_required = false;  ///< mutant unique-rejects-optional
  bool unique_needs_required_parent = false;  ///< mutant unique-rejects-optional-parent
};
KeyFieldVerdict CheckKeyField(const FieldSlot& slot, bool primary_key,
                              const KeyFieldLeniency& leniency = {});

/// Whether identifier field `slot` is a valid v1-v3 identifier field (primitive, not
/// float/double, required, not in a list/map, not under an optional struct).
/// Each flag skips one clause of ice.identifier-fields (a mutant each).
struct IdentifierLeniency {
  bool non_primitive_ok = false;    ///< mutant non-primitive-identifier-accepted
  bool float_ok = false;            ///< mutant float-identifier-accepted
  bool optional_ok = false;         ///< mutant optional-identifier-accepted
  bool repeated_ok = false;         ///< mutant repeated-identifier-accepted
  bool optional_parent_ok = false;  ///< mutant identifier-under-optional-accepted
};
bool ValidIdentifierField(const FieldSlot& slot, const IdentifierLeniency& lenient = {});

/// Whether `from` may be promoted to `to` in `format_version` (Iceberg's table:
/// int->long, float->double, decimal precision widening, date->timestamp/timestamp_ns in
/// v3+, unknown->anything in v3+).
bool PromotionAllowed(const Type& from, const Type& to, int32_t format_version);

/// Structural type equality that ignores nested field IDs (for UDF parameter types).
bool SameTypeShape(const Type& a, const Type& b);

}  // namespace ictk::sample
