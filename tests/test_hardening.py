"""Regression tests for issue 6 (Python layer): limits, cancellation, exceptions, validation.

Each test here failed on the code before the fix; the CLI's own failures are in
test_cli.py.  Answers are checked against tests/oracle.py, never against
outputs of the code under test.
"""
from __future__ import annotations

import ast
import copy
import os
import pickle
import threading
import time
import tracemalloc
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import numpy as np
import pytest

import oracle
import lightsout
from lightsout import (
    BoardTooLargeError, InvalidBoardError, InvalidTypeError, LightsOutError, SettingError, UnsolvableError,
)
from lightsout._kernels import load
from lightsout._routes import dense as _denseroute

PACKAGE = Path(lightsout.__file__).parent


# --- defect 1: concurrent.futures.TimeoutError is not the builtin before Python 3.11 ---------------

class _SlowKernels:
    """The real _kernels, with an ab_reduce that sleeps first, and a record of the cancel flags seen."""

    def __init__(self, delay: float, fail_after: int | None = None) -> None:
        self.real = load("chase")
        self.delay = delay
        self.calls = 0
        self.cancels: list[object] = []
        self.lock = threading.Lock()
        self.fail_after = fail_after

    def ab_block_count(self, ncols: int) -> int:
        return self.real.ab_block_count(ncols)

    def ab_reduce(self, board, nrows, ncols, out, block_start=0, block_stop=-1, **kwargs):
        cancel = kwargs.get("cancel")
        with self.lock:
            self.calls += 1
            self.cancels.append(cancel)
            calls = self.calls
        if self.fail_after is not None and calls > self.fail_after:
            raise KeyboardInterrupt
        time.sleep(self.delay)
        if cancel is not None and cancel[0]:
            return False
        return self.real.ab_reduce(board, nrows, ncols, out, block_start, block_stop, **kwargs)


def _use_kernels(monkeypatch, fake) -> None:
    """The dense route sees ``fake`` as its chase module (lightsout._kernels.chase), every other as is."""
    real = _denseroute.kernels  # type: ignore[attr-defined]

    class Kernels:
        chase = fake

        def __getattr__(self, name: str):
            return getattr(real, name)

    monkeypatch.setattr(_denseroute, "kernels", Kernels())


def test_dense_run_with_threads_longer_than_the_progress_poll(monkeypatch):
    """The main thread polls the workers every 0.25 s; on 3.9/3.10 that poll raised TimeoutError out."""
    ncols = 1500
    expected = _denseroute.reduced_system(ncols, ncols, threads=1)
    fake = _SlowKernels(delay=0.3)
    assert fake.ab_block_count(ncols) >= 2
    _use_kernels(monkeypatch, fake)
    seen = []
    system = _denseroute.reduced_system(ncols, ncols, threads=2, progress=lambda *a: seen.append(a))
    assert np.array_equal(system, expected)
    assert seen and seen[-1][0] == "ab_iteration"


# --- defect 2: the dense route refuses what it cannot do, and stops promptly ----------------------

@pytest.mark.parametrize("call", [
    lambda: lightsout.first_row(10**15, 1, method="dense"),
    lambda: lightsout.first_row(1, 10**15, method="dense"),
    lambda: lightsout.nullity(10**15, 1, method="dense"),
    lambda: lightsout.nullity(1, 10**15, method="dense"),
    lambda: lightsout.first_row(1, 10**9, method="dense"),
    lambda: lightsout.first_row(2**63, 1, method="dense"),
    lambda: lightsout.first_row(2**70, 2**70, method="dense"),
    lambda: lightsout.first_row(200_000, method="dense"),
    lambda: lightsout.nullity(3, 2**63, method="dense"),
])
def test_dense_route_refuses_impossible_work_before_starting(call):
    with pytest.raises(BoardTooLargeError, match="method='poly'") as info:
        call()
    assert "limit" in str(info.value)


def test_dense_limit_leaves_real_sizes_alone():
    from lightsout._routes.dense import refuse_dense

    refuse_dense(40_000, 40_000)
    refuse_dense(10**6, 1_000)
    refuse_dense(1, 10**8, board_given=True)


def test_an_exception_in_the_caller_cancels_the_workers(monkeypatch):
    fake = _SlowKernels(delay=0.3)
    _use_kernels(monkeypatch, fake)

    def progress(stage, done, total):
        raise RuntimeError("stop here")

    with pytest.raises(RuntimeError, match="stop here"):
        _denseroute.reduced_system(3000, 3000, threads=2, progress=progress)
    assert all(c is not None for c in fake.cancels), "ab_reduce must get the cancel flag"
    assert fake.cancels[0][0] == 1
    assert fake.calls < fake.ab_block_count(3000)


