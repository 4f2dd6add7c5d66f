#!/usr/bin/env python3
"""Turns the raw outputs of scripts/gpu-check into CSV tables and a short text summary.

    summarize.py RAW_DIR OUT_DIR

Reads from RAW_DIR: pack-<mpi>.csv (bench-pack), latency-<setting>-<mpi>.csv (bench-pack-latency),
commit-{plain,tempi}-<mpi>.txt (bench-commit), burst-<mpi>[+2gpu].txt (bench-burst),
pingpong-host-<mpi>.txt and pingpong-device-<method>[-r<round>]-<mpi>.txt (examples/pingpong),
halo-*.txt (examples/halo3d and bench-halo key=value lines). Writes OUT_DIR/{pack,latency,pingpong,
halo,commit,burst}.csv and prints the summary tables (ratios as defined in docs/performance.md).
Standard library only (the GPU machine has no packages to spare).
"""
import collections
import csv
import glob
import io
import os
import re
import statistics
import sys


def kv_lines(path, prefix):
    out = []
    for line in open(path, errors="replace"):
        if line.startswith(prefix + " "):
            out.append(dict(t.split("=", 1) for t in line.split() if "=" in t))
    return out


def mpi_of(name):
    return name.rsplit("-", 1)[-1].split(".")[0]


def write_csv(path, rows, cols):
    with open(path, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=cols, extrasaction="ignore")
        w.writeheader()
        for r in rows:
            w.writerow(r)


def num(x):
    try:
        return float(x)
    except (TypeError, ValueError):
        return None


def pack(raw, out):
    rows = []
    for p in sorted(glob.glob(os.path.join(raw, "pack-*.csv"))):
        m = mpi_of(p)
        for r in csv.DictReader(open(p)):
            r["mpi"] = m
            rows.append(r)
    if not rows:
        print("pack: no results")
        return
    cols = ["mpi"] + [c for c in rows[0].keys() if c != "mpi"]
    write_csv(os.path.join(out, "pack.csv"), rows, cols)
    have = [r for r in rows if num(r["tempi_pack_GBps"]) is not None]
    bad = [r for r in rows if r["tempi_check"] not in ("ok", "n/a") or r["kernel_check"] != "ok"]
    print(f"pack: {len(rows)} rows, {len(have)} with TEMPI, {len(bad)} with a failed check")
    if not have:
        print("pack: TEMPI column n/a (libtempi not linked or not working); baselines only")

    def agg(label, sel, col, want):
        """One line: n, min, median, max, and for a goal ("goal >= x" / "goal <= x") how many rows
        miss it, so that a bound's worst rows show and not only the median."""
        vals = [num(r[col]) for r in sel if num(r[col]) is not None]
        if vals:
            missed = ""
            m = re.match(r"goal ([<>]=) ([0-9.]+)", want)
            if m:
                bound = float(m.group(2))
                n = sum(1 for v in vals if (v < bound if m.group(1) == ">=" else v > bound))
                missed = f" missed={n:3d}"
            print(f"  {label:58s} n={len(vals):3d} min={min(vals):7.3f} median={statistics.median(vals):7.3f} "
                  f"max={max(vals):7.3f}{missed}  ({want})")
        else:
            print(f"  {label:58s} no data")

    big = [r for r in rows if int(r["span_B"]) >= 64 << 20 or int(r["packed_B"]) >= 64 << 20]
    agg("TEMPI/d2d, objects >=64 MiB, blocks >=64 B", [r for r in big if int(r["block_B"]) >= 64],
        "tempi_over_d2d", "goal >= 0.95")
    agg("kernel baseline/d2d, same rows", [dict(r, k=num(r["kernel_GBps"]) / num(r["d2d_GBps"]))
                                          for r in big if int(r["block_B"]) >= 64 and num(r["kernel_GBps"])],
        "k", "reference")
    # Only objects of >= 64 MiB: for smaller ones the d2d copy the ceiling is derived from is
    # latency-bound and the ratio means nothing.
    small = [r for r in rows if 4 <= int(r["block_B"]) <= 32 and int(r["stride_B"]) == 512
             and r["family"] == "2d" and int(r["packed_B"]) >= 64 << 20]
    agg("TEMPI/granule ceiling, blocks 4-32 B, stride 512, >=64 MiB", small, "tempi_over_ceiling", "goal >= 0.85")
    agg("kernel baseline/granule ceiling, same rows",
        [dict(r, k=num(r["kernel_GBps"]) / num(r["ceiling_GBps"])) for r in small if num(r["kernel_GBps"])],
        "k", "reference")
    agg("unpack time / pack time (all TEMPI rows)", have, "unpack_over_pack_time", "goal <= 1.2")
    lat = [r for r in have if 1024 <= int(r["packed_B"]) <= 65536]
    agg("TEMPI pack us minus empty launch+sync us, 1-64 KiB",
        [dict(r, k=num(r["tempi_pack_us"]) - num(r["empty_launch_us"])) for r in lat], "k", "goal <= 1.0")
    forms = {}
    for r in have:
        key = (r["family"], r["packed_B"], r["block_B"], r["stride_B"], r["count"], r["offset_B"])
        forms.setdefault(key, []).append(num(r["tempi_pack_GBps"]))
    spread = [max(v) / min(v) for v in forms.values() if len(v) > 1 and min(v) > 0]
    if spread:
        print(f"  {'max/min bandwidth over the 3 descriptions of one shape':58s} median={statistics.median(spread):.3f} max={max(spread):.3f}")


