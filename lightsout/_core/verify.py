"""A first row of the all-lit board, checked without building the board (docs/algebra.md section 15).

The n x n square's clearing identity is evaluated at random points of GF(2^64) (the
``gf2ext`` kernel, O(n) field products); a wrong row passes with probability below 2^-60
whatever it is, and a row passes for sure when its solution's first and last columns equal
the row, which every row of a board with one solution (nullity 0) does.  Where the identity
cannot decide (a board with several solutions, a rectangle) the row is chased down the board
instead, up to :data:`MAX_VERIFY_REPLAY_CELLS` cells; beyond that the check is refused.

Nothing here shares code with the polynomial route: the field and the loop are the kernel's
own, and the replay is the plain chase of section 1.

Example:
    >>> import numpy as np
    >>> from lightsout._base.packing import pack_row
    >>> row = pack_row(np.array([1, 0, 1], dtype=bool))
    >>> square_identity_holds(row, 3, seed=1), square_identity_holds(pack_row(np.array([1, 1, 1], dtype=bool)), 3, seed=1)
    (True, False)
"""
from __future__ import annotations

import math
import os
from typing import Callable, Optional

import numpy as np

from lightsout import _kernels as kernels
from lightsout._base.errors import BoardTooLargeError, InvalidTypeError

#: The most cells whose row is chased down the board when the identity cannot decide
#: (a board with several solutions, a rectangle): about a second of chasing.
MAX_VERIFY_REPLAY_CELLS = 2**34

#: The chance a wrong row passes is below 2**-SOUNDNESS_BITS.
SOUNDNESS_BITS = 60


def points_needed(n: int) -> int:
    """How many independent points of GF(2^64) keep a wrong n x n row's chance of passing below 2^-60.

    A wrong row leaves a nonzero polynomial of degree below 3n, zero at fewer than 3n of the
    2^64 - 2 points drawn from, so k points all miss with chance below (3n / 2^64)^k.

    Example:
        >>> points_needed(10**6), points_needed(10**9), points_needed(10**10)
        (2, 2, 3)
    """
    per_point = 64 - math.log2(3 * n + 2)
    return max(2, math.ceil(SOUNDNESS_BITS / per_point))


def draw_points(count: int, seed: Optional[int] = None) -> np.ndarray:
    """``count`` independent uniform points of GF(2^64) other than 0 and 1 (fresh entropy unless ``seed``).

    Example:
        >>> bool((draw_points(3, seed=5) == draw_points(3, seed=5)).all()), draw_points(2).dtype.name
        (True, 'uint64')
    """
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int)):
        raise InvalidTypeError(f"seed must be None or an int, got {type(seed).__name__}")
    rng = np.random.default_rng(seed if seed is not None else int.from_bytes(os.urandom(16), "little"))
    points = np.empty(count, dtype=np.uint64)
    for k in range(count):
        value = 0
        while value < 2:          # 0 and 1 are excluded: the identity divides by a and a + 1
            value = int(rng.integers(0, 2**64, dtype=np.uint64))
        points[k] = value
    return points


def square_identity_holds(row: np.ndarray, n: int, *, seed: Optional[int] = None,
                          cancel: Optional[np.ndarray] = None) -> bool:
    """Whether the packed first row ``row`` satisfies the n x n all-lit identity at random points.

    True for a wrong row with probability below 2^-60; True for certain when the row's
    solution has the row as its first and last columns (every row of a board of nullity 0).

    Example:
        >>> from lightsout._base.packing import pack_row
        >>> square_identity_holds(pack_row(np.ones(1, dtype=bool)), 1)
        True
    """
    residues = kernels.gf2ext.square_residues(row, n, draw_points(points_needed(n), seed), cancel)
    if residues is None:
        raise KeyboardInterrupt("the first-row check was cancelled")
    return not residues.any()


def replay_clears(row: np.ndarray, nrows: int, ncols: int) -> bool:
    """Whether chasing the packed first row down the all-lit nrows x ncols board leaves it dark.

    Example:
        >>> from lightsout._base.packing import pack_row
        >>> replay_clears(pack_row(np.array([1, 0], dtype=bool)), 3, 2)
        False
    """
    residue, _, _ = kernels.chase.chase(None, nrows, ncols, row, all_lit=True, presses=False)
    return not residue.any()


def first_row_clears(row: np.ndarray, nrows: int, ncols: int, nullity_of: Callable[[int], int], *,
                     seed: Optional[int] = None) -> bool:
    """Whether the packed row clears the all-lit nrows x ncols board: the identity, else the replay.

    ``nullity_of(n)`` gives the n x n board's nullity; it is asked only when a square row
    fails the identity (a row of a board with one solution that fails it is wrong).

    Raises:
        BoardTooLargeError: the identity cannot decide (a rectangle, or a square board with
            several solutions whose row fails it) and the board has more than
            ``lightsout.limits.MAX_VERIFY_REPLAY_CELLS`` cells to chase.

    Example:
        >>> from lightsout._base.packing import pack_row
        >>> first_row_clears(pack_row(np.array([0, 1, 1, 0], dtype=bool)), 4, 4, lambda n: 4)
        True
    """
    if nrows == ncols:
        if square_identity_holds(row, nrows, seed=seed):
            return True
        nullity = nullity_of(nrows)
        if nullity == 0:
            return False
        why = f"the {nrows} x {nrows} board has nullity {nullity}, and the fast check proves only rows " \
              f"whose solution has the row as its first and last columns"
    else:
        why = "the fast check covers square boards"
    if nrows * ncols > MAX_VERIFY_REPLAY_CELLS:
        raise BoardTooLargeError(
            f"cannot verify this first row: {why}, and the {nrows} x {ncols} board has more than "
            f"lightsout.limits.MAX_VERIFY_REPLAY_CELLS = 2**34 cells to replay")
    return replay_clears(row, nrows, ncols)
