"""The k-state fewest-press walk (lightsout/_search/modsearch.py, lightsout/_kernels/modwalk.pyx).

Every answer is held to something that shares no code with the walk: brute force over
every press vector (tests/oracle.py) on tiny boards, the written-out search where it fits,
and replays of the presses with the oracle.  The same answer at every thread count and
every split into chunks; the time limit, the refusals and Ctrl-C.
"""
from __future__ import annotations

import threading

import numpy as np
import pytest

import lightsout
import oracle
from lightsout._base.errors import BoardTooLargeError, InvalidBoardError
from lightsout._core.modring import howell_form
from lightsout._kernels import load
from conftest import stops_at_ctrl_c
from lightsout._search import modsearch
from lightsout._search.modsearch import coset_min_weight_mod, coset_min_weight_walk, walk_fits

#: Tiny boards with quiet patterns, k = 3..7 (prime and composite): (k, shape, torus, self_toggle).
TINY = [(3, (2, 2), False, False), (3, (3, 3), False, False), (3, (2, 4), True, True), (3, (1, 6), True, True),
        (4, (2, 4), True, True), (4, (3, 3), False, False), (4, (1, 5), True, False), (4, (2, 3), False, True),
        (5, (2, 3), True, False), (5, (1, 6), True, True), (5, (2, 2), False, False),
        (6, (1, 4), True, False), (6, (1, 3), True, True), (6, (1, 6), True, True),
        (7, (1, 5), False, True), (7, (2, 2), False, False)]


def _fewest_by_brute_force(sets, board, k):
    """(weight, presses) of the lexicographically first solution of fewest presses, from every press vector."""
    solutions, _ = oracle.exhaustive(sets, board, k)
    if len(solutions) == 0:
        return None
    weights = solutions.sum(axis=1)
    first = int(np.flatnonzero(weights == weights.min())[0])     # solutions come in lexicographic order
    return int(weights[first]), solutions[first]


@pytest.mark.parametrize("k, shape, torus, self_toggle", TINY)
def test_the_walk_matches_brute_force_over_every_press_vector(k, shape, torus, self_toggle):
    sets = oracle.neighbour_sets(shape, torus=torus, self_toggle=self_toggle)
    cells = len(sets)
    if k ** cells > 300_000:
        pytest.skip("too many press vectors for brute force")
    rng = np.random.default_rng(1000 * k + cells)
    tried = 0
    for _ in range(12):
        presses = rng.integers(0, k, size=cells)
        board = (oracle.effect_matrix(sets).astype(np.int64) @ presses % k).reshape(shape)  # solvable
        expected = _fewest_by_brute_force(sets, board, k)
        assert expected is not None
        solution = lightsout.solve(board.astype(np.uint8), states=k, torus=torus, self_toggle=self_toggle)
        best = solution.minimal(threads=1)
        got = np.asarray(best.presses, dtype=np.int64).ravel()
        assert not oracle.replay_sets(sets, board, got, k).any()           # it clears the board
        assert best.proven_minimal
        assert (int(got.sum()), got.tolist()) == (expected[0], expected[1].tolist())
        tried += solution.count > 1
    assert tried, "no board with more than one solution: the test saw no search"


