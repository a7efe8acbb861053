"""The fewest presses through the public API, against exhaustive search (tests/oracle.py)."""
from __future__ import annotations

import itertools
import math
import threading
import tracemalloc

import numpy as np
import pytest

import lightsout
import oracle
from lightsout import UnsolvableError

SHAPES = [s for ndim in (1, 2, 3) for s in itertools.product(range(1, 13), repeat=ndim) if math.prod(s) <= 12]


def _fewest_by_search(sets, board, states):
    """(fewest presses, the lexicographically smallest solution with that many) by trying every press vector."""
    solutions, _ = oracle.exhaustive(sets, np.asarray(board).ravel(), states)
    if not len(solutions):
        return None, None
    weights = solutions.sum(axis=1)
    best = int(weights.min())
    return best, solutions[weights == best][0]  # exhaustive lists solutions in lexicographic order


@pytest.mark.parametrize("shape", SHAPES, ids=str)
def test_minimal_matches_exhaustive_search_on_every_small_board(shape):
    rng = np.random.default_rng(math.prod(shape) * 31 + len(shape))
    for torus in {(False,) * len(shape), (True,) * len(shape)}:
        for self_toggle in (True, False):
            sets = oracle.neighbour_sets(shape, torus, self_toggle)
            for board in (np.ones(shape, int), rng.integers(0, 2, size=shape)):
                best, smallest = _fewest_by_search(sets, board, 2)
                if best is None:
                    with pytest.raises(UnsolvableError):
                        lightsout.solve(board, torus=torus, self_toggle=self_toggle, minimal=True)
                    continue
                s = lightsout.solve(board, torus=torus, self_toggle=self_toggle, minimal=True)
                assert s.proven_minimal and int(s.presses.sum()) == best
                assert s.presses.astype(int).ravel().tolist() == smallest.tolist()
                assert not oracle.replay_sets(sets, board, s.presses, 2).any()


def test_minimal_with_three_states_counts_presses_with_multiplicity():
    for shape in ((2, 3), (3, 3), (1, 7)):
        sets = oracle.neighbour_sets(shape, False, True)
        board = np.ones(shape, int)
        best, _ = _fewest_by_search(sets, board, 3)
        if best is None:
            continue
        s = lightsout.solve(board, states=3, minimal=True)
        assert s.proven_minimal and int(s.presses.sum()) == best


def test_graph_minimal_matches_exhaustive_search():
    import networkx as nx  # type: ignore[import-untyped]

    rng = np.random.default_rng(8)
    for _ in range(60):
        n = int(rng.integers(1, 8))
        g = nx.gnp_random_graph(n, 0.4, seed=int(rng.integers(1 << 30)))
        sets = oracle.graph_neighbour_sets(n, list(g.edges()), True)
        lit = rng.integers(0, 2, size=n)
        best, smallest = _fewest_by_search(sets, lit, 2)
        if best is None:
            continue
        s = lightsout.solve_graph(g, lit, minimal=True)
        assert s.proven_minimal and int(s.presses.sum()) == best
        assert s.presses.astype(int).tolist() == smallest.tolist()


def test_published_fewest_presses():
    # The all-lit 5 x 5 board: 4 solutions, the fewest has 15 presses; the 3^4 hypercube: 41.
    s = lightsout.solve(np.ones((5, 5), int))
    assert s.count == 4 and lightsout.fewest_presses(5) == 15
    assert lightsout.fewest_presses((3, 3, 3, 3)) == 41


#: OEIS A075464, the fewest presses that clear the all-lit n x n board, n = 1..20
#: (https://oeis.org/A075464; the same terms as tests/test_fewest.py, which checks n <= 54).
OEIS_A075464 = [1, 4, 5, 4, 15, 28, 33, 40, 25, 44, 55, 72, 105, 56, 117, 104, 147, 188, 141, 224]


def test_fewest_presses_table_matches_oeis():
    assert lightsout.fewest_presses_table(20).tolist() == OEIS_A075464


def test_the_shipped_table_covers_every_size_up_to_200_within_nullity_50():
    table = lightsout.proven_fewest_presses()
    nullities = lightsout.nullity_table(200)
    assert sorted(table) == [n for n in range(1, 201) if nullities[n - 1] <= 50]
    assert sorted(n for n in table if nullities[n - 1] > 42) == [119, 125]
    for n, row in table.items():
        assert row["nullity"] == nullities[n - 1]
        assert 0 < row["fewest"] <= n * n and row["seconds"] >= 0 and row["machine"]
    assert [table[n]["fewest"] for n in range(1, 21)] == OEIS_A075464
    assert table[61]["fewest"] == 1629 and table[65]["fewest"] == 1867  # tables.md's earlier cluster runs


