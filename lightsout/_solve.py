"""Solving grid boards: first_row, nullity, solve, is_solvable.

Each entry point checks its arguments once, into a :class:`~lightsout._core.rules.Rules`,
takes a route from the registry (``lightsout/_routes/registry.py``) and turns the route's
:class:`~lightsout._core.coset.Coset` into its answer.  Five routes compute the same
answers (and the tests hold them to it):

* ``method="poly"``: the polynomial route (docs/algebra.md sections 2-4),
  O((R + C) C / 64) word operations and O(C) words of memory.  ``"auto"`` picks it.
* ``method="dense"``: the A/B two-row iteration to a C x (C+1) system, then
  Gauss-Jordan elimination; O(R C^2 / 64 + C^3 / 64), a C x C bit matrix.
* ``method="nd"``: the general route (``lightsout._routes.nd``) for boards of any
  number of axes, wrap-around axes, the sigma rule and k-state lights: chase
  along one axis to a system in one or two slices of unknowns, eliminate over
  Z/k.  ``"auto"`` picks it for every board that is not an open 2-D two-state
  grid with the plus rule; for those boards it is a third, independent check.
  (``nullity`` of a 2-D two-state board with a wrapping axis or of the sigma game, and
  ``first_row`` of the open sigma game, take gcds of polynomials instead under "auto":
  docs/algebra.md section 7, ``lightsout._routes.polytorus`` and ``polysigma``.)
* ``method="forcing"`` and ``"elimination"``: the graph routes (``lightsout._routes.forcing``),
  on the graph the board's presses make: generalised light chasing through a small forcing
  set, or the whole cells x cells system eliminated.

When a board has several solutions (nullity > 0) every function returns the
same canonical one whatever the route: the lexicographically smallest press
vector, cells in row-major order, cell (0, ..., 0) first (0 before 1 before
2 ...).  On a 2-D open board every solution is determined by its first row,
so this is the solution whose first row is smallest, reading column 0 first.
"""
from __future__ import annotations

import concurrent.futures
import os
from typing import Any, Optional, Sequence, Union

import numpy as np
import numpy.typing as npt

from lightsout._base.errors import BoardTooLargeError, InternalError, InvalidBoardError, UnsolvableError, unsolvable_error
from lightsout._base.packing import pack_row, pack_rows, unpack_row
from lightsout._base.types import Progress
from lightsout._base.validate import (
    MAX_AXES, MAX_BOARD_CELLS, bit_row, board_shape, board_size, flag, grid_shape, progress_callback,
    states_count, thread_count,
)
from lightsout._core.bitmatrix import pack_zero_one
from lightsout._core.canonical import canonical_first_row
from lightsout._core.coset import Coset
from lightsout._core.rules import Rules
from lightsout._core.tasks import checked_executor, run_tasks
from lightsout._core.verify import first_row_clears
from lightsout._routes.crossrows import cross_first_rows
from lightsout._routes.poly import nullity_poly as _nullity_poly
from lightsout._routes.poly import nullity_table as _nullity_table
from lightsout._routes.poly import all_lit_first_row_words, polynomial_work, refuse_poly
from lightsout._routes.polysigma import open_sigma, sigma_first_row
from lightsout._routes.polytorus import poly_rules_nullity, poly_rules_take, refuse_poly_rules
from lightsout._routes.registry import METHODS, Route
from lightsout._routes.registry import route_for as _pick_route
from lightsout._solution import Solution, solution_from_coset
from lightsout._solution.fromcoset import _left_kernel_unsolvable as left_kernel_unsolvable
from lightsout import board as _board
from lightsout.board import StencilArg, TorusArg

__all__ = ["first_row", "first_row_packed", "nullity", "nullity_table", "solve", "is_solvable", "Solution", "UnsolvableError", "METHODS"]

def route_for(method: object, rules: Rules, *, solving: bool, board_given: bool = False) -> Route:
    """The route for a board (the registry's :func:`~lightsout._routes.registry.route_for`), asked once,
    before any work, whether it refuses the run (``Route.refuse``: its budget).

    Example:
        >>> route_for("auto", Rules.check((4, 4)), solving=True).name
        'poly'
    """
    route = _pick_route(method, rules)
    route.refuse(rules, solving=solving, board_given=board_given)
    return route


def array_rules(board: object, torus: object, self_toggle: object, states: int, *,
                stacked: bool = False, **press_rule: Any) -> Optional[Rules]:
    """The rules of a numpy board (``stacked``: of each board of a stack) from its shape alone, before its
    values are checked or copied; None for another input, or a shape the board's own check refuses (it
    words the mistake as a board's).

    Example:
        >>> array_rules(np.zeros((4, 3, 5)), False, True, 2, stacked=True).shape
        (3, 5)
    """
    first = 2 if stacked else 1
    if not isinstance(board, np.ndarray) or not first <= board.ndim <= MAX_AXES + first - 1 or 0 in board.shape \
            or board.size > MAX_BOARD_CELLS:
        return None
    return Rules.check(board.shape[first - 1:], torus, self_toggle, states, **press_rule)


