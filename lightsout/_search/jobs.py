"""The fewest-presses search on any ``concurrent.futures.Executor``: short, idempotent jobs.

The tasks are grouped by their top ``split_bits`` coordinates into jobs (:func:`default_split`:
about a second of work each); a job is a top-level function of small arguments (the sparse
histogram), runs about :data:`JOB_SECONDS` and says where it stopped, and the rest is
submitted as a new job (:func:`search_executor`), so Ctrl-C and time limits end the search
soon on a process pool or a Dask cluster.  A job whose worker is lost is run again; with a
checkpoint (lightsout/_search/checkpoint.py) the driver writes how far every job got, and a new
driver resumes from it.
"""
from __future__ import annotations

import concurrent.futures
import contextlib
import itertools
import math
import time
from collections.abc import Sequence
from typing import ContextManager, NamedTuple, Optional

from lightsout._base.types import Progress
from lightsout._core.runner import CancelToken, Pace
from lightsout._core.tasks import DEADLINE_GRACE, completed_tasks
from lightsout._base.errors import CheckpointError
from lightsout._search.checkpoint import Checkpoint, SearchState
from lightsout._search.cosetform import SearchProblem, task_layout
from lightsout._search.cost import search_seconds
from lightsout._search.frontier import Frontier, weight_bound
from lightsout._search.tasksearch import PROGRESS_STAGE, Best, run_task_range

__all__ = ["JOB_SECONDS", "JOBS_IN_FLIGHT", "JobResult", "default_split", "jobs_in_flight", "local_jobs", "search_executor", "search_job"]


class JobResult(NamedTuple):
    """What one executor job returns: whether all its tasks ran, its best (sum, c), and
    (symmetric search) the tasks that reach that sum."""

    complete: bool
    found: bool
    sum: int
    coordinate: int
    ties: tuple[int, ...] = ()
    ties_overflow: bool = False
    resume: Optional[int] = None   # where the job stopped when its time was up (None: it finished)
    job: int = -1                  # which job this is


#: Seconds of work one executor job does before it returns what it found and where it
#: stopped; the caller submits the rest as a new job.  Short jobs are what lets Ctrl-C (and
#: a time limit) end the search soon on any executor: a job already dispatched to a worker
#: cannot be cancelled, but it ends within this time.
JOB_SECONDS = 0.25

#: The most jobs the driver keeps submitted at a time (:func:`jobs_in_flight`: four a worker thread
#: where the executor says how many it has); a job that finishes makes room for the next, in order.
#: Submitting all of a search's up to 2^16 jobs at once would ship the problem 2^16 times before
#: the first result, share the workers out over every job at once (no job, and no node of the
#: lower bound, would finish before the end) and, past a time limit, leave thousands of jobs to
#: drain or cancel.
JOBS_IN_FLIGHT = 256


def jobs_in_flight(executor: concurrent.futures.Executor) -> int:
    """Jobs to keep submitted to ``executor``: four a worker thread where it says how many it has
    (``concurrent.futures``' pools; a Dask client's executor: the cluster's threads now), at most
    :data:`JOBS_IN_FLIGHT`, and :data:`JOBS_IN_FLIGHT` where it does not say.

    Example:
        >>> with concurrent.futures.ThreadPoolExecutor(2) as pool:
        ...     jobs_in_flight(pool)
        8
    """
    workers = getattr(executor, "_max_workers", None)
    client = getattr(executor, "_client", None)
    if workers is None and client is not None:
        try:
            workers = sum(client.nthreads().values())
        except Exception:           # noqa: BLE001 - any client that cannot say: the default
            workers = None
    if not isinstance(workers, int) or isinstance(workers, bool) or workers < 1:
        return JOBS_IN_FLIGHT
    return min(JOBS_IN_FLIGHT, 4 * workers)


