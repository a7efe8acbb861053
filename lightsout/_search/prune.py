"""Branch and bound for the fewest-presses search: prove a minimum without weighing every solution.

The plain search (lightsout/_search/minweight.py) weighs all 2^d elements of the coset, one task of
2^(lanes + m) coordinates per kernel call.  Here the tasks are the leaves of a binary tree
over the task coordinates c_1, c_2, ... (most significant first); a node fixes a prefix of
them and covers the tasks below it.  A node whose lower bound on the signed sum S is above
the best sum found (or equal to it, when the best is an earlier coordinate) is skipped
whole; a leaf is weighed by the kernel as in the plain search.

The bound of a node.  With the prefix fixed, each form ``a = (top | free)`` contributes
``g[a] (-1)^(top . prefix) (-1)^(free . c_free)``; grouping the forms by their free part
gives the signed values ``v[f]`` of the node, and ``S = sum_f v[f] (-1)^(f . c_free)``.
Join two free coordinates when a free part holds both: the classes of that relation
(*components*) split the free coordinates so that every free part lies inside one
component, and S is a sum of independent terms, one per component, plus ``v[0]``.  A
component of at most ``EXACT_BITS`` coordinates is minimised exactly by a Walsh-Hadamard
transform of its ``2^size`` values; a larger one is bounded below by ``-sum |v[f]|`` over
its free parts (each group of cells flips as one; ``bench/fewest_bound.py`` measured this
part).  So the bound is exact where the quiet space splits into small independent parts
(a graph of several components, boards whose quiet patterns stay local) and weak where
every quiet pattern spans the board (the all-lit squares: there it prunes nothing above
about ten free coordinates, and :func:`pruned_search` stops computing the bounds of a
depth that does not pay, so the search costs about what the plain one does).  The
components depend only on the depth, so they are found once per depth.

Ties.  A node is skipped when its bound exceeds the best sum, or equals it and the best
coordinate lies before the node: every element of the node then loses to the best by
(sum, coordinate).  So the answer is the same smallest (sum, coordinate) pair as the
plain search's, whatever the order in which nodes are visited; the child with the
smaller bound is visited first, which finds good sums early.

Threads take the subtrees of a fixed depth in increasing order and share the best sum.
Every node checks the time limit (and Ctrl-C reaches the calling thread between two
nodes).

The lower bound at any time (docs/algebra.md section 13).  Every element lies in a node
that is finished (weighed or skipped: no element there beats the best sum), or open.  So
the minimum of S is at least the smaller of the best sum and the smallest bound among the
open nodes.  While the search runs the open nodes counted are the subtrees the threads have
not finished (their root's bound); when it stops early, the nodes left on each thread's
path (the unvisited children, and the node whose tasks were being weighed) give the
sharper bound the result carries.  A node whose bound was not computed counts with the
bound of the whole coset (:func:`prefix_bounds` at depth 0), which always holds.
"""
from __future__ import annotations

import math
import threading
import time
from collections.abc import Sequence
from typing import Callable, NamedTuple, Optional

import numpy as np

from lightsout._base.types import Progress
from lightsout._core.runner import CancelToken, Pace, run_chunks
from lightsout import _kernels as kernels
from lightsout._search.frontier import Frontier, bounded_progress, weight_bound

__all__ = ["EXACT_BITS", "PruneStats", "components", "prefix_bounds", "pruned_search"]

#: A component of the free coordinates of at most this many is minimised exactly (a
#: transform of 2^EXACT_BITS values per node); a larger one is bounded group by group.
EXACT_BITS = 16

_PROGRESS_STAGE = "fewest presses"


class PruneStats(NamedTuple):
    """What the pruned search did: tasks weighed by the kernel, tasks skipped by a bound,
    nodes bounded, and the proven lower bound on S it reached (the best sum when complete)."""

    weighed: int
    skipped: int
    nodes: int
    lower: Optional[int] = None


def components(forms: np.ndarray, nullity: int, free_bits: int, neighbours: Optional[Sequence[int]] = None) -> list[int]:
    """The components (bit masks) of the low ``free_bits`` coordinates that the forms join.

    Two coordinates are joined when one form's free part holds both; every nonzero free
    part lies inside exactly one component.  Coordinates no form holds are left out.

    Example:
        >>> forms = np.array([0b0011, 0b0010, 0b1100], dtype=np.uint64)
        >>> [bin(mask) for mask in components(forms, 4, 4)]
        ['0b11', '0b1100']
        >>> [bin(mask) for mask in components(forms, 4, 3)]   # coordinate 3 is fixed
        ['0b11', '0b100']
    """
    mask = (1 << free_bits) - 1
    if neighbours is None:
        neighbours = _neighbours(forms, nullity)
    left = mask & _support(forms)
    found = []
    while left:
        low = left & -left
        component, frontier = low, low
        while frontier:
            bit = frontier & -frontier
            frontier ^= bit
            grown = neighbours[bit.bit_length() - 1] & mask & ~component
            component |= grown
            frontier |= grown
        found.append(component)
        left &= ~component
    return found


