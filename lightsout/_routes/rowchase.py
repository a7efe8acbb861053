"""Two-state stencils on open 2-D boards, chased a whole row at a time.

The light chase of the plus rule fixes a row of presses from the row of lights above it
because one entry of the stencil, the pressed cell's neighbour below, is the only one that
reaches the light from the row it fixes.  The same works whenever the stencil's forcing row
(its entries farthest along the chase, at row offset ``-up``) acts on an open row as an operator
that can be inverted in linear time:

* one entry in the pressed cell's column: the identity (the plus rule, a plus of any radius,
  any stencil with a single cell at the end of its column);
* two entries at column offsets -a and +a: ``x -> x(j - a) + x(j + a)``, a union of paths, one per
  residue class of the columns mod a, invertible exactly when every class has an even number of
  cells.  The "x" and knight rules are of this kind with a = 1, on rows of even length.

Light row i then fixes press row i + up as ``F^-1`` applied to its lights and the other entries'
rows, so only the ``up`` first rows are free: ``up x columns`` unknowns, where the cell-by-cell
chase (:mod:`lightsout._routes.stencilchase`) leaves a column or two more of free presses for such
stencils (the knight's rule: 2 rows and 1 column).  The run is carried symbolically over blocks of
the unknowns (:mod:`lightsout._kernels.rowchase`, ``BLOCK_WORDS`` words a cell), every block a pass
over the board whose ring of rows stays in the cache; the reduced system
(:func:`~lightsout._core.gf2system.solve_gf2`) fixes the free rows; one numeric pass gives the
presses and checks that every equation reads 0.  The chase runs along either axis, in either
direction, whichever leaves the fewest unknowns.  (docs/algebra.md, section 14.)

An unsolvable board's proof comes from the same chase run backwards (:func:`_proof`); the smallest
of several solutions when the route turned the board is left to the cell-by-cell chase:
:func:`solve_rowchase` returns None there.

Example:
    >>> import numpy as np
    >>> from lightsout._core.stencil import Stencil
    >>> found = solve_rowchase(np.ones((6, 6), np.uint8), Stencil.named("x"))
    >>> found.solvable, found.nullity
    (True, 0)
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Iterator, Optional

import numpy as np
import numpy.typing as npt

from lightsout._base.errors import InternalError
from lightsout._base.packing import words_for_bits
from lightsout._base.types import Progress
from lightsout._core.canonical import lexmin_solution
from lightsout._core.coset import Coset
from lightsout._core.gf2system import solve_gf2
from lightsout._core.runner import CancelToken, default_threads, run_chunks
from lightsout._core.stencil import Stencil
from lightsout import _kernels as kernels

__all__ = ["BLOCK_WORDS", "RowChase", "rowchase_plan", "solve_rowchase"]

#: Words of unknowns a cell holds in one symbolic pass (64 unknowns a word).  Measured on a
#: 4000 x 4000 board with the knight's rule (8,000 unknowns; AMD EPYC, AVX-512): 4 words 1.9 s,
#: 8 words 1.5 s, 16 words 1.6 s: the ring of a pass (5 rows) then takes 2.6 MB.
BLOCK_WORDS = 8

U8 = npt.NDArray[np.uint8]


@dataclass(frozen=True)
class RowChase:
    """How one board is chased a row at a time.

    Attributes:
        transpose: the chase runs along the caller's columns (the board is transposed first).
        flip: the chase runs upwards (the rows are reversed first, after any transpose).
        nrows, ncols: the board as chased.
        up: the free rows (``-`` the forcing row's offset).
        pair: the forcing row: 0 the identity, a > 0 the entries at column offsets -a and +a.
        dr, dc: the other entries' offsets, as chased.
    """

    transpose: bool
    flip: bool
    nrows: int
    ncols: int
    up: int
    pair: int
    dr: npt.NDArray[np.int64]
    dc: npt.NDArray[np.int64]

    @property
    def unknowns(self) -> int:
        """The free presses: ``up x ncols``."""
        return self.up * self.ncols

    @property
    def turned(self) -> bool:
        """Whether the board is chased in another orientation than the caller's."""
        return self.transpose or self.flip

    def board(self, lights: U8) -> U8:
        """The caller's board as chased, flat in C order."""
        out = lights.T if self.transpose else lights
        out = out[::-1] if self.flip else out
        return np.ascontiguousarray(out, dtype=np.uint8).reshape(-1)

    def back(self, flat: U8) -> U8:
        """A flat vector over the chased board as the caller's, flat in C order."""
        out = flat.reshape(self.nrows, self.ncols)
        out = out[::-1] if self.flip else out
        out = out.T if self.transpose else out
        return np.ascontiguousarray(out).reshape(-1)


def rowchase_plan(shape: tuple[int, ...], stencil: Stencil) -> Optional[RowChase]:
    """The orientation that chases ``stencil`` on an open two-state board of ``shape`` whole rows at a
    time with the fewest unknowns (the caller's own on a tie), or None if none does.

    Example:
        >>> plan = rowchase_plan((100, 100), Stencil.named("knight"))
        >>> plan.up, plan.pair, plan.unknowns, plan.turned
        (2, 1, 200, False)
        >>> rowchase_plan((99, 99), Stencil.named("knight")) is None      # odd rows: the pair is singular
        True
    """
    if len(shape) != 2 or stencil.ndim != 2 or (stencil.weights > 1).any():
        return None
    offsets = np.argwhere(stencil.weights != 0).astype(np.int64) - np.array(stencil.centre, dtype=np.int64)
    best: Optional[RowChase] = None
    for transpose in (False, True):
        for flip in (False, True):
            rows, cols = (offsets[:, 1], offsets[:, 0]) if transpose else (offsets[:, 0], offsets[:, 1])
            rows = -rows if flip else rows
            nrows, ncols = (shape[1], shape[0]) if transpose else shape
            top = int(rows.min())
            if top > 0 or nrows <= -top:
                continue
            forcing = np.sort(cols[rows == top])
            if forcing.tolist() == [0]:
                pair = 0
            elif len(forcing) == 2 and forcing[0] == -forcing[1] and forcing[1] > 0:
                pair = int(forcing[1])
            else:
                continue
            if not kernels.rowchase.forcing_invertible(ncols, pair):
                continue
            other = rows != top
            if int(other.sum()) > kernels.rowchase.MAX_ENTRIES:
                continue
            plan = RowChase(transpose, flip, nrows, ncols, -top, pair, np.ascontiguousarray(rows[other]),
                            np.ascontiguousarray(cols[other]))
            if best is None or plan.unknowns < best.unknowns:
                best = plan
    return best


def _free_rows(plan: RowChase, start_word: int, width: int) -> npt.NDArray[np.uint64]:
    """The free rows' cells for the block of unknowns from word ``start_word``: unknown t (cell t of
    the free rows) is bit t of the whole row of words."""
    init = np.zeros((plan.unknowns, width), dtype=np.uint64)
    t = np.arange(start_word * 64, min(plan.unknowns, (start_word + width) * 64), dtype=np.int64)
    init[t, (t >> 6) - start_word] = np.uint64(1) << (t & 63).astype(np.uint64)
    return init


def _reduced_system(plan: RowChase, board: U8, threads: Optional[int]) -> npt.NDArray[np.uint64]:
    """``[C | d]`` packed, ``C z + d = 0`` over the free presses z: the symbolic passes, a block each."""
    nz = plan.unknowns
    words = words_for_bits(nz + 1)
    equations = np.zeros((nz, words), dtype=np.uint64)
    blocks = -(-words // BLOCK_WORDS)
    constant_word = nz >> 6

    def run(block: int, token: CancelToken) -> bool:
        start = block * BLOCK_WORDS
        width = min(BLOCK_WORDS, words - start)
        const = constant_word - start if start <= constant_word < start + width else -1
        done = kernels.rowchase.chase(plan.nrows, plan.ncols, plan.dr, plan.dc, plan.up, plan.pair, board, const,
                                      1 << (nz & 63), _free_rows(plan, start, width), equations, start, None,
                                      cancel=token.flag)
        return done is not None

    run_chunks(run, blocks, threads=default_threads() if threads is None else threads)
    return equations


def _presses(plan: RowChase, board: Optional[U8], values: U8) -> U8:
    """The presses of up to 64 vectors of the free presses (rows of ``values``), ``(b, cells)`` uint8,
    with the board's lights (``board``) or on the dark board (None); every equation must read 0."""
    bits = values.T.astype(np.uint64) << np.arange(values.shape[0], dtype=np.uint64)
    init = np.ascontiguousarray(np.bitwise_or.reduce(bits, axis=1, initial=np.uint64(0))[:, None])
    presses = np.zeros((values.shape[0], plan.nrows * plan.ncols), dtype=np.uint8)
    nonzero = kernels.rowchase.chase(plan.nrows, plan.ncols, plan.dr, plan.dc, plan.up, plan.pair, board,
                                     -1 if board is None else 0, (1 << values.shape[0]) - 1, init, None, 0, presses)
    assert nonzero is not None  # no cancel flag: Ctrl-C raises
    if nonzero:
        raise InternalError(f"{nonzero} words of the row chase's equations did not read 0 with the solved presses")
    return presses


def _proof(plan: RowChase, equations: npt.NDArray[np.uint64], lights: U8, stencil: Stencil) -> U8:
    """The weights y on the lights with ``y^T A = 0`` and ``y . lights = 1`` of an unsolvable board, checked.

    A combination of the reduced system's equations that reads ``0 = 1`` gives y on the last ``up`` light
    rows; the other rows follow from the columns of the forced presses, from the bottom up: press row f
    meets light row ``f - up`` through the forcing row alone, so ``F y_{f-up} = sum of the other entries'
    rows of y``.  That is the row chase again, on the board turned upside down with the stencil's columns
    mirrored, started from the equations' weights; its own equations (the free presses' columns) must read
    0, and they do exactly because the combination annuls the reduced system's matrix.
    """
    solved = solve_gf2(equations, plan.unknowns, proof=True)
    if solved.proof is None:
        raise InternalError("the row chase found the board unsolvable but its reduced system has no proof")
    eta = np.asarray(solved.proof, dtype=np.uint8).reshape(plan.up, plan.ncols)
    init = np.ascontiguousarray(eta[::-1].reshape(-1, 1).astype(np.uint64))
    weights = np.zeros((1, plan.nrows * plan.ncols), dtype=np.uint8)
    nonzero = kernels.rowchase.chase(plan.nrows, plan.ncols, plan.dr, np.ascontiguousarray(-plan.dc), plan.up,
                                     plan.pair, None, -1, 0, init, None, 0, weights)
    assert nonzero is not None  # no cancel flag: Ctrl-C raises
    y = plan.back(np.ascontiguousarray(weights[0].reshape(plan.nrows, plan.ncols)[::-1]).reshape(-1))
    delta = np.array([offset for offset, _ in stencil.offsets()], dtype=np.int64).reshape(-1, 2)
    ones = np.ones(delta.shape[0], dtype=np.uint8)
    columns = kernels.stencilchase.apply(np.array(lights.shape, dtype=np.int64), np.zeros(2, np.uint8),
                                         np.ascontiguousarray(delta), ones, np.ones(y.size, np.uint8), y, 2, True)
    if nonzero or columns.any() or int(np.dot(y.astype(np.int64), lights.reshape(-1))) % 2 == 0:
        raise InternalError("the row chase's proof of an unsolvable board does not check out")
    return y


def solve_rowchase(lights: U8, stencil: Stencil, *, kernel: bool = True, canonical: bool = True,
                   threads: Optional[int] = None, progress: Progress = None) -> Optional[Coset]:
    """The coset of an open two-state 2-D board without masks, chased a row at a time; None when the
    stencil has no forcing row this route inverts on the board, and when the answer asked for is the
    cell-by-cell chase's to give (the smallest of several solutions with ``canonical`` when the board was
    turned).  An unsolvable board's proof (with ``kernel``) is over the cells, C order: 0/1 weights on the
    lights that every press meets an even number of times and the lit cells an odd number.

    Example:
        >>> import numpy as np
        >>> found = solve_rowchase(np.ones((4, 4), np.uint8), Stencil.named("knight"))
        >>> found.solvable, found.nullity, found.particular.reshape(4, 4).tolist()
        (True, 0, [[1, 0, 0, 1], [0, 1, 1, 0], [0, 1, 1, 0], [1, 0, 0, 1]])
    """
    lights = np.asarray(lights, dtype=np.uint8)
    plan = rowchase_plan(lights.shape, stencil)
    if plan is None:
        return None

    def report(stage: str, done: int) -> None:
        if progress is not None:
            progress(stage, done, 3)

    board = plan.board(lights)
    equations = _reduced_system(plan, board, threads)
    report("rowchase_chase", 1)
    kept = equations.copy() if kernel else None  # the elimination works in place; the proof starts again
    solved = solve_gf2(equations, plan.unknowns)
    report("rowchase_solve", 2)
    nullity = solved.nullity
    if solved.solution is None:
        proof = None if kept is None else _proof(plan, kept, lights, stencil)
        return Coset(False, nullity, 1 << nullity, "stencilchase", canonical=True, proof=proof)
    if canonical and nullity and plan.turned:
        return None
    unknowns = np.asarray(solved.solution, dtype=np.uint8)
    generators = np.zeros((0, plan.unknowns), dtype=np.uint8)
    if nullity and (kernel or canonical):
        generators = np.asarray(solved.kernel, dtype=np.uint8)
        if canonical:
            unknowns, generators = lexmin_solution(unknowns, generators, 2)
    particular = plan.back(_presses(plan, board, unknowns[None, :])[0])
    report("rowchase_presses", 3)
    batches = None
    if kernel and nullity:
        basis = generators

        def batches() -> Iterator[U8]:
            for start in range(0, basis.shape[0], 64):
                made = _presses(plan, None, np.ascontiguousarray(basis[start:start + 64]))
                yield np.stack([plan.back(row) for row in made])
    return Coset(True, nullity, 1 << nullity, "stencilchase", canonical=canonical, particular=particular,
                 kernel_batches=batches)