def latency(raw, out):
    """bench-pack-latency, run once per libtempi setting: latency-<setting>-<mpi>.csv."""
    rows = []
    for p in sorted(glob.glob(os.path.join(raw, "latency-*.csv"))):
        base = os.path.basename(p)[:-4]
        setting = base.split("-")[1]
        for r in csv.DictReader(open(p)):
            r.update(mpi=mpi_of(base), setting=setting)
            rows.append(r)
    if not rows:
        print("small-pack latency: no results")
        return
    cols = ["mpi", "setting"] + [c for c in rows[0].keys() if c not in ("mpi", "setting")]
    write_csv(os.path.join(out, "latency.csv"), rows, cols)
    bad = [r for r in rows if r["check"] != "ok"]
    print(f"small-pack latency (bench-pack-latency, us, host call to data ready): {len(rows)} rows, "
          f"{len(bad)} with a failed check")
    for setting in sorted({r["setting"] for r in rows}):
        sel = [r for r in rows if r["setting"] == setting]
        goal = [r for r in sel if 1024 <= int(r["packed_B"]) <= 65536 and num(r["tempi_over_empty_us"]) is not None]
        for col, label in (("tempi_over_empty_us", "TEMPI MPI_Pack"), ("launch_over_empty_us", "launch"),
                           ("graph_over_empty_us", "graph")):
            vals = [num(r[col]) for r in goal if num(r[col]) is not None]
            if not vals:
                continue
            missed = sum(1 for v in vals if v > 1.0)
            print(f"  {setting:9s} {label:15s} minus empty launch+sync, 1-64 KiB: n={len(vals):3d} "
                  f"min={min(vals):6.2f} median={statistics.median(vals):6.2f} max={max(vals):6.2f}"
                  + (f" missed={missed:3d}  (goal <= 1.0)" if col == "tempi_over_empty_us" else ""))
        by_size = collections.defaultdict(list)
        for r in sel:
            by_size[int(r["packed_B"])].append(r)
        cells = []
        for size in sorted(by_size):
            med = lambda c: statistics.median(num(r[c]) for r in by_size[size] if num(r[c]) is not None)
            try:
                cells.append(f"{size >> 10}K: empty {med('empty_us'):.1f} pack {med('tempi_pack_us'):.1f} "
                             f"unpack {med('tempi_unpack_us'):.1f}")
            except statistics.StatisticsError:
                pass
        if cells:
            print(f"  {setting:9s} medians: " + "; ".join(cells))


def method_picks(text):
    """{(contiguous, size bucket k): {method: wires}} from libtempi's rank-0 "methods chosen" log
    lines (MethodStats.h: "2^k name=n ..., ..."; bucket k holds packed sizes in [2^k, 2^(k+1));
    contiguous data has a line of its own since the model prices it apart)."""
    picks = {}
    for contiguous, head in ((False, "methods chosen, by packed bytes"),
                             (True, "methods chosen for contiguous data, by bytes")):
        m = re.search(r"^tempi\[0\] info: " + head + r": (.*)$", text, re.M)
        for entry in (m.group(1).split(", ") if m else []):
            bucket, *counts = entry.split()
            picks[(contiguous, int(bucket[2:]))] = {name: int(n) for name, n in (c.split("=") for c in counts)}
    return picks


