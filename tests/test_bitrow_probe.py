"""Every inline bit-row primitive (lightsout/_kernels/bitrow.pxd), run between guard words.

The probe tests/kernels/bitrow_probe.pyx calls each primitive on a row that starts
GUARD words into its buffer.  It is test code, so it is not in the package: this module
compiles it against the installed package's ``.pxd`` files, once per SIMD level the CPU
runs, with the flags of the package's own builds (``lightsout._kernels.registry``).
The tests fill the guards with a sentinel, check that no primitive wrote outside its
row, and compare the row with a model on Python ints.
"""
from __future__ import annotations

import importlib.util
import json
import random
import shutil
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import numpy as np
import pytest

import lightsout
from lightsout._kernels import available_levels
from lightsout._kernels.registry import SIMD_FLAGS
from conftest import AWKWARD_BITS, missing_build_tools
from polyref import ref_apply_t as t_model
from polyref import ref_compose_s, ref_divmod, ref_taylor, ref_u
from polyref import ref_mul as clmul

pytestmark = pytest.mark.skipif(missing_build_tools() is not None, reason=str(missing_build_tools()))

SENTINEL = 0xDEADBEEFCAFEF00D
MASK64 = 2**64 - 1
PROBE = Path(__file__).resolve().parent / "kernels" / "bitrow_probe.pyx"

#: Builds one extension per level, in parallel: argv = the levels' flags (JSON), the folder holding lightsout.
#: LIGHTSOUT_CFLAGS and LIGHTSOUT_LDFLAGS reach it as they reach the package's build (scripts/asan.sh).
BUILD_SCRIPT = """
import json, os, sys
from setuptools import Extension, setup
from Cython.Build import cythonize
flags, package_root = json.loads(sys.argv.pop(1)), sys.argv.pop(1)
cflags = ["-O3", "-g0", *os.environ.get("LIGHTSOUT_CFLAGS", "").split()]
ldflags = os.environ.get("LIGHTSOUT_LDFLAGS", "").split()
extensions = [Extension(f"bitrow_probe_{level}", [f"bitrow_probe_{level}.pyx"], extra_compile_args=cflags + extra,
                        extra_link_args=ldflags) for level, extra in flags.items()]
directives = {"language_level": 3, "boundscheck": False, "wraparound": False, "initializedcheck": False,
              "cdivision": True}
setup(ext_modules=cythonize(extensions, compiler_directives=directives, include_path=[package_root]),
      script_args=["build_ext", "--inplace", "-j", "4"])
"""


class ProbeBuilds(dict):
    """The probe compiled for a SIMD level on first use, kept by level (the quick suite runs one level)."""

    def __init__(self, folder: Path) -> None:
        super().__init__()
        self.folder = folder

    def __missing__(self, level: str) -> ModuleType:
        shutil.copy(PROBE, self.folder / f"bitrow_probe_{level}.pyx")
        package_root = str(Path(lightsout.__file__).resolve().parent.parent)
        flags = {level: SIMD_FLAGS.get(level, [])}
        done = subprocess.run([sys.executable, "-c", BUILD_SCRIPT, json.dumps(flags), package_root],
                              cwd=self.folder, capture_output=True, text=True)
        assert done.returncode == 0, f"building the probe failed:\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}"
        (path,) = [found for found in self.folder.glob(f"bitrow_probe_{level}.*") if found.suffix in (".so", ".pyd")]
        spec = importlib.util.spec_from_file_location(f"bitrow_probe_{level}", path)
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        self[level] = module
        return module


@pytest.fixture(scope="module")
def probe_builds(tmp_path_factory: pytest.TempPathFactory) -> ProbeBuilds:
    """The probe for every SIMD level this CPU runs, compiled when a test first asks for that level."""
    return ProbeBuilds(tmp_path_factory.mktemp("bitrow_probe"))


@pytest.fixture
def probe(probe_builds: ProbeBuilds, simd_level: str) -> ModuleType:
    return probe_builds[simd_level]


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


# ---------------------------------------------------------------------------
# GF(2)[t] word kernels (lightsout/_kernels/polyword.pxd)




def words_mask(nwords: int) -> int:
    return (1 << (64 * nwords)) - 1


