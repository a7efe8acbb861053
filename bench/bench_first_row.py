"""Benchmarks of the public entry points: first_row by both routes, solve on random boards.

Run: python -m pytest bench/bench_first_row.py --benchmark-only [-m "not slow"]
Rates in extra_info are board cells per second.
"""
from __future__ import annotations

import numpy as np
import pytest

import lightsout


def _first_row(benchmark, n: int, method: str, rounds: int) -> None:
    row = benchmark.pedantic(lightsout.first_row, args=(n,), kwargs={"method": method},
                             rounds=rounds, iterations=1, warmup_rounds=0)
    assert row.shape == (n,)
    benchmark.extra_info.update(method=method, n=n, cells_per_s=n * n / benchmark.stats.stats.min)


@pytest.mark.benchmark(group="first_row_dense_1000")
def test_first_row_dense_1000(benchmark):
    _first_row(benchmark, 1000, "dense", rounds=5)


@pytest.mark.benchmark(group="first_row_dense_3000")
def test_first_row_dense_3000(benchmark):
    _first_row(benchmark, 3000, "dense", rounds=3)


@pytest.mark.slow
@pytest.mark.benchmark(group="first_row_dense_10000")
def test_first_row_dense_10000(benchmark):
    _first_row(benchmark, 10_000, "dense", rounds=3)


@pytest.mark.benchmark(group="first_row_poly_10000")
def test_first_row_poly_10000(benchmark):
    _first_row(benchmark, 10_000, "poly", rounds=20)


@pytest.mark.benchmark(group="first_row_poly_100000")
def test_first_row_poly_100000(benchmark):
    _first_row(benchmark, 100_000, "poly", rounds=3)


@pytest.mark.slow
@pytest.mark.benchmark(group="first_row_poly_1000000")
def test_first_row_poly_1000000(benchmark):
    _first_row(benchmark, 1_000_000, "poly", rounds=1)


@pytest.mark.parametrize("method", ["poly", "dense"])
def test_solve_random_2000(benchmark, method):
    """solve() on seeded random 2000 x 2000 boards (nullity 0 at n = 2000, so all solvable)."""
    benchmark.group = f"solve_random_2000_{method}"
    rng = np.random.default_rng(20261121)
    boards = iter([rng.random((2000, 2000)) < 0.5 for _ in range(4)])

    def next_board():
        return (next(boards),), {"method": method}

    solution = benchmark.pedantic(lightsout.solve, setup=next_board, rounds=3, iterations=1)
    assert solution.verify()
    benchmark.extra_info.update(method=method, cells_per_s=2000 * 2000 / benchmark.stats.stats.min)
