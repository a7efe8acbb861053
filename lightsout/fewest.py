"""The fewest presses: proven minimal solutions, tables of them, and distance tables.

A board with nullity d has ``count`` solutions, one coset of the quiet patterns.
Over GF(2) the weights of all 2^d of them come from one Walsh-Hadamard
transform of a histogram of the cells by their linear form in the coset's
coordinates (docs/algebra.md, section 8), so the search
costs O(d 2^d) whatever the board's size, split into independent tasks that run
on the local cores or on any ``concurrent.futures.Executor``.  With k states the
presses are counted with multiplicity and the coset is enumerated (small cosets
only).  An answer is labelled minimal only when the whole coset was searched.
"""
from __future__ import annotations

import base64
import concurrent.futures
import csv
import functools
import io
import os
import warnings
from dataclasses import replace
from importlib import resources
from typing import Optional, Sequence, Union

import numpy as np
import numpy.typing as npt

from lightsout._base.errors import BoardTooLargeError, InvalidBoardError, InvalidTypeError, MinimumNotProvenError
from lightsout._base.types import Progress
from lightsout._base.validate import (
    board_shape, board_size, grid_shape, progress_callback, thread_count, time_limit_seconds,
)
from lightsout._core.rules import Rules
from lightsout._core.runner import CancelToken
from lightsout._core.tasks import checked_executor, run_tasks
from lightsout._core.bandchase import all_lit_press_count
from lightsout._routes.registry import Route
from lightsout._search.checkpoint import checkpoint_path
from lightsout._search.graywalk import graywalk_min_weight
from lightsout._search.distance import distance_distribution_gf2, distance_distribution_mod, refuse_distance
from lightsout._search.minimal import minimal_solution, press_cover_bound, refuse_minimal
from lightsout._search.minweight import MAX_NULLITY  # noqa: F401  lightsout.fewest.MAX_NULLITY, as messages named it
from lightsout._solution import Solution
from lightsout._solve import first_row, nullity, route_for, solve_checked
from lightsout.board import StencilArg, TorusArg

__all__ = ["minimal_solution", "fewest_presses", "fewest_presses_table", "proven_fewest_presses",
           "bracketed_fewest_presses", "distance_distribution", "MinimumNotProvenError"]

#: The table of proven fewest presses shipped with the package (written by bench/fewest_table.py).
PROVEN_TABLE = "fewest_presses.csv"

#: The brackets of the sizes past the proven table, shipped with the package (bench/fewest_brackets.py).
BRACKET_TABLE = "fewest_brackets.csv"

#: All-lit open grids (two states) of more cells than this are not built: one of nullity 0 has
#: one solution, whose presses are counted row band by row band from its first row.
STREAM_CELLS = 1 << 24


def _fewest_of_a_big_grid(nrows: int, ncols: int) -> int:
    """The fewest presses of a big all-lit open grid of nullity 0, in memory for a few rows."""
    quiet = nullity(nrows, ncols)
    if quiet:
        raise BoardTooLargeError(
            f"the all-lit {nrows} x {ncols} board has nullity {quiet}: its fewest-press search needs the whole "
            f"board and its {quiet} quiet patterns in memory, and boards of more than {STREAM_CELLS} cells "
            "(lightsout.limits.STREAM_CELLS) are searched only when they have one solution (nullity 0)")
    if nrows * ncols > MAX_STREAM_CELLS:
        raise BoardTooLargeError(
            f"the all-lit {nrows} x {ncols} board has {nrows * ncols:.3g} cells: counting its presses means "
            f"chasing every one, over the limit of {MAX_STREAM_CELLS:.3g} cells (about a minute; "
            "lightsout.limits.MAX_STREAM_CELLS); lightsout.first_row gives its first row at once")
    return all_lit_press_count(nrows, ncols, first_row(nrows, ncols))


#: Largest nullity-0 grid whose presses fewest_presses counts by chasing (about a minute on one core).
MAX_STREAM_CELLS = 1 << 36


def _rules_of(function: str, n: object, m: object, torus: object, self_toggle: object, states: object) -> Rules:
    """The rules of an ``n, m`` board argument (``n`` alone may be a whole shape), checked."""
    if isinstance(n, (tuple, list)):
        if m is not None:
            raise InvalidBoardError(f"{function} takes a shape or (n, m), not both: got n={n!r} and m={m!r}")
        return Rules.check(board_shape(n, "n"), torus, self_toggle, states)
    return Rules.of_grid(*grid_shape(n, m), torus, self_toggle, states)


