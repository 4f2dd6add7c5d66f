#!/usr/bin/env bash
# test/fuzz/make-seeds.sh OUTDIR: the seed corpora, one example per file, taken from the lit
# inputs (test/passes/*.test) and the docs (docs/passes/*.md, docs/*.md):
#   OUTDIR/expr  TypeExpr text lines (MPI_..., vector(...), subarray(...), ...)  for fuzz_expr_text
#   OUTDIR/ir    TypeIR text lines (dense/stream/seq ...)                       for fuzz_ir_text
#   OUTDIR/canon a few fixed byte strings (every combiner at depth 1..3)        for fuzz_canonicalize
#   OUTDIR/c     the C inputs of the rewrite lit suite (test/rewrite/*.c) without their lit lines
#                (// RUN:, // CHECK:, ...)                                  for fuzz_frontend
# plus test/fuzz/regressions/<target>/* (inputs of past findings) copied into the matching corpus.
set -euo pipefail
OUT=${1:?usage: test/fuzz/make-seeds.sh OUTDIR}
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
mkdir -p "$OUT/expr" "$OUT/ir" "$OUT/canon" "$OUT/c"
shopt -s nullglob
SRC=("$ROOT"/test/passes/*.test "$ROOT"/docs/passes/*.md "$ROOT"/docs/*.md /dev/null)
n=0
EXPR_RE='^\s*(MPI_|dup\(|contiguous\(|vector\(|hvector\(|indexed\(|hindexed\(|indexed_block\(|hindexed_block\(|struct\(|subarray\(|darray\(|resized\()'
IR_RE='^\s*(dense|stream|seq)\('
lines() { grep -h -E "$1" "${SRC[@]}" | sed 's/^[[:space:]]*//' | sort -u || true; }
lines "$EXPR_RE" |
  while IFS= read -r line; do n=$((n + 1)); printf '%s' "$line" > "$OUT/expr/seed-$n"; done
lines "$IR_RE" |
  while IFS= read -r line; do n=$((n + 1)); printf '%s' "$line" > "$OUT/ir/seed-$n"; done
# Canonicalizer: byte 0 is the depth (mod 6), then one op byte (mod 13) per level, then arguments.
for depth in 1 2 3; do
  for op in 0 1 2 3 4 5 6 7 8 9 10 11 12; do
    printf "\\x$(printf %02x $depth)\\x$(printf %02x $op)\\x03\\x02\\x05\\x03\\x01\\x07\\x02\\x04\\x03\\x09\\x06\\x02\\x08" \
      > "$OUT/canon/seed-$depth-$op"
  done
done
for f in "$ROOT"/test/rewrite/*.c; do
  grep -v -E '^// [A-Z][A-Z0-9-]*:' "$f" > "$OUT/c/$(basename "$f")" || true
done
for t in expr:fuzz_expr_text ir:fuzz_ir_text canon:fuzz_canonicalize c:fuzz_frontend; do
  d=${t%%:*} target=${t#*:}
  if [ -d "$HERE/regressions/$target" ]; then
    cp "$HERE/regressions/$target"/* "$OUT/$d/" 2>/dev/null || true
  fi
done
echo "make-seeds.sh: $(ls "$OUT/expr" | wc -l) expr, $(ls "$OUT/ir" | wc -l) ir, $(ls "$OUT/canon" | wc -l) canon, $(ls "$OUT/c" | wc -l) C seeds in $OUT"
