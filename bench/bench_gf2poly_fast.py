"""Benchmarks of the subquadratic GF(2)[t] kernels: half-gcd gcd / cofactor, Newton division.

Run: python -m pytest bench/bench_gf2poly_fast.py --benchmark-only [-m "not slow"]
Operands are seeded random polynomials of exactly the named degree (divmod: a
dividend of twice the degree).  The ``[slow]`` variants time the quadratic
paths that the fast ones replace (Lehmer's gcd, schoolbook division, Karatsuba
alone; switched on with ``set_thresholds``), so one run shows before and after.  Each benchmark records its rate
(coefficients of the larger operand per second) in ``extra_info``.  NTL's
figures for the same operations: bench/baselines/run_ntl.sh.
"""
from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest

from compiled import load
from types import ModuleType as Gf2PolyModule  # the gf2poly build in use

SLOW = pytest.mark.slow


def _poly(nbits: int, seed: int) -> np.ndarray:
    """A random polynomial of degree exactly nbits - 1."""
    words = np.random.default_rng(seed).integers(0, 2**64, size=(nbits + 63) // 64, dtype=np.uint64)
    if nbits % 64:
        words[-1] &= np.uint64((1 << (nbits % 64)) - 1)
    words[-1] |= np.uint64(1 << ((nbits - 1) % 64))
    return words


@pytest.fixture
def poly() -> Iterator[Gf2PolyModule]:
    module = load("gf2poly")
    old = module.thresholds()
    yield module
    module.set_thresholds(**old)


SLOW_PATHS = {"gcd_words": 10**12, "newton_words": 10**12, "toom_words": 10**12}
#: fast = half-gcd / Newton / Toom-3 (the defaults); slow = Lehmer / schoolbook / Karatsuba (the "before" figures).
METHODS = ["fast", "slow"]
METHODS_1M = ["fast", pytest.param("slow", marks=SLOW)]


def _bench(gate: Any, poly: Gf2PolyModule, op: str, nbits: int, method: str = "fast", **kw: Any) -> None:
    if method == "slow":
        poly.set_thresholds(**SLOW_PATHS)
    fn = {"gcd": poly.poly_gcd, "xgcd": poly.poly_gcd_cofactor, "divmod": poly.poly_divmod,
          "mul": poly.poly_mul}[op]
    factor = 2 if op == "divmod" else 1
    gate(fn, _poly(factor * nbits, 1), _poly(nbits, 2), **kw)
    stats = gate.benchmark.stats
    if stats is not None:
        gate.benchmark.extra_info["coefficients_per_s"] = factor * nbits / stats.stats.min


@pytest.mark.parametrize("method", METHODS)
def test_gf2poly_gcd_100000(gate: Any, poly: Gf2PolyModule, method: str) -> None:
    _bench(gate, poly, "gcd", 100_000, method)


@pytest.mark.parametrize("method", METHODS)
def test_gf2poly_xgcd_100000(gate: Any, poly: Gf2PolyModule, method: str) -> None:
    _bench(gate, poly, "xgcd", 100_000, method)


@pytest.mark.parametrize("method", METHODS)
def test_gf2poly_divmod_100000(gate: Any, poly: Gf2PolyModule, method: str) -> None:
    _bench(gate, poly, "divmod", 100_000, method)


@pytest.mark.parametrize("method", METHODS_1M)
def test_gf2poly_gcd_1000000(gate: Any, poly: Gf2PolyModule, method: str) -> None:
    _bench(gate, poly, "gcd", 1_000_000, method)


@pytest.mark.parametrize("method", METHODS_1M)
def test_gf2poly_xgcd_1000000(gate: Any, poly: Gf2PolyModule, method: str) -> None:
    _bench(gate, poly, "xgcd", 1_000_000, method)


@pytest.mark.parametrize("method", METHODS_1M)
def test_gf2poly_divmod_1000000(gate: Any, poly: Gf2PolyModule, method: str) -> None:
    _bench(gate, poly, "divmod", 1_000_000, method)


def test_gf2poly_mul_1000000(gate: Any, poly: Gf2PolyModule) -> None:
    _bench(gate, poly, "mul", 1_000_000)


@SLOW
@pytest.mark.parametrize("op", ["gcd", "xgcd", "divmod", "mul"])
def test_gf2poly_fast_10000000(gate: Any, poly: Gf2PolyModule, op: str) -> None:
    """Degree 10^7 (two rounds each; NTL: gcd 17.7 s, xgcd 24.6 s on the development machine)."""
    _bench(gate, poly, op, 10_000_000, rounds=2)
