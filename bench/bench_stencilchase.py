"""Benchmarks of the stencil chase (lightsout/_routes/stencilchase.py) on issue 30's targets.

Run: python -m pytest bench/bench_stencilchase.py --benchmark-only -p no:cacheprovider [-m slow]

Targets (issue 30, a quiet 2-core machine): a random 2000 x 2000 board with the 3 x 3 rule,
"x", knight, plus of radius 2, a random asymmetric rule inside 5 x 5 and the hexagonal rule
(axial coordinates), each solved in <= 1 s and < 1 GB; 10,000 x 10,000 with 3 x 3, "x" and
knight in <= 60 s, < 8 GB; 100 x 100 x 100 with the 3 x 3 x 3 rule in <= 5 s.  The 2000 and
larger sizes are marked slow; the quick ones keep the gate's figures steady.

One target in a fresh process, for its peak memory (``/usr/bin/time -v``), beside today's
graph detour (``lightsout.solve_graph`` of the same board given as an edge list)::

    python bench/bench_stencilchase.py moore 2000            # the chase
    python bench/bench_stencilchase.py moore 2000 --graph    # the graph detour
    python bench/bench_stencilchase.py moore 2000 --kernel   # with the proof of an unsolvable board
"""
from __future__ import annotations

import sys
import time
from typing import Any

import numpy as np
import pytest



def _plus(radius: int) -> np.ndarray:
    w = np.zeros((2 * radius + 1,) * 2, np.uint8)
    w[radius, :] = 1
    w[:, radius] = 1
    return w


def _knight() -> np.ndarray:
    w = np.zeros((5, 5), np.uint8)
    w[[0, 0, 1, 1, 3, 3, 4, 4, 2], [1, 3, 0, 4, 0, 4, 1, 3, 2]] = 1   # the eight knight's moves and the cell
    return w


def _asymmetric() -> np.ndarray:
    w = np.random.default_rng(20261126).integers(0, 2, size=(5, 5)).astype(np.uint8)
    w[2, 2] = 1
    return w


#: Named stencils (weights, centre) of the targets.
STENCILS: dict[str, tuple[np.ndarray, tuple[int, ...]]] = {
    "moore": (np.ones((3, 3), np.uint8), (1, 1)),
    "x": (np.array([[1, 0, 1], [0, 1, 0], [1, 0, 1]], np.uint8), (1, 1)),
    "knight": (_knight(), (2, 2)),
    "plus2": (_plus(2), (2, 2)),
    "asym5": (_asymmetric(), (2, 2)),
    "hex": (np.array([[0, 1, 1], [1, 1, 1], [1, 1, 0]], np.uint8), (1, 1)),   # axial: (+-1, 0), (0, +-1), (1, -1), (-1, 1)
    "moore3d": (np.ones((3, 3, 3), np.uint8), (1, 1, 1)),
}


def random_board(shape: tuple[int, ...], seed: int = 20261126) -> np.ndarray:
    return np.random.default_rng(seed).integers(0, 2, size=shape, dtype=np.uint8)


def solve(name: str, shape: tuple[int, ...], lights: np.ndarray, **kw: Any) -> Any:
    weights, centre = STENCILS[name]
    # imported when timed, not when collected: the gate's reference build (bench/ab.py) predates
    # the route, and a module that fails to import would break its whole run, not one benchmark
    from lightsout._routes.stencilchase import chase_stencil
    return chase_stencil(shape, False, weights, centre, 2, lights, **kw)


@pytest.mark.parametrize("name", ["moore", "x", "knight", "plus2", "asym5", "hex"])
def test_stencilchase_solve_300(benchmark, name):
    """A random 300 x 300 board: the quick figure of each stencil."""
    lights = random_board((300, 300))
    found = benchmark(solve, name, (300, 300), lights, kernel=False)
    assert found.method == "stencilchase"
    if benchmark.stats is not None:  # None under --benchmark-disable
        benchmark.extra_info["cells_per_s"] = 300 * 300 / benchmark.stats.stats.min


