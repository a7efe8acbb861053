"""The fewest presses: the minimum-weight element of a GF(2) coset, and distance tables.

A solvable board with nullity d has the 2^d solutions ``x(c) = x0 + c_1 q_1 + ... + c_d q_d``
(``+`` is XOR; x0 one solution, q_i a basis of the quiet patterns).  At cell j the press
is ``x0_j + a_j . c``, where the *form* a_j in GF(2)^d collects the bits of q_1..q_d at j.
Grouping the N cells by form, with ``g[a]`` = (cells of form a pressed in x0) - (cells of
form a not pressed), the weight of every solution is

    w(c) = (N + S(c)) / 2,      S(c) = sum_a g[a] (-1)^(a . c),

and S is the Walsh-Hadamard transform of the sparse signed histogram g: all 2^d weights
cost O(d 2^d) additions, whatever the board's size.  The kernel (lightsout/_kernels/walsh.h)
never holds 2^d counters: the coordinates split as ``c = [task | lane | low]``; one task
fixes the top bits, puts the next 3-5 in the lanes of a SIMD vector (their signs come
from a small table, no transform work) and transforms the low m bits (m about 13, so a
task's counters stay in the L2 cache), folding the last levels straight into the minimum.
Memory is therefore a few hundred KiB per thread for any nullity (16-bit counters while
``sum |g|`` is at most 32,766, 32-bit ones beyond), far inside any per-task memory budget.
Tasks are independent: they run in chunks of tens of milliseconds, on the usable cores
(threads: the kernel releases the GIL) or, grouped by the top ``split_bits`` coordinates
into jobs, on any ``concurrent.futures.Executor`` (a process pool, or a Dask cluster
through ``Client.get_executor()``).  Jobs are top-level functions of small arguments (the
sparse histogram), idempotent, and cut on the worker by the same rule, so the answer
never depends on how the work was split.

Ties.  Before the search the basis is brought to reduced row echelon form, with pivots
at the leftmost possible cells, and x0 is reduced to have no press at a pivot cell.  Then
``x(c)`` has c_i at the i-th pivot cell and the bits before that pivot do not depend on
c_i, c_(i+1), ...; so the lexicographic order of the press vectors (cell 0 first) is the
numeric order of c read with c_1 as the most significant bit.  The search keeps the
smallest (S, c) pair, which is therefore the lexicographically smallest minimum-weight
solution; the tie rule costs nothing.
"""
from __future__ import annotations

import concurrent.futures
import math
from collections.abc import Sequence
from dataclasses import replace
from typing import Callable, Optional

import numpy as np
import numpy.typing as npt

from lightsout._base.errors import BoardTooLargeError, InternalError, InvalidBoardError, InvalidTypeError
from lightsout._base.types import Progress
from lightsout._base.validate import thread_count, time_limit_seconds
from lightsout._core.runner import CancelToken, default_threads
from lightsout._search.cosetform import (MAX_NULLITY, CosetMinimum, ReducedCoset, SearchProblem, checked_coset,
                                         coset_element, histogram, reduce_coset, search_problem, task_layout)
from lightsout._search.cost import search_seconds
from lightsout._search.frontier import (BOUND_DEPTH, BOUND_SECONDS, Frontier, accepts_bounds, bounded_progress,
                                       deadline_in, weight_bound)
from lightsout._search.checkpoint import Checkpoint, PathArg, checkpoint_path, search_fingerprint
from lightsout._search.jobs import default_split, local_jobs, search_executor
from lightsout._search.localsearch import LOCAL_SEARCH_MIN_NULLITY, LOCAL_SEARCH_SECONDS, LOCAL_SEARCH_SHARE, local_search
from lightsout._search.orbitcut import MAX_TIE_ELEMENTS, OrbitCut, prepare_cut, smallest_image, task_minima
from lightsout._search.prune import EXACT_BITS, components, prefix_bounds, pruned_search
from lightsout._search.symmetry import permutation_of
from lightsout._search.tasksearch import Best, ordered_scan, search_local

__all__ = ["CosetMinimum", "coset_min_weight", "MAX_UNTIMED_NULLITY", "MAX_UNTIMED_SECONDS", "MAX_NULLITY"]


#: Without ``time_limit``, :func:`coset_min_weight` refuses a nullity above this (2^44
#: solutions: about 20 minutes on the two cores of the development machine).
MAX_UNTIMED_NULLITY = 44


