"""GridResult: what a route (polynomial or dense) found out about one R x C board."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Iterator, Optional

import numpy as np

from lightsout._base.packing import pack_rows, unpack_rows
from lightsout._core.orientation import first_column_of_chase

__all__ = ["GridResult"]


@dataclass(frozen=True)
class GridResult:
    """What a route found for an ``nrows`` x ``ncols`` board.

    Attributes:
        nrows, ncols: the board size, in the caller's (original) orientation.
        solvable: whether some set of presses turns every light off.
        nullity: dimension of the quiet-pattern space (2**nullity solutions when solvable).
        first_row: bool array of length ``ncols``: the presses of the board's top row in
            one solution, original orientation (the canonical one when ``canonical``,
            else the route's own choice, which callers canonicalise).  None when not solvable.
        transposed: True when the route worked on the transpose (ncols > nrows), so the
            working orientation is ``ncols`` rows x ``nrows`` columns.
        kernel_first_rows: None unless the route was asked for the kernel.  A
            (nullity, C_work) bool array, C_work = min(nrows, ncols): first rows, in the
            WORKING orientation, of a basis of the quiet patterns (each chased down the
            dark working board is one quiet pattern; transpose back if ``transposed``).
            :meth:`quiet_first_rows` gives them in the original orientation.
        kernel_words: None, or a callable returning an iterator over the same basis
            (working orientation) as packed rows, one at a time, so that a caller
            looking for one basis element with some property stops early; a route
            that can produce the basis cheaply on demand sets it even without the kernel.
        canonical: ``first_row`` is already the lexicographically smallest solution's.
    """

    nrows: int
    ncols: int
    solvable: bool
    nullity: int
    first_row: Optional[np.ndarray]
    transposed: bool = False
    kernel_first_rows: Optional[np.ndarray] = None
    kernel_words: Optional[Callable[[], Iterator[np.ndarray]]] = None
    canonical: bool = False

    @property
    def working_shape(self) -> tuple[int, int]:
        """(rows, columns) of the orientation the route worked in (columns = the shorter side)."""
        return (self.ncols, self.nrows) if self.transposed else (self.nrows, self.ncols)

    def working_kernel_rows(self) -> np.ndarray:
        """The quiet-pattern basis first rows in the working orientation: (nullity, C_work) bool."""
        if self.kernel_first_rows is not None:
            return self.kernel_first_rows
        cols = self.working_shape[1]
        if self.nullity == 0:
            return np.zeros((0, cols), dtype=bool)
        if self.kernel_words is None:
            raise ValueError("this result carries no quiet-pattern basis (ask the route for kernel=True)")
        return unpack_rows(np.array(list(self.kernel_words()), dtype=np.uint64), cols)

    def iter_kernel_words(self) -> Iterator[np.ndarray]:
        """The quiet-pattern basis first rows (working orientation) as packed rows, one at a time."""
        if self.kernel_words is not None:
            return self.kernel_words()
        return iter(pack_rows(self.working_kernel_rows()))

    def quiet_first_rows(self) -> np.ndarray:
        """First rows (original orientation) of the quiet-pattern basis: (nullity, ncols) bool.

        Needs the kernel.  Without a transpose these are ``kernel_first_rows``;
        with one, each is the first column of the working quiet pattern (one chase).

        Example:
            >>> from lightsout._routes.poly import solve_grid_poly
            >>> solve_grid_poly(4, 4, kernel=True).quiet_first_rows().shape
            (4, 4)
        """
        rows = self.working_kernel_rows()
        if not self.transposed:
            return rows.copy()
        out = np.zeros((self.nullity, self.ncols), dtype=bool)
        for i, row in enumerate(rows):
            out[i] = first_column_of_chase(None, self.ncols, self.nrows, row, all_lit=False)
        return out
