"""Nullities of 2-D two-state boards with a wrapping axis (the torus, or one axis wrapping) through GF(2)[y].

Let x be the shift along a wrapping axis of length R >= 3 and B the ring of the other axis,
of C cells: B = GF(2)[y]/(y^C + 1) with slice operator s = tau + y + 1/y when it wraps too,
or B = GF(2)[t]/(chi), chi = U_{C+1}(t + tau) (the plain chi of section 2, or the sigma game's
U_{C+1}) with s = t when it is open; tau is 1 under the plus rule and 0 in the sigma game.
The press operator is multiplication by x + 1/x + s on B[x]/(x^R + 1), and its nullity is
the dimension of the quotient B[x]/(x^R + 1, x^2 + s x + 1).  Modulo the monic x^2 + s x + 1,
x^R = U_R(s) x + U_{R-1}(s), so the quotient is the cokernel over B of the 2 x 2 matrix

    M = [[U_{R-1}(s) + 1, U_R(s)], [U_R(s), U_{R+1}(s) + 1]],

and lifting to polynomials, its dimension is deg gcd(det M, N gcd(entries of M, N)), N the
modulus of B (the second determinantal divisor of [M | N I]; docs/algebra.md section 7).
The U_k(s) in B come from the doubling ladder U_{2k} = s U_k^2, U_{2k+1} = (U_k + U_{k+1})^2,
log R steps of squarings, which in GF(2)[y]/(y^C + 1) only move bits.

The functions trust the caller's budget check (:func:`lightsout._routes.poly.refuse_poly`
of the longer side).
"""
from __future__ import annotations

import numpy as np

from lightsout._base.errors import BoardTooLargeError, InternalError
from lightsout._base.packing import pack_row
from lightsout._base.validate import board_size
from lightsout._core.rules import Rules
from lightsout._routes.poly import MAX_POLY_BYTES, refuse_poly
from lightsout._routes.polysigma import open_sigma, sigma_nullity
from lightsout import _kernels as kernels

__all__ = ["wrapped_nullity", "cylinder_nullity", "cyclic_chebyshev", "poly_rules_take", "poly_rules_nullity", "refuse_poly_rules"]

#: Bytes of scratch a cell of the cyclic axis costs the ladder (a few bool vectors of C cells live at once).
CYCLIC_BYTES_PER_CELL = 12


def refuse_poly_rules(rules: Rules) -> None:
    """Refuse, before any work, a sigma or wrapped board whose polynomials would pass ``MAX_POLY_BYTES``:
    the polynomial route's budget of the longer side, and the cyclic ladder's bool vectors of the shorter
    one when both axes wrap.

    Example:
        >>> refuse_poly_rules(Rules.of_grid(10**6, 10**6, torus=True))
        >>> refuse_poly_rules(Rules.of_grid(10**9, 10**9, torus=True))
        Traceback (most recent call last):
        ...
        lightsout.BoardTooLargeError: a torus with a 1000000000-cell wrapping side needs about 11.2 GiB ...
    """
    refuse_poly(max(rules.shape))
    if len(rules.shape) == 2 and all(rules.stencil_wraps):
        need = CYCLIC_BYTES_PER_CELL * min(rules.shape)
        if need > MAX_POLY_BYTES:
            raise BoardTooLargeError(
                f"a torus with a {min(rules.shape)}-cell wrapping side needs about {need / 2**30:.3g} GiB of "
                f"scratch for its nullity (limit {MAX_POLY_BYTES / 2**30:.0f} GiB, lightsout.limits.MAX_POLY_BYTES)")


def _cyclic_square(a: np.ndarray) -> np.ndarray:
    """a(y)^2 in GF(2)[y]/(y^C + 1), on a bool vector of the C coefficients: y^i goes to y^(2i mod C)."""
    ncols = a.size
    out = np.zeros(ncols, dtype=bool)
    half = (ncols + 1) // 2
    out[0:2 * half:2] = a[:half]
    start = 2 * half - ncols  # where 2i - C lands for i = half: 1 for odd C, 0 for even C
    upper = a[half:]
    out[start:start + 2 * upper.size:2] ^= upper
    return out


def _cyclic_times_s(a: np.ndarray, tau: int) -> np.ndarray:
    """(tau + y + 1/y) a(y) in GF(2)[y]/(y^C + 1), C >= 3: coefficient i is a_{i-1} + a_{i+1} (+ a_i)."""
    out = np.empty_like(a)
    out[1:-1] = a[:-2] ^ a[2:]
    out[0] = a[-1] ^ a[1]
    out[-1] = a[-2] ^ a[0]
    if tau:
        out ^= a
    return out


def cyclic_chebyshev(k: int, ncols: int, tau: int) -> tuple[np.ndarray, np.ndarray]:
    """(U_k(s), U_{k+1}(s)) in GF(2)[y]/(y^C + 1), s = tau + y + 1/y, as bool coefficient vectors.

    Example:
        >>> [v.astype(int).tolist() for v in cyclic_chebyshev(1, 5, 1)]   # U_1 = 1, U_2 = s = 1 + y + y^4
        [[1, 0, 0, 0, 0], [1, 1, 0, 0, 1]]
    """
    low = np.zeros(ncols, dtype=bool)         # U_0
    high = np.zeros(ncols, dtype=bool)        # U_1
    high[0] = True
    for bit in bin(k)[2:] if k else "":
        low_sq, high_sq = _cyclic_square(low), _cyclic_square(high)
        odd = low_sq ^ high_sq                 # U_{2j+1} = U_j^2 + U_{j+1}^2
        if bit == "0":
            low, high = _cyclic_times_s(low_sq, tau), odd
        else:
            low, high = odd, _cyclic_times_s(high_sq, tau)
    return low, high


