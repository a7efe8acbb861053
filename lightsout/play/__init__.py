"""A page to play Lights Out in a browser, served by lightsout itself (``lightsout play``).

:func:`run_server` serves the page and its JSON API (:mod:`lightsout.play.api`) on
http://127.0.0.1:8000/ until Ctrl-C; :func:`make_server` gives a server to run in a thread.
The page (``lightsout/play/static``: one HTML file, one script, one style sheet, no
network access beyond this server) presses cells in the browser exactly as
:func:`lightsout.press` does, and asks the server for random boards, hints, solutions,
quiet patterns and the proof that a board is unsolvable.

The server is the standard library's ``http.server.HTTPServer``, with one thread gathering
requests and a fixed pool of threads answering them: it needs no extra install, and for one
page and three JSON endpoints it serves as well as a framework would (why, in detail:
:mod:`lightsout.play.server`).

Example:
    >>> import json, threading, urllib.request
    >>> from lightsout.play import make_server
    >>> server = make_server(port=0)                 # port 0: any free port
    >>> threading.Thread(target=server.serve_forever, daemon=True).start()
    >>> request = urllib.request.Request(server.url + "api/solve", method="POST",
    ...     data=json.dumps({"board": [[1, 1, 1]] * 3}).encode(),
    ...     headers={"Content-Type": "application/json"})
    >>> with urllib.request.urlopen(request) as answer:
    ...     reply = json.load(answer)
    >>> reply["solvable"], reply["presses"], reply["count"], reply["fewest"]
    (True, [[1, 0, 1], [0, 1, 0], [1, 0, 1]], '1', 5)
    >>> server.shutdown(); server.server_close()
"""
from __future__ import annotations

from lightsout.play.api import ApiError
from lightsout.play.server import PlayServer, make_server, run_server

__all__ = ["run_server", "make_server", "PlayServer", "ApiError"]
