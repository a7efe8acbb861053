"""The N-D grid route: boards of any number of axes, wrap-around per axis, the sigma rule, k states.

Algorithm (docs/algebra.md section 1 is the 2-D, two-state case):

1. Pick the chase axis: the one leaving the fewest unknowns.  Cutting the
   board into slices across axis a leaves S = cells / n_a cells per slice and
   U = S unknowns (the presses of slice 0), or U = 2S when axis a wraps and has
   length > 2 (slices 0 and 1: the last slice touches the first).  Ties go to
   the lowest axis.  A wrapping axis of length <= 2 touches the same slices as
   an open one (neighbours are a set), so it chases as an open one.
2. Chase in matrix form: every slice's presses are an affine function of the
   unknowns u, kept as S rows of U + 1 entries (packed bits for k = 2, bytes
   mod k otherwise), two slices at a time, by the ``lightsout._kernels.gridchase``
   kernels.  The lights the chase cannot clear (the last slice; with a
   wrapping axis also the first) give U equations ``M u + c = 0``.
3. Solve them: packed Gauss-Jordan elimination for k = 2
   (``lightsout._kernels.gf2elim``), ``lightsout._core.modring.solve_mod`` over Z/k.
4. Expand: chase the particular u (on the board) and every kernel generator
   (on the dark board) in one batch, one column each, and put the chase axis
   back.  The map from u to a whole press pattern is injective (u is part of
   the pattern), so the quiet patterns of the board are exactly the chases of
   the kernel of M: same count, same number of generators.

Shortcuts:

* A slice that is a ring of cells (one wrapping axis, as on a 2-D torus) is
  translation-invariant, so every S x S block of M is circulant: chasing the
  unit presses at cell 0 of slice 0 (and 1) plus the board, 2 or 3 columns in
  all, gives M's first columns, and the blocks are written out from them
  (``_reduce_circulant``).  The 10,000 x 10,000 torus reduces in 0.5 s
  instead of 24.
* With the chase along axis 0 the unknowns are the first U cells in C order,
  so :func:`canonical_nd` finds the smallest solution in the reduced system
  and expands that one pattern only.

Costs: the reduction is n * S * (neighbours + 3) * (U + 1) / 64 word
operations for k = 2 (bytes for k > 2), in L2-sized column blocks spread over
threads (2 or 3 columns for a ring of cells); the elimination O(U^3 / 64); memory
O(U^2 / 8) bytes for k = 2 (U^2 for k > 2).  Budget: :func:`refuse_nd` refuses, before
anything is allocated, a system above ``MAX_ND_BYTES`` (2 GiB) or work above
``MAX_ND_WORD_OPS``; the registry's route calls it once, where a call comes in
(``Route.refuse``).  A kernel expansion (r generators x cells bytes) above 2 GiB is
refused once the nullity is known, before it is built.
"""
from __future__ import annotations

import math
from typing import Callable, Iterator, Optional, Union

import numpy as np
import numpy.typing as npt

from lightsout._base.errors import BoardTooLargeError, InternalError, InvalidBoardError
from lightsout._base.packing import pack_rows, transpose_bits, unpack_rows, words_for_bits
from lightsout._base.types import Progress
from lightsout._core.canonical import lexmin_solution, proof_pattern
from lightsout._core.coset import Coset
from lightsout._core.gf2system import GF2System, solve_gf2
from lightsout._core.graphrules import neighbour_table
from lightsout._core.modring import ModSystem, solve_mod
from lightsout._core.rules import Rules
from lightsout._core.runner import run_chunks
from lightsout import _kernels as kernels

__all__ = ["MAX_ND_BYTES", "MAX_ND_WORD_OPS", "canonical_nd", "chase_axis", "chase_nd", "neighbour_table",
           "nullity_nd", "quiet_basis_words", "refuse_nd", "solve_nd"]

