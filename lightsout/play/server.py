"""The play page's web server: the standard library's ``HTTPServer``, no dependency.

Why the standard library and not a framework: the server has four static files to send and
three JSON endpoints that are plain functions (:mod:`lightsout.play.api`); a framework
would add an install step (``pip install 'lightsout-gf2[play]'``) and an event loop that
would still have to hand every solve to a thread, since the solving holds the CPU.
One thread reads every connection until its request is complete (:mod:`lightsout.play._gather`:
a whole-request deadline, a bound on the connections being read), then a fixed pool of worker
threads answers it (the kernels release the GIL), so slow or trickling clients hold no thread.
Everything a framework would add on top is written out here in a few lines: strict request
limits (body size checked from ``Content-Length`` before reading; a repeated
``Content-Length`` is a 400), JSON errors for every refusal, a fixed table of static files (no path from the URL
ever reaches the file system), a ``Host`` check against DNS rebinding while bound to
loopback, and ``Content-Type: application/json`` required on POST so that other sites'
pages cannot post to it without a CORS preflight that it never grants.

Handlers share nothing mutable: the static files are read once into an immutable table,
and each request builds its own arrays.  Threads: the one serving (``serve_forever``), the
gatherer, and at most :data:`MAX_WORKERS` workers, whatever the number of clients; at most
:data:`MAX_QUEUED` complete requests wait for a worker (more are answered 503 at once).
"""
from __future__ import annotations

import io
import ipaddress
import json
import os
import socket
import sys
import threading
import traceback
import webbrowser
from concurrent.futures import ThreadPoolExecutor
from http.server import BaseHTTPRequestHandler, HTTPServer
from importlib import resources
from typing import Any, Mapping, Optional
from urllib.parse import urlsplit

from lightsout._base.errors import LightsOutError
from lightsout.play._gather import RequestGatherer, send_status
from lightsout.play.api import ENDPOINTS, MAX_BODY_BYTES, ApiError, decode_request

__all__ = ["PlayServer", "PlayHandler", "make_server", "run_server", "STATIC_FILES", "MAX_WORKERS", "MAX_QUEUED"]

#: Worker threads answering complete requests (the solving holds a core; two cores here).
MAX_WORKERS = 8
#: Complete requests waiting for a worker; more are answered 503 at once.
MAX_QUEUED = 256

#: The only files the server sends: URL path -> (file in lightsout/play/static, media type).
STATIC_FILES: Mapping[str, tuple[str, str]] = {
    "/": ("index.html", "text/html; charset=utf-8"),
    "/index.html": ("index.html", "text/html; charset=utf-8"),
    "/play.js": ("play.js", "text/javascript; charset=utf-8"),
    "/play.css": ("play.css", "text/css; charset=utf-8"),
    "/favicon.svg": ("favicon.svg", "image/svg+xml"),
}

_SECURITY_HEADERS = (
    ("X-Content-Type-Options", "nosniff"),
    ("Referrer-Policy", "no-referrer"),
    ("X-Frame-Options", "DENY"),
    ("Content-Security-Policy",
     "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; frame-ancestors 'none'"),
)
_LOOPBACK_NAMES = {"localhost", "localhost.", "127.0.0.1", "::1"}


def _load_static() -> dict[str, tuple[bytes, str]]:
    folder = resources.files("lightsout.play") / "static"
    return {path: (folder.joinpath(name).read_bytes(), media) for path, (name, media) in STATIC_FILES.items()}


def _is_loopback(host: str) -> bool:
    if host in _LOOPBACK_NAMES:
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


