"""A deliberately non-conforming adapter for `validate-adapter`: a correct handshake that
declares `check`, then answers that break the protocol's shapes in known places."""
from common import requests, answer

for request in requests():
    op, rid = request.get("op"), request.get("id")
    if op == "hello":
        if request.get("protocol-version") != 1:
            answer({"id": rid, "result": "unsupported", "message": "protocol v1 only"})
            continue
        answer({"id": rid, "result": "ok", "protocol-version": 1,
                "implementation": {"name": "broken", "version": "0", "language": "python"},
                "format-versions": [4], "capabilities": ["check"]})
    elif op == "create-table":
        # Metadata without last-column-id.
        answer({"id": rid, "result": "ok",
                "metadata": {"format-version": 4, "last-updated-ms": 1, "schemas": [],
                             "partition-specs": [], "sort-orders": []}})
    elif op == "load-table":
        answer({"id": rid, "result": "ok",
                "metadata": {"format-version": 4, "last-updated-ms": 1, "last-column-id": 3,
                             "schemas": [], "partition-specs": [], "sort-orders": []}})
    elif op == "add-constraint":
        # Declared, but unsupported.
        answer({"id": rid, "result": "unsupported", "message": "not yet"})
    elif op == "commit":
        # An error kind the protocol does not have.
        answer({"id": rid, "result": "rejected", "error": {"kind": "duplicate-key",
                                                           "message": "no"}})
    elif op == "scan":
        answer({"id": rid, "result": "ok", "rows": [{"key": "r1", "values": {"order_id": 1}}]})
    else:
        answer({"id": rid, "result": "unsupported", "message": "no"})
