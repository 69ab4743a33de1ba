#!/usr/bin/env python3
"""An example ictk adapter: a small in-memory Iceberg v4 table engine with check and unique
constraints, in Python with the standard library only.

It speaks the exec transport of docs/protocol.md (one JSON request per line on stdin, one
response per line on stdout) and declares the v4 writer profile with a narrow scope:

- `"format-versions": [4]`: every table is a v4 table (section 9, "Profiles");
- `"capabilities": ["check", "unique"]`: no primary keys, no concurrent commits, no schema
  evolution, no `modify` rows, no UDFs or transforms (section 9);
- `"constraint-ops": ["add-constraint"]`: constraints are added, never updated or removed;
- `"expression-operators"`: the predicates of `EXPRESSION_OPERATORS` below; NaN tests and
  `starts-with` are left out.

The harness then sends only the core ops and `add-constraint` of check and unique
constraints, and judges every answer against the reference model.

    ictk validate-adapter --adapter 'exec:python3 examples/python-adapter/adapter.py'
    ictk certify --adapter 'exec:python3 examples/python-adapter/adapter.py'

The engine keeps one design choice throughout, to stay small and obviously right: **enforced
constraints always hold on the live rows.** An enforced constraint that existing rows break
is refused at `add-constraint` (a freedom the spec leaves, switch `existing-rows-on-enforce`),
and a commit whose resulting rows break an enforced constraint is refused. Every snapshot
then records, for every constraint, the status found by checking every live row:
`validated` when it holds, `invalid` when a row breaks it.
"""
import collections
import decimal
import json
import re
import sys
import traceback
import zlib

PROTOCOL_VERSION = 1
CAPABILITIES = ["check", "unique"]
CONSTRAINT_OPS = ["add-constraint"]
# The check-expression predicates this engine evaluates, by their JSON `type` spelling.
EXPRESSION_OPERATORS = ["true", "false", "not", "and", "or", "is-null", "not-null",
                        "lt", "lt-eq", "gt", "gt-eq", "eq", "not-eq", "in", "not-in"]
COMPARISONS = {"lt", "lt-eq", "gt", "gt-eq", "eq", "not-eq"}
KEEP_TABLES = 4  # tables kept in memory; older ones are never named again (section 3)


class Refused(Exception):
    """A refusal the spec requires or allows: answered `rejected` with an error kind
    (docs/protocol.md section 8) and, optionally, the constraint IDs it is about."""

    def __init__(self, kind, message, constraint_ids=None):
        super().__init__(message)
        self.kind = kind
        self.constraint_ids = constraint_ids or []


class Unsupported(Exception):
    """A request outside what this engine declared: answered `unsupported` (section 7)."""


# ---------------------------------------------------------------------------------------
# Schemas: every field by ID, with what the constraint rules need to know about its place.
# ---------------------------------------------------------------------------------------

# A field of the schema: its type JSON, the field IDs from the top level down to it (None
# inside a list or a map), whether it and every enclosing struct are required, and whether
# it is inside a list element or a map.
FieldInfo = collections.namedtuple("FieldInfo", "id type path required under_collection")


def type_name(type_):
    """`"int"`, `"decimal"`, `"struct"`, ...: a primitive's name without its parameters."""
    if isinstance(type_, dict):
        return type_.get("type")
    return re.sub(r"\(.*\)$|\[.*\]$", "", type_)


def index_schema(schema):
    """Every field ID of the schema (nested ones too) -> FieldInfo."""
    fields = {}

    def walk(type_, path, required, under_collection):
        if not isinstance(type_, dict):
            return  # a primitive
        kind = type_.get("type")
        if kind == "struct":
            children = [(f["id"], f["type"], bool(f.get("required")))
                        for f in type_.get("fields", [])]
        else:  # a list's element, a map's key and value
            children = [(type_[i], type_[t], False) for i, t in
                        (("element-id", "element"), ("key-id", "key"), ("value-id", "value"))
                        if i in type_]
        for fid, child_type, child_required in children:
            if fid in fields:
                raise Refused("invalid-request", "field ID %d appears twice" % fid)
            inside = under_collection or kind != "struct"
            info = FieldInfo(fid, child_type, None if inside else path + [fid],
                             required and child_required and not inside, inside)
            fields[fid] = info
            walk(child_type, info.path, info.required, inside)

    walk(schema, [], True, False)
    return fields


