"""The N-D grid route (lightsout._routes.nd) and its kernels (lightsout._kernels.gridchase) against plain loops.

Oracles: tests/oracle.py (neighbour_sets, effect_matrix, replay_sets, exhaustive,
rank_mod_prime) and, defined here in plain loops with no lightsout import,
``diagonal_form`` (a diagonal form of an integer matrix by unimodular row and
column operations: it gives the exact number of quiet patterns and their
fewest generators over Z/k for any k), ``plain_chase`` (the light chase cell by
cell) and ``row_chase`` (the kernels' row recurrence, one column at a time).
"""
from __future__ import annotations

import math
import os
import signal
import subprocess
import sys
import threading
import time

import numpy as np
import pytest

import lightsout
from lightsout._base.errors import BoardTooLargeError, InvalidBoardError
from lightsout._core.rules import Rules
from lightsout._kernels import load
from lightsout._routes import nd as _ndroute
from lightsout._routes.nd import canonical_nd, chase_axis, chase_nd, neighbour_table, nullity_nd, solve_nd
from oracle import all_press_vectors, effect_matrix, exhaustive, neighbour_sets, rank_mod_prime, replay_sets

STATES = (2, 3, 4, 5, 6)
#: Largest states**cells enumerated by the exhaustive oracle.
EXHAUSTIVE_LIMIT = 200_000



def rules(shape, torus=False, self_toggle=True, states=2) -> Rules:
    """The board model as an entry point passes it to the route (its own limits left to the route)."""
    dims = tuple(int(s) for s in shape)
    wraps = (bool(torus),) * len(dims) if isinstance(torus, (bool, np.bool_)) else tuple(bool(t) for t in torus)
    return Rules(dims, wraps, self_toggle, states)


# ---------------------------------------------------------------------------
# Oracles (plain loops).

def diagonal_form(matrix) -> list[int]:
    """|d_i| of a diagonal form D = P A Q of a square integer matrix (P, Q unimodular), zeros included.

    The quiet patterns mod k are then the y with d_i y_i = 0 (mod k): their
    number is the product of gcd(d_i, k), and they need max over primes p | k
    of #{i : p | d_i} generators.
    """
    m = [[int(x) for x in row] for row in np.asarray(matrix)]
    n = len(m)
    diag: list[int] = []
    for t in range(n):
        while True:
            entries = [(abs(m[i][j]), i, j) for i in range(t, n) for j in range(t, n) if m[i][j]]
            if not entries:
                return diag + [0] * (n - t)
            # the smallest entry of row t / column t (or of the rest, at the start) becomes the pivot
            line = [e for e in entries if e[1] == t or e[2] == t] if m[t][t] else entries
            _, i, j = min(line or entries)
            m[t], m[i] = m[i], m[t]
            for row in m:
                row[t], row[j] = row[j], row[t]
            p = m[t][t]
            for i in range(t + 1, n):
                q = m[i][t] // p
                m[i] = [x - q * y for x, y in zip(m[i], m[t])]
            for j in range(t + 1, n):
                q = m[t][j] // p
                for row in m:
                    row[j] -= q * row[t]
            if all(m[i][t] == 0 for i in range(t + 1, n)) and all(m[t][j] == 0 for j in range(t + 1, n)):
                break
        diag.append(abs(m[t][t]))
    return diag


def prime_factors(k: int) -> list[int]:
    return [p for p in range(2, k + 1) if k % p == 0 and all(p % q for q in range(2, p))]


def quiet_count(diag, k: int) -> int:
    return math.prod(math.gcd(d, k) for d in diag)


def quiet_nullity(diag, k: int) -> int:
    return max(sum(1 for d in diag if d % p == 0) for p in prime_factors(k))


def wraps_of(torus, ndim):
    return tuple(torus) if isinstance(torus, tuple) else (bool(torus),) * ndim


def plain_chase(board, first, torus, self_toggle, k):
    """The chase along axis 0, cell by cell: presses of slice t+1 clear slice t."""
    board = np.asarray(board, dtype=np.int64)
    shape = board.shape
    n = shape[0]
    wrap = wraps_of(torus, len(shape))[0] and n > 2
    sets = neighbour_sets(shape, torus, self_toggle)
    per_slice = board.size // n
    presses = np.zeros(board.size, dtype=np.int64)
    free = np.asarray(first, dtype=np.int64).ravel()
    presses[: free.size] = free
    for t in range(1 if wrap else 0, n - 1):
        lights = replay_sets(sets, board, presses, k)
        for c in range(per_slice):
            presses[(t + 1) * per_slice + c] = (k - lights[t * per_slice + c]) % k
    return presses.reshape(shape), replay_sets(sets, board, presses, k).reshape(shape)


