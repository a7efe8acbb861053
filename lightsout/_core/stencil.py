"""Press stencils: what a press adds to the cells around it, as one frozen value.

A :class:`Stencil` is ``weights``, a uint8 array with as many axes as the board, and
``centre``, the index of the pressed cell in it.  Pressing cell p adds ``weights[i]``
(mod k) to the cell ``p + (i - centre)`` for every index i of ``weights``; a target past an
open edge is dropped, a wrapping axis wraps it.  Today's plus rule is
``[[0, 1, 0], [1, 1, 1], [0, 1, 0]]`` with centre (1, 1), the sigma game the same with a
centre weight of 0.  A stencil that is not symmetric under ``i -> 2 * centre - i`` is a
one-way rule: the press matrix is then not symmetric.

Example:
    >>> plus = Stencil.named("plus")
    >>> plus.weights.tolist(), plus.centre
    ([[0, 1, 0], [1, 1, 1], [0, 1, 0]], (1, 1))
    >>> Stencil.from_offsets([(0, 0), (0, 1)]).is_symmetric
    False
"""
from __future__ import annotations

import numbers
import operator
from typing import Any, Iterable, Optional, Sequence

import numpy as np
import numpy.typing as npt

from lightsout._base.errors import InvalidBoardError, InvalidTypeError
from lightsout._base.validate import MAX_AXES, numeric_array

__all__ = ["MAX_STENCIL_CELLS", "STENCIL_NAMES", "Stencil"]

#: Most cells (the product of its extents) a stencil may span.
MAX_STENCIL_CELLS = 1 << 16
#: The names :meth:`Stencil.named` knows.
STENCIL_NAMES = ("plus", "sigma", "x", "moore", "3x3", "knight", "hex")
_TWO_D_ONLY = ("x", "knight", "hex")