def fewest_presses(n: Union[int, Sequence[int]], m: Optional[int] = None, *, torus: TorusArg = False,
                   self_toggle: bool = True, states: int = 2, time_limit: Optional[float] = None,
                   executor: Optional[concurrent.futures.Executor] = None, progress: Progress = None,
                   threads: Optional[int] = None, stencil: StencilArg = None, holes: Optional[npt.ArrayLike] = None,
                   unpressable: Optional[npt.ArrayLike] = None, free_lights: Optional[npt.ArrayLike] = None,
                   checkpoint: Union[str, "os.PathLike[str]", None] = None, method: str = "auto") -> int:
    """The fewest presses that clear the all-lit n x m board (``n`` may be a whole shape), proven.

    The all-lit squares of the shipped table (:func:`proven_fewest_presses`) are
    answered from it at once; any other board is searched.

    Args:
        n: rows (positive int), or a whole shape: a tuple of axis lengths, any
            number of axes (then ``m`` must be None).
        m: columns (positive int); None for a square board.
        torus: True/False, or one bool per axis: that axis wraps around.
        self_toggle: False for the sigma game, where a press skips its own cell.
        states: number of light states k (2..255); presses count with
            multiplicity (pressing a cell twice is two presses).
        time_limit: seconds (>= 0), counted from the call; every stage stops at it.
            A number cannot say that it is not proven, so when the search is cut
            short :class:`MinimumNotProvenError` is raised instead, carrying the
            best solution found as ``.best`` and the proven bracket
            ``.lower_bound <= fewest <= .presses`` (``.gap`` between them).
        executor: a ``concurrent.futures.Executor`` to spread the search over
            (a ``ProcessPoolExecutor``, or ``dask.distributed.Client(...).get_executor()``).
        progress: None, or ``progress(stage, done, total)`` called between
            chunks of work, as for :func:`lightsout.solve`.
        threads: the most threads this call works on, as for
            :func:`lightsout.solve` (the solve and the search alike).
        stencil: the press rule, as for :func:`lightsout.solve` (None: today's rule).
        holes: cells that are not part of the all-lit board, as for :func:`lightsout.solve`.
        unpressable: cells that may not be pressed, as for :func:`lightsout.solve`.
        free_lights: lit cells that need not go out, as for :func:`lightsout.solve`.
        checkpoint: a file path (two states).  The search writes where it stands there
            (the jobs done, the best found, the proven lower bound) every half minute
            and when it stops, whatever stops it (a time limit, Ctrl-C, an error); a
            later call with the same path runs only what is left, and a file of another
            search is refused (``CheckpointError``, an :class:`InvalidBoardError`).
            A checkpointed search is not refused for its length: it can be stopped
            and resumed at will.  A size of the shipped table is answered from it.
        method: ``"auto"`` (the shipped table, else the Walsh-Hadamard search), or
            ``"graywalk"``: a second algorithm that shares no inner loop with it, a
            Gray-code walk over the solutions pruned by a bound of its own
            (:ref:`section 16 of the algebra page <algebra-16>`), never the table; two
            states, no executor.

    Raises:
        UnsolvableError: the all-lit board has no solution (possible with the
            sigma rule, k states, a stencil or masks).
        BoardTooLargeError: without a time limit, a search beyond what this
            machine can do (the message names the nullity and the limit); a
            board of more than ``lightsout.limits.MAX_BOARD_CELLS`` cells; an
            open all-lit grid of more than 2**24 cells with quiet patterns.
            Such a grid of nullity 0 is not built: its one solution is chased
            from its first row a band of rows at a time (up to
            ``lightsout.limits.MAX_STREAM_CELLS``, 2**36 cells, about a minute);
            with k states, more than ``lightsout.limits.MAX_MOD_SOLUTIONS``
            solutions, or without time_limit a walk estimated beyond
            ``lightsout.limits.MAX_MOD_UNTIMED_SECONDS``.  Without a time limit, a
            two-state board whose nullity is above the search's limit (64) is
            refused before it is solved; with one, it is bracketed (a local
            search's best and a proven lower bound, in MinimumNotProvenError).

    Examples:
        >>> from lightsout import fewest_presses
        >>> fewest_presses(5), fewest_presses(4), fewest_presses((3, 3, 3, 3))
        (15, 4, 41)
        >>> fewest_presses(5, stencil="x"), fewest_presses(4, stencil="knight", states=3)
        (11, 16)
        >>> fewest_presses(30, method="graywalk") == fewest_presses(30)      # searched, not read
        True
    """
    rules = _rules_of("fewest_presses", n, m, torus, self_toggle, states)
    press_rule = dict(stencil=stencil, holes=holes, unpressable=unpressable, free_lights=free_lights)
    if any(value is not None for value in press_rule.values()):
        rules = Rules.check(rules.shape, torus, self_toggle, states, **press_rule)
    shape = rules.shape
    limit = time_limit_seconds(time_limit)
    token = CancelToken.after(limit)          # the deadline binds every stage, the solve's included
    threads = thread_count(threads)
    pool = checked_executor(executor)
    progress_callback(progress)
    saved = checkpoint_path(checkpoint)
    _check_method(method, rules, pool, saved)
    shipped = _shipped_fewest(rules) if method == "auto" else None
    if shipped is not None:
        return shipped
    if rules.is_plain_grid and not any(rules.wraps) and rules.cells > STREAM_CELLS:
        return _fewest_of_a_big_grid(*shape)
    if (rules.holes is not None or rules.free_lights is not None) and not rules.required_lights().any():
        return 0  # every light is a hole or free: nothing needs pressing, whatever the nullity
    try:
        route = _refuse_before_solving(rules, threads, limit)
        lights = np.ones(shape, dtype=rules.light_dtype)
        if method == "graywalk":
            return _fewest_by_graywalk(solve_checked(rules, lights, route, threads=threads, progress=progress),
                                       token, threads, progress, time_limit)
        best = minimal_solution(solve_checked(rules, lights, route, threads=threads, progress=progress),
                                executor=pool, progress=progress, threads=threads, token=token, checkpoint=saved)
    except BoardTooLargeError as error:
        bracket = _shipped_bracket(rules)
        if bracket is not None:    # the refusal, which names its limit, also says what is known
            error.args = (f"{error}. The shipped bracket of this board is [{bracket[0]}, {bracket[1]}] "
                          f"(lightsout.bracketed_fewest_presses())",)
        raise
    weight = int(best.presses.sum(dtype=np.int64))
    if not best.proven_minimal:
        raise MinimumNotProvenError(
            f"the time limit of {time_limit} s ran out before every one of the {best.count} solutions of the "
            f"all-lit board of shape {shape} was weighed; the best found has {weight} presses (.best), and "
            f"at least {best.lower_bound} are needed (.lower_bound, proven): the fewest is in "
            f"[{best.lower_bound}, {weight}] (.gap {best.gap})", best)
    return weight


