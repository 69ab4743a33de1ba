#!/usr/bin/env python3
"""Validates protocol messages against the JSON Schemas of docs/protocol/ (draft 2020-12).

Usage: schema_agreement.py SCHEMA_DIR MESSAGE_FILE...

A file named request.<anything>.json is checked against request.schema.json; a file named
response.<op>.<anything>.json against <op>.response.schema.json. Prints one line per file:
"<file name>\t<valid|invalid>\t<JSON pointer of the first error>". The C++ test
(schema_agreement_test.cc) compares these verdicts with the typed decoder's.
Works with python3-jsonschema from Debian 12 (RefResolver) and with newer releases
(the referencing registry).
"""
import json
import os
import sys

import jsonschema


def load_schemas(schema_dir):
    schemas = {}
    for name in sorted(os.listdir(schema_dir)):
        if name.endswith(".schema.json"):
            with open(os.path.join(schema_dir, name)) as f:
                schemas[name] = json.load(f)
    return schemas


def make_validator(schemas, name):
    schema = schemas[name]
    cls = jsonschema.Draft202012Validator
    try:
        from referencing import Registry, Resource
        from referencing.jsonschema import DRAFT202012
        registry = Registry().with_resources(
            (s["$id"], Resource.from_contents(s, default_specification=DRAFT202012))
            for s in schemas.values())
        return cls(schema, registry=registry)
    except ImportError:
        store = {s["$id"]: s for s in schemas.values()}
        resolver = jsonschema.RefResolver.from_schema(schema, store=store)
        return cls(schema, resolver=resolver)


def schema_for(file_name):
    parts = file_name.split(".")
    if parts[0] == "request":
        return "request.schema.json"
    if parts[0] == "response" and len(parts) >= 3:
        return parts[1] + ".response.schema.json"
    raise SystemExit("cannot tell the schema of " + file_name)


def pointer(error):
    path = list(error.absolute_path)
    return "/" + "/".join(str(p) for p in path) if path else "(root)"


def main():
    schema_dir, files = sys.argv[1], sys.argv[2:]
    schemas = load_schemas(schema_dir)
    for cls_check in schemas.values():
        jsonschema.Draft202012Validator.check_schema(cls_check)
    validators = {}
    for path in files:
        name = os.path.basename(path)
        schema = schema_for(name)
        if schema not in validators:
            validators[schema] = make_validator(schemas, schema)
        with open(path) as f:
            message = json.load(f)
        errors = sorted(validators[schema].iter_errors(message),
                        key=lambda e: len(list(e.absolute_path)))
        if errors:
            print("%s\tinvalid\t%s: %s" % (name, pointer(errors[0]),
                                          errors[0].message.replace("\n", " ")[:200]))
        else:
            print("%s\tvalid\t" % name)


if __name__ == "__main__":
    main()
