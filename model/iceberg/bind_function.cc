/// \file
/// Binding calls: the `iceberg_functions` built-ins (if_else, identity, the date parts,
/// bucket and truncate) with their arguments' types, and user-defined functions, whose
/// arguments are bound to the parameters' types and whose body is bound against the
/// parameters.
#include <fmt/format.h>

#include <algorithm>
#include <climits>

#include "model/iceberg/evaluate_internal.h"
#include "model/iceberg/value_parse.h"

namespace ictk::internal {

std::optional<Bound> Binder::BindApply(const Expr& e) {
  const Builtin builtin = ResolveBuiltin(e);
  if (builtin != Builtin::kNone) return BindBuiltin(e, builtin);
  if (NamesIcebergCatalog(e)) {
    diag_.Fail(fmt::format("unknown function {} in {}", UdfName(e), kIcebergFunctions));
    return std::nullopt;
  }
  return BindUdf(e);
}

/// The integer literal parameter of bucket(N, v) / truncate(W, v): a positive int.
std::optional<int64_t> Binder::WidthArgument(const Expr& e, const Expr& arg) {
  if (arg.op == ExprOp::kLiteral && !arg.values.empty() &&
      arg.values[0].kind == ValueKind::kLong && arg.values[0].as_long() > 0 &&
      arg.values[0].as_long() <= INT_MAX) {
    return arg.values[0].as_long();
  }
  diag_.Fail(
      fmt::format("{}: the first argument must be a positive int literal", ToString(e)));
  return std::nullopt;
}

/// An argument of a transform: a term, or a literal typed by `data-type`, or an untyped
/// literal bound as the first of `accepted` it converts to.
std::optional<Bound> Binder::TransformArgument(const Expr& arg,
                                               const std::vector<TypeId>& accepted) {
  if (IsUntypedLiteral(arg) && !arg.values[0].is_null()) {
    // The literal's own type when the function takes it, else the first accepted type
    // it converts to (a date string for year()).
    if (auto t = NaturalType(arg.values[0]); t && Accepts(accepted, t->id)) {
      Bound b = Leaf(ExprOp::kLiteral, *t);
      b.literal = arg.values[0];
      return b;
    }
    for (TypeId id : accepted) {
      if (id == TypeId::kDecimal || id == TypeId::kFixed) continue;
      if (auto v = BindLiteral(arg.values[0], Type::Primitive(id))) {
        Bound b = Leaf(ExprOp::kLiteral, Type::Primitive(id));
        b.literal = *v;
        return b;
      }
    }
  }
  return Bind(arg);
}

bool Binder::Accepts(const std::vector<TypeId>& accepted, TypeId id) {
  return id == TypeId::kUnknown ||
         std::find(accepted.begin(), accepted.end(), id) != accepted.end();
}

std::optional<Bound> Binder::BindBuiltin(const Expr& e, Builtin builtin) {
  Bound b = Leaf(ExprOp::kApply, Type{});
  b.builtin = builtin;
  switch (builtin) {
    case Builtin::kIfElse: {
      if (!Arity(e, 3)) return std::nullopt;
      auto cond = BindPredicate(e.children[0]);
      Bound pair;
      const bool aligned =
          AlignPair(e, e.children[1], e.children[2], pair, /*direct_literals=*/false);
      if (!cond || !aligned) return std::nullopt;
      b.type = pair.domain;
      b.kids.push_back(std::move(*cond));
      for (auto& k : pair.kids) b.kids.push_back(std::move(k));
      b.convs = {Conv::kNone, pair.convs[0], pair.convs[1]};
      return b;
    }
    case Builtin::kIdentity: {
      if (!Arity(e, 1)) return std::nullopt;
      auto v = Bind(e.children[0]);
      if (!v) return std::nullopt;
      b.type = v->type;
      b.kids.push_back(std::move(*v));
      return b;
    }
    case Builtin::kYear:
    case Builtin::kMonth:
    case Builtin::kDay:
    case Builtin::kHour:
      return BindDatePart(e, std::move(b));
    case Builtin::kBucket:
    case Builtin::kTruncate:
      return BindWidthTransform(e, std::move(b));
    case Builtin::kNone:
      break;
  }
  diag_.Fail("unknown built-in");
  return std::nullopt;
}

/// year, month, day, hour: of a date (not hour) or timestamp argument, an int.
std::optional<Bound> Binder::BindDatePart(const Expr& e, Bound b) {
  const Builtin builtin = b.builtin;
  if (!Arity(e, 1)) return std::nullopt;
  std::vector<TypeId> accepted{TypeId::kTimestamp, TypeId::kTimestampTz,
                               TypeId::kTimestampNs, TypeId::kTimestampTzNs};
  if (builtin != Builtin::kHour) accepted.insert(accepted.begin(), TypeId::kDate);
  auto v = TransformArgument(e.children[0], accepted);
  if (!v) return std::nullopt;
  if (!Accepts(accepted, v->type.id)) {
    diag_.Fail(fmt::format("{}: {} is not defined for {}", ToString(e), UdfName(e),
                           Describe(e.children[0], v->type)));
    return std::nullopt;
  }
  b.type = Type::Primitive(TypeId::kInt);
  b.source = v->type.id;
  b.kids.push_back(std::move(*v));
  return b;
}

/// bucket(N, v) and truncate(W, v): a positive int literal width and an argument of a
/// type the transform is defined for.
std::optional<Bound> Binder::BindWidthTransform(const Expr& e, Bound b) {
  const Builtin builtin = b.builtin;
  if (!Arity(e, 2)) return std::nullopt;
  auto width = WidthArgument(e, e.children[0]);
  if (!width) return std::nullopt;
  const std::vector<TypeId> accepted =
      builtin == Builtin::kBucket
          ? std::vector<TypeId>{TypeId::kInt,           TypeId::kLong,
                                TypeId::kDecimal,       TypeId::kDate,
                                TypeId::kTime,          TypeId::kTimestamp,
                                TypeId::kTimestampTz,   TypeId::kTimestampNs,
                                TypeId::kTimestampTzNs, TypeId::kString,
                                TypeId::kUuid,          TypeId::kFixed,
                                TypeId::kBinary}
          : std::vector<TypeId>{TypeId::kInt, TypeId::kLong, TypeId::kDecimal,
                                TypeId::kString, TypeId::kBinary};
  auto v = TransformArgument(e.children[1], accepted);
  if (!v) return std::nullopt;
  if (!Accepts(accepted, v->type.id)) {
    diag_.Fail(fmt::format("{}: {} is not defined for {}", ToString(e), UdfName(e),
                           Describe(e.children[1], v->type)));
    return std::nullopt;
  }
  b.type = builtin == Builtin::kBucket ? Type::Primitive(TypeId::kInt) : v->type;
  b.width = *width;
  b.source = v->type.id;
  b.kids.push_back(std::move(*v));
  return b;
}

std::optional<Bound> Binder::BindUdf(const Expr& e) {
  const std::string name = UdfName(e);
  Bound b = Leaf(ExprOp::kApply, Type::Primitive(TypeId::kUnknown));
  b.name = name;
  const FunctionDefinition* def = nullptr;
  if (scope_.functions != nullptr) {
    auto it = scope_.functions->find(name);
    if (it != scope_.functions->end()) def = &it->second;
  }
  if (def == nullptr) {
    // Bind the arguments anyway so that their errors are reported; the call's type is
    // unknown, which aligns with anything.
    for (const Expr& a : e.children) {
      if (auto k = Bind(a)) b.kids.push_back(std::move(*k));
    }
    diag_.undefined.push_back(name);
    b.undefined = true;
    return b;
  }
  if (scope_.depth >= kMaxCallDepth) {
    diag_.Fail(
        fmt::format("{}: function calls nest deeper than {}", name, kMaxCallDepth));
    return std::nullopt;
  }
  if (e.children.size() != def->parameters.size()) {
    diag_.Fail(fmt::format("{} takes {} argument(s), got {}", name,
                           def->parameters.size(), e.children.size()));
    return std::nullopt;
  }
  bool ok = BindUdfArguments(e, *def, name, b);
  // The body, bound against the parameters.
  Scope body_scope{nullptr, &def->parameters, scope_.functions, scope_.depth + 1};
  Binder body_binder(body_scope, diag_);
  std::optional<Bound> body;
  if (def->return_type.id == TypeId::kBoolean) {
    body = body_binder.BindPredicate(def->body);
  } else {
    body = body_binder.Bind(def->body);
  }
  if (!body) {
    diag_.Fail(fmt::format("the body of {} cannot be bound", name));
    return std::nullopt;
  }
  auto rconv = Widening(body->type, def->return_type);
  if (!rconv) {
    diag_.Fail(fmt::format("the body of {} is {}, not its return type {}", name,
                           ToString(body->type), ToString(def->return_type)));
    return std::nullopt;
  }
  if (!ok) return std::nullopt;
  b.type = def->return_type;
  b.result_conv = *rconv;
  b.body.push_back(std::move(*body));
  return b;
}

/// The arguments of a call to `def` (named `name`): each bound to its parameter's type.
/// False when one does not bind (after binding the others, so that all are reported).
bool Binder::BindUdfArguments(const Expr& e, const FunctionDefinition& def,
                              const std::string& name, Bound& b) {
  bool ok = true;
  for (size_t i = 0; i < e.children.size(); ++i) {
    const Expr& a = e.children[i];
    const Type& p = def.parameters[i].second;
    if (IsUntypedLiteral(a)) {
      auto v = BindLiteral(a.values[0], p);
      if (!v) {
        ok = diag_.Fail(fmt::format("{}: argument {} is not a value of {}", name,
                                    ToString(a), ToString(p)));
        continue;
      }
      Bound k = Leaf(ExprOp::kLiteral, p);
      k.literal = *v;
      b.kids.push_back(std::move(k));
      b.convs.push_back(Conv::kNone);
      continue;
    }
    auto k = Bind(a);
    if (!k) {
      ok = false;
      continue;
    }
    auto conv = Widening(k->type, p);
    if (!conv) {
      ok = diag_.Fail(fmt::format("{}: argument {} does not match parameter {} {}", name,
                                  Describe(a, k->type), def.parameters[i].first,
                                  ToString(p)));
      continue;
    }
    b.kids.push_back(std::move(*k));
    b.convs.push_back(*conv);
  }
  return ok;
}

}  // namespace ictk::internal
