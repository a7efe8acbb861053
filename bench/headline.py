"""Measure the README's headline figures, each in a fresh process, and print them as a table.

Usage:
    python bench/headline.py            # everything but n = 1,000,000
    python bench/headline.py --big      # also first_row of 10^6 and 10^7
    python bench/headline.py --huge     # also first_row and nullity of 10^8, first_row of 10^9
    python bench/headline.py --compare  # also the side-by-side references, in this same run

Each figure is the best of a few runs (one for the big and huge ones).  "extra memory"
is the peak resident set size of the process minus its size right after
``import lightsout``.

The children run isolated (``python -I``) from a temporary directory, so they
measure the installed package wherever this script is started from (the
repository root included), never the source folder.  A child that fails stops
the table with its command and its own error output.

``--compare`` measures the references the README compares with (the naive C
dense route, bench/baselines/run_naive.sh; M4RI, bench/baselines/run_m4ri.sh,
where pkg-config finds it; NTL's GF(2)[x] gcd and extended gcd,
bench/baselines/run_ntl.sh, where its headers are installed) right next to our
own figure for the same job, so every ratio comes from one session on one
machine state.
"""
from __future__ import annotations

import argparse
import json
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

PROBE = r"""
import json, resource, time, sys
import numpy as np
import lightsout
from lightsout._kernels import load, selected_level
before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
setup, stmt, repeat = sys.argv[1], sys.argv[2], int(sys.argv[3])
env = {"np": np, "lightsout": lightsout, "load": load}
exec(setup, env)
best = float("inf")
for _ in range(repeat):
    exec(setup, env)
    start = time.perf_counter()
    exec(stmt, env)
    best = min(best, time.perf_counter() - start)
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
print(json.dumps({"seconds": best, "extra_mb": (peak - before) / 1024, "level": selected_level()}))
"""

RANDOM_SYSTEM = (
    "rng = np.random.default_rng(1); n = 10000; "
    "m = rng.integers(0, 2**63, size=(n, 157), dtype=np.uint64) * np.uint64(2) "
    "+ rng.integers(0, 2, size=(n, 157), dtype=np.uint64); m[:, -1] &= np.uint64((1 << 17) - 1)"
)

# Made once per child (the setup runs before every repeat; the board is kept between them).
BIG_BOARD = ("b = globals().get('b'); b = b if b is not None else "
             "(np.random.default_rng(3).random((20000, 20000)) < 0.5).astype(np.uint8)")

CASES = [
    ("first_row(10_000)  [poly]", "", "lightsout.first_row(10_000)", 10, False),
    ("first_row(100_000)  [poly]", "", "lightsout.first_row(100_000)", 3, False),
    ("first_row(1_000_000)  [poly]", "", "lightsout.first_row(1_000_000)", 3, False),
    ("first_row(1_000_001)  [poly, odd side: full-degree gcd]", "", "lightsout.first_row(1_000_001)", 3, False),
    ("first_row(10_000_000)  [poly]", "", "lightsout.first_row(10_000_000)", 1, True),
    ("first_row(100_000_000)  [poly]", "", "lightsout.first_row(100_000_000)", 1, "huge"),
    ("nullity(100_000_000)", "", "lightsout.nullity(100_000_000)", 1, "huge"),
    ("first_row(1_000_000_000)  [poly]", "", "lightsout.first_row(1_000_000_000)", 1, "huge"),
    ("nullity(1_000_000)", "", "lightsout.nullity(1_000_000)", 3, False),
    ("nullity(1_000_001)", "", "lightsout.nullity(1_000_001)", 3, False),
    ("first_row(1_000, method='dense')", "", "lightsout.first_row(1000, method='dense')", 20, False),
    ("first_row(3_000, method='dense')", "", "lightsout.first_row(3000, method='dense')", 10, False),
    ("first_row(10_000, method='dense')", "", "lightsout.first_row(10_000, method='dense')", 3, False),
    ("elimination alone, random 10,000 x 10,001", RANDOM_SYSTEM,
     "load('gf2elim').rref_inplace(m, 10001)", 3, False),
    ("solve(random 2,000 x 2,000)  [poly]", "b = np.random.default_rng(2).random((2000, 2000)) < 0.5",
     "lightsout.solve(b)", 10, False),
    ("solve(random 2,000 x 2,000, method='dense')", "b = np.random.default_rng(2).random((2000, 2000)) < 0.5",
     "lightsout.solve(b, method='dense')", 10, False),
    ("solve(random 20,000 x 20,000 uint8)  [poly]", BIG_BOARD, "lightsout.solve(b)", 5, False),
    ("np.packbits(the same board, axis=1)  [reference]", BIG_BOARD, "np.packbits(b, axis=1)", 5, False),
]


class ChildFailed(Exception):
    """A measuring child exited with an error; the message carries its stderr."""


def measure(setup: str, stmt: str, repeat: int) -> dict:
    """Run one case in a fresh isolated interpreter outside the checkout; its JSON result."""
    command = [sys.executable, "-I", "-c", PROBE, setup, stmt, str(repeat)]
    with tempfile.TemporaryDirectory(prefix="lightsout-headline-") as cwd:
        child = subprocess.run(command, capture_output=True, text=True, cwd=cwd)
    lines = child.stdout.strip().splitlines()
    if child.returncode != 0 or not lines:
        raise ChildFailed(f"measuring `{stmt}` failed (exit {child.returncode}) in {sys.executable} -I:\n"
                          + (child.stderr.strip() or "(no error output)"))
    return dict(json.loads(lines[-1]))


