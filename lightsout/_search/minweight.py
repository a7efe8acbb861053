"""The fewest presses: the minimum-weight element of a GF(2) coset, and distance tables.

A solvable board with nullity d has the 2^d solutions ``x(c) = x0 + c_1 q_1 + ... + c_d q_d``
(``+`` is XOR; x0 one solution, q_i a basis of the quiet patterns).  At cell j the press
is ``x0_j + a_j . c``, where the *form* a_j in GF(2)^d collects the bits of q_1..q_d at j.
Grouping the N cells by form, with ``g[a]`` = (cells of form a pressed in x0) - (cells of
form a not pressed), the weight of every solution is

    w(c) = (N + S(c)) / 2,      S(c) = sum_a g[a] (-1)^(a . c),

and S is the Walsh-Hadamard transform of the sparse signed histogram g: all 2^d weights
cost O(d 2^d) additions, whatever the board's size.  The kernel (lightsout/_walsh.h)
never holds 2^d counters: the coordinates split as ``c = [task | lane | low]``; one task
fixes the top bits, puts the next 3-5 in the lanes of a SIMD vector (their signs come
from a small table, no transform work) and transforms the low m bits (m about 13, so a
task's counters stay in the L2 cache), folding the last levels straight into the minimum.
Memory is therefore a few hundred KiB per thread for any nullity (16-bit counters up to
32,766 cells, 32-bit ones beyond), far inside any per-task memory budget.
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

Distance tables (:func:`distance_distribution_gf2`, :func:`distance_distribution_mod` for
k states): every solvable start state is a coset of the quiet space, met exactly once by
the press vectors with no press on the pivot cells; the kernel walks those in a (modular)
Gray code and takes the minimum weight over the k^d quiet patterns of each, 32 cosets at
a time: k^cells / 32 vector steps, no table of states.
"""
from __future__ import annotations

import concurrent.futures
import contextlib
import math
import threading
import time
from dataclasses import dataclass
from collections.abc import Sequence
from typing import Callable, NamedTuple, Optional

import numpy as np
import numpy.typing as npt

from lightsout._base.errors import BoardTooLargeError, InternalError, InvalidBoardError, InvalidTypeError
from lightsout._base.types import Progress
from lightsout._base.validate import states_count, thread_count, time_limit_seconds
from lightsout._core.runner import CancelToken, Pace, default_threads, run_chunks
from lightsout._core.modring import rref_prime
from lightsout._core.rules import search_seconds
from lightsout._core.tasks import completed_tasks
from lightsout import _kernels as kernels
from lightsout._search.orbitcut import (MAX_TIE_ELEMENTS, OrbitCut, TaskOrbits, prepare_cut, representatives, smallest_image,
                                 task_minima)
from lightsout._search.prune import EXACT_BITS, components, pruned_search
from lightsout._search.symmetry import permutation_of

__all__ = ["CosetMinimum", "coset_min_weight", "coset_min_weight_mod", "distance_distribution_gf2",
           "distance_distribution_mod", "MAX_UNTIMED_NULLITY",
           "MAX_UNTIMED_SECONDS", "MAX_NULLITY", "MAX_MOD_ELEMENTS", "MAX_DISTANCE_LOG2"]

#: Without ``time_limit``, :func:`coset_min_weight` refuses a nullity above this (2^44
#: solutions: about 20 minutes on the two cores of the development machine).
MAX_UNTIMED_NULLITY = 44
#: Without ``time_limit`` and without an executor, it also refuses a search estimated to
#: take longer than this many seconds on the usable cores (see :func:`lightsout._core.rules.search_seconds`).
MAX_UNTIMED_SECONDS = 3600.0
#: Forms are 64-bit words: no search beyond this nullity, time limit or not.
MAX_NULLITY = 64
#: The distance tables walk k^cells press vectors (in blocks of 32); up to 2^this many
#: (2^40: the 3-state 5 x 5 board's 3^25 fits, about half a minute on two cores).
MAX_DISTANCE_LOG2 = 40

# A task's counters are kept to this many bytes (half the L2 cache of one core).
_TASK_BYTES = 1 << 19

_PROGRESS_STAGE = "fewest presses"


