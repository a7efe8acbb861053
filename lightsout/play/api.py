"""The JSON API behind the play page: strict request checks, then lightsout does the work.

Every endpoint is a plain function from a decoded JSON object to a JSON-ready dict, with
no state kept between calls (the server calls them from many threads at once):

================  ======================  =================================================
endpoint          function                answers
================  ======================  =================================================
POST /api/solve   :func:`solve_board`     a solution (the fewest presses when proven in
                                          time), or the weights on the lights (for today's
                                          rules: a quiet pattern) that prove the board
                                          unsolvable
POST /api/random  :func:`random_board`    a random board, solvable by construction
POST /api/quiet   :func:`quiet_patterns`  the quiet patterns of a shape and rules
================  ======================  =================================================

Limits, checked before anything of the board's size is built: at most
:data:`MAX_SIDE` rows and columns, a body of at most :data:`MAX_BODY_BYTES` bytes, light
states 2..255, a press rule (``stencil``) up to 5 x 5 (:mod:`lightsout.play._pressrule`).
Every endpoint takes the rules ``torus``, ``self_toggle``, ``states``, ``stencil`` and the
masks ``holes``, ``unpressable``, ``free_lights``.  A request that breaks a rule raises
:class:`ApiError` with an HTTP status (400, 404, 413, ...) and a message; the server
answers ``{"error": message}``.
"""
from __future__ import annotations

import itertools
import json
import warnings
from typing import Any, Callable, Optional

import numpy as np

import lightsout
from lightsout._base.errors import LightsOutError
from lightsout._base.validate import MAX_STATES
from lightsout._search.cost import mod_search_seconds, search_seconds
from lightsout._search.minimal import refuse_minimal
from lightsout.play._errors import ApiError, Json, equal_rows, json_type
from lightsout.play._pressrule import RULE_FIELDS, read_masks, read_stencil

__all__ = [
    "ApiError", "decode_request", "solve_board", "random_board", "quiet_patterns", "ENDPOINTS",
    "MAX_SIDE", "MAX_BODY_BYTES", "MAX_STATES", "DEFAULT_TIME_LIMIT", "MAX_TIME_LIMIT",
    "MAX_QUIET_PATTERNS", "SEARCH_ESTIMATE_FACTOR",
]

#: Most rows, and most columns, of a board the API accepts (the page's size picker too).
MAX_SIDE = 200
#: Largest request body, in bytes: a 200 x 200 board of three-digit states fits with room
#: for whitespace.  Larger declared bodies are refused before a byte of them is read.
MAX_BODY_BYTES = 1 << 20
#: Seconds the fewest-press search may take when the request does not say (``time_limit_ms``).
DEFAULT_TIME_LIMIT = 0.25
#: Longest time a request may give that search (``time_limit_ms``), in seconds.
MAX_TIME_LIMIT = 2.0
#: Most quiet patterns one ``/api/quiet`` answer carries (``truncated`` says when there are more).
MAX_QUIET_PATTERNS = 64
#: The search weighs every solution (2^nullity with two states, the coset's count with k); it
#: is not started when the library's estimate of its time is more than this many times the
#: time limit (the search stops at the limit, with k states too).
SEARCH_ESTIMATE_FACTOR = 4.0
#: MAX_MOD_SEARCH (deprecated): the solutions x cells the k-state search was offered up to,
#: before the page asked the library's cost model and the search's own refusal.
_MAX_MOD_SEARCH = 2_000_000


def __getattr__(name: str) -> Any:
    """``MAX_MOD_SEARCH`` still reads, with a DeprecationWarning.

    Example:
        >>> import warnings
        >>> with warnings.catch_warnings():
        ...     warnings.simplefilter("ignore")
        ...     from lightsout.play import api
        ...     api.MAX_MOD_SEARCH
        2000000
    """
    if name == "MAX_MOD_SEARCH":
        warnings.warn("lightsout.play.api.MAX_MOD_SEARCH is deprecated: the page offers a k-state search when "
                      "the search's own check (lightsout.limits.MAX_MOD_SOLUTIONS) takes it and its estimated time "
                      "fits the request's time limit", DeprecationWarning, stacklevel=2)
        return _MAX_MOD_SEARCH
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")