def _entries(nrows: int, ncols: int, tau: int, open_columns: bool) -> tuple[np.ndarray, ...]:
    """(U_{R-1}(s) + 1, U_R(s), U_{R+1}(s) + 1, N) as packed polynomials, entries reduced mod N."""
    poly = kernels.gf2poly
    one = np.ones(1, dtype=np.uint64)
    if open_columns:
        chi = poly.chebyshev_u(ncols + 1)
        if tau:
            chi = poly.poly_taylor_shift(chi)
        before = poly.poly_mod(poly.chebyshev_u(nrows - 1), chi)
        middle = poly.poly_mod(poly.chebyshev_u(nrows), chi)
        after = poly.poly_mod(poly.poly_add(poly.poly_shift(middle, 1), before), chi)   # U_{R+1} = t U_R + U_{R-1}
        return poly.poly_add(before, one), middle, poly.poly_add(after, one), chi
    before_bits, middle_bits = cyclic_chebyshev(nrows - 1, ncols, tau)
    after_bits = _cyclic_times_s(middle_bits, tau) ^ before_bits
    before_bits[0] ^= True
    after_bits[0] ^= True
    modulus = np.zeros(ncols + 1, dtype=bool)
    modulus[0] = modulus[ncols] = True
    return pack_row(before_bits), pack_row(middle_bits), pack_row(after_bits), pack_row(modulus)


def wrapped_nullity(nrows: int, ncols: int, *, wrap_columns: bool, self_toggle: bool = True) -> int:
    """The nullity of the R x C board whose rows wrap (R >= 3: axis 0 is a cycle) and whose columns
    wrap too (``wrap_columns``, C >= 3) or not; two states, the plus rule or the sigma game.

    Examples:
        >>> wrapped_nullity(5, 5, wrap_columns=True), wrapped_nullity(3, 3, wrap_columns=True, self_toggle=False)
        (8, 5)
        >>> wrapped_nullity(6, 3, wrap_columns=False), wrapped_nullity(8, 5, wrap_columns=False)
        (4, 8)
    """
    nrows = board_size(nrows, "nrows")
    ncols = board_size(ncols, "ncols")
    poly = kernels.gf2poly
    before, middle, after, modulus = _entries(nrows, ncols, int(self_toggle), not wrap_columns)
    first = poly.poly_gcd(poly.poly_gcd(modulus, middle), before)        # gcd of the entries and N
    det = poly.poly_add(poly.poly_mul(before, after), poly.poly_square(middle))
    return int(poly.poly_degree(poly.poly_gcd(det, poly.poly_mul(modulus, first))))


def poly_rules_take(rules: Rules) -> bool:
    """Whether :func:`poly_rules_nullity` takes the board: an unmasked 2-D two-state board of today's rule
    that the plain polynomial route does not take, the open sigma game or a board with a wrapping axis
    (of length 3 or more; shorter wrapping axes act as open).

    Example:
        >>> poly_rules_take(Rules.check((5, 5), torus=True)), poly_rules_take(Rules.check((5, 5)))
        (True, False)
    """
    if len(rules.shape) != 2 or rules.states != 2 or not rules.is_classic:
        return False
    return any(rules.stencil_wraps) or open_sigma(rules)


def cylinder_nullity(nrows: int, ncols: int, *, self_toggle: bool = True) -> int:
    """The nullity of the R x C board whose rows are open and whose columns wrap (C >= 3), by the chase
    along the open axis: deg gcd(U_{R+1}(s), y^C + 1) in GF(2)[y]/(y^C + 1), s = tau + y + 1/y
    (docs/algebra.md sections 1 and 7).  O(C log R): the route for a cylinder whose wrapping side is
    the shorter.

    Example:
        >>> cylinder_nullity(3, 6), wrapped_nullity(6, 3, wrap_columns=False), cylinder_nullity(5, 8)
        (4, 4, 8)
    """
    nrows = board_size(nrows, "nrows")
    ncols = board_size(ncols, "ncols")
    poly = kernels.gf2poly
    u_rows, _ = cyclic_chebyshev(nrows + 1, ncols, int(self_toggle))
    modulus = np.zeros(ncols + 1, dtype=bool)
    modulus[0] = modulus[ncols] = True
    return int(poly.poly_degree(poly.poly_gcd(pack_row(u_rows), pack_row(modulus))))


def poly_rules_nullity(rules: Rules) -> int:
    """The nullity of a board :func:`poly_rules_take` takes, by gcds of polynomials.

    Example:
        >>> poly_rules_nullity(Rules.check((5, 5), torus=True)), poly_rules_nullity(Rules.check((5, 5), self_toggle=False))
        (8, 5)
    """
    if not poly_rules_take(rules):
        raise InternalError(f"the sigma and torus nullities take no {rules.describe()}")
    nrows, ncols = rules.shape
    wrap_rows, wrap_columns = rules.stencil_wraps
    if not wrap_rows and not wrap_columns:
        return sigma_nullity(nrows, ncols)
    if not wrap_rows or (wrap_columns and ncols > nrows):   # the wrapping (or longer) axis is x
        nrows, ncols, wrap_rows, wrap_columns = ncols, nrows, wrap_columns, wrap_rows
    if not wrap_columns and nrows <= ncols:   # one wrapping axis, the shorter: chase along the open one
        return cylinder_nullity(ncols, nrows, self_toggle=rules.self_toggle)
    return wrapped_nullity(nrows, ncols, wrap_columns=wrap_columns, self_toggle=rules.self_toggle)
