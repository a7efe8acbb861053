"""Lights Out on any undirected graph: ``solve_graph`` and the conversion of graph inputs.

Pressing vertex v adds 1 (mod ``states``; with two states: toggles) to v and
to each of its neighbours; with ``self_toggle=False`` (the sigma rule) a press
skips v itself.  A solution gives each vertex a press count 0..k-1.

Accepted graphs, and the vertex order of ``board`` and of the answer:

* a **networkx** graph (networkx is an optional dependency, never imported
  here unless the caller already has): ``list(G.nodes)`` order.  Directed
  graphs are refused (pass ``G.to_undirected()``); a MultiGraph is accepted
  only without parallel edges (two edges between the same vertices would
  make a press toggle a neighbour twice, which no rule here means); self-loops
  are refused.  Node labels may be anything hashable: :meth:`Solution.press_list`
  reports them.
* a **scipy.sparse** matrix or array, or a **dense** 2-D array-like adjacency
  matrix: row order.  Square; any nonzero (finite) entry is an edge; the
  pattern of nonzeros must be symmetric and the diagonal zero.
* an **edge list**: a sequence of ``(u, v)`` int pairs or an ``(m, 2)`` int
  array, vertices ``0..n-1`` with ``n = nvertices`` (default: one more than
  the largest endpoint), in that order.  Repeated edges count once.

Telling an edge list from a matrix: with ``nvertices=`` given, or as a list or
tuple of tuples (``[(0, 1), (1, 2)]``, ``list(G.edges)``), the input is an edge
list; otherwise a 2-D array-like is an adjacency matrix when square and an
edge list when it has shape ``(m, 2)``, ``m != 2``.  So a 2 x 2 array or list
of lists is a matrix: write a two-edge list as tuples or pass ``nvertices=``.

``board`` (the lights) is None (every vertex lit: state 1), one light state
per vertex in vertex order, or a dict vertex -> state (networkx node labels,
or vertex numbers for the other forms); vertices a dict leaves out are dark.

The solver is generalised light chasing through a greedy zero-forcing set,
with plain elimination as the fallback; the answer is the canonical solution,
the lexicographically smallest press vector in vertex order, as for boards.

Example:
    >>> from lightsout.graph import solve_graph
    >>> s = solve_graph([(0, 1), (1, 2)])                  # the path 0 - 1 - 2, all lit
    >>> s.presses.astype(int).tolist(), s.count
    ([0, 1, 0], 1)
"""
from __future__ import annotations

import concurrent.futures
import itertools
import sys
import warnings
from typing import Any, NamedTuple, Optional

import numpy as np
import numpy.typing as npt

from lightsout._base.errors import InvalidBoardError, InvalidTypeError
from lightsout._base.types import Progress
from lightsout._base.validate import (
    GRAPH_FORMS, flag, graph_adjacency_values, graph_edge_list, graph_lights, graph_pattern, graph_square,
    graph_vertex_count, method_name, progress_callback, states_count, thread_count,
)
from lightsout import _kernels as kernels
from lightsout._core.graphrules import GraphRules
from lightsout._routes.forcing import BYTES_PER_VERTEX, MAX_GRAPH_BYTES, check_vertex_budget
from lightsout._routes.registry import METHODS as _METHODS
from lightsout._routes.registry import route_for
from lightsout._solution import Solution, solution_from_coset

__all__ = ["GraphCSR", "graph_csr", "solve_graph"]


class GraphCSR(NamedTuple):
    """A graph as CSR neighbour lists: the neighbours of v are ``indices[indptr[v]:indptr[v + 1]]``.

    Attributes:
        n: number of vertices.
        indptr: (n + 1,) int64.
        indices: int32 neighbour numbers (symmetric, no self-loops, no repeats).
        nodes: a networkx graph's node labels in vertex order, else None.
    """

    n: int
    indptr: npt.NDArray[np.int64]
    indices: npt.NDArray[np.int32]
    nodes: Optional[list[Any]]