class PlayServer(HTTPServer):
    """The HTTP server of the play page: a bounded set of threads, nothing shared but read-only data.

    Attributes:
        static: URL path -> (bytes, media type), read from the package once.
        loopback_only: True while bound to a loopback address; requests must then name a
            loopback host in their ``Host`` header (a guard against DNS rebinding).
        verbose: log every request to standard error (default: only failures of the server).
    """

    request_queue_size = 128  # many clients connect at once; the default backlog is 5

    def __init__(self, address: tuple[str, int], verbose: bool = False) -> None:
        host = address[0]
        self.address_family = socket.AF_INET6 if ":" in host else socket.AF_INET
        self.static = _load_static()
        self.loopback_only = _is_loopback(host)
        self.verbose = verbose
        super().__init__(address, PlayHandler)
        self._workers = ThreadPoolExecutor(MAX_WORKERS, thread_name_prefix="lightsout-play")
        self._slots = threading.BoundedSemaphore(MAX_QUEUED)
        self._gatherer = RequestGatherer(self._dispatch, MAX_BODY_BYTES)
        self._gatherer.start()

    def process_request(self, request: Any, client_address: Any) -> None:
        """A new connection goes to the gatherer, which reads it without a thread of its own."""
        self._gatherer.add(request, client_address)

    def _dispatch(self, sock: socket.socket, address: Any, received: bytes) -> None:
        """A complete request (in the gatherer's thread): queue it for a worker, or answer 503 if full."""
        if not self._slots.acquire(blocking=False):
            send_status(sock, 503, "Service Unavailable", "the server is busy; try again in a moment")
            return
        try:
            self._workers.submit(self._answer, sock, address, received)
        except RuntimeError:  # the pool is shut down: the server is closing
            self._slots.release()
            sock.close()

    def _answer(self, sock: socket.socket, address: Any, received: bytes) -> None:
        try:
            sock.setblocking(True)
            self.finish_request((sock, received), address)  # type: ignore[arg-type]  # see PlayHandler.setup
        except Exception:
            self.handle_error(sock, address)
        finally:
            self.shutdown_request(sock)
            self._slots.release()

    def server_close(self) -> None:
        """Close the listening socket, the connections being read, and the workers (waiting for none)."""
        super().server_close()
        if hasattr(self, "_gatherer"):  # not when binding failed in __init__
            self._gatherer.close()
            self._workers.shutdown(wait=False)

    @property
    def url(self) -> str:
        """The page's address; for a wildcard address (0.0.0.0, ::) the loopback one."""
        address = self.server_address
        host, port = str(address[0]), address[1]
        if host in ("0.0.0.0", ""):
            host = "127.0.0.1"
        elif host == "::":
            host = "::1"
        if ":" in host:
            host = f"[{host}]"
        return f"http://{host}:{port}/"

    def handle_error(self, request: Any, client_address: Any) -> None:
        """A connection's handler failed outside the request logic (a reset socket): one line, no traceback."""
        exc = sys.exc_info()[1]
        if isinstance(exc, (ConnectionError, TimeoutError)):
            return
        if self.verbose:
            traceback.print_exc()
        else:
            print(f"lightsout play: error while serving {client_address}: {exc!r}", file=sys.stderr)


class PlayHandler(BaseHTTPRequestHandler):
    """Answers one connection: the static files on GET, the JSON API on POST, JSON errors otherwise."""

    server: PlayServer
    server_version = "lightsout-play"
    sys_version = ""
    timeout = 10  # seconds a write may wait: a client that stops reading is dropped (reads are gathered)
    error_content_type = "application/json"
    default_request_version = "HTTP/1.0"  # answer even an unreadable request line with a status line

    def setup(self) -> None:
        """The request was read by the gatherer: ``self.request`` is (socket, its bytes)."""
        if isinstance(self.request, tuple):
            self.request, received = self.request
        else:  # a plain connection, as socketserver gives one
            received = None
        super().setup()
        if received is not None:
            self.rfile = io.BytesIO(received)
        self.close_connection = True  # one request a connection: its bytes are all there is

    # -- answers ---------------------------------------------------------------------
    def _send(self, status: int, body: bytes, media: str, extra: tuple[tuple[str, str], ...] = ()) -> None:
        self.send_response(status)
        self.send_header("Content-Type", media)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-store")
        self.send_header("Connection", "close")  # one request a connection (see setup)
        for name, value in _SECURITY_HEADERS + extra:
            self.send_header(name, value)
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    def _send_json(self, status: int, payload: Any, extra: tuple[tuple[str, str], ...] = ()) -> None:
        body = json.dumps(payload, separators=(",", ":")).encode()
        self._send(status, body, "application/json", extra)

    def send_error(self, code: int, message: Optional[str] = None, explain: Optional[str] = None) -> None:
        """Refusals of the HTTP layer itself (a malformed request line, an unknown method) as JSON."""
        try:
            short = self.responses[code][0]
        except KeyError:
            short = "error"
        text = message or short
        self.close_connection = True
        if not hasattr(self, "command") or self.command is None:
            self.command = "GET"  # the request line was unreadable; answer with a body anyway
        self._send_json(code, {"error": text})

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - the base class's name
        if self.server.verbose:
            super().log_message(format, *args)

    # -- checks ----------------------------------------------------------------------
    def _path(self) -> Optional[str]:
        """The request's path, or None after answering 403 for a foreign ``Host`` (DNS rebinding)."""
        if self.server.loopback_only:
            host = self.headers.get("Host", "")
            name = urlsplit(f"//{host}").hostname or ""
            if not _is_loopback(name):
                self._send_json(403, {"error": f"Host {host!r} refused: this server answers only on loopback "
                                               f"addresses (localhost, 127.0.0.1, [::1])"})
                return None
        return urlsplit(self.path).path

    # -- methods ---------------------------------------------------------------------
    def do_GET(self) -> None:  # noqa: N802 - the base class's name
        """The page's static files; a JSON 404 for anything else, 405 for an API path."""
        path = self._path()
        if path is None:
            return
        found = self.server.static.get(path)
        if found is not None:
            body, media = found
            self._send(200, body, media)
        elif path in ENDPOINTS:
            self._send_json(405, {"error": f"{path} takes POST with a JSON body"}, (("Allow", "POST"),))
        else:
            self._send_json(404, {"error": f"not found: {path}"})

    do_HEAD = do_GET

    def do_POST(self) -> None:  # noqa: N802 - the base class's name
        """The JSON API: checks the headers and the size before reading the body."""
        path = self._path()
        if path is None:
            return
        endpoint = ENDPOINTS.get(path)
        if endpoint is None:
            if path in self.server.static:
                self._send_json(405, {"error": f"{path} takes GET"}, (("Allow", "GET, HEAD"),))
            else:
                self._send_json(404, {"error": f"not found: {path}"})
            return
        self.close_connection = True
        media = self.headers.get("Content-Type", "").split(";")[0].strip().lower()
        if media != "application/json":
            self._send_json(415, {"error": f"Content-Type must be application/json, got {media or 'none'!r}"})
            return
        if self.headers.get("Transfer-Encoding"):
            self._send_json(411, {"error": "send the body with a Content-Length, not a Transfer-Encoding"})
            return
        repeated = self.headers.get_all("Content-Length") or []
        if len(repeated) > 1:
            self._send_json(400, {"error": f"Content-Length given {len(repeated)} times; send it once"})
            return
        declared = self.headers.get("Content-Length")
        if declared is None:
            self._send_json(411, {"error": "Content-Length is required"})
            return
        if not declared.strip().isdigit():
            self._send_json(400, {"error": f"Content-Length must be a number of bytes, got {declared!r}"})
            return
        length = int(declared)
        if length > MAX_BODY_BYTES:
            self._send_json(413, {"error": f"request body of {length} bytes is over the limit of "
                                           f"{MAX_BODY_BYTES} bytes (boards up to 200 x 200)"})
            return
        body = self.rfile.read(length)
        if len(body) < length:
            return  # the client went away mid-body
        try:
            answer = endpoint(decode_request(body))
        except ApiError as exc:
            self._send_json(exc.status, exc.payload())
            return
        except LightsOutError as exc:  # the library refused something the checks let through
            self._send_json(400, {"error": str(exc)})
            return
        except Exception as exc:  # a bug: say so in the answer and on the server's standard error
            traceback.print_exc()
            self._send_json(500, {"error": f"internal error: {type(exc).__name__}: {exc}"})
            return
        self._send_json(200, answer)


