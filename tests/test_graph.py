"""Lights Out on graphs: lightsout.graph (inputs, solve_graph) and lightsout._routes.forcing (the route).

Every answer is checked against tests/oracle.py (plain loops that share no
code with the package): exhaustive search over every press vector on every
graph of at most 5 vertices and on random graphs of 6 and 7 vertices, ranks
mod p, replaying presses; the forcing and elimination methods are held to the
same answers, every input form to the same solution, and grids written as
graphs to the grid solver.
"""
from __future__ import annotations

import itertools
import os
import signal
import threading
import time

import numpy as np
import pytest

import lightsout
import oracle
from lightsout import BoardTooLargeError, InvalidBoardError, InvalidTypeError, UnsolvableError
from lightsout._kernels import load
from lightsout._routes import forcing as _forcing
from lightsout._routes.forcing import forcing_plan, solve_graph_linear
from lightsout.graph import graph_csr, solve_graph

nx = pytest.importorskip("networkx")
sparse = pytest.importorskip("scipy.sparse")

STATES = [2, 3, 4, 6]
thorough = pytest.mark.thorough


# ---------------------------------------------------------------------------
# Oracle helpers (plain loops, no lightsout).

def primes_of(k: int) -> list[int]:
    return [p for p in range(2, k + 1) if k % p == 0 and all(p % q for q in range(2, p))]


def nullity_oracle(sets, k: int) -> int:
    """Fewest generators of the quiet patterns mod k: the largest nullity mod a prime p | k."""
    a = oracle.effect_matrix(sets)
    return max(len(sets) - oracle.rank_mod_prime(a, p) for p in primes_of(k))


def span_size(rows, n: int, k: int) -> int:
    """Number of distinct combinations of ``rows`` mod k (every coefficient vector tried)."""
    rows = [list(map(int, r)) for r in rows]
    seen = set()
    for coeffs in itertools.product(range(k), repeat=len(rows)):
        seen.add(tuple(sum(c * r[i] for c, r in zip(coeffs, rows)) % k for i in range(n)))
    return len(seen)


def csr_of(n: int, edges) -> tuple[np.ndarray, np.ndarray]:
    """CSR neighbour lists by plain loops (sorted rows)."""
    nbrs: list[set[int]] = [set() for _ in range(n)]
    for a, b in edges:
        nbrs[a].add(b)
        nbrs[b].add(a)
    indptr = np.zeros(n + 1, dtype=np.int64)
    indptr[1:] = np.cumsum([len(s) for s in nbrs])
    indices = np.array([u for s in nbrs for u in sorted(s)], dtype=np.int32)
    return indptr, indices


def all_graphs(n: int):
    pairs = list(itertools.combinations(range(n), 2))
    for mask in range(1 << len(pairs)):
        yield [p for i, p in enumerate(pairs) if mask >> i & 1]


def random_graph(rng, n: int):
    density = rng.random()
    return [p for p in itertools.combinations(range(n), 2) if rng.random() < density]


