#!/usr/bin/env python3
"""Measures tempi-rewrite against `clang -fsyntax-only` on one generated 2,000-line C file that
includes the real mpi.h, on this machine, in one run (the issue-4 speed target: at most 1.5x).

  tool/clang/measure_speed.py BUILD_DIR [--runs N] [--mpi-include DIR]

Generates the file (many functions, each building vector/subarray/struct types with constant and
non-constant arguments and sending with them), times N runs of each command alternately, and
prints the medians and their ratio. Exits 1 when the ratio is above 1.5."""
import argparse
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time


def generate(lines_wanted):
    out = ["#include <mpi.h>", "#include <stddef.h>", "",
           "struct cell { double rho; double u[3]; int flag; };", ""]
    i = 0
    while len(out) < lines_wanted - 12:
        out += [
            f"int exchange_{i}(double *buf, int n, MPI_Comm comm) {{",
            f"  MPI_Datatype col, face, sub, st, dyn;",
            f"  int sizes[3] = {{{16 + i % 7}, 16, 16}}, subs[3] = {{4, 4, 1}}, starts[3] = {{1, 2, 3}};",
            f"  int bl[2] = {{1, 3}};",
            f"  MPI_Aint disp[2] = {{offsetof(struct cell, rho), offsetof(struct cell, u)}};",
            f"  MPI_Datatype types[2] = {{MPI_DOUBLE, MPI_DOUBLE}};",
            f"  MPI_Request req[4];",
            f"  MPI_Type_vector({4 + i % 5}, 1, {8 + i % 3}, MPI_DOUBLE, &col);",
            f"  MPI_Type_create_hvector(2, 1, 4096, col, &face);",
            f"  MPI_Type_create_subarray(3, sizes, subs, starts, MPI_ORDER_C, MPI_DOUBLE, &sub);",
            f"  MPI_Type_create_struct(2, bl, disp, types, &st);",
            f"  MPI_Type_vector(n, 1, 8, MPI_DOUBLE, &dyn);",
            f"  MPI_Type_commit(&face); MPI_Type_commit(&sub); MPI_Type_commit(&st);",
            f"  MPI_Isend(buf, 1, face, 1, {i}, comm, &req[0]);",
            f"  MPI_Irecv(buf, 1, sub, 1, {i}, comm, &req[1]);",
            f"  MPI_Isend(buf, 1, st, 1, {i}, comm, &req[2]);",
            f"  MPI_Irecv(buf, 1, dyn, 1, {i}, comm, &req[3]);",
            f"  MPI_Waitall(4, req, MPI_STATUSES_IGNORE);",
            f"  MPI_Type_free(&face); MPI_Type_free(&sub); MPI_Type_free(&st);",
            f"  return 0;",
            f"}}",
            "",
        ]
        i += 1
    out += ["int main(int argc, char **argv) {", "  double buf[1 << 16];",
            "  MPI_Init(&argc, &argv);"]
    out += [f"  exchange_{k}(buf, argc, MPI_COMM_WORLD);" for k in range(min(i, 5))]
    out += ["  MPI_Finalize();", "  return 0;", "}"]
    while len(out) < lines_wanted:
        out.append("")
    return "\n".join(out) + "\n"


def timed(cmd):
    t = time.perf_counter()
    r = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    dt = time.perf_counter() - t
    if r.returncode != 0:
        sys.exit(f"measure_speed: failed: {' '.join(cmd)}\n{r.stderr}")
    return dt


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("build")
    ap.add_argument("--runs", type=int, default=7)
    ap.add_argument("--mpi-include", default="/usr/include/x86_64-linux-gnu/mpich")
    ap.add_argument("--clang", default="/usr/lib/llvm-22/bin/clang")
    a = ap.parse_args()
    tool = os.path.join(a.build, "bin", "tempi-rewrite")
    with tempfile.TemporaryDirectory() as d:
        src = os.path.join(d, "big.c")
        with open(src, "w") as f:
            f.write(generate(2000))
        nlines = sum(1 for _ in open(src))
        flags = ["-I" + a.mpi_include, "-O2"]
        clang = [a.clang, "-fsyntax-only"] + flags + [src]
        rewrite = [tool, src, "-o", os.path.join(d, "out.c"), "--"] + flags
        timed(clang), timed(rewrite)  # warm the page cache
        tc, tr = [], []
        for _ in range(a.runs):
            tc.append(timed(clang))
            tr.append(timed(rewrite))
        out = open(os.path.join(d, "out.c")).read()
        calls = len(re.findall(r"\btempi_[A-Z][A-Za-z_]*\(", out))  # every rewritten call
    mc, mr = statistics.median(tc), statistics.median(tr)
    ratio = mr / mc
    print(f"file: {nlines} lines including mpi.h ({a.mpi_include}); {calls} calls rewritten")
    print(f"{'command':<28}{'median s':>10}{'min s':>10}")
    print(f"{'clang -fsyntax-only':<28}{mc:>10.3f}{min(tc):>10.3f}")
    print(f"{'tempi-rewrite':<28}{mr:>10.3f}{min(tr):>10.3f}")
    print(f"ratio (median): {ratio:.2f} (target <= 1.5)")
    return 0 if ratio <= 1.5 else 1


if __name__ == "__main__":
    sys.exit(main())
