"""run-all.py SRCROOT MOCK_MPI MPI_INCLUDE: lints every C/C++ source under examples/,
test/rewrite/, test/lint/ and test/Inputs/ with both MPI headers, one file per run; fails on a
crash (a negative status, or a status other than 0 and 2) and prints what crashed."""
import os
import subprocess
import sys

root, mock, real = sys.argv[1:4]
files = []
for sub in ("examples", "test/rewrite", "test/lint", "test/Inputs"):
    for d, _, names in os.walk(os.path.join(root, sub)):
        files += [os.path.join(d, n) for n in names if n.endswith((".c", ".cpp", ".cc"))]
bad = []
for f in sorted(files):
    for inc in (mock, real):
        flags = ["-I" + inc, "-I" + os.path.join(root, "examples", "common"), "-DHALO_N=64"]
        if f.endswith((".cpp", ".cc")):
            flags.append("-std=c++17")
        rc = subprocess.call(["tempi-lint", f, "--"] + flags,
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        if rc not in (0, 2):
            bad.append("%s (-I%s): exit %d" % (f, inc, rc))
print("linted %d files twice" % len(files))
if bad:
    print("crashed:\n  " + "\n  ".join(bad))
    sys.exit(1)