def value_at(values, path):
    """A row's value of the field at `path` (None for null, also under a null struct)."""
    value = values
    for fid in path:
        if not isinstance(value, dict):
            return None
        value = value.get(str(fid))
    return value


# ---------------------------------------------------------------------------------------
# Values: Iceberg single-value JSON (Appendix D, docs/protocol.md section 5), turned into
# Python values that compare as Iceberg compares them. Rows are stored as they came and
# written back unchanged by `scan`; these forms are only for comparing.
# ---------------------------------------------------------------------------------------

_DATETIME = re.compile(r"^([+-]?\d{4,})-(\d\d)-(\d\d)"
                       r"(?:T(\d\d):(\d\d)(?::(\d\d)(?:\.(\d{1,9}))?)?)?"
                       r"(Z|[+-]\d\d(?::?\d\d)?)?$")
_TIME = re.compile(r"^(\d\d):(\d\d)(?::(\d\d)(?:\.(\d{1,9}))?)?$")


def _days_from_civil(y, m, d):
    """Days since 1970-01-01 of a proleptic Gregorian date, for any year."""
    y -= m <= 2
    era = y // 400
    yoe = y - era * 400
    doy = (153 * (m + (-3 if m > 2 else 9)) + 2) // 5 + d - 1
    return era * 146097 + yoe * 365 + yoe // 4 - yoe // 100 + doy - 719468


def _nanos(fraction):
    return int((fraction or "").ljust(9, "0"))


def comparable(value, type_):
    """`value` in a form Python compares as Iceberg does for `type_`, or None for null.
    Temporal values become integers (days, or nanoseconds since the epoch in UTC), so two
    spellings of one instant are equal; a text that does not parse stays as it is."""
    if value is None:
        return None
    name = type_name(type_)
    if name in ("float", "double"):  # a number, or "NaN", "Infinity", "-Infinity"
        return float(value)
    if name == "decimal":
        return decimal.Decimal(str(value))
    if name in ("uuid", "binary", "fixed") and isinstance(value, str):
        return value.lower()
    if name == "date" and isinstance(value, str):
        m = _DATETIME.match(value)
        return _days_from_civil(int(m.group(1)), int(m.group(2)), int(m.group(3))) if m \
            else value
    if name == "time" and isinstance(value, str):
        m = _TIME.match(value)
        if not m:
            return value
        return ((int(m.group(1)) * 60 + int(m.group(2))) * 60 + int(m.group(3) or 0)) \
            * 10**9 + _nanos(m.group(4))
    if name and name.startswith("timestamp") and isinstance(value, str):
        m = _DATETIME.match(value)
        if not m:
            return value
        days = _days_from_civil(int(m.group(1)), int(m.group(2)), int(m.group(3)))
        seconds = days * 86400 + int(m.group(4) or 0) * 3600 + int(m.group(5) or 0) * 60 \
            + int(m.group(6) or 0)
        offset = m.group(8)
        if offset and offset != "Z":
            digits = offset[1:].replace(":", "")
            minutes = int(digits[:2]) * 60 + int(digits[2:4] or 0)
            seconds -= (minutes if offset[0] == "+" else -minutes) * 60
        return seconds * 10**9 + _nanos(m.group(7))
    return value


# ---------------------------------------------------------------------------------------
# Check expressions (docs/protocol.md section 4, add-constraint; docs/writing-an-adapter.md,
# "Operand types in check expressions"). `bind` turns the expression JSON into a Python
# function of a row's values, refusing what does not type-check (expr.well-typed) or breaks
# the expression rules (expr.id-references, expr.no-list-map-element). Predicates are
# two-valued and null-safe: `n <= 3` is false for a null `n`, and `not` of it is true.
# ---------------------------------------------------------------------------------------

