"""One way to run chunks of work: a cancellation token and a chunked runner over threads.

Every route and search that runs for long splits its work into chunks (column blocks of a
kernel, ranges of search tasks, rows of a distance table) and hands them to
:func:`run_chunks`.  The model is ``concurrent.futures`` and Dask: cancelling stops the
chunks not yet started, the running ones stop at their next poll of the token, and the
first error (Ctrl-C included) is raised in the calling thread.

:class:`CancelToken` holds the stop flag and an optional deadline.  The flag is the
one-byte C-contiguous ``uint8`` array that the kernels poll with the GIL released
(nonzero: stop), so one token stops Python loops and compiled loops alike.

Example:
    >>> seen = []
    >>> run_chunks(lambda chunk, token: seen.append(chunk), 5, threads=2)
    True
    >>> sorted(seen)
    [0, 1, 2, 3, 4]
"""
from __future__ import annotations

import os
import threading
import time
from typing import Callable, Optional

import numpy as np
import numpy.typing as npt

from lightsout._base.types import Progress

__all__ = ["CALL_SECONDS", "CancelToken", "Pace", "default_threads", "run_chunks"]

#: Target length of one kernel call of the searches: long enough to hide the Python
#: overhead, short enough for Ctrl-C, time limits and progress reports between calls.
CALL_SECONDS = 0.03
#: How often the calling thread wakes while helpers work: Ctrl-C, the deadline and progress.
WAIT_SECONDS = 0.05


def default_threads() -> int:
    """The default of every ``threads=``: the CPUs this process may use.

    Example:
        >>> default_threads() >= 1
        True
    """
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not on Linux
        return max(1, os.cpu_count() or 1)


class CancelToken:
    """A stop flag the kernels poll, and an optional deadline (``time.monotonic()`` seconds).

    ``flag`` is a C-contiguous one-byte ``uint8`` array: a kernel given it stops at its
    next poll once byte 0 is nonzero.  :meth:`expired` is what Python loops check
    between kernel calls: cancelled, or past the deadline.

    Example:
        >>> token = CancelToken()
        >>> token.expired(), token.cancelled
        (False, False)
        >>> token.cancel()
        >>> token.expired(), int(token.flag[0])
        (True, 1)
        >>> CancelToken.after(0).expired()
        True
    """

    __slots__ = ("flag", "deadline")

    def __init__(self, deadline: Optional[float] = None) -> None:
        self.flag: npt.NDArray[np.uint8] = np.zeros(1, dtype=np.uint8)
        self.deadline = deadline

    @classmethod
    def after(cls, seconds: Optional[float]) -> "CancelToken":
        """A token whose deadline is ``seconds`` from now (None: no deadline)."""
        return cls(None if seconds is None else time.monotonic() + seconds)

    def within(self, seconds: Optional[float]) -> "CancelToken":
        """This token, its deadline brought forward to ``seconds`` from now if that is sooner.

        Example:
            >>> CancelToken().within(None).deadline is None, CancelToken().within(5).deadline is not None
            (True, True)
        """
        if seconds is not None:
            deadline = time.monotonic() + seconds
            if self.deadline is None or deadline < self.deadline:
                self.deadline = deadline
        return self

    def child(self, seconds: Optional[float]) -> "CancelToken":
        """A new token for one stage: it shares this token's stop flag (Ctrl-C stops both) and ends
        ``seconds`` from now or at this token's deadline, whichever is sooner; this token is unchanged.

        Example:
            >>> parent = CancelToken.after(60)
            >>> stage = parent.child(0)
            >>> stage.expired(), parent.expired()
            (True, False)
            >>> parent.cancel(); stage.cancelled
            True
        """
        stage = CancelToken(self.deadline).within(seconds)
        stage.flag = self.flag
        return stage

    @property
    def cancelled(self) -> bool:
        """True once :meth:`cancel` was called (by Ctrl-C, an error or a caller)."""
        return bool(self.flag[0])

    def cancel(self) -> None:
        """Stop: the chunks not started are dropped, the running ones stop at their next poll."""
        self.flag[0] = 1

    def expired(self) -> bool:
        """Cancelled, or past the deadline."""
        return bool(self.flag[0]) or (self.deadline is not None and time.monotonic() >= self.deadline)

    def remaining(self) -> Optional[float]:
        """Seconds left before the deadline (never below 0), or None without one."""
        return None if self.deadline is None else max(0.0, self.deadline - time.monotonic())

    def wall_deadline(self) -> Optional[float]:
        """The deadline on the wall clock (``time.time()``), for jobs run in other processes."""
        left = self.remaining()
        return None if left is None else time.time() + left