def test_the_shipped_table_agrees_with_a_search_now():
    table = lightsout.proven_fewest_presses()
    cheap = [n for n, row in table.items() if row["nullity"] <= 12]
    assert len(cheap) > 100
    for n in cheap:
        s = lightsout.solve(lightsout.all_lit(n), minimal=True)
        assert s.proven_minimal and int(s.presses.sum()) == table[n]["fewest"], n
    # every solution of the small-nullity sizes replayed by the oracle (n <= 30)
    for n in [n for n in cheap if n <= 30]:
        s = lightsout.solve(lightsout.all_lit(n), minimal=True)
        assert oracle.clears(np.ones((n, n), np.uint8), s.presses.astype(np.uint8))


@pytest.mark.slow
def test_the_shipped_table_agrees_with_a_search_now_up_to_nullity_36():
    table = lightsout.proven_fewest_presses()
    for n, row in table.items():
        if 12 < row["nullity"] <= 36:
            found = lightsout.solve(lightsout.all_lit(n), minimal=True)    # searched, not read from the table
            assert found.proven_minimal and int(found.presses.sum()) == row["fewest"], n


def test_unproven_answers_are_never_labelled_minimal():
    s = lightsout.solve(np.ones((4, 4), int))
    assert not s.proven_minimal  # the canonical solution: nobody searched
    assert "proven_minimal=True" in repr(s.minimal())


def test_all_lit_distance_table_of_5_by_5():
    # OEIS A079873: the 5 x 5 board's positions by distance, 8,388,608 solvable in all, at most
    # 15 presses (tests/test_fewest.py checks the whole list).
    table = lightsout.distance_distribution((5, 5))
    assert int(table.sum()) == 2 ** 23 and len(table) == 16
    assert table.tolist()[:4] == [1, 25, 300, 2300]  # up to 3 presses every set of presses is minimal


BIGGER = [s for ndim in (1, 2, 3, 4) for s in itertools.product(range(2, 21), repeat=ndim)
          if 13 <= math.prod(s) <= 20 and list(s) == sorted(s)]


@pytest.mark.slow
@pytest.mark.parametrize("shape", BIGGER, ids=str)
def test_minimal_matches_exhaustive_search_up_to_20_cells(shape):
    for torus in {(False,) * len(shape), (True,) * len(shape)}:
        for self_toggle in (True, False):
            sets = oracle.neighbour_sets(shape, torus, self_toggle)
            board = np.ones(shape, int)
            best, smallest = _fewest_by_search(sets, board, 2)
            if best is None:
                continue
            s = lightsout.solve(board, torus=torus, self_toggle=self_toggle, minimal=True)
            assert s.proven_minimal and int(s.presses.sum()) == best
            assert s.presses.astype(int).ravel().tolist() == smallest.tolist()


def test_the_table_command_resumes_after_an_interruption(tmp_path):
    import subprocess
    import sys
    from pathlib import Path

    script = Path(__file__).resolve().parents[1] / "bench" / "fewest_table.py"
    if not script.exists():
        pytest.skip("no bench/ beside the tests")
    out = tmp_path / "table.csv"
    command = [sys.executable, str(script), "--max-n", "12", "--max-nullity", "8", "--out", str(out)]
    first = subprocess.run(command, capture_output=True, text=True, timeout=300)
    assert first.returncode == 0, first.stderr
    whole = out.read_text()
    rows = whole.splitlines()[1:]
    assert [int(row.split(",")[0]) for row in rows] != [] and len(rows) == 12
    fewest = {int(row.split(",")[0]): int(row.split(",")[2]) for row in rows}
    assert [fewest[n] for n in range(1, 13)] == OEIS_A075464[:12]
    # killed while writing its last row: that row is cut off and searched again, nothing else
    out.write_text(whole[: whole.rindex("\n", 0, len(whole) - 1) + 5])
    again = subprocess.run(command, capture_output=True, text=True, timeout=300)
    assert again.returncode == 0, again.stderr
    assert "11 sizes already" in again.stdout and "1 to search" in again.stdout
    def facts(text):  # n, nullity, fewest of each row (the seconds differ from run to run)
        return sorted(tuple(line.split(",")[:3]) for line in text.splitlines())

    assert facts(out.read_text()) == facts(whole)