def invalid(message):
    return Refused("invalid-constraint", message)


# The comparison domain of a field type: values of one domain compare with each other.
def domain_of(type_):
    name = type_name(type_)
    if name in ("int", "long", "float", "double"):
        return "number"
    if name == "decimal":
        return "decimal"
    if name in ("string", "boolean"):
        return name
    if name in ("struct", "list", "map", "variant", "geometry", "geography", "unknown"):
        return None  # no order and no literal: not comparable
    return "other"   # date, time, timestamps, uuid, binary, fixed


def bind_literal(node, domain):
    """A literal operand (a bare JSON value or {"type": "literal", "value": ...}) as a
    Python value of `domain`, or Refused when it does not bind to it."""
    if isinstance(node, dict):
        if node.get("type") != "literal" or "value" not in node:
            raise invalid("expected a literal, got %s" % json.dumps(node))
        node = node["value"]
    if node is None:
        raise invalid("a literal is not null")
    if domain == "number":
        if isinstance(node, bool) or not isinstance(node, (int, float)):
            raise invalid("%s does not compare with a number field" % json.dumps(node))
        return node
    if domain == "decimal":
        if isinstance(node, bool) or not isinstance(node, (int, float, str)):
            raise invalid("%s does not compare with a decimal field" % json.dumps(node))
        try:
            value = decimal.Decimal(str(node))
        except decimal.InvalidOperation:
            value = decimal.Decimal("NaN")
        if not value.is_finite():
            raise invalid("%r is not a decimal" % (node,))
        return value
    if domain == "string" and isinstance(node, str):
        return node
    if domain == "boolean" and isinstance(node, bool):
        return node
    if domain == "other":
        raise Unsupported("this example does not compare dates, times, timestamps, uuids "
                          "or binary values in check expressions")
    raise invalid("%s does not compare with a %s field" % (json.dumps(node), domain))


def bind_reference(node, fields):
    """A `{"type": "reference", "id": N}` term -> (FieldInfo, row -> comparable value)."""
    if not isinstance(node, dict) or node.get("type") != "reference":
        raise invalid("expected a field reference, got %s" % json.dumps(node))
    if "id" not in node:  # {"type": "reference", "term": "qty"}: a name
        raise invalid("a check must use ID references (expr.id-references)")
    info = fields.get(node["id"])
    if info is None:
        raise invalid("field %r is not in the current schema" % (node["id"],))
    if info.under_collection:
        raise invalid("field %d is inside a list or a map (expr.no-list-map-element)"
                      % info.id)
    return info, lambda values: comparable(value_at(values, info.path), info.type)


def is_reference(node):
    return isinstance(node, dict) and node.get("type") == "reference"


def null_safe_eq(a, b):
    if a is None or b is None:
        return a is None and b is None
    if isinstance(a, float) and isinstance(b, float) and a != a and b != b:
        return True  # NaN equals NaN
    return a == b


def compare(op, a, b):
    """Two-valued comparison: false whenever an ordering operand is null (or NaN)."""
    if op == "eq":
        return null_safe_eq(a, b)
    if op == "not-eq":
        return not null_safe_eq(a, b)
    if a is None or b is None:
        return False
    return {"lt": a < b, "lt-eq": a <= b, "gt": a > b, "gt-eq": a >= b}[op]


def bind_comparison(op, left, right, fields):
    if is_reference(left) and is_reference(right):  # start <= end, across fields
        linfo, lget = bind_reference(left, fields)
        rinfo, rget = bind_reference(right, fields)
        ldom, rdom = domain_of(linfo.type), domain_of(rinfo.type)
        if ldom is None or ldom != rdom:
            raise invalid("fields %d and %d do not compare" % (linfo.id, rinfo.id))
        if ldom == "other":
            raise Unsupported("this example does not compare %s fields" % ldom)
        return lambda v: compare(op, lget(v), rget(v))
    flipped = not is_reference(left)
    ref, lit = (right, left) if flipped else (left, right)
    info, get = bind_reference(ref, fields)
    domain = domain_of(info.type)
    if domain is None:
        raise invalid("field %d (%s) does not compare with a literal"
                      % (info.id, type_name(info.type)))
    value = bind_literal(lit, domain)
    if flipped:
        return lambda v: compare(op, value, get(v))
    return lambda v: compare(op, get(v), value)


