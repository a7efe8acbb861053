"""The subquadratic GF(2)[t] paths: half-gcd gcd / cofactor / xgcd, Newton division, Toom-3.

Each fast path is checked three ways on the same random polynomials: against
tests/polyref.py (slow integer arithmetic that shares no code with the
package), against the package's own Lehmer / schoolbook paths (the slow
variants stay callable: ``set_thresholds`` with a huge value turns a fast path
off), and by the identities its result must satisfy.  ``set_thresholds`` with
tiny values sends small inputs deep into the recursion, so a few thousand bits
already exercise many levels.
"""
from __future__ import annotations

import random
import threading
from collections.abc import Iterator
from contextlib import contextmanager

import numpy as np
import pytest
from conftest import interrupt_after_start, stops_at_ctrl_c
from hypothesis import given, settings
from hypothesis import strategies as st
from polyref import ref_divmod, ref_gcd, ref_mul, ref_xgcd

from lightsout._base.errors import InvalidBoardError, InvalidTypeError
from lightsout._kernels import available_levels, load, selected_level
from types import ModuleType as Gf2PolyModule  # lightsout._kernels.gf2poly at one level

#: Every fast path on from one word up (deepest recursion).
DEEP = {"newton_words": 1, "hgcd_words": 1, "gcd_words": 1, "toom_words": 12, "fft_words": 1}
#: Small thresholds that differ from each other (leaves, switch-over and division all mixed).
MIXED = {"newton_words": 2, "hgcd_words": 3, "gcd_words": 5, "toom_words": 13, "fft_words": 4}
#: DEEP with the half-gcd's independent products paired on two threads from one word (run with threads=2).
PAIRED = {**DEEP, "pair_words": 1}
#: MIXED with pairs from two words (run with threads=3: still two threads a pair).
MIXED_PAIRED = {**MIXED, "pair_words": 2}
#: The Lehmer gcd and schoolbook division only.
SLOW = {"newton_words": 10**12, "gcd_words": 10**12, "toom_words": 10**12, "fft_words": 10**12}

#: Degrees + 1 that straddle word boundaries, plus a few thousand bits.
SIZES = (1, 2, 63, 64, 65, 127, 128, 129, 255, 257, 1000, 3000, 5000)


