"""Reading requests before they get a thread: one selector thread gathers every connection's bytes.

A client that sends its request one byte at a time must not hold a thread while it does, or a
few thousand such clients take every thread and the memory with them.  So the server gives a
connection a worker only once its request is complete: :class:`RequestGatherer` reads every
new connection in one thread (``selectors``, non-blocking sockets) until the headers have
arrived and, for a POST, the body its ``Content-Length`` declares.  A request must be complete
within :data:`REQUEST_SECONDS` of its connection, whatever the pace of its bytes (a whole-request
deadline, not a per-read timeout); at most :data:`MAX_PENDING` connections are read at once, and
when more arrive the oldest is dropped, so a new client is always read.

Requests the handler will refuse from their headers alone (a body over the limit, a missing,
repeated or malformed ``Content-Length``, a ``Transfer-Encoding``) are handed over as soon as the
headers are in, without waiting for a body that will never be read.

Example:
    >>> request = b"GET / HTTP/1.1\\r\\nHost: x\\r\\n\\r\\n"
    >>> complete_length(request, 100) == len(request)
    True
    >>> complete_length(b"POST /api HTTP/1.1\\r\\nContent-Length: 4\\r\\n\\r\\n{}", 100) is None  # 2 of 4
    True
"""
from __future__ import annotations

import collections
import re
import selectors
import socket
import threading
import time
from typing import Any, Callable, Optional, Union

__all__ = ["RequestGatherer", "complete_length", "request_need", "send_status", "MAX_PENDING", "REQUEST_SECONDS",
           "MAX_HEADER_BYTES"]

#: Connections read at once; beyond it the oldest is dropped.
MAX_PENDING = 2048
#: Seconds from connection to complete request (headers and body).
REQUEST_SECONDS = 10.0
#: Largest request line and headers; a longer head is answered 431.
MAX_HEADER_BYTES = 64 << 10

_HEADER_END = re.compile(rb"\r?\n\r?\n")
_CONTENT_LENGTH = re.compile(rb"^content-length[ \t]*:[ \t]*(.*?)[ \t]*\r?$", re.IGNORECASE | re.MULTILINE)
_TRANSFER_ENCODING = re.compile(rb"^transfer-encoding[ \t]*:", re.IGNORECASE | re.MULTILINE)

Deliver = Callable[[socket.socket, Any, bytes], None]


def request_need(data: Union[bytes, bytearray], max_body: int, start: int = 0) -> Optional[int]:
    """The length of the whole request once its head has arrived (None before): the head, plus
    the body a POST declares.  The head's end is searched from ``start`` (bytes before it were
    searched already), so reading a request byte by byte stays linear.

    Example:
        >>> request_need(b"POST / HTTP/1.1\\r\\nContent-Length: 5\\r\\n\\r\\n{", 100)   # 38 + 5
        43
    """
    newline = data.find(b"\n")
    if newline >= 0 and len(data[:newline].split()) == 2:  # HTTP/0.9: a request line and nothing else
        return newline + 1
    end = _HEADER_END.search(data, max(0, start - 3))  # a blank line may straddle two reads
    if end is None:
        return None
    head = bytes(data[:end.start()])
    if not head.lstrip().upper().startswith(b"POST ") or _TRANSFER_ENCODING.search(head):
        return end.end()
    declared = _CONTENT_LENGTH.findall(head)
    if len(declared) != 1 or not declared[0].isdigit() or int(declared[0]) > max_body:
        return end.end()  # the handler refuses it from the headers
    return end.end() + int(declared[0])


def complete_length(data: bytes, max_body: int) -> Optional[int]:
    """How many bytes of ``data`` make one complete request, or None while more must come.

    Example:
        >>> request = b"POST / HTTP/1.1\\r\\nContent-Length: 2\\r\\n\\r\\n{}"
        >>> complete_length(request + b"more", 100) == len(request)
        True
        >>> head = b"POST / HTTP/1.1\\r\\nContent-Length: 999\\r\\n\\r\\n"
        >>> complete_length(head, 100) == len(head)   # over the limit: the handler refuses it unread
        True
    """
    need = request_need(data, max_body)
    return need if need is not None and len(data) >= need else None


def send_status(sock: socket.socket, status: int, reason: str, message: str) -> None:
    """Answer a refusal without blocking (a small response fits the socket's buffer) and close."""
    body = ('{"error":"%s"}' % message.replace('"', "'")).encode()
    head = (f"HTTP/1.1 {status} {reason}\r\nContent-Type: application/json\r\nContent-Length: {len(body)}\r\n"
            "Connection: close\r\nCache-Control: no-store\r\n\r\n").encode()
    try:
        sock.setblocking(False)
        sock.send(head + body)
    except OSError:
        pass
    finally:
        sock.close()


class _Pending:
    __slots__ = ("sock", "address", "started", "data", "need")

    def __init__(self, sock: socket.socket, address: Any, started: float) -> None:
        self.sock, self.address, self.started, self.data = sock, address, started, bytearray()
        self.need: Optional[int] = None  # the whole request's length, once its head is in


