/// \file
/// def.reader-preserves: what a reader's re-serialization of the metadata it read must
/// keep. "Its definition is stored in table metadata. Each snapshot contains the
/// writer-reported status of each constraint that existed when the snapshot was
/// created": a reader that reads v4 metadata and writes it back without its
/// `constraints`, `last-constraint-id` or a snapshot's `constraint-statuses` erases them
/// from the table on its next commit. `parse-metadata` (docs/protocol.md section 4) is
/// judged with this one function; the fixture evaluator calls it too.
#pragma once

#include "model/rules/finding.h"
#include "model/iceberg/table_metadata.h"

namespace ictk {

/// The findings (def.reader-preserves, each with the JSON pointer into `read` of what
/// went missing or changed) of `written`, a reader's re-serialization of `read`.
/// Compared by meaning: constraints by `constraint-id` (type, name, enforced,
/// timestamp-ms, expression, field-ids as a set; order and duplicate identical entries do
/// not matter), `last-constraint-id` with absent as 0, each snapshot's status lists as
/// sets with an omitted list equal to an empty one. A constraint the reader adds is a
/// finding too. `may_drop_constraint_fields` (v1-v3 metadata whose constraint fields a
/// reader may ignore, switch v3-constraint-fields=either): each of `constraints`,
/// `last-constraint-id` and a snapshot's `constraint-statuses` may be absent from
/// `written`; one that is present is compared. Snapshots missing from `written` are not
/// this rule's (JudgeParsed files them under proto.answer).
Findings CheckReaderPreserves(const TableMetadata& read, const TableMetadata& written,
                              bool may_drop_constraint_fields = false);

}  // namespace ictk
