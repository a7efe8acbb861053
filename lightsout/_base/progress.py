"""Progress bars on standard error: tqdm behind the library's ``progress(stage, done, total)`` callbacks.

:class:`ProgressBar` is such a callback.  Each stage (``"chase"``, ``"gcd"``,
``"ab_iteration"``, ``"render"``, ...) gets its own tqdm bar, opened on the
stage's first report and closed when the next stage starts or the work ends.
A bar appears only once its stage has run for :data:`DELAY` seconds, so quick
commands print nothing; it is never drawn when standard error is not a
terminal, when tqdm is missing (it is a dependency, but the command line
must not fail for want of a progress bar), or when ``enabled`` is False
(``--quiet``).  Bars are erased when closed (``leave=False``), so the lines
printed after them (results, one-line errors) stand alone.

Example:
    >>> with ProgressBar(enabled=False) as bar:
    ...     bar.callback is None
    True
"""
from __future__ import annotations

import sys
from types import TracebackType
from typing import Any, Callable, Optional, TextIO

#: Seconds a stage runs before its bar is drawn.
DELAY = 1.0

#: What each stage is called on screen.
STAGE_NAMES = {
    "chase": "chasing rows", "gcd": "polynomial gcd", "convert": "converting", "horner": "evaluating",
    "ab_iteration": "A/B iteration", "reduce": "reducing", "divide": "dividing", "first_column": "first column",
    "nullity_table": "nullity table", "render": "rendering rows", "write": "writing",
}


def _terminal(stream: Optional[TextIO]) -> bool:
    try:
        return stream is not None and bool(stream.isatty())
    except (AttributeError, ValueError):
        return False


class ProgressBar:
    """A ``progress(stage, done, total)`` callable drawing tqdm bars on ``file`` (standard error).

    Use it as a context manager so the last bar is closed; :attr:`callback`
    is the callable to pass as ``progress=`` (None when nothing would be
    drawn, so the library skips the reports).

    Example:
        >>> import io
        >>> bar = ProgressBar(file=io.StringIO())      # not a terminal: silent
        >>> bar.callback is None
        True
    """

    def __init__(self, *, enabled: bool = True, file: Optional[TextIO] = None, delay: float = DELAY) -> None:
        self.file = sys.stderr if file is None else file
        self.delay = delay
        self._tqdm: Optional[Callable[..., Any]] = None
        if enabled and _terminal(self.file):
            try:
                from tqdm import tqdm
            except ImportError:
                pass
            else:
                self._tqdm = tqdm
        self._bar: Any = None
        self._stage: Optional[str] = None

    @property
    def callback(self) -> Optional[Callable[[str, int, int], None]]:
        """The callable for ``progress=``, or None when no bar would be drawn."""
        return self if self._tqdm is not None else None

    def __call__(self, stage: str, done: int, total: int) -> None:
        if self._tqdm is None:
            return
        if stage != self._stage or self._bar is None or self._bar.total != total:
            self.close()
            self._stage = stage
            self._bar = self._tqdm(total=total, desc=STAGE_NAMES.get(stage, stage), file=self.file,
                                   delay=self.delay, leave=False, dynamic_ncols=True, mininterval=0.2)
        self._bar.update(done - self._bar.n)

    def close(self) -> None:
        """Close (erase) the current bar, if any."""
        if self._bar is not None:
            try:
                self._bar.close()
            except (OSError, ValueError):  # standard error is gone
                pass
            self._bar = None
            self._stage = None

    def __enter__(self) -> "ProgressBar":
        return self

    def __exit__(self, kind: Optional[type[BaseException]], value: Optional[BaseException],
                 traceback: Optional[TracebackType]) -> None:
        self.close()
