#!/usr/bin/env python3
"""Tests of examples/benchmarks/summarize.py's ping-pong and halo tables: the figures gpu-check reports.

Raw outputs are written as gpu-check names them; the printed table is checked for the median over
rounds, the regret, the `device` column left out where it fell back to the model, the "where the
methods differ" line and issue 3's ratios. Standard library only (ctest: benchmarks-summarize).
"""
import os
import re
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
SUMMARIZE = os.path.join(HERE, "..", "..", "examples", "benchmarks", "summarize.py")
FELL_BACK = "tempi[0] warning: TEMPI_METHOD=device needs a CUDA-aware MPI and this one is not; the model chooses instead\n"


def line(mode, nbytes, us, block=None):
    block = (8 if mode == "strided" else 0) if block is None else block
    return (f"pingpong mode={mode} mem=device bytes={nbytes} block={block} stride={2 * block} iters=100 "
            f"half_rtt_us={us} mean_half_rtt_us={us} GBps=1 wrong=0 ok\n")


def run_summarize(test, files, expect_csv=None):
    """Writes `files` (name -> text) as gpu-check's raw folder, runs summarize.py on it and returns
    what it printed; `expect_csv`: a CSV file it must have written."""
    with tempfile.TemporaryDirectory() as d:
        raw, out = os.path.join(d, "raw"), os.path.join(d, "out")
        os.makedirs(raw)
        for name, text in files.items():
            with open(os.path.join(raw, name), "w") as f:
                f.write(text)
        r = subprocess.run([sys.executable, SUMMARIZE, raw, out], capture_output=True, text=True)
        test.assertEqual(r.returncode, 0, r.stderr)
        if expect_csv:
            test.assertTrue(os.path.exists(os.path.join(out, expect_csv)))
        return r.stdout


