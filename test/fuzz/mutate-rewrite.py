#!/usr/bin/env python3
"""test/fuzz/mutate-rewrite.py: a mutation fuzzer for the front end (tempi-rewrite).

Not coverage-guided (not libFuzzer): it takes the C inputs of the rewrite lit suite
(test/rewrite/*.c), applies 1-3 random token- and line-level mutations to each (delete, duplicate
or swap tokens, replace an integer literal by an edge value, drop or duplicate a line), and runs
`tempi-rewrite --explain MUTANT -o OUT -- -I<mock mpi.h>` on every mutant. Findings:
  crash      the tool died of a signal, or printed an assertion / "LLVM ERROR" / stack dump
  hang       it ran past --timeout seconds
  bad-exit   an exit status other than 0 (done), 1 (the source does not compile), 2 (usage)
  unproven   the rewritten source calls a tempi_X function that no "rewritten: MPI_X -> tempi_X"
             remark accounts for (every rewritten call must be one the tool says it proved)
  no-compile the mutant compiles (clang -fsyntax-only with the same flags) but the rewritten
             source does not
Each finding's mutant is saved in OUTDIR/findings/ with the tool's stderr; the exit status is 1
when there is any. Deterministic for a given --seed.

  test/fuzz/mutate-rewrite.py --tool BUILD/bin/tempi-rewrite [--count N | --seconds S]
                              [--seed K] [--outdir DIR] [--timeout T]
"""
import argparse
import collections
import glob
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
MOCK_MPI = os.path.join(ROOT, "test", "Inputs", "mock-mpi")
TEMPI_INCLUDE = os.path.join(ROOT, "runtime", "include")

TOKEN = re.compile(r"""
    (?P<comment>//[^\n]*|/\*.*?\*/)
  | (?P<string>"(?:\\.|[^"\\\n])*"|'(?:\\.|[^'\\\n])*')
  | (?P<number>0[xX][0-9a-fA-F]+[uUlL]*|\d+(?:\.\d*)?(?:[eE][+-]?\d+)?[uUlLfF]*)
  | (?P<ident>[A-Za-z_]\w*)
  | (?P<punct>->|\+\+|--|<<|>>|<=|>=|==|!=|&&|\|\||[-+*/%&|^!~<>=?:;,.(){}\[\]#])
  | (?P<space>\s+)
""", re.VERBOSE | re.DOTALL)

EDGE_INTS = ["0", "1", "-1", "2", "3", "-3", "7", "64", "2147483647", "2147483648", "-2147483648",
             "4294967296", "9223372036854775807", "18446744073709551615", "1000000000000"]
CRASH_MARKS = ("Assertion", "assertion failed", "LLVM ERROR", "Stack dump", "PLEASE submit",
               "UNREACHABLE", "AddressSanitizer", "runtime error:", "Segmentation fault")


def tokenize(text):
    """Tokens with their kind; whitespace and comments are kept so the source stays printable."""
    out, pos = [], 0
    while pos < len(text):
        m = TOKEN.match(text, pos)
        if not m:
            out.append(("other", text[pos]))
            pos += 1
            continue
        out.append((m.lastgroup, m.group()))
        pos = m.end()
    return out


def mutate_tokens(rng, text):
    toks = tokenize(text)
    code = [i for i, (k, _) in enumerate(toks) if k not in ("space", "comment")]
    if not code:
        return text, "none"
    op = rng.choice(["delete", "duplicate", "swap", "integer", "integer", "integer"])
    if op == "integer":
        nums = [i for i in code if toks[i][0] == "number" and "." not in toks[i][1]]
        if nums:
            i = rng.choice(nums)
            toks[i] = ("number", rng.choice(EDGE_INTS + [str(rng.randint(-100, 100))]))
            return "".join(t for _, t in toks), "integer@%d" % i
        op = "delete"
    i = rng.choice(code)
    if op == "delete":
        toks[i] = ("space", " ")
    elif op == "duplicate":
        toks[i] = (toks[i][0], toks[i][1] + " " + toks[i][1])
    else:
        later = [j for j in code if j > i]
        if later:
            j = later[0]
            toks[i], toks[j] = toks[j], toks[i]
    return "".join(t for _, t in toks), "%s@%d" % (op, i)


def mutate_lines(rng, text):
    lines = text.split("\n")
    body = [i for i, l in enumerate(lines) if l.strip() and not l.lstrip().startswith("//")]
    if not body:
        return text, "none"
    i = rng.choice(body)
    if rng.random() < 0.5:
        del lines[i]
        return "\n".join(lines), "drop-line@%d" % (i + 1)
    lines.insert(i, lines[i])
    return "\n".join(lines), "dup-line@%d" % (i + 1)


def mutate(rng, text):
    what = []
    for _ in range(rng.randint(1, 3)):
        text, w = (mutate_lines if rng.random() < 0.25 else mutate_tokens)(rng, text)
        what.append(w)
    return text, "+".join(what)


REMARK = re.compile(r"remark: rewritten: (MPI_\w+) -> (tempi_\w+)")
CALL = re.compile(r"\b(tempi_[A-Za-z]\w*)\s*\(")


