"""Every route behind one small protocol, and the registry the entry points choose from.

Every route turns a board of checked rules (a grid's :class:`~lightsout._core.rules.Rules`
or a graph's :class:`~lightsout._core.graphrules.GraphRules`) into a
:class:`~lightsout._core.coset.Coset`.  The entry points (``lightsout/_solve.py`` for grids,
``lightsout/graph.py`` for graphs) take a route with :func:`route_for`: the one :data:`ROUTES`
names (``method=``, one of :data:`METHODS`), or for ``"auto"`` the first of
:data:`AUTO_ORDER` that accepts the board; and they ask it only what :class:`Route`
declares: does it accept these rules, what would it refuse, what is the nullity, what is
the coset.  A route's budget lives in its module; the entry point asks :meth:`Route.refuse`
once, before any work (before it checks or copies a board), and ``nullity`` and ``solve``
trust it.

The graph routes (``lightsout/_routes/forcing.py``: generalised light chasing, or the whole
system eliminated) take grids of today's rule too, cell by cell, as the graph the presses make:
a fourth and fifth answer the tests hold the grid routes to.

Which route takes what:

* "poly", "dense": open 2-D two-state grids with the plus rule and no mask (``Rules.is_plain_grid``).
* "nd": grids of today's rule (the plus rule or the sigma game), any axes, wraps and states,
  no mask (``Rules.is_classic``).
* "stencilchase" (``lightsout/_routes/stencilchase.py``): every grid whose wrapping axes are
  at least as long as the stencil along them: any stencil, holes, unpressable cells, free
  lights; light chasing carried to any stencil, memory following the chasing front.
* "general" (``lightsout/_routes/general.py``): every grid: any stencil, holes, unpressable
  cells, free lights; the whole system written out and eliminated.
* "forcing", "elimination": graphs, and grids of today's rule.

``"auto"`` keeps every board of today's rule on the route it had (answers bit for bit as
before) and sends a board with a stencil or a mask to "stencilchase", or, where a wrapping
axis is shorter than the stencil, to "general".

Example:
    >>> from lightsout._core.rules import Rules
    >>> rules = Rules.check((5, 5))
    >>> [name for name, route in ROUTES.items() if route.accepts(rules)]
    ['poly', 'dense', 'nd', 'forcing', 'elimination', 'stencilchase', 'general']
    >>> [ROUTES[name].nullity(rules, threads=1) for name in ROUTES]
    [2, 2, 2, 2, 2, 2, 2]
    >>> route_for("auto", rules).name, route_for("auto", Rules.check((5, 5), torus=True)).name
    ('poly', 'nd')
    >>> route_for("auto", Rules.check((5, 5), stencil="knight")).name
    'stencilchase'
    >>> route_for("auto", Rules.check((4, 4), torus=True, stencil="knight")).name   # wraps shorter than 5
    'general'
    >>> ROUTES["dense"].refuse(Rules.of_grid(10**6, 10**6), solving=False)
    Traceback (most recent call last):
    ...
    lightsout.BoardTooLargeError: the dense route for a 1000000 x 1000000 board needs about 3.13e+16 word operations ...
"""
from __future__ import annotations

from dataclasses import replace
from typing import Optional, Protocol, Union

import numpy as np

from lightsout._base.errors import InvalidBoardError
from lightsout._base.packing import pack_rows, unpack_rows
from lightsout._base.types import Progress
from lightsout._base.validate import method_name
from lightsout._core.canonical import canonical_coset
from lightsout._core.coset import Coset
from lightsout._core.graphrules import GraphRules
from lightsout._core.rules import Rules
from lightsout._routes.dense import refuse_dense, solve_grid_dense
from lightsout._routes.forcing import refuse_graph, solve_graph_linear, solve_masked
from lightsout._routes.general import refuse_general, solve_general
from lightsout._routes.nd import canonical_nd, nullity_nd, quiet_basis_words, refuse_nd
from lightsout._routes.poly import nullity_poly, polynomial_work, refuse_poly, solve_grid_poly
from lightsout._routes.rowchase import solve_rowchase
from lightsout._routes.separable import separable_factors, separable_invertible, solve_separable
from lightsout._routes.stencilchase import chase_stencil, refuse_chase, wrapped_reach

__all__ = ["AUTO_ORDER", "BoardRules", "METHODS", "ROUTES", "Route", "packed_quiet_basis", "quiet_generators",
           "route_for"]

#: The rules of what a route solves: a grid's or a graph's.
BoardRules = Union[Rules, GraphRules]


