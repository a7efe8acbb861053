"""A graph as it comes in: each accepted form checked and converted to CSR neighbour lists.

:func:`lightsout.solve_graph` and :func:`lightsout.graph.graph_csr` take a networkx graph,
a scipy.sparse or dense adjacency matrix, or an edge list (``GRAPH_FORMS``; the rules of
each form are in lightsout/graph.py's docstring).  :func:`to_csr` checks it and converts it to a
:class:`GraphCSR`, the graph the forcing route works on, as :class:`lightsout._core.rules.Rules`
is the grid the grid routes work on; every form words the same mistake the same way, and
each message says what is accepted.  The solving route's budget comes in as ``refuse``,
asked once the vertex count is known and before anything of that size is allocated.
:func:`graph_lights` checks the lights of a converted graph.
"""
from __future__ import annotations

import itertools
import numbers
import sys
from typing import Any, Callable, NamedTuple, Optional

import numpy as np
import numpy.typing as npt

from lightsout._base.errors import BoardTooLargeError, InvalidBoardError, InvalidTypeError
from lightsout._base.validate import board_size, board_values, numeric_array
from lightsout import _kernels as kernels

__all__ = ["GRAPH_FORMS", "MAX_GRAPH_VERTICES", "GraphCSR", "Refusal", "to_csr", "graph_lights", "graph_mask",
           "graph_vertex_count", "graph_edge_list", "graph_adjacency_values", "graph_square", "graph_pattern"]

#: A route's graph budget: ``refuse(n, matrix_entries)`` raises BoardTooLargeError, or returns.
Refusal = Callable[[int, int], None]

#: What solve_graph accepts as a graph, quoted by the graph-input errors.
GRAPH_FORMS = ("a networkx graph (no self-loops; a MultiGraph only without parallel edges; solve_graph takes a "
               "DiGraph as a one-way rule), a square scipy.sparse or dense adjacency matrix (zero diagonal; a "
               "symmetric nonzero pattern, or for solve_graph any: entry (u, v) the edge u -> v), "
               "or an edge list of (u, v) int pairs (vertices 0..nvertices-1)")
#: Most vertices a graph may have: vertex numbers are kept as int32.
MAX_GRAPH_VERTICES = 2**31 - 1


def graph_vertex_count(value: object, name: str = "nvertices") -> int:
    """Check a vertex count: a positive int up to ``MAX_GRAPH_VERTICES``.

    Example:
        >>> graph_vertex_count(5)
        5
    """
    n = board_size(value, name)
    if n > MAX_GRAPH_VERTICES:
        raise BoardTooLargeError(f"{name} = {n} is over the limit of {MAX_GRAPH_VERTICES} vertices "
                                 f"(lightsout.limits.MAX_GRAPH_VERTICES; vertex numbers are int32)")
    return n


