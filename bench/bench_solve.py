"""Benchmarks of ``lightsout.solve``, ``is_solvable``, ``nullity`` and ``nullity_table``.

Run: python -m pytest bench/bench_solve.py --benchmark-only [-m "not slow"]
Boards are seeded random 2000 x 2000 (nullity 0 at n = 2000, so all solvable).
"""
from __future__ import annotations

import time

import numpy as np
import pytest

import lightsout

N = 2000


def _boards(count: int = 4) -> list[np.ndarray]:
    rng = np.random.default_rng(20261121)
    return [rng.random((N, N)) < 0.5 for _ in range(count)]


@pytest.mark.parametrize("method", ["poly", "dense"])
def test_solve_random_2000(gate, method):
    boards = _boards()
    turn = iter(range(10**9))
    threads = {"threads": 1} if method == "dense" else {}

    def next_board():
        return (boards[next(turn) % len(boards)],), {"method": method, **threads}

    solution = gate(lightsout.solve, setup=next_board)
    assert solution.verify()
    gate.benchmark.extra_info.update(method=method, cells_per_s=N * N / gate.benchmark.stats.stats.min)


def test_is_solvable_random_2000(gate):
    board = _boards(1)[0]
    assert gate(lightsout.is_solvable, board) is True


def test_nullity_100000(gate):
    gate(lightsout.nullity, 100_000)


def test_nullity_1000000(gate):
    """One gcd of degree 500,000 (docs/algebra.md section 9); the issue's bar is half NTL's gcd time."""
    assert gate(lightsout.nullity, 1_000_000) == 0


BIG = 20_000


def test_solve_random_20000(gate):
    """A random 20,000 x 20,000 uint8 board (400 MB); extra_info has the ratio to np.packbits on it."""
    board = (np.random.default_rng(20261122).random((BIG, BIG)) < 0.5).astype(np.uint8)
    solution = gate(lightsout.solve, board)
    assert solution.presses.shape == (BIG, BIG)
    packbits = min(_seconds(np.packbits, board, axis=1) for _ in range(5))
    gate.benchmark.extra_info.update(cells_per_s=BIG * BIG / gate.benchmark.stats.stats.min,
                                     packbits_s=packbits, ratio_to_packbits=gate.benchmark.stats.stats.min / packbits)


def _seconds(fn, *args, **kwargs) -> float:
    start = time.perf_counter()
    fn(*args, **kwargs)
    return time.perf_counter() - start


def test_nullity_table_1000(gate):
    table = gate(lightsout.nullity_table, 1000)
    assert table.shape == (1000,)
    gate.benchmark.extra_info["boards_per_s"] = 1000 / gate.benchmark.stats.stats.min
