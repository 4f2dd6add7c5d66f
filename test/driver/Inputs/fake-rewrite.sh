#!/bin/sh
# A stand-in for tempi-rewrite in the driver tests (the driver's contract with the tool, not the
# tool itself): `fake-rewrite.sh SRC -o OUT --kernels-out=FILE -- FLAGS...`.
# FAKE_REWRITE_MODE: fail (diagnostic, exit 1), warnfail (a warning, then an error, exit 1), identity (output = input, no kernels),
# nooutput (exit 0 without writing OUT), rewrite (default: MPI_Send -> tempi_Send, one kernel).
# FAKE_REWRITE_FAIL_ON=NAME: fail only for sources whose path contains NAME.
# FAKE_REWRITE_LOG: append the command line there.
# FAKE_REWRITE_FLAGS_LOG: append the source and the tool's own flags (those before --) there.
src=$1; out=; kernels=; flags=
shift
while [ $# -gt 0 ]; do
  case $1 in
    -o) out=$2; shift ;;
    --kernels-out=*) kernels=${1#--kernels-out=} ;;
    --whole-program) flags="$flags $1" ;;
    --) shift; break ;;
  esac
  shift
done
[ -n "$FAKE_REWRITE_LOG" ] && echo "rewrite $src $*" >> "$FAKE_REWRITE_LOG"
[ -n "$FAKE_REWRITE_FLAGS_LOG" ] && echo "flags ${src##*/}:$flags" >> "$FAKE_REWRITE_FLAGS_LOG"
mode=${FAKE_REWRITE_MODE:-rewrite}
case $src in *"${FAKE_REWRITE_FAIL_ON:-//none//}"*) mode=fail ;; esac
case $mode in
  fail) echo "$src:1:1: error: fake tool failure" >&2; exit 1 ;;
  warnfail) echo "$src:1:1: warning: fake warning before the error" >&2
            echo "$src:2:1: error: fake tool failure" >&2; exit 1 ;;
  nooutput) exit 0 ;;
  identity) cp "$src" "$out"; exit 0 ;;
esac
{ echo "int tempi_fake_Send();"; echo "#line 1 \"$src\""; sed 's/MPI_Send(/tempi_fake_Send(/g' "$src"; } > "$out"
cat > "$kernels" <<EOK
// generated from $src, do not edit
// tempi-kernels: 1
int tempi_fake_kernel_marker = 1;
EOK
