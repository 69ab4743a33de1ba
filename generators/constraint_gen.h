/// \file
/// RapidCheck generators for constraint definitions as an `add-constraint` request gives
/// them (no `constraint-id`, no `timestamp-ms`): valid ones for a schema (checks whose
/// literals rows break often, unique and primary keys on eligible fields, nested keys,
/// transforms, UDF calls), and invalid ones aimed at exactly one rule each (a float key
/// field, two primary keys, a check with `field-ids`, a name-based reference, ...), so
/// that a rejection names the rule it was aimed at.
#pragma once

#include <rapidcheck.h>

#include <optional>
#include <string>
#include <vector>

#include "generators/capabilities.h"
#include "model/iceberg/constraint.h"
#include "model/iceberg/evaluate.h"
#include "model/rules/rule_id.h"
#include "model/iceberg/types.h"

namespace ictk {

/// What a constraint is generated against.
struct ConstraintGenContext {
  Schema schema;
  int32_t format_version = 4;
  Capabilities capabilities = Capabilities::All();
  std::vector<Constraint> existing;  ///< the table's constraints
  FunctionCatalog functions;         ///< the UDFs a check may call (this history's)
  std::string name;  ///< the name to give (fresh unless aimed at def.name-unique)
  /// Make a check that calls one of `functions` when one fits (expr.udf-status).
  bool prefer_udf_check = false;
};

/// A field a key constraint may use, and whether a primary key may use it.
struct KeyCandidate {
  FieldId id = 0;
  Type type;
  bool pk_eligible =
      false;            ///< required and not under an optional struct (key.pk-required)
  bool nested = false;  ///< inside a struct
  bool required = false;  ///< the field's own flag (pk_eligible also needs its structs)
};

/// Fields a `unique` (and, where pk_eligible, a `primary-key`) constraint may reference
/// in `schema` (key.*): primitive, not in a list or map, not float/double/geo/unknown;
/// nested ones only when `nested_keys`.
std::vector<KeyCandidate> KeyCandidates(const Schema& schema, bool nested_keys);

/// A valid constraint definition for `context` (type among the declared capabilities; at
/// most one primary key). nullopt-free: falls back to a check `id IS NOT NULL`.
rc::Gen<Constraint> GenValidConstraint(const ConstraintGenContext& context);

/// A valid check expression over `schema` (and the UDFs in `functions` when allowed).
rc::Gen<Expr> GenCheckExpression(const Schema& schema, const FunctionCatalog& functions,
                                 const Capabilities& capabilities);

/// The rules an invalid constraint can be aimed at in `context` (those the schema and
/// existing constraints make reachable).
std::vector<RuleId> InvalidConstraintTargets(const ConstraintGenContext& context);

/// An invalid definition aimed at `rule` (one of InvalidConstraintTargets), valid in
/// every other respect as far as the generator can make it; it breaks one of the rule's
/// reachable clauses, picked at random.
rc::Gen<Constraint> GenInvalidConstraint(const ConstraintGenContext& context,
                                         RuleId rule);

/// A clause an invalid constraint can break alone: its rule and its clause ID
/// ("key.pk-required/optional-parent", rule_catalogue.h).
struct InvalidTarget {
  RuleId rule;
  std::string clause;
};

/// The clauses an invalid constraint can break alone in `context` (those the schema and
/// the existing constraints make reachable), one entry per clause.
std::vector<InvalidTarget> InvalidConstraintClauses(const ConstraintGenContext& context);

/// An invalid definition that breaks `target.clause` alone.
rc::Gen<Constraint> GenInvalidConstraint(const ConstraintGenContext& context,
                                         const InvalidTarget& target);

/// A check that calls the UDF `function` (one int argument, returning boolean) on
/// `field`.
Expr UdfCheck(const std::string& function, FieldId field);

/// The body of a UDF `(x int) -> boolean` that is true when `x` is null or above
/// `threshold` (at or above it when `or_equal`). `threshold` is an int: whether a literal
/// outside the parameter's type binds is a question the seed leaves open
/// (docs/protocol.md, "Requests the generators keep out"), so no generated body asks it.
FunctionDefinition UdfGreaterThan(const std::string& name, int64_t threshold,
                                  bool deterministic, bool or_equal = false);

/// Whether UDFs are sent: `udf` is declared and the operators of UdfCheck and of
/// UdfGreaterThan's bodies are (docs/protocol.md section 9, "Finer declarations").
bool SendsUdfs(const Capabilities& capabilities);

/// Whether a check can be drawn on `schema` from the declared operators (always without
/// `expression-operators`: GenCheckExpression's draws; with it, at least the check of
/// last resort on a primitive column).
bool ChecksDrawable(const Schema& schema, const Capabilities& capabilities);

}  // namespace ictk