def _refuse_constant(name: str) -> Any:
    raise ApiError(400, f"malformed JSON: {name} is not a number the API accepts")


def _refuse_float(text: str) -> Any:
    raise ApiError(400, f"malformed JSON or wrong type: {text} is not an integer (the API takes only integers)")


def _parse_int(text: str) -> int:
    if len(text) > 24:  # no field needs more; refused before Python converts a megabyte of digits
        raise ApiError(400, f"an integer of {len(text)} digits is out of range")
    return int(text)


def decode_request(body: bytes) -> Json:
    """Decode a request body: UTF-8 JSON holding one object; floats, NaN and Infinity refused.

    Raises:
        ApiError: 413 for a body over :data:`MAX_BODY_BYTES`, 400 for anything but a JSON object.

    Examples:
        >>> decode_request(b'{"board": [[1, 0]], "states": 2}')
        {'board': [[1, 0]], 'states': 2}
        >>> decode_request(b'{"board": [[1, 0]')
        Traceback (most recent call last):
        ...
        lightsout.play.api.ApiError: malformed JSON: ...
    """
    if len(body) > MAX_BODY_BYTES:
        raise ApiError(413, f"request body of {len(body)} bytes is over the limit of {MAX_BODY_BYTES}")
    try:
        text = body.decode("utf-8")
        value = json.loads(text, parse_float=_refuse_float, parse_int=_parse_int, parse_constant=_refuse_constant)
    except UnicodeDecodeError as exc:
        raise ApiError(400, f"malformed JSON: the body is not UTF-8 ({exc.reason})") from None
    except json.JSONDecodeError as exc:
        raise ApiError(400, f"malformed JSON: {exc}") from None
    except RecursionError:
        raise ApiError(400, "malformed JSON: nested too deeply") from None
    except ValueError as exc:  # anything else json refuses
        raise ApiError(400, f"malformed JSON: {exc}") from None
    if not isinstance(value, dict):
        raise ApiError(400, f"the request must be a JSON object, got {_json_type(value)}")
    return value


_json_type = json_type


def _fields(request: Json, allowed: tuple[str, ...], required: tuple[str, ...]) -> None:
    unknown = sorted(set(request) - set(allowed))
    if unknown:
        raise ApiError(400, f"unknown field {unknown[0]!r}; this endpoint takes {', '.join(allowed)}")
    for name in required:
        if name not in request:
            raise ApiError(400, f"missing field {name!r}")


def _flag(request: Json, name: str, default: bool) -> bool:
    value = request.get(name, default)
    if not isinstance(value, bool):
        raise ApiError(400, f"{name} must be true or false, got {_json_type(value)}")
    return value


def _int(request: Json, name: str, default: Optional[int], low: int, high: int) -> int:
    value = request.get(name, default)
    if type(value) is not int:
        raise ApiError(400, f"{name} must be an integer from {low} to {high}, got {_json_type(value)}")
    if not low <= value <= high:
        raise ApiError(400, f"{name} must be an integer from {low} to {high}, got {value}")
    return value


def _rules(request: Json) -> tuple[tuple[bool, bool], bool, int]:
    """``torus`` (a boolean, or one per axis: [rows wrap, columns wrap]), ``self_toggle``, ``states``."""
    torus = request.get("torus", False)
    if isinstance(torus, bool):
        wraps = (torus, torus)
    elif isinstance(torus, list) and len(torus) == 2 and all(isinstance(t, bool) for t in torus):
        wraps = (torus[0], torus[1])
    else:
        raise ApiError(400, f"torus must be true, false or [rows_wrap, columns_wrap] (two booleans), "
                            f"got {_json_type(torus)}")
    return wraps, _flag(request, "self_toggle", True), _int(request, "states", 2, 2, MAX_STATES)


def _press_rule(request: Json, states: int, shape: tuple[int, int]) -> dict[str, Any]:
    """The library's keywords for the request's stencil and masks (:mod:`lightsout.play._pressrule`)."""
    return {"stencil": read_stencil(request, states), **read_masks(request, shape)}


