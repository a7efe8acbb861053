"""Solutions up to symmetry (Solution.count_up_to_symmetry) against orbits counted by brute force.

The solutions come from the oracle (chasing every first row, or trying every press vector),
the symmetries from numpy's rot90/flip/transpose on the board (or from every vertex
permutation of a small graph), and the orbits are counted by putting every solution in a
canonical form: the smallest image over the group.  None of it shares code with
lightsout._search.symmetry.
"""
from __future__ import annotations

import itertools

import numpy as np
import pytest

import lightsout
from lightsout._search import symmetry as _symmetry
import oracle


def box_images(shape, torus):
    """Every point symmetry of a box as a function on arrays: flips, and axis exchanges of equal axes."""
    ndim = len(shape)
    wraps = tuple(torus) if isinstance(torus, tuple) else (bool(torus),) * ndim
    found = []
    for order in itertools.permutations(range(ndim)):
        if any(shape[order[a]] != shape[a] or wraps[order[a]] != wraps[a] for a in range(ndim)):
            continue
        for flips in itertools.product((False, True), repeat=ndim):
            def image(x, order=order, flips=flips):
                y = np.transpose(x, order)
                for axis, flip in enumerate(flips):
                    if flip:
                        y = np.flip(y, axis)
                return y
            found.append(image)
    return found


def orbits(solutions, images):
    """The number of classes of solutions (arrays) under the functions ``images``."""
    return len({min(np.ascontiguousarray(f(x)).tobytes() for f in images) for x in solutions})


def keeps(images, board):
    return [f for f in images if np.array_equal(f(board), board)]


def index_images(shape, images):
    """The flat-index permutation of each image function (the group= form)."""
    index = np.arange(int(np.prod(shape))).reshape(shape)
    return [np.ascontiguousarray(f(index)) for f in images]


def grid_solutions(board):
    """Every solution of a 2-D two-state board with self toggle, from every first row (oracle)."""
    firsts = oracle.solving_first_rows(board)
    if not len(firsts):
        return []
    presses, _ = oracle.chase_fast(np.asarray(board, dtype=bool), firsts)
    solutions = [np.asarray(x, dtype=np.uint8).reshape(np.shape(board)) for x in presses]
    for x in solutions[:4]:  # the fast chase against the plain replay
        assert oracle.clears(board, x)
    return solutions


@pytest.mark.parametrize("n", range(1, 17))
def test_all_lit_squares_against_orbits_of_every_solution(n):
    board = np.ones((n, n), dtype=np.uint8)
    solutions = grid_solutions(board)
    s = lightsout.solve(board)
    assert s.count == len(solutions)
    expected = orbits(solutions, box_images((n, n), False))
    assert s.count_up_to_symmetry() == expected
    # the group given explicitly, as generators: a quarter turn and a mirror
    generators = index_images((n, n), [lambda x: np.rot90(x), lambda x: x[:, ::-1]])
    assert s.count_up_to_symmetry(group=generators) == expected


@pytest.mark.parametrize("seed", range(40))
def test_random_symmetric_boards_every_subgroup(seed):
    rng = np.random.default_rng(seed)
    rows = int(rng.integers(1, 7))
    cols = rows if rng.random() < 0.6 else int(rng.integers(1, 7))
    images = box_images((rows, cols), False)
    # a board kept by a random symmetry (the OR of its orbit under the group that symmetry generates)
    chosen = images[int(rng.integers(len(images)))]
    board = (rng.random((rows, cols)) < 0.4).astype(np.uint8)
    for _ in range(4):
        board = board | chosen(board)
    solutions = grid_solutions(board)
    if not solutions:
        with pytest.raises(lightsout.UnsolvableError):
            lightsout.solve(board)
        return
    s = lightsout.solve(board)
    assert s.count_up_to_symmetry() == orbits(solutions, keeps(images, board))
    # the cyclic group of the chosen symmetry alone: its powers, up to the identity
    index = np.arange(rows * cols).reshape(rows, cols)
    powers = [lambda x: x]
    moved = chosen(index)
    while not np.array_equal(moved, index):
        powers.append(lambda x, f=powers[-1]: chosen(f(x)))
        moved = chosen(moved)
    assert s.count_up_to_symmetry(group=index_images((rows, cols), [chosen])) == orbits(solutions, powers)


