/// \file
/// The row helpers of the sample's write path (commit_internal.h): rows completed with
/// their write-defaults, the parent's status of a constraint, the well-formed part of a
/// commit.
#include <fmt/format.h>

#include <algorithm>
#include <functional>
#include <set>
#include <unordered_set>

#include "sample/commit_internal.h"
#include "sample/engine_internal.h"
#include "sample/schema_internal.h"
#include "sample/values_internal.h"

namespace ictk::sample {

std::string_view OperationText(CommitOperation op) {
  switch (op) {
    case CommitOperation::kAppend:
      return "append";
    case CommitOperation::kDelete:
      return "delete";
    case CommitOperation::kOverwrite:
      return "overwrite";
    case CommitOperation::kReplace:
      return "replace";
  }
  return "";
}

/// Fills the fields a row (or nested struct) omits with their write-default (or null) and
/// checks that required fields are not null.
std::string CompleteStruct(Value& v, const std::vector<NestedField>& fields,
                           const std::string& where) {
  std::vector<FieldId> ids;
  std::vector<Value> values;
  for (const NestedField& f : fields) {
    const Value* given = v.FindField(f.id);
    Value x = given != nullptr ? *given : WriteDefaultOf(f);
    if (x.is_null()) {
      if (f.required) {
        return fmt::format("{}field {} ('{}') is required but null", where, f.id, f.name);
      }
    } else {
      std::string p = CompleteValue(x, f.type, where);
      if (!p.empty()) return p;
    }
    ids.push_back(f.id);
    values.push_back(std::move(x));
  }
  v = Value::Struct(std::move(ids), std::move(values));
  return {};
}

std::string CompleteValue(Value& v, const Type& type, const std::string& where) {
  switch (type.id) {
    case TypeId::kStruct:
      if (v.kind != ValueKind::kStruct)
        return fmt::format("{}a struct value is expected", where);
      return CompleteStruct(v, type.fields, where);
    case TypeId::kList:
      for (Value& e : v.children) {
        if (e.is_null()) {
          if (type.element_required)
            return fmt::format("{}a list element is null", where);
          continue;
        }
        std::string p = CompleteValue(e, type.element(), where);
        if (!p.empty()) return p;
      }
      return {};
    case TypeId::kMap: {
      const size_t half = v.children.size() / 2;
      for (size_t i = 0; i < v.children.size(); ++i) {
        Value& e = v.children[i];
        if (e.is_null()) {
          if (i < half || type.value_required)
            return fmt::format("{}a map entry is null", where);
          continue;
        }
        std::string p = CompleteValue(e, i < half ? type.key() : type.value(), where);
        if (!p.empty()) return p;
      }
      return {};
    }
    default:
      return {};
  }
}

/// The status the parent snapshot records for `id`: unvalidated when there is no parent
/// or it lists none (st.reader-lookup). `unlisted` is what an unlisted ID reads as.
ConstraintStatus ParentStatus(const TableMetadata& md, ConstraintId id,
                              ConstraintStatus unlisted) {
  const Snapshot* snap = md.CurrentSnapshot();
  if (snap == nullptr) return ConstraintStatus::kUnvalidated;
  if (!snap->constraint_statuses) return unlisted;
  return ListedStatus(*snap->constraint_statuses, id).value_or(unlisted);
}

/// The well-formed row changes of `c` on the live rows `live`, in the order the changes
/// apply (removals, modifications, additions): a key's first change only, removals and
/// modifications of live rows, additions of rows that are not live.
Commit WellFormedPart(const RowSet& live, const Commit& c) {
  Commit out = c;
  out.remove.clear();
  out.modify.clear();
  out.add.clear();
  std::set<std::string> seen;
  for (const std::string& k : c.remove)
    if (!k.empty() && live.count(k) != 0 && seen.insert(k).second) out.remove.push_back(k);
  for (const Row& r : c.modify)
    if (!r.key.empty() && live.count(r.key) != 0 && seen.insert(r.key).second)
      out.modify.push_back(r);
  for (const Row& r : c.add)
    if (!r.key.empty() && live.count(r.key) == 0 && seen.insert(r.key).second)
      out.add.push_back(r);
  return out;
}

}  // namespace ictk::sample
