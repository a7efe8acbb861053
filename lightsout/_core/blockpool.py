"""Work over threads that one Ctrl-C stops: the thread pool of the routes and the searches.

:func:`run_blocks` runs the column blocks of the dense and N-D routes; :func:`run_workers`
runs the task loops of the fewest-presses searches.

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

from lightsout._base.types import Progress

__all__ = ["CALL_SECONDS", "Pace", "default_threads", "run_blocks", "run_workers"]

#: Target length of one kernel call of the task loops: long enough to hide the Python
#: overhead, short enough for Ctrl-C, time limits and progress reports between calls.
CALL_SECONDS = 0.03


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


def run_workers(work: Callable[[bool], None], helpers: int, stop: Callable[[], None]) -> None:
    """Run ``work(False)`` on ``helpers`` threads and ``work(True)`` on this one.

    Ctrl-C (or any error) in this thread calls ``stop()`` so the helpers end after their
    current kernel call; an error in a helper stops the others too and is raised here.

    Example:
        >>> seen = []
        >>> run_workers(seen.append, 2, lambda: None)
        >>> sorted(seen)
        [False, False, True]
    """
    errors: list[BaseException] = []

    def guarded() -> None:
        try:
            work(False)
        except BaseException as exc:  # noqa: BLE001 - handed to the calling thread
            errors.append(exc)
            stop()

    threads = [threading.Thread(target=guarded, daemon=True) for _ in range(helpers)]
    for thread in threads:
        thread.start()
    try:
        work(True)
    except BaseException:
        stop()
        raise
    finally:
        for thread in threads:
            thread.join()
    if errors:
        raise errors[0]


class Pace:
    """Tasks per kernel call, adapted so that a call takes about :data:`CALL_SECONDS`.

    Example:
        >>> pace = Pace()
        >>> pace.update(0.0)
        >>> pace.size
        2
    """

    def __init__(self) -> None:
        self.size = 1

    def update(self, elapsed: float) -> None:
        if elapsed < CALL_SECONDS / 2:
            self.size *= 2
        elif elapsed > 2 * CALL_SECONDS and self.size > 1:
            self.size //= 2