#: Without ``time_limit`` and without an executor, it also refuses a search estimated to
#: take longer than this many seconds on the usable cores (see :func:`lightsout._search.cost.search_seconds`).
MAX_UNTIMED_SECONDS = 3600.0


def _check_limits(problem: SearchProblem, deadline: Optional[float], executor: object, threads: int,
                  group_order: int, exact: bool = False) -> None:
    """Refuse a search beyond the limits; the symmetric cut divides the work by ``group_order``;
    ``exact``: the branch and bound's bounds are exact (:func:`_splits`), so it weighs about one
    task whatever the nullity."""
    d = problem.nullity
    if d > MAX_NULLITY:
        raise BoardTooLargeError(f"the fewest-presses search handles nullity up to {MAX_NULLITY} "
                                 f"(lightsout.limits.MAX_NULLITY); this coset has nullity {d}")
    if deadline is not None or exact:
        return
    seconds = search_seconds(d, len(problem.forms)) / group_order
    if d - math.log2(group_order) > MAX_UNTIMED_NULLITY:
        raise BoardTooLargeError(
            f"the fewest presses over a nullity-{d} coset (2^{d} solutions) would take about "
            f"{seconds / 3600:.3g} core-hours; without time_limit the search is limited to nullity "
            f"{MAX_UNTIMED_NULLITY} (lightsout.limits.MAX_UNTIMED_NULLITY; a symmetry group of order 2^j "
            f"adds j): pass time_limit= (seconds) "
            f"to get the best found in that time")
    if executor is None and seconds / threads > MAX_UNTIMED_SECONDS:
        raise BoardTooLargeError(
            f"the fewest presses over a nullity-{d} coset with {len(problem.forms)} cell forms would take "
            f"about {seconds / threads / 3600:.3g} hours on {threads} core(s), more than the "
            f"{MAX_UNTIMED_SECONDS / 3600:g}-hour limit (lightsout.limits.MAX_UNTIMED_SECONDS); pass "
            f"time_limit= or an executor=")


