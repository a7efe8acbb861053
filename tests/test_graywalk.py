"""The second fewest-press algorithm: the pruned Gray-code walk (lightsout/_search/graywalk.py,
lightsout/_kernels/graywalk.pyx).

Held to things that share no code with it: brute force over every element of small random
cosets (written here, plain numpy), the oracle's replay of the presses (tests/oracle.py), and
the Walsh-Hadamard search on random boards.  The same answer for every task size, thread
count and SIMD level; the time limit, the refusals and Ctrl-C.  The whole shipped table is
checked in tests/test_graywalk_table.py (slow).
"""
from __future__ import annotations

import numpy as np
import pytest

import lightsout
import oracle
from conftest import AWKWARD_BITS, stops_at_ctrl_c
from lightsout._base.errors import BoardTooLargeError, InvalidBoardError
from lightsout._core.runner import CancelToken
from lightsout._kernels import load
from lightsout._search.cosetform import reduce_coset
from lightsout._search.graywalk import graywalk_min_weight, walk_layout
from lightsout._search.minweight import coset_min_weight


def _random_coset(rng, d, cells):
    """(particular, basis) 0/1 with d independent rows (rejection until the rank is d)."""
    while True:
        basis = rng.integers(0, 2, size=(d, cells), dtype=np.uint8)
        if d == 0 or oracle.gf2_rank(basis) == d:
            return rng.integers(0, 2, size=cells, dtype=np.uint8), basis


def _least_by_brute_force(particular, basis):
    """(weight, presses) of the lexicographically smallest minimum-weight element (cell 0 first)."""
    d = basis.shape[0]
    choices = ((np.arange(2 ** d)[:, None] >> np.arange(d)[None, :]) & 1).astype(np.int64)
    elements = (particular[None, :].astype(np.int64) + choices @ basis.astype(np.int64)) % 2
    weights = elements.sum(axis=1)
    best = elements[weights == weights.min()]
    first = best[np.lexsort(best.T[::-1])[0]]
    return int(weights.min()), first


def _in_coset(result, particular, basis):
    """Whether the result's presses are ``particular`` plus the basis rows of its coefficients."""
    rows = [i for i in range(basis.shape[0]) if result.coefficients >> i & 1]
    return np.array_equal((particular.astype(np.int64) + basis[rows].astype(np.int64).sum(axis=0)) % 2,
                          result.presses)


@pytest.mark.parametrize("cells", [1, 2, 5, 63, 64, 65, 127, 129, 257])
def test_the_walk_matches_brute_force_on_random_cosets(cells, rng):
    for d in range(0, min(cells, 11)):
        particular, basis = _random_coset(rng, d, cells)
        weight, presses = _least_by_brute_force(particular, basis)
        for low_bits in sorted({0, min(d, 3), d if d <= 16 else 16, None} - {None}) + [None]:
            got = graywalk_min_weight(particular, basis, low_bits=low_bits, threads=1)
            assert (got.weight, got.proven, got.lower_bound) == (weight, True, weight), (cells, d, low_bits)
            assert got.presses.tolist() == presses.tolist(), (cells, d, low_bits)
            assert _in_coset(got, particular, basis)


def test_skewed_cosets_where_the_bound_skips_tasks(rng):
    """Cosets whose minimum lies far below the average weight (a light particular, sparse rows): the
    bound skips tasks, and the answer is still brute force's."""
    skipped = 0
    kernel = load("graywalk")
    for trial in range(40):
        d, cells = 12, 200
        basis = (rng.random((d, cells)) < 0.08).astype(np.uint8)
        if oracle.gf2_rank(basis) < d:
            continue
        particular = (rng.random(cells) < 0.1).astype(np.uint8)
        weight, presses = _least_by_brute_force(particular, basis)
        got = graywalk_min_weight(particular, basis, low_bits=3, threads=1)
        assert (got.weight, got.presses.tolist()) == (weight, presses.tolist())
        layout = walk_layout(reduce_coset(particular, basis), 3)
        start_ones = int(np.unpackbits(layout.start.view(np.uint8)).sum())
        _, ones, _, walked, skips = kernel.walk(layout.start, layout.masks, layout.starting, layout.units, 3,
                                                0, 1 << (d - 3), start_ones, 0)
        assert ones == weight and walked + skips == 1 << (d - 3)
        skipped += skips
    assert skipped > 0


