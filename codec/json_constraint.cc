#include "codec/json_constraint.h"

#include "codec/json_expression.h"
#include "codec/json_internal.h"
#include "codec/json_keys.h"

namespace ictk {
namespace {

using namespace codec_internal;  // NOLINT: the codec's own helpers
using nlohmann::json;

Result<std::vector<int32_t>> IntList(const json& j, std::string_view pointer) {
  if (!j.is_array()) return Expected(pointer, "an array of integers", j);
  std::vector<int32_t> out;
  out.reserve(j.size());
  for (size_t i = 0; i < j.size(); ++i) {
    auto v = AsInt32(j[i], Child(pointer, i));
    if (!v) return tl::unexpected(v.error());
    out.push_back(*v);
  }
  return out;
}

constexpr std::pair<ConstraintStatus, std::string_view> kStatusKeys[] = {
    {ConstraintStatus::kValidated, keys::kValidated},
    {ConstraintStatus::kValid, keys::kValid},
    {ConstraintStatus::kInvalid, keys::kInvalid},
    {ConstraintStatus::kUnvalidated, keys::kUnvalidated},
};

}  // namespace

Result<Constraint> ConstraintFromJson(const json& j, std::string_view pointer) {
  if (!j.is_object()) return Expected(pointer, "a constraint object", j);
  Constraint c;
  auto id = OptInt32(j, keys::kConstraintId, pointer);
  if (!id) return tl::unexpected(id.error());
  c.id = *id;
  auto type = OptString(j, keys::kType, pointer);
  if (!type) return tl::unexpected(type.error());
  if (*type) {
    c.raw_type = **type;
    c.type = ParseConstraintType(c.raw_type);
  }
  auto name = OptString(j, keys::kName, pointer);
  if (!name) return tl::unexpected(name.error());
  c.name = std::move(*name);
  auto enforced = OptBool(j, keys::kEnforced, pointer);
  if (!enforced) return tl::unexpected(enforced.error());
  c.enforced = *enforced;
  auto ts = OptInt64(j, keys::kTimestampMs, pointer);
  if (!ts) return tl::unexpected(ts.error());
  c.timestamp_ms = *ts;
  if (const json* e = Find(j, keys::kExpression)) {
    auto expr = ExpressionFromJson(*e, Child(pointer, keys::kExpression));
    if (!expr) return tl::unexpected(expr.error());
    c.expression = std::move(*expr);
  }
  if (const json* f = Find(j, keys::kFieldIds)) {
    auto ids = IntList(*f, Child(pointer, keys::kFieldIds));
    if (!ids) return tl::unexpected(ids.error());
    c.field_ids = std::move(*ids);
  }
  return c;
}

json ConstraintToJson(const Constraint& c) {
  json j = json::object();
  if (c.id) j[keys::kConstraintId] = *c.id;
  if (!c.raw_type.empty()) {
    j[keys::kType] = c.raw_type;
  } else if (c.type) {
    j[keys::kType] = std::string(ToString(*c.type));
  }
  if (c.name) j[keys::kName] = *c.name;
  if (c.enforced) j[keys::kEnforced] = *c.enforced;
  if (c.timestamp_ms) j[keys::kTimestampMs] = *c.timestamp_ms;
  if (c.expression) j[keys::kExpression] = ExpressionToJson(*c.expression);
  if (c.field_ids) j[keys::kFieldIds] = *c.field_ids;
  return j;
}

Result<ConstraintStatuses> ConstraintStatusesFromJson(const json& j,
                                                      std::string_view pointer) {
  if (!j.is_object()) return Expected(pointer, "a constraint-statuses object", j);
  ConstraintStatuses out;
  for (auto it = j.begin(); it != j.end(); ++it) {
    bool known = false;
    for (const auto& [status, key] : kStatusKeys) {
      if (it.key() != key) continue;
      known = true;
      if (it->is_null()) break;
      auto ids = IntList(*it, Child(pointer, key));
      if (!ids) return tl::unexpected(ids.error());
      out.List(status) = std::move(*ids);
    }
    if (!known)
      return ParseError(Child(pointer, it.key()),
                        "unknown status list \"" + it.key() +
                            "\" (expected validated, valid, invalid or unvalidated)");
  }
  return out;
}

json ConstraintStatusesToJson(const ConstraintStatuses& statuses) {
  json j = json::object();
  for (const auto& [status, key] : kStatusKeys)
    if (const auto& list = statuses.List(status)) j[key] = *list;
  return j;
}

}  // namespace ictk
