"""Tests of lightsout._core.manyboards (many boards at once) and the lightsout._kernels.many kernel.

References are computed here: numpy matrix products mod 2, and brute force over every
solution of a board (tests/oracle.py's press matrix and plain loops), never by lightsout.
"""
from __future__ import annotations

import numpy as np
import pytest

import oracle
from conftest import AWKWARD_BITS
from lightsout._base.errors import BoardTooLargeError, InvalidBoardError, InvalidTypeError
from lightsout._kernels import load
from lightsout._core.manyboards import (BitOperator, apply_bit_matrix_many, bit_operator, coset_min_many,
                             reduced_operator)


def pack(bits: np.ndarray) -> np.ndarray:
    """(N, n) 0/1 -> (N, ceil(n / 64)) uint64, bit j of a row at bit j % 64 of word j // 64."""
    n = bits.shape[1]
    words = np.zeros((bits.shape[0], (n + 63) // 64), dtype=np.uint64)
    for j in range(n):
        words[:, j // 64] |= bits[:, j].astype(np.uint64) << np.uint64(j % 64)
    return words


def unpack(words: np.ndarray, n: int) -> np.ndarray:
    return np.array([[(int(w[j // 64]) >> (j % 64)) & 1 for j in range(n)] for w in words], dtype=np.uint8)


def gf2_inverse_like(effect: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """A matrix M with A (M b) = b for every solvable b, and a basis of the kernel of A
    (textbook Gauss-Jordan on [A | I])."""
    n = effect.shape[0]
    aug = np.concatenate([effect % 2, np.eye(n, dtype=np.uint8)], axis=1).astype(np.uint8)
    pivots = []
    r = 0
    for col in range(n):
        p = next((i for i in range(r, n) if aug[i, col]), None)
        if p is None:
            continue
        aug[[r, p]] = aug[[p, r]]
        for i in range(n):
            if i != r and aug[i, col]:
                aug[i] ^= aug[r]
        pivots.append(col)
        r += 1
    # rows < r: E A = R (rref) with E = aug[:, n:]; x[pivot_i] = (E b)_i, free cells 0
    solver = np.zeros((n, n), dtype=np.uint8)
    for i, p in enumerate(pivots):
        solver[p] = aug[i, n:]
    free = [c for c in range(n) if c not in pivots]
    kernel = []
    for f in free:
        v = np.zeros(n, dtype=np.uint8)
        v[f] = 1
        for i, p in enumerate(pivots):
            v[p] = aug[i, f]
        kernel.append(v)
    return solver, np.array(kernel, dtype=np.uint8).reshape(len(kernel), n)


# ---------------------------------------------------------------------------------------
# apply_bit_matrix_many against numpy


@pytest.mark.parametrize("cells", sorted(set(AWKWARD_BITS) | {7, 8, 9, 25, 100}))
def test_apply_matches_matmul(cells):
    rng = np.random.default_rng(cells)
    for rows, checks in ((cells, 0), (max(1, cells // 3), 3), (70, 64)):
        m = (rng.random((rows, cells)) < 0.5).astype(np.uint8)
        q = (rng.random((checks, cells)) < 0.5).astype(np.uint8)
        boards = (rng.random((57, cells)) < 0.5).astype(np.uint8)
        boards[0] = 0
        boards[1] = 1
        expect = (boards.astype(np.int64) @ m.T.astype(np.int64)) % 2
        expect_ok = ((boards.astype(np.int64) @ q.T.astype(np.int64)) % 2 == 0).all(axis=1)
        op = bit_operator(m, q if checks else None)
        for given in (boards, boards.astype(bool), boards.astype(np.int32), pack(boards)):
            res = apply_bit_matrix_many(given, op)
            assert res.values.dtype == np.bool_ and (res.values == expect).all()
            if checks:
                assert res.ok is not None and (res.ok == expect_ok).all()
            else:
                assert res.ok is None
            packed = apply_bit_matrix_many(given, op, packed_output=True)
            assert packed.values.dtype == np.uint64 and packed.values.shape == (57, (rows + 63) // 64)
            assert (unpack(packed.values, rows) == expect).all()
            assert (pack(expect) == packed.values).all()           # tail bits zero
            if checks:
                assert (packed.ok == expect_ok).all()


def test_matrix_given_directly_and_empty_stacks():
    m = [[1, 1, 0], [0, 1, 1]]
    res = apply_bit_matrix_many(np.array([[1, 0, 1]], np.uint8), m, checks=[[1, 1, 1]])
    assert res.values.tolist() == [[True, True]] and res.ok.tolist() == [True]
    empty = apply_bit_matrix_many(np.zeros((0, 3), bool), m)
    assert empty.values.shape == (0, 2)
    assert apply_bit_matrix_many(np.zeros((0, 1), np.uint64), m, packed_output=True).values.shape == (0, 1)


def test_levels_agree(simd_level):
    rng = np.random.default_rng(4)
    kernel = load("many", simd_level)
    for cells, rows, checks in ((25, 25, 2), (100, 100, 0), (129, 65, 63), (1, 1, 1)):
        m = (rng.random((rows + checks, cells)) < 0.5).astype(np.uint8)
        op = bit_operator(m[:rows], m[rows:] if checks else None)
        boards = (rng.random((300, cells)) < 0.5).astype(np.uint8)
        expect = (boards.astype(np.int64) @ m.T.astype(np.int64)) % 2
        values, ok = kernel.apply_tables(boards, cells, op.tables, rows + checks, rows, unpack=True)
        assert (values == expect[:, :rows]).all()
        if checks:
            assert ok is not None and (ok.astype(bool) == ~expect[:, rows:].any(axis=1)).all()
        values, ok = kernel.apply_tables(pack(boards), cells, op.tables, rows + checks, rows)
        assert (values == pack(expect[:, :rows])).all()


def test_input_checks():
    op = bit_operator([[1, 0], [0, 1]])
    with pytest.raises(InvalidBoardError, match="0 and 1"):
        apply_bit_matrix_many(np.array([[0, 2]], np.uint8), op)
    with pytest.raises(InvalidBoardError, match="0 and 1"):
        apply_bit_matrix_many(np.array([[0, -1]]), op)
    with pytest.raises(InvalidBoardError, match="cells per row"):
        apply_bit_matrix_many(np.zeros((2, 3), bool), op)
    with pytest.raises(InvalidBoardError, match="words per row"):
        apply_bit_matrix_many(np.zeros((2, 2), np.uint64), op)
    with pytest.raises(InvalidTypeError):
        apply_bit_matrix_many(np.zeros((2, 2), np.float64), op)
    with pytest.raises(InvalidBoardError):
        apply_bit_matrix_many(np.zeros(2, bool), op)
    with pytest.raises(InvalidBoardError, match="checks"):
        bit_operator([[1, 0]], checks=[[1, 0, 1]])
    with pytest.raises(InvalidBoardError, match="prepared"):
        apply_bit_matrix_many(np.zeros((1, 2), bool), op, checks=[[1, 1]])
    assert isinstance(op, BitOperator) and op.tables.shape == (1, 256, 1)


def test_refuses_huge_tables(monkeypatch):
    import lightsout._core.manyboards as many
    monkeypatch.setattr(many, "MAX_TABLE_BYTES", 1000)
    with pytest.raises(BoardTooLargeError, match="GiB"):
        bit_operator(np.zeros((10, 100), np.uint8))


# ---------------------------------------------------------------------------------------
# Solving stacks: canonical (lexicographically smallest) and fewest-press solutions


def coset_brute(x: np.ndarray, kernel: np.ndarray) -> tuple[tuple[int, ...], tuple[int, int, tuple[int, ...]]]:
    """(lexicographically smallest element, (weight, lexmin of that weight)) of x + span(kernel)."""
    elements = [x.copy()]
    for row in kernel:
        elements += [e ^ row for e in elements]
    tuples = [tuple(int(v) for v in e) for e in elements]
    fewest = min((sum(t), t) for t in tuples)
    return min(tuples), (fewest[0], 0, fewest[1])


@pytest.mark.parametrize("shape", [(4, 4), (5, 5), (3, 3), (2, 5), (4, 9)])
def test_reduced_operator_and_fewest_presses(shape):
    effect = oracle.press_matrix(*shape)
    cells = effect.shape[0]
    solver, kernel = gf2_inverse_like(effect)
    canonical = reduced_operator(solver, kernel)
    rng = np.random.default_rng(sum(shape))
    presses = (rng.random((40, cells)) < 0.5).astype(np.uint8)
    boards = ((presses.astype(np.int64) @ effect.T.astype(np.int64)) % 2).astype(np.uint8)   # solvable
    res = apply_bit_matrix_many(boards, bit_operator(canonical, kernel if kernel.shape[0] else None))
    assert res.ok is None or res.ok.all()
    packed = apply_bit_matrix_many(boards, bit_operator(canonical), packed_output=True).values
    fewest, weights = coset_min_many(packed, kernel)
    for b in range(len(boards)):
        x = res.values[b].astype(np.uint8)
        assert oracle.clears(boards[b].reshape(shape), x.reshape(shape))
        lexmin, (weight, _, lexmin_fewest) = coset_brute(x, kernel)
        assert tuple(int(v) for v in x) == lexmin
        assert int(weights[b]) == weight
        assert tuple(unpack(fewest[b:b + 1], cells)[0]) == lexmin_fewest
    if kernel.shape[0]:  # unsolvable boards are flagged
        bad = boards.copy()
        bad[:, int(np.flatnonzero(kernel[0])[0])] ^= 1          # odd overlap with a quiet pattern
        flagged = apply_bit_matrix_many(bad, bit_operator(canonical, kernel)).ok
        assert flagged is not None and not flagged.any()


def test_coset_min_many_levels_agree(simd_level):
    kernel = load("many", simd_level)
    rng = np.random.default_rng(8)
    x = rng.integers(0, 2**63, size=(50, 3), dtype=np.uint64)
    span = np.concatenate([np.zeros((1, 3), np.uint64), rng.integers(0, 2**63, size=(7, 3), dtype=np.uint64)])
    got = x.copy()
    weights = kernel.coset_min_many(got, span)
    for b in range(50):
        scores = [sum(bin(int(w) ^ int(s)).count("1") for w, s in zip(x[b], span[c])) for c in range(8)]
        c = scores.index(min(scores))
        assert weights[b] == scores[c] and (got[b] == (x[b] ^ span[c])).all()


def test_coset_min_many_limits():
    with pytest.raises(BoardTooLargeError, match="2\\^d"):
        coset_min_many(np.zeros((1, 1), np.uint64), np.eye(17, 64, dtype=np.uint8))
    with pytest.raises(InvalidBoardError, match="independent"):
        coset_min_many(np.zeros((1, 1), np.uint64), [[1, 1], [1, 1]])
