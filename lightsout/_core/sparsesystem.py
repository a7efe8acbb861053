"""A press system given by its entries, solved whole, with the left kernel's proof when it has no solution.

The general grid route (any stencil, masks) and directed graphs both pose ``A x + b == 0 (mod k)``
with A not symmetric, given as lists of entries: for each weight, the rows and columns it adds
to (at most once a column per list).  :func:`solve_entries` writes A out (packed bits for two
states, bytes over Z/k) and solves it with the project's one GF(2) solver
(``lightsout/_core/gf2system.py``) or ``lightsout/_core/modring.py``.

Without symmetry a quiet pattern proves nothing; the proof of an unsolvable system is a row
vector y with ``y A == 0 (mod k)`` and ``y . b != 0``: for two states the combination of
equations the elimination found reading ``0 = 1``, over Z/k a generator of the kernel of A's
transpose meeting b nonzero (the image of A is exactly what every such y annihilates, over
Z/k as over a field, so one of the generators does).

Example:
    >>> import numpy as np
    >>> rows, cols = np.array([0, 1]), np.array([0, 0])          # one unknown that adds 1 to both equations
    >>> found = solve_entries(2, 1, [(rows, cols, 1)], np.array([1, 0]), 2)
    >>> found.solution, found.proof.tolist()                     # x = 1 and x = 0 at once: the sum reads 0 = 1
    (None, [1, 1])
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Optional, Sequence

import numpy as np
import numpy.typing as npt

from lightsout._base.errors import InternalError
from lightsout._base.packing import words_for_bits
from lightsout._core.gf2system import solve_gf2
from lightsout._core.modring import solve_mod

__all__ = ["EntrySolution", "Entries", "solve_entries", "system_bytes"]

U8 = npt.NDArray[np.uint8]
I64 = npt.NDArray[np.int64]
#: A system's entries: for every weight, the (rows, columns) it adds to, at most once a column.
Entries = Sequence[tuple[npt.NDArray[np.integer], npt.NDArray[np.integer], int]]


@dataclass(frozen=True, eq=False)
class EntrySolution:
    """What :func:`solve_entries` found.

    Attributes:
        solution: ``(ncols,)`` uint8 with ``A x + b == 0``, or None.
        nullity, count: of the kernel of A (count: its number of elements).
        kernel: ``(r, ncols)`` uint8 generators of ``{x : A x == 0}`` (empty without ``kernel=True``).
        proof: ``(nrows,)`` uint8, y with ``y A == 0`` and ``y . b != 0``, when unsolvable and asked for.
    """

    solution: Optional[U8]
    nullity: int
    count: int
    kernel: U8
    proof: Optional[U8]


def system_bytes(nrows: int, ncols: int, states: int) -> int:
    """The bytes :func:`solve_entries` holds for a system of this size, its proof's room included.

    Example:
        >>> system_bytes(1000, 1000, 2), system_bytes(1000, 1000, 3)
        (512000, 4000000)
    """
    if states == 2:
        return 2 * nrows * words_for_bits(ncols + 1 + nrows) * 8
    return 4 * nrows * ncols


def solve_entries(nrows: int, ncols: int, entries: Entries, rhs: npt.ArrayLike, states: int, *,
                  kernel: bool = True) -> EntrySolution:
    """Solve ``A x + b == 0 (mod k)``, A given by its entries; with ``kernel`` its kernel and, unsolvable, the proof.

    The caller has refused what would not fit (:func:`system_bytes`).

    Example:
        >>> rows, cols = np.array([0, 1]), np.array([0, 1])
        >>> found = solve_entries(2, 2, [(rows, cols, 1), (np.array([1]), np.array([0]), 2)], np.array([1, 1]), 3)
        >>> found.solution.tolist(), found.nullity                  # x0 = 2, then x1 = 2 - 2 * 2 = 1 (mod 3)
        ([2, 1], 0)
    """
    b = np.asarray(rhs, dtype=np.int64) % states
    if nrows == 0 or ncols == 0:
        solvable = not b.any()
        proof = None if solvable else (np.arange(nrows) == int(np.flatnonzero(b)[0])).astype(np.uint8)
        nullity = ncols if nrows == 0 else 0
        return EntrySolution(np.zeros(ncols, dtype=np.uint8) if solvable else None, nullity, states ** nullity,
                             np.eye(nullity, ncols, dtype=np.uint8) if kernel else np.zeros((0, ncols), np.uint8),
                             proof if kernel else None)
    if states == 2:
        system = np.zeros((nrows, words_for_bits(ncols + 1)), dtype=np.uint64)
        for rows, cols, weight in entries:
            if weight & 1:
                columns = np.asarray(cols, dtype=np.int64)
                np.bitwise_xor.at(system, (np.asarray(rows, dtype=np.int64), columns >> 6),
                                  np.uint64(1) << (columns & 63).astype(np.uint64))
        system[:, ncols >> 6] |= b.astype(np.uint64) << np.uint64(ncols & 63)
        gf2 = solve_gf2(system, ncols, proof=kernel)
        basis = gf2.kernel if kernel else np.zeros((0, ncols), dtype=np.uint8)
        return EntrySolution(gf2.solution, gf2.nullity, gf2.count, basis, gf2.proof)
    matrix = np.zeros((nrows, ncols), dtype=np.uint8)
    for rows, cols, weight in entries:
        matrix[rows, cols] = (matrix[rows, cols].astype(np.int64) + weight) % states
    ring = solve_mod(matrix, (-b) % states, states)
    proof = _left_kernel_proof(matrix, b, states) if ring.solution is None and kernel else None
    basis = ring.kernel if kernel else np.zeros((0, ncols), dtype=np.uint8)
    return EntrySolution(ring.solution, ring.nullity, ring.count, basis, proof)


def _left_kernel_proof(matrix: U8, board: I64, states: int) -> U8:
    """A generator y of ``{y : y A == 0 (mod k)}`` with ``y . b != 0 (mod k)`` (one exists: b is not in A's image)."""
    left = solve_mod(np.ascontiguousarray(matrix.T), np.zeros(matrix.shape[1], dtype=np.uint8), states).kernel
    for row in left:
        if int(row.astype(np.int64) @ board) % states:
            found: U8 = row
            return found
    raise InternalError("an unsolvable system whose left kernel meets the board in 0 only")
