"""The general grid route: any press stencil, any masks, k states, wrapping axes, any number of axes.

It writes the board's system out whole and eliminates it: for every required light v
(not a hole, not a free light) one equation ``b[v] + sum of A[v, p] x[p] == 0 (mod k)``
over the pressable cells p (not a hole, not unpressable), where ``A[v, p]`` is what a press
at p adds to v (the sum of the stencil's weights that land on v: on a wrapping axis shorter
than the stencil two of them may).  The equations go to the project's one GF(2) solver
(``lightsout/_core/gf2system.py``) for two states and to ``lightsout/_core/modring.py``
over Z/k, which give one solution and the presses that change no required light (the right
kernel, on the pressable cells).

A stencil that is not symmetric makes A not symmetric, so a quiet pattern no longer proves
a board unsolvable.  The proof here is the left kernel's (``lightsout/_core/sparsesystem.py``,
which writes the system out and solves it): a weighting y of the required lights with
``y A == 0 (mod k)`` on every pressable column (no allowed press changes the weighted sum)
and ``y . b != 0`` (the board's weighted sum is not 0).

Costs: R x P bytes (R required lights, P pressable cells) while writing the system, an
eighth of it packed for two states, and O(R P min(R, P)) operations, 64 at a time for two
states.  :func:`refuse_general` refuses, before anything is allocated, a system above
``MAX_GENERAL_BYTES`` or work above ``MAX_GENERAL_WORD_OPS``.  The fast routes for stencils
(light chasing, where the stencil allows it) come before this one in ``method="auto"``'s
order; this one takes every grid board.

Example:
    >>> from lightsout._core.rules import Rules
    >>> rules = Rules.check((1, 4), stencil=[[1, 1, 0]])        # a press changes its cell and the one left of it
    >>> found = solve_general(rules, np.array([[1, 0, 0, 1]], dtype=np.uint8))
    >>> found.solvable, found.particular.tolist(), found.nullity
    (True, [0, 1, 1, 1], 0)
"""
from __future__ import annotations

from typing import Optional

import numpy as np
import numpy.typing as npt

from lightsout._base.errors import BoardTooLargeError
from lightsout._base.packing import words_for_bits
from lightsout._core.coset import Coset
from lightsout._core.rules import Rules
from lightsout._core.sparsesystem import solve_entries, system_bytes

__all__ = ["MAX_GENERAL_BYTES", "MAX_GENERAL_WORD_OPS", "press_entries", "refuse_general", "solve_general"]

#: Most memory (bytes) the general route's written-out system may take: 1 GiB.
MAX_GENERAL_BYTES = 1 << 30
#: Most operations its elimination may take (64 bits or 8 bytes count as one): 2**40, a few minutes.
MAX_GENERAL_WORD_OPS = 1 << 40

U8 = npt.NDArray[np.uint8]
I64 = npt.NDArray[np.int64]


def _system_size(rules: Rules) -> tuple[int, int]:
    """(required lights R, pressable cells P), from the masks alone (no array of the board's size without one)."""
    if all(mask is None for mask in rules.masks()):
        return rules.cells, rules.cells
    return int(rules.required_lights().sum()), int(rules.pressable_cells().sum())


def refuse_general(rules: Rules) -> None:
    """Refuse a board whose written-out system passes ``MAX_GENERAL_BYTES`` or ``MAX_GENERAL_WORD_OPS``.

    Example:
        >>> refuse_general(Rules.check((300, 300), stencil="x"))
        Traceback (most recent call last):
        ...
        lightsout.BoardTooLargeError: the general route for a board of shape (300, 300) writes a system of ...
    """
    required, pressable = _system_size(rules)
    nbytes = system_bytes(required, pressable, rules.states)
    if rules.states == 2:
        ops = required * words_for_bits(pressable + required) * min(required, pressable)
    else:
        ops = required * pressable * min(required, pressable) // 8
    if nbytes > MAX_GENERAL_BYTES or ops > MAX_GENERAL_WORD_OPS:
        raise BoardTooLargeError(
            f"the general route for a board of shape {rules.shape} writes a system of {required} lights x "
            f"{pressable} presses, {nbytes:.3g} bytes and {ops:.3g} word operations, over the limits of "
            f"{MAX_GENERAL_BYTES:.3g} bytes (lightsout.limits.MAX_GENERAL_BYTES) and {MAX_GENERAL_WORD_OPS:.3g} "
            "operations (lightsout.limits.MAX_GENERAL_WORD_OPS); a smaller board, or a stencil a faster route takes")


