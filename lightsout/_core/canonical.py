"""The canonical solution of a coset, and the quiet pattern that proves a board unsolvable.

Every solution of ``A x + b = 0 (mod k)`` is ``particular + q`` for a quiet
pattern q (``A q = 0``).  The canonical one is the lexicographically smallest
press vector, cells in row-major order, cell (0, ..., 0) first.  With the
quiet patterns in reduced echelon form (k = 2; for other k the Howell form,
``lightsout._core.modring``), reducing the particular solution at every pivot
column gives exactly that vector: a nonzero quiet pattern first differs from
zero at some pivot column, where the reduced vector already holds the
smallest value its coset allows.

An unsolvable board has a proof: A is symmetric, so every quiet pattern q
satisfies ``q . (A x) = (A q) . x = 0`` for all x, and a board b with
``q . b != 0 (mod k)`` cannot be ``-A x``.  Over Z/k the image of A is exactly
the set of vectors orthogonal to every quiet pattern, so when a board is
unsolvable one of the generators of the quiet patterns meets it nonzero.

This module is the one place for both, for every route: :func:`lexmin_solution` and
:func:`proof_pattern` on whole press vectors (the N-D, graph and k-state routes),
:func:`canonical_first_row` and :func:`grid_unsolvable` on the first rows of the 2-D grid
routes (every solution of an open grid is the chase of its first row), and
:func:`unsolvable_from_proof`, which turns a proof into the UnsolvableError.
"""
from __future__ import annotations

from dataclasses import replace
from typing import Optional

import numpy as np

from lightsout._base.errors import InternalError, UnsolvableError, unsolvable_error
from lightsout._base.packing import count_bits, pack_row, pack_rows, unpack_row, unpack_rows, words_for_bits
from lightsout._core.coset import Coset
from lightsout._core.modring import howell_form, reduce_lexmin
from lightsout._core.orientation import first_column_of_chase, transpose_packed
from lightsout import _kernels as kernels


def lexmin_solution(particular: np.ndarray, kernel: np.ndarray, states: int) -> tuple[np.ndarray, np.ndarray]:
    """The smallest vector of ``particular + span(kernel)`` (mod ``states``) and the reduced kernel.

    Args:
        particular: (cells,) uint8, one solution.
        kernel: (r, cells) uint8 generators of the quiet patterns; for two
            states also packed rows, (r, words) uint64 (lightsout.packed's layout).
        states: k.

    Returns:
        (canonical presses (cells,) uint8, the kernel in reduced form whose
        rows generate the same patterns; packed rows when ``kernel`` was packed).

    Example:
        >>> import numpy as np
        >>> x, basis = lexmin_solution(np.array([1, 1, 0], np.uint8), np.array([[1, 1, 1]], np.uint8), 2)
        >>> x.tolist(), basis.tolist()
        ([0, 0, 1], [[1, 1, 1]])
        >>> x, basis = lexmin_solution(np.array([1, 1, 0], np.uint8), np.array([[7]], np.uint64), 2)
        >>> x.tolist(), basis.tolist()
        ([0, 0, 1], [[7]])
    """
    particular = np.ascontiguousarray(particular, dtype=np.uint8)
    cells = particular.size
    if len(kernel) == 0:
        return particular.copy(), np.asarray(kernel).reshape(0, kernel.shape[1] if kernel.ndim == 2 else cells)
    if states == 2:
        rows = np.array(kernel, dtype=np.uint64) if kernel.dtype == np.uint64 else pack_rows(kernel)
        rank, pivots = kernels.gf2elim.rref_inplace(rows, cells)
        vector = pack_row(particular)
        for i in range(int(rank)):  # reduced echelon: clearing a pivot column is final
            p = int(pivots[i])
            if (int(vector[p >> 6]) >> (p & 63)) & 1:
                vector ^= rows[i]
        basis = rows[: int(rank)]
        smallest = unpack_row(vector, cells).view(np.uint8).copy()
        return smallest, (basis if kernel.dtype == np.uint64 else unpack_rows(basis, cells).view(np.uint8))

    howell = howell_form(np.ascontiguousarray(kernel, dtype=np.uint8), states)
    return reduce_lexmin(particular, howell, states), howell