@pytest.mark.parametrize("shape, torus, self_toggle, states", [
    ((3, 3), True, True, 2), ((4, 4), True, False, 2), ((2, 2, 2), False, True, 2), ((3, 3), False, False, 2),
    ((2, 3, 2), (True, False, True), True, 2), ((3, 3), False, True, 3), ((2, 3), True, True, 4),
    ((2, 2), False, False, 6), ((1, 5), False, True, 3), ((7,), False, False, 2), ((3, 3), True, False, 3),
])
def test_any_shape_and_rules_against_every_press_vector(shape, torus, self_toggle, states):
    rng = np.random.default_rng(sum(shape) * 7 + states)
    images = box_images(shape, torus)
    sets = oracle.neighbour_sets(shape, torus, self_toggle)
    tried = 0
    for lights in [np.full(shape, states - 1)] + [rng.integers(0, states, shape) for _ in range(30)]:
        symmetric = keeps(images, lights)
        solutions, _ = oracle.exhaustive(sets, lights, states)
        if not len(solutions) or len(symmetric) == 1 and tried > 2:
            continue
        tried += 1
        s = lightsout.solve(lights.astype(np.uint8), torus=torus, self_toggle=self_toggle, states=states)
        arrays = [row.reshape(shape).astype(np.uint8) for row in solutions]
        assert s.count == len(arrays)
        assert s.count_up_to_symmetry() == orbits(arrays, symmetric)
    assert tried >= 1


@pytest.mark.parametrize("n", [4, 5, 9, 11, 14, 16, 17, 19])
def test_two_ways_of_counting_fixed_points_agree(n):
    s = lightsout.solve(lightsout.all_lit(n))
    flat = s.board.astype(np.uint8).ravel()
    common = dict(shape=s.board.shape, wraps=s.torus, self_toggle=s.self_toggle, states=2, count=s.count,
                  adjacency=None, nodes=None, quiet_words=s.packed_quiet_patterns, group=None)
    by_coordinates = _symmetry.count_orbits(s.presses.astype(np.uint8).ravel(), flat, route="coordinates", **common)
    by_cycles = _symmetry.count_orbits(s.presses.astype(np.uint8).ravel(), flat, route="cycles", **common)
    assert by_coordinates == by_cycles == s.count_up_to_symmetry()


def test_the_torus_translations_as_a_group():
    n = 5
    board = np.ones((n, n), dtype=np.uint8)
    sets = oracle.neighbour_sets((n, n), True, True)
    s = lightsout.solve(board, torus=True)
    arrays = list(s.all())
    for x in arrays:  # every solution replayed by the oracle
        assert not oracle.replay_sets(sets, board, x).any()
    shifts = [lambda x, a=a, b=b: np.roll(np.roll(x, a, 0), b, 1) for a in range(n) for b in range(n)]
    generators = index_images((n, n), [lambda x: np.roll(x, 1, 0), lambda x: np.roll(x, 1, 1)])
    assert s.count_up_to_symmetry(group=generators) == orbits([x.astype(np.uint8) for x in arrays], shifts)
    everything = [lambda x, f=f, g=g: f(g(x)) for f in shifts for g in box_images((n, n), True)]
    generators += index_images((n, n), [lambda x: np.rot90(x), lambda x: x[::-1]])
    assert s.count_up_to_symmetry(group=generators) == orbits([x.astype(np.uint8) for x in arrays], everything)


def graph_automorphisms_brute(nvertices, edges, lights):
    """Every vertex permutation keeping edges and lights, by extending partial maps vertex by vertex."""
    adjacent = {frozenset(e) for e in edges}
    found = []

    def extend(image):
        v = len(image)
        if v == nvertices:
            found.append(tuple(image))
            return
        for w in range(nvertices):
            if w in image or lights[w] != lights[v]:
                continue
            if all((frozenset((u, v)) in adjacent) == (frozenset((image[u], w)) in adjacent) for u in range(v)):
                extend(image + [w])

    extend([])
    return found


@pytest.mark.parametrize("name", ["petersen", "cycle7", "cube", "star", "path6", "k33"])
@pytest.mark.parametrize("self_toggle", [True, False])
def test_graphs_against_every_automorphism(name, self_toggle):
    nx = pytest.importorskip("networkx")
    graph = {"petersen": nx.petersen_graph(), "cycle7": nx.cycle_graph(7),
             "cube": nx.convert_node_labels_to_integers(nx.hypercube_graph(3)), "star": nx.star_graph(5),
             "path6": nx.path_graph(6), "k33": nx.complete_bipartite_graph(3, 3)}[name]
    n = graph.number_of_nodes()
    edges = [tuple(e) for e in graph.edges()]
    sets = oracle.graph_neighbour_sets(n, edges, self_toggle)
    rng = np.random.default_rng(n)
    for lights in [np.ones(n, dtype=np.int64), rng.integers(0, 2, n)]:
        solutions, _ = oracle.exhaustive(sets, lights, 2)
        if not len(solutions):
            continue
        s = lightsout.solve_graph(graph, [int(v) for v in lights], self_toggle=self_toggle)
        group = graph_automorphisms_brute(n, edges, lights)
        expected = len({min(tuple(int(x[p[v]]) for v in range(n)) for p in group) for x in solutions})
        assert s.count_up_to_symmetry() == expected
        # the same group, given as networkx mappings of the generators found by brute force
        mappings = [dict(enumerate(p)) for p in group[1:4]]
        sub = _closure_brute(group[1:4], n)
        expected_sub = len({min(tuple(int(x[p[v]]) for v in range(n)) for p in sub) for x in solutions})
        assert s.count_up_to_symmetry(group=mappings) == expected_sub


