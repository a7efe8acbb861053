"""The canonical solution of a coset, and the quiet pattern that proves a board unsolvable.

Every solution of ``A x + b = 0 (mod k)`` is ``particular + q`` for a quiet
pattern q (``A q = 0``).  The canonical one is the lexicographically smallest
press vector, cells in row-major order, cell (0, ..., 0) first.  With the
quiet patterns in reduced echelon form (k = 2; for other k the Howell form,
``lightsout._modring``), reducing the particular solution at every pivot
column gives exactly that vector: a nonzero quiet pattern first differs from
zero at some pivot column, where the reduced vector already holds the
smallest value its coset allows.

An unsolvable board has a proof: A is symmetric, so every quiet pattern q
satisfies ``q . (A x) = (A q) . x = 0`` for all x, and a board b with
``q . b != 0 (mod k)`` cannot be ``-A x``.  Over Z/k the image of A is exactly
the set of vectors orthogonal to every quiet pattern, so when a board is
unsolvable one of the generators of the quiet patterns meets it nonzero.
"""
from __future__ import annotations

from typing import Optional

import numpy as np

from lightsout import _kernels as kernels
from lightsout._modring import howell_form, reduce_lexmin
from lightsout._packing import pack_row, pack_rows, unpack_row, unpack_rows


def lexmin_solution(particular: np.ndarray, kernel: np.ndarray, states: int) -> tuple[np.ndarray, np.ndarray]:
    """The smallest vector of ``particular + span(kernel)`` (mod ``states``) and the reduced kernel.

    Args:
        particular: (cells,) uint8, one solution.
        kernel: (r, cells) uint8 generators of the quiet patterns; for two
            states also packed rows, (r, words) uint64 (lightsout.packed's layout).
        states: k.

    Returns:
        (canonical presses (cells,) uint8, the kernel in reduced form whose
        rows generate the same patterns; packed rows when ``kernel`` was packed).

    Example:
        >>> import numpy as np
        >>> x, basis = lexmin_solution(np.array([1, 1, 0], np.uint8), np.array([[1, 1, 1]], np.uint8), 2)
        >>> x.tolist(), basis.tolist()
        ([0, 0, 1], [[1, 1, 1]])
        >>> x, basis = lexmin_solution(np.array([1, 1, 0], np.uint8), np.array([[7]], np.uint64), 2)
        >>> x.tolist(), basis.tolist()
        ([0, 0, 1], [[7]])
    """
    particular = np.ascontiguousarray(particular, dtype=np.uint8)
    cells = particular.size
    if len(kernel) == 0:
        return particular.copy(), np.asarray(kernel).reshape(0, kernel.shape[1] if kernel.ndim == 2 else cells)
    if states == 2:
        rows = np.array(kernel, dtype=np.uint64) if kernel.dtype == np.uint64 else pack_rows(kernel)
        rank, pivots = kernels.gf2elim.rref_inplace(rows, cells)
        vector = pack_row(particular)
        for i in range(int(rank)):  # reduced echelon: clearing a pivot column is final
            p = int(pivots[i])
            if (int(vector[p >> 6]) >> (p & 63)) & 1:
                vector ^= rows[i]
        basis = rows[: int(rank)]
        smallest = unpack_row(vector, cells).view(np.uint8).copy()
        return smallest, (basis if kernel.dtype == np.uint64 else unpack_rows(basis, cells).view(np.uint8))

    howell = howell_form(np.ascontiguousarray(kernel, dtype=np.uint8), states)
    return reduce_lexmin(particular, howell, states), howell


def proof_pattern(kernel: np.ndarray, board: np.ndarray, states: int) -> Optional[np.ndarray]:
    """The first generator of the quiet patterns meeting ``board`` nonzero (mod k), or None.

    ``kernel`` as for :func:`lexmin_solution` (uint8 rows, or packed uint64 rows
    for two states); the pattern is returned as (cells,) uint8.

    Example:
        >>> import numpy as np
        >>> proof_pattern(np.array([[1, 0, 1]], np.uint8), np.array([1, 0, 0], np.uint8), 2).tolist()
        [1, 0, 1]
        >>> proof_pattern(np.array([[5]], np.uint64), np.array([1, 0, 0], np.uint8), 2).tolist()
        [1, 0, 1]
    """
    flat = np.asarray(board, dtype=np.int64).ravel()
    for row in kernel:
        if kernel.dtype == np.uint64:
            row = unpack_row(row, flat.size).view(np.uint8)
        if int(np.dot(row.astype(np.int64), flat)) % states:
            found: np.ndarray = row
            return found
    return None
