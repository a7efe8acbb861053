"""Solutions counted up to the symmetries of the board (Burnside's lemma).

A symmetry of a board is a permutation g of its cells that maps the press
operator A to itself (``P A P^T = A``: neighbours to neighbours) and the lights
b to themselves.  Then g maps every solution to a solution, and the number of
solutions up to the group G is the average number of solutions g fixes:
``orbits = (1/|G|) * sum over g of |Fix(g)|`` (Burnside's lemma).

A solution fixed by g is constant on every cycle of g, so ``Fix(g)`` is the set
of solutions of a smaller system: one unknown per cycle, one equation per cycle
(the equations of the cells of one cycle are the same equation, moved by g).
:func:`fixed_by_cycles` counts them over Z/k for any k.  For two states
:func:`fixed_by_coordinates` works in the coset instead: with the quiet
patterns in reduced echelon form R (pivot columns p), any quiet pattern q is
``q[p] @ R``, so g acts on coordinates by a d x d matrix M (``g R_j`` has
coordinates ``M[:, j]``) and moves the canonical solution x0 by ``t =
(g x0 + x0)[p]``; ``x0 + c @ R`` is fixed exactly when ``(M + I) c = t``, so
``|Fix(g)|`` is 0 or ``2**(d - rank(M + I))``.  That costs O(d * cells) for
each g, where the cycle system costs an elimination of cells/|g| unknowns.
docs/algebra.md (section "Solutions up to symmetry") has the argument.
"""
from __future__ import annotations

import itertools
import math
import numbers
from collections.abc import Iterable, Sequence
from typing import Any, Optional

import numpy as np
import numpy.typing as npt

from lightsout._base.errors import BoardTooLargeError, InternalError, InvalidBoardError, InvalidTypeError
from lightsout._base.extras import import_optional
from lightsout._base.packing import unpack_row
from lightsout._base.validate import board_shape, torus_axes
from lightsout._core.modring import solve_mod
from lightsout import _kernels as kernels

__all__ = ["MAX_CYCLE_SYSTEM_ENTRIES", "MAX_GROUP_CELLS", "MAX_GROUP_ORDER", "board_symmetries", "box_symmetries",
           "close_group", "count_orbits", "fixed_by_coordinates", "fixed_by_cycles", "graph_automorphisms",
           "grid_symmetries"]

#: The largest group whose elements are listed one by one (Burnside sums over every element).
MAX_GROUP_ORDER = 1 << 16
#: The largest group order times cells (one int64 image a cell and element): 2**27 is 1 GiB.
MAX_GROUP_CELLS = 1 << 27
#: The largest system (cycles x cycles entries, a byte each: 2 GiB) that counts a symmetry's fixed solutions.
MAX_CYCLE_SYSTEM_ENTRIES = 1 << 31

Permutation = npt.NDArray[np.int64]


def _check_group_size(order: int, cells: int) -> None:
    if order > MAX_GROUP_ORDER or order * cells > MAX_GROUP_CELLS:
        raise BoardTooLargeError(
            f"a group of {order} symmetries of {cells} cells is over the limit of {MAX_GROUP_ORDER} elements "
            f"and {MAX_GROUP_CELLS} element-cells (lightsout.limits.MAX_GROUP_ORDER and "
            "lightsout.limits.MAX_GROUP_CELLS); pass group= with fewer symmetries")


