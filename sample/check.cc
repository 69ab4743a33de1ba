/// \file
/// The sample's check compiler. A check is compiled against the current schema and UDF
/// catalog each time it is used, the way an engine binds a predicate before scanning:
/// errors name the rule they break, and evaluation (check_eval.cc) never fails on a
/// compiled tree. The binding helpers are in check_bind.cc.
#include <fmt/format.h>

#include <cmath>
#include <functional>
#include <limits>

#include "sample/check_internal.h"
#include "sample/check_node_internal.h"
#include "sample/decode_internal.h"
#include "sample/schema_internal.h"
#include "sample/single_value_internal.h"
#include "sample/values_internal.h"

namespace ictk::sample {
namespace {

using Kind = CheckNode::Kind;
constexpr int kMaxUdfDepth = 16;
constexpr std::string_view kIcebergFunctions = "iceberg_functions";

class Compiler {
 public:
  struct Scope {
    const std::vector<std::pair<std::string, Type>>* params = nullptr;
    int depth = 0;
  };

  Compiler(const std::vector<NestedField>& fields, const UdfCatalog& udfs,
           const CheckOptions& options, CheckInfo& info)
      : fields_(fields),
        slots_(IndexFields(fields)),
        udfs_(udfs),
        options_(options),
        info_(info) {}

  std::optional<CheckNode> Predicate(const Expr& e, const Scope& scope) {
    if (e.legacy_form && !options_.accept_named_references) {
      return Fail("the expression uses the name-based form, not ID references",
                  "expr.id-references");
    }
    CheckNode n;
    n.type = Type::Primitive(TypeId::kBoolean);
    switch (e.op) {
      case ExprOp::kTrue:
        n.kind = Kind::kTrue;
        return n;
      case ExprOp::kFalse:
        n.kind = Kind::kFalse;
        return n;
      case ExprOp::kNot:
      case ExprOp::kAnd:
      case ExprOp::kOr: {
        const size_t arity = e.op == ExprOp::kNot ? 1 : 2;
        if (e.children.size() != arity) return Fail("wrong number of operands");
        n.kind = e.op == ExprOp::kNot ? Kind::kNot
                                      : (e.op == ExprOp::kAnd ? Kind::kAnd : Kind::kOr);
        for (const Expr& c : e.children) {
          auto k = Predicate(c, scope);
          if (!k) return std::nullopt;
          n.kids.push_back(std::move(*k));
        }
        return n;
      }
      case ExprOp::kIsNull:
      case ExprOp::kNotNull:
      case ExprOp::kIsNan:
      case ExprOp::kNotNan: {
        if (e.children.size() != 1) return Fail("wrong number of operands");
        auto k = Operand(e.children[0], scope);
        if (!k) return std::nullopt;
        const bool nan = e.op == ExprOp::kIsNan || e.op == ExprOp::kNotNan;
        if (nan && !IsFloat(k->type.id) && k->type.id != TypeId::kUnknown) {
          return Fail(fmt::format("{} needs a float or double, not {}", OpText(e.op),
                                  ToString(k->type)));
        }
        n.kind = e.op == ExprOp::kIsNull    ? Kind::kIsNull
                 : e.op == ExprOp::kNotNull ? Kind::kNotNull
                 : e.op == ExprOp::kIsNan   ? Kind::kIsNan
                                            : Kind::kNotNan;
        n.kids.push_back(std::move(*k));
        return n;
      }
      case ExprOp::kLt:
      case ExprOp::kLtEq:
      case ExprOp::kGt:
      case ExprOp::kGtEq:
      case ExprOp::kEq:
      case ExprOp::kNotEq:
      case ExprOp::kStartsWith:
      case ExprOp::kNotStartsWith:
        return Comparison(e, scope);
      case ExprOp::kIn:
      case ExprOp::kNotIn:
        return Set(e, scope);
      default:
        break;
    }
    // A term in predicate position must be boolean (e.g. a UDF returning boolean).
    auto t = Term(e, scope);
    if (!t) return std::nullopt;
    if (t->type.id != TypeId::kBoolean && t->type.id != TypeId::kUnknown) {
      return Fail(fmt::format("a {} term is not a predicate", ToString(t->type)));
    }
    n.kind = Kind::kTruth;
    n.kids.push_back(std::move(*t));
    return n;
  }