def row_chase(table, self_toggle, n, wrap, start, board, const_col, k):
    """The kernels' recurrence on (cells, ncols) integer rows: (presses of every slice, lights rows)."""
    S = table.shape[0]
    ncols = start.shape[1]

    def t_apply(rows):
        out = rows.copy() if self_toggle else np.zeros_like(rows)
        for j in range(S):
            for i in table[j]:
                if i >= 0:
                    out[j] += rows[i]
        return out

    def lit(t):
        extra = np.zeros((S, ncols), dtype=np.int64)
        if const_col >= 0:
            extra[:, const_col] = board[t]
        return extra

    p = [start[:S].astype(np.int64)]
    if wrap:
        p.append(start[S:].astype(np.int64))
    else:
        p.insert(0, np.zeros((S, ncols), dtype=np.int64))  # p_{-1}
    for t in range(1 if wrap else 0, n - 1):
        p.append(-(t_apply(p[-1]) + p[-2] + lit(t)) % k)
    slices = p if wrap else p[1:]
    last = (t_apply(slices[-1]) + (slices[-2] if n > 1 else 0) + lit(n - 1)) % k
    if wrap:
        last = (last + slices[0]) % k
        first = (t_apply(slices[0]) + slices[1] + lit(0) + slices[-1]) % k
        lights = np.vstack([first, last])
    else:
        lights = last
    return np.vstack(slices) % k, lights


def table_from_sets(shape, torus):
    """A neighbour table built from oracle.neighbour_sets (cell itself removed)."""
    sets = neighbour_sets(shape, torus, False) if shape else [set()]
    width = max(1, max(len(s) for s in sets))
    table = np.full((len(sets), width), -1, dtype=np.int32)
    for j, s in enumerate(sets):
        table[j, : len(s)] = sorted(s)
    return table


def all_shapes(max_cells=16, max_axes=4):
    out = []

    def grow(prefix):
        if prefix:
            out.append(tuple(prefix))
        if len(prefix) == max_axes:
            return
        for size in range(1, max_cells + 1):
            if math.prod(prefix) * size <= max_cells:
                grow(prefix + [size])

    grow([])
    return out


SHAPES = all_shapes()


def torus_variants(shape, kind):
    if kind == "open":
        return [False]
    if kind == "torus":
        return [True]
    # mixed: wrap every other axis, and the complement
    d = len(shape)
    if d == 1:
        return []
    a = tuple(i % 2 == 0 for i in range(d))
    return [a, tuple(not x for x in a)]


# ---------------------------------------------------------------------------
# The route against exhaustive search and exact counts.

_ORACLE_CACHE: dict = {}


def oracle_for(shape, torus, self_toggle):
    key = (shape, torus, self_toggle)
    if key not in _ORACLE_CACHE:
        sets = neighbour_sets(shape, torus, self_toggle)
        _ORACLE_CACHE[key] = (sets, effect_matrix(sets), diagonal_form(effect_matrix(sets)))
    return _ORACLE_CACHE[key]


_VECTORS: dict = {}
_EFFECTS: dict = {}


def effect_codes(shape, torus, self_toggle, k):
    """Exhaustive search, once per board model: the sorted codes (base k) of the effect of every
    press vector, and the number of quiet ones.  A board b is solvable iff the code of -b is among them."""
    key = (shape, torus, self_toggle, k)
    if key not in _EFFECTS:
        sets, a, _ = oracle_for(shape, torus, self_toggle)
        cells = len(sets)
        weights = k ** np.arange(cells, dtype=np.int64)
        if k == 2:
            # XOR is linear on the codes: double the table one press at a time
            codes = np.zeros(1, dtype=np.int64)
            for column in a.T:
                codes = np.concatenate([codes, codes ^ int(column @ weights)])
        else:
            if (cells, k) not in _VECTORS:
                _VECTORS[(cells, k)] = all_press_vectors(cells, k)
            codes = ((_VECTORS[(cells, k)] @ a.T) % k) @ weights
        codes = np.sort(codes)
        _EFFECTS.clear()  # one model at a time: the tables are large
        _EFFECTS[key] = (codes, int((codes == 0).sum()))
    return _EFFECTS[key]


def exhaustively_solvable(shape, torus, self_toggle, k, flat):
    codes, _ = effect_codes(shape, torus, self_toggle, k)
    target = int(((-flat) % k) @ (k ** np.arange(flat.size, dtype=np.int64)))
    at = int(np.searchsorted(codes, target))
    return at < codes.size and int(codes[at]) == target


