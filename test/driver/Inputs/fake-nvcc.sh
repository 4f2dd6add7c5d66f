#!/bin/sh
# A stand-in for nvcc in the driver tests: logs its command line to FAKE_NVCC_LOG, copies the
# generated source to FAKE_NVCC_COPY when set, and unless FAKE_NVCC_MODE=fail writes the -o object
# from a stub C file that defines tempi_fake_kernels_object (the generated source is not compiled).
[ -n "$FAKE_NVCC_LOG" ] && echo "nvcc $*" >> "$FAKE_NVCC_LOG"
if [ "$FAKE_NVCC_MODE" = fail ]; then
  echo "fake-nvcc: error: fake kernel compile failure" >&2
  exit 2
fi
out=; src=
while [ $# -gt 0 ]; do
  case $1 in
    -o) out=$2; shift ;;
    *.cu) src=$1 ;;
  esac
  shift
done
[ -n "$FAKE_NVCC_COPY" ] && cp "$src" "$FAKE_NVCC_COPY"
echo "int tempi_fake_kernels_object = 1;" | exec cc -x c -c - -o "$out"
