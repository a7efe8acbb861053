#!/bin/sh
# Compile and run the naive dense-route baseline (bench/baselines/naive_dense.c)
# on the all-lit N x N board: the reference the dense route is compared with.
# Not run by CI: it is a manual measurement (-march=native is fine here, the
# binary never leaves this machine).
#
# Usage: bench/baselines/run_naive.sh N
set -eu
here=$(cd "$(dirname "$0")" && pwd)
out=${TMPDIR:-/tmp}/naive_dense
n=${1:-1000}
cc -O3 -march=native -o "$out" "$here/naive_dense.c"
"$out" "$n"
