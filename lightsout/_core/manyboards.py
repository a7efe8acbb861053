"""Many boards at once: one GF(2) operator applied to a stack of same-shape boards.

``solve_many`` computes a board shape's solution operator once (an r x cells 0/1 matrix
M, with x = M b) and, for the solvable test, the quiet patterns Q (b is solvable iff
Q b = 0).  Applying them to N boards is a matrix product over GF(2), done here with
byte tables (the "method of four Russians" on the input side): the cells of a board
are read 8 at a time, and each byte picks one precomputed entry, the XOR of the 8
matching columns of [M; Q] as packed words.  A 5 x 5 board is 4 lookups of one word;
a 10 x 10 board 13 lookups of two words.  The check bits ride in the same words as
the solution bits, so the solvable mask costs nothing extra.

Canonical and fewest presses.  :func:`reduced_operator` turns any solution operator
into the one giving the lexicographically smallest solution of each board (no press
on a pivot cell of the quiet basis: see lightsout/_search/minweight.py), and
:func:`coset_min_many` then picks each board's fewest-press solution among the 2^d
(d = nullity, small for such boards) with the same tie rule as
:func:`lightsout._search.minweight.coset_min_weight`.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple, Optional

import numpy as np
import numpy.typing as npt

from lightsout._base.errors import BoardTooLargeError, InvalidBoardError, InvalidTypeError
from lightsout._base.packing import pack_rows, words_for_bits
from lightsout._base.validate import zero_one
from lightsout._core.modring import rref_prime
from lightsout import _kernels as kernels

__all__ = ["BitOperator", "ManyResult", "bit_operator", "apply_bit_matrix_many", "reduced_operator",
           "coset_min_many", "MAX_TABLE_BYTES", "MAX_MINIMAL_NULLITY"]

#: Byte tables above this size are refused (cells/8 x 256 x output words x 8 bytes).
MAX_TABLE_BYTES = 1 << 30
#: :func:`coset_min_many` tries all 2^d solutions of every board; d up to this.
MAX_MINIMAL_NULLITY = 16


@dataclass(frozen=True)
class BitOperator:
    """Byte tables of a GF(2) operator [M; Q] (see the module docstring).

    Attributes:
        cells: input bits per board.
        rows: output bits of M (the result).
        checks: rows of Q (parity checks; 0 = no solvable test).
        tables: ``(ceil(cells / 8), 256, words(rows + checks))`` uint64.
    """

    cells: int
    rows: int
    checks: int
    tables: np.ndarray


class ManyResult(NamedTuple):
    """What :func:`apply_bit_matrix_many` returns.

    Attributes:
        values: ``(N, rows)`` bool, or ``(N, words(rows))`` uint64 packed rows.
        ok: ``(N,)`` bool, True where every check is zero (the board is solvable);
            None when the operator has no checks.
    """

    values: np.ndarray
    ok: Optional[np.ndarray]


def _zero_one_matrix(matrix: npt.ArrayLike, name: str) -> np.ndarray:
    arr = np.asarray(matrix)
    if arr.ndim != 2:
        raise InvalidBoardError(f"{name} must be 2-D (rows, cells), got shape {arr.shape}")
    if arr.dtype != np.bool_ and not np.issubdtype(arr.dtype, np.integer):
        raise InvalidTypeError(f"{name} must hold 0/1 integers or bools, got dtype {arr.dtype}")
    return zero_one(arr, name, states_hint=False).astype(np.uint8)


def bit_operator(matrix: npt.ArrayLike, checks: Optional[npt.ArrayLike] = None) -> BitOperator:
    """Build the byte tables of ``matrix`` (r x cells) and optional ``checks`` (s x cells).

    Example:
        >>> op = bit_operator([[1, 1, 0], [0, 1, 1]], checks=[[1, 0, 1]])
        >>> op.tables.shape, op.rows, op.checks
        ((1, 256, 1), 2, 1)
    """
    m = _zero_one_matrix(matrix, "matrix")
    cells = m.shape[1]
    q = (np.zeros((0, cells), dtype=np.uint8) if checks is None
         else _zero_one_matrix(checks, "checks"))
    if q.shape[1] != cells:
        raise InvalidBoardError(f"checks have {q.shape[1]} cells, matrix has {cells}")
    full = np.concatenate([m, q]) if q.shape[0] else m
    nout = full.shape[0]
    w = words_for_bits(nout)
    nbytes = (cells + 7) // 8
    size = nbytes * 256 * max(w, 1) * 8
    if size > MAX_TABLE_BYTES:
        raise BoardTooLargeError(f"byte tables for a {nout} x {cells} operator need {size / 2**30:.2g} GiB; "
                                 f"the limit is {MAX_TABLE_BYTES / 2**30:g} GiB "
                                 "(lightsout.limits.MAX_MANY_TABLE_BYTES)")
    # column j of the operator as packed words over its rows
    columns = np.zeros((nbytes * 8, w), dtype=np.uint64)
    if nout and cells:
        columns[:cells] = pack_rows(full.T)
    tables = np.zeros((nbytes, 256, w), dtype=np.uint64)
    cols = columns.reshape(nbytes, 8, w)
    for i in range(8):
        tables[:, 1 << i: 2 << i] = tables[:, : 1 << i] ^ cols[:, i: i + 1]
    return BitOperator(cells, m.shape[0], q.shape[0], tables)


def apply_bit_matrix_many(boards: npt.ArrayLike, operator: BitOperator | npt.ArrayLike, *,
                          checks: Optional[npt.ArrayLike] = None, packed_output: bool = False) -> ManyResult:
    """``M b`` over GF(2) for every board b of a stack, and the solvable mask ``Q b == 0``.

    Args:
        boards: ``(N, cells)`` 0/1 (bool or uint8 are read in place; other integer
            dtypes are checked and converted), or ``(N, words(cells))`` uint64 rows
            already packed (bit j of a row is bit j % 64 of word j // 64).
        operator: a :class:`BitOperator` (reuse it across calls), or the ``(r, cells)``
            0/1 matrix M itself (``checks`` then gives Q).
        packed_output: return ``(N, words(r))`` uint64 rows instead of ``(N, r)`` bool.

    Returns:
        A :class:`ManyResult` ``(values, ok)``.

    Example:
        >>> import numpy as np
        >>> res = apply_bit_matrix_many(np.array([[1, 0, 1], [1, 1, 1]], bool),
        ...                             [[1, 1, 0], [0, 1, 1]], checks=[[1, 1, 1]])
        >>> res.values.astype(int).tolist(), res.ok.tolist()
        ([[1, 1], [0, 0]], [True, False])
    """
    op = operator if isinstance(operator, BitOperator) else bit_operator(operator, checks)
    if isinstance(operator, BitOperator) and checks is not None:
        raise InvalidBoardError("pass checks to bit_operator(), not with a prepared BitOperator")
    arr = boards if isinstance(boards, np.ndarray) else np.asarray(boards)
    if arr.ndim != 2:
        raise InvalidBoardError(f"boards must be 2-D (boards, cells), got shape {arr.shape}")
    if arr.dtype == np.uint64:
        pass
    elif np.issubdtype(arr.dtype, np.integer) or arr.dtype == np.bool_:
        arr = zero_one(arr, "boards", states_hint=False)  # bools: a view of one-byte integers
    else:
        raise InvalidTypeError(f"boards must be bool, integer 0/1 or packed uint64, got dtype {arr.dtype}")
    arr = np.ascontiguousarray(arr)
    kernel = kernels.many
    values, ok = kernel.apply_tables(arr, op.cells, op.tables, op.rows + op.checks, op.rows,
                                     unpack=not packed_output)
    if not packed_output:
        values = values.view(np.bool_)
    return ManyResult(values, None if ok is None else ok.view(np.bool_))


def reduced_operator(operator: npt.ArrayLike, quiet: npt.ArrayLike) -> np.ndarray:
    """The operator giving, for each board, the lexicographically smallest solution.

    If ``operator`` (cells x cells, 0/1) maps a board to some solution and ``quiet``
    (d x cells) is a basis of the quiet patterns, the result maps it to the solution
    with no press on any pivot cell of the basis in reduced row echelon form, which is
    the lexicographically smallest one (cell 0 most significant).

    Returns:
        ``(cells, cells)`` uint8.

    Example:
        >>> reduced_operator([[1, 0], [0, 0]], [[1, 1]]).tolist()       # 2 cells, quiet 11
        [[0, 0], [1, 0]]
    """
    m = _zero_one_matrix(operator, "operator").copy()
    rows, pivots = _rref(_zero_one_matrix(quiet, "quiet"))
    for row, p in zip(rows, pivots):
        # x -> x + x[p] * row for each pivot, in order: rows have zeros at the other pivots
        m ^= np.outer(row, m[p]).astype(np.uint8)
    return m


def _rref(rows: np.ndarray) -> tuple[list[np.ndarray], list[int]]:
    """Reduced row echelon form over GF(2) (leftmost pivots, :func:`lightsout._core.modring.rref_prime`);
    dependent rows refused."""
    basis, pivots = rref_prime(rows, 2)
    if len(pivots) < rows.shape[0]:
        raise InvalidBoardError("quiet rows must be linearly independent over GF(2)")
    return [row.astype(np.uint8) for row in basis], pivots


def coset_min_many(solutions: np.ndarray, quiet: npt.ArrayLike) -> tuple[np.ndarray, np.ndarray]:
    """The fewest-press solution of each board, given its lexicographically smallest one.

    Args:
        solutions: ``(N, words(cells))`` uint64 packed rows, each the solution from
            :func:`reduced_operator` (no press on a pivot cell of ``quiet``).
        quiet: ``(d, cells)`` 0/1 basis of the quiet patterns, d <= MAX_MINIMAL_NULLITY.

    Returns:
        ``(presses, weights)``: ``(N, words(cells))`` uint64 packed rows of the fewest
        presses (ties: the lexicographically smallest) and their ``(N,)`` int64 weights.

    Example:
        >>> import numpy as np
        >>> x = np.array([[0b0110]], dtype=np.uint64)    # 4 cells: presses on cells 1 and 2
        >>> presses, weights = coset_min_many(x, [[1, 1, 1, 0]])
        >>> presses.tolist(), weights.tolist()           # adding the quiet pattern leaves cell 0
        ([[1]], [1])
    """
    rows, _ = _rref(_zero_one_matrix(quiet, "quiet"))
    d = len(rows)
    if d > MAX_MINIMAL_NULLITY:
        raise BoardTooLargeError(f"coset_min_many tries all 2^d solutions of each board; d = {d} is above "
                                 f"the limit {MAX_MINIMAL_NULLITY} (lightsout.limits.MAX_MANY_MINIMAL_NULLITY)")
    if not isinstance(solutions, np.ndarray) or solutions.dtype != np.uint64 or solutions.ndim != 2:
        raise InvalidTypeError("solutions must be a 2-D numpy uint64 array of packed rows")
    w = solutions.shape[1]
    packed = np.zeros((d, w), dtype=np.uint64)
    if d:
        rows_words = pack_rows(np.array(rows))
        packed[:, :rows_words.shape[1]] = rows_words
    # span[c]: the sum of the rows i with bit d-1-i of c set, so that c's numeric order
    # is the lexicographic order of the solutions (row 0 = most significant)
    span = np.zeros((1 << d, w), dtype=np.uint64)
    for c in range(1, 1 << d):
        low = (c & -c).bit_length() - 1
        span[c] = span[c & (c - 1)] ^ packed[d - 1 - low]
    out = np.array(solutions, dtype=np.uint64, order="C", copy=True)
    weights = kernels.many.coset_min_many(out, span)
    return out, weights
