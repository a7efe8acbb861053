"""Benchmarks of many boards at once (lightsout._core.manyboards): the byte-table operator.

Run: python -m pytest bench/bench_many.py --benchmark-only
100,000 seeded random boards per call, as bool stacks (the form ``solve_many`` gets)
and already packed; the operator is a random 0/1 matrix of the board's size with two
parity checks (the solvable mask), built once outside the timing.
"""
from __future__ import annotations

import numpy as np

import lightsout
import lightsout.packed
from private import private

try:
    manyboards = private("lightsout._core.manyboards", "lightsout._many")
except ModuleNotFoundError:  # a reference commit that kept it among the searches
    manyboards = private("lightsout._search.manyboards", "lightsout._many")

COUNT = 100_000


def _setup(cells: int):
    rng = np.random.default_rng(20261121)
    matrix = (rng.random((cells, cells)) < 0.5).astype(np.uint8)
    checks = (rng.random((2, cells)) < 0.5).astype(np.uint8)
    boards = rng.random((COUNT, cells)) < 0.5
    return manyboards.bit_operator(matrix, checks), boards


def _apply(gate, side: int) -> None:
    op, boards = _setup(side * side)
    res = gate(manyboards.apply_bit_matrix_many, boards, op)
    assert res.values.shape == (COUNT, side * side)
    gate.benchmark.extra_info["boards_per_s"] = COUNT / gate.benchmark.stats.stats.min


def _apply_packed(gate, side: int) -> None:
    op, boards = _setup(side * side)
    packed = lightsout.packed.pack(boards)
    res = gate(manyboards.apply_bit_matrix_many, packed, op, packed_output=True)
    assert res.values.shape[0] == COUNT
    gate.benchmark.extra_info["boards_per_s"] = COUNT / gate.benchmark.stats.stats.min


def test_many_apply_5x5(gate):
    _apply(gate, 5)


def test_many_apply_10x10(gate):
    _apply(gate, 10)


def test_many_apply_packed_5x5(gate):
    _apply_packed(gate, 5)


def test_many_apply_packed_10x10(gate):
    _apply_packed(gate, 10)


def _solve_many(gate, side: int, minimal: bool = False) -> None:
    """lightsout.solve_many as a user calls it: the operator is rebuilt inside every call."""
    boards = np.random.default_rng(20261122).random((COUNT, side, side)) < 0.5
    res = gate(lightsout.solve_many, boards, minimal=minimal)
    assert res.presses.shape == boards.shape
    gate.benchmark.extra_info["boards_per_s"] = COUNT / gate.benchmark.stats.stats.min


def test_many_solve_many_5x5(gate):
    """Target: 10**7 boards per second on one core (here 10**5 boards a call)."""
    _solve_many(gate, 5)


def test_many_solve_many_10x10(gate):
    """Target: 10**6 boards per second on one core."""
    _solve_many(gate, 10)


def test_many_solve_many_minimal_5x5(gate):
    """The fewest presses of each board (nullity 2: four solutions each)."""
    _solve_many(gate, 5, minimal=True)