def search_job(problem: SearchProblem, split_bits: int, job: int, deadline: Optional[float],
                resume: Optional[int] = None) -> JobResult:
    """One executor job: the tasks whose top ``split_bits`` coordinates equal ``job``,
    from task ``resume`` on (default: the first), for about :data:`JOB_SECONDS`.

    Runs on the worker with the worker's own SIMD build; stops between kernel calls once
    the wall clock (``time.time()``) passes ``deadline`` or the job's time is up, and then
    says where to resume.  Idempotent: a job that is run again (say after its worker
    died) returns the same answer.

    Example:
        >>> import numpy as np
        >>> from lightsout._search.cosetform import reduce_coset, search_problem
        >>> problem = search_problem(reduce_coset(np.ones(4, np.uint8), np.eye(4, dtype=np.uint8)))
        >>> job = search_job(problem, 0, 0, None)
        >>> job.complete, job.resume, (problem.cells + job.sum) // 2     # every press can be undone
        (True, None, 0)
    """
    layout = task_layout(problem, split_bits)
    per_job = 1 << (layout[2] - split_bits)
    stop = (job + 1) * per_job
    first = job * per_job if resume is None else resume
    best = Best(problem.bound, problem.start)
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

    complete = run_task_range(problem, layout, first, stop, lambda: time.time() >= quit_at, report, Pace())
    return JobResult(complete, found_any[0], best.sum, best.index, tuple(best.ties), best.ties_overflow,
                      None if complete else reached[0], job)


def default_split(problem: SearchProblem, group_order: int = 1) -> int:
    """Jobs for an executor: one for a small search, else about a second of work each
    (at least 16, at most 2^16), never finer than the coordinates allow.  The symmetric
    cut runs one task in about ``group_order``, so its jobs cover that many more."""
    seconds = search_seconds(problem.nullity, len(problem.forms)) / group_order
    if seconds < 0.5:
        return 0
    jobs = min(1 << 16, max(16, 1 << int(math.ceil(math.log2(seconds)))))
    return min(int(math.log2(jobs)), max(0, problem.nullity - 5), task_layout(problem, 0)[2])


def local_jobs(executor: Optional[concurrent.futures.Executor], threads: int) -> ContextManager[concurrent.futures.Executor]:
    """``executor``, or (None) a pool of ``threads`` threads of this process, closed on leaving the block:
    a checkpointed search runs its jobs there (the kernel releases the GIL).

    Example:
        >>> with local_jobs(None, 2) as pool:
        ...     pool.submit(pow, 2, 5).result()
        32
    """
    if executor is not None:
        return contextlib.nullcontext(executor)
    return concurrent.futures.ThreadPoolExecutor(max(1, threads), thread_name_prefix="lightsout-job")


