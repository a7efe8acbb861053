"""Boards of any shape through the public API: N-D grids, wrap-around axes, the sigma rule, k states.

Every answer is checked against tests/oracle.py (plain loops that share no
code with the package): exhaustive search over every press vector where that
is small, ranks mod p and replaying the presses otherwise.
"""
from __future__ import annotations

import itertools
import math

import numpy as np
import pytest

import lightsout
import oracle
from lightsout import InvalidBoardError, InvalidTypeError, UnsolvableError

#: Enumerate every press vector only below this many (states**cells).
EXHAUSTIVE_LIMIT = 70_000


def shapes_up_to(cells: int, max_axes: int = 4):
    """Every shape of 1..max_axes axes with at most ``cells`` cells (axes of length 1 included)."""
    out = []
    for ndim in range(1, max_axes + 1):
        for shape in itertools.product(range(1, cells + 1), repeat=ndim):
            if math.prod(shape) <= cells:
                out.append(shape)
    return out


def torus_choices(shape):
    """Open, all-wrapping, and (for 2+ axes) one mixed choice per axis."""
    choices = [(False,) * len(shape), (True,) * len(shape)]
    if len(shape) > 1:
        choices.append(tuple(i == len(shape) - 1 for i in range(len(shape))))
    return choices


def check_against_exhaustive(shape, torus, self_toggle, states, board, vectors, effect):
    """solve / is_solvable / count / canonical presses / the proof, against every press vector."""
    flat = board.ravel().astype(np.int64)
    solutions = vectors[((effect + flat) % states == 0).all(axis=1)]
    quiet = int((effect == 0).all(axis=1).sum())
    keywords = dict(torus=torus, self_toggle=self_toggle, states=states)
    assert lightsout.is_solvable(board, **keywords) == bool(len(solutions))
    if len(solutions):
        s = lightsout.solve(board, **keywords)
        assert s.count == quiet == len(solutions)
        assert s.presses.astype(np.int64).ravel().tolist() == solutions[0].tolist()  # lexicographically smallest
        sets = oracle.neighbour_sets(shape, torus, self_toggle)
        assert not oracle.replay_sets(sets, board, s.presses, states).any()
        return
    with pytest.raises(UnsolvableError) as info:
        lightsout.solve(board, **keywords)
    proof = np.asarray(info.value.quiet_pattern, dtype=np.int64)
    sets = oracle.neighbour_sets(shape, torus, self_toggle)
    assert not oracle.replay_sets(sets, np.zeros(len(sets), int), proof, states).any()  # quiet
    assert int(proof.ravel() @ flat) % states != 0  # and it meets the board


#: Boards with more start states than this sweep in the thorough suite (pytest -m thorough).
QUICK_LIMIT = 4096


def _case(shape, torus, self_toggle, states):
    if states ** math.prod(shape) <= QUICK_LIMIT:
        return (shape, torus, self_toggle, states)
    return pytest.param(shape, torus, self_toggle, states, marks=pytest.mark.thorough)


CASES = [
    _case(shape, torus, self_toggle, states)
    for states in (2, 3, 4, 5, 6)
    for shape in shapes_up_to(16)
    if states ** math.prod(shape) <= EXHAUSTIVE_LIMIT
    for torus in torus_choices(shape)
    for self_toggle in (True, False)
]


@pytest.mark.parametrize("shape,torus,self_toggle,states", CASES, ids=str)
def test_every_small_board_matches_exhaustive_search(shape, torus, self_toggle, states):
    sets = oracle.neighbour_sets(shape, torus, self_toggle)
    effect_matrix = oracle.effect_matrix(sets)
    vectors = oracle.all_press_vectors(len(sets), states)
    effect = oracle.all_effects(sets, states)
    rng = np.random.default_rng(hash((shape, torus, self_toggle, states)) % 2**32)
    boards = [np.ones(shape, dtype=np.int64), rng.integers(0, states, size=shape)]
    for board in boards:
        check_against_exhaustive(shape, torus, self_toggle, states, board, vectors, effect)
    nullity = lightsout.nullity(shape, torus=torus, self_toggle=self_toggle, states=states)
    primes = [p for p in (2, 3, 5) if states % p == 0]
    assert nullity == max(len(sets) - oracle.rank_mod_prime(effect_matrix, p) for p in primes)