def bind_set(op, node, fields):
    info, get = bind_reference(node.get("child"), fields)
    domain = domain_of(info.type)
    if domain is None:
        raise invalid("field %d does not compare with literals" % info.id)
    literals = node.get("values")
    if isinstance(literals, dict) and literals.get("type") == "literals":
        literals = literals.get("values")
    if not isinstance(literals, list):
        raise invalid("%s needs a list of values" % op)
    values = [bind_literal(x, domain) for x in literals]
    inside = op == "in"
    return lambda v: any(null_safe_eq(get(v), x) for x in values) == inside


def bind(node, fields):
    """The check expression `node` bound to the schema's `fields`: a function of a row's
    values that answers True or False."""
    if node is True or node is False:  # the bare JSON booleans are `true` and `false`
        return lambda v, b=node: b
    if not isinstance(node, dict) or not isinstance(node.get("type"), str):
        raise invalid("not a predicate: %s" % json.dumps(node))
    op = node["type"]
    if op not in EXPRESSION_OPERATORS:
        if op in ("is-nan", "not-nan", "starts-with", "not-starts-with", "apply"):
            raise Unsupported("this engine does not evaluate %r" % op)
        raise invalid("%r is not a predicate" % op)
    if "term" in node:  # the older {"term": ..., "value": ...} form
        raise invalid("the legacy 'term' form is not an ID reference (expr.id-references)")
    if op in ("true", "false"):
        return lambda v, b=(op == "true"): b
    if op == "not":
        child = bind(node.get("child"), fields)
        return lambda v: not child(v)
    if op in ("and", "or"):
        left, right = bind(node.get("left"), fields), bind(node.get("right"), fields)
        if op == "and":
            return lambda v: left(v) and right(v)
        return lambda v: left(v) or right(v)
    if op in ("is-null", "not-null"):
        _, get = bind_reference(node.get("child"), fields)
        null = op == "is-null"
        return lambda v: (get(v) is None) == null
    if op in COMPARISONS:
        return bind_comparison(op, node.get("left"), node.get("right"), fields)
    return bind_set(op, node, fields)  # in, not-in


# ---------------------------------------------------------------------------------------
# Constraints: definitions (the def.*, key.* and expr.* rules) and what they say of rows.
# ---------------------------------------------------------------------------------------

