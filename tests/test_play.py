"""The play server and its JSON API (lightsout.play), over real HTTP on a free port.

Every answer is checked with tests/oracle.py (plain Python that shares no code with the
package): presses are replayed cell by cell, quiet patterns are pressed on the dark
board, the fewest presses and the solution counts come from exhaustive search.
"""
from __future__ import annotations

import doctest
import http.client
import json
import os
import re
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.request
from pathlib import Path

import numpy as np
import pytest

import oracle
from playserver import read_answer, serving
from lightsout.play import api as play_api
from lightsout.play import server as play_server

ROOT = Path(__file__).resolve().parents[1]
STATIC = ROOT / "lightsout" / "play" / "static"


@pytest.fixture(scope="module")
def server():
    with serving() as srv:
        yield srv


def post(srv, path, payload=None, *, raw=None, headers=None, timeout=30.0):
    """(status, decoded JSON body) of a POST; ``raw`` sends bytes as they are."""
    body = raw if raw is not None else json.dumps(payload).encode()
    request = urllib.request.Request(srv.url.rstrip("/") + path, data=body, method="POST",
                                     headers=headers or {"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=timeout) as answer:
            return answer.status, json.loads(answer.read())
    except urllib.error.HTTPError as err:
        return err.code, json.loads(err.read())


def raw_request(srv, text: bytes, timeout=10.0) -> tuple[int, bytes]:
    """Send bytes over a fresh socket; (status, body) of the answer."""
    host, port = srv.server_address[:2]
    with socket.create_connection((host, port), timeout=timeout) as sock:
        sock.sendall(text)
        return read_answer(sock)


def get(srv, path, host=None):
    """(status, headers, body) of a GET sent with http.client, the path exactly as given."""
    host_port = srv.server_address[:2]
    conn = http.client.HTTPConnection(*host_port, timeout=10)
    try:
        conn.putrequest("GET", path, skip_host=host is not None, skip_accept_encoding=True)
        if host is not None:
            conn.putheader("Host", host)
        conn.endheaders()
        answer = conn.getresponse()
        return answer.status, dict(answer.getheaders()), answer.read()
    finally:
        conn.close()


def random_solvable(rng, shape, torus=False, self_toggle=True, states=2):
    """A solvable board made by the oracle: random presses replayed on the dark board."""
    presses = rng.integers(0, states, size=shape)
    return oracle.replay_nd(np.zeros(shape, dtype=np.int64), presses, torus, self_toggle, states)


def check_solution(board, answer, torus=False, self_toggle=True, states=2):
    assert answer["solvable"] is True
    presses = np.array(answer["presses"], dtype=np.int64)
    board = np.asarray(board, dtype=np.int64)
    assert presses.shape == board.shape
    assert presses.min() >= 0 and presses.max() < states
    if states == 2 and not torus and self_toggle:
        left = oracle.replay_fast(board, presses) if board.size > 400 else oracle.replay(board, presses)
    else:
        left = oracle.replay_nd(board, presses, torus, self_toggle, states)
    assert not np.asarray(left).any(), "the presses do not clear the board"
    assert isinstance(answer["count"], str) and answer["count"].isdigit()
    if answer["fewest"] is not None:
        assert answer["kind"] == "fewest" and answer["fewest"] == int(presses.sum())
    else:
        assert answer["kind"] == "canonical"


# ---- the page ---------------------------------------------------------------------------


def test_page_and_static_files(server):
    status, headers, body = get(server, "/")
    assert status == 200 and headers["Content-Type"].startswith("text/html")
    page = body.decode()
    for element in ('id="hint"', 'id="solve"', 'id="random"', 'id="undo"', 'id="redo"', 'id="quiet"',
                    'id="board"'):
        assert element in page
    assert "http://" not in page and "https://" not in page, "the page must work offline (no CDN)"
    assert "Content-Security-Policy" in headers
    for path, name, media in (("/play.js", "play.js", "text/javascript"), ("/play.css", "play.css", "text/css"),
                              ("/favicon.svg", "favicon.svg", "image/svg+xml"), ("/index.html", "index.html",
                                                                                 "text/html")):
        status, headers, body = get(server, path)
        assert status == 200 and headers["Content-Type"].startswith(media), path
        assert body == (STATIC / name).read_bytes()
        offline = body.replace(b"http://www.w3.org/2000/svg", b"")  # a namespace name, never fetched
        assert b"http://" not in offline and b"https://" not in offline


def test_head_and_query_string(server):
    status, headers, body = get(server, "/?rows=7&cols=9")
    assert status == 200 and b'id="board"' in body
    conn = http.client.HTTPConnection(*server.server_address[:2], timeout=10)
    conn.request("HEAD", "/play.js")
    answer = conn.getresponse()
    assert answer.status == 200 and answer.read() == b"" and int(answer.getheader("Content-Length")) > 1000
    conn.close()


@pytest.mark.parametrize("path", [
    "/nope", "/api", "/api/", "/static/play.js", "/../README.md", "/..%2f..%2fREADME.md", "/%2e%2e/%2e%2e/etc/passwd",
    "/play.js/../server.py", "/%2e%2e/server.py", "/server.py", "/api.py", "/__init__.py", "//etc/passwd",
    "/static/../server.py", "/..\\server.py", "/%00", "/index.html%00.py", "/play.js?x=/../../server.py#",
])
def test_only_own_files(server, path):
    status, headers, body = get(server, path)
    if path.startswith("/play.js?"):
        assert status == 200 and body == (STATIC / "play.js").read_bytes()
        return
    assert status == 404, path
    assert headers["Content-Type"] == "application/json"
    assert "error" in json.loads(body)
    assert b"import " not in body and b"root:" not in body


def test_methods(server):
    status, headers, body = get(server, "/api/solve")
    assert status == 405 and headers["Allow"] == "POST" and "POST" in json.loads(body)["error"]
    status, answer = post(server, "/play.js", {"board": [[1]]})
    assert status == 405
    status, answer = post(server, "/api/nope", {"board": [[1]]})
    assert status == 404 and "not found" in answer["error"]
    status, body = raw_request(server, b"DELETE /api/solve HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n")
    assert 400 <= status < 600 and "error" in json.loads(body)
    for line in (b"GARBAGE", b"GET / HTTP/1.0 extra", b"GET / HTTP/7.0"):
        status, body = raw_request(server, line + b"\r\n\r\n")
        assert 400 <= status < 600 and "error" in json.loads(body)


def test_foreign_host_refused(server):
    """DNS rebinding: a page of another site that resolves to 127.0.0.1 names its own Host."""
    status, _, body = get(server, "/", host="evil.example:8000")
    assert status == 403 and "loopback" in json.loads(body)["error"]
    for host in ("localhost:1234", "127.0.0.1", "[::1]:80"):
        assert get(server, "/", host=host)[0] == 200


# ---- /api/solve -------------------------------------------------------------------------


@pytest.mark.parametrize("shape", [(1, 1), (1, 7), (4, 4), (5, 5), (7, 3), (9, 9), (20, 20), (33, 65)])
def test_solve_replayed(server, shape):
    rng = np.random.default_rng(sum(shape))
    for board in (random_solvable(rng, shape), np.ones(shape, dtype=np.int64)):
        status, answer = post(server, "/api/solve", {"board": board.tolist()})
        assert status == 200
        check_solution(board, answer)
        if shape[0] * shape[1] <= 400:
            assert answer["nullity"] == oracle.nullity(*shape)
            assert answer["count"] == str(2 ** answer["nullity"])
        if shape[1] <= 10:  # every first row tried: the proven fewest presses
            assert answer["fewest"] == oracle.min_presses_brute(board)


def test_solve_all_lit_5x5(server):
    status, answer = post(server, "/api/solve", {"board": [[1] * 5] * 5, "torus": False, "self_toggle": True,
                                                 "states": 2})
    assert status == 200
    assert answer["solvable"] is True and answer["nullity"] == 2 and answer["count"] == "4"
    assert answer["fewest"] == 15 and answer["kind"] == "fewest"
    check_solution(np.ones((5, 5)), answer)
    status, answer = post(server, "/api/solve", {"board": [[1] * 5] * 5, "minimal": False})
    assert status == 200 and answer["fewest"] is None and answer["kind"] == "canonical"
    assert "minimal" in answer["note"]
    check_solution(np.ones((5, 5)), answer)


def test_solve_200x200(server):
    rng = np.random.default_rng(200)
    board = oracle.replay_fast(np.zeros((200, 200), bool), rng.integers(0, 2, size=(200, 200))).astype(int)
    status, answer = post(server, "/api/solve", {"board": board.tolist()})
    assert status == 200
    check_solution(board, answer)


RULES: list[dict] = [
    {"torus": True}, {"self_toggle": False}, {"states": 3}, {"states": 4, "torus": True},
    {"states": 5, "self_toggle": False}, {"torus": [True, False]}, {"torus": [False, True], "self_toggle": False},
]
SMALL_SHAPES = [(1, 1), (2, 3), (3, 3), (2, 4), (4, 2)]


@pytest.mark.parametrize("rules, shape", [
    (rules, shape) for rules in RULES for shape in SMALL_SHAPES
    if rules.get("states", 2) ** (shape[0] * shape[1]) <= 300_000  # press vectors the oracle tries
])
def test_rules_against_exhaustive_search(server, rules, shape):
    states = rules.get("states", 2)
    torus = rules.get("torus", False)
    torus_axes = tuple(torus) if isinstance(torus, list) else torus
    self_toggle = rules.get("self_toggle", True)
    sets = oracle.neighbour_sets(shape, torus_axes, self_toggle)
    rng = np.random.default_rng(shape[0] * 31 + shape[1] + states)
    for attempt in range(4):
        board = rng.integers(0, states, size=shape)
        solutions, quiet_count = oracle.exhaustive(sets, board, states)
        status, answer = post(server, "/api/solve", {"board": board.tolist(), **rules})
        assert status == 200, answer
        if len(solutions):
            check_solution(board, answer, torus_axes, self_toggle, states)
            assert answer["count"] == str(len(solutions))
            assert answer["fewest"] == int(solutions.sum(axis=1).min())
        else:
            assert answer["solvable"] is False
            pattern = np.array(answer["quiet_pattern"], dtype=np.int64)
            assert pattern.shape == shape
            assert not oracle.replay_sets(sets, np.zeros(shape), pattern, states).any(), "not quiet"
            assert int((pattern * board).sum()) % states != 0, "does not prove unsolvability"


def test_unsolvable_corner(server):
    board = [[0] * 5 for _ in range(5)]
    board[0][0] = 1
    assert oracle.min_presses_brute(board) is None  # the oracle agrees: unsolvable
    status, answer = post(server, "/api/solve", {"board": board})
    assert status == 200 and answer["solvable"] is False
    pattern = np.array(answer["quiet_pattern"])
    assert not oracle.replay(np.zeros((5, 5)), pattern).any()
    assert int((pattern * np.array(board)).sum()) % 2 == 1
    assert answer["nullity"] == 2 and "cannot be turned dark" in answer["message"]


def test_big_nullity_falls_back_to_canonical(server):
    """Where the fewest presses cannot be proven in time the answer is the canonical solution, and says why."""
    rng = np.random.default_rng(5)
    cases = [
        ({"torus": True}, (200, 200), "would take about"),          # nullity 64
        ({"self_toggle": False}, (200, 200), "over the limit of 64"),  # nullity 200
        ({"torus": True, "states": 3}, (12, 12), "would take about"),  # 3^17 solutions: walked in seconds, not 0.25
    ]
    for rules, shape, words in cases:
        presses = rng.integers(0, rules.get("states", 2), size=shape)
        if rules.get("states", 2) == 2 and rules.get("self_toggle", True) is False:
            board = oracle.replay_fast(np.zeros(shape), presses) ^ presses.astype(bool)  # sigma: no self toggle
        elif shape[0] * shape[1] > 400:
            board = np.roll(presses, 1, 0) ^ np.roll(presses, -1, 0) ^ np.roll(presses, 1, 1) ^ \
                np.roll(presses, -1, 1) ^ presses  # the torus, by whole-array shifts
        else:
            board = random_solvable(rng, shape, rules.get("torus", False), True, rules.get("states", 2))
        status, answer = post(server, "/api/solve", {"board": np.asarray(board, dtype=int).tolist(), **rules})
        assert status == 200, answer
        assert answer["kind"] == "canonical" and answer["fewest"] is None and words in answer["note"], answer["note"]
        if shape[0] * shape[1] <= 400:
            check_solution(board, answer, rules.get("torus", False), True, rules.get("states", 2))
        else:  # the same whole-array replay as above
            p = np.array(answer["presses"], dtype=bool)
            if rules.get("torus"):
                left = board ^ p ^ np.roll(p, 1, 0) ^ np.roll(p, -1, 0) ^ np.roll(p, 1, 1) ^ np.roll(p, -1, 1)
            else:
                left = board ^ oracle.replay_fast(np.zeros(shape), p) ^ p
            assert not np.asarray(left).any()


# ---- /api/random and /api/quiet ---------------------------------------------------------


@pytest.mark.parametrize("rules", [{}, {"torus": True}, {"self_toggle": False}, {"states": 3},
                                   {"states": 6, "torus": True, "self_toggle": False}])
def test_random_is_solvable(server, rules):
    for rows, cols in ((1, 1), (3, 4), (5, 5), (12, 7)):
        status, answer = post(server, "/api/random", {"rows": rows, "columns": cols, "seed": 7, **rules})
        assert status == 200
        board = np.array(answer["board"])
        assert board.shape == (rows, cols) and board.min() >= 0 and board.max() < rules.get("states", 2)
        status, solved = post(server, "/api/solve", {"board": answer["board"], **rules})
        assert status == 200
        check_solution(board, solved, rules.get("torus", False), rules.get("self_toggle", True),
                       rules.get("states", 2))
    first = post(server, "/api/random", {"rows": 9, "columns": 9, "seed": 3})[1]
    assert first == post(server, "/api/random", {"rows": 9, "columns": 9, "seed": 3})[1]
    assert np.array(post(server, "/api/random", {"rows": 9, "columns": 9})[1]["board"]).any()


@pytest.mark.parametrize("shape", [(4, 4), (5, 5), (9, 9), (5, 17), (1, 2)])
def test_quiet_patterns(server, shape):
    status, answer = post(server, "/api/quiet", {"rows": shape[0], "columns": shape[1]})
    assert status == 200
    assert answer["nullity"] == oracle.nullity(*shape) == len(answer["patterns"])
    assert answer["count"] == str(2 ** answer["nullity"]) and answer["truncated"] is False
    for pattern in answer["patterns"]:
        assert not oracle.replay(np.zeros(shape), np.array(pattern)).any()
    if answer["patterns"]:
        assert oracle.gf2_rank(np.array(answer["patterns"]).reshape(len(answer["patterns"]), -1)) == answer["nullity"]


def test_quiet_patterns_rules(server):
    status, answer = post(server, "/api/quiet", {"rows": 3, "columns": 3, "torus": True, "states": 3})
    assert status == 200
    sets = oracle.neighbour_sets((3, 3), True, True)
    _, quiet_count = oracle.exhaustive(sets, np.zeros((3, 3)), 3)
    assert answer["count"] == str(quiet_count)
    for pattern in answer["patterns"]:
        assert not oracle.replay_sets(sets, np.zeros((3, 3)), np.array(pattern), 3).any()


def test_quiet_patterns_truncated(server):
    status, answer = post(server, "/api/quiet", {"rows": 200, "columns": 200, "torus": True,
                                                 "self_toggle": False})
    assert status == 200
    assert len(answer["patterns"]) == min(answer["nullity"], play_api.MAX_QUIET_PATTERNS)
    assert answer["truncated"] == (answer["nullity"] > play_api.MAX_QUIET_PATTERNS)


# ---- refusals ---------------------------------------------------------------------------


@pytest.mark.parametrize("payload, status, words", [
    (b'{"board": [[1, 0]', 400, "malformed JSON"),
    (b"", 400, "malformed JSON"),
    (b"\xff\xfe{}", 400, "UTF-8"),
    (b"[[1, 0]]", 400, "JSON object"),
    (b'{"board": [[1, NaN]]}', 400, "NaN"),
    (b'{"board": [[1, 0.5]]}', 400, "integer"),
    (b'{"board": [[1, 1e400]]}', 400, "integer"),
    (b"[" * 100_000 + b"]" * 100_000, 400, "malformed JSON"),
    (b'{"board": [[1, 0]], "bord": 1}', 400, "unknown field 'bord'"),
    (b'{"torus": true}', 400, "missing field 'board'"),
    (b'{"board": []}', 400, "non-empty"),
    (b'{"board": [[]]}', 400, "columns"),
    (b'{"board": "1010"}', 400, "array of rows"),
    (b'{"board": [1, 0]}', 400, "every row"),
    (b'{"board": [[1, 0], [1]]}', 400, "equal lengths"),
    (b'{"board": [[1, true]]}', 400, "integers"),
    (b'{"board": [[1, "1"]]}', 400, "integers"),
    (b'{"board": [[1, null]]}', 400, "integers"),
    (b'{"board": [[1, [0]]]}', 400, "integers"),
    (b'{"board": [[1, 2]]}', 400, "0 to 1"),
    (b'{"board": [[1, -1]]}', 400, "0 to 1"),
    (b'{"board": [[1, 99999999999999999999]]}', 400, "0 to 1"),
    (b'{"board": [[1, ' + b"9" * 100_000 + b']]}', 400, "out of range"),
    (b'{"board": [[1, 0]], "states": 1' + b"0" * 5000 + b'}', 400, "out of range"),
    (b'{"board": [[3, 0]], "states": 3}', 400, "0 to 2"),
    (b'{"board": [[1]], "states": 1}', 400, "states"),
    (b'{"board": [[1]], "states": 256}', 400, "states"),
    (b'{"board": [[1]], "states": true}', 400, "states"),
    (b'{"board": [[1]], "states": "2"}', 400, "states"),
    (b'{"board": [[1]], "torus": 1}', 400, "torus"),
    (b'{"board": [[1]], "torus": [true]}', 400, "torus"),
    (b'{"board": [[1]], "self_toggle": "no"}', 400, "self_toggle"),
    (b'{"board": [[1]], "minimal": 1}', 400, "minimal"),
    (b'{"board": [[1]], "time_limit_ms": 0}', 400, "time_limit_ms"),
    (b'{"board": [[1]], "time_limit_ms": 100000}', 400, "time_limit_ms"),
])
def test_bad_requests(server, payload, status, words):
    got, answer = post(server, "/api/solve", raw=payload)
    assert got == status, answer
    assert set(answer) == {"error"} and words in answer["error"]


def test_oversized_boards(server):
    got, answer = post(server, "/api/solve", {"board": [[0] * 5] * 201})
    assert got == 413 and "200" in answer["error"]
    got, answer = post(server, "/api/solve", {"board": [[0] * 201] * 3})
    assert got == 413 and "200" in answer["error"]
    for endpoint in ("/api/random", "/api/quiet"):
        got, answer = post(server, endpoint, {"rows": 10**6, "columns": 10**6})
        assert got == 413 and "200" in answer["error"]
        got, answer = post(server, endpoint, {"rows": 0, "columns": 5})
        assert got == 400
        got, answer = post(server, endpoint, {"rows": 5})
        assert got == 400 and "columns" in answer["error"]
    got, answer = post(server, "/api/random", {"rows": 5, "columns": 5, "seed": -1})
    assert got == 400 and "seed" in answer["error"]


def test_body_limits(server):
    # a declared 10**12-byte body (a 10**6 x 10**6 board) is refused before it is read
    t0 = time.monotonic()
    status, body = raw_request(server, b"POST /api/solve HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: "
                                       b"application/json\r\nContent-Length: 1000000000000\r\n\r\n[[")
    assert status == 413 and "limit" in json.loads(body)["error"]
    assert time.monotonic() - t0 < 5
    # a body just over the limit: refused from its Content-Length, the client told before it sends it all
    status, body = raw_request(server, b"POST /api/solve HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: "
                                       b"application/json\r\nContent-Length: %d\r\n\r\n" % (play_api.MAX_BODY_BYTES + 1))
    assert status == 413
    with pytest.raises(play_api.ApiError, match="over the limit") as refused:
        play_api.decode_request(b" " * (play_api.MAX_BODY_BYTES + 1))
    assert refused.value.status == 413
    status, body = raw_request(server, b"POST /api/solve HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: "
                                       b"application/json\r\n\r\n")
    assert status == 411
    status, body = raw_request(server, b"POST /api/solve HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: "
                                       b"application/json\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n")
    assert status == 411
    status, body = raw_request(server, b"POST /api/solve HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: "
                                       b"application/json\r\nContent-Length: -5\r\n\r\n")
    assert status == 400
    status, answer = post(server, "/api/solve", raw=b'{"board": [[1]]}', headers={"Content-Type": "text/plain"})
    assert status == 415 and "application/json" in answer["error"]


# ---- many clients -----------------------------------------------------------------------


def soak(srv, clients: int, seconds: float) -> tuple[int, list[str]]:
    """``clients`` threads post boards for ``seconds``; every answer is checked with the oracle."""
    deadline = time.monotonic() + seconds
    counts = [0] * clients
    errors: list[str] = []
    cases: list[tuple[dict, tuple[int, int]]] = [({}, (5, 5)), ({}, (40, 40)), ({"torus": True}, (6, 6)), ({"self_toggle": False}, (4, 7)),
             ({"states": 3}, (5, 5)), ({"states": 4, "torus": True}, (4, 4))]
    unsolvable_corner = [[1, 0, 0, 0, 0]] + [[0] * 5] * 4

    def client(index: int) -> None:
        rng = np.random.default_rng(index)
        try:
            while time.monotonic() < deadline:
                rules, shape = cases[(index + counts[index]) % len(cases)]
                torus, self_toggle, states = rules.get("torus", False), rules.get("self_toggle", True), \
                    rules.get("states", 2)
                if counts[index] % 7 == 3:
                    status, answer = post(srv, "/api/solve", {"board": unsolvable_corner})
                    pattern = np.array(answer["quiet_pattern"])
                    ok = (status == 200 and answer["solvable"] is False and
                          not oracle.replay(np.zeros((5, 5)), pattern).any() and pattern[0, 0] % 2 == 1)
                    if not ok:
                        errors.append(f"client {index}: bad unsolvable answer {status} {answer}")
                else:
                    board = random_solvable(rng, shape, torus, self_toggle, states)
                    status, answer = post(srv, "/api/solve", {"board": board.tolist(), **rules})
                    if status != 200:
                        errors.append(f"client {index}: HTTP {status} {answer}")
                    else:
                        try:
                            check_solution(board, answer, torus, self_toggle, states)
                        except AssertionError as exc:
                            errors.append(f"client {index}: wrong answer: {exc}")
                counts[index] += 1
        except Exception as exc:  # a refused connection, a timeout: an error of the server
            errors.append(f"client {index}: {type(exc).__name__}: {exc}")

    threads = [threading.Thread(target=client, args=(i,)) for i in range(clients)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(seconds + 120)
    return sum(counts), errors


def test_fifty_concurrent_clients(server):
    seconds = float(os.environ.get("LIGHTSOUT_PLAY_SOAK_SECONDS", "2.5"))
    requests, errors = soak(server, 50, seconds)
    print(f"\n50 clients for {seconds:g} s: {requests} requests, {len(errors)} errors")
    assert not errors, errors[:5]
    assert requests >= 50


# ---- run_server --------------------------------------------------------------------------

RUN = """
import sys
import lightsout.play as play
try:
    play.run_server(port=0, open_browser=False)
except KeyboardInterrupt:
    print("interrupted", flush=True)
    sys.exit(130)
"""


def test_run_server_starts_and_stops_on_ctrl_c(tmp_path):
    # the lightsout this test imports: the installed one, or the checkout named by PYTHONPATH
    proc = subprocess.Popen([sys.executable, "-c", RUN], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            cwd=tmp_path, text=True)
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline()
        found = re.search(r"http://127\.0\.0\.1:(\d+)/", line)
        assert found, line + (proc.stderr.read() if proc.stderr else "")
        url = found.group(0)
        with urllib.request.urlopen(url, timeout=10) as page:
            assert page.status == 200
        time.sleep(0.2)
        t0 = time.monotonic()
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=10)
        assert time.monotonic() - t0 < 3, "did not stop promptly"
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == 130
    assert "interrupted" in out
    assert "Traceback" not in err and "Exception" not in err, err
    # the port is free again: the socket was closed
    with socket.socket() as sock:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # past the closed connections' TIME_WAIT
        sock.bind(("127.0.0.1", int(found.group(1))))
        sock.listen()


def test_run_server_port_in_use():
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        sock.listen()
        port = sock.getsockname()[1]
        with pytest.raises(OSError, match=f"cannot listen on 127.0.0.1:{port}"):
            play_server.run_server(port=port, open_browser=False)


def test_module_examples():
    from lightsout.play import _errors, _pressrule
    for module in (play_api, play_server, _pressrule, _errors):
        failures, attempted = doctest.testmod(module, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
        assert attempted > 0 and failures == 0, module.__name__
