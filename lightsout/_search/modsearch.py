"""The fewest presses with k states: a Gray-code walk over the coset, never written out.

A solved board's solutions over Z/k are ``particular + span(generators)``.  The generators
are brought to their Howell form (lightsout/_core/modring.py; docs/algebra.md section 7), whose
rows h_1 .. h_r with pivots p_i write every element once as ``particular + sum c_i h_i``,
c_i in ``0 .. k/p_i - 1``.  The compiled walk (lightsout/_kernels/modwalk.pyx) visits those
coordinate vectors in a reflected mixed-radix Gray code, so each step adds or subtracts one
row mod k, and keeps the current element and its weight (the sum of its press counts) up to
date: one pass over the cells a step, a few bytes of memory beyond the rows.  Cells where
every row is 0 are the same in every solution and are left out of the walk.

The leading coordinates split the coset into chunks (a few milliseconds of work each), run
on ``threads`` threads by :func:`lightsout._core.runner.run_chunks`, which honours the time
limit between chunks; the walk polls Ctrl-C and the cancel flag inside one.  Each chunk keeps
the least (weight, element), elements compared lexicographically (cell 0 first), and so does
the merge, so the answer is the same for every thread count and every split: the fewest
presses, ties to the lexicographically smallest solution, as the written-out search
:func:`coset_min_weight_mod` (kept as the tests' reference for small cosets) finds them.
"""
from __future__ import annotations

import math
import threading
from typing import Optional

import numpy as np
import numpy.typing as npt

from lightsout import _kernels as kernels
from lightsout._base.errors import BoardTooLargeError, InvalidBoardError, InvalidTypeError
from lightsout._base.types import Progress
from lightsout._base.validate import states_count, thread_count, time_limit_seconds
from lightsout._core.modring import howell_form, rref_prime
from lightsout._core.runner import CancelToken, default_threads, run_chunks
from lightsout._search.cost import mod_search_seconds
from lightsout._search.cosetform import CosetMinimum

__all__ = ["MAX_MOD_ELEMENTS", "MAX_MOD_SEARCH_BYTES", "MAX_MOD_SOLUTIONS", "MAX_MOD_UNTIMED_SECONDS",
           "WALK_CHUNK_CELLS", "coset_min_weight_walk", "coset_min_weight_mod", "walk_fits", "is_prime"]


#: :func:`coset_min_weight_walk` walks cosets of up to this many solutions, time limit or not
#: (2**64, the two-state search's 2^MAX_NULLITY): past it a time-limited walk would see a
#: vanishing corner of the coset.
MAX_MOD_SOLUTIONS = 1 << 64

#: Without a time limit, :func:`coset_min_weight_walk` refuses a walk estimated to take longer than
#: this many seconds on its threads (an hour, as the two-state search's MAX_UNTIMED_SECONDS).
MAX_MOD_UNTIMED_SECONDS = 3600.0

# The stage the walk reports to ``progress``: the two-state search's (lightsout/_search/tasksearch.py).
PROGRESS_STAGE = "fewest presses"

#: Cell updates of one chunk of the walk (2**23: a few milliseconds), between two looks at the
#: time limit.
WALK_CHUNK_CELLS = 1 << 23

# The walk's cells are padded to a multiple of this (one AVX-512 vector): the compiled loop then has
# no scalar tail (40 cells: 24 ns a step, padded to 64: about 10).
PAD_CELLS = 64

# A walked cell that stands for a class of equal cells costs about this many plain ones
# (lightsout/_kernels/modwalk.pyx, 1024 cells: 0.22 against 0.06 ns with AVX-512, 0.39 against 0.13
# portable): the walk steps classes when they are at most a quarter of the cells.
GROUPED_CELL_COST = 4

#: :func:`coset_min_weight_mod` (the written-out reference) enumerates the coset; up to this many elements.
MAX_MOD_ELEMENTS = 1 << 22

#: Bytes of the written-out reference's solutions, solutions x cells x states (64 MiB): each step of
#: building the span holds k times the span's bytes.
MAX_MOD_SEARCH_BYTES = 1 << 26