class RequestGatherer:
    """Read connections in one thread until their requests are complete, then ``deliver`` them.

    Args:
        deliver: called in the gatherer's thread with (socket, address, request bytes) for each
            complete request; the socket is then the callee's (still non-blocking).
        max_body: the largest body a POST may declare (larger ones are delivered at once).
        max_pending, deadline, max_header: :data:`MAX_PENDING`, :data:`REQUEST_SECONDS`,
            :data:`MAX_HEADER_BYTES`.

    Example:
        >>> got = []
        >>> gatherer = RequestGatherer(lambda sock, address, data: (got.append(data), sock.close()), 100)
        >>> gatherer.start()
        >>> ours, theirs = socket.socketpair()
        >>> gatherer.add(ours, "peer")
        >>> _ = theirs.sendall(b"GET / HTTP/1.1\\r\\n\\r\\n")
        >>> for _ in range(200):
        ...     if got:
        ...         break
        ...     time.sleep(0.01)
        >>> got
        [b'GET / HTTP/1.1\\r\\n\\r\\n']
        >>> gatherer.close(); theirs.close()
    """

    def __init__(self, deliver: Deliver, max_body: int, *, max_pending: int = MAX_PENDING,
                 deadline: float = REQUEST_SECONDS, max_header: int = MAX_HEADER_BYTES) -> None:
        self._deliver = deliver
        self._max_body, self._max_pending, self._deadline, self._max_header = max_body, max_pending, deadline, max_header
        self._selector = selectors.DefaultSelector()
        self._pending: collections.OrderedDict[int, _Pending] = collections.OrderedDict()  # oldest first
        self._incoming: collections.deque[_Pending] = collections.deque()
        self._lock = threading.Lock()
        self._wake_read, self._wake_write = socket.socketpair()
        self._wake_read.setblocking(False)
        self._wake_write.setblocking(False)
        self._selector.register(self._wake_read, selectors.EVENT_READ, None)
        self._stopping = False
        self._thread = threading.Thread(target=self._run, name="lightsout-play-gather", daemon=True)

    def start(self) -> None:
        """Start the gathering thread."""
        self._thread.start()

    def add(self, sock: socket.socket, address: Any) -> None:
        """Take a new connection (from the accepting thread); the oldest waiting one goes if there are too many."""
        dropped = None
        with self._lock:
            if self._stopping:
                dropped = sock
            else:
                self._incoming.append(_Pending(sock, address, time.monotonic()))
                if len(self._incoming) > self._max_pending:
                    dropped = self._incoming.popleft().sock
        if dropped is not None:
            dropped.close()
        self._wake()

    def pending(self) -> int:
        """Connections being read now."""
        return len(self._pending) + len(self._incoming)

    def close(self) -> None:
        """Stop the thread and close every connection still being read."""
        with self._lock:
            self._stopping = True
        self._wake()
        if self._thread.is_alive() and self._thread is not threading.current_thread():
            self._thread.join(5)
        for entry in list(self._pending.values()) + list(self._incoming):
            entry.sock.close()
        self._pending.clear()
        self._incoming.clear()
        self._selector.close()
        self._wake_read.close()
        self._wake_write.close()

    # -- the gathering thread ---------------------------------------------------------
    def _wake(self) -> None:
        try:
            self._wake_write.send(b"\0")
        except OSError:  # the buffer is full (a wake-up is already pending) or closed
            pass

    def _run(self) -> None:
        while True:
            with self._lock:
                if self._stopping:
                    return
                arrived = list(self._incoming)
                self._incoming.clear()
            for entry in arrived:
                self._take(entry)
            for key, _ in self._selector.select(timeout=0.25):
                if key.data is None:
                    try:
                        while self._wake_read.recv(4096):
                            pass
                    except OSError:
                        pass
                else:
                    self._read(key.data)
            self._expire(time.monotonic())

    def _take(self, entry: _Pending) -> None:
        while len(self._pending) >= self._max_pending:
            _, oldest = self._pending.popitem(last=False)
            self._forget(oldest)
            oldest.sock.close()
        try:
            entry.sock.setblocking(False)
            self._selector.register(entry.sock, selectors.EVENT_READ, entry)
        except (OSError, ValueError):
            entry.sock.close()
            return
        self._pending[id(entry)] = entry

    def _forget(self, entry: _Pending) -> None:
        self._pending.pop(id(entry), None)
        try:
            self._selector.unregister(entry.sock)
        except (KeyError, ValueError, OSError):
            pass

    def _read(self, entry: _Pending) -> None:
        try:
            chunk = entry.sock.recv(1 << 16)
        except (BlockingIOError, InterruptedError):
            return
        except OSError:
            chunk = b""
        if not chunk:  # the client went away before its request was complete
            self._forget(entry)
            entry.sock.close()
            return
        searched = len(entry.data)
        entry.data += chunk
        if entry.need is None:
            entry.need = request_need(entry.data, self._max_body, searched)
            if entry.need is None:
                if len(entry.data) > self._max_header:
                    self._forget(entry)
                    send_status(entry.sock, 431, "Request Header Fields Too Large",
                                f"the request line and headers are over the limit of {self._max_header} bytes")
                return
        if len(entry.data) < entry.need:
            return
        self._forget(entry)
        try:
            self._deliver(entry.sock, entry.address, bytes(entry.data[:entry.need]))
        except Exception:  # the server refused or failed to take it: the connection closes
            entry.sock.close()

    def _expire(self, now: float) -> None:
        while self._pending:
            oldest = next(iter(self._pending.values()))
            if now - oldest.started < self._deadline:
                return
            self._forget(oldest)
            send_status(oldest.sock, 408, "Request Timeout",
                        f"the whole request must arrive within {self._deadline:g} seconds")
