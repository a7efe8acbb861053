#!/usr/bin/env bash
# Build lightsout and run its test suite under every Python that requires-python
# (pyproject.toml) admits: 3.9, 3.10, 3.11, 3.12 and 3.13.
#
# Usage: scripts/test_pythons.sh [pytest arguments]   (default: -q -m "not slow")
#
# Each version gets a virtualenv under ${LIGHTSOUT_PY_CACHE:-${TMPDIR:-/tmp}/lightsout-pythons}/<version>
# (kept between runs, so only the package is rebuilt), the package is installed
# from this checkout with `pip install '.[test]'` (not editable: every version
# builds its own extensions), and the tests run from an empty folder, so that the
# installed package, not the source tree, is imported.
#
# LIGHTSOUT_PY_ONLY=1 skips the rebuild when a version is already installed and copies
# this checkout's lightsout/*.py over the installed ones (quick reruns after Python edits).
#
# Interpreters: $PYTHONS (space-separated paths) if set, else every
# ~/.pyenv/versions/3.X.* with 9 <= X <= 13 (the newest patch release of each).
# A version with no interpreter is reported MISSING and counts as a failure.
# Prints one line per version (PASS/FAIL/BUILD-FAIL/MISSING) and exits non-zero
# unless every version passed.
set -u
repo="$(cd "$(dirname "$0")/.." && pwd)"
cache="${LIGHTSOUT_PY_CACHE:-${TMPDIR:-/tmp}/lightsout-pythons}"
mkdir -p "$cache"
if [ "$#" -eq 0 ]; then set -- -q -m "not slow"; fi
# Test paths given relative to the repository (tests/test_x.py::name) still work from the empty folder.
args=()
for a in "$@"; do
    if [ -e "$repo/${a%%::*}" ] && [ "${a#-}" = "$a" ]; then args+=("$repo/$a"); else args+=("$a"); fi
done
set -- "${args[@]}"

minors="9 10 11 12 13"
declare -A interp
if [ -n "${PYTHONS:-}" ]; then
    for py in $PYTHONS; do
        v="$("$py" -c 'import sys; print("%d.%d" % sys.version_info[:2])')" && interp[$v]="$py"
    done
else
    for m in $minors; do
        py="$(ls -d "$HOME"/.pyenv/versions/3."$m".* 2>/dev/null | sort -V | tail -n 1)"
        [ -n "$py" ] && [ -x "$py/bin/python" ] && interp[3.$m]="$py/bin/python"
    done
fi

status=0
summary=""
for m in $minors; do
    v="3.$m"
    py="${interp[$v]:-}"
    if [ -z "$py" ]; then
        summary+="$v MISSING (no interpreter found)"$'\n'; status=1; continue
    fi
    env="$cache/$v"
    log="$cache/$v.log"
    echo "== Python $v ($py): building (log: $log)" >&2
    site="$(cd / && "$env/bin/python" -c 'import lightsout, os; print(os.path.dirname(lightsout.__file__))' 2>/dev/null)"
    if [ "${LIGHTSOUT_PY_ONLY:-0}" = 1 ] && [ -n "$site" ]; then
        cp "$repo"/lightsout/*.py "$site"/ >"$log" 2>&1
    else
        {
            [ -x "$env/bin/python" ] || "$py" -m venv "$env"
            "$env/bin/python" -m pip uninstall -q -y lightsout-gf2
            "$env/bin/python" -m pip install -q "$repo[test]"
        } >"$log" 2>&1
    fi
    if [ $? -ne 0 ]; then
        summary+="$v BUILD-FAIL (see $log)"$'\n'; status=1; continue
    fi
    echo "== Python $v: testing" >&2
    work="$(mktemp -d)"
    has_path=0
    for a in "$@"; do case "$a" in "$repo"/*) has_path=1 ;; esac; done
    paths=("$repo/tests"); [ $has_path -eq 1 ] && paths=()
    (cd "$work" && "$env/bin/python" -m pytest -c "$repo/pyproject.toml" --rootdir "$repo" \
        -p no:cacheprovider "${paths[@]}" "$@") >>"$log" 2>&1
    rc=$?
    rm -rf "$work"
    result="$(grep -E '^(=+ )?[0-9]+ (passed|failed)|(passed|failed|error).* in [0-9.]+s' "$log" | tail -n 1)"
    if [ $rc -eq 0 ]; then
        summary+="$v PASS  $result"$'\n'
    else
        summary+="$v FAIL  $result (see $log)"$'\n'; status=1
    fi
done
printf '%s' "$summary"
exit $status