def _support(forms: np.ndarray) -> int:
    return int(np.bitwise_or.reduce(forms)) if forms.size else 0


def _neighbours(forms: np.ndarray, nullity: int) -> list[int]:
    """For each coordinate i, the OR of the forms that hold it (restricting to the free
    coordinates later commutes with the OR)."""
    return [_support(forms[(forms >> np.uint64(i)) & np.uint64(1) == 1]) for i in range(nullity)]


class _Exact(NamedTuple):
    """One small component at a depth: which groups lie in it and their index in it."""

    groups: np.ndarray     # group numbers (free parts) inside the component
    local: np.ndarray      # their free parts with the component's bits packed together
    size: int              # bits of the component


class _Depth(NamedTuple):
    """The grouping of the forms by their free part when ``depth`` task coordinates are fixed."""

    inverse: np.ndarray    # (E,) the group of each form
    zero: int              # the group whose free part is 0, or -1
    exact: list[_Exact]    # the small components
    loose: np.ndarray      # groups in large components (bounded one by one)
    flip: np.ndarray       # (E,) +1/-1: the sign change of each form when the next coordinate is 1


def _prepare_depth(forms: np.ndarray, nullity: int, depth: int, neighbours: Sequence[int]) -> _Depth:
    free_bits = nullity - depth
    free = forms & np.uint64((1 << free_bits) - 1) if free_bits < 64 else forms
    parts, inverse = np.unique(free, return_inverse=True)
    inverse = inverse.ravel()
    zero = int(np.flatnonzero(parts == 0)[0]) if parts.size and parts[0] == 0 else -1
    exact, loose = [], []
    for mask in components(forms, nullity, free_bits, neighbours):
        inside = np.flatnonzero(parts & np.uint64(mask))
        size = bin(mask).count("1")
        if size > EXACT_BITS:
            loose.append(inside)
            continue
        local = np.zeros(inside.size, dtype=np.int64)
        members = parts[inside]
        position, rest = 0, mask
        while rest:
            bit = rest & -rest
            rest ^= bit
            local |= ((members >> np.uint64(bit.bit_length() - 1)) & np.uint64(1)).astype(np.int64) << position
            position += 1
        exact.append(_Exact(inside, local, size))
    flip = np.ones(forms.size, dtype=np.int64)
    if free_bits > 0:
        flip = 1 - 2 * ((forms >> np.uint64(free_bits - 1)) & np.uint64(1)).astype(np.int64)
    return _Depth(inverse, zero, exact, np.concatenate(loose) if loose else np.zeros(0, np.intp), flip)


def _walsh_min(histogram: np.ndarray) -> float:
    """min over c of sum_x histogram[x] (-1)^(x . c), by an in-place fast transform."""
    values = histogram.copy()
    half = 1
    while half < values.size:
        blocks = values.reshape(-1, 2, half)
        low, high = blocks[:, 0, :].copy(), blocks[:, 1, :]
        blocks[:, 0, :] += high
        blocks[:, 1, :] = low - high
        half *= 2
    return float(values.min())


def _bound(level: _Depth, signed: np.ndarray, groups: int) -> int:
    """A lower bound on S over the node whose forms carry the signed values ``signed``."""
    v = np.bincount(level.inverse, weights=signed, minlength=groups)
    total = float(v[level.zero]) if level.zero >= 0 else 0.0
    for part in level.exact:
        total += _walsh_min(np.bincount(part.local, weights=v[part.groups], minlength=1 << part.size))
    total -= float(np.abs(v[level.loose]).sum())
    return int(round(total))


