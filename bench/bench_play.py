"""Benchmarks of the play page's JSON API (lightsout.play): a 200 x 200 board, as the page sends it.

Run: python -m pytest bench/bench_play.py --benchmark-only
The board is random and solvable (seeded random presses on the dark board, two states).
``play_api_solve_200x200`` is the whole round trip a page waits for: urllib posts the
JSON to a server on a free loopback port (a thread of this process), which decodes and
checks it, solves, searches the fewest presses and answers JSON; the target is under
50 ms.  ``play_endpoint_solve_200x200`` is the same work without HTTP (decode, solve,
encode).  Both report requests a second.
"""
from __future__ import annotations

import json
import threading
import urllib.request

import numpy as np
import pytest

import lightsout
from lightsout.play import api, make_server

SIDE = 200


def _body(side: int) -> bytes:
    rng = np.random.default_rng(20261122)
    presses = rng.random((side, side)) < 0.5
    board = lightsout.press(np.zeros((side, side), dtype=bool), presses)
    return json.dumps({"board": board.astype(int).tolist(), "torus": False, "self_toggle": True,
                       "states": 2}).encode()


@pytest.fixture(scope="module")
def server():
    srv = make_server("127.0.0.1", 0)
    thread = threading.Thread(target=srv.serve_forever, daemon=True)
    thread.start()
    yield srv
    srv.shutdown()
    srv.server_close()


def _post(url: str, body: bytes) -> dict:
    request = urllib.request.Request(url, data=body, method="POST", headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=30) as answer:
        return json.loads(answer.read())


# Over HTTP the figure depends on how the client and server threads are scheduled on the
# shared cores (it crossed the gate's 1.3x on unchanged code): measured on request, not gated.
@pytest.mark.slow
def test_play_api_solve_200x200(gate, server):
    body = _body(SIDE)
    url = server.url + "api/solve"
    answer = gate(_post, url, body)
    assert answer["solvable"] is True and len(answer["presses"]) == SIDE
    gate.benchmark.extra_info["requests_per_s"] = 1 / gate.benchmark.stats.stats.min


def _endpoint(body: bytes) -> bytes:
    return json.dumps(api.solve_board(api.decode_request(body)), separators=(",", ":")).encode()


def test_play_endpoint_solve_200x200(gate):
    body = _body(SIDE)
    answer = json.loads(gate(_endpoint, body))
    assert answer["solvable"] is True
    gate.benchmark.extra_info["requests_per_s"] = 1 / gate.benchmark.stats.stats.min