def test_effect_codes_agree_with_the_oracle_exhaustive():
    rng = np.random.default_rng(11)
    for shape, torus, self_toggle, k in [((2, 3), True, True, 3), ((5,), False, False, 4), ((2, 2, 3), True, False, 2),
                                         ((3, 3), False, True, 2), ((1, 2, 3), (True, False, True), True, 5)]:
        sets = neighbour_sets(shape, torus, self_toggle)
        for _ in range(4):
            flat = rng.integers(0, k, size=len(sets))
            solutions, quiet = exhaustive(sets, flat, k)
            assert effect_codes(shape, torus, self_toggle, k)[1] == quiet
            assert exhaustively_solvable(shape, torus, self_toggle, k, flat) == (len(solutions) > 0)


def check_result(result, shape, torus, self_toggle, k, board):
    """Everything a Coset must satisfy, against the oracles."""
    sets, a, diag = oracle_for(shape, torus, self_toggle)
    cells = math.prod(shape)
    flat = np.ones(cells, dtype=np.int64) if board is None else np.asarray(board, dtype=np.int64).ravel()
    assert result.count == quiet_count(diag, k)
    assert result.nullity == quiet_nullity(diag, k)
    if k in (2, 3, 5):
        assert result.nullity == cells - rank_mod_prime(a, k)
    kernel = np.asarray(result.kernel, dtype=np.int64)
    assert kernel.ndim == 2 and kernel.shape[1] == cells and result.kernel.dtype == np.uint8
    assert ((kernel @ a.T) % k == 0).all(), "a kernel row is not quiet"
    assert kernel.size == 0 or kernel.max() < k
    if k ** len(kernel) <= 50_000:
        assert span_size(kernel, k) == result.count
    elif k in (2, 3, 5):
        assert rank_mod_prime(kernel, k) == result.nullity
    if result.solvable:
        p = result.particular
        assert p.dtype == np.uint8 and p.shape == (cells,) and p.max(initial=0) < k
        assert not replay_sets(sets, flat, p, k).any(), "the particular solution does not clear the board"
    else:
        assert result.particular is None
        assert ((kernel @ flat) % k != 0).any(), "unsolvable, but no quiet pattern proves it"
    if k ** cells <= EXHAUSTIVE_LIMIT:
        assert effect_codes(shape, torus, self_toggle, k)[1] == result.count
        assert result.solvable == exhaustively_solvable(shape, torus, self_toggle, k, flat)


def span_size(kernel, k):
    """Number of distinct combinations of the rows mod k, by enumerating every coefficient vector."""
    coefficients = all_press_vectors(len(kernel), k)
    span = (coefficients @ kernel) % k
    return len(np.unique(span, axis=0))


def random_board(shape, k, seed):
    return np.random.default_rng(seed).integers(0, k, size=shape, dtype=np.uint8)


@pytest.mark.parametrize("kind", ["open", "torus", "mixed"])
@pytest.mark.parametrize("self_toggle", [True, False])
@pytest.mark.parametrize("k", [k if k == 2 else pytest.param(k, marks=pytest.mark.thorough) for k in STATES])
def test_every_small_shape(k, self_toggle, kind):
    for index, shape in enumerate(SHAPES):
        for torus in torus_variants(shape, kind):
            for board in (None, random_board(shape, k, index)):
                result = solve_nd(rules(shape, torus=torus, self_toggle=self_toggle, states=k), board)
                check_result(result, shape, torus, self_toggle, k, board)


@pytest.mark.parametrize("k", STATES)
def test_nullity_nd_matches_counts(k):
    for shape in SHAPES[::7]:
        for torus in (False, True):
            for self_toggle in (True, False):
                _, _, diag = oracle_for(shape, torus, self_toggle)
                got = nullity_nd(rules(shape, torus=torus, self_toggle=self_toggle, states=k))
                assert got == (quiet_nullity(diag, k), quiet_count(diag, k)), (shape, torus, self_toggle)


