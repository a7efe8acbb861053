"""Tests of the fewest-presses engines: lightsout._search.minweight and the lightsout._kernels.walsh kernel.

Every answer is checked against brute force written here (plain loops over all 2^d
coset elements, a breadth-first search over board states) or in tests/oracle.py
(first-row enumeration, replay), never against lightsout itself.  The package is
used only to produce inputs (the solution coset of an all-lit board), and those
inputs are verified with the oracle first.

Published references:
  * OEIS A075464, "minimal number of nontrivial switch flippings needed to solve the
    all-ones lights out problem on an n X n square", terms n = 1..54 (from
    https://oeis.org/A075464, data by E. Weisstein, L. Reid, M. Alekseyev).
  * OEIS A079873, "number of positions that are exactly n moves from the starting
    position in the Classic Lights Out puzzle" (5 x 5; https://oeis.org/A079873).
  * OEIS A079875, the same for the 3-state 5 x 5 game (Lights Out 2000), where pressing
    a light twice counts as two moves (https://oeis.org/A079875).
"""
from __future__ import annotations

import concurrent.futures
import os
import signal
import subprocess
import sys
import time
from collections import deque

import numpy as np
import pytest

import lightsout
import oracle
from lightsout._base.errors import BoardTooLargeError, InvalidBoardError, InvalidTypeError
from lightsout._kernels import available_levels, load
from lightsout._search import cosetform, jobs, minweight as _fewest
from lightsout._search.cosetform import CosetMinimum
from lightsout._search.distance import distance_distribution_gf2, distance_distribution_mod
from lightsout._search.minweight import coset_min_weight
from lightsout._search.modsearch import coset_min_weight_mod

A075464 = [1, 4, 5, 4, 15, 28, 33, 40, 25, 44, 55, 72, 105, 56, 117, 104, 147, 188, 141, 224, 245, 276, 231, 270,
           353, 356, 405, 416, 345, 376, 553, 428, 469, 520, 563, 600, 761, 772, 561, 696, 891, 940, 953, 772,
           1069, 1188, 971, 1096, 1165, 1220, 1317, 1256, 1487, 1400]
# As published, except j = 7: OEIS has 476104, which makes the list sum to 8,397,608, not the
# 2^23 = 8,388,608 positions the entry itself states; 467104 (a transposition of two digits)
# restores the sum, and a breadth-first search over all 2^25 states (numpy, run once while
# writing this test) gives exactly the list below.
A079873 = [1, 25, 300, 2300, 12650, 53130, 176176, 467104, 982335, 1596279, 1935294, 1684446, 1004934,
           383670, 82614, 7350]
A079875 = [1, 25, 325, 2900, 19850, 110630, 520948, 2125078, 7644164, 24561916, 71147752, 186876765, 446015084,
           964537892, 1872111656, 3203446007, 4709112417, 5767439109, 5710406148, 4433675458, 2590026921,
           1073252214, 279734731, 36143633, 2147985]


# ---------------------------------------------------------------------------------------
# Oracles (plain loops; no lightsout)


def brute_coset_min(particular: np.ndarray, basis: np.ndarray) -> tuple[int, tuple[int, ...]]:
    """(fewest presses, lexicographically smallest press vector of that weight) over the coset:
    every one of the 2^d elements is written out (row k is particular + the basis rows in
    the bits of k) and compared."""
    elements = particular[None, :].copy()
    for row in basis:
        elements = np.concatenate([elements, elements ^ row])
    weights = elements.sum(axis=1)
    best = int(weights.min())
    return best, min(tuple(int(v) for v in x) for x in elements[weights == best])


def combination(particular: np.ndarray, basis: np.ndarray, coefficients: int) -> np.ndarray:
    x = particular.copy()
    for i in range(basis.shape[0]):
        if coefficients >> i & 1:
            x ^= basis[i]
    return x


def random_basis(rng: np.random.Generator, d: int, cells: int, density: float = 0.5) -> np.ndarray:
    """d linearly independent random 0/1 rows (checked with the oracle's rank)."""
    for _ in range(20):
        basis = (rng.random((d, cells)) < density).astype(np.uint8)
        if d == 0 or oracle.gf2_rank(basis) == d:
            return basis
    basis[:, rng.permutation(cells)[:d]] = np.eye(d, dtype=np.uint8)    # independent by construction
    return basis


def all_lit_coset(n: int) -> tuple[np.ndarray, np.ndarray]:
    """The solutions of the all-lit n x n board: a particular solution and a quiet basis,
    produced by the package and verified here with the oracle."""
    s = lightsout.solve(np.ones((n, n), bool))
    particular = s.presses.ravel().astype(np.uint8)
    basis = s.quiet_patterns().reshape(s.nullity, n * n).astype(np.uint8)
    assert oracle.clears(np.ones((n, n), np.uint8), particular.reshape(n, n))
    for q in basis:
        assert oracle.clears(np.zeros((n, n), np.uint8), q.reshape(n, n))
    assert basis.shape[0] == oracle.nullity(n, n) if n <= 12 else True
    assert basis.shape[0] == 0 or oracle.gf2_rank(basis) == basis.shape[0]
    return particular, basis


