"""The press rule and the masks of a request: ``stencil``, ``holes``, ``unpressable``, ``free_lights``.

A request's ``stencil`` is a name (:data:`STENCIL_NAMES`) or the weights as rows of integers:
odd extents up to :data:`MAX_STENCIL_SIDE` on each axis, the pressed cell in the middle,
weights 0..k-1, not all 0.  Pressing cell p adds ``weights[i]`` (mod k) to the cell
``p + (i - centre)``, as :func:`lightsout.press` does.  A mask is rows of 0/1 of the board's
shape: ``holes`` (1: not part of the board), ``unpressable`` (1: may not be pressed),
``free_lights`` (1: need not end dark).  Everything is checked on the decoded lists before an
array is built; a broken field raises :class:`~lightsout.play.api.ApiError` (400) naming what
is wrong and what is accepted.

Example:
    >>> stencil = read_stencil({"stencil": [[0, 1, 0], [0, 1, 1], [0, 0, 0]]}, states=2)
    >>> stencil.weights.tolist(), stencil.centre
    ([[0, 1, 0], [0, 1, 1], [0, 0, 0]], (1, 1))
    >>> read_stencil({"stencil": "knight"}, states=2).is_symmetric
    True
    >>> masks = read_masks({"holes": [[1, 0], [0, 0]]}, (2, 2))
    >>> masks["holes"].tolist(), masks["unpressable"]
    ([[True, False], [False, False]], None)
"""
from __future__ import annotations

import itertools
from typing import Optional

import numpy as np

from lightsout import Stencil
from lightsout.play._errors import ApiError, Json, equal_rows, json_type

__all__ = ["STENCIL_NAMES", "MAX_STENCIL_SIDE", "MASK_FIELDS", "RULE_FIELDS", "read_stencil", "read_masks"]

#: The named rules a request may give as ``stencil`` (``lightsout.Stencil.named``).
STENCIL_NAMES = ("plus", "sigma", "x", "3x3", "moore", "knight", "hex")
#: Longest side of a stencil given as weights (the page draws rules on a 5 x 5 grid).
MAX_STENCIL_SIDE = 5
#: The mask fields a request may carry, in the order the library takes them.
MASK_FIELDS = ("holes", "unpressable", "free_lights")
#: Every field of a request that says the rule or the masks.
RULE_FIELDS = ("stencil",) + MASK_FIELDS


def read_stencil(request: Json, states: int) -> Optional[Stencil]:
    """The request's ``stencil`` as a :class:`lightsout.Stencil`, or None when it gives none (today's rule).

    Raises:
        ApiError: 400 for an unknown name, or weights that are not rows of equal odd length
            1..5 (1..5 rows, an odd number), integers 0..states-1, not all 0.

    Examples:
        >>> read_stencil({}, states=2) is None
        True
        >>> read_stencil({"stencil": [[2]]}, states=3).weights.tolist()
        [[2]]
        >>> read_stencil({"stencil": [[1, 1]]}, states=2)
        Traceback (most recent call last):
        ...
        lightsout.play.api.ApiError: stencil must have an odd number of columns from 1 to 5 ... got 2
    """
    value = request.get("stencil")
    if value is None:
        return None
    if isinstance(value, str):
        if value not in STENCIL_NAMES:
            raise ApiError(400, f"stencil must be one of {', '.join(repr(n) for n in STENCIL_NAMES)} or rows of "
                                f"weights, got {value[:40]!r}")
        return Stencil.named(value)
    if not isinstance(value, list):
        raise ApiError(400, f"stencil must be a name ({', '.join(STENCIL_NAMES)}) or rows of weights (an array of "
                            f"arrays of integers), got {json_type(value)}")
    _odd_side(len(value), "rows")
    ncols = equal_rows(value, "the stencil", "weights")
    _odd_side(ncols, "columns")
    weights = list(itertools.chain.from_iterable(value))
    if any(type(w) is not int or not 0 <= w < states for w in weights):
        bad = next(w for w in weights if type(w) is not int or not 0 <= w < states)
        shown = bad if type(bad) is int else json_type(bad)
        raise ApiError(400, f"the stencil's weights must be integers from 0 to {states - 1} (states={states}), "
                            f"got {shown}")
    if not any(weights):
        raise ApiError(400, "every stencil weight is 0: such a press changes nothing; give at least one weight "
                            "from 1 to states-1")
    array = np.array(weights, dtype=np.uint8).reshape(len(value), ncols)
    return Stencil(array, (len(value) // 2, ncols // 2))


def _odd_side(length: int, what: str) -> None:
    if not (1 <= length <= MAX_STENCIL_SIDE and length % 2 == 1):
        raise ApiError(400, f"stencil must have an odd number of {what} from 1 to {MAX_STENCIL_SIDE} (the pressed "
                            f"cell in the middle), got {length}")


def read_masks(request: Json, shape: tuple[int, int]) -> dict[str, Optional[np.ndarray]]:
    """The request's masks (``holes``, ``unpressable``, ``free_lights``) as bool arrays, None where absent or all 0.

    Raises:
        ApiError: 400 for a mask that is not rows of 0/1 of the board's shape.

    Example:
        >>> read_masks({"free_lights": [[0, 1, 2]]}, (1, 3))
        Traceback (most recent call last):
        ...
        lightsout.play.api.ApiError: free_lights must hold only 0 and 1 (1: the light need not end dark), got 2
    """
    return {name: _mask(request.get(name), name, shape) for name in MASK_FIELDS}


_MEANING = {"holes": "the cell is not part of the board", "unpressable": "the cell may not be pressed",
            "free_lights": "the light need not end dark"}


def _mask(value: object, name: str, shape: tuple[int, int]) -> Optional[np.ndarray]:
    if value is None:
        return None
    rows, cols = shape
    if not isinstance(value, list) or not all(isinstance(row, list) for row in value):
        raise ApiError(400, f"{name} must be rows of 0/1 (an array of {rows} arrays of {cols}), got {json_type(value)}")
    if len(value) != rows or any(len(row) != cols for row in value):
        got = f"{len(value)} rows" if len(value) != rows else "a row of " + str(
            next(len(row) for row in value if len(row) != cols)) + " cells"
        raise ApiError(400, f"{name} must have the board's shape, {rows} rows of {cols}, got {got}")
    cells = list(itertools.chain.from_iterable(value))
    if any(type(v) is not int or v not in (0, 1) for v in cells):
        bad = next(v for v in cells if type(v) is not int or v not in (0, 1))
        raise ApiError(400, f"{name} must hold only 0 and 1 (1: {_MEANING[name]}), "
                            f"got {bad if type(bad) is int else json_type(bad)}")
    if not any(cells):
        return None
    return np.array(cells, dtype=bool).reshape(shape)
