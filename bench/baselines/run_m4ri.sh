#!/bin/sh
# Compile and run the M4RI baseline (bench/baselines/m4ri_echelonize.c) at the
# sizes bench/bench_gf2elim.py uses, for a side-by-side comparison with
# lightsout's rref_inplace.  Needs M4RI (Debian/Ubuntu: apt-get install
# libm4ri-dev) and pkg-config.  Not run by CI: it is a manual measurement.
#
# Usage: bench/baselines/run_m4ri.sh [repeats]
set -eu
here=$(cd "$(dirname "$0")" && pwd)
out=${TMPDIR:-/tmp}/m4ri_echelonize
repeats=${1:-3}
cc -O3 -o "$out" "$here/m4ri_echelonize.c" $(pkg-config --cflags --libs m4ri)
"$out" 4096 4097 "$repeats"
"$out" 10000 10001 "$repeats"
