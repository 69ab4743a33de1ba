/// \file
/// Check-constraint expressions as JSON (SURROUNDINGS.md "Expressions JSON"; Iceberg
/// expressions spec Appendix B). Reads the ID form that constraints must use
/// (`{"type":"reference","id":N}`, `left`/`right`/`child`, `apply`, typed literals) and,
/// for compatibility, the older REST/ExpressionParser form
/// (`{"type":"lt","term":"x","value":5}`,
/// `{"type":"reference","term":"x"}`, transform terms, `"true"` strings), which it marks
/// (`ExprOp::kNamedReference`, `Expr::legacy_form`) so that expr.id-references can flag
/// it.
///
/// Mapping of the older forms:
/// - a predicate with `term` (+ `value` / `values`) -> the same operator with the term as
///   children[0] (and the literal as children[1] / the set in `values`), legacy_form =
///   true;
/// - a term that is a bare string, or `{"type":"reference","term":"x"}` ->
/// kNamedReference;
/// - `{"type":"transform","transform":"bucket[16]","term":T}` -> kApply of `bucket` in
///   catalog `iceberg_functions` with arguments (16, T) (truncate likewise; identity,
///   year, month, day, hour with (T)), legacy_form = true;
/// - `"true"` / `"false"` strings in any letter case (iceberg-cpp) and
///   `{"type":"literal","value":true}` (Java) as predicates -> kTrue / kFalse.
/// Literals without `data-type` decode untyped (kBoolean / kLong / kDouble / kString);
/// with `data-type` they decode by that type (ValueFromJson). Writing gives back the form
/// that was read (legacy or ID form), so decode(encode(e)) == e.
#pragma once

#include <nlohmann/json.hpp>
#include <string_view>

#include "codec/result.h"
#include "model/iceberg/expression.h"

namespace ictk {

/// Decodes a predicate (the top level of a check `expression`).
Result<Expr> ExpressionFromJson(const nlohmann::json& json, std::string_view pointer);
/// Encodes a predicate or term.
nlohmann::json ExpressionToJson(const Expr& expr);

/// Decodes a term in the older form's `term` position: a bare string is a column name
/// (kNamedReference); objects are references, transforms, `apply` or literals.
Result<Expr> TermFromJson(const nlohmann::json& json, std::string_view pointer);
/// Encodes a term for the older `term` position (the inverse of TermFromJson): a named
/// reference as its bare name, a legacy transform as a transform object.
nlohmann::json TermToJson(const Expr& term);

}  // namespace ictk
