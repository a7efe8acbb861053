"""The polynomial first rows of cross-shaped stencils, against independent elimination."""
from __future__ import annotations

import numpy as np
import pytest

import oracle
from lightsout import Stencil
from lightsout._routes.crossrows import cross_arms, cross_first_rows


def random_cross(rng) -> Stencil:
    """A 2-D 0/1 stencil on its centre's row and column, with at least one cell above the centre."""
    up, down, left, right = (int(v) for v in rng.integers(0, 3, 4))
    up = max(up, 1)
    weights = np.zeros((up + down + 1, left + right + 1), dtype=np.uint8)
    weights[:, left] = rng.integers(0, 2, up + down + 1)
    weights[up, :] = rng.integers(0, 2, left + right + 1)
    weights[0, left] = 1
    return Stencil(weights, (up, left))


def unique_solution(shape, stencil):
    """The one press vector clearing the all-lit board, or None when there are none or several."""
    matrix = oracle.stencil_matrix(shape, False, stencil.weights, stencil.centre, 2)
    if oracle.rank_mod_prime(matrix, 2) < matrix.shape[1]:
        return None
    return oracle.solve_mod_prime(matrix, np.ones(matrix.shape[0], dtype=np.int64), 2).reshape(shape)


@pytest.mark.parametrize("seed", range(24))
def test_cross_first_rows_are_the_top_rows_of_the_one_solution(seed):
    rng = np.random.default_rng(900 + seed)
    stencil = random_cross(rng) if seed else Stencil.named("plus", radius=2)
    up = stencil.centre[0]
    for nrows in range(1, 8):
        for ncols in range(1, 8):
            rows = cross_first_rows(nrows, ncols, stencil)
            expected = unique_solution((nrows, ncols), stencil)
            if expected is None:
                assert rows is None, (nrows, ncols)
                continue
            assert rows is not None, (nrows, ncols)
            assert rows.shape == (min(up, nrows), ncols)
            assert np.array_equal(rows, expected[:up].astype(bool))


def test_the_arms_of_named_and_other_stencils():
    assert cross_arms(Stencil.named("plus")) == ((-1, 1), (-1, 0, 1))
    assert cross_arms(Stencil.named("sigma")) == ((-1, 1), (-1, 1))
    for name in ("x", "moore", "knight", "hex"):
        assert cross_arms(Stencil.named(name)) is None
    assert cross_arms(Stencil([[1], [1], [0]], (1, 0))) == ((-1,), (0,))  # a press and the cell above it
    assert cross_arms(Stencil([[1], [1]], (0, 0))) is None               # nothing above: no free row
    assert cross_arms(Stencil.named("plus", ndim=3)) is None


def test_a_side_past_the_limit_is_left_to_the_chase(monkeypatch):
    from lightsout._routes import crossrows
    monkeypatch.setattr(crossrows, "LONGEST_CROSS_SIDE", 5)
    assert cross_first_rows(6, 6, Stencil.named("plus", radius=2)) is None


@pytest.mark.parametrize("side", [2, 3, 6, 7, 10, 12])
def test_first_row_takes_the_polynomial_rows_and_they_clear_the_board(side):
    import lightsout
    plus2 = Stencil.named("plus", radius=2)
    rows = lightsout.first_row(side, side + 1, stencil=plus2)
    expected = unique_solution((side, side + 1), plus2)
    via_chase = lightsout.first_row(side, side + 1, stencil=plus2, method="stencilchase")
    assert np.array_equal(rows, via_chase)
    if expected is not None:
        assert np.array_equal(rows, expected[:2].astype(bool))
    matrix = oracle.stencil_matrix((side, side + 1), False, plus2.weights, plus2.centre, 2)
    presses = lightsout.chase(np.ones((side, side + 1)), rows, stencil=plus2).astype(np.int64)
    assert not oracle.stencil_replay(np.ones((side, side + 1)), presses, matrix, 2).any()