def first_row(n: int, m: Optional[int] = None, *, torus: TorusArg = False, self_toggle: bool = True,
              states: int = 2, method: str = "auto", threads: Optional[int] = None,
              progress: Progress = None, stencil: StencilArg = None, holes: Optional[npt.ArrayLike] = None,
              unpressable: Optional[npt.ArrayLike] = None, free_lights: Optional[npt.ArrayLike] = None,
              verify: bool = False) -> np.ndarray:
    """The presses of the top row that, chased down, clear the all-lit board of n rows and m columns.

    Every all-lit board, square or not, is solvable (Sutner, 1989: on any
    graph, pressing can turn the all-lit state dark, since the all-ones vector
    lies in the image of A + I; :ref:`section 6 of the algebra page <algebra-6>`),
    so this returns a row for every size it accepts.  When the board has several
    solutions (nullity > 0) the canonical one is returned: the lexicographically
    smallest first row, column 0 first.  Sutner's theorem is about the plain
    rule: with ``self_toggle=False`` or k states the all-lit board may be
    unsolvable, and this raises :class:`UnsolvableError`.  The board itself is
    never built, so ``first_row(10**9)`` needs memory for a few rows only.

    Args:
        n: rows (positive int).
        m: columns (positive int); None for a square board.
        torus: True/False, or (rows wrap, columns wrap).
        self_toggle: False for the sigma game, where a press skips its own cell.
        states: number of light states k (2..255); the all-lit board has
            every light in state 1.
        method: "auto" (the polynomial route where it applies, else "nd"),
            "poly", "dense", "nd", "forcing" or "elimination" (``lightsout.METHODS``); the
            routes are those of :func:`solve`.
        threads: the most threads this call works on, as for :func:`solve`
            (the polynomial route's products and gcds included).
        progress: None, or ``progress(stage, done, total)`` called between
            chunks of work, as for :func:`solve`.
        stencil: None for today's rule, or a press stencil as for :func:`solve`
            whose rows chase down: its slice farthest above the pressed cell,
            r >= 1 rows above it, holds one weight, invertible mod k (that press
            is the last to reach the light r rows above it, so each light of row
            i forces the press of row i + r, and the top r rows determine every
            press).  Today's rule and the sigma game have r = 1, the plus rule
            of radius 2 has r = 2; the "x", 3 x 3 and knight rules (two weights
            in their top row) are refused.
        holes: None, or a bool array of shape (n, m): cells that are not part of the
            board, as for :func:`solve`.  A mask is accepted when the top rows still
            determine the board: every pressable cell below them is forced by a
            required light.
        unpressable: None, or the same: cells that may not be pressed.
        free_lights: None, or the same: lights that need not end dark.
        verify: check the row before returning it, as :func:`verify_first_row` does
            (today's rule, two states, no wrap, no stencil or masks; a few percent of the
            solve at 10^8 and above); raises InternalError if the check fails.

    Returns:
        Array of length m when r = 1 (today's rule, the sigma game): bool for two
        states, uint8 press counts otherwise; shape ``(r, m)`` when r > 1: the top
        r rows of the canonical solution.  When axis 0 wraps, these are the top
        rows of the canonical solution; :func:`lightsout.chase` then starts from
        more rows (it says how many).

    Raises:
        InvalidTypeError: a size that is not an int, a progress that is not callable.
        InvalidBoardError: a size that is not positive, an unknown method; a stencil
            whose rows do not chase down (nothing above the pressed cell, two weights or
            one not invertible mod k in its top slice, as the 3 x 3 rule), or masks that
            leave a press forced by no light: the message says which, and that
            ``solve(np.ones((n, m)), stencil=...)`` solves the all-lit board of any rule.
        UnsolvableError: the all-lit board has no solution under this rule.
        BoardTooLargeError: the route would need more memory or time than allowed
            (the dense route refuses long before the polynomial one); with ``verify``,
            a row the check cannot decide (a rectangle or a nullity above 64 past
            ``lightsout.limits.MAX_VERIFY_REPLAY_CELLS`` cells; see :func:`verify_first_row`).
        InternalError: with ``verify``, the row failed the check.

    Examples:
        >>> from lightsout import first_row
        >>> first_row(3).astype(int).tolist()
        [1, 0, 1]
        >>> bool((first_row(50) == first_row(50, method="dense")).all())
        True
        >>> first_row(4, torus=True).astype(int).tolist(), first_row(3, states=3).tolist()
        ([1, 1, 1, 1], [0, 1, 0])
        >>> import numpy as np
        >>> from lightsout import Stencil, chase, press
        >>> plus2 = Stencil.named("plus", radius=2)
        >>> rows = first_row(6, stencil=plus2)                   # r = 2: the top two rows
        >>> rows.shape
        (2, 6)
        >>> bool(press(np.ones((6, 6)), chase(np.ones((6, 6)), rows, stencil=plus2), stencil=plus2).any())
        False
    """
    return _first_row(n, m, torus=torus, self_toggle=self_toggle, states=states, method=method, threads=threads,
                      progress=progress, stencil=stencil, holes=holes, unpressable=unpressable,
                      free_lights=free_lights, verify=verify, packed=False)


