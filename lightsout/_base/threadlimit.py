"""The threads a call allows, for kernels deep inside a route that are not handed ``threads=``.

The polynomial route's products and gcds spread over every CPU by default (the kernel floor's
``threads=None``).  An entry point given ``threads=`` runs the route inside :func:`thread_limit`,
and those kernels read the limit here when their own argument is None.  The limit is a context
variable: each thread (and each asyncio task) has its own, so concurrent calls with different
counts do not mix.
"""
from __future__ import annotations

from contextlib import contextmanager
from contextvars import ContextVar
from typing import Iterator, Optional

_LIMIT: ContextVar[Optional[int]] = ContextVar("lightsout_thread_limit", default=None)


@contextmanager
def thread_limit(threads: Optional[int]) -> Iterator[None]:
    """Within the block, kernels called with ``threads=None`` use at most ``threads`` (None: no limit).

    Example:
        >>> with thread_limit(1):
        ...     current_thread_limit()
        1
        >>> current_thread_limit() is None
        True
    """
    token = _LIMIT.set(threads)
    try:
        yield
    finally:
        _LIMIT.reset(token)


def current_thread_limit() -> Optional[int]:
    """The limit of the innermost :func:`thread_limit` block around this call, or None.

    Example:
        >>> current_thread_limit() is None
        True
    """
    return _LIMIT.get()