def _closure_brute(generators, n):
    elements = {tuple(range(n))}
    while True:
        grown = elements | {tuple(g[e[v]] for v in range(n)) for e in elements for g in generators}
        if grown == elements:
            return elements
        elements = grown


def test_states_graph_with_k_states():
    nx = pytest.importorskip("networkx")
    graph = nx.cycle_graph(6)
    edges = list(graph.edges())
    for states in (3, 4):
        sets = oracle.graph_neighbour_sets(6, edges, True)
        lights = np.full(6, states - 1)
        solutions, _ = oracle.exhaustive(sets, lights, states)
        s = lightsout.solve_graph(graph, [int(v) for v in lights], states=states)
        group = graph_automorphisms_brute(6, edges, lights)
        expected = len({min(tuple(int(x[p[v]]) for v in range(6)) for p in group) for x in solutions})
        assert s.count_up_to_symmetry() == expected


# --- refusals ---------------------------------------------------------------------------------

@pytest.fixture
def square():
    return lightsout.solve(lightsout.all_lit(4))


@pytest.mark.parametrize("group, error, words", [
    ([np.arange(15)], lightsout.InvalidBoardError, "one per cell"),
    ([np.zeros(16, dtype=int)], lightsout.InvalidBoardError, "not a permutation"),
    ([np.arange(16) + 1], lightsout.InvalidBoardError, "not a permutation"),
    ([np.arange(16.0)], lightsout.InvalidTypeError, "integer cell indices"),
    ([np.ones(16, dtype=bool)], lightsout.InvalidTypeError, "integer cell indices"),
    ([np.roll(np.arange(16), 1)], lightsout.InvalidBoardError, "neighbours to neighbours"),
    ("abc", lightsout.InvalidTypeError, "sequence of permutations"),
    (3, lightsout.InvalidTypeError, "sequence of permutations"),
    ([{0: 1}], lightsout.InvalidTypeError, "node labels"),
    (np.arange(16)[::-1], lightsout.InvalidTypeError, "sequence of permutations, got one permutation"),
    (list(range(16)), lightsout.InvalidTypeError, "sequence of permutations, got one permutation"),
    (np.arange(16).reshape(4, 4)[:, ::-1], lightsout.InvalidTypeError, "got one permutation in the board's shape"),
    (np.arange(16).reshape(4, 4).T.tolist(), lightsout.InvalidTypeError, "got one permutation in the board's shape"),
    ({0: 1}, lightsout.InvalidTypeError, "sequence of permutations"),
])
def test_bad_groups_are_refused(square, group, error, words):
    with pytest.raises(error, match=words):
        square.count_up_to_symmetry(group=group)


def test_one_permutation_in_a_list_is_the_group_it_generates(square):
    mirror = np.arange(16).reshape(4, 4)[:, ::-1]
    assert square.count_up_to_symmetry(group=[mirror]) == square.count_up_to_symmetry(group=[mirror.ravel()])
    assert square.count_up_to_symmetry(group=[mirror.ravel().tolist()]) == square.count_up_to_symmetry(group=[mirror])


def test_a_symmetry_that_moves_a_light_is_refused():
    board = np.zeros((3, 3), dtype=np.uint8)
    board[0, 0] = 1
    s = lightsout.solve(board)
    assert s.count_up_to_symmetry() == 1   # the default group keeps the lights: the diagonal mirror only
    with pytest.raises(lightsout.InvalidBoardError, match="moves a light"):
        s.count_up_to_symmetry(group=[np.arange(9).reshape(3, 3)[:, ::-1]])


