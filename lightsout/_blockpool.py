"""Column blocks over worker threads that one Ctrl-C stops: the dense and N-D routes' thread pool.

The kernels take a block range and a one-byte cancel flag that they poll every few
milliseconds (with the GIL released).  :func:`run_blocks` hands the blocks to threads in
turn; Ctrl-C in the calling thread, an exception from ``progress`` or from any worker
sets the flag before anything waits for the workers, so they all stop within
milliseconds and the exception propagates.

Example:
    >>> seen = []
    >>> run_blocks(lambda lo, hi, cancel: seen.append(lo) is None, 5, 2, None, "demo")
    >>> sorted(seen)
    [0, 1, 2, 3, 4]
"""
from __future__ import annotations

import os
import threading
from concurrent.futures import ThreadPoolExecutor
from concurrent.futures import TimeoutError as FutureTimeoutError  # not the builtin before 3.11
from typing import Callable, Optional

import numpy as np
import numpy.typing as npt

from lightsout._types import Progress

__all__ = ["default_threads", "run_blocks"]


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


def run_blocks(run: Callable[[int, int, npt.NDArray[np.uint8]], bool], nblocks: int,
                threads: Optional[int], progress: Progress, stage: str) -> None:
    """Call ``run(block_start, block_stop, cancel)`` on every column block, over threads.

    Ctrl-C, or an exception from ``progress`` or a worker, sets the cancel flag
    the kernels poll, so every worker stops within milliseconds.
    """
    cancel = np.zeros(1, dtype=np.uint8)
    nthreads = max(1, min(threads or default_threads(), nblocks))
    next_block = iter(range(nblocks))
    lock = threading.Lock()
    done = [0]

    def worker() -> None:
        try:
            while not cancel[0]:
                with lock:
                    block = next(next_block, None)
                if block is None or not run(block, block + 1, cancel):
                    return
                with lock:
                    done[0] += 1
                if nthreads == 1 and progress is not None:
                    progress(stage, done[0], nblocks)
        except BaseException:
            cancel[0] = 1
            raise

    try:
        if nthreads == 1:
            worker()
            return
        with ThreadPoolExecutor(nthreads) as pool:
            futures = [pool.submit(worker) for _ in range(nthreads)]
            try:
                for future in futures:
                    while True:
                        try:
                            future.result(timeout=0.25)
                            break
                        except FutureTimeoutError:
                            if progress is not None:
                                progress(stage, done[0], nblocks)
            except BaseException:
                cancel[0] = 1  # before leaving the with block, whose exit waits for the workers
                raise
        if progress is not None:
            progress(stage, nblocks, nblocks)
    except BaseException:
        cancel[0] = 1
        raise
