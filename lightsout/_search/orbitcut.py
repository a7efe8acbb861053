"""The symmetric cut of the fewest-presses search: one task of each orbit is weighed.

The search (lightsout/_search/minweight.py) weighs the solutions ``x0 + c_1 b_1 + ... + c_d b_d``
in tasks: a task fixes the top T coordinates and weighs the 2^L elements below them
(L = d - T), so a task is a coset of ``W = span(b_(T+1), ..., b_d)`` inside the solution
coset.  A permutation g of the cells that maps the solution coset onto itself keeps
every element's number of presses.  Let G be a group of such permutations.

1. An invariant W.  If |G| is a power of 2, every G-invariant subspace W' of the quiet
   space K other than K lies in an invariant subspace of one more dimension: G acts
   linearly on K/W', a set of even size, by orbits whose sizes divide |G|; the orbit
   {0} has size 1, so another orbit of size 1 exists, a nonzero v + W' that G fixes,
   and W' + span(v) is invariant.  From W' = 0, L steps give an invariant W of
   dimension L; b_(T+1..d) is a basis of it, b_1..b_T any completion.  Which basis of W
   does not matter to the cut; the one taken packs the cells onto few of the kernel's
   array positions (_clustered_basis).
2. Tasks map to tasks.  Since gW = W, g maps each coset of W in the solution coset onto
   another, acting on the top T coordinates by an affine map.  A task and its image
   have the same weights, so the minimum over every task is the minimum over one task
   of each orbit: the task whose top coordinates, read as an integer, are the least
   of its orbit.  About |G| times fewer tasks run.
3. Ties.  Each minimum-weight element lies in the image of a representative task, and
   its inverse image there has minimum weight too; so the lexicographically smallest
   one (the search's tie rule) is the smallest of the images, under G, of the
   minimum-weight elements of the representative tasks that reach the minimum.  Those
   few tasks are weighed once more here (one Walsh-Hadamard transform each, in numpy),
   keeping every element that reaches the minimum.

A group whose order is not a power of 2 is cut by a Sylow 2-subgroup: a 2-subgroup that
no larger 2-subgroup contains is a Sylow subgroup (Sylow's theorems), and one pass over
the elements, adding each that keeps the order a power of 2, builds such a subgroup.

Vectors of the quiet space are ints, bit i the coordinate on the i-th basis row (of the
reduced basis, or of the cut's basis b); the kernel's coordinate ``c`` has b_1 at bit d-1.
"""
from __future__ import annotations

from collections.abc import Sequence
from typing import Callable, NamedTuple, Optional

import numpy as np
import numpy.typing as npt

from lightsout._base.errors import BoardTooLargeError, InternalError, InvalidBoardError

__all__ = ["MAX_CUT_GROUP", "MAX_TIE_ELEMENTS", "TaskOrbits", "OrbitCut", "prepare_cut", "representatives",
           "task_minima", "smallest_image"]

#: The largest group (as it acts on the coset) that the cut enumerates.
MAX_CUT_GROUP = 4096
#: Minimum-weight elements of the representative tasks, times the group order, that the tie
#: rule enumerates; beyond it the smallest one is found by an ordered scan of the plain search.
MAX_TIE_ELEMENTS = 1 << 22

Affine = tuple[tuple[int, ...], int]   # (image of each basis vector, image of 0)


class TaskOrbits(NamedTuple):
    """How the cut's group moves tasks (shipped to workers with the search problem).

    ``tables[g, k, v]`` is the image, under element g (the identity left out), of the
    byte value v at byte k of a task number; images of bytes are XORed, and
    ``offsets[g]`` XORed in.
    """

    tables: np.ndarray    # (order - 1, bytes, 256) uint64
    offsets: np.ndarray   # (order - 1,) uint64
    task_bits: int


class OrbitCut(NamedTuple):
    """The cut's basis and group, kept by the caller for the tie rule."""

    rows: np.ndarray      # (d, cells) uint8: b_1..b_d as press patterns
    orbits: TaskOrbits
    low_bits: int         # L
    maps: np.ndarray      # (order, bytes, 256) uint64: every element on kernel coordinates c
    map_offsets: np.ndarray  # (order,) uint64
    to_reduced: np.ndarray   # (bytes, 256) uint64: c in the cut's basis -> c in the reduced basis
    order: int


def _apply(columns: Sequence[int], vector: int) -> int:
    image = 0
    i = 0
    while vector:
        if vector & 1:
            image ^= columns[i]
        vector >>= 1
        i += 1
    return image


