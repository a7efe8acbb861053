"""Linear algebra over GF(2) on numpy 0/1 matrices, backed by the packed elimination kernel.

Everything here is arithmetic modulo 2 (``+`` is XOR).  Inputs are 2-D arrays of
0/1 ints or bools (``b`` in :func:`solve` is 1-D); outputs are bool arrays.  The
matrices are packed 64 columns to a ``uint64`` word and eliminated by the
compiled elimination kernel (four-Russians tables, at the widest SIMD level this
CPU runs), so a 10,000 x 10,000 system takes a fraction of a second.  Integer and float inputs
are checked and packed in one pass, so they cost about as much as bools.  Code
that already holds packed bits should call :mod:`lightsout.packed`, which takes
and returns them without converting.

Limits: a call refuses, before allocating, work needing more than 8 GiB of
copies and results or more than 2**45 word updates (some 10-20 minutes) with
``BoardTooLargeError``; Ctrl-C stops a long elimination within milliseconds.

Example:
    >>> import numpy as np
    >>> from lightsout import gf2
    >>> a = np.array([[1, 1, 0], [0, 1, 1], [1, 0, 1]])
    >>> gf2.rank(a)
    2
    >>> x = gf2.solve(a, [1, 0, 1])
    >>> bool(((a.astype(int) @ x) % 2 == [1, 0, 1]).all())
    True
    >>> gf2.null_space(a).astype(int).tolist()
    [[1, 1, 1]]
"""
from __future__ import annotations

import numpy as np
import numpy.typing as npt

from lightsout._base.errors import InvalidBoardError, InvalidTypeError, NoSolutionError
from lightsout._base.packing import unpack_rows, words_for_bits
from lightsout._base.validate import board_array, numeric_array, zero_one
from lightsout._core.bitmatrix import check_bytes, check_elimination, pack_zero_one
from lightsout._core.gf2system import augmented_system, solve_gf2
from lightsout import _kernels as kernels

__all__ = ["NoSolutionError", "null_space", "rank", "rref", "solve"]


def _as_array(a: npt.ArrayLike, name: str) -> np.ndarray:
    """``a`` as a 2-D numeric numpy array (not yet checked for 0/1; no copy of an ndarray)."""
    if isinstance(a, np.ndarray):
        arr = a
    else:
        try:
            arr = np.asarray(a)
        except Exception:  # ragged lists: let board_array word the error
            return board_array(a, name)
    if arr.dtype == object or arr.dtype.kind not in "biuf":
        raise InvalidTypeError(f"{name} must hold 0/1 numbers or bools, got dtype {arr.dtype}")
    if arr.ndim != 2:
        raise InvalidBoardError(f"{name} must be 2-D (rows x columns), got shape {arr.shape}")
    return arr


def _bit_vector(b: npt.ArrayLike, length: int, name: str = "b") -> np.ndarray:
    """Check a 1-D 0/1 vector of the given length and return it as bools."""
    arr = numeric_array(b, name, "a 1-D array of 0/1 values")
    if arr.ndim != 1:
        raise InvalidBoardError(f"{name} must be 1-D, got shape {arr.shape}")
    if arr.shape[0] != length:
        raise InvalidBoardError(f"{name} has length {arr.shape[0]} but a has {length} rows")
    return zero_one(arr, name, states_hint=False)


def rank(a: npt.ArrayLike) -> int:
    """Rank of a 0/1 matrix over GF(2).

    Args:
        a: 2-D array of 0/1 ints or bools, shape ``(m, n)``.

    Returns:
        The number of linearly independent rows (equally, columns) mod 2.

    Raises:
        InvalidTypeError: ``a`` does not hold numbers or bools.
        InvalidBoardError: ``a`` is not 2-D or holds values other than 0 and 1.
        BoardTooLargeError: the packed copy would exceed ``lightsout.limits.MAX_GF2_BYTES`` (8 GiB)
            or the elimination ``lightsout.limits.MAX_GF2_WORD_OPS`` word updates.

    Example:
        >>> from lightsout.gf2 import rank
        >>> rank([[1, 1], [1, 1]]), rank([[1, 0], [0, 1]])
        (1, 2)
    """
    arr = _as_array(a, "a")
    # Eliminate the shorter side: rank(a) == rank(a.T), and fewer rows is less work.
    if arr.shape[0] > arr.shape[1]:
        arr = arr.T
    check_elimination(arr.shape[0], arr.shape[1], arr.size, "the rank")
    packed = pack_zero_one(arr, "a")
    count, _ = kernels.gf2elim.rref_inplace(packed, arr.shape[1])
    return int(count)