BASELINES = Path(__file__).resolve().with_name("baselines")


def run_reference(script: str, *args: str) -> str:
    """Output of one of bench/baselines/run_*.sh; ChildFailed with its stderr on failure."""
    child = subprocess.run(["sh", str(BASELINES / script), *args], capture_output=True, text=True)
    if child.returncode != 0:
        raise ChildFailed(f"{script} {' '.join(args)} failed (exit {child.returncode}):\n"
                          + (child.stderr.strip() or "(no error output)"))
    return child.stdout


def seconds_text(seconds: float) -> str:
    return f"{seconds * 1000:.1f} ms" if seconds < 1 else f"{seconds:.2f} s"


def compare(n: int, big: bool) -> None:
    """Print the side-by-side table: each reference, then ours on the same job, at once."""
    print("\n| reference | time | ours | ratio |")
    print("|---|---:|---:|---:|")
    naive = run_reference("run_naive.sh", str(n))
    total = float(re.search(r"total ([0-9.]+) s", naive).group(1))  # type: ignore[union-attr]
    dense = measure("", f"lightsout.first_row({n}, method='dense')", 3)["seconds"]
    poly = measure("", f"lightsout.first_row({n})", 3)["seconds"]
    print(f"| naive C dense route, all-lit {n:,} x {n:,} | {seconds_text(total)} "
          f"| dense {seconds_text(dense)}, poly {seconds_text(poly)} "
          f"| {total / dense:.0f}x, {total / poly:,.0f}x |", flush=True)
    if shutil.which("pkg-config") and subprocess.run(["pkg-config", "--exists", "m4ri"]).returncode == 0:
        m4ri = run_reference("run_m4ri.sh", "3")
        found = re.search(r"10000 x 10001\s+mzd_echelonize\(A, 1\): ([0-9.]+) s", m4ri)
        ours = measure(RANDOM_SYSTEM, "load('gf2elim').rref_inplace(m, 10001)", 3)["seconds"]
        if found:
            theirs = float(found.group(1))
            print(f"| M4RI mzd_echelonize, random 10,000 x 10,001 | {seconds_text(theirs)} "
                  f"| {seconds_text(ours)} | {theirs / ours:.1f}x |", flush=True)
    else:
        print("| M4RI | not installed (libm4ri-dev) | | |")
    compare_ntl(big)


def compare_ntl(big: bool) -> None:
    """NTL's XGCD and GCD of two random polynomials of degree N beside our first_row(N) and nullity(N)."""
    if subprocess.run(["sh", "-c", "echo '#include <NTL/GF2X.h>' | c++ -E -x c++ - >/dev/null 2>&1"]).returncode:
        print("| NTL | not installed (libntl-dev, libgf2x-dev) | | |")
        return
    for n in (1_000_000, 10_000_000) if big else (1_000_000,):
        ntl = run_reference("run_ntl.sh", "1" if n > 1_000_000 else "3", str(n))
        found = re.search(r"XGCD: ([0-9.]+) s\s+GCD: ([0-9.]+) s", ntl)
        if not found:
            raise ChildFailed(f"run_ntl.sh printed no timing:\n{ntl}")
        xgcd, gcd = float(found.group(1)), float(found.group(2))
        repeat = 1 if n > 1_000_000 else 3
        row = measure("", f"lightsout.first_row({n})", repeat)["seconds"]
        null = measure("", f"lightsout.nullity({n})", repeat)["seconds"]
        print(f"| NTL XGCD, two random polynomials of degree {n:,} | {seconds_text(xgcd)} "
              f"| first_row({n:,}) {seconds_text(row)} | {xgcd / row:.1f}x |", flush=True)
        print(f"| NTL GCD, the same | {seconds_text(gcd)} | nullity({n:,}) {seconds_text(null)} "
              f"| {gcd / null:.1f}x |", flush=True)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--big", action="store_true", help="include first_row(10_000_000) (and NTL at 10^7)")
    parser.add_argument("--huge", action="store_true",
                        help="include first_row and nullity of 10^8 and first_row(10^9) (minutes, 4 GB)")
    parser.add_argument("--compare", action="store_true",
                        help="also measure the naive C and M4RI references beside ours")
    parser.add_argument("--compare-n", type=int, default=10_000, help="board size of the naive comparison")
    args = parser.parse_args()
    print("| what | time | extra memory |")
    print("|---|---:|---:|")
    level = "?"
    for label, setup, stmt, repeat, big in CASES:
        if (big == "huge" and not args.huge) or (big is True and not args.big):
            continue
        try:
            result = measure(setup, stmt, repeat)
        except ChildFailed as exc:
            print(f"headline: {exc}", file=sys.stderr)
            return 1
        level = result["level"]
        seconds = result["seconds"]
        print(f"| `{label}` | {seconds_text(seconds)} | {result['extra_mb']:.0f} MB |", flush=True)
    if args.compare:
        try:
            compare(args.compare_n, args.big)
        except ChildFailed as exc:
            print(f"headline: {exc}", file=sys.stderr)
            return 1
    print(f"\nSIMD build: {level}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
