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
from lightsout._io.boardmarks import (FREE_MARK, HOLE_MARK, MARKS, MARKS_HELP, UNPRESSABLE_MARK, MarkedBoard,
                                      mask_or_none)

__all__ = ["LIT_CHARS", "DARK_CHARS", "COMMENT", "board_from_text", "marked_board_from_text", "format_board"]

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
            from ``!`` to the end of a line are ignored.  The marks of the board
            masks (``~``, ``/``, ``'``) are refused here: :func:`marked_board_from_text`
            reads them.
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
        >>> board_from_text("1 ~", source=None)
        Traceback (most recent call last):
        ...
        lightsout.InvalidBoardError: line 1, column 3: '~' is a mark of the board masks (...); read them with masks=True ...
    """
    return _parse(text, states, source, columns, states_hint, False).lights


def marked_board_from_text(text: str, states: int = 2, source: Optional[str] = "board text", *,
                           columns: bool = True, states_hint: str = STATES_HINT) -> MarkedBoard:
    """Parse board text with the marks of the board masks (see :mod:`lightsout._io.boardmarks`).

    ``~`` is a hole (its light reads as 0), a light followed by ``/`` may not be
    pressed, by ``'`` need not end dark (both: ``1/'``).  A mask is None when no
    cell has its mark.  Arguments as :func:`board_from_text`'s.

    Example:
        >>> marked = marked_board_from_text("#/ . ~\\n.' #/' .")
        >>> marked.lights.astype(int).tolist(), marked.unpressable.astype(int).tolist()
        ([[1, 0, 0], [0, 1, 0]], [[1, 0, 0], [0, 1, 0]])
        >>> marked_board_from_text("1 0\\n1 ~/", source="b.txt")
        Traceback (most recent call last):
        ...
        lightsout.InvalidBoardError: b.txt, line 2, column 4: a hole ('~') takes no mark: ...
        >>> marked_board_from_text("10", source=None).holes is None
        True
    """
    return _parse(text, states, source, columns, states_hint, True)


#: A cell's mark bits while parsing.
_HOLE, _UNPRESSABLE, _FREE = 1, 2, 4
_MARK_BITS = {UNPRESSABLE_MARK: _UNPRESSABLE, FREE_MARK: _FREE}


def _parse(text: str, states: int, source: Optional[str], columns: bool, states_hint: str,
           marks: bool) -> MarkedBoard:
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

    def refuse_mark(lineno: int, column: int, cell: int, char: str) -> None:
        raise InvalidBoardError(f"{prefix}line {lineno}, {place(column, cell)}: {char!r} is a mark of the board "
                                f"masks ({MARKS_HELP}); read them with masks=True (read_board, parse_board) or "
                                "the command line")

    def mark_error(lineno: int, column: int, cell: int, char: str, flags: list[int]) -> InvalidBoardError:
        if not flags:
            what = f"the mark {char!r} follows no light: it comes right after the light it marks"
        elif flags[-1] & _HOLE:
            what = f"a hole ({HOLE_MARK!r}) takes no mark: it is neither a light nor a button"
        else:
            what = f"the mark {char!r} is given twice to one light"
        return InvalidBoardError(f"{prefix}line {lineno}, {place(column, cell)}: {what}; {MARKS_HELP}")

    rows: list[list[int]] = []
    mark_rows: list[Optional[list[int]]] = []   # None: a row without marks
    first_line = 0
    for lineno, line in enumerate(text.splitlines(), 1):
        body = line.split(COMMENT, 1)[0]
        values: list[int] = []
        flags: list[int] = []
        if states > 10:
            column = 0
            for token in body.split():
                column = body.index(token, column) + 1
                light = token.rstrip(UNPRESSABLE_MARK + FREE_MARK) if marks else token
                if marks and token.startswith(HOLE_MARK):
                    if len(token) > 1:
                        raise InvalidBoardError(f"{prefix}line {lineno}, {place(column, len(values) + 1)}: "
                                                f"{token[:12]!r}: a hole is {HOLE_MARK!r} alone; {MARKS_HELP}")
                    values.append(0)
                    flags.append(_HOLE)
                    column += len(token) - 1
                    continue
                cell_flags = 0
                for offset, char in enumerate(token[len(light):]):
                    if not light or cell_flags & _MARK_BITS[char]:
                        raise mark_error(lineno, column + len(light) + offset, len(values) + 1, char,
                                         flags + [cell_flags] if light else [])
                    cell_flags |= _MARK_BITS[char]
                if not marks and any(char in MARKS for char in token):
                    at = next(i for i, char in enumerate(token) if char in MARKS)
                    refuse_mark(lineno, column + at, len(values) + 1, token[at])
                # at most three digits after leading zeros (a state is below 256): int() of a long
                # digit string is slow and, past 4300 digits, refused by Python itself
                number = light.isdecimal() and len(light.lstrip("0")) <= 3
                value = symbols.get(light, int(light) if number else None)
                if value is None or value >= states:
                    shown = token if len(token) <= 12 else f"{token[:8]}... ({len(token)} characters)"
                    raise InvalidBoardError(
                        f"{prefix}line {lineno}, {place(column, len(values) + 1)}: {shown!r} is not a light state "
                        f"0..{states - 1}; with more than 10 states write each row as numbers separated by spaces "
                        f"({DARK_CHARS!r} and {LIT_CHARS!r} also read as 0 and 1"
                        + (f"; {MARKS_HELP}" if marks else "") + ")")
                values.append(value)
                flags.append(cell_flags)
                column += len(token) - 1
        elif marks and any(char in body for char in MARKS):
            for column, char in enumerate(body, 1):
                if char.isspace() or char == "\ufeff":
                    continue
                if char in _MARK_BITS:
                    if not flags or flags[-1] & (_HOLE | _MARK_BITS[char]):
                        raise mark_error(lineno, column, len(values), char, flags)
                    flags[-1] |= _MARK_BITS[char]
                    continue
                found = 0 if char == HOLE_MARK else symbols.get(char)
                if found is None:
                    raise _bad_character(f"{prefix}line {lineno}, {place(column, len(values) + 1)}", char, states,
                                         accepted)
                values.append(found)
                flags.append(_HOLE if char == HOLE_MARK else 0)
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
                        if char in MARKS:
                            refuse_mark(lineno, column, len(values) + 1, char)
                        raise _bad_character(f"{prefix}line {lineno}, {place(column, len(values) + 1)}", char,
                                             states, accepted)
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
        mark_rows.append(flags if any(flags) else None)
    if not rows:
        raise InvalidBoardError(f"{source or 'the board text'}: no rows (only blank lines and comments)")
    out = np.array(rows, dtype=np.uint8)
    lights = out.astype(bool) if states == 2 else out
    if not marks or all(marked is None for marked in mark_rows):
        return MarkedBoard(lights)
    bits = np.zeros(out.shape, dtype=np.uint8)
    for row, marked in enumerate(mark_rows):
        if marked is not None:
            bits[row] = marked

    def mask(bit: int) -> Optional[np.ndarray]:
        found = (bits & bit).astype(bool)
        return found if found.any() else None

    return MarkedBoard(lights, mask(_HOLE), mask(_UNPRESSABLE), mask(_FREE))


def _bad_character(where: str, char: str, states: int, accepted: str) -> InvalidBoardError:
    what = f"light state {char} is out of range 0..{states - 1}" if char.isdigit() else f"unexpected character {char!r}"
    return InvalidBoardError(f"{where}: {what}; {accepted}")


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


def format_board(board: npt.ArrayLike, lit: str = "1", dark: str = "0", *, states: Optional[int] = None,
                 holes: Optional[npt.ArrayLike] = None, unpressable: Optional[npt.ArrayLike] = None,
                 free_lights: Optional[npt.ArrayLike] = None) -> str:
    """Write a 2-D board one row per line (the inverse of :func:`parse_board`).

    ``lit`` and ``dark`` are single characters that :func:`parse_board` reads
    back: one of ``1#*xXoO`` and one of ``0.-_``.  With
    ``states=k`` (k > 2) other states are written as digits, or for k > 10 as
    numbers separated by spaces.  ``states=None`` (the default) takes the
    fewest states that hold the board's values: 2 for 0/1, and k = the largest
    value + 1 for the light states or press counts of a k-state board (the
    text reads back with ``states=`` that number: digits up to 10 states, numbers
    separated by spaces beyond).

    The masks ``holes``, ``unpressable`` and ``free_lights`` (bools of the board's
    shape) are written with their marks, cells then separated by spaces: ``~`` a
    hole (its light is not written: it reads back as 0), a light followed by ``/``
    may not be pressed, by ``'`` need not end dark; ``masks=True`` reads them back.

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
        >>> print(format_board([[1, 0, 1], [0, 1, 0]], holes=[[0, 0, 1], [0, 0, 0]],
        ...                    unpressable=[[1, 0, 0], [0, 1, 0]], free_lights=[[0, 0, 0], [1, 1, 0]]))
        1/  0   ~
        0'  1/' 0
    """
    lit = cell_symbol(lit, "lit", LIT_CHARS)
    dark = cell_symbol(dark, "dark", DARK_CHARS)
    states = fewest_states(board) if states is None else states_count(states)
    cells = board_values(board, states)
    if cells.ndim != 2:
        raise InvalidBoardError(f"format_board writes 2-D boards, got shape {cells.shape}")
    given = {"holes": holes, "unpressable": unpressable, "free_lights": free_lights}
    masks = {name: mask_or_none(mask, name, cells.shape, "format_board") for name, mask in given.items()}
    if any(mask is not None for mask in masks.values()):
        return _format_marked(cells, lit, dark, states, masks)
    if states > 10:
        return "\n".join(" ".join(str(int(c)) for c in row) for row in cells)
    # One byte per cell: map the states to their characters with one table lookup.
    table = np.frombuffer((dark + lit + "".join(str(d) for d in range(2, states))).encode("ascii"), dtype=np.uint8)
    lines = np.empty((cells.shape[0], cells.shape[1] + 1), dtype=np.uint8)
    lines[:, :-1] = table[cells.astype(np.intp)]
    lines[:, -1] = ord("\n")
    return lines.tobytes()[:-1].decode("ascii")


def _format_marked(cells: np.ndarray, lit: str, dark: str, states: int, masks: dict[str, Optional[np.ndarray]]) -> str:
    """Board text with the masks' marks, a cell a token, the tokens padded to one width."""
    names = [dark, lit] + [str(d) for d in range(2, states)]
    tokens = np.array(names, dtype=object)[cells.astype(np.intp)]
    for name, mark in (("unpressable", UNPRESSABLE_MARK), ("free_lights", FREE_MARK)):
        mask = masks[name]
        if mask is not None:
            tokens[mask] = tokens[mask] + mark
    if masks["holes"] is not None:
        tokens[masks["holes"]] = HOLE_MARK
    width = max(len(token) for token in tokens.ravel())
    return "\n".join(" ".join(token.ljust(width) for token in row).rstrip() for row in tokens)
