"""The board model: one frozen value for a board's shape and rules, checked once where a call comes in.

A :class:`Rules` names everything that decides which presses clear a board
except its lights: the shape, which axes wrap around, whether a press toggles
its own cell, the number of light states, the press stencil (None: today's plus
rule, or the sigma game) and the board's masks (holes, cells that may not be
pressed, lights that need not end dark; None: none).  The entry points build it with
:meth:`Rules.check`; the routes and searches below them receive it and never
check those arguments again.  It also answers the questions several floors ask
of a board: how many cells, whether the 2-D grid routes apply.  It holds no route's
budget: each route says what it refuses (``Route.refuse`` in lightsout/_routes/registry.py),
and how long a fewest-press search would take is lightsout/_search/cost.py's question.
"""
from __future__ import annotations

import itertools
import math
from dataclasses import dataclass
from typing import Any, Optional

import numpy as np
import numpy.typing as npt

from lightsout._base.errors import BoardTooLargeError, InvalidBoardError, InvalidTypeError
from lightsout._base.validate import (MAX_BOARD_CELLS, board_shape, flag, numeric_array, states_count, torus_axes,
                                      zero_one)
from lightsout._core.stencil import MAX_STENCIL_CELLS, Stencil

#: The names of the board masks, in the order Rules holds them.
MASK_NAMES = ("holes", "unpressable", "free_lights")

__all__ = ["MASK_NAMES", "Rules", "neighbour_pairs", "shifted_slices"]


