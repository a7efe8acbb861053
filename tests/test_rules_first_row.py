"""first_row and chase under press stencils and masks (issue 30), against an independent model.

The press matrix comes from tests/oracle.py (built cell by cell from the stencil's definition);
the rows are chased down here by a chaser of this file that reads only that matrix; the
smallest solution comes from trying every press vector.  Nothing is compared with a value the
package produced, except today's rule with itself (bit for bit).
"""
from __future__ import annotations

import numpy as np
import pytest

import lightsout
from lightsout import BoardTooLargeError, InvalidBoardError, Stencil, UnsolvableError, chase, first_row

import oracle


# -- the independent model -----------------------------------------------------------------------

def top_entry(weights, centre):
    """(r, column offset, weight) of the one weight in the stencil's top nonzero row, r rows above the centre."""
    rows = np.nonzero(np.asarray(weights).any(axis=1))[0]
    top = int(rows[0])
    cols = np.nonzero(np.asarray(weights)[top])[0]
    assert len(cols) == 1
    return centre[0] - top, int(cols[0]) - centre[1], int(np.asarray(weights)[top, cols[0]])


def chase_rows_down(matrix, board, top_rows, shape, step, states, wrap_cols, required=None):
    """Presses whose top rows are ``top_rows``: every later press (q, j) set so the light (q - r, j + c),
    which it reaches last, ends at 0; only the press matrix is read."""
    nrows, ncols = shape
    r, c, weight = step
    inverse = pow(weight, -1, states)
    seeds = np.asarray(top_rows, dtype=np.int64).reshape(-1, ncols)
    x = np.zeros(nrows * ncols, dtype=np.int64)
    x[:seeds.size] = seeds.ravel()
    b = np.asarray(board, dtype=np.int64).ravel()
    for q in range(len(seeds), nrows):
        for j in range(ncols):
            col = (j + c) % ncols if wrap_cols else j + c
            if not 0 <= col < ncols:
                continue
            light = (q - r) * ncols + col
            if required is not None and not required[light]:
                continue
            now = (b[light] + matrix[light] @ x) % states
            x[q * ncols + j] = (-now * inverse) % states
    return x.reshape(shape)


def random_chasing_stencil(rng, states, height, width):
    """A random stencil whose top row holds one weight invertible mod ``states``; centre below it."""
    weights = rng.integers(0, states, size=(height, width)).astype(np.uint8)
    weights[0] = 0
    units = [w for w in range(1, states) if np.gcd(w, states) == 1]
    weights[0, rng.integers(width)] = rng.choice(units)
    centre = (int(rng.integers(1, height)), int(rng.integers(width)))
    return weights, centre


def smallest_solution(matrix, board, states, holes=None, unpressable=None, free_lights=None):
    """The lexicographically smallest press vector (C order) that clears the required lights, or None."""
    system, required, pressable = oracle.masked_system(matrix, holes, unpressable, free_lights)
    rhs = np.asarray(board, dtype=np.int64).ravel()[required]
    solutions, _ = oracle.brute_force_system(system, rhs, states)
    if len(solutions) == 0:
        return None
    x = np.zeros(matrix.shape[0], dtype=np.int64)
    x[pressable] = solutions[0]
    return x


# -- today's rule, bit for bit ----------------------------------------------------------------------

@pytest.mark.parametrize("n, m", [(1, 1), (3, 3), (5, 5), (4, 7), (9, 2), (17, 17)])
def test_plus_and_sigma_stencils_keep_todays_first_row(n, m):
    plus = [[0, 1, 0], [1, 1, 1], [0, 1, 0]]
    for kwargs in ({}, {"torus": True}, {"states": 3}, {"torus": (False, True), "states": 5}):
        today = first_row(n, m, **kwargs)
        for stencil in ("plus", plus, Stencil(plus)):
            given = first_row(n, m, stencil=stencil, **kwargs)
            assert given.dtype == today.dtype and given.shape == today.shape == (m,)
            assert np.array_equal(given, today)
        try:
            sigma_today = first_row(n, m, self_toggle=False, **kwargs)
        except UnsolvableError:
            with pytest.raises(UnsolvableError):
                first_row(n, m, stencil="sigma", **kwargs)
            continue
        sigma = first_row(n, m, stencil="sigma", **kwargs)
        assert sigma.dtype == sigma_today.dtype and np.array_equal(sigma, sigma_today)


# -- first rows of a chasing stencil ----------------------------------------------------------------

