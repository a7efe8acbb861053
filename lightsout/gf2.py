"""Linear algebra over GF(2) on numpy 0/1 matrices, backed by the packed elimination kernel.

Everything here is arithmetic modulo 2 (``+`` is XOR).  Inputs are 2-D arrays of
0/1 ints or bools (``b`` in :func:`solve` is 1-D); outputs are bool arrays.  The
matrices are packed 64 columns to a ``uint64`` word and eliminated by the
compiled kernel ``lightsout._gf2elim`` (the widest SIMD build this CPU runs), so
a 10,000 x 10,000 system takes a fraction of a second.

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

from types import ModuleType

import numpy as np
import numpy.typing as npt

from lightsout._dispatch import kernel_module
from lightsout._errors import InvalidBoardError, InvalidTypeError, LightsOutError
from lightsout._packing import pack_rows, unpack_rows
from lightsout._validate import board_array

__all__ = ["NoSolutionError", "null_space", "rank", "rref", "solve"]


class NoSolutionError(LightsOutError, ValueError):
    """The linear system ``a @ x = b`` (mod 2) has no solution."""


def _kernel() -> ModuleType:
    return kernel_module("_gf2elim")


def _bit_matrix(a: npt.ArrayLike, name: str = "a") -> np.ndarray:
    """Check a 2-D 0/1 matrix (empty dimensions allowed) and return it as bools."""
    arr = a if isinstance(a, np.ndarray) else None
    if arr is None:
        try:
            arr = np.asarray(a)
        except Exception:  # ragged lists: let board_array word the error
            return board_array(a, name)
    if arr.ndim == 2 and arr.size == 0 and arr.dtype.kind in "biuf":
        return np.zeros(arr.shape, dtype=bool)  # a 0 x n or m x 0 matrix is a valid matrix
    return board_array(arr, name)


def _unpack(words: np.ndarray, nbits: int) -> np.ndarray:
    """unpack_rows that also accepts matrices with no rows or no words."""
    if words.size == 0:
        return np.zeros((words.shape[0], nbits), dtype=bool)
    return unpack_rows(words, nbits)


def _bit_vector(b: npt.ArrayLike, length: int, name: str = "b") -> np.ndarray:
    """Check a 1-D 0/1 vector of the given length and return it as bools."""
    try:
        arr = np.asarray(b)
    except Exception as exc:
        raise InvalidBoardError(f"{name} must be a 1-D array of 0/1 values: {exc}") from exc
    if arr.dtype == object or arr.dtype.kind not in "biuf":
        raise InvalidTypeError(f"{name} must hold 0/1 numbers or bools, got dtype {arr.dtype}")
    if arr.ndim != 1:
        raise InvalidBoardError(f"{name} must be 1-D, got shape {arr.shape}")
    if arr.shape[0] != length:
        raise InvalidBoardError(f"{name} has length {arr.shape[0]} but a has {length} rows")
    if arr.dtype.kind != "b" and not np.isin(arr, (0, 1)).all():
        raise InvalidBoardError(f"{name} must contain only 0 and 1 (or False/True)")
    return arr.astype(bool, copy=False)


def rank(a: npt.ArrayLike) -> int:
    """Rank of a 0/1 matrix over GF(2).

    Args:
        a: 2-D array of 0/1 ints or bools, shape ``(m, n)``.

    Returns:
        The number of linearly independent rows (equally, columns) mod 2.

    Raises:
        InvalidTypeError: ``a`` does not hold numbers or bools.
        InvalidBoardError: ``a`` is not 2-D or holds values other than 0 and 1.

    Example:
        >>> rank([[1, 1], [1, 1]]), rank([[1, 0], [0, 1]])
        (1, 2)
    """
    bits = _bit_matrix(a)
    # Eliminate the shorter side: rank(a) == rank(a.T), and fewer rows is less work.
    if bits.shape[0] > bits.shape[1]:
        bits = bits.T
    packed = pack_rows(bits)
    count, _ = _kernel().rref_inplace(packed, bits.shape[1])
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

    Example:
        >>> reduced, pivots = rref([[0, 1, 1], [1, 1, 0], [1, 0, 1]])
        >>> reduced.astype(int).tolist(), pivots.tolist()
        ([[1, 0, 1], [0, 1, 1], [0, 0, 0]], [0, 1])
    """
    bits = _bit_matrix(a)
    packed = pack_rows(bits)
    _, pivots = _kernel().rref_inplace(packed, bits.shape[1])
    return _unpack(packed, bits.shape[1]), pivots


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

    Example:
        >>> solve([[1, 1, 0], [0, 1, 1]], [1, 0]).astype(int).tolist()
        [1, 0, 0]
        >>> solve([[1, 1], [1, 1]], [0, 1])
        Traceback (most recent call last):
            ...
        lightsout.gf2.NoSolutionError: a @ x = b has no solution over GF(2) (rank of a is 1, rank of [a | b] is 2)
    """
    bits = _bit_matrix(a)
    rhs = _bit_vector(b, bits.shape[0])
    nvars = bits.shape[1]
    augmented = pack_rows(np.concatenate([bits, rhs[:, None]], axis=1))
    consistent, x = _kernel().solve_inplace(augmented, nvars)
    if not consistent:
        rank_a = rank(bits)
        raise NoSolutionError(
            f"a @ x = b has no solution over GF(2) (rank of a is {rank_a}, rank of [a | b] is {rank_a + 1})"
        )
    return _unpack(x.reshape(1, -1), nvars)[0]


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

    Example:
        >>> null_space([[1, 1, 0, 0], [0, 0, 1, 1]]).astype(int).tolist()
        [[1, 1, 0, 0], [0, 0, 1, 1]]
        >>> null_space([[1, 0], [0, 1]]).shape
        (0, 2)
    """
    bits = _bit_matrix(a)
    ncols = bits.shape[1]
    packed = pack_rows(bits)
    kernel = _kernel()
    _, pivots = kernel.rref_inplace(packed, ncols)
    return _unpack(kernel.null_space(packed, ncols, pivots), ncols)