def grid_symmetries(shape: tuple[int, ...], wraps: tuple[bool, ...]) -> list[Permutation]:
    """The point symmetries of a box of cells: each axis reversed or not, equal axes exchanged.

    An axis may take another's place when both make the same graph of
    neighbours (:func:`axis_graph`: the same length, and both cycles or both
    paths); so a square has 8, a non-square rectangle 4, a cube 48, and a 2 x 2
    board whose rows alone wrap is still a square.  The translations of a torus
    are symmetries too, but are not listed (:func:`board_symmetries` adds them).
    Each is the image of every cell, in row-major order.

    Example:
        >>> len(grid_symmetries((3, 3), (False, False))), len(grid_symmetries((3, 4), (False, False)))
        (8, 4)
        >>> len(grid_symmetries((3, 3), (True, False))), len(grid_symmetries((2, 2), (True, False)))
        (4, 8)
        >>> grid_symmetries((1, 3), (False, False))[1].tolist()     # the reflection of the row
        [2, 1, 0]
    """
    ndim = len(shape)
    graphs = [axis_graph(size, wrap) for size, wrap in zip(shape, wraps)]
    axis_orders = [order for order in itertools.permutations(range(ndim))
                   if all(graphs[order[a]] == graphs[a] for a in range(ndim))]
    cells = math.prod(shape)
    _check_group_size(len(axis_orders) << ndim, cells)
    index = np.arange(cells, dtype=np.int64).reshape(shape)
    found: dict[bytes, Permutation] = {}
    for order in axis_orders:
        moved = np.transpose(index, order)
        for flips in itertools.product((False, True), repeat=ndim):
            axes = tuple(a for a in range(ndim) if flips[a])
            image = np.ascontiguousarray(np.flip(moved, axes) if axes else moved).ravel()
            found.setdefault(image.tobytes(), image)  # axes of length 1 give repeats
    return list(found.values())


def axis_graph(size: int, wrap: bool) -> tuple[int, bool]:
    """The graph of neighbours one axis makes: its length, and whether it is a cycle (else a path).

    Neighbours form a set, so a wrapping axis of length 1 or 2 makes the same
    path as an open one: the symmetries of a box compare axes by this, the
    action of their presses, not by their ``torus`` flags.

    Example:
        >>> axis_graph(2, True) == axis_graph(2, False), axis_graph(3, True) == axis_graph(3, False)
        (True, False)
    """
    return int(size), bool(wrap) and size > 2


def board_symmetries(shape: Any, *, torus: Any = False) -> list[Permutation]:
    """Generators of a board's symmetry group, ready for ``Solution.count_up_to_symmetry(group=...)``.

    The group of a box of cells with its wrapping axes: every axis reversed,
    axes that make the same graph of neighbours exchanged, and, along every
    axis that wraps (and is longer than 2), every translation.  On a square
    torus that is the square's 8 symmetries with the n**2 translations, 8 n**2
    in all; on an open board, the point symmetries the default group lists.
    (A few small boards have more symmetries still: the 4 x 4 torus's graph is
    the 4-cube's, with 384.)  The generators are few (one a reversal, an
    exchange or a one-step translation); ``count_up_to_symmetry`` closes them
    into the group.  Each is a permutation of the flat cell indices in
    row-major order.  Every one keeps an all-lit or all-dark board; on other
    boards pass those that keep the lights.

    Args:
        shape: the board's shape: a tuple of axis lengths (an int for a line).
        torus: True/False, or one bool per axis: that axis wraps around.

    Returns:
        A list of int64 arrays, one permutation of the cells each.

    Raises:
        BoardTooLargeError: the generators would take more than 1 GiB
            (``lightsout.limits.MAX_GROUP_CELLS`` entries); pass ``group=`` with fewer.

    Example:
        >>> import lightsout
        >>> s = lightsout.solve(lightsout.all_lit(5), torus=True)
        >>> group = lightsout.board_symmetries((5, 5), torus=True)
        >>> s.count, s.count_up_to_symmetry(), s.count_up_to_symmetry(group=group)
        (256, 43, 7)
        >>> len(lightsout.board_symmetries(6))       # a line: its reversal
        1
    """
    dims = board_shape(shape)
    wraps = torus_axes(torus, len(dims))
    ndim, cells = len(dims), math.prod(dims)
    graphs = [axis_graph(size, wrap) for size, wrap in zip(dims, wraps)]
    flips = [axis for axis in range(ndim) if dims[axis] > 1]
    exchanges = []
    for axis in range(ndim):  # each axis with the next one of the same graph: they generate every exchange
        following = [other for other in range(axis + 1, ndim) if graphs[other] == graphs[axis]]
        if following and dims[axis] > 1:
            exchanges.append((axis, following[0]))
    shifts = [axis for axis in range(ndim) if graphs[axis][1]]
    count = len(flips) + len(exchanges) + len(shifts)
    if count * cells > MAX_GROUP_CELLS:
        raise BoardTooLargeError(
            f"{count} symmetries of {cells} cells are over the limit of {MAX_GROUP_CELLS} element-cells "
            f"(1 GiB, lightsout.limits.MAX_GROUP_CELLS); pass group= with fewer symmetries")
    index = np.arange(cells, dtype=np.int64).reshape(dims)
    moved = [np.flip(index, axis) for axis in flips]
    moved += [np.swapaxes(index, a, b) for a, b in exchanges]
    moved += [np.roll(index, 1, axis) for axis in shifts]
    return [np.ascontiguousarray(image).ravel() for image in moved]


