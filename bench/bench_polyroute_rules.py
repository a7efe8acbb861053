"""Benchmarks of the sigma game's and wrapped boards' polynomial route (docs/algebra.md section 7).

Run: python -m pytest bench/bench_polyroute_rules.py --benchmark-only -p no:cacheprovider
The gate fixture (bench/conftest.py) records the figures bench/gate.py compares; rates in
extra_info are board cells per second.  A reference build without the route (older than
lightsout/_routes/polytorus.py) skips these: it would take the N-D route, hours at these sizes.
"""
from __future__ import annotations

import importlib.util

import pytest

import lightsout


def _route_present() -> None:
    """Skip on a build that has no sigma/torus polynomial route (the gate's older reference)."""
    if importlib.util.find_spec("lightsout._routes.polytorus") is None:
        pytest.skip("this build takes the sigma game and the torus to the N-D route")


def _timed(gate, fn, n: int, m: int, **rules) -> object:
    _route_present()
    result = gate(fn, n, m, **rules)
    gate.benchmark.extra_info.update(n=n, m=m, rules=repr(rules), cells_per_s=n * m / gate.benchmark.stats.stats.min)
    return result


def test_sigma_nullity_1000000(gate):
    assert _timed(gate, lightsout.nullity, 1_000_000, 1_000_000, self_toggle=False) == 1_000_000


def test_sigma_first_row_1000000(gate):
    row = _timed(gate, lightsout.first_row, 1_000_000, 1_000_000, self_toggle=False)
    assert row.shape == (1_000_000,)


def test_sigma_first_row_rect_1000000x999999(gate):
    """gcd(R + 1, C + 1) = 1: the extended gcd runs at full degree."""
    row = _timed(gate, lightsout.first_row, 1_000_000, 999_999, self_toggle=False)
    assert row.shape == (999_999,)


def test_torus_nullity_1000000(gate):
    assert _timed(gate, lightsout.nullity, 1_000_000, 1_000_000, torus=True) >= 0


def test_torus_nullity_rect_1000000x999999(gate):
    assert _timed(gate, lightsout.nullity, 1_000_000, 999_999, torus=True) >= 0


def test_cylinder_nullity_1000000(gate):
    """Rows wrap, columns open: the slice ring is GF(2)[t]/(chi)."""
    assert _timed(gate, lightsout.nullity, 1_000_000, 1_000_000, torus=(True, False)) >= 0


def test_torus_nullity_10000(gate):
    assert _timed(gate, lightsout.nullity, 10_000, 10_000, torus=True) >= 0