def rewritten_calls(source):
    """tempi_X( calls in a source, outside comments, string literals and preprocessor lines."""
    blank = "".join(t if k not in ("comment", "string") else " " * len(t) for k, t in tokenize(source))
    blank = "\n".join(l for l in blank.split("\n") if not l.lstrip().startswith("#"))
    return collections.Counter(m.group(1) for m in CALL.finditer(blank)
                               if not m.group(1).startswith(("tempi_gen_", "tempi_static")))


def compiles(clang, path, lang):
    if not clang:
        return None
    r = subprocess.run([clang, "-fsyntax-only", "-x", lang, "-w", "-I" + MOCK_MPI, "-I" + TEMPI_INCLUDE,
                        path], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=60)
    return r.returncode == 0


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--tool", required=True, help="tempi-rewrite binary")
    ap.add_argument("--count", type=int, default=0, help="mutants to run (default: until --seconds)")
    ap.add_argument("--seconds", type=float, default=60)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--timeout", type=float, default=30)
    ap.add_argument("--outdir", default=None, help="where findings go (default: a temporary folder)")
    ap.add_argument("--clang", default=shutil.which("clang-22") or shutil.which("clang"),
                    help="compiler for the compile checks (default clang-22)")
    args = ap.parse_args()

    inputs = sorted(glob.glob(os.path.join(ROOT, "test", "rewrite", "*.c")))
    if not inputs:
        print("mutate-rewrite: no inputs in test/rewrite", file=sys.stderr)
        return 2
    sources = {p: open(p, encoding="utf-8", errors="replace").read() for p in inputs}
    outdir = args.outdir or tempfile.mkdtemp(prefix="tempi-mutate-")
    work = os.path.join(outdir, "work")
    findings_dir = os.path.join(outdir, "findings")
    os.makedirs(work, exist_ok=True)
    rng = random.Random(args.seed)
    stats = collections.Counter()
    findings = []
    start = time.time()
    n = 0
    while (args.count and n < args.count) or (not args.count and time.time() - start < args.seconds):
        n += 1
        src = rng.choice(inputs)
        text, what = mutate(rng, sources[src])
        mutant = os.path.join(work, "mutant.c")
        out = os.path.join(work, "mutant.out.c")
        with open(mutant, "w") as f:
            f.write(text)
        if os.path.exists(out):
            os.remove(out)
        cmd = [args.tool, "--explain", mutant, "-o", out, "--", "-I" + MOCK_MPI]
        kind, detail = None, ""
        try:
            r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=args.timeout)
            err = r.stderr.decode(errors="replace")
            rc = r.returncode
        except subprocess.TimeoutExpired:
            kind, err, rc = "hang", "", None
        except OSError as e:  # the tool itself cannot be run (missing, being rebuilt): no finding
            print("mutate-rewrite: cannot run %s: %s" % (args.tool, e), file=sys.stderr)
            return 2
        if kind is None:
            stats["exit %d" % rc] += 1
            if rc < 0 or rc >= 128 or any(m in err for m in CRASH_MARKS):
                kind, detail = "crash", "exit %d" % rc
            elif rc not in (0, 1, 2):
                kind, detail = "bad-exit", "exit %d" % rc
            elif rc == 0:
                remarks = collections.Counter(m.group(2) for m in REMARK.finditer(err))
                stats["rewritten calls"] += sum(remarks.values())
                if sum(remarks.values()):
                    stats["mutants with a rewrite"] += 1
                got = rewritten_calls(open(out, encoding="utf-8", errors="replace").read()) \
                    if os.path.exists(out) else collections.Counter()
                before = rewritten_calls(text)
                extra = got - before - remarks
                if extra:
                    kind, detail = "unproven", "tempi_ calls without a 'rewritten' remark: %s" % dict(extra)
                elif compiles(args.clang, mutant, "c") and os.path.exists(out) and \
                        compiles(args.clang, out, "c") is False:
                    kind, detail = "no-compile", "the mutant compiles, its rewrite does not"
        if kind:
            os.makedirs(findings_dir, exist_ok=True)
            base = os.path.join(findings_dir, "%s-%d" % (kind, n))
            shutil.copy(mutant, base + ".c")
            with open(base + ".txt", "w") as f:
                f.write("from %s, mutations %s, seed %d, mutant %d\n%s\n%s\n%s\n" %
                        (os.path.relpath(src, ROOT), what, args.seed, n, detail, " ".join(cmd), err))
            findings.append((kind, n, os.path.relpath(src, ROOT), what, detail))
            print("mutate-rewrite: FINDING %s in mutant %d (%s, %s): %s -> %s.c" %
                  (kind, n, os.path.relpath(src, ROOT), what, detail, base), flush=True)
    secs = time.time() - start
    print("mutate-rewrite: %d mutants of %d inputs in %.0f s (%.1f/s), seed %d; exits: %s; "
          "%d mutants had rewritten calls (%d calls checked against the remarks); findings: %d%s" %
          (n, len(inputs), secs, n / secs if secs else 0, args.seed,
           ", ".join("%s: %d" % (k, v) for k, v in sorted(stats.items()) if k.startswith("exit")),
           stats["mutants with a rewrite"], stats["rewritten calls"], len(findings),
           " (in %s)" % findings_dir if findings else ""))
    return 1 if findings else 0


if __name__ == "__main__":
    sys.exit(main())