def test_the_kernel_at_every_level_and_awkward_sizes(simd_level, rng):
    """The kernel itself: the least (popcount, index) over every task, against the popcount of every
    element, at row widths that straddle words; ranges split anywhere give the same pair."""
    walk = load("graywalk", simd_level).walk
    for cells in AWKWARD_BITS:
        d = min(cells, 9)
        particular, basis = _random_coset(rng, d, cells)
        coset = reduce_coset(particular, basis)
        for m in (0, min(d, 2), min(d, 5)):
            layout = walk_layout(coset, m)
            masks = [np.unpackbits(row.view(np.uint8), bitorder="little") for row in layout.masks]
            start = np.unpackbits(layout.start.view(np.uint8), bitorder="little")
            ones = []
            for index in range(2 ** d):
                bits = start.copy()
                for j in range(d):
                    if index >> j & 1:
                        bits ^= masks[j]
                ones.append(int(bits.sum()))
            expected = (min(ones), ones.index(min(ones)))
            tasks = 1 << (d - m)
            done, got_ones, got_index, walked, skipped = walk(layout.start, layout.masks, layout.starting,
                                                              layout.units, m, 0, tasks, cells + 1, 0)
            assert (done, got_ones, got_index, walked + skipped) == (True, *expected, tasks)
            cut = int(rng.integers(0, tasks + 1))
            first = walk(layout.start, layout.masks, layout.starting, layout.units, m, 0, cut, cells + 1, 0)
            second = walk(layout.start, layout.masks, layout.starting, layout.units, m, cut, tasks, first[1],
                          first[2])
            assert second[1:3] == expected
            assert int(layout.units.sum()) == cells                        # every cell is a unit once


@pytest.mark.parametrize("shape", [(4, 4), (5, 5), (9, 9), (11, 11), (16, 16), (17, 17), (19, 19), (5, 17), (23, 23)])
def test_the_walk_agrees_with_the_walsh_search_on_random_boards(shape, rng):
    for _ in range(3):
        presses = rng.integers(0, 2, size=shape, dtype=np.uint8)
        board = oracle.replay(np.zeros(shape, np.uint8), presses)          # solvable by construction
        solution = lightsout.solve(board)
        particular = solution.presses.ravel().astype(np.uint8)
        basis = solution.quiet_patterns().reshape(solution.nullity, -1).astype(np.uint8)
        walked = graywalk_min_weight(particular, basis)
        walsh = coset_min_weight(particular, basis)
        assert walked.proven and walked.weight == walsh.weight
        assert walked.presses.tolist() == walsh.presses.tolist()          # the same tie rule
        assert oracle.clears(board, walked.presses.reshape(shape))
        assert walked.weight <= int(presses.sum())


def test_threads_and_task_sizes_give_the_same_answer():
    solution = lightsout.solve(np.ones((30, 30), bool))                  # nullity 20
    particular = solution.presses.ravel().astype(np.uint8)
    basis = solution.quiet_patterns().reshape(solution.nullity, -1).astype(np.uint8)
    answers = {(graywalk_min_weight(particular, basis, threads=threads, low_bits=m).weight,
                graywalk_min_weight(particular, basis, threads=threads, low_bits=m).presses.tobytes())
               for threads in (1, 2) for m in (0, 4, 6, 12)}
    assert len(answers) == 1
    weight, presses = answers.pop()
    assert oracle.clears(np.ones((30, 30), np.uint8), np.frombuffer(presses, np.uint8).reshape(30, 30))
    assert weight == lightsout.proven_fewest_presses()[30]["fewest"]     # the shipped value


def test_a_cut_short_walk_returns_an_element_unproven(rng):
    particular, basis = _random_coset(rng, 30, 300)
    for kwargs in (dict(time_limit=0), dict(token=_cancelled())):
        got = graywalk_min_weight(particular, basis, **kwargs)
        assert not got.proven and got.lower_bound is None
        assert _in_coset(got, particular, basis) and got.weight == int(got.presses.sum())