@pytest.mark.parametrize("states", [2, 3, 5, 7])
@pytest.mark.parametrize("torus", [False, True])
@pytest.mark.parametrize("self_toggle", [True, False])
def test_nullity_over_gf_p_matches_the_rank_of_the_press_matrix(states, torus, self_toggle):
    for n in range(1, 9):
        for m in (n, n + 1):
            sets = oracle.neighbour_sets((n, m), torus, self_toggle)
            expected = len(sets) - oracle.rank_mod_prime(oracle.effect_matrix(sets), states)
            got = lightsout.nullity(n, m, torus=torus, self_toggle=self_toggle, states=states)
            assert got == expected, (n, m)


def test_the_3_by_3_by_3_by_3_hypercube_has_one_solution_of_41_presses():
    s = lightsout.solve(np.ones((3, 3, 3, 3), dtype=np.uint8))
    assert s.count == 1 and int(s.presses.sum()) == 41
    assert not oracle.replay_nd(np.ones((3,) * 4, int), s.presses).any()


@pytest.mark.parametrize("shape,torus,self_toggle,states", [
    ((6, 7, 5), False, True, 2), ((20, 20), True, True, 3), ((4, 5, 6), (True, False, True), False, 2),
    ((30, 31), False, True, 6), ((9, 8), True, False, 4), ((1000,), False, True, 5), ((2, 3, 2, 3, 2), True, True, 2),
])
def test_larger_random_boards_replay_dark(shape, torus, self_toggle, states):
    rng = np.random.default_rng(7)
    keywords = dict(torus=torus, self_toggle=self_toggle, states=states)
    for _ in range(3):
        board = rng.integers(0, states, size=shape)
        try:
            s = lightsout.solve(board, **keywords)
        except UnsolvableError as exc:
            proof = np.asarray(exc.quiet_pattern, dtype=np.int64)
            assert proof.any() and not oracle.replay_nd(np.zeros(shape, int), proof, **keywords).any()
            assert int(proof.ravel() @ board.ravel()) % states
            continue
        assert not oracle.replay_nd(board, s.presses, **keywords).any()
        assert s.verify()
        for pattern in s.quiet_patterns():
            assert not oracle.replay_nd(np.zeros(shape, int), pattern, **keywords).any()


def test_two_state_open_grids_agree_across_routes():
    rng = np.random.default_rng(3)
    for _ in range(40):
        n, m = rng.integers(1, 12, size=2)
        board = rng.integers(0, 2, size=(n, m))
        routes = {}
        for method in ("poly", "dense", "nd"):
            try:
                routes[method] = lightsout.solve(board, method=method).presses
            except UnsolvableError:
                routes[method] = None
        assert all((v is None) == (routes["poly"] is None) for v in routes.values())
        if routes["poly"] is not None:
            assert np.array_equal(routes["poly"], routes["nd"]) and np.array_equal(routes["poly"], routes["dense"])
        assert lightsout.nullity(int(n), int(m), method="nd") == lightsout.nullity(int(n), int(m))


@pytest.mark.thorough
def test_solvable_start_states_number_k_to_the_cells_over_the_quiet_count():
    # The presses form a group acting on boards; the solvable boards are its image.
    for shape, states in (((2, 3), 4), ((2, 2), 6), ((5,), 6), ((2, 2, 2), 2), ((1, 6), 3)):
        total = states ** math.prod(shape)
        solvable = sum(lightsout.is_solvable(np.array(b).reshape(shape), states=states)
                       for b in itertools.product(range(states), repeat=math.prod(shape)))
        quiet = lightsout.solve(np.zeros(shape, int), states=states).count
        assert solvable * quiet == total


def test_press_list_is_row_major_with_counts_for_k_states():
    s = lightsout.solve(np.ones((3, 3), int))
    assert s.press_list() == [tuple(int(i) for i in c) for c in np.argwhere(s.presses)]
    board = (3 - lightsout.press(np.zeros((3, 4), int), [[1, 2, 0, 1], [0, 0, 2, 1], [1, 1, 0, 0]], states=3)) % 3
    s3 = lightsout.solve(board, states=3)
    listed = s3.press_list()
    assert [cell for cell, _ in listed] == sorted(cell for cell, _ in listed)
    rebuilt = np.zeros((3, 4), int)
    for cell, count in listed:
        assert 1 <= count <= 2
        rebuilt[cell] = count
    assert np.array_equal(rebuilt, s3.presses)


def test_text_boards_and_nested_lists():
    assert np.array_equal(lightsout.solve("*.*\n.*.\n*.*").presses, lightsout.solve([[1, 0, 1], [0, 1, 0], [1, 0, 1]]).presses)
    s = lightsout.solve("210\n021\n102", states=3)
    assert not oracle.replay_nd([[2, 1, 0], [0, 2, 1], [1, 0, 2]], s.presses, states=3).any()