def pingpong(raw, out):
    """Ping-pong tables from pingpong-<what>-<mpi>.txt and pingpong-device-<method>-r<N>-<mpi>.txt.

    gpu-check runs the transfer methods in rounds (auto, staged, oneshot each round), so each row's
    figure is the median over the rounds. `device` over an MPI that is not CUDA-aware falls back to
    the model's choice (the runtime warns "TEMPI_METHOD=device needs a CUDA-aware MPI"): it is then
    another run of `auto` and is left out of the regret's fastest forced method. `ipc` (opt-in, every
    rank must set it) is shown but never in the regret: auto cannot pick it."""
    rows, fell_back, picks = [], set(), {}
    for p in sorted(glob.glob(os.path.join(raw, "pingpong-*.txt"))):
        base = os.path.basename(p)[:-4]
        m = base.rsplit("-", 1)[-1]
        method = "mpi-host" if base.startswith("pingpong-host") else base.split("-")[2]
        text = open(p, errors="replace").read()
        if method == "device" and "TEMPI_METHOD=device needs a CUDA-aware MPI" in text:
            fell_back.add(m)
        if method == "auto":
            for bucket, counts in method_picks(text).items():
                picks.setdefault(m, {}).setdefault(bucket, collections.Counter()).update(counts)
        for r in kv_lines(p, "pingpong"):
            r.update(mpi=m, method=method)
            rows.append(r)
    if not rows:
        print("pingpong: no results")
        return
    cols = ["mpi", "method", "mode", "mem", "bytes", "block", "stride", "iters", "half_rtt_us",
            "mean_half_rtt_us", "GBps", "wrong"]
    write_csv(os.path.join(out, "pingpong.csv"), rows, cols)

    def median_us(m, method, mode, b, block=None):
        v = [num(r["half_rtt_us"]) for r in rows if r["mpi"] == m and r["method"] == method
             and r["mode"] == mode and int(r["bytes"]) == b and r.get("wrong") == "0"
             and (block is None or r.get("block") == block)]
        v = [x for x in v if x is not None]
        return statistics.median(v) if v else None

    print("pingpong (half round trip, us, median over rounds; regret = auto / fastest forced method - 1;")
    print("  picked: the method auto chose for that size (libtempi's log), p-regret = that method's forced run / fastest forced - 1):")
    print(f"  {'mpi':12s} {'mode':10s} {'bytes':>8s} {'mpi-host':>9s} {'auto':>9s} {'staged':>9s} {'oneshot':>9s} {'device':>9s} {'ipc':>9s} {'regret':>7s} {'picked':>8s} {'p-regret':>8s}")
    keys = sorted({(r["mpi"], r["mode"], int(r["bytes"])) for r in rows if r["mode"] != "strided-per-block"})
    # Rows where the methods take different paths: strided data of 2 blocks or more. On contiguous
    # data (and a 1-block "strided" row) every method is the same one copy, so auto against the
    # fastest forced run there is run-to-run noise, not the model's choice.
    regrets, differing, picked_regrets = {}, {}, {}
    for k in keys:
        t = {method: median_us(k[0], method, k[1], k[2]) for method in ("mpi-host", "auto", "staged", "oneshot", "device", "ipc")}
        forced = [t[m] for m in ("staged", "oneshot") + (() if k[0] in fell_back else ("device",)) if t.get(m)]
        reg = t["auto"] / min(forced) - 1 if t.get("auto") and forced else None
        if reg is not None:
            regrets.setdefault(k[0], []).append(reg)
            blocks = {r.get("block") for r in rows if (r["mpi"], r["mode"], int(r["bytes"])) == k}
            if k[1] == "strided" and all(b and b != "0" and k[2] >= 2 * int(b) for b in blocks):
                differing.setdefault(k[0], []).append(reg)
        # the method auto picked for this size, when one method served its whole size bucket
        # (a strided row of one block is contiguous data to the runtime: the other line then)
        bucket = max(k[2], 1).bit_length() - 1
        mine = picks.get(k[0], {})
        chosen = mine.get((k[1] == "contiguous", bucket)) or mine.get((k[1] != "contiguous", bucket), {})
        pick = next(iter(chosen)) if len(chosen) == 1 else None
        preg = t[pick] / min(forced) - 1 if pick and t.get(pick) and forced else None
        if preg is not None:
            picked_regrets.setdefault(k[0], []).append(preg)
        f = lambda m: f"{t[m]:9.2f}" if t.get(m) else f"{'-':>9s}"
        print(f"  {k[0]:12s} {k[1]:10s} {k[2]:8d} {f('mpi-host')} {f('auto')} {f('staged')} {f('oneshot')} {f('device')} {f('ipc')} "
              + (f"{100 * reg:6.1f}%" if reg is not None else f"{'-':>7s}")
              + f" {(pick or '-'):>8s} " + (f"{100 * preg:7.1f}%" if preg is not None else f"{'-':>8s}"))
    wrong = [r for r in rows if r.get("wrong") != "0"]
    if wrong:
        print(f"  WRONG DATA in {len(wrong)} ping-pong rows")
    if fell_back:
        print(f"  device: not CUDA-aware, fell back to the model ({', '.join(sorted(fell_back))}): not in the regret")
    for m, r in sorted(regrets.items()):
        print(f"  model regret over the sweep ({m}): mean {100 * statistics.mean(r):.1f}%, max {100 * max(r):.1f}% (goal: at most 5%)")
        if differing.get(m):
            d = differing[m]
            print(f"    where the methods differ (strided, >= 2 blocks: {len(d)} rows): mean {100 * statistics.mean(d):.1f}%, max {100 * max(d):.1f}%")
        if picked_regrets.get(m):
            d = picked_regrets[m]
            print(f"    by the picked method ({len(d)} rows): mean {100 * statistics.mean(d):.1f}%, max {100 * max(d):.1f}%")
    # issue 3: 1 MiB of 8-byte blocks, TEMPI against one copy per block, and against contiguous
    for m in sorted({r["mpi"] for r in rows}):
        naive = median_us(m, "perblock", "strided-per-block", 1 << 20)
        strided, contiguous = median_us(m, "auto", "strided", 1 << 20, "8"), median_us(m, "auto", "contiguous", 1 << 20)
        if naive and strided:
            line = f"  {m}: 1 MiB of 8-B blocks: one copy per block {naive:.0f} us, TEMPI {strided:.1f} us: {naive / strided:.0f}x faster (goal >= 1000)"
            if contiguous:
                line += f"; TEMPI strided / contiguous {strided / contiguous:.2f} (goal <= 1.3)"
            print(line)
        ipc_s, ipc_c = median_us(m, "ipc", "strided", 1 << 20, "8"), median_us(m, "ipc", "contiguous", 1 << 20)
        if ipc_s and strided:
            line = f"  {m}: ipc (opt-in), 1 MiB of 8-B blocks: {ipc_s:.1f} us, {strided / ipc_s:.2f}x auto"
            if naive:
                line += f", {naive / ipc_s:.0f}x one copy per block"
            if ipc_c:
                line += f"; ipc strided / ipc contiguous {ipc_s / ipc_c:.2f}"
            print(line)