def proof_pattern(kernel: np.ndarray, board: np.ndarray, states: int) -> Optional[np.ndarray]:
    """The first generator of the quiet patterns meeting ``board`` nonzero (mod k), or None.

    ``kernel`` as for :func:`lexmin_solution` (uint8 rows, or packed uint64 rows
    for two states); the pattern is returned as (cells,) uint8.

    Example:
        >>> import numpy as np
        >>> proof_pattern(np.array([[1, 0, 1]], np.uint8), np.array([1, 0, 0], np.uint8), 2).tolist()
        [1, 0, 1]
        >>> proof_pattern(np.array([[5]], np.uint64), np.array([1, 0, 0], np.uint8), 2).tolist()
        [1, 0, 1]
    """
    flat = np.asarray(board, dtype=np.int64).ravel()
    for row in kernel:
        if kernel.dtype == np.uint64:
            row = unpack_row(row, flat.size).view(np.uint8)
        if int(np.dot(row.astype(np.int64), flat)) % states:
            found: np.ndarray = row
            return found
    return None


def canonical_coset(found: Coset, board: np.ndarray, states: int) -> Coset:
    """A coset of whole press vectors made canonical: its smallest solution and its quiet basis reduced
    (:func:`lexmin_solution`), or, when unsolvable, its proof (:func:`proof_pattern`).

    ``board`` is the lights, one value a cell in row-major order (or a vertex); the
    coset must carry its whole quiet basis.

    Example:
        >>> import numpy as np
        >>> found = Coset(True, 1, 2, "forcing", particular=np.array([1, 1, 0], np.uint8),
        ...               kernel=np.array([[1, 1, 1]], np.uint8))
        >>> smallest = canonical_coset(found, np.array([1, 0, 1]), 2)
        >>> smallest.canonical, smallest.particular.tolist()
        (True, [0, 0, 1])
    """
    if found.canonical:
        return found
    if found.solvable and found.particular is not None:
        particular, reduced = lexmin_solution(found.particular, found.kernel, states)
        return replace(found, particular=particular, kernel=reduced, canonical=True)
    return replace(found, canonical=True, proof=proof_pattern(found.kernel, board, states))


def general_unsolvable(result: Coset, board: np.ndarray, *, states: int, graph: bool) -> UnsolvableError:
    """An UnsolvableError carrying a quiet pattern with a nonzero inner product with the board."""
    return unsolvable_from_proof(proof_pattern(result.kernel, board, states), board, result.nullity, states, graph)


def unsolvable_from_proof(pattern: Optional[np.ndarray], board: np.ndarray, nullity: int, states: int,
                           graph: bool) -> UnsolvableError:
    """The UnsolvableError of a board (or a graph's lights) whose proof is ``pattern``.

    Example:
        >>> import numpy as np
        >>> error = unsolvable_from_proof(np.array([1, 0, 1], np.uint8), np.array([[1, 0, 0]]), 1, 2, False)
        >>> error.nullity, error.quiet_pattern.astype(int).tolist()
        (1, [[1, 0, 1]])
    """
    if pattern is None:
        raise InternalError("unsolvable board but every quiet pattern meets it evenly")
    meet = int(np.dot(pattern.astype(np.int64).ravel(), board.ravel().astype(np.int64)))
    what = f"this {len(board)}-vertex graph" if graph else f"this board of shape {board.shape}"
    shaped = np.asarray(pattern, dtype=np.uint8).reshape(board.shape)
    return unsolvable_error(what, nullity, states, lit_cells_met=meet, inner_product=meet % states,
                            quiet_pattern=shaped.astype(bool) if states == 2 else shaped,
                            quiet_first_row=shaped[0] if shaped.ndim > 1 else shaped[:1])