#: The searches :func:`fewest_presses` runs (its ``method=``).
FEWEST_METHODS = ("auto", "graywalk")


def _check_method(method: object, rules: Rules, pool: object, checkpoint: object = None) -> None:
    """``method=`` checked: one of :data:`FEWEST_METHODS`; ``"graywalk"`` with two states, no executor and no
    checkpoint."""
    if not isinstance(method, str):
        raise InvalidTypeError(f"method must be a str, one of {', '.join(map(repr, FEWEST_METHODS))}; "
                               f"got {type(method).__name__}")
    if method not in FEWEST_METHODS:
        raise InvalidBoardError(f"method must be one of {', '.join(map(repr, FEWEST_METHODS))}, got {method!r}")
    if method == "graywalk" and (rules.states != 2 or pool is not None or checkpoint is not None):
        raise InvalidBoardError("method='graywalk' searches two-state boards in this process and keeps no "
                                "checkpoint: pass states=2, no executor and no checkpoint, or method='auto'")


def _fewest_by_graywalk(solution: Solution, token: CancelToken, threads: Optional[int], progress: Progress,
                        time_limit: Optional[float]) -> int:
    """The fewest presses of a solved two-state board by the pruned Gray-code walk, proven (or refused)."""
    cells = solution.board.size
    particular = np.ascontiguousarray(solution.presses, dtype=np.uint8).reshape(cells)
    refuse_minimal(solution.nullity, solution.count, 2, solution.board.shape)
    basis = solution.quiet_patterns().reshape(-1, cells).astype(np.uint8)
    found = graywalk_min_weight(particular, basis, threads=threads, progress=progress, token=token)
    if not found.proven:
        raise MinimumNotProvenError(
            f"the time limit of {time_limit} s ran out before the Gray-code walk had weighed every one of the "
            f"{solution.count} solutions of the all-lit board of shape {solution.board.shape}; the best found "
            f"has {found.weight} presses (.best)",
            replace(solution, presses=found.presses.reshape(solution.board.shape).astype(bool), proven_minimal=False,
                    lower_bound=press_cover_bound(solution)))
    return found.weight


