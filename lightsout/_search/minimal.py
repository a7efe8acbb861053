"""The fewest presses of one solved board: the minimal solution of its coset (``Solution.minimal``).

It stands below :mod:`lightsout._solve` (a :class:`lightsout.Solution` finds its own
minimal solution through it) and above the searches: ``lightsout._search.minweight`` over
GF(2), cut by the box's symmetries (``lightsout._search.orbitcut``) or pruned
(``lightsout._search.prune``), and the Gray-code walk with k states
(``lightsout._search.modsearch``).
:mod:`lightsout.fewest` adds the tables and the entry points that solve first.
"""
from __future__ import annotations

import concurrent.futures
import math
from dataclasses import replace
from typing import TYPE_CHECKING, Optional

import numpy as np

from lightsout._base.errors import BoardTooLargeError, InternalError, InvalidBoardError
from lightsout._base.types import Progress
from lightsout._base.validate import thread_count, time_limit_seconds
from lightsout._core.rules import Rules
from lightsout._core.runner import CancelToken, default_threads
from lightsout._core.tasks import checked_executor
from lightsout._search.checkpoint import PathArg, checkpoint_path
from lightsout._search.localsearch import coset_local_search
from lightsout._search.minweight import MAX_NULLITY, coset_min_weight
from lightsout._search.cost import search_seconds
from lightsout._search.modsearch import MAX_MOD_SEARCH_BYTES, coset_min_weight_walk, walk_fits
from lightsout._search.regionbound import REGION_BOUND_SECONDS, REGION_BOUND_SHARE, region_bound
from lightsout._search.symmetry import box_symmetries

if TYPE_CHECKING:
    from lightsout._solution import Solution

__all__ = ["minimal_solution", "refuse_minimal", "mod_search_fits", "SYMMETRY_MIN_NULLITY",
           "MAX_MOD_SEARCH_BYTES", "press_cover_bound"]


def mod_search_fits(count: int, cells: int, states: int, shape: tuple[int, ...], *,
                    time_limit: Optional[float] = None, threads: Optional[int] = None) -> None:
    """Refuse, before the search, a k-state fewest-press search that cannot be done: more than
    ``MAX_MOD_SOLUTIONS`` solutions, or without a time limit a walk estimated beyond
    ``MAX_MOD_UNTIMED_SECONDS`` (lightsout._search.modsearch.walk_fits).

    The number of solutions is known from the solve, so the refusal is immediate.

    Example:
        >>> mod_search_fits(3**4, 25, 3, (5, 5))
        >>> mod_search_fits(6**20, 100, 6, (10, 10))
        Traceback (most recent call last):
        ...
        lightsout.BoardTooLargeError: the fewest presses with 6 states walk every solution, and this 10 x 10 board ...
    """
    size = " x ".join(map(str, shape)) if len(shape) > 1 else f"{shape[0]}-cell"
    walk_fits(count, cells, states, timed=time_limit is not None, threads=thread_count(threads) or default_threads(),
              what=f"this {size} board")


def refuse_minimal(nullity: int, count: int, states: int, shape: tuple[int, ...], *,
                   time_limit: Optional[float] = None, threads: Optional[int] = None) -> None:
    """Refuse, before any work, a solved board's fewest-press search that the search cannot do.

    Two states: a nullity over ``MAX_NULLITY`` without a time limit (the quiet patterns are not
    written out for nothing; with one, :func:`minimal_solution` brackets the fewest); k states: a coset too large to walk (:func:`mod_search_fits`, which
    takes ``time_limit`` and ``threads`` into account).
    :func:`minimal_solution` asks it, and so does the play page before it offers a search.

    Example:
        >>> refuse_minimal(20, 2**20, 2, (30, 30))
        >>> refuse_minimal(200, 2**200, 2, (200, 200))
        Traceback (most recent call last):
        ...
        lightsout.BoardTooLargeError: a board of shape (200, 200) has nullity 200 (2^200 solutions), over the limit ...
    """
    if states != 2:
        mod_search_fits(count, math.prod(shape), states, shape, time_limit=time_limit, threads=threads)
    elif nullity > MAX_NULLITY and time_limit is None:
        raise BoardTooLargeError(
            f"a board of shape {shape} has nullity {nullity} (2^{nullity} solutions), over the limit of "
            f"{MAX_NULLITY} (lightsout.limits.MAX_NULLITY) of the exhaustive fewest-presses search; with a "
            f"time_limit the best solution a local search finds is returned with a proven lower bound")