def first_row_packed(n: int, m: Optional[int] = None, *, torus: TorusArg = False, self_toggle: bool = True,
                     method: str = "auto", threads: Optional[int] = None, progress: Progress = None,
                     verify: bool = False) -> npt.NDArray[np.uint64]:
    """:func:`first_row` of a two-state board, packed: ``words_for_bits(m)`` uint64 words, column j at bit j.

    The layout is :mod:`lightsout.packed`'s (``lightsout.packed.unpack(words, m)`` gives
    ``first_row(n, m)``; the words' bytes are ``np.packbits(row, bitorder="little")`` padded
    to whole words).  On an open board of today's rule no wider than tall, the row never
    exists one byte a bit: ``first_row_packed(10**9)`` returns 125 MB where the bool row is
    1 GB, and holds nothing else when it returns.  Other boards are solved as by
    :func:`first_row` and their row packed.

    Args:
        n: rows (positive int).
        m: columns (positive int); None for a square board.
        torus: True/False, or (rows wrap, columns wrap), as for :func:`first_row`.
        self_toggle: False for the sigma game, where a press skips its own cell.
        method: the route, as for :func:`first_row` ("auto" takes the polynomial route where it applies).
        threads: the most threads this call works on, as for :func:`first_row`.
        progress: None, or ``progress(stage, done, total)`` called between chunks of work.
        verify: check the row before returning it, as ``first_row(..., verify=True)`` does
            (today's rule, no wrap); raises InternalError if the check fails.

    Returns:
        A uint64 array of ``(m + 63) // 64`` words; bits past column m are zero.

    Raises:
        As :func:`first_row`.

    Example:
        >>> import lightsout
        >>> words = lightsout.first_row_packed(5)
        >>> words.tolist(), lightsout.packed.unpack(words, 5).astype(int).tolist()
        ([24], [0, 0, 0, 1, 1])
    """
    return _first_row(n, m, torus=torus, self_toggle=self_toggle, states=2, method=method, threads=threads,
                      progress=progress, stencil=None, holes=None, unpressable=None, free_lights=None,
                      verify=verify, packed=True)


def _first_row(n: int, m: Optional[int], *, torus: TorusArg, self_toggle: bool, states: int, method: str,
               threads: Optional[int], progress: Progress, stencil: StencilArg, holes: Optional[npt.ArrayLike],
               unpressable: Optional[npt.ArrayLike], free_lights: Optional[npt.ArrayLike], verify: bool,
               packed: bool) -> np.ndarray:
    """:func:`first_row`, or with ``packed`` (two states, r = 1) :func:`first_row_packed`."""
    nrows, ncols = grid_shape(n, m)
    if flag(verify, "verify"):
        _refuse_unverifiable_rules(torus=torus, self_toggle=self_toggle, states=states, stencil=stencil,
                                   holes=holes, unpressable=unpressable, free_lights=free_lights)
    press_rule: dict[str, Any] = dict(stencil=stencil, holes=holes, unpressable=unpressable, free_lights=free_lights)
    if any(value is not None for value in press_rule.values()):
        rules = Rules.check((nrows, ncols), torus, self_toggle, states, **press_rule)
        if not rules.is_classic:
            return _stencil_first_rows(rules, method, thread_count(threads), progress)
        self_toggle = rules.self_toggle  # stencil="sigma" is today's sigma game
    rules = Rules.of_grid(nrows, ncols, torus, self_toggle, states)
    if method == "auto" and open_sigma(rules):  # the sigma game's congruence (docs/algebra.md section 7)
        refuse_poly_rules(rules)
        threads = thread_count(threads)  # checked as on every route
        progress_callback(progress)
        with polynomial_work(threads):
            sigma_row = sigma_first_row(nrows, ncols)
        if sigma_row is not None:  # else unsolvable: the route below builds the proof, or refuses
            return pack_row(sigma_row) if packed else sigma_row
    route = route_for(method, rules, solving=True)
    threads = thread_count(threads)
    progress_callback(progress)
    if route.name == "poly" and ncols <= nrows and rules.is_classic and not any(rules.wraps) \
            and rules.self_toggle and rules.states == 2:
        # The route's buffers are all freed before the row is unpacked (10^9: 125 MB packed, 1 GB bool).
        with polynomial_work(threads, nrows):
            words = _poly_first_row_words(nrows, ncols, progress, verify)
        return words if packed else unpack_row(words, ncols)
    # the all-lit board is never built; the N-D route builds its canonical solution alone, never
    # the quiet patterns (a 10,000 x 10,000 torus has 128 of them, 13 GB)
    found = route.solve(rules, None, threads=threads, progress=progress, kernel=True)
    if not found.solvable:
        raise _all_lit_unsolvable(found, rules)
    row = _canonical_first_row(found, rules)
    if verify:
        _verified(pack_row(row), found, nrows, ncols)
    return pack_row(row) if packed else row


def _poly_first_row_words(nrows: int, ncols: int, progress: Progress, verify: bool) -> np.ndarray:
    """The canonical first row of the all-lit board (ncols <= nrows), packed, by the polynomial route."""
    words, found = all_lit_first_row_words(nrows, ncols, progress)
    if verify:
        _verified(words, found, nrows, ncols)
    return words


def _canonical_first_row(found: Coset, rules: Rules) -> np.ndarray:
    """The canonical first row of the all-lit board from a route's solution of it."""
    if found.layout == "first_rows":
        assert found.first_row is not None
        return found.first_row if found.canonical else canonical_first_row(found.first_row, found.quiet_first_rows())
    if not found.canonical or found.particular is None:
        raise InternalError(f"the {found.method} route gave no canonical solution of the all-lit board")
    row: np.ndarray = np.asarray(found.particular).reshape(rules.shape)[0]
    return row.astype(rules.light_dtype)


def _refuse_unverifiable_rules(**options: Any) -> None:
    """first_row(verify=True) checks today's rule, two states, no wrap, no stencil or masks: else InvalidBoardError."""
    other = [name for name in ("stencil", "holes", "unpressable", "free_lights") if options[name] is not None]
    other += [name for name, plain in (("torus", (False, (False, False))), ("self_toggle", (True,)), ("states", (2,)))
              if not any(options[name] is value or (type(options[name]) is type(value) and options[name] == value)
                         for value in plain)]
    if other:
        raise InvalidBoardError(f"first_row(verify=True) checks today's rule on the all-lit board, two states, "
                                f"no wrap, no stencil or masks; drop {', '.join(other)} or verify=True")