@pytest.mark.parametrize("k, shape, torus, self_toggle", TINY)
def test_the_walk_on_raw_generators_matches_brute_force(k, shape, torus, self_toggle):
    """Generators in no particular form (every difference of two solutions): the walk makes its own Howell form."""
    sets = oracle.neighbour_sets(shape, torus=torus, self_toggle=self_toggle)
    cells = len(sets)
    if k ** cells > 300_000:
        pytest.skip("too many press vectors for brute force")
    rng = np.random.default_rng(7 * k + cells)
    presses = rng.integers(0, k, size=cells)
    board = oracle.effect_matrix(sets).astype(np.int64) @ presses % k
    solutions, _ = oracle.exhaustive(sets, board, k)
    weight, expected = _fewest_by_brute_force(sets, board, k)
    start = solutions[len(solutions) // 2]
    generators = rng.permutation((solutions - start) % k)[:12]
    generators = np.concatenate([generators, (solutions - start) % k])   # a spanning set, with repeats
    got = coset_min_weight_walk(start, generators, k, threads=1)
    assert got.proven and (got.weight, got.presses.tolist()) == (weight, expected.tolist())


@pytest.mark.parametrize("k", [3, 4, 5, 6, 7, 8, 9, 12, 15, 16, 30, 255])
def test_the_walk_matches_the_written_out_search_on_random_cosets(k):
    rng = np.random.default_rng(k)
    for cells in (1, 5, 17, 63, 64, 65, 130):
        for rows in (1, 2, 3):
            if k ** rows > 5000:
                rows = 1
            x0 = rng.integers(0, k, size=cells)
            gens = rng.integers(0, k, size=(rows, cells))
            gens[:, rng.random(cells) < 0.3] = 0                   # cells outside every generator
            if k % 2 == 0 and rows > 1:
                gens[0] = gens[0] * 2 % k                           # an element of smaller order
            expected = coset_min_weight_mod(x0, gens, k)
            got = coset_min_weight_walk(x0, gens, k, threads=1)
            assert got.proven
            assert (got.weight, got.presses.tolist()) == (expected.weight, expected.presses.tolist())


def test_the_8_by_5_board_with_255_states():
    """The issue's board: 6,885 solutions, refused before the walk; now the same answer as the written-out search."""
    board = np.ones((8, 5), np.uint8)
    solution = lightsout.solve(board, states=255)
    assert solution.count == 6885
    best = solution.minimal()
    assert best.proven_minimal
    sets = oracle.neighbour_sets((8, 5))
    assert not oracle.replay_sets(sets, board, np.asarray(best.presses, np.int64).ravel(), 255).any()
    flat = solution.presses.ravel().astype(np.uint8)
    quiet = solution.quiet_patterns().reshape(-1, 40).astype(np.uint8)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(modsearch, "MAX_MOD_SEARCH_BYTES", 1 << 30)
        reference = coset_min_weight_mod(flat, quiet, 255)
    assert np.asarray(best.presses, np.int64).ravel().tolist() == reference.presses.tolist()
    assert int(np.asarray(best.presses, np.int64).sum()) == reference.weight


@pytest.mark.parametrize("k", [3, 6])
def test_every_thread_count_and_split_gives_the_same_answer(k, monkeypatch):
    rng = np.random.default_rng(40 + k)
    cells, rows = 50, 7 if k == 3 else 4
    x0 = rng.integers(0, k, size=cells)
    gens = rng.integers(0, k, size=(rows, cells))
    answers = set()
    for chunk_cells in (1, 64 * 9, 1 << 23):      # one element a chunk, a few coordinates, one chunk
        monkeypatch.setattr(modsearch, "WALK_CHUNK_CELLS", chunk_cells)
        for threads in (1, 2, 3):
            got = coset_min_weight_walk(x0, gens, k, threads=threads)
            assert got.proven
            answers.add((got.weight, tuple(got.presses.tolist())))
    assert len(answers) == 1
    expected = coset_min_weight_mod(x0, gens, k)
    assert answers == {(expected.weight, tuple(expected.presses.tolist()))}


def test_the_walk_s_steps_cover_the_coset_once(simd_level):
    """The kernel alone, at awkward sizes: every coordinate vector once (steps = count - 1), the best by brute force."""
    walk = load("modwalk", simd_level).walk
    rng = np.random.default_rng(5)
    for n in (1, 63, 64, 65, 127, 128, 129, 255, 257):
        for k, orders in ((3, [3, 3, 3]), (4, [2, 4, 4]), (255, [17, 15]), (6, [1, 6, 2])):
            start = rng.integers(0, k, n).astype(np.uint8)
            gens = rng.integers(0, k, (len(orders), n)).astype(np.uint8)
            done, weight, best, steps = walk(start, gens, np.array(orders, np.int64), k)
            assert done and steps == int(np.prod(orders)) - 1
            grid = np.stack(np.meshgrid(*[np.arange(o) for o in orders], indexing="ij"), -1).reshape(-1, len(orders))
            elements = (start.astype(np.int64) + grid @ gens.astype(np.int64)) % k
            first = min((int(e.sum()), e.tolist()) for e in elements)
            assert (weight, best.tolist()) == first
            counts = rng.integers(0, 1000, n).astype(np.uint32)             # entry j stands for counts[j] cells
            done, weight, best, steps = walk(start, gens, np.array(orders, np.int64), k, counts=counts)
            first = min((int(e @ counts), e.tolist()) for e in elements)
            assert done and (weight, best.tolist()) == first


def test_bad_kernel_arguments_are_refused():
    walk = load("modwalk").walk
    with pytest.raises(InvalidBoardError, match="0..2"):
        walk(np.array([3], np.uint8), np.zeros((1, 1), np.uint8), np.array([3], np.int64), 3)
    with pytest.raises(InvalidBoardError, match="orders"):
        walk(np.zeros(2, np.uint8), np.zeros((1, 2), np.uint8), np.array([0], np.int64), 3)
    with pytest.raises(lightsout.InvalidTypeError, match="counts must be"):
        walk(np.zeros(2, np.uint8), np.zeros((1, 2), np.uint8), np.array([3], np.int64), 3,
             counts=np.ones(2, np.int64))
    with pytest.raises(InvalidBoardError, match="gens must be"):
        walk(np.zeros(2, np.uint8), np.zeros((1, 3), np.uint8), np.array([3], np.int64), 3)


def test_a_time_limit_returns_the_best_found_unproven():
    """A 10 x 10 torus with 6 states (1,289,945,088 solutions): a short time limit, a valid solution."""
    board = lightsout.press(np.zeros((10, 10), np.uint8), np.eye(10, dtype=np.uint8), states=6, torus=True)
    solution = lightsout.solve(board, states=6, torus=True)
    assert solution.count > 10**9
    for limit in (0, 0.2):
        best = solution.minimal(time_limit=limit)
        assert not best.proven_minimal
        sets = oracle.neighbour_sets((10, 10), torus=True)
        assert not oracle.replay_sets(sets, board, np.asarray(best.presses, np.int64).ravel(), 6).any()
        assert int(np.asarray(best.presses, np.int64).sum()) <= int(np.asarray(solution.presses, np.int64).sum())


def test_progress_is_reported_between_chunks(monkeypatch):
    monkeypatch.setattr(modsearch, "WALK_CHUNK_CELLS", 64 * 3)
    calls = []
    rng = np.random.default_rng(3)
    coset_min_weight_walk(rng.integers(0, 3, 20), rng.integers(0, 3, (4, 20)), 3, threads=1,
                          progress=lambda stage, done, total: calls.append((stage, done, total)))
    assert calls and calls[-1][1] == calls[-1][2] == 27 and all(stage == "fewest presses" for stage, _, _ in calls)


def test_refusals_name_the_limit_that_was_hit():
    with pytest.raises(BoardTooLargeError, match=r"lightsout\.limits\.MAX_MOD_SOLUTIONS") as caught:
        walk_fits(255**40, 400, 255, timed=True, threads=2)
    assert "solutions" in str(caught.value) and "MAX_MOD_ELEMENTS" not in str(caught.value)
    with pytest.raises(BoardTooLargeError, match=r"lightsout\.limits\.MAX_MOD_UNTIMED_SECONDS") as caught:
        walk_fits(4**22, 24, 4, timed=False, threads=2)
    assert "solutions" in str(caught.value) and "hours" in str(caught.value)
    walk_fits(4**22, 24, 4, timed=True, threads=2)          # with a time limit: the best found in that time
    with pytest.raises(BoardTooLargeError, match="MAX_MOD_UNTIMED_SECONDS"):
        coset_min_weight_walk(np.zeros(30, np.int64), np.eye(30, dtype=np.int64), 3)
    got = coset_min_weight_walk(np.ones(30, np.int64), np.eye(30, dtype=np.int64), 3, time_limit=0.05)
    assert got.weight <= 30 and not got.proven


def test_the_written_out_search_names_the_limit_it_hits():
    """The issue's complaint: 6,885 x 40 cells x 255 is over the byte limit, and the message named the other one."""
    solution = lightsout.solve(np.ones((8, 5), np.uint8), states=255)
    flat = solution.presses.ravel().astype(np.uint8)
    quiet = solution.quiet_patterns().reshape(-1, 40).astype(np.uint8)
    with pytest.raises(BoardTooLargeError) as caught:
        coset_min_weight_mod(flat, quiet, 255)
    assert "MAX_MOD_SEARCH_BYTES" in str(caught.value) and "MAX_MOD_ELEMENTS" not in str(caught.value)


@pytest.mark.skipif(threading.current_thread() is not threading.main_thread(),
                    reason="signal handlers run on the main thread")
def test_ctrl_c_stops_the_walk_inside_the_kernel(simd_level):
    walk = load("modwalk", simd_level).walk
    rng = np.random.default_rng(9)
    start = rng.integers(0, 3, 4096).astype(np.uint8)
    gens = rng.integers(0, 3, (20, 4096)).astype(np.uint8)        # 3^20 steps of 4096 cells: minutes
    stops_at_ctrl_c(lambda: walk(start, gens, np.full(20, 3, np.int64), 3), "the walk")


def test_a_set_flag_stops_the_walk(simd_level):
    walk = load("modwalk", simd_level).walk
    gens = np.ones((20, 64), np.uint8)
    done, weight, best, steps = walk(np.zeros(64, np.uint8), gens, np.full(20, 3, np.int64), 3,
                                     cancel=np.ones(1, np.uint8))
    assert not done and steps < 3**20 - 1 and weight == int(best.astype(np.int64).sum())


@pytest.mark.parametrize("k", [3, 4, 6, 255])
def test_cells_equal_in_every_solution_are_walked_once_with_the_same_answer(k):
    """Repeated columns (a periodic torus has them): the walk steps one cell of each class, weighed by its size."""
    rng = np.random.default_rng(100 + k)
    for copies in (4, 9):
        cells = 6
        rows = 2 if k < 100 else 1
        x0 = rng.integers(0, k, size=cells)
        gens = rng.integers(0, k, size=(rows, cells))
        shuffle = rng.permutation(cells * copies)
        x0_tiled, gens_tiled = np.tile(x0, copies)[shuffle], np.tile(gens, copies)[:, shuffle]
        walked, counts, _ = modsearch._cell_classes(x0_tiled.astype(np.uint8),
                                                    np.asarray(gens_tiled, np.uint8), np.arange(cells * copies))
        assert counts is not None and int(counts.sum()) == cells * copies      # the classes were walked
        expected = coset_min_weight_mod(x0_tiled, gens_tiled, k)
        for threads in (1, 2):
            got = coset_min_weight_walk(x0_tiled, gens_tiled, k, threads=threads)
            assert got.proven and (got.weight, got.presses.tolist()) == (expected.weight, expected.presses.tolist())


def test_a_periodic_torus_walks_its_classes():
    """The all-lit 20 x 20 torus with 5 states (1,953,125 solutions, too many for the written-out search):
    its 400 cells fall into 25 classes; the answer replays dark, and walking every cell on its own
    gives the same solution."""
    board = np.ones((20, 20), np.uint8)
    solution = lightsout.solve(board, states=5, torus=True)
    best = solution.minimal()
    presses = np.asarray(best.presses, np.int64)
    assert best.proven_minimal and solution.count == 1953125
    assert not oracle.replay_sets(oracle.neighbour_sets((20, 20), torus=True), board, presses.ravel(), 5).any()
    flat = solution.presses.ravel().astype(np.uint8)
    quiet = solution.quiet_patterns().reshape(-1, 400).astype(np.uint8)
    rows = howell_form(quiet, 5)
    walked, counts, _ = modsearch._cell_classes(flat, rows, np.flatnonzero(rows.any(axis=0)))
    assert counts is not None and len(walked) < 100
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(modsearch, "GROUPED_CELL_COST", 10**9)       # every cell walked on its own
        alone = coset_min_weight_walk(flat, quiet, 5)
    assert alone.proven and alone.presses.tolist() == presses.ravel().tolist()


#: Every small board with quiet patterns: shapes of up to 8 cells, open and wrapping, both rules.
SWEEP = [(k, shape, torus, self_toggle) for k in (3, 4, 5, 6, 7)
         for shape in ((1, 2), (1, 3), (1, 4), (1, 5), (1, 6), (2, 2), (2, 3), (2, 4), (1, 7), (1, 8))
         for torus in (False, True) for self_toggle in (True, False)
         if k ** (shape[0] * shape[1]) <= 400_000]


@pytest.mark.thorough
@pytest.mark.parametrize("k, shape, torus, self_toggle", SWEEP)
def test_the_walk_matches_brute_force_on_every_small_board(k, shape, torus, self_toggle):
    """Every lit board of the shape whose solutions the oracle lists (six random ones), threads 1 and 2."""
    sets = oracle.neighbour_sets(shape, torus=torus, self_toggle=self_toggle)
    cells = len(sets)
    rng = np.random.default_rng(cells * 1000 + k * 10 + 2 * torus + self_toggle)
    effect = oracle.effect_matrix(sets).astype(np.int64)
    for _ in range(6):
        board = (effect @ rng.integers(0, k, size=cells) % k).reshape(shape)
        if not board.any():
            continue
        weight, expected = _fewest_by_brute_force(sets, board, k)
        solution = lightsout.solve(board.astype(np.uint8), states=k, torus=torus, self_toggle=self_toggle)
        for threads in (1, 2):
            best = solution.minimal(threads=threads)
            got = np.asarray(best.presses, np.int64).ravel()
            assert best.proven_minimal and (int(got.sum()), got.tolist()) == (weight, expected.tolist())