def test_stencilchase_solve_3d_30(benchmark):
    lights = random_board((30, 30, 30))
    found = benchmark(solve, "moore3d", (30, 30, 30), lights, kernel=False)
    assert found.method == "stencilchase"


def solve_by_rows(name: str, lights: np.ndarray) -> Any:
    weights, centre = STENCILS[name]
    # imported when timed (see solve): the row chase is newer than the gate's reference build
    from lightsout._core.stencil import Stencil
    from lightsout._routes.rowchase import solve_rowchase
    return solve_rowchase(lights, Stencil(weights, centre), kernel=False, canonical=False)


@pytest.mark.parametrize("name", ["x", "knight"])
def test_rowchase_solve_300(benchmark, name):
    """A random 300 x 300 board chased a row at a time (the route the public solve takes for these rules)."""
    lights = random_board((300, 300))
    found = benchmark(solve_by_rows, name, lights)
    assert found is not None and found.method == "stencilchase"


@pytest.mark.slow
@pytest.mark.parametrize("name", ["x", "knight"])
def test_rowchase_solve_2000(benchmark, name):
    lights = random_board((2000, 2000))
    benchmark.pedantic(solve_by_rows, (name, lights), rounds=1, iterations=1)


@pytest.mark.slow
@pytest.mark.parametrize("name", ["moore", "x", "knight", "plus2", "asym5", "hex"])
def test_stencilchase_solve_2000(benchmark, name):
    """A random 2000 x 2000 board: target <= 1 s, < 1 GB."""
    lights = random_board((2000, 2000))
    benchmark.pedantic(solve, (name, (2000, 2000), lights), {"kernel": False}, rounds=1, iterations=1)


@pytest.mark.slow
def test_stencilchase_solve_3d_100(benchmark):
    """A random 100 x 100 x 100 board with the 3 x 3 x 3 rule: target <= 5 s."""
    lights = random_board((100, 100, 100))
    benchmark.pedantic(solve, ("moore3d", (100, 100, 100), lights), {"kernel": False}, rounds=1, iterations=1)


def graph_detour(name: str, shape: tuple[int, ...], lights: np.ndarray) -> Any:
    """Today's detour: the board as an undirected graph (an edge list), through lightsout.solve_graph."""
    import lightsout
    weights, centre = STENCILS[name]
    index = np.arange(int(np.prod(shape))).reshape(shape)
    edges = []
    for offset in np.argwhere(weights != 0) - np.array(centre):
        if not offset.any():
            continue
        src = tuple(slice(max(0, -o), n - max(0, o)) for o, n in zip(offset, shape))
        dst = tuple(slice(max(0, o), n - max(0, -o)) for o, n in zip(offset, shape))
        pairs = np.stack([index[src].ravel(), index[dst].ravel()], axis=1)
        edges.append(pairs[pairs[:, 0] < pairs[:, 1]])
    edge_array = np.concatenate(edges)
    del edges, index
    self_toggle = bool(weights[centre])
    return lightsout.solve_graph(edge_array, lights.reshape(-1), nvertices=lights.size, self_toggle=self_toggle)


def main(argv: list[str]) -> int:
    """``name size [--graph] [--kernel]``: solve one random board in this process and print the time
    (``--kernel``: with the quiet basis on demand and, when unsolvable, the checked proof)."""
    name, size = argv[0], int(argv[1])
    shape = (size,) * STENCILS[name][0].ndim
    lights = random_board(shape)
    start = time.perf_counter()
    if "--graph" in argv:
        try:
            graph_detour(name, shape, lights)
            what = "solved"
        except Exception as exc:  # the detour's refusal is a figure too
            what = f"{type(exc).__name__}: {str(exc)[:160]}"
    else:
        found = solve(name, shape, lights, kernel="--kernel" in argv)
        what = f"solvable={found.solvable} nullity={found.nullity}" + (" proof" if found.proof is not None else "")
    print(f"{name} {shape} {'graph' if '--graph' in argv else 'chase'}: {time.perf_counter() - start:.3f} s, {what}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
