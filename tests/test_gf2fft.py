"""Products in GF(2)[t] by the additive FFT (lightsout/_kernels/gf2fft.h).

``set_thresholds(fft_words=1)`` sends every product of at least one word through
the transform, so small operands reach every transform size and both basis
changes; ``fft_words=10**12`` turns it off.  Products are checked against
tests/polyref.py (plain integers), against an independent float convolution in
numpy at a million bits, and against the Toom-3 path of the same build.
"""
from __future__ import annotations

import random
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from types import ModuleType as Gf2PolyModule  # lightsout._kernels.gf2poly at one level

import numpy as np
import oracle
import pytest
from conftest import interrupt_after_start, stops_at_ctrl_c
from polyref import ref_mul

import lightsout
from lightsout._base.errors import InvalidBoardError, InvalidTypeError
from lightsout._kernels import load, selected_level

OFF = 10**12


def words(x: int) -> np.ndarray:
    n = max(1, (x.bit_length() + 63) // 64)
    return np.frombuffer(x.to_bytes(8 * n, "little"), dtype="<u8").astype(np.uint64)


def value(a: np.ndarray) -> int:
    return int.from_bytes(np.ascontiguousarray(a, dtype="<u8").tobytes(), "little")


def operand(rng: random.Random, nbits: int) -> int:
    """A random polynomial of degree exactly nbits - 1."""
    return rng.getrandbits(nbits) | (1 << (nbits - 1))


@contextmanager
def fft_from(poly: Gf2PolyModule, fft_words: int) -> Iterator[None]:
    old = poly.set_thresholds(fft_words=fft_words)
    try:
        yield
    finally:
        poly.set_thresholds(**old)


@pytest.fixture
def poly(simd_level: str) -> Gf2PolyModule:
    return load("gf2poly", simd_level)


def convolution_product(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """a * b from numpy's float FFT: the integer convolution of the bit vectors, mod 2.

    Exact while the counts (at most min(len) <= 2 * 10^6) stay far below 2^52 / rounding noise.
    """
    bits_a = np.unpackbits(a.view(np.uint8), bitorder="little").astype(np.float64)
    bits_b = np.unpackbits(b.view(np.uint8), bitorder="little").astype(np.float64)
    n = len(bits_a) + len(bits_b)
    counts = np.fft.irfft(np.fft.rfft(bits_a, n) * np.fft.rfft(bits_b, n), n)
    bits = (np.rint(counts).astype(np.int64) & 1).astype(np.uint8)
    packed = np.packbits(bits, bitorder="little")
    packed = np.concatenate([packed, np.zeros(-len(packed) % 8, dtype=np.uint8)])
    out = packed.view("<u8").astype(np.uint64)
    return out[: max(1, len(out) - int(np.argmax(out[::-1] != 0)))] if out.any() else out[:1]


def test_threshold_settable_and_checked(poly: Gf2PolyModule) -> None:
    before = poly.thresholds()
    assert before["fft_words"] >= 1
    with fft_from(poly, 7):
        assert poly.thresholds() == {**before, "fft_words": 7}
    assert poly.thresholds() == before
    for bad in (0, -1, 2**63, 2**70, np.int64(0)):
        with pytest.raises(InvalidBoardError, match=r"fft_words must be in 1\.\.9223372036854775807 words"):
            poly.set_thresholds(fft_words=bad)
    for bad_type in (2.5, "8", True, np.float64(8), [8]):
        with pytest.raises(InvalidTypeError, match="fft_words must be an int"):
            poly.set_thresholds(fft_words=bad_type)
    assert poly.thresholds() == before


@pytest.mark.parametrize("name", ["newton_words", "hgcd_words", "gcd_words", "toom_words", "fft_words", "thread_words"])
def test_every_threshold_is_checked_before_any_is_set(poly: Gf2PolyModule, name: str) -> None:
    """set_thresholds(x=2**70) used to raise a bare OverflowError, after setting the arguments before x."""
    before = poly.thresholds()
    with pytest.raises(InvalidBoardError, match=name):
        poly.set_thresholds(**{other: 5 for other in before if other != name}, **{name: 2**70})
    assert poly.thresholds() == before
    old = poly.set_thresholds(**{name: np.int64(2**63 - 1)})   # the largest accepted, from a numpy int
    try:
        assert poly.thresholds()[name] == 2**63 - 1 and type(poly.thresholds()[name]) is int
    finally:
        poly.set_thresholds(**old)
    assert poly.thresholds() == before


@pytest.mark.parametrize("nwords", (1, 2, 3, 4, 5, 7, 8, 9, 15, 16, 17, 31, 32, 33, 63, 64, 65, 100, 255, 256, 257))
def test_every_transform_size_against_polyref(poly: Gf2PolyModule, nwords: int) -> None:
    """Operands on either side of each power of two, so the transform size steps through 2^1 .. 2^11."""
    rng = random.Random(nwords)
    with fft_from(poly, 1):
        for other in sorted({1, 2, nwords - 1 or 1, nwords, nwords + 1, 2 * nwords, 3 * nwords + 1}):
            a = operand(rng, 64 * nwords - rng.randint(0, 63))
            b = operand(rng, 64 * other - rng.randint(0, 63))
            assert value(poly.poly_mul(words(a), words(b))) == ref_mul(a, b), (nwords, other)


def test_special_operands(poly: Gf2PolyModule) -> None:
    """Zero, one, monomials, all ones, words of zeros past the degree: the same as polyref."""
    rng = random.Random(3)
    ones = (1 << 4000) - 1
    cases = [(0, ones), (1, ones), (1 << 3999, ones), (ones, ones), (1 << 64, 1 << 63),
             ((1 << 2048) | 1, (1 << 2047) | 1), (operand(rng, 5000), 1 << 4321)]
    with fft_from(poly, 1):
        for a, b in cases:
            assert value(poly.poly_mul(words(a), words(b))) == ref_mul(a, b)
            padded = np.concatenate([words(a), np.zeros(5, dtype=np.uint64)])
            assert value(poly.poly_mul(padded, words(b))) == ref_mul(a, b)
    assert value(poly.poly_mul(words(0), words(0))) == 0


@pytest.mark.parametrize("short", (1, 2, 3, 8, 33))
def test_unbalanced_operands_are_cut(poly: Gf2PolyModule, short: int) -> None:
    """A long operand is multiplied in pieces of about twice the short one: every remainder length."""
    rng = random.Random(short)
    a = operand(rng, 64 * short)
    with fft_from(poly, 1):
        for nlong in (short, 2 * short, 2 * short + 1, 3 * short - 1, 3 * short, 7 * short + 2, 200):
            b = operand(rng, 64 * nlong - 5)
            assert value(poly.poly_mul(words(a), words(b))) == ref_mul(a, b)
            assert value(poly.poly_mul(words(b), words(a))) == ref_mul(a, b)


@pytest.mark.parametrize("short", (1, 2, 3, 5, 33, 100))
def test_long_operands_reuse_the_short_ones_transform(poly: Gf2PolyModule, short: int) -> None:
    """A long operand goes in pieces that fill transforms smaller than one product's
    (2 (short + piece) - 1 32-bit halves within 2^K): the short operand's transform serves every
    piece.  Lengths at each boundary of pieces of a product with twice the short one's words, on 1
    to 4 threads, against the plain-integer product."""
    halves = 2 * (short + 2 * short) - 1
    size = 1 << (halves - 1).bit_length()
    piece = size // 2 - short
    assert piece >= 2 * short
    rng = random.Random(short + 17)
    a = operand(rng, 64 * short)
    with fft_from(poly, 1):
        for nlong in sorted({3 * short, piece, piece + 1, 2 * piece - 1, 2 * piece, 2 * piece + 1, 5 * piece + 3}):
            if nlong < 3 * short:
                continue
            b = operand(rng, 64 * nlong - 3)
            expected = ref_mul(a, b)
            for threads in (1, 2, 3, 4):
                before = poly.set_thresholds(thread_words=1)
                try:
                    assert value(poly.poly_mul(words(a), words(b), threads=threads)) == expected, (nlong, threads)
                    assert value(poly.poly_mul(words(b), words(a), threads=threads)) == expected, (nlong, threads)
                finally:
                    poly.set_thresholds(**before)


@pytest.mark.parametrize("log_words", (5, 8, 11))
def test_operands_just_past_a_power_of_two_go_in_pieces(poly: Gf2PolyModule, log_words: int) -> None:
    """Products whose one transform would be mostly padding (each operand 0.55-0.65 of a power of
    two, or a quotient times its divisor, twice as long) run as two or more pieces in transforms of
    half the size: against the plain-integer product and the same operands with the FFT off, on 1
    to 3 threads."""
    rng = random.Random(log_words)
    size = 1 << log_words
    shapes = [(int(f * size), int(f * size) + d) for f in (0.55, 0.6, 0.65) for d in (0, 1)]
    shapes += [(size // 2 + 3, size + 7), (size + 5, 2 * size + 9)]
    for na, nb in shapes:
        a, b = operand(rng, 64 * na - 1), operand(rng, 64 * nb - 7)
        expected = ref_mul(a, b)
        with fft_from(poly, 10**12):
            assert value(poly.poly_mul(words(a), words(b))) == expected
        for threads in (1, 2, 3):
            before = poly.set_thresholds(thread_words=1, fft_words=1)
            try:
                assert value(poly.poly_mul(words(a), words(b), threads=threads)) == expected, (na, nb, threads)
                assert value(poly.poly_mul(words(b), words(a), threads=threads)) == expected, (na, nb, threads)
            finally:
                poly.set_thresholds(**before)


def test_a_million_bits_against_a_float_convolution() -> None:
    """Independent of the package: numpy's complex FFT of the bit vectors, counts mod 2."""
    poly = load("gf2poly", selected_level())
    rng = np.random.default_rng(7)
    a = rng.integers(0, 2**64, 1_000_000 // 64, dtype=np.uint64)
    b = rng.integers(0, 2**64, 700_001 // 64, dtype=np.uint64)
    a[-1] |= np.uint64(1 << 63)
    b[-1] |= np.uint64(1)
    expected = convolution_product(a, b)
    with fft_from(poly, 1):
        assert np.array_equal(poly.poly_mul(a, b), expected)


def assert_both_loops_multiply(poly: Gf2PolyModule, a: np.ndarray, b: np.ndarray, expected: np.ndarray,
                               threads: tuple[int, int]) -> None:
    """a b and b a (on threads[0] and threads[1] threads) by the FFT from one word are `expected`,
    with the wide loops on and then off."""
    old = poly.set_fft_wide(True)
    try:
        for wide in (True, False):
            poly.set_fft_wide(wide)
            with fft_from(poly, 1):
                assert np.array_equal(poly.poly_mul(a, b, threads=threads[0]), expected), wide
                assert np.array_equal(poly.poly_mul(b, a, threads=threads[1]), expected), wide
    finally:
        poly.set_fft_wide(old)


@pytest.mark.parametrize("na, nb", ((17_000, 15_000), (20_000, 13_000), (30_000, 1_200)))
def test_shared_basis_change_and_paired_levels_against_a_float_convolution(
        poly: Gf2PolyModule, na: int, nb: int) -> None:
    """Transforms of 2^16 and 2^17 elements at every build, wide loops on and off: the operands'
    one basis change (a in the low, b in the high halves) with lengths that differ, the levels
    above the cached blocks two at a time (one pair, then a pair and one level), the last three
    levels eight groups at a time; the third shape is cut into pieces with a shorter last one."""
    rng = np.random.default_rng(na + nb)
    a = rng.integers(0, 2**64, na, dtype=np.uint64)
    b = rng.integers(0, 2**64, nb, dtype=np.uint64)
    a[-1] >>= np.uint64(9)
    assert_both_loops_multiply(poly, a, b, convolution_product(a, b), threads=(1, 1))


@pytest.mark.parametrize("slice_words", (64, 4096, 1 << 17))
def test_passes_in_slices_against_a_float_convolution(poly: Gf2PolyModule, slice_words: int) -> None:
    """The transform's passes cut into slices with a Ctrl-C check between them (2^21 words each
    by default, so only products of gigabytes have many): with small slices, transforms of 2^17
    elements (three levels above the cached blocks: a pair and one) take every way a pass is cut,
    a quarter of a block at a time, whole blocks, one level by ranges of butterflies; and so do
    the loops over the array's words (packing, zeroing, the split of the shared basis change,
    the copies of the top levels, the sum of the pieces); the wide loops on and off."""
    rng = np.random.default_rng(slice_words)
    a = rng.integers(0, 2**64, 20_000, dtype=np.uint64)
    b = rng.integers(0, 2**64, 15_001, dtype=np.uint64)
    expected = convolution_product(a, b)
    old_slice = poly.set_fft_pass_slice(slice_words)
    try:
        assert_both_loops_multiply(poly, a, b, expected, threads=(1, 2))
    finally:
        poly.set_fft_pass_slice(old_slice)


def test_pass_slices_are_checked(poly: Gf2PolyModule) -> None:
    old = poly.set_fft_pass_slice(1 << 21)
    for bad in (0, 32, 100, 3 << 10, 1 << 41):
        with pytest.raises(InvalidBoardError, match="power of two"):
            poly.set_fft_pass_slice(bad)
    for wrong in (128.0, "128", True, None):
        with pytest.raises(InvalidTypeError, match="set_fft_pass_slice"):
            poly.set_fft_pass_slice(wrong)
    assert poly.set_fft_pass_slice(np.int64(1 << 12)) == 1 << 21
    assert poly.set_fft_pass_slice(old) == 1 << 12


def test_the_wide_switch_takes_a_bool_only(poly: Gf2PolyModule) -> None:
    old = poly.set_fft_wide(False)
    try:
        for wrong in (1, 0, "yes", None):
            with pytest.raises(InvalidTypeError, match="set_fft_wide"):
                poly.set_fft_wide(wrong)
        assert poly.set_fft_wide(np.bool_(True)) is False
    finally:
        poly.set_fft_wide(old)


@pytest.mark.parametrize("nbits", (100_000, 333_333, 2_000_000))
def test_the_fft_and_toom3_agree(nbits: int) -> None:
    poly = load("gf2poly", selected_level())
    rng = np.random.default_rng(nbits)
    a = rng.integers(0, 2**64, nbits // 64 + 1, dtype=np.uint64)
    b = rng.integers(0, 2**64, nbits // 80 + 1, dtype=np.uint64)
    with fft_from(poly, OFF):
        expected = poly.poly_mul(a, b)
    with fft_from(poly, 1):
        assert np.array_equal(poly.poly_mul(a, b), expected)
        assert np.array_equal(poly.poly_mul(a, a), poly.poly_square(a))


#: Every fast path from a few words up, the FFT from one word: the route's gcd, divisions and
#: products all run through transforms on boards small enough to replay.
EVERYTHING_BY_FFT = {"newton_words": 2, "hgcd_words": 2, "gcd_words": 4, "toom_words": 12, "fft_words": 1}


@pytest.mark.parametrize("n", (300, 301, 1000, 2001))
def test_first_rows_through_the_fft_replay_dark(n: int) -> None:
    """first_row with every product in transforms: the independent chase leaves the board dark."""
    poly = load("gf2poly", selected_level())
    old = poly.set_thresholds(**EVERYTHING_BY_FFT)
    try:
        first = lightsout.first_row(n)
    finally:
        poly.set_thresholds(**old)
    _, left = oracle.chase_fast(np.ones((n, n), dtype=bool), first[None])  # type: ignore[no-untyped-call]
    assert not left.any()


@pytest.mark.parametrize("n", (200_000, 200_001, 262_144))
def test_first_rows_are_the_same_with_the_fft_off(n: int) -> None:
    poly = load("gf2poly", selected_level())
    with fft_from(poly, OFF):
        expected = lightsout.first_row(n), lightsout.nullity(n)
    with fft_from(poly, 1):
        got = lightsout.first_row(n), lightsout.nullity(n)
    assert np.array_equal(got[0], expected[0]) and got[1] == expected[1]


def test_every_build_gives_the_same_products(simd_level: str) -> None:
    """The portable build's table multiply and the PCLMULQDQ builds agree."""
    rng = np.random.default_rng(11)
    a = rng.integers(0, 2**64, 3000, dtype=np.uint64)
    b = rng.integers(0, 2**64, 2500, dtype=np.uint64)
    here, generic = load("gf2poly", simd_level), load("gf2poly", "generic")
    with fft_from(here, 1), fft_from(generic, OFF):
        assert np.array_equal(here.poly_mul(a, b), generic.poly_mul(a, b))


def test_the_wide_and_the_one_at_a_time_loops_agree(poly: Gf2PolyModule) -> None:
    """VPCLMULQDQ (where this CPU has it) and one PCLMULQDQ or table product at a time: the same bits."""
    rng = np.random.default_rng(13)
    a = rng.integers(0, 2**64, 40_000, dtype=np.uint64)
    b = rng.integers(0, 2**64, 33_333, dtype=np.uint64)
    old = poly.set_fft_wide(False)
    try:
        assert poly.set_fft_wide(False) is False
        with fft_from(poly, 1):
            narrow = poly.poly_mul(a, b), poly.poly_gcd_cofactor(a[:5000], b[:4000])
        poly.set_fft_wide(True)
        assert poly.set_fft_wide(True) is poly.fft_wide_supported()
        with fft_from(poly, 1):
            wide = poly.poly_mul(a, b), poly.poly_gcd_cofactor(a[:5000], b[:4000])
    finally:
        poly.set_fft_wide(old)
    assert np.array_equal(narrow[0], wide[0])
    assert all(np.array_equal(x, y) for x, y in zip(narrow[1], wide[1]))


def test_schoolbook_products_of_every_small_shape(poly: Gf2PolyModule) -> None:
    """The schoolbook leaves (eight or four output words at a time where the CPU has VPCLMULQDQ,
    masked at both ends) on every pair of sizes up to 40 words, both loops, against polyref."""
    rng = random.Random(17)
    old = poly.set_fft_wide(True)
    try:
        for na in range(1, 41):
            for nb in range(1, 41, 3):
                a = operand(rng, 64 * na - rng.randint(0, 63))
                b = operand(rng, 64 * nb - rng.randint(0, 63))
                expected = ref_mul(a, b)
                for wide in (True, False):
                    poly.set_fft_wide(wide)
                    assert value(poly.poly_mul(words(a), words(b))) == expected, (na, nb, wide)
    finally:
        poly.set_fft_wide(old)


def test_threads_share_nothing() -> None:
    """Concurrent products (the GIL is released) give the sequential results."""
    poly = load("gf2poly", selected_level())
    rng = np.random.default_rng(5)
    pairs = [(rng.integers(0, 2**64, 20_000 + 999 * i, dtype=np.uint64),
              rng.integers(0, 2**64, 15_000, dtype=np.uint64)) for i in range(4)]
    with fft_from(poly, 1):
        expected = [poly.poly_mul(a, b) for a, b in pairs]
        got: dict[int, np.ndarray] = {}

        def work(i: int) -> None:
            for _ in range(3):
                got[i] = poly.poly_mul(*pairs[i])

        threads = [threading.Thread(target=work, args=(i,)) for i in range(len(pairs))]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    assert all(np.array_equal(got[i], expected[i]) for i in range(len(pairs)))


# A product of two degree-2^28 polynomials (seconds); SIGINT arrives while the nogil transform runs.
_INTERRUPTIBLE = """
import numpy as np
from lightsout._kernels import load
poly = load("gf2poly")
a = np.full(1 << 22, 0x9E3779B97F4A7C15, dtype=np.uint64)
print("started", flush=True)
poly.poly_mul(a, a)
poly.poly_mul(a, a)
print("finished", flush=True)
"""


def test_ctrl_c_inside_a_product(tmp_path: Path) -> None:
    returncode, out, err = interrupt_after_start(_INTERRUPTIBLE, tmp_path)
    assert returncode != 0 and "KeyboardInterrupt" in err, (out, err)
    assert "finished" not in out


@pytest.mark.skipif(threading.current_thread() is not threading.main_thread(),
                    reason="signal handlers run on the main thread")
@pytest.mark.parametrize("short", (20, 600))
def test_ctrl_c_inside_a_long_product_by_a_short_operand(short: int) -> None:
    """A 2^24-word operand times one of a few words (schoolbook) or a few hundred (Toom-3 pieces):
    thousands of small products, none long enough to look for Ctrl-C alone, so the loop over the
    long operand looks every 2^16 words; the product stops before its end."""
    poly = load("gf2poly", selected_level())
    rng = np.random.default_rng(short)
    a = rng.integers(0, 2**64, short, dtype=np.uint64)
    b = rng.integers(0, 2**64, 1 << 24, dtype=np.uint64)
    stops_at_ctrl_c(lambda: poly.poly_mul(a, b), f"a product of {short} by 2^24 words")