class Stencil:
    """A press rule for grids: ``weights`` around the pressed cell ``centre`` (frozen, hashable, pickles).

    Args:
        weights: array-like of ints 0..255 (bools too) with at least one axis, each
            extent at least 1, not all zero; as many axes as the board it presses.
        centre: a tuple of ints indexing ``weights``: the pressed cell.  None: the
            middle of every axis, which needs every extent odd.

    Whether every weight is below the board's number of states k is checked where the
    stencil meets a board (``lightsout.solve(..., stencil=...)``).

    Raises:
        InvalidBoardError: an empty or all-zero stencil, a weight outside 0..255, a
            centre outside the array, an even extent without ``centre=``.
        InvalidTypeError: weights that are not numbers, a centre that is not ints.

    Examples:
        >>> from lightsout import Stencil
        >>> s = Stencil([[1, 1], [0, 1]], centre=(0, 0))
        >>> s
        Stencil([[1, 1], [0, 1]], centre=(0, 0))
        >>> s.offsets()
        [((0, 0), 1), ((0, 1), 1), ((1, 1), 1)]
        >>> import pickle
        >>> pickle.loads(pickle.dumps(s)) == s, hash(s) == hash(Stencil([[1, 1], [0, 1]], centre=(0, 0)))
        (True, True)
    """

    __slots__ = ("_weights", "_centre")
    _weights: npt.NDArray[np.uint8]
    _centre: tuple[int, ...]

    def __init__(self, weights: npt.ArrayLike, centre: Optional[Sequence[int]] = None) -> None:
        array = _weight_array(weights)
        object.__setattr__(self, "_weights", array)
        object.__setattr__(self, "_centre", _centre_index(centre, array.shape))

    # -- the value -----------------------------------------------------------------------

    @property
    def weights(self) -> npt.NDArray[np.uint8]:
        """The weights, a read-only uint8 array.

        Example:
            >>> from lightsout import Stencil
            >>> Stencil.named("sigma").weights.tolist()
            [[0, 1, 0], [1, 0, 1], [0, 1, 0]]
        """
        return self._weights

    @property
    def centre(self) -> tuple[int, ...]:
        """The index of the pressed cell in :attr:`weights`.

        Example:
            >>> from lightsout import Stencil
            >>> Stencil([[1, 1, 0, 1]], centre=(0, 2)).centre
            (0, 2)
        """
        return self._centre

    @property
    def ndim(self) -> int:
        """The number of axes (the board's).

        Example:
            >>> from lightsout import Stencil
            >>> Stencil.named("moore", ndim=3).ndim
            3
        """
        return self._weights.ndim

    @property
    def centre_weight(self) -> int:
        """What a press adds to its own cell.

        Example:
            >>> from lightsout import Stencil
            >>> Stencil.named("x").centre_weight, Stencil.named("sigma").centre_weight
            (1, 0)
        """
        return int(self._weights[self._centre])

    @property
    def is_symmetric(self) -> bool:
        """Whether ``weights[i] == weights[2 * centre - i]`` for every i (else a one-way rule).

        Example:
            >>> from lightsout import Stencil
            >>> Stencil.named("knight").is_symmetric, Stencil.named("hex").is_symmetric
            (True, True)
        """
        mirrored = np.flip(self._weights)
        shifted = tuple(2 * c - (size - 1) for c, size in zip(self._centre, self._weights.shape))
        if any(shifted):  # the mirror of the array about its own middle, moved so the centre stays put
            return dict(self.offsets()) == {tuple(-o for o in offset): w for offset, w in self.offsets()}
        return bool((mirrored == self._weights).all())

    def offsets(self) -> list[tuple[tuple[int, ...], int]]:
        """Every nonzero weight as ``(offset from the centre, weight)``, in C order of the weights.

        Example:
            >>> from lightsout import Stencil
            >>> Stencil.named("sigma").offsets()
            [((-1, 0), 1), ((0, -1), 1), ((0, 1), 1), ((1, 0), 1)]
        """
        return [(tuple(int(i) - c for i, c in zip(index, self._centre)), int(self._weights[tuple(index)]))
                for index in np.argwhere(self._weights)]

    def extent(self, axis: int) -> tuple[int, int]:
        """How far the nonzero weights reach along ``axis``: (most negative offset, most positive offset).

        Example:
            >>> from lightsout import Stencil
            >>> Stencil.named("knight").extent(0)
            (-2, 2)
        """
        steps = [offset[axis] for offset, _ in self.offsets()] or [0]
        return min(steps), max(steps)

    def with_centre_weight(self, weight: int) -> "Stencil":
        """The same stencil with what a press adds to its own cell replaced.

        Example:
            >>> from lightsout import Stencil
            >>> Stencil.named("plus").with_centre_weight(0) == Stencil.named("sigma")
            True
        """
        weights = self._weights.copy()
        weights[self._centre] = weight
        return Stencil(weights, self._centre)

    def trimmed(self) -> "Stencil":
        """The same rule in the smallest array holding every nonzero weight and the centre.

        Example:
            >>> from lightsout import Stencil
            >>> import numpy as np
            >>> Stencil(np.pad(Stencil.named("plus").weights, 2)).trimmed() == Stencil.named("plus")
            True
        """
        points = np.vstack([np.argwhere(self._weights), np.array([self._centre])])
        low, high = points.min(axis=0), points.max(axis=0) + 1
        window = tuple(slice(int(a), int(b)) for a, b in zip(low, high))
        return Stencil(self._weights[window], tuple(int(c - a) for c, a in zip(self._centre, low)))

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Stencil):
            return NotImplemented
        return (self._centre == other._centre and self._weights.shape == other._weights.shape
                and bool((self._weights == other._weights).all()))

    def __hash__(self) -> int:
        return hash((self._centre, self._weights.shape, self._weights.tobytes()))

    def __repr__(self) -> str:
        return f"Stencil({self._weights.tolist()}, centre={self._centre})"

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError("a Stencil is frozen")

    def __reduce__(self) -> tuple[Any, ...]:
        return (Stencil, (self._weights.tolist(), self._centre))

    # -- the ways to make one ----------------------------------------------------------------

    @classmethod
    def named(cls, name: str, *, radius: int = 1, ndim: int = 2) -> "Stencil":
        """A classic press rule by name.

        Every named stencil includes the pressed cell itself (weight 1) except "sigma".

        Args:
            name: "plus" (the cell and the cells up to ``radius`` steps along each axis:
                today's rule at radius 1), "sigma" (plus without the cell itself),
                "x" (the cell and its diagonals up to ``radius`` steps; 2-D), "moore" or
                "3x3" (every cell within ``radius`` steps on every axis: the 3 x 3 square
                at radius 1), "knight" (the cell and its eight knight's moves; 2-D), "hex"
                (the cell and its six neighbours on a hexagonal board drawn in axial
                coordinates: offsets (0, +-1), (+-1, 0), (-1, +1), (+1, -1); 2-D).
            radius: how far "plus", "sigma", "x" and "moore" reach (a positive int).
            ndim: the number of axes, for "plus", "sigma" and "moore" (2-D only for the others).

        Raises:
            InvalidBoardError: an unknown name, a radius below 1, a 2-D stencil asked
                for another number of axes.

        Examples:
            >>> from lightsout import Stencil
            >>> Stencil.named("x").weights.astype(int).tolist()
            [[1, 0, 1], [0, 1, 0], [1, 0, 1]]
            >>> Stencil.named("hex").weights.tolist()
            [[0, 1, 1], [1, 1, 1], [1, 1, 0]]
            >>> int(Stencil.named("plus", radius=2).weights.sum()), int(Stencil.named("moore", ndim=3).weights.sum())
            (9, 27)
        """
        if not isinstance(name, str):
            raise InvalidTypeError(f"a stencil name must be a str, one of {STENCIL_NAMES}, got {type(name).__name__}")
        key = name.strip().lower()
        if key not in STENCIL_NAMES:
            raise InvalidBoardError(f"unknown stencil {name!r}: the named stencils are {', '.join(STENCIL_NAMES)} "
                                    "(or give your own weights as an array, or offsets to Stencil.from_offsets)")
        r = _positive(radius, "radius")
        dims = _positive(ndim, "ndim")
        if key in _TWO_D_ONLY and dims != 2:
            raise InvalidBoardError(f"the {key!r} stencil is 2-D; a board of {dims} axes needs a stencil of {dims} "
                                    "axes (an array, or Stencil.from_offsets)")
        if key == "knight":
            offsets = [(0, 0)] + [(a * s, b * t) for a, b in ((1, 2), (2, 1)) for s in (1, -1) for t in (1, -1)]
            return cls.from_offsets(offsets)
        if key == "hex":
            return cls.from_offsets([(0, 0), (0, 1), (0, -1), (1, 0), (-1, 0), (-1, 1), (1, -1)])
        side = 2 * r + 1
        if dims > MAX_STENCIL_CELLS.bit_length() or side > MAX_STENCIL_CELLS:  # past the limit before multiplying
            raise InvalidBoardError(f"a {key!r} stencil of radius {r} on {dims} axes spans {side}**{dims} cells, "
                                    f"over the limit of {MAX_STENCIL_CELLS} (lightsout.limits.MAX_STENCIL_CELLS)")
        _refuse_span((side,) * dims)  # before the index grid is built
        grid = np.indices((side,) * dims) - r
        if key in ("moore", "3x3"):
            weights = np.ones((side,) * dims, dtype=np.uint8)
        elif key == "x":
            weights = (np.abs(grid[0]) == np.abs(grid[1])).astype(np.uint8)
        else:  # plus, sigma: at most one axis off the centre
            weights = ((grid != 0).sum(axis=0) <= 1).astype(np.uint8)
            if key == "sigma":
                weights[(r,) * dims] = 0
        return cls(weights, (r,) * dims)

    @classmethod
    def from_offsets(cls, offsets: Iterable[Sequence[int]], weights: Optional[Iterable[int]] = None) -> "Stencil":
        """A stencil from the offsets a press reaches (from the pressed cell), each with weight 1 or its own.

        Include ``(0, 0)`` (or the origin of your axes) for a press that changes its own
        cell.  An offset named twice adds its weights.

        Example:
            >>> from lightsout import Stencil
            >>> s = Stencil.from_offsets([(0, 0), (-1, 0), (0, 2)], weights=[1, 2, 1])
            >>> s.weights.tolist(), s.centre
            ([[2, 0, 0], [1, 0, 1]], (1, 0))
        """
        points = _offset_list(offsets)
        values = [1] * len(points) if weights is None else [_int(w, "a weight") for w in weights]
        if len(values) != len(points):
            raise InvalidBoardError(f"{len(points)} offsets but {len(values)} weights: give one weight an offset")
        ndim = len(points[0])
        low = [min(min(p[axis] for p in points), 0) for axis in range(ndim)]
        high = [max(max(p[axis] for p in points), 0) for axis in range(ndim)]
        shape = tuple(h - lo + 1 for lo, h in zip(low, high))
        _refuse_span(shape)
        total = np.zeros(shape, dtype=np.int64)
        for point, value in zip(points, values):
            total[tuple(p - lo for p, lo in zip(point, low))] += value
        return cls(total, tuple(-lo for lo in low))

    @classmethod
    def coerce(cls, value: object, ndim: int) -> "Stencil":
        """A ``stencil=`` argument as a Stencil of ``ndim`` axes: a Stencil, a name, or an array (centre in the middle).

        Example:
            >>> from lightsout import Stencil
            >>> Stencil.coerce("moore", 1).weights.tolist(), Stencil.coerce([[0, 1, 1]], 2).centre
            ([1, 1, 1], (0, 1))
        """
        if isinstance(value, Stencil):
            stencil = value
        elif isinstance(value, str):
            stencil = cls.named(value, ndim=ndim)
        else:
            stencil = cls(value)  # type: ignore[arg-type]
        if stencil.ndim != ndim:
            raise InvalidBoardError(f"the stencil has {stencil.ndim} axes but the board has {ndim}: "
                                    "give one weight array axis per board axis")
        return stencil