def _verified(words: np.ndarray, found: Coset, nrows: int, ncols: int) -> None:
    """Raise InternalError unless the packed row passes verify_first_row's check; ``found`` gives the quiet rows."""
    def quiet_rows() -> np.ndarray:     # a square is never transposed: the working rows are the caller's
        return pack_rows(found.quiet_first_rows()) if found.transposed else \
            np.array(list(found.iter_kernel_words()), dtype=np.uint64)

    if not first_row_clears(words, nrows, ncols, lambda n: found.nullity, quiet_rows,
                            known_nullity=found.nullity if nrows == ncols else None):
        raise InternalError(f"first_row({nrows}, {ncols}): the returned row does not clear the all-lit board "
                            f"(docs/algebra.md section 15)")


def verify_first_row(row: npt.ArrayLike, n: int, m: Optional[int] = None, *, seed: Optional[int] = None) -> bool:
    """Whether pressing ``row`` on the top row, then chasing the lights down, clears the all-lit n x m board.

    The board is never built.  On a square board the clearing identity is evaluated at
    random points of GF(2^64) in O(n) field products (:ref:`section 15 of the algebra page
    <algebra-15>`): a wrong row passes with probability below 2^-60, whatever it is.  A
    correct row passes it for sure when its solution has the row as its first and last
    columns, as every row of a board with one solution does (``nullity(n) == 0``).  On a
    board with several solutions a row that fails it is checked again with the identity
    widened by the board's quiet patterns, which every correct row passes (finding them
    costs about a solve; ``first_row(n, verify=True)`` has them already).  A rectangle's
    row, and a square's of nullity above 64, are chased down the board instead, up to
    ``lightsout.limits.MAX_VERIFY_REPLAY_CELLS`` cells.

    Args:
        row: 0/1 values, one per column (m of them).
        n: rows (positive int).
        m: columns (positive int); None for a square board.
        seed: None to draw the points from fresh entropy, or an int to repeat a draw.

    Returns:
        True when the row clears the board (with the probability above for square boards).

    Raises:
        InvalidTypeError, InvalidBoardError: sizes, a row that is not 0/1 or not m long.
        BoardTooLargeError: the check cannot decide (a rectangle, or a square of nullity
            above 64 whose row fails the plain identity) and the board has more than
            ``MAX_VERIFY_REPLAY_CELLS`` cells.

    Examples:
        >>> import lightsout
        >>> lightsout.verify_first_row(lightsout.first_row(1000), 1000)
        True
        >>> row = lightsout.first_row(1000)
        >>> row[500] ^= True
        >>> lightsout.verify_first_row(row, 1000)
        False
    """
    nrows, ncols = grid_shape(n, m)

    def quiet_rows() -> np.ndarray:     # a solve of the board: asked only on a board with several solutions
        rules = Rules.of_grid(nrows, ncols, False, True, 2)
        return pack_rows(route_for("auto", rules, solving=True).solve(rules, None, kernel=True).quiet_first_rows())

    return first_row_clears(pack_row(bit_row(row, "row", ncols)), nrows, ncols, nullity, quiet_rows, seed=seed)


def _stencil_first_rows(rules: Rules, method: str, threads: Optional[int], progress: Progress) -> np.ndarray:
    """:func:`first_row` under a stencil or masks: the top r rows of the all-lit board's canonical solution."""
    nrows, ncols = rules.shape
    hint = (f"solve the all-lit board itself: solve(np.ones(({nrows}, {ncols})), stencil=...) with the same "
            f"torus, states and masks (on the command line: lightsout solve --all-lit {nrows} {ncols} --stencil ...)")
    depth = _board.row_chase(rules, hint).depth  # a mask array is only read when the masks are there already
    masked = any(mask is not None for mask in rules.masks())
    if method == "auto" and rules.stencil is not None and rules.states == 2 and not masked and not any(rules.wraps):
        cross = cross_first_rows(nrows, ncols, rules.stencil)  # polynomials in the row operator, when one solution
        if cross is not None:
            return cross[0] if depth == 1 else cross
    route = route_for(method, rules, solving=True)  # refuses a board too large before any work
    progress_callback(progress)
    found = route.solve(rules, None, threads=threads, progress=progress, kernel=True)
    if not found.solvable:
        raise left_kernel_unsolvable(found, rules, np.ones(rules.shape, dtype=np.uint8))
    if not found.canonical or found.particular is None:
        raise InternalError(f"the {found.method} route gave no canonical solution of the all-lit board")
    presses = np.asarray(found.particular).reshape(rules.shape)
    if rules.cells <= FIRST_ROWS_REPLAY_CELLS:  # replayed here; a larger board trusts the route's own check
        lit = np.ones(rules.shape, dtype=rules.light_dtype)
        if _board.press_checked(lit, presses.astype(rules.light_dtype), rules)[rules.required_lights()].any():
            raise InternalError(f"the {found.method} route's solution of the all-lit board leaves a light on")
    rows = presses[:depth]
    rows = rows[0] if depth == 1 else rows.copy()
    return rows.astype(rules.light_dtype)


#: Boards of up to this many cells (1024 x 1024) have their all-lit solution replayed before first_row
#: returns its rows under a stencil: on 2000 x 2000 with the plus rule of radius 2 the replay took 0.35 s
#: beside the route's 1.16 s, so larger boards trust the chase route, which checks every equation of its
#: own solution.
FIRST_ROWS_REPLAY_CELLS = 1 << 20