def walk_fits(count: int, cells: int, states: int, *, timed: bool, threads: int, what: str = "this coset") -> None:
    """Refuse, before any work, a k-state walk that cannot be done: more than
    :data:`MAX_MOD_SOLUTIONS` solutions, or, without a time limit, more than the walk could
    do in :data:`MAX_MOD_UNTIMED_SECONDS` on ``threads`` threads (its estimate, from
    :func:`lightsout._search.cost.mod_search_seconds`).

    Example:
        >>> walk_fits(6885, 40, 255, timed=False, threads=1)
        >>> walk_fits(4**22, 24, 4, timed=False, threads=2)
        Traceback (most recent call last):
        ...
        lightsout.BoardTooLargeError: the fewest presses with 4 states walk every solution, and this coset has ...
    """
    start = f"the fewest presses with {states} states walk every solution, and {what} has {count:.4g} solutions"
    if count > MAX_MOD_SOLUTIONS:
        raise BoardTooLargeError(
            f"{start}, over the limit of 2^64 solutions (lightsout.limits.MAX_MOD_SOLUTIONS), time limit or not; "
            "solve without minimal=True for one solution")
    seconds = mod_search_seconds(count, cells) / threads
    if not timed and seconds > MAX_MOD_UNTIMED_SECONDS:
        raise BoardTooLargeError(
            f"{start}: about {seconds:.3g} s ({seconds / 3600:.3g} hours) on {threads} thread(s), over the "
            f"limit of {MAX_MOD_UNTIMED_SECONDS:g} s (lightsout.limits.MAX_MOD_UNTIMED_SECONDS) of a walk without "
            "time_limit; pass time_limit= (seconds) to get the best found in that time")


def _coset_arrays(particular: npt.ArrayLike, generators: npt.ArrayLike, modulus: int) -> tuple[int, np.ndarray,
                                                                                                np.ndarray]:
    """(k, particular, generators) checked: shapes (cells,) and (r, cells), integers in 0..k-1."""
    k = states_count(modulus, "modulus")
    x0 = np.asarray(particular)
    gens = np.asarray(generators)
    if x0.ndim != 1 or gens.ndim != 2 or gens.shape[1] != x0.shape[0]:
        raise InvalidBoardError(f"particular must be (cells,) and generators (r, cells), got {x0.shape}, {gens.shape}")
    for name, arr in (("particular", x0), ("generators", gens)):
        if arr.dtype != np.bool_ and not np.issubdtype(arr.dtype, np.integer):
            raise InvalidTypeError(f"{name} must hold integers, got dtype {arr.dtype}")
        if arr.size and (arr.min() < 0 or arr.max() >= k):
            raise InvalidBoardError(f"{name} must hold values in 0..{k - 1}")
    return k, x0, gens


