"""Runs a command and prints `exit code: N` (lit's shell can only tell zero from non-zero).
Usage: exitcode.py PROGRAM ARGS...; its own exit code is 0. The command's output passes through."""
import subprocess
import sys

rc = subprocess.call(sys.argv[1:])
sys.stdout.flush()
print(f"exit code: {rc}")