def _all_lit_unsolvable(found: Coset, rules: Rules) -> Exception:
    """Why the all-lit board has no solution: its proof, or a broken theorem (an internal error)."""
    nrows, ncols = rules.shape
    if found.proof is None:  # Sutner: the plain rule's all-lit board is always solvable
        return InternalError(f"the {found.method} route found the all-lit {nrows} x {ncols} board unsolvable "
                             "without a proof (Sutner's theorem says it is solvable under the plain rule)")
    states = rules.states
    proof = np.asarray(found.proof, dtype=np.uint8).reshape(nrows, ncols)
    meet = int(proof.astype(np.int64).sum())  # every cell is lit
    return unsolvable_error(
        f"the all-lit {nrows} x {ncols} board (torus={rules.wraps}, self_toggle={rules.self_toggle})",
        found.nullity, states, lit_cells_met=meet, inner_product=meet % states,
        quiet_pattern=proof.astype(bool) if states == 2 else proof, quiet_first_row=proof[0].copy())


def nullity(n: Union[int, Sequence[int]], m: Optional[int] = None, *, torus: TorusArg = False,
            self_toggle: bool = True, states: int = 2, method: str = "auto", threads: Optional[int] = None,
            progress: Progress = None, stencil: StencilArg = None, holes: Optional[npt.ArrayLike] = None,
            unpressable: Optional[npt.ArrayLike] = None, free_lights: Optional[npt.ArrayLike] = None) -> int:
    """Dimension of the quiet-pattern space of the n x m board (``m=None``: square).

    A board with nullity d has 2**d solutions when it is solvable, and exactly
    one of every 2**d start states is solvable.  For k states the nullity is
    the fewest quiet patterns that generate all the others: the dimension over
    GF(k) for prime k, and for other k the largest of the nullities over GF(p)
    for the primes p dividing k.

    Args:
        n: rows (positive int), or a whole shape: a tuple of axis lengths, any
            number of axes (then ``m`` must be None).
        m: columns (positive int); None for a square board.
        torus: True/False, or one bool per axis: that axis wraps around.
        self_toggle: False for the sigma game, where a press skips its own cell.
        states: number of light states k (2..255).
        method: "auto" or a route of :func:`solve` (one of ``lightsout.METHODS``).
        threads: the most threads this call works on, as for :func:`solve`
            (the polynomial route's products and gcds included).
        progress: None, or ``progress(stage, done, total)`` called between
            chunks of work, as for :func:`solve` (the polynomial route reports
            none).
        stencil: None for today's rule (the plus rule; the sigma game with
            ``self_toggle=False``), or what a press adds around it: a
            :class:`lightsout.Stencil`, a name of :meth:`lightsout.Stencil.named`
            ("plus", "sigma", "x", "moore", "3x3", "knight", "hex") or an array of
            weights 0..k-1 with the board's number of axes, centred on its middle.
            ``self_toggle=False`` sets its centre weight to 0.
        holes: None, or a bool array of the board's shape: True where the cell is
            not part of the board (neither a light nor a button; its light, still a
            state 0..k-1, is ignored).
        unpressable: None, or the same: True where the cell may not be pressed.
        free_lights: None, or the same: True where the light need not end dark.

    With masks, the nullity counts the presses of the pressable cells that change no
    required light (the solutions of a solvable board are one solution plus those).

    Examples:
        >>> from lightsout import nullity
        >>> nullity(5), nullity(4), nullity(5, method="dense")
        (2, 4, 2)
        >>> nullity((5, 5), torus=True), nullity(5, self_toggle=False), nullity(4, states=3)
        (8, 5, 2)
        >>> nullity(5, stencil="x"), nullity((4, 4), stencil="moore"), nullity(4, holes=[[1, 0, 0, 1]] + [[0] * 4] * 3)
        (4, 0, 2)
    """
    if isinstance(n, (tuple, list)):
        if m is not None:
            raise InvalidBoardError(f"nullity takes a shape or (n, m), not both: got n={n!r} and m={m!r}")
        shape = board_shape(n, "n")
    else:
        shape = grid_shape(n, m)
    press_rule: dict[str, Any] = dict(stencil=stencil, holes=holes, unpressable=unpressable, free_lights=free_lights)
    if len(shape) == 2 and all(value is None for value in press_rule.values()):
        rules = Rules.of_grid(*shape, torus, self_toggle, states)
    else:
        rules = Rules.check(shape, torus, self_toggle, states, **press_rule)
    threads = thread_count(threads)
    progress_callback(progress)
    if method == "auto" and poly_rules_take(rules):  # the sigma game, wrapping axes: gcds (algebra.md section 7)
        refuse_poly_rules(rules)
        with polynomial_work(threads):
            return poly_rules_nullity(rules)
    return route_for(method, rules, solving=False).nullity(rules, threads=threads, progress=progress)