def graph_edge_list(edges: object, nvertices: object = None) -> tuple[int, np.ndarray]:
    """Check an edge list and return ``(n, edges)``, edges an ``(m, 2)`` int64 array.

    Endpoints must be ints in ``0..n-1``, ``n = nvertices`` (default: one more
    than the largest endpoint); an edge from a vertex to itself is refused.
    Repeated edges, in either direction, are allowed (they are one edge).

    Example:
        >>> n, e = graph_edge_list([(0, 1), (1, 2)])
        >>> n, e.tolist()
        (3, [[0, 1], [1, 2]])
        >>> graph_edge_list([(0, 0)])
        Traceback (most recent call last):
        ...
        lightsout.InvalidBoardError: edge (0, 0) is a self-loop; graphs must not have self-loops...
    """
    accepted = "a sequence of (u, v) pairs of int vertex numbers, or an (m, 2) int array"
    try:
        arr = np.asarray(edges)
    except Exception as exc:  # ragged lists and the like
        raise InvalidBoardError(f"an edge list must be {accepted}: {exc}") from exc
    if arr.size == 0 and arr.ndim <= 2:  # no edges (an empty list reads as floats)
        arr = np.zeros((0, 2), dtype=np.int64)
    if arr.dtype == object or arr.dtype.kind not in "iu":
        raise InvalidTypeError(f"an edge list must be {accepted}, got dtype {arr.dtype} "
                               "(vertex labels other than 0..n-1 need a networkx graph)")
    if arr.ndim != 2 or arr.shape[1] != 2:
        raise InvalidBoardError(f"an edge list must be {accepted}, got shape {arr.shape}")
    pairs = arr.astype(np.int64)
    if pairs.size and pairs.min() < 0:
        bad = pairs[(pairs < 0).any(axis=1)][0]
        raise InvalidBoardError(f"edge ({bad[0]}, {bad[1]}) has a negative vertex number; vertices are 0..n-1")
    largest = int(pairs.max()) if pairs.size else -1
    if nvertices is None:
        if largest < 0:
            raise InvalidBoardError("an empty edge list needs nvertices= (the number of vertices)")
        n = graph_vertex_count(largest + 1, "1 + the largest vertex number")
    else:
        n = graph_vertex_count(nvertices)
        if largest >= n:
            bad = pairs[(pairs >= n).any(axis=1)][0]
            raise InvalidBoardError(f"edge ({bad[0]}, {bad[1]}) is out of range: nvertices={n}, "
                                    f"so vertices are 0..{n - 1}")
    loops = pairs[:, 0] == pairs[:, 1]
    if loops.any():
        u = int(pairs[loops][0, 0])
        raise InvalidBoardError(f"edge ({u}, {u}) is a self-loop; graphs must not have self-loops "
                                "(the plus rule already toggles the pressed vertex; self_toggle=False "
                                "is the sigma rule)")
    return n, pairs


def graph_adjacency_values(matrix: np.ndarray, name: str = "adjacency matrix") -> None:
    """Check an adjacency matrix's stored values: numbers or bools, finite (nonzero means an edge).

    Example:
        >>> graph_adjacency_values(np.array([[0.0, 1.5], [1.5, 0.0]]))
    """
    if matrix.dtype == object or matrix.dtype.kind not in "biufc":
        raise InvalidTypeError(f"an {name} must hold numbers or bools (nonzero = an edge), "
                               f"got dtype {matrix.dtype}")
    if matrix.dtype.kind in "fc" and not np.isfinite(matrix).all():
        raise InvalidBoardError(f"an {name} must hold finite numbers (nonzero = an edge); found NaN or infinity")


def graph_square(shape: tuple[int, ...], name: str = "adjacency matrix") -> int:
    """Check an adjacency matrix's shape: square, at least 1 x 1; returns the vertex count.

    Example:
        >>> graph_square((4, 4))
        4
    """
    if len(shape) != 2 or shape[0] != shape[1]:
        raise InvalidBoardError(f"an {name} must be square (n x n), got shape {tuple(shape)}; "
                                f"solve_graph accepts {GRAPH_FORMS}")
    return graph_vertex_count(int(shape[0]), "the number of vertices")


def graph_pattern(n: int, indptr: np.ndarray, indices: np.ndarray, *, symmetric_known: bool = False,
                  labels: list[object] | None = None, source: str = "adjacency matrix",
                  directed: bool = False) -> bool:
    """Check CSR neighbour lists (each row sorted and without repeats unless ``symmetric_known``): no self-loops, symmetric.

    ``labels`` names the vertices in messages (a networkx graph's nodes);
    ``symmetric_known`` skips the symmetry check (networkx graphs are symmetric by construction).
    ``directed``: a pattern that is not symmetric is a directed graph's (each row lists its
    vertex's successors) and is accepted.  Returns whether the pattern is symmetric.

    Example:
        >>> graph_pattern(2, np.array([0, 1, 2]), np.array([1, 0]))
        True
        >>> graph_pattern(2, np.array([0, 1, 1]), np.array([1]), directed=True)     # the edge 0 -> 1 alone
        False
        >>> graph_pattern(2, np.array([0, 1, 1]), np.array([1]))
        Traceback (most recent call last):
        ...
        lightsout.InvalidBoardError: the adjacency matrix is not symmetric: entry (0, 1) is nonzero but (1, 0) is 0...
    """
    owners = np.repeat(np.arange(n, dtype=np.int64), np.diff(indptr))
    loops = indices == owners
    if loops.any():
        v = int(owners[loops][0])
        what = f"node {labels[v]!r}" if labels is not None else f"vertex {v}"
        entry = f" (diagonal entry ({v}, {v}) is nonzero)" if labels is None and source != "edge list" else ""
        raise InvalidBoardError(f"{what} has a self-loop{entry}; graphs must not have self-loops (the plus rule "
                                "already toggles the pressed vertex; self_toggle=False is the sigma rule)")
    if symmetric_known or not len(indices):
        return True
    forward = owners * n + indices                      # sorted: rows in order, each row sorted
    backward = np.sort(indices.astype(np.int64) * n + owners)
    if not np.array_equal(forward, backward):
        if directed:
            return False
        missing = np.setdiff1d(forward, backward, assume_unique=True)
        i, j = divmod(int(missing[0]), n)
        raise InvalidBoardError(
            f"the {source} is not symmetric: entry ({i}, {j}) is nonzero but ({j}, {i}) is 0; "
            f"an undirected graph's adjacency matrix is symmetric (directed graphs are not accepted)")
    return True