def words(x: int) -> np.ndarray:
    n = max(1, (x.bit_length() + 63) // 64)
    return np.array([(x >> (64 * i)) & (2**64 - 1) for i in range(n)], dtype=np.uint64)


def value(a: np.ndarray) -> int:
    return sum(int(w) << (64 * i) for i, w in enumerate(a))


def operand(rng: random.Random, nbits: int) -> int:
    """A random polynomial of degree exactly nbits - 1 (0 for nbits = 0)."""
    return rng.getrandbits(nbits) | (1 << (nbits - 1)) if nbits > 0 else 0


@contextmanager
def thresholds(poly: Gf2PolyModule, **values: int) -> Iterator[None]:
    old = poly.set_thresholds(**values)
    try:
        yield
    finally:
        poly.set_thresholds(**old)


@pytest.fixture
def poly(simd_level: str) -> Gf2PolyModule:
    return load("gf2poly", simd_level)


def slow_results(poly: Gf2PolyModule, a: int, b: int) -> tuple[int, int, int, int]:
    """(gcd, cofactor, quotient, remainder) from the Lehmer and schoolbook paths."""
    with thresholds(poly, **SLOW):
        g, s = (value(v) for v in poly.poly_gcd_cofactor(words(a), words(b)))
        q, r = (value(v) for v in poly.poly_divmod(words(a), words(b))) if b else (0, 0)
    return g, s, q, r


def check_pair(poly: Gf2PolyModule, a: int, b: int, *, reference: bool) -> None:
    """Every fast entry point on (a, b) against the slow paths (and polyref when reference)."""
    g_slow, s_slow, q_slow, r_slow = slow_results(poly, a, b)
    for setting, threads in ((DEEP, 1), (MIXED, 1), (PAIRED, 2), (MIXED_PAIRED, 3)):
        with thresholds(poly, **setting):
            assert value(poly.poly_gcd(words(a), words(b), threads=threads)) == g_slow, setting
            g, s = (value(v) for v in poly.poly_gcd_cofactor(words(a), words(b), threads=threads))
            assert (g, s) == (g_slow, s_slow), setting  # the same Euclid cofactor, not just a valid one
            if b:
                q, r = (value(v) for v in poly.poly_divmod(words(a), words(b), threads=threads))
                assert (q, r) == (q_slow, r_slow), setting
                assert value(poly.poly_mod(words(a), words(b), threads=threads)) == r_slow
            gx, sx, tx = (value(v) for v in poly.poly_xgcd(words(a), words(b), threads=threads))
            assert gx == g_slow and ref_mul(sx, a) ^ ref_mul(tx, b) == gx
    if reference:
        assert g_slow == ref_gcd(a, b)
        if b:
            assert (q_slow, r_slow) == ref_divmod(a, b)
            assert ref_divmod(ref_mul(s_slow, a) ^ g_slow, b)[1] == 0
        if b and a != b:
            with thresholds(poly, **DEEP):
                assert tuple(value(v) for v in poly.poly_xgcd(words(a), words(b))) == ref_xgcd(a, b)


def test_thresholds_settable_and_checked(poly: Gf2PolyModule) -> None:
    before = poly.thresholds()
    assert set(before) == {"newton_words", "hgcd_words", "gcd_words", "toom_words", "fft_words", "thread_words",
                           "pair_words"}
    assert all(isinstance(v, int) and v >= 1 for v in before.values())
    with thresholds(poly, newton_words=7):
        assert poly.thresholds() == {**before, "newton_words": 7}
    assert poly.thresholds() == before
    for bad in (0, -3, 2**63):
        with pytest.raises(InvalidBoardError, match="gcd_words must be in 1.."):
            poly.set_thresholds(gcd_words=bad)
    with pytest.raises(InvalidTypeError, match="gcd_words must be an int"):
        poly.set_thresholds(gcd_words=1.5)  # type: ignore[arg-type]
    assert poly.thresholds() == before


@pytest.mark.parametrize("nbits", SIZES)
def test_random_pairs(poly: Gf2PolyModule, nbits: int) -> None:
    rng = random.Random(nbits)
    for other in sorted({1, 2, 63, 64, 65, max(1, nbits // 2), nbits, nbits + 1}):
        a, b = operand(rng, nbits), operand(rng, other)
        check_pair(poly, a, b, reference=nbits <= 1000)
        check_pair(poly, b, a, reference=nbits <= 1000)


@pytest.mark.parametrize("nbits", (2, 65, 300, 2000, 5000))
def test_large_common_factors(poly: Gf2PolyModule, nbits: int) -> None:
    """gcds of large degree: a random common factor multiplied into both operands."""
    rng = random.Random(10 * nbits + 1)
    for common in sorted({1, 64, nbits // 2 + 1, nbits}):
        g0 = operand(rng, common)
        a = ref_mul(operand(rng, nbits), g0)
        b = ref_mul(operand(rng, rng.randint(1, nbits)), g0)
        check_pair(poly, a, b, reference=nbits <= 300)
        with thresholds(poly, **DEEP):
            g = value(poly.poly_gcd(words(a), words(b)))
        assert ref_divmod(g, g0)[1] == 0  # the common factor divides the gcd


@settings(max_examples=60, deadline=None)
@given(a=st.integers(0, 2**2500), b=st.integers(0, 2**2500), level=st.sampled_from(available_levels()))
def test_property_fast_paths_match_polyref(a: int, b: int, level: str) -> None:
    """Every fast path with one-word thresholds against polyref, on hypothesis' integers."""
    poly = load("gf2poly", level)
    with thresholds(poly, **DEEP):
        assert value(poly.poly_gcd(words(a), words(b))) == ref_gcd(a, b)
        assert value(poly.poly_mul(words(a), words(b))) == ref_mul(a, b)
        if b:
            assert tuple(value(v) for v in poly.poly_divmod(words(a), words(b))) == ref_divmod(a, b)
            g, s = (value(v) for v in poly.poly_gcd_cofactor(words(a), words(b)))
            assert g == ref_gcd(a, b) and ref_divmod(ref_mul(s, a) ^ g, b)[1] == 0


def test_edge_cases(poly: Gf2PolyModule) -> None:
    rng = random.Random(7)
    a = operand(rng, 700)
    c = operand(rng, 300)
    cases = [(0, 0), (0, 1), (1, 0), (1, 1), (a, 0), (0, a), (a, 1), (1, a), (a, a),
             (ref_mul(a, c), a), (a, ref_mul(a, c)),  # one divides the other
             (ref_mul(a, 0b11), ref_mul(a, 0b110))]
    for x, y in cases:
        check_pair(poly, x, y, reference=True)
    with thresholds(poly, **DEEP):
        assert value(poly.poly_gcd(words(0), words(0))) == 0
        assert [value(v) for v in poly.poly_xgcd(words(0), words(0))] == [0, 0, 0]
        with pytest.raises(ZeroDivisionError):
            poly.poly_divmod(words(a), words(0))
        with pytest.raises(ZeroDivisionError):
            poly.poly_mod(words(a), words(0))


def test_default_thresholds_plus_minus_one(poly: Gf2PolyModule) -> None:
    """Sizes on either side of each default threshold, without overriding anything."""
    rng = random.Random(11)
    t = poly.thresholds()
    for key in ("newton_words", "hgcd_words", "gcd_words", "toom_words"):
        for nbits in (64 * t[key] - 1, 64 * t[key], 64 * t[key] + 1):
            for other in (nbits // 2, nbits - 1, nbits):
                a, b = operand(rng, 2 * nbits if key == "newton_words" else nbits), operand(rng, other)
                g_slow, s_slow, q_slow, r_slow = slow_results(poly, a, b)
                g, s = (value(v) for v in poly.poly_gcd_cofactor(words(a), words(b)))
                assert (g, s) == (g_slow, s_slow) and g == ref_gcd(a, b)
                q, r = (value(v) for v in poly.poly_divmod(words(a), words(b)))
                assert (q, r) == (q_slow, r_slow) == ref_divmod(a, b)


@pytest.mark.parametrize("toom_words", (12, 13, 17, 40, 10**12))
def test_toom3_products(poly: Gf2PolyModule, toom_words: int) -> None:
    """poly_mul with Toom-3 from toom_words words up (12 is the floor), at awkward word counts."""
    rng = random.Random(toom_words)
    with thresholds(poly, toom_words=toom_words):
        for nwords in (*range(11, 30), 37, 64, 65, 127, 128, 129, 300):
            for other in sorted({nwords, nwords + 1, 2 * nwords + 3, 3}):
                a, b = operand(rng, 64 * nwords - rng.randint(0, 63)), operand(rng, 64 * other - rng.randint(0, 63))
                assert value(poly.poly_mul(words(a), words(b))) == ref_mul(a, b), (nwords, other)


def test_toom3_large_product() -> None:
    """One product of ~2 * 10^5 bits through several Toom-3 levels, against polyref."""
    poly = load("gf2poly", selected_level())
    rng = random.Random(99)
    a, b = operand(rng, 200_000), operand(rng, 150_001)
    expected = ref_mul(a, b)
    for toom_words in (12, 128, 10**12):
        with thresholds(poly, toom_words=toom_words):
            assert value(poly.poly_mul(words(a), words(b))) == expected


def reference_remainders(a: int, b: int) -> list[int]:
    seq = [a, b]
    while seq[-1]:
        seq.append(ref_divmod(seq[-2], seq[-1])[1])
    return seq


@pytest.mark.parametrize("nbits", (1, 2, 64, 65, 129, 700, 2500))
def test_half_gcd_step(poly: Gf2PolyModule, nbits: int) -> None:
    """poly_half_gcd stops at the first remainders straddling ceil(deg a / 2), with det M = 1."""
    rng = random.Random(nbits + 5)
    for setting in (DEEP, MIXED, poly.thresholds()):
        for other in sorted({1, nbits // 2 + 1, nbits}):
            a, b = operand(rng, nbits), operand(rng, other) >> rng.randint(0, 1)
            with thresholds(poly, **setting):
                m00, m01, m10, m11, c, d = (value(v) for v in poly.poly_half_gcd(words(a), words(b)))
            assert ref_mul(m00, a) ^ ref_mul(m01, b) == c
            assert ref_mul(m10, a) ^ ref_mul(m11, b) == d
            assert ref_mul(m00, m11) ^ ref_mul(m01, m10) == 1
            half = (a.bit_length() - 1 + 1) // 2
            rems = reference_remainders(a, b)
            i = next(i for i in range(1, len(rems)) if rems[i].bit_length() - 1 < half)
            assert (c, d) == (rems[i - 1], rems[i])
    with pytest.raises(InvalidBoardError):
        poly.poly_half_gcd(words(0b11), words(0b111))
    with pytest.raises(InvalidBoardError):
        poly.poly_half_gcd(words(0), words(0))


@pytest.mark.thorough
def test_deep_recursion_at_100k_bits() -> None:
    """A few pairs of degree ~10^5 with one-word thresholds (recursion ~11 levels deep)."""
    poly = load("gf2poly", selected_level())
    rng = random.Random(100_000)
    g0 = operand(rng, 20_000)
    pairs = [(operand(rng, 100_000), operand(rng, 99_000)),
             (ref_mul(operand(rng, 80_000), g0), ref_mul(operand(rng, 75_000), g0))]
    for a, b in pairs:
        g_slow, s_slow, q_slow, r_slow = slow_results(poly, a, b)
        for setting in (DEEP, MIXED, {"newton_words": 4, "hgcd_words": 2, "gcd_words": 8, "toom_words": 20}):
            with thresholds(poly, **setting):
                g, s = (value(v) for v in poly.poly_gcd_cofactor(words(a), words(b)))
                q, r = (value(v) for v in poly.poly_divmod(words(ref_mul(a, a)), words(b)))
                assert value(poly.poly_gcd(words(a), words(b))) == g
            assert (g, s) == (g_slow, s_slow)
            assert ref_mul(q, b) ^ r == ref_mul(a, a) and r.bit_length() < b.bit_length()
        assert ref_divmod(ref_mul(s_slow, a) ^ g_slow, b)[1] == 0
        assert ref_divmod(a, g_slow)[1] == 0 and ref_divmod(b, g_slow)[1] == 0


def test_progress_and_interruption_inside_the_recursion() -> None:
    """Above 2^18 coefficients the recursion checks in: progress is reported, and an
    exception raised there (as Ctrl-C raises KeyboardInterrupt) comes out of the call."""
    poly = load("gf2poly", selected_level())
    rng = np.random.default_rng(3)
    a = rng.integers(0, 2**63, size=(1 << 19) // 64, dtype=np.uint64) | np.uint64(1)
    b = rng.integers(0, 2**63, size=(1 << 19) // 64 - 3, dtype=np.uint64)
    seen: list[tuple[str, int, int]] = []
    g = poly.poly_gcd(a, b, lambda stage, done, total: seen.append((stage, done, total)))
    assert len(seen) >= 3 and all(0 <= d <= t for _, d, t in seen)
    assert [d for _, d, _ in seen] == sorted(d for _, d, _ in seen)

    class Stop(Exception):
        pass

    calls = 0

    def interrupt(stage: str, done: int, total: int) -> None:
        nonlocal calls
        calls += 1
        if calls == 2:
            raise Stop

    with pytest.raises(Stop):
        poly.poly_gcd_cofactor(a, b, interrupt)
    assert calls == 2
    assert np.array_equal(poly.poly_gcd(a, b), g)  # nothing left behind


# A cofactor of degree 2^22 (seconds of work); the first progress report comes from inside
# the recursion, so SIGINT sent after "started" arrives while the nogil kernel runs.
_INTERRUPTIBLE = """
import numpy as np
from lightsout._kernels import load
poly = load("gf2poly")
rng = np.random.default_rng(1)
a = rng.integers(0, 2**64, size=1 << 16, dtype=np.uint64) | np.uint64(1 << 63)
b = rng.integers(0, 2**64, size=(1 << 16) - 1, dtype=np.uint64)
def progress(stage, done, total):
    if not progress.said:
        print("started", flush=True)
        progress.said = True
progress.said = False
poly.poly_gcd_cofactor(a, b, progress, threads=THREADS)
print("finished", flush=True)
"""


@pytest.mark.parametrize("threads, paired", [(1, "256"), (2, "256"), (2, "1")])
def test_ctrl_c_inside_the_recursion(tmp_path, threads: int, paired: str) -> None:
    """Ctrl-C stops the recursion on one thread and on two, whose steps pair up below thread_words
    (raised past every product here: the pair's second thread runs products of thousands of words,
    and must stop when the first does)."""
    script = _INTERRUPTIBLE.replace("THREADS", str(threads))
    if paired == "1":
        script = script.replace('poly = load("gf2poly")',
                                'poly = load("gf2poly")\npoly.set_thresholds(pair_words=1, thread_words=10**12)')
    returncode, out, err = interrupt_after_start(script, tmp_path)
    assert returncode != 0 and "KeyboardInterrupt" in err, (out, err)
    assert "finished" not in out


@pytest.mark.parametrize("nb", (0, 1, 2, 100))
def test_a_long_quotient_by_a_short_divisor(poly: Gf2PolyModule, nb: int) -> None:
    """Schoolbook division of 200,000 words by a short divisor goes a few million quotient bits at a
    time (with a Ctrl-C check between), and by the constant 1 (nb = 0) at once: q b + r = a with
    deg r < deg b, q b made by the product code."""
    rng = np.random.default_rng(nb)
    a = rng.integers(0, 2**64, 200_000, dtype=np.uint64)
    b = rng.integers(0, 2**64, nb, dtype=np.uint64) if nb else np.ones(1, dtype=np.uint64)
    b[-1] |= np.uint64(1 << 40) if nb else np.uint64(0)
    q, r = poly.poly_divmod(a, b)
    assert poly.poly_degree(r) < poly.poly_degree(b)
    back = poly.poly_mul(q, b)
    back[: len(r)] ^= r
    assert np.array_equal(back[: len(a)], a) and not back[len(a):].any()


@pytest.mark.parametrize("nbits_b", (1, 2, 3, 63, 64, 65, 66, 127, 128, 129, 300))
def test_every_quotient_word_width_by_every_kind_of_top_window(poly: Gf2PolyModule, nbits_b: int) -> None:
    """Schoolbook division finds each quotient word from the divisor's top 64 coefficients (by one
    product with their inverse): every quotient length from 1 to 130 bits, so every width of the last
    word, by divisors whose top window is sparse (t^k), dense (all ones) or random, against polyref."""
    rng = random.Random(nbits_b)
    low = rng.getrandbits(nbits_b - 1) if nbits_b > 1 else 0
    top = max(0, nbits_b - 64)  # the divisor's bits below its top window
    divisors = {1 << (nbits_b - 1), (1 << nbits_b) - 1, operand(rng, nbits_b),
                (1 << (nbits_b - 1)) | (low & ((1 << top) - 1))}
    with thresholds(poly, **SLOW):
        for b in sorted(divisors):
            for qbits in range(1, 131):
                a = operand(rng, nbits_b + qbits - 1)
                q, r = (value(v) for v in poly.poly_divmod(words(a), words(b)))
                assert (q, r) == ref_divmod(a, b), (b, qbits)


@pytest.mark.skipif(threading.current_thread() is not threading.main_thread(),
                    reason="signal handlers run on the main thread")
def test_ctrl_c_inside_a_long_schoolbook_division(poly: Gf2PolyModule) -> None:
    """A 2^23-word polynomial by a one-word one: seconds of quotient words, none a product long
    enough to look for Ctrl-C; the division looks between its chunks and stops before its end."""
    rng = np.random.default_rng(3)
    a = rng.integers(0, 2**64, 1 << 23, dtype=np.uint64)
    b = np.array([0x8000_0000_0000_001B], dtype=np.uint64)
    stops_at_ctrl_c(lambda: poly.poly_divmod(a, b), "a division by a one-word divisor")


@pytest.mark.skipif(threading.current_thread() is not threading.main_thread(),
                    reason="signal handlers run on the main thread")
def test_ctrl_c_inside_the_half_gcd_step(poly: Gf2PolyModule) -> None:
    """poly_half_gcd alone (no progress callback) looks for Ctrl-C too: in its recursion, its products
    and the copies of its operands, and stops before its end."""
    rng = np.random.default_rng(4)
    a, b = (rng.integers(0, 2**64, 1 << 21, dtype=np.uint64) for _ in range(2))
    a[-1] |= np.uint64(1 << 63)
    stops_at_ctrl_c(lambda: poly.poly_half_gcd(a, b), "poly_half_gcd of 2^21 words")


def test_threads_share_nothing() -> None:
    """Concurrent calls (the GIL is released in the cores) give the sequential results."""
    poly = load("gf2poly", selected_level())
    rng = random.Random(5)
    pairs = [(operand(rng, 30_000 + 100 * i), operand(rng, 29_000)) for i in range(4)]
    expected = [tuple(value(v) for v in poly.poly_gcd_cofactor(words(a), words(b))) for a, b in pairs]
    got: dict[int, tuple[int, ...]] = {}

    def work(i: int) -> None:
        a, b = pairs[i]
        for _ in range(3):
            got[i] = tuple(value(v) for v in poly.poly_gcd_cofactor(words(a), words(b)))

    threads = [threading.Thread(target=work, args=(i,)) for i in range(len(pairs))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert [got[i] for i in range(len(pairs))] == expected
