"""Many boards of one shape at once: ``solve_many``.

The solution operator of a board shape is computed once.  Over GF(2) it is a
cells x cells bit matrix P (``P b`` solves every solvable board b), reduced so
that it gives the canonical solution, together with the quiet patterns Q (b is
solvable exactly when ``Q b = 0``: the press matrix is symmetric;
docs/algebra.md, section 7).  Applying [P; Q] to N boards is a GF(2)
matrix product done with byte tables.
With ``minimal=True`` each board's fewest-press solution is picked among its
2^nullity solutions.  Boards with k > 2 states, and boards too large for the
operator (its cells x cells bit matrices and byte tables would pass
``MAX_OPERATOR_BYTES``, 256 MiB: boards of more than 5,180 cells), are solved
one by one with :func:`lightsout.solve`, with the same answers.  Large stacks
split into chunks that run on any ``concurrent.futures.Executor``.
"""
from __future__ import annotations

import concurrent.futures
from dataclasses import dataclass
from typing import Any, Optional

import numpy as np
import numpy.typing as npt

from lightsout._base.errors import InvalidBoardError, UnsolvableError
from lightsout._base.types import Progress
from lightsout._base.validate import board_values, flag, progress_callback, states_count, thread_count
from lightsout._core.rules import Rules, neighbour_pairs
from lightsout._core.runner import CancelToken, run_chunks
from lightsout._core.tasks import checked_executor, run_tasks
from lightsout._core.manyboards import (
    MAX_MINIMAL_NULLITY, apply_bit_matrix_many, bit_operator, coset_min_many, reduced_operator,
)
from lightsout._solve import array_rules, route_for, solve_checked
from lightsout.board import StencilArg, TorusArg
from lightsout.gf2 import rref

__all__ = ["solve_many", "ManySolutions"]

#: Boards handed to one executor task.
CHUNK_BOARDS = 1 << 18
#: Cells of the boards of one chunk when the stack is solved in this process (a few tens of milliseconds).
LOCAL_CHUNK_CELLS = 1 << 26
#: Most memory the solution operator of one shape may take; larger boards are solved one by one.
MAX_OPERATOR_BYTES = 256 << 20
#: Peak bytes of building and applying the operator, per cells**2 (9.3 measured at 60 x 60).
OPERATOR_BYTES_PER_CELL_PAIR = 10


def operator_fits(cells: int) -> bool:
    """Whether the solution operator of a board of ``cells`` cells stays within ``MAX_OPERATOR_BYTES``.

    Example:
        >>> operator_fits(100), operator_fits(200 * 200)
        (True, False)
    """
    return cells * cells * OPERATOR_BYTES_PER_CELL_PAIR <= MAX_OPERATOR_BYTES


@dataclass(frozen=True, eq=False)
class ManySolutions:
    """The answers of :func:`solve_many` for a stack of N boards of one shape.

    Attributes:
        presses: ``(N,) + shape``: each solvable board's canonical presses (or,
            with ``minimal=True``, its fewest presses); zeros where unsolvable.
            bool for two states, uint8 otherwise.
        solvable: ``(N,)`` bool.
        nullity: the shape's nullity; ``count`` solutions for every solvable board.
        count: solutions of every solvable board (an exact int).
        proven_minimal: True when ``presses`` are the proven fewest presses.

    Example:
        >>> import lightsout, numpy as np
        >>> boards = np.array([lightsout.all_lit(3), np.eye(3, dtype=bool)])
        >>> many = lightsout.solve_many(boards)
        >>> many
        ManySolutions(boards=2, shape=(3, 3), solvable=2, nullity=0, proven_minimal=False)
        >>> all(bool((lightsout.press(b, x) == 0).all()) for b, x in zip(boards, many.presses))
        True
    """

    presses: np.ndarray
    solvable: np.ndarray
    nullity: int
    count: int
    proven_minimal: bool

    def __repr__(self) -> str:
        return (f"ManySolutions(boards={len(self.solvable)}, shape={self.presses.shape[1:]}, "
                f"solvable={int(self.solvable.sum())}, nullity={self.nullity}, "
                f"proven_minimal={self.proven_minimal})")