def graph_csr(graph: object, *, nvertices: Optional[int] = None) -> GraphCSR:
    """Convert and check a graph in any accepted form (module docstring) to CSR neighbour lists.

    Args:
        graph: a networkx graph, a scipy.sparse or dense adjacency matrix, or an edge list.
        nvertices: the number of vertices of an edge list (only for edge lists).

    Returns:
        A :class:`GraphCSR`.

    Raises:
        InvalidTypeError: not one of the accepted forms, or entries that are
            not numbers (matrices) or ints (edge lists).
        InvalidBoardError: a directed graph or parallel edges, self-loops, a
            non-symmetric or non-square matrix, vertex numbers out of range, no
            vertices.

    Examples:
        >>> g = graph_csr([[0, 1, 0], [1, 0, 1], [0, 1, 0]])     # the path 0 - 1 - 2
        >>> g.n, g.indptr.tolist(), g.indices.tolist()
        (3, [0, 1, 3, 4], [1, 0, 2, 1])
        >>> graph_csr([(2, 1), (1, 0)]).indices.tolist()
        [1, 0, 2, 1]
        >>> graph_csr([[0, 1], [0, 0]])
        Traceback (most recent call last):
        ...
        lightsout.InvalidBoardError: the adjacency matrix is not symmetric: entry (0, 1) is nonzero...
    """
    nx = sys.modules.get("networkx")
    if nx is not None and isinstance(graph, nx.Graph):
        if nvertices is not None:
            raise InvalidBoardError("nvertices= is only for edge lists; a networkx graph has its own nodes")
        return _from_networkx(graph)
    sparse = sys.modules.get("scipy.sparse")
    if sparse is not None and sparse.issparse(graph):
        if nvertices is not None:
            raise InvalidBoardError("nvertices= is only for edge lists; an adjacency matrix has one row per vertex")
        return _from_sparse(graph)
    if isinstance(graph, (str, bytes, dict, set, frozenset)) or graph is None or isinstance(graph, (int, float)):
        raise InvalidTypeError(f"solve_graph takes {GRAPH_FORMS}; got {type(graph).__name__}")
    if nvertices is not None or _tuple_edges(graph):
        return _from_edges(graph, nvertices)
    try:
        arr = np.asarray(graph)
    except Exception as exc:  # ragged lists and the like
        raise InvalidBoardError(f"solve_graph takes {GRAPH_FORMS}; could not read this input as an array: {exc}") \
            from exc
    if arr.ndim == 2 and arr.shape[0] == arr.shape[1]:
        return _from_dense(arr)
    if arr.ndim == 2 and arr.shape[1] == 2:
        return _from_edges(arr, None)
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


