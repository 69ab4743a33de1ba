/// \file
/// Table metadata compared by meaning: the lists whose order the spec gives no meaning may
/// come in any order, and an empty status list may be written or left out (docs/
/// writing-an-adapter.md, "The freedoms an implementation has").
#pragma once

#include "model/iceberg/table_metadata.h"

namespace ictk {

/// `metadata` with those lists in one canonical order: constraints by ID, a key's
/// `field-ids` sorted ("The set of field IDs"), snapshots by ID, each status list sorted
/// and an empty one left out ("A list with no constraints may be omitted").
TableMetadata NormalizedMetadata(TableMetadata metadata);

/// Whether `a` and `b` are the same metadata by meaning (NormalizedMetadata of both equal).
bool SameMetadataByMeaning(const TableMetadata& a, const TableMetadata& b);

}  // namespace ictk