  /// A term, or an untyped literal on its own (typed by itself).
  std::optional<CheckNode> Operand(const Expr& e, const Scope& scope) {
    if (IsUntypedLiteral(e)) {
      if (e.values.empty()) return Fail("a literal without a value");
      CheckNode n;
      n.kind = Kind::kLit;
      n.literal = e.values[0];
      auto t = NaturalType(e.values[0]);
      n.type = t ? *t : Type::Primitive(TypeId::kUnknown);
      return n;
    }
    return Term(e, scope);
  }

  std::optional<CheckNode> Term(const Expr& e, const Scope& scope) {
    if (e.legacy_form && !options_.accept_named_references) {
      return Fail("the expression uses the name-based form, not ID references",
                  "expr.id-references");
    }
    CheckNode n;
    switch (e.op) {
      case ExprOp::kReference:
        return Reference(e.field_id, scope);
      case ExprOp::kNamedReference: {
        if (!options_.accept_named_references) {
          return Fail(fmt::format("column '{}' is referenced by name", e.name),
                      "expr.id-references");
        }
        for (const NestedField& f : fields_) {
          if (f.name == e.name) return Reference(f.id, scope);
        }
        return Fail(fmt::format("no column named '{}'", e.name));
      }
      case ExprOp::kLiteral: {
        if (e.values.empty()) return Fail("a literal without a value");
        n.kind = Kind::kLit;
        n.literal = e.values[0];
        if (e.data_type) {
          n.type = *e.data_type;
        } else {
          auto t = NaturalType(e.values[0]);
          n.type = t ? *t : Type::Primitive(TypeId::kUnknown);
        }
        return n;
      }
      case ExprOp::kParameter: {
        if (scope.params == nullptr) return Fail("a parameter outside a function body");
        for (size_t i = 0; i < scope.params->size(); ++i) {
          if ((*scope.params)[i].first == e.name) {
            n.kind = Kind::kParam;
            n.param = static_cast<int>(i);
            n.type = (*scope.params)[i].second;
            return n;
          }
        }
        return Fail(fmt::format("unknown parameter '{}'", e.name));
      }
      case ExprOp::kApply:
        return Apply(e, scope);
      default:
        break;
    }
    if (IsPredicateOp(e.op)) {
      // A predicate as a term (e.g. if_else's condition, or a boolean argument).
      return Predicate(e, scope);
    }
    return Fail("not a term");
  }

 private:
  std::nullopt_t Fail(std::string message, std::string rule = "expr.well-typed") {
    if (info_.error.empty()) {
      info_.error = std::move(message);
      info_.error_rule = std::move(rule);
    }
    return std::nullopt;
  }

  std::optional<CheckNode> Reference(FieldId id, const Scope& scope) {
    if (scope.params != nullptr) return Fail("a function body references a column");
    auto it = slots_.find(id);
    if (it == slots_.end()) {
      return Fail(
          fmt::format("reference to field {}, which the schema does not have", id),
          "sch.referenced-exist");
    }
    info_.referenced.insert(id);
    CheckNode n;
    n.kind = Kind::kRef;
    n.type = *it->second.type;
    if (it->second.in_repeated) {
      if (!(it->second.in_map ? options_.accept_map_references
                              : options_.accept_repeated_references)) {
        return Fail(fmt::format("field {} is inside a list or a map", id),
                    "expr.no-list-map-element");
      }
      n.unresolvable = true;
      return n;
    }
    n.path = it->second.path;
    return n;
  }

