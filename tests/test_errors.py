"""The package's exceptions: each pickles and copies as itself, and an unsolvable board's error carries its rules.

Errors cross process boundaries (``ProcessPoolExecutor``, Dask) by pickle, so
every class of lightsout/_base/errors.py is rebuilt here from a pickle, a copy
and a deep copy, and must come back with its type, message and attributes.
The proof an UnsolvableError carries is checked with the tests' own oracle.
"""
from __future__ import annotations

import copy
import inspect
import pickle

import numpy as np
import pytest

import lightsout
import oracle
from lightsout._base import errors
from lightsout._core.rules import Rules


def _unsolvable_from_solve() -> lightsout.UnsolvableError:
    """A real UnsolvableError of a 4 x 4 board whose pattern is packed until first read."""
    try:
        lightsout.solve([[1, 0, 0, 0]] * 4)
    except lightsout.UnsolvableError as error:
        return error
    raise AssertionError("the 4 x 4 board with one lit column is unsolvable (nullity 4)")


def _not_proven() -> lightsout.MinimumNotProvenError:
    best = lightsout.solve(lightsout.all_lit(5))
    return lightsout.MinimumNotProvenError("cut short", best=best)


#: One example of every exception class the package defines, with its attributes set.
EXAMPLES = {
    "LightsOutError": lambda: errors.LightsOutError("a"),
    "InvalidBoardError": lambda: errors.InvalidBoardError("b"),
    "InvalidTypeError": lambda: errors.InvalidTypeError("c"),
    "BoardTooLargeError": lambda: errors.BoardTooLargeError("d"),
    "SettingError": lambda: errors.SettingError("e"),
    "InternalError": lambda: errors.InternalError("a check failed"),
    "UnsolvableError": lambda: errors.UnsolvableError(
        "f", np.eye(3, dtype=bool), np.array([True, False, False]), 2,
        rules=Rules.check((3, 3), torus=(True, False), self_toggle=False, states=2), method="nd"),
    "unsolvable from solve": _unsolvable_from_solve,
    "unsolvable of a graph": lambda: errors.unsolvable_error("this 3-vertex graph", 1, 3, inner_product=1,
                                                              quiet_pattern=np.array([1, 0, 2], np.uint8)),
    "MinimumNotProvenError": _not_proven,
    "MissingExtraError": lambda: errors.MissingExtraError("plotting", "matplotlib", "plot"),
    "NoSolutionError": lambda: errors.NoSolutionError("no solution", rank=1, augmented_rank=2),
}


def _exception_classes() -> list[type]:
    return [value for _, value in inspect.getmembers(errors, inspect.isclass)
            if issubclass(value, BaseException) and value.__module__ in ("lightsout", "lightsout.gf2")]


def test_every_exception_class_has_an_example():
    names = {cls.__name__ for cls in _exception_classes()}
    assert names >= {"UnsolvableError", "NoSolutionError", "InternalError"}, names  # the scan finds them
    assert names <= set(EXAMPLES), f"exception classes without an example here: {sorted(names - set(EXAMPLES))}"


def _same(a: object, b: object) -> bool:
    if isinstance(a, np.ndarray) or isinstance(b, np.ndarray):
        return isinstance(a, np.ndarray) and isinstance(b, np.ndarray) and a.dtype == b.dtype \
            and np.array_equal(a, b)
    if isinstance(a, tuple) and isinstance(b, tuple):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b))
    if isinstance(a, lightsout.Solution):
        return isinstance(b, lightsout.Solution) and _same(a.presses, b.presses) and a.count == b.count
    if isinstance(a, errors.UnsolvableReason):
        return isinstance(b, errors.UnsolvableReason) and vars(a) == vars(b)
    return bool(a == b)


@pytest.mark.parametrize("name", list(EXAMPLES))
def test_exception_survives_pickle_and_copy(name):
    error = EXAMPLES[name]()
    for clone in (pickle.loads(pickle.dumps(error)), copy.copy(error), copy.deepcopy(error)):
        assert type(clone) is type(error)
        assert str(clone) == str(error)
        assert clone.args == error.args
        assert vars(clone).keys() == vars(error).keys()
        for attribute, value in vars(error).items():
            assert _same(getattr(clone, attribute), value), attribute


def test_internal_error_asks_for_a_report_once_after_a_round_trip():
    error = pickle.loads(pickle.dumps(errors.InternalError("a check failed")))
    assert str(error).count("please report it") == 1
    assert str(error).startswith("a check failed (a bug in lightsout")


def test_unsolvable_error_carries_the_frozen_rules_of_the_call():
    board = np.zeros((4, 5), dtype=np.uint8)
    board[0, 0] = 1
    try:
        lightsout.solve(board, torus=(True, False), self_toggle=False, states=2)
    except lightsout.UnsolvableError as error:
        rules = error.rules
        assert (rules.shape, rules.wraps, rules.self_toggle, rules.states) == ((4, 5), (True, False), False, 2)
        assert (error.torus, error.self_toggle, error.states) == ((True, False), False, 2)
        assert error.method in lightsout._solve.METHODS
        with pytest.raises(AttributeError):
            rules.states = 3  # frozen: the error cannot be told other rules than those it was found under
        sets = oracle.neighbour_sets((4, 5), torus=(True, False), self_toggle=False)
        pattern = error.quiet_pattern.astype(np.uint8)
        assert not oracle.replay_sets(sets, np.zeros((4, 5), np.uint8), pattern).any()  # quiet
        assert int((pattern & board).sum()) % 2 == 1  # meets the lit cell an odd number of times
    else:
        raise AssertionError("one lit corner of the 4 x 5 sigma board with wrapping rows should be unsolvable")


def test_unsolvable_error_rules_survive_a_process_boundary():
    error = pickle.loads(pickle.dumps(_unsolvable_from_solve()))
    assert error.rules == Rules.check((4, 4))
    assert (error.torus, error.self_toggle, error.states, error.method) == ((False, False), True, 2, "poly")
    board = np.array([[1, 0, 0, 0]] * 4, dtype=np.uint8)
    assert not oracle.replay(np.zeros((4, 4), np.uint8), error.quiet_pattern).any()
    assert int((error.quiet_pattern & board.astype(bool)).sum()) % 2 == 1


def test_unsolvable_error_without_rules_says_none():
    error = errors.UnsolvableError("no")
    assert (error.rules, error.torus, error.self_toggle, error.states, error.method) == (None,) * 5


def test_a_graphs_unsolvable_error_has_states_but_no_grid_rules():
    with pytest.raises(lightsout.UnsolvableError) as info:
        lightsout.solve_graph([(0, 1), (1, 2)], [1, 0, 0], self_toggle=False, states=3)
    error = info.value
    assert error.rules is None and error.torus is None and error.self_toggle is None
    assert error.states == 3
    sets = oracle.graph_neighbour_sets(3, [(0, 1), (1, 2)], self_toggle=False)
    pattern = np.asarray(error.quiet_pattern, dtype=np.int64)
    assert not oracle.replay_sets(sets, np.zeros(3, np.int64), pattern, states=3).any()
    assert int(pattern @ np.array([1, 0, 0])) % 3 != 0