@pytest.mark.parametrize("shape, torus, k", [
    ((6, 7, 5), False, 2), ((6, 7, 5), True, 2), ((20, 20), True, 3), ((9, 11), (True, False), 5),
    ((4, 5, 6), (False, True, True), 6), ((3, 4, 2, 5), True, 4), ((200,), True, 2), ((1, 130), False, 2),
    ((70, 3), True, 7), ((5, 5, 5), False, 255), ((5, 6), True, 129),
])
@pytest.mark.thorough
def test_larger_random_boards_replay_dark(shape, torus, k):
    for self_toggle in (True, False):
        board = random_board(shape, k, 7)
        result = solve_nd(rules(shape, torus=torus, self_toggle=self_toggle, states=k), board)
        sets = neighbour_sets(shape, torus, self_toggle)
        kernel = result.kernel.astype(np.int64)
        for row in kernel:
            assert not replay_sets(sets, np.zeros(len(sets)), row, k).any()
        if result.solvable:
            assert not replay_sets(sets, board, result.particular, k).any()
        else:
            assert ((kernel @ board.ravel().astype(np.int64)) % k != 0).any()
        if k in (2, 3, 5, 7):
            assert result.nullity == len(sets) - rank_mod_prime(effect_matrix(sets), k)


@pytest.mark.parametrize("k", [2, 3] + [pytest.param(k, marks=pytest.mark.thorough) for k in (6, 255)])
def test_circulant_reduction_matches_the_matrix_chase(k, monkeypatch):
    # A ring of cells per slice: the system is written out from circulant blocks.
    cases = [((70, 66), True, None), ((64, 65), (False, True), None), ((80, 1, 64), (True, False, True), None),
             ((64, 4100), (True, True), 0), ((66, 100), (True, True), None)]
    for shape, torus, axis in cases:
        board = random_board(shape, k, 3)
        for self_toggle in (True, False):
            plan = _ndroute._Plan(rules(shape, torus, self_toggle, k), axis)
            assert plan.circulant(), shape
            for with_constant in (True, False):
                fast = _ndroute._reduce(plan, board, with_constant, 1, None)
                monkeypatch.setattr(_ndroute, "CIRCULANT_MIN_SLICES", 10**9)
                slow = _ndroute._reduce(plan, board, with_constant, 1, None)
                monkeypatch.undo()
                assert fast.dtype == slow.dtype and (fast == slow).all(), (shape, torus, self_toggle)


def test_circulant_tori_replay_dark(monkeypatch):
    for shape, torus, k in [((70, 66), True, 2), ((64, 70), (False, True), 3), ((66, 66), True, 4)]:
        board = random_board(shape, k, 9)
        result = solve_nd(rules(shape, torus=torus, states=k), board)
        sets = neighbour_sets(shape, torus, True)
        if result.solvable:
            assert not replay_sets(sets, board, result.particular, k).any()
        for row in result.kernel[:5]:
            assert not replay_sets(sets, np.zeros(len(sets)), row, k).any()
        monkeypatch.setattr(_ndroute, "CIRCULANT_MIN_SLICES", 10**9)
        assert nullity_nd(rules(shape, torus=torus, states=k)) == (result.nullity, result.count)
        monkeypatch.undo()