def rref(a: npt.ArrayLike) -> tuple[np.ndarray, np.ndarray]:
    """Reduced row echelon form of a 0/1 matrix over GF(2).

    Args:
        a: 2-D array of 0/1 ints or bools, shape ``(m, n)``.

    Returns:
        ``(reduced, pivots)``: ``reduced`` is an ``(m, n)`` bool matrix whose
        first ``rank`` rows are nonzero, row i with its leading 1 in column
        ``pivots[i]`` and the only 1 of that column; the other rows are zero.
        ``pivots`` is an increasing int64 array of length ``rank``.

    Raises:
        InvalidTypeError: ``a`` does not hold numbers or bools.
        InvalidBoardError: ``a`` is not 2-D or holds values other than 0 and 1.
        BoardTooLargeError: the copies and result would exceed 8 GiB, or the
            elimination the work limit (as for :func:`rank`).

    Example:
        >>> from lightsout.gf2 import rref
        >>> reduced, pivots = rref([[0, 1, 1], [1, 1, 0], [1, 0, 1]])
        >>> reduced.astype(int).tolist(), pivots.tolist()
        ([[1, 0, 1], [0, 1, 1], [0, 0, 0]], [0, 1])
    """
    arr = _as_array(a, "a")
    check_elimination(arr.shape[0], arr.shape[1], 2 * arr.size, "the reduced echelon form")
    packed = pack_zero_one(arr, "a")
    _, pivots = kernels.gf2elim.rref_inplace(packed, arr.shape[1])
    return unpack_rows(packed, arr.shape[1]), pivots


def solve(a: npt.ArrayLike, b: npt.ArrayLike) -> np.ndarray:
    """One solution ``x`` of ``a @ x = b`` over GF(2).

    When the system has several solutions the one with every free variable 0
    is returned; add any combination of :func:`null_space` rows to get the
    others.

    Args:
        a: 2-D array of 0/1 ints or bools, shape ``(m, n)``.
        b: 1-D array of 0/1 ints or bools, length ``m``.

    Returns:
        A bool vector ``x`` of length ``n`` with ``(a @ x) % 2 == b``.

    Raises:
        NoSolutionError: the system is inconsistent (a ``ValueError``).
        InvalidTypeError: ``a`` or ``b`` does not hold numbers or bools.
        InvalidBoardError: wrong dimensions, ``len(b) != m``, or values other
            than 0 and 1.
        BoardTooLargeError: over the memory or work limit (as for :func:`rank`).

    Example:
        >>> from lightsout.gf2 import solve
        >>> solve([[1, 1, 0], [0, 1, 1]], [1, 0]).astype(int).tolist()
        [1, 0, 0]
        >>> solve([[1, 1], [1, 1]], [0, 1])
        Traceback (most recent call last):
            ...
        lightsout.gf2.NoSolutionError: a @ x = b has no solution over GF(2) (rank of a is 1, rank of [a | b] is 2)
    """
    arr = _as_array(a, "a")
    nrows, nvars = arr.shape
    check_elimination(nrows, nvars + 1, 2 * arr.size, "solving")
    rhs = _bit_vector(b, nrows)
    system = solve_gf2(augmented_system(pack_zero_one(arr, "a"), rhs, nvars), nvars)
    if system.solution is None:
        raise system.no_solution_error()
    x: np.ndarray = system.solution.view(np.bool_)  # pivot unknowns from b, free unknowns 0
    return x


def null_space(a: npt.ArrayLike) -> np.ndarray:
    """A basis of the null space ``{x : a @ x = 0}`` over GF(2).

    Args:
        a: 2-D array of 0/1 ints or bools, shape ``(m, n)``.

    Returns:
        An ``(n - rank, n)`` bool matrix whose rows are a basis: row k has a 1
        in the k-th free (non-pivot) column, 0 in the other free columns.

    Raises:
        InvalidTypeError: ``a`` does not hold numbers or bools.
        InvalidBoardError: ``a`` is not 2-D or holds values other than 0 and 1.
        BoardTooLargeError: the basis (``(n - rank) x n`` bools) and packed
            copies would exceed 8 GiB, or the elimination the work limit.  A
            wide matrix with few rows has a huge null space: ``(1, 200000)``
            zeros needs 37 GiB and is refused before any work.

    Example:
        >>> from lightsout.gf2 import null_space
        >>> null_space([[1, 1, 0, 0], [0, 0, 1, 1]]).astype(int).tolist()
        [[1, 1, 0, 0], [0, 0, 1, 1]]
        >>> null_space([[1, 0], [0, 1]]).shape
        (0, 2)
    """
    arr = _as_array(a, "a")
    nrows, ncols = int(arr.shape[0]), int(arr.shape[1])

    def basis_bytes(dimension: int) -> int:
        return dimension * (ncols + 8 * words_for_bits(ncols))  # the bools and the packed words

    # The null space has dimension at least ncols - nrows: refuse before eliminating.
    check_elimination(nrows, ncols, arr.size + basis_bytes(ncols - min(nrows, ncols)), "the null space")
    packed = pack_zero_one(arr, "a")
    kernel = kernels.gf2elim
    count, pivots = kernel.rref_inplace(packed, ncols)
    check_bytes(basis_bytes(ncols - count), f"the null space of a rank-{count} {nrows} x {ncols} matrix")
    return unpack_rows(kernel.null_space(packed, ncols, pivots), ncols)
