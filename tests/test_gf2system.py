"""The one GF(2) system solver (lightsout/_core/gf2system.py) against brute force and substitution.

Small random systems are solved by listing every vector u of GF(2)^n (plain Python
integers, nothing shared with the package): the rank, the kernel's dimension, that the
particular solution is a solution, that the kernel rows are independent and quiet, and,
for an inconsistent system, that the proof combines the equations into ``0 = 1``.
Larger systems, at the word boundaries, are checked by substitution.
"""
from __future__ import annotations

import pickle

import numpy as np
import pytest

import oracle
from lightsout._base.errors import NoSolutionError
from lightsout._base.packing import pack_rows
from lightsout._core.gf2system import GF2System, augmented_system, solve_gf2
from lightsout._core.modring import solve_mod


def brute_force(a: np.ndarray, b: np.ndarray) -> tuple[list[int], int]:
    """(every solution u as a bit mask, the number of kernel vectors) by listing GF(2)^n."""
    nrows, nvars = a.shape
    rows = [sum(int(a[i, j]) << j for j in range(nvars)) for i in range(nrows)]
    solutions, kernel = [], 0
    for u in range(1 << nvars):
        images = [bin(row & u).count("1") & 1 for row in rows]
        if images == [int(v) for v in b]:
            solutions.append(u)
        if not any(images):
            kernel += 1
    return solutions, kernel


def mod2(a: np.ndarray, x: np.ndarray) -> np.ndarray:
    return (np.asarray(a, dtype=np.int64) @ np.asarray(x, dtype=np.int64)) % 2


def solve(a: np.ndarray, b: np.ndarray, proof: bool = False) -> GF2System:
    return solve_gf2(augmented_system(pack_rows(a), b, a.shape[1]), a.shape[1], proof=proof)


def check(a: np.ndarray, b: np.ndarray, system: GF2System) -> None:
    """Everything a GF2System says about ``a u = b``, checked by substitution and an independent rank."""
    nrows, nvars = a.shape
    rank = oracle.gf2_rank(a) if nrows and nvars else 0
    assert system.rank == rank == len(system.pivots) and system.nvars == nvars
    assert system.nullity == nvars - rank and system.count == 2 ** (nvars - rank)
    assert list(system.pivots) == sorted(set(int(p) for p in system.pivots))
    kernel = system.kernel
    assert kernel.shape == (nvars - rank, nvars) and kernel.dtype == np.uint8
    assert not mod2(a, kernel.T).any()  # every kernel row is quiet
    free = sorted(set(range(nvars)) - set(int(p) for p in system.pivots))
    # one vector per free column, the identity there: independent, so nvars - rank of them span the kernel
    assert np.array_equal(kernel[:, free], np.eye(len(free), dtype=np.uint8))
    words = system.kernel_words
    assert words.dtype == np.uint64 and np.array_equal(words, pack_rows(kernel))
    if system.solvable:
        assert system.solution is not None and system.proof is None
        assert np.array_equal(mod2(a, system.solution), b)
        assert not system.solution[free].any()  # free unknowns 0
    else:
        assert system.solution is None


@pytest.mark.parametrize("seed", range(40))
def test_small_random_systems_against_brute_force(seed):
    rng = np.random.default_rng(seed)
    nrows, nvars = int(rng.integers(0, 8)), int(rng.integers(0, 9))
    a = (rng.random((nrows, nvars)) < rng.uniform(0.2, 0.8)).astype(np.uint8)
    if nrows >= 3:
        a[2] = a[0] ^ a[1]  # rank deficient: inconsistent right-hand sides exist
    for b in (mod2(a, rng.integers(0, 2, nvars)), rng.integers(0, 2, nrows)):
        solutions, kernel_size = brute_force(a, b)
        system = solve(a.copy(), b, proof=True)
        check(a, b, system)
        assert system.count == kernel_size
        assert system.solvable == bool(solutions)
        if solutions:
            assert sum(int(v) << j for j, v in enumerate(system.solution)) in solutions
            assert len(solutions) == system.count
        else:
            y = system.proof
            assert y is not None and y.shape == (nrows,)
            assert not mod2(y, a).any()  # it annihilates every column of a
            assert int(y.astype(np.int64) @ b) % 2 == 1  # and meets b: 0 = 1
            with pytest.raises(NoSolutionError) as info:
                raise system.no_solution_error()
            assert (info.value.rank, info.value.augmented_rank) == (system.rank, system.rank + 1)


@pytest.mark.parametrize("nrows, nvars", [(1, 1), (63, 63), (64, 64), (65, 65), (64, 127), (129, 128),
                                          (100, 255), (257, 257), (40, 1000)])
def test_systems_at_the_word_boundaries(nrows, nvars):
    rng = np.random.default_rng(nrows * 1000 + nvars)
    a = rng.integers(0, 2, (nrows, nvars)).astype(np.uint8)
    if nrows >= 3:
        a[-1] = a[0] ^ a[1]
    b = mod2(a, rng.integers(0, 2, nvars))
    check(a, b, solve(a, b))
    if nrows >= 3:
        b[-1] ^= 1  # now row -1 contradicts rows 0 and 1
        system = solve(a, b, proof=True)
        check(a, b, system)
        assert not system.solvable and not mod2(system.proof, a).any()
        assert int(system.proof.astype(np.int64) @ b) % 2 == 1


def test_empty_systems():
    for nrows, nvars in [(0, 0), (0, 3), (3, 0), (0, 64), (64, 0)]:
        a = np.zeros((nrows, nvars), dtype=np.uint8)
        for b in (np.zeros(nrows, np.uint8), np.ones(nrows, np.uint8)):
            system = solve(a, b, proof=True)
            check(a, b, system)
            assert system.solvable == (not b.any())
            if not system.solvable:
                assert int(system.proof @ b) % 2 == 1


def test_the_kernel_is_made_only_when_read():
    a = np.array([[1, 1, 0], [0, 1, 1]], dtype=np.uint8)
    system = solve(a, np.array([1, 0]))
    assert "kernel_words" not in vars(system) and "kernel" not in vars(system)
    assert system.kernel.tolist() == [[1, 1, 1]]
    assert "kernel_words" in vars(system)


def test_it_reads_like_the_mod_k_system():
    """The GF(2) system and ModSystem name one answer alike: solution, kernel, count, nullity, solvable."""
    a = np.array([[1, 1, 0, 0], [0, 1, 1, 0], [1, 0, 1, 0]], dtype=np.uint8)
    b = np.array([1, 1, 0], dtype=np.uint8)
    ours, theirs = solve(a, b), solve_mod(a, b, 2)
    for name in ("solution", "kernel", "count", "nullity", "solvable"):
        assert np.array_equal(getattr(ours, name), getattr(theirs, name)), name


def test_the_error_pickles_with_its_ranks():
    system = solve(np.array([[1, 1], [1, 1]], dtype=np.uint8), np.array([0, 1]))
    error = pickle.loads(pickle.dumps(system.no_solution_error()))
    assert (error.rank, error.augmented_rank) == (1, 2) and "rank of [a | b] is 2" in str(error)
