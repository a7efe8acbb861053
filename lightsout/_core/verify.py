"""A first row of the all-lit board, checked without building the board (docs/algebra.md section 15).

The n x n square's clearing identity is evaluated at random points of GF(2^64) (the
``gf2ext`` kernel, O(n) field products); a wrong row passes with probability below 2^-60
whatever it is, and a row passes for sure when its solution's first and last columns equal
the row, which every row of a board with one solution (nullity 0) does.  On a board with
several solutions, the identity is widened by the edge corrections the quiet first rows span,
and then every correct row passes.  Where the identity cannot decide (a rectangle, a nullity
above :data:`MAX_VERIFY_NULLITY`) the row is chased down the board instead, up to
:data:`MAX_VERIFY_REPLAY_CELLS` cells; beyond that the check is refused.

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

#: The largest nullity whose quiet first rows widen the identity (section 15): past it the
#: points needed grow with the nullity, and the row is replayed instead (or the check refused).
MAX_VERIFY_NULLITY = 64


def points_needed(n: int, span_bits: int = 0) -> int:
    """How many independent points of GF(2^64) keep a wrong n x n row's chance of passing below 2^-60.

    A wrong row leaves a nonzero polynomial of degree below 3n, zero at fewer than 3n of the
    2^64 - 2 points drawn from, so k points all miss with chance below (3n / 2^64)^k; when the
    identity is widened by a span of 2^span_bits edge corrections, each of them must miss.
    The count is rounded up to even: the kernel runs the points in pairs.

    Example:
        >>> points_needed(10**6), points_needed(10**9), points_needed(10**10), points_needed(10**8, 16)
        (2, 2, 4, 4)
    """
    per_point = 64 - math.log2(3 * n + 2)
    needed = max(2, math.ceil((SOUNDNESS_BITS + span_bits) / per_point))
    return needed + needed % 2


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


def field_power(a: int, e: int) -> int:
    """a^e in the kernel's GF(2^64).

    Example:
        >>> field_power(2, 64) == 0b11011        # u^64 = u^4 + u^3 + u + 1
        True
    """
    result = 1
    while e:
        if e & 1:
            result = kernels.gf2ext.field_mul(result, a)
        a = kernels.gf2ext.field_mul(a, a)
        e >>= 1
    return result


def in_span(target: int, generators: list[int]) -> bool:
    """Whether the bit vector ``target`` is a sum (XOR) of some of ``generators`` (GF(2) elimination).

    Example:
        >>> in_span(0b110, [0b100, 0b010]), in_span(0b001, [0b100, 0b110])
        (True, False)
    """
    basis: list[int] = []            # distinct leading bits, largest first
    for vector in generators:
        for b in basis:
            vector = min(vector, vector ^ b)
        if vector:
            basis.append(vector)
            basis.sort(reverse=True)
    for b in basis:
        target = min(target, target ^ b)
    return target == 0


def square_identity_holds(row: np.ndarray, n: int, *, quiet_rows: Optional[np.ndarray] = None,
                          seed: Optional[int] = None, cancel: Optional[np.ndarray] = None) -> bool:
    """Whether the packed first row ``row`` satisfies the n x n all-lit identity at random points.

    True for a wrong row with probability below 2^-60, whatever ``quiet_rows`` holds.
    Without ``quiet_rows``, True for certain when the row's solution has the row as its first
    and last columns (every row of a board of nullity 0).  With the packed first rows of a
    basis of the quiet patterns (``(d, words)`` uint64), the identity is widened by every edge
    correction they span, and every correct row passes (section 15).

    Example:
        >>> from lightsout._base.packing import pack_row
        >>> square_identity_holds(pack_row(np.ones(1, dtype=bool)), 1)
        True
    """
    nquiet = 0 if quiet_rows is None else len(quiet_rows)
    points = draw_points(points_needed(n, 2 * nquiet), seed)
    vectors = row.reshape(1, -1) if quiet_rows is None or nquiet == 0 else np.vstack([row.reshape(1, -1), quiet_rows])
    sums = kernels.gf2ext.square_identity_sums(np.ascontiguousarray(vectors, dtype=np.uint64), n, points, cancel)
    if sums is None:
        raise KeyboardInterrupt("the first-row check was cancelled")
    if nquiet == 0:
        return not sums[:, 0].any()

    def joined(values: list[int]) -> int:   # one GF(2) vector of 64 bits a point
        return sum(value << (64 * t) for t, value in enumerate(values))

    mul = kernels.gf2ext.field_mul
    at_left = [kernels.gf2ext.field_inv(int(a)) for a in points]      # the edge term of column 0: 1/a
    at_right = [field_power(int(a), n) for a in points]               # of column n - 1: a^n
    generators = []
    for j in range(1, nquiet + 1):
        generators.append(joined([mul(at_left[t], int(sums[t, j])) for t in range(len(points))]))
        generators.append(joined([mul(at_right[t], int(sums[t, j])) for t in range(len(points))]))
    return in_span(joined([int(v) for v in sums[:, 0]]), generators)


def replay_clears(row: np.ndarray, nrows: int, ncols: int) -> bool:
    """Whether chasing the packed first row down the all-lit nrows x ncols board leaves it dark.

    Example:
        >>> from lightsout._base.packing import pack_row
        >>> replay_clears(pack_row(np.array([1, 0, 0], dtype=bool)), 2, 3), replay_clears(pack_row(np.array([0, 1, 0], dtype=bool)), 2, 3)
        (True, False)
    """
    residue, _, _ = kernels.chase.chase(None, nrows, ncols, row, all_lit=True, presses=False)
    return not residue.any()


def first_row_clears(row: np.ndarray, nrows: int, ncols: int, nullity_of: Callable[[int], int],
                     quiet_of: Callable[[], np.ndarray], *, known_nullity: Optional[int] = None,
                     seed: Optional[int] = None) -> bool:
    """Whether the packed row clears the all-lit nrows x ncols board: the identity, else the replay.

    ``nullity_of(n)`` gives the n x n board's nullity and ``quiet_of()`` the packed first
    rows of a basis of its quiet patterns; they are asked only when a square row fails the
    plain identity (a row of a board with one solution that fails it is wrong; on a board
    with several, the identity widened by the quiet rows decides).  A caller that knows the
    nullity already (``known_nullity``) skips the plain identity on a board with several.

    Raises:
        BoardTooLargeError: the identity cannot decide (a rectangle, or a square board of
            nullity above ``MAX_VERIFY_NULLITY``) and the board has more than
            ``lightsout.limits.MAX_VERIFY_REPLAY_CELLS`` cells to chase.

    Example:
        >>> from lightsout._base.packing import pack_row
        >>> first_row_clears(pack_row(np.array([1, 1, 1], dtype=bool)), 3, 3, lambda n: 0, lambda: None)
        False
    """
    if nrows == ncols:
        if not known_nullity and square_identity_holds(row, nrows, seed=seed):
            return True
        nullity = nullity_of(nrows) if known_nullity is None else known_nullity
        if nullity == 0:
            return False
        if nullity <= MAX_VERIFY_NULLITY:
            return square_identity_holds(row, nrows, quiet_rows=quiet_of(), seed=seed)
        why = f"the {nrows} x {nrows} board has nullity {nullity}, above the {MAX_VERIFY_NULLITY} " \
              f"the fast check takes"
    else:
        why = "the fast check covers square boards"
    if nrows * ncols > MAX_VERIFY_REPLAY_CELLS:
        raise BoardTooLargeError(
            f"cannot verify this first row: {why}, and the {nrows} x {ncols} board has more than "
            f"lightsout.limits.MAX_VERIFY_REPLAY_CELLS = 2**34 cells to replay")
    return replay_clears(row, nrows, ncols)