def validate_definition(c, fields, existing):
    """Refuses a definition that breaks a rule, as `invalid-constraint`; answers the
    function that tells whether a set of rows satisfies it."""
    if not isinstance(c, dict):
        raise Refused("invalid-request", "constraint is not an object")
    for member, kind in (("type", str), ("name", str), ("enforced", bool)):
        if not isinstance(c.get(member), kind):
            raise invalid("a constraint needs '%s' (def.required-fields)" % member)
    ctype = c["type"]
    if ctype not in ("check", "unique", "primary-key"):  # case-sensitive: not "Unique"
        raise invalid("unknown constraint type %r (def.types)" % ctype)
    for other in existing:
        if other["name"] == c["name"]:
            raise Refused("invalid-constraint", "the name %r is taken (def.name-unique)"
                          % c["name"], [other["constraint-id"]])
    if ctype == "check":
        if c.get("field-ids") is not None:
            raise invalid("a check has no field-ids (def.key-field-ids)")
        if c.get("expression") is None:
            raise invalid("a check needs an expression (def.check-expression)")
        predicate = bind(c["expression"], fields)
        return lambda rows: all(predicate(values) for values in rows.values())
    if c.get("expression") is not None:
        raise invalid("only a check has an expression (def.check-expression)")
    ids = c.get("field-ids")
    if not isinstance(ids, list) or not ids:
        raise invalid("a key needs at least one field ID (def.key-field-ids)")
    if len(set(ids)) != len(ids):
        raise invalid("field-ids has duplicates (def.key-field-ids)")
    infos = []
    for fid in ids:
        info = fields.get(fid)
        if info is None:
            raise invalid("field %r is not in the current schema" % (fid,))
        name = type_name(info.type)
        if info.under_collection:
            raise invalid("field %d is inside a list or a map (key.not-in-list-map)" % fid)
        if name in ("struct", "list", "map", "variant"):
            raise invalid("field %d is not primitive (key.primitive-only)" % fid)
        if name in ("float", "double", "geometry", "geography", "unknown"):
            raise invalid("a key must not use a %s field" % name)
        if ctype == "primary-key" and not info.required:
            raise invalid("primary key field %d is optional (key.pk-required)" % fid)
        infos.append(info)
    if ctype == "primary-key":  # an invalid one is refused above; this one is not sent
        raise Unsupported("this engine does not declare primary-key")

    def distinct(rows):
        """sem.unique: no two rows share the key, among rows whose key has no null."""
        seen = set()
        for values in rows.values():
            key = tuple(comparable(value_at(values, i.path), i.type) for i in infos)
            if None in key:
                continue
            if key in seen:
                return False
            seen.add(key)
        return True
    return distinct


# ---------------------------------------------------------------------------------------
# The table: metadata, rows by the harness's row key, and one live-row map per snapshot.
# ---------------------------------------------------------------------------------------

