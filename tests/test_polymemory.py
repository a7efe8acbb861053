"""The polynomial route's memory-lean kernels and steps (issue 31): each against an independent reference.

``poly_square`` and ``chebyshev_u_sum`` against tests/polyref.py, ``poly_mod_overwrite``
against polyref's division on every path (schoolbook, Newton from one word), the staged Newton
division through the route's first rows (products and divisions sent through the FFT and Newton
at small sizes) replayed by the oracle and compared with the dense route, and the refusal of
sides whose scratch cannot be held, before any allocation.
"""
from __future__ import annotations

import random

import numpy as np
import oracle
import pytest
from conftest import AWKWARD_BITS
from polyref import ref_divmod, ref_mul, ref_u
from test_halfgcd import operand, thresholds, value, words

import lightsout
from lightsout._base.errors import InvalidTypeError
from lightsout._core.rules import Rules
from lightsout._routes.registry import ROUTES
from lightsout._kernels import load, selected_level




@pytest.fixture
def poly(simd_level):
    return load("gf2poly", simd_level)


@pytest.mark.parametrize("nbits", AWKWARD_BITS + (3000,))
def test_poly_square_is_the_product_with_itself(poly, nbits):
    a = operand(random.Random(nbits), nbits)
    got = poly.poly_square(words(a))
    assert value(got) == ref_mul(a, a)
    assert got.shape[0] == max(1, (2 * nbits - 1 + 63) // 64)  # trimmed: no word past the degree
    padded = np.concatenate([words(a), np.zeros(3, np.uint64)])
    assert value(poly.poly_square(padded)) == ref_mul(a, a)
    assert value(poly.poly_square(np.zeros(2, np.uint64))) == 0


def test_chebyshev_u_sum_is_the_sum_of_the_u(poly):
    total, u_prev, u = 0, 0, 1  # U_0 = 0, U_1 = 1
    for k in range(1, 300):
        total ^= u
        assert value(poly.chebyshev_u_sum(k)) == total, k
        u_prev, u = u, (u << 1) ^ u_prev
    for k in (511, 512, 513, 1000):
        expected = 0
        for j in range(1, k + 1):
            expected ^= ref_u(j)
        assert value(poly.chebyshev_u_sum(k)) == expected, k
    assert value(poly.chebyshev_u_sum(0)) == 0


@pytest.mark.parametrize("setting", [{}, {"newton_words": 1, "fft_words": 1}, {"newton_words": 3},
                                     {"newton_words": 10**12}], ids=["default", "newton-fft", "newton-3", "school"])
def test_poly_mod_overwrite_leaves_the_remainder_in_place(poly, setting):
    rng = random.Random(len(setting))
    with thresholds(poly, **setting):
        for nbits in (1, 64, 65, 129, 1000, 5000):
            for other in (1, 63, 64, 65, max(1, nbits // 2), nbits, nbits + 7):
                a, b = operand(rng, nbits), operand(rng, other)
                remainder = ref_divmod(a, b)[1]
                work = np.concatenate([words(a), np.zeros(2, np.uint64)])
                got = poly.poly_mod_overwrite(work, words(b))
                assert value(got) == remainder, (nbits, other)
                assert got.shape[0] == 1 or got[-1] != 0
                assert value(work) == remainder  # a's words hold it, zero above
                assert value(poly.poly_mod(words(a), words(b))) == remainder


def test_poly_mod_overwrite_refuses_what_it_cannot_overwrite(poly):
    frozen = words(0b1011)
    frozen.flags.writeable = False
    for bad in (frozen, np.array([11], np.int64), np.zeros((1, 1), np.uint64), np.zeros(0, np.uint64),
                np.zeros(4, np.uint64)[::2], [11]):
        with pytest.raises(InvalidTypeError, match="writable"):
            poly.poly_mod_overwrite(bad, words(3))
    with pytest.raises(ZeroDivisionError):
        poly.poly_mod_overwrite(words(11), words(0))


@pytest.mark.parametrize("n", [127, 128, 129, 200, 255, 256, 257, 300])
def test_first_rows_through_newton_and_the_fft_match_the_dense_route(n):
    """Every product through the FFT and every division through Newton from one word: the same rows."""
    poly = load("gf2poly", selected_level())
    with thresholds(poly, newton_words=1, fft_words=1, hgcd_words=2, gcd_words=3):
        row = lightsout.first_row(n)
    assert np.array_equal(row, lightsout.first_row(n, method="dense"))
    _, left = oracle.chase_fast(np.ones((n, n), dtype=bool), row)
    assert not left.any()


@pytest.mark.parametrize("shape", [(130, 129), (129, 130), (200, 64), (257, 255)])
def test_rectangles_through_newton_and_the_fft_match_the_dense_route(shape):
    poly = load("gf2poly", selected_level())
    with thresholds(poly, newton_words=1, fft_words=1):
        row = lightsout.first_row(*shape)
    assert np.array_equal(row, lightsout.first_row(*shape, method="dense"))


def test_a_first_row_past_its_budget_is_refused_before_any_allocation(monkeypatch):
    import tracemalloc

    from lightsout._routes import poly as route

    tracemalloc.start()
    try:
        with pytest.raises(lightsout.BoardTooLargeError, match=r"186 GiB.*lightsout\.limits\.MAX_POLY_FIRST_ROW_BYTES"):
            lightsout.first_row(10**11)
        monkeypatch.setattr(route, "machine_bytes", lambda: 16 << 30)  # ten billion on a machine of 16 GiB
        with pytest.raises(lightsout.BoardTooLargeError, match="18.6 GiB.*more than this machine's 16 GiB"):
            lightsout.first_row(10**10)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 1 << 20  # nothing of the run's size was allocated


def test_the_first_row_has_its_own_budget_and_a_solve_keeps_the_general_one(monkeypatch):
    from lightsout._routes import poly as route

    assert lightsout.limits.MAX_POLY_FIRST_ROW_BYTES == route.MAX_POLY_FIRST_ROW_BYTES
    assert route.poly_scratch_bytes(10**10, first_row=True) < route.MAX_POLY_FIRST_ROW_BYTES
    monkeypatch.setattr(route, "machine_bytes", lambda: 64 << 30)
    rules = Rules.of_grid(10**10, 10**10)
    ROUTES["poly"].refuse(rules, solving=True)                    # the all-lit first row may run
    with pytest.raises(lightsout.BoardTooLargeError, match="MAX_POLY_BYTES"):
        ROUTES["poly"].refuse(rules, solving=True, board_given=True)   # a board of that size may not
    with pytest.raises(lightsout.BoardTooLargeError, match="MAX_POLY_BYTES"):  # nor the transposed all-lit one
        ROUTES["poly"].refuse(Rules.of_grid(10**9, 10**10), solving=True)


@pytest.mark.parametrize("limit", [1, 1 << 13, 1 << 15, 1 << 17])
def test_products_held_to_a_transform_limit_have_the_same_bits(limit):
    poly = load("gf2poly", selected_level())
    rng = random.Random(limit)
    shapes = [(70, 70), (64, 300), (150, 101), (127, 255), (65, 900), (200, 333)]
    for na, nb in shapes:
        a, b = operand(rng, 64 * na - rng.randrange(63)), operand(rng, 64 * nb - rng.randrange(63))
        with thresholds(poly, fft_words=1 << 40):   # Toom and Karatsuba alone: no transform at all
            plain = poly.poly_mul(words(a), words(b))
            plain_gcd = poly.poly_gcd_cofactor(words(a), words(b))
        with thresholds(poly, fft_words=64, gcd_words=8, hgcd_words=4):
            old = poly.fft_transform_limit(limit)
            try:
                held = poly.poly_mul(words(a), words(b))
                held_gcd = poly.poly_gcd_cofactor(words(a), words(b))
            finally:
                poly.fft_transform_limit(old)
        assert np.array_equal(held, plain), (na, nb)
        assert all(np.array_equal(x, y) for x, y in zip(held_gcd, plain_gcd)), (na, nb)
        if na * nb <= 150 * 101:
            assert value(held) == ref_mul(a, b)


def test_the_transform_limit_is_per_thread_and_refuses_bad_values():
    import threading

    poly = load("gf2poly", selected_level())
    old = poly.fft_transform_limit(1 << 20)
    try:
        seen = []
        worker = threading.Thread(target=lambda: seen.append(poly.fft_transform_limit()))
        worker.start()
        worker.join()
        assert seen == [0] and poly.fft_transform_limit() == 1 << 20
        with pytest.raises(lightsout.InvalidBoardError, match=">= 0"):
            poly.fft_transform_limit(-1)
        with pytest.raises(TypeError, match="an int or None"):
            poly.fft_transform_limit(True)
    finally:
        poly.fft_transform_limit(old)
    assert poly.fft_transform_limit() == old


def test_the_route_holds_transforms_to_its_limit_only_on_huge_sides():
    from lightsout._routes import poly as route

    poly = load("gf2poly", selected_level())
    assert route.transform_limit(route.TRANSFORM_LIMIT_FROM_SIDE - 1) == 0
    side = 10**10
    assert route.transform_limit(side) == route.TRANSFORM_LIMIT_POLYS * 8 * ((side + 64) // 64)
    with route.polynomial_work(1, side):
        assert poly.fft_transform_limit() == route.transform_limit(side)
    assert poly.fft_transform_limit() == 0


def test_the_nullity_alone_has_its_own_budget(monkeypatch):
    from lightsout._routes import poly as route

    assert lightsout.limits.MAX_POLY_NULLITY_BYTES == route.MAX_POLY_NULLITY_BYTES
    square = (10**10, 10**10)
    assert route.poly_scratch_bytes(10**10, square) < route.MAX_POLY_NULLITY_BYTES < route.poly_scratch_bytes(10**10)
    monkeypatch.setattr(route, "machine_bytes", lambda: 64 << 30)
    route.refuse_poly(10**10, nullity_shape=square)              # nullity(10**10) may run
    with pytest.raises(lightsout.BoardTooLargeError, match="MAX_POLY_NULLITY_BYTES"):
        route.refuse_poly(10**10, nullity_shape=(10**10, 10**10 - 1))   # an odd rectangle's gcd: 24 polynomials
    with pytest.raises(lightsout.BoardTooLargeError, match="MAX_POLY_BYTES"):
        route.refuse_poly(10**10)                                # its first row may not
    monkeypatch.setattr(route, "machine_bytes", lambda: 8 << 30)  # a machine without the memory
    with pytest.raises(lightsout.BoardTooLargeError, match="more than this machine's 8 GiB"):
        lightsout.nullity(10**10)
    monkeypatch.setattr(route, "machine_bytes", lambda: None)     # a platform that does not say
    route.refuse_poly(10**10, nullity_shape=square)


def _reverse(x: int, degree: int) -> int:
    """rev_degree(x) = t^degree x(1/t), as an int (independent of the kernels' bit reversal)."""
    return int(format(x, f"0{degree + 1}b")[::-1], 2)


@pytest.mark.parametrize("nbits", AWKWARD_BITS + (3000,))
def test_poly_reversed_inverse_inverts_the_reverse(poly, nbits):
    rng = random.Random(nbits)
    b = operand(rng, nbits) | 1 if nbits > 1 else 1
    reverse = _reverse(b, nbits - 1)
    with thresholds(poly, newton_words=1, fft_words=1):        # Newton's steps through the FFT too
        for want in (1, 64, 65, 200, max(1, nbits), 2 * nbits + 5):
            inverse = poly.poly_reversed_inverse(words(b), want)
            nwords = (want + 63) // 64
            assert inverse.shape == (nwords,) and inverse.dtype == np.uint64
            assert ref_mul(value(inverse), reverse) % (1 << (64 * nwords)) == 1, (nbits, want)


@pytest.mark.parametrize("setting", [{}, {"newton_words": 1, "fft_words": 1}, {"newton_words": 3}],
                         ids=["default", "newton-fft", "newton-3"])
def test_poly_mod_overwrite_reuses_a_given_inverse(poly, setting):
    """One inverse for several dividends, some with quotients longer than it (then worked out anew)."""
    rng = random.Random(7 + len(setting))
    with thresholds(poly, **setting):
        for mbits in (64, 65, 129, 1000, 5000, 20000):
            b = operand(rng, mbits)
            inverse = poly.poly_reversed_inverse(words(b), mbits)
            for nbits in (mbits, mbits + 1, 2 * mbits - 1, 2 * mbits + 64, 3 * mbits):
                a = operand(rng, nbits)
                work = np.concatenate([words(a), np.zeros(1, np.uint64)])
                got = poly.poly_mod_overwrite(work, words(b), inverse=inverse)
                assert value(got) == ref_divmod(a, b)[1], (mbits, nbits)
                assert value(work) == value(got)


def test_a_wrong_inverse_or_length_is_refused(poly):
    b, other = words(operand(random.Random(1), 900)), words(operand(random.Random(2), 900) | 2)
    inverse = poly.poly_reversed_inverse(other, 900)
    if (poly.poly_reversed_inverse(b, 64)[0] != inverse[0]):
        with pytest.raises(lightsout.InvalidBoardError, match="not rev"):
            poly.poly_mod_overwrite(words(operand(random.Random(3), 1700)), b, inverse=inverse)
    for bad in (inverse.astype(np.int64), np.zeros(0, np.uint64), inverse[::2], [1]):
        with pytest.raises(InvalidTypeError, match="poly_reversed_inverse"):
            poly.poly_mod_overwrite(words(operand(random.Random(3), 1700)), b, inverse=bad)
    for nbits in (0, -5, (1 << 38) + 1):
        with pytest.raises(lightsout.InvalidBoardError, match="nbits"):
            poly.poly_reversed_inverse(b, nbits)
    with pytest.raises(ZeroDivisionError):
        poly.poly_reversed_inverse(words(0), 64)


class _CountingKernels:
    """lightsout._kernels with gf2poly's inverse and in-place division counted (for the route)."""

    def __init__(self, kernels, log):
        self._kernels, self._log = kernels, log

    def __getattr__(self, name):
        if name != "gf2poly":
            return getattr(self._kernels, name)
        poly, log = self._kernels.gf2poly, self._log

        class Counted:
            def __getattr__(self, attr):
                return getattr(poly, attr)

            def poly_reversed_inverse(self, b, nbits):
                log.append(("inverse", nbits))
                return poly.poly_reversed_inverse(b, nbits)

            def poly_mod_overwrite(self, a, b, inverse=None):
                quotient_bits = poly.poly_degree(a) - poly.poly_degree(b) + 1
                log.append(("mod", quotient_bits, None if inverse is None else 64 * inverse.shape[0]))
                return poly.poly_mod_overwrite(a, b, inverse)

        return Counted()


@pytest.mark.parametrize("windows", [False, True])
@pytest.mark.parametrize("n, m", [(300, 300), (256, 256), (320, 319), (400, 290)])
def test_the_route_works_out_chi_s_inverse_once(monkeypatch, windows, n, m):
    """Both reductions by chi (and every window of each) use one inverse, long enough for each."""
    from lightsout._base.packing import unpack_row
    from lightsout._routes import poly as route

    log: list[tuple] = []
    poly = load("gf2poly", selected_level())
    monkeypatch.setattr(route, "kernels", _CountingKernels(route.kernels, log))
    if windows:
        monkeypatch.setattr(route, "MOD_WINDOWS_FROM_WORDS", 1)
    with thresholds(poly, newton_words=1, fft_words=1, hgcd_words=2, gcd_words=3):
        words_, found = route.all_lit_first_row_words(n, m)
    assert [entry[0] for entry in log].count("inverse") == 1
    mods = [entry for entry in log if entry[0] == "mod"]
    assert len(mods) == 2 if not windows else len(mods) >= 3   # a short dividend may take one window
    assert all(inverse is not None and quotient <= inverse for _, quotient, inverse in mods), mods
    row = unpack_row(words_, m)
    _, lights = oracle.chase_fast(np.ones((n, m), bool), row)
    assert not lights.any()
    assert np.array_equal(row, lightsout.first_row(n, m, method="dense"))