@pytest.mark.parametrize("size", [1, 2, 3, 63, 64, 65, 127, 129, 200])
def test_circulant_bits(simd_level, size):
    from lightsout._base.packing import unpack_rows

    kernels = load("gridchase", simd_level)
    rng = np.random.default_rng(size)
    values = rng.integers(0, 2, size=size).astype(np.uint8)
    want = np.array([[values[(i - j) % size] for j in range(size)] for i in range(size)], dtype=np.uint8)
    for row0, col0 in [(0, 0), (1, 5), (2, 64 - size % 64)]:
        ncols = col0 + size + 3
        out = np.zeros((row0 + size + 1, (ncols + 63) // 64), dtype=np.uint64)
        kernels.circulant_bits(values, out, row0, col0)
        bits = unpack_rows(out, 64 * out.shape[1])   # every bit, so nothing is written outside the block
        assert (bits[row0:row0 + size, col0:col0 + size] == want).all()
        bits[row0:row0 + size, col0:col0 + size] = 0
        assert not bits.any()


@pytest.mark.parametrize("k", STATES)
def test_canonical_nd_is_the_smallest_solution(k):
    axes = set()
    for index, shape in enumerate(SHAPES[::3]):
        cells = math.prod(shape)
        if k ** cells > 20_000:
            continue
        for torus in (False, True, tuple(i % 2 == 1 for i in range(len(shape)))):
            for self_toggle in (True, False):
                sets = neighbour_sets(shape, torus, self_toggle)
                for board in (None, random_board(shape, k, index)):
                    flat = np.ones(cells, np.int64) if board is None else board.ravel().astype(np.int64)
                    got = canonical_nd(rules(shape, torus=torus, self_toggle=self_toggle, states=k), board)
                    solutions, quiet = exhaustive(sets, flat, k)
                    assert got.count == quiet and got.solvable == (len(solutions) > 0)
                    if got.solvable:
                        assert got.particular.dtype == np.uint8 and (got.particular == solutions[0]).all()
                        assert got.proof is None
                    else:
                        assert got.particular is None
                        proof = got.proof.astype(np.int64)
                        assert not replay_sets(sets, np.zeros(cells), proof, k).any()
                        assert int(proof @ flat) % k != 0
                    axes.add(chase_axis(rules(shape, torus))[0] == 0)
    assert axes == {True, False}   # both the reduced (axis 0) and the expanded path ran


def test_canonical_nd_larger_boards():
    cases = [((6, 7, 5), True, 2), ((9, 9), True, 2), ((12, 10), (True, False), 3), ((8, 6), True, 6),
             ((30, 30), True, 2), ((5, 5, 4), False, 2)]
    for shape, torus, k in cases:
        board = random_board(shape, k, 2)
        got = canonical_nd(rules(shape, torus=torus, states=k), board)
        full = solve_nd(rules(shape, torus=torus, states=k), board)
        assert (got.solvable, got.count, got.nullity) == (full.solvable, full.count, full.nullity)
        if not got.solvable:
            assert int(got.proof.astype(np.int64) @ board.ravel().astype(np.int64)) % k
            continue
        sets = neighbour_sets(shape, torus, True)
        assert not replay_sets(sets, board, got.particular, k).any()
        if k ** full.nullity <= 5000:   # every solution, by enumeration: the smallest is the answer
            kernel = full.kernel.astype(np.int64)
            combos = all_press_vectors(len(kernel), k)
            every = (full.particular.astype(np.int64) + combos @ kernel) % k
            order = np.lexsort(every.T[::-1])
            assert (every[order[0]] == got.particular).all()


def test_two_d_open_agrees_with_solve():
    rng = np.random.default_rng(3)
    for rows, cols in [(1, 1), (4, 4), (5, 5), (9, 9), (5, 8), (17, 3), (19, 19), (30, 24)]:
        assert nullity_nd(rules((rows, cols)))[0] == lightsout.nullity(rows, cols)
        for _ in range(3):
            board = rng.integers(0, 2, size=(rows, cols), dtype=np.uint8)
            result = solve_nd(rules((rows, cols)), board)
            assert result.solvable == lightsout.is_solvable(board)
            assert result.nullity == lightsout.nullity(rows, cols)


def test_hypercube_3_4_unique_41_presses():
    result = solve_nd(rules((3, 3, 3, 3)), None)
    assert result.solvable and result.nullity == 0 and result.count == 1
    assert int(result.particular.sum()) == 41
    assert not replay_sets(neighbour_sets((3,) * 4), np.ones(81), result.particular, 2).any()


def test_torus_nullities_match_rank():
    # n x n torus, plus rule, GF(2): dimension of the quiet space for n = 1..10
    # (every n with 3 | n has a large one; a 5 x 5 torus has 8).
    expected = {}
    for n in range(1, 11):
        sets = neighbour_sets((n, n), True)
        expected[n] = n * n - rank_mod_prime(effect_matrix(sets), 2)
    assert expected[5] == 8
    for n, want in expected.items():
        assert nullity_nd(rules((n, n), torus=True)) == (want, 2 ** want)


# ---------------------------------------------------------------------------
# Chasing.

@pytest.mark.parametrize("k", STATES)
def test_chase_nd_matches_plain_chase(k):
    rng = np.random.default_rng(k)
    for shape in SHAPES[::3]:
        for torus in (False, True, tuple(rng.integers(0, 2, len(shape)).astype(bool))):
            torus = tuple(bool(t) for t in torus) if isinstance(torus, tuple) else torus
            wrap = wraps_of(torus, len(shape))[0] and shape[0] > 2
            for self_toggle in (True, False):
                board = random_board(shape, k, 1)
                first = rng.integers(0, k, size=((2,) if wrap else ()) + shape[1:], dtype=np.uint8)
                presses, lights = chase_nd(rules(shape, torus, self_toggle, k), board, first)
                want_p, want_l = plain_chase(board, first, torus, self_toggle, k)
                assert presses.dtype == np.uint8 and lights.dtype == np.uint8
                assert presses.shape == shape and lights.shape == shape
                assert (presses == want_p).all() and (lights == want_l).all(), (shape, torus, self_toggle)


def test_chase_nd_solution_clears():
    result = solve_nd(rules((4, 5, 3)), None)
    first = result.particular.reshape(4, 5, 3)[0]
    presses, lights = chase_nd(rules((4, 5, 3)), np.ones((4, 5, 3), dtype=np.uint8), first)
    assert (presses.ravel() == result.particular).all() and not lights.any()


def test_chase_nd_long_line_is_fast():
    n = 10**6
    board = np.ones(n, dtype=np.uint8)
    chase_nd(rules((n,)), board, 1)
    start = time.perf_counter()
    presses, lights = chase_nd(rules((n,)), board, 0)
    elapsed = time.perf_counter() - start
    # all-lit line from 0: presses 0,1,0,0,1,0,... period 3
    assert (presses[:6] == [0, 1, 0, 0, 1, 0]).all() and lights[:-1].sum() == 0
    assert elapsed < 0.5, f"1-D chase of 10**6 cells took {elapsed:.3f} s"


def test_chase_nd_first_shape_checked():
    with pytest.raises(InvalidBoardError, match="first must have shape"):
        chase_nd(rules((5, 4), True), np.ones((5, 4), dtype=np.uint8), [0, 1, 0, 1])
    presses, lights = chase_nd(rules((5, 4), True), np.ones((5, 4), dtype=np.uint8), np.zeros((2, 4), np.uint8))
    assert presses.shape == (5, 4)


# ---------------------------------------------------------------------------
# Helpers of the route.

def test_neighbour_table_is_the_oracle_set():
    for shape in SHAPES[::5] + [(3, 4, 5), (2, 2, 2, 2, 2), (1, 7, 1)]:
        for torus in (False, True):
            sets = neighbour_sets(shape, torus, False)
            table = neighbour_table(shape, (torus,) * len(shape))
            assert table.dtype == np.int32 and table.flags.c_contiguous
            for j, s in enumerate(sets):
                row = [int(i) for i in table[j] if i >= 0]
                assert len(row) == len(set(row)) and set(row) == s
                assert (table[j, len(row):] == -1).all()


def test_chase_axis_rule():
    assert chase_axis(rules((4, 3, 5))) == (2, 12)
    assert chase_axis(rules((5, 5, 5))) == (0, 25)
    assert chase_axis(rules((5, 5), (True, False))) == (1, 5)
    assert chase_axis(rules((5, 5), True)) == (0, 10)
    assert chase_axis(rules((2, 3), True)) == (0, 3)     # a wrapping axis of length 2 chases as open
    assert chase_axis(rules((2, 7), True)) == (1, 4)
    assert chase_axis(rules((7,), True)) == (0, 2)
    assert chase_axis(rules((7,))) == (0, 1)


# ---------------------------------------------------------------------------
# The kernels, at every SIMD level, against the row recurrence.

@pytest.mark.parametrize("ncols", [1, 2, 63, 64, 65, 127, 128, 129, 255, 257, 1000])
def test_chase_bits_awkward_widths(simd_level, ncols):
    kernels = load("gridchase", simd_level)
    rng = np.random.default_rng(ncols)
    for slice_shape, torus, n, wrap in [((3, 2), False, 5, False), ((4,), True, 6, True), ((), False, 4, False),
                                        ((5,), False, 1, False), ((2, 3), True, 3, True)]:
        table = table_from_sets(slice_shape, torus)
        S = table.shape[0]
        U = S * (2 if wrap else 1)
        start = rng.integers(0, 2, size=(U, ncols)).astype(np.uint8)
        board = rng.integers(0, 2, size=(n, S)).astype(np.uint8)
        const_col = int(rng.integers(-1, ncols))
        for self_toggle in (True, False):
            want_p, want_l = row_chase(table, self_toggle, n, wrap, start, board, const_col, 2)
            presses = np.zeros((n * S, (ncols + 63) // 64), dtype=np.uint64)
            lights = np.zeros((U, (ncols + 63) // 64), dtype=np.uint64)
            from lightsout._base.packing import pack_rows, unpack_rows
            assert kernels.chase_bits(table, self_toggle, n, wrap, ncols, board, const_col=const_col,
                                      start=pack_rows(start), presses=presses, lights=lights)
            assert (unpack_rows(presses, ncols) == want_p).all()
            assert (unpack_rows(lights, ncols) == want_l).all()


@pytest.mark.parametrize("ncols", [1, 2, 127, 128, 129, 255, 257])
@pytest.mark.parametrize("k", [2, 3, 6, 128, 129, 255])
def test_chase_bytes_awkward_widths(simd_level, ncols, k):
    kernels = load("gridchase", simd_level)
    rng = np.random.default_rng(ncols * k)
    for slice_shape, torus, n, wrap in [((3, 2), False, 4, False), ((4,), True, 5, True), ((), False, 3, False)]:
        table = table_from_sets(slice_shape, torus)
        S = table.shape[0]
        U = S * (2 if wrap else 1)
        start = rng.integers(0, k, size=(U, ncols)).astype(np.uint8)
        board = rng.integers(0, k, size=(n, S)).astype(np.uint8)
        const_col = int(rng.integers(-1, ncols))
        for self_toggle in (True, False):
            want_p, want_l = row_chase(table, self_toggle, n, wrap, start, board, const_col, k)
            presses = np.zeros((n * S, ncols), dtype=np.uint8)
            lights = np.zeros((U, ncols), dtype=np.uint8)
            assert kernels.chase_bytes(table, self_toggle, n, wrap, ncols, k, board, const_col=const_col,
                                       start=start, presses=presses, lights=lights)
            assert (presses == want_p).all() and (lights == want_l).all()


def test_identity_start_and_levels_agree(simd_level):
    # The reduction (identity start, all-lit board in the last column) is the same at every level.
    table = neighbour_table((9, 8), (True, False))
    ncols = 2 * 72 + 1
    systems = []
    for level in ("generic", simd_level):
        kernels = load("gridchase", level)
        bits = np.zeros((144, 3), dtype=np.uint64)
        assert kernels.chase_bits(table, True, 11, True, ncols, None, const_col=ncols - 1, lights=bits)
        values = np.zeros((144, ncols), dtype=np.uint8)
        assert kernels.chase_bytes(table, True, 11, True, ncols, 2, None, const_col=ncols - 1, lights=values)
        from lightsout._base.packing import unpack_rows
        assert (unpack_rows(bits, ncols) == values).all()
        systems.append(values)
    assert (systems[0] == systems[1]).all()
    start = np.eye(144, ncols, dtype=np.uint8)
    _, want = row_chase(table, True, 11, True, start, np.ones((11, 72), np.uint8), ncols - 1, 2)
    assert (systems[0] == want).all()


@pytest.mark.parametrize("ncols", [1, 2, 63, 64, 65, 129, 200])
def test_rows_to_columns(simd_level, ncols):
    from lightsout._base.packing import pack_rows

    kernels = load("gridchase", simd_level)
    rng = np.random.default_rng(ncols)
    for shape, axis in [((130,), 0), ((3, 70), 0), ((70, 3), 1), ((5, 4, 7), 1), ((2, 65, 3), 2), ((1,), 0)]:
        cells = math.prod(shape)
        index = np.arange(cells).reshape(shape)
        moved = np.moveaxis(index, axis, 0)
        offsets = np.ascontiguousarray(moved[0]).ravel().astype(np.int64)
        stride = math.prod(shape[axis + 1:])
        values = rng.integers(0, 2, size=(cells, ncols)).astype(np.uint8)   # rows in chase order
        want = np.zeros((ncols, cells), dtype=np.uint8)
        for r, dest in enumerate(moved.ravel()):
            want[:, dest] = values[r]
        for rows in (pack_rows(values), values):
            out = np.full((ncols, cells), 7, dtype=np.uint8)
            kernels.rows_to_columns(rows, ncols, offsets, stride, out)
            assert (out == want).all(), (shape, axis, rows.dtype)
    with pytest.raises(InvalidBoardError, match="outside"):
        kernels.rows_to_columns(np.zeros((4, 1), np.uint8), 1, np.array([0, 1], np.int64), 3,
                                np.zeros((1, 4), np.uint8))


def test_kernel_argument_checks():
    kernels = load("gridchase")
    table = neighbour_table((3,))
    with pytest.raises(InvalidBoardError, match="wrap needs"):
        kernels.chase_bits(table, True, 2, True, 6)
    with pytest.raises(InvalidBoardError, match="identity start"):
        kernels.chase_bits(table, True, 4, False, 2)
    with pytest.raises(InvalidBoardError, match="nbr entries"):
        kernels.chase_bits(np.array([[5]], dtype=np.int32), True, 4, False, 2)
    with pytest.raises(lightsout.InvalidTypeError):
        kernels.chase_bytes(table.astype(np.int64), True, 4, False, 4, 3)
    with pytest.raises(InvalidBoardError, match="shape"):
        kernels.chase_bytes(table, True, 4, False, 4, 3, np.zeros((3, 3), np.uint8))
    with pytest.raises(InvalidBoardError, match="modulus"):
        kernels.chase_bytes(table, True, 4, False, 4, 256)
    lights = np.zeros((3, 1), dtype=np.uint64)
    lights.flags.writeable = False
    with pytest.raises(InvalidBoardError, match="read-only"):
        kernels.chase_bits(table, True, 4, False, 4, lights=lights)


# ---------------------------------------------------------------------------
# Threads, progress, limits, Ctrl-C.

def test_threads_and_progress_agree():
    shape = (12, 40, 30)          # 1200 unknowns: 3 column blocks of bits
    board = random_board(shape, 2, 5)
    calls = []
    one = solve_nd(rules(shape), board, threads=1, progress=lambda *a: calls.append(a))
    two = solve_nd(rules(shape), board, threads=2)
    assert calls and calls[-1][0] == "nd_reduce" and calls[-1][1] == calls[-1][2]
    assert one.solvable == two.solvable and one.nullity == two.nullity
    assert (one.particular == two.particular).all() and (one.kernel == two.kernel).all()


def test_two_threads_at_once():
    jobs = [((7, 8, 9), True, 2), ((30, 31), False, 2), ((4, 6, 5), (True, False, True), 2), ((300,), True, 2),
            ((20, 20), True, 3), ((9, 10), False, 6)]
    boards = [random_board(shape, k, i) for i, (shape, _, k) in enumerate(jobs)]
    expected = [solve_nd(rules(s, torus=t, states=k), b, threads=1) for (s, t, k), b in zip(jobs, boards)]
    results = {}

    def work(offset):
        for i in range(offset, len(jobs), 2):
            s, t, k = jobs[i]
            for _ in range(3):
                results[i] = solve_nd(rules(s, torus=t, states=k), boards[i], threads=1)

    threads = [threading.Thread(target=work, args=(o,)) for o in (0, 1)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    for i, want in enumerate(expected):
        got = results[i]
        assert got.solvable == want.solvable and got.count == want.count
        assert (got.kernel == want.kernel).all()
        assert (got.particular is None) == (want.particular is None)
        if got.particular is not None:
            assert (got.particular == want.particular).all()


def test_too_large_is_refused_before_allocating():
    with pytest.raises(BoardTooLargeError, match="GiB reduced system"):
        solve_nd(rules((500, 500, 500)), None)
    with pytest.raises(BoardTooLargeError, match="word operations"):
        _ndroute.refuse_nd(rules((64, 64, 10**9)), expand=False)   # nullity_nd trusts its caller to ask first
    with pytest.raises(BoardTooLargeError, match="GiB reduced system"):
        solve_nd(rules((250, 250, 250), states=3), None)
    with pytest.raises(BoardTooLargeError, match="GiB reduced system"):
        solve_nd(rules((10**4,) * 3), None)                # refused before building a 10**8-cell slice table
    with pytest.raises(BoardTooLargeError, match="press pattern"):
        solve_nd(rules((2**31,)), None)                    # two unknowns, but 2**31 cells to expand


def test_expansion_limit(monkeypatch):
    monkeypatch.setattr(_ndroute, "MAX_ND_BYTES", 3000)
    with pytest.raises(BoardTooLargeError, match="expanding"):
        solve_nd(rules((3, 3, 3, 3), torus=True), None)   # nullity 40: 41 x 81 press patterns


INTERRUPT_CHILD = r"""
import numpy as np
from lightsout._kernels import load
from lightsout._routes.nd import neighbour_table
table = neighbour_table((4096,), (True,))
lights = np.zeros((4096, 64), dtype=np.uint64)
try:
    print("ready", flush=True)
    load("gridchase").chase_bits(table, True, 10**6, False, 4096, lights=lights)
except KeyboardInterrupt:
    print("interrupted", flush=True)
"""


def test_ctrl_c_stops_a_long_chase(simd_level, tmp_path):
    # About a minute of work; SIGINT must stop it within the kernel's poll interval.
    env = dict(os.environ, LIGHTSOUT_SIMD=simd_level)
    env["PYTHONPATH"] = os.pathsep.join([os.path.dirname(os.path.dirname(lightsout.__file__)),
                                         env.get("PYTHONPATH", "")])
    child = subprocess.Popen([sys.executable, "-c", INTERRUPT_CHILD], stdout=subprocess.PIPE, text=True,
                             env=env, cwd=tmp_path)
    try:
        assert child.stdout.readline().strip() == "ready"
        time.sleep(0.3)
        child.send_signal(signal.SIGINT)
        out, _ = child.communicate(timeout=4)
    finally:
        child.kill()
        child.wait()
    assert out.strip() == "interrupted"


def test_compiled_examples(simd_level):
    import doctest

    failures, attempted = doctest.testmod(load("gridchase", simd_level),
                                          optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert attempted > 0 and failures == 0
