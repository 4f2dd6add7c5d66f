"""check-sarif.py LOG [--empty]: checks a tempi-lint SARIF log against the SARIF 2.1.0 rules it
relies on (sarifLog, run, tool.driver, reportingDescriptor, result, location, region, fix,
artifactChange, replacement: required properties, types, enums, minimums) and its content. With
--empty: the log must have no results. Exits 1 with every problem listed."""
import json
import sys

log = json.load(open(sys.argv[1]))
empty = "--empty" in sys.argv
problems = []


def need(cond, what):
    if not cond:
        problems.append(what)


def region(r, where):
    need(isinstance(r, dict), where + ": region is an object")
    for k in ("startLine", "startColumn", "endLine", "endColumn"):
        if k in r:
            need(isinstance(r[k], int) and r[k] >= 1, where + ": %s >= 1" % k)
    for k in ("charOffset", "charLength"):
        if k in r:
            need(isinstance(r[k], int) and r[k] >= 0, where + ": %s >= 0" % k)


def physical(p, where):
    need("artifactLocation" in p and isinstance(p["artifactLocation"].get("uri"), str),
         where + ": artifactLocation.uri")
    need(p["artifactLocation"]["uri"].startswith("file:///"), where + ": absolute file URI")
    if "region" in p:
        region(p["region"], where)


need(log.get("version") == "2.1.0", "version is 2.1.0")
need(isinstance(log.get("runs"), list) and len(log["runs"]) == 1, "one run")
run = log["runs"][0]
driver = run["tool"]["driver"]
need(driver.get("name") == "tempi-lint", "tool.driver.name")
rules = driver.get("rules", [])
ids = [r["id"] for r in rules]
for r in rules:
    need(isinstance(r.get("id"), str), "rule id")
    need(r.get("helpUri", "").endswith("docs/lint/%s.md" % r["id"][len("tempi-"):]),
         "rule %s helpUri names its docs page" % r["id"])
    need(r.get("defaultConfiguration", {}).get("level") in ("none", "note", "warning", "error"),
         "rule level enum")
for name in ("non-canonical-type", "duplicate-layout", "unresolved-datatype", "gpu-tiny-blocks",
             "gpu-nearly-regular", "gpu-many-dims", "device-buffer-to-mpi"):
    need("tempi-" + name in ids, "rule tempi-%s listed" % name)
results = run.get("results", [])
for i, res in enumerate(results):
    where = "result %d" % i
    need(isinstance(res.get("message", {}).get("text"), str), where + ": message.text")
    need(res.get("level") in ("none", "note", "warning", "error"), where + ": level enum")
    need(ids[res["ruleIndex"]] == res["ruleId"], where + ": ruleIndex matches ruleId")
    for loc in res.get("locations", []):
        physical(loc["physicalLocation"], where)
    for rel in res.get("relatedLocations", []):
        physical(rel["physicalLocation"], where + " related")
    for fix in res.get("fixes", []):
        need(len(fix["artifactChanges"]) >= 1, where + ": artifactChanges minItems 1")
        for ch in fix["artifactChanges"]:
            need(len(ch["replacements"]) >= 1, where + ": replacements minItems 1")
            for rep in ch["replacements"]:
                region(rep["deletedRegion"], where + " deletedRegion")
                need(isinstance(rep["insertedContent"]["text"], str), where + ": insertedContent")
if empty:
    need(results == [], "no results")
else:
    by_rule = {r["ruleId"]: r for r in results}
    nc = by_rule.get("tempi-non-canonical-type")
    need(nc is not None, "a non-canonical-type result")
    if nc:
        reg = nc["locations"][0]["physicalLocation"]["region"]
        need(reg["startLine"] == 5 and reg["startColumn"] == 3, "non-canonical region at 5:3")
        rep = nc["fixes"][0]["artifactChanges"][0]["replacements"][0]
        need(rep["insertedContent"]["text"] == "MPI_Type_vector(4, 2, 8, MPI_DOUBLE, &rows)",
             "the fix's text")
        need(rep["deletedRegion"]["startLine"] == 5 and rep["deletedRegion"]["endColumn"] == 40,
             "the fix's region")
    dup = by_rule.get("tempi-duplicate-layout")
    need(dup is not None and dup["relatedLocations"][0]["physicalLocation"]["region"]["startLine"]
         == 6, "a duplicate-layout result with a note at line 6")
need(run["invocations"][0]["executionSuccessful"] is True, "executionSuccessful")
if problems:
    print("SARIF problems:\n  " + "\n  ".join(problems))
    sys.exit(1)
print("SARIF ok: %d results, %d rules" % (len(results), len(rules)))