def coset_min_weight(particular: np.ndarray, basis: np.ndarray, *, time_limit: Optional[float] = None,
                     executor: Optional[concurrent.futures.Executor] = None, split_bits: Optional[int] = None,
                     progress: Progress = None, threads: Optional[int] = None,
                     symmetry: Optional[Sequence[npt.ArrayLike]] = None,
                     prune: Optional[bool] = None, token: Optional[CancelToken] = None,
                     floor: int = 0, checkpoint: Optional[PathArg] = None) -> CosetMinimum:
    """The fewest-presses element of ``particular + span(basis)`` over GF(2).

    All 2^d elements are weighed by Walsh-Hadamard transforms (module docstring), in
    independent tasks.  Ties: the result is the lexicographically smallest press vector
    of minimum weight (cell 0 most significant) -- exactly that when ``proven``; when a
    time limit cut the search short, the lexicographically smallest of the best weight
    among the elements examined.  The answer is the same for every ``split_bits``,
    executor and thread count.

    Args:
        particular: ``(cells,)`` 0/1 (uint8, bool or any integer dtype), one element.
        basis: ``(d, cells)`` 0/1, linearly independent rows (d may be 0).
        time_limit: seconds (>= 0; :func:`lightsout._base.validate.time_limit_seconds`);
            every stage (the reduction, the symmetric cut, the search) stops at it, and
            the best found so far is returned with ``proven=False`` (unless every task
            had finished).
        token: a :class:`lightsout._core.runner.CancelToken` whose deadline and stop flag
            the search honours (a caller's deadline that started earlier); with
            ``time_limit`` too, the earlier deadline binds.
        executor: any ``concurrent.futures.Executor`` (``ProcessPoolExecutor``,
            ``dask.distributed.Client(...).get_executor()``, ...); the 2^split_bits jobs
            are submitted to it.  Without one, the tasks run in this process on
            ``threads`` threads (default: every usable core).
        split_bits: the number of top coset coordinates that split the search into
            jobs (0 <= split_bits <= d); default: about one second of work per job.
        progress: ``progress(stage, done, total)``, called between chunks (tasks in
            process, jobs with an executor).
        threads: the most threads of this process (default: every usable core); one
            runs the search in the calling thread and starts none.
        symmetry: permutations of the cells (``image[p]`` = where cell p goes, as for
            :meth:`lightsout.Solution.count_up_to_symmetry`) that map the coset onto
            itself.  The search then weighs one task of each orbit of the group they
            generate (of its Sylow 2-subgroup: about that many times less work) and
            finds the same minimum and the same tie (lightsout/_search/orbitcut.py).  Each
            permutation is checked.
        prune: branch and bound (lightsout/_search/prune.py): subtrees of tasks whose lower
            bound cannot beat the best found are skipped, with the same minimum and the
            same tie.  It pays where the quiet space splits into small independent parts
            (a graph of several components), where the bound is exact; where every quiet
            pattern spans the board (the all-lit squares) it skips nothing, drops the
            bounds that do not pay and costs about what the plain search costs.  None (default): on when the coset splits into
            parts of at most :data:`lightsout._search.prune.EXACT_BITS` coordinates and
            neither ``symmetry`` nor ``executor`` is given.  True runs in this process
            and cannot be combined with either.

        floor: a lower bound on every element's weight that the caller has proven
            (from the press rule, lightsout/_search/minimal.py); it starts the
            result's ``lower_bound`` and is never above the minimum.
        checkpoint: a file path: the search runs as jobs (on ``executor``, else on
            ``threads`` threads of this process), writes where it stands to that file
            every half minute and when it stops (lightsout/_search/checkpoint.py), and a
            later call with the same path resumes it; a file left by another search is
            refused (``CheckpointError``, a ``ValueError``).  A checkpointed search can be
            stopped and resumed at will, so it is not refused for its length
            (:data:`MAX_UNTIMED_NULLITY`, :data:`MAX_UNTIMED_SECONDS`).

    Returns:
        A :class:`CosetMinimum`.  Its ``lower_bound`` is proven at any time
        (docs/algebra.md sections 8 and 13): ``weight`` when ``proven``; when a time
        limit cut the search short, the best of ``floor`` and the smaller of the best
        weight found and the bounds of the parts of the coset not yet weighed.  The
        ``progress`` callable, if it takes a ``bounds`` keyword, gets
        ``bounds=(lower, best)`` in presses (lightsout/_search/frontier.py).

    Raises:
        BoardTooLargeError: nullity above :data:`MAX_NULLITY`; or, without
            ``time_limit``, above :data:`MAX_UNTIMED_NULLITY`, or (without executor)
            estimated beyond :data:`MAX_UNTIMED_SECONDS`.  The message names the nullity
            and the limit.
        InvalidBoardError: shapes that do not match, values other than 0/1,
            dependent basis rows, a bad split_bits or time_limit, a ``symmetry`` that
            is not a permutation of the cells or does not map the coset onto itself,
            ``prune=True`` with ``symmetry`` or ``executor``.
        KeyboardInterrupt: Ctrl-C, within a kernel call (tens of milliseconds).

    Examples:
        >>> import numpy as np
        >>> import lightsout
        >>> s = lightsout.solve(np.ones((5, 5), bool))
        >>> best = coset_min_weight(s.presses.ravel().astype(np.uint8),
        ...                         s.quiet_patterns().reshape(s.nullity, -1).astype(np.uint8))
        >>> best.weight, best.proven, best.lower_bound
        (15, True, 15)
        >>> best.presses.reshape(5, 5).tolist()[0]
        [0, 0, 0, 1, 1]
    """
    particular, basis = checked_coset(particular, basis, "the fewest-presses search")
    time_limit = time_limit_seconds(time_limit)
    token = (CancelToken() if token is None else token).within(time_limit)
    d = basis.shape[0]
    nthreads = thread_count(threads) or default_threads()
    images = None if symmetry is None else _permutations(symmetry, particular.shape[0])
    _check_prune(prune, images, executor)
    saved = checkpoint_path(checkpoint)
    if prune and saved is not None:
        raise InvalidBoardError("prune=True runs the branch and bound, which keeps no checkpoint: pass prune=False "
                                "or leave it out with checkpoint=")
    jobs = executor is not None or saved is not None   # the search runs as jobs (lightsout/_search/jobs.py)
    coset = reduce_coset(particular, basis)
    if d == 0:
        return _bounded(coset_element(coset, particular, 0, True), floor, 0)
    plain = problem = search_problem(coset)
    split = 0
    if split_bits is not None:
        if isinstance(split_bits, bool) or not isinstance(split_bits, (int, np.integer)):
            raise InvalidTypeError(f"split_bits must be an int, got {type(split_bits).__name__}")
        split = int(split_bits)
        if not 0 <= split <= d:
            raise InvalidBoardError(f"split_bits must be in [0, {d}] (the nullity), got {split}")
    cut = None
    if images is not None:
        cut = _cut(images, coset, problem, split, token)   # the default split keeps the tasks of split 0
        if cut is not None and cut.order > 1:
            problem = histogram(cut.rows, coset.reduced, cut.orbits)
        else:
            cut = None
    if split_bits is None and jobs:
        split = default_split(problem, 1 if cut is None else cut.order)
    splits = prune is not False and images is None and not jobs and _splits(problem)
    if prune is None:
        prune = splits and task_layout(problem, 0)[2] > 0
    if saved is None:
        _check_limits(problem, token.deadline, executor, nthreads, 1 if cut is None else cut.order,
                      bool(prune) and splits)
    if prune:
        complete, total, index, stats = pruned_search(problem.forms, problem.values, d, problem.bound, problem.wide,
                                                      task_layout(problem, 0), token, progress, nthreads,
                                                      cells=problem.cells)
        lower = total if stats.lower is None else stats.lower
        return _bounded(_checked_result(coset, particular, index, complete, total), floor,
                        weight_bound(problem.cells, lower))
    problem = _seeded(problem, token)
    frontier = _frontier(problem, split, token,
                         token.deadline is not None or accepts_bounds(progress) or saved is not None)
    best = Best(problem.bound, problem.start)

    def bounds() -> tuple[int, int]:
        upper = (problem.cells + best.sum) // 2
        return min(max(floor, weight_bound(problem.cells, frontier.lower(best.sum))), upper), upper

    report = bounded_progress(progress, bounds)
    if jobs:
        kept = None if saved is None else Checkpoint(saved, search_fingerprint(
            coset, problem, split, task_layout(problem, split)))
        with local_jobs(executor, nthreads) as pool:
            complete, best = search_executor(problem, pool, split, token, report, frontier, best, kept)
    else:
        complete, best = search_local(problem, split, token, report, nthreads, frontier, best)
    index = best.index if cut is None else _first_tie(cut, problem, plain, best, token.expired)
    return _bounded(_checked_result(coset, particular, index, complete, best.sum), floor,
                    weight_bound(problem.cells, frontier.lower(best.sum)))


