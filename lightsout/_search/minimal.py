"""The fewest presses of one solved board: the minimal solution of its coset (``Solution.minimal``).

It stands below :mod:`lightsout._solve` (a :class:`lightsout.Solution` finds its own
minimal solution through it) and above the searches: ``lightsout._search.minweight`` over
GF(2), cut by the box's symmetries (``lightsout._search.orbitcut``) or pruned
(``lightsout._search.prune``), and the written-out search with k states.
:mod:`lightsout.fewest` adds the tables and the entry points that solve first.
"""
from __future__ import annotations

import concurrent.futures
from dataclasses import replace
from typing import TYPE_CHECKING, Optional

import numpy as np

from lightsout._base.errors import BoardTooLargeError
from lightsout._base.types import Progress
from lightsout._base.validate import thread_count, time_limit_seconds
from lightsout._core.runner import CancelToken
from lightsout._core.tasks import checked_executor
from lightsout._search.minweight import MAX_NULLITY, coset_min_weight
from lightsout._search.modsearch import MAX_MOD_ELEMENTS, coset_min_weight_mod
from lightsout._search.symmetry import box_symmetries

if TYPE_CHECKING:
    from lightsout._solution import Solution

__all__ = ["minimal_solution", "mod_search_fits", "SYMMETRY_MIN_NULLITY",
           "MAX_MOD_SEARCH_BYTES"]


#: Largest coset (solutions x cells x states) the k-state search may write out: it enumerates every
#: solution, and each step of building the span holds k times the span's bytes.
MAX_MOD_SEARCH_BYTES = 1 << 26


def mod_search_fits(count: int, cells: int, states: int, shape: tuple[int, ...]) -> None:
    """Refuse, before the search, a k-state fewest-press search that cannot be written out.

    The number of solutions is known from the solve, so the refusal is immediate.

    Example:
        >>> mod_search_fits(3**4, 25, 3, (5, 5))
        >>> mod_search_fits(6**20, 100, 6, (10, 10))
        Traceback (most recent call last):
        ...
        lightsout.BoardTooLargeError: the fewest presses of a board with 6 states ...
    """
    if count > MAX_MOD_ELEMENTS or count * cells * states > MAX_MOD_SEARCH_BYTES:
        size = " x ".join(map(str, shape)) if len(shape) > 1 else f"{shape[0]}-cell"
        raise BoardTooLargeError(
            f"the fewest presses of a board with {states} states are found by writing out every solution, and "
            f"this {size} board has {count:.4g} of them: over the limit of {MAX_MOD_ELEMENTS} solutions and "
            f"{MAX_MOD_SEARCH_BYTES // 2**20} MiB (lightsout._search.minimal.MAX_MOD_SEARCH_BYTES); "
            "solve without minimal=True for one solution")


#: From this nullity on, the two-state search of a box board weighs one task of each orbit of
#: the box's point symmetries that keep the lights (lightsout/_search/orbitcut.py): up to 8 times less
#: work on a square, 4 on a rectangle, 16 on a cube; below it the search takes well under a second.
SYMMETRY_MIN_NULLITY = 28


def minimal_solution(solution: "Solution", *, time_limit: Optional[float] = None,
                     executor: Optional[concurrent.futures.Executor] = None,
                     progress: Progress = None, threads: Optional[int] = None,
                     token: Optional[CancelToken] = None) -> "Solution":
    """The solution of the same board with the fewest presses (:meth:`lightsout.Solution.minimal`).

    Ties go to the lexicographically smallest press vector.  The result has
    ``proven_minimal=True`` when every solution was weighed; with a
    ``time_limit`` that ran out, it is the best found, with ``proven_minimal=False``.
    ``token``: a caller's :class:`lightsout._core.runner.CancelToken` (a deadline
    that began before this call: the earlier one binds).

    Example:
        >>> import lightsout, numpy as np
        >>> s = minimal_solution(lightsout.solve(np.ones((4, 4), dtype=int)))
        >>> int(s.presses.sum()), s.proven_minimal
        (4, True)
    """
    limit = time_limit_seconds(time_limit)
    token = (CancelToken() if token is None else token).within(limit)
    threads = thread_count(threads)
    pool = checked_executor(executor)
    cells = solution.board.size
    flat = np.ascontiguousarray(solution.presses, dtype=np.uint8).reshape(cells)
    if solution.nullity == 0:
        return replace(solution, proven_minimal=True)
    if solution.states != 2:
        mod_search_fits(solution.count, cells, solution.states, solution.board.shape)
    elif solution.nullity > MAX_NULLITY:    # refused before the quiet patterns are written out
        raise BoardTooLargeError(
            f"the fewest-presses search handles nullity up to {MAX_NULLITY} "
            f"(lightsout._search.minweight.MAX_NULLITY), time limit or not; this board has nullity "
            f"{solution.nullity} (2^{solution.nullity} solutions)")
    patterns = solution.quiet_patterns().reshape(-1, cells).astype(np.uint8)
    if solution.states == 2:
        symmetry = None
        if solution.nullity >= SYMMETRY_MIN_NULLITY and not solution.is_graph:
            lights = np.asarray(solution.board, dtype=np.uint8).reshape(cells)
            symmetry = box_symmetries(solution.board.shape, solution.torus, lights)
        found = coset_min_weight(flat, patterns, executor=pool, progress=progress,
                                 symmetry=symmetry, threads=threads, token=token)
    else:
        found = coset_min_weight_mod(flat, patterns, solution.states)
    presses = found.presses.reshape(solution.board.shape)
    return replace(solution, presses=presses.astype(bool) if solution.states == 2 else presses.astype(np.uint8),
                   proven_minimal=bool(found.proven))
