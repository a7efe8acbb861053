"""Any press stencil on a grid of any number of axes, with masks: the windowed symbolic chase.

A stencil is ``weights`` (uint8, one axis per board axis) and ``centre`` (the pressed
cell's index in it): pressing cell p adds ``weights[i]`` (mod k) to the cell
``p + (i - centre)``, past an open edge dropped, around a wrapping axis wrapped.  The
masks say which cells may be pressed (``pressable``) and which lights must end dark
(``required``); a hole is a cell that is neither.  The system solved is, for every
required light v, ``b[v] + sum over pressable p of A[v, p] x[p] == 0 (mod k)``.

The chase (lightsout/_kernels/stencilchase.pyx; docs/algebra.md section 1 carried to any
stencil) walks the cells in C order.  A required light whose latest reaching press has
an invertible weight, and is not claimed by an earlier light, forces that press; every
other pressable cell is a free unknown z_j, and every other required light one equation
of the reduced system.  Each press is kept as an affine row over the unknowns only while
a light it reaches is still to come (a window of the stencil's span of flat offsets:
about its height in rows, plus the presses a torus wraps to the far end), so memory
follows the chasing front.  The reduced system is solved once
(:func:`lightsout._core.gf2system.solve_gf2`, :func:`lightsout._core.modring.solve_mod`),
and the chase runs once more with numbers: the solution on the whole board at once (its
equations must all read 0: a check of every step), and on demand the quiet basis, 64 patterns
a pass through the window.  The threads share each row's columns by the work they hold (a
column is worked from the press where its first unknown is met).  The map from
z to the presses is affine and injective (each unknown is a press), so solvability,
count and nullity are the reduced system's.

An unsolvable board's proof is a vector y over the lights with ``y^T A = 0`` on every
pressable column and ``y . b != 0 (mod k)``: a left-kernel vector of the reduced system,
lifted to the forcing lights by a reverse walk, and checked before it is returned.

The route takes plain arguments, not Rules; a wrapping axis shorter than the stencil's
span along it is declined (there two entries could reach one cell from one press).

Example:
    >>> import numpy as np
    >>> moore = np.ones((3, 3), dtype=np.uint8)
    >>> found = chase_stencil((4, 4), (False, False), moore, (1, 1), 2, None)     # the 3 x 3 rule, all lit
    >>> found.solvable, found.nullity, found.count
    (True, 0, 1)
    >>> found.particular.reshape(4, 4).tolist()                                     # press the four corners
    [[1, 0, 0, 1], [0, 0, 0, 0], [0, 0, 0, 0], [1, 0, 0, 1]]
    >>> chase_stencil((5, 4), (False, False), moore, (1, 1), 2, None).nullity
    4
"""
from __future__ import annotations

import math
from typing import Iterator, Optional, Union

import numpy as np
import numpy.typing as npt

from lightsout._base.errors import BoardTooLargeError, InternalError, InvalidBoardError, InvalidTypeError
from lightsout._base.packing import unpack_rows, words_for_bits
from lightsout._base.types import Progress
from lightsout._base.validate import board_shape, states_count, torus_axes
from lightsout._core.bitmatrix import check_elimination
from lightsout._core.canonical import lexmin_solution
from lightsout._core.coset import Coset
from lightsout._core.gf2system import GF2System, solve_gf2
from lightsout._core.modring import ModSystem, left_kernel_witness, solve_mod
from lightsout._core.runner import CancelToken, default_threads, run_chunks
from lightsout import _kernels as kernels

__all__ = ["MAX_STENCIL_CHASE_BYTES", "ChaseGeometry", "chase_order", "chase_stencil", "refuse_chase", "stencil_effect",
           "wrapped_reach"]

