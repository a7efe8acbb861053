"""The polynomial route of the sigma game and of wrapped boards (docs/algebra.md section 7).

Nullities are held to elimination of the whole press matrix (``method="elimination"``, and the
oracle's own rank at the smallest sizes); first rows to elimination's canonical solution and,
chased down the board here, replayed cell by cell by ``tests/oracle.py``.
"""
from __future__ import annotations

import math

import numpy as np
import pytest

import lightsout
import oracle
from lightsout._core.rules import Rules
from lightsout._routes.polysigma import folded_index, sigma_first_row, sigma_nullity
from lightsout._routes.polytorus import (
    cyclic_chebyshev, cylinder_nullity, poly_rules_nullity, poly_rules_take, wrapped_nullity,
)

WRAPS = [True, (True, False), (False, True)]


def sigma_chase(first_row: np.ndarray, nrows: int) -> np.ndarray:
    """The presses of the all-lit sigma board chased from ``first_row``: row i + 1 clears row i
    (a press toggles its neighbours, not its own cell). Plain numpy, no lightsout."""
    ncols = first_row.size
    presses = np.zeros((nrows, ncols), dtype=np.uint8)
    presses[0] = first_row
    for i in range(nrows - 1):
        light = np.ones(ncols, dtype=np.uint8)
        light[1:] ^= presses[i, :-1]
        light[:-1] ^= presses[i, 1:]
        if i:
            light ^= presses[i - 1]
        presses[i + 1] = light
    return presses


def test_sigma_nullity_is_elimination_s_on_every_small_board():
    for nrows in range(1, 19):
        for ncols in range(1, 19):
            expected = lightsout.nullity(nrows, ncols, self_toggle=False, method="elimination")
            assert sigma_nullity(nrows, ncols) == expected, (nrows, ncols)
            assert lightsout.nullity(nrows, ncols, self_toggle=False) == expected, (nrows, ncols)


def test_sigma_nullity_is_the_oracle_s_rank():
    for nrows in range(1, 8):
        for ncols in range(1, 8):
            matrix = oracle.effect_matrix(oracle.neighbour_sets((nrows, ncols), self_toggle=False))
            assert sigma_nullity(nrows, ncols) == nrows * ncols - oracle.rank_mod_prime(matrix, 2), (nrows, ncols)


def test_sigma_first_row_is_elimination_s_canonical_row_and_clears_the_board():
    for nrows in range(1, 15):
        for ncols in range(1, 15):
            ones = np.ones((nrows, ncols), dtype=np.uint8)
            row = sigma_first_row(nrows, ncols)
            if not lightsout.is_solvable(ones, self_toggle=False, method="elimination"):
                assert row is None, (nrows, ncols)
                with pytest.raises(lightsout.UnsolvableError):
                    lightsout.first_row(nrows, ncols, self_toggle=False)
                continue
            assert row is not None and row.dtype == bool and row.shape == (ncols,), (nrows, ncols)
            expected = lightsout.solve(ones, self_toggle=False, method="elimination").presses[0]
            assert np.array_equal(row, expected), (nrows, ncols)
            assert np.array_equal(lightsout.first_row(nrows, ncols, self_toggle=False), expected)
            presses = sigma_chase(row.astype(np.uint8), nrows)
            assert not oracle.replay_nd(ones, presses, self_toggle=False).any(), (nrows, ncols)


@pytest.mark.parametrize("nrows, ncols", [(120, 121), (121, 120), (64, 200), (126, 126), (95, 47)])
def test_larger_sigma_first_rows_clear_the_board_and_match_the_nd_route(nrows, ncols):
    row = lightsout.first_row(nrows, ncols, self_toggle=False)   # each of these all-lit boards is solvable
    assert np.array_equal(row, lightsout.first_row(nrows, ncols, self_toggle=False, method="nd"))
    presses = sigma_chase(row.astype(np.uint8), nrows)
    assert not oracle.replay_nd(np.ones((nrows, ncols), dtype=np.uint8), presses, self_toggle=False).any()


def test_an_unsolvable_large_sigma_board_is_proved_so_by_the_nd_route():
    assert sigma_first_row(127, 127) is None
    with pytest.raises(lightsout.UnsolvableError) as caught:
        lightsout.first_row(127, self_toggle=False)
    pattern = caught.value.quiet_pattern.astype(np.uint8)
    assert not oracle.replay_nd(np.zeros((127, 127), np.uint8), pattern, self_toggle=False).any()
    assert int(pattern.sum()) % 2 == 1   # it meets the all-lit board an odd number of times