def check_result(result, sets, lit, k: int, solutions, quiet: int) -> None:
    """A Coset against exhaustive search: solvability, count, nullity, replay, quiet rows, span."""
    n = len(sets)
    assert result.solvable == bool(len(solutions))
    assert result.count == quiet
    assert result.nullity == nullity_oracle(sets, k)
    # two states keep the basis packed, one bit a vertex; other k one byte a vertex
    assert result.packed == (k == 2)
    kernel = result.kernel_rows(n)
    assert kernel.shape == (kernel.shape[0], n) and kernel.dtype == np.uint8
    if result.packed:
        assert result.kernel.dtype == np.uint64 and result.kernel.shape == (len(kernel), (n + 63) // 64)
        assert np.array_equal(np.packbits(kernel, axis=1, bitorder="little"),
                              result.kernel.view(np.uint8)[:, : (n + 7) // 8])
    if result.solvable:
        assert result.particular.shape == (n,) and result.particular.dtype == np.uint8
        assert int(result.particular.max(initial=0)) < k
        assert not oracle.replay_sets(sets, lit, result.particular, k).any()
    else:
        assert result.particular is None
    for row in kernel:
        assert not oracle.replay_sets(sets, np.zeros(n, np.int64), row, k).any()
    if k ** len(kernel) <= 5000:
        assert span_size(kernel, n, k) == quiet


def check_graph(n: int, edges, self_toggle: bool, k: int, lit, form=None) -> None:
    """Every method of the route and the public solve_graph (given ``form``, else the edge list) on one graph."""
    sets = oracle.graph_neighbour_sets(n, edges, self_toggle)
    solutions, quiet = oracle.exhaustive(sets, lit, k)
    indptr, indices = csr_of(n, edges)
    for method in ("forcing", "elimination", "auto"):
        result = solve_graph_linear(n, indptr, indices, np.asarray(lit, np.uint8), self_toggle=self_toggle,
                                    states=k, method=method)
        check_result(result, sets, lit, k, solutions, quiet)
    # the public function: canonical solution (lexicographically smallest), or the proof
    graph, keywords = (form, {}) if form is not None else ([tuple(e) for e in edges], {"nvertices": n})
    if len(solutions):
        s = solve_graph(graph, lit, self_toggle=self_toggle, states=k, **keywords)  # type: ignore[arg-type]
        assert s.presses.astype(np.int64).tolist() == solutions[0].tolist()
        assert s.count == quiet and s.nullity == nullity_oracle(sets, k) and s.verify()
    else:
        with pytest.raises(UnsolvableError) as info:
            solve_graph(graph, lit, self_toggle=self_toggle, states=k, **keywords)  # type: ignore[arg-type]
        proof = np.asarray(info.value.quiet_pattern, dtype=np.int64).ravel()
        assert not oracle.replay_sets(sets, np.zeros(n, np.int64), proof, k).any()
        assert int(proof @ np.asarray(lit, np.int64)) % k != 0


# ---------------------------------------------------------------------------
# Exhaustive agreement.

@pytest.mark.parametrize("states", STATES)
@pytest.mark.parametrize("self_toggle", [True, False])
@pytest.mark.parametrize("n", [1, 2, 3, 4, pytest.param(5, marks=thorough)])
def test_every_small_graph_agrees_with_exhaustive_search(n, self_toggle, states):
    rng = np.random.default_rng(1000 * n + 10 * states + self_toggle)
    for i, edges in enumerate(all_graphs(n)):
        # k = 2, 3: all lit and random lights on every graph; k = 4, 6 (k**5 press vectors): one of the two
        if states <= 3 or i % 2 == 0:
            check_graph(n, edges, self_toggle, states, np.ones(n, np.int64))
        if states <= 3 or i % 2 == 1:
            check_graph(n, edges, self_toggle, states, rng.integers(0, states, n))


@pytest.mark.parametrize("states", STATES)
@pytest.mark.parametrize("self_toggle", [True, False])
@pytest.mark.parametrize("n", [6, pytest.param(7, marks=thorough)])
def test_random_graphs_on_6_and_7_vertices_agree_with_exhaustive_search(n, self_toggle, states):
    rng = np.random.default_rng(7000 * n + 10 * states + self_toggle)
    count = {2: 250, 3: 60, 4: 40, 6: 12}[states] if n == 7 else {2: 400, 3: 120, 4: 80, 6: 30}[states]
    for _ in range(count):
        edges = random_graph(rng, n)
        lit = np.ones(n, np.int64) if rng.random() < 0.3 else rng.integers(0, states, n)
        check_graph(n, edges, self_toggle, states, lit)


# the quick suite walks the atlas with two states and the plus rule; the thorough one with every k and both rules
ATLAS_STATES = [2] + [pytest.param(k, marks=thorough) for k in (3, 4, 5, 6)]


@pytest.mark.parametrize("states", ATLAS_STATES)
@pytest.mark.parametrize("self_toggle", [True, pytest.param(False, marks=thorough)])
def test_every_graph_up_to_7_vertices_up_to_isomorphism(self_toggle, states):
    """networkx's atlas holds every graph on 1..7 vertices up to isomorphism (1252 of them): each
    one, as a networkx graph, all lit and with random lights, against exhaustive search.  For
    k >= 4 the graphs on 6 and 7 vertices are sampled (k**n press vectors each)."""
    rng = np.random.default_rng(1253 + 10 * states + self_toggle)
    keep = {2: 1.0, 3: 1.0, 4: 0.2, 5: 0.06, 6: 0.02}[states]
    for g in nx.graph_atlas_g()[1:]:
        n = g.number_of_nodes()
        if n >= 6 and rng.random() > keep:
            continue
        edges = [tuple(e) for e in g.edges]
        for lit in (np.ones(n, np.int64), rng.integers(0, states, n)):
            check_graph(n, edges, self_toggle, states, lit, form=g)


@thorough
def test_every_graph_on_6_vertices_k2():
    """All 2**15 labelled graphs on 6 vertices (the plus and sigma rules in turn), two states,
    random lights: the route against ranks and replay."""
    rng = np.random.default_rng(66)
    for i, edges in enumerate(all_graphs(6)):
        self_toggle = i % 2 == 0
        sets = oracle.graph_neighbour_sets(6, edges, self_toggle)
        lit = rng.integers(0, 2, 6)
        indptr, indices = csr_of(6, edges)
        result = solve_graph_linear(6, indptr, indices, lit.astype(np.uint8), self_toggle=self_toggle, states=2)
        a = oracle.effect_matrix(sets)
        rank = oracle.rank_mod_prime(a, 2)
        assert result.nullity == 6 - rank and result.count == 1 << (6 - rank)
        solvable = oracle.rank_mod_prime(np.column_stack([a, lit]), 2) == rank
        assert result.solvable == solvable
        if solvable:
            assert not oracle.replay_sets(sets, lit, result.particular, 2).any()
        kernel = result.kernel_rows(6)
        for row in kernel:
            assert not oracle.replay_sets(sets, np.zeros(6, np.int64), row, 2).any()
        assert oracle.rank_mod_prime(kernel, 2) == len(kernel)


# ---------------------------------------------------------------------------
# Larger graphs: methods agree, answers replay.

def random_csr(rng, n: int, m: int):
    g = nx.gnm_random_graph(n, m, seed=int(rng.integers(1 << 30)))
    return graph_csr(g)


@pytest.mark.parametrize("states", STATES)
@pytest.mark.parametrize("self_toggle", [True, False])
def test_forcing_and_elimination_agree_on_larger_graphs(self_toggle, states):
    rng = np.random.default_rng(4242 + states + self_toggle)
    for n, m in [(50, 60), (200, 300), (300, 900), (150, 3000), (400, 400), (129, 129 * 3)]:
        g = random_csr(rng, n, m)
        lit = rng.integers(0, states, n).astype(np.uint8)
        sets = oracle.graph_neighbour_sets(n, _edges_of(g), self_toggle)
        answers = {}
        for method in ("forcing", "elimination"):
            r = solve_graph_linear(n, g.indptr, g.indices, lit, self_toggle=self_toggle, states=states, method=method)
            answers[method] = r
            if r.solvable:
                assert not oracle.replay_sets(sets, lit, r.particular, states).any()
            for row in r.kernel_rows(n)[:5]:
                assert not oracle.replay_sets(sets, np.zeros(n, np.int64), row, states).any()
        f, e = answers["forcing"], answers["elimination"]
        assert (f.solvable, f.count, f.nullity) == (e.solvable, e.count, e.nullity)
        if states == 2:
            assert f.nullity == n - oracle.rank_mod_prime(oracle.effect_matrix(sets), 2)
        if f.solvable:
            from lightsout._core.canonical import lexmin_solution

            cf, _ = lexmin_solution(f.particular, f.kernel, states)
            ce, _ = lexmin_solution(e.particular, e.kernel, states)
            assert cf.tolist() == ce.tolist()


def _edges_of(g):
    rows = np.repeat(np.arange(g.n), np.diff(g.indptr))
    keep = rows < g.indices
    return list(zip(rows[keep].tolist(), g.indices[keep].tolist()))


def test_auto_eliminates_when_the_forcing_set_is_large():
    dense = graph_csr(nx.complete_graph(40))
    r = solve_graph_linear(40, dense.indptr, dense.indices, np.ones(40, np.uint8), self_toggle=True, states=2)
    assert r.method == "elimination"
    grid = graph_csr(nx.grid_2d_graph(20, 20))
    r = solve_graph_linear(400, grid.indptr, grid.indices, np.ones(400, np.uint8), self_toggle=True, states=2)
    assert r.method == "forcing"


@pytest.mark.parametrize("shape", [(1, 1), (1, 7), (7, 1), (5, 5), (4, 9), (30, 17), (64, 3), (2, 65)])
def test_forcing_chases_a_grid_row_by_row(shape):
    """On a grid in row-major order the greedy plan needs no more free unknowns than the shorter side."""
    g = graph_csr(nx.grid_2d_graph(*shape))
    for self_toggle in (True, False):
        plan = forcing_plan(g.indptr, g.indices, self_toggle)
        assert plan.nfree <= min(shape)
        assert sorted(plan.steps_var.tolist()) == list(range(g.n))
        used = plan.steps_eq[plan.steps_eq >= 0]
        assert len(set(used.tolist())) == len(used) == g.n - plan.nfree
        assert not set(used.tolist()) & set(plan.final_eqs.tolist())


def test_grids_as_graphs_agree_with_the_grid_solver():
    rng = np.random.default_rng(2026)
    for _ in range(60):
        rows, cols = (int(x) for x in rng.integers(1, 26, 2))
        g = nx.grid_2d_graph(rows, cols)
        board = rng.random((rows, cols)) < 0.5
        if rng.random() < 0.3:
            board[:] = True
        try:
            expect = lightsout.solve(board)
        except UnsolvableError:
            expect = None
        if expect is None:
            with pytest.raises(UnsolvableError):
                solve_graph(g, board.ravel())
        else:
            s = solve_graph(g, board.ravel())
            assert s.presses.tolist() == expect.presses.ravel().tolist()
            assert s.nullity == expect.nullity == lightsout.nullity(rows, cols)


@pytest.mark.parametrize("self_toggle", [True, False])
def test_grid_nullities_against_ranks(self_toggle):
    rng = np.random.default_rng(77 + self_toggle)
    for _ in range(25):
        rows, cols = (int(x) for x in rng.integers(1, 9, 2))
        g = graph_csr(nx.grid_2d_graph(rows, cols))
        r = solve_graph_linear(g.n, g.indptr, g.indices, np.ones(g.n, np.uint8), self_toggle=self_toggle, states=2)
        sets = oracle.neighbour_sets((rows, cols), False, self_toggle)
        assert r.nullity == g.n - oracle.rank_mod_prime(oracle.effect_matrix(sets), 2)


@pytest.mark.parametrize("states", [2, 3])
def test_sigma_and_torus_grids_as_graphs_agree_with_solve(states):
    rng = np.random.default_rng(99 + states)
    for _ in range(40):
        shape = tuple(int(x) for x in rng.integers(1, 8, int(rng.integers(1, 4))))
        torus = bool(rng.random() < 0.5)
        self_toggle = bool(rng.random() < 0.5)
        sets = oracle.neighbour_sets(shape, torus, self_toggle)
        edges = sorted({(min(a, b), max(a, b)) for a, hit in enumerate(sets) for b in hit if a != b})
        board = rng.integers(0, states, shape)
        keywords = dict(self_toggle=self_toggle, states=states)
        try:
            expect = lightsout.solve(board, torus=torus, **keywords)
        except UnsolvableError:
            with pytest.raises(UnsolvableError):
                solve_graph(edges, board.ravel(), nvertices=len(sets), **keywords)
            continue
        s = solve_graph(edges, board.ravel(), nvertices=len(sets), **keywords)
        assert s.presses.ravel().tolist() == expect.presses.ravel().tolist()
        assert (s.nullity, s.count) == (expect.nullity, expect.count)


def test_forcing_system_mod_k_is_consistent():
    """The reduced system mod k without a solver: random free unknowns expand to presses that
    satisfy every forcing equation, and the final equations' residuals are exactly C z + d."""
    rng = np.random.default_rng(5)
    gc = load("graphchase")
    for k in (2, 3, 4, 6, 7, 255):
        for n, m in [(30, 40), (60, 200), (25, 0), (40, 700)]:
            g = random_csr(rng, n, m)
            for self_toggle in (True, False):
                plan = forcing_plan(g.indptr, g.indices, self_toggle)
                lit = rng.integers(0, k, n).astype(np.uint8)
                system = gc.forcing_system_mod(g.indptr, g.indices, self_toggle, plan.steps_var, plan.steps_eq,
                                               plan.final_eqs, plan.peak, lit, k)
                z = rng.integers(0, k, (plan.nfree, 1)).astype(np.uint8)
                x = gc.forcing_expand_mod(g.indptr, g.indices, self_toggle, plan.steps_var, plan.steps_eq, lit, z,
                                          k)[:, 0]
                sets = oracle.graph_neighbour_sets(n, _edges_of(g), self_toggle)
                after = oracle.replay_sets(sets, lit, x, k)
                used = plan.steps_eq[plan.steps_eq >= 0]
                assert not after[used].any()
                expect = (system[:, :-1].astype(np.int64) @ z[:, 0].astype(np.int64) + system[:, -1]) % k
                assert after[plan.final_eqs].tolist() == expect.tolist()


def test_every_simd_level_gives_the_same_plan_system_and_expansion(simd_level):
    rng = np.random.default_rng(31)
    g = random_csr(rng, 700, 2100)
    lit = rng.integers(0, 2, 700).astype(np.uint8)
    answers = []
    for level in ("generic", simd_level):
        gc = load("graphchase", level)
        sv, se, final, peak = gc.forcing_plan(g.indptr, g.indices, True)
        system = gc.forcing_system_gf2(g.indptr, g.indices, True, sv, se, final, peak, lit)
        zrows = rng.integers(0, 2**63, (len(final), 3), dtype=np.uint64) if not answers else answers[0][-1]
        vals = gc.forcing_expand_gf2(g.indptr, g.indices, True, sv, se, lit, zrows)
        answers.append((sv, se, final, system, vals, zrows))
    for a, b in zip(answers[0][:-1], answers[1][:-1]):
        assert np.array_equal(a, b)


@pytest.mark.skipif(threading.current_thread() is not threading.main_thread(), reason="signals go to the main thread")
def test_ctrl_c_stops_the_reduced_system_build_promptly():
    """A KeyboardInterrupt raised by a SIGINT handler during the (GIL-free) system build arrives promptly."""
    rng = np.random.default_rng(3)
    pairs = rng.integers(0, 20_000, (2_000_000, 2))
    g = graph_csr(pairs[pairs[:, 0] != pairs[:, 1]], nvertices=20_000)    # average degree 200
    plan = forcing_plan(g.indptr, g.indices, False)                        # |Z| about 18,500
    gc = load("graphchase")
    fired: list[float] = []
    finished: list[float] = []

    def handler(signum, frame):
        fired.append(time.perf_counter())
        raise KeyboardInterrupt

    previous = signal.signal(signal.SIGINT, handler)
    timer = threading.Timer(0.05, os.kill, (os.getpid(), signal.SIGINT))
    try:
        with pytest.raises(KeyboardInterrupt):
            timer.start()
            gc.forcing_system_gf2(g.indptr, g.indices, False, plan.steps_var, plan.steps_eq, plan.final_eqs,
                                  plan.peak, np.ones(g.n, np.uint8))
            finished.append(time.perf_counter())
            time.sleep(5)  # the build beat the signal: wait for it here instead
    finally:
        timer.cancel()
        signal.signal(signal.SIGINT, previous)
    if finished:
        pytest.skip("the system build finished before the signal arrived (fast machine)")
    assert time.perf_counter() - fired[0] < 0.5  # ~0.01 s measured; slack for a loaded machine


def test_elimination_refuses_before_allocating():
    n = 200_000
    indptr = np.zeros(n + 1, dtype=np.int64)
    indices = np.zeros(0, dtype=np.int32)
    with pytest.raises(BoardTooLargeError, match="MAX_GRAPH_BYTES"):
        solve_graph_linear(n, indptr, indices, np.zeros(n, np.uint8), self_toggle=True, states=2,
                           method="elimination")


def test_forcing_refuses_over_the_memory_limit(monkeypatch):
    g = graph_csr(nx.gnm_random_graph(3000, 9000, seed=3))
    monkeypatch.setattr(_forcing, "MAX_GRAPH_BYTES", 10_000)
    with pytest.raises(BoardTooLargeError, match="MAX_GRAPH_BYTES"):
        solve_graph_linear(g.n, g.indptr, g.indices, np.ones(g.n, np.uint8), self_toggle=True, states=2,
                           method="forcing")


def test_big_quiet_space_edgeless_sigma():
    """The sigma game on an edgeless graph: every press is quiet, only the dark board is solvable."""
    n = 300
    s = solve_graph([], np.zeros(n, np.uint8), nvertices=n, self_toggle=False)
    assert s.nullity == n and s.count == 2**n and not s.presses.any()
    with pytest.raises(UnsolvableError):
        solve_graph([], None, nvertices=n, self_toggle=False)


# ---------------------------------------------------------------------------
# Input forms.

def input_forms(n: int, edges):
    """The same graph in every accepted form."""
    dense = np.zeros((n, n), dtype=np.int64)
    for a, b in edges:
        dense[a, b] = dense[b, a] = 1
    g = nx.Graph()
    g.add_nodes_from(range(n))
    g.add_edges_from(edges)
    mg = nx.MultiGraph(g)
    forms = {
        "networkx": g, "multigraph": mg, "dense int": dense, "dense bool": dense.astype(bool),
        "dense float": dense * 2.5, "nested list": dense.tolist(), "csr_matrix": sparse.csr_matrix(dense),
        "csr_array": sparse.csr_array(dense), "coo": sparse.coo_matrix(dense), "lil": sparse.lil_matrix(dense),
    }
    if edges and max(max(e) for e in edges) == n - 1:  # n = 1 + the largest endpoint
        forms["edge tuples"] = [tuple(e) for e in edges] + [(b, a) for a, b in edges[:2]]  # repeats count once
        if len(edges) != 2:  # a 2 x 2 array is read as an adjacency matrix (module rule of lightsout.graph)
            forms["edge array"] = np.array(edges, dtype=np.int32).reshape(-1, 2)
    return forms


def test_every_input_form_gives_the_same_answer():
    rng = np.random.default_rng(11)
    for n in [1, 2, 3, 5, 8, 13, 30]:
        for _ in range(4):
            edges = random_graph(rng, n)
            lit = rng.integers(0, 2, n)
            answers = {}
            for name, form in input_forms(n, edges).items():
                g = graph_csr(form)
                assert g.n == n, name
                assert sorted(_edges_of(g)) == sorted(edges), name
                try:
                    answers[name] = solve_graph(form, lit).presses.tolist()
                except UnsolvableError:
                    answers[name] = None
            answers["nvertices"] = _try(lambda: solve_graph(np.array(edges, np.int64).reshape(-1, 2), lit,
                                                            nvertices=n))
            assert len(set(map(repr, answers.values()))) == 1, answers


def _try(fn):
    try:
        return fn().presses.tolist()
    except UnsolvableError:
        return None


def test_networkx_vertex_order_is_list_of_nodes():
    g = nx.Graph()
    g.add_edges_from([("c", "a"), ("a", "b"), ("b", "d")])          # nodes: c, a, b, d
    s = solve_graph(g, {"c": 1, "d": 1})
    assert s.nodes == ["c", "a", "b", "d"]
    relabelled = nx.relabel_nodes(g, {"c": 0, "a": 1, "b": 2, "d": 3})
    same = solve_graph([(0, 1), (1, 2), (2, 3)], [1, 0, 0, 1])
    assert s.presses.tolist() == same.presses.tolist()
    assert solve_graph(relabelled, [1, 0, 0, 1]).presses.tolist() == same.presses.tolist()
    assert set(s.press_list()) <= {"a", "b", "c", "d"}
    presses = dict(zip(s.nodes, s.presses.astype(int).tolist()))
    assert [presses[v] for v in s.press_list()] == [1] * len(s.press_list())


def test_tuple_nodes_and_grid_graph_order():
    g = nx.grid_2d_graph(3, 4)
    s = solve_graph(g)
    assert s.nodes == [(i, j) for i in range(3) for j in range(4)]
    assert s.presses.reshape(3, 4).tolist() == lightsout.solve(np.ones((3, 4), bool)).presses.tolist()
    assert s.press_list()[0] in s.nodes


def test_lit_forms():
    g = nx.path_graph(["x", "y", "z"])
    assert solve_graph(g, {"x": 1, "y": 1}).press_list() == ["x"]
    assert solve_graph(g, [True, True, False]).press_list() == ["x"]
    assert solve_graph(g, np.array([1.0, 1.0, 0.0])).press_list() == ["x"]
    assert solve_graph([(0, 1), (1, 2)], {0: 1, 1: 1}).press_list() == [0]
    assert solve_graph([(0, 1), (1, 2)], {}).press_list() == []        # all dark
    assert solve_graph([(0, 1), (1, 2)]).press_list() == [1]           # None: all lit


def test_graph_views_are_accepted():
    view = nx.path_graph(6).subgraph([3, 1, 2])                     # a read-only view, nodes 1, 2, 3
    s = solve_graph(view)
    assert s.nodes == list(view.nodes) and s.press_list() == [2]
    frozen = nx.freeze(nx.cycle_graph(4))
    assert solve_graph(frozen, {0: 1, 1: 1, 2: 1, 3: 1}).verify()


def test_multigraph_without_parallel_edges_is_accepted():
    mg = nx.MultiGraph([(0, 1), (1, 2)])
    assert solve_graph(mg).presses.astype(int).tolist() == [0, 1, 0]


def test_large_vertex_numbers_and_isolated_vertices():
    s = solve_graph([(0, 5)], [1, 0, 0, 0, 0, 1])               # vertices 1..4 isolated and dark
    assert s.presses.astype(int).tolist() == [0, 0, 0, 0, 0, 1]  # pressing 5 toggles 0 and 5: smallest
    assert s.verify() and s.count == 2                          # pressing both 0 and 5 is quiet


BAD_INPUTS = [
    ("parallel edges", lambda: nx.MultiGraph([(0, 1), (0, 1)]), {}, InvalidBoardError, "parallel"),
    ("nx self-loop", lambda: nx.Graph([(0, 1), (1, 1)]), {}, InvalidBoardError, "self-loop"),
    ("empty nx", lambda: nx.Graph(), {}, InvalidBoardError, "no vertices"),
    ("nx with nvertices", lambda: nx.path_graph(3), {"nvertices": 3}, InvalidBoardError, "nvertices"),
    ("not square", lambda: np.zeros((3, 4)), {}, InvalidBoardError, "square"),
    ("3-D", lambda: np.zeros((2, 2, 2)), {}, InvalidBoardError, "shape"),
    ("diagonal", lambda: [[1, 1], [1, 0]], {}, InvalidBoardError, "self-loop"),
    ("nan", lambda: np.array([[0, np.nan], [np.nan, 0]]), {}, InvalidBoardError, "finite"),
    ("strings", lambda: np.array([["a", "b"], ["b", "a"]]), {}, InvalidTypeError, "numbers"),
    ("sparse diagonal", lambda: sparse.eye(3, format="csr"), {}, InvalidBoardError, "self-loop"),
    ("sparse not square", lambda: sparse.csr_matrix((3, 2)), {}, InvalidBoardError, "square"),
    ("sparse with nvertices", lambda: sparse.csr_matrix((3, 3)), {"nvertices": 3}, InvalidBoardError, "nvertices"),
    ("negative vertex", lambda: [(0, -1)], {}, InvalidBoardError, "negative"),
    ("out of range", lambda: [(0, 3)], {"nvertices": 3}, InvalidBoardError, "out of range"),
    ("edge self-loop", lambda: [(0, 1), (2, 2)], {}, InvalidBoardError, "self-loop"),
    ("float endpoints", lambda: [(0.0, 1.0)], {}, InvalidTypeError, "int"),
    ("string endpoints", lambda: [("a", "b")], {}, InvalidTypeError, "int"),
    ("triples", lambda: [(0, 1, 2)], {}, InvalidBoardError, "shape"),
    ("empty edge list", lambda: [], {}, InvalidBoardError, "nvertices"),
    ("nvertices zero", lambda: [], {"nvertices": 0}, InvalidBoardError, "positive"),
    ("nvertices str", lambda: [(0, 1)], {"nvertices": "2"}, InvalidTypeError, "int"),
    ("ragged", lambda: [[0, 1], [1]], {}, InvalidBoardError, "array"),
    ("an int", lambda: 5, {}, InvalidTypeError, "networkx"),
    ("a string", lambda: "0-1", {}, InvalidTypeError, "networkx"),
    ("None", lambda: None, {}, InvalidTypeError, "networkx"),
    ("a dict", lambda: {0: [1]}, {}, InvalidTypeError, "networkx"),
]


@pytest.mark.parametrize("name,make,keywords,error,words", BAD_INPUTS, ids=[b[0] for b in BAD_INPUTS])
def test_bad_graphs_are_refused_with_a_clear_error(name, make, keywords, error, words):
    with pytest.raises(error, match=words):
        solve_graph(make(), **keywords)


@pytest.mark.parametrize("make, words", [
    (lambda: nx.DiGraph([(0, 1)]), "directed"), (lambda: [[0, 1, 0], [0, 0, 1], [0, 1, 0]], "not symmetric"),
    (lambda: sparse.csr_matrix(np.array([[0, 1], [0, 0]])), "not symmetric"),
])
def test_directed_graphs_are_graph_csr_s_only_with_directed(make, words):
    """solve_graph takes directed graphs (issue 30: one-way rules, tests/test_stencil.py); graph_csr asks directed=True."""
    with pytest.raises(InvalidBoardError, match=words):
        graph_csr(make())
    assert graph_csr(make(), directed=True).directed
    assert solve_graph(make(), {}).rules.directed          # the dark board (an all-lit one may be unsolvable)


BAD_OPTIONS = [
    ("lit too short", {"board": [1, 0]}, InvalidBoardError, "one value per vertex"),
    ("lit too long", {"board": [1, 0, 1, 1]}, InvalidBoardError, "one value per vertex"),
    ("lit 2-D", {"board": [[1, 0, 1]]}, InvalidBoardError, "one value per vertex"),
    ("lit value 2", {"board": [1, 2, 0]}, InvalidBoardError, "0 and 1"),
    ("lit value 3 of 3", {"board": [1, 3, 0], "states": 3}, InvalidBoardError, "0..2"),
    ("lit negative", {"board": [1, -1, 0], "states": 3}, InvalidBoardError, "0..2"),
    ("lit fraction", {"board": [1, 0.5, 0], "states": 3}, InvalidBoardError, "whole"),
    ("lit text", {"board": "101"}, InvalidTypeError, "lit"),
    ("lit strings", {"board": ["1", "0", "1"]}, InvalidTypeError, "lit"),
    ("lit dict bad key", {"board": {7: 1}}, InvalidBoardError, "not a vertex"),
    ("lit dict bad value", {"board": {0: 5}}, InvalidBoardError, "0 and 1"),
    ("states 1", {"states": 1}, InvalidBoardError, "states"),
    ("states 256", {"states": 256}, InvalidBoardError, "states"),
    ("states str", {"states": "3"}, InvalidTypeError, "states"),
    ("self_toggle int", {"self_toggle": 1}, InvalidTypeError, "self_toggle"),
    ("method", {"method": "fast"}, InvalidBoardError, "method"),
    ("method type", {"method": 3}, InvalidTypeError, "method"),
]


@pytest.mark.parametrize("name,keywords,error,words", BAD_OPTIONS, ids=[b[0] for b in BAD_OPTIONS])
def test_bad_lights_and_options_are_refused_with_a_clear_error(name, keywords, error, words):
    with pytest.raises(error, match=words):
        solve_graph([(0, 1), (1, 2)], **keywords)


def test_networkx_dict_lights_with_unknown_node():
    with pytest.raises(InvalidBoardError, match="not a node"):
        solve_graph(nx.path_graph(["a", "b"]), {"q": 1})


def test_two_by_two_list_is_a_matrix_unless_tuples_or_nvertices():
    assert graph_csr([[0, 1], [1, 0]]).n == 2                     # adjacency matrix of one edge
    assert graph_csr([(0, 1), (1, 2)]).n == 3                     # tuples: an edge list
    assert graph_csr([[0, 1], [1, 2]], nvertices=3).n == 3        # nvertices: an edge list
    with pytest.raises(InvalidBoardError, match="not symmetric"):
        graph_csr([[0, 1], [0, 0]])                               # read as a matrix: refused, with a reason
