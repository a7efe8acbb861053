"""Boards: pressing cells, chasing lights down, reading and writing boards as text."""
from __future__ import annotations

import math
from typing import Literal, NamedTuple, Optional, Sequence, Union, overload

import numpy as np
import numpy.typing as npt

from lightsout._base.errors import InvalidBoardError, InvalidTypeError
from lightsout._base.packing import pack_row, pack_rows, unpack_rows
from lightsout._base.validate import (
    board_cells, board_values, bit_row, grid_shape, numeric_array, states_count,
)
from lightsout._core.rules import Rules, neighbour_pairs, shifted_slices
from lightsout._core.stencil import Stencil
from lightsout._io.boardmarks import MarkedBoard
from lightsout._io.boardtext import COMMENT, DARK_CHARS, LIT_CHARS, board_from_text, format_board, marked_board_from_text
from lightsout import _kernels as kernels
from lightsout._routes.nd import chase_nd
from lightsout._version import DISTRIBUTION as _DISTRIBUTION  # marks this file as lightsout-gf2's (see _import_help)

#: A ``torus=`` argument: one bool for every axis, or one per axis.
TorusArg = Union[bool, Sequence[bool]]
#: A ``stencil=`` argument: None (today's rule), a Stencil, a stencil's name, or an array of weights.
StencilArg = Union[None, Stencil, str, npt.ArrayLike]

__all__ = ["press", "chase", "all_lit", "parse_board", "format_board", "LIT_CHARS", "DARK_CHARS", "COMMENT"]



def press(board: npt.ArrayLike, presses: npt.ArrayLike, *, torus: TorusArg = False, self_toggle: bool = True,
          states: int = 2, stencil: StencilArg = None, holes: Optional[npt.ArrayLike] = None,
          unpressable: Optional[npt.ArrayLike] = None, free_lights: Optional[npt.ArrayLike] = None) -> np.ndarray:
    """The board after pressing every cell marked in ``presses``.

    A press adds 1 (mod ``states``; with two states: toggles) to its cell and
    to the cells one step away along every axis; order does not matter.  With
    a ``stencil``, pressing cell p adds ``weights[i]`` (mod k) to the cell
    ``p + (i - centre)`` for every index i of the weights: a target past an open
    edge is dropped, a wrapping axis wraps it (each target on its own: on a
    wrapping axis shorter than the stencil, two weights may land on one cell,
    and both are added).  A hole is neither a light nor a button: its value is
    left as it is.

    Args:
        board: array of any number of axes with light states 0..states-1
            (0/1 or bools for two states), or board text (:func:`parse_board`).
        presses: same shape: how many times to press each cell (0/1 for two states).
        torus: True/False, or one bool per axis: that axis wraps around.
            Neighbours form a set, so a wrapping axis of length 1 or 2 acts
            like an open one.
        self_toggle: False for the sigma game, where a press skips its own cell.
        states: number of light states k, 2..255.
        stencil: None for today's rule, or the press stencil (a
            :class:`lightsout.Stencil`, a name, or an array of weights), as for
            :func:`lightsout.solve`.
        holes: None, or a bool array of the board's shape: cells that are not
            part of the board (pressing one is refused; its value is kept).
        unpressable: None, or a bool array of the board's shape: cells that may
            not be pressed (pressing one is refused).
        free_lights: accepted as for :func:`lightsout.solve`; a free light
            changes like any other.

    Returns:
        A new array of the board's shape: bool for two states, uint8 otherwise.

    Raises:
        InvalidBoardError: shapes differ or values are out of range, a press on
            a hole or an unpressable cell.

    Examples:
        >>> from lightsout import press
        >>> press([[0, 0, 0], [0, 0, 0]], [[1, 0, 0], [0, 0, 0]]).astype(int).tolist()
        [[1, 1, 0], [1, 0, 0]]
        >>> press([0, 0, 0, 0], [1, 0, 0, 0], torus=True, states=3).tolist()
        [1, 1, 0, 1]
        >>> press([[0, 0, 0], [0, 0, 0]], [[0, 1, 0], [0, 0, 0]], stencil="x").astype(int).tolist()
        [[0, 1, 0], [1, 0, 1]]
    """
    states = states_count(states)
    lights = as_board(board, states)
    hits = as_board(presses, states, "presses")
    if lights.shape != hits.shape:
        raise InvalidBoardError(f"presses has shape {hits.shape} but the board has shape {lights.shape}")
    rules = Rules.check(lights.shape, torus, self_toggle, states, stencil, holes, unpressable, free_lights)
    return press_checked(lights, hits, rules)


