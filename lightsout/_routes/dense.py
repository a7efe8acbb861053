"""The dense route: reduce an R x C board to its C x (C+1) system by the A/B
iteration, then solve that system by Gauss-Jordan elimination.

Cost O(R C^2 / 64 + C^3 / 64) word operations and one C x (C+1) bit matrix
(12.5 MB at C = 10,000).  It does not rely on the polynomial structure of the
problem, so it is the independent cross-check of the polynomial route, and the
route that generalises to other neighbour structures.  So it shares nothing with
the polynomial route but the orientation helpers and the neutral result type,
:class:`~lightsout._core.coset.Coset`.

Budget: :func:`refuse_dense` refuses, before any work, a run that would take more than
``MAX_DENSE_WORD_OPS`` word operations (2**44, about ten minutes) or more memory than
``MAX_DENSE_BYTES`` and ``MAX_DENSE_SIDE_BYTES`` allow; the registry's route calls it once,
where a call comes in (``Route.refuse``), and the functions below trust it.  Ctrl-C (or any
exception in the calling thread) raises the shared cancel flag, which every worker's kernel
polls every few milliseconds.
"""
from __future__ import annotations

from typing import Optional

import numpy as np
import numpy.typing as npt

from lightsout._base.errors import BoardTooLargeError
from lightsout._base.packing import words_for_bits
from lightsout._base.types import Progress
from lightsout._core.coset import Coset
from lightsout._core.gf2system import solve_gf2
from lightsout._core.orientation import first_column_of_chase, transpose_packed
from lightsout._core.runner import run_chunks
from lightsout import _kernels as kernels

__all__ = ["MAX_DENSE_BYTES", "MAX_DENSE_SIDE_BYTES", "MAX_DENSE_WORD_OPS", "refuse_dense", "reduced_system",
           "solve_grid_dense"]


#: Largest dense C x (C+1) system (and its elimination scratch) a dense-route call may allocate.
MAX_DENSE_BYTES = 8 << 30
#: Most bytes the dense route may hold for its long side (the chase's first column, the answer).
MAX_DENSE_SIDE_BYTES = 2 << 30
#: Most word operations a dense-route call may take: 2**44 (1.8e13), about ten
#: minutes at the rate measured for an all-lit 64,000 x 64,000 board (3.1e10 word
#: operations a second, 263 s, AVX2, two threads); a portable build is slower.
#: 100,000 x 100,000 (3.1e13, half an hour or more) is refused.
MAX_DENSE_WORD_OPS = 1 << 44


def refuse_dense(nrows: int, ncols: int, board_given: bool = False) -> None:
    """Refuse a dense-route run that would take too long or allocate too much, before any work.

    The working orientation has C = min(nrows, ncols) columns and R = max rows.
    Work: R * C * words(C + 1) word operations for the A/B iteration plus
    C * C * words(C + 1) for the elimination (at least one word per row step,
    however narrow the board).  Memory: the C x (C+1) system twice (matrix and
    scratch), a transposed copy of a given board, and O(R) bytes for the long
    side (the first column of the chase and the answer), held to
    ``MAX_DENSE_SIDE_BYTES``: longer sides are the default route's job.

    Example:
        >>> refuse_dense(10_000, 10_000)
        >>> refuse_dense(10**15, 1)
        Traceback (most recent call last):
        ...
        lightsout.BoardTooLargeError: the dense route for a 1000000000000000 x 1 board ...
    """
    rows, cols = max(nrows, ncols), min(nrows, ncols)
    size = f"the dense route for a {nrows} x {ncols} board"
    hint = "; method='poly' (the default) needs O((R + C) C / 64) word operations and O(C) memory"
    long_side = 4 * rows  # column of the chase (uint8, then bool), the answer, its canonical copy
    if long_side > MAX_DENSE_SIDE_BYTES:
        raise BoardTooLargeError(
            f"{size} needs about {long_side / 2**30:.3g} GiB for its {rows}-cell side (limit "
            f"{MAX_DENSE_SIDE_BYTES / 2**30:.0f} GiB, lightsout.limits.MAX_DENSE_SIDE_BYTES){hint}")
    system_words = cols * words_for_bits(cols + 1)
    work = rows * system_words + cols * system_words
    if work > MAX_DENSE_WORD_OPS:
        raise BoardTooLargeError(
            f"{size} needs about {work:.3g} word operations (limit 2**44 = {MAX_DENSE_WORD_OPS:.3g}, "
            f"about ten minutes, lightsout.limits.MAX_DENSE_WORD_OPS){hint}")
    need = 2 * 8 * system_words + long_side
    if board_given and ncols > nrows:
        need += 8 * rows * words_for_bits(cols)  # the transposed board
    if need > MAX_DENSE_BYTES:
        raise BoardTooLargeError(
            f"{size} needs about {need / 2**30:.3g} GiB (limit {MAX_DENSE_BYTES / 2**30:.0f} GiB, "
            f"lightsout.limits.MAX_DENSE_BYTES){hint}")


def reduced_system(nrows: int, ncols: int, board_words: Optional[np.ndarray] = None, *,
                   threads: Optional[int] = None, progress: Progress = None) -> np.ndarray:
    """The packed augmented system [U_{R+1}(T) | c] of an R x C board, by the A/B iteration.

    The column blocks are independent, so ``threads`` workers take them in turn
    (the kernel releases the GIL).  Ctrl-C, or an exception raised by
    ``progress``, sets the cancel flag the kernels poll, so the workers stop
    within milliseconds and the exception propagates.  The caller has refused what
    :func:`refuse_dense` refuses.

    Example:
        >>> [bin(int(w)) for w in reduced_system(3, 3)[:, 0]]
        ['0b1110', '0b111', '0b1011']
    """
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
    polynomial route's (callers canonicalise).  The caller has refused what
    :func:`refuse_dense` refuses (the registry's route does, where a call comes in).

    Example:
        >>> solve_grid_dense(3, 3).first_row.astype(int).tolist()
        [1, 0, 1]
    """
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
