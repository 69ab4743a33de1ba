#!/usr/bin/env python3
"""A reader-only ictk adapter: the skeleton of a v1-v3 reader (docs/writing-an-adapter.md).

It speaks the exec transport (one JSON request per line on stdin, one response per line on
stdout) and declares the reader profile: `hello` answers `"profile": "reader"`, format
versions 1-3 and the capabilities `reader` and `parse-metadata`, so the harness sends it only
`hello`, `parse-metadata` and `read-statuses` (docs/protocol.md section 9, "Profiles").

As a careful v1-v3 reader it refuses metadata of a version it does not support
(`unsupported-format-version`) and refuses v1-v3 metadata that carries the v4-only keys
`constraints`, `last-constraint-id` or `constraint-statuses` (`invalid-metadata`), so it
never reads or writes them. Replace `read_metadata` with a call into your library.

    ictk validate-adapter --adapter 'exec:python3 examples/reader-adapter/reader_adapter.py'
    ictk certify --adapter 'exec:python3 examples/reader-adapter/reader_adapter.py'

Options: --format-versions 1,2,3 (the versions it reads, and declares in `hello`);
--declare 1,2,3,4 (declare other versions than it reads: a false claim, for tests);
--keep-v4-keys (a careless reader: keeps the v4-only keys of v1-v3 metadata).
"""
import argparse
import json
import sys

V4_ONLY_KEYS = ("constraints", "last-constraint-id")


class Refused(Exception):
    def __init__(self, kind, message):
        super().__init__(message)
        self.kind = kind


def carries_v4_keys(md):
    if any(k in md for k in V4_ONLY_KEYS):
        return True
    return any("constraint-statuses" in s for s in md.get("snapshots") or [])


def read_metadata(md, versions, keep_v4_keys):
    """The library's reader: the metadata as it would write it back, or Refused."""
    if not isinstance(md, dict):
        raise Refused("invalid-metadata", "metadata is not an object")
    version = md.get("format-version")
    if version not in versions:
        raise Refused("unsupported-format-version",
                      "format version %r is not supported" % (version,))
    if version < 4 and carries_v4_keys(md) and not keep_v4_keys:
        raise Refused("invalid-metadata",
                      "v%d metadata carries constraint fields (v4-only)" % version)
    return md


def statuses(md, snapshot_id):
    """The status of every constraint for a snapshot (st.reader-lookup)."""
    snaps = md.get("snapshots") or []
    if snapshot_id is None:
        snapshot_id = md.get("current-snapshot-id")
        snap = next((s for s in snaps if s.get("snapshot-id") == snapshot_id), None)
    else:
        snap = next((s for s in snaps if s.get("snapshot-id") == snapshot_id), None)
        if snap is None:
            raise Refused("invalid-request", "unknown snapshot %r" % (snapshot_id,))
    listed = (snap or {}).get("constraint-statuses") or {}
    out = {}
    for c in md.get("constraints") or []:
        cid = c.get("constraint-id")
        status = "unvalidated"
        for name in ("validated", "valid", "invalid", "unvalidated"):
            if cid in (listed.get(name) or []):
                status = name
                break
        out[str(cid)] = status
    return out


def answer(request, args):
    rid = request.get("id")
    op = request.get("op")
    if op == "hello":
        if request.get("protocol-version") != 1:
            return {"id": rid, "result": "unsupported",
                    "message": "only protocol version 1"}
        return {"id": rid, "result": "ok", "protocol-version": 1,
                "implementation": {"name": "example-reader", "version": "0.1",
                                   "language": "python"},
                "profile": "reader",
                "format-versions": args.declare or args.format_versions,
                "capabilities": ["reader", "parse-metadata"]}
    try:
        if op == "parse-metadata":
            md = read_metadata(request.get("metadata"), args.format_versions,
                               args.keep_v4_keys)
            return {"id": rid, "result": "ok", "metadata": md}
        if op == "read-statuses":
            md = read_metadata(request.get("metadata"), args.format_versions,
                               args.keep_v4_keys)
            return {"id": rid, "result": "ok",
                    "statuses": statuses(md, request.get("snapshot-id"))}
    except Refused as e:
        return {"id": rid, "result": "rejected",
                "error": {"kind": e.kind, "message": str(e)}}
    return {"id": rid, "result": "unsupported",
            "message": "a reader does not answer %r" % (op,)}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--format-versions", default="1,2,3",
                        type=lambda s: [int(x) for x in s.split(",") if x])
    parser.add_argument("--declare", default=None,
                        type=lambda s: [int(x) for x in s.split(",") if x])
    parser.add_argument("--keep-v4-keys", action="store_true")
    args = parser.parse_args()
    for line in sys.stdin:
        if not line.strip():
            continue
        try:
            request = json.loads(line)
        except ValueError as e:
            response = {"id": None, "result": "rejected",
                        "error": {"kind": "invalid-request", "message": str(e)}}
        else:
            response = answer(request, args)
        sys.stdout.write(json.dumps(response) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