def press_entries(rules: Rules) -> tuple[I64, I64, list[tuple[I64, I64, int]]]:
    """The system's entries: (flat index of each required light, of each pressable cell, and for every
    stencil weight the (row, column, weight) positions it adds to, at most one a column).

    Example:
        >>> rows, cols, parts = press_entries(Rules.check((3,), stencil=[1, 1, 0]))
        >>> rows.tolist(), cols.tolist(), [(r.tolist(), c.tolist(), w) for r, c, w in parts]
        ([0, 1, 2], [0, 1, 2], [([0, 1], [1, 2], 1), ([0, 1, 2], [0, 1, 2], 1)])
    """
    shape = rules.shape
    required = np.flatnonzero(rules.required_lights())
    pressable = np.flatnonzero(rules.pressable_cells())
    row_of = np.full(rules.cells, -1, dtype=np.int64)
    row_of[required] = np.arange(required.size)
    coords = np.unravel_index(pressable, shape)
    parts: list[tuple[I64, I64, int]] = []
    wraps = rules.stencil_wraps
    for offset, weight in rules.press_stencil.offsets():
        keep = np.ones(pressable.size, dtype=bool)
        target = []
        for axis, (size, wrap, step) in enumerate(zip(shape, wraps, offset)):
            moved = coords[axis] + step
            if wrap:
                moved = moved % size
            else:
                keep &= (moved >= 0) & (moved < size)
            target.append(moved)
        columns = np.flatnonzero(keep)
        flat = np.ravel_multi_index(tuple(t[columns] for t in target), shape) if columns.size else columns
        rows = row_of[flat]
        hit = rows >= 0
        parts.append((rows[hit], columns[hit], weight % rules.states))
    return required, pressable, parts


def solve_general(rules: Rules, lights: Optional[npt.ArrayLike], *, kernel: bool = True) -> Coset:
    """The coset of a board of any rules (``lights`` None: every light in state 1), with its proof when unsolvable.

    The particular solution, the quiet basis (``kernel=True``) and the proof are whole vectors
    over the board's cells in C order, 0 on the cells that may not be pressed (the proof: 0 on
    the lights that are not required).  The caller has asked :func:`refuse_general`.

    Example:
        >>> rules = Rules.check((2,), stencil=[0, 1, 1], unpressable=[0, 1])
        >>> found = solve_general(rules, np.array([0, 1], dtype=np.uint8))
        >>> found.solvable, found.proof.tolist()         # a press at 0 changes both lights: their sum stays
        (False, [1, 1])
    """
    board = (np.ones(rules.cells, dtype=np.uint8) if lights is None
             else np.ascontiguousarray(lights, dtype=np.uint8).reshape(rules.cells))
    required, pressable, parts = press_entries(rules)
    found = solve_entries(required.size, pressable.size, parts, board[required], rules.states, kernel=kernel)
    solution, proof = found.solution, found.proof
    return Coset(solution is not None, found.nullity, found.count, "general",
                 proof=None if proof is None else _spread(proof, required, rules.cells),
                 particular=None if solution is None else _spread(solution, pressable, rules.cells),
                 kernel=_spread_rows(found.kernel, pressable, rules.cells) if kernel else np.zeros((0, 0), np.uint8))


def _spread(values: U8, where: I64, cells: int) -> U8:
    out = np.zeros(cells, dtype=np.uint8)
    out[where] = values
    return out


def _spread_rows(rows: U8, where: I64, cells: int) -> U8:
    out = np.zeros((len(rows), cells), dtype=np.uint8)
    if len(rows):
        out[:, where] = rows
    return out

