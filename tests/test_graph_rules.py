"""One-way rules (directed graphs) and masks (unpressable vertices, free lights) on graphs.

Every answer is replayed by the tiny simulator below, which knows nothing of the package:
a press at u adds 1 (mod k) to u (under the plus rule) and to every head of an edge from
u (both ends for an undirected graph).  Solvability, counts and the fewest presses are
checked against brute force over every press vector of the pressable vertices, and every
proof of an unsolvable board against its definition (no allowed press changes its weighted
sum, the board's is not 0, it weighs only required lights).
"""
from __future__ import annotations

import itertools
import pickle

import numpy as np
import pytest

import lightsout
from lightsout._core.graphrules import GraphRules

nx = pytest.importorskip("networkx")
sp = pytest.importorskip("scipy.sparse")

METHODS = ("auto", "forcing", "elimination")


def effect(n, edges, directed, self_toggle, k, u):
    """The lights one press at u adds to, as a vector mod k (the simulator)."""
    out = np.zeros(n, dtype=np.int64)
    if self_toggle:
        out[u] += 1
    for a, b in edges:
        if a == u:
            out[b] += 1
        elif b == u and not directed:
            out[a] += 1
    return out % k


def replay(n, edges, directed, self_toggle, k, board, presses):
    total = np.array(board, dtype=np.int64)
    for u in range(n):
        total += int(presses[u]) * effect(n, edges, directed, self_toggle, k, u)
    return total % k


def brute_force(n, edges, directed, self_toggle, k, board, pressable, required):
    """Every solution over the pressable vertices, as tuples."""
    free = [u for u in range(n) if pressable[u]]
    found = []
    for values in itertools.product(range(k), repeat=len(free)):
        presses = np.zeros(n, dtype=np.int64)
        presses[free] = values
        if not replay(n, edges, directed, self_toggle, k, board, presses)[required].any():
            found.append(tuple(presses))
    return found


def random_case(rng, n, directed, masks):
    edges = set()
    for _ in range(int(rng.integers(0, 2 * n + 1))):
        a, b = (int(x) for x in rng.integers(0, n, 2))
        if a != b and (directed or (b, a) not in edges):
            edges.add((a, b))
    unpressable = rng.random(n) < 0.25 if masks else np.zeros(n, bool)
    free_lights = rng.random(n) < 0.25 if masks else np.zeros(n, bool)
    return sorted(edges), unpressable, free_lights


def as_input(n, edges, directed, form):
    """The graph as a networkx graph or a scipy.sparse adjacency matrix (the two forms a DiGraph takes)."""
    if form == "networkx":
        graph = nx.DiGraph() if directed else nx.Graph()
        graph.add_nodes_from(range(n))
        graph.add_edges_from(edges)
        return graph
    rows = [a for a, b in edges] + ([] if directed else [b for a, b in edges])
    cols = [b for a, b in edges] + ([] if directed else [a for a, b in edges])
    return sp.csr_matrix((np.ones(len(rows)), (rows, cols)), shape=(n, n))


def check_proof(proof, n, edges, directed, self_toggle, k, board, pressable, required):
    y = np.asarray(proof, dtype=np.int64).ravel()
    assert y.shape == (n,)
    assert not y[~required].any(), "the proof weighs a light that need not end dark"
    assert int(y @ np.asarray(board, dtype=np.int64)) % k != 0
    for u in range(n):
        if pressable[u]:
            assert int(y @ effect(n, edges, directed, self_toggle, k, u)) % k == 0, f"press {u} changes the sum"


def solve_or_error(graph, board, **options):
    try:
        return lightsout.solve_graph(graph, board, **options), None
    except lightsout.UnsolvableError as error:
        return None, error


