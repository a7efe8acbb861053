"""The fewest presses with k states: the coset over Z/k written out (small cosets only)."""
from __future__ import annotations

import math

import numpy as np
import numpy.typing as npt

from lightsout._base.errors import BoardTooLargeError, InvalidBoardError, InvalidTypeError
from lightsout._base.validate import states_count
from lightsout._core.modring import rref_prime
from lightsout._search.cosetform import CosetMinimum

__all__ = ["MAX_MOD_ELEMENTS", "coset_min_weight_mod", "is_prime"]


#: :func:`coset_min_weight_mod` enumerates the coset; up to this many elements.
MAX_MOD_ELEMENTS = 1 << 22


def coset_min_weight_mod(particular: npt.ArrayLike, generators: npt.ArrayLike, modulus: int) -> CosetMinimum:
    """The fewest presses over Z/k, presses counted with multiplicity, by enumeration.

    The coset is ``particular + span(generators)`` over Z/k (any k from 2 to 255; for
    composite k the generators may have different orders, as in a Howell form), and
    the weight of an element is the sum of its values 0..k-1.  Every element is
    written out, so the span may have at most :data:`MAX_MOD_ELEMENTS` elements.

    Returns:
        A :class:`CosetMinimum` (always proven) with the lexicographically smallest
        element of minimum weight (cell 0 most significant); ``coefficients`` is 0
        (combinations over Z/k are not unique in general).

    Raises:
        BoardTooLargeError: a span with more than MAX_MOD_ELEMENTS elements.

    Example:
        >>> import numpy as np       # 1 x 2 board, 3 states: quiet pattern (1, 2)
        >>> best = coset_min_weight_mod(np.array([2, 2]), np.array([[1, 2]]), 3)
        >>> best.presses.tolist(), best.weight        # (2, 2), (0, 1), (1, 0): a tie, (0, 1) first
        ([0, 1], 1)
    """
    k = states_count(modulus, "modulus")
    x0 = np.asarray(particular)
    gens = np.asarray(generators)
    if x0.ndim != 1 or gens.ndim != 2 or gens.shape[1] != x0.shape[0]:
        raise InvalidBoardError(f"particular must be (cells,) and generators (r, cells), got {x0.shape}, {gens.shape}")
    for name, arr in (("particular", x0), ("generators", gens)):
        if arr.dtype != np.bool_ and not np.issubdtype(arr.dtype, np.integer):
            raise InvalidTypeError(f"{name} must hold integers, got dtype {arr.dtype}")
        if arr.size and (arr.min() < 0 or arr.max() >= k):
            raise InvalidBoardError(f"{name} must hold values in 0..{k - 1}")
    cells = x0.shape[0]
    too_many = BoardTooLargeError(f"the coset over Z/{k} has more than {MAX_MOD_ELEMENTS} elements "
                                  f"(lightsout.limits.MAX_MOD_ELEMENTS); too many to enumerate")
    span = np.zeros((1, cells), dtype=np.uint8)
    if is_prime(k):
        basis, _ = rref_prime(gens.astype(np.int64), k)
        if k ** len(basis) > MAX_MOD_ELEMENTS:
            raise too_many
        for row in basis:
            span = np.concatenate([((span.astype(np.int64) + t * row) % k).astype(np.uint8) for t in range(k)])
    else:
        for g in gens.astype(np.int64):
            if cells == 0 or not g.any():
                continue
            if span.shape[0] * k > 4 * MAX_MOD_ELEMENTS:
                raise too_many
            grown = np.concatenate([((span.astype(np.int64) + t * g) % k).astype(np.uint8) for t in range(k)])
            keys = np.ascontiguousarray(grown).view(np.dtype((np.void, cells)))[:, 0]
            _, first = np.unique(keys, return_index=True)
            span = grown[np.sort(first)]
            if span.shape[0] > MAX_MOD_ELEMENTS:
                raise too_many
    elements = (span.astype(np.int64) + x0.astype(np.int64)) % k
    weights = elements.sum(axis=1)
    best = elements[weights == weights.min()]
    order = np.lexsort(best.T[::-1]) if cells else np.zeros(1, dtype=np.int64)
    presses = best[order[0]].astype(np.uint8)
    return CosetMinimum(presses, int(presses.astype(np.int64).sum()), True, 0)


def is_prime(k: int) -> bool:
    return k >= 2 and all(k % q for q in range(2, int(math.isqrt(k)) + 1))
