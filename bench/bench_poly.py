"""Benchmarks of the polynomial route's nullity tables (first rows: bench_first_row.py).

Run: pytest bench/bench_poly.py --benchmark-only [-m "not slow"]
"""
from __future__ import annotations

import pytest

from lightsout._polyroute import nullity_table


@pytest.mark.benchmark(group="poly_nullity_table_1000")
def test_poly_nullity_table_1000(benchmark):
    table = benchmark.pedantic(nullity_table, args=(1000,), rounds=3, iterations=1)
    assert table.shape == (1000,)
    benchmark.extra_info["boards_per_s"] = 1000 / benchmark.stats.stats.min
