"""The presses that clear an all-lit board, chased down band by band in packed rows.

Given the presses of the first row, every later row's presses follow (press below
every light still on).  This walks them a band of rows at a time with the packed
chase kernel, so memory stays at one band (``BAND_WORDS`` words) whatever the
board's height: the picture of a 10**5 x 10**5 solution and the press count of a
nullity-0 board both come from here without the whole board.
"""
from __future__ import annotations

from typing import Iterator

import numpy as np
import numpy.typing as npt

from lightsout._base.errors import InternalError
from lightsout._base.packing import count_bits, pack_row, words_for_bits
from lightsout import _kernels as kernels

__all__ = ["BAND_WORDS", "all_lit_press_bands", "all_lit_press_count"]

#: Words of one band of rows (4 MiB).
BAND_WORDS = 1 << 19


def all_lit_press_bands(nrows: int, ncols: int, first: npt.ArrayLike) -> Iterator[tuple[int, np.ndarray]]:
    """``(first row index, packed presses)`` of each band of the all-lit board, top to bottom.

    ``first`` is the first row's presses (0/1, ``ncols`` long).  After the last band
    the residue is checked: presses that do not clear the board raise InternalError
    (an internal error: the first row was wrong).  Each band array is reused by the
    next step only after it was yielded, so a consumer may keep it.

    Example:
        >>> [(start, band.ravel().tolist()) for start, band in all_lit_press_bands(3, 3, [1, 0, 1])]
        [(0, [5, 2, 5])]
    """
    chase = kernels.chase
    nwords = words_for_bits(ncols)
    band = max(1, min(nrows, BAND_WORDS // nwords))
    tail = np.uint64(0xFFFFFFFFFFFFFFFF) if ncols % 64 == 0 else np.uint64((1 << (ncols % 64)) - 1)
    lit = np.full((band, nwords), np.uint64(0xFFFFFFFFFFFFFFFF), dtype=np.uint64)
    lit[:, -1] = tail
    above = np.zeros(nwords, dtype=np.uint64)  # presses of the row above the band
    current = pack_row(np.asarray(first, dtype=bool))  # presses of the band's first row
    for start in range(0, nrows, band):
        height = min(band, nrows - start)
        board = lit[:height].copy()
        board[0] ^= above  # the row above toggled the band's first row
        residue, presses, _ = chase.chase(board, height, ncols, current, presses=True)
        assert presses is not None
        yield start, presses
        above, current = presses[-1].copy(), residue
    if current.any():  # the residue below the last row: the board is not dark
        raise InternalError(f"the first row does not clear the all-lit {nrows} x {ncols} board")


def all_lit_press_count(nrows: int, ncols: int, first: npt.ArrayLike) -> int:
    """How many presses clear the all-lit board from the given first row (chased, one band in memory).

    Example:
        >>> all_lit_press_count(3, 3, [1, 0, 1])
        5
    """
    return sum(count_bits(presses) for _, presses in all_lit_press_bands(nrows, ncols, first))
