/// \file
/// The sample's check-expression engine (independent of model/iceberg/evaluate.h): compiles a
/// check expression against a schema into a typed tree (literals bound to the type of
/// what they are compared with, operands aligned by safe promotion, functions resolved to
/// the `iceberg_functions` built-ins or to UDFs), then evaluates it over rows, two-valued
/// and null-safe (null = null is true, 5 = null false, null < null false, null <= null
/// true; NaN behaves like null).
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "model/iceberg/expression.h"
#include "model/iceberg/types.h"
#include "model/iceberg/value.h"

namespace ictk::sample {

/// The catalog's UDFs by name, each at its current definition version.
using UdfCatalog = std::map<std::string, FunctionDefinition>;

/// Behaviour switches of the compiler and evaluator; all false is the correct sample
/// (the others are mutants).
struct CheckOptions {
  bool accept_named_references = false;     ///< mutant name-reference-accepted
  bool accept_repeated_references = false;  ///< mutant list-element-reference-accepted
  bool accept_map_references = false;  ///< mutant map-element-reference-accepted
  bool three_valued = false;                ///< mutant three-valued-nulls
  bool wrong_bucket_hash = false;           ///< mutant bucket-wrong-hash
  /// mutant ill-typed-check-accepted: a literal that does not fit a string term is bound
  /// as the string of its text instead of failing the binding (expr.well-typed).
  bool accept_ill_typed = false;
};

/// What compiling found.
struct CheckInfo {
  std::string error;       ///< empty when the expression is valid and well-typed
  std::string error_rule;  ///< the rule ID the error breaks (expr.*, def.by-field-id)
  bool calls_udf = false;  ///< calls a function outside iceberg_functions
  std::vector<std::string> undefined_udfs;  ///< called, but not in the catalog
  std::vector<std::string>
      nondeterministic_udfs;     ///< called, current definition not deterministic
  std::set<FieldId> referenced;  ///< every field ID the expression references
};

struct CheckNode;

/// A compiled check.
class CompiledCheck {
 public:
  CompiledCheck(const Expr& expr, const std::vector<NestedField>& fields,
                const UdfCatalog& udfs, const CheckOptions& options);
  ~CompiledCheck();
  CompiledCheck(CompiledCheck&&) noexcept;
  CompiledCheck& operator=(CompiledCheck&&) noexcept;

  const CheckInfo& info() const { return info_; }
  /// Whether rows can be checked now: valid, every UDF defined and deterministic.
  bool evaluable() const;
  /// Whether `row` (a struct keyed by top-level field ID, under the schema compiled
  /// against) satisfies the check; nullopt when it cannot be evaluated.
  std::optional<bool> Holds(const Value& row) const;

 private:
  CheckInfo info_;
  CheckOptions options_;
  std::unique_ptr<CheckNode> root_;
};

/// The referenced field IDs of an expression (its `reference` IDs), without compiling.
std::set<FieldId> ReferencedIds(const Expr& expr);

}  // namespace ictk::sample
