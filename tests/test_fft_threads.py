"""The GF(2)[t] product on several threads (lightsout/_kernels/fftcrew.h, gf2fft.h's teams).

``poly_mul(a, b, threads=n)`` spreads the additive FFT's transforms, basis changes and
pointwise products over n threads from ``thread_words`` words in the smaller operand.
Splitting changes which thread computes a value, never the value: products at 1, 2, 3 and
more threads are compared bit for bit with each other and with independent references
(tests/polyref.py's plain-integer product, numpy's float convolution), at every transform
size (``thread_words=1`` with ``fft_words=1``) and across the default threshold.  Ctrl-C
stops a threaded product, whose threads are all gone afterwards.  No timing is asserted.
"""
from __future__ import annotations

import os
import random
import threading
from pathlib import Path
from types import ModuleType as Gf2PolyModule

import numpy as np
import oracle
import pytest
from conftest import interrupt_after_start, stops_at_ctrl_c
from polyref import ref_divmod, ref_gcd, ref_mul
from test_gf2fft import convolution_product, operand, value, words
from test_halfgcd import thresholds

import lightsout
from lightsout._base.errors import InvalidBoardError, InvalidTypeError
from lightsout._kernels import load, selected_level

THREADS = (1, 2, 3, 4)


@pytest.fixture
def poly(simd_level: str) -> Gf2PolyModule:
    return load("gf2poly", simd_level)


def test_thread_words_is_a_threshold_like_the_others(poly: Gf2PolyModule) -> None:
    before = poly.thresholds()
    assert before["thread_words"] >= 1
    with thresholds(poly, thread_words=5):
        assert poly.thresholds() == {**before, "thread_words": 5}
    assert poly.thresholds() == before
    with pytest.raises(InvalidBoardError, match="thread_words must be in 1"):
        poly.set_thresholds(thread_words=0)
    with pytest.raises(InvalidTypeError, match="thread_words must be an int"):
        poly.set_thresholds(thread_words=2.0)  # type: ignore[arg-type]
    assert poly.thresholds() == before


@pytest.mark.parametrize("na, nb", [(1, 1), (1, 7), (2, 3), (5, 64), (63, 65), (64, 64), (100, 257),
                                    (129, 1000), (255, 256), (700, 1900)])
def test_every_transform_size_on_threads_matches_the_reference(poly: Gf2PolyModule, na: int, nb: int) -> None:
    """Every product through the FFT on threads (tiny transforms, where members get empty shares,
    included), against the plain-integer product."""
    rng = random.Random(na * 1009 + nb)
    a, b = operand(rng, 64 * na - rng.randrange(64)), operand(rng, 64 * nb - rng.randrange(64))
    expected = ref_mul(a, b)
    with thresholds(poly, fft_words=1, thread_words=1):
        for threads in THREADS + (5, 8):
            assert value(poly.poly_mul(words(a), words(b), threads=threads)) == expected, (na, nb, threads)
            assert value(poly.poly_mul(words(b), words(a), threads=threads)) == expected, (na, nb, threads)


@pytest.mark.parametrize("nwords", [16383, 16384, 16385])
def test_products_across_the_default_threshold_are_the_same_bits(poly: Gf2PolyModule, nwords: int) -> None:
    """Below, at and above the default thread_words: every thread count gives the reference's bits."""
    assert poly.thresholds()["thread_words"] == 16384, "move these sizes with the threshold"
    rng = np.random.default_rng(nwords)
    a = rng.integers(0, 2**64, nwords, dtype=np.uint64)
    b = rng.integers(0, 2**64, nwords + 1000, dtype=np.uint64)
    expected = convolution_product(a, b)
    for threads in THREADS:
        assert np.array_equal(poly.poly_mul(a, b, threads=threads), expected), threads