def press_checked(lights: np.ndarray, hits: np.ndarray, rules: Rules) -> np.ndarray:
    """:func:`press` for a board and presses checked against ``rules`` (the library's own callers).

    Example:
        >>> press_checked(np.zeros(3, bool), np.array([1, 0, 0], bool), Rules.check((3,), stencil=[0, 1, 1])).tolist()
        [True, True, False]
    """
    if not rules.is_classic:
        return _press_stencil(lights, hits, rules)
    states = rules.states
    wraps, self_toggle = rules.wraps, rules.self_toggle
    if states == 2:
        out: np.ndarray = lights ^ hits if self_toggle else lights.copy()
        for axis, (size, wrap) in enumerate(zip(lights.shape, wraps)):
            for low, high in neighbour_pairs(axis, lights.ndim, size, wrap):
                out[low] ^= hits[high]
        return out
    total = lights.astype(np.int32) + (hits if self_toggle else 0)
    for axis, (size, wrap) in enumerate(zip(lights.shape, wraps)):
        for low, high in neighbour_pairs(axis, lights.ndim, size, wrap):
            total[low] += hits[high]
    return (total % states).astype(np.uint8)


def _press_stencil(lights: np.ndarray, hits: np.ndarray, rules: Rules) -> np.ndarray:
    """Presses under any stencil and masks: every weight's shifted copy of the presses added, mod k."""
    pressable = rules.pressable_cells()
    if hits[~pressable].any():
        cell = tuple(int(i) for i in np.argwhere(hits & ~pressable if hits.dtype == bool else
                                                 (hits != 0) & ~pressable)[0])
        what = "a hole" if rules.holes is not None and rules.holes[cell] else "a cell that may not be pressed"
        raise InvalidBoardError(f"presses press cell {cell}, {what}: press only cells of the board "
                                "outside holes= and unpressable=")
    states = rules.states
    pairs = [(weight, shifted_slices(offset, rules.shape, rules.stencil_wraps))
             for offset, weight in rules.press_stencil.offsets() if weight % states]
    if states == 2:  # XOR of slices in place: no temporary of the board's size
        flips = hits.astype(bool)
        out: np.ndarray = lights.astype(bool)
        for _, slices in pairs:
            for target, source in slices:
                out[target] ^= flips[source]
    else:  # sums mod k in 16 bits, reduced after each weight (a weight < k adds < k * k to a value < k)
        counts = hits.astype(np.uint16) % states
        out = lights.astype(np.uint16) % states
        for weight, slices in pairs:
            for target, source in slices:
                out[target] += counts[source] * np.uint16(weight)
            np.remainder(out, states, out=out)
        out = out.astype(np.uint8)
    if rules.holes is not None:
        out[rules.holes] = np.asarray(lights)[rules.holes]
    return out


def shifted(values: np.ndarray, offset: Sequence[int], wraps: Sequence[bool]) -> np.ndarray:
    """``values`` moved by ``offset`` (a step along each axis): entry j lands on j + offset, around a wrapping
    axis wrapped, past an open edge dropped (the cells left behind are 0).

    Example:
        >>> shifted(np.array([[1, 2, 3], [4, 5, 6]]), (1, -1), (False, True)).tolist()
        [[0, 0, 0], [2, 3, 1]]
    """
    out = np.zeros_like(values)
    for target, source in shifted_slices(tuple(offset), values.shape, tuple(wraps)):
        out[target] = values[source]
    return out


