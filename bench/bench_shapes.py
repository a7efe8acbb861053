"""Benchmarks of the public solve() on boards of other shapes: the issue-7 targets, as a user calls it.

Run: python -m pytest bench/bench_shapes.py --benchmark-only

Targets (this 2-core machine): the all-lit 100 x 100 x 100 cube under 1 s, the
all-lit 3^10 hypercube under 2 s, the all-lit 2000 x 2000 torus under 1 s, a
500 x 500 board with 3 states and one with 6 states under 1 s.  Each figure is
the whole call: checks, the route, the canonical solution and the replay that
verifies it.  The k-state boards are made solvable by construction (the lights
that random presses leave, negated), so the figure is a solve, not a refusal.
"""
from __future__ import annotations

import numpy as np

import lightsout


def _solvable(shape: tuple[int, ...], states: int, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    presses = rng.integers(0, states, size=shape)
    lights = lightsout.press(np.zeros(shape, dtype=np.uint8), presses, states=states)
    return ((states - lights.astype(np.int64)) % states).astype(np.uint8)


def _cells_per_s(gate, cells: int) -> None:
    gate.benchmark.extra_info["cells_per_s"] = cells / gate.benchmark.stats.stats.min


def test_shapes_solve_cube_100(gate):
    """lightsout.solve on the all-lit 100 x 100 x 100 cube."""
    board = np.ones((100, 100, 100), dtype=np.uint8)
    gate(lightsout.solve, board)
    _cells_per_s(gate, board.size)


def test_shapes_solve_hypercube_3x10(gate):
    """lightsout.solve on the all-lit 3^10 hypercube (59,049 cells, 10 axes)."""
    board = np.ones((3,) * 10, dtype=np.uint8)
    gate(lightsout.solve, board)
    _cells_per_s(gate, board.size)


def test_shapes_solve_torus_2000(gate):
    """lightsout.solve on the all-lit 2000 x 2000 torus (nullity 128)."""
    board = np.ones((2000, 2000), dtype=np.uint8)
    gate(lightsout.solve, board, torus=True)
    _cells_per_s(gate, board.size)


def test_shapes_solve_k3_500(gate):
    """lightsout.solve on a solvable 500 x 500 board with 3 states."""
    board = _solvable((500, 500), 3, 1)
    gate(lightsout.solve, board, states=3)
    _cells_per_s(gate, board.size)


def test_shapes_solve_k6_500(gate):
    """lightsout.solve on a solvable 500 x 500 board with 6 states."""
    board = _solvable((500, 500), 6, 2)
    gate(lightsout.solve, board, states=6)
    _cells_per_s(gate, board.size)