def _cancelled() -> CancelToken:
    token = CancelToken()
    token.cancel()
    return token


def test_the_walk_stops_at_ctrl_c(rng):
    particular, basis = _random_coset(rng, 40, 2000)          # hours of walking
    stops_at_ctrl_c(lambda: graywalk_min_weight(particular, basis, time_limit=600, threads=1),
                    "the Gray-code walk")


def test_refusals(rng):
    particular, basis = _random_coset(rng, 4, 20)
    with pytest.raises(InvalidBoardError, match="low_bits must be an int in 0..4"):
        graywalk_min_weight(particular, basis, low_bits=5)
    with pytest.raises(InvalidBoardError, match="low_bits"):
        graywalk_min_weight(particular, basis, low_bits=True)
    with pytest.raises(InvalidBoardError, match="linearly independent"):
        graywalk_min_weight(particular, np.vstack([basis, basis[:1]]))
    with pytest.raises(InvalidBoardError, match="basis rows have 20 cells, particular has 19"):
        graywalk_min_weight(particular[:19], basis)
    big = np.eye(65, 70, dtype=np.uint8)
    with pytest.raises(BoardTooLargeError, match="nullity up to 64"):
        graywalk_min_weight(np.zeros(70, np.uint8), big, time_limit=1)
    with pytest.raises(BoardTooLargeError, match="limited to nullity 44 without time_limit"):
        graywalk_min_weight(np.zeros(70, np.uint8), big[:45])
    layout = walk_layout(reduce_coset(particular, basis), 2)
    walk = load("graywalk").walk
    with pytest.raises(InvalidBoardError, match="starting must have 5 entries"):
        walk(layout.start, layout.masks, layout.starting[:-1], layout.units, 2, 0, 4, 99, 0)
    with pytest.raises(InvalidBoardError, match="first <= stop <= 2\\^2"):
        walk(layout.start, layout.masks, layout.starting, layout.units, 2, 0, 5, 99, 0)
    with pytest.raises(InvalidBoardError, match="m must be in 0..4"):
        walk(layout.start, layout.masks, layout.starting, layout.units, 5, 0, 1, 99, 0)
    units = layout.units.copy()
    units[0] = 64 * 100
    with pytest.raises(InvalidBoardError, match="units must fit its words"):
        walk(layout.start, layout.masks, layout.starting, units, 2, 0, 4, 99, 0)


def test_fewest_presses_by_the_gray_code_walk():
    for shape in ((9, 9), (16, 16), (6, 11), (19, 19)):
        assert lightsout.fewest_presses(*shape, method="graywalk") == lightsout.fewest_presses(*shape)
    assert lightsout.fewest_presses(7, method="graywalk") == lightsout.proven_fewest_presses()[7]["fewest"]  # nullity 0
    assert lightsout.fewest_presses(5, holes=np.eye(5, dtype=bool), method="graywalk") == \
        lightsout.fewest_presses(5, holes=np.eye(5, dtype=bool))


def test_fewest_presses_by_the_walk_cut_short_raises_with_the_best():
    with pytest.raises(lightsout.MinimumNotProvenError, match="Gray-code walk") as caught:
        lightsout.fewest_presses(59, method="graywalk", time_limit=0)          # nullity 22
    best = caught.value.best
    assert not best.proven_minimal and oracle.clears(np.ones((59, 59), np.uint8), best.presses.astype(np.uint8))
    assert 0 <= caught.value.lower_bound <= lightsout.proven_fewest_presses()[59]["fewest"] <= caught.value.presses


def test_fewest_presses_refuses_a_method_it_does_not_have():
    with pytest.raises(InvalidBoardError, match="method must be one of 'auto', 'graywalk', got 'walsh'"):
        lightsout.fewest_presses(5, method="walsh")
    with pytest.raises(lightsout.InvalidTypeError, match="method must be a str"):
        lightsout.fewest_presses(5, method=None)
    with pytest.raises(InvalidBoardError, match="two-state boards"):
        lightsout.fewest_presses(4, states=3, method="graywalk")
    with pytest.raises(InvalidBoardError, match="no checkpoint"):
        lightsout.fewest_presses(9, method="graywalk", checkpoint="run.json")
