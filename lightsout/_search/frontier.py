"""The fewest-presses search's proven lower bound at any time, and the progress that shows it.

A search over the coset's tasks (lightsout/_search/tasksearch.py in this process,
lightsout/_search/jobs.py on an executor) finishes ranges of tasks.  Every element lies in a
finished task, where none beats the best sum found, or in an unfinished one, where the
bound of its node (:func:`lightsout._search.prune.prefix_bounds`) holds.  So the minimum of
S is at least ``min(best sum, the smallest bound of a node with an unfinished task)``
(docs/algebra.md section 8); :class:`Frontier` keeps that minimum as tasks finish.  With the
symmetric cut only the least task of each orbit is weighed, and the same holds with the
minimum taken over those tasks: the others repeat their weights.

A search's progress callback that takes a ``bounds`` keyword (:func:`bounded_progress`)
gets ``bounds=(lower, upper)`` in presses beside ``(stage, done, total)``; one that does
not is called as before.
"""
from __future__ import annotations

import inspect
import threading
import time
from typing import Callable

import numpy as np

from lightsout._base.types import Progress

__all__ = ["BOUND_DEPTH", "BOUND_SECONDS", "Frontier", "accepts_bounds", "bounded_progress", "weight_bound"]

#: The nodes whose bounds a chunked search keeps: those of the top ``BOUND_DEPTH`` task coordinates.
BOUND_DEPTH = 6

#: Seconds the node bounds may take before the search starts (the rest get the whole coset's bound).
BOUND_SECONDS = 0.2


def weight_bound(cells: int, sum_bound: int) -> int:
    """The fewest presses implied by a lower bound on S: weight = (N + S) / 2, rounded up, at least 0.

    Example:
        >>> weight_bound(25, -5), weight_bound(25, -30)
        (10, 0)
    """
    return max(0, -(-(cells + sum_bound) // 2))


class Frontier:
    """The lower bound on S of a search that finishes tasks range by range; thread-safe.

    ``bounds[p]``: a lower bound on S over the tasks whose top bits (of ``task_bits``) read
    p, for ``len(bounds)`` a power of 2 no larger than ``2**task_bits``.

    Example:
        >>> frontier = Frontier(np.array([-9, -3]), 3)       # 8 tasks, two nodes of 4
        >>> frontier.lower(-5)
        -9
        >>> frontier.finish(0, 4); frontier.lower(-5)       # the node of bound -9 is done
        -5
        >>> frontier.finish(4, 8); frontier.lower(-1)       # everything is done: the best is the minimum
        -1
    """

    def __init__(self, bounds: np.ndarray, task_bits: int) -> None:
        self.bounds = np.asarray(bounds, dtype=np.int64).copy()
        depth = self.bounds.size.bit_length() - 1
        self.shift = task_bits - depth
        self.left = np.full(self.bounds.size, 1 << self.shift, dtype=np.int64)
        self.open = int(self.bounds.min())
        self.lock = threading.Lock()

    def finish(self, start: int, stop: int) -> None:
        """Tasks [start, stop) are finished."""
        if stop <= start:
            return
        with self.lock:
            first, last = start >> self.shift, (stop - 1) >> self.shift
            for node in range(first, last + 1):
                low, high = max(start, node << self.shift), min(stop, (node + 1) << self.shift)
                self.left[node] -= high - low
            unfinished = self.bounds[self.left > 0]
            self.open = int(unfinished.min()) if unfinished.size else np.iinfo(np.int64).max

    def lower(self, best_sum: int) -> int:
        """The proven lower bound on S, given the best sum found."""
        with self.lock:
            return min(best_sum, self.open)


def deadline_in(seconds: float, expired: Callable[[], bool]) -> Callable[[], bool]:
    """``expired`` that also turns True ``seconds`` from now (a budget for a preparation step)."""
    stop = time.monotonic() + seconds
    return lambda: expired() or time.monotonic() >= stop


def accepts_bounds(progress: object) -> bool:
    """Whether a progress callable takes a ``bounds`` keyword (or any keyword).

    Example:
        >>> accepts_bounds(lambda stage, done, total: None), accepts_bounds(lambda *a, bounds=None: None)
        (False, True)
    """
    if progress is None:
        return False
    try:
        parameters = inspect.signature(progress).parameters.values()  # type: ignore[arg-type]
    except (TypeError, ValueError):
        return False
    return any(p.kind is p.VAR_KEYWORD or (p.name == "bounds" and p.kind is not p.POSITIONAL_ONLY)
               for p in parameters)


def bounded_progress(progress: Progress, bounds: Callable[[], tuple[int, int]]) -> Progress:
    """``progress`` as the search calls it: with ``bounds=bounds()`` (presses: proven lower, best found)
    when it takes that keyword, unchanged otherwise.

    Example:
        >>> seen = []
        >>> report = bounded_progress(lambda stage, done, total, bounds=None: seen.append(bounds), lambda: (3, 5))
        >>> report("fewest presses", 1, 2); seen
        [(3, 5)]
    """
    if progress is None or not accepts_bounds(progress):
        return progress
    callback = progress

    def report(stage: str, done: int, total: int) -> None:
        callback(stage, done, total, bounds=bounds())  # type: ignore[call-arg]

    return report
