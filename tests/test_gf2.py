"""Tests of the public GF(2) linear-algebra API, lightsout.gf2.

Results are checked against the slow Python RREF of tests/test_gf2elim.py and
tests/oracle.py, and by substitution (a @ x == b, a @ basis == 0, mod 2).
"""
from __future__ import annotations

import copy
import pickle
from concurrent.futures import ProcessPoolExecutor

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_gf2elim import slow_rref

import lightsout
import lightsout.gf2 as gf2
import oracle
from lightsout._base.errors import BoardTooLargeError, InvalidBoardError, InvalidTypeError, LightsOutError
from lightsout._kernels import available_levels


@pytest.fixture
def at_level(simd_level, monkeypatch):
    """Run the public API on the simd_level build of the kernel."""
    monkeypatch.setenv("LIGHTSOUT_SIMD", simd_level)
    return simd_level


def mod2_product(a, x) -> np.ndarray:
    return (np.asarray(a, dtype=np.int64) @ np.asarray(x, dtype=np.int64)) % 2


@pytest.mark.parametrize("shape", [(1, 1), (3, 5), (64, 65), (130, 129), (129, 300), (300, 257)])
def test_rank_rref_null_space_solve(at_level, shape):
    rng = np.random.default_rng(shape[0] * 31 + shape[1])
    a = rng.integers(0, 2, shape)
    if shape[0] >= 3:
        a[2] = a[0] ^ a[1]  # rank deficient, so the null space and inconsistency show up
    reduced, pivots = slow_rref(a)
    assert gf2.rank(a) == len(pivots) == oracle.gf2_rank(a)
    got_reduced, got_pivots = gf2.rref(a)
    assert got_reduced.dtype == bool and (got_reduced == reduced).all()
    assert got_pivots.tolist() == pivots
    basis = gf2.null_space(a)
    assert basis.shape == (shape[1] - len(pivots), shape[1]) and basis.dtype == bool
    assert not mod2_product(a, basis.T).any()
    b = mod2_product(a, rng.integers(0, 2, shape[1]))
    x = gf2.solve(a, b)
    assert x.shape == (shape[1],) and x.dtype == bool
    assert (mod2_product(a, x) == b).all()
    if shape[0] >= 3:
        b[2] ^= 1
        with pytest.raises(gf2.NoSolutionError):
            gf2.solve(a, b)


def test_accepts_bools_and_ints_alike():
    ints = [[1, 0, 1], [0, 1, 1]]
    bools = np.array(ints, dtype=bool)
    assert gf2.rank(ints) == gf2.rank(bools) == gf2.rank(np.array(ints, dtype=np.uint8)) == 2
    assert (gf2.solve(ints, [1, 1]) == gf2.solve(bools, np.array([True, True]))).all()


def test_empty_matrices():
    assert gf2.rank(np.zeros((0, 4))) == 0
    assert gf2.null_space(np.zeros((0, 4), dtype=int)).shape == (4, 4)
    reduced, pivots = gf2.rref(np.zeros((3, 0), dtype=int))
    assert reduced.shape == (3, 0) and pivots.shape == (0,)
    assert gf2.solve(np.zeros((0, 2), dtype=int), []).tolist() == [False, False]
    with pytest.raises(gf2.NoSolutionError):
        gf2.solve(np.zeros((1, 0), dtype=int), [1])


def test_no_solution_error_is_a_value_error():
    with pytest.raises(ValueError, match="no solution") as info:
        gf2.solve([[1, 1], [1, 1]], [1, 0])
    assert isinstance(info.value, LightsOutError)


@pytest.mark.parametrize("function", [gf2.rank, gf2.rref, gf2.null_space])
def test_rejects_bad_matrices(function):
    with pytest.raises(InvalidBoardError, match="0 and 1"):
        function([[0, 2], [1, 1]])
    with pytest.raises(InvalidBoardError, match="2-D"):
        function([1, 0, 1])
    with pytest.raises(InvalidBoardError, match="2-D"):
        function(np.zeros((2, 2, 2), dtype=int))
    with pytest.raises(InvalidTypeError):
        function([["a", "b"]])
    with pytest.raises(InvalidBoardError):
        function([[1, 0], [1]])  # ragged