def _dark_holes(board: np.ndarray, holes: Optional[np.ndarray]) -> None:
    """A hole is no light: the board must hold 0 there."""
    if holes is not None and board[holes].any():
        r, c = (int(i) for i in np.argwhere(holes & (board != 0))[0])
        raise ApiError(400, f"the board's cell at row {r}, column {c} is a hole (holes: 1) and must be 0: a hole "
                            f"is not part of the board")


def _library(call: Callable[[], Any]) -> Any:
    """Run a lightsout call; a rule it refuses (say, a stencil on a board it does not fit) is a 400."""
    try:
        return call()
    except lightsout.UnsolvableError:
        raise
    except LightsOutError as exc:
        raise ApiError(400, f"the rule was refused: {exc}") from None


def _side(value: object, name: str) -> int:
    if type(value) is not int:
        raise ApiError(400, f"{name} must be an integer from 1 to {MAX_SIDE}, got {_json_type(value)}")
    if not 1 <= value <= MAX_SIDE:
        raise ApiError(413 if value > MAX_SIDE else 400,
                       f"{name} must be from 1 to {MAX_SIDE}, got {value}")
    return value


def _board(value: object, states: int) -> np.ndarray:
    """A board: a list of 1..MAX_SIDE rows of equal length 1..MAX_SIDE, integers 0..states-1.

    The shape is checked on the decoded lists before any array is built.
    """
    if not isinstance(value, list) or not value:
        raise ApiError(400, f"board must be a non-empty array of rows, got {_json_type(value)}")
    _side(len(value), "the board's number of rows")
    ncols = _side(equal_rows(value, "the board", "cells"), "the board's number of columns")
    cells = list(itertools.chain.from_iterable(value))
    if any(type(v) is not int for v in cells):
        bad = next(v for v in cells if type(v) is not int)
        raise ApiError(400, f"the board's cells must be integers from 0 to {states - 1}, got {_json_type(bad)}")
    low, high = min(cells), max(cells)
    if low < 0 or high >= states:
        raise ApiError(400, f"the board's cells must be integers from 0 to {states - 1} (states={states}), "
                            f"got {low if low < 0 else high}")
    return np.array(cells, dtype=np.uint8).reshape(len(value), ncols)


def _rows(array: np.ndarray) -> list[list[int]]:
    rows: list[list[int]] = array.astype(np.uint8).tolist()
    return rows


def _fewest(solution: lightsout.Solution, minimal: bool, time_limit: float) -> tuple[Optional[lightsout.Solution], str]:
    """The proven fewest-press solution, or None and why not."""
    if solution.nullity == 0:
        return solution, "the only solution"
    if not minimal:
        return None, "the fewest presses were not asked for (minimal: false)"
    try:  # the search's own refusal, asked before any work: not an error of the request
        # two states: as without a time limit, since a nullity past the exhaustive search is only bracketed
        refuse_minimal(solution.nullity, solution.count, solution.states, solution.board.shape,
                       time_limit=None if solution.states == 2 else time_limit)
    except LightsOutError as exc:
        return None, f"the fewest-press search was refused: {exc}"
    if solution.states == 2:
        seconds, weighed = search_seconds(solution.nullity, solution.board.size), f"2^{solution.nullity}"
    else:
        seconds, weighed = mod_search_seconds(solution.count, solution.board.size), f"{solution.count}"
    if seconds > SEARCH_ESTIMATE_FACTOR * time_limit:
        return None, (f"weighing all {weighed} solutions would take about {seconds:.2g} s, more than the "
                      f"{time_limit:g} s allowed")
    try:
        best = solution.minimal(time_limit=time_limit)
    except LightsOutError as exc:  # a search the library refuses (too large): not an error of the request
        return None, f"the fewest-press search was refused: {exc}"
    if not best.proven_minimal:
        return None, f"the fewest-press search did not finish within {time_limit:g} s"
    return best, f"the fewest presses, proven over all {solution.count} solutions"


