#!/bin/sh
# Compile and run the NTL baseline (bench/baselines/ntl_xgcd.cc) at the sizes
# bench/bench_gf2poly_fast.py uses, for a side-by-side comparison with
# lightsout's half-gcd (poly_gcd, poly_gcd_cofactor) and Newton division
# (poly_divmod).  Needs NTL with gf2x (Debian/Ubuntu: apt-get install
# libntl-dev libgf2x-dev).  Not run by CI: it is a manual measurement, and NTL
# is never a dependency of lightsout.
#
# Usage: bench/baselines/run_ntl.sh [repeats [degrees...]]   (default: 3 100000 1000000)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
out=${TMPDIR:-/tmp}/ntl_xgcd
repeats=${1:-3}
[ $# -gt 0 ] && shift
c++ -O2 -o "$out" "$here/ntl_xgcd.cc" -lntl -lgf2x -lgmp -pthread
for n in ${*:-100000 1000000}; do
    "$out" "$n" "$repeats"
done