#: Most memory (bytes) the reduced system, or the expanded kernel, may take: 2 GiB.
MAX_ND_BYTES = 2 << 30
#: Most word operations a call may take (8 bytes count as one with k > 2 states): 2**44 (1.8e13),
#: about ten to twenty minutes at the 1.5-2e10 a second the reduction ran at on the 2-core
#: development machine (the sigma game's 12,000 x 12,000 board: 1.35e11 in 7.8 s on one thread).
#: nullity(10**5, self_toggle=False), 9.4e13, two hours, is refused.
MAX_ND_WORD_OPS = 1 << 44
#: The circulant reduction (a ring of cells per slice) is used from this many slices of this many cells.
CIRCULANT_MIN_SLICES = 64
CIRCULANT_MIN_CELLS = 64
#: k = 2 batches narrower than this many columns are chased as bytes (no packing round trip).
BYTES_BELOW = 16


def chase_axis(rules: Rules) -> tuple[int, int]:
    """The axis to chase along and its number of unknowns: the fewest unknowns, ties to the lowest axis.

    Example:
        >>> chase_axis(Rules.check((4, 3, 5)))
        (2, 12)
        >>> chase_axis(Rules.check((5, 5), torus=(True, False)))    # wrapping axis 0 would leave 10
        (1, 5)
    """
    best = (0, 0)
    for axis, (size, wrap) in enumerate(zip(rules.shape, rules.wraps)):
        unknowns = rules.cells // size * (2 if wrap and size > 2 else 1)
        if axis == 0 or unknowns < best[1]:
            best = (axis, unknowns)
    return best


class _Plan:
    """A board cut into slices along its chase axis: everything the kernels need."""

    def __init__(self, rules: Rules, axis: Optional[int] = None) -> None:
        self.shape = rules.shape
        self.plain_grid = rules.is_plain_grid
        self.states = rules.states
        self.self_toggle = rules.self_toggle
        wraps = rules.wraps
        self.axis = chase_axis(rules)[0] if axis is None else axis
        self.n = self.shape[self.axis]
        self.slice_shape = self.shape[: self.axis] + self.shape[self.axis + 1:]
        self.cells = math.prod(self.shape)
        self.S = math.prod(self.slice_shape)
        self.wrap = wraps[self.axis] and self.n > 2
        self.U = self.S * (2 if self.wrap else 1)
        self.slice_wraps = wraps[: self.axis] + wraps[self.axis + 1:]
        # at most two neighbours along each slice axis longer than 1
        self.maxdeg = max(1, 2 * sum(1 for size in self.slice_shape if size > 1))
        self._nbr: Optional[npt.NDArray[np.int32]] = None

    @property
    def nbr(self) -> npt.NDArray[np.int32]:
        """The slice's neighbour table (built on first use, after the limits are checked)."""
        if self._nbr is None:
            self._nbr = neighbour_table(self.slice_shape, self.slice_wraps)
        return self._nbr

    def circulant(self) -> bool:
        """Whether the slice is translation-invariant along a single axis (a ring of cells) and the
        chase long enough for chasing one column and writing out circulant blocks to pay off."""
        big = [i for i, size in enumerate(self.slice_shape) if size > 1]
        return (len(big) == 1 and self.slice_wraps[big[0]] and self.S > 2 and self.S >= CIRCULANT_MIN_CELLS
                and self.n >= CIRCULANT_MIN_SLICES)

    def slices(self, board: npt.NDArray[np.uint8]) -> npt.NDArray[np.uint8]:
        """The board as (n, S) rows, chase axis first."""
        return np.ascontiguousarray(np.moveaxis(board, self.axis, 0), dtype=np.uint8).reshape(self.n, self.S)

    def offsets(self) -> tuple[npt.NDArray[np.int64], int]:
        """Where slice cells sit in the board: (C-order offset of each cell of slice 0, stride of the chase axis)."""
        strides = [math.prod(self.shape[i + 1:]) for i in range(len(self.shape))]
        slice_strides = strides[: self.axis] + strides[self.axis + 1:]
        first = np.zeros(self.slice_shape, dtype=np.int64)
        for i, (size, stride) in enumerate(zip(self.slice_shape, slice_strides)):
            step = [1] * len(self.slice_shape)
            step[i] = size
            first += (np.arange(size, dtype=np.int64) * stride).reshape(step)
        return first.reshape(self.S), strides[self.axis]

    def word_ops(self) -> int:
        """Word operations of the reduction and the elimination (8 bytes count as one with k > 2)."""
        ncols = self.U + 1
        elems = words_for_bits(ncols) if self.states == 2 else (ncols + 7) // 8
        chased = 1 if self.circulant() else elems  # a ring of cells chases 2 or 3 columns: one word
        return self.n * self.S * (self.maxdeg + 3) * chased + self.U * self.U * elems

    def check_limits(self, expand: bool) -> None:
        """Refuse (BoardTooLargeError) a run over the memory or work limit, before allocating.

        With ``expand``, also a board whose press pattern (and its chase rows)
        alone would pass the memory limit.
        """
        ncols = self.U + 1
        states = self.states
        if states == 2:
            system = self.U * words_for_bits(ncols) * 8
        else:
            system = 2 * self.U * ncols  # the system and the elimination's working copy
        what = (f"the N-D route for a board of shape {self.shape} (chase axis {self.axis}, "
                f"{self.U} unknowns, k = {states})")
        hint = ("; method='poly' (the default for this board) needs O((R + C) C / 64) word operations and O(C) "
                "memory" if self.plain_grid else "; no other route takes these rules (the faster polynomial "
                "route takes open 2-D two-state boards with the plus rule): ask for a smaller board")
        if system > MAX_ND_BYTES:
            raise BoardTooLargeError(f"{what} needs a {system / 2**30:.3g} GiB reduced system "
                                     f"(limit {MAX_ND_BYTES / 2**30:.0f} GiB, lightsout.limits.MAX_ND_BYTES){hint}")
        work = self.word_ops()
        if work > MAX_ND_WORD_OPS:
            raise BoardTooLargeError(f"{what} needs about {work:.3g} word operations (limit 2**44 = "
                                     f"{MAX_ND_WORD_OPS:.3g}, about ten to twenty minutes, "
                                     f"lightsout.limits.MAX_ND_WORD_OPS){hint}")
        if expand and 2 * self.cells > MAX_ND_BYTES:
            raise BoardTooLargeError(f"{what}: a press pattern of {self.cells} cells and its chase need "
                                     f"{2 * self.cells / 2**30:.3g} GiB (limit {MAX_ND_BYTES / 2**30:.0f} GiB, "
                                     f"lightsout.limits.MAX_ND_BYTES){hint}")