def coset_min_weight_walk(particular: npt.ArrayLike, generators: npt.ArrayLike, modulus: int, *,
                          time_limit: Optional[float] = None, threads: Optional[int] = None,
                          progress: Progress = None, token: Optional[CancelToken] = None) -> CosetMinimum:
    """The fewest presses over Z/k, presses counted with multiplicity, by a Gray-code walk.

    The coset is ``particular + span(generators)`` over Z/k (any k from 2 to 255; any
    generators: they are brought to a Howell form first), and the weight of an element is
    the sum of its values 0..k-1.  Every element is weighed, one step of the walk each
    (module docstring); nothing is written out.  The answer is the same for every
    ``threads``.

    Args:
        particular: ``(cells,)`` integers in 0..k-1, one element.
        generators: ``(r, cells)`` integers in 0..k-1 (r may be 0).
        modulus: k.
        time_limit: seconds (>= 0); the walk stops at it and returns the best element
            found, with ``proven=False``.
        threads: the most threads (default: every usable core).
        progress: ``progress("fewest presses", done, total)`` between chunks.
        token: a caller's :class:`lightsout._core.runner.CancelToken` (its deadline binds
            when earlier than ``time_limit``'s).

    Returns:
        A :class:`CosetMinimum` with the lexicographically smallest element of minimum
        weight (cell 0 most significant; when a time limit cut the walk short, of the
        elements walked); ``coefficients`` is 0.

    Raises:
        BoardTooLargeError: more than :data:`MAX_MOD_SOLUTIONS` solutions, or without a
            time limit a walk estimated beyond :data:`MAX_MOD_UNTIMED_SECONDS`
            (:func:`walk_fits`).
        KeyboardInterrupt: Ctrl-C, within milliseconds.

    Example:
        >>> import numpy as np       # 1 x 2 board, 3 states: quiet pattern (1, 2)
        >>> best = coset_min_weight_walk(np.array([2, 2]), np.array([[1, 2]]), 3)
        >>> best.presses.tolist(), best.weight, best.proven     # (2, 2), (0, 1), (1, 0): a tie, (0, 1) first
        ([0, 1], 1, True)
    """
    k, x0, gens = _coset_arrays(particular, generators, modulus)
    limit = time_limit_seconds(time_limit)
    token = (CancelToken() if token is None else token).within(limit)
    nthreads = thread_count(threads) or default_threads()
    presses = x0.astype(np.uint8)
    cells = presses.shape[0]
    rows = howell_form(gens.astype(np.uint8), k) if gens.shape[0] and cells else np.zeros((0, cells), np.uint8)
    pivots = rows[np.arange(len(rows)), (rows != 0).argmax(axis=1)].astype(np.int64) if len(rows) else \
        np.zeros(0, np.int64)
    orders = k // pivots
    count = math.prod(int(order) for order in orders)
    if count == 1:
        return CosetMinimum(presses, int(presses.astype(np.int64).sum()), True, 0)
    active = np.flatnonzero(rows.any(axis=0))
    walked, counts, expand = _cell_classes(presses, rows, active)
    walk_fits(count, len(walked) * (1 if counts is None else GROUPED_CELL_COST), k,
              timed=token.deadline is not None, threads=nthreads)
    # padded to whole vectors of the widest build with cells that stay 0 (a row's 0 adds nothing)
    width = -(-len(walked) // PAD_CELLS) * PAD_CELLS
    gens_active = np.zeros((len(rows), width), np.uint8)
    gens_active[:, :len(walked)] = rows[:, walked]
    start = np.zeros(width, np.uint8)
    start[:len(walked)] = presses[walked]
    padded_counts = None
    if counts is not None:
        padded_counts = np.zeros(width, np.uint32)
        padded_counts[:len(walked)] = counts
    # the last coordinates are walked inside a chunk (at least one: a chunk's start costs a pass over
    # the cells per leading coordinate), the leading ones number the chunks
    suffix, inner = len(orders) - 1, int(orders[-1])
    while suffix > 0 and inner * int(orders[suffix - 1]) * width <= WALK_CHUNK_CELLS:
        suffix -= 1
        inner *= int(orders[suffix])
    lead_orders = [int(order) for order in orders[:suffix]]
    walked_rows, walked_orders = np.ascontiguousarray(gens_active[suffix:]), np.ascontiguousarray(orders[suffix:])
    nchunks = math.prod(lead_orders)
    lock = threading.Lock()
    best: list[tuple[int, bytes]] = []

    def chunk(number: int, token: CancelToken) -> bool:
        first = start
        for i in range(suffix - 1, -1, -1):
            number, digit = divmod(number, lead_orders[i])
            if digit:   # at most 254 * 254 + 254 < 2^16
                first = ((first + np.uint16(digit) * gens_active[i].astype(np.uint16)) % k).astype(np.uint8)
        complete, weight, element, _ = kernels.modwalk.walk(first, walked_rows, walked_orders, k,
                                                            counts=padded_counts, cancel=token.flag)
        found = (weight, element.tobytes())
        with lock:
            if not best or found < best[0]:
                best[:] = [found]
        return complete

    complete = run_chunks(chunk, nchunks, threads=nthreads, token=token, progress=progress, stage=PROGRESS_STAGE)
    if best:
        presses = presses.copy()
        presses[active] = np.frombuffer(best[0][1], dtype=np.uint8)[expand]
    return CosetMinimum(presses, int(presses.astype(np.int64).sum()), bool(complete), 0)


def _cell_classes(presses: np.ndarray, rows: np.ndarray, active: np.ndarray) -> tuple[np.ndarray, Optional[np.ndarray],
                                                                                     np.ndarray]:
    """The cells the walk steps: ``(walked, counts, expand)``.

    Cells with the same press in ``presses`` and the same entry in every row hold the same
    value in every solution (a periodic torus has few such classes), so the walk may step one
    cell of each class, weighing it by the class's size: ``walked`` are the first cell of each
    class in increasing order (the solutions then compare lexicographically as the whole
    vectors do: the first cell where two solutions differ is the first of its class),
    ``counts`` the classes' sizes, and ``expand[j]`` the class of ``active[j]``.  When the
    classes are more than a 1 / :data:`GROUPED_CELL_COST` share of the cells (a counted cell
    costs about that many plain ones), ``walked`` is ``active``, ``counts`` None.

    Example:
        >>> walked, counts, expand = _cell_classes(np.array([1, 0, 1, 0, 1, 0, 1, 0], np.uint8),
        ...                                        np.array([[2, 1, 2, 1, 2, 1, 2, 1]], np.uint8), np.arange(8))
        >>> walked.tolist(), counts.tolist(), expand.tolist()
        ([0, 1], [4, 4], [0, 1, 0, 1, 0, 1, 0, 1])
    """
    columns = np.ascontiguousarray(np.vstack([presses[active], rows[:, active]]).T)
    keys = columns.view(np.dtype((np.void, columns.shape[1])))[:, 0]
    _, first, inverse, sizes = np.unique(keys, return_index=True, return_inverse=True, return_counts=True)
    if GROUPED_CELL_COST * len(first) > len(active):
        return active, None, np.arange(len(active))
    order = np.argsort(first)
    rank = np.empty_like(order)
    rank[order] = np.arange(len(order))
    return active[first[order]], sizes[order].astype(np.uint32), rank[inverse.ravel()]


def coset_min_weight_mod(particular: npt.ArrayLike, generators: npt.ArrayLike, modulus: int) -> CosetMinimum:
    """The fewest presses over Z/k, presses counted with multiplicity, by writing out the coset.

    The search the package used before the walk, kept as a reference for small cosets (the
    tests hold :func:`coset_min_weight_walk` to it).  The coset is ``particular +
    span(generators)`` over Z/k (any k from 2 to 255; for composite k the generators may have
    different orders, as in a Howell form), and the weight of an element is the sum of its
    values 0..k-1.  Every element is written out, so the span may have at most
    :data:`MAX_MOD_ELEMENTS` elements, and elements x cells x k at most
    :data:`MAX_MOD_SEARCH_BYTES` bytes.

    Returns:
        A :class:`CosetMinimum` (always proven) with the lexicographically smallest
        element of minimum weight (cell 0 most significant); ``coefficients`` is 0
        (combinations over Z/k are not unique in general).

    Raises:
        BoardTooLargeError: a span beyond MAX_MOD_ELEMENTS or MAX_MOD_SEARCH_BYTES (the
            message names the one it is beyond).

    Example:
        >>> import numpy as np       # 1 x 2 board, 3 states: quiet pattern (1, 2)
        >>> best = coset_min_weight_mod(np.array([2, 2]), np.array([[1, 2]]), 3)
        >>> best.presses.tolist(), best.weight        # (2, 2), (0, 1), (1, 0): a tie, (0, 1) first
        ([0, 1], 1)
    """
    k, x0, gens = _coset_arrays(particular, generators, modulus)
    cells = x0.shape[0]

    def fits(elements: int, written: bool = True) -> None:
        if elements > MAX_MOD_ELEMENTS:
            raise BoardTooLargeError(f"the coset over Z/{k} has more than {MAX_MOD_ELEMENTS} elements "
                                     f"(lightsout.limits.MAX_MOD_ELEMENTS); too many to write out")
        if written and elements * cells * k > MAX_MOD_SEARCH_BYTES:
            raise BoardTooLargeError(
                f"the coset over Z/{k} has {elements} or more elements of {cells} cells, over "
                f"{MAX_MOD_SEARCH_BYTES // 2**20} MiB written out k times (lightsout.limits.MAX_MOD_SEARCH_BYTES)")

    span = np.zeros((1, cells), dtype=np.uint8)
    if is_prime(k):
        basis, _ = rref_prime(gens.astype(np.int64), k)
        fits(k ** len(basis))
        for row in basis:
            span = np.concatenate([((span.astype(np.int64) + t * row) % k).astype(np.uint8) for t in range(k)])
    else:
        for g in gens.astype(np.int64):
            if cells == 0 or not g.any():
                continue
            fits(-(-span.shape[0] * k // 4), written=False)
            grown = np.concatenate([((span.astype(np.int64) + t * g) % k).astype(np.uint8) for t in range(k)])
            keys = np.ascontiguousarray(grown).view(np.dtype((np.void, cells)))[:, 0]
            _, first = np.unique(keys, return_index=True)
            span = grown[np.sort(first)]
            fits(span.shape[0])
    elements = (span.astype(np.int64) + x0.astype(np.int64)) % k
    weights = elements.sum(axis=1)
    best = elements[weights == weights.min()]
    order = np.lexsort(best.T[::-1]) if cells else np.zeros(1, dtype=np.int64)
    presses = best[order[0]].astype(np.uint8)
    return CosetMinimum(presses, int(presses.astype(np.int64).sum()), True, 0)


def is_prime(k: int) -> bool:
    """Whether k is a prime.

    Example:
        >>> [k for k in range(2, 12) if is_prime(k)]
        [2, 3, 5, 7, 11]
    """
    return k >= 2 and all(k % q for q in range(2, int(math.isqrt(k)) + 1))