#: From this nullity on, the two-state search of a box board weighs one task of each orbit of
#: the box's point symmetries that keep the lights (lightsout/_search/orbitcut.py): up to 8 times less
#: work on a square, 4 on a rectangle, 16 on a cube; below it the search takes well under a second.
SYMMETRY_MIN_NULLITY = 28


def minimal_solution(solution: "Solution", *, time_limit: Optional[float] = None,
                     executor: Optional[concurrent.futures.Executor] = None,
                     progress: Progress = None, threads: Optional[int] = None,
                     token: Optional[CancelToken] = None, checkpoint: Optional[PathArg] = None) -> "Solution":
    """The solution of the same board with the fewest presses (:meth:`lightsout.Solution.minimal`).

    Ties go to the lexicographically smallest press vector.  The result has
    ``proven_minimal=True`` when every solution was weighed; with a
    ``time_limit`` that ran out, it is the best found, with ``proven_minimal=False``.
    Its ``lower_bound`` is proven either way (the presses found, when proven): the
    best of :func:`press_cover_bound` and the search's bound at the moment it stopped.
    ``token``: a caller's :class:`lightsout._core.runner.CancelToken` (a deadline
    that began before this call: the earlier one binds).  ``checkpoint``: a file the
    two-state search keeps its state in and resumes from
    (:func:`lightsout._search.minweight.coset_min_weight`).

    Example:
        >>> import lightsout, numpy as np
        >>> s = minimal_solution(lightsout.solve(np.ones((4, 4), dtype=int)))
        >>> int(s.presses.sum()), s.proven_minimal, s.lower_bound
        (4, True, 4)
    """
    limit = time_limit_seconds(time_limit)
    token = (CancelToken() if token is None else token).within(limit)
    threads = thread_count(threads)
    pool = checked_executor(executor)
    if checkpoint_path(checkpoint) is not None and solution.states != 2:
        raise InvalidBoardError(f"checkpoint= keeps the state of the two-state search; this board has "
                                f"{solution.states} states, whose walk keeps none")
    cells = solution.board.size
    flat = np.ascontiguousarray(solution.presses, dtype=np.uint8).reshape(cells)
    if solution.nullity == 0 or not flat.any():  # one solution, or this one presses nothing: none is shorter
        return replace(solution, proven_minimal=True, lower_bound=int(flat.sum(dtype=np.int64)))
    refuse_minimal(solution.nullity, solution.count, solution.states, solution.board.shape,  # before the patterns
                   time_limit=token.remaining(), threads=threads)
    if checkpoint_path(checkpoint) is not None and solution.states == 2 and solution.nullity > MAX_NULLITY:
        raise InvalidBoardError(f"checkpoint= keeps the state of the exhaustive search, which stops at nullity "
                                f"{MAX_NULLITY}; this board has nullity {solution.nullity} (leave checkpoint out)")
    patterns = solution.quiet_patterns().reshape(-1, cells).astype(np.uint8)
    if solution.states == 2 and solution.nullity > MAX_NULLITY:   # refused above without a time limit
        return _bracketed(solution, flat, patterns, token, threads)
    if solution.states == 2:
        symmetry = None
        # the box's symmetries are the board's only under today's rule without masks
        if solution.nullity >= SYMMETRY_MIN_NULLITY and isinstance(solution.rules, Rules) and solution.rules.is_classic:
            lights = np.asarray(solution.board, dtype=np.uint8).reshape(cells)
            symmetry = box_symmetries(solution.board.shape, solution.torus, lights)
        found = coset_min_weight(flat, patterns, executor=pool, progress=progress, symmetry=symmetry,
                                 threads=threads, token=token, floor=_floor(solution, flat, patterns, token, threads),
                                 checkpoint=checkpoint)
    else:
        found = coset_min_weight_walk(flat, patterns, solution.states, progress=progress, threads=threads,
                                      token=token)
    presses = found.presses.reshape(solution.board.shape)
    lower = found.lower_bound if found.lower_bound is not None else found.weight if found.proven else \
        press_cover_bound(solution)
    return replace(solution, presses=presses.astype(bool) if solution.states == 2 else presses.astype(np.uint8),
                   proven_minimal=bool(found.proven), lower_bound=int(lower))


