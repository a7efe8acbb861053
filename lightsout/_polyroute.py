"""The polynomial route: solve an R x C Lights Out board in O((R + C) C / 64) word operations.

The mathematics is in the design note (algebra.md, sections 2-4).  In short, on the
working orientation (C = the shorter side):

    c  = r_{R+1} after chasing the start state with first row 0   (R chase steps)
    chi = W_{C+1}(t) = U_{C+1}(t + 1)                              (characteristic poly of T)
    u  = U_{R+1}(t) mod chi
    C^ = phi^{-1}(c) = sum_j c_j W_j                                (W recurrence)
    g  = gcd(u, chi),  nullity = deg g,  solvable <=> g | C^
    F0 = (C^ / g) * s mod (chi / g),  s * u = g (mod chi)          (extended gcd)
    first row f = phi(F0) = F0(T) e_1                               (Horner)

Memory is O(C) words beyond the board (plus a transposed copy of the board when
C > R and the board is given): no C x C matrix is ever built, and the all-lit
board is never materialised.

The compiled kernels live in ``lightsout._gf2poly`` (one build per SIMD level);
the chase residue comes from ``lightsout._kernels.chase``.
"""
from __future__ import annotations

from dataclasses import dataclass
from types import ModuleType
from typing import Callable, Optional

import numpy as np

from lightsout._dispatch import kernel_module
from lightsout._validate import board_size
from lightsout._packing import pack_rows, unpack_row, unpack_rows, words_for_bits

#: progress(stage, done, total), called between chunks of the long loops.
Progress = Optional[Callable[[str, int, int], None]]

__all__ = ["PolySolution", "solve_grid_poly", "nullity_poly", "nullity_table", "transpose_packed",
           "first_column_of_chase"]


@dataclass(frozen=True)
class PolySolution:
    """Result of :func:`solve_grid_poly` for an ``nrows`` x ``ncols`` board.

    Attributes:
        nrows, ncols: the board size, in the caller's (original) orientation.
        solvable: whether some set of presses turns every light off.
        nullity: dimension of the quiet-pattern space (2**nullity solutions when solvable).
        first_row: bool array of length ``ncols``: the presses of the board's top row in
            the canonical solution (original orientation); chasing the lights down from
            it solves the board.  None when not solvable.  Canonical choice: in the
            working orientation the solution is f = phi(F0) where F0 is the unique
            solution polynomial of degree < C - nullity (kernel component K = 0 in
            design note section 3); when transposed, ``first_row`` is the first column of
            that working solution.
        transposed: True when the route worked on the transpose (ncols > nrows), so the
            working orientation is ``ncols`` rows x ``nrows`` columns.
        kernel_first_rows: only with ``kernel=True``, else None.  A (nullity, C_work) bool
            array, C_work = min(nrows, ncols): row i is phi((chi/g) t^i), the first row
            (in the WORKING orientation) of a quiet pattern; chased down the working
            board of zeros they form a basis of the quiet patterns (transpose back if
            ``transposed``).  :meth:`quiet_first_rows` gives them in the original orientation.
    """

    nrows: int
    ncols: int
    solvable: bool
    nullity: int
    first_row: Optional[np.ndarray]
    transposed: bool = False
    kernel_first_rows: Optional[np.ndarray] = None

    def quiet_first_rows(self) -> np.ndarray:
        """First rows (original orientation) of the quiet-pattern basis: (nullity, ncols) bool.

        Needs ``kernel=True``.  Without a transpose these are ``kernel_first_rows``;
        with one, each is the first column of the working quiet pattern (one chase).

        Example:
            >>> solve_grid_poly(4, 4, kernel=True).quiet_first_rows().shape
            (4, 4)
        """
        if self.kernel_first_rows is None:
            raise ValueError("quiet_first_rows needs solve_grid_poly(..., kernel=True)")
        if not self.transposed:
            return self.kernel_first_rows.copy()
        out = np.zeros((self.nullity, self.ncols), dtype=bool)
        for i, row in enumerate(self.kernel_first_rows):
            out[i] = first_column_of_chase(None, self.ncols, self.nrows, row, all_lit=False)
        return out


def _poly_kernels() -> ModuleType:
    return kernel_module("_gf2poly")


