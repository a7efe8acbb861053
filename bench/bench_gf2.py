"""Benchmarks of ``lightsout.gf2``: rank (bool and integer input), rref, solve, null_space.

Run: python -m pytest bench/bench_gf2.py --benchmark-only
Matrices are seeded random 0/1; ``rank`` on uint8 must stay within 1.5x of bool.
"""
from __future__ import annotations

import numpy as np
import pytest

import lightsout


def _matrix(nrows: int, ncols: int, dtype: type = bool) -> np.ndarray:
    return (np.random.default_rng(20261121).random((nrows, ncols)) < 0.5).astype(dtype)


@pytest.mark.parametrize("dtype", [bool, np.uint8, np.int64], ids=["bool", "uint8", "int64"])
def test_gf2_rank_2000(gate, dtype):
    gate(lightsout.gf2.rank, _matrix(2000, 2001, dtype))


def test_gf2_rref_1000(gate):
    gate(lightsout.gf2.rref, _matrix(1000, 1001))


def test_gf2_solve_1500(gate):
    a = _matrix(1500, 1500)
    gate(lightsout.gf2.solve, a, a @ np.ones(1500, dtype=np.int64) % 2 == 1)


def test_gf2_null_space_1000(gate):
    gate(lightsout.gf2.null_space, _matrix(1000, 1100))