def _bracketed(solution: "Solution", presses: np.ndarray, patterns: np.ndarray, token: CancelToken,
               threads: Optional[int]) -> "Solution":
    """A coset past the exhaustive search (nullity over ``MAX_NULLITY``), time-limited: the best element the local
    search (lightsout/_search/localsearch.py) finds in the time the bound leaves it, and the proven lower bound."""
    floor = _floor(solution, presses, patterns, token, threads)
    best = coset_local_search(presses, patterns, token.remaining() or 0.0, expired=token.expired)
    weight = int(best.sum(dtype=np.int64))
    if floor > weight:  # pragma: no cover - a bound that does not hold is a bug
        raise InternalError(f"lower bound {floor} above the weight {weight} found")
    return replace(solution, presses=best.reshape(solution.board.shape).astype(bool), proven_minimal=floor == weight,
                   lower_bound=floor)


def _floor(solution: "Solution", presses: np.ndarray, patterns: np.ndarray, token: CancelToken,
           threads: Optional[int]) -> int:
    """The bound a two-state search starts from: the press-cover bound, and on an open grid under today's
    rule whose search the time limit will cut short, the region bound too (lightsout/_search/regionbound.py)."""
    floor = press_cover_bound(solution)
    rules, left = solution.rules, token.remaining()
    if (left is None or not isinstance(rules, Rules) or len(rules.shape) != 2 or not rules.is_classic
            or any(rules.wraps)):
        return floor
    workers = threads or default_threads()
    if solution.nullity <= MAX_NULLITY and search_seconds(solution.nullity, presses.size) / (8 * workers) <= left:
        return floor    # the search may well finish: its own bound is the minimum
    stencil = rules.press_stencil
    reach = [(int(offset[0]), int(offset[1])) for offset, weight in stencil.offsets() if weight % 2]
    lights = np.asarray(solution.board, dtype=bool)
    seconds = min(REGION_BOUND_SECONDS, REGION_BOUND_SHARE * left)
    region = region_bound(presses, patterns, lights, lights & rules.required_lights(), reach, len(reach), seconds,
                          token.child(seconds), workers)
    return max(floor, region)


def press_cover_bound(solution: "Solution") -> int:
    """A lower bound on the presses of every solution, from the press rule alone (any number of states).

    Each lit cell that must end dark changes by a nonzero amount, so at least one press reaches
    it, and one press (a press count of 1; with k states a count c is c presses) changes at
    most ``c`` cells (the nonzero weights of the press stencil on a grid: 5 under today's rule
    in the plane, 4 for the sigma game; a vertex's degree, plus one with ``self_toggle``, on a
    graph): at least ``ceil(such lights / c)`` presses (docs/algebra.md section 8).

    Example:
        >>> import lightsout, numpy as np
        >>> press_cover_bound(lightsout.solve(np.ones((5, 5), dtype=int)))    # 25 lights, 5 a press
        5
        >>> press_cover_bound(lightsout.solve(np.ones((8, 5), dtype=int), states=255))   # 40 lights
        8
    """
    rules = solution.rules
    if isinstance(rules, Rules):
        cover = int(np.count_nonzero(rules.press_stencil.weights % solution.states))
    else:
        indptr, indices = rules.indptr, rules.indices
        sources = np.repeat(np.arange(indptr.size - 1), np.diff(indptr))
        reach = max(int(np.bincount(sources).max(initial=0)),
                    int(np.bincount(np.asarray(indices, dtype=np.int64)).max(initial=0)))
        cover = reach + (1 if rules.self_toggle else 0)
    lit = int(np.count_nonzero(np.asarray(solution.board).astype(bool) & rules.required_lights()))
    return -(-lit // cover) if cover > 0 else 0
