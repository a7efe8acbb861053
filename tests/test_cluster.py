"""Every embarrassingly parallel job on a real Dask cluster (two worker processes) gives the serial answer."""
from __future__ import annotations

import os
import signal
import threading
import time

import numpy as np
import pytest

import lightsout

distributed = pytest.importorskip("dask.distributed")


@pytest.fixture(scope="module")
def client():
    cluster = distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None,
                                       silence_logs=40)
    with distributed.Client(cluster) as c:
        yield c
    cluster.close()


def test_tables_on_the_cluster_equal_the_serial_ones(client):
    executor = client.get_executor()
    assert np.array_equal(lightsout.nullity_table(300, executor=executor), lightsout.nullity_table(300))
    assert np.array_equal(lightsout.nullity_table(40, 30, executor=executor), lightsout.nullity_table(40, 30))
    assert np.array_equal(lightsout.fewest_presses_table(14, executor=executor), lightsout.fewest_presses_table(14))


def test_fewest_press_search_split_over_the_cluster(client):
    executor = client.get_executor()
    board = np.ones((19, 19), dtype=np.uint8)  # nullity 16
    serial = lightsout.solve(board, minimal=True)
    spread = lightsout.solve(board, minimal=True, executor=executor)
    assert spread.proven_minimal and np.array_equal(serial.presses, spread.presses)


def test_solve_many_on_the_cluster(client, monkeypatch):
    import lightsout.many

    monkeypatch.setattr(lightsout.many, "CHUNK_BOARDS", 500)
    boards = np.random.default_rng(2).integers(0, 2, size=(3000, 5, 5))
    spread = lightsout.solve_many(boards, executor=client.get_executor())
    serial = lightsout.solve_many(boards)
    assert np.array_equal(spread.presses, serial.presses) and np.array_equal(spread.solvable, serial.solvable)


@pytest.mark.thorough
def test_a_worker_killed_mid_run_still_yields_the_full_answer(client):
    # A search of a few seconds in many small jobs; one worker process is killed while it runs.
    from lightsout._search.minweight import coset_min_weight

    board = lightsout.solve(np.ones((39, 39), dtype=np.uint8))  # nullity 32
    particular = board.presses.ravel().astype(np.uint8)
    basis = board.quiet_patterns().reshape(board.nullity, -1).astype(np.uint8)
    expected = coset_min_weight(particular, basis)
    pids = list(client.run(os.getpid).values())

    killed_at = []

    def kill_one() -> None:
        time.sleep(0.2)
        os.kill(pids[0], signal.SIGKILL)
        killed_at.append(time.monotonic())

    killer = threading.Thread(target=kill_one)
    killer.start()
    found = coset_min_weight(particular, basis, executor=client.get_executor(), split_bits=10)
    finished_at = time.monotonic()
    killer.join()
    assert killed_at and killed_at[0] < finished_at  # the worker died while the search ran
    assert found.proven and found.weight == expected.weight and np.array_equal(found.presses, expected.presses)