def best_ideal(g, suffix):
    """The ideal contiguous exchange: the faster of the host-staged one (bench-halo's ideal) and
    the device buffer through libtempi (ideal-dev, bench-halo-tempi --device-mpi), where each ran.
    With TEMPI_METHOD=ipc the device one avoids the host as the compile-time tier does."""
    times = [t for t in (g("baseline", "ideal" + suffix), g("baseline", "ideal-dev" + suffix)) if t]
    return min(times) if times else None


def halo(raw, out):
    rows = []
    for p in sorted(glob.glob(os.path.join(raw, "halo-*.txt"))):
        base = os.path.basename(p)[:-4]
        if base.startswith("halo-ctv-"):
            continue  # halo_variants()
        m = base.rsplit("-", 1)[-1]
        tier = ("baseline" if base.startswith("halo-baselines") else
                "compile-time" if base.startswith("halo-ct") else "runtime")
        for r in kv_lines(p, "halo3d"):
            r.update(mpi=m, tier=tier)
            rows.append(r)
    if not rows:
        print("halo: no results")
        return
    cols = ["mpi", "tier", "variant", "grid", "ranks", "dims", "mem", "iters", "median_ms", "min_ms",
            "bytes_per_rank", "GBps_per_rank", "wrong"]
    write_csv(os.path.join(out, "halo.csv"), rows, cols)
    print("halo exchange on device buffers (median ms per exchange, slowest rank; ct = compile-time tier):")
    names = [("runtime", "isend"), ("runtime", "alltoallw"), ("runtime", "isend-fixed"),
             ("compile-time", "isend-fixed"), ("compile-time", "alltoallw-fixed"),
             ("baseline", "fused"), ("baseline", "fused-per-q"), ("baseline", "memcpy3d"),
             ("baseline", "ideal"), ("baseline", "ideal-per-q"), ("baseline", "ideal-dev"),
             ("baseline", "ideal-dev-per-q")]
    short = {("runtime", "isend"): "rt-isend", ("runtime", "alltoallw"): "rt-a2aw",
             ("runtime", "isend-fixed"): "rt-fixed", ("compile-time", "isend-fixed"): "ct-isend",
             ("compile-time", "alltoallw-fixed"): "ct-a2aw", ("baseline", "fused"): "fused",
             ("baseline", "fused-per-q"): "fused/q", ("baseline", "memcpy3d"): "memcpy3d",
             ("baseline", "ideal"): "ideal", ("baseline", "ideal-per-q"): "ideal/q",
             ("baseline", "ideal-dev"): "ideal-dev", ("baseline", "ideal-dev-per-q"): "idev/q"}
    print("  (/q: the same baseline with the Isend variant's 208 messages each way, one per face and quantity;")
    print("   rt/ct, ct/ideal...: the Isend variant; a2aw ...: the Neighbor_alltoallw variant; +2gpu: 2 ranks, one GPU each; +ipc: TEMPI_METHOD=ipc, its size threshold automatic (128 B under MPS, 64 KiB otherwise; +ipc128, +ipc64k: set to that);")
    print("   ideal: host-staged; ideal-dev: the contiguous device buffer through libtempi's transport; ct/ideal uses the faster of the two)")
    ratios = ["rt/ct", "ct/ideal", "ct/ideal/q", "ct/fused/q", "a2aw/fused", "a2aw rt/ct", "a2aw ct/id"]
    print(f"  {'mpi':16s} {'grid':12s} " + " ".join(f"{short[n]:>9s}" for n in names) + " " +
          " ".join(f"{r:>10s}" for r in ratios))
    for k in sorted({(r["mpi"], r["grid"]) for r in rows}, key=lambda k: (k[0], int(k[1].split("x")[0]))):
        t = {}
        for r in rows:
            if (r["mpi"], r["grid"]) == k:
                if (r["tier"], r["variant"]) in t and r["tier"] == "runtime":
                    continue
                t[(r["tier"], r["variant"])] = (num(r["median_ms"]), r["wrong"])
        f = lambda n: (f"{t[n][0]:9.3f}" if t[n][1] == "0" else f"{'WRONG':>9s}") if n in t else f"{'-':>9s}"
        g = lambda tier, v: t.get((tier, v), (None,))[0]
        ct, cta = g("compile-time", "isend-fixed"), g("compile-time", "alltoallw-fixed")
        ideal, ideal_q = best_ideal(g, ""), best_ideal(g, "-per-q")
        pairs = [(g("runtime", "isend"), ct), (ct, ideal), (ct, ideal_q),
                 (ct, g("baseline", "fused-per-q")), (cta, g("baseline", "fused")),
                 (g("runtime", "alltoallw"), cta), (cta, ideal)]
        cells = [f"{a / b:10.2f}" if a and b else f"{'-':>10s}" for a, b in pairs]
        print(f"  {k[0]:16s} {k[1]:12s} " + " ".join(f(n) for n in names) + " " + " ".join(cells))
    wrong = [r for r in rows if r.get("wrong") != "0"]
    if wrong:
        print(f"  WRONG CELLS in {len(wrong)} halo rows")