@pytest.mark.parametrize("seed", range(24))
def test_first_rows_chase_the_all_lit_board_dark_and_are_the_smallest(seed):
    rng = np.random.default_rng(seed)
    states = int(rng.choice([2, 2, 3, 4, 5]))
    height, width = int(rng.integers(2, 4)), int(rng.integers(1, 4))
    weights, centre = random_chasing_stencil(rng, states, height, width)
    r, c, weight = top_entry(weights, centre)
    wrap_cols = bool(c != 0 or rng.integers(2))
    most_cells = {2: 12, 3: 8, 4: 6, 5: 6}[states]
    nrows = int(rng.integers(r, r + 3))
    ncols = int(rng.integers(max(1, width if wrap_cols else 1), 5))
    while nrows * ncols > most_cells:
        ncols -= 1
    if wrap_cols and ncols < width:
        ncols, nrows = width, r
    shape = (nrows, ncols)
    torus = (False, wrap_cols)
    matrix = oracle.stencil_matrix(shape, torus, weights, centre, states)
    lit = np.ones(shape, dtype=np.int64)
    best = smallest_solution(matrix, lit, states)
    stencil = Stencil(weights, centre)
    if best is None:
        with pytest.raises(UnsolvableError) as caught:
            first_row(nrows, ncols, stencil=stencil, torus=torus, states=states)
        system, required, pressable = oracle.masked_system(matrix, None, None, None)
        assert oracle.proves_unsolvable(caught.value.proof, lit, matrix, states, required, pressable)
        return
    rows = first_row(nrows, ncols, stencil=stencil, torus=torus, states=states)
    assert rows.shape == ((ncols,) if r == 1 else (r, ncols))
    assert rows.dtype == (bool if states == 2 else np.uint8)
    assert np.array_equal(rows.astype(np.int64).ravel(), best[:r * ncols])
    presses = chase_rows_down(matrix, lit, rows, shape, (r, c, weight), states, wrap_cols)
    assert not oracle.stencil_replay(lit, presses, matrix, states).any()
    # the package's own chase, from the same rows, finds the same presses
    assert np.array_equal(chase(lit, rows, stencil=stencil, torus=torus, states=states).astype(np.int64), presses)


def test_plus_of_radius_two_returns_two_rows_that_clear_a_larger_board():
    plus2 = Stencil.named("plus", radius=2)
    shape = (11, 9)
    rows = first_row(*shape, stencil=plus2)
    assert rows.shape == (2, 9) and rows.dtype == bool
    matrix = oracle.stencil_matrix(shape, False, plus2.weights, plus2.centre, 2)
    lit = np.ones(shape, dtype=np.int64)
    presses = chase_rows_down(matrix, lit, rows, shape, top_entry(plus2.weights, plus2.centre), 2, False)
    assert not oracle.stencil_replay(lit, presses, matrix, 2).any()


def test_first_rows_on_a_wrapping_axis_0_are_the_smallest_solutions_top_rows():
    plus2 = Stencil.named("plus", radius=2)
    for shape, states in (((5, 2), 2), ((6, 2), 2), ((5, 1), 3)):
        matrix = oracle.stencil_matrix(shape, (True, False), plus2.weights, plus2.centre, states)
        best = smallest_solution(matrix, np.ones(shape), states)
        rows = first_row(*shape, stencil=plus2, torus=(True, False), states=states)
        assert np.array_equal(rows.astype(np.int64).ravel(), best[:2 * shape[1]])


@pytest.mark.parametrize("seed", range(16))
def test_masks_that_keep_the_top_rows_determining(seed):
    rng = np.random.default_rng(100 + seed)
    states = int(rng.choice([2, 3]))
    weights, centre = random_chasing_stencil(rng, states, 2, 3)
    r, c, weight = top_entry(weights, centre)
    shape = (3, 4) if states == 2 else (3, 3)
    wrap_cols = c != 0
    torus = (False, wrap_cols)
    matrix = oracle.stencil_matrix(shape, torus, weights, centre, states)
    masks = {name: (rng.random(shape) < 0.15) for name in ("holes", "unpressable", "free_lights")}
    if seed % 2 == 0:  # masks that force nothing away: lights free or missing only in the bottom r rows
        masks["holes"][:-r] = masks["free_lights"][:-r] = False
        masks["unpressable"][r:] = False
    holes, unpressable, free = masks["holes"], masks["unpressable"], masks["free_lights"]
    required = ~(holes | free)
    pressable = ~(holes | unpressable)
    determined = all(required[q - r, (j + c) % shape[1]] for q in range(r, shape[0]) for j in range(shape[1])
                     if pressable[q, j])
    call = dict(stencil=Stencil(weights, centre), torus=torus, states=states, **masks)
    if not determined:
        with pytest.raises(InvalidBoardError, match="forced by no light"):
            first_row(*shape, **call)
        return
    lit = np.ones(shape, dtype=np.int64)
    best = smallest_solution(matrix, lit, states, holes, unpressable, free)
    if best is None:
        with pytest.raises(UnsolvableError) as caught:
            first_row(*shape, **call)
        _, rows_needed, cells_pressable = oracle.masked_system(matrix, holes, unpressable, free)
        assert oracle.proves_unsolvable(caught.value.proof, lit, matrix, states, rows_needed, cells_pressable)
        return
    rows = first_row(*shape, **call)
    assert np.array_equal(rows.astype(np.int64).ravel(), best[:r * shape[1]])
    presses = chase_rows_down(matrix, lit, rows, shape, (r, c, weight), states, wrap_cols, required.ravel())
    presses[~pressable] = 0
    after = oracle.stencil_replay(lit, presses, matrix, states, holes)
    assert not after[required].any()
    assert np.array_equal(presses.ravel(), best)