def chase(board: npt.ArrayLike, first_row: npt.ArrayLike, *, torus: TorusArg = False, self_toggle: bool = True,
          states: int = 2, stencil: StencilArg = None) -> np.ndarray:
    """Presses found by chasing the lights down from the presses of the top row (slice 0 of axis 0).

    Row 1 gets ``first_row``; every later row presses exactly below the lights
    still on in the row above (with k states: as often as it takes to bring
    that light to 0), so every row but the last ends dark.  The board is
    solved iff ``press(board, chase(board, first_row))`` is all dark.  On a
    board of more axes the rows are the slices along axis 0.  When axis 0
    wraps (and is longer than 2) the top row also depends on the bottom one,
    so ``first_row`` must then give the presses of the first two rows.

    Args:
        board: array of any number of axes (light states 0..states-1) or board text.
        first_row: presses of row 0, shape ``board.shape[1:]`` (a single
            value for a 1-D board), or of rows 0 and 1 (shape
            ``(2,) + board.shape[1:]``) when axis 0 wraps.
        torus: True/False, or one bool per axis: that axis wraps around.
        self_toggle: False for the sigma game, where a press skips its own cell.
        states: number of light states k, 2..255.
        stencil: None for today's rule, or a press stencil (a :class:`lightsout.Stencil`,
            a name, or an array of weights, as for :func:`lightsout.solve`) whose slice
            farthest above the pressed cell along axis 0, r rows above it, holds one
            weight, invertible mod k: the press r rows below a light is the last to reach
            it, so every light of row i forces the press of row i + r (its weight's inverse
            times what the light needs).  ``first_row`` then gives the presses of the top
            r rows: shape ``board.shape[1:]`` when r is 1, ``(r,) + board.shape[1:]``
            otherwise; when axis 0 wraps, the top r + b rows, b the stencil's reach below
            the pressed cell (the first lights are reached from the bottom rows too).

    Returns:
        Press array of the board's shape: bool for two states, uint8 otherwise.

    Raises:
        InvalidBoardError: a first_row of the wrong shape or values; a stencil whose rows
            do not chase down (say which is wrong: nothing above the pressed cell, two
            cells or a weight not invertible mod k in its top slice, an entry that leaves
            cells of an open edge forced by no light); a wrapping axis shorter than the
            stencil along it; a board with fewer rows than the chase is given.

    Examples:
        >>> from lightsout import chase
        >>> chase([[1, 1, 1]] * 3, [1, 0, 1]).astype(int).tolist()
        [[1, 0, 1], [0, 1, 0], [1, 0, 1]]
        >>> chase([2, 0, 0], 0, states=3).tolist()
        [0, 1, 2]
        >>> import numpy as np
        >>> from lightsout import Stencil, press
        >>> plus2 = Stencil.named("plus", radius=2)          # r = 2: the top two rows are given
        >>> presses = chase(np.ones((5, 5)), [[1, 0, 0, 0, 1], [0, 0, 0, 0, 0]], stencil=plus2)
        >>> press(np.ones((5, 5)), presses, stencil=plus2).any(axis=1).tolist()   # lit rows: only the last two
        [False, False, False, True, True]
    """
    states = states_count(states)
    lights = as_board(board, states)
    rules = Rules.check(lights.shape, torus, self_toggle, states, stencil)
    if rules.stencil is not None:
        return _chase_stencil_rows(lights, first_row, rules)
    if rules.is_plain_grid:
        nrows, ncols = lights.shape
        row = bit_row(first_row, "first_row", ncols)
        _, presses, _ = kernels.chase.chase(pack_rows(lights), nrows, ncols, pack_row(row),
                                                        presses=True)
        assert presses is not None
        return unpack_rows(presses, ncols)

    seeds = 2 if rules.wraps[0] and lights.shape[0] > 2 else 1
    want = ((2,) if seeds == 2 else ()) + lights.shape[1:]
    raw = numeric_array(first_row, "first_row", f"an array of shape {want} of press counts")
    first = board_values(raw if want else raw.reshape(-1), states, "first_row")
    if first.shape != (want or (1,)):
        raise InvalidBoardError(
            f"first_row must have shape {want} for a board of shape {lights.shape}"
            + (" (the presses of rows 0 and 1, since axis 0 wraps)" if seeds == 2 else "")
            + f", got shape {raw.shape}")
    first = first.reshape(want)
    out, _ = chase_nd(rules, np.ascontiguousarray(lights, dtype=np.uint8), np.array(first, dtype=np.uint8, order="C"))
    return out.astype(bool) if states == 2 else out