@pytest.mark.parametrize("k", [2, 3, 4, 5])
@pytest.mark.parametrize("directed", [True, False])
@pytest.mark.parametrize("masks", [True, False])
def test_random_small_graphs_against_brute_force(k, directed, masks):
    rng = np.random.default_rng(1000 * k + 10 * directed + masks)
    cases = 0
    while cases < 14:
        n = int(rng.integers(1, 7))
        if k ** n > 4096:
            continue
        cases += 1
        edges, unpressable, free_lights = random_case(rng, n, directed, masks)
        self_toggle = bool(rng.integers(0, 2))
        board = rng.integers(0, k, n)
        pressable, required = ~unpressable, ~free_lights
        solutions = brute_force(n, edges, directed, self_toggle, k, board, pressable, required)
        form = "networkx" if cases % 2 else "sparse"
        graph = as_input(n, edges, directed, form)
        for method in METHODS:
            s, error = solve_or_error(graph, board, states=k, self_toggle=self_toggle, method=method,
                                      unpressable=unpressable, free_lights=free_lights)
            if not solutions:
                assert s is None, (edges, board, method)
                assert error.method in ("forcing", "elimination")
                check_proof(error.proof, n, edges, directed, self_toggle, k, board, pressable, required)
                continue
            assert error is None, (edges, board, method, str(error))
            assert s.count == len(solutions)
            if k in (2, 3, 5):
                assert k ** s.nullity == s.count
            assert tuple(int(x) for x in s.presses) == min(solutions)       # canonical: the smallest
            assert s.verify()
            every = sorted(tuple(int(x) for x in p) for p in s.all())
            assert every == sorted(solutions)
            best = min(sum(p) for p in solutions)
            fewest = lightsout.solve_graph(graph, board, states=k, self_toggle=self_toggle, method=method,
                                           unpressable=unpressable, free_lights=free_lights, minimal=True)
            assert int(np.asarray(fewest.presses, dtype=np.int64).sum()) == best
            assert tuple(int(x) for x in fewest.presses) in set(solutions)


@pytest.mark.parametrize("directed", [True, False])
def test_the_methods_agree_on_larger_random_graphs(directed):
    """Forcing and elimination on graphs too large for brute force: the same canonical answer, replayed."""
    rng = np.random.default_rng(7 + directed)
    for k in (2, 3):
        n = 60
        edges, unpressable, free_lights = random_case(rng, n, directed, True)
        graph = as_input(n, edges, directed, "sparse")
        board = rng.integers(0, k, n)
        answers = []
        for method in METHODS:
            s, error = solve_or_error(graph, board, states=k, method=method, unpressable=unpressable,
                                      free_lights=free_lights)
            if s is None:
                check_proof(error.proof, n, edges, directed, True, k, board, ~unpressable, ~free_lights)
                answers.append(None)
                continue
            after = replay(n, edges, directed, True, k, board, s.presses)
            assert not after[~free_lights].any() and not np.asarray(s.presses)[unpressable].any()
            answers.append((tuple(int(x) for x in s.presses), s.count, s.nullity))
        assert answers[0] == answers[1] == answers[2]


def test_a_directed_graph_is_forced_not_eliminated():
    rng = np.random.default_rng(3)
    n, m = 3000, 9000
    u, v = rng.integers(0, n, m), rng.integers(0, n, m)
    keep = u != v
    matrix = sp.csr_matrix((np.ones(int(keep.sum())), (u[keep], v[keep])), shape=(n, n))
    board = np.zeros(n, dtype=np.uint8)
    s = lightsout.solve_graph(matrix, board)
    assert s.method == "forcing" and s.directed
    assert s.verify() and not s.presses.any()


def test_masks_by_labels_and_by_bools_are_the_same():
    graph = nx.DiGraph([("a", "b"), ("b", "c"), ("c", "a"), ("a", "d")])
    by_label = lightsout.solve_graph(graph, {"a": 1, "d": 1}, unpressable={"b"}, free_lights=["c"])
    by_bool = lightsout.solve_graph(graph, {"a": 1, "d": 1}, unpressable=[False, True, False, False],
                                    free_lights=np.array([False, False, True, False]))
    assert by_label.presses.tolist() == by_bool.presses.tolist()
    assert "b" not in by_label.press_list()


@pytest.mark.parametrize("name", ["unpressable", "free_lights"])
@pytest.mark.parametrize("value, error", [
    ([True, False], lightsout.InvalidBoardError),            # a bool per vertex: wrong length
    ({"z"}, lightsout.InvalidBoardError),                   # not a node
    (["a", "a"], lightsout.InvalidBoardError),              # a vertex twice
    (np.array([0.5, 1.0, 0.0]), lightsout.InvalidTypeError),   # neither bools nor vertices
    ("a", lightsout.InvalidTypeError),
    (3, lightsout.InvalidTypeError),
])
def test_bad_masks_are_refused(name, value, error):
    with pytest.raises(error, match=name):
        lightsout.solve_graph(nx.path_graph(["a", "b", "c"]), **{name: value})


