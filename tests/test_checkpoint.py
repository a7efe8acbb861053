"""The fewest-press search's checkpoint: a search stopped part way and resumed from its file finds what an
uninterrupted one finds (and brute force); a file of another search, or a broken one, is refused; a job
whose future fails is run again."""
from __future__ import annotations

import concurrent.futures
import json
import os
import threading

import numpy as np
import pytest

import oracle
import lightsout
from lightsout._base.errors import CheckpointError
from lightsout._core.tasks import TASK_RETRIES
from lightsout._search import checkpoint as checkpoint_module
from lightsout._search import jobs as jobs_module
from lightsout._search.minweight import coset_min_weight
from lightsout._search.symmetry import box_symmetries
from lightsout._search.tasksearch import PROGRESS_STAGE
from lightsout.cli import main


class Stop(Exception):
    """Raised by a progress callback to stop a search part way (as Ctrl-C would)."""


def stop_after(jobs: int):
    """A progress callback that stops the search once ``jobs`` jobs have finished."""
    def progress(stage, done, total):
        if stage == PROGRESS_STAGE and done >= jobs:
            raise Stop(f"stopped after {done} of {total} jobs")
    return progress


def random_coset(seed: int, nullity: int, cells: int):
    rng = np.random.default_rng(seed)
    while True:
        basis = rng.integers(0, 2, size=(nullity, cells), dtype=np.uint8)
        if oracle.gf2_rank(basis) == nullity:
            return rng.integers(0, 2, size=cells, dtype=np.uint8), basis


def brute_minimum(particular, basis):
    """The fewest presses of the coset and its lexicographically first minimum, by listing every element."""
    d = basis.shape[0]
    c = (np.arange(1 << d)[:, None] >> np.arange(d)[None, :]) & 1
    elements = (particular[None, :] + c @ basis) % 2
    weights = elements.sum(axis=1)
    best = elements[weights == weights.min()]
    first = min(map(tuple, best.tolist()))
    return int(weights.min()), np.array(first, dtype=np.uint8)


class CountingPool(concurrent.futures.ThreadPoolExecutor):
    """A thread pool that counts the jobs submitted to it."""

    def __init__(self) -> None:
        super().__init__(1)
        self.submitted = 0

    def submit(self, *args, **kwargs):
        self.submitted += 1
        return super().submit(*args, **kwargs)


class LostWorker(Exception):
    """What an executor raises for a job whose worker died (Dask's KilledWorker, a broken pool)."""


class FlakyPool(concurrent.futures.ThreadPoolExecutor):
    """A pool whose every job's future fails ``failures`` times (``kind``) before it runs."""

    def __init__(self, failures: int, kind: type[BaseException] = LostWorker) -> None:
        super().__init__(2)
        self.failures, self.kind = failures, kind
        self.seen: dict[tuple, int] = {}
        self.failed = 0
        self.lock = threading.Lock()

    def submit(self, function, *args, **kwargs):
        key = args[1:]          # (split_bits, job, deadline, resume): the problem is the same for every job
        with self.lock:
            tries = self.seen[key] = self.seen.get(key, 0) + 1
        if tries <= self.failures:
            future: concurrent.futures.Future = concurrent.futures.Future()
            if self.kind is concurrent.futures.CancelledError:
                future.cancel()
                future.set_running_or_notify_cancel()
            else:
                future.set_exception(self.kind("worker lost"))
            with self.lock:
                self.failed += 1
            return future
        return super().submit(function, *args, **kwargs)


