"""Benchmarks of linear algebra over Z/N (lightsout._core.modring) and its kernel (lightsout._kernels.modelim).

Run:  python -m pytest bench/bench_modring.py --benchmark-only -m "not slow"
      python -m pytest bench/bench_modring.py --benchmark-only            (adds 2000 x 2000 mod 5)

Systems are seeded random square n x n matrices with a random right-hand side
(k-state boards reduce to such systems); the wide case is 20 rows of 10^6
columns, a kernel expanded over a whole board.  The rate in extra_info counts
the entries updated by plain Gauss-Jordan elimination, n^3 / 2, so sizes and
moduli are comparable; the wide case reports entries of the input per second.
The entry points are looked up in lightsout._core.modring when the benchmark runs.
"""
from __future__ import annotations

import numpy as np
import pytest

from private import private
from compiled import available_levels, load

modring = private("lightsout._core.modring", "lightsout._modring")


def random_system(n: int, modulus: int, seed: int = 20261121) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    return (rng.integers(0, modulus, (n, n), dtype=np.uint8), rng.integers(0, modulus, n, dtype=np.uint8))


def run_solve(gate, n: int, modulus: int) -> None:
    matrix, rhs = random_system(n, modulus)
    system = gate(modring.solve_mod, matrix, rhs, modulus)
    seconds = gate.benchmark.stats.stats.min
    gate.benchmark.extra_info.update(n=n, modulus=modulus, nullity=system.nullity, seconds_min=seconds,
                                     entries_per_s=n ** 3 / 2 / seconds)


def test_modring_solve_mod3_500(gate):
    run_solve(gate, 500, 3)


def test_modring_solve_mod6_500(gate):
    run_solve(gate, 500, 6)


def test_modring_solve_mod4_500(gate):
    run_solve(gate, 500, 4)


def test_modring_solve_mod3_1000(gate):
    run_solve(gate, 1000, 3)


def test_modring_solve_mod251_1000(gate):
    run_solve(gate, 1000, 251)


@pytest.mark.slow
def test_modring_solve_mod5_2000(gate):
    run_solve(gate, 2000, 5)


def test_modring_howell_mod6_20x1000000(gate):
    rows = np.random.default_rng(20261121).integers(0, 6, (20, 1_000_000), dtype=np.uint8)
    form = gate(modring.howell_form, rows, 6)
    seconds = gate.benchmark.stats.stats.min
    gate.benchmark.extra_info.update(rows=20, ncols=1_000_000, howell_rows=form.shape[0], seconds_min=seconds,
                                     entries_per_s=rows.size / seconds)


def test_modring_lexmin_mod6_20x1000000(gate):
    rng = np.random.default_rng(20261121)
    form = modring.howell_form(rng.integers(0, 6, (20, 1_000_000), dtype=np.uint8), 6)
    vector = rng.integers(0, 6, 1_000_000, dtype=np.uint8)
    gate(modring.reduce_lexmin, vector, form, 6)
    seconds = gate.benchmark.stats.stats.min
    gate.benchmark.extra_info.update(seconds_min=seconds, entries_per_s=form.size / seconds)


@pytest.mark.parametrize("level", available_levels())
def test_modelim_echelon_mod3_1000(gate, level):
    kernel = load("modelim", level)
    source, _ = random_system(1000, 3)

    def fresh_copy():
        return (source.copy(), 3), {}

    gate(kernel.echelon_inplace, setup=fresh_copy)
    seconds = gate.benchmark.stats.stats.min
    gate.benchmark.extra_info.update(level=level, seconds_min=seconds, entries_per_s=1000 ** 3 / 2 / seconds)