class RowChase(NamedTuple):
    """How the rows of a board chase down under its press rule (see :func:`row_chase`).

    Attributes:
        depth: r, how far above the pressed cell the stencil's top slice along axis 0
            lies: a light of row i forces the press of row i + r.
        step: the offset of that slice's one weight along the other axes.
        inverse: the inverse of that weight mod k.
        seeds: the rows of presses a chase is given: r, and when axis 0 wraps also the
            stencil's reach below the pressed cell.
    """

    depth: int
    step: tuple[int, ...]
    inverse: int
    seeds: int


def row_chase(rules: Rules, solve_hint: str) -> RowChase:
    """How the rows of a board chase down, or an InvalidBoardError saying why they do not.

    The press ``(q, j)`` is forced by the light ``(q - r, j + step)``, the one light it
    reaches last, for every row q >= r; the top r rows then determine every press.  With
    masks, each pressable cell below the top r rows must be forced by a required light.
    ``solve_hint`` is what the message proposes instead.

    Example:
        >>> row_chase(Rules.check((5, 5), torus=(False, True), stencil=[[0, 0, 2], [0, 1, 1], [1, 0, 0]], states=3), "")
        RowChase(depth=1, step=(1,), inverse=2, seeds=1)
    """
    stencil, states = rules.press_stencil, rules.states
    offsets = stencil.offsets()
    top = min(offset[0] for offset, _ in offsets)
    bottom = max(offset[0] for offset, _ in offsets)
    accepted = ("its rows chase down when its slice farthest above the pressed cell along axis 0 (r >= 1 rows "
                "above it) holds one weight, invertible mod k: that press is the last to reach the light r rows "
                "above it, so each light forces one press")
    if top >= 0:
        raise InvalidBoardError(f"the stencil has no weight above the pressed cell along axis 0, so no light forces "
                                f"a press below it; {accepted}; {solve_hint}")
    first = [(offset, weight) for offset, weight in offsets if offset[0] == top]
    if len(first) > 1:
        raise InvalidBoardError(f"the stencil's top slice ({-top} above the pressed cell) holds {len(first)} weights, "
                                f"so a light is reached last by {len(first)} presses and forces none; {accepted}; "
                                f"{solve_hint}")
    (offset, weight), = first
    if math.gcd(weight, states) != 1:
        raise InvalidBoardError(f"the stencil's top slice holds the weight {weight}, which has no inverse mod "
                                f"{states}, so a light cannot say how often to press; {accepted}; {solve_hint}")
    depth, step = -top, tuple(offset[1:])
    if rules.shape[0] < depth:
        raise InvalidBoardError(f"the board has {rules.shape[0]} rows, fewer than the {depth} top rows the stencil's "
                                f"chase starts from; {solve_hint}")
    _refuse_loose_presses(rules, depth, step, solve_hint)
    seeds = depth + (max(bottom, 0) if rules.wraps[0] else 0)
    return RowChase(depth, step, pow(weight, -1, states), seeds)


