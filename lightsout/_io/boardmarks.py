"""The marks of board text for the board masks, and the value a marked board reads as.

A cell of board text is a hole, or a light of any state, pressable or not, required or free:

* ``~`` (:data:`HOLE_MARK`) is a hole: no light and no button (``holes=``);
* a light's symbol followed by ``/`` (:data:`UNPRESSABLE_MARK`) may not be pressed
  (``unpressable=``);
* a light's symbol followed by ``'`` (:data:`FREE_MARK`) need not end dark (``free_lights=``);
* both marks, in either order: ``1/'`` is a lit light that may not be pressed and need not end dark.

None of the three is a light symbol, a digit or the comment mark, so no board text written
before the marks reads differently.

Example:
    >>> from lightsout._io.boardtext import marked_board_from_text
    >>> marked = marked_board_from_text("1/ 0 ~\\n0' 1/' 0")
    >>> marked.lights.astype(int).tolist(), marked.holes.astype(int).tolist()
    ([[1, 0, 0], [0, 1, 0]], [[0, 0, 1], [0, 0, 0]])
    >>> marked.unpressable.astype(int).tolist(), marked.free_lights.astype(int).tolist()
    ([[1, 0, 0], [0, 1, 0]], [[0, 0, 0], [1, 1, 0]])
"""
from __future__ import annotations

from typing import Any, NamedTuple, Optional

import numpy as np
import numpy.typing as npt

from lightsout._base.errors import InvalidBoardError

__all__ = ["HOLE_MARK", "UNPRESSABLE_MARK", "FREE_MARK", "MARKS", "MarkedBoard", "mask_or_none"]

#: A cell that is not part of the board (neither a light nor a button).
HOLE_MARK = "~"
#: After a light's symbol: the cell may not be pressed.
UNPRESSABLE_MARK = "/"
#: After a light's symbol: the light need not end dark.
FREE_MARK = "'"
#: Every mark character.
MARKS = HOLE_MARK + UNPRESSABLE_MARK + FREE_MARK

#: What the marks are, said in messages.
MARKS_HELP = (f"{HOLE_MARK!r} for a hole, a light followed by {UNPRESSABLE_MARK!r} for one that may not be "
              f"pressed, by {FREE_MARK!r} for one that need not end dark")


class MarkedBoard(NamedTuple):
    """A board with its masks, as board text with marks reads: each mask None when no cell has its mark.

    :func:`lightsout.parse_board` and :func:`lightsout.read_board` return one with
    ``masks=True``; ``masks()`` gives the masks as the keywords :func:`lightsout.solve`
    takes.  The marks of board text: ``~`` a hole, a light followed by ``/`` may not be
    pressed, by ``'`` need not end dark.

    Attributes:
        lights: the light states (bool for two states, uint8 otherwise); 0 on a hole.
        holes: None, or a bool array of the board's shape: True on a hole.
        unpressable: None, or the same: True on a cell that may not be pressed.
        free_lights: None, or the same: True on a light that need not end dark.

    Example:
        >>> from lightsout import MarkedBoard, parse_board, solve
        >>> marked = parse_board("1 1 ~\\n1/ 0 0'", masks=True)
        >>> isinstance(marked, MarkedBoard)
        True
        >>> marked.masks()["holes"].astype(int).tolist(), marked.free_lights.astype(int).tolist()
        ([[0, 0, 1], [0, 0, 0]], [[0, 0, 0], [0, 0, 1]])
        >>> bool(solve(marked.lights, **marked.masks()).presses[1, 0])    # unpressable
        False
    """

    lights: np.ndarray
    holes: Optional[np.ndarray] = None
    unpressable: Optional[np.ndarray] = None
    free_lights: Optional[np.ndarray] = None

    def masks(self) -> dict[str, Any]:
        """The masks that are given, as keywords of :func:`lightsout.solve`.

        Example:
            >>> import numpy as np
            >>> from lightsout import MarkedBoard
            >>> sorted(MarkedBoard(np.zeros((1, 2), bool), unpressable=np.ones((1, 2), bool)).masks())
            ['unpressable']
        """
        given = {"holes": self.holes, "unpressable": self.unpressable, "free_lights": self.free_lights}
        return {name: mask for name, mask in given.items() if mask is not None}


def mask_or_none(mask: Optional[npt.ArrayLike], name: str, shape: tuple[int, ...], source: str) -> Optional[np.ndarray]:
    """A mask given to a writer as bools of the board's shape, None when absent or all False.

    Example:
        >>> mask_or_none([[0, 1]], "holes", (1, 2), "f").tolist(), mask_or_none([[0, 0]], "holes", (1, 2), "f")
        ([[False, True]], None)
        >>> mask_or_none([[2, 1]], "holes", (1, 2), "f")
        Traceback (most recent call last):
        ...
        lightsout.InvalidBoardError: f: holes is a mask of bools or 0/1 of the board's shape (1, 2), ...
    """
    if mask is None:
        return None
    values = np.asarray(mask)
    if values.shape != shape or values.dtype.kind not in "biu" or (values.size and not np.isin(values, (0, 1)).all()):
        raise InvalidBoardError(f"{source}: {name} is a mask of bools or 0/1 of the board's shape {shape}, "
                                f"got shape {values.shape} of {values.dtype}")
    out = values.astype(bool)
    return out if out.any() else None
