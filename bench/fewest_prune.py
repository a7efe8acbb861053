"""The fewest-presses search with and without branch and bound, side by side, in one process.

Usage:
    python bench/fewest_prune.py 67 170 61             # all-lit n x n boards
    python bench/fewest_prune.py 4x9 9+9+9+9 19x3      # graphs: grids of side 4 nine times, ...

A size ``n`` is the all-lit n x n board; ``SxK`` is the all-lit graph of K separate S x S
grids and ``A+B+...`` that of grids of sides A, B, ...  For each case: the nullity, the
seconds of the plain search (every element weighed; left out above nullity 40), of the
branch and bound (lightsout/_search/prune.py), the tasks it weighed of all the tasks, and whether both
returned the same solution.  Both run on every usable core.
"""
from __future__ import annotations

import sys
import time

import numpy as np

#: Above this nullity the plain search (minutes to hours) is not run.
PLAIN_MAX_NULLITY = 40


def coset(case: str) -> tuple[int, np.ndarray, np.ndarray]:
    # imported here: pytest's doctest collection imports every bench module, also against a
    # reference build that has no _prune module (bench/ab.py)
    import lightsout

    if case.isdigit():
        n = int(case)
        s = lightsout.solve(np.ones((n, n), bool))
    else:
        import networkx as nx  # type: ignore[import-untyped]

        if "x" in case:
            side, copies = (int(part) for part in case.split("x"))
            sides = [side] * copies
        else:
            sides = [int(part) for part in case.split("+")]
        s = lightsout.solve_graph(nx.disjoint_union_all([nx.grid_2d_graph(side, side) for side in sides]))
    particular = np.asarray(s.presses, dtype=np.uint8).ravel()
    return s.nullity, particular, s.quiet_patterns().reshape(s.nullity, particular.size).astype(np.uint8)


def main(cases: list[str]) -> None:
    from lightsout._search import cosetform as _fewest, prune as _prune
    from lightsout._core.runner import default_threads
    from lightsout._search.minweight import coset_min_weight

    print(f"{'case':>12} {'nullity':>7} {'plain s':>8} {'pruned s':>9} {'tasks weighed':>16}  same")
    for case in cases:
        nullity, particular, basis = coset(case)
        plain_seconds, plain = float("nan"), None
        if nullity <= PLAIN_MAX_NULLITY:
            began = time.perf_counter()
            plain = coset_min_weight(particular, basis, prune=False)
            plain_seconds = time.perf_counter() - began
        began = time.perf_counter()
        pruned = coset_min_weight(particular, basis, prune=True)
        pruned_seconds = time.perf_counter() - began
        problem = _fewest.search_problem(_fewest.reduce_coset(particular, basis))
        layout = _fewest.task_layout(problem, 0)
        *_, stats = _prune.pruned_search(problem.forms, problem.values, nullity, problem.bound, problem.wide,
                                         layout, None, threads=default_threads())
        share = f"{stats.weighed}/{1 << layout[2]}"
        same = "n/a" if plain is None else str(np.array_equal(plain.presses, pruned.presses))
        print(f"{case:>12} {nullity:>7} {plain_seconds:>8.2f} {pruned_seconds:>9.2f} {share:>16}  {same}"
              f"  ({pruned.weight} presses)", flush=True)


if __name__ == "__main__":
    main(sys.argv[1:] or ["67", "4x9", "19x3"])
