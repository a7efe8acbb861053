"""Board text: the cell symbols, the one parser and the writer.

:func:`lightsout.parse_board` reads text through :func:`board_from_text` naming a mistake's
place by its cell in the row; :func:`lightsout.read_board` and the command line name it by
its character column (tabs and spaces included, so that an editor's cursor finds it) after
the file's name.  :func:`format_board` writes what the parser reads back.

Example:
    >>> board = board_from_text("#.#\\n.#.   ! a comment")
    >>> print(format_board(board, lit="#", dark="."))
    #.#
    .#.
"""
from __future__ import annotations

from typing import Optional

import numpy as np
import numpy.typing as npt

from lightsout._base.errors import InvalidBoardError
from lightsout._base.validate import MAX_BOARD_CELLS, MAX_STATES, board_values, cell_symbol, numeric_array, states_count

__all__ = ["LIT_CHARS", "DARK_CHARS", "COMMENT", "board_from_text", "format_board"]

#: Characters read as a lit / dark cell.
LIT_CHARS = "1#*xXoO"
DARK_CHARS = "0.-_"
#: Comment mark of board text: from it to the end of the line is ignored.  The
#: same mark as the Game of Life's plaintext format (``!`` comments, ``O`` and
#: ``.`` cells), and no cell symbol, so a comment can never be read as cells.
COMMENT = "!"

#: What a file reader adds to the accepted symbols for two states: how to ask for more.
STATES_HINT = ", --states K for K states"


def board_from_text(text: str, states: int = 2, source: Optional[str] = "board text", *, columns: bool = True,
                    states_hint: str = STATES_HINT) -> np.ndarray:
    """Parse board text: the first mistake is refused naming ``source``, the line and the place.

    Args:
        text: one row per line; any of ``1#*xXoO`` lit, any of ``0.-_`` dark, digits
            0..k-1 with k states (numbers separated by spaces beyond 10 states);
            spaces, tabs, blank lines, a leading byte order mark and everything
            from ``!`` to the end of a line are ignored.
        states: the number of light states k (2..255).
        source: named first in every message (a file's name); None names the line alone.
        columns: name a mistake's place by its character column, counted from 1;
            False: by its cell in the row.
        states_hint: said after the accepted symbols when k = 2.

    Returns:
        A 2-D bool array for two states, uint8 otherwise.

    Example:
        >>> board_from_text("1 0\\n0 1").astype(int).tolist()
        [[1, 0], [0, 1]]
        >>> board_from_text("10\\n1?", source="b.txt")
        Traceback (most recent call last):
        ...
        lightsout.InvalidBoardError: b.txt, line 2, column 2: unexpected character '?'; ...
        >>> board_from_text("1 0\\n1 ?", source=None, columns=False)
        Traceback (most recent call last):
        ...
        lightsout.InvalidBoardError: line 2, cell 2: unexpected character '?'; ...
    """
    states = states_count(states)
    text = text[1:] if text.startswith("\ufeff") else text
    symbols = {c: 1 for c in LIT_CHARS}
    symbols.update({c: 0 for c in DARK_CHARS})
    symbols.update({str(d): d for d in range(min(states, 10))})
    accepted = (f"use {LIT_CHARS!r} for lit and {DARK_CHARS!r} for dark cells"
                + (f", digits 0..{states - 1} for light states" if states > 2 else states_hint)
                + f", {COMMENT!r} to start a comment")
    prefix = f"{source}, " if source else ""

    def place(column: int, cell: int) -> str:
        return f"column {column}" if columns else f"cell {cell}"

    rows: list[list[int]] = []
    first_line = 0
    for lineno, line in enumerate(text.splitlines(), 1):
        body = line.split(COMMENT, 1)[0]
        values: list[int] = []
        if states > 10:
            column = 0
            for token in body.split():
                column = body.index(token, column) + 1
                # at most three digits after leading zeros (a state is below 256): int() of a long
                # digit string is slow and, past 4300 digits, refused by Python itself
                number = token.isdecimal() and len(token.lstrip("0")) <= 3
                value = symbols.get(token, int(token) if number else None)
                if value is None or value >= states:
                    shown = token if len(token) <= 12 else f"{token[:8]}... ({len(token)} characters)"
                    raise InvalidBoardError(
                        f"{prefix}line {lineno}, {place(column, len(values) + 1)}: {shown!r} is not a light state "
                        f"0..{states - 1}; with more than 10 states write each row as numbers separated by spaces "
                        f"({DARK_CHARS!r} and {LIT_CHARS!r} also read as 0 and 1)")
                values.append(value)
                column += len(token) - 1
        else:
            cells = "".join(body.split()).replace("\ufeff", "")
            try:
                values = [symbols[char] for char in cells]
            except KeyError:  # find the first bad character again, with its column, for the message
                values = []
                for column, char in enumerate(body, 1):
                    if char.isspace() or char == "\ufeff":
                        continue
                    found = symbols.get(char)
                    if found is None:
                        what = (f"light state {char} is out of range 0..{states - 1}" if char.isdigit()
                                else f"unexpected character {char!r}")
                        raise InvalidBoardError(f"{prefix}line {lineno}, {place(column, len(values) + 1)}: "
                                                f"{what}; {accepted}") from None
                    values.append(found)
        if not values:
            continue
        if rows and len(values) != len(rows[0]):
            raise InvalidBoardError(
                f"{prefix}line {lineno}: {len(values)} cell{'s' if len(values) != 1 else ''}, but line {first_line} "
                f"has {len(rows[0])}: rows of different widths; a board is rectangular")
        if not rows:
            first_line = lineno
        rows.append(values)
    if not rows:
        raise InvalidBoardError(f"{source or 'the board text'}: no rows (only blank lines and comments)")
    out = np.array(rows, dtype=np.uint8)
    return out.astype(bool) if states == 2 else out