#: Most memory (bytes) one stencil chase may allocate: its plan (6 bytes a cell), the window
#: of press rows, the persistent rows of a torus, the reduced system and the answer (6 GiB:
#: a 10,000 x 10,000 board with a 5 x 5 stencil needs about 1.5).
MAX_STENCIL_CHASE_BYTES = 6 << 30
#: Quiet patterns made per pass of the expansion (one byte each a cell; fewer on a board so large
#: that a batch would pass a quarter of MAX_STENCIL_CHASE_BYTES).
QUIET_BATCH = 64
#: Most words (k = 2) or values of a row one pass of the chase works at a time (None: a thread's
#: share of the row).  Worked a block of columns at a time, band by band, the window of rows can
#: be made to fit a cache; measured on 2000 x 2000 boards (knight, 8,000 unknowns), blocks of 8
#: to 64 words were no faster than whole rows (the work is the xors, not the reads), nor, on a
#: 10,000 x 10,000 board with the 3 x 3 rule whose window (50 MB) passes the L3 cache, blocks of
#: 48 words (124 s of CPU against 108 s, on a loaded machine); measured again with the rows' xors
#: fused four sources at a time, blocks of 32 words (a window of 5 MB a thread) took 53.5 s of CPU
#: against 45.5 s for whole rows (a loaded machine), so a row is split only between the threads.
#: The tests set it small to work every row in pieces.
COLUMN_BLOCK: Optional[int] = None

U8 = npt.NDArray[np.uint8]
I64 = npt.NDArray[np.int64]


class ChaseGeometry:
    """A checked board and stencil, in the kernel's terms.

    Attributes:
        shape, wraps, states: the board.
        delta: ``(nnz, ndim)`` int64, each nonzero entry's offset ``i - centre``.
        weight: ``(nnz,)`` uint8, its weight (1..k-1).
        span: the largest difference of two entries' flat (C order) offsets.

    Example:
        >>> s = ChaseGeometry((5, 6), (False, True), np.array([[0, 1, 0], [1, 1, 1], [0, 1, 0]], np.uint8), (1, 1), 2)
        >>> s.delta.tolist(), s.span
        ([[-1, 0], [0, -1], [0, 0], [0, 1], [1, 0]], 12)
    """

    def __init__(self, shape: object, wraps: object, weights: object, centre: object, states: object) -> None:
        self.shape = board_shape(shape)
        ndim = len(self.shape)
        self.wraps = torus_axes(wraps, ndim)
        self.states = states_count(states)
        if not isinstance(weights, np.ndarray) or weights.dtype.kind not in "ui":
            raise InvalidTypeError(f"weights must be a numpy array of integers (uint8), got "
                                   f"{getattr(weights, 'dtype', type(weights).__name__)}")
        if weights.ndim != ndim or min(weights.shape, default=0) < 1:
            raise InvalidBoardError(f"weights must have one axis per board axis ({ndim}), each of length >= 1; "
                                    f"got shape {weights.shape}")
        if weights.size and (weights.min() < 0 or weights.max() >= self.states):
            raise InvalidBoardError(f"every weight must be in 0..{self.states - 1} (states={self.states}); got "
                                    f"{int(weights.min())}..{int(weights.max())}")
        if (not isinstance(centre, (tuple, list)) or len(centre) != ndim
                or not all(isinstance(c, (int, np.integer)) and not isinstance(c, bool) for c in centre)):
            raise InvalidTypeError(f"centre must be a tuple of {ndim} ints indexing weights, got {centre!r}")
        self.centre = tuple(int(c) for c in centre)
        if any(not 0 <= c < n for c, n in zip(self.centre, weights.shape)):
            raise InvalidBoardError(f"centre {self.centre} is outside the stencil of shape {weights.shape}")
        index = np.argwhere(weights != 0)
        if index.shape[0] == 0:
            raise InvalidBoardError("the stencil is empty: every weight is 0, so no press changes any light")
        self.delta: I64 = np.ascontiguousarray(index - np.array(self.centre, dtype=np.int64), dtype=np.int64)
        self.weight: U8 = np.ascontiguousarray(weights[tuple(index.T)], dtype=np.uint8)
        for axis, (size, wrap, reach) in enumerate(zip(self.shape, self.wraps, wrapped_reach(self.delta))):
            if wrap and size < reach:
                raise InvalidBoardError(
                    f"axis {axis} wraps around with length {size}, shorter than the stencil's reach {reach} along "
                    "it from the pressed cell (two entries, or one and its own wrap, would meet on one cell): the "
                    "stencil chase declines it; solve it by elimination")
        if len(self.shape) > kernels.stencilchase.MAX_STENCIL_AXES:
            raise InvalidBoardError(f"the stencil chase takes at most {kernels.stencilchase.MAX_STENCIL_AXES} axes")
        self.shape_arr: I64 = np.array(self.shape, dtype=np.int64)
        self.wraps_arr: U8 = np.array(self.wraps, dtype=np.uint8)
        flat = kernels.stencilchase.flat_offsets(self.shape_arr, self.delta)
        self.span = int(flat.max() - flat.min())

    @property
    def cells(self) -> int:
        """The number of cells."""
        return math.prod(self.shape)

    @property
    def geometry(self) -> tuple[I64, U8, I64, U8]:
        """(shape, wraps, delta, weight) as the kernel takes them."""
        return self.shape_arr, self.wraps_arr, self.delta, self.weight

    def unknowns_bound(self) -> int:
        """An estimate of the free unknowns of the unmasked board, before any plan: the cells outside
        the box the chase determines (a wrapping axis counted twice).

        Example:
            >>> ChaseGeometry((2000, 2000), (False, False), np.ones((3, 3), np.uint8), (1, 1), 2).unknowns_bound()
            7996
        """
        extent = (self.delta.max(axis=0) - self.delta.min(axis=0)).tolist()
        inner = 1
        for size, wrap, reach in zip(self.shape, self.wraps, extent):
            inner *= max(0, size - reach * (2 if wrap else 1))
        return self.cells - inner


