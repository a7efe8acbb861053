"""The fewest-press search's proven lower bound at any time (issue 32).

Every lower bound is checked against the true minimum, found here by brute force over the
whole coset (numpy over every combination of the basis rows, no package code); every
upper bound is a real solution, replayed with the independent oracle.  Searches are cut
short at random points by a token that expires after a given number of polls, so the
bounds of unfinished chunks, jobs and open nodes are all exercised.
"""
from __future__ import annotations

import concurrent.futures
import io

import numpy as np
import pytest

import lightsout
import oracle
from lightsout._core.runner import CancelToken
from lightsout._search import minweight, prune
from lightsout._search.cosetform import reduce_coset, search_problem
from lightsout._search.frontier import Frontier, accepts_bounds, weight_bound
from lightsout._search.localsearch import local_search
from lightsout._search.minimal import minimal_solution, press_cover_bound
from lightsout._search.symmetry import grid_symmetries
from lightsout.cli import main
from test_fewest import brute_coset_min, random_basis
from test_orbitcut import coset_of
from test_prune import block_basis


class Countdown(CancelToken):
    """A token that expires at its ``polls``-th poll: the search stops at a chosen point."""

    def __init__(self, polls: int) -> None:
        super().__init__()
        self.polls = polls

    def expired(self) -> bool:
        self.polls -= 1
        return self.polls < 0 or super().expired()


def brute_weights(particular: np.ndarray, basis: np.ndarray) -> np.ndarray:
    """The weight of every element of the coset, by writing out every combination of the rows."""
    d = basis.shape[0]
    combos = (np.arange(1 << d, dtype=np.int64)[:, None] >> np.arange(d, dtype=np.int64)) & 1
    elements = (combos @ basis.astype(np.int64) + particular.astype(np.int64)) % 2
    return np.asarray(elements.sum(axis=1))


def in_coset(vector: np.ndarray, particular: np.ndarray, basis: np.ndarray) -> bool:
    """Whether ``vector - particular`` lies in the span of ``basis`` (by the oracle's rank)."""
    difference = (vector.astype(np.uint8) ^ particular.astype(np.uint8))[None, :]
    return bool(oracle.gf2_rank(np.concatenate([basis, difference])) == oracle.gf2_rank(basis))