def test_a_stopped_search_resumes_to_the_uninterrupted_answer_and_brute_force(tmp_path, monkeypatch):
    monkeypatch.setattr(jobs_module, "JOB_SECONDS", 600.0)    # each job in one piece, however loaded the machine
    particular, basis = random_coset(1, 14, 40)
    weight, first = brute_minimum(particular, basis)
    whole = coset_min_weight(particular, basis)
    path = tmp_path / "run.json"
    with pytest.raises(Stop):
        coset_min_weight(particular, basis, checkpoint=path, split_bits=4, threads=1, progress=stop_after(5))
    saved = json.loads(path.read_text())
    done = sum(last - first + 1 for first, last in saved["state"]["done"])
    assert done == 5 and not saved["state"]["complete"]
    pool = CountingPool()
    with pool:
        resumed = coset_min_weight(particular, basis, checkpoint=path, split_bits=4, executor=pool)
    assert pool.submitted == 16 - 5                 # only the jobs left ran
    assert resumed.proven and resumed.weight == whole.weight == weight
    assert np.array_equal(resumed.presses, whole.presses) and np.array_equal(resumed.presses, first)
    state = json.loads(path.read_text())["state"]
    assert state["complete"] and state["done"] == [[0, 15]] and state["lower_bound"] == weight == state["presses"]
    again = CountingPool()
    with again:   # a finished checkpoint answers at once
        done = coset_min_weight(particular, basis, checkpoint=path, split_bits=4, executor=again)
    assert again.submitted == 0 and done.proven and np.array_equal(done.presses, first)


def test_a_search_cut_short_by_its_time_limit_resumes_part_way_through_a_job(tmp_path, monkeypatch):
    # Jobs that stop every few kernel calls: the checkpoint keeps where each job stopped.
    monkeypatch.setattr(jobs_module, "JOB_SECONDS", 0.002)
    monkeypatch.setattr(checkpoint_module, "CHECKPOINT_SECONDS", 0.0)
    particular, basis = random_coset(2, 24, 64)
    whole = coset_min_weight(particular, basis, threads=1)
    path = tmp_path / "run.json"
    cut = coset_min_weight(particular, basis, checkpoint=path, split_bits=2, threads=1, time_limit=0.05)
    state = json.loads(path.read_text())["state"]
    if not cut.proven:                                  # a machine fast enough may finish in 0.05 s
        assert state["reached"] and cut.lower_bound <= whole.weight <= cut.weight
        assert state["lower_bound"] <= whole.weight <= state["presses"]
    resumed = coset_min_weight(particular, basis, checkpoint=path, split_bits=2, threads=1)
    assert resumed.proven and np.array_equal(resumed.presses, whole.presses)
    assert json.loads(path.read_text())["state"]["seconds"] >= state["seconds"]


def test_the_symmetric_cut_resumes_with_its_tie_rule(tmp_path):
    board = lightsout.solve(np.ones((19, 19), dtype=np.uint8))     # nullity 16
    particular = board.presses.ravel().astype(np.uint8)
    basis = board.quiet_patterns().reshape(board.nullity, -1).astype(np.uint8)
    symmetry = box_symmetries((19, 19), (False, False), np.ones(19 * 19, dtype=np.uint8))
    whole = coset_min_weight(particular, basis, symmetry=symmetry)
    path = tmp_path / "cut.json"
    with pytest.raises(Stop):
        coset_min_weight(particular, basis, symmetry=symmetry, checkpoint=path, split_bits=3, threads=1,
                         progress=stop_after(2))
    assert json.loads(path.read_text())["fingerprint"]["symmetry_order"] > 1
    resumed = coset_min_weight(particular, basis, symmetry=symmetry, checkpoint=path, split_bits=3)
    assert resumed.proven and np.array_equal(resumed.presses, whole.presses)
    assert oracle.clears(np.ones((19, 19)), resumed.presses.reshape(19, 19))


def test_fewest_presses_solve_and_the_command_line_resume(tmp_path, capsys):
    shape = (14, 9)                                       # nullity 5, not in the shipped table
    assert lightsout.nullity(*shape) == 5
    fewest = oracle.min_presses_brute(np.ones(shape, dtype=np.uint8))
    path = tmp_path / "fewest.json"
    assert lightsout.fewest_presses(*shape, checkpoint=path) == fewest
    assert json.loads(path.read_text())["state"]["complete"]
    assert lightsout.fewest_presses(*shape, checkpoint=str(path)) == fewest      # answered from the file
    solved = lightsout.solve(np.ones(shape, dtype=np.uint8), minimal=True, checkpoint=path)
    assert solved.proven_minimal and int(solved.presses.sum()) == fewest
    assert oracle.clears(np.ones(shape), solved.presses)
    cli_path = tmp_path / "cli.json"
    for _ in range(2):                                     # the second run resumes the finished file
        assert main(["solve", "--all-lit", "14", "9", "--minimal", "--checkpoint", str(cli_path), "--json"]) == 0
        record = json.loads(capsys.readouterr().out)
        assert record["fewest"] == fewest and record["proven_minimal"] and cli_path.exists()