def wrapped_reach(delta: I64) -> list[int]:
    """Along every axis, the cells from the pressed cell's farthest entry on one side to the other's,
    the pressed cell included: a wrapping axis at least this long takes every offset around once.

    Example:
        >>> wrapped_reach(np.array([[2, 0], [1, -1]]))
        [3, 2]
    """
    ends = np.vstack([delta, np.zeros((1, delta.shape[1]), dtype=delta.dtype)])
    return [int(reach) for reach in ends.max(axis=0) - ends.min(axis=0) + 1]


def _row_bytes(nbits: int, states: int) -> int:
    return 8 * words_for_bits(nbits) if states == 2 else nbits


def refuse_chase(shape: object, wraps: object, weights: object, centre: object, states: object) -> None:
    """Refuse, before any work, a board and stencil whose chase would pass ``MAX_STENCIL_CHASE_BYTES``
    (or the GF(2) elimination's limits), from the unknowns the stencil implies
    (:meth:`ChaseGeometry.unknowns_bound`; masks can only change them by as many cells as they mark, and
    :func:`chase_stencil` checks the exact counts again after its plan, before the rows).

    Raises:
        BoardTooLargeError: naming the limit.
        InvalidBoardError, InvalidTypeError: arguments the chase does not take.

    Example:
        >>> refuse_chase((2000, 2000), False, np.ones((3, 3), np.uint8), (1, 1), 2)
        >>> refuse_chase((60000, 60000), False, np.ones((5, 5), np.uint8), (2, 2), 2)
        Traceback (most recent call last):
        ...
        lightsout.BoardTooLargeError: the stencil chase of shape (60000, 60000) needs about ...
    """
    _refuse(ChaseGeometry(shape, wraps, weights, centre, states))


def _refuse(stencil: ChaseGeometry, nfree: Optional[int] = None, nequations: Optional[int] = None,
            nkept: int = 0) -> None:
    """:func:`refuse_chase` for a checked stencil, with the plan's exact counts when known."""
    cells = stencil.cells
    unknowns = stencil.unknowns_bound() if nfree is None else nfree
    equations = unknowns if nequations is None else nequations
    row = _row_bytes(unknowns + 1, stencil.states)
    # the plan's arrays (code, claims, marks, the masks and lights; a torus's slots and their sum)
    plan = cells * (9 + (12 if any(stencil.wraps) else 0))
    plan += 8 * kernels.stencilchase.program_entries(len(stencil.weight))
    window = (stencil.span + 1 + nkept) * row
    system = equations * row
    if stencil.states == 2:
        system += equations * 8 * words_for_bits(unknowns + 1 + equations)  # the proof's [A | b | I]
    answer = cells * 2
    need = plan + window + system + answer
    if need > MAX_STENCIL_CHASE_BYTES:
        raise BoardTooLargeError(
            f"the stencil chase of shape {stencil.shape} needs about {need / 2**30:.3g} GiB ({unknowns} unknowns), "
            f"over the limit of {MAX_STENCIL_CHASE_BYTES / 2**30:.0f} GiB (lightsout.limits.MAX_STENCIL_CHASE_BYTES)")
    if stencil.states == 2:
        check_elimination(equations, unknowns + 1, what="the stencil chase's reduced system")