def halo_variants(raw, out):
    """The compile-time tier's Isend/Irecv exchange with one runtime setting changed per run
    (gpu-check's halo-ctv-<variant>-<N>-<mpi> files), next to its default run (halo-ct-<N>-<mpi>)."""
    rows = []
    for p in sorted(glob.glob(os.path.join(raw, "halo-ctv-*.txt")) + glob.glob(os.path.join(raw, "halo-ct-*.txt"))):
        base = os.path.basename(p)[:-4]
        parts = base.split("-")
        m, n = parts[-1], parts[-2]
        variant = "-".join(parts[2:-2]) if parts[1] == "ctv" else "default"
        for r in kv_lines(p, "halo3d"):
            if r.get("variant") == "isend-fixed":
                rows.append(dict(mpi=m, n=n, setting=variant, median_ms=r["median_ms"], wrong=r["wrong"]))
    if not any(r["setting"] != "default" for r in rows):
        return
    write_csv(os.path.join(out, "halo-variants.csv"), rows, ["mpi", "n", "setting", "median_ms", "wrong"])
    settings = ["default"] + sorted({r["setting"] for r in rows} - {"default"})
    print("compile-time tier, Isend/Irecv exchange, one runtime setting changed (median ms; "
          "default = burst arena, batched copies):")
    print(f"  {'mpi':10s} {'grid':>5s} " + " ".join(f"{s:>10s}" for s in settings))
    for k in sorted({(r["mpi"], r["n"]) for r in rows}, key=lambda k: (k[0], int(k[1]))):
        cells = []
        for st in settings:
            v = [r for r in rows if (r["mpi"], r["n"], r["setting"]) == (*k, st)]
            cells.append(f"{'-':>10s}" if not v else f"{'WRONG':>10s}" if v[0]["wrong"] != "0"
                         else f"{num(v[0]['median_ms']):10.3f}")
        print(f"  {k[0]:10s} {k[1]:>5s} " + " ".join(cells))