def test_a_checkpoint_of_another_search_is_refused(tmp_path):
    particular, basis = random_coset(3, 10, 30)
    path = tmp_path / "run.json"
    coset_min_weight(particular, basis, checkpoint=path)
    other_particular, other_basis = random_coset(4, 10, 30)
    with pytest.raises(CheckpointError, match="another search: its coset sha256"):
        coset_min_weight(other_particular, other_basis, checkpoint=path)
    with pytest.raises(CheckpointError, match="its split bits is 0, this one's 3"):
        coset_min_weight(particular, basis, checkpoint=path, split_bits=3)
    with pytest.raises(ValueError, match="another search"):     # a ValueError too
        lightsout.fewest_presses(14, 9, checkpoint=path)


@pytest.mark.parametrize("damage", ["truncated", "edited", "empty", "not a checkpoint", "newer version"])
def test_a_broken_checkpoint_is_refused_clearly(tmp_path, damage):
    particular, basis = random_coset(5, 10, 30)
    path = tmp_path / "run.json"
    coset_min_weight(particular, basis, checkpoint=path)
    text = path.read_text()
    data = json.loads(text)
    if damage == "truncated":
        path.write_text(text[: len(text) // 2])
        message = "not a whole checkpoint"
    elif damage == "edited":
        data["state"]["best_sum"] -= 2
        path.write_text(json.dumps(data))
        message = "corrupt"
    elif damage == "empty":
        path.write_text("")
        message = "not a whole checkpoint"
    elif damage == "not a checkpoint":
        path.write_text(json.dumps({"hello": 1}))
        message = "not a lightsout fewest-press checkpoint"
    else:
        data["version"] = 99
        path.write_text(json.dumps(data))
        message = "version 99"
    with pytest.raises(CheckpointError, match=message):
        coset_min_weight(particular, basis, checkpoint=path)


def test_checkpoint_arguments_are_checked(tmp_path):
    particular, basis = random_coset(6, 6, 20)
    with pytest.raises(lightsout.InvalidTypeError, match="checkpoint must be None or a file path"):
        coset_min_weight(particular, basis, checkpoint=3)
    with pytest.raises(CheckpointError, match="does not exist"):
        coset_min_weight(particular, basis, checkpoint=tmp_path / "no such folder" / "run.json")
    with pytest.raises(CheckpointError, match="must name a file"):
        coset_min_weight(particular, basis, checkpoint=tmp_path)
    with pytest.raises(lightsout.InvalidBoardError, match="keeps no checkpoint"):
        coset_min_weight(particular, basis, checkpoint=tmp_path / "a.json", prune=True)
    with pytest.raises(lightsout.InvalidBoardError, match="two-state search"):
        lightsout.fewest_presses(4, states=3, stencil="knight", checkpoint=tmp_path / "k.json")
    with pytest.raises(lightsout.InvalidBoardError, match="give minimal=True"):
        lightsout.solve(np.ones((3, 3)), checkpoint=tmp_path / "s.json")
    assert main(["solve", "--all-lit", "5", "--checkpoint", str(tmp_path / "c.json")]) == 2
    assert not list(tmp_path.iterdir())                    # nothing was written by a refused call


def test_a_failed_write_leaves_the_last_checkpoint_whole(tmp_path, monkeypatch):
    particular, basis = random_coset(7, 10, 30)
    path = tmp_path / "run.json"
    coset_min_weight(particular, basis, checkpoint=path)
    before = path.read_text()

    def broken_dump(data, out, **_):
        out.write('{"format": "lightsout')
        raise OSError("disk full")

    monkeypatch.setattr(checkpoint_module.json, "dump", broken_dump)
    other = checkpoint_module.Checkpoint(path, json.loads(before)["fingerprint"])
    with pytest.raises(OSError, match="disk full"):
        other.save(checkpoint_module.SearchState())
    assert path.read_text() == before and os.listdir(tmp_path) == ["run.json"]


@pytest.mark.parametrize("kind", [LostWorker, concurrent.futures.CancelledError])
def test_a_job_whose_future_fails_is_run_again(tmp_path, kind):
    particular, basis = random_coset(8, 16, 48)
    whole = coset_min_weight(particular, basis)
    with FlakyPool(1, kind) as pool:
        found = coset_min_weight(particular, basis, executor=pool, split_bits=3, checkpoint=tmp_path / "run.json")
    assert pool.failed >= 8 and found.proven and np.array_equal(found.presses, whole.presses)


def test_a_job_that_keeps_failing_ends_the_search_after_its_retries(tmp_path):
    particular, basis = random_coset(9, 12, 40)
    path = tmp_path / "run.json"
    with FlakyPool(TASK_RETRIES + 1) as pool, pytest.raises(LostWorker):
        coset_min_weight(particular, basis, executor=pool, split_bits=2, checkpoint=path)
    assert json.loads(path.read_text())["fingerprint"]["split_bits"] == 2    # written as it stopped
    assert coset_min_weight(particular, basis, checkpoint=path, split_bits=2).proven


def test_a_checkpointed_search_on_a_dask_cluster_resumes_on_it(tmp_path):
    distributed = pytest.importorskip("dask.distributed")
    particular, basis = random_coset(10, 22, 64)
    whole = coset_min_weight(particular, basis)
    path = tmp_path / "cluster.json"
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None,
                                  silence_logs=40) as cluster, distributed.Client(cluster) as client:
        executor = client.get_executor()
        with pytest.raises(Stop):        # the driver stops after 3 of 16 jobs, as if it had died
            coset_min_weight(particular, basis, executor=executor, split_bits=4, checkpoint=path,
                             progress=stop_after(3))
        stopped = json.loads(path.read_text())["state"]
        assert 3 <= sum(last - first + 1 for first, last in stopped["done"]) < 16
        resumed = coset_min_weight(particular, basis, executor=executor, split_bits=4, checkpoint=path)
    assert resumed.proven and np.array_equal(resumed.presses, whole.presses)
    assert json.loads(path.read_text())["state"]["complete"]


class InFlightPool(concurrent.futures.ThreadPoolExecutor):
    """A pool that records the most futures it had out at once."""

    def __init__(self) -> None:
        super().__init__(2)
        self.out = self.most = self.submitted = 0
        self.lock = threading.Lock()

    def submit(self, *args, **kwargs):
        future = super().submit(*args, **kwargs)
        with self.lock:
            self.out += 1
            self.submitted += 1
            self.most = max(self.most, self.out)
        future.add_done_callback(self._done)
        return future

    def _done(self, _future) -> None:
        with self.lock:
            self.out -= 1


def test_the_driver_keeps_a_window_of_jobs_out_in_order(tmp_path, monkeypatch):
    monkeypatch.setattr(jobs_module, "JOBS_IN_FLIGHT", 5)
    particular, basis = random_coset(11, 16, 48)
    whole = coset_min_weight(particular, basis)
    finished = []
    with InFlightPool() as pool:
        found = coset_min_weight(particular, basis, executor=pool, split_bits=6,
                                 progress=lambda stage, done, total: finished.append(done))
    assert pool.most <= 5 and pool.submitted >= 64 and found.proven
    assert np.array_equal(found.presses, whole.presses) and finished[-1] == 64
    with InFlightPool() as pool:      # a time limit already past: no more than the first window is sent
        cut = coset_min_weight(particular, basis, executor=pool, split_bits=6, time_limit=0,
                               checkpoint=tmp_path / "run.json")
    assert pool.submitted <= 5 and cut.lower_bound <= whole.weight <= cut.weight