  /// Compiles the two operands of a comparison (or the branches of if_else) into one
  /// domain; `null_ok` lets a branch be a null literal.
  bool AlignOperands(const Expr& l, const Expr& r, const Scope& scope, CheckNode& out,
                     Type& common, bool direct_literals) {
    const bool lu = IsUntypedLiteral(l), ru = IsUntypedLiteral(r);
    if (direct_literals) {
      for (const Expr* side : {&l, &r}) {
        if (side->op == ExprOp::kLiteral && !side->values.empty() &&
            IsNullLike(side->values[0])) {
          Fail("a comparison operand must not be a null or NaN literal");
          return false;
        }
      }
    }
    std::optional<CheckNode> ln, rn;
    if (lu && ru) {
      ln = Operand(l, scope);
      if (!ln) return false;
      auto b = BindLiteral(r.values[0], ln->type);
      if (!b) return Fail(fmt::format("literals of different types")), false;
      rn = CheckNode{};
      rn->kind = Kind::kLit;
      rn->type = b->first;
      rn->literal = b->second;
    } else if (lu || ru) {
      const Expr& term = lu ? r : l;
      const Expr& lit = lu ? l : r;
      auto tn = Term(term, scope);
      if (!tn) return false;
      CheckNode litn;
      litn.kind = Kind::kLit;
      if (lit.values.empty()) return Fail("a literal without a value"), false;
      if (lit.values[0].is_null()) {
        litn.type = tn->type;  // if_else(c, null, x)
      } else {
        auto b = BindLiteral(lit.values[0], tn->type);
        // The one switch-off point of type alignment (expr.well-typed): the mutant binds
        // a literal that does not fit a string term as the string of its text.
        if (!b && options_.accept_ill_typed && tn->type.id == TypeId::kString) {
          b = std::pair{tn->type, Value::String(ToString(lit.values[0]))};
        }
        if (!b) {
          Fail(fmt::format("{} compared with literal {}", ToString(tn->type),
                           ToString(lit.values[0])));
          return false;
        }
        litn.type = b->first;
        litn.literal = b->second;
      }
      ln = lu ? litn : std::move(*tn);
      rn = lu ? std::move(*tn) : litn;
    } else {
      ln = Operand(l, scope);
      if (!ln) return false;
      rn = Operand(r, scope);
      if (!rn) return false;
    }
    auto aligned = Align(ln->type, rn->type);
    if (!aligned || aligned->first == Domain::kNone) {
      Fail(fmt::format("{} cannot be compared with {}", ToString(ln->type),
                       ToString(rn->type)));
      return false;
    }
    out.domain = aligned->first;
    common = aligned->second;
    out.kids.push_back(std::move(*ln));
    out.kids.push_back(std::move(*rn));
    return true;
  }

  std::optional<CheckNode> Comparison(const Expr& e, const Scope& scope) {
    if (e.children.size() != 2) return Fail("a comparison needs two operands");
    CheckNode n;
    n.type = Type::Primitive(TypeId::kBoolean);
    n.op = e.op;
    n.kind = e.op == ExprOp::kStartsWith      ? Kind::kStartsWith
             : e.op == ExprOp::kNotStartsWith ? Kind::kNotStartsWith
                                              : Kind::kCompare;
    Type common;
    if (!AlignOperands(e.children[0], e.children[1], scope, n, common, true)) {
      return std::nullopt;
    }
    if (n.kind != Kind::kCompare && common.id != TypeId::kString) {
      return Fail(fmt::format("{} takes strings", OpText(e.op)));
    }
    return n;
  }

  std::optional<CheckNode> Set(const Expr& e, const Scope& scope) {
    if (e.children.size() != 1) return Fail("in/not-in needs one term");
    auto t = Operand(e.children[0], scope);
    if (!t) return std::nullopt;
    CheckNode n;
    n.kind = e.op == ExprOp::kIn ? Kind::kIn : Kind::kNotIn;
    n.type = Type::Primitive(TypeId::kBoolean);
    std::optional<std::pair<Domain, Type>> aligned;
    for (const Value& v : e.values) {
      if (IsNullLike(v)) return Fail("in/not-in values must not be null or NaN");
      Type vt;
      Value bound;
      if (e.data_type) {
        vt = *e.data_type;
        bound = v;
      } else {
        auto b = BindLiteral(v, t->type);
        if (!b) {
          return Fail(fmt::format("{} compared with {}", ToString(t->type), ToString(v)));
        }
        vt = b->first;
        bound = b->second;
      }
      auto a = Align(t->type, vt);
      if (!a || a->first == Domain::kNone) {
        return Fail(fmt::format("{} compared with {}", ToString(t->type), ToString(vt)));
      }
      if (aligned && aligned->first != a->first)
        return Fail("in/not-in values of mixed types");
      aligned = a;
      if (IsNullLike(bound)) return Fail("in/not-in values must not be NaN");
      n.set.push_back(ToComparable(bound, vt, a->first));
    }
    if (!aligned) {
      auto a = Align(t->type, t->type);
      if (!a || a->first == Domain::kNone) {
        return Fail(
            fmt::format("values of type {} cannot be compared", ToString(t->type)));
      }
      aligned = a;
    }
    n.domain = aligned->first;
    n.kids.push_back(std::move(*t));
    return n;
  }

  std::optional<int64_t> Width(const Expr& e) {
    if (e.op != ExprOp::kLiteral || e.values.empty() ||
        e.values[0].kind != ValueKind::kLong || e.values[0].as_long() <= 0 ||
        e.values[0].as_long() > std::numeric_limits<int32_t>::max()) {
      return Fail("the width of bucket/truncate must be a positive integer literal"),
             std::nullopt;
    }
    return e.values[0].as_long();
  }

