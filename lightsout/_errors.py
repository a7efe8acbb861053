"""Exception types raised by lightsout.

Every class here (and :class:`lightsout.UnsolvableError`) survives ``pickle``
and ``copy.copy`` with its attributes, so errors cross process boundaries
(``ProcessPoolExecutor``, ``multiprocessing``) as themselves.

Example:
    >>> import pickle, lightsout
    >>> try:
    ...     lightsout.first_row(0)
    ... except lightsout.InvalidBoardError as exc:
    ...     print(type(pickle.loads(pickle.dumps(exc))).__name__, isinstance(exc, ValueError))
    InvalidBoardError True
"""
from __future__ import annotations


class LightsOutError(Exception):
    """Base class of every exception lightsout raises on purpose."""


class InvalidBoardError(LightsOutError, ValueError):
    """A board, size or argument value that lightsout does not accept."""


class InvalidTypeError(LightsOutError, TypeError):
    """An argument of a type lightsout does not accept."""


class BoardTooLargeError(InvalidBoardError, MemoryError):
    """The requested computation needs more memory or time than lightsout will spend on it."""


class SettingError(LightsOutError, ValueError):
    """An environment setting (such as ``LIGHTSOUT_SIMD``) that this machine or build cannot honour."""


class InternalError(RuntimeError):
    """A check of lightsout's own answer failed: a bug in lightsout, not a mistake of the caller.

    Not a :class:`LightsOutError`, so ``except LightsOutError`` (bad input, unsolvable boards)
    never hides it.  Please report it with the call that raised it.

    Example:
        >>> issubclass(InternalError, LightsOutError)
        False
    """

    def __init__(self, message: str = "internal error") -> None:
        super().__init__(f"{message} (a bug in lightsout: please report it with the call that raised it)")
