"""The registry of routes (lightsout/_routes/registry.py): one protocol, the same answers."""
from __future__ import annotations

import numpy as np
import pytest

import lightsout
import lightsout.graph
import oracle
from lightsout._base.errors import BoardTooLargeError, InvalidBoardError
from lightsout._core.graphrules import GraphRules
from lightsout._core.rules import Rules
from lightsout._routes import nd as _ndroute
from lightsout._routes.registry import AUTO_ORDER, METHODS, ROUTES, route_for
from lightsout._solution import solution_from_coset


def test_the_methods_are_the_registry():
    assert lightsout.METHODS == METHODS == ("auto",) + tuple(ROUTES)
    assert all(route.name == name for name, route in ROUTES.items())
    assert [route.name for route in AUTO_ORDER[:4]] == ["poly", "nd", "stencilchase", "general"]
    assert AUTO_ORDER[4].name == "auto"
    graph = GraphRules(np.array([0, 1, 2]), np.array([1, 0], dtype=np.int32))
    assert [name for name, route in ROUTES.items() if route.accepts(graph)] == ["forcing", "elimination"]
    with pytest.warns(DeprecationWarning, match="lightsout.METHODS"):
        assert lightsout.graph.METHODS == ("auto", "forcing", "elimination")


@pytest.mark.parametrize("shape, torus, self_toggle, states", [
    ((4, 5), False, True, 2), ((5, 5), True, True, 2), ((3, 4), False, False, 2), ((4, 4), False, True, 3),
    ((2, 3, 3), (True, False, False), True, 2), ((6,), True, True, 5), ((2, 9), (True, False), True, 2),
])
def test_every_route_that_accepts_a_board_gives_the_same_coset(shape, torus, self_toggle, states):
    rules = Rules.check(shape, torus, self_toggle, states)
    rng = np.random.default_rng(len(shape) * 100 + states)
    sets = oracle.neighbour_sets(shape, torus, self_toggle)
    accepting = [name for name, route in ROUTES.items() if route.accepts(rules)]
    assert ("poly" in accepting) == ("dense" in accepting) == rules.is_plain_grid
    assert {"nd", "forcing", "elimination"} <= set(accepting)
    for _ in range(4):
        lights = rng.integers(0, states, shape)
        lights = lights.astype(bool) if states == 2 else lights.astype(np.uint8)
        answers = []
        for name in accepting:
            route = ROUTES[name]
            found = route.solve(rules, lights)
            assert found.method == name and found.solvable == route.solve(rules, lights, kernel=False).solvable
            assert route.nullity(rules, threads=1) == found.nullity
            if not found.solvable:
                with pytest.raises(lightsout.UnsolvableError):
                    solution_from_coset(found, rules, lights)
                answers.append(None)
                continue
            solution = solution_from_coset(found, rules, lights)
            # replayed by the oracle, cell by cell
            after = oracle.replay_sets(sets, lights.astype(np.int64), solution.presses.astype(np.int64), states)
            assert not np.any(after)
            answers.append(solution.presses.astype(np.int64).ravel().tolist())
        assert all(answer == answers[0] for answer in answers), (accepting, answers)


def test_a_route_refuses_what_it_cannot_take_before_any_work():
    with pytest.raises(InvalidBoardError, match="method 'dense'"):
        lightsout.solve(np.ones((3, 3)), torus=True, method="dense")
    with pytest.raises(BoardTooLargeError, match="dense route.*lightsout.limits.MAX_DENSE_WORD_OPS"):
        ROUTES["dense"].refuse(Rules.of_grid(10**7, 10**7), solving=False)
    with pytest.raises(BoardTooLargeError, match="polynomial scratch.*lightsout.limits.MAX_POLY_BYTES"):
        ROUTES["poly"].refuse(Rules.of_grid(10**11, 10**11), solving=True, board_given=True)
    with pytest.raises(BoardTooLargeError, match="polynomial scratch.*lightsout.limits.MAX_POLY_FIRST_ROW_BYTES"):
        ROUTES["poly"].refuse(Rules.of_grid(10**11, 10**11), solving=True)   # the all-lit board's first row
    with pytest.raises(BoardTooLargeError, match="polynomial scratch.*lightsout.limits.MAX_POLY_NULLITY_BYTES"):
        ROUTES["poly"].refuse(Rules.of_grid(10**11, 10**11), solving=False)
    with pytest.raises(BoardTooLargeError, match="N-D route.*lightsout.limits.MAX_ND_BYTES"):
        ROUTES["nd"].refuse(Rules.of_grid(10**6, 10**6), solving=False)
    for route in ROUTES.values():  # what they take, they take (the general route writes the whole system out)
        if route.name != "general":
            route.refuse(Rules.of_grid(1000, 1000), solving=True, board_given=True)
    ROUTES["general"].refuse(Rules.of_grid(60, 60), solving=True, board_given=True)
    with pytest.raises(BoardTooLargeError, match="general route.*lightsout.limits.MAX_GENERAL_BYTES"):
        ROUTES["general"].refuse(Rules.of_grid(1000, 1000), solving=True, board_given=True)