def refuse_nd(rules: Rules, *, expand: bool = True) -> None:
    """Refuse, before any work, an N-D-route run past its memory or time budget.

    ``expand``: the run builds a whole press pattern (a solve; ``nullity`` does not).

    Example:
        >>> refuse_nd(Rules.check((300, 300), self_toggle=False))
        >>> refuse_nd(Rules.of_grid(10**5, 10**5, self_toggle=False), expand=False)
        Traceback (most recent call last):
        ...
        lightsout.BoardTooLargeError: the N-D route for a board of shape (100000, 100000) ... word operations ...
    """
    _Plan(rules).check_limits(expand)


def _reduce(plan: _Plan, board: Optional[npt.NDArray[np.uint8]], with_constant: bool, threads: Optional[int],
            progress: Progress) -> np.ndarray:
    """The reduced system [M | c] (lights = M u + c): packed (U, words) for k = 2, else (U, U+1) uint8.

    Without ``with_constant`` only M (U columns) is computed.  The caller has checked
    ``plan.check_limits`` (:func:`refuse_nd`).
    """
    rows = plan.slices(board) if board is not None else None
    if plan.circulant():
        return _reduce_circulant(plan, rows, with_constant)
    states, self_toggle = plan.states, plan.self_toggle
    ncols = plan.U + 1 if with_constant else plan.U
    const_col = plan.U if with_constant else -1
    gridchase = kernels.gridchase
    if states == 2:
        bits = np.zeros((plan.U, words_for_bits(ncols)), dtype=np.uint64)

        def run(lo: int, hi: int, cancel: npt.NDArray[np.uint8]) -> bool:
            return gridchase.chase_bits(plan.nbr, self_toggle, plan.n, plan.wrap, ncols, rows, lit=1,
                                      const_col=const_col, lights=bits, block_start=lo, block_stop=hi,
                                      cancel=cancel)
        system: np.ndarray = bits
    else:
        values = np.zeros((plan.U, ncols), dtype=np.uint8)

        def run(lo: int, hi: int, cancel: npt.NDArray[np.uint8]) -> bool:
            return gridchase.chase_bytes(plan.nbr, self_toggle, plan.n, plan.wrap, ncols, states, rows, lit=1,
                                       const_col=const_col, lights=values, block_start=lo, block_stop=hi,
                                       cancel=cancel)
        system = values
    run_chunks(lambda block, token: run(block, block + 1, token.flag), gridchase.block_count(ncols, states == 2),
               threads=threads, progress=progress, stage="nd_reduce")
    return system


