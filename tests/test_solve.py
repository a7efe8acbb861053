"""Public solving API: first_row, nullity, solve, is_solvable, checked against the oracle."""
from __future__ import annotations

import dataclasses
import pickle
import threading

import numpy as np
import pytest

import oracle
import lightsout
from lightsout import BoardTooLargeError, InvalidBoardError, InvalidTypeError, UnsolvableError

ROUTES = ("poly", "dense")
#: Published n x n nullities for n = 1..20 (Sutner; Anderson and Feil).
PUBLISHED_NULLITY = [0, 0, 0, 4, 2, 0, 0, 0, 8, 0, 6, 0, 0, 4, 0, 8, 2, 0, 16, 0]


@pytest.mark.parametrize("method", ROUTES)
def test_published_nullities(method):
    assert [lightsout.nullity(n, method=method) for n in range(1, 21)] == PUBLISHED_NULLITY


def test_nullity_table_matches_single_calls():
    table = lightsout.nullity_table(120)
    assert table.tolist()[:20] == PUBLISHED_NULLITY
    assert [lightsout.nullity(n, method="dense") for n in range(1, 121)] == table.tolist()


@pytest.mark.parametrize("method", ROUTES)
def test_nullity_matches_full_matrix_rank(method):
    for rows in range(1, 9):
        for cols in range(1, 9):
            assert lightsout.nullity(rows, cols, method=method) == oracle.nullity(rows, cols), (rows, cols)


@pytest.mark.parametrize("method", ROUTES)
def test_first_row_three_by_three(method):
    assert lightsout.first_row(3, method=method).astype(int).tolist() == [1, 0, 1]


@pytest.mark.parametrize("method", ROUTES)
def test_all_lit_up_to_twelve_columns_agrees_with_exhaustive_search(method):
    """Every all-lit board with at most 12 columns (and up to 12 rows): exhaustive search decides."""
    for cols in range(1, 13):
        for rows in range(1, 13):
            solutions = oracle.solving_first_rows(np.ones((rows, cols), dtype=bool))
            if len(solutions) == 0:
                with pytest.raises(UnsolvableError):
                    lightsout.first_row(rows, cols, method=method)
                continue
            row = lightsout.first_row(rows, cols, method=method)
            # Canonical choice: the lexicographically smallest solving first row.
            assert row.tolist() == solutions[0].tolist(), (rows, cols)
            assert len(solutions) == 2 ** lightsout.nullity(rows, cols, method=method)


def test_routes_agree_on_every_square_up_to_400():
    for n in range(1, 401):
        poly = lightsout.first_row(n)
        dense = lightsout.first_row(n, method="dense")
        assert np.array_equal(poly, dense), n
        presses, lights = oracle.chase_fast(np.ones((n, n), dtype=bool), [poly])
        assert not lights.any(), n
        assert not oracle.replay_fast(np.ones((n, n), dtype=bool), presses[0]).any(), n


@pytest.mark.parametrize("n", [5, 64, 65, 127, 300])
def test_first_row_clears_its_board_when_replayed_cell_by_cell(n):
    presses, _ = oracle.chase(np.ones((n, n), dtype=np.uint8), lightsout.first_row(n)) if n <= 65 else \
        oracle.chase_fast(np.ones((n, n), dtype=bool), [lightsout.first_row(n)])
    presses = presses if presses.ndim == 2 else presses[0]
    assert oracle.clears(np.ones((n, n), dtype=np.uint8), presses)


def test_rectangular_first_rows_both_orientations():
    for rows, cols in [(3, 7), (7, 3), (1, 5), (5, 1), (2, 100), (100, 2), (40, 130), (130, 40)]:
        solutions = None
        try:
            row = lightsout.first_row(rows, cols)
        except UnsolvableError as exc:
            assert exc.quiet_pattern is not None
            assert not oracle.replay_fast(np.zeros((rows, cols), bool), exc.quiet_pattern).any()
            assert np.count_nonzero(exc.quiet_pattern) % 2 == 1
            assert lightsout.nullity(rows, cols) > 0
            continue
        assert np.array_equal(row, lightsout.first_row(rows, cols, method="dense"))
        presses, lights = oracle.chase_fast(np.ones((rows, cols), bool), [row])
        assert not lights.any(), (rows, cols, solutions)


def _random_board(rng, max_side=24):
    rows, cols = rng.integers(1, max_side + 1, size=2)
    return rng.random((rows, cols)) < rng.uniform(0.1, 0.9)


