"""The near-linear conversions of the polynomial route against slow references, at every SIMD level.

The Dickson basis, the W basis and phi are rebuilt here from their recurrences on
Python ints (tests/polyref.py); the all-lit residue from an explicit numpy chase;
the half-degree gcds from the plain gcd of the full polynomials.
"""
from __future__ import annotations

import random

import numpy as np
import oracle
import pytest
from conftest import AWKWARD_BITS
from polyref import ref_divmod, ref_gcd, ref_mul, ref_phi, ref_taylor, ref_u, ref_w_combination

import lightsout
from lightsout._base.packing import pack_row, unpack_row
from lightsout._kernels import load
from lightsout._routes.poly import _all_lit_residue_poly, _gcd_and_inverse, nullity_poly, square_nullity


def words(x: int, nwords: int | None = None) -> np.ndarray:
    n = nwords if nwords is not None else max(1, (x.bit_length() + 63) // 64)
    return np.array([(x >> (64 * i)) & (2**64 - 1) for i in range(n)], dtype=np.uint64)


def value(a: np.ndarray) -> int:
    return sum(int(w) << (64 * i) for i, w in enumerate(a))


def ref_dickson(count: int) -> list[int]:
    """B_0 = 1 and D_1 .. D_{count-1} as ints in s: D_0 = 0, D_1 = s, D_{j+1} = s D_j + D_{j-1}."""
    basis, prev, cur = [1], 0, 0b10
    for _ in range(1, count):
        basis.append(cur)
        prev, cur = cur, (cur << 1) ^ prev
    return basis


def ref_w(j: int) -> int:
    return ref_taylor(ref_u(j))


@pytest.fixture
def poly(simd_level):
    return load("gf2poly", simd_level)


CONVERT_BITS = AWKWARD_BITS + (511, 512, 513, 4095, 4096, 4097)


def test_dickson_basis_elements(poly):
    basis = ref_dickson(700)
    for j in list(range(130)) + [255, 256, 257, 511, 512, 513, 699]:
        assert value(poly.dickson_to_monomial(words(1 << j))) == basis[j], j
        assert value(poly.monomial_to_dickson(words(basis[j]))) == 1 << j, j


@pytest.mark.parametrize("nbits", CONVERT_BITS)
def test_dickson_change_of_basis_is_linear_and_invertible(poly, nbits):
    rng = random.Random(nbits)
    coefficients = rng.getrandbits(nbits)
    basis = ref_dickson(nbits) if nbits <= 1000 else None
    monomial = poly.dickson_to_monomial(words(coefficients))
    if basis is not None:
        expected = 0
        for j in range(nbits):
            if (coefficients >> j) & 1:
                expected ^= basis[j]
        assert value(monomial) == expected
    assert value(poly.monomial_to_dickson(monomial)) == coefficients


@pytest.mark.parametrize("ncols", [1, 2, 3, 4, 5, 63, 64, 65, 127, 128, 129, 255, 257, 300])
def test_w_combination_and_phi_against_recurrences(poly, ncols):
    rng = random.Random(ncols)
    for _ in range(3):
        c = rng.getrandbits(ncols)
        expected = 0
        for j in range(1, ncols + 1):
            if (c >> (j - 1)) & 1:
                expected ^= ref_w(j)
        fast = poly.w_combination(words(c, (ncols + 63) // 64), ncols)
        assert value(fast) == expected
        assert ref_w_combination(c, ncols) == expected
        f = rng.getrandbits(ncols)  # any F of degree < ncols
        assert value(poly.phi_image(words(f), ncols)) == ref_phi(f, ncols)


@pytest.mark.parametrize("ncols", [1000, 4096, 4097, 20000])
def test_fast_conversions_match_the_recurrences(poly, ncols):
    rng = np.random.default_rng(ncols)
    c = pack_row(rng.integers(0, 2, ncols))
    f = poly.w_combination(c, ncols)
    assert value(f) == ref_w_combination(value(c), ncols)
    assert np.array_equal(poly.phi_image(f, ncols), c)
    assert value(c) == ref_phi(value(f), ncols)


def test_phi_image_refuses_a_polynomial_of_full_degree(poly):
    with pytest.raises(lightsout.InvalidBoardError):
        poly.phi_image(words(1 << 5), 5)


@pytest.mark.parametrize("k", [0, 1, 2, 3, 63, 64, 65, 200, 1000])
def test_chebyshev_u_sum(poly, k):
    expected = 0
    for j in range(1, k + 1):
        expected ^= ref_u(j)
    assert value(poly.chebyshev_u_sum(k)) == expected


@pytest.mark.parametrize("nbits", (1,) + CONVERT_BITS)
def test_poly_square(poly, nbits):
    a = random.Random(nbits).getrandbits(nbits)
    assert value(poly.poly_square(words(a))) == ref_mul(a, a)


def numpy_all_lit_residue(rows: int, cols: int) -> np.ndarray:
    """r_{R+1} of the all-lit board chased from a dark first row, by plain numpy."""
    _, left = oracle.chase_fast(np.ones((rows, cols), dtype=bool), np.zeros((1, cols), dtype=bool))
    return np.asarray(left[0, rows - 1], dtype=np.uint8)  # every other row ends dark


@pytest.mark.parametrize("shape", [(1, 1), (2, 1), (5, 5), (7, 3), (64, 64), (65, 64), (130, 65), (300, 200),
                                   (301, 77)])
def test_all_lit_residue_without_chasing(poly, shape):
    rows, cols = shape
    chi = poly.poly_taylor_shift(poly.chebyshev_u(cols + 1))
    expected = ref_w_combination(value(pack_row(numpy_all_lit_residue(rows, cols))), cols)
    assert value(_all_lit_residue_poly(rows, cols, chi)) == expected


@pytest.mark.parametrize("shape", [(2, 2), (4, 4), (16, 16), (18, 18), (100, 100), (130, 64), (200, 98),
                                   (66, 66), (402, 400)] + [(n, n) for n in range(6, 260, 8)] + [(n, n) for n in (
                                   8, 10, 12, 14, 24, 30, 32, 38, 62, 64, 78, 98, 118, 120, 126, 128, 254, 510, 512)]
                         + [(n, n) for n in list(range(1, 140, 6)) + [3, 5, 9, 11, 19, 23, 29, 47, 65, 79, 95, 255, 511]])
def test_half_degree_gcd_and_inverse(shape):
    rows, cols = shape
    chi = value(load("gf2poly").poly_taylor_shift(words(ref_u(cols + 1))))
    u = ref_divmod(ref_u(rows + 1), chi)[1]
    g, s = _gcd_and_inverse(rows, cols, words(chi), None)
    assert value(g) == ref_gcd(u, chi)
    assert ref_divmod(ref_mul(value(s), u) ^ value(g), chi)[1] == 0  # s u = g (mod chi)
    assert value(s).bit_length() <= cols  # deg s < C: the route's product C^ s stays under 2C - 1 bits


def test_square_nullity_against_the_plain_gcd():
    for n in range(1, 400):
        chi = ref_taylor(ref_u(n + 1))
        assert square_nullity(n) == ref_gcd(ref_u(n + 1), chi).bit_length() - 1, n


def test_even_rectangle_nullities_against_the_plain_gcd():
    for rows in range(2, 90, 2):
        for cols in range(2, rows, 2):
            chi = ref_taylor(ref_u(cols + 1))
            u = ref_divmod(ref_u(rows + 1), chi)[1]
            assert nullity_poly(rows, cols) == ref_gcd(u, chi).bit_length() - 1, (rows, cols)


@pytest.mark.parametrize("n", [2000, 2001, 2046, 2047, 2048, 3000])
def test_big_all_lit_first_rows_replay_dark(n):
    first = lightsout.first_row(n)
    _, left = oracle.chase_fast(np.ones((n, n), dtype=bool), first[None])
    assert not left.any()


def test_first_row_matches_the_dense_route_on_big_boards():
    for n in (700, 701, 1024):
        assert np.array_equal(lightsout.first_row(n), lightsout.first_row(n, method="dense")), n


def test_unpacked_round_trip_through_phi(poly):
    row = np.random.default_rng(5).integers(0, 2, 777).astype(bool)
    assert np.array_equal(unpack_row(poly.phi_image(poly.w_combination(pack_row(row), 777), 777), 777), row)


#: OEIS A159257, "Rank deficiency of the Lights Out problem of size n", n = 1..130 (as published).
OEIS_A159257 = [
    0, 0, 0, 4, 2, 0, 0, 0, 8, 0, 6, 0, 0, 4, 0, 8, 2, 0, 16, 0, 0, 0, 14, 4, 0, 0, 0, 0, 10, 20, 0, 20,
    16, 4, 6, 0, 0, 0, 32, 0, 2, 0, 0, 4, 0, 0, 30, 0, 8, 8, 0, 0, 2, 4, 0, 0, 0, 0, 22, 0, 40, 24, 0,
    28, 42, 0, 32, 0, 8, 0, 14, 0, 0, 4, 0, 0, 2, 0, 64, 0, 0, 0, 6, 12, 0, 0, 0, 0, 10, 0, 0, 20, 0, 4,
    62, 0, 0, 20, 16, 0, 18, 0, 0, 4, 0, 0, 6, 0, 8, 0, 0, 0, 2, 4, 0, 0, 0, 8, 46, 0, 0, 0, 80, 4, 50,
    56, 0, 56, 56, 0,
]


def test_square_nullities_equal_the_published_table():
    assert lightsout.nullity_table(len(OEIS_A159257)).tolist() == OEIS_A159257


def test_square_nullities_against_the_torus_route():
    # OEIS A165738 (Buchholz): torus nullity(n + 1) = 2 nullity(n) + (4 if n = 2 mod 3 else 0).
    # The torus nullity comes from the general route, which shares nothing with the gcds.
    for n in list(range(1, 80)) + [255, 256, 511, 512, 599, 600, 1023]:
        torus = lightsout.nullity((n + 1, n + 1), torus=True)
        assert torus == 2 * square_nullity(n) + (4 if n % 3 == 2 else 0), n


def test_sampled_big_square_nullities_against_the_full_degree_gcd():
    poly = load("gf2poly")
    rng = random.Random(250_000)
    for n in [rng.randrange(100_000, 250_001) for _ in range(6)] + [249_999, 250_000]:
        u = poly.chebyshev_u(n + 1)
        full = int(poly.poly_degree(poly.poly_gcd(u, poly.poly_taylor_shift(u))))
        assert square_nullity(n) == full, n
        assert full % 2 == 0 and full <= n  # the published bounds (A159257 comments)


@pytest.mark.parametrize("shape", [(4, 4), (5, 5), (9, 9), (11, 11), (16, 16), (19, 19), (30, 30), (33, 33),
                                   (17, 5), (23, 11), (64, 39), (47, 47)])
def test_mirrored_route_gives_the_canonical_first_row(shape):
    """The least-degree solution of the mirrored board, mirrored back, is the lexicographic minimum."""
    from lightsout._routes.poly import solve_grid_poly
    from lightsout._core.canonical import canonical_first_row

    rows, cols = shape
    rng = np.random.default_rng(rows * 100 + cols)
    for _ in range(4):
        board = oracle.replay(np.zeros(shape, dtype=np.uint8), rng.integers(0, 2, shape)).astype(bool)
        result = solve_grid_poly(rows, cols, lightsout._base.packing.pack_rows(board))
        assert result.canonical and result.solvable
        quiet = np.array(list(result.kernel_words() if result.kernel_words else []), dtype=np.uint64)
        quiet_rows = lightsout._base.packing.unpack_rows(quiet.reshape(-1, (cols + 63) // 64), cols)
        assert np.array_equal(result.first_row, canonical_first_row(result.first_row, quiet_rows))
        if cols <= 12:  # every solving first row, in lexicographic order: the first one is canonical
            assert np.array_equal(result.first_row, oracle.solving_first_rows(board)[0])
