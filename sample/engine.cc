/// \file
/// The sample engine's dispatch and its table-level operations: create, upgrade, the
/// constraint DDL, schema evolution, UDFs, scans and the reader operations.
#include <fmt/format.h>

#include <algorithm>
#include <functional>
#include <set>
#include <variant>

#include "sample/engine_internal.h"
#include "sample/schema_internal.h"
#include "sample/single_value_internal.h"

namespace ictk::sample {
namespace {

template <class... Ts>
struct Overloaded : Ts... {
  using Ts::operator()...;
};
template <class... Ts>
Overloaded(Ts...) -> Overloaded<Ts...>;

std::string_view TypeText(ConstraintType t) {
  switch (t) {
    case ConstraintType::kCheck:
      return "check";
    case ConstraintType::kUnique:
      return "unique";
    case ConstraintType::kPrimaryKey:
      return "primary-key";
  }
  return "";
}

Constraint* FindByName(std::vector<Constraint>& cs, const std::string& name) {
  for (Constraint& c : cs)
    if (c.name && *c.name == name) return &c;
  return nullptr;
}

/// The field IDs a constraint references (its field-ids, or its expression's references).
/// The schema checks the engine's mutant skips (v3-type-before-v3, sibling-name-reused).
SchemaLeniency SchemaLenientOf(const Engine& e) {
  SchemaLeniency l;
  l.v3_types_anywhere = e.Has(Mutant::kV3TypeBeforeV3);
  l.sibling_names_shared = e.Has(Mutant::kSiblingNameReused);
  return l;
}

/// The ice.identifier-fields clause the engine's mutant skips, if any.
IdentifierLeniency IdentifierLenientOf(const Engine& e) {
  IdentifierLeniency l;
  l.non_primitive_ok = e.Has(Mutant::kNonPrimitiveIdentifierAccepted);
  l.float_ok = e.Has(Mutant::kFloatIdentifierAccepted);
  l.optional_ok = e.Has(Mutant::kOptionalIdentifierAccepted);
  l.repeated_ok = e.Has(Mutant::kRepeatedIdentifierAccepted);
  l.optional_parent_ok = e.Has(Mutant::kIdentifierUnderOptionalAccepted);
  return l;
}

std::set<FieldId> Referenced(const Constraint& c) {
  if (c.field_ids) return {c.field_ids->begin(), c.field_ids->end()};
  if (c.expression) return ReferencedIds(*c.expression);
  return {};
}

/// Assigns fresh IDs (from `last`) to a type given in add-column, as Iceberg does.
void ReassignIds(Type& type, FieldId& last) {
  switch (type.id) {
    case TypeId::kStruct:
      for (NestedField& f : type.fields) f.id = ++last;
      for (NestedField& f : type.fields) ReassignIds(f.type, last);
      break;
    case TypeId::kList:
      type.element_id = ++last;
      for (Type& c : type.children) ReassignIds(c, last);
      break;
    case TypeId::kMap:
      type.key_id = ++last;
      type.value_id = ++last;
      for (Type& c : type.children) ReassignIds(c, last);
      break;
    default:
      break;
  }
}

/// The sibling list that holds field `id` (top level or a struct's fields), or nullptr.
std::vector<NestedField>* SiblingsOf(std::vector<NestedField>& fields, FieldId id) {
  for (NestedField& f : fields) {
    if (f.id == id) return &fields;
  }
  for (NestedField& f : fields) {
    Type* t = &f.type;
    while (t->id == TypeId::kList || t->id == TypeId::kMap) {
      t = t->id == TypeId::kList ? &t->children[0] : &t->children[1];
    }
    if (t->id == TypeId::kStruct) {
      if (auto* s = SiblingsOf(t->fields, id)) return s;
    }
  }
  return nullptr;
}

NestedField* FieldById(std::vector<NestedField>& fields, FieldId id) {
  std::vector<NestedField>* sib = SiblingsOf(fields, id);
  if (sib == nullptr) return nullptr;
  for (NestedField& f : *sib)
    if (f.id == id) return &f;
  return nullptr;
}

/// The struct fields a column added under `parent` goes into, or nullptr.
std::vector<NestedField>* ChildrenOf(std::vector<NestedField>& fields, FieldId parent) {
  NestedField* f = FieldById(fields, parent);
  Type* t = nullptr;
  if (f != nullptr) {
    t = &f->type;
  } else {
    return nullptr;
  }
  while (t->id == TypeId::kList || t->id == TypeId::kMap) {
    t = t->id == TypeId::kList ? &t->children[0] : &t->children[1];
  }
  return t->id == TypeId::kStruct ? &t->fields : nullptr;
}

void CollectAllIds(const Type& t, std::set<FieldId>& out) {
  for (const NestedField& f : t.fields) {
    out.insert(f.id);
    CollectAllIds(f.type, out);
  }
  if (t.id == TypeId::kList) out.insert(t.element_id);
  if (t.id == TypeId::kMap) {
    out.insert(t.key_id);
    out.insert(t.value_id);
  }
  for (const Type& c : t.children) CollectAllIds(c, out);
}

bool DefaultFits(const std::optional<std::string>& text, const Type& type) {
  if (!text) return true;
  return ValueOfJsonText(*text, type, /*utc_only=*/true).has_value();
}

/// ASCII lower case (mutant type-name-case-insensitive).
std::string LowerCase(std::string text) {
  for (char& ch : text)
    if (ch >= 'A' && ch <= 'Z') ch = static_cast<char>(ch - 'A' + 'a');
  return text;
}

}  // namespace

CheckOptions Engine::CheckOpts() const {
  CheckOptions o;
  o.accept_named_references = Has(Mutant::kNameReferenceAccepted);
  o.accept_repeated_references = Has(Mutant::kListElementReferenceAccepted);
  o.accept_map_references = Has(Mutant::kMapElementReferenceAccepted);
  o.three_valued = Has(Mutant::kThreeValuedNulls);
  o.wrong_bucket_hash = Has(Mutant::kBucketWrongHash);
  o.accept_ill_typed = Has(Mutant::kIllTypedCheckAccepted);
  return o;
}

SnapshotId Engine::PickSnapshotId(const std::string& table) const {
  auto last = last_snapshot_id_.find(table);
  if (!divergent_) return (last == last_snapshot_id_.end() ? 0 : last->second) + 1;
  // "snapshot-id: A unique long ID" (Iceberg): any positive long the table has not used.
  auto used = used_snapshot_ids_.find(table);
  for (;;) {
    const SnapshotId id = static_cast<SnapshotId>(choose_.Next() >> 1);
    if (id > 0 && (used == used_snapshot_ids_.end() || used->second.count(id) == 0))
      return id;
  }
}

void Engine::UseSnapshotId(const std::string& table, SnapshotId id) {
  last_snapshot_id_[table] = id;
  used_snapshot_ids_[table].insert(id);
}

ConstraintId Engine::IdGap() const {
  return divergent_ ? static_cast<ConstraintId>(choose_.Below(6)) : 0;
}

std::vector<ConstraintId> Engine::NameSome(std::vector<ConstraintId> ids) const {
  if (!divergent_ || ids.empty()) return ids;
  choose_.Shuffle(ids);
  ids.resize(1 + choose_.Below(ids.size()));
  return ids;
}

const std::vector<NestedField>* Engine::CommitFields(
    const std::string& table, const std::optional<std::string>& txn) const {
  if (txn) {
    auto it = txns_.find({table, *txn});
    if (it != txns_.end()) return &CurrentSchemaOf(it->second.base.meta).fields;
  }
  auto it = tables_.find(table);
  if (it == tables_.end()) return nullptr;
  return &CurrentSchemaOf(it->second.meta).fields;
}

Reply Engine::Handle(const Request& r, uint64_t seed) {
  choose_ = Chooser(seed);
  // Operations that concern no table.
  if (auto* op = std::get_if<CreateTable>(&r.op)) return CreateTableOp(r, *op);
  if (auto* op = std::get_if<DefineFunction>(&r.op)) return DefineFunctionOp(*op);
  if (auto* op = std::get_if<ReadStatuses>(&r.op)) return ReadStatusesOp(*op);
  if (auto* op = std::get_if<ParseMetadata>(&r.op)) return ParseMetadataOp(*op);

  auto it = tables_.find(r.table);
  if (it == tables_.end() && std::holds_alternative<Scan>(r.op) &&
      Has(Mutant::kUnknownTableScansEmpty)) {
    // Takes a table it does not have as one without rows.
    Reply empty;
    empty.rows.emplace();
    return empty;
  }
  if (it == tables_.end()) {
    return Reply::Reject(kinds::kInvalidRequest,
                         fmt::format("no table named '{}'", r.table));
  }
  const Table& current = it->second;
  const int64_t now = r.now_ms.value_or(current.meta.last_updated_ms + 1);
  if (std::holds_alternative<LoadTable>(r.op)) return Reply::Ok(current.meta);
  if (auto* op = std::get_if<Scan>(&r.op)) return ScanOp(current, *op);
  if (auto* op = std::get_if<Begin>(&r.op)) return BeginOp(r.table, current, *op);

  // Everything else changes the table: work on a copy, keep it only on success.
  Table t = current;
  Reply reply = std::visit(
      Overloaded{
          [&](const Upgrade& op) { return UpgradeOp(t, now, op); },
          [&](const AddConstraint& op) { return AddConstraintOp(t, now, op); },
          [&](const UpdateConstraint& op) { return UpdateConstraintOp(t, now, op); },
          [&](const RemoveConstraint& op) { return RemoveConstraintOp(t, now, op); },
          [&](const UpdateSchema& op) { return UpdateSchemaOp(t, now, op); },
          [&](const Commit& op) { return CommitOp(r.table, t, now, op); },
          [&](const Finish& op) { return FinishOp(r.table, t, now, op); },
          [&](const Validate& op) { return ValidateOp(r.table, t, now, op); },
          [&](const auto&) {
            Reply u;
            u.kind = Reply::Kind::kUnsupported;
            u.message = "unsupported op";
            return u;
          },
      },
      r.op);
  const bool staged_only =
      std::holds_alternative<Commit>(r.op) && std::get<Commit>(r.op).txn.has_value();
  if (reply.kind == Reply::Kind::kOk && !staged_only) {
    t.version = current.version + 1;
    it->second = std::move(t);
  }
  if (reply.kind == Reply::Kind::kRejected && Has(Mutant::kRejectionNamesAllConstraints)) {
    // Names every constraint of the table, whatever the rejection is about.
    reply.constraint_ids.clear();
    for (const Constraint& c : it->second.meta.constraints.value_or(std::vector<Constraint>{}))
      if (c.id) reply.constraint_ids.push_back(*c.id);
  }
  if (reply.kind == Reply::Kind::kRejected && Has(Mutant::kRejectionTouchesTable) &&
      std::holds_alternative<AddConstraint>(r.op)) {
    // Allocates the new constraint's ID before validating it: the rejected request
    // still raised last-constraint-id.
    TableMetadata& md = it->second.meta;
    md.last_constraint_id = md.last_constraint_id.value_or(0) + 1;
  }
  return reply;
}

Reply Engine::CreateTableOp(const Request& r, const CreateTable& op) {
  if (r.table.empty())
    return Reply::Reject(kinds::kInvalidRequest, "create-table needs a table");
  if (tables_.count(r.table) != 0) {
    return Reply::Reject(kinds::kInvalidRequest,
                         fmt::format("table '{}' exists", r.table));
  }
  if (op.format_version < 1 || op.format_version > 4) {
    return Reply::Reject(
        kinds::kUnsupportedVersion,
        fmt::format("format version {} is not supported", op.format_version));
  }
  Schema schema = op.schema;
  std::string problem = SchemaProblem(schema.fields, op.format_version, SchemaLenientOf(*this));
  if (!problem.empty()) return Reply::Reject(kinds::kInvalidSchemaChange, problem);
  const int64_t now = r.now_ms.value_or(0);
  std::optional<std::vector<FieldId>> pk_fields;
  if (schema.identifier_field_ids) {
    const auto slots = IndexFields(schema.fields);
    bool eligible = !schema.identifier_field_ids->empty();
    for (FieldId id : *schema.identifier_field_ids) {
      auto it = slots.find(id);
      const bool missing_ok = Has(Mutant::kMissingIdentifierAccepted);
      if (op.format_version < 4 &&
          ((it == slots.end() && !missing_ok) ||
           (it != slots.end() && !ValidIdentifierField(it->second, IdentifierLenientOf(*this))))) {
        return Reply::Reject(kinds::kInvalidSchemaChange,
                             fmt::format("identifier field {} is not valid", id));
      }
      if (it == slots.end() || !CheckKeyField(it->second, true).problem.empty()) {
        eligible = false;
      }
    }
    if (op.format_version >= 4) {
      // upg.no-identifiers-in-v4: the stored schema carries none; the identifier fields
      // become an unenforced primary key, as an upgrade would make them.
      if (eligible) pk_fields = *schema.identifier_field_ids;
      if (!Has(Mutant::kV4SchemaKeepsIdentifiers)) schema.identifier_field_ids.reset();
    }
  }
  Table t;
  t.meta = NewTableMetadata(r.table, op.format_version, std::move(schema), now);
  if (pk_fields) {
    Constraint pk;
    pk.id = 1 + IdGap();
    pk.type = ConstraintType::kPrimaryKey;
    pk.raw_type = "primary-key";
    pk.name = "pk";
    pk.enforced = false;
    pk.timestamp_ms = now;
    pk.field_ids = *pk_fields;
    t.meta.last_constraint_id = pk.id;
    t.meta.constraints->push_back(std::move(pk));
  }
  Reply reply = Reply::Ok(t.meta);
  tables_.emplace(r.table, std::move(t));
  last_snapshot_id_.erase(r.table);
  used_snapshot_ids_.erase(r.table);
  created_.push_back(r.table);
  if (created_.size() > kKeptTables) {
    Forget(created_.front());
    created_.erase(created_.begin());
  }
  return reply;
}

void Engine::Forget(const std::string& table) {
  tables_.erase(table);
  last_snapshot_id_.erase(table);
  used_snapshot_ids_.erase(table);
  std::erase_if(txns_, [&](const auto& x) { return x.first.first == table; });
  std::erase_if(udf_owner_, [&](const auto& x) {
    if (x.second != table) return false;
    udfs_.erase(x.first);
    return true;
  });
}

/// "When a table is upgraded to v4, the identifier-field-ids of the table's current
/// schema are rewritten as a single primary-key constraint that is not enforced" and "If
/// any of those fields cannot be used in a primary-key constraint ... no constraint is
/// created and the upgrade continues without it" (upg.pk-from-identifiers,
/// upg.skip-ineligible).
Reply Engine::UpgradeOp(Table& t, int64_t now, const Upgrade& op) {
  TableMetadata& md = t.meta;
  // unknown-version-ignored: takes an upgrade to a version it does not know as done.
  if (op.format_version > 4 && Has(Mutant::kUnknownVersionIgnored)) return Reply::Ok(md);
  if (op.format_version < 1 || op.format_version > 4) {
    return Reply::Reject(
        kinds::kUnsupportedVersion,
        fmt::format("format version {} is not supported", op.format_version));
  }
  if (op.format_version < md.format_version && Has(Mutant::kDowngradeAccepted)) {
    md.format_version = op.format_version;
    md.last_updated_ms = std::max(md.last_updated_ms, now);
    return Reply::Ok(md);
  }
  if (op.format_version < md.format_version) {
    return Reply::Reject(
        kinds::kUnsupportedVersion,
        fmt::format("cannot downgrade from v{} to v{} (ice.format-version-up)",
                    md.format_version, op.format_version));
  }
  if (op.format_version == md.format_version) return Reply::Ok(md);
  const int32_t from = md.format_version;
  md.format_version = op.format_version;
  md.last_updated_ms = std::max(md.last_updated_ms, now);
  if (from == 1) {
    md.has_legacy_schema = false;
    md.has_legacy_partition_spec = false;
  }
  if (op.format_version >= 2 && !md.last_sequence_number) md.last_sequence_number = 0;
  if (op.format_version >= 3 && !md.next_row_id) md.next_row_id = 0;
  if (op.format_version >= 4) {
    // "last-constraint-id ... is treated as 0 when it is not present"
    // (id.last-default-zero); the mutant takes it as 1.
    md.last_constraint_id =
        md.last_constraint_id.value_or(Has(Mutant::kAbsentLastIdIsOne) ? 1 : 0);
    md.constraints = std::vector<Constraint>{};
    const Schema& schema = CurrentSchemaOf(md);
    if (schema.identifier_field_ids && !schema.identifier_field_ids->empty()) {
      const auto slots = IndexFields(schema.fields);
      bool eligible = true;
      for (FieldId id : *schema.identifier_field_ids) {
        auto it = slots.find(id);
        if (it == slots.end() || !CheckKeyField(it->second, true).problem.empty()) {
          eligible = false;
        }
      }
      if (!eligible && Has(Mutant::kUpgradeFailsOnIneligible)) {
        return Reply::Reject(kinds::kInvalidSchemaChange,
                             "an identifier field cannot be a primary-key field");
      }
      if ((eligible && !Has(Mutant::kUpgradeCreatesNoPk)) ||
          Has(Mutant::kUpgradeKeepsIneligiblePk)) {
        Constraint pk;
        pk.id = *md.last_constraint_id + 1 + IdGap();
        pk.type = ConstraintType::kPrimaryKey;
        pk.raw_type = "primary-key";
        pk.name = "pk";
        pk.enforced = Has(Mutant::kUpgradePkEnforced);
        pk.timestamp_ms = now;
        pk.field_ids = *schema.identifier_field_ids;
        md.last_constraint_id = *pk.id;
        md.constraints->push_back(std::move(pk));
      }
    }
  }
  return Reply::Ok(md);
}

std::string Engine::ConstraintProblem(const Constraint& c, const Schema& schema,
                                      const std::vector<Constraint>& others,
                                      std::string& rule, bool as_reader,
                                      std::optional<ConstraintId>* clash) const {
  auto fail = [&](std::string r, std::string message) {
    rule = std::move(r);
    return message;
  };
  const bool writer = !as_reader;
  if (!c.type)
    return fail("def.types", fmt::format("'{}' is not a constraint type", c.raw_type));
  if (!c.name || c.name->empty())
    return fail("def.required-fields", "a constraint needs a name");
  if (!c.enforced) return fail("def.required-fields", "a constraint needs enforced");
  if (as_reader && (!c.id || !c.timestamp_ms) &&
      !Has(Mutant::kReaderAcceptsMissingIdOrTimestamp)) {
    return fail("def.required-fields",
                "a stored constraint needs constraint-id and timestamp-ms");
  }
  for (const Constraint& o : others) {
    if (o.name && *o.name == *c.name &&
        !(writer && Has(Mutant::kDuplicateNameAccepted))) {
      if (clash != nullptr) *clash = o.id;
      return fail("def.name-unique",
                  fmt::format("another constraint is named '{}'", *c.name));
    }
    if (as_reader && o.id && c.id && *o.id == *c.id &&
        !Has(Mutant::kReaderAcceptsDuplicateIds)) {
      return fail("def.id-unique", fmt::format("constraint ID {} is used twice", *c.id));
    }
  }
  if (*c.type == ConstraintType::kCheck) {
    if (!c.expression && writer && Has(Mutant::kCheckWithoutExpressionAccepted)) return {};
    if (!c.expression) return fail("def.check-expression", "a check needs an expression");
    if (c.field_ids && !(writer && Has(Mutant::kCheckFieldIdsAccepted)))
      return fail("def.key-field-ids", "a check must not set field-ids");
    UdfCatalog none;
    CompiledCheck check(*c.expression, schema.fields, as_reader ? none : udfs_,
                        CheckOpts());
    const CheckInfo& info = check.info();
    if (!info.error.empty()) return fail(info.error_rule, info.error);
    if (writer && !info.undefined_udfs.empty()) {
      return fail("expr.deterministic",
                  fmt::format("function {} is not defined", info.undefined_udfs[0]));
    }
    if (writer && !info.nondeterministic_udfs.empty() &&
        !Has(Mutant::kNondeterministicUdfAccepted)) {
      return fail("expr.deterministic", fmt::format("function {} is not deterministic",
                                                    info.nondeterministic_udfs[0]));
    }
    return {};
  }
  const bool pk = *c.type == ConstraintType::kPrimaryKey;
  if (c.expression && !(writer && Has(Mutant::kKeyExpressionAccepted)))
    return fail("def.check-expression", "only a check has an expression");
  if (!c.field_ids && writer && Has(Mutant::kAbsentKeyFieldsAccepted)) return {};
  if (!c.field_ids ||
      (c.field_ids->empty() && !(writer && Has(Mutant::kEmptyKeyAccepted)))) {
    return fail("def.key-field-ids", "a key constraint needs at least one field ID");
  }
  std::set<FieldId> seen;
  const auto slots = IndexFields(schema.fields);
  KeyFieldLeniency lenient;
  if (writer) {
    lenient.float_ok = Has(Mutant::kFloatKeyAccepted);
    lenient.geo_ok = Has(Mutant::kGeoKeyAccepted);
    lenient.optional_ok = Has(Mutant::kPkAllowsOptional);
    lenient.repeated_ok = Has(Mutant::kListKeyAccepted);
    lenient.map_ok = Has(Mutant::kMapKeyAccepted);
    lenient.struct_ok = Has(Mutant::kStructKeyAccepted);
    lenient.collection_ok = Has(Mutant::kCollectionKeyAccepted);
    lenient.variant_ok = Has(Mutant::kVariantKeyAccepted);
    lenient.double_ok = Has(Mutant::kDoubleKeyAccepted);
    lenient.geography_ok = Has(Mutant::kGeographyKeyAccepted);
    lenient.unknown_ok = Has(Mutant::kUnknownKeyAccepted);
    lenient.optional_parent_ok = Has(Mutant::kPkAllowsOptionalParent);
    lenient.unique_needs_required = Has(Mutant::kUniqueRejectsOptional);
    lenient.unique_needs_required_parent = Has(Mutant::kUniqueRejectsOptionalParent);
  }
  for (FieldId id : *c.field_ids) {
    if (!seen.insert(id).second && !(writer && Has(Mutant::kDuplicateKeyFieldAccepted))) {
      return fail("def.key-field-ids", fmt::format("field ID {} is listed twice", id));
    }
    auto it = slots.find(id);
    if (it == slots.end() && writer && Has(Mutant::kMissingKeyFieldAccepted)) continue;
    if (it == slots.end()) {
      return fail("sch.referenced-exist", fmt::format("the schema has no field {}", id));
    }
    KeyFieldVerdict v = CheckKeyField(it->second, pk, lenient);
    if (!v.problem.empty()) return fail(v.rule, v.problem);
  }
  if (pk && !(writer && Has(Mutant::kTwoPksAccepted))) {
    for (const Constraint& o : others) {
      if (o.type == ConstraintType::kPrimaryKey) {
        if (clash != nullptr) *clash = o.id;
        return fail("def.single-pk", "the table already has a primary key");
      }
    }
  }
  return {};
}

Reply Engine::AddConstraintOp(Table& t, int64_t now, const AddConstraint& op) {
  TableMetadata& md = t.meta;
  if (md.format_version < 4 && !Has(Mutant::kConstraintsOnV3)) {
    return Reply::Reject(
        kinds::kUnsupportedVersion,
        fmt::format("constraints need format version 4, the table is v{} "
                    "(def.v4-only)",
                    md.format_version));
  }
  if (!md.constraints) md.constraints = std::vector<Constraint>{};
  Constraint c = op.constraint;
  if (!c.type && Has(Mutant::kTypeNameCaseInsensitive) && LowerCase(c.raw_type) == "unique")
    c.type = ConstraintType::kUnique;
  if (!c.name && Has(Mutant::kMissingNameGenerated))
    c.name = fmt::format("constraint_{}", md.last_constraint_id.value_or(0) + 1);
  if (!c.enforced && Has(Mutant::kMissingEnforcedDefaultsFalse)) c.enforced = false;
  if (!c.type && c.raw_type.empty() && Has(Mutant::kMissingTypeInferred)) {
    c.type = c.expression ? ConstraintType::kCheck : ConstraintType::kUnique;
  }
  std::string rule;
  std::optional<ConstraintId> clash;
  std::string problem =
      ConstraintProblem(c, CurrentSchemaOf(md), *md.constraints, rule, false, &clash);
  if (!problem.empty()) {
    // The rejection names the constraint the new one clashes with (a duplicate name, a
    // second primary key), when there is one.
    std::vector<ConstraintId> ids;
    if (clash && divergent_) ids.push_back(*clash);
    return Reply::Reject(kinds::kInvalidConstraint,
                         fmt::format("{} ({})", problem, rule), ids);
  }
  // Existing rows that break a constraint added as enforced: "writers must ensure that
  // written data conform to the constraint" (enf.enforced) leaves open whether rows
  // written before count (switch existing-rows-on-enforce, default either). The canonical
  // sample accepts; the divergent one refuses.
  if (divergent_ && c.enforced.value_or(false) && !t.live().empty()) {
    const Truth truth = TruthOnLive(t, c);
    if (truth.violated) {
      return Reply::Reject(kinds::kConstraintViolation,
                           fmt::format("existing rows break '{}', which would be "
                                       "enforced (enf.enforced)",
                                       c.name.value_or("")));
    }
    if (!truth.evaluable) {
      return Reply::Reject(kinds::kUnverifiable,
                           fmt::format("'{}' cannot be evaluated on the existing rows",
                                       c.name.value_or("")));
    }
  }
  // "Writers must assign a new constraint an ID that is higher than the table's current
  // last-constraint-id and must update last-constraint-id to the highest assigned ID"
  // (id.above-last, id.update-last); last-constraint-id "is treated as 0 when it is not
  // present" (id.last-default-zero); IDs "must not be reused" (id.no-reuse).
  const ConstraintId last = md.last_constraint_id.value_or(0);
  ConstraintId id = last + 1 + IdGap();
  if (Has(Mutant::kReuseRemovedId)) {
    ConstraintId max = 0;
    for (const Constraint& o : *md.constraints) max = std::max(max, o.id.value_or(0));
    id = max + 1;
  }
  if (Has(Mutant::kIdNotAboveLast)) id = last;
  c.id = id;
  c.raw_type = std::string(TypeText(*c.type));
  // constraint-timestamp-from-table-clock: the table's previous clock, not now-ms.
  c.timestamp_ms = Has(Mutant::kConstraintTimestampFromTableClock) ? md.last_updated_ms : now;
  if (!Has(Mutant::kLastIdNotUpdated)) md.last_constraint_id = std::max(last, id);
  if (!md.last_constraint_id) md.last_constraint_id = last;
  md.constraints->push_back(std::move(c));
  md.last_updated_ms = std::max(md.last_updated_ms, now);
  return Reply::Ok(md);
}

/// "Only name and enforced fields in a constraint definition can be updated, and
/// timestamp-ms must be updated when the constraint is updated. The expression and
/// field-ids fields must not change" (upd.name-enforced-only, upd.timestamp,
/// upd.definition-immutable). A `set` that restates the current value changes nothing.
Reply Engine::UpdateConstraintOp(Table& t, int64_t now, const UpdateConstraint& op) {
  TableMetadata& md = t.meta;
  if (md.format_version < 4 && !md.constraints) {
    return Reply::Reject(kinds::kUnsupportedVersion, "constraints need format version 4");
  }
  if (!md.constraints) md.constraints = std::vector<Constraint>{};
  Constraint* c = FindByName(*md.constraints, op.name);
  if (c == nullptr) {
    return Reply::Reject(kinds::kInvalidRequest,
                         fmt::format("no constraint named '{}'", op.name));
  }
  const ConstraintUpdate& set = op.set;
  // A refused update names the constraint it updates.
  std::vector<ConstraintId> self;
  if (divergent_ && c->id) self.push_back(*c->id);
  // A `set` naming `type`, `expression` or `field-ids` with the current value changes
  // nothing, yet names a field other than `name` and `enforced` (switch
  // restated-definition, default either): the divergent sample refuses every one.
  if (divergent_ && (set.type || set.expression || set.field_ids)) {
    return Reply::Reject(kinds::kInvalidUpdate,
                         "only name and enforced can be updated "
                         "(upd.name-enforced-only)",
                         self);
  }
  if (set.type && *set.type != c->raw_type && *set.type != TypeText(*c->type)) {
    if (Has(Mutant::kTypeUpdatable) && c->type != ConstraintType::kCheck &&
        (*set.type == "unique" || *set.type == "primary-key")) {
      c->type = *set.type == "unique" ? ConstraintType::kUnique : ConstraintType::kPrimaryKey;
      c->raw_type = *set.type;
    } else {
      return Reply::Reject(
        kinds::kInvalidUpdate,
          "the type of a constraint cannot change (upd.name-enforced-only)", self);
    }
  }
  if (set.expression && (!c->expression || !(*set.expression == *c->expression))) {
    if (Has(Mutant::kExpressionUpdatable) && c->expression) {
      c->expression = *set.expression;
    } else {
      return Reply::Reject(
        kinds::kInvalidUpdate,
          "the expression of a check cannot change (upd.definition-immutable)", self);
    }
  }
  if (set.field_ids) {
    const std::set<FieldId> now_ids(set.field_ids->begin(), set.field_ids->end());
    const bool same =
        c->field_ids &&
        now_ids == std::set<FieldId>(c->field_ids->begin(), c->field_ids->end()) &&
        now_ids.size() == set.field_ids->size();
    if (!same) {
      if (!Has(Mutant::kFieldIdsUpdatable) || !c->field_ids) {
        return Reply::Reject(kinds::kInvalidUpdate,
                             "the field-ids of a constraint cannot change "
                             "(upd.definition-immutable)",
                             self);
      }
      c->field_ids = *set.field_ids;
    }
  }
  if (set.name) {
    if (set.name->empty())
      return Reply::Reject(kinds::kInvalidConstraint, "an empty name");
    for (const Constraint& o : *md.constraints) {
      if (&o != c && o.name && *o.name == *set.name) {
        std::vector<ConstraintId> ids;
        if (divergent_ && o.id) ids.push_back(*o.id);
        // A duplicate name breaks the definition rules and is a refused update: either
        // kind (protocol section 8, "Where a request has two causes").
        return Reply::Reject(
            divergent_ && choose_.Coin() ? kinds::kInvalidUpdate : kinds::kInvalidConstraint,
            fmt::format("another constraint is named '{}' (def.name-unique)", *set.name),
            ids);
      }
    }
    c->name = *set.name;
    if (Has(Mutant::kRenameReassignsId)) {
      c->id = md.last_constraint_id.value_or(0) + 1;
      md.last_constraint_id = c->id;
    }
  }
  // A constraint that becomes enforced over rows that break it: refused when divergent
  // (existing-rows-on-enforce, as in add-constraint).
  if (divergent_ && set.enforced && *set.enforced && !c->enforced.value_or(false) &&
      !t.live().empty()) {
    const Truth truth = TruthOnLive(t, *c);
    if (truth.violated) {
      return Reply::Reject(kinds::kConstraintViolation,
                           fmt::format("existing rows break '{}', which would become "
                                       "enforced (enf.enforced)",
                                       c->name.value_or("")),
                           self);
    }
    if (!truth.evaluable) {
      return Reply::Reject(kinds::kUnverifiable,
                           fmt::format("'{}' cannot be evaluated on the existing rows",
                                       c->name.value_or("")),
                           self);
    }
  }
  if (set.enforced) c->enforced = *set.enforced;
  if (!Has(Mutant::kTimestampNotUpdated))
    c->timestamp_ms = Has(Mutant::kConstraintTimestampFromTableClock) ? md.last_updated_ms : now;
  md.last_updated_ms = std::max(md.last_updated_ms, now);
  return Reply::Ok(md);
}

Reply Engine::RemoveConstraintOp(Table& t, int64_t now, const RemoveConstraint& op) {
  TableMetadata& md = t.meta;
  if (!md.constraints) {
    return Reply::Reject(
        md.format_version < 4 ? kinds::kUnsupportedVersion : kinds::kInvalidRequest,
        fmt::format("no constraint named '{}'", op.name));
  }
  auto& cs = *md.constraints;
  auto it = std::find_if(cs.begin(), cs.end(), [&](const Constraint& c) {
    return c.name && *c.name == op.name;
  });
  if (it == cs.end()) {
    if (Has(Mutant::kUnknownConstraintRemovalIgnored)) return Reply::Ok(md);
    return Reply::Reject(kinds::kInvalidRequest,
                         fmt::format("no constraint named '{}'", op.name));
  }
  cs.erase(it);
  md.last_updated_ms = std::max(md.last_updated_ms, now);
  return Reply::Ok(md);
}

/// Applies the changes of one update-schema as one new schema, with the constraint rules
/// of "Constraints and Schema Evolution" (sch.*).
Reply Engine::UpdateSchemaOp(Table& t, int64_t now, const UpdateSchema& op) {
  TableMetadata& md = t.meta;
  const Schema& current = CurrentSchemaOf(md);
  std::vector<NestedField> fields = current.fields;
  FieldId last = std::max(md.last_column_id, HighestFieldId(fields));
  // added-field-id-not-above-last: an ID allocator that fills holes — a new column takes
  // the ID of a top-level column an earlier schema had and the current one lacks.
  std::set<FieldId> holes;
  if (Has(Mutant::kAddedFieldIdNotAboveLast)) {
    for (const Schema& s : md.schemas)
      for (const NestedField& f : s.fields) holes.insert(f.id);
    for (const NestedField& f : fields) holes.erase(f.id);
  }
  std::vector<FieldId> unknown_added;  // unknown-column-required
  auto bad = [this](std::string message, std::optional<ConstraintId> about = {}) {
    // A refusal for a constraint's sake names that constraint (divergent).
    std::vector<ConstraintId> ids;
    if (about && divergent_) ids.push_back(*about);
    return Reply::Reject(kinds::kInvalidSchemaChange, std::move(message), ids);
  };

  // The constraints that remain after the change.
  std::vector<Constraint> remaining = md.constraints.value_or(std::vector<Constraint>{});
  for (const std::string& name : op.remove_constraints) {
    auto it = std::find_if(remaining.begin(), remaining.end(), [&](const Constraint& c) {
      return c.name && *c.name == name;
    });
    if (it == remaining.end()) {
      return Reply::Reject(kinds::kInvalidRequest,
                           fmt::format("no constraint named '{}'", name));
    }
    remaining.erase(it);
  }

  std::set<FieldId> deleted, retyped, made_optional;
  const bool has_rows = !t.live().empty();
  // "Renaming or reordering a constraint-referenced field is allowed"
  // (sch.rename-reorder); the mutants refuse it.
  std::set<FieldId> referenced;
  for (const Constraint& c : remaining)
    for (FieldId id : Referenced(c)) referenced.insert(id);
  auto refused = [&](FieldId id, Mutant m) {
    return Has(m) && referenced.count(id) != 0;
  };
  for (const SchemaChange& change : op.changes) {
    std::string problem = std::visit(
        Overloaded{
            [&](const AddColumn& a) -> std::string {
              std::vector<NestedField>* into = &fields;
              if (a.parent_id) {
                into = ChildrenOf(fields, *a.parent_id);
                if (into == nullptr) {
                  return fmt::format("field {} is not a struct to add to", *a.parent_id);
                }
              }
              for (const NestedField& f : *into) {
                if (f.name == a.name && !Has(Mutant::kSiblingNameReused))
                  return fmt::format("a field named '{}' exists", a.name);
              }
              if ((a.initial_default_json || a.write_default_json) &&
                  md.format_version < 3) {
                return "defaults need format version 3";
              }
              if (a.required && has_rows && !a.initial_default_json &&
                  !Has(Mutant::kRequiredColumnWithoutDefault)) {
                return "a required column added to a table with rows needs an "
                       "initial-default "
                       "(ice.required-needs-default)";
              }
              NestedField f;
              // added-field-id-reused: the new column takes the highest ID in use.
              f.id = Has(Mutant::kAddedFieldIdReused) && last > 0 ? last : ++last;
              if (!holes.empty()) {
                f.id = *holes.begin();
                holes.erase(holes.begin());
              }
              f.name = a.name;
              f.required = a.required;
              if (a.type.id == TypeId::kUnknown) unknown_added.push_back(f.id);
              f.type = a.type;
              ReassignIds(f.type, last);
              f.doc = a.doc;
              f.initial_default_json = a.initial_default_json;
              f.write_default_json = a.write_default_json;
              if (!DefaultFits(f.initial_default_json, f.type) ||
                  !DefaultFits(f.write_default_json, f.type)) {
                return "a default does not fit the column's type";
              }
              into->push_back(std::move(f));
              return {};
            },
            [&](const DeleteColumn& d) -> std::string {
              std::vector<NestedField>* sib = SiblingsOf(fields, d.id);
              if (sib == nullptr) return fmt::format("no field {} to delete", d.id);
              auto it = std::find_if(sib->begin(), sib->end(),
                                     [&](const NestedField& f) { return f.id == d.id; });
              deleted.insert(d.id);
              if (!Has(Mutant::kNestedReferencedDeletable)) CollectAllIds(it->type, deleted);
              sib->erase(it);
              return {};
            },
            [&](const RenameColumn& rn) -> std::string {
              NestedField* f = FieldById(fields, rn.id);
              if (f == nullptr && Has(Mutant::kUnknownFieldChangeSkipped)) return {};
              if (f == nullptr) return fmt::format("no field {} to rename", rn.id);
              if (refused(rn.id, Mutant::kReferencedRenameRefused))
                return fmt::format("field {} is referenced by a constraint", rn.id);
              f->name = rn.name;
              return {};
            },
            [&](const UpdateColumnType& u) -> std::string {
              NestedField* f = FieldById(fields, u.id);
              if (f == nullptr && Has(Mutant::kUnknownFieldChangeSkipped)) return {};
              if (f == nullptr) return fmt::format("no field {} to change", u.id);
              // illegal-promotion-accepted changes a primitive to any primitive, keeping
              // only the v3 condition of date to timestamp; date-promotion-before-v3
              // promotes date to timestamp at any format version.
              const bool any_primitive = Has(Mutant::kIllegalPromotionAccepted) &&
                                         IsPrimitiveType(f->type.id) && IsPrimitiveType(u.type.id) &&
                                         f->type.id != TypeId::kDate;
              const bool date_early = Has(Mutant::kDatePromotionBeforeV3) &&
                                      f->type.id == TypeId::kDate &&
                                      PromotionAllowed(f->type, u.type, 3);
              if (!any_primitive && !date_early &&
                  (!IsPrimitiveType(f->type.id) ||
                   !PromotionAllowed(f->type, u.type, md.format_version))) {
                return fmt::format("{} cannot be promoted to {} (ice.type-promotion)",
                                   ToString(f->type), ToString(u.type));
              }
              if (!(f->type == u.type)) retyped.insert(u.id);
              f->type = u.type;
              return {};
            },
            [&](const MoveColumn& m) -> std::string {
              std::vector<NestedField>* sib = SiblingsOf(fields, m.id);
              if (sib == nullptr && Has(Mutant::kUnknownFieldChangeSkipped)) return {};
              if (sib == nullptr) return fmt::format("no field {} to move", m.id);
              if (refused(m.id, Mutant::kReferencedMoveRefused))
                return fmt::format("field {} is referenced by a constraint", m.id);
              auto it = std::find_if(sib->begin(), sib->end(),
                                     [&](const NestedField& f) { return f.id == m.id; });
              NestedField moving = *it;
              if (m.position != MoveColumn::Position::kFirst) {
                if (m.reference == m.id) return "a field cannot move relative to itself";
                auto ref = std::find_if(
                    sib->begin(), sib->end(),
                    [&](const NestedField& f) { return f.id == m.reference; });
                if (ref == sib->end() && !Has(Mutant::kMoveBesideNonSibling)) {
                  return fmt::format("field {} is not a sibling of field {}", m.reference,
                                     m.id);
                }
              }
              // move-beside-non-sibling: a reference that is no sibling moves the field
              // first among its siblings.
              const bool first =
                  m.position == MoveColumn::Position::kFirst ||
                  std::none_of(sib->begin(), sib->end(),
                               [&](const NestedField& f) { return f.id == m.reference; });
              sib->erase(it);
              auto pos = sib->begin();
              if (!first) {
                pos = std::find_if(sib->begin(), sib->end(), [&](const NestedField& f) {
                  return f.id == m.reference;
                });
                if (m.position == MoveColumn::Position::kAfter) ++pos;
              }
              sib->insert(pos, std::move(moving));
              return {};
            },
            [&](const MakeOptional& mo) -> std::string {
              NestedField* f = FieldById(fields, mo.id);
              if (f == nullptr && Has(Mutant::kUnknownFieldChangeSkipped)) return {};
              if (f == nullptr) return fmt::format("no field {} to make optional", mo.id);
              if (f->required) made_optional.insert(mo.id);
              f->required = false;
              return {};
            },
        },
        change);
    if (!problem.empty()) return bad(problem);
  }

  std::string problem = SchemaProblem(fields, md.format_version, SchemaLenientOf(*this));
  // added-field-id-reused does not check its own allocation for duplicate IDs.
  if (Has(Mutant::kAddedFieldIdReused) &&
      problem.find("(ice.field-ids-unique)") != std::string::npos)
    problem.clear();
  if (!problem.empty()) return bad(problem);
  if (Has(Mutant::kUnknownColumnRequired)) {
    // Writes an added column of type unknown as required, after validating the change.
    std::function<void(std::vector<NestedField>&)> mark = [&](std::vector<NestedField>& fs) {
      for (NestedField& f : fs) {
        if (std::find(unknown_added.begin(), unknown_added.end(), f.id) != unknown_added.end())
          f.required = true;
        mark(f.type.fields);
      }
    };
    mark(fields);
  }

  // The constraint rules of schema evolution, for the constraints that remain.
  const auto new_slots = IndexFields(fields);
  const std::vector<Constraint> all_before =
      md.constraints.value_or(std::vector<Constraint>{});
  for (const Constraint& c :
       Has(Mutant::kDeleteWithConstraintsRejected) ? all_before : remaining) {
    const std::set<FieldId> refs = Referenced(c);
    for (FieldId id : refs) {
      // "A schema change that removes a constraint-referenced field must be rejected
      // unless the constraint is removed in the same change" (sch.remove-referenced).
      if ((deleted.count(id) != 0 ||
           (new_slots.count(id) == 0 && !Has(Mutant::kNestedReferencedDeletable))) &&
          !Has(Mutant::kReferencedColumnDeletable)) {
        return bad(
            fmt::format("field {} is referenced by constraint '{}' "
                        "(sch.remove-referenced)",
                        id, c.name.value_or("")),
            c.id);
      }
      // "A field referenced by a check constraint must not change type or apply type
      // promotion" (sch.check-no-type-change).
      if (c.type == ConstraintType::kCheck && retyped.count(id) != 0 &&
          !Has(Mutant::kCheckFieldPromotable)) {
        return bad(
            fmt::format("field {} is referenced by check '{}' "
                        "(sch.check-no-type-change)",
                        id, c.name.value_or("")),
            c.id);
      }
    }
    // sch.pk-stays-required: primary-key fields stay required and out of optional
    // structs.
    if (c.type == ConstraintType::kPrimaryKey && !Has(Mutant::kPkFieldMadeOptional)) {
      for (FieldId id : refs) {
        auto it = new_slots.find(id);
        if (it != new_slots.end() &&
            (!it->second.required ||
             (it->second.optional_ancestor && !Has(Mutant::kPkParentMadeOptional)))) {
          return bad(
              fmt::format("primary-key field {} must stay required "
                          "(sch.pk-stays-required)",
                          id),
              c.id);
        }
      }
    }
  }

  Schema next;
  int32_t max_id = 0;
  for (const Schema& s : md.schemas) max_id = std::max(max_id, s.schema_id.value_or(0));
  next.schema_id = max_id + 1;
  next.fields = std::move(fields);
  if (current.identifier_field_ids) {
    if (md.format_version < 4) {
      // Iceberg: identifier fields must exist and stay valid.
      for (FieldId id : *current.identifier_field_ids) {
        auto it = new_slots.find(id);
        if ((it == new_slots.end() && !Has(Mutant::kMissingIdentifierAccepted)) ||
            (it != new_slots.end() &&
             !ValidIdentifierField(it->second, IdentifierLenientOf(*this)))) {
          return bad(
              fmt::format("identifier field {} would be deleted or made invalid", id));
        }
      }
      next.identifier_field_ids = current.identifier_field_ids;
    } else if (Has(Mutant::kV4SchemaKeepsIdentifiers)) {
      next.identifier_field_ids = current.identifier_field_ids;
    }
    // upg.no-identifiers-in-v4: a schema added to a v4 table carries none.
  }
  md.schemas.push_back(std::move(next));
  md.current_schema_id = max_id + 1;
  md.last_column_id = std::max(md.last_column_id, last);
  if (md.constraints) md.constraints = std::move(remaining);
  md.last_updated_ms = std::max(md.last_updated_ms, now);
  return Reply::Ok(md);
}

Reply Engine::DefineFunctionOp(const DefineFunction& op) {
  FunctionDefinition def = op.function;
  if (def.name.empty())
    return Reply::Reject(kinds::kInvalidRequest, "a function needs a name");
  auto it = udfs_.find(def.name);
  def.version = it == udfs_.end() ? 1 : it->second.version + 1;
  // The function belongs to the newest table (the history defining it), or to none.
  if (!created_.empty())
    udf_owner_[def.name] = created_.back();
  else
    udf_owner_.erase(def.name);
  udfs_[def.name] = std::move(def);
  return Reply{};
}

Reply Engine::ScanOp(const Table& t, const Scan& op) const {
  const RowSet* rows = &t.live();
  const Schema* schema = &CurrentSchemaOf(t.meta);
  if (op.snapshot_id) {
    auto it = t.rows_at.find(*op.snapshot_id);
    const Snapshot* snap = t.meta.FindSnapshot(*op.snapshot_id);
    if ((it == t.rows_at.end() || snap == nullptr) &&
        Has(Mutant::kUnknownSnapshotScansCurrent)) {
      snap = nullptr;  // scans the current rows instead
    } else if (it == t.rows_at.end() || snap == nullptr) {
      return Reply::Reject(kinds::kInvalidRequest,
                           fmt::format("no snapshot {}", *op.snapshot_id));
    } else {
      rows = it->second.get();
    }
    if (snap != nullptr && snap->schema_id) {
      if (const Schema* s = SchemaById(t.meta, *snap->schema_id)) schema = s;
    }
  }
  Reply reply;
  reply.rows.emplace();
  reply.row_fields = schema->fields;
  for (const auto& [key, row] : *rows) {
    reply.rows->push_back(Row{key, ReadRow(t.meta, row, schema->fields)});
  }
  return reply;
}

/// "Readers must determine the status of a constraint for a snapshot as follows: 1. If
/// the constraint's constraint-id is listed in validated, valid, invalid, or unvalidated,
/// that is its status 2. Otherwise, the constraint is unvalidated for the snapshot"
/// (st.reader-lookup). v1-v3 metadata has no constraints a reader uses.
Reply Engine::ReadStatusesOp(const ReadStatuses& op) const {
  const TableMetadata& md = op.metadata;
  const Snapshot* snap = nullptr;
  if (op.snapshot_id) {
    snap = md.FindSnapshot(*op.snapshot_id);
    if (snap == nullptr) {
      return Reply::Reject(kinds::kInvalidRequest,
                           fmt::format("no snapshot {}", *op.snapshot_id));
    }
  } else {
    snap = md.CurrentSnapshot();
  }
  if (md.format_version == 4 && (strict_reader_ || Has(Mutant::kReaderRefusesV4Identifiers)))
    if (std::optional<Reply> refusal = V4ReaderRefusal(md)) return std::move(*refusal);
  if (md.format_version == 4 && Has(Mutant::kReaderRefusesMissingConstraint)) {
    // Assumes every ID a snapshot lists names a constraint of `constraints`.
    std::set<ConstraintId> present;
    for (const Constraint& c : md.constraints.value_or(std::vector<Constraint>{}))
      if (c.id) present.insert(*c.id);
    for (const Snapshot& s : md.snapshots) {
      if (!s.constraint_statuses) continue;
      for (ConstraintStatus st : kAllStatuses)
        if (const auto& list = s.constraint_statuses->List(st))
          for (ConstraintId id : *list)
            if (!present.count(id))
              return Reply::Reject(
                  kinds::kInvalidMetadata,
                  fmt::format("snapshot {} lists constraint ID {}, which is not in "
                              "constraints",
                              s.snapshot_id, id));
    }
  }
  Reply reply;
  reply.statuses.emplace();
  if (md.format_version < 4 || !md.constraints) return reply;
  for (const Constraint& c : *md.constraints) {
    if (!c.id) continue;
    std::optional<ConstraintStatus> s;
    if (snap != nullptr && snap->constraint_statuses)
      s = ListedStatus(*snap->constraint_statuses, *c.id);
    const ConstraintStatus unlisted = Has(Mutant::kReaderUnlistedValidated)
                                          ? ConstraintStatus::kValidated
                                          : ConstraintStatus::kUnvalidated;
    (*reply.statuses)[*c.id] = s.value_or(unlisted);
  }
  return reply;
}

Reply Engine::ParseMetadataOp(const ParseMetadata& op) const {
  TableMetadata md = op.metadata;
  // reader-accepts-unknown-version: reads a version above 4 as if it were 4.
  if (md.format_version > 4 && Has(Mutant::kReaderAcceptsUnknownVersion)) md.format_version = 4;
  if (md.format_version < 1 || md.format_version > 4) {
    return Reply::Reject(
        kinds::kUnsupportedVersion,
        fmt::format("format version {} is not supported", md.format_version));
  }
  if (md.format_version < 4) {
    // def.v4-only: a v1-v3 reader ignores constraint fields (and would never write them);
    // what it does with metadata that carries them is open (switch v3-constraint-fields,
    // default either): the divergent sample refuses it.
    bool carries = md.constraints.has_value() || md.last_constraint_id.has_value();
    for (const Snapshot& s : md.snapshots) carries = carries || s.constraint_statuses;
    if (divergent_ && carries) {
      return Reply::Reject(
          kinds::kInvalidMetadata,
          fmt::format("v{} metadata carries constraint fields (def.v4-only)",
                      md.format_version));
    }
    md.constraints.reset();
    md.last_constraint_id.reset();
    for (Snapshot& s : md.snapshots) s.constraint_statuses.reset();
    return Reply::Ok(std::move(md));
  }
  if (std::optional<Reply> refusal = V4ReaderRefusal(md)) return std::move(*refusal);
  return Reply::Ok(std::move(md));
}

std::optional<Reply> Engine::V4ReaderRefusal(const TableMetadata& md) const {
  if (Has(Mutant::kReaderRefusesV4Identifiers)) {
    // Takes identifier-field-ids in a v4 table as a writer's error, not as ignorable.
    for (const Schema& s : md.schemas)
      if (s.identifier_field_ids && !s.identifier_field_ids->empty())
        return Reply::Reject(kinds::kInvalidMetadata,
                             "a v4 schema carries identifier-field-ids "
                             "(upg.no-identifiers-in-v4)");
  }
  const Schema* schema = md.CurrentSchema();
  if (schema == nullptr) {
    return Reply::Reject(kinds::kInvalidMetadata, "current-schema-id names no schema");
  }
  if (md.constraints && (divergent_ || strict_reader_)) {
    // Open point: a constraint ID of 0 or less, or above last-constraint-id, may be
    // refused (docs/interpretations.md); the divergent sample and the strict reader
    // (profile v4-reader) refuse it.
    const ConstraintId last = md.last_constraint_id.value_or(0);
    for (const Constraint& c : *md.constraints) {
      if (c.id && (*c.id <= 0 || *c.id > last)) {
        return Reply::Reject(
            kinds::kInvalidMetadata,
            fmt::format("constraint ID {} is not in 1..last-constraint-id {}", *c.id,
                        last));
      }
    }
  }
  if (md.constraints) {
    std::vector<Constraint> before;
    for (const Constraint& c : *md.constraints) {
      std::string rule;
      std::string problem = ConstraintProblem(c, *schema, before, rule, true);
      if (!problem.empty()) {
        return Reply::Reject(kinds::kInvalidMetadata,
                             fmt::format("{} ({})", problem, rule));
      }
      before.push_back(c);
    }
  }
  return std::nullopt;
}

}  // namespace ictk::sample