def _reduce_circulant(plan: _Plan, rows: Optional[npt.NDArray[np.uint8]], with_constant: bool) -> np.ndarray:
    """:func:`_reduce` for a translation-invariant slice (a single wrapping axis): chase 2 or 3 columns.

    Moving a press along the slice axis moves everything it causes, so the
    lights as a function of the presses of slice s at cell j are those for
    cell 0, moved by j: each S x S block of M is circulant, given by its first
    column.  One chase of the unit presses at cell 0 of slice 0 (and of slice
    1), plus the board's column, gives every block; they are then written out.
    """
    S, U = plan.S, plan.U
    states, self_toggle = plan.states, plan.self_toggle
    nfree = U // S
    start = np.zeros((U, nfree + 1), dtype=np.uint8)
    for s_ in range(nfree):
        start[s_ * S, s_] = 1
    gridchase = kernels.gridchase
    const_col = nfree if with_constant else -1
    if states == 2:  # the 2 or 3 columns fit one word per row
        packed = np.zeros((U, 1), dtype=np.uint64)
        gridchase.chase_bits(plan.nbr, self_toggle, plan.n, plan.wrap, nfree + 1, rows, lit=1, const_col=const_col,
                           start=pack_rows(start), lights=packed)
        lights = unpack_rows(packed, nfree + 1).view(np.uint8)
    else:
        lights = np.zeros((U, nfree + 1), dtype=np.uint8)
        gridchase.chase_bytes(plan.nbr, self_toggle, plan.n, plan.wrap, nfree + 1, states, rows, lit=1,
                            const_col=const_col, start=start, lights=lights)
    ncols = U + 1 if with_constant else U
    if states == 2:
        system = np.zeros((U, words_for_bits(ncols)), dtype=np.uint64)
        for r in range(nfree):
            for c in range(nfree):
                gridchase.circulant_bits(np.ascontiguousarray(lights[r * S:(r + 1) * S, c]), system, r * S, c * S)
        if with_constant:
            system[:, U >> 6] |= lights[:, nfree].astype(np.uint64) << np.uint64(U & 63)
        return system
    values = np.zeros((U, ncols), dtype=np.uint8)
    shift = (np.arange(S)[:, None] - np.arange(S)[None, :]) % S if S <= 4096 else None
    for r in range(nfree):
        for c in range(nfree):
            column = lights[r * S:(r + 1) * S, c]
            if shift is not None:
                values[r * S:(r + 1) * S, c * S:(c + 1) * S] = column[shift]
            else:  # row i is column[i - j]: a window of the column reversed and doubled
                w = np.concatenate([column[:1], column[:0:-1]])
                windows = np.lib.stride_tricks.sliding_window_view(np.concatenate([w, w]), S)
                values[r * S:(r + 1) * S, c * S:(c + 1) * S] = windows[S - np.arange(S)]
    if with_constant:
        values[:, U] = lights[:, nfree]
    return values