def _mask(value: Optional[npt.ArrayLike], shape: tuple[int, ...], name: str) -> U8:
    if value is None:
        return np.ones(math.prod(shape), dtype=np.uint8)
    arr = np.asarray(value)
    if arr.dtype != bool:
        raise InvalidTypeError(f"{name} must be a bool array of the board's shape {shape}, got dtype {arr.dtype}")
    if arr.shape != shape:
        raise InvalidBoardError(f"{name} must have the board's shape {shape}, got {arr.shape}")
    return np.ascontiguousarray(arr, dtype=np.uint8).reshape(-1)


def _lights(value: Optional[npt.ArrayLike], shape: tuple[int, ...], states: int) -> U8:
    if value is None:
        return np.ones(math.prod(shape), dtype=np.uint8)
    arr = np.asarray(value)
    if arr.dtype.kind not in "uib":
        raise InvalidTypeError(f"lights must be an array of integers 0..{states - 1}, got dtype {arr.dtype}")
    if arr.shape != shape:
        raise InvalidBoardError(f"lights must have the board's shape {shape}, got {arr.shape}")
    if arr.size and (arr.min() < 0 or arr.max() >= states):
        raise InvalidBoardError(f"lights must be in 0..{states - 1} (states={states})")
    return np.ascontiguousarray(arr, dtype=np.uint8).reshape(-1)


def stencil_effect(stencil: ChaseGeometry, pressable: U8, values: U8, *, transpose: bool = False) -> U8:
    """``A x`` over every cell (mod k), or with ``transpose`` ``y^T A`` over the pressable cells (0 elsewhere).

    Example:
        >>> s = ChaseGeometry((1, 4), (False, False), np.array([[1, 1, 0]], np.uint8), (0, 1), 2)   # one-way: left
        >>> stencil_effect(s, np.ones(4, np.uint8), np.array([0, 1, 0, 0], np.uint8)).tolist()
        [1, 1, 0, 0]
    """
    return kernels.stencilchase.apply(*stencil.geometry, pressable, values, stencil.states, transpose)


class _Plan:
    """The plan of one board: the roles of its cells, the ring and the persistent presses."""

    def __init__(self, stencil: ChaseGeometry, pressable: U8, required: U8) -> None:
        planned = kernels.stencilchase.plan(*stencil.geometry, pressable, required, stencil.states)
        assert planned is not None  # no cancel flag: Ctrl-C raises
        self.code, persist, self.nforced, self.nconst, claimed = planned
        self.nfree = int(np.count_nonzero(pressable)) - self.nforced
        #: the cell of each free unknown, in the order the chase meets them
        self.free_at: I64 = np.flatnonzero(claimed < pressable)
        del claimed
        self.nrequired = int(np.count_nonzero(required))
        self.nchased = self.nrequired - self.nforced - self.nconst
        self.nkept = int(np.count_nonzero(persist))
        self.pslot = np.zeros(0, dtype=np.int32)
        if self.nkept:
            self.pslot = (np.cumsum(persist, dtype=np.int64) - 1).astype(np.int32)
            self.pslot[persist == 0] = -1
        del persist
        self.ring_rows = stencil.span + 1