def close_group(generators: Iterable[Permutation], cells: int) -> list[Permutation]:
    """The group the permutations generate, the identity first (each element once).

    Example:
        >>> rotate = np.array([1, 2, 3, 0])
        >>> [g.tolist() for g in close_group([rotate], 4)]
        [[0, 1, 2, 3], [1, 2, 3, 0], [2, 3, 0, 1], [3, 0, 1, 2]]
    """
    identity = np.arange(cells, dtype=np.int64)
    gens = [g for g in generators if not np.array_equal(g, identity)]
    elements = {identity.tobytes(): identity}
    frontier = [identity]
    while frontier:
        next_frontier = []
        for element in frontier:
            for generator in gens:
                product = generator[element]
                key = product.tobytes()
                if key not in elements:
                    elements[key] = product
                    next_frontier.append(product)
                    _check_group_size(len(elements), cells)
        frontier = next_frontier
    return list(elements.values())


def permutation_of(value: Any, cells: int, nodes: Optional[list[Any]], position: int) -> Permutation:
    """One element of ``group=`` as the image of every cell: flat indices, or a node mapping for a graph.

    Example:
        >>> permutation_of([[2, 1], [0, 3]], 4, None, 0).tolist()
        [2, 1, 0, 3]
    """
    if isinstance(value, dict):
        if nodes is None:
            raise InvalidTypeError(f"group element {position} is a dict; a dict maps node labels, which only "
                                   f"a solution of a networkx graph has; give flat cell indices instead")
        where = {node: i for i, node in enumerate(nodes)}
        try:
            image = np.array([where[value.get(node, node)] for node in nodes], dtype=np.int64)
        except (KeyError, TypeError):
            raise InvalidBoardError(f"group element {position} maps a node to something that is not a node "
                                    f"of the graph") from None
    else:
        array = np.asarray(value)
        if array.dtype == bool or not np.issubdtype(array.dtype, np.integer):
            raise InvalidTypeError(f"group element {position} must hold integer cell indices, got dtype "
                                   f"{array.dtype}")
        if array.size != cells:
            raise InvalidBoardError(f"group element {position} has {array.size} entries; a permutation of this "
                                    f"board has one per cell ({cells})")
        image = array.astype(np.int64).ravel()
    seen = np.zeros(cells, dtype=bool)
    inside = (image >= 0) & (image < cells)
    seen[image[inside]] = True
    if not inside.all() or not seen.all():
        raise InvalidBoardError(f"group element {position} is not a permutation of the {cells} cell indices "
                                f"0..{cells - 1}")
    return image


