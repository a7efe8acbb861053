"""The polynomial route: solve an R x C Lights Out board in O((R + C) C / 64) word operations.

The mathematics is in docs/algebra.md, sections 2-4.  In short, on the
working orientation (C = the shorter side):

    c  = r_{R+1} after chasing the start state with first row 0   (R chase steps)
    chi = W_{C+1}(t) = U_{C+1}(t + 1)                              (characteristic poly of T)
    u  = U_{R+1}(t) mod chi
    C^ = phi^{-1}(c) = sum_j c_j W_j                                (W recurrence)
    g  = gcd(u, chi),  nullity = deg g,  solvable <=> g | C^
    F0 = (C^ / g) * s mod (chi / g),  s * u = g (mod chi)          (extended gcd)
       = (C^ * s mod chi) / g           (g F0 has degree < deg chi: one inverse of rev(chi) for both reductions)
    first row f = phi(F0) = F0(T) e_1                               (Horner)

Memory is O(C) words beyond the board (plus a transposed copy of the board when
C > R and the board is given): no C x C matrix is ever built, and the all-lit
board is never materialised.  Budget: :func:`refuse_poly` refuses, before any work, a
side whose scratch polynomials would pass ``MAX_POLY_BYTES``; the registry's route calls
it once, where a call comes in (``Route.refuse``), and the functions below trust it.

The compiled kernels live in ``lightsout._kernels.gf2poly`` (one build per SIMD level);
the chase residue comes from ``lightsout._kernels.chase``.
"""
from __future__ import annotations

import os
from contextlib import contextmanager
from typing import Callable, Iterator, Optional

import numpy as np

from lightsout._base.errors import BoardTooLargeError, InternalError, InvalidBoardError
from lightsout._base.threadlimit import thread_limit
from lightsout._base.packing import unpack_rows, words_for_bits
from lightsout._base.types import Progress
from lightsout._base.validate import board_size, packed_matrix
from lightsout._core.coset import Coset
from lightsout._core.orientation import first_column_of_chase, transpose_packed
from lightsout import _kernels as kernels

__all__ = ["MAX_POLY_BYTES", "MAX_POLY_NULLITY_BYTES", "MAX_POLY_FIRST_ROW_BYTES", "poly_scratch_bytes", "refuse_poly", "solve_grid_poly",
           "all_lit_first_row_words", "nullity_poly", "nullity_table"]


#: Largest polynomial-route scratch a call may allocate: 8 GiB (a side of about 2 * 10^9).
MAX_POLY_BYTES = 8 << 30
#: Largest scratch of the nullity alone of an open grid (no cofactor; a square's gcd at half the
#: degree): 20 GiB, so that nullity(10**10) (about 18.6 GiB) runs on a machine that has the memory.
MAX_POLY_NULLITY_BYTES = 20 << 30
#: Largest scratch of the all-lit board's first row (no board, no transpose: the row stays packed
#: and both long reductions share one inverse): 20 GiB, so that first_row(10**10) (about 18.6 GiB)
#: runs on a machine that has the memory.
MAX_POLY_FIRST_ROW_BYTES = 20 << 30

#: Polynomials of the longer side's degree a run holds at its peak, measured (issue 31, peak RSS
#: with every large block mapped on its own, side 10^7 and 10^8): a solve 30 (the extended gcd
#: of degree C with its 2 x 2 matrix products' transforms; 17.7 with two even sides); a square's
#: nullity 11.4 at 10^7 and 13.5 at 10^8 (one gcd of degree n / 2 or less, no cofactor; the
#: transforms' rounding up to a power of two moves it); another rectangle's nullity 21.8.
POLYS_SOLVE, POLYS_SQUARE_NULLITY, POLYS_NULLITY = 32, 16, 24
#: The all-lit board's first row (ncols <= nrows), measured: 15.1 at 10^9 (1.89 GB peak RSS,
#: `lightsout first-row 1000000000 --verify`, 27 Nov 2026), with the products' transforms held
#: to TRANSFORM_LIMIT_POLYS from TRANSFORM_LIMIT_FROM_SIDE.
POLYS_FIRST_ROW = 16

#: From sides of this many bits, the route holds each product's transforms to at most
#: TRANSFORM_LIMIT_POLYS polynomials of the side (gf2poly.fft_transform_limit): a transform is
#: rounded up to a power of two, and a side just past one (10^10 is 2^27.2 words) would give the
#: largest products two transforms of 13.7 polynomials, 17 GB of first_row(10**10)'s 24.  A
#: product over the limit is cut by Karatsuba (about 1.45x its time); below this side nothing is cut.
TRANSFORM_LIMIT_FROM_SIDE = 1 << 31
TRANSFORM_LIMIT_POLYS = 12