def _expand(plan: _Plan, board: Optional[npt.NDArray[np.uint8]], starts: npt.NDArray[np.uint8],
            with_board: bool) -> npt.NDArray[np.uint8]:
    """Chase every column of ``starts`` (U, ncols) values; column 0 on the board when ``with_board``,
    the rest on the dark board.  Returns the press patterns, (ncols, cells) uint8 in C order."""
    ncols = starts.shape[1]
    states, self_toggle = plan.states, plan.self_toggle
    as_bits = states == 2 and ncols >= BYTES_BELOW
    need = ncols * plan.cells + plan.cells * (words_for_bits(ncols) * 8 if as_bits else ncols)
    if need > MAX_ND_BYTES:
        raise BoardTooLargeError(
            f"expanding {ncols} press patterns of a board of shape {plan.shape} needs about "
            f"{need / 2**30:.3g} GiB (limit {MAX_ND_BYTES / 2**30:.0f} GiB, lightsout.limits.MAX_ND_BYTES); "
            f"first_row and nullity need no expanded patterns and handle this board")
    gridchase = kernels.gridchase
    rows = plan.slices(board) if board is not None and with_board else None
    const_col = 0 if with_board else -1
    out = np.empty((ncols, plan.cells), dtype=np.uint8)
    if as_bits:
        packed = np.empty((plan.n * plan.S, words_for_bits(ncols)), dtype=np.uint64)
        gridchase.chase_bits(plan.nbr, self_toggle, plan.n, plan.wrap, ncols, rows, lit=1, const_col=const_col,
                           start=pack_rows(starts), presses=packed)
        gridchase.rows_to_columns(packed, ncols, *plan.offsets(), out)
    else:
        # one pattern chased along axis 0 is already in C order: chase straight into the answer
        direct = ncols == 1 and plan.axis == 0
        values = out.reshape(plan.cells, 1) if direct else np.empty((plan.n * plan.S, ncols), dtype=np.uint8)
        gridchase.chase_bytes(plan.nbr, self_toggle, plan.n, plan.wrap, ncols, states, rows, lit=1,
                            const_col=const_col, start=np.ascontiguousarray(starts, dtype=np.uint8),
                            presses=values)
        if not direct:
            gridchase.rows_to_columns(values, ncols, *plan.offsets(), out)
    return out


def solve_nd(rules: Rules, board: Optional[npt.NDArray[np.uint8]], *, threads: Optional[int] = None,
             progress: Progress = None) -> Coset:
    """Every solution of a board of any shape: one particular solution and the quiet patterns.

    Args:
        rules: the board's shape and rules (:class:`~lightsout._core.rules.Rules`,
            checked where the call came in).
        board: None for the all-lit board (every cell 1), or a C-contiguous
            uint8 array of the rules' shape with values 0..states-1 (not checked here).
        threads: worker threads for the reduction (None: every usable CPU).
        progress: None or ``progress(stage, done, total)``, called between
            column blocks of the reduction (stage ``"nd_reduce"``).

    Returns:
        A :class:`~lightsout._core.coset.Coset` of whole press vectors (method
        ``"nd"``), flattened in C order.  The particular solution is any solution
        (not the canonical one); the kernel rows generate every quiet pattern.

    Raises:
        BoardTooLargeError: what :func:`refuse_nd` refuses (checked here, before
            allocating), or an expanded kernel over 2 GiB.
        KeyboardInterrupt: Ctrl-C, within milliseconds.

    Examples:
        The 3^4 hypercube, all lit, has one solution, of 41 presses:

        >>> r = solve_nd(Rules.check((3, 3, 3, 3)), None)
        >>> r.solvable, r.nullity, r.count, int(r.particular.sum())
        (True, 0, 1, 41)

        The 5 x 5 board has four solutions; a ring of 6 cells with three states has nine:

        >>> r = solve_nd(Rules.check((5, 5)), None)
        >>> r.nullity, r.count, r.kernel.shape
        (2, 4, (2, 25))
        >>> r = solve_nd(Rules.check((6,), torus=True, states=3), None)
        >>> r.nullity, r.count, r.kernel.shape
        (2, 9, (2, 6))
    """
    plan = _Plan(rules)
    plan.check_limits(True)
    return _solve_all(plan, board, threads, progress)


def _solve_all(plan: _Plan, board: Optional[npt.NDArray[np.uint8]], threads: Optional[int],
               progress: Progress) -> Coset:
    """:func:`solve_nd` of a plan whose limits are checked."""
    return _finish(plan, board, _solve_u(plan, board, threads, progress))


