"""The API's one error, how its messages name a JSON value's type, and the one check of rows.

:class:`ApiError` lives here so that every module that checks a part of a request can raise
it; its public home is :mod:`lightsout.play.api`, which re-exports it (and pickles name it
there).

Example:
    >>> json_type([1]), json_type(True), json_type(None)
    ('an array', 'a boolean', 'null')
"""
from __future__ import annotations

from typing import Any

from lightsout._base.errors import LightsOutError

__all__ = ["ApiError", "Json", "equal_rows", "json_type"]

Json = dict[str, Any]


class ApiError(LightsOutError, ValueError):
    """A request the API refuses: ``status`` is the HTTP status, ``message`` says why.

    Like every lightsout error it survives ``pickle`` with its attributes.

    Example:
        >>> import pickle
        >>> err = pickle.loads(pickle.dumps(ApiError(400, "board must be a list of rows")))
        >>> err.status, err.payload(), str(err)
        (400, {'error': 'board must be a list of rows'}, 'board must be a list of rows')
    """

    def __init__(self, status: int, message: str) -> None:
        super().__init__(status, message)
        self.status = status
        self.message = message

    def __str__(self) -> str:
        return self.message

    def payload(self) -> Json:
        """The JSON body of the error answer.

        Example:
            >>> ApiError(404, "no such page").payload()
            {'error': 'no such page'}
        """
        return {"error": self.message}


ApiError.__module__ = "lightsout.play.api"  # its public home: tracebacks and pickles name it there


def json_type(value: object) -> str:
    """How a message names the JSON type of a decoded value ("an array", "a string", ...).

    Example:
        >>> json_type({}), json_type("x"), json_type(2)
        ('an object', 'a string', 'an integer')
    """
    names = {dict: "an object", list: "an array", str: "a string", bool: "a boolean", int: "an integer",
             float: "a number", type(None): "null"}
    return names.get(type(value), type(value).__name__)


def equal_rows(value: list[Any], what: str, unit: str) -> int:
    """The length of every row of ``value`` (a list), refused unless each row is a list and all are equally long.

    ``what`` names the value in the messages ("the board"), ``unit`` a row's entries ("cells").

    Example:
        >>> equal_rows([[0, 1], [1, 0]], "the board", "cells")
        2
        >>> equal_rows([[0, 1], [1]], "the board", "cells")
        Traceback (most recent call last):
        ...
        lightsout.play.api.ApiError: the board's rows must have equal lengths: row 0 has 2 cells, row 1 has 1
    """
    if not all(isinstance(row, list) for row in value):
        bad = next(row for row in value if not isinstance(row, list))
        raise ApiError(400, f"every row of {what} must be an array, got {json_type(bad)}")
    ncols = len(value[0])
    if any(len(row) != ncols for row in value):
        bad_row = next(i for i, row in enumerate(value) if len(row) != ncols)
        raise ApiError(400, f"{what}'s rows must have equal lengths: row 0 has {ncols} {unit}, row {bad_row} has "
                            f"{len(value[bad_row])}")
    return ncols
