"""GF(2) linear algebra on packed matrices: numpy ``uint64`` words in, words out, no repacking.

Packed layout (the one every lightsout kernel uses):

* A row of ``ncols`` bits is ``words_for_bits(ncols) = (ncols + 63) // 64``
  ``uint64`` words; a matrix is a C-contiguous ``(nrows, nwords)`` array of them.
* Bit ``j`` of a row is bit ``j % 64`` (least-significant first) of word
  ``j // 64``: little-endian, so the row's bytes in memory are exactly
  ``np.packbits(bits, bitorder="little")`` padded with zero bytes to a whole
  number of words, and :func:`unpack` is ``np.unpackbits(..., bitorder="little")``.
* Every bit past column ``ncols`` is zero, on input and on output.  Functions
  that take a matrix check this (and the dtype, shape and contiguity) and raise
  ``InvalidTypeError``/``InvalidBoardError`` otherwise; rows may have more words
  than ``ncols`` needs only where a function says so.

Round trip with numpy's own bit packing:

    >>> import numpy as np
    >>> from lightsout.packed import pack, unpack
    >>> bits = np.array([[1, 0, 1, 1], [0, 1, 1, 0]], dtype=bool)
    >>> words = pack(bits)
    >>> words.ravel().tolist()
    [13, 6]
    >>> raw = np.zeros((2, 8), dtype=np.uint8)
    >>> raw[:, :1] = np.packbits(bits, axis=1, bitorder="little")
    >>> bool((raw.view("<u8") == words).all())
    True
    >>> bool((unpack(words, 4) == bits).all())
    True

Everything runs on the compiled kernels at the widest SIMD level this CPU has
(picked when lightsout is imported; ``LIGHTSOUT_SIMD=generic|avx2|avx512`` forces
one), so these are the functions to call from numeric code that already holds
packed bits.  :mod:`lightsout.gf2` offers the same operations on 0/1 matrices.
"""
from __future__ import annotations

from typing import Optional, Union

import numpy as np
import numpy.typing as npt

from lightsout._base.errors import InvalidBoardError, InvalidTypeError
from lightsout._base.packing import pack_row, unpack_row, unpack_rows, words_for_bits
from lightsout._base.validate import board_size, flag, numeric_array, packed_matrix, packed_vector
from lightsout._core.bitmatrix import check_bytes, check_elimination, pack_zero_one
from lightsout._core.gf2system import augmented_system, solve_gf2
from lightsout import _kernels as kernels

__all__ = ["chase", "null_space", "pack", "rank", "rref_inplace", "solve", "unpack", "words_for_bits"]

Words = npt.NDArray[np.uint64]


def _ncols(ncols: object) -> int:
    """A column count: an int >= 0 (bools refused)."""
    if isinstance(ncols, (bool, np.bool_)) or not isinstance(ncols, (int, np.integer)):
        raise InvalidTypeError(f"ncols must be an int, got {type(ncols).__name__}")
    if ncols < 0:
        raise InvalidBoardError(f"ncols must be >= 0, got {ncols}")
    return int(ncols)


def pack(bits: npt.ArrayLike) -> Words:
    """Pack 0/1 values (bools or numbers) into words: 2-D to ``(nrows, nwords)``, 1-D to ``(nwords,)``.

    Args:
        bits: 1-D or 2-D array of 0/1 ints, floats or bools; ``ncols`` is its
            last dimension.

    Returns:
        A new C-contiguous uint64 array in the packed layout (tail bits zero).

    Raises:
        InvalidTypeError: not numbers or bools.
        InvalidBoardError: not 1-D or 2-D, or values other than 0 and 1.

    Example:
        >>> from lightsout.packed import pack
        >>> pack([[1, 0, 1], [0, 1, 1]]).tolist()
        [[5], [6]]
        >>> pack([0] * 64 + [1]).tolist()
        [0, 1]
    """
    arr = numeric_array(bits, "bits", "a rectangular 1-D or 2-D array of 0/1 values")
    if arr.ndim not in (1, 2):
        raise InvalidBoardError(f"bits must be 1-D or 2-D, got shape {arr.shape}")
    rows = arr.reshape(1, -1) if arr.ndim == 1 else arr
    check_bytes(rows.shape[0] * words_for_bits(rows.shape[1]) * 8 + rows.size, "packing")
    words = pack_zero_one(rows, "bits")
    return words[0].copy() if arr.ndim == 1 else words


