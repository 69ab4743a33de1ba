/// \file
/// What the sample engine's operations (engine.cc, engine_constraints.cc,
/// engine_schema.cc) share: constraint lookups, the leniencies the engine's mutant grants,
/// field lookups and ID reassignment in a schema being evolved, default checks.
#pragma once

#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "sample/engine_internal.h"
#include "sample/schema_internal.h"

namespace ictk::sample {

/// A visitor of several lambdas, for std::visit.
template <class... Ts>
struct Overloaded : Ts... {
  using Ts::operator()...;
};
template <class... Ts>
Overloaded(Ts...) -> Overloaded<Ts...>;

/// "check", "unique", "primary-key".
std::string_view TypeText(ConstraintType t);
/// The constraint named `name` in `cs`, or nullptr.
Constraint* FindByName(std::vector<Constraint>& cs, const std::string& name);
/// The schema checks the engine's mutant skips (v3-type-before-v3, sibling-name-reused).
SchemaLeniency SchemaLenientOf(const Engine& e);
/// The ice.identifier-fields clause the engine's mutant skips, if any.
IdentifierLeniency IdentifierLenientOf(const Engine& e);
/// The field IDs a constraint references (its field-ids, or its expression's references).
std::set<FieldId> Referenced(const Constraint& c);
/// Assigns fresh IDs (from `last`) to a type given in add-column, as Iceberg does.
void ReassignIds(Type& type, FieldId& last);
/// The sibling list that holds field `id` (top level or a struct's fields), or nullptr.
std::vector<NestedField>* SiblingsOf(std::vector<NestedField>& fields, FieldId id);
/// Field `id` anywhere in `fields`, or nullptr.
NestedField* FieldById(std::vector<NestedField>& fields, FieldId id);
/// The struct fields a column added under `parent` goes into, or nullptr.
std::vector<NestedField>* ChildrenOf(std::vector<NestedField>& fields, FieldId parent);
/// Every field ID inside `t` (struct fields, list elements, map keys and values).
void CollectAllIds(const Type& t, std::set<FieldId>& out);
/// Whether a default's JSON text is a value of `type` (a timestamptz with "+00:00").
bool DefaultFits(const std::optional<std::string>& text, const Type& type);
/// ASCII lower case (mutant type-name-case-insensitive).
std::string LowerCase(std::string text);

}  // namespace ictk::sample
