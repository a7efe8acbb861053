"""The registry of grid routes (lightsout/_routes/registry.py): one protocol, the same answers."""
from __future__ import annotations

import numpy as np
import pytest

import lightsout
import oracle
from lightsout._base.errors import BoardTooLargeError, InvalidBoardError
from lightsout._core.rules import Rules
from lightsout._routes.registry import AUTO_ORDER, ROUTES
from lightsout._solution import grid_board_solution


def test_the_methods_are_the_registry():
    assert lightsout.METHODS == ("auto",) + tuple(ROUTES) and set(AUTO_ORDER) <= set(ROUTES)
    assert all(route.name == name for name, route in ROUTES.items())


@pytest.mark.parametrize("shape, torus, self_toggle, states", [
    ((4, 5), False, True, 2), ((5, 5), True, True, 2), ((3, 4), False, False, 2), ((4, 4), False, True, 3),
    ((2, 3, 3), (True, False, False), True, 2), ((6,), True, True, 5), ((2, 9), (True, False), True, 2),
])
def test_every_route_that_accepts_a_board_gives_the_same_coset(shape, torus, self_toggle, states):
    rules = Rules.check(shape, torus, self_toggle, states)
    rng = np.random.default_rng(len(shape) * 100 + states)
    sets = oracle.neighbour_sets(shape, torus, self_toggle)
    accepting = [name for name, route in ROUTES.items() if route.accepts(rules)]
    assert ("poly" in accepting) == ("dense" in accepting) == rules.is_plain_grid and "nd" in accepting
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
                    grid_board_solution(found, rules, lights)
                answers.append(None)
                continue
            solution = grid_board_solution(found, rules, lights)
            # replayed by the oracle, cell by cell
            after = oracle.replay_sets(sets, lights.astype(np.int64), solution.presses.astype(np.int64), states)
            assert not np.any(after)
            answers.append(solution.presses.astype(np.int64).ravel().tolist())
        assert all(answer == answers[0] for answer in answers), (accepting, answers)


def test_a_route_refuses_what_it_cannot_take_before_any_work():
    with pytest.raises(InvalidBoardError, match="method 'dense'"):
        lightsout.solve(np.ones((3, 3)), torus=True, method="dense")
    with pytest.raises(BoardTooLargeError, match="dense route"):
        ROUTES["dense"].nullity(Rules.of_grid(10**7, 10**7))
    with pytest.raises(BoardTooLargeError, match="polynomial scratch"):
        ROUTES["poly"].nullity(Rules.of_grid(10**11, 10**11))