def _refuse_loose_presses(rules: Rules, depth: int, step: tuple[int, ...], solve_hint: str) -> None:
    """Refuse a board where a pressable cell below the top ``depth`` rows is forced by no light: the light it
    reaches last, at ``-depth`` rows and ``step`` along the other axes, is off an open edge, a hole or free."""
    if all(mask is None for mask in rules.masks()):  # decided without building a board
        if rules.shape[0] == depth or not any(s and not wrap for s, wrap in zip(step, rules.wraps[1:])):
            return  # every press below the top rows has its light, and every light is required
        cell = (depth,) + tuple(size - 1 if s > 0 and not wrap else 0
                                for s, size, wrap in zip(step, rules.shape[1:], rules.wraps[1:]))
    else:
        forced = shifted(rules.required_lights(), (depth,) + tuple(-s for s in step), (False,) + rules.wraps[1:])
        loose = rules.pressable_cells() & ~forced
        loose[:depth] = False
        if not loose.any():
            return
        cell = tuple(int(i) for i in np.argwhere(loose)[0])
    light = (cell[0] - depth,) + tuple((c + s) % size if wrap else c + s for c, s, size, wrap
                                       in zip(cell[1:], step, rules.shape[1:], rules.wraps[1:]))
    if any(not 0 <= i < size for i, size in zip(light, rules.shape)):
        why = "is off the board"
    elif rules.holes is not None and rules.holes[light]:
        why = "is a hole"
    else:
        why = "is a free light"
    raise InvalidBoardError(f"the press at cell {cell} is forced by no light (the light at {light}, the one it "
                            f"reaches last, {why}), so the top rows do not determine the board; {solve_hint}")


def _chase_stencil_rows(lights: np.ndarray, first_rows: npt.ArrayLike, rules: Rules) -> np.ndarray:
    """:func:`chase` under a stencil: the given top rows, then each row forced by the lights it reaches last."""
    hint = "solve the board with lightsout.solve(board, stencil=...) instead"
    for axis, (size, wrap, reach) in enumerate(zip(rules.shape, rules.wraps, rules.press_stencil.weights.shape)):
        if wrap and size < reach:
            raise InvalidBoardError(f"axis {axis} wraps with length {size}, shorter than the stencil ({reach}) along "
                                    f"it, so two weights of one press may meet on a cell and the chase declines it; "
                                    f"{hint}")
    plan = row_chase(rules, hint)
    nrows, states = rules.shape[0], rules.states
    if nrows < plan.seeds:
        raise InvalidBoardError(f"the board has {nrows} rows, fewer than the {plan.seeds} rows of presses the chase "
                                f"starts from; {hint}")
    want = ((plan.seeds,) if plan.seeds > 1 else ()) + lights.shape[1:]
    raw = numeric_array(first_rows, "first_row", f"an array of shape {want} of press counts")
    first = board_values(raw if want else raw.reshape(-1), states, "first_row")
    if first.shape != (want or (1,)):
        raise InvalidBoardError(f"first_row must have shape {want} for a board of shape {lights.shape} (the presses "
                                f"of the top {plan.seeds} rows the chase starts from), got shape {raw.shape}")
    presses = np.zeros(rules.shape, dtype=np.int64)
    presses[:plan.seeds] = first.reshape((plan.seeds,) + lights.shape[1:])
    state = lights.astype(np.int64)
    offsets = rules.press_stencil.offsets()
    inner_wraps = rules.wraps[1:]

    def add_row(row: int) -> None:
        for offset, weight in offsets:
            target = row + offset[0]
            if rules.wraps[0]:
                target %= nrows
            elif not 0 <= target < nrows:
                continue
            state[target] = (state[target] + weight * shifted(presses[row], offset[1:], inner_wraps)) % states

    for row in range(plan.seeds):
        add_row(row)
    back = tuple(-s for s in plan.step)
    for row in range(plan.seeds, nrows):
        need = shifted(state[row - plan.depth], back, inner_wraps)  # the light each press reaches last
        presses[row] = (-need * plan.inverse) % states
        add_row(row)
    return presses.astype(bool) if states == 2 else presses.astype(np.uint8)


