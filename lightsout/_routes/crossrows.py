"""First rows of the all-lit board under a cross-shaped stencil, by polynomials in the row operator.

A two-state stencil is *cross-shaped* when every cell it changes lies on its centre's row or
its centre's column (the plus rule of any radius, the σ game, one-way arms of any length).
Then a press changes its own row through one operator R (the centre row's weights, an m x m
banded Toeplitz matrix) and the other rows by the identity, so every row of a chase down the
board is a polynomial in R applied to the free top rows and to the all-ones row
(docs/algebra.md, section 14):

    p_{i+up} = 1 + R p_i + sum of p_{i-d} over the column's weights d != 0, -up

where ``up`` is how far a press reaches above itself (the top rows 0..up-1 are free).  Writing
``p_i = sum_j F_ij(R) p_j + G_i(R) 1`` (scalar recurrences over GF(2)[t]), the board is dark
when the rows the chase would press below the board vanish: ``M(R) x = g(R) 1`` with the
up x up polynomial matrix ``M_aj = F_{n+a, j}``.  Its blocks commute, so with
``D = det M`` and ``chi = det(tI + R)`` the system has one solution exactly when
``gcd(D, chi) = 1``, and then ``x = (D^-1 mod chi) adj(M) g`` evaluated at R on the all-ones
row.  ``chi`` comes from the same kind of chase along a row (the shooting method for banded
matrices whose outermost diagonal is 1).

Cost: O(n^2 / 64 + m^2 / 64) word operations (the recurrences and the evaluations at R) plus
a few products of degree max(n, m) polynomials; no n x m board is built.  Boards whose system
is singular (nullity > 0) are left to the stencil chase: :func:`cross_first_rows` returns None.
Every answer is replayed (the chase down the board, row by row) before it is returned.
"""
from __future__ import annotations

from typing import Optional

import numpy as np
import numpy.typing as npt

from lightsout._base.errors import InternalError
from lightsout._core.stencil import Stencil
from lightsout import _kernels as kernels

__all__ = ["LONGEST_CROSS_SIDE", "cross_arms", "cross_first_rows"]

#: Longest side the polynomial first rows take, a threshold and not a refusal: the recurrences are
#: quadratic in it (a side of 10^5 is about 2 * 10^8 word operations in Python integers), and longer
#: sides go to the stencil chase.
LONGEST_CROSS_SIDE = 100_000

_T = 0b10  # the polynomial t

#: (vertical arms, horizontal arms): the offsets d with "light (i, j) gets press (i - d, j)", and e
#: with "light (i, j) gets press (i, j - e)", for the centre column and the centre row.
Arms = tuple[tuple[int, ...], tuple[int, ...]]


def cross_arms(stencil: Stencil) -> Optional[Arms]:
    """The arms of a 2-D two-state cross-shaped stencil whose top cell is above its centre, else None.

    Example:
        >>> cross_arms(Stencil.named("plus", radius=2))
        ((-2, -1, 1, 2), (-2, -1, 0, 1, 2))
        >>> cross_arms(Stencil.named("x")) is None
        True
    """
    if stencil.ndim != 2:
        return None
    centre_row, centre_col = stencil.centre
    vertical, horizontal = [], []
    for (row, col), weight in np.ndenumerate(stencil.weights):
        if weight % 2 == 0:
            continue
        if weight != 1:
            return None  # a weight of 3 on two states means a mod-2 reduction the caller did not make
        if row == centre_row:
            horizontal.append(col - centre_col)
        elif col == centre_col:
            vertical.append(row - centre_row)
        else:
            return None
    if not vertical or min(vertical) >= 0:
        return None  # no press reaches above itself: no free top row
    return tuple(sorted(vertical)), tuple(sorted(horizontal))