# ---------------------------------------------------------------------------------------
# The same parameter means the same thing everywhere (issue 29)


def _thread_starts(call):
    """(result, threads started) of ``call()``."""
    started = threading.Thread.start
    count = [0]

    def counting(self):
        count[0] += 1
        started(self)

    threading.Thread.start = counting
    try:
        result = call()
    finally:
        threading.Thread.start = started
    return result, count[0]


def test_threads_one_searches_in_the_calling_thread_alone():
    board = np.ones((64, 64), bool)                                  # nullity 28: the search has many tasks
    one, started = _thread_starts(lambda: lightsout.solve(board, minimal=True, threads=1))
    assert started == 0 and one.proven_minimal
    two, started = _thread_starts(lambda: lightsout.solve(board, minimal=True, threads=2))
    assert started >= 1                                               # the count does see the helpers
    assert np.array_equal(one.presses, two.presses)
    assert oracle.clears(board.astype(np.uint8), one.presses.astype(np.uint8))
    again, started = _thread_starts(lambda: lightsout.solve(board).minimal(threads=1))
    assert started == 0 and np.array_equal(again.presses, one.presses)


def test_numpy_numbers_are_accepted_for_threads_and_time_limit_and_bools_are_not():
    board = np.ones((6, 6), bool)
    plain = lightsout.solve(board, minimal=True)
    numpy = lightsout.solve(board, minimal=True, threads=np.int64(2), time_limit=np.int64(3))
    assert np.array_equal(plain.presses, numpy.presses) and numpy.proven_minimal
    assert lightsout.fewest_presses(6, 7, time_limit=np.float64(30), threads=np.int32(1)) == int(
        lightsout.solve(np.ones((6, 7), bool), minimal=True).presses.sum())
    for bad in (True, np.bool_(False)):
        with pytest.raises(lightsout.InvalidTypeError, match="threads"):
            lightsout.solve(board, threads=bad)
        with pytest.raises(lightsout.InvalidTypeError, match="time_limit"):
            lightsout.solve(board, minimal=True, time_limit=bad)
    for bad in (-1, float("nan"), np.float64(-0.5)):
        with pytest.raises(lightsout.InvalidBoardError, match="time_limit"):
            lightsout.fewest_presses(6, 7, time_limit=bad)
    with pytest.raises(lightsout.InvalidTypeError, match="time_limit"):
        lightsout.solve(board, minimal=True, time_limit="1")


def test_a_zero_time_limit_means_the_same_for_a_solution_and_a_number():
    found = lightsout.solve(np.ones((30, 30), bool), minimal=True, time_limit=0)
    assert found.nullity > 0 and not found.proven_minimal            # nothing weighed: the best so far
    assert oracle.clears(np.ones((30, 30), np.uint8), found.presses.astype(np.uint8))
    with pytest.raises(lightsout.MinimumNotProvenError) as caught:
        lightsout.fewest_presses(203, time_limit=0)                  # past the shipped table, nullity 38
    assert not caught.value.best.proven_minimal
    assert oracle.clears(np.ones((203, 203), np.uint8), caught.value.best.presses.astype(np.uint8))


def test_progress_on_every_long_running_function():
    import networkx as nx
    seen = []

    def progress(stage, done, total):
        seen.append((stage, done, total))

    calls = [
        lambda: lightsout.nullity(40, method="dense", progress=progress),
        lambda: lightsout.nullity((6, 6, 6), progress=progress),
        lambda: lightsout.is_solvable(np.ones((6, 6, 6), bool), progress=progress),
        lambda: lightsout.solve_graph(nx.cycle_graph(7), progress=progress, minimal=True),
        lambda: lightsout.solve_many(np.ones((3, 4, 4), bool), progress=progress, threads=1),
        lambda: lightsout.distance_distribution((4, 4), progress=progress, threads=1),
    ]
    for call in calls:
        seen.clear()
        call()
        assert seen and all(isinstance(stage, str) and 0 <= done <= total for stage, done, total in seen), call
        assert seen[-1][1] == seen[-1][2]
    for call in (lambda: lightsout.nullity(4, progress=3), lambda: lightsout.solve_many(np.ones((1, 2, 2)), progress=3),
                 lambda: lightsout.solve_graph(nx.cycle_graph(3), progress="no")):
        with pytest.raises(lightsout.InvalidTypeError, match="progress"):
            call()


