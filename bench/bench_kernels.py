"""Benchmarks of the grid kernels alone: chasing and the A/B iteration, at the selected SIMD level.

Run: python -m pytest bench/bench_kernels.py --benchmark-only [-m "not slow"]
"""
from __future__ import annotations

import numpy as np

from compiled import load
from private import private

words_for_bits = private("lightsout._base.packing", "lightsout._packing").words_for_bits


def test_chase_all_lit_10000(gate):
    """Chase the all-lit 10,000 x 10,000 board from a zero first row (the residue only)."""
    n = 10_000
    first = np.zeros(words_for_bits(n), dtype=np.uint64)
    gate(load("chase").chase, None, n, n, first)
    gate.benchmark.extra_info["cells_per_s"] = n * n / gate.benchmark.stats.stats.min


def test_chase_board_presses_2000(gate):
    """Chase a random 2000 x 2000 board keeping every press row (0.5 MB in, 0.5 MB out: in L2)."""
    n = 2000
    rng = np.random.default_rng(20261121)
    board = rng.integers(0, 2**63, size=(n, words_for_bits(n)), dtype=np.uint64)
    board[:, -1] &= np.uint64((1 << (n % 64)) - 1)
    first = np.zeros(words_for_bits(n), dtype=np.uint64)
    gate(load("chase").chase, board, n, n, first, presses=True)
    gate.benchmark.extra_info["cells_per_s"] = n * n / gate.benchmark.stats.stats.min


def test_ab_reduce_2000(gate):
    """A/B iteration alone, all-lit 2000 x 2000, one thread."""
    n = 2000

    def fresh():
        return (None, n, n, np.zeros((n, words_for_bits(n + 1)), dtype=np.uint64)), {}

    gate(load("chase").ab_reduce, setup=fresh)
    gate.benchmark.extra_info["cells_per_s"] = n * n / gate.benchmark.stats.stats.min