def _open_square(rules: Rules) -> Optional[int]:
    """n for the rules of an open n x n square under today's rule (the shipped tables' boards), else None."""
    nrows, ncols = rules.shape if len(rules.shape) == 2 else (0, 1)
    return nrows if nrows == ncols and rules.is_plain_grid and not any(rules.wraps) else None


def _shipped_fewest(rules: Rules) -> Optional[int]:
    """The fewest presses of an all-lit open square from the shipped table, or None when it has none."""
    row = _proven_table().get(_open_square(rules) or 0)
    return None if row is None else int(row["fewest"])


def _shipped_bracket(rules: Rules) -> Optional[tuple[int, int]]:
    """The shipped bracket (lower, upper) of an all-lit open square past the proven table, or None."""
    row = _bracket_table().get(_open_square(rules) or 0)
    return None if row is None else (int(row["lower"]), int(row["upper"]))


def _refuse_before_solving(rules: Rules, threads: Optional[int], time_limit: Optional[float]) -> Route:
    """The route of the all-lit board, asked before the board is built; and, from the nullity alone
    (which the routes find without the quiet patterns), the refusal of a two-state board the search
    cannot take: the solve and its quiet patterns are not built for nothing."""
    rules.refuse_unpacked("the all-lit board")
    route = route_for("auto", rules, solving=True, board_given=True)
    if rules.states != 2:
        return route
    quiet = route.nullity(rules, threads=threads)
    refuse_minimal(quiet, 2**quiet, 2, rules.shape, time_limit=time_limit)
    if quiet * rules.cells > MAX_SEARCH_BYTES:
        raise BoardTooLargeError(
            f"the all-lit board of shape {rules.shape} has {rules.cells} cells and nullity {quiet}: its "
            f"{quiet} quiet patterns would take {quiet * rules.cells / 2**30:.3g} GiB, over the search's limit of "
            f"{MAX_SEARCH_BYTES / 2**30:g} GiB (lightsout.limits.MAX_SEARCH_BYTES)")
    return route


#: The fewest-presses search of a board holds its quiet patterns a byte a cell: up to this many bytes.
MAX_SEARCH_BYTES = 1 << 29


def fewest_presses_table(nmax: int, *, executor: Optional[concurrent.futures.Executor] = None,
                         progress: Progress = None) -> np.ndarray:
    """Fewest presses of the all-lit n x n boards, n = 1 .. nmax (index 0 is n = 1), every one proven.

    Each entry is :func:`fewest_presses` of that size (the shipped table's
    squares answered at once).

    Args:
        nmax: the largest n (positive int).
        executor: None (the sizes one after the other in this process), or a
            ``concurrent.futures.Executor`` whose workers take the sizes as
            independent tasks (results in order, identical to the serial run).
        progress: None, or ``progress(stage, done, total)`` called after each
            size, as for :func:`lightsout.solve`.

    Example:
        >>> from lightsout import fewest_presses_table
        >>> fewest_presses_table(6).tolist()
        [1, 4, 5, 4, 15, 28]
    """
    top = board_size(nmax, "nmax")
    pool = checked_executor(executor)
    sizes = list(range(1, top + 1))
    if pool is None:
        out = []
        for n in sizes:
            out.append(fewest_presses(n))
            if progress is not None:
                progress("fewest presses table", n, top)
        return np.array(out, dtype=np.int64)
    return np.array(run_tasks(pool, fewest_presses, [(n,) for n in sizes], stage="fewest presses table",
                              progress=progress), dtype=np.int64)