def test_threads_on_every_search_and_route_give_the_same_answers():
    import networkx as nx
    boards = np.random.default_rng(3).integers(0, 2, (5, 4, 4)).astype(bool)
    for threads in (1, 2):
        many = lightsout.solve_many(boards, minimal=True, threads=threads)
        for board, presses, ok in zip(boards, many.presses, many.solvable):
            if ok:
                assert oracle.clears(board.astype(np.uint8), presses.astype(np.uint8))
        graph = lightsout.solve_graph(nx.petersen_graph(), minimal=True, threads=threads)
        assert graph.proven_minimal and graph.verify()
    assert np.array_equal(lightsout.distance_distribution((4, 4), threads=1),
                          lightsout.distance_distribution(4, 4, threads=2))


def test_the_old_spellings_work_with_a_deprecation_warning():
    import networkx as nx
    with pytest.warns(DeprecationWarning, match="lit"):
        old = lightsout.solve_graph(nx.path_graph(3), lit=[1, 1, 0])
    assert np.array_equal(old.presses, lightsout.solve_graph(nx.path_graph(3), board=[1, 1, 0]).presses)
    assert np.array_equal(old.presses, lightsout.solve_graph(nx.path_graph(3), [1, 1, 0]).presses)
    with pytest.raises(lightsout.InvalidTypeError, match="not both"):
        lightsout.solve_graph(nx.path_graph(3), [1, 1, 0], lit=[1, 1, 0])
    with pytest.warns(DeprecationWarning, match="shape"):
        old_table = lightsout.distance_distribution(shape=(3, 3))
    assert np.array_equal(old_table, lightsout.distance_distribution(3, 3))
    assert np.array_equal(old_table, lightsout.distance_distribution((3, 3)))
    with pytest.warns(DeprecationWarning, match="line"):
        line = lightsout.distance_distribution(4)                    # the old shape=4: a line of 4 cells
    assert np.array_equal(line, lightsout.distance_distribution((4,)))
    assert int(line.sum()) == 2 ** (4 - lightsout.nullity((4,)))


# ---------------------------------------------------------------------------------------
# The adversary's items in the searches (issue 29)


def test_the_shipped_table_answers_at_once_what_it_holds():
    table = lightsout.proven_fewest_presses()
    assert lightsout.fewest_presses(185, time_limit=2) == table[185]["fewest"]
    assert lightsout.fewest_presses(119) == table[119]["fewest"]
    table[185]["fewest"] = -1                                        # a copy: the shipped table stays
    assert lightsout.fewest_presses(185) == lightsout.proven_fewest_presses()[185]["fewest"]


@pytest.mark.parametrize("call", [
    lambda: lightsout.fewest_presses((2,) * 31),
    lambda: lightsout.fewest_presses((2,) * 32),
    lambda: lightsout.fewest_presses(3000, torus=True),
    lambda: lightsout.fewest_presses(3000, torus=True, time_limit=1),
], ids=["2^31", "2^32", "3000 torus", "3000 torus timed"])
def test_searches_refuse_before_the_work(call):
    tracemalloc.start()
    try:
        with pytest.raises(lightsout.BoardTooLargeError, match="nullity|limit"):
            call()
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 200 * 2**20                                       # refused before the board was built


def test_the_deadline_binds_the_symmetric_cut():
    with pytest.raises(lightsout.MinimumNotProvenError) as caught:
        lightsout.fewest_presses((4, 4, 4, 4), time_limit=0.2)        # the cut alone took a minute
    best = caught.value.best
    assert not best.proven_minimal
    assert not oracle.replay_nd(np.ones((4, 4, 4, 4), np.uint8), best.presses.astype(np.uint8)).any()


def test_a_solved_board_past_the_search_limit_is_refused_before_its_quiet_patterns_are_written(monkeypatch):
    solution = lightsout.solve(np.ones((5, 5, 5, 5), bool))               # nullity 68
    assert solution.nullity > 64

    def unexpected(*args, **kwargs):
        raise AssertionError("the quiet patterns were written out")

    with monkeypatch.context() as patched:
        patched.setattr(type(solution), "quiet_patterns", unexpected)
        with pytest.raises(lightsout.BoardTooLargeError, match="nullity 68"):
            solution.minimal()
    best = solution.minimal(time_limit=1)           # with a time limit: bracketed, not refused
    presses = int(best.presses.sum())
    assert not best.proven_minimal and -(-625 // 9) <= best.lower_bound <= presses
    assert not oracle.replay_nd(np.ones((5, 5, 5, 5), np.uint8), best.presses.astype(np.uint8)).any()