def test_large_products_are_the_same_bits_at_every_thread_count(poly: Gf2PolyModule) -> None:
    """2^15-word operands (two million bits, transforms of 2^18 elements: levels above the cached
    blocks, subtrees, every part of the team code) and an unbalanced pair cut into pieces."""
    rng = np.random.default_rng(31)
    a = rng.integers(0, 2**64, 1 << 15, dtype=np.uint64)
    b = rng.integers(0, 2**64, (1 << 15) - 123, dtype=np.uint64)
    c = rng.integers(0, 2**64, 5 * (1 << 13) + 17, dtype=np.uint64)
    expected = convolution_product(a, b)
    one = poly.poly_mul(a, c, threads=1)
    for threads in THREADS:
        assert np.array_equal(poly.poly_mul(a, b, threads=threads), expected), threads
        assert np.array_equal(poly.poly_mul(a, c, threads=threads), one), threads


@pytest.mark.parametrize("log_size", [14, 15, 16, 17, 18])
def test_products_whose_blocks_go_with_the_inverse_or_not(poly: Gf2PolyModule, log_size: int) -> None:
    """Transforms of 2^14 .. 2^18 elements: a team leaves its forward transforms' cached blocks to
    the inverse (with the pointwise product) only where every member's subtree holds whole blocks
    of 2^14 elements, which depends on the size and the crew (2 threads from 2^15 elements, 4 from
    2^16, 3 and 5 from 2^18).  Both ways, every thread count gives the reference's bits; the odd
    lengths leave the members' runs of the final sums uneven.  The reference is the product with
    the FFT off (Toom-Cook and Karatsuba), and numpy's float convolution where it is exact."""
    rng = np.random.default_rng(log_size)
    quarter = 1 << (log_size - 2)
    a = rng.integers(0, 2**64, quarter - 37, dtype=np.uint64)
    b = rng.integers(0, 2**64, quarter + 11, dtype=np.uint64)
    with thresholds(poly, fft_words=1 << 40):
        expected = poly.poly_mul(a, b, threads=1)
    if log_size <= 16:
        assert np.array_equal(expected, convolution_product(a, b))
    with thresholds(poly, fft_words=1, thread_words=1):
        for threads in THREADS + (5,):
            assert np.array_equal(poly.poly_mul(a, b, threads=threads), expected), threads


def test_the_wide_loops_off_on_threads(poly: Gf2PolyModule) -> None:
    rng = np.random.default_rng(8)
    a = rng.integers(0, 2**64, 5000, dtype=np.uint64)
    b = rng.integers(0, 2**64, 4000, dtype=np.uint64)
    old = poly.set_fft_wide(False)
    try:
        with thresholds(poly, thread_words=1024):
            for threads in THREADS:
                assert np.array_equal(poly.poly_mul(a, b, threads=threads), convolution_product(a, b)), threads
    finally:
        poly.set_fft_wide(old)


def test_gcds_and_divisions_on_threads(poly: Gf2PolyModule) -> None:
    """The half-gcd's matrix products (one transform per operand on the crew) and Newton's division
    through threaded products: the same answers as one thread and as the plain-integer reference."""
    rng = random.Random(77)
    common = operand(rng, 64 * 40)
    a, b = ref_mul(common, operand(rng, 64 * 300)), ref_mul(common, operand(rng, 64 * 250))
    big, small = operand(rng, 64 * 900), operand(rng, 64 * 400)
    q, r = ref_divmod(big, small)
    with thresholds(poly, fft_words=4, thread_words=4, gcd_words=8, hgcd_words=4, newton_words=8, toom_words=12):
        for threads in THREADS:
            assert value(poly.poly_gcd(words(a), words(b), threads=threads)) == ref_gcd(a, b), threads
            g, s = poly.poly_gcd_cofactor(words(a), words(b), threads=threads)
            assert value(g) == ref_gcd(a, b)
            assert ref_divmod(ref_mul(value(s), a) ^ value(g), b)[1] == 0, threads
            got_q, got_r = poly.poly_divmod(words(big), words(small), threads=threads)
            assert (value(got_q), value(got_r)) == (q, r), threads
            assert value(poly.poly_mod(words(big), words(small), threads=threads)) == r
            g3, s3, t3 = poly.poly_xgcd(words(a), words(b), threads=threads)
            assert ref_mul(value(s3), a) ^ ref_mul(value(t3), b) == value(g3) == ref_gcd(a, b)


