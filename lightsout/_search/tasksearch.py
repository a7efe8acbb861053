"""The fewest-presses search in this process: ranges of tasks weighed by the kernel, over threads.

A task is weighed by one kernel call of the Walsh-Hadamard kernel (lightsout/_search/cosetform.py
holds the problem); :func:`run_task_range` runs a range of them in calls of about
``CALL_SECONDS``, :func:`search_local` hands chunks of tasks to the one runner
(:func:`lightsout._core.runner.run_chunks`), and :class:`Best` keeps the smallest
(sum, coordinate) they report.
"""
from __future__ import annotations

import threading
import time
from collections.abc import Sequence
from typing import Callable, Optional

from lightsout._base.types import Progress
from lightsout._core.runner import CancelToken, Pace, run_chunks
from lightsout import _kernels as kernels
from lightsout._search.cosetform import SearchProblem, task_layout
from lightsout._search.frontier import Frontier
from lightsout._search.orbitcut import representatives

__all__ = ["Best", "HEARTBEAT", "MAX_TIE_TASKS", "PROGRESS_STAGE", "Report", "ordered_scan", "run_task_range", "search_local"]


PROGRESS_STAGE = "fewest presses"

#: Seconds between two progress reports while a chunk runs (the bounds change within a chunk).
HEARTBEAT = 0.5


#: Tasks that tie for the minimum that the symmetric search keeps for its tie rule; beyond
#: this many it finds the lexicographically first minimum by an ordered scan instead.
MAX_TIE_TASKS = 256


class Best:
    """The smallest (sum, index) seen, and (symmetric search) the tasks that reach it; thread-safe."""

    def __init__(self, bound: int, index: int = 0) -> None:
        self.sum = bound
        self.index = index      # the element of sum ``bound``: c = 0 (the reduced particular), or a seed
        self.ties: list[int] = []
        self.ties_overflow = False
        self.lock = threading.Lock()

    def offer(self, found: bool, total: int, index: int, ties: Sequence[int] = (), overflow: bool = False) -> None:
        """Merge a result; ``ties`` are tasks whose minimum is ``total``."""
        if not found:
            return
        with self.lock:
            if total < self.sum:
                self.ties, self.ties_overflow = [], False
            if (total, index) < (self.sum, self.index):
                self.sum, self.index = total, index
            if total == self.sum and not self.ties_overflow:
                self.ties.extend(int(task) for task in ties)
                if overflow or len(self.ties) > MAX_TIE_TASKS:
                    self.ties, self.ties_overflow = [], True


Report = Callable[[bool, int, int, int, Sequence[int]], None]


def run_task_range(problem: SearchProblem, layout: tuple[int, int, int], start: int, stop: int,
               expired: Callable[[], bool], report: Report, pace: Pace) -> bool:
    """Run tasks [start, stop) in calls of about CALL_SECONDS (lightsout._core.runner); True if all ran.

    ``report(found, sum, index, tasks, ties)`` after each call: its best, the number of
    tasks it covered, and (symmetric search, which runs only the least task of each
    orbit) the tasks it ran whose minimum is that best.
    """
    lanes, m, _ = layout
    module = kernels.walsh
    task = start
    while task < stop:
        if expired():
            return False
        end = min(stop, task + pace.size)
        began = time.perf_counter()
        ties: Sequence[int] = ()
        if problem.orbits is None:
            found, total, index = module.search_tasks(problem.forms, problem.values, problem.nullity, m, lanes,
                                                      task, end, problem.bound, problem.wide)
        else:
            chosen = representatives(problem.orbits, task, end)
            found, total, index, sums = module.search_task_list(problem.forms, problem.values, problem.nullity, m,
                                                                lanes, chosen, problem.bound, problem.wide)
            if found:
                ties = chosen[sums == total].tolist()
        pace.update(time.perf_counter() - began)
        report(found, total, index, end - task, ties)
        task = end
    return True


def search_local(problem: SearchProblem, split_bits: int, token: CancelToken, progress: Progress,
                  threads: int, frontier: Optional[Frontier] = None, best: Optional[Best] = None) -> tuple[bool, Best]:
    """All tasks in this process, in chunks over ``threads`` threads
    (:func:`lightsout._core.runner.run_chunks`): Ctrl-C, an error or the token's deadline
    stop every thread at its next kernel call.  ``frontier``: told of every finished chunk
    (lightsout/_search/frontier.py), for the lower bound at any time; ``best``: where the
    best found is kept (default: a new :class:`Best`), which the caller may read as it runs.

    Example:
        >>> import numpy as np
        >>> from lightsout._search.cosetform import reduce_coset, search_problem
        >>> problem = search_problem(reduce_coset(np.ones(4, np.uint8), np.eye(4, dtype=np.uint8)))
        >>> complete, best = search_local(problem, 0, CancelToken(), None, 1)
        >>> complete, (problem.cells + best.sum) // 2
        (True, 0)
    """
    layout = task_layout(problem, split_bits)
    total_tasks = 1 << layout[2]
    best = Best(problem.bound, problem.start) if best is None else best
    block = max(1, total_tasks // (16 * max(1, min(threads, total_tasks))))  # tasks handed out at a time
    nchunks = -(-total_tasks // block)
    paces = threading.local()
    caller = threading.get_ident()
    last_report = [time.monotonic()]   # the last report from this thread
    chunks_done = [0]

    def report(found: bool, total: int, index: int, _count: int, ties: Sequence[int]) -> None:
        best.offer(found, total, index, ties)
        # one thread runs every chunk in this thread: a report between kernel calls now and then
        if progress is not None and threading.get_ident() == caller and time.monotonic() - last_report[0] >= HEARTBEAT:
            last_report[0] = time.monotonic()
            progress(PROGRESS_STAGE, chunks_done[0], nchunks)

    def chunk(number: int, token: CancelToken) -> bool:
        pace = getattr(paces, "pace", None)
        if pace is None:
            pace = paces.pace = Pace()
        start = number * block
        stop = min(total_tasks, start + block)
        finished = run_task_range(problem, layout, start, stop, token.expired, report, pace)
        if finished and frontier is not None:
            frontier.finish(start, stop)
        if finished:
            chunks_done[0] += 1
        return finished

    complete = run_chunks(chunk, nchunks, threads=threads, token=token, progress=progress,
                          stage=PROGRESS_STAGE, heartbeat=HEARTBEAT)
    return complete, best


def ordered_scan(problem: SearchProblem, target: int, expired: Callable[[], bool]) -> Optional[int]:
    """The smallest coordinate whose sum is at most ``target``: tasks in increasing order,
    stopping at the first call that finds one (None if the time ran out first)."""
    layout = task_layout(problem, 0)
    first: list[int] = []

    def report(found: bool, _total: int, index: int, _count: int, _ties: Sequence[int]) -> None:
        if found and not first:
            first.append(index)

    run_task_range(problem._replace(bound=target), layout, 0, 1 << layout[2], lambda: bool(first) or expired(), report,
               Pace())
    return first[0] if first else None
