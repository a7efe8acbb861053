"""A play server on a free port of this machine, serving in a thread, for the tests of lightsout.play."""
from __future__ import annotations

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