class PingpongSummary(unittest.TestCase):
    def summarize(self, files):
        return run_summarize(self, files, "pingpong.csv")

    def row(self, text, mpi, mode, nbytes):
        m = re.search(rf"^  {re.escape(mpi)} +{mode} +{nbytes} (.*)$", text, re.M)
        self.assertIsNotNone(m, text)
        return m.group(1).split()

    def test_rows_are_medians_over_rounds_and_regret_uses_them(self):
        files = {}
        for r, (auto, staged, oneshot) in enumerate([(10, 18, 30), (30, 19, 31), (20, 40, 32)], 1):
            files[f"pingpong-device-auto-r{r}-mpich.txt"] = line("strided", 65536, auto)
            files[f"pingpong-device-staged-r{r}-mpich.txt"] = line("strided", 65536, staged)
            files[f"pingpong-device-oneshot-r{r}-mpich.txt"] = line("strided", 65536, oneshot)
            # ipc is opt-in (auto cannot pick it): shown, never the fastest forced method
            files[f"pingpong-device-ipc-r{r}-mpich.txt"] = line("strided", 65536, 5)
        cells = self.row(self.summarize(files), "mpich", "strided", 65536)
        # mpi-host auto staged oneshot device ipc regret picked p-regret
        self.assertEqual(cells[1:4], ["20.00", "19.00", "31.00"])
        self.assertEqual(cells[5], "5.00")
        self.assertEqual(cells[6], "5.3%")
        self.assertEqual(cells[7:], ["-", "-"])  # no "methods chosen" line: no picked method

    def test_device_that_fell_back_is_not_the_fastest_forced_method(self):
        files = {
            "pingpong-device-auto-r1-mpich.txt": line("strided", 4096, 20),
            "pingpong-device-staged-r1-mpich.txt": line("strided", 4096, 20),
            "pingpong-device-device-mpich.txt": FELL_BACK + line("strided", 4096, 10),
            "pingpong-device-auto-r1-mpich+mps.txt": line("strided", 4096, 20),
            "pingpong-device-staged-r1-mpich+mps.txt": line("strided", 4096, 20),
            "pingpong-device-device-mpich+mps.txt": line("strided", 4096, 10),
        }
        text = self.summarize(files)
        self.assertEqual(self.row(text, "mpich", "strided", 4096)[6], "0.0%")
        self.assertEqual(self.row(text, "mpich+mps", "strided", 4096)[6], "100.0%")
        self.assertIn("fell back to the model (mpich)", text)

    def test_methods_differ_line_leaves_out_contiguous_and_one_block_rows(self):
        files = {}
        for m, t in (("auto", (30, 30, 100)), ("staged", (10, 10, 99)), ("oneshot", (10, 10, 100))):
            files[f"pingpong-device-{m}-r1-mpich.txt"] = (
                line("contiguous", 1024, t[0]) + line("strided", 8, t[1]) + line("strided", 1024, t[2]))
        text = self.summarize(files)
        self.assertRegex(text, r"model regret over the sweep \(mpich\): mean [0-9.]+%, max 200\.0%")
        self.assertRegex(text, r"where the methods differ \(strided, >= 2 blocks: 1 rows\): mean 1\.0%, max 1\.0%")

    def test_picked_regret_uses_the_forced_run_of_the_method_auto_chose(self):
        chosen = "tempi[0] info: methods chosen, by packed bytes: 2^16 oneshot=206, 2^22 staged=200 oneshot=6\n"
        files = {}
        for r, (auto, staged, oneshot) in enumerate([(60, 40, 44), (61, 41, 44), (62, 42, 45)], 1):
            files[f"pingpong-device-auto-r{r}-mpich.txt"] = (
                chosen + line("strided", 65536, auto) + line("strided", 1 << 22, auto * 10))
            files[f"pingpong-device-staged-r{r}-mpich.txt"] = (
                line("strided", 65536, staged) + line("strided", 1 << 22, staged * 10))
            files[f"pingpong-device-oneshot-r{r}-mpich.txt"] = (
                line("strided", 65536, oneshot) + line("strided", 1 << 22, oneshot * 10))
        text = self.summarize(files)
        small = self.row(text, "mpich", "strided", 65536)
        self.assertEqual(small[6], "48.8%")              # auto's own (slow) run: 61 / 41
        self.assertEqual(small[7:], ["oneshot", "7.3%"])  # the oneshot run auto stands for: 44 / 41
        big = self.row(text, "mpich", "strided", 1 << 22)
        self.assertEqual(big[7:], ["-", "-"])             # two methods served that size: no pick
        self.assertRegex(text, r"by the picked method \(1 rows\): mean 7\.3%, max 7\.3%")

    def test_contiguous_and_packed_data_have_picks_of_their_own(self):
        # One size, two choices: the model sent the 4 MiB contiguous buffer staged and the 4 MiB
        # strided one one-shot (two log lines, MethodStats.h).
        chosen = ("tempi[0] info: methods chosen, by packed bytes: 2^22 oneshot=206\n"
                  "tempi[0] info: methods chosen for contiguous data, by bytes: 2^22 staged=206\n")
        files = {}
        for r in (1, 2, 3):
            files[f"pingpong-device-auto-r{r}-mpich.txt"] = (
                chosen + line("contiguous", 1 << 22, 500) + line("strided", 1 << 22, 700))
            files[f"pingpong-device-staged-r{r}-mpich.txt"] = (
                line("contiguous", 1 << 22, 480) + line("strided", 1 << 22, 690))
            files[f"pingpong-device-oneshot-r{r}-mpich.txt"] = (
                line("contiguous", 1 << 22, 510) + line("strided", 1 << 22, 600))
        text = self.summarize(files)
        self.assertEqual(self.row(text, "mpich", "contiguous", 1 << 22)[7:], ["staged", "0.0%"])
        self.assertEqual(self.row(text, "mpich", "strided", 1 << 22)[7:], ["oneshot", "0.0%"])

    def test_issue3_ratios(self):
        files = {
            "pingpong-device-perblock-mpich+2gpu.txt":
                "pingpong mode=strided-per-block mem=device bytes=1048576 block=8 stride=16 iters=3 "
                "half_rtt_us=500000 GBps=0 wrong=0 ok\n",
            "pingpong-device-auto-r1-mpich+2gpu.txt":
                line("contiguous", 1 << 20, 160) + line("strided", 1 << 20, 200),
        }
        text = self.summarize(files)
        self.assertIn("mpich+2gpu: 1 MiB of 8-B blocks: one copy per block 500000 us, TEMPI 200.0 us: "
                      "2500x faster (goal >= 1000); TEMPI strided / contiguous 1.25 (goal <= 1.3)", text)

    def test_pack_goal_lines_show_the_worst_row_and_the_rows_that_miss(self):
        head = ("mpi,family,form,packed_B,block_B,stride_B,n1,n2,count,offset_B,elem_B,span_B,"
                "tempi_pack_GBps,tempi_unpack_GBps,tempi_check,d2d_GBps,ceiling_GBps,kernel_GBps,"
                "kernel_check,memcpy2d_GBps,perblock_GBps,hostpack_GBps,tempi_over_d2d,"
                "tempi_over_ceiling,unpack_over_pack_time,tempi_pack_us,kernel_us,empty_launch_us\n")
        rows = [f"mpich,2d,vector,1024,8,16,128,1,1,0,1,2047,1,1,ok,1,1,1,ok,1,1,1,1,1,{u},12,12,11\n"
                for u in (1.0, 1.1, 1.5)]
        text = run_summarize(self, {"pack-mpich.csv": head + "".join(rows)}, "pack.csv")
        self.assertRegex(text, r"unpack time / pack time .* n=  3 min=  1\.000 median=  1\.100 "
                                   r"max=  1\.500 missed=  1  \(goal <= 1\.2\)")

    def test_wrong_data_is_reported_and_not_timed(self):
        files = {"pingpong-device-auto-r1-mpich.txt": line("strided", 1024, 5).replace("wrong=0 ok", "wrong=3 FAILED"),
                 "pingpong-device-staged-r1-mpich.txt": line("strided", 1024, 7)}
        text = self.summarize(files)
        self.assertIn("WRONG DATA in 1 ping-pong rows", text)
        self.assertEqual(self.row(text, "mpich", "strided", 1024)[1], "-")



