"""The fewest-presses search's problem: a GF(2) coset in the search's terms, and its answer.

A coset ``particular + span(basis)`` is brought to reduced row echelon form (:func:`reduce_coset`:
the tie rule costs nothing then, lightsout/_search/minweight.py), its cells grouped by their linear
form into the sparse signed histogram the Walsh-Hadamard kernel weighs (:func:`search_problem`),
split into tasks that fit a core's L2 cache (:func:`task_layout`); :func:`coset_element` turns the
search's coordinate back into a press vector.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import NamedTuple, Optional

import numpy as np

from lightsout._base.errors import BoardTooLargeError, InvalidBoardError, InvalidTypeError
from lightsout._base.validate import zero_one
from lightsout import _kernels as kernels
from lightsout._search.orbitcut import TaskOrbits

__all__ = ["MAX_NULLITY", "CosetMinimum", "ReducedCoset", "SearchProblem", "TASK_BYTES", "TASK_BYTES_BY_VECTOR",
           "checked_coset", "coset_element", "histogram", "reduce_coset", "search_problem", "task_layout",
           "zero_one_array"]


# A task's counters are kept to this many bytes (the L2 cache of one core of the development
# machine's EPYC: 2^14 vectors of 64 bytes ran 1.06-1.15x the rate of 2^13 at n = 65, 119, 185,
# bench/fewest_rate.py; 2^15 was slower again) ...
TASK_BYTES = 1 << 20
# ... and twice that with 32-byte vectors (AVX2): on a Zen 3 EPYC, 2^16 vectors ran n = 119 (9,587
# entries) 1.08-1.16x the rate of 2^15 (the kernel alternated with itself in one process, as
# bench/walsh_ab.py does), whose one level above the L1 blocks took a pass over the whole array.
TASK_BYTES_BY_VECTOR = {32: 2 << 20}


@dataclass(frozen=True, eq=False)  # holds an array: == would be ambiguous (and raises on Python 3.13)
class CosetMinimum:
    """The fewest-presses element of a coset ``particular + span(basis)``.

    Attributes:
        presses: ``(cells,)`` uint8 0/1, a minimum-weight element (see
            :func:`coset_min_weight` for which one).
        weight: its number of presses.
        proven: True when every element of the coset was examined, so ``weight``
            is the minimum; False when a time limit cut the search short (then
            ``presses`` is the best element found).
        coefficients: the c with ``presses = particular + sum_i c_i basis[i]``,
            bit i of the int being c_i.
        lower_bound: a proven lower bound on the fewest presses of the coset
            (``weight`` when ``proven``; None where the search does not say).
    """

    presses: np.ndarray
    weight: int
    proven: bool
    coefficients: int
    lower_bound: Optional[int] = None


class SearchProblem(NamedTuple):
    """The search in the kernel's terms, ready to ship to a worker (a few arrays)."""

    forms: np.ndarray      # (E,) uint64: the distinct forms, c_1 at bit d-1
    values: np.ndarray     # (E,) int32: g at each form (nonzero)
    nullity: int           # d
    cells: int             # N
    bound: int             # S at c = 0 (the reduced particular): the minimum is <= it
    wide: bool             # 32-bit counters (sum |g| above the 16-bit range)
    orbits: Optional[TaskOrbits] = None  # the symmetric cut: run only the least task of each orbit
    start: int = 0         # the coordinate whose sum is ``bound`` (0, or a seed of the local search)


class ReducedCoset(NamedTuple):
    """The coset in reduced form: rref rows, reduced particular, and the way back."""

    rows: np.ndarray       # (d, N) uint8: the basis in reduced row echelon form
    pivots: list[int]      # pivot cell of each row, increasing
    reduced: np.ndarray    # (N,) uint8: particular reduced to no press at any pivot
    offset: int            # rows added to particular to get `reduced` (bit i: row i)
    transform: list[int]   # rows[i] = sum of basis rows in the bits of transform[i]


def zero_one_array(array: object, name: str, ndim: int) -> np.ndarray:
    """An (internal) 0/1 array of the given number of axes, as uint8."""
    if not isinstance(array, np.ndarray):
        raise InvalidTypeError(f"{name} must be a numpy array, got {type(array).__name__}")
    if array.ndim != ndim:
        raise InvalidBoardError(f"{name} must have {ndim} axes, got shape {array.shape}")
    if array.dtype != np.bool_ and not np.issubdtype(array.dtype, np.integer):
        raise InvalidTypeError(f"{name} must hold 0/1 integers or bools, got dtype {array.dtype}")
    return np.ascontiguousarray(zero_one(array, name, states_hint=False), dtype=np.uint8)


#: Forms are 64-bit words: no search of a GF(2) coset beyond this nullity, time limit or not.
MAX_NULLITY = 64


def checked_coset(particular: object, basis: object, search: str) -> tuple[np.ndarray, np.ndarray]:
    """A coset's arguments checked: ``particular`` (cells,) and ``basis`` (d, cells), 0/1, as uint8, and
    d at most :data:`MAX_NULLITY` (``search`` names the search in the refusal).

    Example:
        >>> particular, basis = checked_coset(np.array([1, 0]), np.array([[True, True]]), "the search")
        >>> particular.dtype, basis.tolist()
        (dtype('uint8'), [[1, 1]])
    """
    particular = zero_one_array(particular, "particular", 1)
    basis = zero_one_array(basis, "basis", 2)
    if basis.shape[1] != particular.shape[0]:
        raise InvalidBoardError(f"basis rows have {basis.shape[1]} cells, particular has {particular.shape[0]}")
    if basis.shape[0] > MAX_NULLITY:
        raise BoardTooLargeError(f"{search} handles nullity up to {MAX_NULLITY} (lightsout.limits.MAX_NULLITY); "
                                 f"this coset has nullity {basis.shape[0]}")
    return particular, basis


