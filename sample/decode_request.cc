/// \file
/// The protocol's requests (decode_internal.h), op by op as docs/protocol.md section 4
/// lists them: the members each op carries, `table` for the ops that act on one, `now-ms`
/// and the message `id`.
#include <fmt/format.h>

#include "sample/decode_internal.h"
#include "sample/single_value_internal.h"

namespace ictk::sample {
namespace {

std::vector<std::string> Names(const Slot& list) {
  if (!list.IsArray()) list.Expect("an array of strings");
  std::vector<std::string> out;
  for (size_t i = 0; i < list.Size(); ++i) out.push_back(list.At(i).Text());
  return out;
}

std::vector<std::string> NamesIfAny(const Slot& request, std::string_view key) {
  std::optional<Slot> list = request.Get(key);
  return list ? Names(*list) : std::vector<std::string>{};
}

/// A commit's rows under `key`, read without a schema (absent: none).
std::vector<Row> UntypedRows(const Slot& request, std::string_view key) {
  std::vector<Row> rows;
  std::optional<Slot> list = request.Get(key);
  if (!list) return rows;
  if (!list->IsArray()) list->Expect("an array of rows");
  for (size_t i = 0; i < list->Size(); ++i) {
    const Slot row = list->At(i);
    if (!row.IsObject()) row.Expect("a row {\"key\", \"values\"}");
    std::string row_key = row.Need("key").Text();
    const Slot values = row.Need("values");
    if (!values.IsObject()) values.Expect("an object keyed by field ID");
    Value v = ReadUntypedNested(values);
    if (v.kind != ValueKind::kStruct) values.Expect("an object keyed by field ID");
    rows.push_back(Row{std::move(row_key), std::move(v)});
  }
  return rows;
}

Commit CommitOf(const Slot& r) {
  Commit c;
  const Slot operation = r.Need("operation");
  const std::string op = operation.Text();
  if (op == "append") c.operation = CommitOperation::kAppend;
  else if (op == "delete") c.operation = CommitOperation::kDelete;
  else if (op == "overwrite") c.operation = CommitOperation::kOverwrite;
  else if (op == "replace") c.operation = CommitOperation::kReplace;
  else operation.Fail(fmt::format("\"{}\" is not append, delete, overwrite or replace", op));
  c.add = UntypedRows(r, "add");
  c.remove = NamesIfAny(r, "remove");
  c.modify = UntypedRows(r, "modify");
  if (auto txn = r.Get("txn")) c.txn = txn->Text();
  return c;
}

AddColumn AddColumnOf(const Slot& s) {
  AddColumn c;
  if (auto parent = s.Get("parent-id")) c.parent_id = parent->Int();
  c.name = s.Need("name").Text();
  c.type = DecodeType(s.Need("type"));
  if (auto required = s.Get("required")) c.required = required->Bool();
  if (auto doc = s.Get("doc")) c.doc = doc->Text();
  // A default given as null is a default (of null), kept as its text.
  if (auto d = s.GetEvenNull("initial-default")) c.initial_default_json = d->Dumped();
  if (auto d = s.GetEvenNull("write-default")) c.write_default_json = d->Dumped();
  return c;
}

MoveColumn MoveColumnOf(const Slot& s, FieldId id) {
  MoveColumn m;
  m.id = id;
  int positions = 0;
  if (auto first = s.Get("first")) {
    if (!first->json().is_boolean() || !first->Bool()) first->Expect("true");
    m.position = MoveColumn::Position::kFirst;
    ++positions;
  }
  if (auto after = s.Get("after")) {
    m.position = MoveColumn::Position::kAfter;
    m.reference = after->Int();
    ++positions;
  }
  if (auto before = s.Get("before")) {
    m.position = MoveColumn::Position::kBefore;
    m.reference = before->Int();
    ++positions;
  }
  if (positions != 1) s.Fail("move-column takes exactly one of first, after, before");
  return m;
}

SchemaChange ChangeOf(const Slot& s) {
  if (!s.IsObject()) s.Expect("a schema change {\"action\": ...}");
  const Slot action = s.Need("action");
  const std::string a = action.Text();
  if (a == "add-column") return AddColumnOf(s);
  const FieldId id = s.Need("id").Int();
  if (a == "delete-column") return DeleteColumn{id};
  if (a == "make-optional") return MakeOptional{id};
  if (a == "rename-column") return RenameColumn{id, s.Need("name").Text()};
  if (a == "update-column-type") return UpdateColumnType{id, DecodeType(s.Need("type"))};
  if (a == "move-column") return MoveColumnOf(s, id);
  action.Fail(fmt::format("\"{}\" is not a schema change", a));
}

UpdateSchema UpdateSchemaOf(const Slot& r) {
  UpdateSchema u;
  const Slot changes = r.Need("changes");
  if (!changes.IsArray()) changes.Expect("an array of schema changes");
  for (size_t i = 0; i < changes.Size(); ++i) u.changes.push_back(ChangeOf(changes.At(i)));
  u.remove_constraints = NamesIfAny(r, "remove-constraints");
  return u;
}

ConstraintUpdate UpdateOf(const Slot& set) {
  if (!set.IsObject()) set.Expect("an object of the members to set");
  ConstraintUpdate u;
  if (auto name = set.Get("name")) u.name = name->Text();
  if (auto enforced = set.Get("enforced")) u.enforced = enforced->Bool();
  if (auto e = set.Get("expression")) u.expression = DecodePredicate(*e);
  if (auto ids = set.Get("field-ids")) {
    if (!ids->IsArray()) ids->Expect("an array of integers");
    u.field_ids.emplace();
    for (size_t i = 0; i < ids->Size(); ++i) u.field_ids->push_back(ids->At(i).Int());
  }
  if (auto type = set.Get("type")) u.type = type->Text();
  return u;
}

FunctionDefinition FunctionOf(const Slot& r) {
  FunctionDefinition f;
  f.name = r.Need("name").Text();
  f.deterministic = r.Need("deterministic").Bool();
  const Slot params = r.Need("parameters");
  if (!params.IsArray()) params.Expect("an array of {name, type}");
  for (size_t i = 0; i < params.Size(); ++i) {
    const Slot p = params.At(i);
    if (!p.IsObject()) p.Expect("a parameter {name, type}");
    std::string name = p.Need("name").Text();
    f.parameters.emplace_back(std::move(name), DecodeType(p.Need("type")));
  }
  f.return_type = DecodeType(r.Need("return-type"));
  const Slot body = r.Need("body");
  if (f.return_type.id != TypeId::kBoolean) {
    f.body = DecodeBodyTerm(body);
    return f;
  }
  // A boolean UDF's body is a predicate, or else a term of type boolean.
  try {
    f.body = DecodePredicate(body);
  } catch (const Malformed& as_predicate) {
    try {
      f.body = DecodeBodyTerm(body);
    } catch (const Malformed&) {
      throw as_predicate;
    }
  }
  return f;
}

Operation TableOp(const std::string& op, const Slot& r) {
  if (op == "create-table") {
    const int32_t version = r.Need("format-version").Int();
    return CreateTable{version, DecodeSchema(r.Need("schema"))};
  }
  if (op == "load-table") return LoadTable{};
  if (op == "upgrade") return Upgrade{r.Need("format-version").Int()};
  if (op == "add-constraint") {
    const Slot c = r.Need("constraint");
    if (!c.IsObject()) c.Expect("a constraint object");
    return AddConstraint{DecodeConstraint(c)};
  }
  if (op == "update-constraint") {
    std::string name = r.Need("name").Text();
    return UpdateConstraint{std::move(name), UpdateOf(r.Need("set"))};
  }
  if (op == "remove-constraint") return RemoveConstraint{r.Need("name").Text()};
  if (op == "update-schema") return UpdateSchemaOf(r);
  if (op == "commit") return CommitOf(r);
  if (op == "begin") return Begin{r.Need("txn").Text()};
  if (op == "finish") return Finish{r.Need("txn").Text()};
  if (op == "validate") return Validate{Names(r.Need("names"))};
  if (op == "scan") {
    std::optional<SnapshotId> snapshot;
    if (auto id = r.Get("snapshot-id")) snapshot = id->Long();
    return Scan{snapshot};
  }
  throw UnknownOp(fmt::format("unsupported op \"{}\"", op));
}

}  // namespace

Request DecodeRequest(const Slot& r) {
  if (!r.IsObject()) r.Expect("a request object");
  const std::string op = r.Need("op").Text();
  if (op == "hello") r.Need("op").Fail("hello is answered before requests are decoded");
  if (auto id = r.Get("id")) id->Long();
  Request request;
  if (auto now = r.Get("now-ms")) request.now_ms = now->Long();
  if (op == "define-function") {
    request.op = DefineFunction{FunctionOf(r)};
  } else if (op == "read-statuses" || op == "parse-metadata") {
    TableMetadata md = DecodeMetadata(r.Need("metadata"));
    if (op == "parse-metadata") {
      request.op = ParseMetadata{std::move(md)};
    } else {
      std::optional<SnapshotId> snapshot;
      if (auto id = r.Get("snapshot-id")) snapshot = id->Long();
      request.op = ReadStatuses{std::move(md), snapshot};
    }
  } else {
    request.op = TableOp(op, r);
    request.table = r.Need("table").Text();
  }
  return request;
}

Row DecodeRow(const Slot& slot, const std::vector<NestedField>& fields) {
  if (!slot.IsObject()) slot.Expect("a row {\"key\", \"values\"}");
  Row row;
  row.key = slot.Need("key").Text();
  row.values = ReadTyped(slot.Need("values"), Type::Struct(fields));
  return row;
}

std::optional<int32_t> DecodeHelloVersion(const Slot& request) {
  if (!request.IsObject()) request.Expect("a request object");
  if (auto id = request.Get("id")) id->Long();
  std::optional<Slot> version = request.Get("protocol-version");
  if (!version) return std::nullopt;
  return version->Int();
}

}  // namespace ictk::sample