def graph_lights(lit: object, n: int, states: int, labels: list[object] | None = None) -> np.ndarray:
    """Check a graph's lights: None (all lit), one value per vertex in vertex order, or a dict.

    A dict maps vertices (networkx node labels, or vertex numbers 0..n-1 for
    the other forms) to light states; vertices it leaves out are dark.
    Returns a bool array for two states, uint8 otherwise (as boards are).

    Example:
        >>> graph_lights([1, 0, 1], 3, 2).tolist()
        [True, False, True]
        >>> graph_lights({"b": 2}, 3, 3, ["a", "b", "c"]).tolist()
        [0, 2, 0]
        >>> graph_lights([1, 0], 3, 2)
        Traceback (most recent call last):
        ...
        lightsout.InvalidBoardError: lit must have one value per vertex (3, in vertex order), got shape (2,)...
    """
    if lit is None:
        return np.ones(n, dtype=bool) if states == 2 else np.ones(n, dtype=np.uint8)
    if isinstance(lit, dict):
        return _graph_lights_dict(lit, n, states, labels)
    if isinstance(lit, (str, bytes)):
        raise InvalidTypeError(f"lit must be None (all lit), a sequence of {n} light states or a dict "
                               f"vertex -> state; got a {type(lit).__name__}")
    arr = numeric_array(lit, "lit", f"a sequence of {n} light states 0..{states - 1}, one per vertex")
    if arr.shape != (n,):
        raise InvalidBoardError(f"lit must have one value per vertex ({n}, in vertex order), got shape {arr.shape}; "
                                "or pass a dict vertex -> state")
    return board_values(arr, states, "lit")


def graph_mask(value: object, n: int, name: str, labels: list[object] | None = None) -> Optional[npt.NDArray[np.bool_]]:
    """Check a graph's mask (``unpressable`` or ``free_lights``): None, a bool per vertex, or a collection of vertices.

    A bool array or a list of bools has one entry per vertex in vertex order; any other
    collection (a set, list or tuple; an int numpy array) names the vertices: networkx node
    labels, or vertex numbers 0..n-1 for the other forms, each once.  Returns an ``(n,)``
    bool array, or None when no vertex is marked (the graph is then unmasked).

    Example:
        >>> graph_mask([True, False, True], 3, "unpressable").tolist()
        [True, False, True]
        >>> graph_mask({"c"}, 3, "free_lights", ["a", "b", "c"]).tolist()
        [False, False, True]
        >>> graph_mask([0, 0], 3, "unpressable")
        Traceback (most recent call last):
        ...
        lightsout.InvalidBoardError: unpressable names vertex 0 twice; ...
    """
    if value is None:
        return None
    accepted = (f"a bool per vertex ({n}, in vertex order) or a collection of vertices "
                f"({'node labels' if labels is not None else f'numbers 0..{n - 1}'})")
    if isinstance(value, (str, bytes, dict)) or not hasattr(value, "__iter__"):
        raise InvalidTypeError(f"{name} must be None, {accepted}; got a {type(value).__name__}")
    if isinstance(value, np.ndarray):
        if value.dtype == np.bool_:
            mask = value
        elif value.dtype.kind in "iu" and value.ndim == 1:
            return _mask_of_vertices(value.tolist(), n, name, labels, accepted)
        else:
            raise InvalidTypeError(f"{name} must be None, {accepted}; got an array of dtype {value.dtype}")
    else:
        items = list(value)
        if not items or not all(isinstance(item, (bool, np.bool_)) for item in items):
            return _mask_of_vertices(items, n, name, labels, accepted)
        mask = np.array(items, dtype=bool)
    if mask.shape != (n,):
        raise InvalidBoardError(f"{name} must have one bool per vertex ({n}, in vertex order), got shape {mask.shape}")
    return np.array(mask, dtype=bool) if mask.any() else None