@dataclass(frozen=True, eq=False)  # holds an array: == would be ambiguous (and raises on Python 3.13)
class CosetMinimum:
    """The fewest-presses element of a coset ``particular + span(basis)``.

    Attributes:
        presses: ``(cells,)`` uint8 0/1, a minimum-weight element (see
            :func:`coset_min_weight` for which one).
        weight: its number of presses.
        proven: True when every element of the coset was examined, so ``weight``
            is the minimum; False when a time limit cut the search short (then
            ``presses`` is the best element found).
        coefficients: the c with ``presses = particular + sum_i c_i basis[i]``,
            bit i of the int being c_i.
    """

    presses: np.ndarray
    weight: int
    proven: bool
    coefficients: int


class _Problem(NamedTuple):
    """The search in the kernel's terms, ready to ship to a worker (a few arrays)."""

    forms: np.ndarray      # (E,) uint64: the distinct forms, c_1 at bit d-1
    values: np.ndarray     # (E,) int32: g at each form (nonzero)
    nullity: int           # d
    cells: int             # N
    bound: int             # S at c = 0 (the reduced particular): the minimum is <= it
    wide: bool             # 32-bit counters (N above the 16-bit range)
    orbits: Optional[TaskOrbits] = None  # the symmetric cut: run only the least task of each orbit


class _ReducedCoset(NamedTuple):
    """The coset in reduced form: rref rows, reduced particular, and the way back."""

    rows: np.ndarray       # (d, N) uint8: the basis in reduced row echelon form
    pivots: list[int]      # pivot cell of each row, increasing
    reduced: np.ndarray    # (N,) uint8: particular reduced to no press at any pivot
    offset: int            # rows added to particular to get `reduced` (bit i: row i)
    transform: list[int]   # rows[i] = sum of basis rows in the bits of transform[i]


def _zero_one(array: object, name: str, ndim: int) -> np.ndarray:
    """An (internal) 0/1 array of the given number of axes, as uint8."""
    if not isinstance(array, np.ndarray):
        raise InvalidTypeError(f"{name} must be a numpy array, got {type(array).__name__}")
    if array.ndim != ndim:
        raise InvalidBoardError(f"{name} must have {ndim} axes, got shape {array.shape}")
    if array.dtype != np.bool_ and not np.issubdtype(array.dtype, np.integer):
        raise InvalidTypeError(f"{name} must hold 0/1 integers or bools, got dtype {array.dtype}")
    values = np.ascontiguousarray(array, dtype=np.uint8) if array.dtype == np.bool_ else array
    if values.size and (values.min() < 0 or values.max() > 1):
        raise InvalidBoardError(f"{name} must hold only 0 and 1")
    return np.ascontiguousarray(values, dtype=np.uint8)


def _reduce_coset(particular: np.ndarray, basis: np.ndarray) -> _ReducedCoset:
    """Bring the basis to reduced row echelon form (leftmost pivots) and reduce particular.

    Rows are packed into bytes for the row operations; d <= 64 pivot steps.
    """
    d, n = basis.shape
    packed = [np.packbits(basis[i], bitorder="little") for i in range(d)]
    trans = [1 << i for i in range(d)]
    rows: list[np.ndarray] = []
    row_trans: list[int] = []
    pivots: list[int] = []
    remaining = list(range(d))
    while remaining:
        leads = []
        for i in remaining:
            nz = np.flatnonzero(packed[i])
            if nz.size == 0:
                raise InvalidBoardError("basis rows must be linearly independent over GF(2)")
            byte = int(nz[0])
            leads.append(8 * byte + (int(packed[i][byte]) & -int(packed[i][byte])).bit_length() - 1)
        k = int(np.argmin(leads))
        pivot, i = leads[k], remaining.pop(k)
        byte, bit = divmod(pivot, 8)
        for j in remaining:
            if packed[j][byte] >> bit & 1:
                packed[j] ^= packed[i]
                trans[j] ^= trans[i]
        for r, row in enumerate(rows):
            if row[byte] >> bit & 1:
                row ^= packed[i]
                row_trans[r] ^= trans[i]
        rows.append(packed[i])
        row_trans.append(trans[i])
        pivots.append(pivot)
    reduced = particular.copy()
    offset = 0
    unpacked = (np.unpackbits(np.array(rows), axis=1, count=n, bitorder="little") if d
                else np.zeros((0, n), dtype=np.uint8))
    for r, p in enumerate(pivots):
        if reduced[p]:
            reduced ^= unpacked[r]
            offset |= 1 << r
    return _ReducedCoset(unpacked, pivots, reduced, offset, row_trans)


