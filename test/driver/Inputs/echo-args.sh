#!/bin/sh
# A stand-in MPI wrapper that prints each argument it gets on its own line (ARG:<arg>), to show
# what tempi-cc passes through. Answers -show like MPICH's wrapper would, with no flags.
for a in "$@"; do
  [ "$a" = -show ] && { echo "cc"; exit 0; }
done
for a in "$@"; do echo "ARG:$a"; done