def check_result(result: CosetMinimum, particular: np.ndarray, basis: np.ndarray) -> None:
    """The result is an element of the coset, described consistently."""
    assert result.presses.dtype == np.uint8 and result.presses.shape == particular.shape
    assert set(np.unique(result.presses)) <= {0, 1}
    assert result.weight == int(result.presses.sum())
    assert 0 <= result.coefficients < (1 << basis.shape[0])
    assert (combination(particular, basis, result.coefficients) == result.presses).all()


def bfs_distances(effect: np.ndarray) -> list[int]:
    """States reachable from all-dark in exactly j presses and no fewer (board as int bits)."""
    cells = effect.shape[0]
    moves = [sum(int(effect[r, k]) << r for r in range(cells)) for k in range(cells)]
    seen = {0: 0}
    queue = deque([0])
    while queue:
        state = queue.popleft()
        for move in moves:
            nxt = state ^ move
            if nxt not in seen:
                seen[nxt] = seen[state] + 1
                queue.append(nxt)
    counts = [0] * (max(seen.values()) + 1)
    for dist in seen.values():
        counts[dist] += 1
    return counts


def bfs_distances_mod(effect: np.ndarray, k: int) -> list[int]:
    """Like bfs_distances with k states: a press adds 1 mod k to its cells (one move each)."""
    cells = effect.shape[0]
    moves = [tuple(int(effect[r, c]) for r in range(cells)) for c in range(cells)]
    start = (0,) * cells
    seen = {start: 0}
    queue = deque([start])
    while queue:
        state = queue.popleft()
        for move in moves:
            nxt = tuple((a + b) % k for a, b in zip(state, move))
            if nxt not in seen:
                seen[nxt] = seen[state] + 1
                queue.append(nxt)
    counts = [0] * (max(seen.values()) + 1)
    for dist in seen.values():
        counts[dist] += 1
    return counts


def kernel_mod(effect: np.ndarray, k: int) -> np.ndarray:
    """A basis of the null space of a matrix over GF(k), k prime, by textbook elimination."""
    m = [[int(v) % k for v in row] for row in effect]
    rows, cols = len(m), len(m[0])
    pivots = []
    r = 0
    for col in range(cols):
        p = next((i for i in range(r, rows) if m[i][col]), None)
        if p is None:
            continue
        m[r], m[p] = m[p], m[r]
        inv = pow(m[r][col], -1, k)
        m[r] = [v * inv % k for v in m[r]]
        for i in range(rows):
            if i != r and m[i][col]:
                f = m[i][col]
                m[i] = [(a - f * b) % k for a, b in zip(m[i], m[r])]
        pivots.append(col)
        r += 1
    basis = []
    for f in (c for c in range(cols) if c not in pivots):
        v = [0] * cols
        v[f] = 1
        for i, p in enumerate(pivots):
            v[p] = -m[i][f] % k
        basis.append(v)
    return np.array(basis, dtype=np.int64).reshape(len(basis), cols)


def kernel_of(effect: np.ndarray) -> np.ndarray:
    """A basis of the null space of a 0/1 matrix over GF(2), by textbook elimination."""
    m = [list(map(int, row)) for row in np.array(effect, dtype=np.uint8) % 2]
    rows, cols = len(m), len(m[0])
    pivots = []
    r = 0
    for col in range(cols):
        p = next((i for i in range(r, rows) if m[i][col]), None)
        if p is None:
            continue
        m[r], m[p] = m[p], m[r]
        for i in range(rows):
            if i != r and m[i][col]:
                m[i] = [a ^ b for a, b in zip(m[i], m[r])]
        pivots.append(col)
        r += 1
    free = [c for c in range(cols) if c not in pivots]
    basis = []
    for f in free:
        v = [0] * cols
        v[f] = 1
        for i, p in enumerate(pivots):
            v[p] = m[i][f]
        basis.append(v)
    return np.array(basis, dtype=np.uint8).reshape(len(basis), cols)


# ---------------------------------------------------------------------------------------
# coset_min_weight against brute force


@pytest.mark.parametrize("seed", range(12))
def test_random_cosets_match_brute_force(seed):
    rng = np.random.default_rng(seed)
    for _ in range(6):
        d = int(rng.integers(0, 13))
        cells = int(rng.integers(max(d, 1), 201))
        basis = random_basis(rng, d, cells, density=float(rng.choice([0.05, 0.3, 0.5])))
        particular = (rng.random(cells) < rng.random()).astype(np.uint8)
        result = coset_min_weight(particular, basis)
        check_result(result, particular, basis)
        weight, lexmin = brute_coset_min(particular, basis)
        assert result.proven
        assert result.weight == weight
        assert tuple(result.presses) == lexmin


