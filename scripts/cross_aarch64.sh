#!/usr/bin/env bash
# Prove the portable build: compile every module for 64-bit ARM with a cross compiler, with
# no x86 flag, and check that each shared object is an AArch64 ELF file.
#
#   scripts/cross_aarch64.sh [WORK_FOLDER]      (default: a new temporary folder)
#
# Needs Debian's gcc-aarch64-linux-gnu (apt-get install gcc-aarch64-linux-gnu) and a Python
# with numpy, Cython and setuptools (PYTHON, default python3).  The objects are not run here
# (no AArch64 machine or emulator); a native aarch64 build and its tests are the
# ubuntu-24.04-arm job of .github/workflows/wheels.yml.  The Python headers are the build
# machine's: both are LP64 little-endian Linux, so the C compiles as it would on ARM.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
WORK=${1:-$(mktemp -d)}
PYTHON=${PYTHON:-python3}
CROSS=${CROSS:-aarch64-linux-gnu-gcc}
command -v "$CROSS" >/dev/null || { echo "cross-aarch64: $CROSS not found (apt-get install gcc-aarch64-linux-gnu)" >&2; exit 1; }
mkdir -p "$WORK"
WORK=$(cd "$WORK" && pwd)
rm -rf "$WORK/src" "$WORK/out"
git -C "$ROOT" archive HEAD | (mkdir "$WORK/src" && tar -x -C "$WORK/src")
cd "$WORK/src"
started=$(date +%s)
# the portable modules only (LIGHTSOUT_NO_SIMD=1 is what setup.py does on any non-x86 machine)
CC="$CROSS" LDSHARED="$CROSS -shared" LIGHTSOUT_NO_SIMD=1 \
    "$PYTHON" setup.py -q build_ext -b "$WORK/out" >"$WORK/build.log" 2>&1 \
    || { tail -n 30 "$WORK/build.log" >&2; exit 1; }
echo "cross-aarch64: built in $(( $(date +%s) - started )) s with $("$CROSS" --version | head -n 1)"
count=0
while IFS= read -r object; do
    description=$(file -b "$object")
    case "$description" in
        *"ARM aarch64"*) count=$((count + 1)); echo "  ${object#"$WORK/out/"}: ${description%%, BuildID*}" ;;
        *) echo "cross-aarch64: FAILED: $object is not an AArch64 object: $description" >&2; exit 1 ;;
    esac
done < <(find "$WORK/out" -name '*.so' | sort)
[ "$count" -gt 0 ] || { echo "cross-aarch64: FAILED: no shared object was built" >&2; exit 1; }
# no x86 instruction-set flag reached the compiler
if grep -E -- '-march=x86|-mavx|-mpclmul' "$WORK/build.log"; then
    echo "cross-aarch64: FAILED: an x86 flag reached the AArch64 build" >&2; exit 1
fi
echo "cross-aarch64: passed: $count AArch64 shared objects"