def _solve_u(plan: _Plan, board: Optional[npt.NDArray[np.uint8]], threads: Optional[int],
             progress: Progress) -> Union[GF2System, ModSystem]:
    """Reduce and solve the system of the unknowns u: a GF2System for k = 2, a ModSystem for k > 2
    (its kernel in Howell form, lightsout._core.modring).  Both name their answer alike."""
    system = _reduce(plan, board, True, threads, progress)
    states = plan.states
    if states == 2:
        return solve_gf2(system, plan.U)
    matrix = np.ascontiguousarray(system[:, : plan.U])
    rhs = ((states - system[:, plan.U].astype(np.int64)) % states).astype(np.uint8)
    del system
    return solve_mod(matrix, rhs, states)


def _kernel_u(system: Union[GF2System, ModSystem], U: int) -> npt.NDArray[np.uint8]:
    """The kernel generators of the unknowns' system as (r, U) uint8 rows."""
    kernel = np.asarray(system.kernel, dtype=np.uint8)
    return kernel.reshape(len(kernel), U)


def _finish(plan: _Plan, board: Optional[npt.NDArray[np.uint8]], system: Union[GF2System, ModSystem]) -> Coset:
    """Expand the particular solution and the kernel generators of the reduced system to whole boards."""
    u0 = system.solution
    columns = ([u0.astype(np.uint8)] if u0 is not None else []) + list(_kernel_u(system, plan.U))
    if columns:
        starts = np.stack(columns, axis=1)
        patterns = _expand(plan, board, starts, u0 is not None)
    else:
        patterns = np.zeros((0, plan.cells), dtype=np.uint8)
    offset = 1 if u0 is not None else 0
    particular = patterns[0].copy() if u0 is not None else None
    kernel = patterns[offset:] if offset else patterns
    return Coset(solvable=u0 is not None, particular=particular, kernel=kernel, count=int(system.count),
                 nullity=int(system.nullity), method="nd")


def canonical_nd(rules: Rules, board: Optional[npt.NDArray[np.uint8]], *, kernel: bool = True,
                 threads: Optional[int] = None, progress: Progress = None) -> Coset:
    """The canonical (lexicographically smallest) solution, with the quiet patterns made only on demand.

    When the chase runs along axis 0 (the usual case: ties go to axis 0), the
    unknowns u are the presses of the first one or two slices, which are the
    first cells in C order, and the whole press vector is a function of u.  So
    the smallest solution is the chase of the smallest u in its coset, found in
    the U-dimensional reduced system, and only that one pattern is expanded:
    memory O(cells) instead of O(nullity x cells).  For another chase axis the
    quiet patterns are expanded and the minimum taken over whole press vectors.

    Arguments as for :func:`solve_nd`; ``kernel=False``: the caller needs no quiet
    pattern (is the board solvable?), so an unsolvable board's proof is not sought.
    The caller has refused what :func:`refuse_nd` refuses (the registry's route does,
    where a call comes in).

    Returns:
        A :class:`Coset` with ``canonical=True``: ``particular`` is the smallest
        solution; with ``kernel``, the quiet basis comes from ``kernel_batches``
        (chased 64 generators at a time, on demand: the same generators
        :func:`solve_nd` gives) and an unsolvable board carries its ``proof``.

    Example:
        >>> r = canonical_nd(Rules.check((5, 5)), None)
        >>> r.solvable, r.count, int(r.particular.sum()), r.particular[:5].tolist()
        (True, 4, 15, [0, 0, 0, 1, 1])
        >>> r.kernel_rows(25).shape
        (2, 25)
    """
    plan = _Plan(rules)
    states = rules.states

    def flat() -> np.ndarray:
        if board is None:
            return np.ones(plan.cells, dtype=np.int64)
        return np.asarray(board, dtype=np.int64).reshape(plan.cells)

    if plan.axis != 0:
        full = _solve_all(plan, board, threads, progress)
        batches = (lambda: iter([full.kernel])) if kernel else None
        if full.particular is not None:
            smallest = lexmin_solution(full.particular, full.kernel, states)[0]
            return _canonical(plan, smallest, full.count, full.nullity, batches=batches)
        proof = proof_pattern(full.kernel, flat(), states) if kernel else None
        return _canonical(plan, None, full.count, full.nullity, proof, batches)
    system = _solve_u(plan, board, threads, progress)
    count, nullity = int(system.count), int(system.nullity)
    if system.solution is None and not kernel:
        return _canonical(plan, None, count, nullity)
    kernel_u = _kernel_u(system, plan.U)

    def quiet_batches() -> Iterator[np.ndarray]:
        for first in range(0, len(kernel_u), 64):  # a few generators at a time: memory stays O(64 x cells)
            yield _expand(plan, None, np.ascontiguousarray(kernel_u[first:first + 64].T), False)

    batches = quiet_batches if kernel else None
    if system.solution is not None:
        u, _ = lexmin_solution(np.asarray(system.solution, dtype=np.uint8), kernel_u, states)
        solution = _expand(plan, board, u.reshape(-1, 1), True)[0]
        return _canonical(plan, solution, count, nullity, batches=batches)
    proof = None
    if kernel:
        lights = flat()
        for batch in quiet_batches():
            proof = proof_pattern(batch, lights, states)
            if proof is not None:
                proof = proof.copy()  # not a view that keeps the whole batch
                break
    return _canonical(plan, None, count, nullity, proof, batches)