def group_elements(group: Any, shape: tuple[int, ...]) -> list[Any]:
    """The elements of a ``group=`` argument, refusing one permutation given where a sequence of them is expected.

    Example:
        >>> len(group_elements([np.arange(4), np.arange(4)], (2, 2)))
        2
        >>> group_elements(np.arange(4)[::-1], (2, 2))
        Traceback (most recent call last):
        ...
        lightsout.InvalidTypeError: group must be a sequence of permutations, got one permutation ...
    """
    accepted = ("a sequence of permutations, each an array of flat cell indices (or, for a graph, a dict "
                "from node to node)")
    if isinstance(group, (str, bytes, dict)) or not isinstance(group, Iterable):
        raise InvalidTypeError(f"group must be {accepted}, got {type(group).__name__}")
    elements = list(group)
    one = "group must be a sequence of permutations, got one permutation"
    if any(isinstance(value, (numbers.Number, np.generic)) for value in elements):
        raise InvalidTypeError(f"{one} (a sequence of numbers); pass group=[permutation] for the group it "
                               f"generates, or {accepted}")
    if len(shape) > 1 and len(elements) == shape[0]:
        try:
            as_array = np.asarray(elements)
        except ValueError:  # ragged: not one board-shaped array
            as_array = None
        if as_array is not None and as_array.shape == shape and as_array.dtype.kind in "iu":
            raise InvalidTypeError(f"{one} in the board's shape {shape}; pass group=[permutation] for the group "
                                   f"it generates, or {accepted}")
    return elements


def edges_of_grid(shape: tuple[int, ...], wraps: tuple[bool, ...]) -> tuple[Permutation, Permutation]:
    """Every ordered pair (cell, neighbour) of a box of cells, as two flat-index arrays.

    Example:
        >>> [a.tolist() for a in edges_of_grid((1, 3), (False, False))]
        [[0, 1, 1, 2], [1, 2, 0, 1]]
        >>> [a.tolist() for a in edges_of_grid((1, 3), (False, True))]     # the row wraps around
        [[0, 1, 2, 1, 2, 0], [1, 2, 0, 0, 1, 2]]
    """
    index = np.arange(math.prod(shape), dtype=np.int64).reshape(shape)
    sources, targets = [], []
    for axis, (size, wrap) in enumerate(zip(shape, wraps)):
        if size < 2:
            continue
        ahead = np.roll(index, -1, axis=axis)
        low = np.moveaxis(index, axis, 0)
        high = np.moveaxis(ahead, axis, 0)
        if not (wrap and size > 2):  # the last cell's step wraps to the first only on a torus axis
            low, high = low[:-1], high[:-1]
        sources += [low.ravel(), high.ravel()]
        targets += [high.ravel(), low.ravel()]
    if not sources:
        empty = np.zeros(0, dtype=np.int64)
        return empty, empty
    return np.concatenate(sources), np.concatenate(targets)


def edges_of_graph(indptr: np.ndarray, indices: np.ndarray) -> tuple[Permutation, Permutation]:
    """Every ordered pair (vertex, neighbour) of a CSR adjacency.

    Example:
        >>> [a.tolist() for a in edges_of_graph(np.array([0, 1, 2]), np.array([1, 0]))]
        [[0, 1], [1, 0]]
    """
    counts = np.diff(np.asarray(indptr, dtype=np.int64)).astype(np.int64)
    return np.repeat(np.arange(len(counts), dtype=np.int64), counts), np.asarray(indices, dtype=np.int64)


def check_symmetry(image: Permutation, edges: tuple[Permutation, Permutation], lights: np.ndarray,
                   position: int, marked: bool = False) -> None:
    """Raise InvalidBoardError unless the permutation keeps the neighbours and the lights (``marked``: the
    lights are codes of each vertex's light and marks, and the message says so).

    Example:
        >>> edges = edges_of_grid((1, 3), (False, False))
        >>> check_symmetry(np.array([2, 1, 0]), edges, np.array([1, 0, 1]), 0)
        >>> check_symmetry(np.array([1, 0, 2]), edges, np.array([1, 1, 1]), 3)
        Traceback (most recent call last):
        ...
        lightsout.InvalidBoardError: group element 3 is not a symmetry of this board: it does not map neighbours to neighbours
    """
    cells = len(image)
    source, target = edges
    before = np.sort(source * cells + target)
    after = np.sort(image[source] * cells + image[target])
    if not np.array_equal(before, after):
        raise InvalidBoardError(f"group element {position} is not a symmetry of this board: it does not map "
                                f"neighbours to neighbours")
    if not _keeps(image, lights):
        other = "another state or other marks (unpressable, free light)" if marked else "another state"
        raise InvalidBoardError(f"group element {position} is not a symmetry of this board: it moves a light "
                                f"onto a cell in {other}")


