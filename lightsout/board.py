"""Boards: pressing cells, chasing lights down, reading and writing boards as text."""
from __future__ import annotations

import numpy as np
import numpy.typing as npt

from lightsout._dispatch import kernel_module
from lightsout._errors import InvalidBoardError, InvalidTypeError
from lightsout._packing import pack_row, pack_rows, unpack_rows
from lightsout._validate import board_array, board_cells, bit_row, cell_symbol, grid_shape

__all__ = ["press", "chase", "all_lit", "parse_board", "format_board", "LIT_CHARS", "DARK_CHARS", "COMMENT"]

#: Characters read as a lit / dark cell by :func:`parse_board`.
LIT_CHARS = "1#*xXoO"
DARK_CHARS = "0.-_"
#: Comment mark of board text: from it to the end of the line is ignored.  The
#: same mark as the Game of Life's plaintext format (``!`` comments, ``O`` and
#: ``.`` cells), and no cell symbol, so a comment can never be read as cells.
COMMENT = "!"


def press(board: npt.ArrayLike, presses: npt.ArrayLike) -> np.ndarray:
    """The board after pressing every cell marked in ``presses``.

    A press toggles its cell and the orthogonal neighbours on the board; order
    does not matter and pressing twice undoes it.

    Args:
        board: 2-D array of 0/1 or bools, 1 = lit.
        presses: same shape, 1 = press that cell.

    Returns:
        A new bool array of the board's shape.

    Raises:
        InvalidBoardError: shapes differ or values are not 0/1.

    Example:
        >>> press([[0, 0, 0], [0, 0, 0]], [[1, 0, 0], [0, 0, 0]]).astype(int).tolist()
        [[1, 1, 0], [1, 0, 0]]
    """
    lights = board_array(board)
    hits = board_array(presses, "presses")
    if lights.shape != hits.shape:
        raise InvalidBoardError(f"presses has shape {hits.shape} but the board has shape {lights.shape}")
    out: np.ndarray = lights ^ hits
    out[1:] ^= hits[:-1]
    out[:-1] ^= hits[1:]
    out[:, 1:] ^= hits[:, :-1]
    out[:, :-1] ^= hits[:, 1:]
    return out


def chase(board: npt.ArrayLike, first_row: npt.ArrayLike) -> np.ndarray:
    """Presses found by chasing the lights down from the presses of the top row.

    Row 1 gets ``first_row``; every later row presses exactly below the lights
    still on in the row above, so every row but the last ends dark.  The board
    is solved iff ``press(board, chase(board, first_row))`` is all dark.

    Args:
        board: 2-D array of 0/1 or bools, 1 = lit.
        first_row: 1-D, one 0/1 per column.

    Returns:
        Bool press matrix of the board's shape.

    Example:
        >>> chase([[1, 1, 1]] * 3, [1, 0, 1]).astype(int).tolist()
        [[1, 0, 1], [0, 1, 0], [1, 0, 1]]
    """
    lights = board_array(board)
    nrows, ncols = lights.shape
    row = bit_row(first_row, "first_row", ncols)
    _, presses, _ = kernel_module("_kernels").chase(pack_rows(lights), nrows, ncols, pack_row(row), presses=True)
    assert presses is not None
    return unpack_rows(presses, ncols)


def all_lit(n: int, m: int | None = None) -> np.ndarray:
    """The n x m board with every light on (``m=None``: square).

    Raises BoardTooLargeError above ``lightsout._validate.MAX_BOARD_CELLS``
    (2**32) cells; the solving functions take the all-lit board by its size
    (``first_row(n, m)``) and never build it.

    Example:
        >>> all_lit(2, 3).astype(int).tolist()
        [[1, 1, 1], [1, 1, 1]]
    """
    rows, cols = grid_shape(n, m)
    board_cells(rows, cols, "all_lit")
    return np.ones((rows, cols), dtype=bool)


def parse_board(text: str) -> np.ndarray:
    """Read a board written one row per line: ``1 # * x X o O`` lit, ``0 . - _`` dark.

    Spaces, tabs and blank lines are ignored, as is everything from ``!`` (the
    comment mark, :data:`COMMENT`) to the end of a line, and a leading UTF-8
    byte order mark; every row must have the same width.

    Example:
        >>> parse_board('''
        ... ! a comment
        ... #.#
        ... .#.   ! the middle row
        ... ''').astype(int).tolist()
        [[1, 0, 1], [0, 1, 0]]
    """
    if not isinstance(text, str):
        raise InvalidTypeError(f"parse_board expects a str, got {type(text).__name__}")
    text = text[1:] if text.startswith("\ufeff") else text
    rows = []
    for lineno, line in enumerate(text.splitlines(), 1):
        cells = line.split(COMMENT, 1)[0].replace(" ", "").replace("\t", "")
        if not cells:
            continue
        bad = sorted(set(cells) - set(LIT_CHARS + DARK_CHARS))
        if bad:
            raise InvalidBoardError(
                f"line {lineno}: unexpected character(s) {''.join(bad)!r}; "
                f"use {LIT_CHARS!r} for lit and {DARK_CHARS!r} for dark cells, {COMMENT!r} to start a comment"
            )
        rows.append([c in LIT_CHARS for c in cells])
    if not rows:
        raise InvalidBoardError("the board text has no rows")
    widths = {len(r) for r in rows}
    if len(widths) != 1:
        raise InvalidBoardError(f"rows have different widths {sorted(widths)}; a board must be rectangular")
    return np.array(rows, dtype=bool)


def format_board(board: npt.ArrayLike, lit: str = "1", dark: str = "0") -> str:
    """Write a board one row per line (the inverse of :func:`parse_board`).

    ``lit`` and ``dark`` are single characters that :func:`parse_board` reads
    back: one of :data:`LIT_CHARS` and one of :data:`DARK_CHARS`.

    Example:
        >>> print(format_board([[1, 0], [0, 1]], lit="#", dark="."))
        #.
        .#
    """
    lit = cell_symbol(lit, "lit", LIT_CHARS)
    dark = cell_symbol(dark, "dark", DARK_CHARS)
    cells = board_array(board)
    return "\n".join("".join(lit if c else dark for c in row) for row in cells)