def solve_board(request: Json) -> Json:
    """``POST /api/solve``: solve a board; the fewest presses when proven within the time limit.

    Request fields: ``board`` (required; rows of integers 0..states-1, 0 on holes), ``torus``
    (false, true or [rows_wrap, columns_wrap]), ``self_toggle`` (true; false for the σ game:
    with a stencil, its centre weight made 0), ``states`` (2..255), ``stencil`` (a name:
    plus, sigma, x, 3x3, moore, knight, hex; or rows of weights 0..states-1 with odd extents
    up to 5, the pressed cell in the middle; default: today's plus rule), the masks
    ``holes``, ``unpressable`` and ``free_lights`` (rows of 0/1 of the board's shape),
    ``minimal`` (true: search the fewest presses) and ``time_limit_ms`` (milliseconds for
    that search: default 250, at most 2000).

    Answer when solvable: ``solvable: true``, ``presses`` (rows of press counts),
    ``nullity``, ``count`` (the number of solutions as a decimal string), ``fewest``
    (the number of presses of ``presses`` when it is proven the fewest, else null),
    ``kind`` ("fewest" or "canonical") and ``note`` (why).  When unsolvable:
    ``solvable: false``, ``quiet_pattern`` (presses that change no light and meet the
    board with an inner product that is not 0 mod k; null under a one-way rule or with
    unpressable cells or free lights, where it need not exist), ``proof`` (the library's proof,
    ``UnsolvableError.proof``: weights on the lights whose sum no allowed press changes and
    which is not 0 mod k on the board), ``proof_kind`` ("quiet pattern" when the proof is
    one, else "weights on the lights"), ``nullity`` and ``message``.

    Examples:
        >>> answer = solve_board({"board": [[1, 1, 1]] * 3})
        >>> answer["presses"], answer["fewest"], answer["count"]
        ([[1, 0, 1], [0, 1, 0], [1, 0, 1]], 5, '1')
        >>> answer = solve_board({"board": [[1, 0, 0, 0, 0]] + [[0] * 5] * 4})
        >>> answer["solvable"], answer["quiet_pattern"][0], answer["proof_kind"]
        (False, [1, 0, 1, 0, 1], 'quiet pattern')
        >>> answer = solve_board({"board": [[1, 1, 1]] * 3, "stencil": [[0, 0, 0], [0, 0, 1], [0, 1, 0]]})
        >>> answer["proof"], answer["proof_kind"], answer["quiet_pattern"]    # one-way: no press reaches the corner
        ([[1, 0, 0], [0, 0, 0], [0, 0, 0]], 'weights on the lights', None)
        >>> board, holes = [[0, 1, 1]] * 3, [[1, 0, 0]] * 3
        >>> answer = solve_board({"board": board, "stencil": "x", "holes": holes})
        >>> left = lightsout.press(board, answer["presses"], stencil="x", holes=holes)
        >>> int(left.sum()), answer["kind"], answer["fewest"]
        (0, 'fewest', 2)
        >>> solve_board({"board": [[1, 2]], "states": 2})
        Traceback (most recent call last):
        ...
        lightsout.play.api.ApiError: the board's cells must be integers from 0 to 1 (states=2), got 2
    """
    _fields(request, ("board", "torus", "self_toggle", "states") + RULE_FIELDS + ("minimal", "time_limit_ms"),
            ("board",))
    wraps, self_toggle, states = _rules(request)
    board = _board(request["board"], states)
    rule = _press_rule(request, states, (board.shape[0], board.shape[1]))
    _dark_holes(board, rule["holes"])
    minimal = _flag(request, "minimal", True)
    time_limit = _int(request, "time_limit_ms", round(DEFAULT_TIME_LIMIT * 1000), 1,
                      round(MAX_TIME_LIMIT * 1000)) / 1000
    try:
        solution = _library(lambda: lightsout.solve(board, torus=wraps, self_toggle=self_toggle, states=states,
                                                    **rule))
    except lightsout.UnsolvableError as exc:
        pattern, proof = exc.quiet_pattern, exc.proof
        return {
            "solvable": False,
            "proof": None if proof is None else _rows(proof),
            "proof_kind": "quiet pattern" if pattern is not None else "weights on the lights",
            "quiet_pattern": None if pattern is None else _rows(pattern),
            "nullity": exc.nullity,
            "message": str(exc),
        }
    best, note = _fewest(solution, minimal, time_limit)
    chosen = best if best is not None else solution
    return {
        "solvable": True,
        "presses": _rows(chosen.presses),
        "nullity": solution.nullity,
        "count": str(solution.count),
        "fewest": None if best is None else int(best.presses.sum(dtype=np.int64)),
        "kind": "canonical" if best is None else "fewest",
        "note": note,
    }