def test_an_interrupt_in_a_worker_stops_the_others(monkeypatch):
    fake = _SlowKernels(delay=0.05, fail_after=1)
    _use_kernels(monkeypatch, fake)
    with pytest.raises(KeyboardInterrupt):
        _denseroute.reduced_system(3000, 3000, threads=2)
    assert fake.cancels[0] is not None and fake.cancels[0][0] == 1
    assert fake.calls < fake.ab_block_count(3000)


# --- defect 3: an unsolvable board's proof costs one chase and one pattern ------------------------

def _unsolvable_board(n: int, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    while True:
        board = rng.random((n, n)) < 0.5
        if not lightsout.is_solvable(board):
            return board


@pytest.mark.parametrize("method", ["poly", "dense"])
def test_unsolvable_proof_memory_is_one_pattern_not_the_whole_basis(method):
    n = 639  # nullity 512: the old code built 512 patterns of n x n cells (209 MB) to find one
    board = _unsolvable_board(n, 7)
    tracemalloc.start()
    try:
        with pytest.raises(UnsolvableError) as info:
            lightsout.solve(board, method=method)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    error = info.value
    assert not oracle.replay_fast(np.zeros_like(board), error.quiet_pattern).any()
    assert np.count_nonzero(error.quiet_pattern & board) % 2 == 1
    assert np.array_equal(error.quiet_first_row, error.quiet_pattern[0])
    assert peak < 8 * board.size, peak  # the board, its pattern and a few packed copies


def test_unsolvable_proof_on_wide_boards_in_the_callers_orientation():
    rng = np.random.default_rng(3)
    seen = 0
    for rows, cols in [(4, 19), (5, 23), (9, 64), (16, 65), (19, 130)]:
        for _ in range(20):
            board = rng.random((rows, cols)) < 0.5
            try:
                lightsout.solve(board)
            except UnsolvableError as error:
                seen += 1
                assert error.quiet_pattern.shape == board.shape
                assert not oracle.replay_fast(np.zeros_like(board), error.quiet_pattern).any()
                assert np.count_nonzero(error.quiet_pattern & board) % 2 == 1
                assert np.array_equal(error.quiet_first_row, error.quiet_pattern[0])
    assert seen > 10


def test_quiet_patterns_refuses_to_materialise_a_huge_basis():
    n = 10_000
    board = np.zeros((n, n), dtype=bool)  # calloc: pages stay untouched
    solution = lightsout.Solution(board, board, 2, "poly", np.zeros((2, n), dtype=bool))
    with pytest.raises(BoardTooLargeError, match="quiet_first_rows"):
        solution.quiet_patterns()


# --- defect 4: every exception pickles and copies --------------------------------------------------

@pytest.mark.parametrize("error", [
    LightsOutError("a"), InvalidBoardError("b"), InvalidTypeError("c"), BoardTooLargeError("d"),
    SettingError("e"),
    UnsolvableError("f", np.eye(3, dtype=bool), np.array([True, False, False]), 2),
])
def test_exceptions_survive_pickle_and_copy(error):
    for clone in (pickle.loads(pickle.dumps(error)), copy.copy(error), copy.deepcopy(error)):
        assert type(clone) is type(error) and str(clone) == str(error)
        assert clone.args == error.args
        for name, value in vars(error).items():
            assert np.array_equal(getattr(clone, name), value)


def test_unsolvable_error_crosses_a_process_pool():
    board = [[1, 0, 0, 0]] * 4
    with ProcessPoolExecutor(1) as pool:
        with pytest.raises(UnsolvableError) as info:
            pool.submit(lightsout.solve, board).result()
    assert np.count_nonzero(info.value.quiet_pattern & np.array(board, bool)) % 2 == 1
    assert info.value.nullity == oracle.nullity(4, 4)


# --- defect 6: clear errors up front --------------------------------------------------------------

@pytest.mark.parametrize("shape", [(10**12, 3), (100_000, 100_000), (2**32 + 1, 1)])
def test_all_lit_refuses_boards_over_the_cell_limit(shape):
    with pytest.raises(BoardTooLargeError, match="2\\*\\*32"):
        lightsout.all_lit(*shape)


def test_all_lit_allows_the_limit_itself():
    from lightsout._base.validate import MAX_BOARD_CELLS, board_cells

    board_cells(MAX_BOARD_CELLS, 1, "all_lit")
    board_cells(1 << 16, 1 << 16, "all_lit")


@pytest.mark.parametrize("row", [[1, [0, 1]], [[1, 0], [1]], "101", [1, 0], [1, 0, 2]])
def test_chase_refuses_a_bad_first_row_with_our_error(row):
    with pytest.raises((InvalidBoardError, InvalidTypeError)) as info:
        lightsout.chase(np.ones((3, 3), bool), row)
    assert isinstance(info.value, LightsOutError)


@pytest.mark.parametrize("call", [
    lambda p: lightsout.first_row(3, progress=p),
    lambda p: lightsout.first_row(3, method="dense", progress=p),
    lambda p: lightsout.solve(np.ones((3, 3)), progress=p),
    lambda p: lightsout.nullity_table(5, progress=p),
])
def test_progress_that_is_not_callable_is_refused_up_front(call):
    with pytest.raises(InvalidTypeError, match="progress"):
        call(5)


def test_is_solvable_and_nullity_take_threads_like_solve():
    board = np.ones((6, 6), bool)
    for method in ("poly", "dense"):
        assert lightsout.is_solvable(board, method=method, threads=2) is True
        assert lightsout.nullity(5, method=method, threads=2) == oracle.nullity(5, 5)
    with pytest.raises(InvalidBoardError):
        lightsout.is_solvable(board, threads=0)
    with pytest.raises(InvalidTypeError):
        lightsout.nullity(5, threads="2")


@pytest.mark.parametrize("lit, dark, error", [
    (1, "0", InvalidTypeError), ("1", None, InvalidTypeError), ("ab", "0", InvalidBoardError),
    ("1", "", InvalidBoardError), ("0", "1", InvalidBoardError), ("1", "1", InvalidBoardError),
    ("!", "0", InvalidBoardError), ("1", " ", InvalidBoardError), ("\n", "0", InvalidBoardError),
])
def test_format_board_refuses_symbols_parse_board_cannot_read(lit, dark, error):
    with pytest.raises(error):
        lightsout.format_board([[1, 0]], lit=lit, dark=dark)


def test_format_board_round_trips_with_every_accepted_symbol_pair():
    from lightsout.board import DARK_CHARS, LIT_CHARS

    board = np.random.default_rng(5).random((7, 9)) < 0.5
    for lit in LIT_CHARS:
        for dark in DARK_CHARS:
            assert np.array_equal(lightsout.parse_board(lightsout.format_board(board, lit=lit, dark=dark)), board)


def test_parse_board_accepts_a_bom_and_comments():
    text = "\ufeff! a glider\n.#.\n..#  ! right\n###\n! done\n"
    assert lightsout.parse_board(text).astype(int).tolist() == [[0, 1, 0], [0, 0, 1], [1, 1, 1]]


def test_the_comment_mark_is_not_a_cell_symbol():
    from lightsout.board import COMMENT, DARK_CHARS, LIT_CHARS

    assert COMMENT not in LIT_CHARS + DARK_CHARS
    with pytest.raises(InvalidBoardError, match="no rows"):
        lightsout.parse_board(f"{COMMENT} 3 presses; nullity 0, 1 solutions\n")


def test_lightsout_simd_setting_errors_are_ours(monkeypatch):
    monkeypatch.setenv("LIGHTSOUT_SIMD", "bogus")
    with pytest.raises(SettingError, match="LIGHTSOUT_SIMD"):
        lightsout.first_row(3)


def test_integer_boards_are_checked_in_one_pass():
    from lightsout._base.validate import board_array

    for dtype in (np.uint8, np.int8, np.int64, np.uint16, np.float32, np.float64):
        board = np.array([[1, 0], [0, 1]], dtype=dtype)
        assert board_array(board).tolist() == [[True, False], [False, True]]
        for bad in (2, -1):
            if bad < 0 and np.dtype(dtype).kind == "u":
                continue
            with pytest.raises(InvalidBoardError):
                board_array(np.array([[1, bad]], dtype=dtype))
    with pytest.raises(InvalidBoardError):
        board_array(np.array([[0.5, 1.0]]))
    with pytest.raises(InvalidBoardError):
        board_array(np.array([[np.nan, 1.0]]))


# --- defect 10 and one kernel per job -------------------------------------------------------------

def test_solution_repr_and_str_are_short():
    solution = lightsout.solve(np.ones((200, 200), bool))
    expected = f"Solution(shape=(200, 200), presses={int(solution.presses.sum())}, nullity=0, method='poly')"
    assert repr(solution) == expected and str(solution) == expected


def test_first_row_never_raises_unsolvable_for_all_lit_rectangles():
    """Sutner: every all-lit board has a solution; the oracle agrees on every small rectangle."""
    for rows in range(1, 9):
        for cols in range(1, 9):
            row = lightsout.first_row(rows, cols)
            assert oracle.clears(np.ones((rows, cols), np.uint8), oracle.chase(np.ones((rows, cols)), row)[0])


def _imported_modules(path: Path) -> set[str]:
    names = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module)
        elif isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
    return names