def as_board(board: object, states: int = 2, name: str = "board") -> np.ndarray:
    """A board argument as an array: text is read by :func:`parse_board`, anything else checked.

    Example:
        >>> as_board("#.\\n.#").astype(int).tolist()
        [[1, 0], [0, 1]]
    """
    if isinstance(board, str):
        return parse_board(board, states=states)
    return board_values(board, states, name)  # type: ignore[arg-type]


def all_lit(n: int, m: int | None = None) -> np.ndarray:
    """The n x m board with every light on (``m=None``: square), a bool array.

    The solving functions of the all-lit board take it by its size
    (:func:`lightsout.first_row`, :func:`lightsout.fewest_presses`) and never
    build it, so they go far past the size this can build.

    Args:
        n: rows (positive int).
        m: columns (positive int); None for a square board.

    Raises:
        BoardTooLargeError: more than ``lightsout.limits.MAX_BOARD_CELLS``
            (2**32) cells.

    Example:
        >>> from lightsout import all_lit
        >>> all_lit(2, 3).astype(int).tolist()
        [[1, 1, 1], [1, 1, 1]]
    """
    rows, cols = grid_shape(n, m)
    board_cells(rows, cols, "all_lit")
    return np.ones((rows, cols), dtype=bool)


@overload
def parse_board(text: str, *, states: int = ..., masks: Literal[False] = ...) -> np.ndarray: ...
@overload
def parse_board(text: str, *, states: int = ..., masks: Literal[True]) -> MarkedBoard: ...
@overload
def parse_board(text: str, *, states: int = ..., masks: bool) -> Union[np.ndarray, MarkedBoard]: ...


def parse_board(text: str, *, states: int = 2, masks: bool = False) -> Union[np.ndarray, MarkedBoard]:
    """Read a board written one row per line: any of ``1#*xXoO`` lit, any of ``0.-_`` dark.

    Spaces, tabs and blank lines are ignored, as is everything from ``!`` (the
    comment mark) to the end of a line, and a leading UTF-8
    byte order mark; every row must have the same width.  With ``states=k``
    a cell may also be a digit 0..k-1; with more than 10 states every row is
    written as numbers separated by spaces.

    With ``masks=True`` the text may also hold the marks of the board masks:
    ``~`` a hole (not part of the board), a light followed by ``/`` one that may
    not be pressed, by ``'`` one that need not end dark (both: ``1/'``); without
    it they are refused.

    Returns:
        A 2-D bool array for two states, uint8 otherwise; with ``masks=True`` a
        ``MarkedBoard`` (``lights``, ``holes``, ``unpressable``, ``free_lights``,
        each mask None when no cell has its mark; ``.masks()`` gives them as
        :func:`lightsout.solve`'s keywords).

    Examples:
        >>> from lightsout import parse_board
        >>> parse_board('''
        ... ! a comment
        ... #.#
        ... .#.   ! the middle row
        ... ''').astype(int).tolist()
        [[1, 0, 1], [0, 1, 0]]
        >>> parse_board("0 12\\n3 .", states=16).tolist()
        [[0, 12], [3, 0]]
        >>> marked = parse_board("#/ . ~\\n.  # .'", masks=True)
        >>> marked.lights.astype(int).tolist(), marked.holes.astype(int).tolist()
        ([[1, 0, 0], [0, 1, 0]], [[0, 0, 1], [0, 0, 0]])
        >>> marked.unpressable.astype(int).tolist(), marked.free_lights.astype(int).tolist()
        ([[1, 0, 0], [0, 0, 0]], [[0, 0, 0], [0, 0, 1]])
    """
    if not isinstance(text, str):
        raise InvalidTypeError(f"parse_board expects a str, got {type(text).__name__}")
    if masks:
        return marked_board_from_text(text, states, None, columns=False, states_hint=", states=K for K states")
    return board_from_text(text, states, None, columns=False, states_hint=", states=K for K states")