def cross_first_rows(nrows: int, ncols: int, stencil: Stencil) -> Optional[npt.NDArray[np.bool_]]:
    """The free top rows of the one solution of the all-lit open board, or None when there is not one.

    Returns a ``(min(up, nrows), ncols)`` bool array, where ``up`` is how far a press reaches
    above itself; None when the stencil is not cross-shaped (:func:`cross_arms`), a side is longer
    than :data:`LONGEST_CROSS_SIDE`, or the board has several solutions or none (nullity > 0).

    Example:
        >>> import lightsout
        >>> plus2 = Stencil.named("plus", radius=2)
        >>> rows = cross_first_rows(5, 6, plus2)          # a press reaches two rows up: two free rows
        >>> rows.shape, bool((rows == lightsout.solve(np.ones((5, 6)), stencil=plus2).presses[:2]).all())
        ((2, 6), True)
        >>> cross_first_rows(5, 5, plus2) is None          # nullity 4 here: left to the stencil chase
        True
    """
    arms = cross_arms(stencil)
    if arms is None or max(nrows, ncols) > LONGEST_CROSS_SIDE:
        return None
    vertical, horizontal = arms
    up = -vertical[0]
    # p_{i+up} = 1 + R p_i + sum p_{i-d}: R as the polynomial t, the other rows with weight 1
    ends = _shoot(nrows, up, [(0, _T)] + [(-d, 1) for d in vertical if d != -up], affine=True)
    system = [coefficients for coefficients, _ in ends]
    rhs = [constant for _, constant in ends]
    chi = _row_charpoly(horizontal, ncols)
    g, inverse, _ = (_to_int(part) for part in kernels.gf2poly.poly_xgcd(_words(_mod(_det(system), chi)),
                                                                      _words(chi)))
    if g != 1:
        return None
    adjugate = _adjugate(system)
    ones = (1 << ncols) - 1
    rows = []
    for j in range(up):
        combined = 0
        for a in range(up):
            combined ^= _mul(adjugate[j][a], rhs[a])
        rows.append(_apply_at_row_operator(_mod(_mul(_mod(combined, chi), inverse), chi), horizontal, ncols, ones))
    rows = rows[:nrows]
    if not _clears_all_lit(rows, nrows, ncols, vertical, horizontal):
        raise InternalError(f"the cross first rows of the {nrows} x {ncols} board do not clear it")
    out = np.zeros((len(rows), ncols), dtype=bool)
    for i, row in enumerate(rows):
        out[i] = np.unpackbits(np.frombuffer(row.to_bytes((ncols + 7) // 8, "little"), dtype=np.uint8),
                               bitorder="little")[:ncols].astype(bool)
    return out


# -- polynomials over GF(2) as Python ints (bit i: the coefficient of t^i) ---------------------------------

def _words(poly: int) -> npt.NDArray[np.uint64]:
    size = max(8, (poly.bit_length() + 63) // 64 * 8)
    return np.frombuffer(poly.to_bytes(size, "little"), dtype=np.uint64).copy()


def _to_int(words: npt.NDArray[np.uint64]) -> int:
    return int.from_bytes(np.ascontiguousarray(words, dtype=np.uint64).tobytes(), "little")


def _mul(a: int, b: int) -> int:
    if a == 0 or b == 0:
        return 0
    return _to_int(kernels.gf2poly.poly_mul(_words(a), _words(b)))


def _mod(a: int, b: int) -> int:
    return _to_int(kernels.gf2poly.poly_mod(_words(a), _words(b)))


def _times_small(poly: int, factor: int) -> int:
    """poly * factor for a factor of a few coefficients (t, t + 1, 1)."""
    out, shift = 0, 0
    while factor:
        if factor & 1:
            out ^= poly << shift
        factor >>= 1
        shift += 1
    return out


def _shoot(length: int, free: int, terms: list[tuple[int, int]], *, affine: bool) -> list[tuple[list[int], int]]:
    """A linear recurrence over GF(2)[t], each term as coefficients on the free starting values.

    x_0..x_{free-1} are the free values; x_{k+free} = sum of poly * x_{k+d} over ``terms`` (d, poly),
    plus 1 when ``affine``, for k = 0..length-1, with x_k = 0 for k < 0.  Returns x_length ..
    x_{length+free-1}, each as (coefficients on the free values, constant).
    """
    behind = max([free] + [-d for d, _ in terms]) + 1
    zero: tuple[list[int], int] = ([0] * free, 0)
    window = {k: ([int(j == k) for j in range(free)], 0) for k in range(free)}
    for k in range(length):
        coefficients, constant = [0] * free, int(affine)
        for d, poly in terms:
            source, source_constant = window.get(k + d, zero)
            coefficients = [a ^ _times_small(b, poly) for a, b in zip(coefficients, source)]
            constant ^= _times_small(source_constant, poly)
        window[k + free] = (coefficients, constant)
        window.pop(k - behind, None)
    return [window[length + a] for a in range(free)]


def _det(matrix: list[list[int]]) -> int:
    """The determinant of a small square polynomial matrix (cofactors along the first row)."""
    if not matrix:
        return 1
    total = 0
    for j, entry in enumerate(matrix[0]):
        if entry:
            total ^= _mul(entry, _det([row[:j] + row[j + 1:] for row in matrix[1:]]))
    return total


def _adjugate(matrix: list[list[int]]) -> list[list[int]]:
    """adj(M), with M adj(M) = det(M) I (signs vanish over GF(2))."""
    size = len(matrix)
    return [[_det([row[:i] + row[i + 1:] for k, row in enumerate(matrix) if k != j]) for j in range(size)]
            for i in range(size)]


def _row_charpoly(horizontal: tuple[int, ...], ncols: int) -> int:
    """det(tI + R) for the row operator R ((R x)[j] = sum of x[j - e] over the arms e), by shooting along a row.

    (tI + R) v = 0 read row by row determines v_{j+left} from the values before it, where ``left``
    is how far the operator reaches to the left; the determinant is that of the left x left
    matrix saying how v_m .. v_{m+left-1} depend on the free v_0 .. v_{left-1} (the outermost
    diagonal is 1).  With no arm to the left R is triangular: (t + R[0, 0])^m.
    """
    diagonal = _T ^ (1 if 0 in horizontal else 0)
    if not horizontal or horizontal[0] >= 0:
        power, out = diagonal, 1
        for bit in bin(ncols)[2:]:
            out = _mul(out, out)
            if bit == "1":
                out = _mul(out, power)
        return out
    left = -horizontal[0]
    terms = [(0, diagonal)] + [(-e, 1) for e in horizontal if e not in (0, -left)]
    return _det([coefficients for coefficients, _ in _shoot(ncols, left, terms, affine=False)])


# -- rows as Python ints (bit j: column j) -----------------------------------------------------------------

def _row_operator(row: int, horizontal: tuple[int, ...], full: int) -> int:
    """R row: column j gets the columns j - e."""
    out = 0
    for e in horizontal:
        out ^= (row << e) if e >= 0 else (row >> -e)
    return out & full


def _apply_at_row_operator(poly: int, horizontal: tuple[int, ...], ncols: int, row: int) -> int:
    """poly(R) row, by Horner."""
    full = (1 << ncols) - 1
    out = 0
    for k in range(poly.bit_length() - 1, -1, -1):
        out = _row_operator(out, horizontal, full)
        if (poly >> k) & 1:
            out ^= row
    return out


def _clears_all_lit(top: list[int], nrows: int, ncols: int, vertical: tuple[int, ...],
                    horizontal: tuple[int, ...]) -> bool:
    """Whether chasing the all-lit board from these top rows leaves it dark: each light row forces the
    press row ``up`` below it, and the rows the chase would press below the board must be empty."""
    full = (1 << ncols) - 1
    up = -vertical[0]
    rows = list(top)
    for i in range(nrows):
        light = full ^ _row_operator(rows[i], horizontal, full)
        for d in vertical:
            if d != -up and 0 <= i - d < len(rows):
                light ^= rows[i - d]
        if i + up < nrows:
            if i + up != len(rows):
                return False
            rows.append(light)
        elif light:
            return False
    return True