def unpack(words: npt.NDArray[np.uint64], ncols: int) -> npt.NDArray[np.bool_]:
    """Unpack words into bools: ``(nrows, nwords)`` to ``(nrows, ncols)``, ``(nwords,)`` to ``(ncols,)``.

    Args:
        words: packed uint64 array, exactly ``words_for_bits(ncols)`` words per
            row, bits past ``ncols`` zero.
        ncols: number of columns.

    Returns:
        A new bool array.

    Raises:
        InvalidTypeError, InvalidBoardError: not a packed array of that width.

    Example:
        >>> from lightsout.packed import unpack
        >>> import numpy as np
        >>> unpack(np.array([[5], [6]], dtype=np.uint64), 3).astype(int).tolist()
        [[1, 0, 1], [0, 1, 1]]
        >>> unpack(np.array([0, 1], dtype=np.uint64), 65).nonzero()[0].tolist()
        [64]
    """
    n = _ncols(ncols)
    if isinstance(words, np.ndarray) and words.ndim == 1:
        row: npt.NDArray[np.bool_] = unpack_rows(packed_vector(words, "words", nbits=n).reshape(1, -1), n)[0]
        return row
    matrix = packed_matrix(words, "words", nbits=n)
    check_bytes(matrix.shape[0] * n, "unpacking")
    return unpack_rows(matrix, n)


def rref_inplace(m: Words, ncols: int) -> tuple[int, npt.NDArray[np.int64]]:
    """Reduced row echelon form of a packed matrix, in place.

    Args:
        m: writable packed ``(nrows, nwords)`` matrix; rows may have more words
            than ``ncols`` needs (the extra words must be zero and stay so).
        ncols: number of columns.

    Returns:
        ``(rank, pivots)``: afterwards row ``i < rank`` has its leading 1 in
        column ``pivots[i]`` (increasing int64) and is the only row with a 1
        there; rows ``rank..`` are zero.

    Raises:
        InvalidTypeError, InvalidBoardError: not a writable packed matrix.
        BoardTooLargeError: the elimination is over the work limit.
        KeyboardInterrupt: Ctrl-C (from the main thread) stops it within
            milliseconds; ``m`` is then unspecified.

    Example:
        >>> from lightsout.packed import pack, rref_inplace, unpack
        >>> m = pack([[0, 1, 1], [1, 1, 0], [1, 0, 1]])
        >>> rank, pivots = rref_inplace(m, 3)
        >>> rank, pivots.tolist(), unpack(m, 3).astype(int).tolist()
        (2, [0, 1], [[1, 0, 1], [0, 1, 1], [0, 0, 0]])
    """
    n = _ncols(ncols)
    packed_matrix(m, "m", nbits=n, writable=True, exact_words=False)
    check_elimination(m.shape[0], n)
    rank_, pivots = kernels.gf2elim.rref_inplace(m, n)
    return int(rank_), pivots


def rank(m: Words, ncols: int) -> int:
    """Rank over GF(2) of a packed matrix (``m`` is not modified).

    Args:
        m: packed ``(nrows, nwords)`` matrix; rows may be longer than ``ncols`` needs.
        ncols: number of columns.

    Returns:
        The rank.

    Raises:
        InvalidTypeError, InvalidBoardError, BoardTooLargeError: as rref_inplace raises them.

    Example:
        >>> from lightsout.packed import pack, rank
        >>> rank(pack([[1, 1, 0], [0, 1, 1], [1, 0, 1]]), 3)
        2
    """
    n = _ncols(ncols)
    packed_matrix(m, "m", nbits=n, exact_words=False)
    check_elimination(m.shape[0], n, m.nbytes)
    work = np.array(m[:, : words_for_bits(n)], dtype=np.uint64, order="C")
    rank_, _ = kernels.gf2elim.rref_inplace(work, n)
    return int(rank_)


def solve(a: Words, b: Words, ncols: int) -> Words:
    """One solution of ``a @ x = b`` over GF(2), all packed.

    Args:
        a: packed ``(nrows, words_for_bits(ncols))`` matrix (not modified).
        b: packed vector of ``nrows`` bits (``words_for_bits(nrows)`` words):
            bit ``i`` is the right-hand side of row ``i``.
        ncols: number of unknowns (columns of ``a``).

    Returns:
        ``x``, a packed vector of ``ncols`` bits (``words_for_bits(ncols)``
        words) with every free variable 0; add rows of :func:`null_space` for
        the other solutions.

    Raises:
        NoSolutionError: the system is inconsistent (``lightsout.gf2.NoSolutionError``).
        InvalidTypeError, InvalidBoardError: arrays not in the packed layout.
        BoardTooLargeError: over the memory or work limit.

    Example:
        >>> from lightsout.packed import pack, solve, unpack
        >>> a = pack([[1, 1, 0], [0, 1, 1]])         # x0 + x1 = 1, x1 + x2 = 0
        >>> x = solve(a, pack([1, 0]), 3)
        >>> unpack(x, 3).astype(int).tolist()
        [1, 0, 0]
    """
    n = _ncols(ncols)
    packed_matrix(a, "a", nbits=n)
    nrows = a.shape[0]
    rhs = packed_vector(b, "b", nbits=nrows)
    check_elimination(nrows, n + 1, a.nbytes)
    system = solve_gf2(augmented_system(a, unpack_row(rhs, nrows), n), n)
    if system.solution is None:
        raise system.no_solution_error()
    x: Words = pack_row(system.solution)  # pivot unknowns from b, free unknowns 0
    return x