def prefix_bounds(forms: np.ndarray, values: np.ndarray, nullity: int, depth: int,
                  expired: Optional[Callable[[], bool]] = None) -> np.ndarray:
    """A lower bound on S over each node of ``depth``: entry p for the coordinates whose top
    ``depth`` bits (c_1 first) read p (the module docstring's bound, docs/algebra.md section 13).

    At depth 0 it is one bound on the whole coset.  ``expired()`` is checked between nodes;
    once it is True the nodes left get the whole coset's bound (a weaker one, always valid).

    Example:
        >>> forms = np.array([1, 2, 3], dtype=np.uint64)        # S = v1 s1 + v2 s2 + v3 s1 s2
        >>> values = np.array([1, 1, -1], dtype=np.int32)
        >>> prefix_bounds(forms, values, 2, 0).tolist()          # the smallest of 1, 1, 1, -3
        [-3]
        >>> prefix_bounds(forms, values, 2, 1).tolist()          # c_1 = 0: S = 1; c_1 = 1: S = -3 or 1
        [1, -3]
    """
    neighbours = _neighbours(forms, nullity)
    whole_level = _prepare_depth(forms, nullity, 0, neighbours)
    base = values.astype(np.int64)
    whole = _bound(whole_level, base, _groups(whole_level))
    if depth == 0:
        return np.array([whole], dtype=np.int64)
    flips = [whole_level.flip] + [_prepare_depth(forms, nullity, above, neighbours).flip for above in range(1, depth)]
    level = _prepare_depth(forms, nullity, depth, neighbours)
    groups = _groups(level)
    bounds = np.full(1 << depth, whole, dtype=np.int64)
    for prefix in range(1 << depth):
        if expired is not None and expired():
            break
        signed = base.copy()
        for above in range(depth):           # c_(above+1) is bit depth-1-above of the prefix
            if prefix >> (depth - 1 - above) & 1:
                signed *= flips[above]
        bounds[prefix] = max(whole, _bound(level, signed, groups))
    return bounds


def _groups(level: _Depth) -> int:
    return int(level.inverse.max()) + 1 if level.inverse.size else 0


class _Shared:
    """The best (sum, coordinate) so far, the counts and the worth of each depth's bound,
    shared by the threads."""

    def __init__(self, bound: int, task_bits: int) -> None:
        self.sum = bound
        self.index = 0          # c = 0 has sum ``bound``
        self.weighed = self.skipped = self.nodes = 0
        self.tries = [0] * (task_bits + 1)
        self.saved = [0] * (task_bits + 1)
        self.task_bits = task_bits
        self.lock = threading.Lock()

    def offer(self, total: int, index: int) -> None:
        with self.lock:
            if (total, index) < (self.sum, self.index):
                self.sum, self.index = total, index

    def beaten(self, depth: int, bound: Optional[int], first: int) -> bool:
        """True when no coordinate from ``first`` on with sum >= ``bound`` can win (the
        node at ``depth`` is then counted as skipped)."""
        if bound is None:
            return False
        with self.lock:
            self.tries[depth] += 1
            if bound > self.sum or (bound == self.sum and self.index < first):
                self.saved[depth] += 1 << (self.task_bits - depth)
                self.skipped += 1 << (self.task_bits - depth)
                return True
            return False

    def worth(self, depth: int) -> bool:
        """Whether bounding the nodes of ``depth`` has paid so far: after a few tries, the
        tasks it skipped must outnumber the nodes it bounded (a bound costs about as much
        as weighing one task).  A weaker bound is always valid, so this only moves time."""
        with self.lock:
            return self.tries[depth] < _WARM_UP or self.saved[depth] >= self.tries[depth]


#: Nodes of a depth bounded before :meth:`_Shared.worth` judges that depth's bound.
_WARM_UP = 16