# -- refusals ------------------------------------------------------------------------------------------

@pytest.mark.parametrize("stencil, states, why", [
    ("moore", 2, "holds 3 weights"),
    ("x", 2, "holds 2 weights"),
    ("knight", 2, "holds 2 weights"),
    ([[0, 0, 0], [1, 1, 1], [0, 1, 0]], 2, "no weight above the pressed cell"),
    ([[0, 2, 0], [1, 1, 1], [0, 1, 0]], 4, "no inverse mod 4"),
])
def test_stencils_that_do_not_chase_down_are_refused_saying_why(stencil, states, why):
    with pytest.raises(InvalidBoardError, match=why) as caught:
        first_row(6, stencil=stencil, states=states)
    assert "solve(np.ones((6, 6)), stencil=...)" in str(caught.value)


def test_an_entry_that_leaves_an_open_edge_unforced_is_refused_and_accepted_on_a_torus():
    leaning = [[0, 0, 1], [0, 1, 1], [1, 0, 0]]  # the top weight one column right of the centre
    with pytest.raises(InvalidBoardError, match=r"cell \(1, 4\) is forced by no light.*off the board"):
        first_row(5, stencil=leaning)
    with pytest.raises(InvalidBoardError, match="is a hole"):
        first_row(4, stencil="plus", holes=np.eye(4, dtype=bool))
    assert first_row(4, stencil=leaning, torus=(False, True)).shape == (4,)


def test_a_board_shorter_than_the_top_rows_and_a_huge_board_are_refused_before_any_work():
    with pytest.raises(InvalidBoardError, match="fewer than the 2 top rows"):
        first_row(1, 5, stencil=Stencil.named("plus", radius=2))
    with pytest.raises(BoardTooLargeError, match="MAX_STENCIL_CHASE_BYTES"):  # the chase itself ("auto" takes
        first_row(60_000, stencil=Stencil.named("plus", radius=2), method="stencilchase")  # polynomials here)
    with pytest.raises(BoardTooLargeError):
        first_row(10**6, stencil=Stencil.named("plus", radius=2))


# -- chase under a stencil -----------------------------------------------------------------------------

@pytest.mark.parametrize("seed", range(16))
def test_chase_from_random_top_rows_darkens_every_forcing_light(seed):
    rng = np.random.default_rng(200 + seed)
    states = int(rng.choice([2, 3, 5]))
    weights, centre = random_chasing_stencil(rng, states, int(rng.integers(2, 4)), 3)
    r, c, weight = top_entry(weights, centre)
    bottom = int(np.nonzero(weights.any(axis=1))[0][-1]) - centre[0]
    wrap_rows = bool(rng.integers(2))
    shape = (int(rng.integers(weights.shape[0] + 1, 8)), int(rng.integers(3, 6)))
    torus = (wrap_rows, True)
    seeds = r + (max(bottom, 0) if wrap_rows else 0)
    board = rng.integers(0, states, size=shape)
    top = rng.integers(0, states, size=(seeds, shape[1]))
    given = top[0] if seeds == 1 else top
    presses = chase(board, given, stencil=Stencil(weights, centre), torus=torus, states=states).astype(np.int64)
    matrix = oracle.stencil_matrix(shape, torus, weights, centre, states)
    assert np.array_equal(presses[:seeds], top)
    after = oracle.stencil_replay(board, presses, matrix, states)
    assert not after[max(bottom, 0) if wrap_rows else 0:shape[0] - r].any()
    assert np.array_equal(presses, chase_rows_down(matrix, board, top, shape, (r, c, weight), states, True))


def test_chase_refuses_a_wrong_shape_and_a_stencil_that_does_not_chase():
    plus2 = Stencil.named("plus", radius=2)
    with pytest.raises(InvalidBoardError, match=r"must have shape \(2, 4\)"):
        chase(np.ones((5, 4)), [1, 0, 0, 1], stencil=plus2)
    with pytest.raises(InvalidBoardError, match="holds 3 weights"):
        chase(np.ones((5, 4)), [1, 0, 0, 1], stencil="moore")
    with pytest.raises(InvalidBoardError, match="shorter than the stencil"):
        chase(np.ones((5, 4)), np.zeros((2, 4)), stencil=plus2, torus=True)


def test_chase_with_todays_rule_as_a_stencil_matches_todays_chase():
    rng = np.random.default_rng(7)
    board = rng.integers(0, 2, size=(6, 5))
    row = rng.integers(0, 2, size=5)
    assert np.array_equal(chase(board, row, stencil="plus"), chase(board, row))
    assert lightsout.chase is chase
