"""Would branch and bound pay?  The share of branches a disjoint-group lower bound prunes.

Usage:
    python bench/fewest_bound.py 61:1629 119:6409 170:13912     # n:fewest, the proven minimum

A branch of the fewest-presses search fixes the top d - L coset coordinates and leaves L
free.  Cells whose forms agree on the free coordinates flip together over the branch, so
each such group contributes at least min(pressed, unpressed) of its cells: in signed sums,
S >= -sum over groups |h[group]|.  A branch is pruned when that bound is above the proven
minimum S* (the most favourable case: the best is known from the start).  The script
draws 300 random branches for each L and prints the share pruned.  Bounding a branch costs
one pass over the forms, about what weighing it by a transform costs when L is 12 or less,
so the bound pays only if it prunes at L well above 12.
"""
from __future__ import annotations

import sys

import numpy as np


def parity(values: np.ndarray) -> np.ndarray:
    folded = values.copy()
    for shift in (32, 16, 8, 4, 2, 1):
        folded ^= folded >> np.uint64(shift)
    return (folded & np.uint64(1)).astype(np.int64)


def main(cases: list[tuple[int, int]]) -> None:
    import lightsout   # here, not at the top: see bench/fewest_cut.py
    from lightsout._search import cosetform as _fewest

    rng = np.random.default_rng(0)
    for n, fewest in cases:
        s = lightsout.solve(np.ones((n, n), bool))
        particular = s.presses.ravel().astype(np.uint8)
        basis = s.quiet_patterns().reshape(s.nullity, n * n).astype(np.uint8)
        problem = _fewest.search_problem(_fewest.reduce_coset(particular, basis))
        target = 2 * fewest - problem.cells
        shares = []
        for free in (30, 24, 18, 12, 8, 4):
            if free >= problem.nullity:
                continue
            low = problem.forms & np.uint64((1 << free) - 1)
            groups = np.unique(low, return_inverse=True)[1].ravel()
            top = problem.forms >> np.uint64(free)
            branches = rng.integers(0, 1 << (problem.nullity - free), size=300, dtype=np.uint64)
            pruned = 0
            for branch in branches:
                signs = 1 - 2 * parity(top & branch)
                bound = -np.abs(np.bincount(groups, weights=problem.values * signs)).sum()
                pruned += bound > target
            shares.append(f"L={free}: {pruned / branches.size:.0%}")
        print(f"n={n} nullity={problem.nullity} S*={target}  " + "  ".join(shares), flush=True)


if __name__ == "__main__":
    main([tuple(int(part) for part in arg.split(":")) for arg in sys.argv[1:]] or [(61, 1629)])  # type: ignore[misc]
