"""Separable stencils: a press matrix that is a product of one operator per axis, inverted axis by axis.

A two-state stencil is *separable* when its weights are an outer product of one 0/1 vector
per axis (the 3 x 3 rule is [1 1 1] x [1 1 1]; 3 x 3 x 3 the same three times; a full
rectangle of any size; a line).  On an open board its press matrix is then the Kronecker
product ``U_1 (x) U_2 (x) ... (x) U_d`` of banded Toeplitz operators, one per axis, so

    A x = b   <=>   x = b  x_1 U_1^-1  x_2 U_2^-1 ... x_d U_d^-1

(applying each inverse along its own axis, every other axis a batch of independent
right-hand sides).  Each ``U_a^-1`` is a one-dimensional light chase: the entries within
the operator's reach above the first are free, every later one is forced, and the few
equations left at the far end fix the free ones through a small matrix H (the same for every
right-hand side).  A is invertible exactly when every U_a is, that is when every H is; then
the board has one solution and it is found in O(cells x stencil) bit operations on whole
slices, with no system of the board's size.  A singular factor (the 3 x 3 rule on a side
of 3j + 2 cells) leaves the board to the windowed chase: :func:`solve_separable` returns None.
(docs/algebra.md, section 14.)
"""
from __future__ import annotations

from typing import Optional

import numpy as np
import numpy.typing as npt

from lightsout._core.modring import solve_mod
from lightsout._core.stencil import Stencil

__all__ = ["separable_factors", "separable_invertible", "solve_separable"]

#: One axis's factor: the offsets o (from the pressed cell) its press reaches along the axis.
Factor = tuple[int, ...]


def separable_factors(stencil: Stencil) -> Optional[list[Factor]]:
    """The per-axis offsets of a two-state stencil that is an outer product of 0/1 vectors, else None.

    Example:
        >>> separable_factors(Stencil.named("moore"))
        [(-1, 0, 1), (-1, 0, 1)]
        >>> separable_factors(Stencil.named("plus")) is None
        True
    """
    support = (stencil.weights % 2).astype(bool)
    if (stencil.weights > 1).any():
        return None
    factors = []
    product = np.ones((1,) * stencil.ndim, dtype=bool)
    for axis in range(stencil.ndim):
        others = tuple(a for a in range(stencil.ndim) if a != axis)
        line = support.any(axis=others) if others else support
        factors.append(tuple(int(o) for o in np.flatnonzero(line) - stencil.centre[axis]))
        product = product & line.reshape([-1 if a == axis else 1 for a in range(stencil.ndim)])
    if not np.array_equal(product, support):
        return None
    return factors


def solve_separable(lights: npt.NDArray[np.uint8], factors: list[Factor]) -> Optional[npt.NDArray[np.bool_]]:
    """The one press vector that clears ``lights`` on an open two-state board, or None when A is singular.

    Args:
        lights: the board, any number of axes (nonzero: lit).
        factors: :func:`separable_factors` of the board's stencil.

    Example:
        >>> presses = solve_separable(np.ones((4, 4), np.uint8), separable_factors(Stencil.named("moore")))
        >>> presses.astype(int).tolist()         # the 3 x 3 rule: each corner's press covers a quarter
        [[1, 0, 0, 1], [0, 0, 0, 0], [0, 0, 0, 0], [1, 0, 0, 1]]
    """
    values = np.asarray(lights).astype(bool)
    for axis, offsets in enumerate(factors):
        solved = _inverse_along(np.moveaxis(values, axis, 0), offsets)
        if solved is None:
            return None
        values = np.moveaxis(solved, 0, axis)
    return np.ascontiguousarray(values)


def _inverse_along(rhs: npt.NDArray[np.bool_], offsets: Factor) -> Optional[npt.NDArray[np.bool_]]:
    """U^-1 rhs along axis 0, every other axis a batch, for (U y)[i] = xor of y[i - o] over the offsets."""
    size = rhs.shape[0]
    up = max(0, -min(offsets))  # light i is reached last by press i + up: the first ``up`` presses are free
    if up == 0 and 0 not in offsets:
        return None  # every press reaches only later cells: U is strictly triangular, singular
    batch = rhs.reshape(size, -1)
    particular = _chase(batch, offsets, up)
    if up == 0:
        return particular[:size].reshape(rhs.shape)
    # the chases of each free unit, one column each; their tails say how the free values move the far end
    units = np.zeros((size, up), dtype=bool)
    homogeneous = _chase(units, offsets, up, free=np.eye(up, dtype=bool))
    inverse = _gf2_inverse(homogeneous[size:size + up])
    if inverse is None:
        return None
    # free values z with H z = tail of the particular chase, for every column at once; then y = y0 + sum z_k h_k
    tail = particular[size:size + up]
    solution = particular[:size]
    for k in range(up):
        free = np.bitwise_xor.reduce(tail[inverse[k]], axis=0) if inverse[k].any() else None
        if free is not None:
            solution[homogeneous[:size, k]] ^= free
    return solution.reshape(rhs.shape)


def separable_invertible(shape: tuple[int, ...], factors: list[Factor]) -> bool:
    """Whether the open board's press matrix is invertible (every axis's operator is): nullity 0.

    Example:
        >>> moore = separable_factors(Stencil.named("moore"))
        >>> separable_invertible((4, 4), moore), separable_invertible((5, 4), moore)    # 5 = 3 * 1 + 2
        (True, False)
    """
    for size, offsets in zip(shape, factors):
        up = max(0, -min(offsets))
        if up == 0:
            if 0 not in offsets:
                return False
            continue
        homogeneous = _chase(np.zeros((size, up), dtype=bool), offsets, up, free=np.eye(up, dtype=bool))
        if _gf2_inverse(homogeneous[size:size + up]) is None:
            return False
    return True


def _chase(rhs: npt.NDArray[np.bool_], offsets: Factor, up: int,
           free: Optional[npt.NDArray[np.bool_]] = None) -> npt.NDArray[np.bool_]:
    """y[i + up] = rhs[i] ^ xor of y[i - o] over the other offsets, for i < size; y[:up] = ``free`` (or 0).

    Returns y of ``size + up`` rows: the presses, then the ``up`` rows the chase would press past
    the end (all zero exactly when y solves U y = rhs).
    """
    size, width = rhs.shape[0], (rhs.shape[1] if free is None else free.shape[1])
    out = np.zeros((size + up, width), dtype=bool)
    if free is not None:
        out[:up] = free
    last = -up
    for i in range(size):
        row = out[i + up]
        if free is None:
            row ^= rhs[i]
        for o in offsets:
            if o != last and 0 <= i - o < size + up:
                row ^= out[i - o]
    return out


def _gf2_inverse(matrix: npt.NDArray[np.bool_]) -> Optional[npt.NDArray[np.bool_]]:
    """The inverse of a small square 0/1 matrix over GF(2), column by column through the package's solver,
    or None when it is singular."""
    size = matrix.shape[0]
    columns = []
    for unit in np.eye(size, dtype=np.uint8):
        system = solve_mod(matrix.astype(np.uint8), unit, 2)
        if system.nullity or system.solution is None:
            return None
        columns.append(system.solution.astype(bool))
    return np.stack(columns, axis=1)