def _effect_matrix(rules: Rules) -> np.ndarray:
    """The cells x cells 0/1 press matrix (column j: the cells a press on j changes)."""
    shape, cells = rules.shape, rules.cells
    unit = np.eye(cells, dtype=np.uint8).reshape((cells,) + shape)
    effect = unit.copy() if rules.self_toggle else np.zeros_like(unit)
    for axis, (size, wrap) in enumerate(zip(shape, rules.wraps)):
        for low, high in neighbour_pairs(axis + 1, len(shape) + 1, size, wrap):
            effect[low] ^= unit[high]
    return effect.reshape(cells, cells).T.copy()


def _operator(rules: Rules) -> tuple[np.ndarray, np.ndarray]:
    """(P, Q): P maps every solvable board to its canonical solution; Q's rows are the quiet patterns."""
    a = _effect_matrix(rules)
    cells = a.shape[0]
    rows, pivots = rref(np.concatenate([a, np.eye(cells, dtype=np.uint8)], axis=1))
    p = np.zeros((cells, cells), dtype=np.uint8)
    quiet = []
    for row, pivot in zip(rows, pivots):
        if pivot < cells:  # row: (R_i | E_i), and x[pivot] = E_i . b solves R x = E b
            p[pivot] = row[cells:]
        else:  # a zero A part: y A = 0, and A is symmetric, so y is a quiet pattern
            quiet.append(row[cells:])
    q = np.array(quiet, dtype=np.uint8).reshape(-1, cells)
    return reduced_operator(p, q) if len(q) else p, q


def _solve_chunk(boards: np.ndarray, rules: Rules, minimal: bool,
                 operator: Optional[tuple[np.ndarray, np.ndarray]] = None,
                 token: Optional[CancelToken] = None) -> tuple[np.ndarray, np.ndarray, int, int]:
    """Solve a stack (a top-level function, so that executor workers can run it); ``operator``:
    :func:`_operator` of the rules when the caller already has it; ``token``: boards solved one
    by one stop once it is cancelled."""
    n = len(boards)
    cells = rules.cells
    if rules.states != 2 or not rules.is_classic or not operator_fits(cells):  # the operator is today's rule's
        return _one_by_one(boards, rules, minimal, token)
    p, q = _operator(rules) if operator is None else operator
    if minimal and len(q) > MAX_MINIMAL_NULLITY:  # past the operator's budget: each board's own search
        return _one_by_one(boards, rules, minimal, token)
    result = apply_bit_matrix_many(np.ascontiguousarray(boards.reshape(n, cells), dtype=np.uint8),
                                   bit_operator(p, q if len(q) else None), packed_output=minimal and len(q) > 0)
    ok = np.ones(n, dtype=bool) if result.ok is None else result.ok
    if minimal and len(q):
        best, _ = coset_min_many(result.values, q)
        values = np.unpackbits(best.view(np.uint8), axis=1, count=cells, bitorder="little").astype(bool)
    else:
        values = np.asarray(result.values, dtype=bool)
    values[~ok] = False
    return values, ok, len(q), 1 << len(q)


def _one_by_one(boards: np.ndarray, rules: Rules, minimal: bool,
                token: Optional[CancelToken]) -> tuple[np.ndarray, np.ndarray, int, int]:
    """:func:`_solve_chunk` board by board (each solved, and searched, on its own)."""
    n, cells = len(boards), rules.cells
    presses = np.zeros((n, cells), dtype=np.uint8)
    ok = np.zeros(n, dtype=bool)
    nullity, count = 0, 1
    for i, board in enumerate(boards):
        if token is not None and token.cancelled:
            break
        try:
            s = solve_checked(rules, board.reshape(rules.shape).astype(rules.light_dtype, copy=False))
            s = s.minimal() if minimal else s
        except UnsolvableError as exc:
            nullity = exc.nullity
            continue
        presses[i], ok[i], nullity, count = s.presses.ravel(), True, s.nullity, s.count
    return presses, ok, nullity, count