KERNELS_EXCHANGES = 22  # gpu-check's kernels-ct runs: --warmup 2 --iters 20


def halo_kernels(raw, out):
    """GPU time of the pack and unpack kernels of one exchange: the compile-time tier's fused
    launches (libtempi's TEMPI_TIME_KERNELS log line in gpu-check's kernels-ct-<variant>-<N>-<mpi>
    files: halo3d's Isend/Irecv variant, 208 jobs a way, and its Neighbor_alltoallw variant, 26)
    against bench-halo's hand-written fused kernels for the same faces (its halo-kernels rows).
    Both sides hold the stream 100 us before each timed launch, so the events time the kernel
    and not the host enqueueing it."""
    hand = {}
    for p in glob.glob(os.path.join(raw, "kernels-fused-*.txt")):
        m = os.path.basename(p)[:-4].split("-", 2)[2]
        for r in kv_lines(p, "halo-kernels"):
            if r.get("variant") == "fused":
                hand[(m, r["grid"].split("x")[0])] = (num(r["pack_us"]), num(r["unpack_us"]))
    line = re.compile(r"fused kernel GPU time: pack median ([\d.]+) us over (\d+) launches, "
                      r"unpack median ([\d.]+) us over (\d+) launches")
    rows = []
    for p in sorted(glob.glob(os.path.join(raw, "kernels-ct-*.txt"))):
        parts = os.path.basename(p)[:-4].split("-")
        variant, n, m = parts[2], parts[3], "-".join(parts[4:])
        for l in open(p, errors="replace"):
            g = line.search(l)
            if g and l.startswith("tempi[0]"):
                h = hand.get((m, n), (None, None))
                rows.append(dict(mpi=m, variant=variant, n=n, ct_pack_us=g[1], ct_unpack_us=g[3],
                                 pack_launches=g[2], unpack_launches=g[4],
                                 fused_pack_us=h[0], fused_unpack_us=h[1]))
                break
    if not rows:
        return
    write_csv(os.path.join(out, "halo-kernels.csv"), rows, list(rows[0].keys()))
    print("pack+unpack kernels of one halo exchange, GPU time (median us after a 100-us stream hold; "
          "ct = compile-time tier's fused launches incl. segment-table upload, fused = bench-halo's "
          "hand-written kernels; 1 rank):")
    print(f"  {'mpi':10s} {'variant':>9s} {'grid':>5s} {'launches':>9s} {'ct-pack':>9s} {'ct-unpack':>10s} "
          f"{'fused-pack':>11s} {'fused-unpk':>11s} {'ct/fused':>9s}")
    for r in sorted(rows, key=lambda r: (r["mpi"], r["variant"], int(r["n"]))):
        per = (int(r["pack_launches"]) + int(r["unpack_launches"])) / KERNELS_EXCHANGES
        ct = num(r["ct_pack_us"]) + num(r["ct_unpack_us"])
        hf = (r["fused_pack_us"] or 0) + (r["fused_unpack_us"] or 0)
        fmt = lambda v: f"{v:.2f}" if v is not None else "-"
        print(f"  {r['mpi']:10s} {r['variant']:>9s} {r['n']:>5s} {per:9.1f} {num(r['ct_pack_us']):9.2f} "
              f"{num(r['ct_unpack_us']):10.2f} {fmt(r['fused_pack_us']):>11s} "
              f"{fmt(r['fused_unpack_us']):>11s} {(f'{ct / hf:9.2f}' if hf else f'{chr(45):>9s}')}")
    print("  (launches: pack and unpack launches per exchange; goal (issue 5): 2, ct/fused <= 1.1)")