def nullity_table(nmax: int, mmax: Optional[int] = None, *, executor: Optional[concurrent.futures.Executor] = None,
                  progress: Progress = None) -> np.ndarray:
    """Nullities of the n x n boards for n = 1 .. nmax (index 0 is n = 1), as an int64 array.

    Open boards, plus rule, two states (call :func:`nullity` for other rules).

    Args:
        nmax: the largest n (positive int).
        mmax: None for the square boards; else the table is rectangular:
            entry ``[n - 1, m - 1]`` is the nullity of the n x m board,
            n = 1 .. nmax, m = 1 .. mmax.
        executor: None (this process, one core), or a
            ``concurrent.futures.Executor`` (a ``ProcessPoolExecutor``, or
            ``dask.distributed.Client(...).get_executor()``) whose workers take
            the rows as independent tasks; the table is the same as the serial one.
        progress: None, or ``progress(stage, done, total)`` called between
            chunks of work (rows of the table), as for :func:`solve`.

    Raises:
        BoardTooLargeError: more than ``lightsout.limits.MAX_TABLE_ENTRIES``
            (10**7) entries, or, without an executor, an estimated
            ``lightsout.limits.MAX_TABLE_SECONDS`` (an hour) on one core: about
            n = 1,200,000 square; rectangles such as 10 x 10**6.

    Examples:
        >>> from lightsout import nullity_table
        >>> nullity_table(20).tolist()
        [0, 0, 0, 4, 2, 0, 0, 0, 8, 0, 6, 0, 0, 4, 0, 8, 2, 0, 16, 0]
        >>> nullity_table(4, 5).tolist()
        [[0, 1, 0, 0, 1], [1, 0, 2, 0, 1], [0, 2, 0, 0, 3], [0, 0, 0, 4, 0]]
    """
    nmax = board_size(nmax, "nmax")
    top = None if mmax is None else board_size(mmax, "mmax")
    progress_callback(progress)
    refuse_poly(max(nmax, top or 0))
    pool = checked_executor(executor)
    _nullity_table_fits(nmax, top, pool is not None)
    if top is None and pool is None:
        return _nullity_table(nmax, progress)
    chunks = [(n, min(n + NULLITY_CHUNK, nmax + 1), top) for n in range(1, nmax + 1, NULLITY_CHUNK)]
    if pool is None:
        parts = [_nullity_rows(*chunk) for chunk in chunks]
    else:
        parts = run_tasks(pool, _nullity_rows, chunks, stage="nullity_table", progress=progress)
    return np.concatenate(parts)


#: Most entries a nullity table may have (80 MB of int64).
MAX_TABLE_ENTRIES = 10**7
#: Most seconds a nullity table may be estimated to take on one core (an executor lifts this).
MAX_TABLE_SECONDS = 3600.0


def _nullity_table_seconds(nmax: int, mmax: Optional[int]) -> float:
    """Seconds a nullity table takes on one core, from timings on the 2-core development machine
    (28 Nov 2026, the squares' gcds at a quarter of n): the square table about 1.9e-9 n^2 up to
    n = 300,000 (sampled: 10^5 in 18 s, 300,000 in 172 s), then about 2,400 (n / 10^6)^2.3
    (10^6 in 2,373 s, 3 * 10^6 in 29,474 s); a rectangular one 20 to 30 us an entry (300 x 3000
    in 25 s), growing with the longer side."""
    if mmax is None:
        return max(1.9e-9 * nmax * nmax, 2.4e3 * float((nmax / 1e6) ** 2.3))
    return nmax * mmax * (20e-6 + 5e-9 * max(nmax, mmax))


def _nullity_table_fits(nmax: int, mmax: Optional[int], spread: bool) -> None:
    """Refuse a nullity table over ``MAX_TABLE_ENTRIES`` entries, or over ``MAX_TABLE_SECONDS`` on one core."""
    entries = nmax if mmax is None else nmax * mmax
    size = f"{nmax}" if mmax is None else f"{nmax} x {mmax}"
    if entries > MAX_TABLE_ENTRIES:
        raise BoardTooLargeError(f"a nullity table of {size} has {entries:.3g} entries, over the limit of "
                                 f"{MAX_TABLE_ENTRIES:.3g} (lightsout.limits.MAX_TABLE_ENTRIES); ask for it in parts "
                                 "or call nullity(n, m) for the entries you need")
    seconds = _nullity_table_seconds(nmax, mmax)
    if not spread and seconds > MAX_TABLE_SECONDS:
        raise BoardTooLargeError(f"a nullity table of {size} would take about {seconds / 3600:.2g} hours on one core, "
                                 f"over the limit of {MAX_TABLE_SECONDS / 3600:g} hour (lightsout.limits."
                                 "MAX_TABLE_SECONDS); pass executor= to spread it over workers, or ask for less")


#: Rows of a nullity table handed to one executor task.
NULLITY_CHUNK = 64


def _nullity_rows(first: int, stop: int, mmax: Optional[int]) -> np.ndarray:
    """Rows first .. stop-1 of a nullity table (a top-level function, so that it pickles)."""
    if mmax is None:
        return np.array([_nullity_poly(n, n) for n in range(first, stop)], dtype=np.int64)
    return np.array([[_nullity_poly(n, m) for m in range(1, mmax + 1)] for n in range(first, stop)],
                    dtype=np.int64)