def test_solve_rejects_bad_right_hand_sides():
    a = [[1, 0], [0, 1]]
    with pytest.raises(InvalidBoardError, match="length 3"):
        gf2.solve(a, [1, 0, 1])
    with pytest.raises(InvalidBoardError, match="1-D"):
        gf2.solve(a, [[1], [0]])
    with pytest.raises(InvalidBoardError, match="0 and 1"):
        gf2.solve(a, [1, 5])
    with pytest.raises(InvalidTypeError):
        gf2.solve(a, ["x", "y"])


small_matrices = st.tuples(st.integers(1, 20), st.integers(1, 80), st.integers(0, 2**32 - 1)).map(
    lambda args: np.random.default_rng(args[2]).integers(0, 2, (args[0], args[1]))
)


@pytest.mark.parametrize("level", available_levels())
@settings(max_examples=50, deadline=None)
@given(a=small_matrices, seed=st.integers(0, 2**32 - 1))
def test_property_public_api(level, a, seed):
    with pytest.MonkeyPatch.context() as patch:  # hypothesis and function-scoped fixtures do not mix
        patch.setenv("LIGHTSOUT_SIMD", level)
        reduced, pivots = slow_rref(a)
        assert gf2.rank(a) == len(pivots)
        got, got_pivots = gf2.rref(a)
        assert (got == reduced).all() and got_pivots.tolist() == pivots
        basis = gf2.null_space(a)
        assert basis.shape[0] == a.shape[1] - len(pivots)
        assert not mod2_product(a, basis.T).any()
        if basis.shape[0]:
            assert oracle.gf2_rank(basis) == basis.shape[0]  # independent
        b = np.random.default_rng(seed).integers(0, 2, a.shape[0])
        solvable = oracle.gf2_rank(np.column_stack([a, b])) == len(pivots)
        if solvable:
            assert (mod2_product(a, gf2.solve(a, b)) == b).all()
        else:
            with pytest.raises(gf2.NoSolutionError):
                gf2.solve(a, b)


# ---------------------------------------------------------------------------
# Regressions of issue 6.

@pytest.mark.parametrize("dtype", [np.uint8, np.int8, np.int16, np.uint32, np.int64, np.float32, np.float64])
def test_numeric_inputs_match_bool_without_sorting(dtype, monkeypatch):
    # Defect 8: the 0/1 check used np.isin (a sort), 5-7x the whole bool path;
    # it is now one vectorised pass.  np.isin must not be needed at all.
    rng = np.random.default_rng(8)
    bits = rng.random((70, 129)) < 0.5
    expected = gf2.rank(bits)

    def no_isin(*args, **kwargs):
        raise AssertionError("np.isin called")

    monkeypatch.setattr(np, "isin", no_isin)
    a = bits.astype(dtype)
    assert gf2.rank(a) == expected == gf2.rank(a.T)
    assert gf2.rank(a[:, ::2].T) == gf2.rank(bits[:, ::2])
    assert (gf2.rref(a)[0] == gf2.rref(bits)[0]).all()
    assert gf2.null_space(a).shape == gf2.null_space(bits).shape
    assert (gf2.solve(a, a[:, 0]) == gf2.solve(bits, bits[:, 0])).all()


@pytest.mark.parametrize("bad", [
    np.array([[0, 2]], dtype=np.uint8), np.array([[0, -1]], dtype=np.int8), np.array([[1, -1]], dtype=np.int64),
    np.array([[0, 256]], dtype=np.int64), np.array([[0.5, 1.0]]), np.array([[np.nan, 0.0]]),
    np.array([[np.inf, 0.0]]), np.array([[-1.0, 1.0]], dtype=np.float32),
])
def test_rejects_every_value_other_than_0_and_1(bad):
    with pytest.raises(InvalidBoardError, match="0 and 1"):
        gf2.rank(bad)
    with pytest.raises(InvalidBoardError, match="0 and 1"):
        gf2.solve([[1], [0]], bad[0])