def test_the_dense_route_shares_nothing_with_the_polynomial_route():
    assert not {"lightsout._routes.poly", "lightsout._kernels.gf2poly"} & _imported_modules(PACKAGE / "_routes" / "dense.py")
    from lightsout._routes.dense import solve_grid_dense
    from lightsout._core.coset import Coset

    assert type(solve_grid_dense(3, 3)) is Coset


def test_no_python_module_points_outside_the_repository():
    for path in PACKAGE.rglob("*.py"):
        text = path.read_text()
        assert "shared/design" not in text and "design note" not in text, path


def test_new_modules_examples_run():
    from examples import run_examples
    from lightsout._core import coset as _coset, orientation as _orientation

    for module in (_orientation, _coset):
        failures, attempted = run_examples(module)
        assert attempted > 0 and failures == 0


def test_c_api_returns_the_kernel_capsule():
    from lightsout._kernels import c_api

    # the capsule names are the C contract's, unchanged since the modules moved into lightsout._kernels
    for name, capsule_name in (("chase", "lightsout._kernels._capi"), ("gf2elim", "lightsout._gf2elim._capi")):
        capsule = c_api(name)
        assert type(capsule).__name__ == "PyCapsule"
        assert capsule_name in repr(capsule)


# --- defect 9: a source tree without compiled modules says what to do -----------------------------