@pytest.mark.parametrize("nbits", AWKWARD_BITS + (2048, 3000))
def test_poly_products(probe, nbits):
    rng = random.Random(nbits)
    n = nwords_of(nbits)
    a, b = rng.getrandbits(nbits) | (1 << (nbits - 1)), rng.getrandbits(nbits)
    m = rng.getrandbits(64)
    dst = guarded(probe, rng.getrandbits(64 * (n + 1)), n + 1)
    before = row_value(probe, dst)
    probe.probe_mul_row_xor(dst, guarded(probe, a, n), n, m)
    assert row_value(probe, dst) == before ^ clmul(a, m)
    ms = [rng.getrandbits(64) for _ in range(4)]
    oa, ob = guarded(probe, rng.getrandbits(64), n + 1), guarded(probe, 0, n + 1)
    probe.probe_apply_matrix(oa, ob, guarded(probe, a, n), guarded(probe, b, n), n, *ms)
    assert row_value(probe, oa) == clmul(a, ms[0]) ^ clmul(b, ms[1])
    assert row_value(probe, ob) == clmul(a, ms[2]) ^ clmul(b, ms[3])


def test_quotient_words_by_the_bit_loop_and_by_the_inverse(probe):
    """Schoolbook division's quotient word from the two top windows (leading bits set), both ways,
    at every width, against (aw t^63) div bw on Python ints: windows sparse, dense and random."""
    rng = random.Random(5)
    top = 1 << 63
    windows = [top, MASK64, top | 1, top | (top >> 1)] + [top | rng.getrandbits(63) for _ in range(40)]
    for bw in windows:
        for aw in windows[:4] + [top | rng.getrandbits(63) for _ in range(8)]:
            q_full = ref_divmod(aw << 63, bw)[0]
            for nbits in range(1, 65):
                want = q_full >> (64 - nbits)
                assert probe.probe_quotient_window(aw, bw, nbits) == want, (aw, bw, nbits)
                assert probe.probe_quotient_by_inverse(aw, bw, nbits) == want, (aw, bw, nbits)


@pytest.mark.parametrize("nbits", AWKWARD_BITS)
def test_poly_shifted_xor_and_division(probe, nbits):
    rng = random.Random(nbits)
    n = nwords_of(nbits)
    src = rng.getrandbits(nbits)
    for ndst in (1, n, n + 2):
        for shift in (0, 1, 63, 64, 65, nbits):
            start = rng.getrandbits(64 * ndst)
            dst = guarded(probe, start, ndst)
            probe.probe_xor_shifted(dst, ndst, guarded(probe, src, n), n, shift)
            assert row_value(probe, dst) == (start ^ (src << shift)) & words_mask(ndst)
            qw = rng.getrandbits(64)
            dst, tmp = guarded(probe, start, ndst), guarded(probe, 0, n + 1)
            probe.probe_sub_multiple_shifted(dst, ndst, guarded(probe, src, n), n, qw, shift, tmp)
            assert row_value(probe, dst) == (start ^ (clmul(src, qw) << shift)) & words_mask(ndst)
            assert row_value(probe, tmp) == 0
    for divisor_bits in (1, 2, 64, 65, max(1, nbits // 2), nbits):
        nd = nwords_of(divisor_bits)
        a = rng.getrandbits(nbits)
        b = rng.getrandbits(divisor_bits) | (1 << (divisor_bits - 1))
        q_want, r_want = ref_divmod(a, b)
        nq = max(1, nwords_of(nbits - divisor_bits + 1))
        r, q, tmp = guarded(probe, a, n), guarded(probe, 0, nq), guarded(probe, rng.getrandbits(64), nd + 1)
        assert probe.probe_divide(r, n, guarded(probe, b, nd), nd, q, nq, tmp) == r_want.bit_length() - 1
        assert row_value(probe, r) == r_want and row_value(probe, q) == q_want
        r = guarded(probe, a, n)
        probe.probe_divide(r, n, guarded(probe, b, nd), nd, guarded(probe, 0, 0), 0, guarded(probe, 0, nd + 1))
        assert row_value(probe, r) == r_want




@pytest.mark.parametrize("nbits", AWKWARD_BITS)
def test_poly_taylor_shift_split_and_chebyshev(probe, nbits):
    rng = random.Random(nbits)
    n = nwords_of(nbits)
    a = rng.getrandbits(nbits)
    buf = guarded(probe, a, n)
    probe.probe_taylor_shift(buf, n)
    assert row_value(probe, buf) == ref_taylor(a)
    buf = guarded(probe, a, n)
    probe.probe_s_split(buf, n)        # in powers of s = t^2 + t: bit 2i of s^i, bit 2i + 1 of t s^i
    split = row_value(probe, buf)
    even = sum(((split >> (2 * i)) & 1) << i for i in range(32 * n))
    odd = sum(((split >> (2 * i + 1)) & 1) << i for i in range(32 * n))
    assert ref_compose_s(even) ^ (ref_compose_s(odd) << 1) == a
    out = guarded(probe, 0, nwords_of(nbits))
    probe.probe_chebyshev_u(out, nbits)
    assert row_value(probe, out) == ref_u(nbits)



