"""Every inline bit-row primitive (lightsout/_bitrow.pxd), run between guard words.

The probe extension lightsout._bitrow_probe (test-only, one build per SIMD
level) calls each primitive on a row that starts GUARD words into its buffer.
The tests fill the guards with a sentinel, check that no primitive wrote
outside its row, and compare the row with a model on Python ints.
"""
from __future__ import annotations

import importlib
import random

import numpy as np
import pytest
from conftest import AWKWARD_BITS

SENTINEL = 0xDEADBEEFCAFEF00D
MASK64 = 2**64 - 1


@pytest.fixture
def probe(simd_level):
    suffix = "" if simd_level == "generic" else "_" + simd_level
    return importlib.import_module("lightsout._bitrow_probe" + suffix)


def nwords_of(nbits: int) -> int:
    return (nbits + 63) // 64


def guarded(probe, x: int, nwords: int) -> np.ndarray:
    """A buffer GUARD | row holding x | GUARD, guards set to the sentinel."""
    g = probe.GUARD
    buf = np.full(nwords + 2 * g, SENTINEL, dtype=np.uint64)
    buf[g:g + nwords] = [(x >> (64 * i)) & MASK64 for i in range(nwords)]
    return buf


def row_value(probe, buf: np.ndarray) -> int:
    """The row's value, after checking both guards are untouched."""
    g = probe.GUARD
    assert (buf[:g] == SENTINEL).all() and (buf[-g:] == SENTINEL).all(), "a primitive wrote outside its row"
    return sum(int(w) << (64 * i) for i, w in enumerate(buf[g:-g]))


def t_model(x: int, nbits: int) -> int:
    return (x ^ (x << 1) ^ (x >> 1)) & ((1 << nbits) - 1)


def test_word_primitives(probe):
    rng = random.Random(1)
    for _ in range(200):
        x, below, above = (rng.getrandbits(64) >> rng.randrange(64) for _ in range(3))
        nbits = rng.randrange(1, 300)
        got = probe.scalars(x, below, above, nbits)
        assert got["ctz64"] == ((x & -x).bit_length() - 1 if x else -1)
        assert got["clz64"] == (64 - x.bit_length() if x else -1)
        assert got["up_word"] == ((x << 1) | (below >> 63)) & MASK64
        assert got["down_word"] == (x >> 1) | ((above & 1) << 63)
        # t_word: the middle word of T applied to the 192-bit row (below, x, above)
        wide = below | (x << 64) | (above << 128)
        assert got["t_word"] == ((wide ^ (wide << 1) ^ (wide >> 1)) >> 64) & MASK64
        assert got["words_for_bits"] == nwords_of(nbits)
        assert got["tail_mask"] == (1 << (nbits % 64 or 64)) - 1


@pytest.mark.parametrize("nbits", AWKWARD_BITS)
def test_row_primitives(probe, nbits):
    rng = random.Random(nbits)
    n = nwords_of(nbits)
    x, y = rng.getrandbits(nbits), rng.getrandbits(nbits)
    dst, src = guarded(probe, x, n), guarded(probe, y, n)
    probe.probe_xor_into(dst, src, n)
    assert row_value(probe, dst) == x ^ y and row_value(probe, src) == y
    probe.probe_copy_row(dst, src, n)
    assert row_value(probe, dst) == y
    probe.probe_zero_row(dst, n)
    assert row_value(probe, dst) == 0
    for i in {0, nbits // 2, nbits - 1}:
        assert probe.probe_get_bit(src, n, i) == bool((y >> i) & 1)
        buf = guarded(probe, x, n)
        probe.probe_set_bit(buf, n, i)
        assert row_value(probe, buf) == x | (1 << i)
    assert probe.probe_highest_set_bit(src, n) == y.bit_length() - 1
    assert probe.probe_highest_set_bit(guarded(probe, 0, n), n) == -1


@pytest.mark.parametrize("nbits", AWKWARD_BITS)
def test_apply_T(probe, nbits):
    rng = random.Random(nbits)
    n = nwords_of(nbits)
    for x in (rng.getrandbits(nbits), (1 << nbits) - 1, 1, 1 << (nbits - 1)):
        dst, src = guarded(probe, rng.getrandbits(64 * n), n), guarded(probe, x, n)
        probe.probe_apply_T(dst, src, nbits)
        assert row_value(probe, dst) == t_model(x, nbits)
        assert row_value(probe, src) == x


@pytest.mark.parametrize("nbits", AWKWARD_BITS)
@pytest.mark.parametrize("mode", ["board", "all", "none"])
def test_chase_step_ranges(probe, nbits, mode):
    """acc ^= T cur ^ lit on every word range [lo, hi), the row's edges included."""
    rng = random.Random(nbits)
    n = nwords_of(nbits)
    full = (1 << nbits) - 1
    for lo, hi in {(0, n), (0, 1), (n - 1, n), (0, (n + 1) // 2), (n // 2, n), (1, max(1, n - 1)), (0, 0)}:
        acc, cur, lit = rng.getrandbits(nbits), rng.getrandbits(nbits), rng.getrandbits(nbits)
        light = {"board": lit, "all": full, "none": 0}[mode]
        bufs = [guarded(probe, v, n) for v in (acc, cur, lit)]
        probe.probe_chase_step(*bufs, lo, hi, nbits, mode)
        words_mask = sum(MASK64 << (64 * i) for i in range(lo, hi))
        want = acc ^ ((t_model(cur, nbits) ^ light) & words_mask)
        assert row_value(probe, bufs[0]) == want, (lo, hi)
        assert row_value(probe, bufs[1]) == cur and row_value(probe, bufs[2]) == lit
