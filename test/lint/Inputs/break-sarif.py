"""break-sarif.py KIND IN OUT: writes a copy of the SARIF log IN with one schema violation of KIND,
to show that validate-sarif-schema.py rejects what the SARIF 2.1.0 schema forbids:
  zero-line      the first result's region startLine is 0 (the schema's minimum is 1)
  bad-level      the first result's level is "warn" (not in the level enum)
  no-driver-name tool.driver has no name (a required property)
  extra-property the log has a property the schema does not define (additionalProperties false)
  no-replacement the first fix's artifactChange has no replacements (minItems 1)
Exits 2 when IN has nothing to break (no result, no fix)."""
import json
import sys

kind, src, dst = sys.argv[1:4]
log = json.load(open(src, encoding="utf-8"))
run = log["runs"][0]
results = run.get("results") or []
if kind in ("zero-line", "bad-level", "no-replacement") and not results:
    sys.exit("break-sarif: %s has no result to break" % src)
if kind == "zero-line":
    results[0]["locations"][0]["physicalLocation"]["region"]["startLine"] = 0
elif kind == "bad-level":
    results[0]["level"] = "warn"
elif kind == "no-driver-name":
    del run["tool"]["driver"]["name"]
elif kind == "extra-property":
    log["tempiExtra"] = True
elif kind == "no-replacement":
    fixed = [r for r in results if r.get("fixes")]
    if not fixed:
        sys.exit("break-sarif: %s has no fix to break" % src)
    fixed[0]["fixes"][0]["artifactChanges"][0]["replacements"] = []
else:
    sys.exit("break-sarif: unknown KIND %r" % kind)
json.dump(log, open(dst, "w", encoding="utf-8"), indent=2)