def halo_line(variant, ms, grid=64):
    return (f"halo3d variant={variant} grid={grid}x{grid}x{grid} ranks=4 dims=2x2x1 mem=device "
            f"iters=10 median_ms={ms} min_ms={ms} bytes_per_rank=1 GBps_per_rank=1 wrong=0 ok\n")


class HaloSummary(unittest.TestCase):
    def summarize(self, files):
        return run_summarize(self, files, "halo.csv")

    def ratios(self, text, tag):
        m = re.search(rf"^  {re.escape(tag)} +64x64x64 (.*)$", text, re.M)
        self.assertIsNotNone(m, text)
        return m.group(1).split()[-7:]  # rt/ct ct/ideal ct/ideal/q ct/fused/q a2aw/fused a2aw rt/ct a2aw ct/id

    def test_ct_over_ideal_takes_the_faster_of_host_staged_and_device_ideal(self):
        files = {}
        for tag, dev in (("mpich+ipc", True), ("mpich", False)):
            files[f"halo-baselines-{tag}.txt"] = halo_line("ideal", 2.0) + halo_line("ideal-per-q", 3.0)
            if dev:
                files[f"halo-baselines-dev-{tag}.txt"] = (halo_line("ideal-dev", 1.0) +
                                                          halo_line("ideal-dev-per-q", 1.5))
            files[f"halo-ct-64-{tag}.txt"] = halo_line("isend-fixed", 1.2)
            files[f"halo-runtime-64-{tag}.txt"] = halo_line("isend", 3.0)
        text = self.summarize(files)
        self.assertEqual(self.ratios(text, "mpich+ipc")[:3], ["2.50", "1.20", "0.80"])
        self.assertEqual(self.ratios(text, "mpich")[:3], ["2.50", "0.60", "0.40"])


if __name__ == "__main__":
    unittest.main()
