"""Independent tasks on any ``concurrent.futures.Executor``, each run again if its worker is lost.

Every job that lightsout hands to an executor (a row block of a nullity table,
one size of a fewest-presses table, a chunk of a ``solve_many`` stack) is a
top-level function of small arguments whose result depends only on them, so
running it twice is harmless.  A future that fails for a reason of the
executor's own (a worker process killed, a result lost with its worker) is
submitted again; lightsout's own errors and Ctrl-C are raised at once.
"""
from __future__ import annotations

import concurrent.futures
from typing import Any, Callable, Optional, Sequence

from lightsout._base.errors import InvalidTypeError, LightsOutError
from lightsout._base.types import Progress

#: Times one task is submitted again after its future failed.
TASK_RETRIES = 3


def checked_executor(executor: object) -> Optional[concurrent.futures.Executor]:
    """Check an ``executor=`` argument: None or a ``concurrent.futures.Executor``.

    Example:
        >>> checked_executor(None) is None
        True
    """
    if executor is not None and not isinstance(executor, concurrent.futures.Executor):
        raise InvalidTypeError("executor must be None or a concurrent.futures.Executor (a ProcessPoolExecutor, "
                               f"or dask.distributed.Client(...).get_executor()), got {type(executor).__name__}")
    return executor


def run_tasks(executor: concurrent.futures.Executor, function: Callable[..., Any],
              arguments: Sequence[tuple[Any, ...]], *, stage: str = "tasks",
              progress: Progress = None) -> list[Any]:
    """``[function(*args) for args in arguments]``, computed on ``executor``, in order.

    Example:
        >>> from concurrent.futures import ThreadPoolExecutor
        >>> with ThreadPoolExecutor(2) as pool:
        ...     run_tasks(pool, pow, [(2, 3), (3, 2)])
        [8, 9]
    """
    futures = {executor.submit(function, *args): i for i, args in enumerate(arguments)}
    retries = [0] * len(arguments)
    results: list[Any] = [None] * len(arguments)
    pending = set(futures)
    done_count = 0
    try:
        while pending:
            done, pending = concurrent.futures.wait(pending, return_when=concurrent.futures.FIRST_COMPLETED)
            for future in done:
                index = futures[future]
                try:
                    results[index] = future.result()
                except (LightsOutError, KeyboardInterrupt):
                    raise
                except Exception:
                    if retries[index] >= TASK_RETRIES:
                        raise
                    retries[index] += 1
                    again = executor.submit(function, *arguments[index])
                    futures[again] = index
                    pending.add(again)
                    continue
                done_count += 1
                if progress is not None:
                    progress(stage, done_count, len(arguments))
    finally:
        for future in futures:
            future.cancel()
    return results