class Route(Protocol):
    """What an entry point asks of a route.

    ``lights`` is the checked board of ``rules.shape`` (bool for two states,
    uint8 otherwise; one value a vertex for a graph), or None for the all-lit
    board, which a route never needs to build when it can do without; ``words``
    the same board as packed rows, when the caller has them.
    """

    name: str
    #: What the route solves, in words, for the refusal of a board it does not accept.
    solves: str

    def accepts(self, rules: BoardRules) -> bool:
        """Whether the route solves boards with these rules."""
        ...

    def refuse(self, rules: BoardRules, *, solving: bool, board_given: bool = False) -> None:
        """Raise BoardTooLargeError, naming the limit, for a run past the route's budget; no work is done.

        ``solving``: a solve (else the nullity alone); ``board_given``: a board comes with
        it (else the all-lit board, which a route never builds).
        """
        ...

    def nullity(self, rules: BoardRules, *, threads: Optional[int] = None, progress: Progress = None) -> int:
        """The nullity of the board's press matrix."""
        ...

    def solve(self, rules: BoardRules, lights: Optional[np.ndarray], words: Optional[np.ndarray] = None, *,
              threads: Optional[int] = None, progress: Progress = None, kernel: bool = True) -> Coset:
        """The board's coset.

        ``kernel=True``: the coset carries its quiet basis (in its layout, eagerly or made on
        demand) and, when the board is unsolvable, what proves it; ``kernel=False``: the caller
        needs only whether the board is solvable (and a solution), so the route may leave both out.
        """
        ...


def _packed(lights: Optional[np.ndarray], words: Optional[np.ndarray]) -> Optional[np.ndarray]:
    """The board as packed rows (None: the all-lit board)."""
    if words is not None or lights is None:
        return words
    return pack_rows(lights)


class _PlainGridRoute:
    """A route of open 2-D two-state grids with the plus rule (``Rules.is_plain_grid``)."""

    solves = "open 2-D two-state boards with the plus rule"

    def accepts(self, rules: BoardRules) -> bool:
        return rules.is_plain_grid


class PolyRoute(_PlainGridRoute):
    """Open 2-D two-state grids through GF(2)[t] (``lightsout/_routes/poly.py``): O(C) memory.

    Its quiet basis always comes on demand (``Coset.kernel_words``, O(C / 64) words a row), which
    is what ``kernel=True`` asks and costs nothing when it is not read.
    """

    name = "poly"

    def refuse(self, rules: BoardRules, *, solving: bool, board_given: bool = False) -> None:
        # no board to solve: the all-lit board, whose first row (no wider than tall) has its own budget
        first_row = solving and not board_given and rules.shape[1] <= rules.shape[0]
        refuse_poly(max(rules.shape), nullity_shape=None if solving else (rules.shape[0], rules.shape[1]),
                    first_row=first_row)

    def nullity(self, rules: BoardRules, *, threads: Optional[int] = None, progress: Progress = None) -> int:
        assert isinstance(rules, Rules)
        nrows, ncols = rules.shape
        with polynomial_work(threads, max(nrows, ncols)):
            return nullity_poly(nrows, ncols)

    def solve(self, rules: BoardRules, lights: Optional[np.ndarray], words: Optional[np.ndarray] = None, *,
              threads: Optional[int] = None, progress: Progress = None, kernel: bool = True) -> Coset:
        assert isinstance(rules, Rules)
        nrows, ncols = rules.shape
        with polynomial_work(threads, max(nrows, ncols)):
            return solve_grid_poly(nrows, ncols, _packed(lights, words), progress=progress)


class DenseRoute(_PlainGridRoute):
    """Open 2-D two-state grids by the A/B iteration and elimination (``lightsout/_routes/dense.py``)."""

    name = "dense"

    def refuse(self, rules: BoardRules, *, solving: bool, board_given: bool = False) -> None:
        refuse_dense(rules.shape[0], rules.shape[1], board_given)

    def nullity(self, rules: BoardRules, *, threads: Optional[int] = None, progress: Progress = None) -> int:
        assert isinstance(rules, Rules)
        nrows, ncols = rules.shape
        return solve_grid_dense(nrows, ncols, threads=threads, progress=progress).nullity

    def solve(self, rules: BoardRules, lights: Optional[np.ndarray], words: Optional[np.ndarray] = None, *,
              threads: Optional[int] = None, progress: Progress = None, kernel: bool = True) -> Coset:
        assert isinstance(rules, Rules)
        board = _packed(lights, words)
        nrows, ncols = rules.shape
        return solve_grid_dense(nrows, ncols, board, kernel=kernel, threads=threads, progress=progress)


