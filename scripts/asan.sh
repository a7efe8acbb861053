#!/usr/bin/env bash
# Build lightsout with AddressSanitizer into a throwaway virtualenv and run the
# test suite under it.  Anyone can run it from a checkout:
#
#     scripts/asan.sh                 # the suite without the slow tests
#     scripts/asan.sh -k kernels      # extra arguments go to pytest
#
# Python and numpy are not instrumented, so libasan is preloaded into the host
# interpreter; leak detection is off (the interpreter keeps memory at exit by
# design).  Exit status: pytest's (0 = clean).  ASan aborts the run with a
# report on the first invalid access.
set -euo pipefail
src="$(cd "$(dirname "$0")/.." && pwd)"
python="${PYTHON:-python3}"
work="$(mktemp -d "${TMPDIR:-/tmp}/lightsout-asan.XXXXXX")"
trap 'rm -rf "$work"' EXIT

libasan="$(${CC:-gcc} -print-file-name=libasan.so)"
if [ ! -e "$libasan" ]; then
    echo "asan.sh: no libasan.so next to ${CC:-gcc}; install the compiler's AddressSanitizer runtime" >&2
    exit 2
fi

echo "== copying the checkout (without build products) to $work/src"
mkdir -p "$work/src"
tar -C "$src" --exclude=./.venv --exclude=./build --exclude='*.so' --exclude='*.c' \
    --exclude=.git --exclude='*.egg-info' --exclude=__pycache__ -cf - . | tar -C "$work/src" -xf -

echo "== building with -fsanitize=address into $work/venv"
"$python" -m venv "$work/venv"
"$work/venv/bin/pip" install -q "setuptools>=77" wheel "Cython>=3.0" "numpy>=1.25" \
    pytest hypothesis
LIGHTSOUT_CFLAGS="-O1 -g -fsanitize=address -fno-omit-frame-pointer" \
LIGHTSOUT_LDFLAGS="-fsanitize=address" \
    "$work/venv/bin/pip" install -q --no-build-isolation "$work/src"

echo "== running the tests under ASan"
export LD_PRELOAD="$libasan"
export ASAN_OPTIONS="detect_leaks=0:abort_on_error=1:${ASAN_OPTIONS:-}"
if [ "$#" -eq 0 ]; then
    set -- -m "not slow"
fi
# From outside the source tree, so the instrumented install is imported.
# test_every_build_gives_the_same_answers starts interpreters with an empty
# environment, so without LD_PRELOAD they cannot load the instrumented modules.
cd "$work"
so="$("$work/venv/bin/python" -c 'import lightsout._kernels.chase_generic as k; print(k.__file__)')"
if ! ldd "$so" | grep -q libasan; then
    echo "asan.sh: $so is not linked against libasan; the build did not take the flags" >&2
    exit 2
fi
"$work/venv/bin/python" -m pytest -q -p no:cacheprovider --rootdir="$work/src" \
    -o addopts="--import-mode=importlib" \
    --deselect src/tests/test_dispatch.py::test_every_build_gives_the_same_answers \
    --deselect tests/test_dispatch.py::test_every_build_gives_the_same_answers \
    "$work/src/tests" "$@"
