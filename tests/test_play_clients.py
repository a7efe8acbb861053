"""Issue 16, item 11: slow, trickling and malformed clients hold no thread of the play server.

The server runs in this process on a free port; the clients are raw sockets driven from the
test's own thread, so every thread counted is the server's.
"""
from __future__ import annotations

import json
import socket
import threading
import time
import urllib.request

import pytest

from playserver import read_answer, serving
from lightsout.play import server as play_server
from lightsout.play._gather import complete_length

HEAD = b"POST /api/solve HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"


@pytest.fixture()
def server():
    with serving() as srv:
        yield srv


def _connect(srv) -> socket.socket:
    return socket.create_connection(srv.server_address[:2], timeout=10)


def _solve(srv) -> dict:
    request = urllib.request.Request(srv.url + "api/solve", data=json.dumps({"board": [[1, 1, 1]] * 3}).encode(),
                                     method="POST", headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=10) as answer:
        return json.load(answer)


def _wait_until(condition, seconds: float = 10.0) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.02)
    return False


def test_trickling_clients_hold_no_thread_and_normal_requests_are_answered(server):
    _solve(server)                                   # the pool's threads exist from here on
    threads_before = threading.active_count()
    trick = [_connect(server) for _ in range(300)]
    for rounds in range(5):                          # a byte each, round after round
        for sock in trick:
            sock.send(HEAD[rounds:rounds + 1])
        reply = _solve(server)
        assert reply["solvable"] and reply["presses"] == [[1, 0, 1], [0, 1, 0], [1, 0, 1]]
    assert threading.active_count() <= threads_before + play_server.MAX_WORKERS
    assert _wait_until(lambda: server._gatherer.pending() >= 300)
    for sock in trick:
        sock.close()
    assert _wait_until(lambda: server._gatherer.pending() == 0)


def test_the_whole_request_has_a_deadline_however_steady_the_trickle(server):
    server._gatherer._deadline = 0.5
    sock = _connect(server)
    started = time.monotonic()
    sent = 0
    try:
        while time.monotonic() - started < 5 and sent < len(HEAD):
            sock.send(HEAD[sent:sent + 1])
            sent += 1
            time.sleep(0.05)
    except OSError:                                  # the server closed it: the deadline passed
        pass
    status, body = read_answer(sock)
    assert status == 408 and "within" in json.loads(body)["error"]
    assert time.monotonic() - started < 4


def test_beyond_the_bound_the_oldest_waiting_connection_is_dropped(server):
    server._gatherer._max_pending = 10
    silent = [_connect(server) for _ in range(20)]
    assert _wait_until(lambda: server._gatherer.pending() <= 10)
    assert _solve(server)["solvable"]                # a new client still gets in
    silent[0].settimeout(5)
    assert silent[0].recv(10) == b""                 # the oldest was closed
    for sock in silent:
        sock.close()


def test_two_content_lengths_are_a_400(server):
    body = b'{"board": [[1]]}'
    for lengths in ((len(body), len(body)), (len(body), 3)):
        sock = _connect(server)
        sock.sendall(HEAD + b"".join(b"Content-Length: %d\r\n" % n for n in lengths) + b"\r\n" + body)
        status, answer = read_answer(sock)
        sock.close()
        assert status == 400 and "Content-Length" in json.loads(answer)["error"]


def test_headers_over_the_limit_are_a_431(server):
    sock = _connect(server)
    try:
        sock.sendall(HEAD + b"X-Filler: " + b"a" * (80 << 10))
    except OSError:
        pass
    status, _ = read_answer(sock)
    sock.close()
    assert status == 431


def test_a_full_queue_is_answered_503_not_queued_for_ever(server):
    for _ in range(play_server.MAX_QUEUED):          # every slot taken, as by a flood of slow solves
        assert server._slots.acquire(blocking=False)
    try:
        sock = _connect(server)
        sock.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        status, _ = read_answer(sock)
        sock.close()
        assert status == 503
    finally:
        for _ in range(play_server.MAX_QUEUED):
            server._slots.release()
    assert _solve(server)["solvable"]


@pytest.mark.parametrize("data, complete", [
    (b"GET / HTTP/1.1\r\n\r\n", True),
    (b"GET / HTTP/1.1\r\nHost: a\r\n", False),
    (b"GET /\r\n", True),                                              # HTTP/0.9
    (HEAD + b"Content-Length: 5\r\n\r\n1234", False),
    (HEAD + b"Content-Length: 5\r\n\r\n12345", True),
    (HEAD + b"content-length:  5 \r\n\r\n12345", True),
    (HEAD + b"Content-Length: 99999999\r\n\r\n", True),                # refused from the headers
    (HEAD + b"Content-Length: 1\r\nContent-Length: 1\r\n\r\n", True),  # likewise
    (HEAD + b"Transfer-Encoding: chunked\r\n\r\n", True),
    (HEAD + b"\r\n", True),                                            # no length: 411 from the headers
])
def test_when_a_request_is_complete(data, complete):
    assert (complete_length(data, 1 << 20) is not None) == complete


@pytest.mark.parametrize("pieces", ["bytes", "blank line split"])
def test_a_request_read_in_pieces_is_answered_whole(server, pieces):
    body = json.dumps({"board": [[1, 1, 1]] * 3}).encode()
    request = HEAD + b"Content-Length: %d\r\n\r\n" % len(body) + body
    sock = _connect(server)
    if pieces == "bytes":
        for i in range(len(request)):
            sock.send(request[i:i + 1])
            time.sleep(0.001)
    else:
        cut = request.index(b"\r\n\r\n") + 3          # "...\r\n\r" then "\n{body}"
        sock.send(request[:cut])
        time.sleep(0.2)
        sock.send(request[cut:])
    status, answer = read_answer(sock)
    sock.close()
    assert status == 200 and json.loads(answer)["presses"] == [[1, 0, 1], [0, 1, 0], [1, 0, 1]]


def test_the_head_is_searched_once_however_it_is_cut():
    from lightsout.play._gather import request_need

    request = HEAD + b"Content-Length: 2\r\n\r\n{}"
    whole = request_need(request, 100)
    assert whole == len(request)
    for cut in range(1, len(request)):      # what the gatherer does: search only past what it searched
        first = request_need(request[:cut], 100)
        found = first if first is not None else request_need(request, 100, start=cut)
        assert found == whole, cut