  std::optional<CheckNode> Apply(const Expr& e, const Scope& scope) {
    Builtin b = Builtin::kNone;
    const auto& path = e.function;
    if (e.catalog && *e.catalog == kIcebergFunctions && path.size() == 1) {
      b = BuiltinNamed(path[0]);
      if (b == Builtin::kNone)
        return Fail(fmt::format("iceberg_functions has no {}", path[0]));
    } else if (!e.catalog && path.size() == 2 && path[0] == kIcebergFunctions) {
      b = BuiltinNamed(path[1]);
      if (b == Builtin::kNone)
        return Fail(fmt::format("iceberg_functions has no {}", path[1]));
    } else if (!e.catalog && path.size() == 1) {
      b = BuiltinNamed(path[0]);
    }
    if (b != Builtin::kNone) return CallBuiltin(b, e, scope);
    std::string name;
    for (const std::string& p : path) name += (name.empty() ? "" : ".") + p;
    return CallUdf(name, e, scope);
  }

  std::optional<CheckNode> CallBuiltin(Builtin b, const Expr& e, const Scope& scope) {
    CheckNode n;
    n.kind = Kind::kBuiltin;
    n.builtin = b;
    const size_t arity = b == Builtin::kIfElse                                ? 3
                         : (b == Builtin::kBucket || b == Builtin::kTruncate) ? 2
                                                                              : 1;
    if (e.children.size() != arity)
      return Fail("wrong number of arguments to a built-in");
    switch (b) {
      case Builtin::kIfElse: {
        auto cond = Predicate(e.children[0], scope);
        if (!cond) return std::nullopt;
        CheckNode branches;
        Type common;
        if (!AlignOperands(e.children[1], e.children[2], scope, branches, common,
                           false)) {
          return std::nullopt;
        }
        n.type = common;
        n.kids.push_back(std::move(*cond));
        for (CheckNode& k : branches.kids) n.kids.push_back(std::move(k));
        return n;
      }
      case Builtin::kIdentity: {
        auto v = Operand(e.children[0], scope);
        if (!v) return std::nullopt;
        n.type = v->type;
        n.kids.push_back(std::move(*v));
        return n;
      }
      case Builtin::kYear:
      case Builtin::kMonth:
      case Builtin::kDay:
      case Builtin::kHour: {
        auto v = Term(e.children[0], scope);
        if (!v) return std::nullopt;
        const TypeId t = v->type.id;
        const bool ok = IsTimestamp(t) || (t == TypeId::kDate && b != Builtin::kHour);
        if (!ok)
          return Fail(
              fmt::format("this transform is not defined on {}", ToString(v->type)));
        n.type = Type::Primitive(TypeId::kInt);
        n.kids.push_back(std::move(*v));
        return n;
      }
      case Builtin::kBucket:
      case Builtin::kTruncate: {
        auto w = Width(e.children[0]);
        if (!w) return std::nullopt;
        auto v = Term(e.children[1], scope);
        if (!v) return std::nullopt;
        const TypeId t = v->type.id;
        bool ok = IsInteger(t) || t == TypeId::kDecimal || t == TypeId::kString ||
                  t == TypeId::kBinary;
        if (b == Builtin::kBucket) {
          ok = ok || t == TypeId::kDate || t == TypeId::kTime || IsTimestamp(t) ||
               t == TypeId::kUuid || t == TypeId::kFixed;
        }
        if (!ok)
          return Fail(
              fmt::format("this transform is not defined on {}", ToString(v->type)));
        n.width = *w;
        n.type = b == Builtin::kBucket ? Type::Primitive(TypeId::kInt) : v->type;
        n.kids.push_back(std::move(*v));
        return n;
      }
      case Builtin::kNone:
        break;
    }
    return Fail("unknown built-in");
  }

