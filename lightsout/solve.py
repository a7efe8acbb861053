"""Solving grid boards: first_row, nullity, solve, is_solvable.

Two routes compute the same answers (and the tests hold them to it):

* ``method="poly"``: the polynomial route (design note sections 2-4),
  O((R + C) C / 64) word operations and O(C) words of memory.  ``"auto"`` picks it.
* ``method="dense"``: the A/B two-row iteration to a C x (C+1) system, then
  Gauss-Jordan elimination; O(R C^2 / 64 + C^3 / 64), a C x C bit matrix.

When a board has several solutions (nullity > 0) every function returns the
same canonical one whatever the route: the solution whose first row is
smallest in lexicographic order, reading column 0 first (0 before 1).  Every
solution is determined by its first row, so this picks exactly one.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Optional

import numpy as np
import numpy.typing as npt

from lightsout import board as _board
from lightsout._denseroute import solve_grid_dense
from lightsout._dispatch import kernel_module
from lightsout._errors import LightsOutError
from lightsout._packing import pack_row, pack_rows, unpack_rows
from lightsout._polyroute import PolySolution, solve_grid_poly
from lightsout._polyroute import nullity_poly as _nullity_poly
from lightsout._polyroute import nullity_table as _nullity_table
from lightsout._validate import (
    board_array, board_size, dense_memory, grid_shape, method_name, poly_memory, thread_count,
)

__all__ = ["first_row", "nullity", "nullity_table", "solve", "is_solvable", "Solution", "UnsolvableError",
           "METHODS"]

METHODS = ("auto", "poly", "dense")
#: Largest board (cells) for which an error builds the full obstructing quiet pattern.
MAX_PATTERN_CELLS = 10**8

Progress = Optional[Callable[[str, int, int], None]]


class UnsolvableError(LightsOutError, ValueError):
    """The board cannot be turned dark.

    Attributes:
        quiet_pattern: a quiet pattern (a set of presses that changes no light)
            covering an odd number of the board's lit cells, bool array of the
            board's shape; it proves the board unsolvable, since every
            solvable board meets every quiet pattern an even number of times.
            None for boards over ``MAX_PATTERN_CELLS`` cells.
        quiet_first_row: the first row of that quiet pattern.
        nullity: dimension of the board's quiet-pattern space.
    """

    def __init__(self, message: str, quiet_pattern: Optional[np.ndarray],
                 quiet_first_row: Optional[np.ndarray], nullity: int) -> None:
        super().__init__(message)
        self.quiet_pattern = quiet_pattern
        self.quiet_first_row = quiet_first_row
        self.nullity = nullity


@dataclass(frozen=True, eq=False)
class Solution:
    """A way to turn a board dark, with what is known about all the others.

    Attributes:
        board: the start state (bool, R x C; 1 = lit).
        presses: the canonical solution (bool, R x C; 1 = press that cell).
        nullity: dimension of the quiet-pattern space; the board has
            ``count = 2**nullity`` solutions, ``presses`` plus any sum of
            quiet patterns.
        method: the route that found it ("poly" or "dense").

    Example:
        >>> s = solve([[1, 1, 0], [1, 0, 0], [0, 0, 0]])
        >>> s.presses.astype(int).tolist(), s.count, s.verify()
        ([[1, 0, 0], [0, 0, 0], [0, 0, 0]], 1, True)
    """

    board: np.ndarray
    presses: np.ndarray
    nullity: int
    method: str
    quiet_first_rows: np.ndarray = field(repr=False)

    @property
    def first_row(self) -> np.ndarray:
        """Presses of the top row (bool, length C); chasing the lights down from it gives ``presses``."""
        return self.presses[0].copy()

    @property
    def count(self) -> int:
        """Number of distinct solutions, an exact Python int (2**nullity)."""
        return 1 << self.nullity

    def quiet_patterns(self) -> np.ndarray:
        """A basis of the quiet patterns: (nullity, R, C) bool; each changes no light.

        Example:
            >>> solve(np.ones((4, 4), dtype=bool)).quiet_patterns().shape
            (4, 4, 4)
        """
        return _quiet_patterns(self.board.shape, self.quiet_first_rows)

    def verify(self) -> bool:
        """True when replaying ``presses`` on ``board`` turns every light off."""
        return not _board.press(self.board, self.presses).any()


def _route(method: str) -> str:
    return "poly" if method == "auto" else method


def _run(method: str, nrows: int, ncols: int, board_words: Optional[np.ndarray], *,
         threads: Optional[int], progress: Progress) -> PolySolution:
    if method == "dense":
        dense_memory(min(nrows, ncols))
        return solve_grid_dense(nrows, ncols, board_words, kernel=True, threads=threads, progress=progress)
    poly_memory(max(nrows, ncols))
    return solve_grid_poly(nrows, ncols, board_words, kernel=True, progress=progress)


def _canonical_first_row(first: np.ndarray, quiet_first_rows: np.ndarray) -> np.ndarray:
    """The lexicographically smallest first row in ``first + span(quiet_first_rows)``."""
    if len(quiet_first_rows) == 0:
        return first
    from lightsout.gf2 import rref

    basis, pivots = rref(quiet_first_rows)
    out = first.copy()
    for row, col in zip(basis, pivots):  # reduced echelon: clearing pivot columns is final
        if out[col]:
            out ^= row
    return out


def _quiet_patterns(shape: tuple[int, int], quiet_first_rows: np.ndarray) -> np.ndarray:
    nrows, ncols = shape
    dark = np.zeros((nrows, (ncols + 63) // 64), dtype=np.uint64)
    chase = kernel_module("_kernels").chase
    out = np.zeros((len(quiet_first_rows), nrows, ncols), dtype=bool)
    for i, row in enumerate(quiet_first_rows):
        _, presses, _ = chase(dark, nrows, ncols, pack_row(row), presses=True)
        out[i] = unpack_rows(presses, ncols)
    return out


def _unsolvable(result: PolySolution, lights: Optional[np.ndarray]) -> UnsolvableError:
    """An UnsolvableError carrying a quiet pattern that meets the lit cells an odd number of times."""
    nrows, ncols = result.nrows, result.ncols
    size = f"{nrows} x {ncols}"
    what = "the all-lit" if lights is None else "this"
    if nrows * ncols > MAX_PATTERN_CELLS:
        return UnsolvableError(
            f"{what} {size} board cannot be turned dark (nullity {result.nullity}); the board is too large "
            f"to build the obstructing quiet pattern", None, None, result.nullity)
    quiet_first_rows = result.quiet_first_rows()
    patterns = _quiet_patterns((nrows, ncols), quiet_first_rows)
    board = np.ones((nrows, ncols), dtype=bool) if lights is None else lights
    for first, pattern in zip(quiet_first_rows, patterns):
        hits = int(np.count_nonzero(pattern & board))
        if hits % 2:
            return UnsolvableError(
                f"{what} {size} board cannot be turned dark: the quiet pattern in .quiet_pattern "
                f"(pressing it changes no light) covers {hits} lit cells, an odd number, and every "
                f"solvable board meets every quiet pattern an even number of times",
                pattern, first, result.nullity)
    raise LightsOutError("internal error: unsolvable board but every quiet pattern meets it evenly")


def first_row(n: int, m: Optional[int] = None, *, method: str = "auto", threads: Optional[int] = None,
              progress: Progress = None) -> np.ndarray:
    """The presses of the top row that, chased down, clear the all-lit board of n rows and m columns.

    Every all-lit square board is solvable (Sutner, 1989).  When the board has
    several solutions (nullity > 0) the canonical one is returned: the
    lexicographically smallest first row, column 0 first.

    Args:
        n: rows (positive int).
        m: columns (positive int); None for a square board.
        method: "auto" (the polynomial route), "poly" or "dense".
        threads: worker threads for the dense route (default: the usable CPUs).
        progress: optional ``progress(stage, done, total)`` callback for long runs.

    Returns:
        Bool array of length m.

    Raises:
        InvalidTypeError / InvalidBoardError: sizes that are not positive ints, unknown method.
        BoardTooLargeError: the route would need more memory than allowed.
        UnsolvableError: the all-lit n x m board (n != m) cannot be turned dark.

    Examples:
        >>> first_row(3).astype(int).tolist()
        [1, 0, 1]
        >>> import numpy as np
        >>> bool((first_row(50) == first_row(50, method="dense")).all())
        True
    """
    nrows, ncols = grid_shape(n, m)
    method = _route(method_name(method, METHODS))
    threads = thread_count(threads)
    result = _run(method, nrows, ncols, None, threads=threads, progress=progress)
    if not result.solvable:
        raise _unsolvable(result, None)
    assert result.first_row is not None
    return _canonical_first_row(result.first_row, result.quiet_first_rows())


def nullity(n: int, m: Optional[int] = None, *, method: str = "auto") -> int:
    """Dimension of the quiet-pattern space of the n x m board (``m=None``: square).

    A board with nullity k has 2**k solutions when it is solvable, and exactly
    one of every 2**k start states is solvable.

    Examples:
        >>> nullity(5), nullity(4), nullity(5, method="dense")
        (2, 4, 2)
    """
    nrows, ncols = grid_shape(n, m)
    method = _route(method_name(method, METHODS))
    if method == "dense":
        dense_memory(min(nrows, ncols))
        return solve_grid_dense(nrows, ncols).nullity
    poly_memory(max(nrows, ncols))
    return _nullity_poly(nrows, ncols)


def nullity_table(nmax: int, *, progress: Progress = None) -> np.ndarray:
    """Nullities of the n x n boards for n = 1 .. nmax, as an int64 array (index 0 is n = 1).

    Example:
        >>> nullity_table(20).tolist()
        [0, 0, 0, 4, 2, 0, 0, 0, 8, 0, 6, 0, 0, 4, 0, 8, 2, 0, 16, 0]
    """
    nmax = board_size(nmax, "nmax")
    poly_memory(nmax)
    return _nullity_table(nmax, progress)


def solve(board: npt.ArrayLike, *, method: str = "auto", threads: Optional[int] = None,
          progress: Progress = None) -> Solution:
    """Find presses that turn every light of ``board`` off.

    Args:
        board: 2-D array-like of 0/1 or bools (1 = lit), any rectangle.
        method: "auto" (the polynomial route), "poly" or "dense".
        threads: worker threads for the dense route.
        progress: optional ``progress(stage, done, total)`` callback.

    Returns:
        A :class:`Solution` with the canonical presses (see the module docstring).

    Raises:
        UnsolvableError: no presses clear the board; carries a quiet pattern
            that meets the lit cells an odd number of times.
        InvalidBoardError / InvalidTypeError: not a 2-D 0/1 board, unknown method.

    Examples:
        >>> s = solve([[1, 1, 1], [1, 1, 1], [1, 1, 1]])
        >>> s.presses.astype(int).tolist()
        [[1, 0, 1], [0, 1, 0], [1, 0, 1]]
        >>> solve([[1, 0, 0, 0]] * 4)
        Traceback (most recent call last):
        ...
        lightsout.solve.UnsolvableError: this 4 x 4 board cannot be turned dark: ...
    """
    lights = board_array(board)
    method = _route(method_name(method, METHODS))
    threads = thread_count(threads)
    nrows, ncols = lights.shape
    words = pack_rows(lights)
    result = _run(method, nrows, ncols, words, threads=threads, progress=progress)
    if not result.solvable:
        raise _unsolvable(result, lights)
    assert result.first_row is not None
    quiet_first_rows = result.quiet_first_rows()
    first = _canonical_first_row(result.first_row, quiet_first_rows)
    residue, presses, _ = kernel_module("_kernels").chase(words, nrows, ncols, pack_row(first), presses=True)
    if residue.any():
        raise LightsOutError(f"internal error: the {method} route's answer does not clear the board")
    return Solution(lights.copy(), unpack_rows(presses, ncols), result.nullity, method, quiet_first_rows)


def is_solvable(board: npt.ArrayLike, *, method: str = "auto") -> bool:
    """Whether some set of presses turns every light of ``board`` off.

    Examples:
        >>> is_solvable([[1, 1], [1, 1]]), is_solvable([[1, 0, 0, 0]] * 4)
        (True, False)
    """
    lights = board_array(board)
    method = _route(method_name(method, METHODS))
    nrows, ncols = lights.shape
    return _run(method, nrows, ncols, pack_rows(lights), threads=None, progress=None).solvable
