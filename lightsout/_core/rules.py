"""The board model: one frozen value for a board's shape and rules, checked once where a call comes in.

A :class:`Rules` names everything that decides which presses clear a board
except its lights: the shape, which axes wrap around, whether a press toggles
its own cell, and the number of light states.  The entry points build it with
:meth:`Rules.check`; the routes and searches below them receive it and never
check those arguments again.  It also answers the questions several floors ask
of a board: how many cells, whether the 2-D grid routes apply.  It holds no route's
budget: each route says what it refuses (``Route.refuse`` in lightsout/_routes/registry.py),
and how long a fewest-press search would take is lightsout/_search/cost.py's question.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from lightsout._base.errors import BoardTooLargeError
from lightsout._base.validate import MAX_BOARD_CELLS, board_shape, flag, states_count, torus_axes

__all__ = ["Rules", "neighbour_pairs"]


@dataclass(frozen=True)
class Rules:
    """A board's shape and rules: the value every route and search receives.

    Attributes:
        shape: the length of every axis (at least one axis, each at least 1).
        wraps: one bool per axis: that axis wraps around (a torus along it).
        self_toggle: a press changes its own cell too (False: the sigma game).
        states: the number of light states k, 2..255 (a press adds 1 mod k).

    Build it with :meth:`check` from the arguments a user gave; the plain
    constructor trusts its fields (they are checked already).

    Example:
        >>> rules = Rules.check((5, 5), torus=True)
        >>> rules.wraps, rules.cells, rules.is_plain_grid
        ((True, True), 25, False)
        >>> Rules.check((4, 6)).is_plain_grid
        True
    """

    shape: tuple[int, ...]
    wraps: tuple[bool, ...]
    self_toggle: bool = True
    states: int = 2

    @classmethod
    def check(cls, shape: object, torus: object = False, self_toggle: object = True,
              states: object = 2) -> "Rules":
        """Check the arguments a call came in with and return them as one value.

        Raises:
            InvalidTypeError: an argument of the wrong type (``torus="yes"``).
            InvalidBoardError: an empty or non-positive axis, a ``torus`` of the
                wrong length, ``states`` outside 2..255.
            BoardTooLargeError: more than ``MAX_BOARD_CELLS`` cells.

        Example:
            >>> Rules.check((3, 4), torus=(True, False), self_toggle=False, states=3)
            Rules(shape=(3, 4), wraps=(True, False), self_toggle=False, states=3)
        """
        dims = board_shape(shape)
        return cls(dims, torus_axes(torus, len(dims)), flag(self_toggle, "self_toggle"), states_count(states))

    @classmethod
    def of_grid(cls, nrows: int, ncols: int, torus: object = False, self_toggle: object = True,
                states: object = 2) -> "Rules":
        """:meth:`check` for an ``nrows x ncols`` board whose sides are checked and may pass the cell limit.

        ``first_row`` and ``nullity`` never build the board, so a 10**9 x 10**9
        grid is a valid board for them.

        Example:
            >>> Rules.of_grid(10**9, 10**9).cells
            1000000000000000000
        """
        return cls((nrows, ncols), torus_axes(torus, 2), flag(self_toggle, "self_toggle"), states_count(states))

    @property
    def ndim(self) -> int:
        """The number of axes."""
        return len(self.shape)

    @property
    def cells(self) -> int:
        """The number of cells."""
        return math.prod(self.shape)

    @property
    def is_plain_grid(self) -> bool:
        """True for the boards of the polynomial and dense routes: open 2-D grids, plus rule, two states.

        A wrapping axis of length 1 or 2 adds no neighbour (neighbours are a set),
        so it counts as open.
        """
        return (len(self.shape) == 2 and self.states == 2 and self.self_toggle
                and all(not wrap or size <= 2 for wrap, size in zip(self.wraps, self.shape)))

    @property
    def light_dtype(self) -> np.dtype:
        """The dtype of a checked board of these rules (and of its presses): bool for two states, else uint8.

        Example:
            >>> Rules.check((2, 2)).light_dtype, Rules.check((2, 2), states=3).light_dtype
            (dtype('bool'), dtype('uint8'))
        """
        return np.dtype(bool) if self.states == 2 else np.dtype(np.uint8)

    def describe(self) -> str:
        """The board in words, for messages.

        Example:
            >>> Rules.check((3, 4), torus=True).describe()
            'shape (3, 4), torus=(True, True), self_toggle=True, states=2'
        """
        return f"shape {self.shape}, torus={self.wraps}, self_toggle={self.self_toggle}, states={self.states}"

    def refuse_unpacked(self, what: str) -> None:
        """Refuse a board of more than ``MAX_BOARD_CELLS`` cells that ``what`` would build one byte a cell.

        Example:
            >>> Rules.of_grid(10**5, 10**5).refuse_unpacked("the all-lit board")
            Traceback (most recent call last):
            ...
            lightsout.BoardTooLargeError: the all-lit board of shape (100000, 100000) has 1e+10 cells, ...
        """
        if self.cells > MAX_BOARD_CELLS:
            raise BoardTooLargeError(f"{what} of shape {self.shape} has {self.cells:.3g} cells, over the limit of "
                                     f"{MAX_BOARD_CELLS:.3g} (lightsout.limits.MAX_BOARD_CELLS)")


def neighbour_pairs(axis: int, ndim: int, size: int, wrap: bool) -> list[tuple[tuple[slice, ...], tuple[slice, ...]]]:
    """Index pairs (target, source) along one axis: every cell gets the presses of its neighbours there.

    A wrapping axis of length 1 or 2 adds no pair beyond the open ones, since
    neighbours are a set of other cells.

    Example:
        >>> import numpy as np
        >>> lights = np.zeros(4, dtype=int)
        >>> for target, source in neighbour_pairs(0, 1, 4, True):
        ...     lights[target] += np.array([1, 0, 0, 0])[source]
        >>> lights.tolist()                       # cell 0's neighbours on a ring of 4
        [0, 1, 0, 1]
    """
    def at(sl: slice) -> tuple[slice, ...]:
        return (slice(None),) * axis + (sl,) + (slice(None),) * (ndim - axis - 1)

    pairs = [(at(slice(1, None)), at(slice(None, -1))), (at(slice(None, -1)), at(slice(1, None)))]
    if wrap and size > 2:
        pairs += [(at(slice(0, 1)), at(slice(-1, None))), (at(slice(-1, None)), at(slice(0, 1)))]
    return pairs
