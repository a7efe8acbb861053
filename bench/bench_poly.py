"""Benchmarks of the polynomial route (pytest-benchmark): all-lit n x n first rows and nullity tables.

Run: pytest bench/bench_poly.py --benchmark-only [-m "not slow"]
"""
from __future__ import annotations

import pytest

from lightsout._polyroute import nullity_table, solve_grid_poly


def _first_row(benchmark, n: int, rounds: int) -> None:
    sol = benchmark.pedantic(solve_grid_poly, args=(n, n), rounds=rounds, iterations=1)
    assert sol.solvable
    seconds = benchmark.stats.stats.min
    benchmark.extra_info["cells_per_s"] = n * n / seconds
    benchmark.extra_info["nullity"] = sol.nullity


@pytest.mark.benchmark(group="poly_first_row_10000")
def test_poly_first_row_10000(benchmark):
    _first_row(benchmark, 10_000, rounds=10)


@pytest.mark.benchmark(group="poly_first_row_100000")
def test_poly_first_row_100000(benchmark):
    _first_row(benchmark, 100_000, rounds=2)


@pytest.mark.slow
@pytest.mark.benchmark(group="poly_first_row_1000000")
def test_poly_first_row_1000000(benchmark):
    _first_row(benchmark, 1_000_000, rounds=1)


@pytest.mark.benchmark(group="poly_nullity_table_1000")
def test_poly_nullity_table_1000(benchmark):
    table = benchmark.pedantic(nullity_table, args=(1000,), rounds=3, iterations=1)
    assert table.shape == (1000,)
    benchmark.extra_info["boards_per_s"] = 1000 / benchmark.stats.stats.min
