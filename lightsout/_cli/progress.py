"""Progress on standard error, behind the library's ``progress(stage, done, total)`` callbacks.

:class:`ProgressBar` is such a callback.  Each stage (``"chase"``, ``"gcd"``,
``"ab_iteration"``, ``"render"``, ...) is shown on its own, from the stage's
first report until the next stage starts or the work ends, and only once it
has run for :data:`DELAY` seconds, so quick commands print nothing.  Nothing
is drawn when standard error is not a terminal or when ``enabled`` is False
(``--quiet``).  What is drawn is erased when closed, so the lines printed
after it (results, one-line errors) stand alone.

With tqdm installed (the ``progress`` extra: ``pip install 'lightsout-gf2[progress]'``)
each stage is a tqdm bar, with its rate and time left.  Without it the same
progress is one line of plain text, rewritten in place, which ends with the
hint that installs the bars while it fits the terminal's width.  tqdm is
optional because the library never draws anything: numpy is its one
dependency, and the command line loses only the bars' looks without tqdm.

Example:
    >>> with ProgressBar(enabled=False) as bar:
    ...     bar.callback is None
    True
"""
from __future__ import annotations

import shutil
import sys
import time
from types import TracebackType
from typing import Any, Callable, Optional, TextIO

from lightsout._version import DISTRIBUTION

#: Seconds a stage runs before its progress is drawn.
DELAY = 1.0

#: Seconds between two redraws of the plain-text line.
PLAIN_INTERVAL = 0.2

#: The extra that installs tqdm, named in the plain-text line.
EXTRA = "progress"

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


def _tqdm() -> Optional[Callable[..., Any]]:
    """tqdm's bar class, or None when tqdm is not installed."""
    try:
        from tqdm import tqdm
    except ImportError:
        return None
    return tqdm  # type: ignore[no-any-return]


class ProgressBar:
    """A ``progress(stage, done, total)`` callable drawing on ``file`` (standard error): tqdm bars or plain text.

    Use it as a context manager so the last stage's progress is erased;
    :attr:`callback` is the callable to pass as ``progress=`` (None when
    nothing would be drawn, so the library skips the reports).  ``bars``
    False draws plain text even where tqdm is installed (the tests use it).

    Example:
        >>> import io
        >>> bar = ProgressBar(file=io.StringIO())      # not a terminal: silent
        >>> bar.callback is None
        True
    """

    def __init__(self, *, enabled: bool = True, file: Optional[TextIO] = None, delay: float = DELAY,
                 bars: bool = True) -> None:
        self.file = sys.stderr if file is None else file
        self.delay = delay
        self._draw = enabled and _terminal(self.file)
        self._tqdm = _tqdm() if self._draw and bars else None
        self._bar: Any = None
        self._stage: Optional[str] = None
        self._total = 0
        self._started = self._drawn_at = 0.0
        self._width = 0  # characters of the plain line on screen
        self._bounds: Optional[str] = None  # the fewest-press search's bracket, as shown

    @property
    def callback(self) -> Optional[Callable[[str, int, int], None]]:
        """The callable for ``progress=``, or None when nothing would be drawn."""
        return self if self._draw else None

    def __call__(self, stage: str, done: int, total: int, bounds: Optional[tuple[int, int]] = None) -> None:
        """Draw ``done`` of ``total``; ``bounds``: the fewest-press search's (proven lower, best found)."""
        if not self._draw:
            return
        self._bounds = None if bounds is None else f"presses in [{bounds[0]:,}, {bounds[1]:,}]"
        if stage != self._stage or total != self._total:
            self.close()
            self._stage, self._total = stage, total
            self._started = time.monotonic()
            if self._tqdm is not None:
                self._bar = self._tqdm(total=total, desc=STAGE_NAMES.get(stage, stage), file=self.file,
                                       delay=self.delay, leave=False, dynamic_ncols=True, mininterval=0.2)
        if self._bar is not None:
            if self._bounds is not None:
                self._bar.set_postfix_str(self._bounds)   # redrawn: the bounds change while done stands still
            self._bar.update(done - self._bar.n)
            return
        now = time.monotonic()
        if now - self._started >= self.delay and (self._width == 0 or now - self._drawn_at >= PLAIN_INTERVAL):
            self._plain(stage, done, total)
            self._drawn_at = now

    def _plain(self, stage: str, done: int, total: int) -> None:
        """Rewrite the plain-text line: the stage, the share done, and the hint while it fits."""
        share = f"{100 * done // total:3d}% " if total > 0 else ""
        text = f"{STAGE_NAMES.get(stage, stage)}: {share}({done:,}/{total:,})"
        if self._bounds is not None:
            text += f", {self._bounds}"
        columns = max(20, shutil.get_terminal_size().columns - 1)
        hint = f"   (bars: pip install '{DISTRIBUTION}[{EXTRA}]')"
        if len(text) + len(hint) <= columns:
            text += hint
        text = text[:columns]
        self._write("\r" + text.ljust(self._width))  # padded over a longer line drawn before
        self._width = max(self._width, len(text))

    def _write(self, text: str) -> None:
        try:
            self.file.write(text)
            self.file.flush()
        except (OSError, ValueError):  # standard error is gone: stop drawing
            self._draw = False

    def close(self) -> None:
        """Erase the current stage's progress, if any was drawn."""
        if self._bar is not None:
            try:
                self._bar.close()
            except (OSError, ValueError):  # standard error is gone
                pass
            self._bar = None
        if self._width:
            self._write("\r" + " " * self._width + "\r")
            self._width = 0
        self._stage = None
        self._total = 0

    def __enter__(self) -> "ProgressBar":
        return self

    def __exit__(self, kind: Optional[type[BaseException]], value: Optional[BaseException],
                 traceback: Optional[TracebackType]) -> None:
        self.close()