def cycle_labels(image: Permutation) -> Permutation:
    """The smallest cell of each cell's cycle (pointer doubling: log2(longest cycle) passes).

    Example:
        >>> cycle_labels(np.array([2, 0, 1, 4, 3, 5])).tolist()
        [0, 0, 0, 3, 3, 5]
    """
    # label[i] is the smallest of the first 2**t cells of i's cycle, jump = g**(2**t); a pass
    # that changes no label has seen whole cycles (every later window starts at a cell whose
    # first window already showed nothing smaller)
    label = np.arange(len(image), dtype=np.int64)
    jump = image.copy()
    while True:
        smaller = np.minimum(label, label[jump])
        if np.array_equal(smaller, label):
            return label
        label, jump = smaller, jump[jump]


def fixed_by_cycles(image: Permutation, edges: tuple[Permutation, Permutation], lights: np.ndarray,
                    self_toggle: bool, states: int) -> int:
    """The number of solutions g fixes: solutions of one equation and one unknown per cycle of g, mod k.

    Example:
        >>> edges = edges_of_grid((1, 3), (False, False))
        >>> fixed_by_cycles(np.array([2, 1, 0]), edges, np.array([1, 1, 1], np.uint8), True, 2)
        1
    """
    cells = len(image)
    label = cycle_labels(image)
    representatives = np.flatnonzero(label == np.arange(cells))
    column = np.zeros(cells, dtype=np.int64)
    column[representatives] = np.arange(len(representatives))
    unknown_of_cell = column[label]
    count = len(representatives)
    if count * count > MAX_CYCLE_SYSTEM_ENTRIES:
        raise BoardTooLargeError(f"a symmetry with {count} cycles gives a {count} x {count} system, over the "
                                 f"limit of 2**31 entries (lightsout.limits.MAX_CYCLE_SYSTEM_ENTRIES)")
    row_of_cell = np.full(cells, -1, dtype=np.int64)
    row_of_cell[representatives] = np.arange(count)
    # entry (row, unknown) counts the presses of that cycle reaching the row's cell: tallied
    # sparsely, so the only count x count array is the uint8 system solve_mod takes
    source, target = edges
    keep = row_of_cell[source] >= 0
    keys = row_of_cell[source[keep]] * count + unknown_of_cell[target[keep]]
    if self_toggle:
        keys = np.concatenate([keys, np.arange(count, dtype=np.int64) * (count + 1)])
    entries, times = np.unique(keys, return_counts=True)
    matrix = np.zeros(count * count, dtype=np.uint8)
    matrix[entries] = times % states
    rhs = (-lights[representatives].astype(np.int64)) % states
    system = solve_mod(matrix.reshape(count, count), rhs.astype(np.uint8), states)
    return 0 if system.solution is None else system.count