def pruned_search(forms: np.ndarray, values: np.ndarray, nullity: int, start_sum: int, wide: bool,
                  layout: tuple[int, int, int], token: Optional[CancelToken] = None, progress: Progress = None,
                  threads: int = 1, cells: Optional[int] = None) -> tuple[bool, int, int, PruneStats]:
    """The smallest (S, c) over the coset by branch and bound (module docstring).

    The bound of a depth that has not paid (:meth:`_Shared.worth`) is no longer computed;
    a subtree below which no depth pays is weighed task range by task range, as the plain
    search does.  So where nothing prunes (the all-lit squares) the cost is the plain
    search's plus a few hundred bounds.

    Args:
        forms, values, nullity, wide: the search problem as the kernel takes it.
        start_sum: S at c = 0 (the search starts with that element as its best).
        layout: (lane bits, array bits, task bits) of the kernel's tasks: the leaves.
        token: the :class:`lightsout._core.runner.CancelToken` whose deadline or stop
            flag ends the search (default: none).
        progress: ``progress(stage, subtrees done, subtrees)`` between subtrees.
        threads: threads in this process, each taking subtrees in increasing order
            (:func:`lightsout._core.runner.run_chunks`).
        cells: N; given, a ``progress`` that takes a ``bounds`` keyword gets the bounds in
            presses (:func:`lightsout._search.frontier.bounded_progress`).

    Returns:
        ``(complete, sum, index, stats)``: whether every task was weighed or skipped by a
        bound (the minimum is then proven), and the best (S, c) found; ``stats.lower``
        is the proven lower bound on S (module docstring), the best sum when complete.

    Example:
        >>> forms = np.array([1, 2, 4, 8, 16, 32, 64, 128], dtype=np.uint64)   # 8 independent cells
        >>> values = np.array([1, -1, 1, 1, -1, 1, 1, -1], dtype=np.int32)
        >>> complete, total, index, stats = pruned_search(forms, values, 8, int(values.sum()), False,
        ...                                               (0, 2, 6))
        >>> complete, total, bin(index)           # c flips the five pressed cells: no press left
        (True, -8, '0b1101101')
        >>> stats.weighed, stats.skipped, stats.lower     # one task of the 64 weighed
        (1, 63, -8)
    """
    lanes, array_bits, task_bits = layout
    module = kernels.walsh
    neighbours = _neighbours(forms, nullity)
    levels = [_prepare_depth(forms, nullity, depth, neighbours) for depth in range(task_bits + 1)]
    groups = [_groups(level) for level in levels]
    shared = _Shared(start_sum, task_bits)
    base = values.astype(np.int64)
    whole = _bound(levels[0], base, groups[0])    # holds for every node whose bound is not computed
    split = min(task_bits, max(0, (threads - 1).bit_length() + 3)) if threads > 1 else 0
    roots = 1 << split
    token = CancelToken() if token is None else token
    stopped = token.expired
    paces = threading.local()
    frontier = Frontier(np.full(roots, whole, dtype=np.int64), task_bits)
    left_open: list[int] = []       # bounds of the nodes a stopped thread left on its path

    def leave(node_bound: Optional[int]) -> bool:
        with shared.lock:
            left_open.append(whole if node_bound is None else max(whole, node_bound))
        return False

    def weigh(start: int, stop: int, pace: Pace) -> bool:
        """Tasks [start, stop) by the kernel, in calls of about CALL_SECONDS."""
        while start < stop:
            if stopped():
                return False
            end = min(stop, start + pace.size)
            began = time.perf_counter()
            found, total, index = module.search_tasks(forms, values, nullity, array_bits, lanes, start, end,
                                                      shared.sum, wide)
            pace.update(time.perf_counter() - began)
            if found:
                shared.offer(total, index)
            with shared.lock:
                shared.weighed += end - start
            start = end
        return True

    def bound(depth: int, signed: np.ndarray) -> Optional[int]:
        if not shared.worth(depth):
            return None
        with shared.lock:
            shared.nodes += 1
        return _bound(levels[depth], signed, groups[depth])

    def descend(depth: int, prefix: int, signed: np.ndarray, node_bound: Optional[int], pace: Pace) -> bool:
        """Visit the node; False when the search must stop."""
        if stopped():
            return leave(node_bound)
        if shared.beaten(depth, node_bound, prefix << (nullity - depth)):
            return True
        if depth == task_bits or not any(shared.worth(deeper) for deeper in range(depth + 1, task_bits + 1)):
            span = task_bits - depth
            return weigh(prefix << span, (prefix + 1) << span, pace) or leave(node_bound)
        one = signed * levels[depth].flip
        children = [(bound(depth + 1, signed), 0, signed), (bound(depth + 1, one), 1, one)]
        children.sort(key=lambda child: (-math.inf if child[0] is None else child[0], child[1]))
        for position, (child_bound, bit, child) in enumerate(children):
            if not descend(depth + 1, prefix << 1 | bit, child, child_bound, pace):
                for later_bound, _, _ in children[position + 1:]:
                    leave(later_bound)
                return False
        return True

    def root(prefix: int, pace: Pace) -> bool:
        signed = base.copy()
        for depth in range(split):
            if prefix >> (split - 1 - depth) & 1:
                signed *= levels[depth].flip
        root_bound = bound(split, signed)
        if root_bound is not None:
            with frontier.lock:
                frontier.bounds[prefix] = max(whole, root_bound)
        finished = descend(split, prefix, signed, root_bound, pace)
        span = task_bits - split
        if finished:
            frontier.finish(prefix << span, (prefix + 1) << span)
        else:
            with shared.lock:
                started.add(prefix)
        return finished

    def chunk(prefix: int, _token: CancelToken) -> bool:
        pace = getattr(paces, "pace", None)
        if pace is None:
            pace = paces.pace = Pace()
        return root(prefix, pace)

    started: set[int] = set()        # roots a thread stopped in (their open nodes are in left_open)

    def sum_bounds() -> tuple[int, int]:
        return (weight_bound(cells or 0, frontier.lower(shared.sum)), ((cells or 0) + shared.sum) // 2)

    report = progress if cells is None else bounded_progress(progress, sum_bounds)
    run_chunks(chunk, roots, threads=threads, token=token, progress=report, stage=_PROGRESS_STAGE)
    done = shared.weighed + shared.skipped
    complete = done == 1 << task_bits
    lower = shared.sum
    if not complete:   # the roots never started, and the nodes the stopped threads left open
        untouched = [int(frontier.bounds[r]) for r in range(roots) if frontier.left[r] > 0 and r not in started]
        lower = min([shared.sum] + untouched + left_open)
    stats = PruneStats(shared.weighed, shared.skipped, shared.nodes, lower)
    return complete, shared.sum, shared.index, stats
