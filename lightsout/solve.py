"""Solving grid boards: first_row, nullity, solve, is_solvable.

Two routes compute the same answers (and the tests hold them to it):

* ``method="poly"``: the polynomial route (docs/algebra.md sections 2-4),
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
from typing import Optional

import numpy as np
import numpy.typing as npt

from lightsout import board as _board
from lightsout._denseroute import solve_grid_dense
from lightsout._dispatch import kernel_module
from lightsout._errors import BoardTooLargeError, LightsOutError
from lightsout._gridresult import GridResult
from lightsout._orientation import first_column_of_chase, transpose_packed
from lightsout._packing import pack_row, pack_rows, unpack_rows, words_for_bits
from lightsout._polyroute import nullity_poly as _nullity_poly
from lightsout._polyroute import nullity_table as _nullity_table
from lightsout._polyroute import solve_grid_poly
from lightsout._types import Progress
from lightsout._validate import (
    board_array, board_size, dense_limits, grid_shape, method_name, poly_memory, progress_callback, thread_count,
)

__all__ = ["first_row", "nullity", "nullity_table", "solve", "is_solvable", "Solution", "UnsolvableError",
           "METHODS"]

METHODS = ("auto", "poly", "dense")
#: Most cells an error or :meth:`Solution.quiet_patterns` materialises as quiet
#: patterns (bool, one byte a cell): 10**8, 100 MB.
MAX_PATTERN_CELLS = 10**8


class UnsolvableError(LightsOutError, ValueError):
    """The board cannot be turned dark.

    Attributes:
        quiet_pattern: a quiet pattern (a set of presses that changes no light)
            covering an odd number of the board's lit cells, bool array of the
            board's shape; it proves the board unsolvable, since every
            solvable board meets every quiet pattern an even number of times.
            None for boards over ``MAX_PATTERN_CELLS`` cells.
        quiet_first_row: the first row of that quiet pattern (chasing it down
            the dark board rebuilds the pattern).
        nullity: dimension of the board's quiet-pattern space.

    The error pickles and copies with its attributes (every argument but the
    message is a keyword with a default, as ``BaseException.__reduce__`` needs).
    """

    def __init__(self, message: str = "the board cannot be turned dark",
                 quiet_pattern: Optional[np.ndarray] = None,
                 quiet_first_row: Optional[np.ndarray] = None, nullity: int = 0) -> None:
        super().__init__(message)
        self._quiet_pattern = quiet_pattern
        self._packed_pattern: Optional[tuple[np.ndarray, int, bool]] = None
        self.quiet_first_row = quiet_first_row
        self.nullity = nullity

    @property
    def quiet_pattern(self) -> Optional[np.ndarray]:
        """The obstructing quiet pattern (bool, the board's shape), unpacked on first access."""
        if self._quiet_pattern is None and self._packed_pattern is not None:
            presses, cols, transposed = self._packed_pattern
            pattern = unpack_rows(presses, cols)
            self._quiet_pattern = np.ascontiguousarray(pattern.T) if transposed else pattern
            self._packed_pattern = None
        return self._quiet_pattern

    @quiet_pattern.setter
    def quiet_pattern(self, value: Optional[np.ndarray]) -> None:
        self._quiet_pattern, self._packed_pattern = value, None


@dataclass(frozen=True, eq=False, repr=False)
class Solution:
    """A way to turn a board dark, with what is known about all the others.

    Attributes:
        board: the start state (bool, R x C; 1 = lit).
        presses: the canonical solution (bool, R x C; 1 = press that cell).
        nullity: dimension of the quiet-pattern space; the board has
            ``count = 2**nullity`` solutions, ``presses`` plus any sum of
            quiet patterns.
        method: the route that found it ("poly" or "dense").
        quiet_first_rows: (nullity, C) bool, first rows of a basis of the
            quiet patterns (see :meth:`quiet_patterns`).

    Example:
        >>> s = solve([[1, 1, 0], [1, 0, 0], [0, 0, 0]])
        >>> s.presses.astype(int).tolist(), s.count, s.verify()
        ([[1, 0, 0], [0, 0, 0], [0, 0, 0]], 1, True)
        >>> s
        Solution(shape=(3, 3), presses=1, nullity=0, method='poly')
    """

    board: np.ndarray
    presses: np.ndarray
    nullity: int
    method: str
    quiet_first_rows: np.ndarray = field(repr=False)

    def __repr__(self) -> str:
        rows, cols = self.board.shape
        return (f"Solution(shape=({rows}, {cols}), presses={int(np.count_nonzero(self.presses))}, "
                f"nullity={self.nullity}, method={self.method!r})")

    __str__ = __repr__

    @property
    def first_row(self) -> np.ndarray:
        """Presses of the top row (bool, length C); chasing the lights down from it gives ``presses``."""
        row: np.ndarray = self.presses[0].copy()
        return row

    @property
    def count(self) -> int:
        """Number of distinct solutions, an exact Python int (2**nullity)."""
        return 1 << self.nullity

    def quiet_patterns(self) -> np.ndarray:
        """A basis of the quiet patterns: (nullity, R, C) bool; each changes no light.

        Refuses (BoardTooLargeError) to build more than ``MAX_PATTERN_CELLS``
        cells; ``quiet_first_rows`` holds the same basis in O(nullity * C).

        Example:
            >>> solve(np.ones((4, 4), dtype=bool)).quiet_patterns().shape
            (4, 4, 4)
        """
        nrows, ncols = self.board.shape
        cells = len(self.quiet_first_rows) * nrows * ncols
        if cells > MAX_PATTERN_CELLS:
            raise BoardTooLargeError(
                f"{len(self.quiet_first_rows)} quiet patterns of {nrows} x {ncols} cells are {cells:.3g} cells, "
                f"over the limit of {MAX_PATTERN_CELLS:.3g}; chase single rows of .quiet_first_rows "
                f"down the dark board (lightsout.chase) instead")
        return _quiet_patterns(self.board.shape, self.quiet_first_rows)

    def verify(self) -> bool:
        """True when replaying ``presses`` on ``board`` turns every light off."""
        return not _board.press(self.board, self.presses).any()


def _route(method: str) -> str:
    return "poly" if method == "auto" else method


def _run(method: str, nrows: int, ncols: int, board_words: Optional[np.ndarray], *,
         threads: Optional[int], progress: Progress, kernel: bool) -> GridResult:
    """Run a route; ``kernel``: the caller needs the quiet-pattern basis of a solvable board.

    The polynomial route always returns the basis lazily (``kernel_words``), so
    only the dense route is asked to build it.
    """
    if method == "dense":
        dense_limits(nrows, ncols, board_words is not None)
        return solve_grid_dense(nrows, ncols, board_words, kernel=kernel, threads=threads, progress=progress)
    poly_memory(max(nrows, ncols))
    return solve_grid_poly(nrows, ncols, board_words, progress=progress)


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


def _quiet_pattern(nrows: int, ncols: int, first: np.ndarray) -> np.ndarray:
    """The quiet pattern (bool, nrows x ncols) whose first row is ``first``: one chase of the dark board."""
    _, presses, _ = kernel_module("_kernels").chase(None, nrows, ncols, pack_row(first), all_lit=False,
                                                    presses=True)
    assert presses is not None
    return unpack_rows(presses, ncols)


def _quiet_patterns(shape: tuple[int, int], quiet_first_rows: np.ndarray) -> np.ndarray:
    nrows, ncols = shape
    out = np.zeros((len(quiet_first_rows), nrows, ncols), dtype=bool)
    for i, row in enumerate(quiet_first_rows):
        out[i] = _quiet_pattern(nrows, ncols, row)
    return out


def _overlap_functional(board_words: Optional[np.ndarray], rows: int, cols: int) -> np.ndarray:
    """The packed row w with |P_q & board| = <q, w> (mod 2) for the quiet pattern P_q of every first row q.

    The chase of the dark board from q presses row k with M_k q, where M_1 = I,
    M_2 = T and M_{k+1} = T M_k + M_{k-1} (T symmetric).  So the overlap parity
    is <q, w> with w = sum_k M_k b_k, and Clenshaw's backward recurrence
    y_k = b_k + T y_{k+1} + y_{k+2}, w = y_1, is the chase of the board read
    bottom row first, from first row 0: w is that chase's residue.  One chase,
    and no pattern, for any number of first rows.
    """
    flipped = None if board_words is None else np.ascontiguousarray(board_words[::-1])
    zero = np.zeros(words_for_bits(cols), dtype=np.uint64)
    w, _, _ = kernel_module("_kernels").chase(flipped, rows, cols, zero)
    return w


def _count_bits(words: np.ndarray) -> int:
    """Number of set bits in a packed array."""
    if hasattr(np, "bitwise_count"):  # numpy >= 2.0
        return int(np.bitwise_count(words).sum())
    return int(np.count_nonzero(np.unpackbits(np.ascontiguousarray(words).view(np.uint8))))


def _odd_parity(words: np.ndarray) -> bool:
    folded = int(np.bitwise_xor.reduce(words, initial=np.uint64(0)))
    return bin(folded).count("1") % 2 == 1


def _unsolvable(result: GridResult, board_words: Optional[np.ndarray],
                lights: Optional[np.ndarray]) -> UnsolvableError:
    """An UnsolvableError carrying a quiet pattern that meets the lit cells an odd number of times.

    Works from first-row data: one chase gives the overlap functional w (see
    :func:`_overlap_functional`), the basis first rows are tried in packed
    form until one has odd <q, w> (usually the first or second), and only that
    one pattern is built.
    """
    nrows, ncols = result.nrows, result.ncols
    rows, cols = result.working_shape
    size = f"{nrows} x {ncols}"
    what = "the all-lit" if lights is None else "this"
    work = board_words
    if result.transposed and board_words is not None:
        work = transpose_packed(board_words, nrows, ncols)
    w = _overlap_functional(work, rows, cols)
    q = next((v for v in result.iter_kernel_words() if _odd_parity(v & w)), None)
    if q is None:
        raise LightsOutError("internal error: unsolvable board but every quiet pattern meets it evenly")
    if nrows * ncols > MAX_PATTERN_CELLS:
        if result.transposed:
            first = first_column_of_chase(None, rows, cols, q, all_lit=False)
        else:
            first = unpack_rows(q[None, :], cols)[0]
        return UnsolvableError(
            f"{what} {size} board cannot be turned dark (nullity {result.nullity}): the quiet pattern "
            f"whose first row is .quiet_first_row (pressing it changes no light) covers an odd number "
            f"of lit cells; the board is too large to build that pattern",
            None, first, result.nullity)
    _, presses, _ = kernel_module("_kernels").chase(None, rows, cols, q, all_lit=False, presses=True)
    assert presses is not None
    if result.transposed:  # the caller's first row is the working pattern's first column
        first = (presses[:, 0] & np.uint64(1)).astype(bool)
    else:
        first = unpack_rows(presses[:1], cols)[0]
    hits = _count_bits(presses if work is None else presses & work)
    error = UnsolvableError(
        f"{what} {size} board cannot be turned dark: the quiet pattern in .quiet_pattern "
        f"(pressing it changes no light) covers {hits} lit cells, an odd number, and every "
        f"solvable board meets every quiet pattern an even number of times",
        None, first, result.nullity)
    error._packed_pattern = (presses, cols, result.transposed)  # unpacked when first read
    return error


def first_row(n: int, m: Optional[int] = None, *, method: str = "auto", threads: Optional[int] = None,
              progress: Progress = None) -> np.ndarray:
    """The presses of the top row that, chased down, clear the all-lit board of n rows and m columns.

    Every all-lit board, square or not, is solvable (Sutner, 1989: on any
    graph, pressing can turn the all-lit state dark, since the all-ones vector
    lies in the image of A + I; docs/algebra.md section 6), so this returns a
    row for every size it accepts.  When the board has several solutions (nullity > 0) the canonical
    one is returned: the lexicographically smallest first row, column 0 first.

    Args:
        n: rows (positive int).
        m: columns (positive int); None for a square board.
        method: "auto" (the polynomial route), "poly" or "dense".
        threads: worker threads for the dense route (default: the usable CPUs).
        progress: optional ``progress(stage, done, total)`` callback for long runs.

    Returns:
        Bool array of length m.

    Raises:
        InvalidTypeError / InvalidBoardError: sizes that are not positive ints,
            unknown method, a progress that is not callable.
        BoardTooLargeError: the route would need more memory or time than allowed
            (the dense route refuses long before the polynomial one).

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
    progress_callback(progress)
    result = _run(method, nrows, ncols, None, threads=threads, progress=progress, kernel=True)
    if not result.solvable or result.first_row is None:  # Sutner: cannot happen
        raise LightsOutError(f"internal error: the {method} route found the all-lit {nrows} x {ncols} "
                             "board unsolvable, contradicting Sutner's theorem")
    return _canonical_first_row(result.first_row, result.quiet_first_rows())


def nullity(n: int, m: Optional[int] = None, *, method: str = "auto", threads: Optional[int] = None) -> int:
    """Dimension of the quiet-pattern space of the n x m board (``m=None``: square).

    A board with nullity k has 2**k solutions when it is solvable, and exactly
    one of every 2**k start states is solvable.  ``threads`` is used by the
    dense route (the polynomial route runs on one thread).

    Examples:
        >>> nullity(5), nullity(4), nullity(5, method="dense")
        (2, 4, 2)
    """
    nrows, ncols = grid_shape(n, m)
    method = _route(method_name(method, METHODS))
    threads = thread_count(threads)
    if method == "dense":
        dense_limits(nrows, ncols)
        return solve_grid_dense(nrows, ncols, threads=threads).nullity
    poly_memory(max(nrows, ncols))
    return _nullity_poly(nrows, ncols)


def nullity_table(nmax: int, *, progress: Progress = None) -> np.ndarray:
    """Nullities of the n x n boards for n = 1 .. nmax, as an int64 array (index 0 is n = 1).

    Example:
        >>> nullity_table(20).tolist()
        [0, 0, 0, 4, 2, 0, 0, 0, 8, 0, 6, 0, 0, 4, 0, 8, 2, 0, 16, 0]
    """
    nmax = board_size(nmax, "nmax")
    progress_callback(progress)
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
            that meets the lit cells an odd number of times (found from
            first-row data: costs one more chase, builds one pattern).
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
    progress_callback(progress)
    nrows, ncols = lights.shape
    words = pack_rows(lights)
    result = _run(method, nrows, ncols, words, threads=threads, progress=progress, kernel=True)
    if not result.solvable:
        raise _unsolvable(result, words, lights)
    assert result.first_row is not None
    quiet_first_rows = result.quiet_first_rows()
    first = _canonical_first_row(result.first_row, quiet_first_rows)
    residue, presses, _ = kernel_module("_kernels").chase(words, nrows, ncols, pack_row(first), presses=True)
    if residue.any() or presses is None:
        raise LightsOutError(f"internal error: the {method} route's answer does not clear the board")
    return Solution(lights.copy(), unpack_rows(presses, ncols), result.nullity, method, quiet_first_rows)


def is_solvable(board: npt.ArrayLike, *, method: str = "auto", threads: Optional[int] = None) -> bool:
    """Whether some set of presses turns every light of ``board`` off.

    ``threads`` is used by the dense route, as in :func:`solve`.

    Examples:
        >>> is_solvable([[1, 1], [1, 1]]), is_solvable([[1, 0, 0, 0]] * 4)
        (True, False)
    """
    lights = board_array(board)
    method = _route(method_name(method, METHODS))
    threads = thread_count(threads)
    nrows, ncols = lights.shape
    return _run(method, nrows, ncols, pack_rows(lights), threads=threads, progress=None, kernel=False).solvable
