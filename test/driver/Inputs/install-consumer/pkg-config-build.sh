#!/usr/bin/env bash
# pkg-config-build.sh PREFIX MPICC SOURCE OUTPUT: builds SOURCE against the TEMPI installed under
# PREFIX with only what `pkg-config --cflags --libs tempi` says (test/driver/install.test).
set -euo pipefail
prefix=$1 mpicc=$2 src=$3 out=$4
pcdir=$(dirname "$(find "$prefix" -name tempi.pc -print -quit)")
[ -n "$pcdir" ] && [ -f "$pcdir/tempi.pc" ] || { echo "no tempi.pc under $prefix" >&2; exit 1; }
export PKG_CONFIG_PATH="$pcdir"
flags=$(pkg-config --cflags --libs tempi)
echo "pkg-config: $flags"
"$mpicc" "$src" $flags -o "$out"
