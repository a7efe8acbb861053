"""The dense route: reduce an R x C board to its C x (C+1) system by the A/B
iteration, then solve that system by Gauss-Jordan elimination.

Cost O(R C^2 / 64 + C^3 / 64) word operations and one C x (C+1) bit matrix
(12.5 MB at C = 10,000).  It does not rely on the polynomial structure of the
problem, so it is the independent cross-check of the polynomial route, and the
route that generalises to other neighbour structures.  Results come back as the
same :class:`~lightsout._polyroute.PolySolution` the polynomial route returns.
"""
from __future__ import annotations

import os
import threading
from concurrent.futures import ThreadPoolExecutor
from typing import Optional

import numpy as np

from lightsout._dispatch import kernel_module
from lightsout._packing import unpack_rows, words_for_bits
from lightsout._polyroute import PolySolution, Progress, first_column_of_chase, transpose_packed
from lightsout._validate import dense_memory

__all__ = ["reduced_system", "solve_grid_dense"]


def default_threads() -> int:
    """Worker threads for the block-parallel kernels: the CPUs this process may use.

    Example:
        >>> default_threads() >= 1
        True
    """
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not on Linux
        return max(1, os.cpu_count() or 1)


def reduced_system(nrows: int, ncols: int, board_words: Optional[np.ndarray] = None, *,
                   threads: Optional[int] = None, progress: Progress = None) -> np.ndarray:
    """The packed augmented system [U_{R+1}(T) | c] of an R x C board, by the A/B iteration.

    The column blocks are independent, so ``threads`` workers take them in turn
    (the kernel releases the GIL).  Ctrl-C stops the work after the blocks in
    flight.

    Example:
        >>> [bin(int(w)) for w in reduced_system(3, 3)[:, 0]]
        ['0b1110', '0b111', '0b1011']
    """
    dense_memory(ncols)
    kernels = kernel_module("_kernels")
    system = np.zeros((ncols, words_for_bits(ncols + 1)), dtype=np.uint64)
    nblocks = kernels.ab_block_count(ncols)
    nthreads = max(1, min(threads or default_threads(), nblocks))
    next_block = iter(range(nblocks))
    lock, stop = threading.Lock(), threading.Event()
    done = [0]

    def worker() -> None:
        while not stop.is_set():
            with lock:
                block = next(next_block, None)
            if block is None:
                return
            kernels.ab_reduce(board_words, nrows, ncols, system, block, block + 1)
            with lock:
                done[0] += 1

    if nthreads == 1:
        worker()
    else:
        with ThreadPoolExecutor(nthreads) as pool:
            futures = [pool.submit(worker) for _ in range(nthreads)]
            try:
                for future in futures:
                    while True:
                        try:
                            future.result(timeout=0.25)
                            break
                        except TimeoutError:
                            if progress is not None:
                                progress("ab_iteration", done[0], nblocks)
            except BaseException:
                stop.set()
                raise
    if progress is not None:
        progress("ab_iteration", nblocks, nblocks)
    return system


def solve_grid_dense(nrows: int, ncols: int, board_words: Optional[np.ndarray] = None, *,
                     kernel: bool = False, threads: Optional[int] = None,
                     progress: Progress = None) -> PolySolution:
    """Solve an R x C board by the A/B iteration and Gauss-Jordan elimination.

    Same arguments and result as :func:`lightsout._polyroute.solve_grid_poly`
    (which checks them); the particular solution here has the free variables of
    the eliminated system set to 0, so for nullity > 0 it may be a different
    solution from the polynomial route's (callers canonicalise).

    Example:
        >>> solve_grid_dense(3, 3).first_row.astype(int).tolist()
        [1, 0, 1]
    """
    transposed = ncols > nrows
    rows, cols = (ncols, nrows) if transposed else (nrows, ncols)
    work = board_words
    if transposed and board_words is not None:
        work = transpose_packed(board_words, nrows, ncols)
    system = reduced_system(rows, cols, work, threads=threads, progress=progress)
    elim = kernel_module("_gf2elim")
    rank, pivots = elim.rref_inplace(system, cols + 1, cols)
    nullity = cols - rank
    # Rows past the rank are zero in the C variable columns; any 1 left in the
    # constant column there is an equation 0 = 1.
    const_word, const_bit = cols >> 6, np.uint64(1) << np.uint64(cols & 63)
    solvable = not (system[rank:, const_word] & const_bit).any()
    first_row = None
    if solvable:
        f_bits = np.zeros(cols, dtype=bool)
        f_bits[pivots[:rank]] = (system[:rank, const_word] & const_bit) != 0
        if transposed:
            first_row = first_column_of_chase(work, rows, cols, f_bits)
        else:
            first_row = f_bits
    kernel_rows = None
    if kernel:
        system[:, const_word] &= ~const_bit  # the kernel is that of U_{R+1}(T) alone
        basis = elim.null_space(system, cols, pivots[:rank])
        kernel_rows = unpack_rows(basis, cols) if nullity else np.zeros((0, cols), dtype=bool)
    return PolySolution(nrows, ncols, bool(solvable), nullity, first_row, transposed, kernel_rows)
