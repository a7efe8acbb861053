"""The one chunked runner and its cancellation token (lightsout/_core/runner.py), and Ctrl-C
through it: every chunk once, the first error in the caller, pending chunks dropped, one
thread starts none, and SIGINT stops the searches and routes that use it."""
from __future__ import annotations

import concurrent.futures
import os
import signal
import threading
import time

import numpy as np
import pytest

import lightsout
from lightsout._core.runner import CancelToken, default_threads, run_chunks


def test_every_chunk_runs_once_over_threads():
    for threads in (1, 2, 5):
        seen: list[int] = []
        lock = threading.Lock()

        def chunk(number: int, token: CancelToken) -> None:
            with lock:
                seen.append(number)

        assert run_chunks(chunk, 37, threads=threads)
        assert sorted(seen) == list(range(37))


def test_one_thread_runs_in_the_calling_thread():
    callers: set[int] = set()
    started = threading.Thread.start
    count = [0]

    def counting_start(self: threading.Thread) -> None:
        count[0] += 1
        started(self)

    threading.Thread.start = counting_start  # type: ignore[method-assign]
    try:
        run_chunks(lambda number, token: callers.add(threading.get_ident()), 8, threads=1)
    finally:
        threading.Thread.start = started  # type: ignore[method-assign]
    assert callers == {threading.get_ident()} and count[0] == 0


def test_the_first_error_is_raised_and_pending_chunks_are_dropped():
    ran: list[int] = []

    def chunk(number: int, token: CancelToken) -> None:
        ran.append(number)
        if number == 3:
            raise ValueError("chunk 3")
        while number > 3 and not token.expired():  # a running chunk stops at its next poll
            time.sleep(0.001)

    for threads in (1, 2):
        ran.clear()
        token = CancelToken()
        with pytest.raises(ValueError, match="chunk 3"):
            run_chunks(chunk, 1000, threads=threads, token=token)
        assert token.cancelled and max(ran) < 1000 - 1 and len(ran) < 20


def test_a_chunk_that_stops_early_ends_the_run():
    token = CancelToken()
    assert run_chunks(lambda number, token: number != 5, 50, threads=1, token=token) is False
    assert not token.cancelled                       # stopping early is not a cancellation


def test_progress_from_the_calling_thread_and_its_error_cancels():
    reports: list[tuple[str, int, int, int]] = []

    def progress(stage: str, done: int, total: int) -> None:
        reports.append((stage, done, total, threading.get_ident()))

    run_chunks(lambda number, token: time.sleep(0.002), 40, threads=2, progress=progress, stage="demo")
    assert reports[-1][:3] == ("demo", 40, 40)
    assert {r[3] for r in reports} == {threading.get_ident()}
    dones = [r[1] for r in reports]
    assert dones == sorted(dones)

    token = CancelToken()

    def failing(stage: str, done: int, total: int) -> None:
        raise RuntimeError("progress failed")

    with pytest.raises(RuntimeError, match="progress failed"):
        run_chunks(lambda number, token: time.sleep(0.01), 200, threads=2, token=token, progress=failing)
    assert token.cancelled


def test_a_deadline_stops_the_run_without_an_error():
    token = CancelToken.after(0.0)
    assert run_chunks(lambda number, token: None, 10, threads=2, token=token) is False
    assert token.remaining() == 0.0 and CancelToken().remaining() is None and default_threads() >= 1


def _interrupted_after(seconds: float, call, *args, **kwargs) -> float:
    """Seconds from a SIGINT sent ``seconds`` after the call starts to its KeyboardInterrupt."""
    sent: list[float] = []

    def interrupt() -> None:
        sent.append(time.monotonic())
        os.kill(os.getpid(), signal.SIGINT)

    timer = threading.Timer(seconds, interrupt)
    timer.start()
    try:
        with pytest.raises(KeyboardInterrupt):
            call(*args, **kwargs)
    finally:
        timer.cancel()
    assert sent, "the call ended before the signal"
    return time.monotonic() - sent[0]


@pytest.mark.skipif(threading.current_thread() is not threading.main_thread(), reason="signals need the main thread")
@pytest.mark.parametrize("threads", [1, 2])
def test_ctrl_c_stops_the_searches_within_half_a_second(threads):
    # all-lit 200 x 200 without a limit: nullity 0 solves at once; use a nullity-40 search instead
    solution = lightsout.solve(np.ones((197, 197), bool))          # nullity 40 (minutes of search)
    assert solution.nullity >= 40
    assert _interrupted_after(0.5, solution.minimal, time_limit=600, threads=threads) < 0.5
    assert _interrupted_after(0.3, lightsout.distance_distribution, 6, 6, threads=threads) < 0.5
    assert _interrupted_after(0.5, lightsout.fewest_presses, 203, threads=threads, time_limit=600) < 0.5
    boards = np.random.default_rng(5).integers(0, 3, (400_000, 4, 4))     # three states: one by one, minutes
    assert _interrupted_after(0.5, lightsout.solve_many, boards, states=3, threads=threads) < 0.5


@pytest.mark.skipif(threading.current_thread() is not threading.main_thread(), reason="signals need the main thread")
def test_ctrl_c_with_a_process_pool_leaves_the_with_block_soon():
    solution = lightsout.solve(np.ones((197, 197), bool))
    sent: list[float] = []

    def interrupt() -> None:
        sent.append(time.monotonic())
        os.kill(os.getpid(), signal.SIGINT)

    with pytest.raises(KeyboardInterrupt):
        with concurrent.futures.ProcessPoolExecutor(2) as pool:
            pool.submit(int).result()                                 # the workers are up
            timer = threading.Timer(1.0, interrupt)
            timer.start()
            solution.minimal(time_limit=600, executor=pool)
    assert sent and time.monotonic() - sent[0] < 1.5          # dispatched jobs end within JOB_SECONDS