class NDRoute:
    """Any number of axes, wraps per axis, the sigma rule, k states (``lightsout/_routes/nd.py``).

    Its coset is the canonical solution, its proof when unsolvable, and the quiet basis
    made on demand (``Coset.kernel_batches``), since the whole patterns can be large.
    """

    name = "nd"
    solves = "grid boards of the plus rule or the sigma game without masks"

    def accepts(self, rules: BoardRules) -> bool:
        return isinstance(rules, Rules) and rules.is_classic

    def refuse(self, rules: BoardRules, *, solving: bool, board_given: bool = False) -> None:
        assert isinstance(rules, Rules)
        refuse_nd(rules, expand=solving)

    def nullity(self, rules: BoardRules, *, threads: Optional[int] = None, progress: Progress = None) -> int:
        assert isinstance(rules, Rules)
        return nullity_nd(rules, threads=threads, progress=progress)[0]

    def solve(self, rules: BoardRules, lights: Optional[np.ndarray], words: Optional[np.ndarray] = None, *,
              threads: Optional[int] = None, progress: Progress = None, kernel: bool = True) -> Coset:
        assert isinstance(rules, Rules)
        if lights is None and words is not None:
            lights = unpack_rows(words, rules.shape[-1]).reshape(rules.shape)
        values = None if lights is None else np.ascontiguousarray(lights, dtype=np.uint8)
        return canonical_nd(rules, values, kernel=kernel, threads=threads, progress=progress)


class GeneralRoute:
    """Every grid board: any stencil, holes, unpressable cells, free lights (``lightsout/_routes/general.py``).

    Its coset is whole press vectors (0 on the cells that may not be pressed), the quiet
    basis on the pressable cells, and when unsolvable the left-kernel proof: a weighting of
    the required lights that no allowed press changes and the board does not sum to 0 under.
    """

    name = "general"
    solves = "grid boards (any stencil and masks)"

    def accepts(self, rules: BoardRules) -> bool:
        return isinstance(rules, Rules)

    def refuse(self, rules: BoardRules, *, solving: bool, board_given: bool = False) -> None:
        assert isinstance(rules, Rules)
        refuse_general(rules)

    def nullity(self, rules: BoardRules, *, threads: Optional[int] = None, progress: Progress = None) -> int:
        assert isinstance(rules, Rules)
        return solve_general(rules, np.zeros(rules.cells, dtype=np.uint8), kernel=False).nullity

    def solve(self, rules: BoardRules, lights: Optional[np.ndarray], words: Optional[np.ndarray] = None, *,
              threads: Optional[int] = None, progress: Progress = None, kernel: bool = True) -> Coset:
        assert isinstance(rules, Rules)
        if lights is None and words is not None:
            lights = unpack_rows(words, rules.shape[-1]).reshape(rules.shape)
        found = solve_general(rules, lights, kernel=kernel)
        if not kernel:
            return found
        board = np.ones(rules.cells, dtype=np.uint8) if lights is None else np.asarray(lights, np.uint8).ravel()
        return canonical_coset(found, board, rules.states) if found.solvable else replace(found, canonical=True)