def proven_fewest_presses() -> dict[int, dict[str, Union[int, float, str]]]:
    """The shipped table of the fewest presses of all-lit n x n boards, each proven once by a full search.

    Every n <= 200 whose nullity is at most 50 (190 sizes: those of nullity at
    most 42, n = 119 of nullity 46 and n = 125 of nullity 50), as computed by
    ``python bench/fewest_table.py`` (n = 125 by :func:`fewest_presses` with a
    ``checkpoint``, in pieces): the same search as :func:`fewest_presses`, whose
    results it records so that nobody has to wait for n = 119 or 125 again.
    Each entry holds ``nullity``, ``fewest``, the ``seconds`` the search took
    and the ``machine`` it ran on (CPU, cores, kernel build, Dask workers).

    Example:
        >>> from lightsout import fewest_presses, proven_fewest_presses
        >>> table = proven_fewest_presses()
        >>> table[5]["fewest"], table[5]["nullity"]
        (15, 2)
        >>> table[20]["fewest"] == fewest_presses(20)
        True
        >>> sorted(n for n, row in table.items() if row["nullity"] >= 40)
        [61, 65, 119, 125, 185, 197]
    """
    return {n: dict(row) for n, row in _proven_table().items()}


def bracketed_fewest_presses() -> dict[int, dict[str, Union[int, float, str, np.ndarray]]]:
    """Proven brackets on the fewest presses of the all-lit n x n boards that the proven table lacks.

    Every n <= 200 of nullity above 50 (n = 79, 95, 123, 126, 128, 129, 131, 135, 159 and
    191), as computed by ``python bench/fewest_brackets.py``: ``solve(all-lit).minimal(time_limit=...)``
    on one machine.  These are bounds, not values: the fewest presses lie in
    ``[lower, upper]``.  Each entry holds ``nullity``, ``lower`` (proven:
    :ref:`section 8 <algebra-8>`), ``upper`` and ``presses``, a solution of that many presses (an (n, n) bool
    array, replayed when the table was written; replay it again with :func:`lightsout.press`),
    the ``seconds`` spent and the ``machine``.

    Example:
        >>> import numpy as np
        >>> from lightsout import bracketed_fewest_presses, press
        >>> row = bracketed_fewest_presses()[79]
        >>> row["nullity"], row["lower"] < row["upper"] == int(row["presses"].sum())
        (64, True)
        >>> bool(press(np.ones((79, 79), bool), row["presses"]).any())     # the upper bound clears the board
        False
    """
    out: dict[int, dict[str, Union[int, float, str, np.ndarray]]] = {}
    for n, row in _bracket_table().items():
        entry: dict[str, Union[int, float, str, np.ndarray]] = {k: v for k, v in row.items() if k != "presses"}
        bits = np.unpackbits(np.frombuffer(base64.b64decode(str(row["presses"])), dtype=np.uint8))
        entry["presses"] = bits[:n * n].reshape(n, n).astype(bool)
        out[n] = entry
    return out


@functools.lru_cache(maxsize=1)
def _bracket_table() -> dict[int, dict[str, Union[int, float, str]]]:
    """The shipped brackets, read once."""
    text = resources.files("lightsout").joinpath(BRACKET_TABLE).read_text(encoding="utf-8")
    return {int(row["n"]): {"nullity": int(row["nullity"]), "lower": int(row["lower"]), "upper": int(row["upper"]),
                            "seconds": float(row["seconds"]), "machine": row["machine"], "presses": row["presses"]}
            for row in csv.DictReader(io.StringIO(text))}


@functools.lru_cache(maxsize=1)
def _proven_table() -> dict[int, dict[str, Union[int, float, str]]]:
    """The shipped table, read once (callers copy what they hand out)."""
    text = resources.files("lightsout").joinpath(PROVEN_TABLE).read_text(encoding="utf-8")
    table: dict[int, dict[str, Union[int, float, str]]] = {}
    for row in csv.DictReader(io.StringIO(text)):
        table[int(row["n"])] = {"nullity": int(row["nullity"]), "fewest": int(row["fewest"]),
                                "seconds": float(row["seconds"]), "machine": row["machine"]}
    return dict(sorted(table.items()))


