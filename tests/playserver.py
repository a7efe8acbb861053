"""A play server on a free port of this machine, serving in a thread, for the tests of lightsout.play."""
from __future__ import annotations

import socket
import threading
from contextlib import contextmanager
from typing import Iterator

from lightsout.play import PlayServer, make_server


@contextmanager
def serving() -> Iterator[PlayServer]:
    """A started server (``serve_forever`` in a daemon thread); shut down and closed on exit."""
    srv = make_server("127.0.0.1", 0)
    thread = threading.Thread(target=srv.serve_forever, daemon=True)
    thread.start()
    try:
        yield srv
    finally:
        srv.shutdown()
        srv.server_close()
        thread.join(5)


def read_answer(sock: socket.socket) -> tuple[int, bytes]:
    """(status, body) of the HTTP answer on ``sock``, read until the server closes it."""
    data = b""
    while True:
        chunk = sock.recv(65536)
        if not chunk:
            break
        data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    return int(head.split()[1]), body