Chunk = Callable[[int, CancelToken], Optional[bool]]


def run_chunks(run: Chunk, nchunks: int, *, threads: Optional[int] = None, token: Optional[CancelToken] = None,
               progress: Progress = None, stage: str = "chunks", heartbeat: float = 0.0) -> bool:
    """Call ``run(chunk, token)`` for chunk = 0 .. nchunks-1 over ``threads`` threads; True if all ran.

    ``threads`` (default: :func:`default_threads`) is never more than ``nchunks``; one
    thread runs every chunk in the calling thread and starts none.  Chunks are taken in
    increasing order.  A chunk returns False (or the token expires) when it stopped
    early: no further chunk starts, and the result is False.  Ctrl-C or an error in
    a chunk or in ``progress`` cancels the token, so running kernels stop at their next
    poll, and is raised here once every thread has stopped.  ``progress(stage, done,
    nchunks)`` is called from the calling thread only; with ``heartbeat`` > 0 seconds,
    also that often while chunks run on threads (a progress that reports more than the
    count, such as the fewest-press search's bounds, then shows it as it changes).

    Example:
        >>> token = CancelToken()
        >>> run_chunks(lambda chunk, token: chunk < 2, 10, threads=1, token=token)
        False
    """
    token = CancelToken() if token is None else token
    nthreads = max(1, min(default_threads() if threads is None else threads, nchunks))
    lock = threading.Lock()
    state = {"next": 0, "done": 0, "stopped": False}
    errors: list[BaseException] = []

    def take() -> int:
        with lock:
            if state["stopped"] or state["next"] >= nchunks:
                return -1
            chunk = state["next"]
            state["next"] += 1
            return chunk

    def worker() -> None:
        try:
            while not token.expired():
                chunk = take()
                if chunk < 0:
                    return
                if run(chunk, token) is False:
                    state["stopped"] = True
                    return
                with lock:
                    state["done"] += 1
        except BaseException as exc:  # noqa: BLE001 - handed to the calling thread
            errors.append(exc)
            token.cancel()

    if nthreads == 1:
        while not token.expired():
            chunk = take()
            if chunk < 0:
                break
            try:
                if run(chunk, token) is False:
                    break
                state["done"] += 1
                if progress is not None:
                    progress(stage, state["done"], nchunks)
            except BaseException:
                token.cancel()
                raise
        return state["done"] == nchunks

    helpers = [threading.Thread(target=worker, daemon=True) for _ in range(nthreads)]
    try:
        for helper in helpers:
            helper.start()
        reported, beat = -1, time.monotonic()
        for helper in helpers:
            while helper.is_alive():
                helper.join(WAIT_SECONDS)
                due = heartbeat > 0 and time.monotonic() - beat >= heartbeat
                if progress is not None and (state["done"] != reported or due):
                    reported, beat = state["done"], time.monotonic()
                    progress(stage, reported, nchunks)
    except BaseException:
        token.cancel()  # before waiting for the helpers, whose kernels poll it
        raise
    finally:
        for helper in helpers:
            if helper.ident is not None:
                helper.join()
    if errors:
        raise errors[0]
    if progress is not None and state["done"] != reported:
        progress(stage, state["done"], nchunks)
    return state["done"] == nchunks


class Pace:
    """Tasks per kernel call, adapted so that a call takes about :data:`CALL_SECONDS`.

    Example:
        >>> pace = Pace()
        >>> pace.update(0.0)
        >>> pace.size
        2
    """

    def __init__(self) -> None:
        self.size = 1

    def update(self, elapsed: float) -> None:
        if elapsed < CALL_SECONDS / 2:
            self.size *= 2
        elif elapsed > 2 * CALL_SECONDS and self.size > 1:
            self.size //= 2