def _canonical(plan: _Plan, solution: Optional[np.ndarray], count: int, nullity: int,
               proof: Optional[np.ndarray] = None,
               batches: Optional[Callable[[], Iterator[np.ndarray]]] = None) -> Coset:
    """The answer of :func:`canonical_nd`: the smallest solution or the proof, the quiet basis on demand."""
    return Coset(solvable=solution is not None, particular=solution,
                 kernel=np.zeros((0, plan.cells), dtype=np.uint8), count=count, nullity=nullity, method="nd",
                 canonical=True, proof=proof, kernel_batches=batches)


def quiet_basis_words(rules: Rules, *, threads: Optional[int] = None,
                      progress: Progress = None) -> npt.NDArray[np.uint64]:
    """A basis of the quiet patterns of a two-state board as packed rows, ``(nullity, words)`` uint64.

    Cells in C order, cell j in bit ``j % 64`` of word ``j // 64``.  The
    generators of the reduced system are chased 64 at a time, one word a cell,
    and each batch is transposed into the answer: the scratch is 8 bytes a
    cell, the answer ``nullity * cells / 8`` bytes, refused above
    ``MAX_ND_BYTES`` before anything is chased.

    Example:
        >>> from lightsout import press
        >>> words = quiet_basis_words(Rules.check((5, 5)))
        >>> words.shape
        (2, 1)
        >>> [bool(press(np.zeros((5, 5)), pattern).any()) for pattern in unpack_rows(words, 25).reshape(2, 5, 5)]
        [False, False]
    """
    if rules.states != 2:
        raise InternalError(f"quiet_basis_words packs two-state patterns; it was called with {rules.states} states")
    plan = _Plan(rules)
    plan.check_limits(True)
    system = _solve_u(plan, None, threads, progress)
    kernel_u, nullity = _kernel_u(system, plan.U), int(system.nullity)
    nwords = words_for_bits(plan.cells)
    if nullity * nwords * 8 > MAX_ND_BYTES:
        raise BoardTooLargeError(
            f"the {nullity} quiet patterns of a board of shape {plan.shape} take {nullity * nwords * 8 / 2**30:.3g} "
            f"GiB packed (limit {MAX_ND_BYTES / 2**30:.0f} GiB, lightsout.limits.MAX_ND_BYTES)")
    out = np.empty((nullity, nwords), dtype=np.uint64)
    gridchase = kernels.gridchase
    for lo in range(0, nullity, 64):
        batch = np.ascontiguousarray(kernel_u[lo:lo + 64].T)  # (U, b): one column a generator
        count = batch.shape[1]
        chased = np.empty((plan.n * plan.S, 1), dtype=np.uint64)
        gridchase.chase_bits(plan.nbr, plan.self_toggle, plan.n, plan.wrap, count, None, lit=1, const_col=-1,
                           start=pack_rows(batch), presses=chased)
        if plan.axis == 0:  # the chase's rows are the cells in C order already
            out[lo:lo + count] = transpose_bits(chased, count)
        else:
            patterns = np.empty((count, plan.cells), dtype=np.uint8)
            gridchase.rows_to_columns(chased, count, *plan.offsets(), patterns)
            out[lo:lo + count] = pack_rows(patterns)
    return out


