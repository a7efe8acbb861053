"""Lights Out on any graph: ``solve_graph`` and the conversion of graph inputs.

Pressing vertex v adds 1 (mod ``states``; with two states: toggles) to v and
to each of its neighbours; with ``self_toggle=False`` (the sigma rule) a press
skips v itself.  On a directed graph (a one-way rule) a press changes v and its
successors.  A solution gives each vertex a press count 0..k-1.

Accepted graphs, and the vertex order of ``board`` and of the answer:

* a **networkx** graph (networkx is an optional dependency, never imported
  here unless the caller already has): ``list(G.nodes)`` order.  A ``DiGraph``
  is a directed graph (``graph_csr`` refuses it unless ``directed=True``); a MultiGraph is accepted
  only without parallel edges (two edges between the same vertices would
  make a press toggle a neighbour twice, which no rule here means); self-loops
  are refused.  Node labels may be anything hashable: :meth:`Solution.press_list`
  reports them.
* a **scipy.sparse** matrix or array, or a **dense** 2-D array-like adjacency
  matrix: row order.  Square; any nonzero (finite) entry (u, v) is an edge
  u -> v and the diagonal zero; a symmetric pattern is an undirected graph,
  any other a directed one (``graph_csr`` refuses it unless ``directed=True``).
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
``unpressable`` and ``free_lights`` (vertices that may not be pressed, lights that need
not end dark) are a bool per vertex in vertex order or a collection of vertices.

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
import warnings
from typing import Optional

import numpy as np

from lightsout._base.errors import InvalidBoardError, InvalidTypeError, UnsolvableError
from lightsout._base.types import Progress
from lightsout._base.validate import flag, method_name, progress_callback, states_count, thread_count
from lightsout._core.graphinput import GraphCSR, graph_lights, graph_mask, to_csr
from lightsout._core.graphrules import GraphRules
from lightsout._routes.forcing import refuse_graph
from lightsout._routes.registry import METHODS as _METHODS
from lightsout._routes.registry import route_for
from lightsout._solution import Solution, solution_from_coset

__all__ = ["GraphCSR", "graph_csr", "solve_graph"]


def graph_csr(graph: object, *, nvertices: Optional[int] = None, directed: bool = False) -> GraphCSR:
    """Convert and check a graph in any accepted form (module docstring) to CSR neighbour lists.

    Args:
        graph: a networkx graph, a scipy.sparse or dense adjacency matrix, or an edge list.
        nvertices: the number of vertices of an edge list (only for edge lists).
        directed: accept a directed graph (a networkx DiGraph, or an adjacency matrix
            whose pattern is not symmetric, entry (u, v) the edge u -> v): the lists are
            then each vertex's successors and ``GraphCSR.directed`` is True (False for a
            symmetric pattern).  Default False: refused, as before.

    Returns:
        A :class:`GraphCSR`.

    Raises:
        InvalidTypeError: not one of the accepted forms, or entries that are
            not numbers (matrices) or ints (edge lists).
        InvalidBoardError: a directed graph or parallel edges, self-loops, a
            non-symmetric or non-square matrix, vertex numbers out of range, no
            vertices.
        BoardTooLargeError: a graph whose solve would pass ``lightsout.limits.MAX_GRAPH_BYTES``
            from its vertices alone (or a dense adjacency matrix's scan), before it is converted.

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
    return to_csr(graph, nvertices, refuse=refuse_graph, directed=directed)


def solve_graph(graph: object, board: object = None, *, nvertices: Optional[int] = None, self_toggle: bool = True,
                states: int = 2, minimal: bool = False, time_limit: Optional[float] = None,
                executor: Optional[concurrent.futures.Executor] = None, method: str = "auto", threads: Optional[int] = None,
                progress: Progress = None, lit: object = None, unpressable: object = None,
                free_lights: object = None) -> Solution:
    """Solve Lights Out on a graph: the canonical presses that turn every vertex dark.

    Pressing vertex v adds 1 (mod ``states``; with two states: toggles) to v
    and to each of its neighbours; with ``self_toggle=False`` a press skips v
    itself.  On a directed graph (a one-way rule) a press changes v and its
    successors (the heads of its edges).  The graph comes in one of three
    forms, each with its vertex order (the order of ``board`` and of the answer):

    * a **networkx** graph: ``list(G.nodes)`` order.  A ``DiGraph`` is a
      directed graph; a MultiGraph is accepted only without parallel edges,
      self-loops are refused.  Node labels may be anything hashable:
      :meth:`Solution.press_list` reports them.
    * a **scipy.sparse** matrix or array, or a **dense** 2-D array-like
      adjacency matrix: row order.  Square; any nonzero (finite) entry (u, v)
      is an edge u -> v, the diagonal zero; a symmetric pattern is an
      undirected graph, any other a directed one.
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
            alone; on a directed graph or with masks each light forces the last
            press reaching it) or "elimination" (the whole n x n system); the
            two give the same answer (:ref:`section 7 of the algebra page <algebra-7>`).
            "auto" forces when the forcing set is small, else eliminates.
        threads: the most threads this call works on, as for
            :func:`lightsout.solve`: the fewest-presses search uses them (the
            forcing and elimination solves run on the calling thread).
        progress: None, or ``progress(stage, done, total)`` called between
            chunks of work, as for :func:`lightsout.solve`.
        lit: the deprecated name of ``board`` (a DeprecationWarning).
        unpressable: the vertices that may not be pressed: None, a bool per
            vertex in vertex order, or a collection of vertices (networkx node
            labels, or vertex numbers for the other forms).
        free_lights: the lights that need not end dark, given the same ways.

    Returns:
        A :class:`lightsout.Solution`: ``presses`` has one entry per vertex in
        vertex order (bool for two states, counts 0..k-1 otherwise), the
        lexicographically smallest solution; ``count`` and ``nullity`` describe
        all of them; ``press_list()`` gives the vertices to press (networkx
        node labels for a networkx graph).

    Raises:
        UnsolvableError: no presses turn the vertices dark; carries the proof
            (``.proof``: a quiet pattern meeting the lights nonzero; on a directed
            graph or with masks, weights on the required lights whose weighted sum
            no allowed press changes and the lights' is not 0).
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
        >>> solve_graph(nx.DiGraph([(0, 1), (1, 2)]), [0, 1, 1]).presses.astype(int).tolist()   # one-way edges
        [0, 1, 0]
        >>> solve_graph(nx.path_graph(["a", "b", "c"]), unpressable={"b"}, free_lights={"b"}).press_list()
        ['a', 'c']

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
    g = graph_csr(graph, nvertices=nvertices, directed=True)
    lights = graph_lights(board, g.n, k, g.nodes)
    rules = GraphRules(g.indptr, g.indices, toggle, k, g.directed, graph_mask(unpressable, g.n, "unpressable", g.nodes),
                       graph_mask(free_lights, g.n, "free_lights", g.nodes))
    route = route_for(how, rules)
    if progress is not None:
        progress("solve_graph", 0, 1)
    found = route.solve(rules, lights, threads=threads, progress=progress, kernel=True)
    if progress is not None:
        progress("solve_graph", 1, 1)
    try:
        solution = solution_from_coset(found, rules, lights, nodes=g.nodes)
    except UnsolvableError as exc:
        exc.method = found.method  # "forcing" or "elimination", as Solution.method
        raise
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