@pytest.mark.parametrize("shape, torus, self_toggle, states", [
    ((4, 4), False, True, 2), ((5, 5), True, True, 2), ((3, 4), False, False, 2), ((4, 4), False, True, 3),
    ((2, 3, 3), (True, False, False), True, 2), ((6,), True, True, 4), ((5, 4), (False, True), True, 2),
])
def test_every_route_honours_kernel(shape, torus, self_toggle, states):
    """kernel=True: the coset carries a quiet basis (checked by the oracle), and an unsolvable board's proof."""
    rules = Rules.check(shape, torus, self_toggle, states)
    sets = oracle.neighbour_sets(shape, torus, self_toggle)
    cells = rules.cells
    dark = np.zeros(cells, dtype=np.int64)
    quiet = oracle.exhaustive(sets, np.zeros(cells, np.int64), states)[1] if states ** cells <= 1 << 20 else None
    for name, route in ROUTES.items():
        if not route.accepts(rules):
            continue
        found = route.solve(rules, np.zeros(shape, dtype=rules.light_dtype), kernel=True)
        if found.layout == "first_rows":
            rows = found.quiet_first_rows()
            basis = np.array([oracle.chase(np.zeros(shape), row)[0].ravel() for row in rows]).reshape(-1, cells)
        else:
            basis = found.kernel_rows(cells)
        assert len(basis) >= found.nullity, name
        for pattern in basis:
            assert not oracle.replay_sets(sets, dark, pattern.astype(np.int64), states).any(), name
        if quiet is not None:
            assert found.count == quiet, name
        if states == 2:
            assert oracle.rank_mod_prime(basis.astype(np.int64), 2) == found.nullity, name


def test_an_unsolvable_board_carries_its_proof_on_every_vector_route():
    rules = Rules.check((4, 4))
    lights = np.zeros((4, 4), dtype=bool)
    lights[0, 0] = True  # unsolvable: the 4 x 4 board has nullity 4
    for name in ("nd", "forcing", "elimination"):
        found = ROUTES[name].solve(rules, lights)
        assert not found.solvable and found.proof is not None
        proof = found.proof.astype(np.int64)
        assert not oracle.replay_sets(oracle.neighbour_sets((4, 4)), np.zeros(16, np.int64), proof).any()
        assert int(proof @ lights.ravel()) % 2 == 1
        assert ROUTES[name].solve(rules, lights, kernel=False).proof is None  # not sought when not asked


def test_solve_asks_the_nd_route_once_and_keeps_its_quiet_generators(monkeypatch):
    """No second solve of the dark board: the generators come from the coset the route returned."""
    calls = []
    real = _ndroute._solve_u

    def counted(*args, **kwargs):
        calls.append(args[1])
        return real(*args, **kwargs)

    rules = Rules.check((5, 5), torus=True)
    expected = _ndroute.solve_nd(rules, np.zeros((5, 5), np.uint8)).kernel  # what the second solve gave
    monkeypatch.setattr(_ndroute, "_solve_u", counted)
    solution = lightsout.solve(np.ones((5, 5)), torus=True)
    assert len(calls) == 1 and solution.nullity == 8
    assert np.array_equal(solution.quiet_generators, expected)  # the same generators, bit for bit
    assert np.array_equal(solution.quiet_first_rows, expected.reshape(-1, 5, 5)[:, 0])


@pytest.mark.parametrize("method", ["forcing", "elimination"])
def test_the_graph_routes_solve_grids_through_the_public_functions(method):
    rng = np.random.default_rng(11)
    for shape, torus, self_toggle, states in [((5, 5), False, True, 2), ((4, 6), True, True, 2),
                                              ((3, 3, 2), False, False, 2), ((4, 4), (True, False), True, 3)]:
        sets = oracle.neighbour_sets(shape, torus, self_toggle)
        kwargs = {"torus": torus, "self_toggle": self_toggle, "states": states}
        for _ in range(3):
            lights = rng.integers(0, states, shape)
            if not lightsout.is_solvable(lights, method=method, **kwargs):
                assert not lightsout.is_solvable(lights, **kwargs)
                continue
            ours, auto = lightsout.solve(lights, method=method, **kwargs), lightsout.solve(lights, **kwargs)
            assert ours.method == method and ours.rules == auto.rules
            assert not oracle.replay_sets(sets, lights.ravel(), ours.presses.astype(np.int64).ravel(), states).any()
            assert np.array_equal(ours.presses, auto.presses)  # the canonical one
            assert np.array_equal(ours.quiet_patterns(), auto.quiet_patterns()) or states > 2 or \
                oracle.rank_mod_prime(np.concatenate([ours.quiet_patterns(), auto.quiet_patterns()]).reshape(
                    2 * ours.nullity, -1).astype(np.int64), 2) == ours.nullity  # the same quiet space
        assert lightsout.nullity(shape, method=method, torus=torus, self_toggle=self_toggle, states=states) == \
            lightsout.nullity(shape, torus=torus, self_toggle=self_toggle, states=states)