def _mask_of_vertices(items: list[object], n: int, name: str, labels: list[object] | None,
                      accepted: str) -> Optional[npt.NDArray[np.bool_]]:
    mask = np.zeros(n, dtype=bool)
    positions = None if labels is None else dict(zip(labels, range(n)))
    for item in items:
        if positions is None:
            if isinstance(item, (bool, np.bool_)) or not isinstance(item, numbers.Integral) or not 0 <= int(item) < n:
                raise InvalidBoardError(f"{name} has {item!r}, not a vertex: this graph's vertices are 0..{n - 1} "
                                        f"({name} is {accepted})")
            at = int(item)
        else:
            try:
                at = positions[item]
            except (KeyError, TypeError):
                raise InvalidBoardError(f"{name} has {item!r}, which is not a node of the graph "
                                        f"({name} is {accepted})") from None
        if mask[at]:
            raise InvalidBoardError(f"{name} names vertex {item!r} twice; it is {accepted}")
        mask[at] = True
    return mask if mask.any() else None


def _graph_lights_dict(lit: dict[object, object], n: int, states: int, labels: list[object] | None) -> np.ndarray:
    if labels is None:
        index: dict[object, int] = {}
        for key in lit:
            if isinstance(key, (bool, np.bool_)) or not isinstance(key, numbers.Integral) or not 0 <= int(key) < n:
                raise InvalidBoardError(f"lit has key {key!r}, not a vertex: this graph's vertices are 0..{n - 1}")
            index[key] = int(key)
    else:
        positions = dict(zip(labels, range(n)))
        index = {}
        for key in lit:
            if key not in positions:
                raise InvalidBoardError(f"lit has key {key!r}, which is not a node of the graph")
            index[key] = positions[key]
    values = np.zeros(n, dtype=np.int64)
    if lit:
        given = numeric_array(list(lit.values()), "lit", f"a dict vertex -> light state 0..{states - 1}")
        if given.ndim != 1:
            raise InvalidBoardError(f"lit's values must be single light states 0..{states - 1}")
        checked = board_values(given, states, "lit").astype(np.int64)
        values[np.fromiter(index.values(), dtype=np.int64, count=len(index))] = checked
    return board_values(values, states, "lit")


class GraphCSR(NamedTuple):
    """A graph as CSR neighbour lists: the neighbours of v are ``indices[indptr[v]:indptr[v + 1]]``.

    Attributes:
        n: number of vertices.
        indptr: (n + 1,) int64.
        indices: int32 neighbour numbers (symmetric, no self-loops, no repeats).
        nodes: a networkx graph's node labels in vertex order, else None.
        directed: the lists are a directed graph's successors (a pattern that is not symmetric).
    """

    n: int
    indptr: npt.NDArray[np.int64]
    indices: npt.NDArray[np.int32]
    nodes: Optional[list[Any]]
    directed: bool = False


