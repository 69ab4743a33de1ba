/// \file
/// The spec's "Upgrading identifier fields" rules (upg.*) that the definition rules do
/// not already hold (NoIdentifiersInV4Schema, EligiblePrimaryKey).
#pragma once

#include <optional>

#include "model/iceberg/constraint.h"
#include "model/iceberg/schema.h"
#include "model/iceberg/table_metadata.h"
#include "model/rules/ruling.h"

namespace ictk {

/// The primary key an upgrade to v4 creates from `schema`: "the identifier-field-ids of
/// the table's current schema are rewritten as a single primary-key constraint that is
/// not enforced ... its name is pk" (upg.pk-from-identifiers); its ID and timestamp are
/// the writer's (id.*, def.*). nullopt when there are none, or when "any of those fields
/// cannot be used in a primary-key constraint ... no constraint is created and the
/// upgrade continues without it" (upg.skip-ineligible), in which case `skipped` is set.
std::optional<Constraint> PrimaryKeyFromIdentifiers(const Schema& schema, bool& skipped);

/// "readers must ignore identifier-field-ids in a v4 table" (upg.readers-ignore-
/// identifiers): they neither make a reader refuse the metadata nor stand for a key; a
/// reason for a reader's success.
Rulings ReadersIgnoreIdentifiers(const TableMetadata& metadata);

}  // namespace ictk