class StencilChaseRoute:
    """Grid boards of any stencil and masks by the windowed chase (``lightsout/_routes/stencilchase.py``).

    It takes every grid board whose wrapping axes are at least as long as the stencil's reach
    along them, the pressed cell included (there no two weights of one press meet on a cell); today's rule on a wrapping
    axis of length 1 or 2 is chased as the open axis it equals.  A solve (``kernel=True``)
    chases in the caller's axis order and returns the smallest solution; the nullity and
    ``kernel=False`` chase along the axis that leaves the fewest unknowns.
    """

    name = "stencilchase"
    solves = "grid boards whose wrapping axes are at least as long as the stencil along them"

    def accepts(self, rules: BoardRules) -> bool:
        if not isinstance(rules, Rules):
            return False
        weights, centre = _chase_stencil(rules)
        reach = wrapped_reach(np.argwhere(weights != 0) - np.array(centre))
        return all(not wrap or size >= extent for wrap, size, extent in zip(rules.stencil_wraps, rules.shape, reach))

    def refuse(self, rules: BoardRules, *, solving: bool, board_given: bool = False) -> None:
        assert isinstance(rules, Rules)
        weights, centre = _chase_stencil(rules)
        refuse_chase(rules.shape, rules.stencil_wraps, weights, centre, rules.states)

    def nullity(self, rules: BoardRules, *, threads: Optional[int] = None, progress: Progress = None) -> int:
        assert isinstance(rules, Rules)
        factors = _separable(rules)
        if factors is not None and separable_invertible(rules.shape, factors):
            return 0
        if _row_chased(rules):
            found = solve_rowchase(np.zeros(rules.shape, np.uint8), rules.press_stencil, kernel=False,
                                   canonical=False, threads=threads, progress=progress)
            if found is not None:
                return found.nullity
        return self._chase(rules, np.zeros(rules.cells, dtype=np.uint8), kernel=False, canonical=False,
                           threads=threads, progress=progress).nullity

    def solve(self, rules: BoardRules, lights: Optional[np.ndarray], words: Optional[np.ndarray] = None, *,
              threads: Optional[int] = None, progress: Progress = None, kernel: bool = True) -> Coset:
        assert isinstance(rules, Rules)
        if lights is None and words is not None:
            lights = unpack_rows(words, rules.shape[-1]).reshape(rules.shape)
        board = None if lights is None else np.ascontiguousarray(lights, dtype=np.uint8).reshape(rules.shape)
        factors = _separable(rules)
        if factors is not None:  # a product of one operator per axis: inverted axis by axis when it can be
            presses = solve_separable(np.ones(rules.shape, np.uint8) if board is None else board, factors)
            if presses is not None:
                return Coset(True, 0, 1, self.name, canonical=True, particular=presses.reshape(-1).view(np.uint8),
                             kernel=np.zeros((0, rules.cells), dtype=np.uint8))
        if _row_chased(rules):  # a forcing row inverted in linear time: whole rows chased, up x columns unknowns
            found = solve_rowchase(np.ones(rules.shape, np.uint8) if board is None else board, rules.press_stencil,
                                   kernel=kernel, canonical=kernel, threads=threads, progress=progress)
            if found is not None:
                return found
        return self._chase(rules, board, kernel=kernel, canonical=kernel, threads=threads, progress=progress)

    @staticmethod
    def _chase(rules: Rules, lights: Optional[np.ndarray], *, kernel: bool, canonical: bool,
               threads: Optional[int], progress: Progress) -> Coset:
        weights, centre = _chase_stencil(rules)
        if lights is not None:
            lights = lights.reshape(rules.shape)
        return chase_stencil(rules.shape, rules.stencil_wraps, weights, centre, rules.states, lights,
                             rules.pressable_cells(), rules.required_lights(), kernel=kernel, canonical=canonical,
                             threads=threads, progress=progress)


def _separable(rules: Rules) -> Optional[list[tuple[int, ...]]]:
    """The per-axis factors of an open two-state board without masks whose stencil is an outer product, else None
    (``lightsout/_routes/separable.py``)."""
    masked = any(mask is not None for mask in rules.masks())
    if rules.states != 2 or rules.stencil is None or masked or any(rules.stencil_wraps):
        return None
    return separable_factors(rules.stencil)


def _row_chased(rules: Rules) -> bool:
    """Whether the row chase (``lightsout/_routes/rowchase.py``) may take the board: two states, two axes,
    no masks, no wrapping axis (it then says itself whether the stencil's forcing row inverts)."""
    masked = any(mask is not None for mask in rules.masks())
    return rules.states == 2 and len(rules.shape) == 2 and not masked and not any(rules.stencil_wraps)


def _chase_stencil(rules: Rules) -> tuple[np.ndarray, tuple[int, ...]]:
    """The board's press stencil as the chase takes it: its weights (uint8) and centre."""
    stencil = rules.press_stencil
    return np.ascontiguousarray(stencil.weights, dtype=np.uint8), tuple(stencil.centre)


