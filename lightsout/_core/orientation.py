"""Working on the transpose: both routes solve the board with its shorter side as the columns.

When the caller's board is wider than tall (C > R), a route works on the
transpose (C rows x R columns), whose quiet patterns and solutions are the
transposes of the caller's.  Two helpers move between the orientations:
``transpose_packed`` for a packed board, and ``first_column_of_chase`` for a
solution, whose first column in the working orientation is the caller's first
row.  Neither builds an R x C press matrix.
"""
from __future__ import annotations

from typing import Optional

import numpy as np

from lightsout._base.packing import pack_rows, unpack_rows, words_for_bits
from lightsout._base.types import Progress
from lightsout import _kernels as kernels

__all__ = ["transpose_packed", "first_column_of_chase"]


def transpose_packed(board: np.ndarray, nrows: int, ncols: int) -> np.ndarray:
    """(nrows, words(ncols)) packed board -> (ncols, words(nrows)) packed transpose.

    Goes a slab of columns at a time, so the unpacked bytes stay near 16 MB.

    Example:
        >>> transpose_packed(np.array([[0b011]], dtype=np.uint64), 1, 3).ravel().tolist()
        [1, 1, 0]
    """
    out = np.zeros((ncols, words_for_bits(nrows)), dtype=np.uint64)
    slab_words = max(1, (1 << 24) // (64 * nrows))
    for w0 in range(0, board.shape[1], slab_words):
        w1 = min(board.shape[1], w0 + slab_words)
        c0, c1 = 64 * w0, min(ncols, 64 * w1)
        bits = unpack_rows(np.ascontiguousarray(board[:, w0:w1]), c1 - c0)
        out[c0:c1] = pack_rows(bits.T)
    return out


def first_column_of_chase(board: Optional[np.ndarray], nrows: int, ncols: int, first_row: np.ndarray,
                          *, all_lit: bool = True, progress: Progress = None) -> np.ndarray:
    """Column 0 of the presses found by chasing ``board`` from ``first_row``: bool, length nrows.

    When a route works on the transpose of the caller's board, this column is
    the caller's first row.  ``first_row`` is a bool array or packed words;
    ``board=None`` is the all-lit board (``all_lit=True``) or the dark one.
    O(ncols) words of memory (the chase kernel's ``first_column`` option).

    Example:
        >>> first_column_of_chase(None, 3, 3, np.array([1, 0, 1], dtype=bool)).astype(int).tolist()
        [1, 0, 1]
    """
    words = first_row if first_row.dtype == np.uint64 else pack_rows(first_row[None, :])[0]
    _, _, column = kernels.chase.chase(board, nrows, ncols, words, all_lit=all_lit,
                                                   first_column=True, progress=progress)
    assert column is not None
    return np.asarray(column, dtype=bool)