def chase_stencil(shape: object, wraps: object, weights: object, centre: object, states: object,
                  lights: Optional[npt.ArrayLike], pressable: Optional[npt.ArrayLike] = None,
                  required: Optional[npt.ArrayLike] = None, *, kernel: bool = True, canonical: bool = False,
                  threads: Optional[int] = None, progress: Progress = None) -> Coset:
    """The coset of a board under any stencil and masks, by the windowed chase.

    Args:
        shape: the board's axes (each >= 1).
        wraps: a bool per axis (or one bool): that axis wraps around.
        weights: the stencil, a uint8 array with one axis per board axis, values 0..k-1.
        centre: the pressed cell's index in ``weights``.
        states: k, 2..255.
        lights: the board, values 0..k-1, of ``shape``; None: every light on.
        pressable: bool mask of the cells that may be pressed (None: all).
        required: bool mask of the lights that must end dark (None: all).
        kernel: also the quiet basis (on demand, ``Coset.kernel_batches``) and, for an
            unsolvable board, its proof; False: solvability and one solution only.
        canonical: the solution returned is the lexicographically smallest (cells in C order),
            and the quiet basis comes reduced.  The chase then keeps the caller's axis order:
            every press it forces is a function of the presses before it, so two solutions first
            differ at a free unknown, and the smallest solution is the smallest assignment of the
            unknowns (:func:`lightsout._core.canonical.lexmin_solution` on the reduced system,
            which is small), never the whole quiet basis.
        threads: threads that share the symbolic chase's columns (default: the machine's
            cores, lightsout._core.runner.default_threads).
        progress: ``progress(stage, done, total)`` after each of the four stages.

    Returns:
        A :class:`~lightsout._core.coset.Coset` of whole press vectors (cells in C order,
        0 at every cell that is not pressable), method ``"stencilchase"``; ``proof`` (when
        unsolvable, with ``kernel``) is uint8 over the cells: 0 off the required lights,
        ``y^T A = 0`` on every pressable column, ``y . lights != 0 (mod k)``.

    Raises:
        InvalidBoardError, InvalidTypeError: bad arguments, an empty stencil, a weight >= k,
            a wrapping axis shorter than the stencil along it.
        BoardTooLargeError: past ``MAX_STENCIL_CHASE_BYTES`` or the elimination's limits,
            before the work.
        KeyboardInterrupt: Ctrl-C, within milliseconds.

    Example:
        >>> knight = np.zeros((5, 5), np.uint8)
        >>> knight[[0, 0, 1, 1, 3, 3, 4, 4, 2], [1, 3, 0, 4, 0, 4, 1, 3, 2]] = 1
        >>> found = chase_stencil((6, 6), False, knight, (2, 2), 2, None)
        >>> found.solvable, found.nullity, found.method
        (True, 4, 'stencilchase')
        >>> len(found.kernel_rows(36))                              # the quiet basis, made when read
        4
        >>> one_way = np.array([[1, 1, 0]], np.uint8)             # a press lights itself and its left neighbour
        >>> found = chase_stencil((1, 3), False, one_way, (0, 1), 3, np.array([[0, 0, 1]]))
        >>> found.particular.tolist()
        [2, 1, 2]
    """
    stencil = ChaseGeometry(shape, wraps, weights, centre, states)
    k = stencil.states
    _refuse(stencil)
    press_mask = _mask(pressable, stencil.shape, "pressable")
    light_mask = _mask(required, stencil.shape, "required")
    board = _lights(lights, stencil.shape, k)
    order = tuple(range(len(stencil.shape))) if canonical else chase_order(stencil)
    if order != tuple(range(len(order))):  # chase along the axis that leaves the fewest unknowns
        assert isinstance(weights, np.ndarray)
        outer = stencil.shape
        stencil = ChaseGeometry(tuple(outer[a] for a in order), tuple(stencil.wraps[a] for a in order),
                          np.ascontiguousarray(weights.transpose(order)), tuple(stencil.centre[a] for a in order), k)
        press_mask, light_mask, board = (_permuted(v, outer, order) for v in (press_mask, light_mask, board))
        found = _chase(stencil, press_mask, light_mask, board, kernel, False, threads, progress)
        back = tuple(int(a) for a in np.argsort(order))
        return _permuted_coset(found, stencil.shape, back)
    return _chase(stencil, press_mask, light_mask, board, kernel, canonical, threads, progress)


def chase_order(stencil: ChaseGeometry) -> tuple[int, ...]:
    """The order of the axes to chase in: first the axis along which the stencil's reach is the
    smallest share of the board (about ``reach * cells / size`` presses are left free there, a torus
    counting twice), the others as they come.

    Example:
        >>> chase_order(ChaseGeometry((100, 5000), False, np.ones((3, 3), np.uint8), (1, 1), 2))
        (1, 0)
        >>> chase_order(ChaseGeometry((50, 50), False, np.ones((1, 3), np.uint8), (0, 1), 2))
        (0, 1)
    """
    reach = (stencil.delta.max(axis=0) - stencil.delta.min(axis=0)).tolist()
    cost = [r * (2 if wrap else 1) / size for r, wrap, size in zip(reach, stencil.wraps, stencil.shape)]
    first = min(range(len(cost)), key=lambda a: (cost[a], a))
    return (first,) + tuple(a for a in range(len(cost)) if a != first)