def distance_distribution(n: Union[int, Sequence[int], None] = None, m: Optional[int] = None, *,
                          torus: TorusArg = False, self_toggle: bool = True, states: int = 2,
                          progress: Progress = None, threads: Optional[int] = None,
                          shape: Union[int, Sequence[int], None] = None, stencil: StencilArg = None,
                          holes: Optional[npt.ArrayLike] = None, unpressable: Optional[npt.ArrayLike] = None,
                          free_lights: Optional[npt.ArrayLike] = None) -> np.ndarray:
    """How many solvable start states need exactly j presses, j = 0, 1, ..., for a small board.

    Every solvable state is walked (k^(cells - nullity) of them), so the board
    must be small (a 5 x 5 board: 2^23 states, about a second).  With k states
    (k prime) presses count with multiplicity.

    Under a stencil or masks, a state is what the required lights show (holes and
    free lights do not tell two states apart), the presses are those of the
    pressable cells, and the table sums to k^rank, rank that of the press matrix
    between them: the states some presses reach, each once, at its fewest presses.

    Args:
        n: rows, or a whole shape: a tuple of axis lengths, any number of axes
            (then ``m`` must be None).  One int without ``m`` is deprecated (a
            DeprecationWarning): it is still read as a line of that many cells.
        m: columns (positive int).
        torus: True/False, or one bool per axis: that axis wraps around.
        self_toggle: False for the sigma game, where a press skips its own cell.
        states: number of light states k (a prime, 2..255).
        progress: None, or ``progress(stage, done, total)`` called between
            chunks of work, as for :func:`lightsout.solve`.
        threads: the most threads the walk works on, as for :func:`lightsout.solve`.
        shape: the deprecated spelling of ``n`` (a DeprecationWarning).
        stencil: the press rule, as for :func:`lightsout.solve` (None: today's rule).
        holes: cells that are not part of the board, as for :func:`lightsout.solve`.
        unpressable: cells that may not be pressed, as for :func:`lightsout.solve`.
        free_lights: lights that need not go out, as for :func:`lightsout.solve`.

    Returns:
        int64 array; entry j counts the states whose fewest presses is j.

    Raises:
        InvalidBoardError: a k that is not a prime, a bad stencil or mask.
        BoardTooLargeError: more than 2^MAX_DISTANCE_LOG2 press vectors to walk
            (k to the number of pressable cells).

    Examples:
        >>> from lightsout import distance_distribution
        >>> table = distance_distribution((3, 3))
        >>> int(table.sum()), len(table) - 1        # every 3 x 3 state is solvable, in at most 9 presses
        (512, 9)
        >>> table = distance_distribution(3, 3, stencil="x", holes=[[0, 0, 0], [0, 1, 0], [0, 0, 0]])
        >>> int(table.sum()), int(table[1])            # the "x" rule round a hole: all 2^8 states, 8 one press away
        (256, 8)
    """
    if shape is not None:
        if n is not None:
            raise InvalidTypeError("distance_distribution takes n (and m), or the deprecated shape=, not both")
        warnings.warn("distance_distribution(shape=...) is deprecated: pass the board as n, m as elsewhere "
                      "(distance_distribution((5, 5)) or distance_distribution(5, 5))",
                      DeprecationWarning, stacklevel=2)
        n = shape
    if n is None:
        raise InvalidTypeError("distance_distribution needs the board: n (and m), or a shape tuple as n")
    if m is None and not isinstance(n, (tuple, list)):
        warnings.warn(f"distance_distribution({n!r}) with one size is a line of {n!r} cells, as the old shape "
                      "argument read it, and is deprecated: elsewhere one size is a square; pass "
                      f"({n!r},) for the line or {n!r}, {n!r} for the square", DeprecationWarning, stacklevel=2)
        n = (n,) if isinstance(n, int) and not isinstance(n, bool) else n
    rules = _rules_of("distance_distribution", n, m, torus, self_toggle, states)
    press_rule = dict(stencil=stencil, holes=holes, unpressable=unpressable, free_lights=free_lights)
    if any(value is not None for value in press_rule.values()):
        rules = Rules.check(rules.shape, torus, self_toggle, states, **press_rule)
    threads = thread_count(threads)
    progress_callback(progress)
    k = rules.states
    masked = any(mask is not None for mask in rules.masks())
    buttons = int(rules.pressable_cells().sum()) if masked else rules.cells
    refuse_distance(buttons, k)  # before the board is built and solved
    route = route_for("auto", rules, solving=True, board_given=True)
    zero = solve_checked(rules, np.zeros(rules.shape, dtype=rules.light_dtype), route, threads=threads)
    quiet = zero.quiet_patterns().reshape(-1, rules.cells).astype(np.uint8)
    if masked:  # the presses of the pressable cells alone; the quiet patterns are 0 on the others
        quiet = np.ascontiguousarray(quiet[:, rules.pressable_cells().ravel()])
    if k == 2:
        return distance_distribution_gf2(quiet, progress=progress, threads=threads)
    return distance_distribution_mod(quiet, k, progress=progress, threads=threads)