def test_a_huge_group_is_refused_before_it_is_listed(monkeypatch):
    nx = pytest.importorskip("networkx")
    monkeypatch.setattr(_symmetry, "MAX_GROUP_ORDER", 1000)
    s = lightsout.solve_graph(nx.complete_graph(8))   # 8! = 40,320 automorphisms
    with pytest.raises(lightsout.BoardTooLargeError, match="pass group="):
        s.count_up_to_symmetry()
    assert s.count_up_to_symmetry(group=[{0: 1, 1: 0}]) >= 1
    with pytest.raises(lightsout.BoardTooLargeError, match="pass group="):  # generators of the same group
        s.count_up_to_symmetry(group=[{0: 1, 1: 0}, {v: (v + 1) % 8 for v in range(8)}])


# --- the default group against the symmetries found by action, on every small box ---------------

def action_symmetries(shape, torus, self_toggle):
    """Every axis exchange and reversal that maps the oracle's neighbour sets onto themselves.

    Found by their action on the cells (the press of each cell reaches the images of the cells
    it reached before), with no reference to the torus flags; as flat images, ``image[i]`` =
    where cell i goes.
    """
    ndim, cells = len(shape), int(np.prod(shape))
    sets = oracle.neighbour_sets(shape, torus, self_toggle)
    index = np.arange(cells).reshape(shape)
    found = {}
    for order in itertools.permutations(range(ndim)):
        if any(shape[order[a]] != shape[a] for a in range(ndim)):
            continue
        for flips in itertools.product((False, True), repeat=ndim):
            moved = np.transpose(index, order)
            for axis in range(ndim):
                if flips[axis]:
                    moved = np.flip(moved, axis)
            # moved[c] is the cell that lands on c: invert to "where each cell goes"
            image = np.empty(cells, dtype=np.int64)
            image[moved.ravel()] = np.arange(cells)
            if all({int(image[j]) for j in sets[i]} == sets[int(image[i])] for i in range(cells)):
                found[image.tobytes()] = image
    return list(found.values())


def orbits_of_vectors(solutions, images, lights):
    """Orbits of flat solutions under the images that keep the lights (each image's inverse too)."""
    keep = [g for g in images if np.array_equal(lights[np.argsort(g)], lights)]
    classes = set()
    for x in solutions:
        x = np.asarray(x, dtype=np.int64).ravel()
        best = None
        for g in keep:
            y = np.empty_like(x)
            y[g] = x
            key = y.tobytes()
            best = key if best is None or key < best else best
        classes.add(best)
    return len(classes)


#: The solutions of a board are listed (to count their orbits by brute force) up to this many.
MOST_LISTED = 600


def listed_solutions(shape, torus, self_toggle, states, lights, solution):
    """Every solution: by trying every press vector (oracle) when that is small, else the
    solver's list replayed by the oracle one by one; None when there are too many."""
    sets = oracle.neighbour_sets(shape, torus, self_toggle)
    cells = len(sets)
    if states ** cells <= 1 << 14:
        found, _ = oracle.exhaustive(sets, lights, states)
        assert solution is None or solution.count == len(found)
        return list(found)
    if solution is None or solution.count > MOST_LISTED:
        return None
    listed = [np.asarray(x).astype(np.int64).ravel() for x in solution.all()]
    assert len({x.tobytes() for x in listed}) == len(listed) == solution.count
    for x in listed:
        assert not oracle.replay_sets(sets, lights, x, states).any()
    return listed


def small_boxes(ndim):
    for shape in itertools.product(range(1, 5), repeat=ndim):
        for torus in itertools.product((False, True), repeat=ndim):
            yield shape, torus


@pytest.mark.parametrize("ndim", [1, 2, pytest.param(3, marks=pytest.mark.thorough)])
@pytest.mark.parametrize("states", [2, 3, 4])
def test_default_group_counts_orbits_of_every_small_box(ndim, states):
    # shapes 1..4 per axis, every torus combination, both press rules; the lights: all dark (every
    # symmetry keeps them; the solutions are the quiet patterns), all lit, and one lit cell
    # (the symmetries that keep it). 2 x 2 with torus=(True, False) was counted 2 where 1 is right.
    enumerated = compared = 0
    for shape, torus in small_boxes(ndim):
        cells = int(np.prod(shape))
        for self_toggle in (True, False):
            images = action_symmetries(shape, torus, self_toggle)
            for lights in (np.zeros(cells, np.int64), np.full(cells, states - 1), np.eye(1, cells, 0, np.int64)[0]):
                try:
                    s = lightsout.solve(lights.reshape(shape), torus=torus, self_toggle=self_toggle, states=states)
                except lightsout.UnsolvableError:
                    found = listed_solutions(shape, torus, self_toggle, states, lights, None)
                    assert found is None or len(found) == 0
                    continue
                default = s.count_up_to_symmetry()
                solutions = listed_solutions(shape, torus, self_toggle, states, lights, s)
                if solutions is not None:
                    assert default == orbits_of_vectors(solutions, images, lights), (shape, torus, self_toggle)
                    enumerated += 1
                else:  # too many to list: the same count from the group found by action, given by hand
                    keep = [g for g in images if np.array_equal(lights[np.argsort(g)], lights)]
                    assert default == s.count_up_to_symmetry(group=keep), (shape, torus, self_toggle, lights)
                    compared += 1
    assert enumerated > 4 * compared


