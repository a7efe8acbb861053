"""The fewest presses by a second algorithm: a pruned Gray-code walk with population counts.

An exact search of the minimum-weight element of a GF(2) coset that shares no inner loop
with the Walsh-Hadamard search of lightsout/_search/minweight.py, so that each checks the
other (the shipped table, tests/test_graywalk_table.py).  Each cell is a bit of a bitset;
the coset's coordinates c_1 .. c_d (c_1 most significant, as in minweight.py) are walked in
a reflected Gray code, each step XORs the bitset with the cells of one quiet pattern, and
the weight is the popcount.  A task fixes the top d - m coordinates; its 2^m elements move
the cells in groups (the cells whose forms share their low m bits move together), so
``the cells of group 0 pressed + sum over the other groups of min(pressed, not pressed)``
bounds every weight of the task from below, and a task whose bound is above the best found
is skipped (lightsout/_kernels/graywalk.pyx).  On the all-lit squares the minimum lies far
below the average weight, and with m = 6 about 1 task in 740 is walked (n = 170, d = 36, once
the best found is the minimum); each of the others costs one pass over the bitset.

No symmetry of the board is used: the walk covers every task of the coset.  The coset is
reduced as for the Walsh search (:func:`~lightsout._search.cosetform.reduce_coset`), so the
least (weight, coordinate) pair is the lexicographically smallest minimum-weight element,
the same tie as :func:`~lightsout._search.minweight.coset_min_weight`.
"""
from __future__ import annotations

import threading
import time
from typing import Optional

import numpy as np

from lightsout import _kernels as kernels
from lightsout._base.errors import BoardTooLargeError, InvalidBoardError
from lightsout._base.types import Progress
from lightsout._base.validate import thread_count, time_limit_seconds
from lightsout._core.runner import CALL_SECONDS, CancelToken, Pace, default_threads, run_chunks
from lightsout._search.cosetform import CosetMinimum, ReducedCoset, checked_coset, coset_element, reduce_coset
from lightsout._search.minweight import MAX_UNTIMED_NULLITY

__all__ = ["LOW_BITS", "WalkLayout", "graywalk_min_weight", "walk_layout"]

#: Low coordinates walked within a task (2^m cell groups for the bound): on the all-lit squares
#: m = 6 walks about 1 task in 740 (m = 5: 1 in 34,000 but twice the tasks; m = 7: 1 in 18, each of
#: 128 elements) and keeps the bound's per-group work small.
LOW_BITS = 6


class WalkLayout:
    """The coset as the kernel walks it: the cells as bits, grouped by their low m form bits.

    Attributes:
        start: ``(nwords,)`` uint64, the pressed cells of the element at coordinate 0.
        masks: ``(d, nwords)`` uint64, row j the cells whose form holds coordinate bit j
            (c_d at bit 0).
        starting: ``(2^m + 1,)`` int64, the first word of each group (and nwords).
        units: ``(2^m,)`` int64, the cells of each group.
        low_bits: m.
    """

    __slots__ = ("start", "masks", "starting", "units", "low_bits")

    def __init__(self, start: np.ndarray, masks: np.ndarray, starting: np.ndarray, units: np.ndarray,
                 low_bits: int) -> None:
        self.start, self.masks, self.starting, self.units, self.low_bits = start, masks, starting, units, low_bits