def test_ties_go_to_the_lexicographically_smallest():
    # pairs of cells: every solution has the same weight (d solutions tie everywhere)
    d = 9
    basis = np.zeros((d, 2 * d), dtype=np.uint8)
    for i in range(d):
        basis[i, 2 * i] = basis[i, 2 * i + 1] = 1
    particular = np.zeros(2 * d, dtype=np.uint8)
    particular[1::2] = 1
    result = coset_min_weight(particular, basis)
    assert result.weight == d and result.proven
    assert tuple(result.presses) == brute_coset_min(particular, basis)[1] == (0, 1) * d
    # the same basis reshuffled (rows mixed): the answer depends on the coset only
    rng = np.random.default_rng(5)
    mix = random_basis(rng, d, d)
    mixed = (mix.astype(np.int64) @ basis % 2).astype(np.uint8)
    shifted = combination(particular, basis, int(rng.integers(0, 1 << d)))
    other = coset_min_weight(shifted, mixed)
    assert (other.presses == result.presses).all()
    check_result(other, shifted, mixed)


def test_nullity_zero_and_empty_board():
    particular = np.array([1, 0, 1], dtype=np.uint8)
    result = coset_min_weight(particular, np.zeros((0, 3), dtype=np.uint8))
    assert (result.weight, result.proven, result.coefficients) == (2, True, 0)
    assert result.presses.tolist() == [1, 0, 1]
    empty = coset_min_weight(np.zeros(0, dtype=np.uint8), np.zeros((0, 0), dtype=np.uint8))
    assert empty.weight == 0 and empty.proven


def test_accepts_bool_and_wide_integer_input():
    rng = np.random.default_rng(3)
    basis = random_basis(rng, 5, 40)
    particular = (rng.random(40) < 0.5).astype(np.uint8)
    a = coset_min_weight(particular, basis)
    b = coset_min_weight(particular.astype(bool), basis.astype(np.int64))
    assert (a.presses == b.presses).all() and a.coefficients == b.coefficients


@pytest.mark.parametrize("n", range(1, 11))
def test_all_lit_boards_up_to_10(n):
    particular, basis = all_lit_coset(n)
    result = coset_min_weight(particular, basis)
    check_result(result, particular, basis)
    weight, lexmin = brute_coset_min(particular, basis)
    assert result.proven and result.weight == weight and tuple(result.presses) == lexmin
    assert oracle.clears(np.ones((n, n), np.uint8), result.presses.reshape(n, n))
    if n <= 8:  # first-row enumeration, independent of any coset
        assert result.weight == oracle.min_presses_brute(np.ones((n, n), np.uint8))


def test_five_by_five_all_lit():
    particular, basis = all_lit_coset(5)
    assert basis.shape[0] == 2                    # 4 solutions
    weights = sorted(int(combination(particular, basis, c).sum()) for c in range(4))
    assert weights == [15, 15, 15, 15]
    result = coset_min_weight(particular, basis)
    assert result.weight == 15 and result.proven


def test_published_fewest_presses_table():
    # OEIS A075464, n = 1..54 (nullity up to 32 at n = 39)
    for n, published in enumerate(A075464, start=1):
        particular, basis = all_lit_coset(n)
        result = coset_min_weight(particular, basis)
        assert result.proven and result.weight == published, n
        assert oracle.clears(np.ones((n, n), np.uint8), result.presses.reshape(n, n)) if n <= 20 else True


def test_square_symmetry_of_the_minimum():
    # the D4 images of a minimal solution of a square all-lit board are minimal too
    for n in (9, 16, 19):
        particular, basis = all_lit_coset(n)
        result = coset_min_weight(particular, basis)
        grid = result.presses.reshape(n, n)
        for image in (grid.T, grid[::-1], grid[:, ::-1], np.rot90(grid)):
            assert oracle.clears(np.ones((n, n), np.uint8), image)
            assert int(image.sum()) == result.weight


@pytest.mark.parametrize("pressed, wide", [(0.5, False), (0.97, True)])
def test_counters_beyond_32767_cells(pressed, wide):
    # 40,000 cells in 2^7 forms: half of them pressed, a form's cells nearly cancel in g (sum |g|
    # about 1,800: 16-bit counters); nearly all pressed, sum |g| is about 37,600 (32-bit counters)
    rng = np.random.default_rng(11)
    cells, d = 40_000, 7
    basis = (rng.random((d, cells)) < 0.5).astype(np.uint8)
    particular = (rng.random(cells) < pressed).astype(np.uint8)
    problem = cosetform.search_problem(cosetform.reduce_coset(particular, basis))
    assert problem.wide == wide
    assert (int(np.abs(problem.values.astype(np.int64)).sum()) > load("walsh", "generic").MAX_SUM16) == wide
    result = coset_min_weight(particular, basis)
    check_result(result, particular, basis)
    # brute force, vectorised over cells: all 2^7 weights
    weights = [int(combination(particular, basis, c).sum()) for c in range(1 << d)]
    assert result.weight == min(weights)


