"""Benchmarks of the grid kernels alone: chasing and the A/B iteration, at the selected SIMD level.

Run: python -m pytest bench/bench_kernels.py --benchmark-only [-m "not slow"]
"""
from __future__ import annotations

import numpy as np
import pytest

from lightsout._dispatch import kernel_module
from lightsout._packing import words_for_bits


@pytest.mark.parametrize("n", [10_000])
def test_chase_all_lit_10000(benchmark, n):
    """Chase the all-lit 10,000 x 10,000 board from a zero first row (the residue only)."""
    benchmark.group = f"chase_all_lit_{n}"
    kernels = kernel_module("_kernels")
    first = np.zeros(words_for_bits(n), dtype=np.uint64)
    benchmark.pedantic(kernels.chase, args=(None, n, n, first), rounds=5, iterations=1)
    benchmark.extra_info["cells_per_s"] = n * n / benchmark.stats.stats.min


def test_chase_board_presses_10000(benchmark):
    """Chase a random 10,000 x 10,000 board keeping every press row (12.5 MB in, 12.5 MB out)."""
    benchmark.group = "chase_board_presses_10000"
    n = 10_000
    rng = np.random.default_rng(20261121)
    board = rng.integers(0, 2**63, size=(n, words_for_bits(n)), dtype=np.uint64)
    board[:, -1] &= np.uint64((1 << (n % 64)) - 1)
    first = np.zeros(words_for_bits(n), dtype=np.uint64)
    kernels = kernel_module("_kernels")
    benchmark.pedantic(kernels.chase, args=(board, n, n, first), kwargs={"presses": True},
                       rounds=3, iterations=1)
    benchmark.extra_info["cells_per_s"] = n * n / benchmark.stats.stats.min


def test_ab_reduce_2000(benchmark):
    """A/B iteration alone, all-lit 2000 x 2000, one thread."""
    benchmark.group = "ab_reduce_2000"
    n = 2000
    kernels = kernel_module("_kernels")

    def fresh():
        return (None, n, n, np.zeros((n, words_for_bits(n + 1)), dtype=np.uint64)), {}

    benchmark.pedantic(kernels.ab_reduce, setup=fresh, rounds=3, iterations=1)
    benchmark.extra_info["cells_per_s"] = n * n / benchmark.stats.stats.min