def canonical_first_row(first: np.ndarray, quiet_first_rows: np.ndarray) -> np.ndarray:
    """The lexicographically smallest first row in ``first + span(quiet_first_rows)`` (a 2-D grid).

    On an open grid every solution is the chase of its first row, so the smallest
    solution is the chase of the smallest first row.

    Example:
        >>> import numpy as np
        >>> canonical_first_row(np.array([1, 1, 0, 0]), np.array([[1, 0, 1, 0], [0, 1, 0, 1]])).astype(int).tolist()
        [0, 0, 1, 1]
    """
    if len(quiet_first_rows) == 0:
        return first
    smallest, _ = lexmin_solution(first.astype(np.uint8), quiet_first_rows.astype(np.uint8), 2)
    return smallest.astype(bool)


def _overlap_functional(board_words: Optional[np.ndarray], rows: int, cols: int) -> np.ndarray:
    """The packed row w with |P_q & board| = <q, w> (mod 2) for the quiet pattern P_q of every first row q.

    The chase of the dark board from q presses row k with M_k q, where M_1 = I,
    M_2 = T and M_{k+1} = T M_k + M_{k-1} (T symmetric).  So the overlap parity
    is <q, w> with w = sum_k M_k b_k, and Clenshaw's backward recurrence
    y_k = b_k + T y_{k+1} + y_{k+2}, w = y_1, is the chase of the board read
    bottom row first, from first row 0: w is that chase's residue.  One chase,
    and no pattern, for any number of first rows.
    """
    flipped = None if board_words is None else np.ascontiguousarray(board_words[::-1])
    zero = np.zeros(words_for_bits(cols), dtype=np.uint64)
    w, _, _ = kernels.chase.chase(flipped, rows, cols, zero)
    return w


def _odd_parity(words: np.ndarray) -> bool:
    folded = int(np.bitwise_xor.reduce(words, initial=np.uint64(0)))
    return bin(folded).count("1") % 2 == 1


def grid_unsolvable(result: Coset, board_words: Optional[np.ndarray], lights: Optional[np.ndarray],
                    max_pattern_cells: int) -> UnsolvableError:
    """An UnsolvableError carrying a quiet pattern that meets the lit cells an odd number of times.

    Works from first-row data: one chase gives the overlap functional w (see
    :func:`_overlap_functional`), the basis first rows are tried in packed
    form until one has odd <q, w> (usually the first or second), and only that
    one pattern is built (and kept with the error up to ``max_pattern_cells`` cells; beyond,
    the error carries the pattern's first row alone).
    """
    nrows, ncols = result.nrows, result.ncols
    rows, cols = result.working_shape
    size = f"{nrows} x {ncols}"
    what = "the all-lit" if lights is None else "this"
    work = board_words
    if result.transposed and board_words is not None:
        work = transpose_packed(board_words, nrows, ncols)
    w = _overlap_functional(work, rows, cols)
    q = next((v for v in result.iter_kernel_words() if _odd_parity(v & w)), None)
    if q is None:
        raise InternalError("unsolvable board but every quiet pattern meets it evenly")
    if nrows * ncols > max_pattern_cells:
        if result.transposed:
            first = first_column_of_chase(None, rows, cols, q, all_lit=False)
        else:
            first = unpack_rows(q[None, :], cols)[0]
        return unsolvable_error(f"{what} {size} board", result.nullity, quiet_first_row=first)
    _, presses, _ = kernels.chase.chase(None, rows, cols, q, all_lit=False, presses=True)
    assert presses is not None
    if result.transposed:  # the caller's first row is the working pattern's first column
        first = (presses[:, 0] & np.uint64(1)).astype(bool)
    else:
        first = unpack_rows(presses[:1], cols)[0]
    hits = count_bits(presses if work is None else presses & work)
    error = unsolvable_error(f"{what} {size} board", result.nullity, lit_cells_met=hits, quiet_first_row=first)
    error._packed_pattern = (presses, cols, result.transposed)  # unpacked when first read
    return error