@pytest.mark.parametrize("n", [188, pytest.param(199, marks=pytest.mark.thorough)])
def test_boards_past_32767_cells_on_16_bit_counters_match_the_shipped_table(n):
    # 35,344 and 39,601 cells (nullity 24 and 32): the shipped rows were proven with 32-bit counters
    particular, basis = all_lit_coset(n)
    problem = cosetform.search_problem(cosetform.reduce_coset(particular, basis))
    assert problem.cells > load("walsh", "generic").MAX_SUM16 and not problem.wide
    result = coset_min_weight(particular, basis, prune=False)
    check_result(result, particular, basis)
    assert oracle.clears(np.ones((n, n), np.uint8), result.presses.reshape(n, n))
    assert result.proven and result.weight == lightsout.proven_fewest_presses()[n]["fewest"]


# ---------------------------------------------------------------------------------------
# Splitting, threads and executors give the same answer


def _cases():
    rng = np.random.default_rng(21)
    yield all_lit_coset(19)                            # d = 16
    yield all_lit_coset(9)                             # d = 8
    basis = random_basis(rng, 14, 90, density=0.2)
    yield (rng.random(90) < 0.5).astype(np.uint8), basis
    basis = random_basis(rng, 3, 30)
    yield (rng.random(30) < 0.5).astype(np.uint8), basis


