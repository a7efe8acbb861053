"""The FFT's scratch arena (gf2fft.h): transforms of 2 MiB and more kept for the next product;
and transforms of 32 MiB and more, mapped fresh from the kernel, whose zero tail is not zeroed again.

Transforms are kept only for a size asked for again: from the third product of one size in a
row (warm() runs those).  A kept transform still holds the last product's values, so the
products here follow one another at one transform size with operands of different lengths (a
shorter one leaves a longer zero tail that the stale values must not leak into), on one
thread and on a crew, and are checked against numpy's float convolution
(test_gf2fft.convolution_product), which shares nothing with the package.  Operands of about
60,000 words each take transforms of 2^18 words (2 MiB, on huge pages), of about 4,000 words
2^14 (128 KiB, the smallest the arena keeps): near the top of their size, so that each is one
product, not pieces in transforms of half the size (polyproducts.pxi, product_log_size).
"""
from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from types import ModuleType as Gf2PolyModule  # lightsout._kernels.gf2poly at one level

import numpy as np
import pytest
from test_gf2fft import convolution_product, fft_from

from lightsout._base.errors import InvalidBoardError, InvalidTypeError
from lightsout._kernels import load, selected_level

TRANSFORM_BYTES = 8 << 18  # the transforms of the products below
MAPPED_BYTES = 8 << 22     # transforms of 2^22 words: mappings of their own, fresh (zero) when taken


@pytest.fixture
def poly(simd_level: str) -> Gf2PolyModule:
    return load("gf2poly", simd_level)


@contextmanager
def scratch_limit(poly: Gf2PolyModule, nbytes: int) -> Iterator[None]:
    old = poly.fft_scratch_limit(nbytes)
    poly.fft_scratch_release()
    try:
        yield
    finally:
        poly.fft_scratch_limit(old)
        poly.fft_scratch_release()


def operands(seed: int, na: int, nb: int) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    a = rng.integers(0, 2**64, na, dtype=np.uint64)
    b = rng.integers(0, 2**64, nb, dtype=np.uint64)
    a[-1] |= np.uint64(1 << 63)
    b[-1] |= np.uint64(1)
    return a, b


def warm(poly: Gf2PolyModule, a: np.ndarray, b: np.ndarray, threads: int = 1) -> np.ndarray:
    """The product of a and b, the third of its size in a row: its transforms are kept."""
    for _ in range(3):
        product = poly.poly_mul(a, b, threads=threads)
    return product


# dense full-length operands first, then shorter and unequal ones at the same transform size
SHAPES = {18: ((60_000, 60_000), (59_800, 59_800), (64_000, 55_000), (60_000, 59_770)),
          14: ((4_096, 4_000), (3_600, 3_000), (4_000, 4_000), (5_000, 3_000))}


@pytest.mark.parametrize("threads", (1, 2))
@pytest.mark.parametrize("log_size", sorted(SHAPES))
def test_products_after_kept_transforms_against_a_float_convolution(
        poly: Gf2PolyModule, threads: int, log_size: int) -> None:
    pairs = [operands(i, na, nb) for i, (na, nb) in enumerate(SHAPES[log_size])]
    expected = [convolution_product(a, b) for a, b in pairs]
    with scratch_limit(poly, 1 << 29), fft_from(poly, 1):
        old = poly.set_thresholds(thread_words=1)
        try:
            assert np.array_equal(warm(poly, *pairs[0], threads=threads), expected[0])
            for (a, b), want in zip(pairs, expected):
                assert np.array_equal(poly.poly_mul(a, b, threads=threads), want)
        finally:
            poly.set_thresholds(**old)
        assert poly.fft_scratch_release() > 0  # the products above did go through the arena


def test_the_limit_bounds_what_is_kept() -> None:
    poly = load("gf2poly", selected_level())
    a, b = operands(9, 60_000, 60_000)
    with fft_from(poly, 1):
        with scratch_limit(poly, 0):
            warm(poly, a, b)
            assert poly.fft_scratch_release() == 0
        with scratch_limit(poly, TRANSFORM_BYTES):
            warm(poly, a, b)
            assert poly.fft_scratch_release() == TRANSFORM_BYTES
        with scratch_limit(poly, 2 * TRANSFORM_BYTES):
            warm(poly, a, b)
            assert poly.fft_scratch_limit(TRANSFORM_BYTES) == 2 * TRANSFORM_BYTES  # frees past the new limit
            assert poly.fft_scratch_release() == 0


def test_a_product_of_another_size_frees_what_is_kept() -> None:
    poly = load("gf2poly", selected_level())
    big = operands(3, 120_000, 120_000)
    small = operands(4, 60_000, 60_000)
    with scratch_limit(poly, 1 << 29), fft_from(poly, 1):
        warm(poly, *big)
        assert poly.fft_scratch_release() == 4 * TRANSFORM_BYTES  # two transforms of 2^19 words
        warm(poly, *big)
        warm(poly, *small)
        assert poly.fft_scratch_release() == 2 * TRANSFORM_BYTES  # the small product's two, not the big ones


def test_products_whose_sizes_change_keep_nothing() -> None:
    """Two products of one size in a row keep nothing (the polynomial route's sizes change)."""
    poly = load("gf2poly", selected_level())
    big = operands(5, 120_000, 120_000)
    small = operands(6, 60_000, 60_000)
    with scratch_limit(poly, 1 << 29), fft_from(poly, 1):
        for _ in range(3):
            poly.poly_mul(*small, threads=1)
            poly.poly_mul(*small, threads=1)
            poly.poly_mul(*big, threads=1)
            assert poly.fft_scratch_release() == 0