def _int(value: object, name: str) -> int:
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Integral):
        raise InvalidTypeError(f"{name} must be an int, got {type(value).__name__} {value!r}")
    return operator.index(value)


def _positive(value: object, name: str) -> int:
    number = _int(value, name)
    if number < 1:
        raise InvalidBoardError(f"{name} must be a positive int, got {number}")
    return number


def _refuse_span(shape: tuple[int, ...]) -> None:
    if len(shape) > MAX_AXES:
        raise InvalidBoardError(f"a stencil of {len(shape)} axes: boards, and so stencils, have at most {MAX_AXES} "
                                "(lightsout.limits.MAX_AXES)")
    cells = int(np.prod(shape, dtype=object))
    if cells > MAX_STENCIL_CELLS:
        raise InvalidBoardError(f"a stencil spanning {shape} is {cells} cells, over the limit of {MAX_STENCIL_CELLS} "
                                "(lightsout.limits.MAX_STENCIL_CELLS)")


def _weight_array(weights: object) -> npt.NDArray[np.uint8]:
    """The checked weights: whole numbers 0..255, at least one axis, no empty axis, not all zero, read-only."""
    what = "an array of weights 0..255 with at least one axis"
    if isinstance(weights, (str, bytes)):
        raise InvalidTypeError(f"stencil weights must be {what} (or a stencil's name through stencil=), "
                               f"got {weights!r}")
    array = numeric_array(weights, "stencil weights", what)
    if array.ndim == 0 or array.size == 0:
        raise InvalidBoardError(f"stencil weights must be {what} and no empty axis, got shape {array.shape}: "
                                "an empty stencil presses nothing")
    _refuse_span(array.shape)
    if array.dtype.kind == "f" and not (np.isfinite(array).all() and (array == np.round(array)).all()):
        raise InvalidBoardError("stencil weights must be whole numbers 0..255")
    if array.dtype.kind != "b" and (array.min() < 0 or array.max() > 255):
        raise InvalidBoardError(f"stencil weights must be 0..255 (what a press adds, mod the board's states), "
                                f"got values from {array.min()} to {array.max()}")
    out = np.array(array, dtype=np.uint8, order="C")  # a copy: the caller's array stays writable
    if not out.any():
        raise InvalidBoardError("every stencil weight is 0: such a press changes nothing (an empty stencil)")
    out.setflags(write=False)
    return out


