"""Benchmarks of the packed GF(2) elimination kernel at every SIMD level.

Run:  python -m pytest bench/bench_gf2elim.py --benchmark-only -m "not slow"
      python -m pytest bench/bench_gf2elim.py --benchmark-only            (adds 10,000)

Each round eliminates a fresh copy of a seeded random n x (n+1) system (an
augmented [A | b]); the copy is made in the untimed setup.  The rate reported in
extra_info counts the word-level work of plain Gauss-Jordan elimination,
n^2 (n+1) / 2 bit operations, so it is comparable across sizes and with other
libraries (M4RI: bench/baselines/run_m4ri.sh).
"""
from __future__ import annotations

import numpy as np
import pytest

from compiled import available_levels, load
from private import private

words_for_bits = private("lightsout._base.packing", "lightsout._packing").words_for_bits


def random_system(n: int, seed: int = 20261121) -> np.ndarray:
    """Packed random n x (n+1) matrix, bits past column n zero."""
    ncols = n + 1
    nwords = words_for_bits(ncols)
    rng = np.random.default_rng(seed)
    words = rng.integers(0, np.iinfo(np.uint64).max, size=(n, nwords), dtype=np.uint64, endpoint=True)
    if ncols % 64:
        words[:, -1] &= np.uint64((1 << (ncols % 64)) - 1)
    return words


def run_rref(gate, level: str, n: int) -> None:
    kernel = load("gf2elim", level)
    source = random_system(n)

    def fresh_copy():
        return (source.copy(), n + 1), {}

    rank, _ = gate(kernel.rref_inplace, setup=fresh_copy)
    benchmark = gate.benchmark
    seconds = benchmark.stats.stats.min
    bit_ops = n * n * (n + 1) / 2
    benchmark.extra_info.update(
        level=level, n=n, rank=rank, seconds_min=seconds, bit_ops_per_s=bit_ops / seconds
    )


@pytest.mark.parametrize("level", available_levels())
def test_gf2elim_rref_4096(gate, level):
    run_rref(gate, level, 4096)


@pytest.mark.slow
@pytest.mark.parametrize("level", available_levels())
def test_gf2elim_rref_10000(gate, level):
    run_rref(gate, level, 10_000)