@pytest.mark.parametrize("bad, error", [(0, InvalidBoardError), (-2, InvalidBoardError),
                                        (True, InvalidTypeError), ("2", InvalidTypeError),
                                        (2.0, InvalidTypeError)])
def test_a_bad_threads_argument_is_refused(poly: Gf2PolyModule, bad: object, error: type) -> None:
    one = words(3)
    with pytest.raises(error, match="threads must be a positive int"):
        poly.poly_mul(one, one, threads=bad)  # type: ignore[arg-type]
    with pytest.raises(error, match="threads must be a positive int"):
        poly.poly_gcd(one, one, threads=bad)  # type: ignore[arg-type]


def test_more_threads_than_a_product_takes_is_fine(poly: Gf2PolyModule) -> None:
    """threads= is the most threads a call uses: a huge count runs on at most 64."""
    rng = np.random.default_rng(3)
    a = rng.integers(0, 2**64, 3000, dtype=np.uint64)
    with thresholds(poly, thread_words=1024):
        assert np.array_equal(poly.poly_mul(a, a, threads=10**9), poly.poly_mul(a, a, threads=1))
        assert np.array_equal(poly.poly_mul(a, a, threads=np.int64(2)), poly.poly_mul(a, a, threads=1))


def test_concurrent_callers_keep_their_own_thread_counts() -> None:
    """Python threads calling threaded products at once (each with its own threads=) get the
    one-thread results: the setting belongs to the calling thread."""
    poly = load("gf2poly", selected_level())
    rng = np.random.default_rng(11)
    pairs = [(rng.integers(0, 2**64, 9000 + 777 * i, dtype=np.uint64),
              rng.integers(0, 2**64, 8000, dtype=np.uint64)) for i in range(3)]
    expected = [poly.poly_mul(a, b, threads=1) for a, b in pairs]
    got: dict[int, list[np.ndarray]] = {}

    def work(i: int) -> None:
        got[i] = [poly.poly_mul(*pairs[i], threads=i + 1) for _ in range(2)]

    workers = [threading.Thread(target=work, args=(i,)) for i in range(len(pairs))]
    with thresholds(poly, thread_words=1024):
        for w in workers:
            w.start()
        for w in workers:
            w.join()
    assert all(np.array_equal(x, expected[i]) for i in range(len(pairs)) for x in got[i])


@pytest.mark.skipif(threading.current_thread() is not threading.main_thread(),
                    reason="signal handlers run on the main thread")
@pytest.mark.skipif(not os.path.isdir("/proc/self/task"), reason="counts threads through /proc")
@pytest.mark.parametrize("threads", [2, 3])
@pytest.mark.parametrize("delay", [0.05, 0.25])
def test_ctrl_c_stops_a_threaded_product_and_leaves_no_thread(poly: Gf2PolyModule, threads: int,
                                                              delay: float) -> None:
    """SIGINT during a product of two 2^22-word operands on several threads, from its start or from
    about its middle (the crew's subtrees, pointwise products and sums): KeyboardInterrupt before its
    end; every thread the product started has been joined; the next product is right."""
    a = np.full(1 << 22, 0x9E3779B97F4A7C15, dtype=np.uint64)
    before = set(os.listdir("/proc/self/task"))
    stops_at_ctrl_c(lambda: poly.poly_mul(a, a, threads=threads), f"poly_mul on {threads} threads",
                    delay=delay)
    assert set(os.listdir("/proc/self/task")) <= before      # a thread another test left may end meanwhile
    rng = np.random.default_rng(4)
    x = rng.integers(0, 2**64, 3000, dtype=np.uint64)
    with thresholds(poly, thread_words=1024):
        assert np.array_equal(poly.poly_mul(x, x, threads=threads), convolution_product(x, x))


@pytest.mark.skipif(threading.current_thread() is not threading.main_thread(),
                    reason="signal handlers run on the main thread")
def test_ctrl_c_stops_a_threaded_gcd(poly: Gf2PolyModule) -> None:
    """The half-gcd's threaded matrix products and divisions stop at Ctrl-C too."""
    rng = np.random.default_rng(6)
    a = rng.integers(0, 2**64, 1 << 20, dtype=np.uint64)
    b = rng.integers(0, 2**64, 1 << 20, dtype=np.uint64)
    stops_at_ctrl_c(lambda: poly.poly_gcd(a, b, threads=2), "poly_gcd on 2 threads")


