"""Tests of lightsout.packed: GF(2) linear algebra on packed matrices, no repacking.

Ranks are checked against tests/oracle.py, reduced forms against the plain-Python
elimination of tests/test_gf2elim.py, solutions and null spaces by substitution,
chases against oracle.chase.  Each runs at every SIMD level and at awkward widths.
"""
from __future__ import annotations

import copy
import doctest
import inspect
import pickle

import numpy as np
import pytest
from conftest import AWKWARD_BITS
from examples import find_examples
from test_gf2elim import random_bits, slow_rref

import lightsout.packed as packed
import oracle
from lightsout._base.errors import BoardTooLargeError, InvalidBoardError, InvalidTypeError
from lightsout._core import bitmatrix as _bitmatrix
from lightsout import _include
from lightsout._kernels import load
from lightsout.gf2 import NoSolutionError


@pytest.fixture
def at_level(simd_level: str, monkeypatch: pytest.MonkeyPatch) -> str:
    """Run the public API on the simd_level build of the kernels."""
    monkeypatch.setenv("LIGHTSOUT_SIMD", simd_level)
    return simd_level


def mod2(a, x) -> np.ndarray:
    return (np.asarray(a, dtype=np.int64) @ np.asarray(x, dtype=np.int64)) % 2


def case(ncols: int, nrows: int | None = None) -> np.ndarray:
    rng = np.random.default_rng(77 + ncols)
    return random_bits(rng, nrows if nrows is not None else min(ncols + 5, 140), ncols)


# ---------------------------------------------------------------------------
# Layout.

