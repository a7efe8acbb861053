"""The sigma game (``self_toggle=False``) on open R x C boards through GF(2)[t]: its nullity and first row.

Under the sigma rule a press toggles its neighbours and not itself, so the row operator
is the path adjacency P itself, whose characteristic polynomial is U_{C+1}(t), and the
chase of docs/algebra.md section 1 gives the congruence

    U_{R+1}(t) F(t) = C^(t)   (mod U_{C+1}(t)),

with phi(F) = F(P) e_1 and phi(U_j) = e_j (docs/algebra.md section 7).  Two facts make it
cheap: gcd(U_a, U_b) = U_{gcd(a, b)}, so the nullity is gcd(R + 1, C + 1) - 1 with no
polynomial at all; and U_{N+k} = U_{N-k} (mod U_N), so U_{R+1} reduced mod U_{C+1} is one
U_r of small index.  The all-lit board's residue is (sum_{j<=R} U_j)(sum_{j<=C} U_j) mod
U_{C+1}, no chase; the canonical first row is the mirror image of phi(F0), F0 the solution
of least degree, as on the plain board (section 9).

The functions trust the caller's budget check (:func:`lightsout._routes.poly.refuse_poly`
of the longer side, asked where the call comes in).
"""
from __future__ import annotations

import math
from typing import Optional

import numpy as np

from lightsout._base.errors import InternalError
from lightsout._base.packing import unpack_row, words_for_bits
from lightsout._base.validate import board_size
from lightsout._core.rules import Rules
from lightsout import _kernels as kernels

__all__ = ["open_sigma", "sigma_nullity", "sigma_first_row", "folded_index", "sigma_phi_image"]


def open_sigma(rules: Rules) -> bool:
    """Whether the board is the open 2-D two-state sigma game without masks (a wrapping axis of length 1
    or 2 acts as open): the boards :func:`sigma_nullity` and :func:`sigma_first_row` take.

    Example:
        >>> open_sigma(Rules.check((4, 5), self_toggle=False)), open_sigma(Rules.check((4, 5), self_toggle=False, torus=True))
        (True, False)
    """
    return (len(rules.shape) == 2 and rules.states == 2 and not rules.self_toggle and rules.is_classic
            and not any(rules.stencil_wraps))


def sigma_nullity(nrows: int, ncols: int) -> int:
    """The nullity of the open ``nrows`` x ``ncols`` sigma game: deg gcd(U_{R+1}, U_{C+1}) = gcd(R + 1, C + 1) - 1.

    Example:
        >>> sigma_nullity(5, 5), sigma_nullity(3, 5), sigma_nullity(4, 6)
        (5, 1, 0)
    """
    nrows = board_size(nrows, "nrows")
    ncols = board_size(ncols, "ncols")
    return math.gcd(nrows + 1, ncols + 1) - 1


def folded_index(index: int, modulus_index: int) -> int:
    """The r in 0 .. N with U_index = U_r (mod U_N), N = ``modulus_index`` >= 1.

    U_{N+k} + U_{N-k} = U_N D_k (docs/algebra.md section 7): indices reflect about N, so they
    repeat with period 2N and U_{2N-r} = U_r.

    Example:
        >>> folded_index(7, 3), folded_index(4, 3), folded_index(6, 3)
        (1, 2, 0)
    """
    r = index % (2 * modulus_index)
    return 2 * modulus_index - r if r > modulus_index else r


def sigma_phi_image(f: np.ndarray, ncols: int) -> np.ndarray:
    """phi(F) = F(P) e_1 as a bool row of ``ncols`` cells, P the path adjacency, for deg F < ncols.

    phi(U_j) = e_j and t U_j(t) = D_j(t), so the row's cell j - 1 is the coefficient of
    D_j in t F(t) (the Dickson basis change of docs/algebra.md section 9).

    Example:
        >>> sigma_phi_image(np.array([0b10], dtype=np.uint64), 3).astype(int).tolist()   # P e_1 = e_2
        [0, 1, 0]
    """
    poly = kernels.gf2poly
    shifted = poly.poly_shift(np.ascontiguousarray(f, dtype=np.uint64), 1)   # t F, degree <= ncols
    dickson = poly.monomial_to_dickson(shifted)
    if int(dickson[0]) & 1:  # t F has no constant term, so no B_0 part
        raise InternalError("the sigma route's basis change left a B_0 term")
    places = poly.poly_shift(dickson, -1) if dickson.size else dickson
    words = np.zeros(words_for_bits(ncols), dtype=np.uint64)
    take = min(words.size, places.size)
    words[:take] = places[:take]
    row: np.ndarray = unpack_row(words, ncols)
    return row


def sigma_first_row(nrows: int, ncols: int) -> Optional[np.ndarray]:
    """The canonical first row (bool, column 0 first) of the all-lit open sigma board, or None when unsolvable.

    The lexicographically smallest first row, as every route returns it; None when the
    all-lit board has no solution (the caller then asks a route that builds the proof).
    O(M(n) log n) for n the longer side; no chase and no C x C matrix.

    Examples:
        >>> sigma_first_row(3, 3) is None, sigma_first_row(2, 3).astype(int).tolist()
        (True, [0, 1, 0])
        >>> sigma_first_row(4, 4).astype(int).tolist()
        [0, 0, 0, 0]
    """
    nrows = board_size(nrows, "nrows")
    ncols = board_size(ncols, "ncols")
    poly = kernels.gf2poly
    chi = poly.chebyshev_u(ncols + 1)                      # the characteristic polynomial of P
    row_sum = poly.chebyshev_u_sum(nrows)
    if nrows >= ncols:
        row_sum = poly.poly_mod(row_sum, chi)
    c_hat = poly.poly_mod(poly.poly_mul(row_sum, poly.chebyshev_u_sum(ncols)), chi)
    r = folded_index(nrows + 1, ncols + 1)                 # U_{R+1} = U_r (mod chi)
    if r in (0, ncols + 1):                               # U_{R+1} = 0: every F solves, F0 = 0
        if poly.poly_degree(c_hat) >= 0:
            return None
        return np.zeros(ncols, dtype=bool)
    g, s = poly.poly_gcd_cofactor(poly.chebyshev_u(r), chi)
    if poly.poly_degree(g) != math.gcd(nrows + 1, ncols + 1) - 1:
        raise InternalError(f"the sigma route's gcd for {nrows} x {ncols} has degree {poly.poly_degree(g)}, "
                            f"not gcd(R + 1, C + 1) - 1")
    c_over_g, rem = poly.poly_divmod(c_hat, g)
    if poly.poly_degree(rem) >= 0:
        return None
    chi_over_g, _ = poly.poly_divmod(chi, g)
    f0 = poly.poly_mod(poly.poly_mul(c_over_g, poly.poly_mod(s, chi_over_g)), chi_over_g)
    # the all-lit board is its own mirror image: the least-degree solution, mirrored, is the canonical row
    return sigma_phi_image(f0, ncols)[::-1].copy()
