"""The grid routes behind one small protocol, and the registry the entry points choose from.

Every route turns a board of checked :class:`~lightsout._core.rules.Rules` into a
:class:`~lightsout._core.coset.Coset`.  ``lightsout/_solve.py`` takes a route from
:data:`ROUTES` by its name (``method=``), or for ``"auto"`` the first route of
:data:`AUTO_ORDER` that accepts the board, and asks it only what :class:`Route`
declares: does it accept these rules, what would it refuse, what is the nullity, what is
the coset.  A route's budget lives in its module; the entry point asks :meth:`Route.refuse`
once, before any work (before it checks or copies a board), and ``nullity`` and ``solve``
trust it.

Graphs have their own entry point (:func:`lightsout.solve_graph`, the forcing route of
``lightsout/_routes/forcing.py``), since what comes in is a graph, not a grid; it returns
the same :class:`~lightsout._core.coset.Coset`.

Example:
    >>> from lightsout._core.rules import Rules
    >>> rules = Rules.check((5, 5))
    >>> [name for name, route in ROUTES.items() if route.accepts(rules)]
    ['poly', 'dense', 'nd']
    >>> [ROUTES[name].nullity(rules, threads=1) for name in ROUTES]
    [2, 2, 2]
    >>> ROUTES["dense"].refuse(Rules.of_grid(10**6, 10**6), solving=False)
    Traceback (most recent call last):
    ...
    lightsout.BoardTooLargeError: the dense route for a 1000000 x 1000000 board needs about 3.13e+16 word operations ...
"""
from __future__ import annotations

from typing import Optional, Protocol

import numpy as np

from lightsout._base.packing import pack_rows, unpack_rows
from lightsout._base.types import Progress
from lightsout._core.coset import Coset
from lightsout._core.rules import Rules
from lightsout._routes.dense import refuse_dense, solve_grid_dense
from lightsout._routes.nd import canonical_nd, nullity_nd, refuse_nd
from lightsout._routes.poly import nullity_poly, refuse_poly, solve_grid_poly

__all__ = ["Route", "ROUTES", "AUTO_ORDER"]


class Route(Protocol):
    """What an entry point asks of a route.

    ``lights`` is the checked board of ``rules.shape`` (bool for two states,
    uint8 otherwise), or None for the all-lit board, which a route never needs
    to build; ``words`` the same board as packed rows, when the caller has them.
    """

    name: str

    def accepts(self, rules: Rules) -> bool:
        """Whether the route solves boards with these rules."""
        ...

    def refuse(self, rules: Rules, *, solving: bool, board_given: bool = False) -> None:
        """Raise BoardTooLargeError, naming the limit, for a run past the route's budget; no work is done.

        ``solving``: a solve (else the nullity alone); ``board_given``: a board comes with
        it (else the all-lit board, which a route never builds).
        """
        ...

    def nullity(self, rules: Rules, *, threads: Optional[int] = None, progress: Progress = None) -> int:
        """The nullity of the board's press matrix."""
        ...

    def solve(self, rules: Rules, lights: Optional[np.ndarray], words: Optional[np.ndarray] = None, *,
              threads: Optional[int] = None, progress: Progress = None, kernel: bool = True) -> Coset:
        """The board's coset; ``kernel=False``: the quiet basis is not needed (only solvability)."""
        ...


def _packed(lights: Optional[np.ndarray], words: Optional[np.ndarray]) -> Optional[np.ndarray]:
    """The board as packed rows (None: the all-lit board)."""
    if words is not None or lights is None:
        return words
    return pack_rows(lights)


class _PlainGridRoute:
    """A route of open 2-D two-state grids with the plus rule (``Rules.is_plain_grid``)."""

    def accepts(self, rules: Rules) -> bool:
        return rules.is_plain_grid


class PolyRoute(_PlainGridRoute):
    """Open 2-D two-state grids through GF(2)[t] (``lightsout/_routes/poly.py``): O(C) memory."""

    name = "poly"

    def refuse(self, rules: Rules, *, solving: bool, board_given: bool = False) -> None:
        refuse_poly(max(rules.shape))

    def nullity(self, rules: Rules, *, threads: Optional[int] = None, progress: Progress = None) -> int:
        nrows, ncols = rules.shape
        return nullity_poly(nrows, ncols)

    def solve(self, rules: Rules, lights: Optional[np.ndarray], words: Optional[np.ndarray] = None, *,
              threads: Optional[int] = None, progress: Progress = None, kernel: bool = True) -> Coset:
        # the quiet basis always comes lazily (kernel_words), so ``kernel`` costs nothing here
        nrows, ncols = rules.shape
        return solve_grid_poly(nrows, ncols, _packed(lights, words), progress=progress)


class DenseRoute(_PlainGridRoute):
    """Open 2-D two-state grids by the A/B iteration and elimination (``lightsout/_routes/dense.py``)."""

    name = "dense"

    def refuse(self, rules: Rules, *, solving: bool, board_given: bool = False) -> None:
        refuse_dense(rules.shape[0], rules.shape[1], board_given)

    def nullity(self, rules: Rules, *, threads: Optional[int] = None, progress: Progress = None) -> int:
        nrows, ncols = rules.shape
        return solve_grid_dense(nrows, ncols, threads=threads, progress=progress).nullity

    def solve(self, rules: Rules, lights: Optional[np.ndarray], words: Optional[np.ndarray] = None, *,
              threads: Optional[int] = None, progress: Progress = None, kernel: bool = True) -> Coset:
        board = _packed(lights, words)
        nrows, ncols = rules.shape
        return solve_grid_dense(nrows, ncols, board, kernel=kernel, threads=threads, progress=progress)


class NDRoute:
    """Any number of axes, wraps per axis, the sigma rule, k states (``lightsout/_routes/nd.py``).

    Its coset is the canonical solution alone, with its proof when unsolvable (``canonical_nd``):
    the quiet patterns, which can be large, are built only where a Solution keeps them.
    """

    name = "nd"

    def accepts(self, rules: Rules) -> bool:
        return True

    def refuse(self, rules: Rules, *, solving: bool, board_given: bool = False) -> None:
        refuse_nd(rules, expand=solving)

    def nullity(self, rules: Rules, *, threads: Optional[int] = None, progress: Progress = None) -> int:
        return nullity_nd(rules, threads=threads, progress=progress)[0]

    def solve(self, rules: Rules, lights: Optional[np.ndarray], words: Optional[np.ndarray] = None, *,
              threads: Optional[int] = None, progress: Progress = None, kernel: bool = True) -> Coset:
        if lights is None and words is not None:
            lights = unpack_rows(words, rules.shape[-1]).reshape(rules.shape)
        values = None if lights is None else np.ascontiguousarray(lights, dtype=np.uint8)
        return canonical_nd(rules, values, threads=threads, progress=progress)


#: Every grid route by its ``method=`` name.
ROUTES: dict[str, Route] = {"poly": PolyRoute(), "dense": DenseRoute(), "nd": NDRoute()}
#: ``method="auto"`` takes the first of these that accepts the board.
AUTO_ORDER = ("poly", "nd")
