"""GF(2)[t] kernels against slow polynomial arithmetic on Python ints, at every SIMD level.

A Python int is a bit vector: bit i is the coefficient of t^i.  The reference
functions below are the schoolbook algorithms, written here and used only here.
"""
from __future__ import annotations

import random

import numpy as np
import pytest
from conftest import AWKWARD_BITS
from polyref import (
    ref_apply_t, ref_compose_s, ref_divmod, ref_gcd, ref_mul, ref_phi, ref_taylor, ref_u, ref_xgcd,
)
from hypothesis import given, settings
from hypothesis import strategies as st

import lightsout
from lightsout._kernels import available_levels, load

# ---------------------------------------------------------------------------
# Reference arithmetic on ints








def words(x: int, nwords: int | None = None) -> np.ndarray:
    n = nwords if nwords is not None else max(1, (x.bit_length() + 63) // 64)
    return np.array([(x >> (64 * i)) & (2**64 - 1) for i in range(n)], dtype=np.uint64)


def value(a: np.ndarray) -> int:
    return sum(int(w) << (64 * i) for i, w in enumerate(a))


def assert_trimmed(a: np.ndarray) -> None:
    """Results carry no words past the degree (and at least one word)."""
    assert a.dtype == np.uint64 and a.ndim == 1 and a.shape[0] >= 1
    assert a.shape[0] == 1 or a[-1] != 0


@pytest.fixture
def poly(simd_level):
    return load("gf2poly", simd_level)


def operands(rng: random.Random, nbits: int) -> int:
    """A random polynomial of exactly degree nbits - 1."""
    return rng.getrandbits(nbits) | (1 << (nbits - 1))


SIZES = AWKWARD_BITS + (2048, 3000, 5000)  # 3000+ bits reach the Karatsuba path


def test_pclmul_in_wide_builds():
    for level in available_levels():
        assert load("gf2poly", level).have_pclmul() == (level != "generic")


@pytest.mark.parametrize("nbits", SIZES)
def test_degree_add_shift(poly, nbits):
    rng = random.Random(nbits)
    a, b = operands(rng, nbits), rng.getrandbits(nbits)
    assert poly.poly_degree(words(a)) == nbits - 1
    assert poly.poly_degree(words(a, words(a).shape[0] + 3)) == nbits - 1  # padding words
    assert poly.poly_degree(np.zeros(3, np.uint64)) == -1
    total = poly.poly_add(words(a), words(b))
    assert value(total) == a ^ b
    assert_trimmed(total)
    for k in (0, 1, 63, 64, 65, 200, -1, -63, -64, -65, -nbits, -nbits - 5):
        got = poly.poly_shift(words(a), k)
        assert value(got) == (a << k if k >= 0 else a >> -k), k
        assert_trimmed(got)


def test_shift_refuses_a_product_past_memory(poly):
    """A shift whose product could never be held is refused with the package's error, not numpy's."""
    for k in (2**62, 2**63 - 1):
        with pytest.raises(lightsout.BoardTooLargeError, match="poly_shift"):
            poly.poly_shift(np.array([0b101], np.uint64), k)
        assert poly.poly_shift(np.zeros(2, np.uint64), k).tolist() == [0]   # zero stays zero


def long_words(x: int) -> np.ndarray:
    """words(x) for a long x, in linear time."""
    return np.frombuffer(x.to_bytes(8 * max(1, (x.bit_length() + 63) // 64), "little"), dtype="<u8").astype(np.uint64)


def long_value(a: np.ndarray) -> int:
    """value(a) for a long a, in linear time."""
    return int.from_bytes(a.astype("<u8").tobytes(), "little")


@pytest.mark.parametrize("nwords", [65535, 65536, 65537, 2 * 65536 + 5])
def test_add_shift_square_across_pieces(poly, nwords):
    """Sums, shifts and squares pass over a row 65536 words at a time with a look for Ctrl-C between:
    the same values as on ints when the row and the shorter operand end anywhere around a piece."""
    words, value = long_words, long_value
    rng = random.Random(nwords)
    a = operands(rng, 64 * nwords - 5)
    for short_words in (1, 65535, 65536, 65537, nwords):
        b = operands(rng, 64 * short_words - 1)
        for x, y in ((a, b), (b, a)):
            total = poly.poly_add(words(x), words(y))
            assert value(total) == x ^ y, short_words
            assert_trimmed(total)
    for k in (0, 1, 64, 64 * 65536 + 3, -1, -64, -64 * 65536 - 7):
        got = poly.poly_shift(words(a), k)
        assert value(got) == (a << k if k >= 0 else a >> -k), k
        assert_trimmed(got)
    square = poly.poly_square(words(a))
    assert value(square) == int("0".join(bin(a)[2:]), 2)     # a(t)^2 = a(t^2): a zero between two bits
    assert_trimmed(square)


@pytest.mark.parametrize("nbits", SIZES)
def test_mul(poly, nbits):
    rng = random.Random(nbits)
    for other in (1, 64, 65, nbits, 2 * nbits + 3, 3000):
        a, b = operands(rng, nbits), operands(rng, other)
        got = poly.poly_mul(words(a), words(b))
        assert value(got) == ref_mul(a, b), (nbits, other)
        assert_trimmed(got)
    assert value(poly.poly_mul(words(0), words(a))) == 0


@pytest.mark.parametrize("nbits", SIZES)
def test_divmod(poly, nbits):
    rng = random.Random(nbits)
    for other in (1, 2, 63, 64, 65, max(1, nbits // 2), nbits, nbits + 10):
        a, b = operands(rng, nbits), operands(rng, other)
        q, r = poly.poly_divmod(words(a), words(b))
        assert (value(q), value(r)) == ref_divmod(a, b), (nbits, other)
        assert_trimmed(q)
        assert_trimmed(r)
        assert value(poly.poly_mod(words(a), words(b))) == ref_divmod(a, b)[1]
    with pytest.raises(ZeroDivisionError):
        poly.poly_divmod(words(a), words(0))


@pytest.mark.parametrize("nbits", SIZES)
def test_gcd_and_xgcd(poly, nbits):
    rng = random.Random(nbits)
    small = nbits <= 1000  # the textbook reference is quadratic in Python; check identities above
    for common_bits in (1, 2, 40, 64, 70, max(1, nbits // 3)):
        g0 = operands(rng, common_bits)
        a = ref_mul(operands(rng, nbits), g0)
        b = ref_mul(operands(rng, max(1, nbits // 2 + 1)), g0)
        for x, y in ((a, b), (b, a), (a, a), (a, 0), (0, b), (a, ref_mul(a, 0b111))):
            g, s, t = (value(v) for v in poly.poly_xgcd(words(x), words(y)))
            assert ref_mul(s, x) ^ ref_mul(t, y) == g
            # g divides both and is a combination of both, so it is the gcd.
            assert ref_divmod(x, g)[1] == 0 and ref_divmod(y, g)[1] == 0
            assert value(poly.poly_gcd(words(x), words(y))) == g
            if small:
                assert (g, s, t) == ref_xgcd(x, y) or y == 0 or x == y
            gc, sc = poly.poly_gcd_cofactor(words(x), words(y))
            assert value(gc) == g
            if y:
                assert ref_divmod(ref_mul(value(sc), x) ^ g, y)[1] == 0


def test_xgcd_edge_cases(poly):
    zero, one = words(0), words(1)
    assert [value(v) for v in poly.poly_xgcd(zero, zero)] == [0, 0, 0]
    assert [value(v) for v in poly.poly_xgcd(words(0b110), zero)] == [0b110, 1, 0]
    assert [value(v) for v in poly.poly_xgcd(zero, words(0b110))] == [0b110, 0, 1]
    assert [value(v) for v in poly.poly_xgcd(one, words(0b10))] == list(ref_xgcd(1, 0b10))


@pytest.mark.parametrize("nbits", SIZES)
def test_taylor_shift_and_chebyshev(poly, nbits):
    rng = random.Random(nbits)
    a = operands(rng, nbits)
    if nbits <= 1000:
        assert value(poly.poly_taylor_shift(words(a))) == ref_taylor(a)
    # (t+1) substitution twice is the identity, at every size
    assert value(poly.poly_taylor_shift(poly.poly_taylor_shift(words(a)))) == a
    assert value(poly.chebyshev_u(nbits)) == ref_u(nbits)


def bitwise_split_s(a: np.ndarray) -> tuple[int, int]:
    """poly_split_s's levels one bit per byte, with no blocks and no word tricks: top-down over
    quarters of m bits, every group of four gets q2 ^= q3, then q1 ^= q2; then even and odd bits."""
    bits = np.unpackbits(a.astype("<u8").view(np.uint8), bitorder="little")
    size = 4
    while size < len(bits):
        size *= 2
    bits = np.concatenate([bits, np.zeros(size - len(bits), np.uint8)])
    m = size // 4
    while m >= 1:
        groups = bits.reshape(-1, 4, m)
        groups[:, 2] ^= groups[:, 3]
        groups[:, 1] ^= groups[:, 2]
        m //= 2
    even, odd = (int.from_bytes(np.packbits(bits[k::2], bitorder="little").tobytes(), "little") for k in (0, 1))
    return even, odd


@pytest.mark.parametrize("nbits", SIZES)
def test_split_in_powers_of_t2_plus_t(poly, nbits):
    """a = A(t^2 + t) + t B(t^2 + t), with deg A <= deg a / 2 and deg B < deg a / 2 (which makes
    the split unique: 1 and t are a basis over GF(2)[t^2 + t])."""
    rng = random.Random(nbits)
    a = operands(rng, nbits)
    even, odd = poly.poly_split_s(words(a))
    assert_trimmed(even)
    assert_trimmed(odd)
    assert ref_compose_s(value(even)) ^ (ref_compose_s(value(odd)) << 1) == a
    assert 2 * (value(even).bit_length() - 1) <= nbits - 1
    assert 2 * (value(odd).bit_length() - 1) + 1 <= nbits - 1 or value(odd) == 0


@pytest.mark.parametrize("nbits", [64 * 32768 - 1, 64 * 32768 + 1, 3 * 64 * 32768 + 12345])
def test_split_across_cache_blocks_against_the_bitwise_levels(poly, nbits):
    """Past one 32768-word block the split's top levels run over the whole row, the rest block by
    block: against the same levels bit by bit."""
    a = np.random.default_rng(nbits).integers(0, 2**63, (nbits + 63) // 64, dtype=np.uint64, endpoint=True)
    a[-1] &= (1 << (nbits % 64)) - 1
    even, odd = poly.poly_split_s(a)
    assert (value(even), value(odd)) == bitwise_split_s(a)


def test_split_halves_the_gcd_of_a_and_its_shift(poly):
    """gcd(a(t), a(t + 1)) = gcd(A, B)(t^2 + t): a common factor planted as f(t) f(t + 1)."""
    rng = random.Random(7)
    for _ in range(40):
        f = operands(rng, rng.randrange(1, 60))
        a = ref_mul(ref_mul(f, ref_taylor(f)), operands(rng, rng.randrange(1, 200)))
        even, odd = poly.poly_split_s(words(a))
        whole = ref_gcd(a, ref_taylor(a))
        assert whole == ref_compose_s(ref_gcd(value(even), value(odd)))
        assert value(poly.poly_gcd(words(a), poly.poly_taylor_shift(words(a)))).bit_length() == whole.bit_length()


@pytest.mark.parametrize("nbits", SIZES)
def test_join_in_powers_of_t2_plus_t(poly, nbits):
    rng = random.Random(nbits + 1)
    even, odd = operands(rng, nbits), rng.getrandbits(nbits)
    joined = poly.poly_join_s(words(even), words(odd))
    assert_trimmed(joined)
    assert value(joined) == ref_compose_s(even) ^ (ref_compose_s(odd) << 1)


@pytest.mark.parametrize("nwords", [1, 2, 3, 32767, 32768, 32769, 65537, 3 * 32768 + 5])
def test_join_undoes_the_split_across_cache_blocks(poly, nwords):
    a = np.random.default_rng(nwords).integers(0, 2**63, nwords, dtype=np.uint64, endpoint=True)
    a[-1] |= np.uint64(1)
    assert np.array_equal(poly.poly_join_s(*poly.poly_split_s(a)), a)


def test_split_and_join_of_zero_one_and_t(poly):
    assert [value(p) for p in poly.poly_split_s(words(0))] == [0, 0]
    assert [value(p) for p in poly.poly_split_s(words(1))] == [1, 0]
    assert [value(p) for p in poly.poly_split_s(words(0b10))] == [0, 1]
    assert [value(poly.poly_join_s(words(e), words(o))) for e, o in [(0, 0), (1, 0), (0, 1), (1, 1)]] == [0, 1, 2, 3]
    empty = np.zeros(0, dtype=np.uint64)                   # an empty row is zero too
    assert [value(p) for p in poly.poly_split_s(empty)] == [0, 0]
    assert value(poly.poly_join_s(empty, empty)) == 0
    assert value(poly.poly_taylor_shift(empty)) == 0


def test_chebyshev_small(poly):
    for k in range(0, 300):
        assert value(poly.chebyshev_u(k)) == ref_u(k), k


def test_bad_arguments(poly):
    with pytest.raises(TypeError):
        poly.poly_mul([1, 2], words(1))
    with pytest.raises(TypeError):
        poly.poly_mul(np.array([1], dtype=np.int64), words(1))
    with pytest.raises(ValueError):
        poly.poly_mul(np.zeros((2, 2), dtype=np.uint64), words(1))
    with pytest.raises(ValueError):
        poly.poly_mul(np.zeros(4, dtype=np.uint64)[::2], words(1))
    with pytest.raises(ValueError):
        poly.phi_image(words(0b1000), 3)
    with pytest.raises(ValueError):
        poly.chebyshev_u(-1)


# ---------------------------------------------------------------------------
# The route's coordinate maps: phi(F) = F(T) e_1 and its inverse sum_j c_j W_j




@pytest.mark.parametrize("ncols", AWKWARD_BITS)
def test_phi_and_its_inverse(poly, ncols):
    rng = random.Random(ncols)
    for _ in range(3):
        f = rng.getrandbits(ncols)
        c = words(ref_phi(f, ncols), (ncols + 63) // 64)
        assert value(poly.phi_image(words(f), ncols)) == ref_phi(f, ncols)
        assert value(poly.w_combination(c, ncols)) == f
    # phi(W_j) = e_j: W_j = U_j(t + 1)
    for j in {1, min(2, ncols), ncols // 2 + 1, ncols}:
        w_j = ref_taylor(ref_u(j)) if ncols <= 300 else value(poly.poly_taylor_shift(words(ref_u(j))))
        assert ref_phi(w_j, ncols) == 1 << (j - 1)


@settings(max_examples=60, deadline=None)
@given(a=st.integers(0, 2**700), b=st.integers(0, 2**700), level=st.sampled_from(available_levels()))
def test_property_ring_identities(a, b, level):
    poly = load("gf2poly", level)
    assert value(poly.poly_mul(words(a), words(b))) == ref_mul(a, b)
    if b:
        q, r = poly.poly_divmod(words(a), words(b))
        assert ref_mul(value(q), b) ^ value(r) == a and value(r).bit_length() < b.bit_length()
    g, s, t = poly.poly_xgcd(words(a), words(b))
    assert value(g) == ref_gcd(a, b)
    assert ref_mul(value(s), a) ^ ref_mul(value(t), b) == value(g)


def test_packed_rows_refused_with_package_errors(poly):
    """Rows of ncols bits keep their tail bits zero; sizes must be positive (one validation path)."""
    from lightsout._base.errors import InvalidBoardError, InvalidTypeError
    with pytest.raises(InvalidBoardError):
        poly.apply_T_row(words(0b1000), 3)  # bit 3 of a 3-bit row
    with pytest.raises(InvalidBoardError):
        poly.apply_T_row(words(1, 2), 3)  # extra words
    with pytest.raises(InvalidBoardError):
        poly.w_combination(words(0b1000), 3)
    with pytest.raises(InvalidBoardError):
        poly.w_combination(words(0b1, 2), 3)
    for ncols in (0, -1):
        with pytest.raises(InvalidBoardError):
            poly.apply_T_row(words(0), ncols)
        with pytest.raises(InvalidBoardError):
            poly.w_combination(words(0), ncols)
        with pytest.raises(InvalidBoardError):
            poly.phi_image(words(0), ncols)
    with pytest.raises(InvalidTypeError):
        poly.apply_T_row([1], 3)
    with pytest.raises(InvalidTypeError):
        poly.poly_mul(np.array([1], dtype=np.int64), words(1))
    with pytest.raises(InvalidBoardError):
        poly.poly_mul(np.zeros(4, dtype=np.uint64)[::2], words(1))
    with pytest.raises(InvalidBoardError):
        poly.chebyshev_u(-1)
    assert not hasattr(poly, "chase_rows")  # one chase: lightsout._kernels.chase


@pytest.mark.parametrize("ncols", AWKWARD_BITS)
def test_apply_T_row(poly, ncols):
    rng = random.Random(ncols)
    for _ in range(3):
        v = rng.getrandbits(ncols)
        got = poly.apply_T_row(words(v, (ncols + 63) // 64), ncols)
        assert got.shape == ((ncols + 63) // 64,)
        assert value(got) == ref_apply_t(v, ncols)