@pytest.mark.parametrize("case", range(4))
def test_split_bits_do_not_change_the_answer(case):
    particular, basis = list(_cases())[case]
    d = basis.shape[0]
    reference = coset_min_weight(particular, basis, split_bits=0, threads=1)
    for split in sorted({0, 1, 2, d // 2, max(0, d - 5), max(0, d - 1), d}):
        for threads in (1, 2):
            got = coset_min_weight(particular, basis, split_bits=split, threads=threads)
            assert got.proven
            assert (got.presses == reference.presses).all() and got.coefficients == reference.coefficients


def test_thread_pool_executor_matches_serial():
    for particular, basis in _cases():
        reference = coset_min_weight(particular, basis, threads=1)
        with concurrent.futures.ThreadPoolExecutor(max_workers=2) as pool:
            for split in (None, 0, 3):
                got = coset_min_weight(particular, basis, executor=pool, split_bits=split)
                assert got.proven and (got.presses == reference.presses).all()
                assert got.coefficients == reference.coefficients


def test_process_pool_executor_matches_serial():
    cases = list(_cases())
    with concurrent.futures.ProcessPoolExecutor(max_workers=2) as pool:
        for particular, basis in cases[:2]:
            reference = coset_min_weight(particular, basis, threads=1)
            got = coset_min_weight(particular, basis, executor=pool, split_bits=4)
            assert got.proven and (got.presses == reference.presses).all()
            assert got.coefficients == reference.coefficients


def test_jobs_are_idempotent_and_cover_the_coset():
    # what a Dask worker runs: the same job twice gives the same answer, and the jobs
    # of a split together find the serial minimum
    particular, basis = all_lit_coset(19)
    coset = cosetform.reduce_coset(particular, basis)
    problem = cosetform.search_problem(coset)
    reference = coset_min_weight(particular, basis)
    results = [jobs.search_job(problem, 3, job, None) for job in range(8)]
    assert results == [jobs.search_job(problem, 3, job, None) for job in range(8)]
    assert all(r.complete for r in results)
    best = min((r.sum, r.coordinate) for r in results if r.found)
    assert 2 * reference.weight == problem.cells + best[0]


def test_progress_reports():
    calls = []
    particular, basis = all_lit_coset(19)
    coset_min_weight(particular, basis, progress=lambda stage, done, total: calls.append((stage, done, total)))
    assert calls and calls[-1][1] == calls[-1][2] and calls[0][0] == "fewest presses"
    calls.clear()
    with concurrent.futures.ThreadPoolExecutor(max_workers=2) as pool:
        coset_min_weight(particular, basis, executor=pool, split_bits=2,
                         progress=lambda stage, done, total: calls.append((done, total)))
    assert calls[-1] == (4, 4)


# ---------------------------------------------------------------------------------------
# Time limits and refusals


def _big_coset(d: int = 44, cells: int = 260):
    rng = np.random.default_rng(7)
    basis = (rng.random((d, cells)) < 0.5).astype(np.uint8)
    basis[:, :d] = np.eye(d, dtype=np.uint8)       # independent by construction
    return (rng.random(cells) < 0.5).astype(np.uint8), basis


@pytest.mark.parametrize("threads", [1, 2])
def test_time_limit_returns_unproven_best(threads):
    particular, basis = _big_coset()
    start = time.monotonic()
    result = coset_min_weight(particular, basis, time_limit=0.3, threads=threads)
    elapsed = time.monotonic() - start
    assert not result.proven
    assert elapsed < 5                              # stops soon after the limit
    check_result(result, particular, basis)
    assert result.weight <= int(particular.sum()) or result.weight <= int(cosetform.reduce_coset(
        particular, basis).reduced.sum())


def test_time_limit_with_an_executor():
    particular, basis = _big_coset()
    with concurrent.futures.ThreadPoolExecutor(max_workers=2) as pool:
        start = time.monotonic()
        result = coset_min_weight(particular, basis, time_limit=0.3, executor=pool, split_bits=8)
        assert time.monotonic() - start < 5
    assert not result.proven
    check_result(result, particular, basis)


def test_zero_time_limit_returns_the_reduced_particular():
    particular, basis = _big_coset(20, 60)
    result = coset_min_weight(particular, basis, time_limit=0)
    assert not result.proven
    check_result(result, particular, basis)


def test_generous_time_limit_is_proven():
    particular, basis = all_lit_coset(19)
    result = coset_min_weight(particular, basis, time_limit=600)
    assert result.proven and result.weight == A075464[18]


def test_refuses_large_nullity_without_time_limit():
    particular, basis = _big_coset(_fewest.MAX_UNTIMED_NULLITY + 1, 120)
    with pytest.raises(BoardTooLargeError, match=r"nullity-45 .*limited to nullity 44"):
        coset_min_weight(particular, basis)
    particular, basis = _big_coset(65, 120)
    with pytest.raises(BoardTooLargeError, match=r"nullity up to 64.*nullity 65"):
        coset_min_weight(particular, basis, time_limit=1)


def test_refuses_long_estimates_without_executor(monkeypatch):
    particular, basis = _big_coset(40, 120)
    monkeypatch.setattr(_fewest, "MAX_UNTIMED_SECONDS", 1.0)
    with pytest.raises(BoardTooLargeError, match="nullity-40"):
        coset_min_weight(particular, basis, threads=1)


def test_invalid_input():
    with pytest.raises(InvalidBoardError, match="linearly independent"):
        coset_min_weight(np.zeros(3, np.uint8), np.array([[1, 1, 0], [1, 1, 0]], np.uint8))
    with pytest.raises(InvalidBoardError, match="cells"):
        coset_min_weight(np.zeros(3, np.uint8), np.zeros((1, 4), np.uint8))
    with pytest.raises(InvalidBoardError, match="0 and 1"):
        coset_min_weight(np.array([0, 2, 0]), np.zeros((0, 3), np.uint8))
    with pytest.raises(InvalidTypeError):
        coset_min_weight([0, 1], np.zeros((0, 2), np.uint8))  # type: ignore[arg-type]
    with pytest.raises(InvalidBoardError, match="split_bits"):
        coset_min_weight(np.zeros(3, np.uint8), np.eye(3, dtype=np.uint8), split_bits=4)
    with pytest.raises(InvalidBoardError, match="time_limit"):
        coset_min_weight(np.zeros(3, np.uint8), np.eye(3, dtype=np.uint8), time_limit=-1)


# ---------------------------------------------------------------------------------------
# The kernel itself, at every SIMD level


def brute_sums(forms, values, d):
    best = None
    for c in range(1 << d):
        s = 0
        for f, v in zip(forms, values):
            s += int(v) * (-1) ** bin(int(f) & c).count("1")
        if best is None or (s, c) < best:
            best = (s, c)
    return best


def test_kernel_levels_agree_with_brute_force(simd_level):
    kernel = load("walsh", simd_level)
    rng = np.random.default_rng(99)
    for _ in range(150):
        d = int(rng.integers(0, 11))
        e = int(rng.integers(1, 25))
        forms = rng.integers(0, 1 << d, size=e, dtype=np.uint64) if d else np.zeros(e, np.uint64)
        values = rng.integers(-3, 4, size=e).astype(np.int32)
        wide = bool(rng.integers(0, 2))
        lanes = int(rng.integers(0, min(kernel.LANE_BITS32 if wide else kernel.LANE_BITS16, d) + 1))
        m = int(rng.integers(0, d - lanes + 1))
        tasks = 1 << (d - lanes - m)
        cut = int(rng.integers(0, tasks + 1))
        parts = [kernel.search_tasks(forms, values, d, m, lanes, a, b, 10**6, wide)
                 for a, b in ((0, cut), (cut, tasks))]
        assert min((s, c) for found, s, c in parts if found) == brute_sums(forms, values, d)


def dense_walsh_sums(forms, values, d):
    """S(c) for every c by a dense fast Walsh-Hadamard transform in numpy (2^d int64 counters)."""
    g = np.zeros(1 << d, np.int64)
    np.add.at(g, forms.astype(np.int64), values.astype(np.int64))
    h = 1
    while h < g.size:
        pairs = g.reshape(-1, 2, h)
        g = np.stack([pairs[:, 0] + pairs[:, 1], pairs[:, 0] - pairs[:, 1]], axis=1).reshape(-1)
        h *= 2
    return g


def check_tasks_against_dense(kernel, forms, values, d, m):
    """Every lane layout, both counter widths: the minimum, its first c, the bound and each task's sum."""
    sums = dense_walsh_sums(forms, values, d)
    target = int(sums.min())
    first = int(np.flatnonzero(sums == target)[0])
    for lanes, wide in ((0, False), (min(kernel.LANE_BITS16, d - m), False), (min(kernel.LANE_BITS32, d - m), True)):
        tasks = 1 << (d - lanes - m)
        assert kernel.search_tasks(forms, values, d, m, lanes, 0, tasks, 10**6, wide) == (True, target, first)
        assert kernel.search_tasks(forms, values, d, m, lanes, 0, tasks, target, wide) == (True, target, first)
        assert kernel.search_tasks(forms, values, d, m, lanes, 0, tasks, target - 1, wide) == (False, target - 1, 0)
        order = np.arange(tasks, dtype=np.uint64)[::-1].copy()
        found, total, index, task_sums = kernel.search_task_list(forms, values, d, m, lanes, order, 10**6, wide)
        assert (found, total, index) == (True, target, first)
        per_task = sums.reshape(tasks, -1).min(axis=1)[::-1]
        running = np.minimum.accumulate(per_task)    # a task reports its minimum when it is <= every earlier one
        assert task_sums.tolist() == [int(v) if v <= r else np.iinfo(np.int64).max
                                      for v, r in zip(per_task, np.concatenate([[10**6], running[:-1]]))]


@pytest.mark.parametrize("d, m, entries", [(14, 14, 40), (17, 13, 3000), (18, 16, 900), (17, 15, 20000)])
def test_kernel_large_tasks_agree_with_a_dense_transform(simd_level, d, m, entries):
    # tasks of 2^13 to 2^16 vectors: the transform's L1 blocks and the pass over the chunks above
    # them, the final levels zeroing as they go (several tasks in one call), ties to the smaller c
    kernel = load("walsh", simd_level)
    rng = np.random.default_rng(d * 1000 + m)
    forms = rng.integers(0, 1 << d, size=entries, dtype=np.uint64)
    values = rng.choice(np.array([-1, 1], np.int32), size=entries)
    check_tasks_against_dense(kernel, forms, values, d, m)


@pytest.mark.parametrize("d, m, clustered, alone", [(17, 13, 5, 0), (18, 15, 40, 3), (16, 14, 300, 60), (12, 10, 0, 1)])
def test_kernel_tasks_whose_entries_fall_on_few_positions(simd_level, d, m, clustered, alone):
    # the transform skips the blocks of positions (the low m bits of a form) that no entry falls
    # in, from pairs up to whole L1 blocks and chunks: entries on a few positions, most of them
    # inside one block of 64 (as the all-lit squares' are), a few alone anywhere, many entries a position
    kernel = load("walsh", simd_level)
    rng = np.random.default_rng(d * 100 + clustered)
    corner = int(rng.integers(0, 1 << (m - 6))) << 6
    positions = np.concatenate([corner + rng.integers(0, 64, size=clustered),
                                rng.integers(0, 1 << m, size=alone)]).astype(np.uint64)
    entries = 4 * positions.size + 1
    low = np.concatenate([rng.choice(positions, size=entries - 1), [0]]).astype(np.uint64)
    forms = (rng.integers(0, 1 << (d - m), size=entries, dtype=np.uint64) << np.uint64(m)) | low
    values = rng.integers(-3, 4, size=entries).astype(np.int32)
    check_tasks_against_dense(kernel, forms, values, d, m)


def test_kernel_bound_and_validation(simd_level):
    kernel = load("walsh", simd_level)
    forms = np.array([1, 2, 3], dtype=np.uint64)
    values = np.array([1, 1, -1], dtype=np.int32)
    assert kernel.search_tasks(forms, values, 2, 0, 2, 0, 1, -4, False) == (False, -4, 0)
    assert kernel.search_tasks(forms, values, 2, 0, 2, 0, 1, -3, False) == (True, -3, 3)
    assert kernel.search_tasks(forms, values, 2, 2, 0, 0, 1, 5, True) == (True, -3, 3)
    with pytest.raises(InvalidBoardError):
        kernel.search_tasks(forms, values, 2, 1, 2, 0, 1, 5, False)       # lb + m > d
    with pytest.raises(InvalidBoardError):
        kernel.search_tasks(forms, values, 1, 0, 1, 0, 1, 5, False)       # forms beyond d bits
    with pytest.raises(InvalidBoardError):
        kernel.search_tasks(forms, np.array([30000, 30000, 0], np.int32), 2, 0, 2, 0, 1, 5, False)
    with pytest.raises(InvalidTypeError):
        kernel.search_tasks(forms.astype(np.int64), values, 2, 0, 2, 0, 1, 5, False)


def test_levels_agree_on_a_large_search(monkeypatch):
    particular, basis = all_lit_coset(30)            # d = 20
    coset = cosetform.reduce_coset(particular, basis)
    problem = cosetform.search_problem(coset)
    answers = set()
    for level in available_levels():
        kernel = load("walsh", level)
        monkeypatch.setenv("LIGHTSOUT_SIMD", level)  # the layout is the selected build's
        lanes, m, t = cosetform.task_layout(problem, 0)
        answers.add(kernel.search_tasks(problem.forms, problem.values, problem.nullity, m, lanes, 0, 1 << t,
                                        problem.bound, False))
    assert len(answers) == 1
    assert 2 * A075464[29] == problem.cells + answers.pop()[1]


# ---------------------------------------------------------------------------------------
# Ctrl-C

INTERRUPT_CHILD = r"""
import sys
import numpy as np
from lightsout._search.minweight import coset_min_weight
rng = np.random.default_rng(7)
d, cells = 44, 260
basis = (rng.random((d, cells)) < 0.5).astype(np.uint8)
basis[:, :d] = np.eye(d, dtype=np.uint8)
particular = (rng.random(cells) < 0.5).astype(np.uint8)
try:
    print("ready", flush=True)
    coset_min_weight(particular, basis, time_limit=600, threads=int(sys.argv[1]))
except KeyboardInterrupt:
    print("interrupted", flush=True)
"""


INTERRUPT_TABLE_CHILD = r"""
import sys
import numpy as np
from lightsout._search.distance import distance_distribution_mod
# the 3-state 5 x 5 table: about a minute of work; quiet patterns over GF(3) given directly
quiet = np.array([[1, 2, 0, 1, 2, 0, 0, 0, 0, 0, 2, 1, 0, 2, 1, 0, 0, 0, 0, 0, 1, 2, 0, 1, 2]])
try:
    print("ready", flush=True)
    distance_distribution_mod(quiet, 3, threads=int(sys.argv[1]))
except KeyboardInterrupt:
    print("interrupted", flush=True)
"""


@pytest.mark.parametrize("child_code", ["search", "table"])
@pytest.mark.parametrize("threads", [1, 2])
def test_ctrl_c_stops_the_search(threads, child_code, tmp_path):
    # the child imports the same package as this process (installed or built in place)
    package_root = os.path.dirname(os.path.dirname(os.path.abspath(lightsout.__file__)))
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(filter(None, [package_root, os.environ.get("PYTHONPATH")])))
    code = INTERRUPT_CHILD if child_code == "search" else INTERRUPT_TABLE_CHILD
    child = subprocess.Popen([sys.executable, "-c", code, str(threads)], stdout=subprocess.PIPE,
                             text=True, env=env, cwd=tmp_path)
    try:
        assert child.stdout is not None and child.stdout.readline().strip() == "ready"
        time.sleep(0.5)
        child.send_signal(signal.SIGINT)
        out, _ = child.communicate(timeout=10)
    finally:
        child.kill()
        child.wait()
    assert out.strip() == "interrupted"


# ---------------------------------------------------------------------------------------
# Distance tables


def test_distance_table_five_by_five_published():
    quiet = kernel_of(oracle.press_matrix(5, 5))
    table = distance_distribution_gf2(quiet)
    assert table.tolist() == A079873
    assert int(table.sum()) == 8_388_608 == sum(A079873) and len(table) - 1 == 15


@pytest.mark.parametrize("shape", [(1, 1), (1, 5), (2, 2), (2, 3), (3, 3), (4, 4), (3, 5), (3, 6)])
def test_distance_table_matches_breadth_first_search(shape):
    effect = oracle.press_matrix(*shape)
    assert distance_distribution_gf2(kernel_of(effect)).tolist() == bfs_distances(effect)


def test_distance_table_of_other_boards():
    # a torus, a sigma game and a random graph, through the oracle's neighbour sets
    for sets in (oracle.neighbour_sets((3, 4), torus=True), oracle.neighbour_sets((2, 2, 3), self_toggle=False),
                 oracle.graph_neighbour_sets(9, [(0, 1), (1, 2), (2, 0), (3, 4), (4, 5), (5, 6), (6, 7),
                                                 (7, 8), (8, 3), (0, 5)])):
        effect = oracle.effect_matrix(sets)
        assert distance_distribution_gf2(kernel_of(effect)).tolist() == bfs_distances(effect)


def test_distance_table_generating_rows_and_threads():
    effect = oracle.press_matrix(4, 4)
    quiet = kernel_of(effect)
    doubled = np.concatenate([quiet, quiet[:1] ^ quiet[1:2]])          # a dependent extra row
    expected = bfs_distances(effect)
    assert distance_distribution_gf2(doubled).tolist() == expected
    assert distance_distribution_gf2(quiet, threads=1).tolist() == expected


def test_distance_table_levels_agree(simd_level, monkeypatch):
    monkeypatch.setenv("LIGHTSOUT_SIMD", simd_level)
    for k, shape in ((2, (4, 4)), (3, (2, 4))):
        effect = oracle.press_matrix(*shape)
        assert distance_distribution_mod(kernel_mod(effect, k), k).tolist() == bfs_distances_mod(effect, k)


def test_searches_at_every_level(simd_level, monkeypatch):
    monkeypatch.setenv("LIGHTSOUT_SIMD", simd_level)
    particular, basis = all_lit_coset(23)            # d = 14
    result = coset_min_weight(particular, basis)
    assert result.weight == A075464[22] and result.proven
    assert tuple(result.presses) == brute_coset_min(particular, basis)[1]


def test_distance_table_refuses_large_boards():
    with pytest.raises(BoardTooLargeError, match="41 cells"):
        distance_distribution_gf2(np.zeros((0, 41), np.uint8))
    with pytest.raises(BoardTooLargeError, match="26 cells"):
        distance_distribution_mod(np.zeros((0, 26), np.uint8), 3)
    with pytest.raises(InvalidBoardError, match="prime"):
        distance_distribution_mod(np.zeros((0, 4), np.uint8), 4)
    with pytest.raises(InvalidBoardError, match="0..2"):
        distance_distribution_mod(np.array([[0, 3]]), 3)


@pytest.mark.parametrize("k, shape", [(3, (1, 1)), (3, (2, 2)), (3, (1, 5)), (3, (2, 3)), (3, (3, 3)), (3, (2, 5)),
                                      (5, (2, 2)), (5, (1, 4)), (7, (1, 3)), (2, (3, 4))])
def test_k_state_distance_table_matches_breadth_first_search(k, shape):
    effect = oracle.press_matrix(*shape)
    assert distance_distribution_mod(kernel_mod(effect, k), k).tolist() == bfs_distances_mod(effect, k)


def test_k_state_distance_table_of_a_torus_and_a_graph():
    for sets in (oracle.neighbour_sets((2, 4), torus=True), oracle.graph_neighbour_sets(
            7, [(0, 1), (1, 2), (2, 3), (3, 0), (4, 5), (5, 6), (0, 6)], self_toggle=False)):
        effect = oracle.effect_matrix(sets)
        assert distance_distribution_mod(kernel_mod(effect, 3), 3).tolist() == bfs_distances_mod(effect, 3)


@pytest.mark.slow
@pytest.mark.skipif(os.environ.get("LIGHTSOUT_SLOW_TESTS") != "1", reason="about a minute: LIGHTSOUT_SLOW_TESTS=1")
def test_three_state_five_by_five_published():
    effect = oracle.press_matrix(5, 5)
    assert distance_distribution_mod(kernel_mod(effect, 3), 3).tolist() == A079875


# ---------------------------------------------------------------------------------------
# Fewest presses over Z/k (presses counted with multiplicity)


@pytest.mark.parametrize("k, shape", [(3, (2, 2)), (3, (4, 4)), (3, (5, 5)), (5, (2, 3)), (4, (2, 2)), (6, (1, 5)),
                                      (2, (4, 4))])
def test_mod_minimum_matches_exhaustive_search(k, shape):
    sets = oracle.neighbour_sets(shape)
    effect = oracle.effect_matrix(sets)
    cells = effect.shape[0]
    rng = np.random.default_rng(k * 100 + cells)
    for _ in range(3):
        board = rng.integers(0, k, size=cells)
        if cells <= 9 or k == 2 and cells <= 16:
            solutions, _ = oracle.exhaustive(sets, board.reshape(shape), k)
            if len(solutions) == 0:
                continue
            # solutions come in lexicographic order: pick the fewest presses, first of them
            sols = [np.array(x).ravel() for x in solutions]
            weights = [int(x.sum()) for x in sols]
            expect = sols[weights.index(min(weights))]
            generators = np.array([x - sols[0] for x in sols]) % k
            got = coset_min_weight_mod(sols[0], generators, k)
            assert got.weight == min(weights) and got.presses.tolist() == expect.tolist()
        elif k == 3:
            quiet = kernel_mod(effect, 3)
            x0 = rng.integers(0, 3, size=cells)
            got = coset_min_weight_mod(x0, quiet, 3)
            elements = [x0.copy()]
            for q in quiet:
                elements = [(e + t * q) % 3 for e in elements for t in range(3)]
            best = min((int(e.sum()), tuple(int(v) for v in e)) for e in elements)
            assert (got.weight, tuple(got.presses.tolist())) == best


def test_mod_minimum_limits():
    with pytest.raises(BoardTooLargeError, match="MAX_MOD_ELEMENTS"):
        coset_min_weight_mod(np.zeros(30, np.int64), np.eye(30, dtype=np.int64), 3)
    with pytest.raises(InvalidBoardError):
        coset_min_weight_mod(np.zeros(3, np.int64), np.zeros((1, 3), np.int64), 1)


def test_search_tasks_beyond_two_to_the_32():
    """Task indices past 2^32 (nullity 60, few lanes): the kernel's task count is not a wrapped C int."""
    from lightsout._kernels import load

    walsh = load("walsh")
    forms = np.array([1, 2, 3], dtype=np.uint64)
    values = np.array([1, 1, -1], dtype=np.int32)
    task = 2**40  # coordinates task << 2 | lane: c = 2^42 + lane; c & 3 = 3 clears all three
    found, total, index = walsh.search_tasks(forms, values, 60, 0, 2, task, task + 1, 3, False)
    assert (found, total, index) == (True, -3, (task << 2) | 3)


def test_minimal_with_a_time_limit_at_nullity_64():
    board = np.ones((200, 200), dtype=np.uint8)  # the 200 x 200 torus: nullity 64
    found = lightsout.solve(board, torus=True)
    assert found.nullity == 64
    best = found.minimal(time_limit=0.2)
    assert not best.proven_minimal and best.verify()
    assert best.presses.sum() <= found.presses.sum()


def test_the_cost_model_grows_with_the_nullity_and_the_forms():
    from lightsout._search.cost import search_seconds
    times = [search_seconds(d, 67 * 67) for d in range(20, 50, 4)]
    assert times == sorted(times) and len(set(times)) == len(times)
    assert search_seconds(32, 100) < search_seconds(32, 4000)
