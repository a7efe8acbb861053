"""Tests of the packed GF(2) elimination kernel (lightsout._kernels.gf2elim and its SIMD builds).

Every result is checked against a slow, obviously correct reduced row echelon
form written below in plain Python (rows as Python ints), and ranks against
tests/oracle.py.  Each kernel test runs at every SIMD level this machine has and
at the awkward widths of conftest.AWKWARD_BITS.
"""
from __future__ import annotations

import ctypes
import os
import signal
import subprocess
import sys
import threading
import time
from functools import lru_cache

import numpy as np
import pytest
from conftest import AWKWARD_BITS
from hypothesis import given, settings
from hypothesis import strategies as st

import oracle
from lightsout._base.errors import InvalidBoardError, InvalidTypeError
from lightsout._base.packing import pack_rows, unpack_rows, words_for_bits
from lightsout._base.validate import packed_matrix
from lightsout._kernels import available_levels, load

METHODS = ("auto", "m4r", "naive")
SENTINEL = np.uint64(0xA5C3_F00D_DEAD_BEEF)


# ---------------------------------------------------------------------------
# The slow reference: textbook Gauss-Jordan, one row a Python int (bit j = column j).

def slow_rref(bits, npivot_cols: int | None = None) -> tuple[np.ndarray, list[int]]:
    """Reduced row echelon form of a 0/1 matrix, pivots searched in the first npivot_cols columns."""
    bits = np.asarray(bits, dtype=bool)
    nrows, ncols = bits.shape
    npivot_cols = ncols if npivot_cols is None else npivot_cols
    rows = [sum(1 << int(j) for j in np.flatnonzero(row)) for row in bits]
    rank, pivots = 0, []
    for col in range(npivot_cols):
        found = next((i for i in range(rank, nrows) if rows[i] >> col & 1), None)
        if found is None:
            continue
        rows[rank], rows[found] = rows[found], rows[rank]
        for i in range(nrows):
            if i != rank and rows[i] >> col & 1:
                rows[i] ^= rows[rank]
        pivots.append(col)
        rank += 1
    out = np.array([[row >> j & 1 for j in range(ncols)] for row in rows], dtype=bool)
    return out.reshape(nrows, ncols), pivots