@contextmanager
def polynomial_work(threads: Optional[int], side: int = 0) -> Iterator[None]:
    """The route's products and gcds on at most ``threads`` threads (None: the cores), keeping no
    transform in the products' scratch arena (kept ones raised first_row(10**8)'s peak from 286 to
    367 MB), and on a ``side`` of TRANSFORM_LIMIT_FROM_SIDE bits or more no product's transforms
    above TRANSFORM_LIMIT_POLYS polynomials of the side.  Every setting is this thread's alone, so
    concurrent calls keep their own.

    Example:
        >>> with polynomial_work(1, side=5):
        ...     nullity_poly(5, 5)
        2
    """
    poly = kernels.gf2poly
    keep = poly.fft_scratch_keep(False)
    limit = poly.fft_transform_limit(transform_limit(side))
    try:
        with thread_limit(threads):
            yield
    finally:
        poly.fft_transform_limit(limit)
        poly.fft_scratch_keep(keep)


def transform_limit(side: int) -> int:
    """The bytes a product's transforms may hold on a side of ``side`` bits (0: no limit).

    Example:
        >>> transform_limit(10**9), transform_limit(10**10) // 2**20
        (0, 14305)
    """
    if side < TRANSFORM_LIMIT_FROM_SIDE:
        return 0
    return TRANSFORM_LIMIT_POLYS * ((side + 64) // 64) * 8


def machine_bytes() -> Optional[int]:
    """The machine's physical memory in bytes, or None where the platform does not say.

    Example:
        >>> machine_bytes() is None or machine_bytes() > 2**20
        True
    """
    try:
        return int(os.sysconf("SC_PAGE_SIZE")) * int(os.sysconf("SC_PHYS_PAGES"))
    except (AttributeError, ValueError, OSError):
        return None


def poly_scratch_bytes(side: int, nullity_shape: Optional[tuple[int, int]] = None, *,
                       first_row: bool = False) -> int:
    """Bytes the polynomial route holds at its peak on a board whose longer side is ``side``.

    ``nullity_shape``: the (rows, columns) of a nullity alone, which needs no cofactor and, on a
    square, one gcd of half the degree; None for a solve.  ``first_row``: the all-lit board's
    first row with no more columns than rows (no board, no transpose).

    Example:
        >>> round(poly_scratch_bytes(10**9) / 2**30, 2), round(poly_scratch_bytes(10**10, (10**10, 10**10)) / 2**30, 2)
        (3.73, 18.63)
        >>> round(poly_scratch_bytes(10**10, first_row=True) / 2**30, 2)
        18.63
    """
    polys = POLYS_FIRST_ROW if first_row else POLYS_SOLVE
    if nullity_shape is not None:
        rows, cols = nullity_shape
        polys = POLYS_SQUARE_NULLITY if rows == cols or (rows % 2 == 0 and cols % 2 == 0) else POLYS_NULLITY
    return polys * ((side + 64) // 64) * 8


def refuse_poly(side: int, *, nullity_shape: Optional[tuple[int, int]] = None, first_row: bool = False) -> None:
    """Refuse, before any work, a polynomial-route run whose O(side) scratch polynomials would not fit.

    ``side`` is the longer side of the board (or the largest of a nullity table);
    ``nullity_shape`` and ``first_row`` as for :func:`poly_scratch_bytes`.  The scratch must stay
    within ``MAX_POLY_BYTES`` (``MAX_POLY_NULLITY_BYTES`` for a nullity alone,
    ``MAX_POLY_FIRST_ROW_BYTES`` for an all-lit first row) and within the machine's physical memory.

    Example:
        >>> refuse_poly(1_000_000)
        >>> refuse_poly(10**11)
        Traceback (most recent call last):
        ...
        lightsout.BoardTooLargeError: a 100000000000-cell side needs about 373 GiB of polynomial scratch ...
    """
    need = poly_scratch_bytes(side, nullity_shape, first_row=first_row)
    if nullity_shape is not None:
        limit, name = MAX_POLY_NULLITY_BYTES, "MAX_POLY_NULLITY_BYTES"
    elif first_row:
        limit, name = MAX_POLY_FIRST_ROW_BYTES, "MAX_POLY_FIRST_ROW_BYTES"
    else:
        limit, name = MAX_POLY_BYTES, "MAX_POLY_BYTES"
    if need > limit:
        raise BoardTooLargeError(
            f"a {side}-cell side needs about {need / 2**30:.3g} GiB of polynomial scratch "
            f"(limit {limit / 2**30:.0f} GiB, lightsout.limits.{name})")
    have = machine_bytes()
    if have is not None and need > have:
        raise BoardTooLargeError(
            f"a {side}-cell side needs about {need / 2**30:.3g} GiB of polynomial scratch, more than this "
            f"machine's {have / 2**30:.3g} GiB of memory (lightsout.limits.{name} allows {limit / 2**30:.0f} GiB)")


#: Dividends of at least this many words (a product of two sides of about 2.7 * 10^8 bits or more)
#: are reduced in two windows by :func:`_mod_in_windows`: the windows take 3-4 % more CPU than
#: one division (10^8, same process, alternated), so only sides whose memory counts pay it.
MOD_WINDOWS_FROM_WORDS = 1 << 23


def _mod_in_windows(dividend: np.ndarray, modulus: np.ndarray,
                    inverse: Optional[ReductionInverse] = None) -> np.ndarray:
    """``dividend mod modulus``, worked out in the dividend's own words (it is dead afterwards).

    A dividend of twice the modulus's length is reduced as two windows, top first, each of a
    quotient half as long, in place: Newton's inverse and the quotient's product are half the
    size, where one division holds about 13 polynomials of the modulus's degree in scratch
    (measured at 6.25 * 10^7 bits: 12.7 -> 8.6 polynomials above the dividend and modulus;
    15.4 -> 10.7 at 10^8; first_row(10**9) 2.14 -> 1.75 GB).  Below ``MOD_WINDOWS_FROM_WORDS``
    words, one division.  The remainder is unique, so the bits are those of one division.
    ``inverse`` (a :class:`ReductionInverse` of the modulus), if given, spares each Newton
    division its inverse.

    Example:
        >>> a = np.array([0b1011, 0, 0b1], dtype=np.uint64)         # t^128 + t^3 + t + 1
        >>> ref = kernels.gf2poly.poly_mod(a, np.array([0b111], dtype=np.uint64))
        >>> bool((_mod_in_windows(a.copy(), np.array([0b111], dtype=np.uint64)) == ref).all())
        True
    """
    poly = kernels.gf2poly
    nwords, mwords = dividend.shape[0], modulus.shape[0]
    if nwords < MOD_WINDOWS_FROM_WORDS or nwords <= mwords + 1:
        return poly.poly_mod_overwrite(dividend, modulus, None if inverse is None else inverse.words())
    step = _window_quotient_words(nwords, mwords)
    top = nwords
    while True:
        # Every word from top up is zero: the window [low, top) reduced in place leaves its
        # remainder (under mwords words) at low, and the dividend congruent to what it was.
        low = max(0, top - mwords - step)
        remainder = poly.poly_mod_overwrite(dividend[low:top], modulus, None if inverse is None else inverse.words())
        if low == 0:
            return remainder
        del remainder
        top = low + mwords


def _window_quotient_words(nwords: int, mwords: int) -> int:
    """The quotient words of each of :func:`_mod_in_windows`'s two windows (a dividend of nwords words,
    a modulus of mwords): half the whole quotient, rounded up."""
    return -(-(nwords - mwords) // 2)


class ReductionInverse:
    """rev(modulus)^-1 for the Newton divisions of :func:`_mod_in_windows` by one modulus, worked
    out at the first division that needs it and then reused, so several reductions (and the two
    windows of each) pay for Newton's inverse (a few products' worth) once; :meth:`drop` frees it.
    It is as long as the divisions of dividends of up to ``dividend_bits`` bits need.

    Example:
        >>> chi = kernels.gf2poly.poly_taylor_shift(kernels.gf2poly.chebyshev_u(40001))
        >>> a = kernels.gf2poly.poly_mul(chi, chi)[:-10].copy()
        >>> ref = kernels.gf2poly.poly_mod(a, chi)
        >>> inverse = ReductionInverse(chi, 80000)
        >>> bool((_mod_in_windows(a, chi, inverse) == ref).all()), inverse.words() is not None
        (True, True)
        >>> ReductionInverse(chi[:2].copy(), 200).words() is None     # too small for Newton
        True
    """

    def __init__(self, modulus: np.ndarray, dividend_bits: int) -> None:
        self.modulus: Optional[np.ndarray] = modulus
        self.dividend_bits = dividend_bits
        self._words: Optional[np.ndarray] = None

    def words(self) -> Optional[np.ndarray]:
        """The inverse (worked out on the first call), or None when the divisions are too small for Newton."""
        if self._words is None and self.modulus is not None:
            poly = kernels.gf2poly
            mwords = words_for_bits(int(poly.poly_degree(self.modulus)) + 1)
            nwords = words_for_bits(self.dividend_bits)
            if min(nwords - mwords + 1, mwords) < poly.thresholds()["newton_words"]:
                self.modulus = None     # never needed: no Newton division reads it
                return None
            quotient_words = nwords - mwords + 1
            if nwords >= MOD_WINDOWS_FROM_WORDS:
                quotient_words = _window_quotient_words(nwords, mwords) + 1
            self._words = poly.poly_reversed_inverse(self.modulus, 64 * quotient_words)
            self.modulus = None         # the caller's to free: this holds only the inverse now
        return self._words

    def drop(self) -> None:
        """Free the inverse (and forget the modulus): later calls of :meth:`words` give None."""
        self.modulus = self._words = None


def _chase_residue(board: Optional[np.ndarray], nrows: int, ncols: int, progress: Progress) -> np.ndarray:
    """r_{R+1} with first row 0: the lights left below the board (docs/algebra.md section 1)."""
    first = np.zeros(words_for_bits(ncols), dtype=np.uint64)
    residue, _, _ = kernels.chase.chase(board, nrows, ncols, first, progress=progress)
    return residue


def _chi_and_u(rows: int, cols: int) -> tuple[np.ndarray, np.ndarray]:
    """chi = U_{C+1}(t+1) and U_{R+1}(t) mod chi, for the working size R x C (R >= C)."""
    poly = kernels.gf2poly
    chi = poly.poly_taylor_shift(poly.chebyshev_u(cols + 1))
    u_top = poly.chebyshev_u(rows + 1)
    # Square boards: both have degree C and leading coefficient 1, so one subtraction reduces.
    u = poly.poly_add(u_top, chi) if rows == cols else poly.poly_mod(u_top, chi)
    return chi, u


def _square_root_factor(k: int) -> np.ndarray:
    """V = U_{k+1} + U_k, the square root of U_{2k+1} over GF(2) (docs/algebra.md section 9)."""
    poly = kernels.gf2poly
    return poly.poly_add(poly.chebyshev_u(k + 1), poly.chebyshev_u(k))


def _gcd_and_inverse(rows: int, cols: int, chi: np.ndarray, progress: Progress) -> tuple[np.ndarray, np.ndarray]:
    """(g, s): g = gcd(U_{R+1} mod chi, chi) and s U_{R+1} = g (mod chi).

    When R and C are both even, U_{R+1} = V_R^2 and chi = V_C(t+1)^2, so the extended
    gcd runs on the square roots, at half the degree, and the answer is squared
    (squaring is a ring map over GF(2)); on a square board at a quarter of the degree
    (:func:`_shift_gcd_cofactor`), and on an odd square at half of it, the same way.
    """
    poly = kernels.gf2poly
    if rows % 2 == 0 and cols % 2 == 0:
        root_u = _square_root_factor(rows // 2)
        if rows == cols:
            h, a = _shift_gcd_cofactor(root_u, progress)
        else:
            root_chi = poly.poly_taylor_shift(_square_root_factor(cols // 2))
            h, a = poly.poly_gcd_cofactor(poly.poly_mod(root_u, root_chi), root_chi, progress)
        return poly.poly_square(h), poly.poly_square(a)
    if rows == cols:        # chi = U_{R+1}(t+1): the pair splits as the roots above do
        return _shift_gcd_cofactor(poly.chebyshev_u(rows + 1), progress)
    _, u = _chi_and_u(rows, cols)
    g, s = poly.poly_gcd_cofactor(u, chi, progress)
    return g, s


def _shift_gcd_cofactor(v: np.ndarray, progress: Progress) -> tuple[np.ndarray, np.ndarray]:
    """(h, c): h = gcd(v(t), v(t+1)) and c v = h (mod v(t+1)), from an extended gcd at half the degree.

    With v = A(s) + t B(s), s = t^2 + t, v(t+1) = v + B(s); from x A + y B = G in GF(2)[s],
    (x (t+1) + y) v + (x t + y) v(t+1) = x A + y B = G, so h = G(s) and c = x (t+1) + y =
    (x + y)(s) + t x(s) (docs/algebra.md section 9).  Euclid gives x (x A = G mod B) and y
    is (G + x A) / B, exactly.

    Example:
        >>> poly = kernels.gf2poly
        >>> v = _square_root_factor(8)     # U_9 + U_8: the 16 x 16 board's root (nullity 8 = 2 deg h)
        >>> h, c = _shift_gcd_cofactor(v, None)
        >>> int(poly.poly_degree(h)), int(poly.poly_degree(poly.poly_mod(poly.poly_mul(c, v), poly.poly_taylor_shift(v))))
        (4, 4)
        >>> bool((poly.poly_mod(poly.poly_add(poly.poly_mul(c, v), h), poly.poly_taylor_shift(v)) == 0).all())
        True
    """
    poly = kernels.gf2poly
    even, odd = poly.poly_split_s(v)
    if poly.poly_degree(odd) < 0:       # v(t+1) = v: the gcd is v itself
        return v.copy(), np.ones(1, dtype=np.uint64)
    common, x = poly.poly_gcd_cofactor(even, odd, progress)
    y, rem = poly.poly_divmod(poly.poly_add(common, poly.poly_mul(x, even)), odd)
    del even
    if poly.poly_degree(rem) >= 0:
        raise InternalError(f"x A + G is not a multiple of B in the split extended gcd (degree {poly.poly_degree(v)})")
    del rem, odd
    return poly.poly_join_s(common, np.zeros(1, dtype=np.uint64)), poly.poly_join_s(poly.poly_add(x, y), x)


class _Steps:
    """progress(stage, done, total) for a stage of a few long kernel calls, one report per call."""

    def __init__(self, progress: Progress, stage: str, total: int) -> None:
        self.progress, self.stage, self.total, self.done = progress, stage, total, 0

    def __call__(self) -> None:
        """Report the next call done (the first report, 0 done, comes when the stage starts)."""
        if self.progress is not None:
            self.progress(self.stage, self.done, self.total)
        self.done += 1


def _all_lit_residue_poly(rows: int, cols: int, chi: np.ndarray,
                          step: Callable[[], None] = lambda: None,
                          chi_inverse: Optional[ReductionInverse] = None) -> np.ndarray:
    """phi^{-1} of the chase residue of the all-lit R x C board, without chasing.

    With every b_k the all-ones row 1, r_{R+1} = sum_{j=1..R} U_j(T) 1, and
    phi^{-1}(1) = sum_{j=1..C} W_j, so the residue is (sum_j U_j)(sum_j W_j) mod chi.
    ``step()`` is called after each of its four long calls; the reduction uses ``chi_inverse``
    (a :class:`ReductionInverse` of chi), if given.
    """
    poly = kernels.gf2poly
    u_sum = poly.chebyshev_u_sum(rows)
    if rows >= cols:
        u_sum = poly.poly_mod(u_sum, chi)
    step()
    ones = np.zeros(words_for_bits(cols), dtype=np.uint64)
    for first in range(0, ones.shape[0], ROW_PIECE_WORDS):   # in pieces: Ctrl-C is seen between them
        ones[first:first + ROW_PIECE_WORDS] = np.uint64(0xFFFFFFFFFFFFFFFF)
    if cols % 64:
        ones[-1] = np.uint64((1 << (cols % 64)) - 1)
    w_sum = poly.w_combination(ones, cols)
    del ones
    step()
    product = poly.poly_mul(u_sum, w_sum)
    del u_sum, w_sum
    step()
    residue = _mod_in_windows(product, chi, chi_inverse)  # the product is dead: reduced in its own words
    step()
    return residue


def solve_grid_poly(
    nrows: int,
    ncols: int,
    board_words: Optional[np.ndarray] = None,
    *,
    kernel: bool = False,
    progress: Progress = None,
) -> Coset:
    """Solve an ``nrows`` x ``ncols`` Lights Out board by the polynomial route.

    Args:
        nrows, ncols: board size (positive ints).
        board_words: the start state packed as an (nrows, words_for_bits(ncols)) uint64
            array (``lightsout._base.packing.pack_rows``), 1 = lit, in the caller's
            orientation; None means the all-lit board (never materialised).
        kernel: also return ``kernel_first_rows`` (see :class:`~lightsout._core.coset.Coset`):
            row i is phi((chi/g) t^i), the working first row of a quiet pattern.
            Without it the result still has ``kernel_words``, which makes the same
            rows on demand (O(C / 64) words each).
        progress: optional ``progress(stage, done, total)`` callable, called between
            chunks of the long loops (stages "chase", "reduce", "convert", "gcd",
            "divide", "horner", "first_column"; "reduce" and "divide" once per long
            product or division); Ctrl-C is honoured between chunks too.

    Returns:
        A :class:`~lightsout._core.coset.Coset`.  Without a transpose
        ``first_row`` is the canonical one (lexicographically smallest, column 0
        first): the mirror image of phi(F0), F0 the unique solution polynomial of
        degree < C - nullity of the mirrored board (docs/algebra.md sections 3
        and 9).  When transposed, it is the first column of the working solution
        phi(F0) (not mirrored), and callers canonicalise.

    Examples:
        >>> solve_grid_poly(3, 3).first_row.astype(int).tolist()
        [1, 0, 1]
        >>> s = solve_grid_poly(5, 5)
        >>> s.solvable, s.nullity
        (True, 2)
    """
    found, _ = _solve_grid(nrows, ncols, board_words, kernel=kernel, progress=progress, packed_row=False)
    return found


def all_lit_first_row_words(nrows: int, ncols: int, progress: Progress = None) -> tuple[np.ndarray, Coset]:
    """The all-lit ``nrows`` x ``ncols`` board's canonical first row, packed, for ``ncols <= nrows``.

    The row comes as ``words_for_bits(ncols)`` uint64 words (bit j = column j), and the coset
    as :func:`solve_grid_poly` gives it but without its bool ``first_row``: no byte-a-bit row
    is made here (at 10^9 columns that would be 1 GB beside the route's buffers).  Every
    polynomial of the route is dead when this returns, but the quiet basis's one when the
    nullity is not 0 (``Coset.kernel_words`` makes its rows).

    Example:
        >>> words, found = all_lit_first_row_words(5, 5)
        >>> words.tolist(), found.nullity, found.first_row is None
        ([24], 2, True)
    """
    nrows = board_size(nrows, "nrows")
    ncols = board_size(ncols, "ncols")
    if ncols > nrows:
        raise InvalidBoardError(f"all_lit_first_row_words solves boards no wider than tall, got {nrows} x {ncols}")
    found, words = _solve_grid(nrows, ncols, None, kernel=False, progress=progress, packed_row=True)
    if words is None:   # Sutner's theorem: the all-lit board is always solvable
        raise InternalError(f"the polynomial route found the all-lit {nrows} x {ncols} board unsolvable")
    return words, found


def _solve_grid(nrows: int, ncols: int, board_words: Optional[np.ndarray], *, kernel: bool, progress: Progress,
                packed_row: bool) -> tuple[Coset, Optional[np.ndarray]]:
    """solve_grid_poly's work; with ``packed_row`` (no transpose), the first row packed beside a coset without it."""
    nrows = board_size(nrows, "nrows")
    ncols = board_size(ncols, "ncols")
    if board_words is not None:
        board_words = packed_matrix(board_words, "board_words", nbits=ncols, nrows=nrows)
    poly = kernels.gf2poly
    transposed = ncols > nrows
    rows, cols = (ncols, nrows) if transposed else (nrows, ncols)
    work = board_words
    if transposed and board_words is not None:
        work = transpose_packed(board_words, nrows, ncols)

    reduce_step = _Steps(progress, "reduce", 5 if work is None else 1)
    reduce_step()
    chi = poly.poly_taylor_shift(poly.chebyshev_u(cols + 1))
    reduce_step()
    # Without a transpose the route solves the board mirrored left to right, whose solution of
    # least degree is, mirrored back, the canonical one (docs/algebra.md section 9).  Mirroring
    # commutes with chasing, so only the residue row is mirrored; the all-lit board is its own mirror.
    chi_inverse = None
    if work is None:
        # Both long reductions (the residue's here, F0's below) divide a product of two
        # remainders by chi: rev(chi)'s inverse is worked out once for both.
        chi_inverse = ReductionInverse(chi, 2 * cols - 1)
        c_hat = _all_lit_residue_poly(rows, cols, chi, reduce_step, chi_inverse)
    else:
        residue = _chase_residue(work, rows, cols, progress)
        c_hat = poly.w_combination(residue if transposed else mirrored_words(residue, cols), cols, progress)
    g, s = _gcd_and_inverse(rows, cols, chi, progress)
    nullity = int(poly.poly_degree(g))
    divide_step = _Steps(progress, "divide", 4)
    divide_step()
    # Each polynomial is dropped as soon as it is dead: at 10^9 one is 125 MB, and the
    # products and divisions below hold several times their operands in scratch.
    solvable = poly.poly_degree(poly.poly_mod(c_hat, g)) < 0
    divide_step()

    first_row = row_words = None
    if solvable:
        # s u = g (mod chi)  =>  s (u/g) = 1 (mod chi/g), and the solution of degree
        # < deg(chi/g) is F0 = (C^/g) s mod (chi/g).  Then g F0 = C^ s (mod chi), and
        # deg(g F0) < deg chi, so g F0 = C^ s mod chi: the long reduction is by chi, with the
        # inverse of rev(chi) the residue's reduction worked out, and only g (of degree the
        # nullity) divides the rest.
        divide_step()
        product = poly.poly_mul(c_hat, s)
        del c_hat, s
        divide_step()
        f0 = _mod_in_windows(product, chi, chi_inverse)
        del product, chi_inverse
        if nullity:
            f0, rem = poly.poly_divmod(f0, g)
            if poly.poly_degree(rem) >= 0:
                raise InternalError(f"the polynomial route's g = gcd (degree {nullity}) does not divide g F0 "
                                    f"at {nrows} x {ncols}")
            del rem
        divide_step()
        f_words = poly.phi_image(f0, cols, progress)
        del f0
        if packed_row and not transposed:
            row_words = mirrored_words(f_words, cols)
        elif transposed:
            # The original top row is the working solution's first column.
            column_progress = None
            if progress is not None:
                def column_progress(stage: str, done: int, total: int) -> None:
                    progress("first_column", done, total)
            first_row = first_column_of_chase(work, rows, cols, f_words, progress=column_progress)
        else:
            first_row = mirrored_bits(f_words, cols)
        del f_words
    else:
        del s, c_hat, chi_inverse
    # The quiet basis's polynomial (made only when there is a basis).
    chi_over_g = poly.poly_divmod(chi, g)[0] if nullity else np.zeros(1, dtype=np.uint64)
    del chi, g

    def kernel_words() -> Iterator[np.ndarray]:
        if nullity == 0:
            return
        v = poly.phi_image(chi_over_g, cols)
        for _ in range(nullity):  # phi(t F) = T phi(F)
            yield v
            v = poly.apply_T_row(v, cols)

    kernel_rows = None
    if kernel:
        packed = np.zeros((nullity, words_for_bits(cols)), dtype=np.uint64)
        for i, v in enumerate(kernel_words()):
            packed[i] = v
        kernel_rows = unpack_rows(packed, cols)
    found = Coset(bool(solvable), nullity, 2**nullity, "poly", canonical=not transposed, grid=(nrows, ncols),
                  first_row=first_row, transposed=transposed, kernel_first_rows=kernel_rows,
                  kernel_words=kernel_words if nullity else None)
    return found, row_words


def _row_words(words: np.ndarray, nbits: int) -> np.ndarray:
    """Exactly the words of a packed row of ``nbits`` bits: ``words`` cut there or padded with zero words."""
    nwords = words_for_bits(nbits)
    words = np.asarray(words, dtype=np.uint64)[:nwords]
    if words.shape[0] < nwords:
        words = np.concatenate([words, np.zeros(nwords - words.shape[0], dtype=np.uint64)])
    return words


def _ending_at_the_top(words: np.ndarray, nbits: int) -> np.ndarray:
    """The words of a packed row of ``nbits`` bits shifted up so that its last bit is the top bit of the last
    word (zeros below its first bit): read backwards, the row then starts at the first bit read."""
    words = _row_words(words, nbits)
    pad = 64 * words.shape[0] - nbits
    if pad:
        shifted = words << np.uint64(pad)
        shifted[1:] |= words[:-1] >> np.uint64(64 - pad)
        words = shifted
    return words


def mirrored_bits(words: np.ndarray, nbits: int) -> np.ndarray:
    """The packed row of ``nbits`` bits, unpacked right to left: bool, ``out[i]`` = bit ``nbits - 1 - i``.

    One byte a bit is written once: the words are shifted so that the row ends at the last
    bit, and their bytes read backwards, high bit first (``unpack_row(words, nbits)[::-1].copy()``
    holds two such arrays, 2 GB at 10^9).

    Example:
        >>> mirrored_bits(np.array([0b0011], dtype=np.uint64), 5).astype(int).tolist()
        [0, 0, 0, 1, 1]
    """
    words = _ending_at_the_top(words, nbits)
    backwards = words.astype("<u8", copy=False).view(np.uint8)[::-1]
    row: np.ndarray = np.unpackbits(backwards, count=nbits, bitorder="big").view(np.bool_)
    return row


def mirrored_words(words: np.ndarray, nbits: int) -> np.ndarray:
    """The packed row of ``nbits`` bits reversed, packed: bit i of the result = bit ``nbits - 1 - i``.

    The packed twin of :func:`mirrored_bits` (never one byte a bit): read backwards, word k of
    the result is word ``nwords - 1 - k`` of the row shifted up so that it ends at the last bit,
    with its 64 bits reversed (three swaps of bit groups and a byte swap).  The words go
    through in pieces of :data:`ROW_PIECE_WORDS`, so Ctrl-C is seen between pieces even at
    10^10 bits.  Bits past ``nbits`` are zero.

    Example:
        >>> mirrored_words(np.array([0b0011], dtype=np.uint64), 5).tolist()
        [24]
    """
    words = _row_words(words, nbits)
    nwords = words.shape[0]
    pad = 64 * nwords - nbits
    out = np.empty(nwords, dtype=np.uint64)
    for first in range(0, nwords, ROW_PIECE_WORDS):
        stop = min(nwords, first + ROW_PIECE_WORDS)
        # the result's words first .. stop - 1 come from the row's words nwords - stop .. nwords - 1 - first
        low, high = nwords - stop, nwords - first
        piece = words[low:high] << np.uint64(pad)
        if pad:
            below = words[max(low - 1, 0):high - 1] >> np.uint64(64 - pad)
            piece[high - low - below.shape[0]:] |= below
        for shift, mask in _BIT_SWAPS:
            piece = ((piece >> shift) & mask) | ((piece & mask) << shift)
        out[first:stop] = piece.byteswap()[::-1]
    return out


#: Words of a row that mirrored_words reverses (and the all-lit residue fills) at a time: 8 MiB.
ROW_PIECE_WORDS = 1 << 20

#: Swaps of neighbouring bits, pairs and nibbles: with a byte swap, a word's 64 bits reversed.
_BIT_SWAPS = tuple((np.uint64(shift), np.uint64(mask)) for shift, mask in
                   ((1, 0x5555555555555555), (2, 0x3333333333333333), (4, 0x0F0F0F0F0F0F0F0F)))


def nullity_poly(nrows: int, ncols: int) -> int:
    """Dimension of the quiet-pattern space of the ``nrows`` x ``ncols`` board: deg gcd(U_{R+1}, chi).

    No chase is needed.  Square boards and boards with two even sides take the gcd
    at half the degree or less (docs/algebra.md section 9); the others take one
    gcd of degree min(R, C).

    Example:
        >>> nullity_poly(5, 5), nullity_poly(4, 4), nullity_poly(3, 7)
        (2, 4, 0)
    """
    nrows = board_size(nrows, "nrows")
    ncols = board_size(ncols, "ncols")
    rows, cols = max(nrows, ncols), min(nrows, ncols)
    poly = kernels.gf2poly
    if rows == cols:
        return _square_nullity_any(rows)
    if rows % 2 == 0 and cols % 2 == 0:
        root_chi = poly.poly_taylor_shift(_square_root_factor(cols // 2))
        root_u = poly.poly_mod(_square_root_factor(rows // 2), root_chi)
        return 2 * int(poly.poly_degree(poly.poly_gcd(root_u, root_chi)))
    chi, u = _chi_and_u(rows, cols)
    return int(poly.poly_degree(poly.poly_gcd(u, chi)))


#: Square sides from which nullity_poly takes the half-degree gcd (below, the few extra
#: kernel calls cost more than the gcd they halve).
HALVING_FROM = 2048


def _square_nullity_any(n: int) -> int:
    """square_nullity(n), or below HALVING_FROM the direct deg gcd(U_{n+1}(t), U_{n+1}(t+1))."""
    if n >= HALVING_FROM:
        return square_nullity(n)
    poly = kernels.gf2poly
    u = poly.chebyshev_u(n + 1)
    return int(poly.poly_degree(poly.poly_gcd(u, poly.poly_taylor_shift(u))))


def square_nullity(n: int) -> int:
    """Nullity of the n x n board from one gcd of degree at most n / 4.

    Write n + 1 = 2^a (2k + 1).  Over GF(2), U_{2j} = t U_j^2 and U_{2k+1} = V^2 with
    V = U_{k+1} + U_k, so U_{n+1} = t^(2^a - 1) V^(2^(a+1)); V(0) = 1 and V(t+1) has
    no factor t + 1, and comparing multiplicities factor by factor gives

        nullity(n) = 2^(a+1) deg gcd(V(t), V(t+1)) + (2^(a+1) - 2 if V(1) = 0 else 0).

    With V = A(s) + t B(s), s = t^2 + t, gcd(V(t), V(t+1)) = gcd(A, B)(s): the gcd runs
    at a quarter of n (docs/algebra.md section 9).

    Example:
        >>> [square_nullity(n) for n in range(1, 12)]
        [0, 0, 0, 4, 2, 0, 0, 0, 8, 0, 6]
    """
    n = board_size(n, "n")
    poly = kernels.gf2poly
    a, odd = 0, n + 1
    while odd % 2 == 0:
        a, odd = a + 1, odd // 2
    root = _square_root_factor(odd // 2)
    even_part, odd_part = poly.poly_split_s(root)
    common = 2 * int(poly.poly_degree(poly.poly_gcd(even_part, odd_part)))
    root_at_one = bin(int(np.bitwise_xor.reduce(root))).count("1") % 2  # V(1): the parity of its terms
    return (2 << a) * common + ((2 << a) - 2 if root_at_one == 0 else 0)


def nullity_table(nmax: int, progress: Progress = None) -> np.ndarray:
    """Nullities of the n x n boards for n = 1 .. nmax (index 0 is n = 1), as int64.

    Example:
        >>> nullity_table(10).tolist()
        [0, 0, 0, 4, 2, 0, 0, 0, 8, 0]
    """
    nmax = board_size(nmax, "nmax")
    out = np.zeros(nmax, dtype=np.int64)
    poly = kernels.gf2poly  # once: a table is thousands of small calls (as _square_nullity_any)
    for n in range(1, nmax + 1):
        if n >= HALVING_FROM:
            out[n - 1] = square_nullity(n)
        else:
            u = poly.chebyshev_u(n + 1)
            out[n - 1] = int(poly.poly_degree(poly.poly_gcd(u, poly.poly_taylor_shift(u))))
        if progress is not None and (n % 64 == 0 or n == nmax):
            progress("nullity_table", n, nmax)
    return out