def _compose(outer: Affine, inner: Affine) -> Affine:
    columns = tuple(_apply(outer[0], column) for column in inner[0])
    return columns, _apply(outer[0], inner[1]) ^ outer[1]


class _Echelon:
    """A subspace of GF(2)^d in fully reduced echelon form: each pivot bit in one vector."""

    def __init__(self) -> None:
        self.vectors: list[int] = []
        self.pivots: list[int] = []
        self.tags: list[int] = []

    def reduce(self, vector: int, tag: int = 0) -> tuple[int, int]:
        for basis, pivot, basis_tag in zip(self.vectors, self.pivots, self.tags):
            if vector >> pivot & 1:
                vector ^= basis
                tag ^= basis_tag
        return vector, tag

    def add(self, vector: int, tag: int = 0) -> bool:
        """Add a vector (with a tag combined alongside it); False if it was in the span."""
        vector, tag = self.reduce(vector, tag)
        if not vector:
            return False
        pivot = vector.bit_length() - 1
        for i, basis in enumerate(self.vectors):
            if basis >> pivot & 1:
                self.vectors[i] ^= vector
                self.tags[i] ^= tag
        self.vectors.append(vector)
        self.pivots.append(pivot)
        self.tags.append(tag)
        return True


def _null_vectors(columns: Sequence[int]) -> list[int]:
    """A basis of {v : XOR of columns[i] over the bits i of v = 0}."""
    echelon = _Echelon()
    null = []
    for i, column in enumerate(columns):
        rest, tag = echelon.reduce(column, 1 << i)
        if rest:
            echelon.add(rest, tag)
        else:
            null.append(tag)
    return null


def _coset_action(image: np.ndarray, rows: np.ndarray, pivots: np.ndarray, reduced: np.ndarray,
                  position: int) -> Affine:
    """g on the reduced coordinates, after checking that g maps the coset onto itself."""
    inverse = np.empty_like(image)
    inverse[image] = np.arange(image.size)
    moved = np.concatenate([rows[:, inverse], (reduced[inverse] ^ reduced)[None, :]])
    coordinates = moved[:, pivots]
    rebuilt = (coordinates.astype(np.float32) @ rows.astype(np.float32)).astype(np.int64) & 1
    if not np.array_equal(rebuilt, moved):
        raise InvalidBoardError(f"symmetry {position} does not map the coset onto itself (it moves a solution "
                                f"or a quiet pattern outside it)")
    weights = 1 << np.arange(len(pivots), dtype=object)
    ints = [int((row.astype(object) * weights).sum()) for row in coordinates]
    return tuple(ints[:-1]), ints[-1]


class CutExpired(Exception):
    """The deadline passed while the cut was being prepared (the search then goes on without it)."""


def _never() -> bool:
    return False


def _closed(generators: list[Affine], d: int, limit: int = MAX_CUT_GROUP,
            expired: Callable[[], bool] = _never) -> Optional[dict[Affine, None]]:
    """The group the maps generate (the identity first), or None once it has more than ``limit``;
    :class:`CutExpired` once ``expired()`` (checked between elements)."""
    identity: Affine = (tuple(1 << i for i in range(d)), 0)
    elements = {identity: None}
    frontier = [identity]
    while frontier:
        grown = []
        for element in frontier:
            if expired():
                raise CutExpired
            for generator in generators:
                product = _compose(generator, element)
                if product not in elements:
                    elements[product] = None
                    grown.append(product)
                    if len(elements) > limit:
                        return None
        frontier = grown
    return elements


def _two_subgroup(elements: list[Affine], d: int,
                  expired: Callable[[], bool] = _never) -> tuple[list[Affine], list[Affine]]:
    """A Sylow 2-subgroup (its elements, the identity first) and generators of it.

    An element joins when the group it generates with those before is a 2-group; each
    trial stops as soon as it outgrows the largest power of 2 dividing the order, and the
    pass ends when the subgroup reaches that size.
    """
    identity: Affine = (tuple(1 << i for i in range(d)), 0)
    full = len(elements) & -len(elements)
    group: dict[Affine, None] = {identity: None}
    generators: list[Affine] = []
    for element in elements:
        if len(group) == full:
            break
        if element in group:
            continue
        trial = _closed(generators + [element], d, full, expired)
        if trial is not None and len(trial) & (len(trial) - 1) == 0:
            group = trial
            generators.append(element)
    return list(group), generators