def test_sigma_first_row_with_the_sigma_stencil_and_short_wraps_takes_the_same_row():
    for shape in [(6, 9), (10, 4), (2, 7)]:
        expected = lightsout.first_row(*shape, self_toggle=False, method="nd")
        assert np.array_equal(lightsout.first_row(*shape, stencil="sigma"), expected)
    # a wrapping axis of 1 or 2 cells acts as open
    assert np.array_equal(lightsout.first_row(2, 7, self_toggle=False, torus=(True, False)),
                          lightsout.first_row(2, 7, self_toggle=False, torus=(True, False), method="nd"))


def test_the_indices_of_chebyshev_polynomials_fold_about_the_modulus():
    poly = lightsout._kernels.gf2poly
    for modulus_index in range(1, 12):
        modulus = poly.chebyshev_u(modulus_index)
        for index in range(0, 60):
            r = folded_index(index, modulus_index)
            assert 0 <= r <= modulus_index
            difference = poly.poly_add(poly.chebyshev_u(index), poly.chebyshev_u(r))
            assert poly.poly_degree(poly.poly_mod(difference, modulus)) < 0, (index, modulus_index)


def test_the_gcd_of_two_chebyshev_polynomials_is_the_one_of_the_gcd_of_their_indices():
    poly = lightsout._kernels.gf2poly
    for a in range(1, 40):
        for b in range(1, 40):
            g = poly.poly_gcd(poly.chebyshev_u(a), poly.chebyshev_u(b))
            assert np.array_equal(np.trim_zeros(g, "b"), np.trim_zeros(poly.chebyshev_u(math.gcd(a, b)), "b"))


@pytest.mark.parametrize("tau", [0, 1])
def test_the_cyclic_ladder_is_the_recurrence(tau):
    for ncols in (3, 4, 7, 10):
        s = np.zeros(ncols, dtype=np.uint8)
        s[0], s[1], s[-1] = tau, 1, 1
        previous, current = np.zeros(ncols, np.uint8), np.eye(1, ncols, dtype=np.uint8)[0]   # U_0, U_1
        for k in range(1, 40):
            low, high = cyclic_chebyshev(k, ncols, tau)
            assert np.array_equal(low, current) and np.array_equal(high, _cyclic_times(s, current) ^ previous), (k, ncols)
            previous, current = current, _cyclic_times(s, current) ^ previous