def fixed_by_coordinates(image: Permutation, presses: np.ndarray, basis: np.ndarray, pivots: np.ndarray) -> int:
    """The number of solutions g fixes, for two states, from the coset's coordinates.

    ``basis`` is the quiet basis in reduced echelon form, packed (d, words),
    with its pivot columns; ``presses`` a solution (cells,).

    Example:
        >>> basis = np.array([[5]], np.uint64)          # the quiet pattern 1 0 1
        >>> fixed_by_coordinates(np.array([2, 1, 0]), np.array([1, 0, 0], np.uint8), basis, np.array([0]))
        0
        >>> fixed_by_coordinates(np.array([2, 1, 0]), np.array([0, 1, 0], np.uint8), basis, np.array([0]))
        2
    """
    cells = len(image)
    rank = len(pivots)

    def moved(vector: np.ndarray) -> np.ndarray:
        out = np.empty_like(vector)
        out[image] = vector
        return out

    def coordinates(vector: np.ndarray) -> np.ndarray:
        picked: np.ndarray = vector[pivots].astype(np.uint8)
        return picked

    x0 = np.asarray(presses, dtype=np.uint8).ravel()
    shift = moved(x0) ^ x0
    matrix = np.zeros((rank, rank), dtype=np.uint8)
    for j in range(rank):
        row = unpack_row(basis[j], cells).view(np.uint8)
        matrix[:, j] = coordinates(moved(row))
    matrix[np.arange(rank), np.arange(rank)] ^= 1
    t = coordinates(shift)
    if rank == 0:
        return 0 if shift.any() else 1
    system = solve_mod(matrix, t, 2)
    return 0 if system.solution is None else system.count


def orbit_count(fixed_counts: Sequence[int]) -> int:
    """Burnside: the number of orbits is the mean number of fixed points over the group.

    Example:
        >>> orbit_count([4, 2, 0, 2])
        2
    """
    total = sum(fixed_counts)
    if total % len(fixed_counts):
        raise InternalError(f"Burnside's sum {total} is not a multiple of the group order {len(fixed_counts)}")
    return total // len(fixed_counts)


def rref_basis(words: np.ndarray, cells: int) -> tuple[np.ndarray, np.ndarray]:
    """The packed quiet basis in reduced echelon form and its pivot columns (a copy).

    Example:
        >>> basis, pivots = rref_basis(np.array([[7], [6]], np.uint64), 3)
        >>> basis.tolist(), pivots.tolist()
        ([[1], [6]], [0, 1])
    """
    rows = np.array(words, dtype=np.uint64)
    rank, pivots = kernels.gf2elim.rref_inplace(rows, cells)
    return rows[: int(rank)], np.asarray(pivots[: int(rank)], dtype=np.int64)


def graph_automorphisms(indptr: np.ndarray, indices: np.ndarray, lights: np.ndarray, *,
                        directed: bool = False) -> list[Permutation]:
    """Every automorphism of a graph that keeps each vertex's light state (networkx's VF2 matcher).

    ``directed``: the lists are successors and an automorphism keeps every edge's direction.

    Refuses (BoardTooLargeError) past :data:`MAX_GROUP_ORDER` automorphisms.

    Example:
        >>> indptr, indices = np.array([0, 1, 3, 4]), np.array([1, 0, 2, 1])     # the path 0 - 1 - 2
        >>> [g.tolist() for g in graph_automorphisms(indptr, indices, np.array([1, 1, 1]))]
        [[0, 1, 2], [2, 1, 0]]
    """
    nx = import_optional("networkx", "graph", "the automorphisms of a graph (count_up_to_symmetry)")
    cells = len(indptr) - 1
    graph = nx.DiGraph() if directed else nx.Graph()
    graph.add_nodes_from((v, {"light": int(lights[v])}) for v in range(cells))
    source, target = edges_of_graph(indptr, indices)
    graph.add_edges_from(zip(source.tolist(), target.tolist()))
    matching = nx.algorithms.isomorphism.DiGraphMatcher if directed else nx.algorithms.isomorphism.GraphMatcher
    matcher = matching(graph, graph, node_match=lambda a, b: a["light"] == b["light"])
    found = []
    for mapping in matcher.isomorphisms_iter():
        found.append(np.array([mapping[v] for v in range(cells)], dtype=np.int64))
        _check_group_size(len(found), cells)
    return found