_INTERRUPTIBLE = """
import numpy as np
from lightsout._kernels import load
poly = load("gf2poly")
a = np.full(1 << 22, 0x9E3779B97F4A7C15, dtype=np.uint64)
print("started", flush=True)
poly.poly_mul(a, a, threads=2)
poly.poly_mul(a, a, threads=3)
print("finished", flush=True)
"""


def test_ctrl_c_ends_a_process_inside_a_threaded_product(tmp_path: Path) -> None:
    """The process ends with KeyboardInterrupt (no thread left running keeps it alive)."""
    returncode, out, err = interrupt_after_start(_INTERRUPTIBLE, tmp_path)
    assert returncode != 0 and "KeyboardInterrupt" in err, (out, err)
    assert "finished" not in out


#: Every fast path from a few words up, the FFT from one word and every product on threads: the
#: route's gcd, divisions and products all run on the crew on boards small enough to replay.
EVERYTHING_ON_THREADS = {"newton_words": 2, "hgcd_words": 2, "gcd_words": 4, "toom_words": 12, "fft_words": 1,
                         "thread_words": 1}


@pytest.mark.parametrize("n", (300, 1000, 2001))
def test_first_rows_with_every_product_on_threads_replay_dark(n: int) -> None:
    """first_row (whose polynomial route takes the cores by default) with every product on the crew:
    the independent chase leaves the board dark, and the row is the one of the unthreaded products."""
    poly = load("gf2poly", selected_level())
    with thresholds(poly, **EVERYTHING_ON_THREADS):
        first = lightsout.first_row(n)
    with thresholds(poly, thread_words=10**12):
        assert np.array_equal(lightsout.first_row(n), first)
    _, left = oracle.chase_fast(np.ones((n, n), dtype=bool), first[None])  # type: ignore[no-untyped-call]
    assert not left.any()


def test_a_large_first_row_is_the_same_on_threads() -> None:
    """200,001 cells a side (3,126-word polynomials) with thread_words at 1024: the half-gcd's top
    matrix products and the route's products on the crew give the unthreaded first row and nullity."""
    poly = load("gf2poly", selected_level())
    with thresholds(poly, thread_words=10**12):
        expected = lightsout.first_row(200_001), lightsout.nullity(200_001)
    with thresholds(poly, thread_words=1024):
        got = lightsout.first_row(200_001), lightsout.nullity(200_001)
    assert np.array_equal(got[0], expected[0]) and got[1] == expected[1]


def threads_started_and_ended_during(call) -> int:
    """The OS threads that appeared while ``call()`` ran and were gone when it returned: the crews it
    started and joined (threads other tests leave behind, or start meanwhile and keep, do not count)."""
    before, seen, done, sampler_id = set(os.listdir("/proc/self/task")), set(), threading.Event(), []

    def sample() -> None:
        sampler_id.append(str(threading.get_native_id()))
        while not done.is_set():
            seen.update(os.listdir("/proc/self/task"))

    sampler = threading.Thread(target=sample)
    sampler.start()
    try:
        call()
    finally:
        done.set()
        sampler.join()
    return len(seen - before - set(os.listdir("/proc/self/task")) - set(sampler_id))


@pytest.mark.skipif(not os.path.isdir("/proc/self/task"), reason="counts threads through /proc")
def test_threads_bounds_the_polynomial_route() -> None:
    """threads=1 keeps the route's products and gcds on the calling thread (2,000,001 columns: 31,251-word
    polynomials, past thread_words); threads=2 puts them on a crew, which the sampler sees."""
    n = 2_000_001
    assert threads_started_and_ended_during(lambda: lightsout.first_row(n, threads=1)) == 0
    assert threads_started_and_ended_during(lambda: lightsout.nullity(n, threads=1)) == 0
    assert threads_started_and_ended_during(lambda: lightsout.solve(np.ones((5, 5), bool), method="poly",
                                                                    threads=1)) == 0
    assert threads_started_and_ended_during(lambda: lightsout.first_row(n, threads=2)) >= 1