def test_import_without_compiled_modules_says_how_to_build(tmp_path):
    import shutil
    import subprocess
    import sys

    shutil.copytree(PACKAGE, tmp_path / "lightsout", ignore=shutil.ignore_patterns("*.so", "*.pyd", "__pycache__"))
    # -S: no site-packages, so neither an installed copy nor an editable install's finder can stand in.
    env = {key: value for key, value in os.environ.items() if key != "PYTHONPATH"}
    done = subprocess.run([sys.executable, "-S", "-c", "import lightsout"], cwd=tmp_path, capture_output=True,
                          text=True, env=env)
    assert done.returncode != 0
    assert "ImportError" in done.stderr and "pip install -e ." in done.stderr and "pip install ." in done.stderr
    assert "circular import" not in done.stderr
    # what helps right after the README's commands comes first: leave the folder, or build in place
    assert done.stderr.index("cd ..") < done.stderr.index("pip install -e .") < done.stderr.index("`pip install .`")


def test_board_values_are_checked_in_any_byte_order():
    from lightsout._base.validate import board_array

    for dtype in (">i8", "<i8", ">u2", ">f8"):
        assert board_array(np.array([[1, 0]], dtype=dtype)).tolist() == [[True, False]]
        with pytest.raises(InvalidBoardError):
            board_array(np.array([[1, 2]], dtype=dtype))


@pytest.mark.parametrize("shape", [(5, 5), (3, 11)])  # nullities 2 and 3; (3, 11) works on the transpose
def test_an_unsolvable_error_from_solve_pickles_with_its_pattern(shape):
    rng = np.random.default_rng(11)
    boards = (rng.random(shape) < 0.5 for _ in range(200))  # each is unsolvable with probability >= 3/4
    board = next(b for b in boards if not oracle.brute_force_first_rows(b))
    with pytest.raises(UnsolvableError) as info:
        lightsout.solve(board)
    clone = pickle.loads(pickle.dumps(info.value))  # before the pattern was ever read
    for error in (clone, copy.copy(info.value), info.value):
        assert error.quiet_pattern.shape == shape
        assert not oracle.replay_fast(np.zeros_like(board), error.quiet_pattern).any()
        assert np.count_nonzero(error.quiet_pattern & board) % 2 == 1
        assert np.array_equal(error.quiet_first_row, error.quiet_pattern[0])
