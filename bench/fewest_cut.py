"""The fewest-presses search with and without the symmetric cut, side by side, in one process.

Usage:
    python bench/fewest_cut.py 170 61        # all-lit n x n boards; both searches on every usable core

For each n: the nullity, the seconds of the plain search and of the search cut by the
square's 8 symmetries (docs/algebra.md section 11), and whether both returned the same
solution.  Figures go to the README and the closing notes with the machine they ran on.
"""
from __future__ import annotations

import sys
import time

import numpy as np


def main(sizes: list[int]) -> None:
    # imported here: pytest's doctest collection imports every bench module, also against a
    # reference build that has no _symmetry module (bench/ab.py)
    import lightsout
    from lightsout._search.minweight import coset_min_weight
    from lightsout._search.symmetry import grid_symmetries

    print(f"{'n':>4} {'nullity':>7} {'plain s':>8} {'cut s':>7} {'gain':>5}  same")
    for n in sizes:
        s = lightsout.solve(np.ones((n, n), bool))
        particular = s.presses.ravel().astype(np.uint8)
        basis = s.quiet_patterns().reshape(s.nullity, n * n).astype(np.uint8)
        began = time.perf_counter()
        plain = coset_min_weight(particular, basis)
        plain_seconds = time.perf_counter() - began
        began = time.perf_counter()
        cut = coset_min_weight(particular, basis, symmetry=grid_symmetries((n, n), (False, False)))
        cut_seconds = time.perf_counter() - began
        same = np.array_equal(plain.presses, cut.presses)
        print(f"{n:>4} {s.nullity:>7} {plain_seconds:>8.2f} {cut_seconds:>7.2f} {plain_seconds / cut_seconds:>5.1f}  {same}",
              flush=True)


if __name__ == "__main__":
    main([int(arg) for arg in sys.argv[1:]] or [170])