  std::optional<CheckNode> CallUdf(const std::string& name, const Expr& e,
                                   const Scope& scope) {
    info_.calls_udf = true;
    CheckNode n;
    n.kind = Kind::kUdf;
    auto it = udfs_.find(name);
    if (it == udfs_.end()) {
      info_.undefined_udfs.push_back(name);
      n.udf_defined = false;
      n.type = Type::Primitive(TypeId::kUnknown);
      for (const Expr& a : e.children) {
        // Still collect references (and their errors) from the arguments.
        if (!Operand(a, scope)) return std::nullopt;
      }
      return n;
    }
    const FunctionDefinition& def = it->second;
    if (!def.deterministic) info_.nondeterministic_udfs.push_back(name);
    if (scope.depth >= kMaxUdfDepth)
      return Fail(fmt::format("{} recurses too deeply", name));
    if (e.children.size() != def.parameters.size()) {
      return Fail(fmt::format("{} takes {} arguments, not {}", name,
                              def.parameters.size(), e.children.size()));
    }
    for (size_t i = 0; i < e.children.size(); ++i) {
      const Type& want = def.parameters[i].second;
      const Expr& a = e.children[i];
      if (IsUntypedLiteral(a)) {
        if (a.values.empty()) return Fail("a literal without a value");
        CheckNode lit;
        lit.kind = Kind::kLit;
        lit.type = want;
        if (!a.values[0].is_null()) {
          auto bnd = BindLiteral(a.values[0], want);
          if (!bnd || !SameTypeShape(bnd->first, want)) {
            return Fail(fmt::format("argument {} of {} is not a {}", i + 1, name,
                                    ToString(want)));
          }
          lit.literal = bnd->second;
        }
        n.kids.push_back(std::move(lit));
        continue;
      }
      auto k = Operand(a, scope);
      if (!k) return std::nullopt;
      if (!SameTypeShape(k->type, want) && k->type.id != TypeId::kUnknown) {
        auto aligned = Align(k->type, want);
        if (!aligned || !SameTypeShape(aligned->second, want)) {
          return Fail(fmt::format("argument {} of {} is a {}, not a {}", i + 1, name,
                                  ToString(k->type), ToString(want)));
        }
        CheckNode conv;
        conv.kind = Kind::kConvert;
        conv.type = want;
        conv.kids.push_back(std::move(*k));
        k = std::move(conv);
      }
      n.kids.push_back(std::move(*k));
    }
    Scope inner{&def.parameters, scope.depth + 1};
    const bool predicate_body = IsPredicateOp(def.body.op);
    auto body = predicate_body ? Predicate(def.body, inner) : Operand(def.body, inner);
    if (!body) return std::nullopt;
    if (!SameTypeShape(body->type, def.return_type) &&
        body->type.id != TypeId::kUnknown) {
      auto aligned = Align(body->type, def.return_type);
      if (!aligned || !SameTypeShape(aligned->second, def.return_type)) {
        return Fail(fmt::format("{} returns {}, but its body is a {}", name,
                                ToString(def.return_type), ToString(body->type)));
      }
      CheckNode conv;
      conv.kind = Kind::kConvert;
      conv.type = def.return_type;
      conv.kids.push_back(std::move(*body));
      body = std::move(conv);
    }
    n.type = def.return_type;
    n.body = std::make_shared<const CheckNode>(std::move(*body));
    return n;
  }

  const std::vector<NestedField>& fields_;
  std::map<FieldId, FieldSlot> slots_;
  const UdfCatalog& udfs_;
  const CheckOptions& options_;
  CheckInfo& info_;
};

void CollectReferences(const Expr& e, std::set<FieldId>& out) {
  if (e.op == ExprOp::kReference) out.insert(e.field_id);
  for (const Expr& c : e.children) CollectReferences(c, out);
}

}  // namespace

CompiledCheck::CompiledCheck(const Expr& expr, const std::vector<NestedField>& fields,
                             const UdfCatalog& udfs, const CheckOptions& options)
    : options_(options) {
  Compiler compiler(fields, udfs, options_, info_);
  auto root = compiler.Predicate(expr, Compiler::Scope{});
  if (root && info_.error.empty()) root_ = std::make_unique<CheckNode>(std::move(*root));
}

CompiledCheck::~CompiledCheck() = default;
CompiledCheck::CompiledCheck(CompiledCheck&&) noexcept = default;
CompiledCheck& CompiledCheck::operator=(CompiledCheck&&) noexcept = default;

bool CompiledCheck::evaluable() const {
  return root_ != nullptr && info_.error.empty() && info_.undefined_udfs.empty() &&
         info_.nondeterministic_udfs.empty();
}

std::optional<bool> CompiledCheck::Holds(const Value& row) const {
  if (root_ == nullptr || !info_.undefined_udfs.empty()) return std::nullopt;
  return EvaluateCheck(*root_, row, options_);
}

std::set<FieldId> ReferencedIds(const Expr& expr) {
  std::set<FieldId> out;
  CollectReferences(expr, out);
  return out;
}

}  // namespace ictk::sample
