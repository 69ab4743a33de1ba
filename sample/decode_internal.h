/// \file
/// The sample's own decoding of the protocol's requests (docs/protocol.md, the request
/// schemas of docs/protocol/) into the model's plain request types (model/judge/requests.h
/// as data): types and schemas (the Iceberg spec, "Schemas"), check expressions (the
/// Iceberg expression JSON), constraints, table metadata, and every op a writer or a reader
/// is sent. Each part throws Malformed at the JSON pointer of what it cannot read.
#pragma once

#include <stdexcept>
#include <string>
#include <vector>

#include "model/iceberg/constraint.h"
#include "model/iceberg/expression.h"
#include "model/iceberg/table_metadata.h"
#include "model/iceberg/types.h"
#include "model/judge/requests.h"
#include "sample/wire_internal.h"

namespace ictk::sample {

/// A request whose `op` the protocol does not define.
class UnknownOp : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// A type: a primitive's name ("decimal(9, 2)", "fixed[16]", "geography(srid:4326)") or a
/// struct, list or map object.
Type DecodeType(const Slot& slot);
/// One struct field; defaults must be values of its type (a timestamptz with "+00:00").
NestedField DecodeField(const Slot& slot);
Schema DecodeSchema(const Slot& slot);

/// A check expression (a predicate), and a term as a UDF body that is not a predicate
/// gives it (a column name, a reference, an apply, a parameter).
Expr DecodePredicate(const Slot& slot);
Expr DecodeBodyTerm(const Slot& slot);

/// The JSON `type` of a predicate operator ("lt-eq", "not-in"), for messages too.
std::string_view OpText(ExprOp op);
/// Whether `op` is a predicate (true, false and the operators of OpText), not a term.
bool IsPredicateOp(ExprOp op);

/// A constraint as stored or as an add-constraint request gives it (members that are
/// absent stay absent, for the rules to judge).
Constraint DecodeConstraint(const Slot& slot);
/// Iceberg table metadata v1-v4 with the v4 constraint fields.
TableMetadata DecodeMetadata(const Slot& slot);

/// One request object (not `hello`): its op, table and `now-ms`. Throws UnknownOp for an
/// op the protocol does not have, Malformed for anything else it cannot read. A commit's
/// rows are read without a schema (the session types them against the table's).
Request DecodeRequest(const Slot& request);

/// A row `{"key": ..., "values": {...}}` typed by the top-level `fields` of a schema.
Row DecodeRow(const Slot& slot, const std::vector<NestedField>& fields);

/// `hello`'s `protocol-version`, when given (the `id` must be an integer).
std::optional<int32_t> DecodeHelloVersion(const Slot& request);

}  // namespace ictk::sample