def test_two_thousand_random_boards_both_routes_agree(rng):
    solvable_seen = unsolvable_seen = 0
    for _ in range(2000):
        board = _random_board(rng)
        results = {}
        for method in ROUTES:
            try:
                results[method] = lightsout.solve(board, method=method)
            except UnsolvableError as exc:
                results[method] = exc
        poly, dense = results["poly"], results["dense"]
        assert type(poly) is type(dense)
        assert poly.nullity == dense.nullity
        if isinstance(poly, lightsout.Solution):
            solvable_seen += 1
            assert np.array_equal(poly.presses, dense.presses)
            assert not oracle.replay_fast(board, poly.presses).any()
        else:
            unsolvable_seen += 1
            for error in (poly, dense):
                assert not oracle.replay_fast(np.zeros_like(board), error.quiet_pattern).any()
                assert np.count_nonzero(error.quiet_pattern & board) % 2 == 1
    assert solvable_seen > 100 and unsolvable_seen > 100


def test_solve_small_boards_against_exhaustive_search(rng):
    for _ in range(300):
        board = _random_board(rng, max_side=9)
        solutions = oracle.solving_first_rows(board)
        assert lightsout.is_solvable(board) == (len(solutions) > 0)
        assert lightsout.is_solvable(board, method="dense") == (len(solutions) > 0)
        if len(solutions) == 0:
            with pytest.raises(UnsolvableError):
                lightsout.solve(board)
            continue
        s = lightsout.solve(board)
        assert s.count == len(solutions)
        assert s.first_row.tolist() == solutions[0].tolist()
        assert s.verify() and oracle.clears(board.astype(np.uint8), s.presses)


def test_solution_quiet_patterns_form_a_basis():
    for n in (4, 5, 9, 11, 16):
        board = np.ones((n, n), dtype=bool)
        s = lightsout.solve(board)
        patterns = s.quiet_patterns()
        assert patterns.shape == (s.nullity, n, n)
        for pattern in patterns:
            assert pattern.any()
            assert not oracle.replay_fast(np.zeros((n, n), bool), pattern).any()
        assert oracle.gf2_rank(patterns.reshape(s.nullity, -1).astype(np.uint8)) == s.nullity
        assert s.count == 2**s.nullity and isinstance(s.count, int)


def test_solution_count_is_an_exact_int():
    s = lightsout.solve(np.ones((19, 19), dtype=bool))
    assert s.count == 2**16 and type(s.count) is int


def test_verify_detects_a_wrong_solution():
    s = lightsout.solve(np.ones((3, 3), dtype=bool))
    broken = lightsout.Solution(s.board, ~s.presses, s.nullity, s.method, s.quiet_first_rows)
    assert s.verify() and not broken.verify()


def test_five_by_five_minimum_is_fifteen():
    best = min(int(p.sum()) for p in oracle.chase_fast(np.ones((5, 5), bool),
                                                       oracle.solving_first_rows(np.ones((5, 5))))[0])
    assert best == 15
    s = lightsout.solve(np.ones((5, 5), dtype=bool))
    assert s.count == 4 and s.nullity == 2


@pytest.mark.parametrize("bad", [0, -3, 2.5, "5", None, True, np.bool_(True), [5]])
def test_first_row_rejects_bad_sizes(bad):
    with pytest.raises((InvalidBoardError, InvalidTypeError)) as info:
        lightsout.first_row(bad)
    assert "n must be a positive int" in str(info.value)


def test_first_row_rejects_bad_second_size_and_method():
    with pytest.raises(InvalidBoardError):
        lightsout.first_row(5, 0)
    with pytest.raises(InvalidBoardError, match="unknown method"):
        lightsout.first_row(5, method="gauss")
    with pytest.raises(InvalidTypeError):
        lightsout.first_row(5, method=None)
    with pytest.raises(InvalidBoardError):
        lightsout.first_row(5, threads=0)


def test_sizes_that_cannot_fit_are_refused_not_attempted():
    with pytest.raises(BoardTooLargeError, match="word operations"):
        lightsout.first_row(10**6, method="dense")
    with pytest.raises(BoardTooLargeError):
        lightsout.first_row(10**12)
    with pytest.raises(BoardTooLargeError):
        lightsout.nullity(10**12)
    with pytest.raises(MemoryError):  # BoardTooLargeError is also a MemoryError
        lightsout.nullity(3, 10**12)


@pytest.mark.parametrize("bad", [
    [[1, 2], [0, 1]], [[1, 0], [1]], np.zeros(()), 7, [[]], "1a1", "", [["a", "b"]], np.zeros((0, 3)),
    np.zeros((2, 0, 2)),
])
def test_solve_rejects_bad_boards(bad):
    with pytest.raises((InvalidBoardError, InvalidTypeError)):
        lightsout.solve(bad)


def test_unsolvable_error_is_a_value_error_with_a_clear_message():
    with pytest.raises(ValueError, match="cannot be turned dark"):
        lightsout.solve([[1, 0, 0, 0]] * 4)


