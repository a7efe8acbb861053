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
import contextlib
import time
from typing import Any, Callable, Generator, Optional, Sequence

from lightsout._base.errors import InvalidTypeError, LightsOutError
from lightsout._base.types import Progress

#: Times one task is submitted again after its future failed.
TASK_RETRIES = 3
#: Seconds :func:`completed_tasks` still waits past a deadline, for tasks that end on it.
DEADLINE_GRACE = 1.0


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


def completed_tasks(executor: concurrent.futures.Executor, function: Callable[..., Any],
                    arguments: Sequence[tuple[Any, ...]], *,
                    deadline: Optional[float] = None,
                    follow: Optional[Callable[[int, Any], Optional[tuple[Any, ...]]]] = None,
                    ) -> Generator[tuple[int, Any], None, None]:
    """``(i, function(*arguments[i]))`` for every task, computed on ``executor``, as the tasks finish.

    A task whose future fails for a reason of the executor's own is submitted
    again, up to ``TASK_RETRIES`` times; lightsout's own errors and Ctrl-C are
    raised at once.  With ``deadline`` (a ``time.time()`` value) the waiting
    stops ``DEADLINE_GRACE`` seconds after it, and the tasks not finished by
    then are missing.  ``follow(i, result)`` may return the arguments of a task that
    continues task i (a short job that stopped part way): it is submitted under the
    same i before ``(i, result)`` is yielded.  Closing the iterator (or leaving it by
    an exception) cancels the tasks left.

    Example:
        >>> from concurrent.futures import ThreadPoolExecutor
        >>> with ThreadPoolExecutor(2) as pool:
        ...     sorted(completed_tasks(pool, pow, [(2, 3), (3, 2)]))
        [(0, 8), (1, 9)]
    """
    futures = {executor.submit(function, *args): i for i, args in enumerate(arguments)}
    retries = [0] * len(arguments)
    latest = list(arguments)    # a retry resubmits a task's latest arguments
    pending = set(futures)
    try:
        while pending:
            timeout = None if deadline is None else max(0.0, deadline - time.time()) + DEADLINE_GRACE
            done, pending = concurrent.futures.wait(pending, timeout=timeout,
                                                    return_when=concurrent.futures.FIRST_COMPLETED)
            if not done:  # past the deadline and its grace: stop waiting
                return
            for future in done:
                index = futures[future]
                try:
                    result = future.result()
                except (LightsOutError, KeyboardInterrupt):
                    raise
                except Exception:
                    if retries[index] >= TASK_RETRIES:
                        raise
                    retries[index] += 1
                    again = executor.submit(function, *latest[index])
                    futures[again] = index
                    pending.add(again)
                    continue
                more = None if follow is None else follow(index, result)
                if more is not None:
                    again = executor.submit(function, *more)
                    futures[again] = index
                    pending.add(again)
                    retries[index] = 0
                    latest[index] = more
                yield index, result
    finally:
        for future in futures:
            future.cancel()


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
    results: list[Any] = [None] * len(arguments)
    finished = 0
    with contextlib.closing(completed_tasks(executor, function, arguments)) as tasks:
        for index, result in tasks:
            results[index] = result
            finished += 1
            if progress is not None:
                progress(stage, finished, len(arguments))
    return results