@pytest.mark.parametrize("ncols", (0,) + AWKWARD_BITS)
def test_pack_matches_numpy_packbits(ncols: int) -> None:
    bits = np.random.default_rng(ncols).random((5, ncols)) < 0.5
    words = packed.pack(bits)
    nwords = packed.words_for_bits(ncols)
    assert words.dtype == np.uint64 and words.shape == (5, nwords) and words.flags.c_contiguous
    raw = np.zeros((5, nwords * 8), dtype=np.uint8)
    raw[:, : (ncols + 7) // 8] = np.packbits(bits, axis=1, bitorder="little")
    assert (raw.view("<u8") == words).all()
    for j in range(ncols):  # bit j is bit j % 64 of word j // 64
        assert ((words[:, j // 64] >> np.uint64(j % 64)) & np.uint64(1)).astype(bool).tolist() == bits[:, j].tolist()
    assert (packed.unpack(words, ncols) == bits).all()
    assert (packed.pack(bits[0]) == words[0]).all() and (packed.unpack(words[0], ncols) == bits[0]).all()


@pytest.mark.parametrize("dtype", [bool, np.uint8, np.int8, np.int32, np.uint64, np.int64, np.float32, np.float64])
def test_pack_accepts_every_numeric_dtype(dtype) -> None:
    bits = np.random.default_rng(3).random((7, 130)) < 0.5
    assert (packed.pack(bits.astype(dtype)) == packed.pack(bits)).all()
    assert (packed.pack(bits.astype(dtype)[:, ::2]) == packed.pack(bits[:, ::2])).all()  # strided views


@pytest.mark.parametrize("bad", [[[0, 2]], [[0, -1]], [[0.5, 1]], [[np.nan, 0]], [[np.inf, 1]], [[-1.0, 0]]])
def test_pack_rejects_values_other_than_0_and_1(bad) -> None:
    with pytest.raises(InvalidBoardError, match="only 0 and 1"):
        packed.pack(bad)


def test_pack_and_unpack_reject_bad_input() -> None:
    with pytest.raises(InvalidTypeError):
        packed.pack([["a"]])
    with pytest.raises(InvalidBoardError, match="1-D or 2-D"):
        packed.pack(np.zeros((2, 2, 2)))
    with pytest.raises(InvalidBoardError, match="past column 3"):
        packed.unpack(np.array([[8]], dtype=np.uint64), 3)
    with pytest.raises(InvalidBoardError, match="words per row"):
        packed.unpack(np.zeros((1, 2), dtype=np.uint64), 3)
    with pytest.raises(InvalidTypeError, match="uint64"):
        packed.unpack(np.zeros((1, 1), dtype=np.int64), 3)
    assert packed.pack(np.zeros((1, 0))).shape == (1, 0)


# ---------------------------------------------------------------------------
# Elimination, rank, solve, null space.

@pytest.mark.parametrize("ncols", AWKWARD_BITS)
def test_rank_and_rref_inplace(at_level: str, ncols: int) -> None:
    bits = case(ncols)
    words = packed.pack(bits)
    before = words.copy()
    assert packed.rank(words, ncols) == oracle.gf2_rank(bits)
    assert (words == before).all()  # rank leaves its argument alone
    reduced, pivots = slow_rref(bits)
    rank, got_pivots = packed.rref_inplace(words, ncols)
    assert (rank, got_pivots.tolist()) == (len(pivots), pivots)
    assert (packed.unpack(words, ncols) == reduced).all()


def test_rows_may_be_longer_than_needed(at_level: str) -> None:
    bits = case(65)
    words = np.zeros((bits.shape[0], 4), dtype=np.uint64)
    words[:, :2] = packed.pack(bits)
    assert packed.rank(words, 65) == oracle.gf2_rank(bits)
    basis = packed.null_space(words, 65)
    assert basis.shape[1] == 2
    packed.rref_inplace(words, 65)
    assert not words[:, 2:].any()


@pytest.mark.parametrize("ncols", AWKWARD_BITS)
def test_solve(at_level: str, ncols: int) -> None:
    bits = case(ncols)
    rng = np.random.default_rng(ncols)
    rhs = mod2(bits, rng.integers(0, 2, ncols)).astype(bool)
    a = packed.pack(bits)
    before = a.copy()
    x = packed.solve(a, packed.pack(rhs), ncols)
    assert x.shape == (packed.words_for_bits(ncols),) and (a == before).all()
    assert (mod2(bits, packed.unpack(x, ncols)) == rhs).all()
    if bits.shape[0] >= 4:  # rows 0, 1 and nrows // 2 are dependent: break that row's right-hand side
        rhs[bits.shape[0] // 2] ^= True
        with pytest.raises(NoSolutionError) as info:
            packed.solve(a, packed.pack(rhs), ncols)
        assert info.value.rank is not None
        assert info.value.augmented_rank == info.value.rank + 1 == oracle.gf2_rank(np.column_stack([bits, rhs]))


@pytest.mark.parametrize("ncols", AWKWARD_BITS)
def test_null_space(at_level: str, ncols: int) -> None:
    bits = case(ncols)
    words = packed.pack(bits)
    basis_words = packed.null_space(words, ncols)
    rank = oracle.gf2_rank(bits)
    assert basis_words.shape == (ncols - rank, packed.words_for_bits(ncols))
    basis = packed.unpack(basis_words, ncols)
    assert not mod2(bits, basis.T).any()
    _, pivots = slow_rref(bits)
    free = [c for c in range(ncols) if c not in set(pivots)]
    assert (basis[:, free] == np.eye(len(free), dtype=bool)).all()  # standard basis, so independent


def test_empty_and_degenerate(at_level: str) -> None:
    assert packed.rank(np.zeros((0, 2), dtype=np.uint64), 100) == 0
    assert packed.null_space(np.zeros((0, 2), dtype=np.uint64), 100).shape == (100, 2)
    assert packed.solve(np.zeros((0, 1), dtype=np.uint64), np.zeros(0, dtype=np.uint64), 3).tolist() == [0]
    with pytest.raises(NoSolutionError):
        packed.solve(np.zeros((1, 0), dtype=np.uint64), np.ones(1, dtype=np.uint64), 0)


def test_rejects_bad_arguments() -> None:
    a = packed.pack([[1, 0, 1], [0, 1, 1]])
    with pytest.raises(InvalidTypeError, match="ncols must be an int"):
        packed.rank(a, 3.0)  # type: ignore[arg-type]
    with pytest.raises(InvalidBoardError, match="ncols must be >= 0"):
        packed.rank(a, -1)
    with pytest.raises(InvalidBoardError, match="past column 2"):
        packed.rank(a, 2)
    with pytest.raises(InvalidTypeError, match="uint64"):
        packed.rank(a.astype(np.int64), 3)  # type: ignore[arg-type]
    with pytest.raises(InvalidBoardError, match="C-contiguous"):
        packed.rank(np.zeros((4, 4), dtype=np.uint64)[:, ::2], 3)
    read_only = a.copy()
    read_only.flags.writeable = False
    assert packed.rank(read_only, 3) == 2
    with pytest.raises(InvalidBoardError, match="read-only"):
        packed.rref_inplace(read_only, 3)
    with pytest.raises(InvalidBoardError, match="past column 2"):
        packed.solve(a, np.array([4], dtype=np.uint64), 3)  # b has 2 bits (one per row)
    with pytest.raises(InvalidBoardError, match="1 words per row"):
        packed.solve(np.zeros((2, 2), dtype=np.uint64), np.zeros(1, dtype=np.uint64), 3)


def test_refuses_oversized_results_before_working() -> None:
    # A 1 x 400,000 zero matrix has a 399,999-dimensional null space: 20 GB packed.
    with pytest.raises(BoardTooLargeError, match="limit 8 GiB"):
        packed.null_space(np.zeros((1, 6250), dtype=np.uint64), 400_000)
    with pytest.raises(BoardTooLargeError, match="limit"):
        _bitmatrix.check_elimination(1_000_000, 1_000_000)
    with pytest.raises(BoardTooLargeError, match="word updates"):
        _bitmatrix.check_elimination(1_000_000, 64_000)  # 7.5 GiB packed, 6.4e13 word updates
    with pytest.raises(BoardTooLargeError, match="presses"):
        packed.chase(None, 10**9, 1000, np.zeros(16, dtype=np.uint64), presses=True)


# ---------------------------------------------------------------------------
# Chase (interface 2 of the kernels: one chase with all_lit/presses/first_column).

def new_chase_kernel() -> bool:
    return "first_column" in (inspect.getattr_static(load("chase"), "chase").__doc__ or "")


needs_new_chase = pytest.mark.skipif(not new_chase_kernel(),
                                     reason="this build's _kernels.chase predates the first_column keyword")


@needs_new_chase
@pytest.mark.parametrize("ncols", [1, 2, 5, 63, 64, 65, 129])
def test_chase_matches_oracle(at_level: str, ncols: int) -> None:
    rng = np.random.default_rng(ncols)
    nrows = 7
    board = rng.random((nrows, ncols)) < 0.5
    first = rng.random(ncols) < 0.5
    expected_presses, left = oracle.chase(board, first)
    residue, presses = packed.chase(packed.pack(board), nrows, ncols, packed.pack(first), presses=True)
    assert (packed.unpack(residue, ncols) == left[-1].astype(bool)).all()
    assert presses is not None and (packed.unpack(presses, ncols) == expected_presses.astype(bool)).all()
    residue, none = packed.chase(None, nrows, ncols, packed.pack(first))
    assert none is None
    _, left = oracle.chase(np.ones((nrows, ncols), dtype=np.uint8), first)
    assert (packed.unpack(residue, ncols) == left[-1].astype(bool)).all()


# ---------------------------------------------------------------------------
# NoSolutionError and the docstrings' examples.

def test_no_solution_error_pickles_and_copies() -> None:
    with pytest.raises(NoSolutionError) as info:
        packed.solve(packed.pack([[1, 1], [1, 1]]), packed.pack([1, 0]), 2)
    for clone in (pickle.loads(pickle.dumps(info.value)), copy.copy(info.value)):
        assert type(clone) is NoSolutionError and str(clone) == str(info.value)
        assert (clone.rank, clone.augmented_rank) == (1, 2)


@pytest.mark.parametrize("module", [packed, _bitmatrix, _include])
def test_docstring_examples(module, simd_level: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LIGHTSOUT_SIMD", simd_level)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    tests = find_examples(module)
    if not new_chase_kernel():
        tests = [t for t in tests if not t.name.endswith(".chase")]
    for test in tests:
        runner.run(test)
    assert runner.tries > 0 and runner.failures == 0
