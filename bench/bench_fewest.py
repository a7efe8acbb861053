"""Benchmarks of the fewest-presses engines: the coset search (lightsout._search.minweight) and distance tables
(lightsout._search.distance).

Run: python -m pytest bench/bench_fewest.py --benchmark-only
The public API (``solve(minimal=True)``, ``fewest_presses``, ``distance_distribution``)
calls these engines; the benchmarks look them up at run time through the private
modules, in this checkout's layout or the reference commit's (bench/private.py).  One
thread, as for the dense route: a two-thread figure on the shared 2-core machine
measures the neighbours.
"""
from __future__ import annotations

import inspect

import numpy as np
import pytest

import lightsout
from private import private

minweight = private("lightsout._search.minweight", "lightsout._fewest")
try:
    distance = private("lightsout._search.distance", "lightsout._fewest")
except ModuleNotFoundError:  # a reference commit whose minweight held the distance tables
    distance = minweight


def _all_lit_coset(n: int) -> tuple[np.ndarray, np.ndarray]:
    s = lightsout.solve(np.ones((n, n), bool))
    return s.presses.ravel().astype(np.uint8), s.quiet_patterns().reshape(s.nullity, n * n).astype(np.uint8)


def test_fewest_presses_64(gate):
    # all-lit 64 x 64: nullity 28, 2^28 solutions weighed (about 0.1 s on one core)
    particular, basis = _all_lit_coset(64)
    result = gate(minweight.coset_min_weight, particular, basis, threads=1)
    assert result.proven
    gate.benchmark.extra_info["solutions_per_s"] = 2.0**28 / gate.benchmark.stats.stats.min


def _square_symmetries(n: int) -> list[np.ndarray]:
    """The 8 symmetries of the n x n square, each as the image of every cell."""
    index = np.arange(n * n).reshape(n, n)
    turns = [np.rot90(index, k) for k in range(4)]
    return [np.ascontiguousarray(image).ravel() for turn in turns for image in (turn, turn.T)]


def test_fewest_presses_170(gate):
    # all-lit 170 x 170: nullity 36, 2^36 solutions; the square's symmetries let the search weigh one
    # task of each orbit (docs/algebra.md section 11), about 1.5 s on one core.  Three rounds: a
    # reference without the cut takes about 14 s a call.
    particular, basis = _all_lit_coset(170)
    options = {"threads": 1}
    if "symmetry" in inspect.signature(minweight.coset_min_weight).parameters:
        options["symmetry"] = _square_symmetries(170)
    result = gate(minweight.coset_min_weight, particular, basis, rounds=3, **options)
    assert result.proven
    gate.benchmark.extra_info["solutions_per_s"] = 2.0**36 / gate.benchmark.stats.stats.min


def test_fewest_presses_split_32(gate):
    # eight separate all-lit 4 x 4 boards: nullity 32 in eight independent parts of 4, so the branch
    # and bound (docs/algebra.md section 13) proves the minimum after weighing about one task; a
    # reference without it weighs all 2^32 solutions (about 0.4 s on one core)
    particular, basis = _all_lit_coset(4)
    copies = 8
    cells = particular.size
    whole = np.zeros((copies * len(basis), copies * cells), dtype=np.uint8)
    for k in range(copies):
        whole[k * len(basis):(k + 1) * len(basis), k * cells:(k + 1) * cells] = basis
    result = gate(minweight.coset_min_weight, np.tile(particular, copies), whole, threads=1)
    assert result.proven and result.weight == copies * 4
    gate.benchmark.extra_info["solutions_per_s"] = 2.0**32 / gate.benchmark.stats.stats.min


def test_fewest_distance_5x5(gate):
    # the 5 x 5 distance table: 2^25 press vectors
    s = lightsout.solve(np.ones((5, 5), bool))
    quiet = s.quiet_patterns().reshape(s.nullity, 25)
    table = gate(distance.distance_distribution_gf2, quiet, threads=1)
    assert int(table.sum()) == 2**23
    gate.benchmark.extra_info["vectors_per_s"] = 2.0**25 / gate.benchmark.stats.stats.min


def _k_state_minimal(gate, shape: tuple[int, int], states: int, torus: bool) -> None:
    """``Solution.minimal`` of the all-lit board with ``states`` states, one thread; solved outside the clock."""
    solution = lightsout.solve(np.ones(shape, np.uint8), states=states, torus=torus)
    result = gate(solution.minimal, threads=1)
    assert result.proven_minimal
    gate.benchmark.extra_info["solutions_per_s"] = solution.count / gate.benchmark.stats.stats.min


def test_fewest_k_states_8x5_255(gate):
    # the all-lit 8 x 5 board with 255 states: 6,885 solutions of 40 cells, walked in a Gray code
    # (lightsout/_search/modsearch.py; a reference that wrote the coset out refused it)
    _k_state_minimal(gate, (8, 5), 255, False)


def test_fewest_k_states_torus_5x5_5(gate):
    # the all-lit 5 x 5 torus with 5 states: 1,953,125 solutions of 25 cells
    _k_state_minimal(gate, (5, 5), 5, True)


def test_fewest_k_states_walk_3pow12_1000(gate):
    # the walk's kernel alone: 3^12 elements of 1000 cells (imported here: a reference without it skips)
    try:
        from lightsout._kernels import load
        walk = load("modwalk").walk
    except (ImportError, ValueError):
        pytest.skip("no k-state walk in this build")
    rng = np.random.default_rng(12)
    start = rng.integers(0, 3, 1000).astype(np.uint8)
    gens = rng.integers(0, 3, (12, 1000)).astype(np.uint8)
    done, _, _, steps = gate(walk, start, gens, np.full(12, 3, np.int64), 3)
    assert done and steps == 3**12 - 1
    gate.benchmark.extra_info["cells_per_s"] = 3**12 * 1000 / gate.benchmark.stats.stats.min