class Table:
    def __init__(self, name, schema, now_ms):
        if not isinstance(schema, dict) or schema.get("type") != "struct":
            raise Refused("invalid-request", "schema is not a struct")
        if schema.get("identifier-field-ids"):  # upg.no-identifiers-in-v4
            raise Refused("invalid-schema-change",
                          "a v4 schema must not set identifier-field-ids")
        self.schema = dict(schema, **{"schema-id": schema.get("schema-id", 0)})
        self.fields = index_schema(self.schema)
        self.name = name
        self.uuid = "00000000-0000-4000-8000-%012x" % zlib.crc32(name.encode())
        self.last_updated_ms = now_ms
        self.constraints = []  # metadata JSON of each constraint
        self.holds = {}        # constraint ID -> function(rows) -> bool
        self.last_constraint_id = 0
        self.snapshots = []    # metadata JSON of each snapshot
        self.rows_at = {}      # snapshot ID -> {row key: values}
        self.rows = {}         # the live rows of the current snapshot
        self.next_row_id = 0

    # -- add-constraint (docs/protocol.md section 4) --------------------------------------
    def add_constraint(self, c, now_ms):
        holds = validate_definition(c, self.fields, self.constraints)
        if c["enforced"] and not holds(self.rows):  # existing-rows-on-enforce: refuse
            raise Refused("constraint-violation",
                          "existing rows break %r, which would be enforced" % c["name"])
        cid = self.last_constraint_id + 1  # id.above-last, id.update-last
        stored = {"constraint-id": cid, "type": c["type"], "name": c["name"],
                  "enforced": c["enforced"], "timestamp-ms": now_ms}
        for member in ("expression", "field-ids"):
            if c.get(member) is not None:
                stored[member] = c[member]
        self.constraints.append(stored)
        self.holds[cid] = holds
        self.last_constraint_id = cid
        self.last_updated_ms = now_ms

    # -- commit ----------------------------------------------------------------------------
    def row_values(self, row):
        """A row's values checked against the schema; a missing field takes its
        write-default (docs/protocol.md section 5)."""
        if not isinstance(row, dict) or not isinstance(row.get("key"), str) \
                or not isinstance(row.get("values", {}), dict):
            raise Refused("invalid-request", "a row is {\"key\": ..., \"values\": {...}}")
        values = dict(row.get("values") or {})
        top = {f["id"]: f for f in self.schema["fields"]}
        for fid in values:
            if not fid.isdigit() or int(fid) not in top:
                raise Refused("invalid-request", "row %s: no top-level field %s"
                              % (row["key"], fid))
        for fid, f in top.items():
            if str(fid) not in values and f.get("write-default") is not None:
                values[str(fid)] = f["write-default"]
            if values.get(str(fid)) is None and f.get("required"):
                raise Refused("invalid-request", "row %s: required field %s is null"
                              % (row["key"], f["name"]))
        return values

    def commit(self, request, now_ms):
        op = request.get("operation")
        add, remove = request.get("add") or [], request.get("remove") or []
        if request.get("modify"):
            raise Unsupported("modify rows: this engine does not declare modify-rows")
        carries = {"append": (True, False), "delete": (False, True),
                   "overwrite": (True, True), "replace": (False, False)}
        if op not in carries:
            raise Refused("invalid-request", "unknown operation %r" % (op,))
        if (add and not carries[op][0]) or (remove and not carries[op][1]):
            raise Refused("invalid-request", "%s does not carry those rows" % op)
        rows = dict(self.rows)  # the new snapshot's rows; the table changes only at the end
        touched = set()
        for key in remove:
            if key not in rows or key in touched:
                raise Refused("invalid-request", "row %r is not live" % (key,))
            touched.add(key)
            del rows[key]
        for row in add:
            values = self.row_values(row)
            if row["key"] in rows or row["key"] in touched:
                raise Refused("invalid-request", "row %r is already live" % row["key"])
            touched.add(row["key"])
            rows[row["key"]] = values
        # Enforcement (enf.enforced, enf.keys-against-remaining): the enforced constraints
        # held before, so checking the new rows as a whole checks exactly what was added.
        holds = {c["constraint-id"]: self.holds[c["constraint-id"]](rows)
                 for c in self.constraints}
        broken = [c["constraint-id"] for c in self.constraints
                  if c["enforced"] and not holds[c["constraint-id"]]]
        if broken:
            raise Refused("constraint-violation",
                          "the commit's rows break enforced constraint(s) %s" % broken, broken)
        # The statuses (st.*): every constraint was just checked on every live row.
        statuses = {}
        for c in self.constraints:
            status = "validated" if holds[c["constraint-id"]] else "invalid"
            statuses.setdefault(status, []).append(c["constraint-id"])
        snapshot_id = len(self.snapshots) + 1
        snapshot = {"snapshot-id": snapshot_id, "sequence-number": snapshot_id,
                    "timestamp-ms": now_ms, "summary": {"operation": op},
                    "manifest-list": "memory://%s/snap-%d.avro" % (self.name, snapshot_id),
                    "schema-id": self.schema["schema-id"],
                    "first-row-id": self.next_row_id, "added-rows": len(add),
                    "constraint-statuses": statuses}
        if self.snapshots:
            snapshot["parent-snapshot-id"] = self.snapshots[-1]["snapshot-id"]
        self.snapshots.append(snapshot)
        self.rows_at[snapshot_id] = rows
        self.rows = rows
        self.next_row_id += len(add)
        self.last_updated_ms = now_ms

    # -- scan and metadata -----------------------------------------------------------------
    def scan(self, snapshot_id):
        rows = self.rows if snapshot_id is None else self.rows_at.get(snapshot_id)
        if rows is None:
            raise Refused("invalid-request", "no snapshot %r" % (snapshot_id,))
        return [{"key": key, "values": values} for key, values in rows.items()]

    def metadata(self):
        """The full v4 table metadata JSON (docs/protocol.md section 4)."""
        md = {"format-version": 4, "table-uuid": self.uuid,
              "location": "memory://" + self.name,
              "last-sequence-number": len(self.snapshots),
              "last-updated-ms": self.last_updated_ms,
              "last-column-id": max(self.fields, default=0),
              "schemas": [self.schema], "current-schema-id": self.schema["schema-id"],
              "partition-specs": [{"spec-id": 0, "fields": []}], "default-spec-id": 0,
              "last-partition-id": 999,
              "sort-orders": [{"order-id": 0, "fields": []}], "default-sort-order-id": 0,
              "properties": {}, "next-row-id": self.next_row_id,
              "last-constraint-id": self.last_constraint_id,
              "constraints": self.constraints, "snapshots": self.snapshots}
        if self.snapshots:
            current = self.snapshots[-1]["snapshot-id"]
            md["current-snapshot-id"] = current
            md["refs"] = {"main": {"snapshot-id": current, "type": "branch"}}
        return md


