"""The dense route: reduce an R x C board to its C x (C+1) system by the A/B
iteration, then solve that system by Gauss-Jordan elimination.

Cost O(R C^2 / 64 + C^3 / 64) word operations and one C x (C+1) bit matrix
(12.5 MB at C = 10,000).  It does not rely on the polynomial structure of the
problem, so it is the independent cross-check of the polynomial route, and the
route that generalises to other neighbour structures.  So it shares nothing with
the polynomial route but the orientation helpers and the neutral result type,
:class:`~lightsout._core.coset.Coset`.

Limits: :func:`lightsout._base.validate.dense_limits` refuses, before any work, a run
that would take more than 2**44 word operations (about ten minutes) or more memory
than allowed.  Ctrl-C (or any exception in the calling thread) raises the
shared cancel flag, which every worker's kernel polls every few milliseconds.
"""
from __future__ import annotations

from typing import Optional

import numpy as np
import numpy.typing as npt

from lightsout._base.packing import words_for_bits
from lightsout._base.types import Progress
from lightsout._base.validate import dense_limits
from lightsout._core.coset import Coset
from lightsout._core.gf2system import solve_gf2
from lightsout._core.orientation import first_column_of_chase, transpose_packed
from lightsout._core.runner import run_chunks
from lightsout import _kernels as kernels

__all__ = ["reduced_system", "solve_grid_dense"]


def reduced_system(nrows: int, ncols: int, board_words: Optional[np.ndarray] = None, *,
                   threads: Optional[int] = None, progress: Progress = None) -> np.ndarray:
    """The packed augmented system [U_{R+1}(T) | c] of an R x C board, by the A/B iteration.

    The column blocks are independent, so ``threads`` workers take them in turn
    (the kernel releases the GIL).  Ctrl-C, or an exception raised by
    ``progress``, sets the cancel flag the kernels poll, so the workers stop
    within milliseconds and the exception propagates.

    Example:
        >>> [bin(int(w)) for w in reduced_system(3, 3)[:, 0]]
        ['0b1110', '0b111', '0b1011']
    """
    dense_limits(nrows, ncols)
    chase = kernels.chase
    system = np.zeros((ncols, words_for_bits(ncols + 1)), dtype=np.uint64)
    nblocks = chase.ab_block_count(ncols)

    def run(lo: int, hi: int, cancel: npt.NDArray[np.uint8]) -> bool:  # interface 3: kernels poll cancel[0]
        return bool(chase.ab_reduce(board_words, nrows, ncols, system, lo, hi, cancel=cancel))

    run_chunks(lambda block, token: run(block, block + 1, token.flag), nblocks, threads=threads, progress=progress,
               stage="ab_iteration")
    return system


def solve_grid_dense(nrows: int, ncols: int, board_words: Optional[np.ndarray] = None, *,
                     kernel: bool = False, threads: Optional[int] = None,
                     progress: Progress = None) -> Coset:
    """Solve an R x C board by the A/B iteration and Gauss-Jordan elimination.

    Same arguments and result type as :func:`lightsout._routes.poly.solve_grid_poly`;
    the particular solution here has the free variables of the eliminated
    system set to 0, so for nullity > 0 it may be a different solution from the
    polynomial route's (callers canonicalise).  Refuses (BoardTooLargeError)
    what :func:`lightsout._base.validate.dense_limits` refuses, before any work.

    Example:
        >>> solve_grid_dense(3, 3).first_row.astype(int).tolist()
        [1, 0, 1]
    """
    dense_limits(nrows, ncols, board_words is not None)
    transposed = ncols > nrows
    rows, cols = (ncols, nrows) if transposed else (nrows, ncols)
    work = board_words
    if transposed and board_words is not None:
        work = transpose_packed(board_words, nrows, ncols)
    system = solve_gf2(reduced_system(rows, cols, work, threads=threads, progress=progress), cols)
    first_row = None
    if system.solvable:
        assert system.solution is not None
        f_bits = system.solution.view(np.bool_)
        first_row = first_column_of_chase(work, rows, cols, f_bits) if transposed else f_bits
    kernel_rows = None
    if kernel or not system.solvable:  # an unsolvable board's proof needs the kernel
        kernel_rows = system.kernel.view(np.bool_)
    return Coset(system.solvable, system.nullity, system.count, "dense", grid=(nrows, ncols), first_row=first_row,
                 transposed=transposed, kernel_first_rows=kernel_rows)
