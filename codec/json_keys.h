/// \file
/// The kebab-case JSON member names of Iceberg metadata, schemas, expressions,
/// constraints and rows. Kebab-case keys appear only here (STYLE.md).
#pragma once

#include <string_view>

namespace ictk::keys {

// Table metadata (SURROUNDINGS.md "Table metadata JSON").
inline constexpr std::string_view kFormatVersion = "format-version";
inline constexpr std::string_view kTableUuid = "table-uuid";
inline constexpr std::string_view kLocation = "location";
inline constexpr std::string_view kLastSequenceNumber = "last-sequence-number";
inline constexpr std::string_view kLastUpdatedMs = "last-updated-ms";
inline constexpr std::string_view kLastColumnId = "last-column-id";
inline constexpr std::string_view kSchemas = "schemas";
inline constexpr std::string_view kSchema = "schema";  ///< v1
inline constexpr std::string_view kCurrentSchemaId = "current-schema-id";
inline constexpr std::string_view kPartitionSpecs = "partition-specs";
inline constexpr std::string_view kPartitionSpec = "partition-spec";  ///< v1
inline constexpr std::string_view kDefaultSpecId = "default-spec-id";
inline constexpr std::string_view kLastPartitionId = "last-partition-id";
inline constexpr std::string_view kSortOrders = "sort-orders";
inline constexpr std::string_view kDefaultSortOrderId = "default-sort-order-id";
inline constexpr std::string_view kNextRowId = "next-row-id";
inline constexpr std::string_view kProperties = "properties";
inline constexpr std::string_view kCurrentSnapshotId = "current-snapshot-id";
inline constexpr std::string_view kSnapshots = "snapshots";
inline constexpr std::string_view kRefs = "refs";
inline constexpr std::string_view kLastConstraintId = "last-constraint-id";
inline constexpr std::string_view kConstraints = "constraints";

// Partition specs and sort orders.
inline constexpr std::string_view kSpecId = "spec-id";
inline constexpr std::string_view kFields = "fields";
inline constexpr std::string_view kSourceId = "source-id";
inline constexpr std::string_view kSourceIds = "source-ids";
inline constexpr std::string_view kFieldId = "field-id";
inline constexpr std::string_view kTransform = "transform";
inline constexpr std::string_view kOrderId = "order-id";
inline constexpr std::string_view kDirection = "direction";
inline constexpr std::string_view kNullOrder = "null-order";

// Snapshots and refs.
inline constexpr std::string_view kSnapshotId = "snapshot-id";
inline constexpr std::string_view kParentSnapshotId = "parent-snapshot-id";
inline constexpr std::string_view kSequenceNumber = "sequence-number";
inline constexpr std::string_view kTimestampMs = "timestamp-ms";
inline constexpr std::string_view kSummary = "summary";
inline constexpr std::string_view kOperation = "operation";
inline constexpr std::string_view kSchemaId = "schema-id";
inline constexpr std::string_view kManifestList = "manifest-list";
inline constexpr std::string_view kFirstRowId = "first-row-id";
inline constexpr std::string_view kAddedRows = "added-rows";
inline constexpr std::string_view kConstraintStatuses = "constraint-statuses";
inline constexpr std::string_view kType = "type";

// Constraints (seed "Constraint Fields", "Constraint Validation").
inline constexpr std::string_view kConstraintId = "constraint-id";
inline constexpr std::string_view kName = "name";
inline constexpr std::string_view kEnforced = "enforced";
inline constexpr std::string_view kExpression = "expression";
inline constexpr std::string_view kFieldIds = "field-ids";
inline constexpr std::string_view kValidated = "validated";
inline constexpr std::string_view kValid = "valid";
inline constexpr std::string_view kInvalid = "invalid";
inline constexpr std::string_view kUnvalidated = "unvalidated";

// Schemas and types (SURROUNDINGS.md "Types and schema JSON").
inline constexpr std::string_view kIdentifierFieldIds = "identifier-field-ids";
inline constexpr std::string_view kId = "id";
inline constexpr std::string_view kRequired = "required";
inline constexpr std::string_view kDoc = "doc";
inline constexpr std::string_view kInitialDefault = "initial-default";
inline constexpr std::string_view kWriteDefault = "write-default";
inline constexpr std::string_view kElementId = "element-id";
inline constexpr std::string_view kElementRequired = "element-required";
inline constexpr std::string_view kElement = "element";
inline constexpr std::string_view kKeyId = "key-id";
inline constexpr std::string_view kKey = "key";
inline constexpr std::string_view kValueId = "value-id";
inline constexpr std::string_view kValueRequired = "value-required";
inline constexpr std::string_view kValue = "value";
inline constexpr std::string_view kStruct = "struct";
inline constexpr std::string_view kList = "list";
inline constexpr std::string_view kMap = "map";

// Expressions (SURROUNDINGS.md "Expressions JSON").
inline constexpr std::string_view kLeft = "left";
inline constexpr std::string_view kRight = "right";
inline constexpr std::string_view kChild = "child";
inline constexpr std::string_view kValues = "values";
inline constexpr std::string_view kTerm = "term";
inline constexpr std::string_view kDataType = "data-type";
inline constexpr std::string_view kFunction = "function";
inline constexpr std::string_view kArguments = "arguments";
inline constexpr std::string_view kCatalog = "catalog";
inline constexpr std::string_view kIdentifier = "identifier";
inline constexpr std::string_view kReference = "reference";
inline constexpr std::string_view kLiteral = "literal";
inline constexpr std::string_view kLiterals = "literals";
inline constexpr std::string_view kApply = "apply";
inline constexpr std::string_view kParameter = "parameter";
inline constexpr std::string_view kIcebergFunctions = "iceberg_functions";

// Values and rows (Appendix D; ARCHITECTURE.md row format).
inline constexpr std::string_view kKeys = "keys";
inline constexpr std::string_view kRowKey = "key";
inline constexpr std::string_view kRowValues = "values";

}  // namespace ictk::keys