def random_bits(rng: np.random.Generator, nrows: int, ncols: int, density: float = 0.5) -> np.ndarray:
    """Random 0/1 matrix with some dependent rows, so that rank < nrows and some columns lack pivots."""
    bits = rng.random((nrows, ncols)) < density
    if nrows >= 4:
        bits[nrows // 2] = bits[0] ^ bits[1]          # a dependent row
        bits[-1] = bits[1] ^ bits[2] ^ bits[nrows // 2]
    if ncols >= 3:
        bits[:, ncols // 3] = 0                        # a column without a pivot
    return bits


@lru_cache(maxsize=None)
def awkward_case(ncols: int) -> tuple[np.ndarray, np.ndarray, list[int]]:
    """A seeded matrix of width ncols and its reference RREF (cached across levels and methods)."""
    rng = np.random.default_rng(1000 + ncols)
    # Enough rows that the four-Russians tables are used (>= MIN_TABLE_ROWS rows to update).
    nrows = 200 if ncols >= 257 else 150
    bits = random_bits(rng, nrows, ncols)
    reduced, pivots = slow_rref(bits)
    return bits, reduced, pivots


def guarded(packed: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Copy packed rows into the middle of a buffer with one sentinel row before and after.

    Returns (buffer, middle view); the view is C-contiguous, so the kernel
    accepts it, and anything written outside its rows shows in the sentinels.
    """
    nrows, nwords = packed.shape
    buffer = np.full((nrows + 2, nwords), SENTINEL, dtype=np.uint64)
    buffer[1:-1] = packed
    return buffer, buffer[1:-1]


def assert_sentinels_intact(buffer: np.ndarray) -> None:
    assert (buffer[0] == SENTINEL).all() and (buffer[-1] == SENTINEL).all(), "kernel wrote outside its rows"


def run_rref(level: str, bits: np.ndarray, npivot_cols: int = -1, method: str = "auto"):
    """rref_inplace on a guarded packed copy of bits; returns (rank, pivots, reduced bits)."""
    ncols = bits.shape[1]
    buffer, middle = guarded(pack_rows(bits))
    rank, pivots = load("gf2elim", level).rref_inplace(middle, ncols, npivot_cols, method=method)  # type: ignore[arg-type]
    assert_sentinels_intact(buffer)
    assert pivots.dtype == np.int64
    return rank, pivots.tolist(), unpack_rows(middle, ncols) if middle.size else np.zeros(bits.shape, bool)


# ---------------------------------------------------------------------------
# Elimination.

@pytest.mark.parametrize("method", METHODS)
@pytest.mark.parametrize("ncols", AWKWARD_BITS)
def test_rref_matches_slow_reference(simd_level, ncols, method):
    bits, reduced, pivots = awkward_case(ncols)
    rank, got_pivots, got = run_rref(simd_level, bits, method=method)
    assert rank == len(pivots)
    assert got_pivots == pivots
    assert (got == reduced).all()


@pytest.mark.parametrize("ncols", [c for c in AWKWARD_BITS if c <= 257])
def test_rank_matches_oracle(simd_level, ncols):
    bits, _, _ = awkward_case(ncols)
    rank, _, _ = run_rref(simd_level, bits)
    assert rank == oracle.gf2_rank(bits)


@pytest.mark.parametrize(
    "shape, density",
    [((1, 1), 0.5), ((5, 1000), 0.5), ((700, 65), 0.5), ((300, 300), 0.02), ((129, 128), 0.98), ((260, 257), 0.5)],
)
def test_rref_shapes_and_densities(simd_level, shape, density):
    rng = np.random.default_rng(shape[0] * 7919 + shape[1])
    bits = random_bits(rng, *shape, density=density)
    reduced, pivots = slow_rref(bits)
    for method in METHODS:
        rank, got_pivots, got = run_rref(simd_level, bits, method=method)
        assert (rank, got_pivots) == (len(pivots), pivots)
        assert (got == reduced).all()


def test_rref_low_rank_product(simd_level):
    # rank <= 40 on a 300 x 257 matrix: most columns have no pivot, most rows end zero.
    rng = np.random.default_rng(7)
    left = rng.integers(0, 2, (300, 40))
    right = rng.integers(0, 2, (40, 257))
    bits = (left @ right) % 2 == 1
    reduced, pivots = slow_rref(bits)
    rank, got_pivots, got = run_rref(simd_level, bits)
    assert (rank, got_pivots) == (len(pivots), pivots)
    assert (got == reduced).all()


@pytest.mark.parametrize(
    "structure", ["every_other_column_zero", "bottom_half_zero", "identity", "all_ones", "zero", "lower_triangle"]
)
def test_rref_structured_matrices(simd_level, structure):
    # Shapes that exercise the pivot search's pruning (columns or rows with no pivot left).
    rng = np.random.default_rng(11)
    nrows, ncols = 300, 257
    bits = rng.random((nrows, ncols)) < 0.5
    if structure == "every_other_column_zero":
        bits[:, 1::2] = False
    elif structure == "bottom_half_zero":
        bits[nrows // 2 :] = False
    elif structure == "identity":
        bits = np.eye(nrows, ncols, dtype=bool)
    elif structure == "all_ones":
        bits[:] = True
    elif structure == "zero":
        bits[:] = False
    else:
        bits = np.tril(np.ones((nrows, ncols), dtype=bool))
    reduced, pivots = slow_rref(bits)
    for method in METHODS:
        rank, got_pivots, got = run_rref(simd_level, bits, method=method)
        assert (rank, got_pivots) == (len(pivots), pivots)
        assert (got == reduced).all()


@pytest.mark.parametrize("ncols", [2, 64, 65, 129, 257])
def test_rref_restricted_pivot_columns(simd_level, ncols):
    # Augmented systems: pivots only among the first ncols-1 columns; the last is carried along.
    bits, _, _ = awkward_case(ncols)
    for npivot_cols in (ncols - 1, ncols // 2, 0):
        reduced, pivots = slow_rref(bits, npivot_cols)
        rank, got_pivots, got = run_rref(simd_level, bits, npivot_cols)
        assert (rank, got_pivots) == (len(pivots), pivots)
        assert (got == reduced).all()


def test_rref_leaves_extra_words_alone(simd_level):
    # A row may have more words than ncols needs; those words are outside the matrix.
    rng = np.random.default_rng(3)
    bits = random_bits(rng, 130, 65)
    packed = np.zeros((130, 4), dtype=np.uint64)
    packed[:, :2] = pack_rows(bits)
    rank, pivots = load("gf2elim", simd_level).rref_inplace(packed, 65)
    reduced, expected = slow_rref(bits)
    assert (rank, pivots.tolist()) == (len(expected), expected)
    assert (unpack_rows(packed[:, :2].copy(), 65) == reduced).all()
    assert not packed[:, 2:].any()


def test_rref_empty_matrices(simd_level):
    kernel = load("gf2elim", simd_level)
    for shape, ncols in (((0, 2), 100), ((3, 0), 0), ((3, 2), 0), ((0, 0), 0)):
        rank, pivots = kernel.rref_inplace(np.zeros(shape, dtype=np.uint64), ncols)
        assert rank == 0 and pivots.shape == (0,)


# ---------------------------------------------------------------------------
# Solving and null spaces.

def check_solution(bits: np.ndarray, rhs: np.ndarray, x_words: np.ndarray) -> None:
    x = unpack_rows(x_words.reshape(1, -1), bits.shape[1])[0] if x_words.size else np.zeros(0, bool)
    assert ((bits.astype(np.int64) @ x) % 2 == rhs).all()


@pytest.mark.parametrize("ncols", AWKWARD_BITS)
def test_solve_inplace(simd_level, ncols):
    kernel = load("gf2elim", simd_level)
    rng = np.random.default_rng(50 + ncols)
    bits = random_bits(rng, min(ncols + 3, 150), ncols)
    # A right-hand side in the column space: consistent.
    rhs = (bits.astype(np.int64) @ rng.integers(0, 2, ncols)) % 2 == 1
    buffer, aug = guarded(pack_rows(np.column_stack([bits, rhs])))
    consistent, x = kernel.solve_inplace(aug, ncols)
    assert_sentinels_intact(buffer)
    assert consistent and x.shape == (words_for_bits(ncols),)
    check_solution(bits, rhs, x)
    # Breaking a dependent row's right-hand side makes it inconsistent (rows 0, 1 and nrows//2).
    if bits.shape[0] >= 4:
        rhs[bits.shape[0] // 2] ^= True
        consistent, x = kernel.solve_inplace(pack_rows(np.column_stack([bits, rhs])), ncols)
        assert not consistent and not x.any()


@pytest.mark.parametrize("ncols", AWKWARD_BITS)
def test_null_space(simd_level, ncols):
    kernel = load("gf2elim", simd_level)
    bits, _, pivots = awkward_case(ncols)
    packed = pack_rows(bits)
    rank, got_pivots = kernel.rref_inplace(packed, ncols)
    basis_words = kernel.null_space(packed, ncols, got_pivots)
    assert basis_words.shape == (ncols - rank, words_for_bits(ncols))
    basis = unpack_rows(basis_words, ncols) if basis_words.size else np.zeros((0, ncols), bool)
    assert not ((bits.astype(np.int64) @ basis.T.astype(np.int64)) % 2).any()  # annihilated
    free = [c for c in range(ncols) if c not in set(pivots)]
    assert (basis[:, free] == np.eye(len(free), dtype=bool)).all()  # standard basis, so independent


# ---------------------------------------------------------------------------
# Hypothesis: random small matrices against the slow reference.

small_matrices = st.tuples(st.integers(0, 24), st.integers(0, 140), st.integers(0, 2**32 - 1)).map(
    lambda args: (np.random.default_rng(args[2]).random((args[0], args[1])) < 0.5)
)


@pytest.mark.parametrize("level", available_levels())
@settings(max_examples=60, deadline=None)
@given(bits=small_matrices, method=st.sampled_from(METHODS))
def test_property_rref(level, bits, method):
    reduced, pivots = slow_rref(bits)
    rank, got_pivots, got = run_rref(level, bits, method=method)
    assert (rank, got_pivots) == (len(pivots), pivots)
    assert (got == reduced).all()
    assert rank == oracle.gf2_rank(bits) if bits.size else rank == 0


@pytest.mark.parametrize("level", available_levels())
@settings(max_examples=60, deadline=None)
@given(bits=small_matrices, seed=st.integers(0, 2**32 - 1))
def test_property_solve_and_null_space(level, bits, seed):
    kernel = load("gf2elim", level)
    nrows, ncols = bits.shape
    rng = np.random.default_rng(seed)
    rhs = rng.random(nrows) < 0.5
    consistent, x = kernel.solve_inplace(pack_rows(np.column_stack([bits, rhs])), ncols)
    in_column_space = oracle.gf2_rank(np.column_stack([bits, rhs])) == (oracle.gf2_rank(bits) if bits.size else 0)
    assert consistent == in_column_space
    if consistent:
        check_solution(bits, rhs, x)
    packed = pack_rows(bits)
    rank, pivots = kernel.rref_inplace(packed, ncols)
    basis_words = kernel.null_space(packed, ncols, pivots)
    assert basis_words.shape[0] == ncols - rank
    if basis_words.shape[0]:
        basis = unpack_rows(basis_words, ncols)
        assert not ((bits.astype(np.int64) @ basis.T.astype(np.int64)) % 2).any()
        assert oracle.gf2_rank(basis) == ncols - rank


# ---------------------------------------------------------------------------
# Bad arguments.

@pytest.fixture
def kernel(simd_level):
    return load("gf2elim", simd_level)


def test_rejects_wrong_types(kernel):
    with pytest.raises(InvalidTypeError, match="packed numpy uint64 array.*got dtype int64"):
        kernel.rref_inplace(np.zeros((2, 1), dtype=np.int64), 3)
    with pytest.raises(InvalidTypeError, match="packed numpy uint64 array.*got list"):
        kernel.rref_inplace([[1, 2]], 3)
    with pytest.raises(InvalidTypeError, match="ncols must be an int"):
        kernel.rref_inplace(np.zeros((2, 1), dtype=np.uint64), 3.0)
    with pytest.raises(InvalidTypeError, match="ncols must be an int"):
        kernel.rref_inplace(np.zeros((2, 1), dtype=np.uint64), True)
    with pytest.raises(InvalidTypeError, match="npivot_cols must be an int"):
        kernel.rref_inplace(np.zeros((2, 1), dtype=np.uint64), 3, None)
    with pytest.raises(InvalidTypeError, match="packed numpy uint64 array"):
        kernel.null_space(np.zeros((2, 1), dtype=np.int8), 3, [])


def test_rejects_bad_shapes_and_layouts(kernel):
    with pytest.raises(InvalidBoardError, match="2-D"):
        kernel.rref_inplace(np.zeros((2, 2, 1), dtype=np.uint64), 3)
    with pytest.raises(InvalidBoardError, match="2-D"):
        kernel.rref_inplace(np.zeros(4, dtype=np.uint64), 3)
    with pytest.raises(InvalidBoardError, match="C-contiguous"):
        kernel.rref_inplace(np.zeros((4, 4), dtype=np.uint64)[:, ::2], 3)
    with pytest.raises(InvalidBoardError, match="C-contiguous"):
        kernel.rref_inplace(np.zeros((4, 4), dtype=np.uint64, order="F"), 3)
    read_only = np.zeros((2, 1), dtype=np.uint64)
    read_only.flags.writeable = False
    with pytest.raises(InvalidBoardError, match="read-only"):
        kernel.rref_inplace(read_only, 3)
    kernel.null_space(read_only, 3, [])  # reading is fine


def test_rejects_bad_sizes(kernel):
    matrix = np.zeros((2, 2), dtype=np.uint64)
    with pytest.raises(InvalidBoardError, match="at least 3 words per row for 129 columns"):
        kernel.rref_inplace(matrix, 129)
    with pytest.raises(InvalidBoardError, match=">= 0"):
        kernel.rref_inplace(matrix, -1)
    with pytest.raises(InvalidBoardError, match="words per row"):
        kernel.rref_inplace(matrix, 10**30)  # no OverflowError
    with pytest.raises(InvalidBoardError, match="npivot_cols"):
        kernel.rref_inplace(matrix, 100, 101)
    with pytest.raises(InvalidBoardError, match="npivot_cols"):
        kernel.rref_inplace(matrix, 100, -2)
    with pytest.raises(InvalidBoardError, match="method"):
        kernel.rref_inplace(matrix, 100, method="strassen")
    with pytest.raises(InvalidBoardError, match="nvars"):
        kernel.solve_inplace(matrix, -1)


def test_rejects_bits_past_ncols(kernel):
    matrix = np.zeros((2, 2), dtype=np.uint64)
    matrix[1, 1] = np.uint64(1) << np.uint64(6)  # column 70
    with pytest.raises(InvalidBoardError, match="past column 70"):
        kernel.rref_inplace(matrix.copy(), 70)
    with pytest.raises(InvalidBoardError, match="past column 64"):
        kernel.rref_inplace(matrix.copy(), 64)
    with pytest.raises(InvalidBoardError, match="past column 64"):
        kernel.null_space(matrix.copy(), 64, [])
    kernel.rref_inplace(matrix, 71)  # fine once column 70 is inside


def test_validation_is_the_shared_one(kernel):
    # Regression (issue 6, "one validation path"): the kernel words a mistake
    # exactly as lightsout._base.validate.packed_matrix does, with the package's errors.
    bad = np.full((2, 1), 8, dtype=np.uint64)
    with pytest.raises(InvalidBoardError) as from_kernel:
        kernel.rref_inplace(bad, 3)
    with pytest.raises(InvalidBoardError) as from_validate:
        packed_matrix(bad, "matrix", nbits=3)
    assert str(from_kernel.value) == str(from_validate.value)


def test_null_space_rejects_bad_pivots(kernel):
    matrix = pack_rows([[1, 0, 1], [0, 1, 1]])
    with pytest.raises(InvalidBoardError, match="increasing"):
        kernel.null_space(matrix, 3, [1, 0])
    with pytest.raises(InvalidBoardError, match="increasing"):
        kernel.null_space(matrix, 3, [0, 3])
    with pytest.raises(InvalidBoardError, match="do not fit"):
        kernel.null_space(matrix, 3, [0, 1, 2])
    with pytest.raises(InvalidBoardError, match="1-D"):
        kernel.null_space(matrix, 3, [[0, 1]])
    with pytest.raises(InvalidTypeError, match="pivots"):
        kernel.null_space(matrix, 3, ["a"])


# ---------------------------------------------------------------------------
# Ctrl-C (interface 4): the elimination checks for signals between column blocks.

INTERRUPT_CHILD = r"""
import sys
import numpy as np
from lightsout._kernels import load
n = int(sys.argv[1]); ncols = n + 1; nwords = (ncols + 63) // 64
m = np.random.default_rng(1).integers(0, 2**63, size=(n, nwords), dtype=np.uint64)
m[:, -1] &= np.uint64((1 << (ncols % 64)) - 1)
kernel = load("gf2elim")
try:
    print("ready", flush=True)
    kernel.rref_inplace(m, ncols)
except KeyboardInterrupt:
    print("interrupted", flush=True)
"""


def test_ctrl_c_stops_a_large_elimination(simd_level, tmp_path):
    # Regression (issue 6, defect 2): an n = 40,000 elimination (seconds of work)
    # used to run to the end before KeyboardInterrupt; it now stops within a
    # column block (about 0.01 s measured).  Not a timing test: the generous
    # deadline only tells "stopped early" from "ran to the end".
    env = dict(os.environ, LIGHTSOUT_SIMD=simd_level)
    # cwd outside the checkout, so the child imports the installed package, not the source folder
    child = subprocess.Popen([sys.executable, "-c", INTERRUPT_CHILD, "40000"], stdout=subprocess.PIPE,
                             text=True, env=env, cwd=tmp_path)
    try:
        assert child.stdout.readline().strip() == "ready"
        time.sleep(0.3)
        child.send_signal(signal.SIGINT)
        out, _ = child.communicate(timeout=4)
    finally:
        child.kill()
        child.wait()
    assert out.strip() == "interrupted"


def test_elimination_in_a_worker_thread(kernel):
    # Off the main thread the kernel does not take the GIL to check signals; it still works.
    bits, reduced, pivots = awkward_case(257)
    packed = pack_rows(bits)
    result = []
    worker = threading.Thread(target=lambda: result.append(kernel.rref_inplace(packed, 257)))
    worker.start()
    worker.join()
    assert result[0][0] == len(pivots) and (unpack_rows(packed, 257) == reduced).all()


# ---------------------------------------------------------------------------
# The C API table (lightsout/capi.h), called through ctypes: no compiler needed.

class Gf2elimApi(ctypes.Structure):
    RREF = ctypes.CFUNCTYPE(ctypes.c_ssize_t, ctypes.c_void_p, ctypes.c_ssize_t, ctypes.c_ssize_t,
                            ctypes.c_ssize_t, ctypes.c_ssize_t, ctypes.c_void_p)
    _fields_ = [("abi_version", ctypes.c_int), ("simd_level", ctypes.c_char_p), ("rref", RREF)]


def c_api_table(module) -> Gf2elimApi:
    get_pointer = ctypes.pythonapi.PyCapsule_GetPointer
    get_pointer.restype, get_pointer.argtypes = ctypes.c_void_p, [ctypes.py_object, ctypes.c_char_p]
    address = get_pointer(module._capi, b"lightsout._gf2elim._capi")
    return Gf2elimApi.from_address(address)


def test_c_api_table(kernel, simd_level):
    api = c_api_table(kernel)
    assert api.abi_version == 1
    assert api.simd_level.decode() == simd_level == kernel.SIMD_LEVEL
    bits, reduced, pivots = awkward_case(129)
    nrows = bits.shape[0]
    matrix = np.full((nrows, 4), SENTINEL, dtype=np.uint64)  # stride 4 > 3 words: the rest is not ours
    matrix[:, :3] = pack_rows(bits)
    got_pivots = np.full(nrows, -7, dtype=np.int64)
    rank = api.rref(matrix.ctypes.data, nrows, 4, 129, -1, got_pivots.ctypes.data)
    assert rank == len(pivots) and got_pivots[:rank].tolist() == pivots
    assert (unpack_rows(matrix[:, :3].copy(), 129) == reduced).all()
    assert (matrix[:, 3] == SENTINEL).all()
    # Arguments that cannot describe a matrix: LIGHTSOUT_EINVAL, nothing touched.
    before = matrix.copy()
    assert api.rref(matrix.ctypes.data, nrows, 2, 129, -1, got_pivots.ctypes.data) == -2
    assert api.rref(matrix.ctypes.data, -1, 4, 129, -1, got_pivots.ctypes.data) == -2
    assert api.rref(matrix.ctypes.data, nrows, 4, 129, 130, got_pivots.ctypes.data) == -2
    assert api.rref(None, nrows, 4, 129, -1, got_pivots.ctypes.data) == -2
    assert api.rref(None, 0, 4, 129, -1, None) == 0
    assert (matrix == before).all()


# ---------------------------------------------------------------------------
# pack_zero_one: check and pack numbers in one pass.

PACK_DTYPES = (np.bool_, np.int8, np.uint8, np.int16, np.uint16, np.int32, np.uint32, np.int64, np.uint64, np.float32, np.float64)


@pytest.mark.parametrize("dtype", PACK_DTYPES)
@pytest.mark.parametrize("ncols", (0,) + AWKWARD_BITS)
def test_pack_zero_one_matches_packbits(kernel, dtype, ncols):
    bits = np.random.default_rng(ncols).random((6, ncols)) < 0.5
    values = bits.astype(dtype)
    expected = pack_rows(bits)
    words = kernel.pack_zero_one(values)
    assert words.dtype == np.uint64 and words.shape == expected.shape and (words == expected).all()
    if ncols:
        assert (kernel.pack_zero_one(values[::-2]) == expected[::-2]).all()  # any row stride
        wide = np.zeros((6, ncols + 3), dtype=dtype)
        wide[:, :ncols] = values
        assert (kernel.pack_zero_one(wide[:, :ncols]) == expected).all()  # rows not adjacent


@pytest.mark.parametrize("dtype", PACK_DTYPES)
@pytest.mark.parametrize("column", [0, 63, 64, 128])
def test_pack_zero_one_finds_every_bad_value(kernel, dtype, column):
    if np.dtype(dtype).kind == "b":  # a bool array made from other bytes holds values numpy never writes
        for bad in (2, 255):
            raw = np.zeros((3, 129), dtype=np.uint8)
            raw[2, column] = bad
            assert kernel.pack_zero_one(raw.view(np.bool_)) is None
        return
    info = np.finfo(dtype) if np.dtype(dtype).kind == "f" else np.iinfo(dtype)
    bad_values = [2, info.max]
    if np.dtype(dtype).kind in "if":
        bad_values += [-1, info.min]
    if np.dtype(dtype).kind == "f":
        bad_values += [0.5, 1.5, -1.0, np.nan, np.inf, -np.inf, info.tiny, 1 + info.eps]
    for bad in bad_values:
        values = np.zeros((3, 129), dtype=dtype)
        values[2, column] = bad
        assert kernel.pack_zero_one(values) is None, (dtype, bad)
    if np.dtype(dtype).kind == "f":
        values = np.full((3, 129), -0.0, dtype=dtype)
        values[1, column] = 1
        assert kernel.pack_zero_one(values)[:, column // 64].tolist() == [0, 1 << (column % 64), 0]


def test_pack_zero_one_rejects_arrays_it_does_not_handle(kernel):
    for values in (np.zeros((2, 4))[:, ::2], np.zeros((2, 4), dtype=np.uint8)[:, ::2],
                   np.zeros((2, 2), dtype=">i8"), np.zeros(3, dtype=np.int64), np.zeros((2, 2), dtype=np.float16)):
        with pytest.raises(InvalidTypeError):
            kernel.pack_zero_one(values)