def walk_layout(coset: ReducedCoset, low_bits: int) -> WalkLayout:
    """The kernel's layout of a reduced coset, its cells ordered by group, each group on whole words.

    Example:
        >>> coset = reduce_coset(np.array([1, 0, 1], np.uint8), np.array([[1, 1, 0]], np.uint8))
        >>> coset.reduced.tolist()                   # no press on the pivot, cell 0
        [0, 1, 1]
        >>> layout = walk_layout(coset, 1)           # group 0: cell 2 (form 0), word 0; group 1: cells 0, 1
        >>> layout.units.tolist(), layout.starting.tolist(), layout.start.tolist(), layout.masks.tolist()
        ([1, 2], [0, 1, 2], [1, 2], [[0, 3]])
    """
    d, cells = coset.rows.shape
    forms = np.zeros(cells, dtype=np.uint64)
    for i in range(d):
        forms |= coset.rows[i].astype(np.uint64) << np.uint64(d - 1 - i)
    groups = 1 << low_bits
    group = (forms & np.uint64(groups - 1)).astype(np.int64)
    order = np.argsort(group, kind="stable")
    units = np.bincount(group, minlength=groups).astype(np.int64)
    words = -(-units // 64)
    starting = np.concatenate([[0], np.cumsum(words)]).astype(np.int64)
    nwords = int(starting[-1])
    # the bit of each cell: its group's first bit plus its rank within the group
    first_in_group = np.concatenate([[0], np.cumsum(units)[:-1]])
    sorted_group = group[order]
    bit = 64 * starting[sorted_group] + np.arange(cells) - first_in_group[sorted_group]
    places = np.zeros((d + 1, 64 * nwords), dtype=np.uint8)
    places[0, bit] = coset.reduced[order]
    for j in range(d):
        places[1 + j, bit] = ((forms[order] >> np.uint64(j)) & np.uint64(1)).astype(np.uint8)
    packed = np.packbits(places, axis=1, bitorder="little").view(np.uint64)
    if nwords == 0:
        packed = np.zeros((d + 1, 0), dtype=np.uint64)
    return WalkLayout(np.ascontiguousarray(packed[0]), np.ascontiguousarray(packed[1:]), starting, units, low_bits)


def graywalk_min_weight(particular: np.ndarray, basis: np.ndarray, *, time_limit: Optional[float] = None,
                        threads: Optional[int] = None, progress: Progress = None,
                        token: Optional[CancelToken] = None, low_bits: Optional[int] = None) -> CosetMinimum:
    """The fewest-presses element of ``particular + span(basis)`` by the pruned Gray-code walk.

    The second algorithm of the fewest presses (module docstring): the same answer as
    :func:`lightsout._search.minweight.coset_min_weight` -- the minimum weight and, of the
    elements reaching it, the lexicographically smallest (cell 0 most significant) -- found
    without the Walsh-Hadamard transform.

    Args:
        particular: ``(cells,)`` 0/1 (uint8, bool or any integer dtype), one element.
        basis: ``(d, cells)`` 0/1, linearly independent rows (d may be 0).
        time_limit: seconds (>= 0): the walk stops at it and returns the best element found
            with ``proven=False``.
        threads: the most threads (default: every usable core); one walks in the calling thread.
        progress: ``progress("gray-code walk", tasks done, tasks)`` between kernel calls.
        token: a :class:`lightsout._core.runner.CancelToken` whose deadline and stop flag the
            walk honours (with ``time_limit`` too, the earlier deadline binds).
        low_bits: the coordinates walked within a task, 0..16 (default :data:`LOW_BITS`, at
            most d); the answer does not depend on it.

    Returns:
        A :class:`~lightsout._search.cosetform.CosetMinimum`; ``lower_bound`` is the weight
        when proven, None when the walk was cut short.

    Raises:
        BoardTooLargeError: nullity above 64 (``lightsout.limits.MAX_NULLITY``), or, without
            ``time_limit``, above ``lightsout.limits.MAX_UNTIMED_NULLITY``.
        InvalidBoardError: shapes that do not match, values other than 0/1, dependent basis
            rows, a bad ``low_bits`` or ``time_limit``.
        KeyboardInterrupt: Ctrl-C, within a kernel call.

    Example:
        >>> import lightsout
        >>> s = lightsout.solve(np.ones((5, 5), bool))
        >>> best = graywalk_min_weight(s.presses.ravel().astype(np.uint8),
        ...                            s.quiet_patterns().reshape(s.nullity, -1).astype(np.uint8))
        >>> best.weight, best.proven, best.presses.reshape(5, 5).tolist()[0]
        (15, True, [0, 0, 0, 1, 1])
    """
    particular, basis = checked_coset(particular, basis, "the Gray-code walk")
    limit = time_limit_seconds(time_limit)
    token = (CancelToken() if token is None else token).within(limit)
    d = basis.shape[0]
    if token.deadline is None and d > MAX_UNTIMED_NULLITY:
        raise BoardTooLargeError(f"the Gray-code walk over a nullity-{d} coset (2^{d} solutions) is limited to "
                                 f"nullity {MAX_UNTIMED_NULLITY} without time_limit "
                                 f"(lightsout.limits.MAX_UNTIMED_NULLITY): pass time_limit= (seconds)")
    m = _low_bits(low_bits, d)
    nthreads = thread_count(threads) or default_threads()
    coset = reduce_coset(particular, basis)
    layout = walk_layout(coset, m)
    complete, index = _walk(layout, d, token, progress, nthreads)
    result = coset_element(coset, particular, index, complete)
    return CosetMinimum(result.presses, result.weight, complete, result.coefficients,
                        result.weight if complete else None)


def _low_bits(low_bits: object, d: int) -> int:
    """``low_bits=`` checked: the default :data:`LOW_BITS` (at most d), or an int in 0..min(d, 16)."""
    top = min(d, kernels.graywalk.MAX_LOW_BITS)
    if low_bits is None:
        return min(LOW_BITS, top)
    if isinstance(low_bits, bool) or not isinstance(low_bits, (int, np.integer)) or not 0 <= low_bits <= top:
        raise InvalidBoardError(f"low_bits must be an int in 0..{top} (at most the nullity {d} and "
                                f"{kernels.graywalk.MAX_LOW_BITS}), got {low_bits!r}")
    return int(low_bits)


def _walk(layout: WalkLayout, d: int, token: CancelToken, progress: Progress, nthreads: int) -> tuple[bool, int]:
    """Every task walked on ``nthreads`` threads, each taking ranges of Gray ranks sized by a
    :class:`~lightsout._core.runner.Pace`; (complete, the least pair's coordinate)."""
    tasks = 1 << (d - layout.low_bits)
    lock = threading.Lock()
    start_ones = int(np.unpackbits(layout.start.view(np.uint8)).sum())
    state = {"next": 0, "done": 0, "ones": start_ones, "index": 0}

    def worker(_: int, token: CancelToken) -> bool:
        pace = Pace()
        while not token.expired():
            with lock:
                first = state["next"]
                if first >= tasks:
                    return True
                stop = state["next"] = min(tasks, first + pace.size)
                ones, index = state["ones"], state["index"]
            began = time.monotonic()
            complete, ones, index, _, _ = kernels.graywalk.walk(
                layout.start, layout.masks, layout.starting, layout.units, layout.low_bits, first, stop,
                ones, index, cancel=token.flag)
            pace.update(time.monotonic() - began)
            with lock:
                if (ones, index) < (state["ones"], state["index"]):
                    state["ones"], state["index"] = ones, index
                if not complete:
                    return False
                state["done"] += stop - first
        return False

    def report(stage: str, done: int, total: int) -> None:
        if progress is not None:
            progress("gray-code walk", state["done"], tasks)

    workers = max(1, min(nthreads, tasks))
    finished = run_chunks(worker, workers, threads=workers, token=token,
                          progress=None if progress is None else report, heartbeat=CALL_SECONDS * 10)
    return finished and state["done"] == tasks, state["index"]
