/// \file
/// The one builder of a schema field for the tests (model, properties, ...): a NestedField
/// from its ID, name, requiredness and type, and `P` for a primitive type.
#pragma once

#include <string>
#include <utility>

#include "model/iceberg/types.h"

namespace ictk::testing_util {

inline NestedField Field(FieldId id, std::string name, bool required, Type type) {
  NestedField f;
  f.id = id;
  f.name = std::move(name);
  f.required = required;
  f.type = std::move(type);
  return f;
}

inline Type P(TypeId id) { return Type::Primitive(id); }

}  // namespace ictk::testing_util