def count_orbits(presses: np.ndarray, lights: np.ndarray, *, shape: tuple[int, ...], wraps: tuple[bool, ...],
                 self_toggle: bool, states: int, count: int, adjacency: Optional[tuple[np.ndarray, np.ndarray]],
                 nodes: Optional[list[Any]], quiet_words: Any, group: Optional[Iterable[Any]],
                 route: str = "auto", directed: bool = False, marks: Optional[np.ndarray] = None) -> int:
    """The number of solutions up to the group (Burnside), for ``Solution.count_up_to_symmetry``.

    ``presses`` and ``lights`` are flat (cells,); ``adjacency`` is a graph's CSR
    (None for a box of cells); ``quiet_words`` a callable giving the packed
    quiet basis (two states).  ``group`` None means the board's own point
    symmetries (a box) or automorphisms (a graph) that keep the lights;
    otherwise its elements generate the group.  ``route`` "coordinates" or
    "cycles" forces one count of fixed points (tests cross-check them).
    ``directed``: the adjacency lists successors (a one-way rule); a symmetry keeps each
    edge's direction.  ``marks``: None, or (cells,) small ints a symmetry must keep too (a graph's
    masks, coded per vertex); the solutions' basis must then be the masked system's (two states).

    Example:
        >>> lit = np.ones(9, np.uint8)
        >>> x = np.array([1, 0, 1, 0, 1, 0, 1, 0, 1], np.uint8)       # the 3 x 3 board's one solution
        >>> count_orbits(x, lit, shape=(3, 3), wraps=(False, False), self_toggle=True, states=2, count=1,
        ...              adjacency=None, nodes=None, quiet_words=lambda: np.zeros((0, 1), np.uint64), group=None)
        1
    """
    cells = len(lights)
    if group is None and count == 1:  # one solution: every symmetry of the board fixes it
        return 1
    if adjacency is None:
        edges = edges_of_grid(shape, wraps)
    else:
        edges = edges_of_graph(*adjacency)
    kept = lights if marks is None else lights.astype(np.int64) + states * np.asarray(marks, dtype=np.int64)
    if group is None:
        if adjacency is None:
            elements = box_symmetries(shape, wraps, kept)
        else:
            elements = graph_automorphisms(adjacency[0], adjacency[1], kept, directed=directed)
    else:
        generators = [permutation_of(value, cells, nodes, i) for i, value in enumerate(group_elements(group, shape))]
        for i, generator in enumerate(generators):
            check_symmetry(generator, edges, kept, i, marks is not None)
        elements = close_group(generators, cells)
    if route == "auto":
        route = "coordinates" if states == 2 else "cycles"
    if route == "coordinates":
        basis, pivots = rref_basis(quiet_words(), cells)
    identity = np.arange(cells, dtype=np.int64)
    # fixed_by_cycles reads each pair as (light, press reaching it): a one-way edge u -> w is (w, u)
    reaching = (edges[1], edges[0]) if directed else edges
    fixed = []
    for image in elements:
        if np.array_equal(image, identity):
            fixed.append(count)
        elif route == "coordinates":
            fixed.append(fixed_by_coordinates(image, presses, basis, pivots))
        else:
            fixed.append(fixed_by_cycles(image, reaching, lights, self_toggle, states))
    return orbit_count(fixed)


def box_symmetries(shape: tuple[int, ...], wraps: tuple[bool, ...], lights: np.ndarray) -> list[Permutation]:
    """The point symmetries of a box of cells (:func:`grid_symmetries`) that keep the lights.

    Example:
        >>> lit = np.array([1, 1, 0, 1], np.uint8)      # a 2 x 2 board, the corner (1, 0) dark
        >>> [g.tolist() for g in box_symmetries((2, 2), (False, False), lit)]   # and the anti-diagonal mirror
        [[0, 1, 2, 3], [3, 1, 2, 0]]
    """
    return [g for g in grid_symmetries(shape, wraps) if _keeps(g, lights)]


def _keeps(image: Permutation, lights: np.ndarray) -> bool:
    moved = np.empty_like(lights)
    moved[image] = lights
    return bool(np.array_equal(moved, lights))