class GraphRoute:
    """Graphs, and grids as the graph their presses make (``lightsout/_routes/forcing.py``).

    ``mode`` is how it solves: "forcing" (generalised light chasing through a greedy
    forcing set), "elimination" (the whole system), or "auto" (the forcing plan decides:
    the graphs' choice for ``method="auto"``).  A one-way rule or masks go through
    :func:`~lightsout._routes.forcing.solve_masked` (its proof the left kernel's).  Its coset
    is whole press vectors, made canonical here when the quiet basis is asked for.
    """

    def __init__(self, mode: str) -> None:
        self.mode = self.name = mode
        grids = "grid boards of the plus rule or the sigma game without masks"
        self.solves = f"graphs and {grids}"

    def accepts(self, rules: BoardRules) -> bool:
        if isinstance(rules, Rules):
            return rules.is_classic
        return True

    def refuse(self, rules: BoardRules, *, solving: bool, board_given: bool = False) -> None:
        refuse_graph(rules.cells if isinstance(rules, Rules) else rules.vertices)

    def nullity(self, rules: BoardRules, *, threads: Optional[int] = None, progress: Progress = None) -> int:
        return self.solve(rules, np.zeros(rules.shape, dtype=np.uint8), kernel=False).nullity

    def solve(self, rules: BoardRules, lights: Optional[np.ndarray], words: Optional[np.ndarray] = None, *,
              threads: Optional[int] = None, progress: Progress = None, kernel: bool = True) -> Coset:
        if isinstance(rules, Rules):
            graph = GraphRules.of_grid(rules)
        else:
            graph = rules
        if lights is None and words is not None:
            lights = unpack_rows(words, rules.shape[-1])
        flat = (np.ones(graph.vertices, dtype=np.uint8) if lights is None
                else np.ascontiguousarray(lights, dtype=np.uint8).reshape(graph.vertices))
        if graph.directed or graph.masked:  # the press matrix restricted is not symmetric: left-kernel proof
            found = solve_masked(graph.vertices, graph.indptr, graph.indices, flat, self_toggle=graph.self_toggle,
                                 states=graph.states, pressable=graph.pressable_cells() if graph.masked else None,
                                 required=graph.required_lights() if graph.masked else None, method=self.mode,
                                 kernel=kernel)
            if not kernel:
                return found
            return canonical_coset(found, flat, graph.states) if found.solvable else replace(found, canonical=True)
        found = solve_graph_linear(graph.vertices, graph.indptr, graph.indices, flat, self_toggle=graph.self_toggle,
                                   states=graph.states, method=self.mode, kernel=kernel)
        return canonical_coset(found, flat, graph.states) if kernel else found


#: Every route by its ``method=`` name.
ROUTES: dict[str, Route] = {"poly": PolyRoute(), "dense": DenseRoute(), "nd": NDRoute(),
                            "forcing": GraphRoute("forcing"), "elimination": GraphRoute("elimination"),
                            "stencilchase": StencilChaseRoute(), "general": GeneralRoute()}
#: The ``method=`` names: "auto" and every route of the registry.
METHODS = ("auto",) + tuple(ROUTES)
#: ``method="auto"`` takes the first of these that accepts the board: the polynomial route for open
#: 2-D two-state grids, the N-D route for the other grids of today's rule, the general route for
#: every other grid (a stencil or a mask), the forcing plan's choice for graphs.
AUTO_ORDER: tuple[Route, ...] = (ROUTES["poly"], ROUTES["nd"], ROUTES["stencilchase"], ROUTES["general"],
                                 GraphRoute("auto"))


def route_for(method: object, rules: BoardRules) -> Route:
    """The route for a board: the named one if it accepts the board, for "auto" the first that does.

    Raises:
        InvalidTypeError, InvalidBoardError: a method that is not one of :data:`METHODS`, or a
            route that does not solve this board (saying which do).

    Example:
        >>> route_for("dense", Rules.check((3, 3), torus=True))
        Traceback (most recent call last):
        ...
        lightsout.InvalidBoardError: method 'dense' solves open 2-D two-state boards with the plus rule only; ...
    """
    name = method_name(method, METHODS)
    if name == "auto":
        return next(route for route in AUTO_ORDER if route.accepts(rules))
    route = ROUTES[name]
    if not route.accepts(rules):
        others = ["'auto'"] + [f"'{other}'" for other, candidate in ROUTES.items() if candidate.accepts(rules)]
        raise InvalidBoardError(f"method {name!r} solves {route.solves} only; this board ({rules.describe()}) "
                                f"needs method={', '.join(others[:-1])} or {others[-1]}")
    return route


def quiet_generators(rules: Rules) -> np.ndarray:
    """Generators of the quiet patterns of a grid board, ``(r, cells)`` uint8 (cells in C order), by the N-D route.

    Example:
        >>> from lightsout import press
        >>> generators = quiet_generators(Rules.check((6,), torus=True))     # a ring of 6 lights
        >>> len(generators), [bool(press(np.zeros(6), pattern, torus=True).any()) for pattern in generators]
        (2, [False, False])
    """
    return ROUTES["nd"].solve(rules, np.zeros(rules.shape, dtype=np.uint8)).kernel_rows(rules.cells)


def packed_quiet_basis(rules: Rules) -> np.ndarray:
    """A basis of the quiet patterns of a two-state grid board as packed rows (the N-D route's
    :func:`lightsout._routes.nd.quiet_basis_words`: 64 patterns chased at a time).

    Example:
        >>> packed_quiet_basis(Rules.check((5, 5))).shape
        (2, 1)
    """
    return quiet_basis_words(rules)
