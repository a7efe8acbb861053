"""Separable stencils (outer products of one 0/1 vector per axis), inverted axis by axis, against elimination."""
from __future__ import annotations

import numpy as np
import pytest

import lightsout
import oracle
from lightsout import Stencil
from lightsout._routes.separable import separable_factors, separable_invertible, solve_separable


def outer(lines):
    out = lines[0]
    for line in lines[1:]:
        out = np.multiply.outer(out, line)
    return out


@pytest.mark.parametrize("seed", range(40))
def test_the_separable_inverse_is_the_one_solution(seed):
    rng = np.random.default_rng(4400 + seed)
    ndim = int(rng.integers(1, 4))
    lines = []
    for _ in range(ndim):
        line = rng.integers(0, 2, int(rng.integers(1, 4))).astype(np.uint8)
        line[rng.integers(0, line.size)] = 1
        lines.append(line)
    weights = outer(lines).astype(np.uint8)
    stencil = Stencil(weights, tuple(int(rng.integers(0, size)) for size in weights.shape))
    factors = separable_factors(stencil)
    assert factors is not None
    for _ in range(4):
        shape = tuple(int(rng.integers(1, 6)) for _ in range(ndim))
        matrix = oracle.stencil_matrix(shape, False, stencil.weights, stencil.centre, 2)
        invertible = oracle.rank_mod_prime(matrix, 2) == matrix.shape[0]
        assert separable_invertible(shape, factors) == invertible
        board = rng.integers(0, 2, shape).astype(np.uint8)
        presses = solve_separable(board, factors)
        if not invertible:
            assert presses is None
            continue
        assert not oracle.stencil_replay(board, presses.astype(np.int64), matrix, 2).any()
        found = lightsout.solve(board, stencil=stencil)  # the public route takes the same path
        assert found.nullity == 0 and np.array_equal(found.presses, presses)
        assert lightsout.nullity(shape, stencil=stencil) == 0


def test_only_outer_products_are_separable():
    assert separable_factors(Stencil.named("moore", ndim=3)) == [(-1, 0, 1)] * 3
    assert separable_factors(Stencil([[1, 1], [1, 1]], (0, 0))) == [(0, 1), (0, 1)]
    for stencil in (Stencil.named("plus"), Stencil.named("x"), Stencil.named("knight"), Stencil([[1, 1], [1, 0]], (0, 0)),
                    Stencil([[2, 1]], (0, 0))):
        assert separable_factors(stencil) is None


@pytest.mark.parametrize("kwargs", [dict(torus=True), dict(states=3), dict(holes=[[1, 0, 0, 0]] + [[0] * 4] * 3),
                                    dict(free_lights=[[0, 0, 0, 1]] + [[0] * 4] * 3)])
def test_wraps_states_and_masks_go_to_the_chase_and_agree_with_elimination(kwargs):
    board = np.ones((4, 4), dtype=np.uint8)
    states = kwargs.get("states", 2)
    found = lightsout.solve(board, stencil="moore", **kwargs)
    matrix = oracle.stencil_matrix((4, 4), kwargs.get("torus", False), np.ones((3, 3)), (1, 1), states)
    system, required, pressable = oracle.masked_system(matrix, kwargs.get("holes"), None, kwargs.get("free_lights"))
    presses = np.asarray(found.presses, dtype=np.int64).ravel()
    after = oracle.stencil_replay(board, presses, matrix, states)
    assert not after.ravel()[required].any()
    assert found.nullity == oracle.masked_nullity(system, states)