@dataclass(frozen=True, eq=False)
class Rules:
    """A board's shape and rules: the value every route and search receives.

    Attributes:
        shape: the length of every axis (at least one axis, each at least 1).
        wraps: one bool per axis: that axis wraps around (a torus along it).
        self_toggle: a press changes its own cell too (False: the sigma game); with a
            stencil, whether its centre weight is nonzero.
        states: the number of light states k, 2..255 (a press adds 1 mod k).
        stencil: None for today's rule (the plus rule, or the sigma game without
            self_toggle: a press adds 1 to its cell and to the cells one step away
            along every axis, the neighbours being a set of other cells, so a
            wrapping axis of length 1 or 2 adds no neighbour); else the
            :class:`~lightsout._core.stencil.Stencil` a press adds (mod k).  A
            stencil's targets wrap one by one, as the conventions say: on a wrapping
            axis shorter than the stencil two of its weights (or one and the pressed
            cell) may land on one cell, and both are added (a convolution on the
            torus).  Today's rule alone, however it is given, keeps its neighbours a
            set of other cells, as it always has.
        holes: None, or a read-only bool array of the shape: True where the cell is
            not part of the board (neither a light nor a button).
        unpressable: None, or the same: True where the cell may not be pressed.
        free_lights: None, or the same: True where the light need not end dark.

    The system a board of these rules poses is, for every required light v (not a
    hole, not free), ``b[v] + sum of A[v, p] x[p] == 0 (mod k)`` over the pressable
    cells p (not a hole, not unpressable).  Rules compare and hash by value, masks
    included.

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
    stencil: Optional[Stencil] = None
    holes: Optional[npt.NDArray[np.bool_]] = None
    unpressable: Optional[npt.NDArray[np.bool_]] = None
    free_lights: Optional[npt.NDArray[np.bool_]] = None

    @classmethod
    def check(cls, shape: object, torus: object = False, self_toggle: object = True,
              states: object = 2, stencil: object = None, holes: object = None, unpressable: object = None,
              free_lights: object = None) -> "Rules":
        """Check the arguments a call came in with and return them as one value.

        ``stencil`` is a :class:`~lightsout._core.stencil.Stencil`, a name of
        :meth:`Stencil.named <lightsout._core.stencil.Stencil.named>` or an array of weights
        (its centre in the middle); ``self_toggle=False`` sets its centre weight to 0.  A
        stencil that is today's plus rule or sigma game (after trimming zero borders) is held
        as today's rule (``stencil=None``), so it keeps today's answers bit for bit.  Masks
        are bool-like arrays of the board's shape; one with no True is no mask.

        Raises:
            InvalidTypeError: an argument of the wrong type (``torus="yes"``).
            InvalidBoardError: an empty or non-positive axis, a ``torus`` of the
                wrong length, ``states`` outside 2..255, a stencil weight not below
                ``states``, a stencil of another number of axes, a mask of another shape
                or with values other than 0/1.
            BoardTooLargeError: more than ``MAX_BOARD_CELLS`` cells.

        Examples:
            >>> Rules.check((3, 4), torus=(True, False), self_toggle=False, states=3)
            Rules(shape=(3, 4), wraps=(True, False), self_toggle=False, states=3)
            >>> Rules.check((3, 4), stencil="sigma") == Rules.check((3, 4), self_toggle=False)
            True
            >>> Rules.check((1, 3), stencil=[[1, 1, 0]], holes=[[0, 1, 0]]).describe()
            'shape (1, 3), torus=(False, False), self_toggle=True, states=2, stencil [[1, 1]] centre (0, 1), 1 hole'
        """
        dims = board_shape(shape)
        wraps = torus_axes(torus, len(dims))
        toggle = flag(self_toggle, "self_toggle")
        k = states_count(states)
        masks = [_mask(value, name, dims) for value, name in zip((holes, unpressable, free_lights), MASK_NAMES)]
        press_rule: Optional[Stencil] = None
        if isinstance(stencil, str) and stencil.strip().lower() in ("plus", "sigma"):  # today's rule, any axes
            toggle = toggle and stencil.strip().lower() == "plus"
        elif stencil is not None:
            press_rule, toggle = _checked_stencil(Stencil.coerce(stencil, len(dims)), toggle, k)
        return cls(dims, wraps, toggle, k, press_rule, *masks)

    def _key(self) -> tuple[Any, ...]:
        masks = tuple(None if mask is None else mask.tobytes() for mask in self.masks())
        return (self.shape, self.wraps, self.self_toggle, self.states, self.stencil, masks)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Rules):
            return NotImplemented
        return self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def __repr__(self) -> str:
        extra = "" if self.stencil is None else f", stencil={self.stencil!r}"
        for name, mask in zip(MASK_NAMES, self.masks()):
            if mask is not None:
                extra += f", {name}={mask.astype(int).tolist()}"
        return (f"Rules(shape={self.shape}, wraps={self.wraps}, self_toggle={self.self_toggle}, "
                f"states={self.states}{extra})")

    def masks(self) -> tuple[Optional[npt.NDArray[np.bool_]], ...]:
        """(holes, unpressable, free_lights), each None or a bool array of the shape."""
        return (self.holes, self.unpressable, self.free_lights)

    @property
    def is_classic(self) -> bool:
        """Today's rule on the whole board: no stencil (the plus rule or the sigma game) and no mask.

        Example:
            >>> Rules.check((3, 3), stencil="plus").is_classic, Rules.check((3, 3), stencil="x").is_classic
            (True, False)
        """
        return self.stencil is None and all(mask is None for mask in self.masks())

    @property
    def press_stencil(self) -> Stencil:
        """The stencil a press adds, today's rule included (the plus rule, or sigma without self_toggle).

        Example:
            >>> Rules.check((2, 2, 2), self_toggle=False).press_stencil == Stencil.named("sigma", ndim=3)
            True
        """
        if self.stencil is not None:
            return self.stencil
        if 3 ** self.ndim > MAX_STENCIL_CELLS:
            raise InvalidBoardError(f"today's rule on {self.ndim} axes spans 3**{self.ndim} cells as a stencil, over the "
                                    f"limit of {MAX_STENCIL_CELLS} (lightsout.limits.MAX_STENCIL_CELLS): masks and "
                                    f"stencils are taken on boards of at most {_STENCIL_AXES} axes")
        return Stencil.named("plus" if self.self_toggle else "sigma", ndim=self.ndim)

    @property
    def stencil_wraps(self) -> tuple[bool, ...]:
        """The axes a press's stencil wraps around: a stencil wraps every wrapping axis, while today's
        rule keeps its neighbours a set of other cells, so a wrapping axis of length 1 or 2 acts as open.

        Example:
            >>> Rules.check((2, 5), torus=True).stencil_wraps
            (False, True)
            >>> Rules.check((2, 5), torus=True, stencil="x").stencil_wraps
            (True, True)
        """
        if self.stencil is not None:
            return self.wraps
        return tuple(wrap and size > 2 for wrap, size in zip(self.wraps, self.shape))

    def required_lights(self) -> npt.NDArray[np.bool_]:
        """True for every light that must end dark: not a hole, not a free light.

        Example:
            >>> Rules.check((1, 3), free_lights=[[1, 0, 0]]).required_lights().tolist()
            [[False, True, True]]
        """
        out = np.ones(self.shape, dtype=bool)
        for mask in (self.holes, self.free_lights):
            if mask is not None:
                out &= ~mask
        return out

    def pressable_cells(self) -> npt.NDArray[np.bool_]:
        """True for every cell that may be pressed: not a hole, not unpressable.

        Example:
            >>> Rules.check((1, 3), holes=[[0, 0, 1]]).pressable_cells().tolist()
            [[True, True, False]]
        """
        out = np.ones(self.shape, dtype=bool)
        for mask in (self.holes, self.unpressable):
            if mask is not None:
                out &= ~mask
        return out

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
        return (len(self.shape) == 2 and self.states == 2 and self.self_toggle and self.is_classic
                and not any(self.stencil_wraps))

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
        words = f"shape {self.shape}, torus={self.wraps}, self_toggle={self.self_toggle}, states={self.states}"
        if self.stencil is not None:
            words += f", stencil {self.stencil.weights.tolist()} centre {self.stencil.centre}"
        for name, mask in zip(MASK_NAMES, self.masks()):
            if mask is not None:
                count = int(mask.sum())
                label = {"holes": "hole", "unpressable": "unpressable cell", "free_lights": "free light"}[name]
                words += f", {count} {label}{'s' if count != 1 else ''}"
        return words

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


def shifted_slices(offset: tuple[int, ...], shape: tuple[int, ...],
                   wraps: tuple[bool, ...]) -> list[tuple[tuple[slice, ...], tuple[slice, ...]]]:
    """(target, source) slice pairs moving every cell p to ``p + offset``: cut at an open axis, wrapped on a
    wrapping one (two pieces there), so ``out[target] += values[source]`` over the pairs adds the shifted copy.

    Example:
        >>> import numpy as np
        >>> values, out = np.array([1, 2, 3]), np.zeros(3, dtype=int)
        >>> for target, source in shifted_slices((1,), (3,), (True,)):
        ...     out[target] += values[source]
        >>> out.tolist()                         # a ring of three: every value one step on
        [3, 1, 2]
    """
    per_axis: list[list[tuple[slice, slice]]] = []
    for step, size, wrap in zip(offset, shape, wraps):
        if wrap:
            step %= size
        if step == 0:
            per_axis.append([(slice(None), slice(None))])
        elif wrap:
            per_axis.append([(slice(step, size), slice(0, size - step)), (slice(0, step), slice(size - step, size))])
        elif abs(step) >= size:
            return []
        elif step > 0:
            per_axis.append([(slice(step, size), slice(0, size - step))])
        else:
            per_axis.append([(slice(0, size + step), slice(-step, size))])
    return [(tuple(t for t, _ in pieces), tuple(src for _, src in pieces)) for pieces in itertools.product(*per_axis)]


#: The most axes today's rule has as a stencil (3**axes cells within MAX_STENCIL_CELLS).
_STENCIL_AXES = int(math.log(MAX_STENCIL_CELLS, 3))


def _checked_stencil(stencil: Stencil, self_toggle: bool, states: int) -> tuple[Optional[Stencil], bool]:
    """The stencil a board holds, and its self_toggle: today's plus rule and sigma game as None."""
    if not self_toggle and stencil.centre_weight:
        stencil = stencil.with_centre_weight(0)
    stencil = stencil.trimmed()
    top = int(stencil.weights.max())
    if top >= states:
        where = [offset for offset, weight in stencil.offsets() if weight >= states][0]
        raise InvalidBoardError(f"the stencil adds {top} (at offset {where}) but a light has {states} states: "
                                f"every weight must be 0..{states - 1} (states={states}), or ask for more states")
    if stencil.weights.shape == (3,) * stencil.ndim:  # today's rule spans 3**ndim cells: build it only then
        for plain, toggle in (("plus", True), ("sigma", False)):
            if stencil == Stencil.named(plain, ndim=stencil.ndim):
                return None, toggle
    return stencil, stencil.centre_weight != 0


def _mask(value: object, name: str, shape: tuple[int, ...]) -> Optional[npt.NDArray[np.bool_]]:
    """A board mask checked: None, or a read-only bool array of ``shape`` with at least one True."""
    if value is None:
        return None
    accepted = f"a bool array (or 0/1 values) of the board's shape {shape}"
    if isinstance(value, (str, bytes)):
        raise InvalidTypeError(f"{name} must be {accepted}, got a {type(value).__name__}")
    array = numeric_array(value, name, accepted)
    if array.shape != shape:
        raise InvalidBoardError(f"{name} must be {accepted}, got shape {array.shape}")
    mask = np.array(zero_one(array, name, states_hint=False), dtype=bool)
    if not mask.any():
        return None
    mask.setflags(write=False)
    return mask