def fewest_states(board: npt.ArrayLike) -> int:
    """The fewest light states that hold a board's values: 2 for 0/1 (or bools), else the largest + 1.

    Values that no number of states holds (negative, fractional, past 254)
    give 2, so that the two-state check refuses them saying which.

    Example:
        >>> fewest_states([[0, 1]]), fewest_states([[0, 4]]), fewest_states([[0.5]])
        (2, 5, 2)
    """
    values = numeric_array(board, "board", f"an array of light states 0..{MAX_STATES - 1}")
    if values.dtype.kind == "b" or values.size == 0 or values.size > MAX_BOARD_CELLS:
        return 2  # (past the cell limit: the board's own check refuses it, before any pass over it)
    low, high = values.min(), values.max()
    if low < 0 or not 1 < high < MAX_STATES or (values.dtype.kind == "f" and not np.array_equal(values,
                                                                                               np.floor(values))):
        return 2
    return int(high) + 1


def format_board(board: npt.ArrayLike, lit: str = "1", dark: str = "0", *, states: Optional[int] = None) -> str:
    """Write a 2-D board one row per line (the inverse of :func:`parse_board`).

    ``lit`` and ``dark`` are single characters that :func:`parse_board` reads
    back: one of ``1#*xXoO`` and one of ``0.-_``.  With
    ``states=k`` (k > 2) other states are written as digits, or for k > 10 as
    numbers separated by spaces.  ``states=None`` (the default) takes the
    fewest states that hold the board's values: 2 for 0/1, and k = the largest
    value + 1 for the light states or press counts of a k-state board (the
    text reads back with ``states=`` that number: digits up to 10 states, numbers
    separated by spaces beyond).

    Examples:
        >>> from lightsout import format_board
        >>> print(format_board([[1, 0], [0, 1]], lit="#", dark="."))
        #.
        .#
        >>> print(format_board([[2, 0], [1, 1]], dark=".", states=3))
        2.
        11
        >>> print(format_board([[2, 0], [1, 1]]))        # the presses of a 3-state solution, say
        20
        11
    """
    lit = cell_symbol(lit, "lit", LIT_CHARS)
    dark = cell_symbol(dark, "dark", DARK_CHARS)
    states = fewest_states(board) if states is None else states_count(states)
    cells = board_values(board, states)
    if cells.ndim != 2:
        raise InvalidBoardError(f"format_board writes 2-D boards, got shape {cells.shape}")
    if states > 10:
        return "\n".join(" ".join(str(int(c)) for c in row) for row in cells)
    # One byte per cell: map the states to their characters with one table lookup.
    table = np.frombuffer((dark + lit + "".join(str(d) for d in range(2, states))).encode("ascii"), dtype=np.uint8)
    lines = np.empty((cells.shape[0], cells.shape[1] + 1), dtype=np.uint8)
    lines[:, :-1] = table[cells.astype(np.intp)]
    lines[:, -1] = ord("\n")
    return lines.tobytes()[:-1].decode("ascii")