def test_bad_vertex_numbers_are_refused():
    with pytest.raises(lightsout.InvalidBoardError, match="0..2"):
        lightsout.solve_graph([(0, 1), (1, 2)], unpressable=[3])
    with pytest.raises(lightsout.InvalidBoardError, match="twice"):
        lightsout.solve_graph([(0, 1), (1, 2)], free_lights=[0, 1, 0])     # a mask written as ints


def test_an_empty_mask_keeps_the_unmasked_route_and_answer():
    graph = nx.cycle_graph(7)
    plain = lightsout.solve_graph(graph)
    empty = lightsout.solve_graph(graph, unpressable=[], free_lights=np.zeros(7, bool))
    assert plain.presses.tolist() == empty.presses.tolist() and plain.rules == empty.rules


def test_the_unsolvable_message_of_a_one_way_rule_speaks_of_weights():
    graph = nx.DiGraph([(0, 1)])                        # pressing 0 changes 0 and 1; pressing 1 changes 1
    with pytest.raises(lightsout.UnsolvableError) as caught:
        lightsout.solve_graph(graph, [1, 0], unpressable={0})
    error = caught.value
    assert "no allowed press changes that sum" in str(error) and "quiet pattern" not in str(error)
    assert error.quiet_pattern is None and error.method in ("forcing", "elimination")
    check_proof(error.proof, 2, [(0, 1)], True, True, 2, [1, 0], np.array([False, True]), np.array([True, True]))


def test_graph_rules_with_masks_hash_compare_and_pickle():
    indptr, indices = np.array([0, 1, 3, 4]), np.array([1, 0, 2, 1], dtype=np.int32)
    rules = GraphRules(indptr, indices, unpressable=np.array([True, False, False]))
    again = pickle.loads(pickle.dumps(rules))
    assert again == rules and hash(again) == hash(rules)
    assert rules != GraphRules(indptr, indices)
    assert rules != GraphRules(indptr, indices, free_lights=np.array([True, False, False]))
    assert "1 unpressable" in rules.describe()


def test_a_solution_with_masks_verifies_under_its_masks():
    s = lightsout.solve_graph(nx.path_graph(3), [1, 0, 0], free_lights={2})
    assert s.verify()
    assert "directed" not in repr(s) and not s.directed
    assert lightsout.solve_graph(nx.DiGraph([(0, 1)]), [1, 1]).directed


def orbits_by_brute_force(n, edges, board, solutions):
    """Solutions up to the digraph's automorphisms that keep the lights, by listing every permutation."""
    edge_set = set(edges)
    autos = [p for p in itertools.permutations(range(n))
             if {(p[a], p[b]) for a, b in edges} == edge_set and all(board[p[v]] == board[v] for v in range(n))]
    seen: set = set()
    orbits = 0
    for solution in solutions:
        if solution in seen:
            continue
        orbits += 1
        for p in autos:
            image = [0] * n
            for v in range(n):
                image[p[v]] = solution[v]
            seen.add(tuple(image))
    return orbits


@pytest.mark.parametrize("k", [2, 3])
def test_count_up_to_symmetry_of_a_directed_graph_against_brute_force(k):
    rng = np.random.default_rng(40 + k)
    checked = 0
    for _ in range(300):
        n = int(rng.integers(2, 6))
        edges, _, _ = random_case(rng, n, True, False)
        self_toggle = bool(rng.integers(0, 2))
        board = rng.integers(0, k, n) * (rng.random() < 0.5)
        solutions = brute_force(n, edges, True, self_toggle, k, board, np.ones(n, bool), np.ones(n, bool))
        if len(solutions) < 2:
            continue
        s = lightsout.solve_graph(as_input(n, edges, True, "networkx"), board, states=k, self_toggle=self_toggle)
        assert s.directed == (len(edges) > 0 and any((b, a) not in set(edges) for a, b in edges))
        assert s.count_up_to_symmetry() == orbits_by_brute_force(n, edges, board, solutions), (edges, board)
        checked += 1
    assert checked >= 10