def test_calls_from_several_threads_agree_with_serial():
    sizes = [97, 130, 200, 257]
    expected = {n: lightsout.first_row(n) for n in sizes}
    errors: list[BaseException] = []

    def work(n, method):
        try:
            for _ in range(3):
                assert np.array_equal(lightsout.first_row(n, method=method), expected[n])
        except BaseException as exc:  # pragma: no cover - reported below
            errors.append(exc)

    threads = [threading.Thread(target=work, args=(n, m)) for n in sizes for m in ROUTES]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors, errors


# --- Solution.rules: one frozen value, the loose names read from it -------------------------------

def _solutions():
    return [lightsout.solve(np.ones((4, 5)), torus=(True, False)),
            lightsout.solve(np.ones((3, 3, 3)), self_toggle=False, states=3) if lightsout.is_solvable(
                np.ones((3, 3, 3)), self_toggle=False, states=3) else lightsout.solve(np.ones((3, 3, 3)), states=3),
            lightsout.solve(np.ones((300, 300), dtype=bool)),  # kept packed until read
            lightsout.solve_graph([(0, 1), (1, 2), (2, 0), (2, 3)])]  # all lit, plus rule: solvable (Sutner)


def test_solution_rules_is_the_frozen_value_and_the_loose_names_read_it():
    from lightsout._core.graphrules import GraphRules
    from lightsout._core.rules import Rules

    grid, cube, big, graph = _solutions()
    assert grid.rules == Rules((4, 5), (True, False), True, 2)
    assert (grid.torus, grid.self_toggle, grid.states, grid.adjacency) == ((True, False), True, 2, None)
    assert cube.rules.shape == (3, 3, 3) and cube.states == 3 and cube.torus == (False,) * 3
    assert big.rules == Rules((300, 300), (False, False), True, 2)
    assert isinstance(graph.rules, GraphRules) and graph.is_graph and graph.torus == ()
    indptr, indices = graph.adjacency
    assert indptr.tolist() == [0, 2, 4, 7, 8] and sorted(indices[4:7].tolist()) == [0, 1, 3]
    with pytest.raises(dataclasses.FrozenInstanceError):
        grid.rules = Rules((4, 5), (False, False))  # type: ignore[misc]


def test_a_solution_pickles_with_its_rules():
    for solution in _solutions():
        clone = pickle.loads(pickle.dumps(solution))
        assert clone.rules == solution.rules and clone.rules is not solution.rules
        assert (clone.torus, clone.self_toggle, clone.states) == (solution.torus, solution.self_toggle,
                                                                  solution.states)
        assert np.array_equal(clone.presses, solution.presses) and np.array_equal(clone.board, solution.board)
        assert repr(clone) == repr(solution) and clone.verify() and clone.count == solution.count
        assert np.array_equal(clone.quiet_patterns(), solution.quiet_patterns())


def test_a_solution_keeps_its_rules_through_replace_and_minimal():
    grid = lightsout.solve(np.ones((5, 5)), torus=True)
    assert dataclasses.replace(grid, proven_minimal=True).rules is grid.rules
    assert grid.minimal(threads=1).rules == grid.rules


def test_the_constructor_still_takes_the_rules_loose():
    from lightsout._core.rules import Rules

    board = np.ones((3, 3), dtype=bool)
    presses = lightsout.solve(board).presses
    old = lightsout.Solution(board, presses, 0, "poly", np.zeros((0, 3), bool), 2, (False, False), True)
    assert old.rules == Rules((3, 3), (False, False), True, 2) and old.verify()
    sets = oracle.neighbour_sets((6,), True, True)
    ring = oracle.replay_sets(sets, np.zeros(6, np.int64), np.array([1, 2, 0, 0, 1, 1]), 3).astype(np.uint8)
    s = lightsout.solve(ring, torus=True, states=3)  # the effect of some presses: solvable
    loose = lightsout.Solution(ring, s.presses, s.nullity, "nd", s.quiet_first_rows, 3, True, True)
    assert loose.rules == s.rules and loose.verify()
    g = lightsout.solve_graph([(0, 1), (1, 2)])
    as_before = lightsout.Solution(g.board, g.presses, 0, "forcing", None, 2, (), True, None, 1, None, g.adjacency)
    assert as_before.rules == g.rules and as_before.is_graph and as_before.verify()
    with pytest.raises(InvalidTypeError, match="not both"):
        lightsout.Solution(board, presses, 0, "poly", None, 2, rules=old.rules)


def test_a_solution_pickled_with_loose_rules_still_loads():
    s = lightsout.solve(np.ones((3, 4)), torus=(False, True))
    state = dict(vars(s))
    rules = state.pop("rules")
    state.update(states=rules.states, torus=rules.wraps, self_toggle=rules.self_toggle, adjacency=None)
    older = lightsout.Solution.__new__(lightsout.Solution)
    older.__setstate__(state)
    assert older.rules == s.rules and older.verify()