def commit(raw, out):
    rows = []
    for p in sorted(glob.glob(os.path.join(raw, "commit-*.txt"))):
        base = os.path.basename(p)[:-4]
        lib = base.split("-")[1]
        lines = [l for l in open(p) if re.match(r"^[a-z-]+,\d+,", l)]
        for r in csv.DictReader(io.StringIO("style,N,blocks,median_commit_us,min_commit_us\n" + "".join(lines))):
            r.update(mpi=mpi_of(base), lib=lib)
            rows.append(r)
    if not rows:
        print("commit: no results")
        return
    write_csv(os.path.join(out, "commit.csv"), rows, ["mpi", "lib", "style", "N", "blocks", "median_commit_us", "min_commit_us"])
    print("MPI_Type_commit, median us (plain MPI / with libtempi):")
    styles = sorted({r["style"] for r in rows})
    for n in sorted({int(r["N"]) for r in rows}):
        cells = []
        for s in styles:
            v = {r["lib"]: r["median_commit_us"] for r in rows if r["style"] == s and int(r["N"]) == n}
            cells.append(f"{s}={v.get('plain', '-')}/{v.get('tempi', '-')}")
        print(f"  N={n:4d}: " + "  ".join(cells))


def burst(raw, out):
    rows = []
    for p in sorted(glob.glob(os.path.join(raw, "burst-*.txt"))):
        tag = os.path.basename(p)[len("burst-"):-4]
        for r in kv_lines(p, "burst"):
            r["config"] = tag
            rows.append(r)
    if not rows:
        print("burst: no results")
        return
    cols = ["config", "mode", "messages", "packed_bytes", "exchange_us", "recv_post_us",
            "send_post_us", "wait_us", "tempi_us_per_request", "wrong"]
    write_csv(os.path.join(out, "burst.csv"), rows, cols)
    print("Burst of small messages (bench-burst), per exchange and libtempi's host time per request:")
    for tag in sorted({r["config"] for r in rows}):
        mine = {r["mode"]: r for r in rows if r["config"] == tag}
        modes = ("mpi-isend", "mpi-persistent", "device-isend", "device-deferred")
        cells = [f"{m}={mine[m]['exchange_us']}us" for m in modes if m in mine]
        extra = [f"{m}: {mine[m]['tempi_us_per_request']} us/request ({mine[m].get('wrong', '?')} wrong)"
                 for m in ("device-isend", "device-deferred") if m in mine]
        print(f"  {tag}: " + "  ".join(cells))
        if extra:
            print("    libtempi beyond mpi-persistent: " + "; ".join(extra))


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: summarize.py RAW_DIR OUT_DIR")
    raw, out = sys.argv[1:]
    os.makedirs(out, exist_ok=True)
    for f in (pack, latency, pingpong, halo, halo_variants, halo_kernels, commit, burst):
        try:
            f(raw, out)
        except Exception as e:  # one broken table must not hide the others
            print(f"{f.__name__}: could not summarize: {type(e).__name__}: {e}")


if __name__ == "__main__":
    main()
