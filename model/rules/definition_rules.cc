#include "model/rules/definition_rules.h"
#include "model/rules/status_rules.h"

namespace ictk {

bool ConstraintsSupported(int32_t format_version) { return format_version >= 4; }

bool PrimaryKeyFieldRequired(const FieldLocation& loc) {
  return loc.field.required && !loc.under_optional_struct;
}

bool ReferencedFieldExists(const std::vector<NestedField>& fields, FieldId id) {
  return FindField(fields, id).has_value();
}

bool NoIdentifiersInV4Schema(int32_t format_version, const Schema& schema) {
  return format_version < 4 || !schema.identifier_field_ids ||
         schema.identifier_field_ids->empty();
}

bool TimestampMustBeUpdated(const Constraint& before, const Constraint& after) {
  return before.name != after.name || before.enforced != after.enforced;
}

bool AppliesToNewSnapshot(const Constraint& c) { return c.id.has_value(); }

bool DatedAfterSnapshot(const Constraint& c, int64_t snapshot_timestamp_ms) {
  return c.timestamp_ms && *c.timestamp_ms > snapshot_timestamp_ms;
}

bool TimestampWouldChangeReaderStatus(const Snapshot& snapshot, const Constraint& c) {
  const ConstraintStatuses* listed =
      snapshot.constraint_statuses ? &*snapshot.constraint_statuses : nullptr;
  return c.id && ReaderStatus(listed, *c.id) != ConstraintStatus::kUnvalidated &&
         DatedAfterSnapshot(c, snapshot.timestamp_ms);
}

}  // namespace ictk