# ---------------------------------------------------------------------------------------
# The catalog and the dispatch of requests (docs/protocol.md sections 3, 4 and 7).
# ---------------------------------------------------------------------------------------

class Engine:
    def __init__(self):
        self.tables = {}  # name -> Table, oldest first

    def handle(self, request):
        """The answer to one request, without its `id`."""
        op = request.get("op")
        if op == "hello":
            if "protocol-version" not in request:
                raise Refused("invalid-request", "hello needs protocol-version")
            if request["protocol-version"] != PROTOCOL_VERSION:
                raise Unsupported("this adapter speaks protocol version 1")
            return {"result": "ok", "protocol-version": PROTOCOL_VERSION,
                    "implementation": {"name": "ictk-python-example", "version": "0.1",
                                       "language": "python"},
                    "profile": "writer", "format-versions": [4],
                    "capabilities": CAPABILITIES, "constraint-ops": CONSTRAINT_OPS,
                    "expression-operators": EXPRESSION_OPERATORS}
        if op not in ("create-table", "load-table", "add-constraint", "commit", "scan"):
            raise Unsupported("op %r is not implemented" % (op,))
        now_ms, name = request.get("now-ms"), request.get("table")  # the clock: section 10
        if not isinstance(now_ms, int):  # optional: then the table's clock ticks by one
            now_ms = self.tables[name].last_updated_ms + 1 if name in self.tables else 0
        if op == "create-table":
            if not isinstance(name, str) or name in self.tables:
                raise Refused("invalid-request", "table %r exists" % (name,))
            if request.get("format-version") != 4:
                raise Refused("unsupported-format-version",
                              "this engine writes format version 4 only")
            table = Table(name, request.get("schema"), now_ms)
            self.tables[name] = table
            while len(self.tables) > KEEP_TABLES:  # forget the oldest (section 3)
                del self.tables[next(iter(self.tables))]
            return {"result": "ok", "metadata": table.metadata()}
        table = self.tables.get(name)
        if table is None:
            raise Refused("invalid-request", "no table %r" % (name,))
        if op == "scan":
            return {"result": "ok", "rows": table.scan(request.get("snapshot-id"))}
        if op == "add-constraint":
            table.add_constraint(request.get("constraint"), now_ms)
        elif op == "commit":
            table.commit(request, now_ms)
        return {"result": "ok", "metadata": table.metadata()}


def answer(engine, line):
    """One response line's object for one request line."""
    try:
        request = json.loads(line)
    except ValueError:
        request = None
    try:
        if not isinstance(request, dict):
            raise Refused("invalid-request", "the line is not a JSON object")
        response = engine.handle(request)
    except Refused as e:
        error = {"kind": e.kind, "message": str(e)}
        if e.constraint_ids:
            error["constraint-ids"] = e.constraint_ids
        response = {"result": "rejected", "error": error}
    except Unsupported as e:
        response = {"result": "unsupported", "message": str(e)}
    except Exception as e:  # a bug of the engine: `error`, and the details on stderr
        traceback.print_exc(file=sys.stderr)
        response = {"result": "error", "message": "%s: %s" % (type(e).__name__, e)}
    response["id"] = request.get("id") if isinstance(request, dict) else None
    return response


def main():
    engine = Engine()
    for line in sys.stdin:  # one request per line; exit at end of file (section 1)
        if not line.strip():
            continue
        sys.stdout.write(json.dumps(answer(engine, line), separators=(",", ":")) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
