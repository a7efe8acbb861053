"""Tasks on an executor (lightsout._core.tasks): a task lost with its worker runs again, once per loss."""
from __future__ import annotations

import concurrent.futures
import threading
import time

import pytest

from lightsout._base.errors import InvalidBoardError
from lightsout._core.tasks import TASK_RETRIES, completed_tasks, run_tasks


class Flaky:
    """A task that fails ``failures`` times per argument (an OSError, as a lost worker would), then works."""

    def __init__(self, failures: int) -> None:
        self.failures = failures
        self.calls: dict[int, int] = {}
        self.lock = threading.Lock()

    def __call__(self, x: int) -> int:
        with self.lock:
            self.calls[x] = self.calls.get(x, 0) + 1
            calls = self.calls[x]
        if calls <= self.failures:
            raise OSError(f"worker lost on task {x}")
        return x * x


def test_a_lost_task_runs_again_and_the_answers_stay_in_order():
    task = Flaky(TASK_RETRIES)
    seen = []
    with concurrent.futures.ThreadPoolExecutor(3) as pool:
        got = run_tasks(pool, task, [(x,) for x in range(10)], stage="squares", progress=lambda *a: seen.append(a))
    assert got == [x * x for x in range(10)]
    assert task.calls == {x: TASK_RETRIES + 1 for x in range(10)}
    assert [done for _, done, _ in seen] == list(range(1, 11)) and {s for s, _, _ in seen} == {"squares"}


def test_a_task_lost_too_often_raises_and_own_errors_raise_at_once():
    with concurrent.futures.ThreadPoolExecutor(2) as pool:
        with pytest.raises(OSError, match="worker lost"):
            run_tasks(pool, Flaky(TASK_RETRIES + 1), [(1,), (2,)])

        calls = []

        def refuse(x: int) -> int:
            calls.append(x)
            raise InvalidBoardError("a mistake of the caller")

        with pytest.raises(InvalidBoardError):
            run_tasks(pool, refuse, [(1,)])
        assert calls == [1]  # not run again


def test_the_deadline_leaves_the_slow_tasks_out():
    release = threading.Event()

    def held(x: int) -> int:
        if x:
            release.wait(60)  # held until the test lets it go (a broken deadline would wait for it)
        return x

    with concurrent.futures.ThreadPoolExecutor(2) as pool:
        try:
            got = dict(completed_tasks(pool, held, [(0,), (1,)], deadline=time.time()))
        finally:
            release.set()
    assert got == {0: 0}