def null_space(m: Words, ncols: int) -> Words:
    """A basis of ``{x : m @ x = 0}`` over GF(2), packed (``m`` is not modified).

    Args:
        m: packed ``(nrows, nwords)`` matrix; rows may be longer than ``ncols`` needs.
        ncols: number of columns.

    Returns:
        ``(ncols - rank, words_for_bits(ncols))`` uint64 array, one basis vector
        per free (non-pivot) column ``f``, increasing: bit ``f`` set, the other
        free columns 0.

    Raises:
        InvalidTypeError, InvalidBoardError: not a packed matrix.
        BoardTooLargeError: the basis would exceed 8 GiB (refused before any
            work when ``ncols - nrows`` alone is too many vectors), or the
            elimination the work limit.

    Example:
        >>> from lightsout.packed import null_space, pack, unpack
        >>> basis = null_space(pack([[1, 1, 0, 0], [0, 0, 1, 1]]), 4)
        >>> unpack(basis, 4).astype(int).tolist()
        [[1, 1, 0, 0], [0, 0, 1, 1]]
    """
    n = _ncols(ncols)
    packed_matrix(m, "m", nbits=n, exact_words=False)
    nrows, nwords = m.shape[0], words_for_bits(n)
    check_elimination(nrows, n, m.nbytes + (n - min(nrows, n)) * nwords * 8, "the null space")
    work = np.array(m[:, :nwords], dtype=np.uint64, order="C")
    kernel = kernels.gf2elim
    rank_, pivots = kernel.rref_inplace(work, n)
    check_bytes((n - rank_) * nwords * 8, f"the null space of a rank-{rank_} {nrows} x {n} matrix")
    basis: Words = kernel.null_space(work, n, pivots)
    return basis


def chase(board: Optional[Words], nrows: int, ncols: int, first_row: Words, *,
          presses: bool = False) -> tuple[Words, Union[Words, None]]:
    """Chase the lights of a packed board down from the presses of its first row.

    Pressing a cell toggles it and its orthogonal neighbours.  Row 0 is pressed
    as ``first_row`` says; then each next row is pressed under every light left
    on in the row above, which clears rows 0..nrows-2.

    Args:
        board: packed ``(nrows, words_for_bits(ncols))`` lights, or None for an
            all-lit board.
        nrows: the board's rows (positive).
        ncols: the board's columns (positive): the bits of each packed row.
        first_row: packed presses of row 0 (``words_for_bits(ncols)`` words).
        presses: also return every row's presses.

    Returns:
        ``(residue, presses)``: ``residue`` is the packed lights left on in the
        last row (all zero iff ``first_row`` solves the board); ``presses`` the
        packed ``(nrows, nwords)`` presses, or None unless asked for.

    Raises:
        InvalidTypeError, InvalidBoardError: sizes or arrays not as described.
        BoardTooLargeError: the press matrix would exceed 8 GiB.

    Example:
        >>> from lightsout.packed import chase, pack, unpack
        >>> import numpy as np
        >>> residue, _ = chase(None, 3, 3, pack([1, 0, 1]))     # all-lit 3 x 3
        >>> residue.tolist()
        [0]
        >>> residue, steps = chase(pack([[1, 1, 0], [1, 0, 0], [0, 0, 0]]), 3, 3, pack([1, 0, 0]), presses=True)
        >>> residue.tolist(), unpack(steps, 3).astype(int).tolist()
        ([0], [[1, 0, 0], [0, 0, 0], [0, 0, 0]])
    """
    rows, cols = board_size(nrows, "nrows"), board_size(ncols, "ncols")
    presses = flag(presses, "presses")
    if presses:
        check_bytes(rows * words_for_bits(cols) * 8, f"the presses of a {rows} x {cols} board")
    residue, steps, _ = kernels.chase.chase(board, rows, cols, first_row, all_lit=True,
                                                         presses=presses)
    return residue, steps
