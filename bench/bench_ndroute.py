"""Benchmarks of the N-D grid route (lightsout._routes.nd): the issue-7 speed targets.

Run: python -m pytest bench/bench_ndroute.py --benchmark-only

Targets (2-core machine): 100^3 cube under 1 s, 3^10 hypercube under 2 s,
2000 x 2000 torus under 1 s, 500 x 500 with k = 3 and k = 6 under 1 s, a 1-D
line of 10^6 cells in milliseconds; stretch: the 10,000 x 10,000 torus
(``canonical_nd``, marked slow).  The route is looked up on its module when
each benchmark runs (so the gate times whatever the name is bound to), with
``threads=1`` as for the dense route: a two-thread figure on a shared 2-core
machine measures the neighbours.
"""
from __future__ import annotations

import numpy as np
import pytest

from private import private

_ndroute = private("lightsout._routes.nd", "lightsout._ndroute")


def _route(gate, name: str, shape: tuple[int, ...], *args, torus: bool = False, states: int = 2, **options) -> None:
    """Time ``_ndroute.<name>`` on a board of ``shape``, its rules passed as the package takes them.

    The package passes a checked :class:`lightsout._core.rules.Rules` to the route (built here, outside
    the timed call); the reference commit of the gate (bench/reference) took the shape and the
    rules as loose arguments.
    """
    route = getattr(_ndroute, name)
    try:
        from lightsout._core.rules import Rules
    except ImportError:  # the reference commit
        head = () if name == "chase_nd" else (shape,)
        gate(route, *head, *args, torus=torus, states=states, **options)
        return
    gate(route, Rules.check(shape, torus=torus, states=states), *args, **options)


def _cells_per_s(gate, cells: int) -> None:
    gate.benchmark.extra_info["cells_per_s"] = cells / gate.benchmark.stats.stats.min


def test_nd_solve_cube_100(gate):
    """All-lit 100 x 100 x 100 cube, k = 2 (10,000 unknowns)."""
    _route(gate, "solve_nd", (100, 100, 100), None, threads=1)
    _cells_per_s(gate, 100**3)


def test_nd_solve_hypercube_3x10(gate):
    """All-lit 3^10 hypercube, k = 2 (19,683 unknowns)."""
    _route(gate, "solve_nd", (3,) * 10, None, threads=1)
    _cells_per_s(gate, 3**10)


def test_nd_solve_torus_2000(gate):
    """All-lit 2000 x 2000 torus, k = 2 (4,000 unknowns, nullity 128: the kernel is 512 MB of presses)."""
    _route(gate, "solve_nd", (2000, 2000), None, torus=True, threads=1)
    _cells_per_s(gate, 2000**2)


def test_nd_solve_k3_500(gate):
    """Random 500 x 500 board with k = 3."""
    board = np.random.default_rng(20261121).integers(0, 3, size=(500, 500), dtype=np.uint8)
    _route(gate, "solve_nd", (500, 500), board, states=3, threads=1)
    _cells_per_s(gate, 500**2)


def test_nd_solve_k6_500(gate):
    """Random 500 x 500 board with k = 6."""
    board = np.random.default_rng(20261121).integers(0, 6, size=(500, 500), dtype=np.uint8)
    _route(gate, "solve_nd", (500, 500), board, states=6, threads=1)
    _cells_per_s(gate, 500**2)


def test_nd_chase_line_1000000(gate):
    """Chase an all-lit 1-D line of 10^6 cells from its first cell."""
    board = np.ones(10**6, dtype=np.uint8)
    _route(gate, "chase_nd", board.shape, board, 1)
    _cells_per_s(gate, 10**6)


def test_nd_solve_line_1000000(gate):
    """Solve an all-lit 1-D ring of 10^6 cells (2 unknowns)."""
    _route(gate, "solve_nd", (10**6,), None, torus=True, threads=1)
    _cells_per_s(gate, 10**6)


def test_nd_canonical_torus_2000(gate):
    """Canonical solution of the all-lit 2000 x 2000 torus, the quiet patterns left unexpanded."""
    _route(gate, "canonical_nd", (2000, 2000), None, torus=True, threads=1)
    _cells_per_s(gate, 2000**2)


@pytest.mark.slow
def test_nd_canonical_torus_10000(gate):
    """The stretch goal: canonical solution of the all-lit 10,000 x 10,000 torus (nullity 128)."""
    _route(gate, "canonical_nd", (10_000, 10_000), None, torus=True, threads=1, rounds=3)
    _cells_per_s(gate, 10_000**2)