def nullity_nd(rules: Rules, *, threads: Optional[int] = None, progress: Progress = None) -> tuple[int, int]:
    """(nullity, number of quiet patterns) of a board shape, without expanding any pattern.

    The nullity is the fewest quiet patterns that generate them all (the
    dimension of the quiet space for prime k); the count is exact.  The caller has
    refused what ``refuse_nd(rules, expand=False)`` refuses.

    Example:
        >>> nullity_nd(Rules.check((4, 4)))
        (4, 16)
        >>> nullity_nd(Rules.check((5, 5), torus=True))
        (8, 256)
        >>> nullity_nd(Rules.check((5, 5), states=6))        # 4 patterns mod 2 times 27 mod 3
        (3, 108)
    """
    plan = _Plan(rules)
    system = _reduce(plan, None, False, threads, progress)
    states = rules.states
    if states == 2:
        rank, _ = kernels.gf2elim.rref_inplace(system, plan.U)
        return plan.U - int(rank), 2 ** (plan.U - int(rank))
    answer = solve_mod(system, np.zeros(plan.U, dtype=np.uint8), states)
    return int(answer.nullity), int(answer.count)


def chase_nd(rules: Rules, board: npt.NDArray[np.uint8],
             first: npt.ArrayLike) -> tuple[npt.NDArray[np.uint8], npt.NDArray[np.uint8]]:
    """Chase the lights along axis 0 from the presses of the first slice (or two).

    ``first`` holds the presses of slice 0 (shape ``board.shape[1:]``), or of
    slices 0 and 1 (shape ``(2, *board.shape[1:])``) when axis 0 wraps and has
    length > 2.  Every later slice presses to clear the slice before it: the
    press below a cell adds 1 to it, so it is pressed ``(k - light) mod k`` times.

    Args:
        rules: the board's shape and rules (see :func:`solve_nd`).
        board: uint8 array of the rules' shape (values 0..states-1).
        first: the free presses, as above (values 0..states-1).

    Returns:
        ``(presses, lights)``: the presses of the whole board and the lights
        left on (only the last slice, and the first when axis 0 wraps, can be
        lit), uint8 arrays of the board's shape.

    Example:
        >>> import numpy as np
        >>> presses, lights = chase_nd(Rules.check((3, 3)), np.ones((3, 3), dtype=np.uint8), [1, 0, 1])
        >>> presses.tolist(), int(lights.sum())
        ([[1, 0, 1], [0, 1, 0], [1, 0, 1]], 0)
        >>> presses, lights = chase_nd(Rules.check(4, states=3), np.ones(4, dtype=np.uint8), 1)
        >>> presses.tolist(), lights.tolist()
        ([1, 1, 0, 1], [0, 0, 0, 2])
    """
    lit = np.ascontiguousarray(board, dtype=np.uint8)
    if lit.shape != rules.shape:
        raise InternalError(f"chase_nd: a board of shape {lit.shape} under rules for shape {rules.shape}")
    plan = _Plan(rules, axis=0)
    free = np.asarray(first, dtype=np.uint8)  # (ascontiguousarray would make a 0-d first 1-D)
    want = ((2,) if plan.wrap else ()) + plan.slice_shape
    if free.shape != want:
        raise InvalidBoardError(f"first must have shape {want} (the presses of slice 0"
                                f"{' and slice 1' if plan.wrap else ''}), got {free.shape}")
    presses = np.zeros((plan.n * plan.S, 1), dtype=np.uint8)
    left = np.zeros((plan.U, 1), dtype=np.uint8)
    kernels.gridchase.chase_bytes(plan.nbr, plan.self_toggle, plan.n, plan.wrap, 1, plan.states,
                                            lit.reshape(plan.n, plan.S), const_col=0,
                                            start=np.ascontiguousarray(free.reshape(plan.U, 1)), presses=presses, lights=left)
    lights = np.zeros((plan.n, plan.S), dtype=np.uint8)
    if plan.wrap:
        lights[0] = left[: plan.S, 0]
        lights[-1] = left[plan.S:, 0]
    else:
        lights[-1] = left[:, 0]
    return presses.reshape(lit.shape), lights.reshape(lit.shape)