def make_server(host: str = "127.0.0.1", port: int = 8000, *, verbose: bool = False) -> PlayServer:
    """A bound, listening play server (not yet serving): call ``serve_forever()``, e.g. in a thread.

    Args:
        host: the address to listen on; the default answers only this machine.
        port: the TCP port; 0 picks a free one (read it back from ``server.server_address``).
        verbose: log every request to standard error.

    Raises:
        OSError: the address cannot be bound (the port is taken, say); the message names it.

    Example:
        >>> import threading, urllib.request
        >>> server = make_server(port=0)
        >>> thread = threading.Thread(target=server.serve_forever, daemon=True)
        >>> thread.start()
        >>> with urllib.request.urlopen(server.url) as page:
        ...     page.status, page.headers["Content-Type"]
        (200, 'text/html; charset=utf-8')
        >>> server.shutdown(); server.server_close()
    """
    try:
        return PlayServer((host, port), verbose=verbose)
    except OSError as exc:
        raise OSError(exc.errno, f"cannot listen on {host}:{port}: {exc.strerror or exc}") from exc


def _can_open_browser() -> bool:
    """False on a Unix without a display, where ``webbrowser`` would start a text browser in this terminal."""
    if sys.platform.startswith(("win", "darwin")):
        return True
    return bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))


def run_server(host: str = "127.0.0.1", port: int = 8000, open_browser: bool = True) -> None:
    """Serve the play page until Ctrl-C, then close the socket and let the KeyboardInterrupt propagate.

    Prints one line with the page's address (flushed) and opens it in the default browser
    when ``open_browser`` and a graphical browser can be found.  This is what
    ``lightsout play`` runs.

    Args:
        host: address to listen on (default: loopback only).
        port: TCP port; 0 picks a free one (the printed address names it).
        open_browser: open the page in the user's browser.

    Raises:
        KeyboardInterrupt: on Ctrl-C, after the socket is closed.
        OSError: the address cannot be bound.

    Example (blocks; Ctrl-C stops it)::

        >>> run_server(port=8765, open_browser=False)  # doctest: +SKIP
        lightsout play: serving http://127.0.0.1:8765/; press Ctrl-C to stop
    """
    server = make_server(host, port)
    try:
        url = server.url
        where = " (all interfaces)" if host in ("0.0.0.0", "::", "") else ""
        print(f"lightsout play: serving {url}{where}; press Ctrl-C to stop", flush=True)
        if open_browser:
            if _can_open_browser():
                threading.Thread(target=webbrowser.open, args=(url,), daemon=True).start()
            else:
                print("lightsout play: no graphical display here; open the address above in a browser", flush=True)
        server.serve_forever()
    finally:
        server.server_close()