def _cyclic_times(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """a b in GF(2)[y]/(y^C + 1), by the definition."""
    ncols = a.size
    out = np.zeros(ncols, dtype=np.uint8)
    for i in np.flatnonzero(a):
        out ^= np.roll(b, int(i))
    return out


@pytest.mark.parametrize("self_toggle", [True, False])
def test_torus_nullity_is_elimination_s_for_every_side_up_to_40(self_toggle):
    for nrows in range(1, 41):
        for ncols in range(1, 41):
            expected = lightsout.nullity(nrows, ncols, torus=True, self_toggle=self_toggle, method="elimination")
            assert lightsout.nullity(nrows, ncols, torus=True, self_toggle=self_toggle) == expected, (nrows, ncols)


@pytest.mark.parametrize("torus", [(True, False), (False, True)])
@pytest.mark.parametrize("self_toggle", [True, False])
def test_one_wrapping_axis_nullity_is_elimination_s(torus, self_toggle):
    for nrows in range(1, 25):
        for ncols in range(1, 25):
            expected = lightsout.nullity(nrows, ncols, torus=torus, self_toggle=self_toggle, method="elimination")
            assert lightsout.nullity(nrows, ncols, torus=torus, self_toggle=self_toggle) == expected, (nrows, ncols)


@pytest.mark.thorough
@pytest.mark.parametrize("torus", [(True, False), (False, True)])
@pytest.mark.parametrize("self_toggle", [True, False])
def test_one_wrapping_axis_nullity_is_elimination_s_up_to_40(torus, self_toggle):
    for nrows in range(1, 41):
        for ncols in range(25, 41):
            for shape in ((nrows, ncols), (ncols, nrows)):
                expected = lightsout.nullity(*shape, torus=torus, self_toggle=self_toggle, method="elimination")
                assert lightsout.nullity(*shape, torus=torus, self_toggle=self_toggle) == expected, shape


@pytest.mark.parametrize("torus", WRAPS)
@pytest.mark.parametrize("self_toggle", [True, False])
def test_wrapped_nullity_is_the_oracle_s_rank(torus, self_toggle):
    for nrows in range(1, 8):
        for ncols in range(1, 8):
            wraps = (torus, torus) if isinstance(torus, bool) else torus
            matrix = oracle.effect_matrix(oracle.neighbour_sets((nrows, ncols), torus=wraps, self_toggle=self_toggle))
            rules = Rules.check((nrows, ncols), torus=torus, self_toggle=self_toggle)
            expected = nrows * ncols - oracle.rank_mod_prime(matrix, 2)
            assert lightsout.nullity(nrows, ncols, torus=torus, self_toggle=self_toggle) == expected, (nrows, ncols)
            if poly_rules_take(rules):
                assert poly_rules_nullity(rules) == expected


@pytest.mark.parametrize("shape", [(200, 200), (256, 96), (97, 300), (510, 510)])
@pytest.mark.parametrize("torus", WRAPS)
def test_larger_wrapped_nullities_match_the_nd_route(shape, torus):
    for self_toggle in (True, False):
        expected = lightsout.nullity(*shape, torus=torus, self_toggle=self_toggle, method="nd")
        assert lightsout.nullity(*shape, torus=torus, self_toggle=self_toggle) == expected


@pytest.mark.parametrize("nrows, ncols", [(1000, 999), (1024, 768), (4097, 3000), (2046, 2046)])
@pytest.mark.parametrize("self_toggle", [True, False])
def test_large_wrapped_nullities_agree_whichever_axis_is_chased(nrows, ncols, self_toggle):
    # the torus: either axis may be the shift x, the other the slice ring
    torus = wrapped_nullity(nrows, ncols, wrap_columns=True, self_toggle=self_toggle)
    assert torus == wrapped_nullity(ncols, nrows, wrap_columns=True, self_toggle=self_toggle)
    # rows open, columns wrapping: the wrapped axis as x, or the chase along the open rows,
    # deg gcd(U_{R+1}(s), y^C + 1) in the ring of the wrapping columns (the route takes the cheaper)
    wrapped = wrapped_nullity(ncols, nrows, wrap_columns=False, self_toggle=self_toggle)
    assert wrapped == cylinder_nullity(nrows, ncols, self_toggle=self_toggle)
    rules = Rules.check((nrows, ncols), torus=(False, True), self_toggle=self_toggle)
    assert poly_rules_nullity(rules) == wrapped


def test_boards_outside_these_routes_keep_their_route():
    # k states, more axes and masks are not taken; the plain open grid stays on the plain polynomial route
    assert not poly_rules_take(Rules.check((5, 5), torus=True, states=3))
    assert not poly_rules_take(Rules.check((5, 5, 5), torus=True))
    assert not poly_rules_take(Rules.check((5, 5), torus=True, holes=[[1, 0, 0, 0, 0]] + [[0] * 5] * 4))
    assert not poly_rules_take(Rules.check((5, 5)))
    assert not poly_rules_take(Rules.check((2, 2), torus=True))     # both wraps act as open: the plain route
    assert lightsout.nullity(5, torus=True, states=3) == lightsout.nullity(5, torus=True, states=3, method="nd")
    with pytest.raises(lightsout.InternalError):
        poly_rules_nullity(Rules.check((5, 5)))


@pytest.mark.parametrize("call", [
    lambda: lightsout.nullity(10**11, torus=True),
    lambda: lightsout.nullity(10**11, self_toggle=False),
    lambda: lightsout.first_row(10**11, self_toggle=False),
    lambda: lightsout.nullity(10**9, torus=True),      # the cyclic ladder's scratch on the wrapping sides
])
def test_huge_boards_are_refused_before_the_work(call):
    with pytest.raises(lightsout.BoardTooLargeError, match="MAX_POLY_BYTES"):
        call()


def test_bad_sizes_are_refused_with_the_package_s_errors():
    with pytest.raises(lightsout.InvalidBoardError):
        lightsout.nullity(0, torus=True)
    with pytest.raises(lightsout.InvalidTypeError):
        lightsout.first_row(2.5, self_toggle=False)
    with pytest.raises(lightsout.InvalidBoardError):
        sigma_nullity(3, -1)
    # the fast paths check threads and progress as every route does
    with pytest.raises(lightsout.InvalidTypeError):
        lightsout.first_row(4, self_toggle=False, progress=3)
    with pytest.raises((lightsout.InvalidTypeError, lightsout.InvalidBoardError)):
        lightsout.first_row(4, self_toggle=False, threads="many")
    with pytest.raises(lightsout.InvalidTypeError):
        lightsout.nullity(4, torus=True, progress=3)
