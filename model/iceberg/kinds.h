/// \file
/// The classification of the model's plain data types: which types are primitive or
/// nested, which expression operators are predicates or terms. Kept apart from types.h and
/// expression.h, which hold data and its printing only (the `ictk::model_types` target).
#pragma once

#include "model/iceberg/expression.h"
#include "model/iceberg/types.h"

namespace ictk {

/// True for every primitive type (not variant, not nested).
inline bool IsPrimitive(TypeId id) { return id < TypeId::kVariant; }
/// True for struct, list and map.
inline bool IsNested(TypeId id) {
  return id == TypeId::kStruct || id == TypeId::kList || id == TypeId::kMap;
}

/// True for the predicate operators (true .. not-in).
inline bool IsPredicate(ExprOp op) { return op <= ExprOp::kNotIn; }
/// True for the term operators (reference .. parameter).
inline bool IsTerm(ExprOp op) { return op >= ExprOp::kReference; }

}  // namespace ictk
