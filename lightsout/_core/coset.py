"""Coset: what every route finds about one board, before the canonical choice.

The solutions of a board form a coset: one solution plus the span of its quiet
patterns (press vectors that change no light).  A route hands back one
:class:`Coset`, and :mod:`lightsout._core.canonical` picks the canonical solution
or the proof of unsolvability from it, for every route alike.

A coset is held in one of two layouts, named by :attr:`Coset.layout`:

* ``"vectors"`` (the N-D, graph and k-state routes): whole press vectors, one
  count per cell (or vertex) in row-major order: ``particular`` and the
  ``kernel`` rows, packed one bit a cell for two states when there are many, or
  made on demand a batch at a time (``kernel_batches``) where they may be large.
* ``"first_rows"`` (the polynomial and dense routes, open 2-D two-state grids):
  every solution of such a board is the chase of its top row, so the coset is
  kept by first rows alone, O(C) memory however many rows: ``first_row`` and the
  quiet basis's first rows (``kernel_first_rows``, or ``kernel_words`` to make
  them on demand), in the orientation the route worked in.  A board of 10^9 x
  10^9 cells has no whole press vector to hold; it has a first row.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Iterator, Optional

import numpy as np

from lightsout._base.packing import pack_rows, unpack_rows
from lightsout._core.orientation import first_column_of_chase

__all__ = ["Coset"]


def _no_rows() -> np.ndarray:
    return np.zeros((0, 0), dtype=np.uint8)


@dataclass(frozen=True)
class Coset:
    """The solutions of one board: ``particular + span(quiet patterns)`` (over Z/k).

    Attributes, every layout:
        solvable: whether any press vector clears the board.
        nullity: the fewest quiet patterns that generate them all (the dimension
            of the quiet space when k is prime).
        count: the exact number of quiet patterns, which is the number of
            solutions when the board is solvable.
        method: the route that found it.
        canonical: the solution held is already the canonical one (the
            lexicographically smallest); in the vectors layout the quiet patterns
            were then not built (the N-D route's ``canonical_nd``).
        proof: when unsolvable, a quiet pattern whose inner product with the
            board is nonzero mod k, if the route found one; else None.

    Layout ``"vectors"``:
        particular: one solution, ``(cells,)`` uint8 with values in 0..k-1,
            cells in row-major order; None when unsolvable.
        kernel: ``(r, cells)`` uint8 generators of the quiet patterns over Z/k
            (a basis when k is prime); when ``packed`` (two states only) the same
            basis as packed rows ``(r, words_for_bits(cells))`` uint64, cell j in
            bit j % 64 of word j // 64.
        packed: whether ``kernel`` holds packed rows.
        kernel_batches: None, or a callable returning an iterator over the quiet
            basis as ``(b, cells)`` uint8 rows, a batch at a time (``kernel`` is
            then empty): the route builds the whole patterns only when asked, and
            a caller looking for one with some property stops early.

    Layout ``"first_rows"`` (when ``grid`` is set):
        grid: ``(nrows, ncols)``, the board in the caller's orientation.
        first_row: bool ``(ncols,)``: the top row of one solution, caller's
            orientation (the canonical one when ``canonical``); None when unsolvable.
        transposed: the route worked on the transpose (ncols > nrows): its
            working board is ``ncols`` rows x ``nrows`` columns.
        kernel_first_rows: None, or ``(nullity, C_work)`` bool, C_work =
            min(nrows, ncols): first rows in the working orientation of a basis of
            the quiet patterns (each chased down the dark working board is one).
        kernel_words: None, or a callable returning an iterator over the same
            basis as packed rows, one at a time, so that a caller looking for one
            basis element with some property stops early.

    Examples:
        >>> import numpy as np
        >>> Coset(True, 1, 2, "nd", particular=np.zeros(3, np.uint8), kernel=np.ones((1, 3), np.uint8)).layout
        'vectors'
        >>> from lightsout._routes.poly import solve_grid_poly
        >>> found = solve_grid_poly(4, 4, kernel=True)
        >>> found.layout, found.grid, found.count, found.first_row.astype(int).tolist()
        ('first_rows', (4, 4), 16, [0, 0, 0, 0])
    """

    solvable: bool
    nullity: int
    count: int
    method: str
    canonical: bool = False
    proof: Optional[np.ndarray] = None
    particular: Optional[np.ndarray] = None
    kernel: np.ndarray = field(default_factory=_no_rows)
    packed: bool = False
    grid: Optional[tuple[int, int]] = None
    first_row: Optional[np.ndarray] = None
    transposed: bool = False
    kernel_first_rows: Optional[np.ndarray] = None
    kernel_words: Optional[Callable[[], Iterator[np.ndarray]]] = None
    kernel_batches: Optional[Callable[[], Iterator[np.ndarray]]] = None

    @property
    def layout(self) -> str:
        """``"first_rows"`` for the 2-D grid routes' coset, else ``"vectors"``."""
        return "vectors" if self.grid is None else "first_rows"

    # -- the vectors layout ------------------------------------------------------------

    def kernel_rows(self, cells: int) -> np.ndarray:
        """The generators as ``(r, cells)`` uint8 rows, unpacking them when ``packed``, making them
        when the route left them to ``kernel_batches``.

        Example:
            >>> r = Coset(True, 1, 2, "nd", particular=np.zeros(3, np.uint8), kernel=np.array([[5]], np.uint64),
            ...           packed=True)
            >>> r.kernel_rows(3).tolist()
            [[1, 0, 1]]
        """
        if self.kernel_batches is not None:
            batches = list(self.kernel_batches())
            return np.concatenate(batches) if batches else np.zeros((0, cells), dtype=np.uint8)
        if not self.packed:
            return self.kernel
        return unpack_rows(self.kernel, cells).view(np.uint8)

    # -- the first-rows layout ---------------------------------------------------------

    @property
    def nrows(self) -> int:
        """Rows of the board (first-rows layout)."""
        return self._grid()[0]

    @property
    def ncols(self) -> int:
        """Columns of the board (first-rows layout)."""
        return self._grid()[1]

    def _grid(self) -> tuple[int, int]:
        if self.grid is None:
            raise ValueError("a coset of whole press vectors has no grid shape")
        return self.grid

    @property
    def working_shape(self) -> tuple[int, int]:
        """(rows, columns) of the orientation the route worked in (columns = the shorter side)."""
        nrows, ncols = self._grid()
        return (ncols, nrows) if self.transposed else (nrows, ncols)

    def working_kernel_rows(self) -> np.ndarray:
        """The quiet-pattern basis first rows in the working orientation: (nullity, C_work) bool."""
        if self.kernel_first_rows is not None:
            return self.kernel_first_rows
        cols = self.working_shape[1]
        if self.nullity == 0:
            return np.zeros((0, cols), dtype=bool)
        if self.kernel_words is None:
            raise ValueError("this coset carries no quiet-pattern basis (ask the route for kernel=True)")
        return unpack_rows(np.array(list(self.kernel_words()), dtype=np.uint64), cols)

    def iter_kernel_words(self) -> Iterator[np.ndarray]:
        """The quiet-pattern basis first rows (working orientation) as packed rows, one at a time."""
        if self.kernel_words is not None:
            return self.kernel_words()
        return iter(pack_rows(self.working_kernel_rows()))

    def quiet_first_rows(self) -> np.ndarray:
        """First rows (caller's orientation) of the quiet-pattern basis: (nullity, ncols) bool.

        Without a transpose these are ``kernel_first_rows``; with one, each is the
        first column of the working quiet pattern (one chase).

        Example:
            >>> from lightsout._routes.poly import solve_grid_poly
            >>> solve_grid_poly(4, 4, kernel=True).quiet_first_rows().shape
            (4, 4)
        """
        rows = self.working_kernel_rows()
        if not self.transposed:
            return rows.copy()
        nrows, ncols = self._grid()
        out = np.zeros((self.nullity, ncols), dtype=bool)
        for i, row in enumerate(rows):
            out[i] = first_column_of_chase(None, ncols, nrows, row, all_lit=False)
        return out
