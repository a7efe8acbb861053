"""solve_many against solve on every board of random stacks."""
from __future__ import annotations

import concurrent.futures

import numpy as np
import pytest

import lightsout
import oracle
from lightsout import UnsolvableError


def _one_by_one(boards, minimal=False, **rules):
    presses, ok = [], []
    for board in boards:
        try:
            s = lightsout.solve(board, minimal=minimal, **rules)
        except UnsolvableError:
            presses.append(np.zeros(board.shape, dtype=int))
            ok.append(False)
            continue
        presses.append(s.presses.astype(int))
        ok.append(True)
    return np.array(presses), np.array(ok)


@pytest.mark.parametrize("shape,rules", [
    ((5, 5), {}), ((4, 4), {}), ((3, 7), {"torus": True}), ((2, 3, 4), {"self_toggle": False}),
    ((9,), {"torus": True}), ((3, 3), {"states": 3}), ((2, 4), {"states": 6}),
])
@pytest.mark.parametrize("minimal", [False, True])
def test_solve_many_equals_solve_on_every_board(shape, rules, minimal):
    rng = np.random.default_rng(len(shape) * 7 + int(minimal))
    boards = rng.integers(0, rules.get("states", 2), size=(60,) + shape)
    many = lightsout.solve_many(boards, minimal=minimal, **rules)
    presses, ok = _one_by_one(boards, minimal=minimal, **rules)
    assert np.array_equal(many.solvable, ok)
    assert np.array_equal(many.presses.astype(int), presses)
    torus = rules.get("torus", False)
    for board, p, good in zip(boards, many.presses, many.solvable):
        if good:
            assert not oracle.replay_nd(board, p, torus, rules.get("self_toggle", True), rules.get("states", 2)).any()


def test_solve_many_on_an_executor_gives_the_serial_answer(monkeypatch):
    import lightsout.many

    monkeypatch.setattr(lightsout.many, "CHUNK_BOARDS", 100)
    boards = np.random.default_rng(3).integers(0, 2, size=(1000, 4, 5))
    serial = lightsout.solve_many(boards)
    with concurrent.futures.ThreadPoolExecutor(2) as pool:
        spread = lightsout.solve_many(boards, executor=pool)
    assert np.array_equal(serial.presses, spread.presses) and np.array_equal(serial.solvable, spread.solvable)


def test_solve_many_refuses_bad_input():
    with pytest.raises(lightsout.InvalidBoardError):
        lightsout.solve_many(np.ones(5))
    with pytest.raises(lightsout.InvalidBoardError):
        lightsout.solve_many(np.full((2, 3, 3), 2))
    with pytest.raises(lightsout.InvalidTypeError):
        lightsout.solve_many(np.ones((2, 3, 3)), executor="pool")