def to_csr(graph: object, nvertices: Optional[int] = None, *, refuse: Refusal, directed: bool = False) -> GraphCSR:
    """Convert and check a graph in any accepted form (module docstring) to CSR neighbour lists.

    Args:
        graph: a networkx graph, a scipy.sparse or dense adjacency matrix, or an edge list.
        nvertices: the number of vertices of an edge list (only for edge lists).
        refuse: the solving route's budget, ``refuse(n, matrix_entries)``: called once
            the vertex count is known, before anything of that size is allocated
            (``matrix_entries``: the entries of a dense adjacency matrix to scan, else 0).
        directed: accept directed graphs (a networkx DiGraph; an adjacency matrix
            whose pattern is not symmetric, entry (u, v) the edge u -> v): each row
            then lists its vertex's successors, and ``GraphCSR.directed`` is set when
            the pattern is not symmetric (a symmetric one is an undirected graph).

    Returns:
        A :class:`GraphCSR`.

    Raises:
        InvalidTypeError: not one of the accepted forms, or entries that are
            not numbers (matrices) or ints (edge lists).
        InvalidBoardError: a directed graph or parallel edges, self-loops, a
            non-symmetric or non-square matrix, vertex numbers out of range, no
            vertices.
        BoardTooLargeError: what ``refuse`` refuses; more than ``MAX_GRAPH_VERTICES`` vertices.

    Examples:
        >>> def no_budget(n, matrix_entries):
        ...     pass
        >>> g = to_csr([[0, 1, 0], [1, 0, 1], [0, 1, 0]], refuse=no_budget)     # the path 0 - 1 - 2
        >>> g.n, g.indptr.tolist(), g.indices.tolist()
        (3, [0, 1, 3, 4], [1, 0, 2, 1])
        >>> to_csr([(2, 1), (1, 0)], refuse=no_budget).indices.tolist()
        [1, 0, 2, 1]
        >>> to_csr([[0, 1], [0, 0]], refuse=no_budget)
        Traceback (most recent call last):
        ...
        lightsout.InvalidBoardError: the adjacency matrix is not symmetric: entry (0, 1) is nonzero...
    """
    nx = sys.modules.get("networkx")
    if nx is not None and isinstance(graph, nx.Graph):
        if nvertices is not None:
            raise InvalidBoardError("nvertices= is only for edge lists; a networkx graph has its own nodes")
        return _from_networkx(graph, refuse, directed)
    sparse = sys.modules.get("scipy.sparse")
    if sparse is not None and sparse.issparse(graph):
        if nvertices is not None:
            raise InvalidBoardError("nvertices= is only for edge lists; an adjacency matrix has one row per vertex")
        return _from_sparse(graph, refuse, directed)
    if isinstance(graph, (str, bytes, dict, set, frozenset)) or graph is None or isinstance(graph, (int, float)):
        raise InvalidTypeError(f"solve_graph takes {GRAPH_FORMS}; got {type(graph).__name__}")
    if nvertices is not None or _tuple_edges(graph):
        return _from_edges(graph, nvertices, refuse)
    try:
        arr = np.asarray(graph)
    except Exception as exc:  # ragged lists and the like
        raise InvalidBoardError(f"solve_graph takes {GRAPH_FORMS}; could not read this input as an array: {exc}") \
            from exc
    if arr.ndim == 2 and arr.shape[0] == arr.shape[1]:
        return _from_dense(arr, refuse, directed)
    if arr.ndim == 2 and arr.shape[1] == 2:
        return _from_edges(arr, None, refuse)
    if arr.dtype == object:
        raise InvalidTypeError(f"solve_graph takes {GRAPH_FORMS}; got {type(graph).__name__}")
    raise InvalidBoardError(f"solve_graph takes {GRAPH_FORMS}; got an array of shape {arr.shape} "
                            "(neither a square matrix nor an (m, 2) edge list)")


def _tuple_edges(graph: object) -> bool:
    """A list or tuple whose items are all tuples (or an empty one): an edge list by the module's rule."""
    return isinstance(graph, (list, tuple)) and all(isinstance(item, tuple) for item in graph)


def _csr_from_rows(n: int, rows: npt.NDArray[np.int64], cols: npt.NDArray[np.int64]) -> tuple[
        npt.NDArray[np.int64], npt.NDArray[np.int32]]:
    """CSR arrays from (row, col) pairs sorted by row then column (as np.nonzero and np.unique give)."""
    indptr = np.zeros(n + 1, dtype=np.int64)
    np.cumsum(np.bincount(rows, minlength=n), out=indptr[1:])
    return indptr, cols.astype(np.int32)