def test_first_row_keywords_and_all_lit_unsolvable_sigma_boards():
    for n in range(1, 7):
        row = lightsout.first_row(n, torus=True)
        full = lightsout.solve(np.ones((n, n), int), torus=True).presses
        assert np.array_equal(row, full[0])
    row3 = lightsout.first_row(4, 5, states=3)
    assert row3.dtype == np.uint8 and np.array_equal(row3, lightsout.solve(np.ones((4, 5), int), states=3).presses[0])
    sets = oracle.neighbour_sets((2, 2), False, False)
    solvable = len(oracle.exhaustive(sets, np.ones(4, int))[0]) > 0
    if not solvable:
        with pytest.raises(UnsolvableError):
            lightsout.first_row(2, self_toggle=False)


def test_chase_along_axis_0_on_any_board():
    rng = np.random.default_rng(5)
    board = rng.integers(0, 3, size=(4, 3, 2))
    first = rng.integers(0, 3, size=(3, 2))
    presses = lightsout.chase(board, first, states=3)
    assert np.array_equal(presses[0], first)
    after = oracle.replay_nd(board, presses, states=3)
    assert not after[:-1].any()  # every slice but the last ends dark
    wrapped = lightsout.chase(np.ones((5, 3), int), np.zeros((2, 3), int), torus=True)
    after = oracle.replay_nd(np.ones((5, 3), int), wrapped, torus=True)
    assert not after[1:-1].any()
    with pytest.raises(InvalidBoardError, match="rows 0 and 1"):
        lightsout.chase(np.ones((5, 3), int), np.zeros(3, int), torus=True)


def test_press_with_rules_matches_the_oracle():
    rng = np.random.default_rng(11)
    for shape in ((5,), (1, 4), (2, 3), (3, 1, 4), (2, 2, 2, 2)):
        for torus in torus_choices(shape):
            for self_toggle in (True, False):
                for states in (2, 3, 7):
                    board = rng.integers(0, states, size=shape)
                    presses = rng.integers(0, states, size=shape)
                    got = lightsout.press(board, presses, torus=torus, self_toggle=self_toggle, states=states)
                    want = oracle.replay_nd(board, presses, torus, self_toggle, states)
                    assert np.array_equal(got.astype(np.int64), want)


@pytest.mark.parametrize("call", [
    lambda: lightsout.solve([[1, 3]], states=3),
    lambda: lightsout.solve([[1, 0]], torus=(True,)),
    lambda: lightsout.solve([[1, 0]], states=1),
    lambda: lightsout.solve([[1, 0]], states=256),
    lambda: lightsout.solve([[1, 0.5]], states=3),
    lambda: lightsout.solve([[1, -1]], states=3),
    lambda: lightsout.solve(5),
    lambda: lightsout.solve([[1, 0]], self_toggle=False, method="poly"),
    lambda: lightsout.solve("12\n3", states=3),
    lambda: lightsout.nullity((3, 3), 3),
    lambda: lightsout.nullity((3, 0)),
    lambda: lightsout.parse_board("1 2\n3 y", states=12),
])
def test_bad_rules_and_values_raise_invalid_board(call):
    with pytest.raises(InvalidBoardError):
        call()


@pytest.mark.parametrize("call", [
    lambda: lightsout.solve([[1, 0]], states="3"),  # type: ignore[arg-type]
    lambda: lightsout.solve([[1, 0]], states=True),  # type: ignore[arg-type]
    lambda: lightsout.solve([[1, 0]], self_toggle=1),  # type: ignore[arg-type]
    lambda: lightsout.solve([[1, 0]], torus="yes"),  # type: ignore[arg-type]
    lambda: lightsout.solve([[1, 0]], torus=(1, 0)),  # type: ignore[arg-type]
    lambda: lightsout.nullity((3, "3")),  # type: ignore[arg-type]
])
def test_bad_rule_types_raise_invalid_type(call):
    with pytest.raises(InvalidTypeError):
        call()


def test_parse_board_reads_k_state_digits_and_names_the_cell():
    assert lightsout.parse_board("0 1 2\n2 . #", states=3).tolist() == [[0, 1, 2], [2, 0, 1]]
    assert lightsout.parse_board("10 200\n. 3", states=201).tolist() == [[10, 200], [0, 3]]
    with pytest.raises(InvalidBoardError, match="line 2, cell 3: light state 3"):
        lightsout.parse_board("012\n013", states=3)
    board = np.array([[0, 11], [3, 1]])
    assert np.array_equal(lightsout.parse_board(lightsout.format_board(board, states=12), states=12), board)
    board = np.array([[0, 2, 1]])
    assert np.array_equal(lightsout.parse_board(lightsout.format_board(board, states=3), states=3), board)


