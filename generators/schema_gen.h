/// \file
/// RapidCheck generators for Iceberg types and schemas of format versions 1-4
/// (SURROUNDINGS.md "Types and schema JSON"): every primitive type the version has,
/// nested structs (required and optional), lists and maps, and identifier fields,
/// eligible for a primary key or not (upg.pk-from-identifiers, upg.skip-ineligible).
/// Field IDs are assigned depth-first from 1, so a shrunk schema stays well-formed.
#pragma once

#include <rapidcheck.h>

#include <cstdint>
#include <vector>

#include "model/iceberg/types.h"

namespace ictk {

/// How identifier fields are set on a generated schema.
enum class IdentifierFields {
  kNone,        ///< no `identifier-field-ids`
  kEligible,    ///< fields a primary key may use (upg.pk-from-identifiers)
  kIneligible,  ///< valid identifier fields that a primary key may not use, e.g. a
                ///< required geometry field in v3 (upg.skip-ineligible)
  kAny,         ///< one of the three
};

struct SchemaGenOptions {
  int32_t format_version = 4;
  /// Columns beyond the four fixed ones (`id` long required, `qty` int optional, `name`
  /// string optional, `score` double optional) that every generated schema starts with,
  /// so that histories always have a key, a number, a string and a float to constrain.
  int max_extra_columns = 6;
  /// Nested structs, lists and maps among the extra columns.
  bool nested = true;
  IdentifierFields identifier_fields = IdentifierFields::kNone;
};

/// The primitive types of `format_version` (unknown, timestamp_ns, timestamptz_ns,
/// geometry and geography only in v3+).
std::vector<Type> PrimitiveTypes(int32_t format_version);

/// One primitive type of `format_version`, edges first (decimal(38, 38), decimal(38, 0),
/// fixed[1], fixed[16]).
rc::Gen<Type> GenPrimitiveType(int32_t format_version);

/// A schema (schema-id 0) for `options`.
rc::Gen<Schema> GenSchema(const SchemaGenOptions& options);

/// Assigns field IDs to every field of `fields` (including list element and map key/value
/// IDs) depth-first from `next_id`; returns the next free ID.
FieldId AssignFieldIds(std::vector<NestedField>& fields, FieldId next_id);

/// Whether a value can be generated for every required field of `fields` (a required
/// geometry or geography field has no Appendix D JSON form, so rows are not written).
bool RowsWritable(const std::vector<NestedField>& fields);

}  // namespace ictk