def _from_edges(edges: object, nvertices: Optional[int]) -> GraphCSR:
    n, pairs = graph_edge_list(edges, nvertices)
    check_vertex_budget(n)
    keys = np.concatenate([pairs[:, 0] * n + pairs[:, 1], pairs[:, 1] * n + pairs[:, 0]])
    # Both directions, sorted, repeats merged.  (np.unique is not used: numpy >= 2.3 runs it
    # through a hash table first, 30x slower than this sort on a few million keys.)
    keys.sort()
    if len(keys) > 1:
        keys = keys[np.concatenate(([True], keys[1:] != keys[:-1]))]
    indptr, indices = _csr_from_rows(n, keys // n, keys % n)
    return GraphCSR(n, indptr, indices, None)


def _from_dense(arr: np.ndarray) -> GraphCSR:
    graph_adjacency_values(arr)
    n = graph_square(arr.shape)
    check_vertex_budget(n)
    pattern = arr != 0
    rows, cols = np.nonzero(pattern)
    indptr, indices = _csr_from_rows(n, rows.astype(np.int64), cols.astype(np.int64))
    graph_pattern(n, indptr, indices)
    return GraphCSR(n, indptr, indices, None)


def _from_sparse(matrix: Any) -> GraphCSR:
    n = graph_square(tuple(matrix.shape))
    check_vertex_budget(n)
    csr = matrix.tocsr(copy=True)
    graph_adjacency_values(csr.data, "adjacency matrix's stored values")
    csr.sum_duplicates()
    csr.eliminate_zeros()
    csr.sort_indices()
    indptr = np.asarray(csr.indptr, dtype=np.int64)
    indices = np.asarray(csr.indices, dtype=np.int32)
    graph_pattern(n, indptr, indices, source="sparse adjacency matrix")
    return GraphCSR(n, indptr, indices, None)


def _from_networkx(graph: Any) -> GraphCSR:
    if graph.is_directed():
        raise InvalidBoardError("directed graphs are not accepted (a press acts along every edge both ways); "
                                "pass G.to_undirected()")
    nodes = list(graph.nodes)
    n = len(nodes)
    if n == 0:
        raise InvalidBoardError("the graph has no vertices; a graph to solve needs at least one")
    graph_vertex_count(n, "the number of nodes")
    check_vertex_budget(n)
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
    graph_pattern(n, indptr, indices, symmetric_known=True, labels=nodes)
    return GraphCSR(n, indptr, indices, nodes)


def solve_graph(graph: object, board: object = None, *, nvertices: Optional[int] = None, self_toggle: bool = True,
                states: int = 2, minimal: bool = False, time_limit: Optional[float] = None,
                executor: Optional[concurrent.futures.Executor] = None, method: str = "auto", threads: Optional[int] = None,
                progress: Progress = None, lit: object = None) -> Solution:
    """Solve Lights Out on an undirected graph: the canonical presses that turn every vertex dark.

    Pressing vertex v adds 1 (mod ``states``; with two states: toggles) to v
    and to each of its neighbours; with ``self_toggle=False`` a press skips v
    itself.  The graph comes in one of three forms, each with its vertex order
    (the order of ``board`` and of the answer):

    * a **networkx** graph: ``list(G.nodes)`` order.  Directed graphs are
      refused (pass ``G.to_undirected()``), a MultiGraph is accepted only
      without parallel edges, self-loops are refused.  Node labels may be
      anything hashable: :meth:`Solution.press_list` reports them.
    * a **scipy.sparse** matrix or array, or a **dense** 2-D array-like
      adjacency matrix: row order.  Square; any nonzero (finite) entry is an
      edge; the pattern of nonzeros must be symmetric and the diagonal zero.
    * an **edge list**: a sequence of ``(u, v)`` int pairs or an ``(m, 2)``
      int array, vertices ``0..n-1`` with ``n = nvertices`` (default: one more
      than the largest endpoint).  Repeated edges count once.

    With ``nvertices=`` given, or as a list or tuple of tuples (``[(0, 1), (1, 2)]``,
    ``list(G.edges)``), the input is an edge list; otherwise a 2-D array-like
    is an adjacency matrix when square and an edge list when it has shape
    ``(m, 2)``, ``m != 2``.  So a 2 x 2 array or list of lists is a matrix:
    write a two-edge list as tuples or pass ``nvertices=``.

    Args:
        graph: a networkx graph, a scipy.sparse or dense adjacency matrix, or
            an edge list (the forms above).
        board: the lights: None (every vertex lit), one light state
            0..states-1 per vertex in vertex order, or a dict vertex -> state
            (vertices left out are dark).
        nvertices: the number of vertices of an edge list (default: one more
            than the largest endpoint); only for edge lists.
        self_toggle: True (a press changes its own vertex and its neighbours)
            or False (the sigma rule: only the neighbours).
        states: the number of light states k, 2..255: a press adds 1 mod k.
        minimal: the fewest presses instead of the canonical solution, as in
            :func:`lightsout.solve`.
        time_limit: for ``minimal=True``: seconds (>= 0) after which the best
            solution found so far is returned, with ``proven_minimal=False``.
        executor: for ``minimal=True``: a ``concurrent.futures.Executor`` to
            spread the search over.
        method: "auto", "forcing" (generalised light chasing through a greedy
            zero-forcing set: the unknowns are the presses of the forcing set
            alone) or "elimination" (the whole n x n system); the two give the
            same answer (:ref:`section 7 of the algebra page <algebra-7>`).
        threads: the most threads this call works on, as for
            :func:`lightsout.solve`: the fewest-presses search uses them (the
            forcing and elimination solves run on the calling thread).
        progress: None, or ``progress(stage, done, total)`` called between
            chunks of work, as for :func:`lightsout.solve`.
        lit: the deprecated name of ``board`` (a DeprecationWarning).

    Returns:
        A :class:`lightsout.Solution`: ``presses`` has one entry per vertex in
        vertex order (bool for two states, counts 0..k-1 otherwise), the
        lexicographically smallest solution; ``count`` and ``nullity`` describe
        all of them; ``press_list()`` gives the vertices to press (networkx
        node labels for a networkx graph).

    Raises:
        UnsolvableError: no presses turn the vertices dark; carries a quiet
            pattern that proves it.
        InvalidTypeError, InvalidBoardError: an input outside the accepted
            forms, saying what is accepted.
        BoardTooLargeError: the solve would need more than 2 GiB
            (``lightsout.limits.MAX_GRAPH_BYTES``); the vertices alone allow at
            most 33,554,432 (64 bytes each), checked before anything is
            allocated.

    Examples:
        >>> import networkx as nx
        >>> from lightsout import solve_graph
        >>> s = solve_graph(nx.cycle_graph(5))                  # all lit: press every vertex
        >>> s.presses.astype(int).tolist(), s.nullity, s.count
        ([1, 1, 1, 1, 1], 0, 1)
        >>> solve_graph(nx.path_graph(["a", "b", "c"]), {"a": 1, "b": 1}).press_list()
        ['a']
        >>> solve_graph([(0, 1), (1, 2)], states=3).presses.tolist()     # three states: press 1 twice
        [0, 2, 0]
        >>> solve_graph([(0, 1), (1, 2)], [1, 0, 0], self_toggle=False)
        Traceback (most recent call last):
        ...
        lightsout.UnsolvableError: this 3-vertex graph cannot be turned dark: ...

    References:
        Wang, Xu & Zhou, "Lights Out on graphs", arXiv:2208.09731 (the forcing reduction).
    """
    if lit is not None:
        if board is not None:
            raise InvalidTypeError("solve_graph takes the lights as board (lit= is its deprecated name), not both")
        warnings.warn("solve_graph(lit=...) is deprecated: pass the lights as board= (or second), as elsewhere",
                      DeprecationWarning, stacklevel=2)
        board = lit
    toggle = flag(self_toggle, "self_toggle")
    minimal = flag(minimal, "minimal")
    k = states_count(states)
    how = method_name(method, _METHODS)
    threads = thread_count(threads)
    progress_callback(progress)
    g = graph_csr(graph, nvertices=nvertices)
    lights = graph_lights(board, g.n, k, g.nodes)
    rules = GraphRules(g.indptr, g.indices, toggle, k)
    route = route_for(how, rules)
    if progress is not None:
        progress("solve_graph", 0, 1)
    found = route.solve(rules, lights, threads=threads, progress=progress, kernel=True)
    if progress is not None:
        progress("solve_graph", 1, 1)
    solution = solution_from_coset(found, rules, lights, nodes=g.nodes)
    if minimal:
        return solution.minimal(time_limit=time_limit, executor=executor, progress=progress, threads=threads)
    return solution


def __getattr__(name: str) -> object:
    """``lightsout.graph.METHODS``, deprecated: the methods are one list, ``lightsout.METHODS``.

    Example:
        >>> import warnings
        >>> import lightsout.graph
        >>> with warnings.catch_warnings():
        ...     warnings.simplefilter("ignore", DeprecationWarning)
        ...     lightsout.graph.METHODS
        ('auto', 'forcing', 'elimination')
    """
    if name == "METHODS":
        warnings.warn("lightsout.graph.METHODS is deprecated: lightsout.METHODS lists every method= name, and "
                      "solve_graph takes 'auto', 'forcing' or 'elimination' of them", DeprecationWarning,
                      stacklevel=2)
        return ("auto", "forcing", "elimination")
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
