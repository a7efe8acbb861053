"""The region bound (lightsout/_search/regionbound.py) and the bracket of boards past the exhaustive search.

Every bound is checked against the true minimum, found by brute force over the whole coset
(every combination of the basis rows, in numpy); the coset itself is checked with the
independent oracle (its particular solution clears the board, each basis row is quiet,
and it has the oracle's nullity); every upper bound is a solution the oracle replays dark.
"""
from __future__ import annotations

import numpy as np
import pytest

import lightsout
import oracle
from lightsout._core.runner import CancelToken
from lightsout._search.regionbound import corner_regions, region_bound
from test_fewest_bounds import brute_weights

PLUS = [(0, 0), (1, 0), (-1, 0), (0, 1), (0, -1)]
SIGMA = [(1, 0), (-1, 0), (0, 1), (0, -1)]


def checked_coset(board: np.ndarray, self_toggle: bool) -> tuple[np.ndarray, np.ndarray]:
    """The solutions of ``board`` as (particular, basis), checked against the oracle."""
    solution = lightsout.solve(board, self_toggle=self_toggle)
    sets = oracle.neighbour_sets(board.shape, self_toggle=self_toggle)
    particular = solution.presses.ravel().astype(np.uint8)
    basis = solution.quiet_patterns().reshape(solution.nullity, solution.board.size).astype(np.uint8)
    assert not oracle.replay_sets(sets, board.ravel(), particular).any()
    assert all(not oracle.replay_sets(sets, np.zeros(board.size, np.uint8), row).any() for row in basis)
    assert oracle.gf2_rank(basis) == basis.shape[0] == board.size - oracle.gf2_rank(oracle.effect_matrix(sets))
    return particular, basis


@pytest.mark.parametrize("seed", range(60))
def test_the_region_bound_never_passes_the_brute_force_minimum(seed):
    rng = np.random.default_rng(seed)
    for _ in range(20):
        rows, cols = (int(v) for v in rng.integers(2, 11, size=2))
        self_toggle = bool(rng.random() < 0.7)
        if (rows * cols > 64 and rng.random() < 0.5) or lightsout.nullity(rows, cols, self_toggle=self_toggle) > 14:
            continue
        board = np.ones((rows, cols), np.uint8) if rng.random() < 0.4 else \
            rng.integers(0, 2, size=(rows, cols)).astype(np.uint8)
        try:
            particular, basis = checked_coset(board, self_toggle)
        except lightsout.UnsolvableError:
            continue
        must_change = board.astype(bool)
        if rng.random() < 0.3:     # a bound over fewer lights is still a bound
            must_change &= rng.random(board.shape) < 0.5
        reach = PLUS if self_toggle else SIGMA
        bound = region_bound(particular, basis, board.astype(bool), must_change, reach, len(reach), 2.0)
        assert 0 <= bound <= int(brute_weights(particular, basis).min()), (rows, cols, self_toggle)


@pytest.mark.parametrize("n", [9, 16, 19, 23, 30, 33, 40, 44])
def test_the_region_bound_stays_below_the_shipped_fewest_presses(n):
    solution = lightsout.solve(np.ones((n, n), np.uint8))
    basis = solution.quiet_patterns().reshape(solution.nullity, solution.board.size).astype(np.uint8)
    lights = np.ones((n, n), bool)
    bound = region_bound(solution.presses.ravel().astype(np.uint8), basis, lights, lights, PLUS, 5, 3.0)
    assert bound <= lightsout.proven_fewest_presses()[n]["fewest"]


def test_the_corner_triangles_are_disjoint_and_have_the_width_asked():
    for rows, cols in [(4, 4), (7, 10), (12, 5), (2, 2)]:
        for width in range(1, min(rows, cols) // 2 + 1):
            labels = corner_regions((rows, cols), width)
            counts = np.bincount(labels[labels >= 0].ravel(), minlength=4)
            assert counts.tolist() == [width * (width + 1) // 2] * 4
            assert labels[0, 0] == 0 and labels[0, cols - 1] == 1 and labels[rows - 1, 0] == 2
            assert labels[rows - 1, cols - 1] == 3


def test_a_cancelled_token_stops_the_bound_at_once_with_a_valid_value():
    solution = lightsout.solve(np.ones((40, 40), np.uint8))
    basis = solution.quiet_patterns().reshape(solution.nullity, solution.board.size).astype(np.uint8)
    token = CancelToken()
    token.cancel()
    lights = np.ones((40, 40), bool)
    bound = region_bound(solution.presses.ravel().astype(np.uint8), basis, lights, lights, PLUS, 5, 60.0, token)
    assert 0 <= bound <= lightsout.proven_fewest_presses()[40]["fewest"]


def test_a_time_limited_79_reports_more_than_the_press_cover_bound():
    solution = lightsout.solve(np.ones((79, 79), np.uint8))
    best = solution.minimal(time_limit=8.0)
    assert not best.proven_minimal and best.lower_bound > -(-79 * 79 // 5)
    assert best.lower_bound <= int(best.presses.sum()) and oracle.clears(np.ones((79, 79)), best.presses)


def test_a_nullity_past_the_search_is_bracketed_with_a_time_limit_and_refused_without():
    with pytest.raises(lightsout.MinimumNotProvenError) as caught:
        lightsout.fewest_presses(123, time_limit=3.0)           # nullity 80
    error = caught.value
    assert -(-123 * 123 // 5) <= error.lower_bound <= error.presses == int(error.best.presses.sum())
    assert oracle.clears(np.ones((123, 123)), error.best.presses)
    with pytest.raises(lightsout.BoardTooLargeError, match="time_limit"):
        lightsout.fewest_presses(123)
    with pytest.raises(lightsout.BoardTooLargeError, match="time_limit"):
        lightsout.solve(np.ones((123, 123), np.uint8)).minimal()


def test_the_shipped_brackets_hold_real_solutions_and_proven_bounds():
    table = lightsout.bracketed_fewest_presses()
    proven = lightsout.proven_fewest_presses()
    assert sorted(table) == [79, 95, 123, 126, 128, 129, 131, 135, 159, 191]
    for n, row in table.items():
        presses = row["presses"]
        assert n not in proven and row["nullity"] == lightsout.nullity(n) > 50
        assert -(-n * n // 5) < row["lower"] < row["upper"] == int(presses.sum())
        assert presses.shape == (n, n) and oracle.clears(np.ones((n, n), np.uint8), presses)
    table[79]["presses"][0, 0] ^= True      # a caller's copy: the next call reads the table afresh
    assert oracle.clears(np.ones((79, 79), np.uint8), lightsout.bracketed_fewest_presses()[79]["presses"])


def test_a_refused_bracketed_size_names_its_shipped_bracket():
    row = lightsout.bracketed_fewest_presses()[79]
    with pytest.raises(lightsout.BoardTooLargeError, match=rf"\[{row['lower']}, {row['upper']}\]"):
        lightsout.fewest_presses(79)