def solve(board: Union[npt.ArrayLike, str], *, torus: TorusArg = False, self_toggle: bool = True, states: int = 2,
          minimal: bool = False, time_limit: Optional[float] = None, executor: Optional[concurrent.futures.Executor] = None,
          method: str = "auto", threads: Optional[int] = None, progress: Progress = None,
          stencil: StencilArg = None, holes: Optional[npt.ArrayLike] = None,
          unpressable: Optional[npt.ArrayLike] = None, free_lights: Optional[npt.ArrayLike] = None,
          checkpoint: Union[str, "os.PathLike[str]", None] = None) -> Solution:
    """Find presses that turn every light of ``board`` off.

    A press adds 1 (mod ``states``; with two states: toggles) to its cell and
    to the cells one step away along every axis.  When the board has several
    solutions (nullity > 0) every route returns the same **canonical** one:
    the lexicographically smallest press vector, cells in row-major order,
    cell (0, ..., 0) first (0 before 1 before 2 ...).  On a 2-D open board
    every solution is fixed by its first row, so this is the solution whose
    first row is smallest, reading column 0 first.  The other solutions are
    this one plus a quiet pattern (:meth:`Solution.quiet_patterns`,
    :meth:`Solution.all`).

    Args:
        board: array-like of light states (1 = lit; 0..k-1 with k states) with
            any number of axes, nested lists, or board text
            (:func:`lightsout.parse_board`: ``"*.*\\n.*."``).
        torus: True/False, or one bool per axis: that axis wraps around.
        self_toggle: False for the sigma game, where a press skips its own cell.
        states: number of light states k, 2..255: a press adds 1 mod k to its
            cell and neighbours, and a solution presses each cell 0..k-1 times.
        minimal: return the solution with the fewest presses (counted with
            multiplicity when k > 2), proven by searching every solution
            (``Solution.proven_minimal``); see :meth:`Solution.minimal`.
        time_limit: for ``minimal=True``: seconds (>= 0; numpy numbers too) after
            which the search stops and the best solution found so far is returned,
            with ``proven_minimal=False``.
        executor: for ``minimal=True``: a ``concurrent.futures.Executor`` (a
            ``ProcessPoolExecutor``, ``dask.distributed.Client(...).get_executor()``)
            to spread the search over, instead of this process's threads.
        checkpoint: for ``minimal=True`` (two states): a file path where the search
            keeps where it stands and from which a later call resumes it, as for
            :func:`lightsout.fewest_presses`.
        method: the route, which changes the time taken, never the answer:
            ``"poly"``, one congruence over GF(2)[t] (open 2-D two-state
            boards with the plus rule; O(C) words of memory, and what ``"auto"``
            picks for them); ``"dense"``, the A/B two-row iteration to a
            C x (C+1) system and its elimination (the same boards; a C x C bit
            matrix); ``"nd"``, chasing along one axis to a system over Z/k
            (every board: any number of axes, wrapping axes, the sigma rule,
            k states; what ``"auto"`` picks for the others of today's rule);
            ``"stencilchase"``, light chasing carried to any stencil and masks (what
            ``"auto"`` picks for them); ``"general"``, the whole system of any stencil
            and masks written out and eliminated (where a wrapping axis is shorter
            than the stencil); or a graph route, ``"forcing"`` or ``"elimination"``,
            which solves the board as the graph its presses make.  See :doc:`/guide/solve`.
        threads: the most threads this call works on, in every step (the route's
            column blocks, the fewest-presses search); None (default) means every
            CPU this process may use, 1 means the calling thread alone.  The same
            on every function that takes it.
        progress: None, or ``progress(stage, done, total)``, called from the
            calling thread between chunks of work (``stage`` names the step, such
            as ``"chase"`` or ``"ab_iteration"``; ``done`` of ``total`` units are
            finished); the same on every function that takes it.
        stencil: None for today's rule (the plus rule; the sigma game with
            ``self_toggle=False``), or what a press adds around it: a
            :class:`lightsout.Stencil`, a name of :meth:`lightsout.Stencil.named`
            ("plus", "sigma", "x", "moore", "3x3", "knight", "hex") or an array of
            weights 0..k-1 with the board's number of axes, centred on its middle.
            ``self_toggle=False`` sets its centre weight to 0.
        holes: None, or a bool array of the board's shape: True where the cell is
            not part of the board (neither a light nor a button; its light, still a
            state 0..k-1, is ignored).
        unpressable: None, or the same: True where the cell may not be pressed.
        free_lights: None, or the same: True where the light need not end dark.

    Returns:
        A :class:`Solution` with the canonical presses (above), the nullity, the
        number of solutions and the quiet patterns.

    Raises:
        UnsolvableError: no presses clear the board; carries a quiet pattern
            whose inner product with the board is nonzero mod k (two states:
            it meets an odd number of lit cells).
        InvalidBoardError: values outside 0..k-1, an empty axis, an unknown method.
        InvalidTypeError: an argument of the wrong type (a float size, ``minimal="no"``).

    Examples:
        >>> import numpy as np
        >>> from lightsout import solve
        >>> s = solve([[1, 1, 1], [1, 1, 1], [1, 1, 1]])
        >>> s.presses.astype(int).tolist()
        [[1, 0, 1], [0, 1, 0], [1, 0, 1]]
        >>> solve("*.*\\n.*.\\n*.*").press_list()
        [(0, 0), (0, 1), (0, 2), (1, 0), (1, 1), (1, 2), (2, 0), (2, 1), (2, 2)]
        >>> int(solve(np.ones((3, 3, 3, 3), dtype=int)).presses.sum())
        41
        >>> s = solve(np.ones((3, 3), dtype=int), stencil="x")      # a press changes its cell and its diagonals
        >>> s.presses.astype(int).tolist(), s.method
        ([[0, 1, 0], [1, 1, 1], [0, 1, 0]], 'stencilchase')
        >>> solve([[1, 1, 0]], stencil=[[0, 1, 1]], unpressable=[[0, 0, 1]]).presses.astype(int).tolist()
        [[1, 0, 0]]
        >>> solve([[1, 0, 0, 0]] * 4)
        Traceback (most recent call last):
        ...
        lightsout.UnsolvableError: this 4 x 4 board cannot be turned dark: ...
    """
    states = states_count(states)
    minimal = flag(minimal, "minimal")
    if checkpoint is not None and not minimal:
        raise InvalidBoardError("checkpoint= keeps the state of the fewest-press search: give minimal=True too")
    press_rule: dict[str, Any] = dict(stencil=stencil, holes=holes, unpressable=unpressable, free_lights=free_lights)
    # a numpy board's route is asked from its shape, before the board is checked or copied
    rules = array_rules(board, torus, self_toggle, states, **press_rule)
    route = None if rules is None else route_for(method, rules, solving=True, board_given=True)
    grid = None if rules is not None and not rules.is_classic else _packed_grid(board, states, torus, self_toggle,
                                                                                method)
    words, lights = (None, _board.as_board(board, states)) if grid is None else grid
    if rules is None or route is None:
        rules = Rules.check(lights.shape, torus, self_toggle, states, **press_rule)
        route = route_for(method, rules, solving=True, board_given=True)
        if words is not None and not rules.is_classic:
            words = None
    threads = thread_count(threads)
    progress_callback(progress)
    found = solve_checked(rules, lights, route, words=words, threads=threads, progress=progress)
    if not minimal:
        return found
    return found.minimal(time_limit=time_limit, executor=executor, progress=progress, threads=threads,
                         checkpoint=checkpoint)