def test_the_two_by_two_board_whose_rows_wrap_is_a_square():
    for states in (2, 3, 4):
        lights = np.full((2, 2), 1)
        wrapped = lightsout.solve(lights, torus=(True, False), self_toggle=False, states=states)
        plain = lightsout.solve(lights, self_toggle=False, states=states)
        assert wrapped.count_up_to_symmetry() == plain.count_up_to_symmetry()
        assert wrapped.count_up_to_symmetry() == orbits_of_vectors(
            listed_solutions((2, 2), (True, False), False, states, lights.ravel(), wrapped),
            action_symmetries((2, 2), (True, False), False), lights.ravel())


# --- the board's own group, translations included (lightsout.board_symmetries) ------------------

def _closure_order(generators, cells):
    return len(_closure_brute([tuple(int(v) for v in g) for g in generators], cells))


@pytest.mark.parametrize("shape, torus", [
    ((5,), True), ((6,), False), ((3, 3), True), ((3, 5), True), ((5, 5), True), ((3, 3), (True, False)),
    ((2, 3), True), ((2, 2), (True, False)), ((3, 3, 3), True), ((5, 5), False), ((1, 5), True),
])
def test_board_symmetries_generate_every_automorphism(shape, torus):
    # every automorphism of the board's graph, found vertex by vertex (no code shared with the package)
    cells = int(np.prod(shape))
    sets = oracle.neighbour_sets(shape, torus, False)
    edges = sorted({tuple(sorted((i, j))) for i in range(cells) for j in sets[i]})
    expected = len(graph_automorphisms_brute(cells, edges, np.zeros(cells, dtype=int)))
    generators = lightsout.board_symmetries(shape, torus=torus)
    assert _closure_order(generators, cells) == expected


def test_the_four_by_four_torus_has_more_symmetries_than_it_lists():
    # its graph is the 4-cube's (384 automorphisms); the translations and the square's 8 give 128 of them
    sets = oracle.neighbour_sets((4, 4), True, False)
    edges = sorted({tuple(sorted((i, j))) for i in range(16) for j in sets[i]})
    assert len(graph_automorphisms_brute(16, edges, np.zeros(16, dtype=int))) == 384
    assert _closure_order(lightsout.board_symmetries((4, 4), torus=True), 16) == 128


@pytest.mark.parametrize("shape, torus, states", [((5, 5), True, 2), ((3, 3), True, 2), ((4, 4), True, 3),
                                                  ((6,), True, 3), ((3, 6), True, 2)])
def test_board_symmetries_count_the_orbits_of_a_torus(shape, torus, states):
    cells = int(np.prod(shape))
    lights = np.zeros(cells, dtype=np.int64)    # the dark board: its solutions are the quiet patterns
    s = lightsout.solve(lights.reshape(shape), torus=torus, states=states)
    solutions = listed_solutions(shape, torus, True, states, lights, s)
    assert solutions is not None and len(solutions) == s.count > 1
    group = _closure_brute([tuple(int(v) for v in g) for g in lightsout.board_symmetries(shape, torus=torus)], cells)
    images = [np.array(g) for g in group]
    # every element is a symmetry of the press rule, checked by the oracle's neighbour sets
    sets = oracle.neighbour_sets(shape, torus, True)
    for g in images:
        assert all({int(g[j]) for j in sets[i]} == sets[int(g[i])] for i in range(cells))
    expected = orbits_of_vectors(solutions, images, lights)
    assert s.count_up_to_symmetry(group=lightsout.board_symmetries(shape, torus=torus)) == expected
    assert expected < s.count_up_to_symmetry()     # the translations join more solutions than the box's group


def test_board_symmetries_refuse_a_huge_board_before_listing():
    with pytest.raises(lightsout.BoardTooLargeError, match="pass group="):
        lightsout.board_symmetries((1 << 15, 1 << 15), torus=True)
    with pytest.raises(lightsout.InvalidBoardError, match="torus"):
        lightsout.board_symmetries((3, 3), torus=(True,))
