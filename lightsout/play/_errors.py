"""The API's one error, and how its messages name a JSON value's type.

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

__all__ = ["ApiError", "Json", "json_type"]

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