@pytest.mark.parametrize("n", [1, 63, 64, 65, 129, 700])
def test_every_simd_level_gives_the_same_sparse_plan_system_and_expansion(simd_level, n):
    """The press-system kernels (graphchase.pyx section 5) at awkward sizes: the same answers at every
    SIMD level, and the reduced system reading what the expanded presses leave on the final lights."""
    from lightsout._kernels import load
    from lightsout._routes.forcing import press_system

    rng = np.random.default_rng(n)
    u, v = rng.integers(0, n, 3 * n), rng.integers(0, n, 3 * n)
    keep = u != v
    matrix = sp.csr_matrix((np.ones(int(keep.sum())), (u[keep], v[keep])), shape=(n, n))
    matrix.data[:] = 1
    system = press_system(n, matrix.indptr.astype(np.int64), matrix.indices.astype(np.int32), bool(n % 2),
                          rng.random(n) < 0.8, rng.random(n) < 0.8)
    lit = rng.integers(0, 3, len(system.lights)).astype(np.uint8)
    answers = []
    for level in ("generic", simd_level):
        gc = load("graphchase", level)
        sv, se, final, peak = gc.sparse_plan(*system.arrays)
        nz = int((se < 0).sum())
        reduced = gc.sparse_system_mod(*system.arrays, sv, se, final, peak, lit, 3)
        z = rng.integers(0, 3, (nz, 2)).astype(np.uint8) if not answers else answers[0][-1]
        vals = gc.sparse_expand_mod(*system.arrays, sv, se, lit, z, 3)
        bits = gc.sparse_system_gf2(*system.arrays, sv, se, final, peak, lit)
        answers.append((sv, se, final, reduced, vals, bits, z))
    for a, b in zip(answers[0][:-1], answers[1][:-1]):
        assert np.array_equal(a, b)
    sv, se, final, reduced, vals, bits, z = answers[0]
    # light e after the presses of vector 0 (which carries the lights) is what row e of [C | d] says
    rows = np.repeat(np.arange(len(system.lights)), np.diff(system.eq_ptr))
    after = (np.bincount(rows, weights=vals[system.eq_var, 0], minlength=len(system.lights)) + lit) % 3
    assert not after[se[se >= 0]].any()
    expect = (reduced[:, :-1].astype(np.int64) @ z[:, 0].astype(np.int64) + reduced[:, -1]) % 3
    assert after[final].tolist() == expect.tolist()


@pytest.mark.parametrize("seed", range(12))
def test_masked_graphs_count_their_solutions_up_to_the_automorphisms_keeping_the_marks(seed):
    """Burnside against brute force: the vertex permutations that keep the edges, the lights and the marks,
    applied to every solution found by trying every press vector."""
    rng = np.random.default_rng(7700 + seed)
    n = int(rng.integers(4, 7))
    chords = [(int(u), int(w)) for u, w in rng.integers(0, n, (int(rng.integers(0, 2)), 2)) if u != w]
    edges = sorted({tuple(sorted(e)) for e in [(v, (v + 1) % n) for v in range(n)] + chords})
    unpressable, free = np.zeros(n, bool), np.zeros(n, bool)
    unpressable[rng.integers(0, n)] = True
    free[rng.integers(0, n)] = rng.random() < 0.5
    board = np.ones(n, np.int64)
    solutions = brute_force(n, edges, False, True, 2, board, ~unpressable, ~free)
    if not solutions:  # the dark board then: its solutions are the quiet patterns
        board[:] = 0
        solutions = brute_force(n, edges, False, True, 2, board, ~unpressable, ~free)
    found = lightsout.solve_graph(as_input(n, edges, False, "networkx"), board, unpressable=unpressable,
                                  free_lights=free)
    marks = board + 2 * unpressable + 4 * free          # a symmetry keeps each vertex's light and marks
    both_ways = edges + [(b, a) for a, b in edges]
    assert found.count == len(solutions)
    assert found.count_up_to_symmetry() == orbits_by_brute_force(n, both_ways, marks, solutions)


def test_masked_graphs_with_k_states_are_not_counted_up_to_symmetry():
    s = lightsout.solve_graph(nx.cycle_graph(4), [0, 0, 0, 0], free_lights={0}, states=3)
    with pytest.raises(lightsout.InvalidBoardError, match="two states"):
        s.count_up_to_symmetry()
