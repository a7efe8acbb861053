"""Benchmarks of ``lightsout.first_row``, the main job, by both routes (all-lit boards).

Run: python -m pytest bench/bench_first_row.py --benchmark-only [-m "not slow"]
The gate fixture (bench/conftest.py) records the figures bench/gate.py compares;
rates in extra_info are board cells per second.
The dense route runs with threads=1 (see bench/conftest.py).
"""
from __future__ import annotations

import pytest

import lightsout


def _first_row(gate, n: int, m: int, method: str) -> None:
    threads = {"threads": 1} if method == "dense" else {}
    row = gate(lightsout.first_row, n, m, method=method, **threads)
    assert row.shape == (m,)
    gate.benchmark.extra_info.update(method=method, n=n, m=m,
                                     cells_per_s=n * m / gate.benchmark.stats.stats.min)


def test_first_row_poly_10000(gate):
    _first_row(gate, 10_000, 10_000, "poly")


def test_first_row_poly_100000(gate):
    _first_row(gate, 100_000, 100_000, "poly")


def test_first_row_poly_rect_20000x3000(gate):
    """A tall rectangle: the route transposes nothing, R >> C."""
    _first_row(gate, 20_000, 3_000, "poly")


def test_first_row_dense_1000(gate):
    _first_row(gate, 1000, 1000, "dense")


def test_first_row_dense_3000(gate):
    _first_row(gate, 3000, 3000, "dense")


@pytest.mark.slow
def test_first_row_dense_10000(gate):
    _first_row(gate, 10_000, 10_000, "dense")


def test_first_row_poly_1000000(gate):
    _first_row(gate, 1_000_000, 1_000_000, "poly")


@pytest.mark.slow
def test_first_row_poly_1000001(gate):
    """Odd side: the extended gcd runs at full degree."""
    _first_row(gate, 1_000_001, 1_000_001, "poly")


@pytest.mark.slow
def test_first_row_poly_10000000(gate):
    _first_row(gate, 10_000_000, 10_000_000, "poly")