def _from_edges(edges: object, nvertices: Optional[int], refuse: Refusal) -> GraphCSR:
    n, pairs = graph_edge_list(edges, nvertices)
    refuse(n, 0)
    keys = np.concatenate([pairs[:, 0] * n + pairs[:, 1], pairs[:, 1] * n + pairs[:, 0]])
    # Both directions, sorted, repeats merged.  (np.unique is not used: numpy >= 2.3 runs it
    # through a hash table first, 30x slower than this sort on a few million keys.)
    keys.sort()
    if len(keys) > 1:
        keys = keys[np.concatenate(([True], keys[1:] != keys[:-1]))]
    indptr, indices = _csr_from_rows(n, keys // n, keys % n)
    return GraphCSR(n, indptr, indices, None)


def _from_dense(arr: np.ndarray, refuse: Refusal, directed: bool) -> GraphCSR:
    n = graph_square(arr.shape)
    refuse(n, n * n)  # before the n x n scan and its pattern, a byte an entry
    graph_adjacency_values(arr)
    pattern = arr != 0
    rows, cols = np.nonzero(pattern)
    indptr, indices = _csr_from_rows(n, rows.astype(np.int64), cols.astype(np.int64))
    symmetric = graph_pattern(n, indptr, indices, directed=directed)
    return GraphCSR(n, indptr, indices, None, not symmetric)


def _from_sparse(matrix: Any, refuse: Refusal, directed: bool) -> GraphCSR:
    n = graph_square(tuple(matrix.shape))
    refuse(n, 0)
    csr = matrix.tocsr(copy=True)
    graph_adjacency_values(csr.data, "adjacency matrix's stored values")
    csr.sum_duplicates()
    csr.eliminate_zeros()
    csr.sort_indices()
    indptr = np.asarray(csr.indptr, dtype=np.int64)
    indices = np.asarray(csr.indices, dtype=np.int32)
    symmetric = graph_pattern(n, indptr, indices, source="sparse adjacency matrix", directed=directed)
    return GraphCSR(n, indptr, indices, None, not symmetric)


def _from_networkx(graph: Any, refuse: Refusal, directed: bool) -> GraphCSR:
    if graph.is_directed() and not directed:
        raise InvalidBoardError("directed graphs are not accepted here (a press acts along every edge both ways); "
                                "pass G.to_undirected()")
    nodes = list(graph.nodes)
    n = len(nodes)
    if n == 0:
        raise InvalidBoardError("the graph has no vertices; a graph to solve needs at least one")
    graph_vertex_count(n, "the number of nodes")
    refuse(n, 0)
    # Node order is list(G.nodes); the adjacency mapping normally lists the same nodes in
    # the same order (then its values are taken as they come, without a lookup per node).
    raw = getattr(graph, "_adj", None)
    adj = raw if type(raw) is dict else graph.adj
    neighbours = list(adj.values()) if list(adj) == nodes else [adj[v] for v in nodes]
    if graph.is_multigraph():
        for v, nbrs in zip(nodes, neighbours):
            for u, keys in nbrs.items():
                if len(keys) > 1:
                    raise InvalidBoardError(
                        f"the MultiGraph has {len(keys)} parallel edges between {v!r} and {u!r}; parallel "
                        "edges are not accepted (pass networkx.Graph(G) to merge them)")
    degrees = np.fromiter(map(len, neighbours), dtype=np.int64, count=n)
    indptr = np.zeros(n + 1, dtype=np.int64)
    np.cumsum(degrees, out=indptr[1:])
    total = int(indptr[-1])
    # Vertices numbered 0..n-1 in order need no lookups.
    position = None if nodes == list(range(n)) else dict(zip(nodes, range(n)))
    if all(type(nbrs) is dict for nbrs in neighbours):  # a plain graph: walk the dicts in C
        indices = kernels.graphchase.dict_neighbour_numbers(neighbours, position, total)
    else:  # adjacency views (subgraphs, filtered graphs)
        flat = itertools.chain.from_iterable(neighbours)
        numbers = flat if position is None else map(position.__getitem__, flat)
        indices = np.fromiter(numbers, dtype=np.int32, count=total)
    if not graph.is_directed():
        graph_pattern(n, indptr, indices, symmetric_known=True, labels=nodes)
        return GraphCSR(n, indptr, indices, nodes)
    order = np.argsort(np.repeat(np.arange(n, dtype=np.int64), np.diff(indptr)) * n + indices, kind="stable")
    indices = np.ascontiguousarray(indices[order])  # each row's successors sorted, for the symmetry check
    symmetric = graph_pattern(n, indptr, indices, labels=nodes, directed=True)
    return GraphCSR(n, indptr, indices, nodes, not symmetric)
