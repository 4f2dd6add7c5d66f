#!/usr/bin/env bash
# Runs an MPI program built without and with libtempi and compares what every rank wrote.
#   run_compare.sh <mpiexec> <nprocs> <plain-exe> <tempi-exe> <work-dir>
# Each program is run as `<exe> <dir>` and writes <dir>/rank<r>.txt; both must exit 0 and the
# transcripts must be identical (diff shown on failure). MPIEXEC_PREFLAGS in the environment (words)
# go between mpiexec and -n (Open MPI as root needs --allow-run-as-root, --oversubscribe).
# The libtempi build runs with TEMPI_VERIFY_PLANS=1 (unless the environment sets it): every static
# plan a rewritten call passes is checked against its datatype, so a wrong plan fails the test even
# though host buffers go to the MPI (runtime/src/host/VerifyPlans.h; exit code 70 and one line).
set -euo pipefail
mpiexec=$1 np=$2 plain=$3 tempi=$4 work=$5
rm -rf "$work"
mkdir -p "$work/plain" "$work/tempi"
# shellcheck disable=SC2086 # MPIEXEC_PREFLAGS is a list of words
"$mpiexec" ${MPIEXEC_PREFLAGS:-} -n "$np" "$plain" "$work/plain"
# shellcheck disable=SC2086
TEMPI_VERIFY_PLANS=${TEMPI_VERIFY_PLANS:-1} "$mpiexec" ${MPIEXEC_PREFLAGS:-} -n "$np" "$tempi" "$work/tempi"
n=$(ls "$work/plain" | wc -l)
if [ "$n" -ne "$np" ]; then
  echo "run_compare: expected $np transcripts, found $n" >&2
  exit 1
fi
diff -r "$work/plain" "$work/tempi"
echo "run_compare: $np transcripts identical ($(cat "$work"/plain/* | wc -l) lines)"
