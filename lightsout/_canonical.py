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


def lexmin_solution(particular: np.ndarray, kernel: np.ndarray, states: int) -> tuple[np.ndarray, np.ndarray]:
    """The smallest vector of ``particular + span(kernel)`` (mod ``states``) and the reduced kernel.

    Args:
        particular: (cells,) uint8, one solution.
        kernel: (r, cells) uint8 generators of the quiet patterns.
        states: k.

    Returns:
        (canonical presses (cells,) uint8, the kernel in reduced form whose
        rows generate the same patterns).

    Example:
        >>> import numpy as np
        >>> x, basis = lexmin_solution(np.array([1, 1, 0], np.uint8), np.array([[1, 1, 1]], np.uint8), 2)
        >>> x.tolist(), basis.tolist()
        ([0, 0, 1], [[1, 1, 1]])
    """
    particular = np.ascontiguousarray(particular, dtype=np.uint8)
    if len(kernel) == 0:
        return particular.copy(), np.asarray(kernel, dtype=np.uint8).reshape(0, particular.size)
    if states == 2:
        from lightsout.gf2 import rref

        basis, pivots = rref(kernel.astype(bool))
        out = particular.astype(bool)
        for row, col in zip(basis, pivots):  # reduced echelon: clearing a pivot column is final
            if out[col]:
                out ^= row
        return out.astype(np.uint8), basis.astype(np.uint8)
    from lightsout._modring import howell_form, reduce_lexmin

    howell = howell_form(np.ascontiguousarray(kernel, dtype=np.uint8), states)
    return reduce_lexmin(particular, howell, states), howell


def proof_pattern(kernel: np.ndarray, board: np.ndarray, states: int) -> Optional[np.ndarray]:
    """The first generator of the quiet patterns meeting ``board`` nonzero (mod k), or None.

    Example:
        >>> import numpy as np
        >>> proof_pattern(np.array([[1, 0, 1]], np.uint8), np.array([1, 0, 0], np.uint8), 2).tolist()
        [1, 0, 1]
    """
    flat = np.asarray(board, dtype=np.int64).ravel()
    for row in kernel:
        if int(np.dot(row.astype(np.int64), flat)) % states:
            found: np.ndarray = row
            return found
    return None
