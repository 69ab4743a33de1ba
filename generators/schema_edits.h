/// \file
/// Edits of a generated schema, made by the minimizer (properties/minimize.h) and never
/// generated: a history is shrunk to the columns its steps need (drop a column), with
/// structs unnested (a struct column replaced by its fields) and types lowered to `int`.
/// A plan carries its edits (`TablePlan::schema_edits`); the renderer applies them to the
/// schema it generates from the plan's schema seed, so every step renders against the
/// edited schema (rows, keys, checks and schema changes alike).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "model/iceberg/types.h"

namespace ictk {

enum class SchemaEditKind {
  kDrop,    ///< remove the top-level column
  kUnnest,  ///< replace a struct column by its fields (named `<struct>_<field>`)
  kLower,   ///< give the column the type `int` (keeping whether it is required)
  /// Give every column a plain name, as a person would write the table (`column` is
  /// empty): identifier fields `id` (`id2`, ... when there are more), the other top-level
  /// columns `a`, `b`, `c`, ... in order, and the fields of a struct `a`, `b`, ... within
  /// it. The minimizer's last pass, so that a lowered column does not keep a generated
  /// name such as `dec_0` or `score` for an `int`.
  kPlainNames,
};

struct SchemaEdit {
  SchemaEditKind kind = SchemaEditKind::kDrop;
  std::string column;  ///< a top-level column name
  bool operator==(const SchemaEdit&) const = default;
};

/// "drop(name)", "unnest(s)", "lower(score)", "plain-names".
std::string ToString(const SchemaEdit& edit);

/// Whether `edit` changes `schema`: the column exists at the top level, is not and does
/// not contain an identifier field, and (unnest) is a struct or (lower) is not an `int`;
/// plain-names when some field's name is not already its plain name.
bool EditApplies(const Schema& schema, const SchemaEdit& edit);

/// Applies `edits` in order (one that does not apply changes nothing), then assigns
/// field IDs depth-first from 1 again and follows the identifier fields to their new IDs.
void ApplySchemaEdits(Schema& schema, const std::vector<SchemaEdit>& edits);

}  // namespace ictk