def _permuted(flat: U8, shape: tuple[int, ...], order: tuple[int, ...]) -> U8:
    """A flat C-order vector over ``shape`` as the flat vector over the axes taken in ``order``."""
    out: U8 = np.ascontiguousarray(flat.reshape(shape).transpose(order)).reshape(-1)
    return out


def _permuted_coset(found: Coset, shape: tuple[int, ...], back: tuple[int, ...]) -> Coset:
    """A coset over the permuted board (of ``shape``) as one over the caller's: every vector taken back."""
    def vector(v: Optional[U8]) -> Optional[U8]:
        return None if v is None else _permuted(v, shape, back)

    batches = None
    if found.kernel_batches is not None:
        made = found.kernel_batches

        def batches() -> Iterator[U8]:
            for batch in made():
                rows: U8 = np.ascontiguousarray(batch.reshape((batch.shape[0],) + shape).transpose(
                    (0,) + tuple(a + 1 for a in back))).reshape(batch.shape[0], -1)
                yield rows
    return Coset(solvable=found.solvable, nullity=found.nullity, count=found.count, method=found.method,
                 particular=vector(found.particular), proof=vector(found.proof), kernel_batches=batches)


def _chase(stencil: ChaseGeometry, press_mask: U8, light_mask: U8, board: U8, kernel: bool, canonical: bool,
           threads: Optional[int], progress: Progress) -> Coset:
    """:func:`chase_stencil` on checked arguments, the axes in the order chased."""
    k = stencil.states
    total = 4

    def report(stage: str, done: int) -> None:
        if progress is not None:
            progress(stage, done, total)

    plan = _Plan(stencil, press_mask, light_mask)
    report("stencil_plan", 1)
    _refuse(stencil, plan.nfree, plan.nchased + plan.nconst, plan.nkept)
    equations, equation_light = _reduced_system(stencil, plan, press_mask, board, threads)
    report("stencil_chase", 2)
    solved = _solve(equations, plan.nfree, k, proof=kernel)
    report("stencil_solve", 3)
    count, nullity = int(solved.count), int(solved.nullity)
    particular: Optional[U8] = None
    proof: Optional[U8] = None
    generators = np.asarray(solved.kernel, dtype=np.uint8)
    generators = generators.reshape(generators.shape[0] if generators.ndim == 2 else 0, plan.nfree)
    if solved.solution is not None:
        unknowns = np.asarray(solved.solution, np.uint8)
        if canonical:
            unknowns, generators = lexmin_solution(unknowns, generators, k)
        particular = _solution(stencil, plan, press_mask, board, unknowns)
    elif kernel:
        proof = _proof(stencil, plan, press_mask, light_mask, board, equations, equation_light, solved)
    report("stencil_expand", 4)
    batches = None
    if kernel:

        def batches() -> Iterator[U8]:
            step = max(1, min(QUIET_BATCH, MAX_STENCIL_CHASE_BYTES // (4 * stencil.cells)))
            for start in range(0, generators.shape[0], step):
                yield _expand(stencil, plan, press_mask, board, generators[start:start + step], with_lights=False)
    return Coset(solvable=particular is not None, nullity=nullity, count=count, method="stencilchase",
                 canonical=canonical, particular=particular, proof=proof, kernel_batches=batches)


def _block(width: int, nchunks: int) -> int:
    """Words (k = 2) or values of a row one pass works at a time: a thread's share, at most COLUMN_BLOCK.

    Example:
        >>> _block(313, 2)
        157
    """
    share = -(-width // nchunks)
    return max(1, share if COLUMN_BLOCK is None else min(share, COLUMN_BLOCK))


def _shares(plan: _Plan, cells: int, width: int, per_column: int, nchunks: int) -> list[int]:
    """The columns (words for k = 2, else values) of the rows each thread works, as bounds: shares of
    about equal work.  A column is worked from the press where its first unknown is met on (the lights'
    column from the start), so the later columns cost less, and an even split would leave the thread
    of the first ones working alone at the end (2000 x 2000 3x3: two thirds of the work).

    Example:
        >>> class Met:                          # 128 unknowns met at cells 0..63, then at 1000..1063
        ...     free_at = np.concatenate([np.arange(64), np.arange(1000, 1064)])
        >>> _shares(Met(), 2000, 3, 64, 2)      # the third word starts at cell 1000: the first thread takes one
        [0, 1, 3]
    """
    nchunks = min(nchunks, width)
    if nchunks <= 1:
        return [0, width]
    first = np.arange(width, dtype=np.int64) * per_column - 1       # column c holds unknowns from c * per_column - 1
    met = plan.free_at[np.clip(first, 0, max(0, len(plan.free_at) - 1))] if len(plan.free_at) else np.zeros(width)
    work = np.where(first < 0, cells, cells - met).astype(np.float64)
    done = np.cumsum(work)
    bounds = [0]
    for chunk in range(1, nchunks):
        target = done[-1] * chunk / nchunks
        cut = int(np.searchsorted(done, target))           # done[cut] >= target: end after it or before it
        cut += 1 if cut == 0 or done[cut] - target < target - done[cut - 1] else 0
        bounds.append(min(max(cut, bounds[-1] + 1), width - (nchunks - chunk)))
    bounds.append(width)
    return [b for i, b in enumerate(bounds) if i == 0 or b > bounds[i - 1]]


def _reduced_system(stencil: ChaseGeometry, plan: _Plan, press_mask: U8, board: U8,
                    threads: Optional[int]) -> tuple[np.ndarray, I64]:
    """The reduced system, one row an equation (the chased ones, then the lights no press reaches), and
    each equation's light: packed ``[C | d]`` for k = 2, bytes ``[C | d]`` otherwise (``C z + d = 0``)."""
    k, nz = stencil.states, plan.nfree
    width = words_for_bits(nz + 1) if k == 2 else nz + 1
    unreached = np.flatnonzero(plan.code == -1).astype(np.int64)
    neq = plan.nchased + unreached.shape[0]
    equations = np.zeros((neq, width), dtype=np.uint64 if k == 2 else np.uint8)
    equation_light = np.zeros(neq, dtype=np.int64)
    chased = equations[:plan.nchased]
    lights_of_chased = equation_light[:plan.nchased]
    nchunks = max(1, min(default_threads() if threads is None else threads, width))
    bounds = _shares(plan, stencil.cells, width, 64 if k == 2 else 1, nchunks)
    nchunks = len(bounds) - 1
    counts: list[tuple[int, int, int]] = []

    def run(chunk: int, token: CancelToken) -> bool:
        start, stop = bounds[chunk], bounds[chunk + 1]
        block = _block(stop - start, 1)
        done = kernels.stencilchase.chase(*stencil.geometry, press_mask, plan.code, plan.pslot, board, k,
                                          plan.ring_rows, plan.nkept, width, 0, None, chased, lights_of_chased,
                                          None, block=block, column_start=start, column_stop=stop,
                                          cancel=token.flag)
        if done is None:
            return False
        counts.append(done)
        return True

    run_chunks(run, nchunks, threads=nchunks)
    for done in counts:
        if done[:2] != (plan.nchased, nz):
            raise InternalError(f"the stencil chase wrote {done[0]} equations over {done[1]} unknowns; its plan "
                                f"counted {plan.nchased} over {nz}")
    _constant_last(chased, nz, k)
    equation_light[plan.nchased:] = unreached
    lit = board[unreached].astype(bool)
    if k == 2:
        equations[plan.nchased:, nz >> 6] = lit.astype(np.uint64) << np.uint64(nz & 63)
    else:
        equations[plan.nchased:, nz] = board[unreached]
    del lit
    return equations, equation_light


def _constant_last(rows: np.ndarray, nz: int, k: int) -> None:
    """The chase's rows ``[d | C]`` (the lights' constant first) rewritten in place as ``[C | d]``."""
    if rows.shape[0] == 0:
        return
    if k != 2:
        rows[:] = np.roll(rows, -1, axis=1)
        return
    constant = rows[:, 0] & np.uint64(1)
    rows[:, :-1] = (rows[:, :-1] >> np.uint64(1)) | (rows[:, 1:] << np.uint64(63))
    rows[:, -1] >>= np.uint64(1)
    rows[:, nz >> 6] |= constant << np.uint64(nz & 63)


def _solve(equations: np.ndarray, nz: int, k: int, *, proof: bool) -> Union[GF2System, ModSystem]:
    """Solve ``C z + d = 0`` (mod k)."""
    if k == 2:
        return solve_gf2(equations, nz, proof=proof)
    if equations.shape[0] == 0 or nz == 0:
        consistent = not equations[:, nz].any() if equations.shape[0] else True
        kernel = np.eye(nz, dtype=np.uint8)
        return ModSystem(np.zeros(nz, np.uint8) if consistent else None, kernel, k ** nz, nz)
    rhs = ((k - equations[:, nz].astype(np.int64)) % k).astype(np.uint8)
    return solve_mod(np.ascontiguousarray(equations[:, :nz]), rhs, k)


def _solution(stencil: ChaseGeometry, plan: _Plan, press_mask: U8, board: U8, unknowns: U8) -> U8:
    """The presses of the board's solution with these values of the unknowns, by the numeric chase on the
    whole board (one vector: no window, no program; :func:`_expand` makes many at once)."""
    done = kernels.stencilchase.solution(*stencil.geometry, press_mask, plan.code, board, stencil.states,
                                         np.ascontiguousarray(unknowns, dtype=np.uint8))
    assert done is not None  # no cancel flag: Ctrl-C raises
    presses, nonzero = done
    if nonzero:
        raise InternalError(f"{nonzero} equations of the stencil chase did not read 0 with the solved unknowns")
    return presses


def _expand(stencil: ChaseGeometry, plan: _Plan, press_mask: U8, board: U8, zvalues: U8, *, with_lights: bool) -> U8:
    """The press vectors of several assignments of the unknowns (rows of ``zvalues``), ``(b, cells)`` uint8;
    with ``with_lights`` the first row is the board's (its solution), the others the dark board's."""
    k, nz, nvec = stencil.states, plan.nfree, zvalues.shape[0]
    cells = stencil.cells
    light_col = 0 if with_lights else -1
    if k == 2:
        bits = zvalues.T.astype(np.uint64) << np.arange(nvec, dtype=np.uint64)   # vector b in bit b
        free_rows = np.ascontiguousarray(np.bitwise_or.reduce(bits, axis=1, initial=np.uint64(0))[:, None])
        presses = np.zeros((max(nvec, 1), words_for_bits(cells)), dtype=np.uint64)
        width = 1
    else:
        free_rows = np.ascontiguousarray(zvalues.T)
        presses = np.zeros((nvec, cells), dtype=np.uint8)
        width = nvec
    if nvec == 0:
        return np.zeros((0, cells), dtype=np.uint8)
    done = kernels.stencilchase.chase(*stencil.geometry, press_mask, plan.code, plan.pslot, board, k, plan.ring_rows,
                                      plan.nkept, width, light_col, free_rows, None, None, presses,
                                      block=_block(width, 1))
    assert done is not None
    if done[2]:
        raise InternalError(f"{done[2]} equations of the stencil chase did not read 0 with the solved unknowns")
    if k == 2:
        out: U8 = unpack_rows(presses, cells).view(np.uint8)
        return out[:nvec]
    return presses


def _proof(stencil: ChaseGeometry, plan: _Plan, press_mask: U8, light_mask: U8, board: U8, equations: np.ndarray,
           equation_light: I64, solved: Union[GF2System, ModSystem]) -> U8:
    """The left-kernel vector that proves the board unsolvable, over the cells, checked."""
    k, nz = stencil.states, plan.nfree
    if isinstance(solved, GF2System):
        eta = solved.proof
    else:
        eta = left_kernel_witness(equations, nz, k)
    if eta is None:
        raise InternalError("the stencil chase found the board unsolvable but no proof")
    y = np.zeros(stencil.cells, dtype=np.uint8)
    y[equation_light] = eta
    kernels.stencilchase.lift_proof(*stencil.geometry, press_mask, light_mask, plan.code, y, k)
    columns = stencil_effect(stencil, press_mask, y, transpose=True)
    if columns.any() or int(np.einsum("i,i->", y, board, dtype=np.int64)) % k == 0:
        raise InternalError("the stencil chase's proof of an unsolvable board does not check out")
    return y