def random_board(request: Json) -> Json:
    """``POST /api/random``: a random board that is solvable by construction.

    Every pressable cell is pressed a uniformly random number of times (0..states-1) on
    the dark board with :func:`lightsout.press`, so every solvable board is equally likely;
    a dark result is drawn again (a few times).  Request fields: ``rows`` and ``columns``
    (required, 1..200), ``torus``, ``self_toggle``, ``states``, ``stencil`` and the masks
    as for ``/api/solve`` (holes stay 0, unpressable cells are never pressed), and
    ``seed`` (optional integer, for a repeatable board).  Answer: ``board``.

    Example:
        >>> board = random_board({"rows": 5, "columns": 5, "seed": 1})["board"]
        >>> lightsout.is_solvable(board)
        True
    """
    _fields(request, ("rows", "columns", "torus", "self_toggle", "states") + RULE_FIELDS + ("seed",),
            ("rows", "columns"))
    rows, cols = _side(request["rows"], "rows"), _side(request["columns"], "columns")
    wraps, self_toggle, states = _rules(request)
    rule = _press_rule(request, states, (rows, cols))
    pressable = np.ones((rows, cols), dtype=bool)
    for name in ("holes", "unpressable"):
        if rule[name] is not None:
            pressable &= ~rule[name]
    seed = request.get("seed")
    if seed is not None and (type(seed) is not int or seed < 0):
        raise ApiError(400, f"seed must be a non-negative integer, got {_json_type(seed)}")
    rng = np.random.default_rng(seed)
    board = np.zeros((rows, cols), dtype=np.uint8)
    for _ in range(8):
        presses = rng.integers(0, states, size=(rows, cols), dtype=np.uint8) * pressable
        board = np.asarray(_library(lambda: lightsout.press(np.zeros((rows, cols), dtype=np.uint8), presses,
                                                            torus=wraps, self_toggle=self_toggle, states=states,
                                                            **rule)))
        if board.any():
            break
    return {"board": _rows(board)}


def quiet_patterns(request: Json) -> Json:
    """``POST /api/quiet``: the quiet patterns (presses that change no light) of a shape.

    Request fields: ``rows``, ``columns`` (required), ``torus``, ``self_toggle``,
    ``states``, ``stencil`` and the masks as for ``/api/solve`` (a quiet pattern then
    presses only pressable cells and changes no required light).  Answer: ``nullity``,
    ``count`` (the number of quiet patterns, a decimal string), ``patterns`` (generators,
    each rows of press counts; at most :data:`MAX_QUIET_PATTERNS`) and ``truncated`` (true
    when there are more generators).

    Example:
        >>> answer = quiet_patterns({"rows": 5, "columns": 5})
        >>> answer["nullity"], answer["count"], len(answer["patterns"]), answer["patterns"][0][0]
        (2, '4', 2, [0, 1, 1, 1, 0])
    """
    _fields(request, ("rows", "columns", "torus", "self_toggle", "states") + RULE_FIELDS, ("rows", "columns"))
    rows, cols = _side(request["rows"], "rows"), _side(request["columns"], "columns")
    wraps, self_toggle, states = _rules(request)
    rule = _press_rule(request, states, (rows, cols))
    solution = _library(lambda: lightsout.solve(np.zeros((rows, cols), dtype=np.uint8), torus=wraps,
                                                self_toggle=self_toggle, states=states, **rule))
    patterns = solution.quiet_patterns()
    return {
        "nullity": solution.nullity,
        "count": str(solution.count),
        "patterns": [_rows(p) for p in patterns[:MAX_QUIET_PATTERNS]],
        "truncated": len(patterns) > MAX_QUIET_PATTERNS,
    }


#: The POST endpoints: path -> function.
ENDPOINTS: dict[str, Callable[[Json], Json]] = {
    "/api/solve": solve_board,
    "/api/random": random_board,
    "/api/quiet": quiet_patterns,
}