def solve_many(boards: npt.ArrayLike, *, torus: TorusArg = False, self_toggle: bool = True, states: int = 2,
               minimal: bool = False, executor: Optional[concurrent.futures.Executor] = None,
               threads: Optional[int] = None, progress: Progress = None, stencil: StencilArg = None,
               holes: Optional[npt.ArrayLike] = None, unpressable: Optional[npt.ArrayLike] = None,
               free_lights: Optional[npt.ArrayLike] = None) -> ManySolutions:
    """Solve a stack of same-shape boards, ``(N,) + shape``, with one solution operator.

    Every answer equals ``solve(board)`` (``solve(board, minimal=True)`` with
    ``minimal=True``) on that board; unsolvable boards get ``solvable=False``
    instead of an exception.  Boards of more than 5,180 cells (where the
    operator would pass 256 MiB) and boards with k > 2 states are solved one by
    one with :func:`lightsout.solve`: the same answers, at that function's speed.

    Args:
        boards: array-like ``(N,) + shape`` of light states (N >= 1 boards of
            any number of axes).
        torus: True/False, or one bool per axis: that axis wraps around (the
            same for every board).
        self_toggle: False for the sigma game, where a press skips its own cell.
        states: number of light states k (2..255).
        minimal: the fewest presses of each board instead of the canonical ones.
        executor: a ``concurrent.futures.Executor``; the stack is split into
            chunks of 2**18 boards that run on it (same answers); without one,
            into chunks of at most 2**26 cells (so that Ctrl-C stops a large
            stack between two of them).
        threads: the most threads this call works on, as for
            :func:`lightsout.solve`; without an executor the chunks run on them.
        progress: None, or ``progress(stage, done, total)`` called between
            chunks, as for :func:`lightsout.solve`.
        stencil: every board's press rule, as for :func:`lightsout.solve`
            (boards under a stencil or masks are solved one by one).
        holes: cells that are not part of any board, as for :func:`lightsout.solve`.
        unpressable: cells no board may press, as for :func:`lightsout.solve`.
        free_lights: lights that need not end dark on any board, as for :func:`lightsout.solve`.

    Example:
        >>> import numpy as np
        >>> from lightsout import solve_many
        >>> boards = np.stack([np.ones((5, 5), int), np.eye(5, dtype=int), np.pad([[1]], ((0, 4), (0, 4)))])
        >>> many = solve_many(boards, minimal=True)
        >>> many.solvable.tolist(), many.presses.sum(axis=(1, 2)).tolist()
        ([True, True, False], [15, 5, 0])
    """
    k = states_count(states)
    press_rule: dict[str, Any] = dict(stencil=stencil, holes=holes, unpressable=unpressable, free_lights=free_lights)
    each = array_rules(boards, torus, self_toggle, k, stacked=True, **press_rule)
    if each is not None:  # a board the operator does not take goes by its route: asked before the stack is copied
        route_for("auto", each, solving=True, board_given=True)
    stack = board_values(boards, k, "boards")
    if stack.ndim < 2:
        raise InvalidBoardError(f"boards must be a stack (N,) + shape of boards, got shape {stack.shape}")
    rules = Rules.check(stack.shape[1:], torus, self_toggle, k, **press_rule)
    want_min = flag(minimal, "minimal")
    pool = checked_executor(executor)
    threads = thread_count(threads)
    progress_callback(progress)
    flat = np.ascontiguousarray(stack, dtype=np.uint8).reshape(len(stack), -1)
    size = CHUNK_BOARDS if pool is not None else max(1024, min(CHUNK_BOARDS, LOCAL_CHUNK_CELLS // rules.cells))
    chunks = [(flat[i:i + size], rules, want_min) for i in range(0, len(flat), size)]
    if len(chunks) == 1:
        presses, ok, nullity, count = _solve_chunk(flat, rules, want_min)
        if progress is not None:
            progress("solve_many", 1, 1)
    else:
        if pool is None:
            parts: list[Any] = [None] * len(chunks)
            classic = rules.states == 2 and rules.is_classic
            shared = _operator(rules) if classic and operator_fits(rules.cells) else None

            def run(number: int, token: CancelToken) -> None:
                parts[number] = _solve_chunk(*chunks[number], shared, token)

            run_chunks(run, len(chunks), threads=threads, progress=progress, stage="solve_many")
        else:
            parts = run_tasks(pool, _solve_chunk, chunks, stage="solve_many", progress=progress)
        presses = np.concatenate([part[0] for part in parts])
        ok = np.concatenate([part[1] for part in parts])
        nullity, count = parts[0][2], parts[0][3]
    out = presses.reshape(stack.shape)
    return ManySolutions(out.astype(bool) if k == 2 else out.astype(np.uint8), ok, nullity, count, want_min)