def test_concurrent_products_through_the_arena() -> None:
    """Threads taking and giving back kept transforms at once get the sequential products."""
    poly = load("gf2poly", selected_level())
    pairs = [operands(10 + i, 60_000 - 50 * i, 60_000) for i in range(4)]
    with scratch_limit(poly, 1 << 29), fft_from(poly, 1):
        expected = [poly.poly_mul(a, b, threads=1) for a, b in pairs]
        assert np.array_equal(expected[0], convolution_product(*pairs[0]))
        assert np.array_equal(expected[3], convolution_product(*pairs[3]))
        poly.fft_scratch_release()
        got: dict[int, list[np.ndarray]] = {i: [] for i in range(len(pairs))}

        def work(i: int) -> None:
            for _ in range(3):
                got[i].append(poly.poly_mul(*pairs[i], threads=1))

        threads = [threading.Thread(target=work, args=(i,)) for i in range(len(pairs))]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    assert all(np.array_equal(r, expected[i]) for i in got for r in got[i])
    assert all(len(got[i]) == 3 for i in got)


@pytest.mark.parametrize("bad, error", ((True, InvalidTypeError), ("1", InvalidTypeError), (1.0, InvalidTypeError),
                                        (-1, InvalidBoardError)))
def test_a_bad_limit_is_refused_and_changes_nothing(bad: object, error: type) -> None:
    poly = load("gf2poly", selected_level())
    before = poly.fft_scratch_limit()
    with pytest.raises(error, match="fft_scratch_limit"):
        poly.fft_scratch_limit(bad)
    assert poly.fft_scratch_limit() == before


def test_the_polynomial_route_keeps_no_transform() -> None:
    """first_row turns the arena off on its thread (a kept transform would raise its peak) and restores it:
    equal products afterwards are kept again, and the rows are the same as with the arena off."""
    import lightsout
    poly = load("gf2poly", selected_level())
    poly.fft_scratch_release()
    size = 300_001
    with_arena = lightsout.first_row(size)
    assert poly.fft_scratch_release() == 0            # nothing kept by the route
    old = poly.fft_scratch_limit(0)
    try:
        assert np.array_equal(lightsout.first_row(size), with_arena)
    finally:
        poly.fft_scratch_limit(old)
    a = np.ones(1 << 15, dtype=np.uint64)
    for _ in range(4):
        poly.poly_mul(a, a)
    assert poly.fft_scratch_release() > 0             # the thread's setting came back on
    with pytest.raises(InvalidTypeError):
        poly.fft_scratch_keep(1)


# Operands of about 2 million words in all take transforms of 2^22 words (32 MiB): fresh mappings
# whose tails the product leaves as the kernel zeroed them.  The first shape fills the most words;
# the shorter ones after it, at the same size, leave longer tails, which a kept (written) transform
# must have zeroed; the last is unequal (one piece).
MAPPED_SHAPES = ((1_000_000, 1_000_000), (990_000, 985_000), (1_040_000, 950_000))


@pytest.mark.parametrize("threads", (1, 2))
def test_fresh_mapped_transforms_and_kept_ones_give_the_same_products(threads: int) -> None:
    """Products on fresh 32 MiB transforms (tails not zeroed) and then on the same transforms kept by
    the arena (written: their tails zeroed) equal Toom-3's products (no FFT at all)."""
    poly = load("gf2poly", selected_level())
    pairs = [operands(20 + i, na, nb) for i, (na, nb) in enumerate(MAPPED_SHAPES)]
    with fft_from(poly, 10**9):
        expected = [poly.poly_mul(a, b, threads=1) for a, b in pairs]
    with scratch_limit(poly, 1 << 29), fft_from(poly, 1):
        old = poly.set_thresholds(thread_words=1)
        try:
            assert np.array_equal(poly.poly_mul(*pairs[0], threads=threads), expected[0])  # fresh
            assert np.array_equal(warm(poly, *pairs[0], threads=threads), expected[0])
            for (a, b), want in zip(pairs[1:], expected[1:]):
                assert np.array_equal(poly.poly_mul(a, b, threads=threads), want)  # kept, then fresh ones
        finally:
            poly.set_thresholds(**old)
        assert poly.fft_scratch_release() == 2 * MAPPED_BYTES  # the products did keep their mapped transforms


@pytest.mark.parametrize("threads", (1, 2))
def test_a_division_whose_two_products_share_their_transforms(threads: int) -> None:
    """Newton's division holds the quotient product's transforms (4 MiB here) for the remainder's
    product of the same size: q b + r = a, checked with Toom-3's products (no FFT), and deg r < deg b."""
    poly = load("gf2poly", selected_level())
    a, _ = operands(30, 200_000, 1)
    b, _ = operands(31, 100_000, 1)
    with fft_from(poly, 1):
        old = poly.set_thresholds(thread_words=1)
        try:
            q, r = poly.poly_divmod(a, b, threads=threads)
            assert np.array_equal(poly.poly_mod(a, b, threads=threads), r)
        finally:
            poly.set_thresholds(**old)
    with fft_from(poly, 10**9):
        qb = poly.poly_mul(q, b, threads=1)
    assert r.size <= b.size and (r.size < b.size or int(r[-1]).bit_length() < int(b[-1]).bit_length())
    total = np.zeros(max(qb.size, r.size, a.size), dtype=np.uint64)
    total[:qb.size] ^= qb
    total[:r.size] ^= r
    assert np.array_equal(total[:a.size], a) and not total[a.size:].any()
