"""Benchmarks of ``solve_graph``: Lights Out on graphs (conversion from the input form + the route).

Run: python -m pytest bench/bench_graph.py --benchmark-only -p no:cacheprovider

Targets (issue 7, this 2-core machine): the 1000 x 1000 grid given as a
networkx graph (``nx.grid_2d_graph(1000, 1000)``, all lit) under 5 s beyond
the time networkx takes to build it, so the graph is built once, outside the
timing; a random graph of 20,000 vertices and average degree 6
(``nx.gnm_random_graph(20000, 60000, seed=...)``, all lit) under 3 s.  The
timed call is the whole public function: conversion, the forcing route, the
canonical solution and its replay.  Smaller graphs keep their working set in
L2, where the gate's figures are steadiest (bench/GATE.md).
"""
from __future__ import annotations

from typing import Any, Callable

import numpy as np
import pytest

import lightsout
import lightsout.graph

nx = pytest.importorskip("networkx")


def solve_graph() -> Callable[..., Any]:
    """The public entry point, looked up when the benchmark runs (the gate times whatever it is bound to)."""
    return getattr(lightsout, "solve_graph", None) or lightsout.graph.solve_graph


@pytest.fixture(scope="module")
def grid_1000() -> Any:
    return nx.grid_2d_graph(1000, 1000)


@pytest.fixture(scope="module")
def gnm_20000() -> Any:
    return nx.gnm_random_graph(20_000, 60_000, seed=20261122)


def test_graph_solve_grid_1000(gate, grid_1000):
    """networkx 1000 x 1000 grid, all lit: target < 5 s (about 1.5 s here)."""
    s = gate(lambda g: solve_graph()(g), grid_1000, rounds=5)
    assert s.verify() and s.method == "forcing"
    gate.benchmark.extra_info["vertices_per_s"] = 10**6 / gate.benchmark.stats.stats.min


def test_graph_solve_gnm_20000(gate, gnm_20000):
    """networkx G(n = 20,000, m = 60,000), all lit: target < 3 s (well under 0.1 s here)."""
    s = gate(lambda g: solve_graph()(g), gnm_20000)
    assert s.verify()
    gate.benchmark.extra_info["vertices_per_s"] = 20_000 / gate.benchmark.stats.stats.min


def test_graph_solve_grid_edges_200(gate):
    """The 200 x 200 grid as an (m, 2) edge array with random lights: conversion without networkx."""
    idx = np.arange(200 * 200).reshape(200, 200)
    edges = np.concatenate([np.stack([idx[:-1].ravel(), idx[1:].ravel()], 1),
                            np.stack([idx[:, :-1].ravel(), idx[:, 1:].ravel()], 1)])
    lit = np.random.default_rng(5).integers(0, 2, 200 * 200)
    s = gate(lambda e, b: solve_graph()(e, b), edges, lit)
    assert s.verify()


def test_graph_solve_gnm_sigma_5000(gate):
    """A random graph under the sigma rule (self_toggle=False), all lit, from a scipy.sparse matrix."""
    sparse = pytest.importorskip("scipy.sparse")
    g = nx.gnm_random_graph(5000, 15_000, seed=7)
    matrix = sparse.csr_array(nx.to_scipy_sparse_array(g, format="csr"))
    presses = np.random.default_rng(8).integers(0, 2, 5000)
    lit = (matrix @ presses) % 2  # what those presses do under the sigma rule: a solvable board
    s = gate(lambda m, b: solve_graph()(m, b, self_toggle=False), matrix, lit)
    assert s.verify() and s.nullity > 0


@pytest.mark.parametrize("method", ["forcing", "elimination"])
def test_graph_solve_gnm_3000(gate, method):
    """Both methods on a graph where both are cheap: G(3000, 9000)."""
    g = nx.gnm_random_graph(3000, 9000, seed=11)
    s = gate(lambda graph: solve_graph()(graph, method=method), g)
    assert s.method == method