def random_coset(rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    if rng.random() < 0.3:   # a coset split into parts: the node bounds are exact there
        basis = block_basis(rng, [int(v) for v in rng.integers(1, 4, size=int(rng.integers(2, 4)))],
                            int(rng.integers(3, 9)))
    else:
        d = int(rng.integers(1, 11))
        basis = random_basis(rng, d, int(rng.integers(d, 60)), density=float(rng.uniform(0.05, 0.6)))
    particular = np.asarray(rng.random(basis.shape[1]) < rng.uniform(0.1, 0.9), dtype=np.uint8)
    return particular, basis


def stopped_search(rng: np.random.Generator, particular: np.ndarray, basis: np.ndarray,
                   polls: int) -> minweight.CosetMinimum:
    """A search cut short after ``polls`` polls, on a route chosen at random."""
    route = int(rng.integers(0, 4))
    threads = int(rng.integers(1, 3))
    token = Countdown(polls)
    # with a time limit (or a progress that shows them) the searches bound their nodes; without, trivially
    limit = 60.0 if rng.random() < 0.7 else None
    if route == 0:
        return minweight.coset_min_weight(particular, basis, token=token, threads=threads, prune=False,
                                          time_limit=limit)
    if route == 1 and basis.shape[0] >= 1:
        return minweight.coset_min_weight(particular, basis, token=token, threads=threads, prune=True,
                                          time_limit=limit)
    if route == 2:
        with concurrent.futures.ThreadPoolExecutor(2) as pool:
            return minweight.coset_min_weight(particular, basis, token=token, executor=pool, time_limit=limit,
                                              split_bits=int(rng.integers(0, basis.shape[0] + 1)))
    return minweight.coset_min_weight(particular, basis, token=token, threads=threads,
                                      progress=ignore_progress if limit else None)


def ignore_progress(stage: str, done: int, total: int, bounds: object = None) -> None:
    """A progress callable that takes the bounds (so the search computes its node bounds)."""


@pytest.mark.parametrize("seed", range(20))
def test_stopped_and_finished_searches_bracket_the_brute_force_minimum(seed):
    rng = np.random.default_rng(3200 + seed)
    for _ in range(100):   # 2,000 random cosets in all
        particular, basis = random_coset(rng)
        weights = brute_weights(particular, basis)
        fewest = int(weights.min())
        polls = int(rng.integers(0, 5)) if rng.random() < 0.8 else 10**9
        found = stopped_search(rng, particular, basis, polls)
        assert found.lower_bound is not None
        assert found.lower_bound <= fewest <= found.weight, (found.lower_bound, fewest, found.weight)
        assert found.weight == int(found.presses.sum()) and in_coset(found.presses, particular, basis)
        if found.proven:
            assert found.lower_bound == found.weight == fewest
        if polls == 10**9:
            assert found.proven


@pytest.mark.parametrize("seed", range(20))
def test_every_node_bound_holds_for_every_element_below_it(seed):
    rng = np.random.default_rng(5400 + seed)
    for _ in range(15):
        particular, basis = random_coset(rng)
        problem = search_problem(reduce_coset(particular, basis))
        d = problem.nullity
        coordinates = np.arange(1 << d, dtype=np.int64)
        # S(c) from its definition, c_1 at bit d-1 as the kernel reads it
        parities = np.array([[bin(int(form) & int(c)).count("1") & 1 for form in problem.forms]
                             for c in coordinates], dtype=np.int64).reshape(1 << d, -1)
        sums = ((1 - 2 * parities) * problem.values.astype(np.int64)).sum(axis=1)
        for depth in range(d + 1):
            bounds = prune.prefix_bounds(problem.forms, problem.values, d, depth)
            node_min = np.array([sums[coordinates >> (d - depth) == p].min() for p in range(1 << depth)])
            assert (bounds <= node_min).all(), (depth, bounds, node_min)
            assert weight_bound(problem.cells, int(bounds.min())) <= int(brute_weights(particular, basis).min())


def test_frontier_takes_the_smaller_of_the_best_and_the_open_nodes():
    frontier = Frontier(np.array([-10, -4, -7, 0]), 4)      # 16 tasks, 4 nodes of 4
    assert frontier.lower(-5) == -10
    frontier.finish(0, 6)                                   # node 0 done, node 1 half
    assert frontier.lower(-5) == -7
    frontier.finish(8, 12)
    assert frontier.lower(-5) == -5 and frontier.lower(-3) == -4
    frontier.finish(6, 8), frontier.finish(12, 16)
    assert frontier.lower(-3) == -3


@pytest.mark.parametrize("seed", range(8))
def test_solutions_of_small_boards_bracket_the_oracle_minimum(seed):
    rng = np.random.default_rng(700 + seed)
    for _ in range(12):
        rows, cols = (int(v) for v in rng.integers(2, 7, size=2))
        for attempt in range(20):
            board = (rng.random((rows, cols)) < 0.5).astype(np.uint8)
            if oracle.min_presses_brute(board) is not None:
                break
        fewest = oracle.min_presses_brute(board)
        if fewest is None:
            continue
        solution = lightsout.solve(board)
        best = minimal_solution(solution, token=Countdown(int(rng.integers(0, 6))), threads=1)
        presses = int(best.presses.sum())
        assert best.lower_bound is not None and best.lower_bound <= fewest <= presses
        assert oracle.clears(board, best.presses) and best.gap == presses - best.lower_bound
        assert press_cover_bound(solution) <= fewest
        full = solution.minimal()
        assert full.proven_minimal and full.lower_bound == int(full.presses.sum()) == fewest and full.gap == 0


def test_the_press_cover_bound_holds_on_other_rules():
    for board, kwargs in [(np.ones((4, 6), np.uint8), {"torus": True}), (np.ones((5, 5), np.uint8), {"stencil": "x"}),
                          (np.ones((3, 3, 3), np.uint8), {}), (np.ones((6, 6), np.uint8), {"self_toggle": False})]:
        solution = lightsout.solve(board, **kwargs)
        best = solution.minimal()
        weights = brute_weights(solution.presses.ravel().astype(np.uint8),
                                solution.quiet_patterns().reshape(solution.nullity, board.size).astype(np.uint8))
        assert press_cover_bound(solution) <= int(weights.min()) == best.lower_bound, kwargs
    edges = [(0, 1), (1, 2), (2, 3), (3, 4), (4, 0), (0, 5), (5, 6), (6, 7), (7, 8), (8, 5), (2, 6)]
    rng = np.random.default_rng(32)
    for _ in range(10):
        lights = (rng.random(9) < 0.6).astype(np.uint8)
        solutions, _ = oracle.exhaustive(oracle.graph_neighbour_sets(9, edges), lights)
        if not len(solutions):
            continue
        graph = lightsout.solve_graph(np.array(edges), lights, minimal=True)
        fewest = int(solutions.sum(axis=1).min())
        assert press_cover_bound(graph) <= fewest == graph.lower_bound == int(graph.presses.sum())


def test_a_time_limited_search_of_79_returns_a_real_solution_and_a_lower_bound():
    seen = []
    solution = lightsout.solve(np.ones((79, 79), np.uint8))
    best = solution.minimal(time_limit=1.5, progress=lambda stage, done, total, bounds=None: seen.append(bounds))
    presses = int(best.presses.sum())
    assert not best.proven_minimal and -(-79 * 79 // 5) <= best.lower_bound <= presses
    assert best.gap == presses - best.lower_bound > 0 and oracle.clears(np.ones((79, 79)), best.presses)
    assert "lower_bound=" in repr(best)
    shown = [bounds for bounds in seen if bounds is not None]
    assert shown and all(low <= high for low, high in shown)
    assert all(a[0] <= b[0] and a[1] >= b[1] for a, b in zip(shown, shown[1:]))   # the bracket only narrows
    assert shown[-1][1] >= presses


def test_executors_and_graphs_carry_the_bound():
    solution = lightsout.solve(np.ones((79, 79), np.uint8))
    with concurrent.futures.ThreadPoolExecutor(2) as pool:
        best = solution.minimal(time_limit=1.0, executor=pool)
        proven = lightsout.solve(np.ones((30, 30), np.uint8)).minimal(executor=pool)
    assert best.lower_bound <= int(best.presses.sum()) and oracle.clears(np.ones((79, 79)), best.presses)
    assert proven.proven_minimal and proven.lower_bound == int(proven.presses.sum())
    grid = lightsout.solve(np.ones((5, 5), np.uint8), minimal=True)
    assert grid.lower_bound == 15 == int(grid.presses.sum())
    three = lightsout.solve(np.ones((4, 4), np.uint8), states=3).minimal()     # the k-state search: proven
    assert three.proven_minimal and three.lower_bound == int(three.presses.astype(np.int64).sum()) and three.gap == 0
    single = lightsout.solve(np.ones((4, 5), np.uint8)).minimal()             # one solution: nothing to search
    assert single.nullity == 0 and single.lower_bound == int(single.presses.sum())


def test_fewest_presses_says_the_bracket_when_cut_short():
    with pytest.raises(lightsout.MinimumNotProvenError) as caught:
        lightsout.fewest_presses(203, time_limit=0.5)
    error = caught.value
    assert error.lower_bound is not None and error.lower_bound <= error.presses
    assert error.gap == error.presses - error.lower_bound and error.best.verify()
    assert f"[{error.lower_bound}, {error.presses}]" in str(error)
    assert lightsout.fewest_presses(6) == 28       # a proven answer is still a number


def test_a_callback_without_bounds_is_called_as_before():
    calls = []
    lightsout.solve(np.ones((79, 79), np.uint8)).minimal(time_limit=0.6,
                                                           progress=lambda stage, done, total: calls.append(total))
    assert calls and not accepts_bounds(lambda stage, done, total: None)


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_the_progress_line_and_the_command_line_show_the_bracket(tmp_path, capsys):
    from lightsout._cli import progress

    stream = _Terminal()
    with progress.ProgressBar(file=stream, bars=False, delay=0) as bar:
        assert accepts_bounds(bar)
        bar("fewest presses", 3, 16, bounds=(1249, 2835))
    assert "presses in [1,249, 2,835]" in stream.getvalue()
    (tmp_path / "board.txt").write_text(("1" * 79 + "\n") * 79)
    assert main(["solve", str(tmp_path / "board.txt"), "--minimal", "--time-limit", "0.3", "-o",
                 str(tmp_path / "out.txt")]) == 0
    summary = capsys.readouterr().err
    assert "not proven: the fewest is in [" in summary


def test_the_local_search_reports_a_real_point_and_sum():
    rng = np.random.default_rng(9)
    for _ in range(30):
        particular, basis = random_coset(rng)
        problem = search_problem(reduce_coset(particular, basis))
        total, point = local_search(problem.forms, problem.values, problem.nullity, 0.01, seed=int(rng.integers(99)))
        signs = np.array([1 - 2 * (bin(int(form) & point).count("1") & 1) for form in problem.forms])
        assert total == int((signs * problem.values.astype(np.int64)).sum()) <= problem.bound
        assert weight_bound(problem.cells, total) >= int(brute_weights(particular, basis).min())


@pytest.mark.parametrize("seed", range(6))
def test_a_seeded_search_finds_the_same_answer_ties_included(seed, monkeypatch):
    monkeypatch.setattr(minweight, "LOCAL_SEARCH_MIN_NULLITY", 1)    # every time-limited search is seeded
    monkeypatch.setattr(minweight, "LOCAL_SEARCH_SECONDS", 0.02)
    rng = np.random.default_rng(4400 + seed)
    for _ in range(25):
        particular, basis = random_coset(rng)
        expected = brute_coset_min(particular, basis)
        stopped = int(rng.integers(0, 3)) == 0
        token = Countdown(int(rng.integers(0, 8))) if stopped else None
        with concurrent.futures.ThreadPoolExecutor(2) as pool:
            found = minweight.coset_min_weight(particular, basis, time_limit=60, token=token, prune=False,
                                               executor=pool if rng.random() < 0.3 else None)
        assert found.lower_bound <= expected[0] <= found.weight and in_coset(found.presses, particular, basis)
        if not stopped:
            assert found.proven and (found.weight, tuple(int(v) for v in found.presses)) == expected
    for n in (16, 19):   # the symmetric cut, seeded: the same solution as the plain search
        particular, basis = coset_of(np.ones((n, n), np.uint8), (False, False), True)
        plain = minweight.coset_min_weight(particular, basis)
        cut = minweight.coset_min_weight(particular, basis, symmetry=grid_symmetries((n, n), (False, False)),
                                         time_limit=60)
        assert cut.proven and np.array_equal(cut.presses, plain.presses) and cut.lower_bound == plain.weight


def test_the_tqdm_bar_shows_the_bracket_as_it_narrows():
    pytest.importorskip("tqdm")
    from lightsout._cli import progress

    stream = _Terminal()
    with progress.ProgressBar(file=stream, delay=0) as bar:
        bar("fewest presses", 0, 16, bounds=(1249, 2835))
        bar("fewest presses", 0, 16, bounds=(1249, 2803))     # no chunk done, the bracket redrawn
    shown = stream.getvalue()
    assert "presses in [1,249, 2,835]" in shown and "presses in [1,249, 2,803]" in shown


@pytest.mark.parametrize("k, shape", [(3, (2, 5)), (4, (2, 3)), (5, (2, 3))])
def test_k_states_cut_short_report_the_press_cover_bound(k, shape):
    """A k-state walk stopped by its time limit still brackets the fewest presses: the cover bound
    (lit required cells over the stencil's nonzero weights) is below every solution, by brute force."""
    rng = np.random.default_rng(50 + k)
    cells = shape[0] * shape[1]
    matrix = oracle.effect_matrix(oracle.neighbour_sets(shape))
    board = (matrix @ rng.integers(0, k, cells) % k).reshape(shape).astype(np.uint8)   # solvable
    solved = lightsout.solve(board, states=k)
    assert solved.nullity > 0
    cut = solved.minimal(time_limit=0)
    fewest = min(int(x.sum()) for x in oracle.all_press_vectors(cells, k)
                 if not ((matrix @ x + board.ravel()) % k).any())
    assert not cut.proven_minimal
    assert cut.lower_bound == -(-int(np.count_nonzero(board)) // 5)
    assert cut.lower_bound <= fewest <= int(cut.presses.sum())