def search_executor(problem: SearchProblem, executor: concurrent.futures.Executor, split_bits: int,
                     token: CancelToken, progress: Progress, frontier: Optional[Frontier] = None,
                     best: Optional[Best] = None, checkpoint: Optional[Checkpoint] = None) -> tuple[bool, Best]:
    """Every job submitted to ``executor``; waits for them (or for the token's deadline).

    A job works for about :data:`JOB_SECONDS` and says where it stopped; the rest is
    submitted again as a new job, so on Ctrl-C (or past the deadline) the jobs already
    dispatched end within that time and leaving an executor's ``with`` block does not wait
    for a long search.  At most :func:`jobs_in_flight` jobs are submitted at a time, in
    order; past the deadline (and its grace) the driver stops waiting for them.  A job whose future fails with anything but one of lightsout's own
    errors (a killed worker such as Dask's ``KilledWorker``, a result lost with its worker,
    a cancelled future) is submitted again from where it last stopped, up to
    :data:`lightsout._core.tasks.TASK_RETRIES` times in a row
    (:func:`lightsout._core.tasks.completed_tasks`): jobs are idempotent, and the
    search still covers every coset element, so a proven answer stays proven.
    ``frontier`` is told of every range of tasks a job finished (lightsout/_search/frontier.py);
    ``best``: where the best found is kept (default: a new :class:`Best`).
    ``checkpoint`` (lightsout/_search/checkpoint.py): the state an earlier run of this search
    left there is resumed (only the tasks not yet run are submitted), and the state is
    written there every :data:`~lightsout._search.checkpoint.CHECKPOINT_SECONDS` and when
    the search stops, whatever stops it.
    """
    deadline = token.wall_deadline()
    jobs = 1 << split_bits
    per_job = 1 << (task_layout(problem, split_bits)[2] - split_bits)
    best = Best(problem.bound, problem.start) if best is None else best
    state = _resumed(checkpoint, jobs, per_job, best, frontier)
    began, seconds_before = time.monotonic(), state.seconds
    complete = True
    todo = (job for job in range(jobs) if job not in state.done)

    def job_arguments(job: int) -> tuple[object, ...]:
        return (problem, split_bits, job, deadline, state.reached.get(job))

    arguments = [job_arguments(job) for job in itertools.islice(todo, jobs_in_flight(executor))]

    def rest(_slot: int, result: JobResult) -> Optional[tuple[object, ...]]:
        """What the slot of a job that returned runs next: the job's rest, else the next job."""
        if token.expired():
            return None
        if result.resume is not None:
            return (problem, split_bits, result.job, deadline, result.resume)
        following = next(todo, None)
        return None if following is None else job_arguments(following)

    def save() -> None:
        if checkpoint is None:
            return
        state.best_sum, state.best_index = best.sum, best.index
        state.ties, state.ties_overflow = list(best.ties), best.ties_overflow
        state.presses = (problem.cells + best.sum) // 2
        if frontier is not None:
            state.lower_sum = frontier.lower(best.sum)
            state.lower_bound = min(weight_bound(problem.cells, state.lower_sum), state.presses)
        state.seconds = seconds_before + time.monotonic() - began
        state.complete = len(state.done) == jobs
        checkpoint.save(state)

    try:
        with contextlib.closing(completed_tasks(executor, search_job, arguments, deadline=deadline,
                                                follow=rest)) as results:
            for _slot, result in results:
                job = result.job
                best.offer(result.found, result.sum, result.coordinate, result.ties, result.ties_overflow)
                first = state.reached.get(job, job * per_job)
                if result.resume is not None:
                    state.reached[job] = result.resume
                    if token.expired():
                        complete = False
                else:
                    state.reached.pop(job, None)
                    state.done.add(job)
                if frontier is not None:
                    frontier.finish(first, (job + 1) * per_job if result.resume is None else result.resume)
                if result.resume is None and progress is not None:
                    progress(PROGRESS_STAGE, len(state.done), jobs)
                if checkpoint is not None and checkpoint.due():
                    save()
                if deadline is not None and time.time() > deadline + DEADLINE_GRACE:
                    complete = False      # the jobs still out end on the deadline: stop waiting for them
                    break
    finally:
        save()
    return complete and len(state.done) == jobs, best


def _resumed(checkpoint: Optional[Checkpoint], jobs: int, per_job: int, best: Best,
             frontier: Optional[Frontier]) -> SearchState:
    """The state a checkpoint holds (a fresh one without), merged into ``best`` and ``frontier``."""
    state = None if checkpoint is None else checkpoint.load()
    if state is None:
        return SearchState()
    assert checkpoint is not None
    if any(not 0 <= job < jobs for job in state.done) or any(
            not 0 <= job < jobs or not job * per_job <= task <= (job + 1) * per_job for job, task in state.reached.items()):
        raise CheckpointError(f"checkpoint {str(checkpoint.path)!r} names jobs or tasks outside this search's "
                              f"{jobs} jobs of {per_job} tasks")
    if state.best_sum is not None:
        best.offer(True, state.best_sum, state.best_index, state.ties, state.ties_overflow)
    if frontier is not None:
        for job in state.done:
            frontier.finish(job * per_job, (job + 1) * per_job)
        for job, task in state.reached.items():
            frontier.finish(job * per_job, task)
    return state