def _problem(coset: _ReducedCoset) -> _Problem:
    """The sparse signed histogram of the cells by form."""
    return _histogram(coset.rows, coset.reduced)


def _histogram(rows: np.ndarray, reduced: np.ndarray, orbits: Optional[TaskOrbits] = None) -> _Problem:
    """The search problem of the coset ``reduced + span(rows)`` in the basis ``rows``."""
    d, n = rows.shape
    forms = np.zeros(n, dtype=np.uint64)
    for i in range(d):
        forms |= rows[i].astype(np.uint64) << np.uint64(d - 1 - i)
    signs = np.where(reduced == 1, 1, -1).astype(np.int64)
    distinct, inverse = np.unique(forms, return_inverse=True)
    values = np.bincount(inverse.ravel(), weights=signs, minlength=distinct.size).astype(np.int64)
    keep = values != 0
    return _Problem(np.ascontiguousarray(distinct[keep]), values[keep].astype(np.int32), d, n,
                    int(signs.sum()), n > kernels.walsh.MAX_SUM16, orbits)


def _layout(problem: _Problem, split_bits: int) -> tuple[int, int, int]:
    """(lane bits, array bits m, task bits t) for this build, with t >= split_bits.

    m is the smallest size whose transform outweighs the scatter of the entries
    (2^m about twice the number of entries), capped so a task fits _TASK_BYTES.
    """
    d = problem.nullity
    module = kernels.walsh
    lane_max = module.LANE_BITS32 if problem.wide else module.LANE_BITS16
    lanes = min(lane_max, d - split_bits)
    cap = max(0, int(math.log2(_TASK_BYTES // module.VEC_BYTES)))
    want = max(6, int(math.ceil(math.log2(len(problem.forms) + 1))) + 1)
    m = max(0, min(d - split_bits - lanes, cap, want))
    return lanes, m, d - lanes - m


#: Tasks that tie for the minimum that the symmetric search keeps for its tie rule; beyond
#: this many it finds the lexicographically first minimum by an ordered scan instead.
MAX_TIE_TASKS = 256


class _Best:
    """The smallest (sum, index) seen, and (symmetric search) the tasks that reach it; thread-safe."""

    def __init__(self, bound: int) -> None:
        self.sum = bound
        self.index = 0          # c = 0 is the reduced particular: its sum is the bound
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


class _JobResult(NamedTuple):
    """What one executor job returns: whether all its tasks ran, its best (sum, c), and
    (symmetric search) the tasks that reach that sum."""

    complete: bool
    found: bool
    sum: int
    coordinate: int
    ties: tuple[int, ...] = ()
    ties_overflow: bool = False
    resume: Optional[int] = None   # where the job stopped when its time was up (None: it finished)


Report = Callable[[bool, int, int, int, Sequence[int]], None]


def _run_tasks(problem: _Problem, layout: tuple[int, int, int], start: int, stop: int,
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


#: Seconds of work one executor job does before it returns what it found and where it
#: stopped; the caller submits the rest as a new job.  Short jobs are what lets Ctrl-C (and
#: a time limit) end the search soon on any executor: a job already dispatched to a worker
#: cannot be cancelled, but it ends within this time.
JOB_SECONDS = 0.25


def _search_job(problem: _Problem, split_bits: int, job: int, deadline: Optional[float],
                resume: Optional[int] = None) -> _JobResult:
    """One executor job: the tasks whose top ``split_bits`` coordinates equal ``job``,
    from task ``resume`` on (default: the first), for about :data:`JOB_SECONDS`.

    Runs on the worker with the worker's own SIMD build; stops between kernel calls once
    the wall clock (``time.time()``) passes ``deadline`` or the job's time is up, and then
    says where to resume.  Idempotent: a job that is run again (say after its worker
    died) returns the same answer.
    """
    layout = _layout(problem, split_bits)
    per_job = 1 << (layout[2] - split_bits)
    stop = (job + 1) * per_job
    first = job * per_job if resume is None else resume
    best = _Best(problem.bound)
    found_any = [False]
    reached = [first]
    quit_at = time.time() + JOB_SECONDS
    if deadline is not None:
        quit_at = min(quit_at, deadline)

    def report(found: bool, total: int, index: int, count: int, ties: Sequence[int]) -> None:
        reached[0] += count
        if found:
            found_any[0] = True
            best.offer(found, total, index, ties)

    complete = _run_tasks(problem, layout, first, stop, lambda: time.time() >= quit_at, report, Pace())
    return _JobResult(complete, found_any[0], best.sum, best.index, tuple(best.ties), best.ties_overflow,
                      None if complete else reached[0])


def _search_local(problem: _Problem, split_bits: int, token: CancelToken, progress: Progress,
                  threads: int) -> tuple[bool, _Best]:
    """All tasks in this process, in chunks over ``threads`` threads
    (:func:`lightsout._core.runner.run_chunks`): Ctrl-C, an error or the token's deadline
    stop every thread at its next kernel call."""
    layout = _layout(problem, split_bits)
    total_tasks = 1 << layout[2]
    best = _Best(problem.bound)
    block = max(1, total_tasks // (16 * max(1, min(threads, total_tasks))))  # tasks handed out at a time
    paces = threading.local()

    def report(found: bool, total: int, index: int, _count: int, ties: Sequence[int]) -> None:
        best.offer(found, total, index, ties)

    def chunk(number: int, token: CancelToken) -> bool:
        pace = getattr(paces, "pace", None)
        if pace is None:
            pace = paces.pace = Pace()
        start = number * block
        return _run_tasks(problem, layout, start, min(total_tasks, start + block), token.expired, report, pace)

    complete = run_chunks(chunk, -(-total_tasks // block), threads=threads, token=token, progress=progress,
                          stage=_PROGRESS_STAGE)
    return complete, best


def _default_split(problem: _Problem, group_order: int = 1) -> int:
    """Jobs for an executor: one for a small search, else about a second of work each
    (at least 16, at most 2^16), never finer than the coordinates allow.  The symmetric
    cut runs one task in about ``group_order``, so its jobs cover that many more."""
    seconds = search_seconds(problem.nullity, len(problem.forms)) / group_order
    if seconds < 0.5:
        return 0
    jobs = min(1 << 16, max(16, 1 << int(math.ceil(math.log2(seconds)))))
    return min(int(math.log2(jobs)), max(0, problem.nullity - 5), _layout(problem, 0)[2])


def _search_executor(problem: _Problem, executor: concurrent.futures.Executor, split_bits: int,
                     token: CancelToken, progress: Progress) -> tuple[bool, _Best]:
    """Every job submitted to ``executor``; waits for them (or for the token's deadline).

    A job works for about :data:`JOB_SECONDS` and says where it stopped; the rest is
    submitted again as a new job, so on Ctrl-C (or past the deadline) the jobs already
    dispatched end within that time and leaving an executor's ``with`` block does not wait
    for a long search.  A job whose future fails with anything but one of lightsout's own
    errors (a killed worker, a result lost with its worker, a broken pool) is submitted
    again (:func:`lightsout._core.tasks.completed_tasks`): jobs are idempotent, and the
    search still covers every coset element, so a proven answer stays proven.
    """
    deadline = token.wall_deadline()
    jobs = 1 << split_bits
    best = _Best(problem.bound)
    complete = True
    finished = 0
    arguments = [(problem, split_bits, job, deadline) for job in range(jobs)]

    def rest(index: int, result: _JobResult) -> Optional[tuple[object, ...]]:
        if result.resume is None or token.expired():
            return None
        return (problem, split_bits, index, deadline, result.resume)

    with contextlib.closing(completed_tasks(executor, _search_job, arguments, deadline=deadline,
                                            follow=rest)) as results:
        for _, result in results:
            best.offer(result.found, result.sum, result.coordinate, result.ties, result.ties_overflow)
            if result.resume is not None:
                if token.expired():
                    complete = False
                continue
            complete &= result.complete
            finished += 1
            if progress is not None:
                progress(_PROGRESS_STAGE, finished, jobs)
    return complete and finished == jobs, best


def _check_limits(problem: _Problem, deadline: Optional[float], executor: object, threads: int,
                  group_order: int, exact: bool = False) -> None:
    """Refuse a search beyond the limits; the symmetric cut divides the work by ``group_order``;
    ``exact``: the branch and bound's bounds are exact (:func:`_splits`), so it weighs about one
    task whatever the nullity."""
    d = problem.nullity
    if d > MAX_NULLITY:
        raise BoardTooLargeError(f"the fewest-presses search handles nullity up to {MAX_NULLITY}; "
                                 f"this coset has nullity {d}")
    if deadline is not None or exact:
        return
    seconds = search_seconds(d, len(problem.forms)) / group_order
    if d - math.log2(group_order) > MAX_UNTIMED_NULLITY:
        raise BoardTooLargeError(
            f"the fewest presses over a nullity-{d} coset (2^{d} solutions) would take about "
            f"{seconds / 3600:.3g} core-hours; without time_limit the search is limited to nullity "
            f"{MAX_UNTIMED_NULLITY} (lightsout._search.minweight.MAX_UNTIMED_NULLITY; a symmetry group of order 2^j "
            f"adds j): pass time_limit= (seconds) "
            f"to get the best found in that time")
    if executor is None and seconds / threads > MAX_UNTIMED_SECONDS:
        raise BoardTooLargeError(
            f"the fewest presses over a nullity-{d} coset with {len(problem.forms)} cell forms would take "
            f"about {seconds / threads / 3600:.3g} hours on {threads} core(s), more than the "
            f"{MAX_UNTIMED_SECONDS / 3600:g}-hour limit (lightsout._search.minweight.MAX_UNTIMED_SECONDS); pass "
            f"time_limit= or an executor=")


def coset_min_weight(particular: np.ndarray, basis: np.ndarray, *, time_limit: Optional[float] = None,
                     executor: Optional[concurrent.futures.Executor] = None, split_bits: Optional[int] = None,
                     progress: Progress = None, threads: Optional[int] = None,
                     symmetry: Optional[Sequence[npt.ArrayLike]] = None,
                     prune: Optional[bool] = None, token: Optional[CancelToken] = None) -> CosetMinimum:
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

    Returns:
        A :class:`CosetMinimum`.

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
        >>> best.weight, best.proven
        (15, True)
        >>> best.presses.reshape(5, 5).tolist()[0]
        [0, 0, 0, 1, 1]
    """
    particular = _zero_one(particular, "particular", 1)
    basis = _zero_one(basis, "basis", 2)
    if basis.shape[1] != particular.shape[0]:
        raise InvalidBoardError(f"basis rows have {basis.shape[1]} cells, particular has {particular.shape[0]}")
    time_limit = time_limit_seconds(time_limit)
    token = (CancelToken() if token is None else token).within(time_limit)
    d = basis.shape[0]
    if d > MAX_NULLITY:
        raise BoardTooLargeError(f"the fewest-presses search handles nullity up to {MAX_NULLITY}; "
                                 f"this coset has nullity {d}")
    nthreads = thread_count(threads) or default_threads()
    images = None if symmetry is None else _permutations(symmetry, particular.shape[0])
    _check_prune(prune, images, executor)
    coset = _reduce_coset(particular, basis)
    if d == 0:
        return _result(coset, particular, 0, True)
    plain = problem = _problem(coset)
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
            problem = _histogram(cut.rows, coset.reduced, cut.orbits)
        else:
            cut = None
    if split_bits is None and executor is not None:
        split = _default_split(problem, 1 if cut is None else cut.order)
    splits = prune is not False and images is None and executor is None and _splits(problem)
    if prune is None:
        prune = splits and _layout(problem, 0)[2] > 0
    _check_limits(problem, token.deadline, executor, nthreads, 1 if cut is None else cut.order,
                  bool(prune) and splits)
    if prune:
        complete, total, index, _ = pruned_search(problem.forms, problem.values, d, problem.bound, problem.wide,
                                                  _layout(problem, 0), token, progress, nthreads)
        return _checked_result(coset, particular, index, complete, total)
    if executor is not None:
        complete, best = _search_executor(problem, executor, split, token, progress)
    else:
        complete, best = _search_local(problem, split, token, progress, nthreads)
    index = best.index if cut is None else _first_tie(cut, problem, plain, best, token.expired)
    return _checked_result(coset, particular, index, complete, best.sum)


def _check_prune(prune: object, images: object, executor: object) -> None:
    """``prune=`` checked, before any work: None, or a bool that ``symmetry=`` and ``executor=`` allow."""
    if prune is not None and not isinstance(prune, (bool, np.bool_)):
        raise InvalidTypeError(f"prune must be None, True or False, got {type(prune).__name__}")
    if prune and (images is not None or executor is not None):
        raise InvalidBoardError("prune=True runs the branch and bound in this process: it cannot be combined with "
                                "symmetry= or executor= (pass prune=False or leave them out)")


def _splits(problem: _Problem) -> bool:
    """Whether the forms split the coordinates into independent parts of at most
    :data:`~lightsout._search.prune.EXACT_BITS` each (every bound of the branch and bound is then exact)."""
    parts = components(problem.forms, problem.nullity, problem.nullity)
    return len(parts) > 1 and max(bin(part).count("1") for part in parts) <= EXACT_BITS


def _checked_result(coset: _ReducedCoset, particular: np.ndarray, index: int, complete: bool, total: int) -> CosetMinimum:
    """The element at ``index``; its weight checked against the search's sum when complete."""
    result = _result(coset, particular, index, complete)
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


def _cut(images: list[np.ndarray], coset: _ReducedCoset, problem: _Problem, split: int,
         token: CancelToken) -> Optional[OrbitCut]:
    """The symmetric cut by the checked permutations, with tasks as the layout makes them;
    None when the token's deadline came first (the search then runs without the cut)."""
    lanes, m, _ = _layout(problem, split)
    return prepare_cut(images, coset.rows, coset.pivots, coset.reduced, lanes + m, expired=token.expired)



def _first_tie(cut: OrbitCut, problem: _Problem, plain: _Problem, best: _Best, expired: Callable[[], bool]) -> int:
    """The reduced coordinate of the lexicographically first element of sum ``best.sum``
    (lightsout/_search/orbitcut.py, point 3): the smallest image of the minima of the tasks that
    tie; an ordered scan of the plain search (``plain``) when there are too many of them."""
    if best.ties and not best.ties_overflow:
        found = [task_minima(problem.forms, problem.values, cut.low_bits, task, best.sum) for task in best.ties]
        if sum(part.size for part in found) * cut.order <= MAX_TIE_ELEMENTS:
            return smallest_image(cut, np.concatenate(found))
    if best.ties or best.ties_overflow:
        first = _ordered_scan(plain, best.sum, expired)
        if first is not None:
            return first
    return smallest_image(cut, np.array([best.index], dtype=np.uint64))


def _ordered_scan(problem: _Problem, target: int, expired: Callable[[], bool]) -> Optional[int]:
    """The smallest coordinate whose sum is at most ``target``: tasks in increasing order,
    stopping at the first call that finds one (None if the time ran out first)."""
    layout = _layout(problem, 0)
    first: list[int] = []

    def report(found: bool, _total: int, index: int, _count: int, _ties: Sequence[int]) -> None:
        if found and not first:
            first.append(index)

    _run_tasks(problem._replace(bound=target), layout, 0, 1 << layout[2], lambda: bool(first) or expired(), report,
               Pace())
    return first[0] if first else None


def _result(coset: _ReducedCoset, particular: np.ndarray, index: int, proven: bool) -> CosetMinimum:
    """The element at search coordinate ``index`` (c_1 at bit d-1), with its coefficients."""
    d = len(coset.pivots)
    presses = coset.reduced.copy()
    chosen = coset.offset
    for i in range(d):
        if index >> (d - 1 - i) & 1:
            presses ^= coset.rows[i]
            chosen ^= 1 << i
    coefficients = 0
    for i in range(d):
        if chosen >> i & 1:
            coefficients ^= coset.transform[i]
    return CosetMinimum(presses, int(presses.sum()), proven, coefficients)


#: :func:`coset_min_weight_mod` enumerates the coset; up to this many elements.
MAX_MOD_ELEMENTS = 1 << 22


def coset_min_weight_mod(particular: npt.ArrayLike, generators: npt.ArrayLike, modulus: int) -> CosetMinimum:
    """The fewest presses over Z/k, presses counted with multiplicity, by enumeration.

    The coset is ``particular + span(generators)`` over Z/k (any k from 2 to 255; for
    composite k the generators may have different orders, as in a Howell form), and
    the weight of an element is the sum of its values 0..k-1.  Every element is
    written out, so the span may have at most :data:`MAX_MOD_ELEMENTS` elements.

    Returns:
        A :class:`CosetMinimum` (always proven) with the lexicographically smallest
        element of minimum weight (cell 0 most significant); ``coefficients`` is 0
        (combinations over Z/k are not unique in general).

    Raises:
        BoardTooLargeError: a span with more than MAX_MOD_ELEMENTS elements.

    Example:
        >>> import numpy as np       # 1 x 2 board, 3 states: quiet pattern (1, 2)
        >>> best = coset_min_weight_mod(np.array([2, 2]), np.array([[1, 2]]), 3)
        >>> best.presses.tolist(), best.weight        # (2, 2), (0, 1), (1, 0): a tie, (0, 1) first
        ([0, 1], 1)
    """
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
    cells = x0.shape[0]
    too_many = BoardTooLargeError(f"the coset over Z/{k} has more than {MAX_MOD_ELEMENTS} elements "
                                  f"(lightsout._search.minweight.MAX_MOD_ELEMENTS); too many to enumerate")
    span = np.zeros((1, cells), dtype=np.uint8)
    if _is_prime(k):
        basis, _ = rref_prime(gens.astype(np.int64), k)
        if k ** len(basis) > MAX_MOD_ELEMENTS:
            raise too_many
        for row in basis:
            span = np.concatenate([((span.astype(np.int64) + t * row) % k).astype(np.uint8) for t in range(k)])
    else:
        for g in gens.astype(np.int64):
            if cells == 0 or not g.any():
                continue
            if span.shape[0] * k > 4 * MAX_MOD_ELEMENTS:
                raise too_many
            grown = np.concatenate([((span.astype(np.int64) + t * g) % k).astype(np.uint8) for t in range(k)])
            keys = np.ascontiguousarray(grown).view(np.dtype((np.void, cells)))[:, 0]
            _, first = np.unique(keys, return_index=True)
            span = grown[np.sort(first)]
            if span.shape[0] > MAX_MOD_ELEMENTS:
                raise too_many
    elements = (span.astype(np.int64) + x0.astype(np.int64)) % k
    weights = elements.sum(axis=1)
    best = elements[weights == weights.min()]
    order = np.lexsort(best.T[::-1]) if cells else np.zeros(1, dtype=np.int64)
    presses = best[order[0]].astype(np.uint8)
    return CosetMinimum(presses, int(presses.astype(np.int64).sum()), True, 0)


# ---------------------------------------------------------------------------------------
# Distance tables


def distance_distribution_gf2(quiet: npt.ArrayLike, *, threads: Optional[int] = None,
                              progress: Progress = None) -> npt.NDArray[np.int64]:
    """How many solvable start states need exactly j presses, j = 0, 1, ..., max (two states).

    A board's press-effect matrix A (cells x cells, symmetric) enters only through its
    quiet patterns (the kernel of A): the solvable states are the cosets of that
    kernel, and a state's fewest presses is its coset's minimum weight.  This is
    :func:`distance_distribution_mod` with modulus 2.

    Args:
        quiet: ``(d, cells)`` 0/1, a basis (or any generating rows) of the quiet
            patterns.
        threads: threads to use (default: every usable core).
        progress: ``progress(stage, done, total)`` between chunks.

    Returns:
        int64 counts, entry j = number of solvable states whose fewest presses is j;
        they sum to 2^(cells - rank).

    Raises:
        BoardTooLargeError: more than 2^MAX_DISTANCE_LOG2 press vectors to walk.

    Example:
        >>> import numpy as np
        >>> import lightsout
        >>> q = lightsout.solve(np.ones((5, 5), bool)).quiet_patterns().reshape(2, 25)
        >>> table = distance_distribution_gf2(q)
        >>> table.tolist()[:6], len(table) - 1, int(table.sum())
        ([1, 25, 300, 2300, 12650, 53130], 15, 8388608)
    """
    return distance_distribution_mod(quiet, 2, threads=threads, progress=progress)


def distance_distribution_mod(quiet: npt.ArrayLike, modulus: int, *, threads: Optional[int] = None,
                              progress: Progress = None) -> npt.NDArray[np.int64]:
    """The distance table of a k-state board (k prime): presses counted with multiplicity.

    A press adds 1 mod k to its cells; pressing a cell t times costs t presses, so the
    fewest presses of a state is the minimum of ``sum(x)`` (values 0..k-1) over its
    solutions x, a coset of the quiet patterns over GF(k).  Each coset is met once by
    the press vectors with no press on the pivot cells of the quiet basis (in reduced
    row echelon form); the kernel walks those in a modular Gray code and, for blocks
    of 32 at once, takes the minimum over the k^d quiet patterns (lightsout/_walsh.pyx).

    Args:
        quiet: ``(d, cells)`` values in 0..k-1, generating rows of the quiet patterns
            over GF(k) (dependent rows are dropped).
        modulus: k, a prime (2, 3, 5, 7, ...).
        threads, progress: as for :func:`distance_distribution_gf2`.

    Returns:
        int64 counts, entry j = number of solvable states whose fewest presses is j;
        they sum to k^(cells - rank).

    Raises:
        BoardTooLargeError: more than 2^MAX_DISTANCE_LOG2 press vectors (k^cells) to walk.
        InvalidBoardError: a modulus that is not a prime, values out of range.

    Example:
        >>> import numpy as np                     # a 1 x 2 board with 3 states: A = [[1, 1], [1, 1]]
        >>> distance_distribution_mod(np.array([[1, 2]]), 3).tolist()    # states (s, s): 0, 1 or 2 presses
        [1, 1, 1]
    """
    k = states_count(modulus, "modulus")
    if not _is_prime(k):
        raise InvalidBoardError(f"distance tables need a prime modulus (a field), got {k}")
    rows = np.asarray(quiet)
    if rows.ndim != 2:
        raise InvalidBoardError(f"quiet must be 2-D (patterns, cells), got shape {rows.shape}")
    if rows.dtype != np.bool_ and not np.issubdtype(rows.dtype, np.integer):
        raise InvalidTypeError(f"quiet must hold integers, got dtype {rows.dtype}")
    if rows.size and (rows.min() < 0 or rows.max() >= k):
        raise InvalidBoardError(f"quiet must hold values in 0..{k - 1}")
    rows = rows.astype(np.int64)
    cells = rows.shape[1]
    if cells * math.log2(k) > MAX_DISTANCE_LOG2 + 1e-9:
        raise BoardTooLargeError(
            f"a distance table walks k^cells = {k}^{cells} press vectors; the limit is 2^{MAX_DISTANCE_LOG2} "
            f"(lightsout._search.minweight.MAX_DISTANCE_LOG2): {cells} cells is too many for {k} states")
    basis, pivots = rref_prime(rows, k)
    d = len(pivots)
    span = np.zeros((1, cells), dtype=np.int64)
    for row in basis:
        span = np.concatenate([(span + t * row) % k for t in range(k)])
    nk = span.shape[0]
    pivot_set = set(pivots)
    free = [j for j in range(cells) if j not in pivot_set]
    r = 0
    while r < len(free) and k ** (r + 1) <= 1024:
        r += 1
    outer, inner_cells = free[: len(free) - r], free[len(free) - r:]
    digits = np.zeros((k ** r, r), dtype=np.int64)
    for j in range(r):
        digits[:, j] = (np.arange(k ** r) // k ** j) % k
    inner_w = ((digits[None, :, :] + span[:, None, inner_cells]) % k).sum(axis=2)     # (nk, k^r)
    lanes = -(-(k ** r) // 32) * 32
    inner = np.zeros((nk, lanes), dtype=np.int16)
    inner[:, : k ** r] = inner_w
    g = np.arange(k)[None, :, None]
    outer_vals = span[:, outer].T[:, None, :]                                          # (fout, 1, nk)
    delta = (((g + 1 + outer_vals) % k) - ((g + outer_vals) % k)).astype(np.int16)      # (fout, k, nk)
    # weights of the pivot and outer cells when every free value is 0 (the Gray code's start)
    base = span[:, pivots + outer].sum(axis=1).astype(np.int16)
    ncounts = cells * (k - 1) + 1
    total = k ** len(outer)
    module = kernels.walsh
    nthreads = thread_count(threads) or default_threads()
    # chunks of about 2^22 lane-minimums (a few milliseconds): Ctrl-C and progress between them
    per_chunk = max(1, (1 << 22) // (lanes * max(1, nk // 8)))
    chunks = -(-total // per_chunk)
    counts = np.zeros(ncounts, dtype=np.int64)
    lock = threading.Lock()

    def chunk(number: int, _token: CancelToken) -> None:
        part = module.coset_leader_counts(inner, delta, base, k, k ** r, number * per_chunk,
                                          min(total, (number + 1) * per_chunk), ncounts)
        with lock:
            counts[:] += part

    run_chunks(chunk, chunks, threads=nthreads, progress=progress, stage="distance table")
    assert int(counts.sum()) == k ** (cells - d)
    last = int(np.flatnonzero(counts).max())
    return counts[: last + 1].copy()


def _is_prime(k: int) -> bool:
    return k >= 2 and all(k % q for q in range(2, int(math.isqrt(k)) + 1))
