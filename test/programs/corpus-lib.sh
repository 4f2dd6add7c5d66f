# test/programs/corpus-lib.sh: how a corpus program is read, sourced by run-corpus.sh (here) and
# test/fuzz/sanitize-corpus.sh, so both take the same programs, sources and header fields.
# The caller sets CORPUS_ROOT (the corpus folder, absolute) before calling these.

# corpus_programs: every program's name as given on the command line (file.c, file.cpp, folder/).
corpus_programs() {
  local p
  for p in "$CORPUS_ROOT"/*.c "$CORPUS_ROOT"/*.cpp "$CORPUS_ROOT"/*/; do
    [ -e "$p" ] && basename "$p"
  done
}
sources_of() {   # the sources of program $1, absolute paths
  local p=$CORPUS_ROOT/$1
  if [ -d "$p" ]; then ls "$p"/*.c "$p"/*.cpp 2>/dev/null; else echo "$p"; fi
}
name_of() { local n=${1%/}; n=${n%.c}; echo "${n%.cpp}"; }
header_field() {   # header_field FIELD SOURCES... : the first `FIELD: value` in a header comment
  grep -h -m1 -E "^[ /*]*$1:" "${@:2}" 2>/dev/null | head -1 | sed -E "s/^[ \/*]*$1:[ ]*//; s/[ ]*\*\/[ ]*$//"
}
# build_all JOBS FUNCTION PROGRAM...: FUNCTION PROGRAM for each, at most JOBS at once.
build_all() {
  local jobs=$1 fn=$2 prog running=0
  shift 2
  for prog in "$@"; do
    "$fn" "$prog" &
    running=$((running + 1))
    if [ $running -ge "$jobs" ]; then wait -n; running=$((running - 1)); fi
  done
  wait
}
