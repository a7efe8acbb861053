"""Brackets [lower, upper] on the fewest presses of the all-lit n x n boards past the proven table; resumable.

Usage:
    python bench/fewest_brackets.py                        # the ten sizes, 300 s each
    python bench/fewest_brackets.py --sizes 79 95 --seconds 120 --out my_brackets.csv

For each size, ``solve(all-lit).minimal(time_limit=seconds)`` (docs/algebra.md section 8):
the best solution found (a local search, then the exhaustive search while time is left,
for nullity up to 64) and the proven lower bound (the press cover, the corner regions, the
search's frontier).  The solution is replayed on the board before its row is written:
n, nullity, lower, upper, seconds, machine, and the upper bound's presses (row-major bits,
numpy.packbits, base64), so anyone can replay it.  Rows already in the file are skipped.
The default output is the table shipped with the package, lightsout/fewest_brackets.csv
(lightsout.bracketed_fewest_presses()), which docs/tables.md shows.
"""
from __future__ import annotations

import argparse
import base64
import sys
import time
from pathlib import Path
from typing import Optional

import numpy as np

from fewest_table import append, finished, machine

DEFAULT_OUT = Path(__file__).resolve().parents[1] / "lightsout" / "fewest_brackets.csv"
FIELDS = ["n", "nullity", "lower", "upper", "seconds", "machine", "presses"]
#: The sizes n <= 200 past the proven table (nullity above 50), smallest nullity first.
SIZES = [126, 128, 129, 95, 79, 135, 123, 131, 191, 159]


def main(argv: Optional[list[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=SIZES)
    parser.add_argument("--seconds", type=float, default=300.0, help="time limit per size (default 300)")
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT)
    args = parser.parse_args(argv)

    import lightsout

    done = finished(args.out, "upper")
    where = machine()
    try:
        for n in [n for n in args.sizes if n not in done]:
            board = np.ones((n, n), dtype=np.uint8)
            solution = lightsout.solve(board)
            start = time.perf_counter()
            best = solution.minimal(time_limit=args.seconds)
            seconds = time.perf_counter() - start
            assert best.verify() and best.lower_bound is not None
            upper = int(best.presses.sum())
            packed = base64.b64encode(np.packbits(best.presses.astype(bool).ravel()).tobytes()).decode("ascii")
            append(args.out, {"n": n, "nullity": solution.nullity, "lower": best.lower_bound, "upper": upper,
                              "seconds": f"{seconds:.1f}", "machine": where, "presses": packed}, FIELDS)
            print(f"n={n} nullity={solution.nullity} [{best.lower_bound}, {upper}] seconds={seconds:.1f}", flush=True)
    except KeyboardInterrupt:
        print("interrupted: the finished sizes are saved; run the same command again to go on", file=sys.stderr)
        return 130
    return 0


if __name__ == "__main__":
    sys.exit(main())