def test_a_graph_is_refused_by_the_grid_routes_saying_which_take_it():
    with pytest.raises(InvalidBoardError, match=r"method 'nd' solves grid boards of the plus rule or the sigma game without masks only; this board \(a 3-vertex "
                                                r"graph.*needs method='auto', 'forcing' or 'elimination'"):
        lightsout.solve_graph([(0, 1), (1, 2)], method="nd")
    graph = GraphRules(np.array([0, 1, 3, 4]), np.array([1, 0, 2, 1], dtype=np.int32))
    assert route_for("auto", graph).name == "auto"
def test_the_dense_route_counts_a_given_wide_board_s_transposed_copy():
    wide = Rules.of_grid(200, 500_000_000)  # the all-lit board is never built; a given one is copied transposed
    ROUTES["dense"].refuse(wide, solving=True)
    with pytest.raises(BoardTooLargeError, match="GiB.*lightsout.limits.MAX_DENSE_BYTES"):
        ROUTES["dense"].refuse(wide, solving=True, board_given=True)


def test_the_nd_route_refuses_a_whole_pattern_only_when_it_builds_one():
    rules = Rules.of_grid(50_000, 50_000, self_toggle=False)   # a small system, a 2.5e9-cell pattern
    ROUTES["nd"].refuse(rules, solving=False)
    with pytest.raises(BoardTooLargeError, match="press pattern"):
        ROUTES["nd"].refuse(rules, solving=True)


class _Watched:
    """A route that counts the entry points' questions and fails if it is asked to work after a refusal."""

    def __init__(self, route, refuse: bool) -> None:
        self.route, self.refusing = route, refuse
        self.asked: list[tuple[bool, bool]] = []
        self.name = route.name

    def accepts(self, rules):
        return self.route.accepts(rules)

    def refuse(self, rules, *, solving, board_given=False):
        self.asked.append((solving, board_given))
        if self.refusing:
            raise BoardTooLargeError("refused by the test")

    def nullity(self, rules, **kwargs):
        assert not self.refusing, "worked after refusing"
        return self.route.nullity(rules, **kwargs)

    def solve(self, rules, lights, words=None, **kwargs):
        assert not self.refusing, "worked after refusing"
        return self.route.solve(rules, lights, words, **kwargs)


@pytest.mark.parametrize("name", list(ROUTES))
def test_every_entry_point_asks_its_route_once_before_any_work(monkeypatch, name):
    calls = {
        "first_row": (lambda: lightsout.first_row(5, method=name), (True, False)),
        "nullity": (lambda: lightsout.nullity(5, method=name), (False, False)),
        "solve": (lambda: lightsout.solve(np.ones((5, 5), np.uint8), method=name), (True, True)),
        "solve_list": (lambda: lightsout.solve([[1] * 5] * 5, method=name), (True, True)),
        "is_solvable": (lambda: lightsout.is_solvable(np.ones((5, 5)), method=name), (True, True)),
    }
    route = ROUTES[name]
    for call, asked in calls.values():
        for refusing in (False, True):
            watched = _Watched(route, refusing)
            monkeypatch.setitem(ROUTES, name, watched)
            if refusing:
                with pytest.raises(BoardTooLargeError, match="refused by the test"):
                    call()
            else:
                call()
            assert watched.asked == [asked]


def test_a_numpy_board_is_refused_from_its_shape_before_its_values_are_read():
    # a board of 2**32 cells that is a view of one byte: the route refuses it before any copy is made
    board = np.broadcast_to(np.uint8(1), (2,) * 32)
    with pytest.raises(BoardTooLargeError, match="lightsout.limits.MAX_ND_BYTES"):
        lightsout.solve(board)
    with pytest.raises(BoardTooLargeError, match="lightsout.limits.MAX_ND_BYTES"):
        lightsout.is_solvable(board)
    # and a wrong value is still named by the board's own check where the route takes the board
    with pytest.raises(InvalidBoardError, match="states="):
        lightsout.solve(np.full((3, 3), 2, np.uint8))