def _chase_residue(board: Optional[np.ndarray], nrows: int, ncols: int, progress: Progress) -> np.ndarray:
    """r_{R+1} with first row 0: the lights left below the board (design note section 1)."""
    first = np.zeros(words_for_bits(ncols), dtype=np.uint64)
    residue, _, _ = kernel_module("_kernels").chase(board, nrows, ncols, first, progress=progress)
    return residue


def transpose_packed(board: np.ndarray, nrows: int, ncols: int) -> np.ndarray:
    """(nrows, words(ncols)) packed board -> (ncols, words(nrows)) packed transpose.

    Goes a slab of columns at a time, so the unpacked bytes stay near 16 MB.
    """
    out = np.zeros((ncols, words_for_bits(nrows)), dtype=np.uint64)
    slab_words = max(1, (1 << 24) // (64 * nrows))
    for w0 in range(0, board.shape[1], slab_words):
        w1 = min(board.shape[1], w0 + slab_words)
        c0, c1 = 64 * w0, min(ncols, 64 * w1)
        bits = unpack_rows(np.ascontiguousarray(board[:, w0:w1]), c1 - c0)
        out[c0:c1] = pack_rows(bits.T)
    return out


def first_column_of_chase(board: Optional[np.ndarray], nrows: int, ncols: int, first_row: np.ndarray,
                          *, all_lit: bool = True, progress: Progress = None) -> np.ndarray:
    """Column 0 of the presses found by chasing ``board`` from ``first_row``: bool, length nrows.

    When a route works on the transpose of the caller's board, this column is
    the caller's first row.  ``first_row`` is a bool array or packed words;
    ``board=None`` is the all-lit board (``all_lit=True``) or the dark one.
    O(ncols) words of memory.

    Example:
        >>> first_column_of_chase(None, 3, 3, np.array([1, 0, 1], dtype=bool)).astype(int).tolist()
        [1, 0, 1]
    """
    words = first_row if first_row.dtype == np.uint64 else pack_rows(first_row[None, :])[0]
    _, _, column = kernel_module("_kernels").chase(board, nrows, ncols, words, all_lit=all_lit,
                                                   first_column=True, progress=progress)
    return column


def _check_board(board_words: np.ndarray, nrows: int, ncols: int) -> np.ndarray:
    if not isinstance(board_words, np.ndarray) or board_words.dtype != np.uint64:
        raise TypeError("board_words must be a packed numpy uint64 array (see lightsout._packing.pack_rows)")
    shape = (nrows, words_for_bits(ncols))
    if board_words.shape != shape:
        raise ValueError(f"board_words must have shape {shape} for a {nrows} x {ncols} board, got {board_words.shape}")
    if ncols % 64 and (board_words[:, -1] >> np.uint64(ncols % 64)).any():
        raise ValueError(f"board_words has bits set past column {ncols}")
    return np.ascontiguousarray(board_words)


def _chi_and_u(rows: int, cols: int) -> tuple[np.ndarray, np.ndarray]:
    """chi = U_{C+1}(t+1) and U_{R+1}(t) mod chi, for the working size R x C (R >= C)."""
    poly = _poly_kernels()
    chi = poly.poly_taylor_shift(poly.chebyshev_u(cols + 1))
    u = poly.poly_mod(poly.chebyshev_u(rows + 1), chi)
    return chi, u


def solve_grid_poly(
    nrows: int,
    ncols: int,
    board_words: Optional[np.ndarray] = None,
    *,
    kernel: bool = False,
    progress: Progress = None,
) -> PolySolution:
    """Solve an ``nrows`` x ``ncols`` Lights Out board by the polynomial route.

    Args:
        nrows, ncols: board size (positive ints).
        board_words: the start state packed as an (nrows, words_for_bits(ncols)) uint64
            array (``lightsout._packing.pack_rows``), 1 = lit, in the caller's
            orientation; None means the all-lit board (never materialised).
        kernel: also return ``kernel_first_rows`` (see :class:`PolySolution`).
        progress: optional ``progress(stage, done, total)`` callable, called between
            chunks of the long loops (stages "chase", "reduce", "convert", "gcd",
            "horner", "first_column"); Ctrl-C is honoured between chunks too.

    Returns:
        A :class:`PolySolution`.  ``first_row`` is the canonical solution's top row
        (see the class docstring for the exact choice when nullity > 0).

    Examples:
        >>> solve_grid_poly(3, 3).first_row.astype(int).tolist()
        [1, 0, 1]
        >>> s = solve_grid_poly(5, 5)
        >>> s.solvable, s.nullity
        (True, 2)
    """
    nrows = board_size(nrows, "nrows")
    ncols = board_size(ncols, "ncols")
    if board_words is not None:
        board_words = _check_board(board_words, nrows, ncols)
    poly = _poly_kernels()
    transposed = ncols > nrows
    rows, cols = (ncols, nrows) if transposed else (nrows, ncols)
    work = board_words
    if transposed and board_words is not None:
        work = transpose_packed(board_words, nrows, ncols)

    residue = _chase_residue(work, rows, cols, progress)
    if progress is not None:
        progress("reduce", 0, 1)
    chi, u = _chi_and_u(rows, cols)
    if progress is not None:
        progress("reduce", 1, 1)
    c_hat = poly.w_combination(residue, cols, progress)
    g, s = poly.poly_gcd_cofactor(u, chi, progress)
    nullity = int(poly.poly_degree(g))
    c_over_g, rem = poly.poly_divmod(c_hat, g)
    solvable = poly.poly_degree(rem) < 0
    chi_over_g, _ = poly.poly_divmod(chi, g)

    first_row = None
    if solvable:
        # s u = g (mod chi)  =>  s (u/g) = 1 (mod chi/g); the solution of degree
        # < deg(chi/g) is then F0 = (C^/g) s mod (chi/g).
        f0 = poly.poly_mod(poly.poly_mul(c_over_g, poly.poly_mod(s, chi_over_g)), chi_over_g)
        f_words = poly.phi_image(f0, cols, progress)
        if transposed:
            # The original top row is the working solution's first column.
            column_progress = None
            if progress is not None:
                def column_progress(stage: str, done: int, total: int) -> None:
                    progress("first_column", done, total)
            first_row = first_column_of_chase(work, rows, cols, f_words, progress=column_progress)
        else:
            first_row = unpack_row(f_words, cols)

    kernel_rows = None
    if kernel:
        kernel_rows = np.zeros((nullity, cols), dtype=bool)
        if nullity:
            v = poly.phi_image(chi_over_g, cols)
            for i in range(nullity):  # phi(t F) = T phi(F)
                kernel_rows[i] = unpack_row(v, cols)
                v = poly.apply_T_row(v, cols)
    return PolySolution(nrows, ncols, bool(solvable), nullity, first_row, transposed, kernel_rows)


def nullity_poly(nrows: int, ncols: int) -> int:
    """Dimension of the quiet-pattern space of the ``nrows`` x ``ncols`` board: deg gcd(U_{R+1}, chi).

    No chase is needed, so this is O(R + C^2/64 / 16)-ish even for huge boards.

    Example:
        >>> nullity_poly(5, 5), nullity_poly(4, 4), nullity_poly(3, 7)
        (2, 4, 0)
    """
    nrows = board_size(nrows, "nrows")
    ncols = board_size(ncols, "ncols")
    rows, cols = max(nrows, ncols), min(nrows, ncols)
    poly = _poly_kernels()
    chi, u = _chi_and_u(rows, cols)
    return int(poly.poly_degree(poly.poly_gcd(u, chi)))


def nullity_table(nmax: int, progress: Progress = None) -> np.ndarray:
    """Nullities of the n x n boards for n = 1 .. nmax (index 0 is n = 1), as int64.

    Example:
        >>> nullity_table(10).tolist()
        [0, 0, 0, 4, 2, 0, 0, 0, 8, 0]
    """
    nmax = board_size(nmax, "nmax")
    poly = _poly_kernels()
    out = np.zeros(nmax, dtype=np.int64)
    for n in range(1, nmax + 1):
        u_n = poly.chebyshev_u(n + 1)  # square board: U_{n+1} and chi = U_{n+1}(t+1)
        out[n - 1] = poly.poly_degree(poly.poly_gcd(u_n, poly.poly_taylor_shift(u_n)))
        if progress is not None and (n % 64 == 0 or n == nmax):
            progress("nullity_table", n, nmax)
    return out