def _invariant_flag(generators: list[Affine], d: int, dimension: int) -> list[int]:
    """A basis w_1..w_dimension of a subspace every generator maps into itself (a 2-group)."""
    space = _Echelon()
    flag: list[int] = []
    while len(flag) < dimension:
        # v with (A_g + I) v in the space for every g: the null space of the stacked reductions
        columns = []
        for i in range(d):
            stacked = 0
            for k, (images, _) in enumerate(generators):
                stacked |= space.reduce(images[i] ^ (1 << i))[0] << (k * d)
            columns.append(stacked)
        for candidate in _null_vectors(columns):
            if space.add(candidate):
                flag.append(candidate)
                break
        else:  # pragma: no cover - impossible for a 2-group (module docstring, point 1)
            raise InternalError("no invariant vector outside the subspace: the group is not a 2-group")
    return flag


def _reverse(vector: int, d: int) -> int:
    """Bit i to bit d-1-i: from basis order to the kernel's coordinate order."""
    return int(format(vector, f"0{d}b")[::-1], 2) if d else 0


def _byte_tables(images: Sequence[int]) -> np.ndarray:
    """(bytes, 256) uint64 tables of the linear map sending bit j to images[j]."""
    count = max(1, (len(images) + 7) // 8)
    tables = np.zeros((count, 256), dtype=np.uint64)
    for k in range(count):
        table = np.zeros(1, dtype=np.uint64)
        for bit in range(8):
            j = 8 * k + bit
            image = np.uint64(images[j]) if j < len(images) else np.uint64(0)
            table = np.concatenate([table, table ^ image])
        tables[k] = table
    return tables


def _apply_tables(tables: np.ndarray, offset: int, values: np.ndarray) -> np.ndarray:
    out = np.full(values.shape, offset, dtype=np.uint64)
    for k in range(tables.shape[0]):
        out ^= tables[k][(values >> np.uint64(8 * k)) & np.uint64(255)]
    return out


def prepare_cut(symmetries: Sequence[np.ndarray], rows: np.ndarray, pivots: Sequence[int], reduced: np.ndarray,
                low_bits: int, expired: Callable[[], bool] = _never, lane_bits: int = 0) -> Optional[OrbitCut]:
    """The cut for the coset ``reduced + span(rows)`` (rows in reduced echelon form).

    ``expired()`` is checked between the steps of finding the group and its maps: once
    it is True the preparation stops and the result is None (a time limit binds this
    stage too; the search then runs without the cut).

    ``symmetries``: cell permutations (``image[p]`` = where cell p goes) that generate
    the group; each is checked to map the coset onto itself.  ``low_bits``: L, the
    coordinates each task covers; ``lane_bits``: the top ones of those that the kernel
    takes as lanes, which lets the basis of the low coordinates be chosen so that the cells
    fall on few of the kernel's array positions (0: the basis as the group gives it).
    ``order`` of the result is 1 when the group has no element of even order acting on the
    coset (nothing to cut).

    Example:
        >>> rows = np.array([[1, 0, 1, 0], [0, 1, 0, 1]], np.uint8)      # swap cells 0 <-> 2, 1 <-> 3
        >>> cut = prepare_cut([np.array([2, 3, 0, 1])], rows, [0, 1], np.zeros(4, np.uint8), 0)
        >>> cut.order
        1
        >>> cut = prepare_cut([np.array([1, 0, 3, 2])], rows, [0, 1], np.zeros(4, np.uint8), 1)
        >>> cut.order, representatives(cut.orbits, 0, 2).tolist()    # the swap exchanges b_1 and b_2
        (2, [0, 1])
    """
    try:
        return _prepare_cut(symmetries, rows, pivots, reduced, low_bits, expired, lane_bits)
    except CutExpired:
        return None


def _prepare_cut(symmetries: Sequence[np.ndarray], rows: np.ndarray, pivots: Sequence[int], reduced: np.ndarray,
                 low_bits: int, expired: Callable[[], bool], lane_bits: int) -> OrbitCut:
    d, cells = rows.shape
    pivot_array = np.asarray(pivots, dtype=np.int64)
    generators = [_coset_action(np.asarray(image, dtype=np.int64), rows, pivot_array, reduced, i)
                  for i, image in enumerate(symmetries)]
    whole = _closed(generators, d, MAX_CUT_GROUP, expired)
    if whole is None:
        raise BoardTooLargeError(f"the symmetries generate more than {MAX_CUT_GROUP} maps of the coset "
                                 f"(lightsout.limits.MAX_CUT_GROUP); pass fewer")
    elements, two_generators = _two_subgroup(list(whole), d, expired)
    flag = _invariant_flag(two_generators, d, low_bits) if len(elements) > 1 else []
    chosen = set(_flag_pivots(flag))
    top = [1 << i for i in range(d) if i not in chosen][: d - low_bits]
    if not flag:
        flag = [1 << i for i in range(d - low_bits, d)]
    else:
        flag = _clustered_basis(flag, rows, lane_bits, expired)
    basis = top + flag                      # columns of B, in reduced coordinates
    express = _Echelon()
    for k, column in enumerate(basis):
        if not express.add(column, 1 << k):  # pragma: no cover - the completion is a basis
            raise InternalError("the cut's basis is not a basis")

    def coordinates(vector: int) -> int:
        rest, tag = express.reduce(vector)
        if rest:  # pragma: no cover
            raise InternalError("a vector outside the quiet space")
        return tag

    task_bits = d - low_bits
    maps, offsets, task_tables, task_offsets = [], [], [], []
    for images, shift in elements:
        if expired():
            raise CutExpired
        # the element in the cut's basis, each image in the kernel's order (b_1 at bit d-1)
        columns = [_reverse(coordinates(_apply(images, column)), d) for column in basis]
        kernel_images = [columns[d - 1 - j] for j in range(d)]          # image of kernel bit j
        offset = _reverse(coordinates(shift), d)
        maps.append(_byte_tables(kernel_images))
        offsets.append(offset)
        if any(image >> low_bits for image in kernel_images[:low_bits]):  # pragma: no cover
            raise InternalError("the cut's subspace is not invariant")
        task_tables.append(_byte_tables([image >> low_bits for image in kernel_images[low_bits:]]))
        task_offsets.append(offset >> low_bits)
    to_reduced = _byte_tables([_reverse(basis[d - 1 - j], d) for j in range(d)])
    cut_rows = _patterns(basis, rows).astype(np.uint8)
    task_bytes = task_tables[0].shape[0]
    orbits = TaskOrbits(np.array(task_tables[1:], dtype=np.uint64).reshape(len(elements) - 1, task_bytes, 256),
                        np.array(task_offsets[1:], dtype=np.uint64), task_bits)
    return OrbitCut(cut_rows, orbits, low_bits, np.array(maps, dtype=np.uint64), np.array(offsets, dtype=np.uint64),
                    to_reduced, len(elements))


def _patterns(vectors: Sequence[int], rows: np.ndarray) -> np.ndarray:
    """The cell patterns (0/1, int64) of quiet vectors given in reduced coordinates, one a row."""
    d = rows.shape[0]
    weights = np.array([[vector >> i & 1 for i in range(d)] for vector in vectors], dtype=np.float32).reshape(len(vectors), d)
    return (weights @ rows.astype(np.float32)).astype(np.int64) & 1     # sums of at most 64 ones: exact


def _clustered_basis(flag: list[int], rows: np.ndarray, lane_bits: int, expired: Callable[[], bool]) -> list[int]:
    """Another basis of span(flag) (reduced coordinates) on which the kernel's array is sparse.

    A task covers the span whatever its basis, and the orbits of the tasks do not depend on
    it (only the task coordinates' images enter them); the kernel's cost does.  A cell's
    coordinates on the low basis vectors (kernel bit j: ``flag[-1 - j]``) split into its
    array position (the low ``m`` bits, where the transform works) and its lane (the top
    ``lane_bits``, free in the scatter), so cells whose low forms differ by a vector of the
    lanes' subspace share a position.  That subspace is chosen greedily, a vector at a time,
    as the difference that most pairs of the cells' distinct forms have (each such pair then
    falls on one position; the forms are sampled when there are many); the positions are the
    other coordinates, in the flag's order.  At n = 65 the 3,916 distinct cells fall on 592
    positions instead of 1,566 (the plain search's rows: 532).  Returns ``flag`` unchanged
    when that puts the cells on no fewer positions, when the low coordinates are over 20 or
    ``lane_bits`` is 0.
    """
    low_bits = len(flag)
    if lane_bits <= 0 or lane_bits >= low_bits or low_bits > 20:
        return flag
    bits = _patterns(flag[::-1], rows)                                        # (kernel bit, cell)
    values = np.unique((bits << np.arange(low_bits, dtype=np.int64)[:, None]).sum(axis=0))
    positions_before = np.unique(values & ((1 << (low_bits - lane_bits)) - 1)).size
    sampler = np.random.default_rng(0)
    chosen: list[int] = []
    for _ in range(lane_bits):
        if expired():
            raise CutExpired
        distinct = np.unique(values)
        sample = distinct if distinct.size <= 2048 else sampler.choice(distinct, 2048, replace=False)
        counts = np.zeros(1 << low_bits, dtype=np.int64)
        for start in range(0, sample.size, 256):
            counts += np.bincount((sample[start:start + 256, None] ^ distinct[None, :]).ravel(), minlength=1 << low_bits)
        counts[0] = 0                            # (the reduced forms are zero at the pivots so far)
        vector = int(counts.argmax())
        if counts[vector] == 0:                  # every form reduced to one already: nothing to pack
            return flag
        top = 1 << (vector.bit_length() - 1)
        values = np.where(values & top, values ^ vector, values)
        chosen.append(vector)
    if np.unique(values).size >= positions_before:   # (a reduced form is its position: zero at the pivots)
        return flag

    def reduced(x: int) -> int:
        for vector in chosen:
            if x >> (vector.bit_length() - 1) & 1:
                x ^= vector
        return x

    pivots = [vector.bit_length() - 1 for vector in chosen]
    free = [j for j in range(low_bits) if j not in pivots]
    images = [reduced(1 << j) for j in range(low_bits)]
    # new kernel bit t < m: the cell's bit free[t] of its reduced form; t >= m: its bit at a pivot
    new = []
    for t in range(low_bits):
        if t < len(free):
            used = [j for j in range(low_bits) if images[j] >> free[t] & 1]
        else:
            used = [pivots[t - len(free)]]
        vector = 0
        for j in used:
            vector ^= flag[low_bits - 1 - j]
        new.append(vector)
    return new[::-1]


def _flag_pivots(flag: list[int]) -> list[int]:
    echelon = _Echelon()
    for vector in flag:
        echelon.add(vector)
    return echelon.pivots


def representatives(orbits: TaskOrbits, start: int, stop: int) -> npt.NDArray[np.uint64]:
    """The tasks in [start, stop) that are the least of their orbit, in increasing order.

    Example:
        >>> identity = np.arange(256, dtype=np.uint64).reshape(1, 1, 256)
        >>> orbits = TaskOrbits(identity, np.array([1], np.uint64), 2)       # one element: t -> t ^ 1
        >>> representatives(orbits, 0, 4).tolist()
        [0, 2]
    """
    tasks = np.arange(start, stop, dtype=np.uint64)
    keep = np.ones(tasks.shape, dtype=bool)
    for g in range(orbits.offsets.shape[0]):
        keep &= tasks <= _apply_tables(orbits.tables[g], int(orbits.offsets[g]), tasks)
    return tasks[keep]


def _parity(values: np.ndarray) -> np.ndarray:
    folded = values.copy()
    for shift in (32, 16, 8, 4, 2, 1):
        folded ^= folded >> np.uint64(shift)
    return (folded & np.uint64(1)).astype(np.int64)


def task_minima(forms: np.ndarray, values: np.ndarray, low_bits: int, task: int, target: int) -> np.ndarray:
    """Every kernel coordinate c of the task whose signed sum S(c) equals ``target``.

    One Walsh-Hadamard transform of the task's 2^L sums, in numpy.

    Example:
        >>> forms = np.array([1, 2, 3], np.uint64); values = np.array([1, 1, -1], np.int32)
        >>> task_minima(forms, values, 2, 0, -3).tolist()
        [3]
    """
    size = 1 << low_bits
    low = (forms & np.uint64(size - 1)).astype(np.int64)
    signs = 1 - 2 * _parity((forms >> np.uint64(low_bits)) & np.uint64(task))
    sums = np.bincount(low, weights=(values.astype(np.int64) * signs).astype(np.float64),
                       minlength=size).astype(np.int64)
    for level in range(low_bits):
        pairs = sums.reshape(-1, 2, 1 << level)
        sums = np.stack([pairs[:, 0] + pairs[:, 1], pairs[:, 0] - pairs[:, 1]], axis=1).reshape(-1)
    found = np.flatnonzero(sums == target).astype(np.uint64)
    return (np.uint64(task) << np.uint64(low_bits)) | found if low_bits < 64 else found


def smallest_image(cut: OrbitCut, coordinates: np.ndarray) -> int:
    """The smallest reduced-basis coordinate (lexicographically first press vector) over
    the images, under the cut's group, of the given cut-basis coordinates.

    Example:
        >>> rows = np.array([[1, 0, 1, 0], [0, 1, 0, 1]], np.uint8)
        >>> cut = prepare_cut([np.array([1, 0, 3, 2])], rows, [0, 1], np.zeros(4, np.uint8), 1)
        >>> smallest_image(cut, np.array([2], np.uint64)) in (1, 2)     # b_1 or its image b_2
        True
    """
    images = np.concatenate([_apply_tables(cut.maps[g], int(cut.map_offsets[g]), coordinates)
                             for g in range(cut.order)])
    return int(_apply_tables(cut.to_reduced, 0, np.unique(images)).min())