#: A time-limited search whose coset would take this many times its time gives the local search
#: ``HOPELESS_SHARE`` of it (the exact search that follows sees too little of the coset to do better).
HOPELESS_FACTOR = 1000.0
HOPELESS_SHARE = 0.5


def _seeded(problem: SearchProblem, token: CancelToken) -> SearchProblem:
    """The problem started from the local search's best point (lightsout/_search/localsearch.py) when
    the search is time-limited and too large to cover: a good solution from the first seconds."""
    left = token.remaining()
    if left is None or problem.nullity < LOCAL_SEARCH_MIN_NULLITY:
        return problem
    seconds = min(LOCAL_SEARCH_SECONDS, LOCAL_SEARCH_SHARE * left)
    if search_seconds(problem.nullity, problem.forms.size) > HOPELESS_FACTOR * left:
        seconds = HOPELESS_SHARE * left     # the scan would see a sliver of the coset: descents do better
    total, index = local_search(problem.forms, problem.values, problem.nullity, seconds, expired=token.expired)
    if (total, index) < (problem.bound, problem.start):
        return problem._replace(bound=total, start=index)
    return problem


def _frontier(problem: SearchProblem, split: int, token: CancelToken, wanted: bool) -> Frontier:
    """The search's frontier (lightsout/_search/frontier.py): the bounds of the nodes of the top
    :data:`~lightsout._search.frontier.BOUND_DEPTH` task coordinates, within
    :data:`~lightsout._search.frontier.BOUND_SECONDS` (the nodes left get the whole coset's bound).
    Not ``wanted`` (no time limit, no progress that shows the bounds: a search that stops early
    then was cancelled), one node with the trivial bound ``-sum |g|``, at no cost."""
    task_bits = task_layout(problem, split)[2]
    if not wanted:
        return Frontier(np.array([-int(np.abs(problem.values.astype(np.int64)).sum())]), task_bits)
    depth = min(task_bits, BOUND_DEPTH)
    bounds = prefix_bounds(problem.forms, problem.values, problem.nullity, depth,
                           deadline_in(BOUND_SECONDS, token.expired))
    return Frontier(bounds, task_bits)