def solve_checked(rules: Rules, lights: np.ndarray, route: Optional[Route] = None, *,
                  words: Optional[np.ndarray] = None, threads: Optional[int] = None,
                  progress: Progress = None) -> Solution:
    """:func:`solve` for a board and rules checked where the call came in (the library's own callers).

    ``lights`` is the checked board of ``rules.shape``; ``words`` its rows
    packed, when the caller has them; ``route`` the route chosen for it, whose
    refusals the caller has asked (None: the one ``method="auto"`` picks, asked
    here).  An UnsolvableError says under which rules and on which route, as a
    Solution does.

    Example:
        >>> solve_checked(Rules.check((3, 3)), np.ones((3, 3), dtype=bool)).presses.astype(int).tolist()
        [[1, 0, 1], [0, 1, 0], [1, 0, 1]]
    """
    route = route or route_for("auto", rules, solving=True, board_given=True)
    try:
        found = route.solve(rules, lights, words, threads=threads, progress=progress, kernel=True)
        return solution_from_coset(found, rules, lights, words)
    except UnsolvableError as exc:
        exc.rules, exc.method = rules, route.name
        raise


#: Boards from this many cells are packed by :func:`_packed_grid` (below it numpy's path is as quick).
PACK_IN_ONE_PASS_CELLS = 1 << 16


def _packed_grid(board: object, states: int, torus: object, self_toggle: object,
                 method: object) -> Optional[tuple[np.ndarray, np.ndarray]]:
    """(packed rows, board) for a big open 2-D two-state numpy board, checked and packed in one pass; else None.

    None too when a value is not 0 or 1, so that the board's own check refuses it, saying which.
    """
    if not (isinstance(board, np.ndarray) and not isinstance(board, np.ma.MaskedArray) and board.ndim == 2
            and states == 2 and torus is False
            and self_toggle is True and method in ("auto", "poly", "dense")
            and PACK_IN_ONE_PASS_CELLS <= board.size <= MAX_BOARD_CELLS):
        return None
    dtype = board.dtype
    if not (dtype.isnative and dtype.kind in "biuf" and board.strides[1] == dtype.itemsize):
        return None
    try:
        return pack_zero_one(board, "board"), board
    except InvalidBoardError:  # the board's own check says which value, and how to ask for more states
        return None


def is_solvable(board: Union[npt.ArrayLike, str], *, torus: TorusArg = False, self_toggle: bool = True,
                states: int = 2, method: str = "auto", threads: Optional[int] = None,
                progress: Progress = None, stencil: StencilArg = None, holes: Optional[npt.ArrayLike] = None,
                unpressable: Optional[npt.ArrayLike] = None, free_lights: Optional[npt.ArrayLike] = None) -> bool:
    """Whether some set of presses turns every light of ``board`` off.

    The question :func:`solve` answers, as a bool instead of an
    :class:`UnsolvableError`.

    Args:
        board: array-like of light states, nested lists or board text, as for
            :func:`solve`.
        torus: True/False, or one bool per axis: that axis wraps around.
        self_toggle: False for the sigma game, where a press skips its own cell.
        states: number of light states k (2..255).
        method: "auto" or a route of :func:`solve` (one of ``lightsout.METHODS``).
        threads: the most threads this call works on, as for :func:`solve`.
        progress: None, or ``progress(stage, done, total)`` called between
            chunks of work, as for :func:`solve`.
        stencil: the press rule, as for :func:`solve` (None: today's rule).
        holes: cells that are not part of the board, as for :func:`solve`.
        unpressable: cells that may not be pressed, as for :func:`solve`.
        free_lights: lights that need not end dark, as for :func:`solve`.

    Examples:
        >>> from lightsout import is_solvable
        >>> is_solvable([[1, 1], [1, 1]]), is_solvable([[1, 0, 0, 0]] * 4)
        (True, False)
        >>> is_solvable([[1, 0, 0, 0]] * 4, states=3)
        True
        >>> is_solvable([[1, 0, 0, 0]] * 4, free_lights=[[1, 0, 0, 0]] * 4)
        True
    """
    states = states_count(states)
    press_rule: dict[str, Any] = dict(stencil=stencil, holes=holes, unpressable=unpressable, free_lights=free_lights)
    rules = array_rules(board, torus, self_toggle, states, **press_rule)
    route = None if rules is None else route_for(method, rules, solving=True, board_given=True)
    lights = _board.as_board(board, states)
    if rules is None or route is None:
        rules = Rules.check(lights.shape, torus, self_toggle, states, **press_rule)
        route = route_for(method, rules, solving=True, board_given=True)
    threads = thread_count(threads)
    progress_callback(progress)
    return route.solve(rules, lights, threads=threads, progress=progress, kernel=False).solvable