def _centre_index(centre: object, shape: tuple[int, ...]) -> tuple[int, ...]:
    if centre is None:
        if any(size % 2 == 0 for size in shape):
            raise InvalidBoardError(f"a stencil of shape {shape} has no middle (an even extent): "
                                    "say which cell is pressed with centre=")
        return tuple(size // 2 for size in shape)
    if isinstance(centre, (str, bytes)) or not isinstance(centre, (tuple, list, np.ndarray)):
        raise InvalidTypeError(f"centre must be a tuple of {len(shape)} ints, got {type(centre).__name__} {centre!r}")
    index = tuple(_int(c, "centre") for c in centre)
    if len(index) != len(shape) or not all(0 <= c < size for c, size in zip(index, shape)):
        raise InvalidBoardError(f"centre {index} is not a cell of a stencil of shape {shape}: "
                                f"give {len(shape)} indices, each 0 <= centre[i] < shape[i]")
    return index


def _offset_list(offsets: object) -> list[tuple[int, ...]]:
    if isinstance(offsets, (str, bytes)) or not hasattr(offsets, "__iter__"):
        raise InvalidTypeError(f"offsets must be a sequence of int tuples, got {type(offsets).__name__}")
    points = []
    items: Iterable[Any] = offsets
    for offset in items:
        if isinstance(offset, numbers.Integral):
            offset = (offset,)
        if isinstance(offset, (str, bytes)) or not hasattr(offset, "__iter__"):
            raise InvalidTypeError(f"an offset must be a tuple of ints, got {offset!r}")
        points.append(tuple(_int(o, "an offset") for o in offset))
    if not points:
        raise InvalidBoardError("no offsets: an empty stencil presses nothing")
    if len({len(p) for p in points}) != 1 or len(points[0]) == 0:
        raise InvalidBoardError("every offset must have the same number of axes (at least one)")
    return points