def _bounded(result: CosetMinimum, floor: int, search_bound: int) -> CosetMinimum:
    """The result with its lower bound: its weight when proven, else the better of the two bounds."""
    if result.proven:
        return replace(result, lower_bound=result.weight)
    if max(floor, search_bound) > result.weight:  # pragma: no cover - a bound that does not hold is a bug
        raise InternalError(f"lower bound {max(floor, search_bound)} above the weight {result.weight} found")
    return replace(result, lower_bound=max(floor, search_bound))


def _check_prune(prune: object, images: object, executor: object) -> None:
    """``prune=`` checked, before any work: None, or a bool that ``symmetry=`` and ``executor=`` allow."""
    if prune is not None and not isinstance(prune, (bool, np.bool_)):
        raise InvalidTypeError(f"prune must be None, True or False, got {type(prune).__name__}")
    if prune and (images is not None or executor is not None):
        raise InvalidBoardError("prune=True runs the branch and bound in this process: it cannot be combined with "
                                "symmetry= or executor= (pass prune=False or leave them out)")


def _splits(problem: SearchProblem) -> bool:
    """Whether the forms split the coordinates into independent parts of at most
    :data:`~lightsout._search.prune.EXACT_BITS` each (every bound of the branch and bound is then exact)."""
    parts = components(problem.forms, problem.nullity, problem.nullity)
    return len(parts) > 1 and max(bin(part).count("1") for part in parts) <= EXACT_BITS


def _checked_result(coset: ReducedCoset, particular: np.ndarray, index: int, complete: bool, total: int) -> CosetMinimum:
    """The element at ``index``; its weight checked against the search's sum when complete."""
    result = coset_element(coset, particular, index, complete)
    if complete and 2 * result.weight != particular.shape[0] + total:  # pragma: no cover - kernel bug guard
        raise InternalError(f"weight {result.weight} does not match sum {total}")
    return result


def _permutations(symmetry: object, cells: int) -> list[np.ndarray]:
    """``symmetry=`` checked: a list of permutations of the cells (or a 2-D array, one a row)."""
    if isinstance(symmetry, np.ndarray) and symmetry.ndim == 2:
        symmetry = list(symmetry)
    if isinstance(symmetry, (str, bytes, np.ndarray)) or not isinstance(symmetry, Sequence):
        raise InvalidTypeError(f"symmetry must be a list of permutations of the cells (or a 2-D array, one a row), "
                               f"got {type(symmetry).__name__}")
    return [permutation_of(value, cells, None, i) for i, value in enumerate(symmetry)]


def _cut(images: list[np.ndarray], coset: ReducedCoset, problem: SearchProblem, split: int,
         token: CancelToken) -> Optional[OrbitCut]:
    """The symmetric cut by the checked permutations, with tasks as the layout makes them;
    None when the token's deadline came first (the search then runs without the cut)."""
    lanes, m, _ = task_layout(problem, split)
    return prepare_cut(images, coset.rows, coset.pivots, coset.reduced, lanes + m, expired=token.expired,
                       lane_bits=lanes)


def _first_tie(cut: OrbitCut, problem: SearchProblem, plain: SearchProblem, best: Best, expired: Callable[[], bool]) -> int:
    """The reduced coordinate of the lexicographically first element of sum ``best.sum``
    (lightsout/_search/orbitcut.py, point 3): the smallest image of the minima of the tasks that
    tie; an ordered scan of the plain search (``plain``) when there are too many of them."""
    if best.ties and not best.ties_overflow:
        found = [task_minima(problem.forms, problem.values, cut.low_bits, task, best.sum) for task in best.ties]
        if sum(part.size for part in found) * cut.order <= MAX_TIE_ELEMENTS:
            return smallest_image(cut, np.concatenate(found))
    if best.ties or best.ties_overflow:
        first = ordered_scan(plain, best.sum, expired)
        if first is not None:
            return first
    return smallest_image(cut, np.array([best.index], dtype=np.uint64))