def test_negative_zero_is_zero():
    assert gf2.rank(np.array([[-0.0, 1.0], [1.0, -0.0]])) == 2


def test_null_space_of_a_wide_matrix_is_refused_before_any_work():
    # Defect 6: np.zeros((1, 200000)) worked 12 s and then asked for 37 GB.
    with pytest.raises(BoardTooLargeError, match="limit 8 GiB"):
        gf2.null_space(np.zeros((1, 200_000)))
    assert gf2.null_space(np.ones((1, 3000))).shape == (2999, 3000)  # moderate ones still work


@pytest.mark.parametrize("function", [gf2.rank, gf2.rref, gf2.null_space])
def test_absurd_sizes_are_refused_before_allocating(function):
    # A broadcast view holds 10**12 entries in no memory; packing or converting it would not.
    huge = np.broadcast_to(np.uint8(1), (10**6, 10**6))
    with pytest.raises(BoardTooLargeError, match="limit"):
        function(huge)
    with pytest.raises(BoardTooLargeError, match="limit"):
        gf2.solve(huge, np.zeros(10**6, dtype=np.uint8))


def test_no_solution_error_survives_pickle_and_copy():
    # Defect 4: every exception must survive pickle and copy.copy, with its data.
    with pytest.raises(gf2.NoSolutionError) as info:
        gf2.solve([[1, 1, 0], [0, 1, 1], [1, 0, 1]], [1, 0, 0])
    error = info.value
    assert (error.rank, error.augmented_rank) == (2, 3)
    for clone in (pickle.loads(pickle.dumps(error)), copy.copy(error), copy.deepcopy(error)):
        assert type(clone) is gf2.NoSolutionError
        assert str(clone) == str(error) and clone.args == error.args
        assert (clone.rank, clone.augmented_rank) == (2, 3)


def test_no_solution_error_crosses_processes():
    with ProcessPoolExecutor(max_workers=1) as pool:
        future = pool.submit(gf2.solve, [[1, 1], [1, 1]], [1, 0])
        with pytest.raises(gf2.NoSolutionError, match="no solution") as info:
            future.result()
    assert info.value.augmented_rank == 2


# --- issue 16, item 8: tall and transposed inputs of every shape ------------------------------

def _rank_by_python(rows: list[list[int]]) -> int:
    """Rank over GF(2) by plain Python elimination on ints (shares nothing with the package)."""
    basis: dict[int, int] = {}
    rank = 0
    for row in rows:
        value = int("".join(map(str, row))[::-1] or "0", 2)
        while value:
            top = value.bit_length() - 1
            if top not in basis:
                basis[top] = value
                rank += 1
                break
            value ^= basis[top]
    return rank


@pytest.mark.parametrize("nrows", [1, 2, 13, 57, 63, 64, 65, 127, 128, 129])
@pytest.mark.parametrize("ncols", [1, 2, 13, 57, 64, 65])
@pytest.mark.parametrize("order", ["C", "F"])
def test_rank_of_every_shape_and_memory_order(nrows, ncols, order):
    rng = np.random.default_rng(nrows * 1000 + ncols)
    for a in (np.ones((nrows, ncols), np.uint8), rng.integers(0, 2, (nrows, ncols), dtype=np.uint8)):
        expected = _rank_by_python(a.tolist())
        arranged = np.asarray(a, order=order)
        assert lightsout.gf2.rank(arranged) == expected
        assert lightsout.gf2.rank(arranged.astype(bool)) == expected
        assert lightsout.gf2.rank(arranged.T) == expected
        reduced, pivots = lightsout.gf2.rref(arranged)
        assert len(pivots) == expected and reduced.shape == a.shape
        assert lightsout.gf2.null_space(arranged).shape[0] == ncols - expected
