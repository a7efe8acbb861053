"""Exception types raised by lightsout."""
from __future__ import annotations


class LightsOutError(Exception):
    """Base class of every exception lightsout raises on purpose."""


class InvalidBoardError(LightsOutError, ValueError):
    """A board, size or argument value that lightsout does not accept."""


class InvalidTypeError(LightsOutError, TypeError):
    """An argument of a type lightsout does not accept."""


class BoardTooLargeError(InvalidBoardError, MemoryError):
    """The requested computation needs more memory than is reasonable to allocate."""