def reduce_coset(particular: np.ndarray, basis: np.ndarray) -> ReducedCoset:
    """Bring the basis to reduced row echelon form (leftmost pivots) and reduce particular.

    Rows are packed into bytes for the row operations; d <= 64 pivot steps.

    Example:
        >>> coset = reduce_coset(np.array([1, 1, 0], np.uint8), np.array([[0, 1, 1], [1, 1, 0]], np.uint8))
        >>> coset.rows.tolist(), coset.pivots, coset.reduced.tolist()   # no press left on a pivot cell
        ([[1, 0, 1], [0, 1, 1]], [0, 1], [0, 0, 0])
        >>> coset_element(coset, np.array([1, 1, 0], np.uint8), 0, True).presses.tolist()
        [0, 0, 0]
    """
    d, n = basis.shape
    packed = [np.packbits(basis[i], bitorder="little") for i in range(d)]
    trans = [1 << i for i in range(d)]
    rows: list[np.ndarray] = []
    row_trans: list[int] = []
    pivots: list[int] = []
    remaining = list(range(d))
    while remaining:
        leads = []
        for i in remaining:
            nz = np.flatnonzero(packed[i])
            if nz.size == 0:
                raise InvalidBoardError("basis rows must be linearly independent over GF(2)")
            byte = int(nz[0])
            leads.append(8 * byte + (int(packed[i][byte]) & -int(packed[i][byte])).bit_length() - 1)
        k = int(np.argmin(leads))
        pivot, i = leads[k], remaining.pop(k)
        byte, bit = divmod(pivot, 8)
        for j in remaining:
            if packed[j][byte] >> bit & 1:
                packed[j] ^= packed[i]
                trans[j] ^= trans[i]
        for r, row in enumerate(rows):
            if row[byte] >> bit & 1:
                row ^= packed[i]
                row_trans[r] ^= trans[i]
        rows.append(packed[i])
        row_trans.append(trans[i])
        pivots.append(pivot)
    reduced = particular.copy()
    offset = 0
    unpacked = (np.unpackbits(np.array(rows), axis=1, count=n, bitorder="little") if d
                else np.zeros((0, n), dtype=np.uint8))
    for r, p in enumerate(pivots):
        if reduced[p]:
            reduced ^= unpacked[r]
            offset |= 1 << r
    return ReducedCoset(unpacked, pivots, reduced, offset, row_trans)


def search_problem(coset: ReducedCoset) -> SearchProblem:
    """The sparse signed histogram of the cells by form."""
    return histogram(coset.rows, coset.reduced)


def histogram(rows: np.ndarray, reduced: np.ndarray, orbits: Optional[TaskOrbits] = None) -> SearchProblem:
    """The search problem of the coset ``reduced + span(rows)`` in the basis ``rows``."""
    d, n = rows.shape
    forms = np.zeros(n, dtype=np.uint64)
    for i in range(d):
        forms |= rows[i].astype(np.uint64) << np.uint64(d - 1 - i)
    signs = np.where(reduced == 1, 1, -1).astype(np.int64)
    distinct, inverse = np.unique(forms, return_inverse=True)
    values = np.bincount(inverse.ravel(), weights=signs, minlength=distinct.size).astype(np.int64)
    keep = values != 0
    # every sum S(c) and partial sum lies within +-sum |g| (at most N: cells of one form cancel), so
    # 16-bit counters, twice the lanes, serve up to there (the all-lit 185 x 185: 13,621 for 34,225 cells)
    wide = int(np.abs(values[keep]).sum()) > kernels.walsh.MAX_SUM16
    return SearchProblem(np.ascontiguousarray(distinct[keep]), values[keep].astype(np.int32), d, n,
                    int(signs.sum()), wide, orbits)


def task_layout(problem: SearchProblem, split_bits: int) -> tuple[int, int, int]:
    """(lane bits, array bits m, task bits t) for this build, with t >= split_bits.

    m is the smallest size whose transform well outweighs the scatter of the entries
    (2^m about four times the number of entries), capped so a task fits TASK_BYTES (or the
    build's vector width's TASK_BYTES_BY_VECTOR).
    """
    d = problem.nullity
    module = kernels.walsh
    lane_max = module.LANE_BITS32 if problem.wide else module.LANE_BITS16
    lanes = min(lane_max, d - split_bits)
    task_bytes = TASK_BYTES_BY_VECTOR.get(module.VEC_BYTES, TASK_BYTES)
    cap = max(0, int(math.log2(task_bytes // module.VEC_BYTES)))
    want = max(6, int(math.ceil(math.log2(len(problem.forms) + 1))) + 2)
    m = max(0, min(d - split_bits - lanes, cap, want))
    return lanes, m, d - lanes - m


def coset_element(coset: ReducedCoset, particular: np.ndarray, index: int, proven: bool) -> CosetMinimum:
    """The element at search coordinate ``index`` (c_1 at bit d-1), with its coefficients."""
    d = len(coset.pivots)
    presses = coset.reduced.copy()
    chosen = coset.offset
    for i in range(d):
        if index >> (d - 1 - i) & 1:
            presses ^= coset.rows[i]
            chosen ^= 1 << i
    coefficients = 0
    for i in range(d):
        if chosen >> i & 1:
            coefficients ^= coset.transform[i]
    return CosetMinimum(presses, int(presses.sum()), proven, coefficients)