def test_solution_pickles_and_has_a_short_repr():
    import pickle

    s = lightsout.solve(np.ones((3, 4), int), torus=True, states=3)
    again = pickle.loads(pickle.dumps(s))
    assert np.array_equal(again.presses, s.presses) and again.count == s.count
    assert "states=3" in repr(s) and "torus=True" in repr(s) and len(repr(s)) < 120


def test_grid_routes_and_the_graph_route_agree_on_boards_written_as_graphs():
    # Hundreds of random boards: the same board as a grid (solve) and as an edge list (solve_graph).
    rng = np.random.default_rng(20261122)
    for _ in range(300):
        ndim = int(rng.integers(1, 5))
        shape = tuple(int(s) for s in rng.integers(1, 6, size=ndim))
        while math.prod(shape) > 150:
            shape = shape[:-1] or (int(rng.integers(1, 20)),)
        torus = tuple(bool(t) for t in rng.integers(0, 2, size=len(shape)))
        self_toggle = bool(rng.integers(0, 2))
        states = int(rng.choice([2, 2, 3, 4, 5, 6, 7, 9]))
        board = rng.integers(0, states, size=shape)
        sets = oracle.neighbour_sets(shape, torus, self_toggle)
        edges = sorted({(min(i, j), max(i, j)) for i, hit in enumerate(sets) for j in hit if i != j})
        keywords = dict(self_toggle=self_toggle, states=states)
        try:
            grid = lightsout.solve(board, torus=torus, **keywords)
        except UnsolvableError:
            grid = None
        try:
            graph = lightsout.solve_graph(edges, board.ravel(), nvertices=board.size, **keywords)
        except UnsolvableError:
            graph = None
        assert (grid is None) == (graph is None), (shape, torus, self_toggle, states)
        if grid is not None and graph is not None:
            assert np.array_equal(grid.presses.ravel(), graph.presses), (shape, torus, self_toggle, states)
            assert grid.count == graph.count and grid.nullity == graph.nullity
        assert lightsout.nullity(shape, torus=torus, **keywords) == (
            grid.nullity if grid is not None else lightsout.solve(np.zeros(shape, int), torus=torus, **keywords).nullity)


#: OEIS A165738, "Rank deficiency (= dimension of the null space) of the n X n Lights Out
#: puzzle on a torus", n = 1..90 (Alekseyev and Buchholz), read from the OEIS entry.
OEIS_A165738 = [
    0, 0, 4, 0, 8, 8, 0, 0, 4, 16, 0, 16, 0, 0, 12, 0, 16, 8, 0, 32, 4, 0, 0, 32, 8, 0, 4, 0, 0, 24, 40, 0, 44, 32,
    8, 16, 0, 0, 4, 64, 0, 8, 0, 0, 12, 0, 0, 64, 0, 16, 20, 0, 0, 8, 8, 0, 4, 0, 0, 48, 0, 80, 52, 0, 56, 88, 0,
    64, 4, 16, 0, 32, 0, 0, 12, 0, 0, 8, 0, 128, 4, 0, 0, 16, 24, 0, 4, 0, 0, 24,
]


def test_torus_nullities_match_the_published_table():
    assert [lightsout.nullity(n, torus=True) for n in range(1, 91)] == OEIS_A165738


@pytest.mark.parametrize("shape,torus,self_toggle,states", [
    ((5, 5), False, True, 2), ((4, 4), False, True, 2), ((3, 3), True, True, 2), ((2, 3), False, True, 4),
    ((3, 4), False, True, 6), ((1, 5), True, False, 2), ((2, 2, 2), False, False, 3), ((4,), True, True, 9),
    ((6,), False, False, 4),
])
def test_all_yields_every_solution_once(shape, torus, self_toggle, states):
    sets = oracle.neighbour_sets(shape, torus, self_toggle)
    rng = np.random.default_rng(1)
    # A solvable board: the lights that random presses leave, negated.
    board = (-oracle.replay_sets(sets, np.zeros(len(sets), int), rng.integers(0, states, len(sets)), states)) % states
    board = board.reshape(shape)
    s = lightsout.solve(board, torus=torus, self_toggle=self_toggle, states=states)
    found = [tuple(int(v) for v in x.ravel()) for x in s.all()]
    assert len(found) == len(set(found)) == s.count
    if states ** len(sets) <= EXHAUSTIVE_LIMIT:
        solutions, _ = oracle.exhaustive(sets, board.ravel(), states)
        assert set(found) == {tuple(int(v) for v in row) for row in solutions}
    for x in found:
        assert not oracle.replay_sets(sets, board, x, states).any()
