"""The board model of a graph: its neighbour lists and rules, and a grid seen as a graph.

A board is a graph whose vertices are the lights: pressing a vertex changes it (under the
plus rule) and its neighbours.  :class:`GraphRules` is a graph's counterpart of
:class:`lightsout._core.rules.Rules`, the value the graph route (``lightsout/_routes/forcing.py``)
receives: the graph as CSR neighbour lists (the neighbours of v are
``indices[indptr[v]:indptr[v + 1]]``, symmetric, no self-loops, no repeats, checked where
the call came in) with the press rule and the number of states.  A grid is a graph too:
:meth:`GraphRules.of_grid` gives its neighbour lists (cells in C order), from
:func:`neighbour_table`, the table the N-D route chases slices with.

Example:
    >>> rules = GraphRules.of_grid(Rules.check((2, 3)))
    >>> rules.vertices, rules.indptr.tolist(), rules.indices.tolist()
    (6, [0, 2, 5, 7, 9, 12, 14], [1, 3, 0, 2, 4, 1, 5, 0, 4, 1, 3, 5, 2, 4])
    >>> rules.describe()
    'a 6-vertex graph with 7 edges, self_toggle=True, states=2'
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Optional, Sequence

import numpy as np
import numpy.typing as npt

from lightsout._core.rules import Rules

__all__ = ["GraphRules", "neighbour_table"]


@dataclass(frozen=True, eq=False)
class GraphRules:
    """A graph's neighbour lists and rules: the value the graph route receives.

    Attributes:
        indptr: ``(n + 1,)`` int64 and indices: int32, the neighbour lists in CSR form.
        self_toggle: a press changes its own vertex too (False: the sigma rule).
        states: the number of light states k, 2..255 (a press adds 1 mod k).
        directed: the lists are successors (a press at v changes v's successors, a
            one-way rule: the press matrix is not symmetric); False: neighbours both ways.
        unpressable: None, or ``(n,)`` bool: True for a vertex that may not be pressed.
        free_lights: None, or ``(n,)`` bool: True for a light that need not end dark.

    It reads like :class:`~lightsout._core.rules.Rules` where that makes sense (``shape``
    is ``(n,)``, no axis wraps, ``cells`` is n); equal when the graphs and rules are.

    Example:
        >>> import numpy as np
        >>> path = GraphRules(np.array([0, 1, 3, 4]), np.array([1, 0, 2, 1], dtype=np.int32))
        >>> path.shape, path.wraps, path.cells, path.adjacency[1].tolist()
        ((3,), (), 3, [1, 0, 2, 1])
        >>> masked = GraphRules(path.indptr, path.indices, free_lights=np.array([True, False, False]))
        >>> masked.masked, masked.required_lights().tolist(), masked == path
        (True, [False, True, True], False)
    """

    indptr: npt.NDArray[np.int64]
    indices: npt.NDArray[np.int32]
    self_toggle: bool = True
    states: int = 2
    directed: bool = False
    unpressable: Optional[npt.NDArray[np.bool_]] = None
    free_lights: Optional[npt.NDArray[np.bool_]] = None

    @classmethod
    def of_grid(cls, rules: Rules) -> "GraphRules":
        """A grid board's rules as a graph: its cells (C order) and their neighbour lists.

        Example:
            >>> GraphRules.of_grid(Rules.check((4,), torus=True)).indices.tolist()
            [1, 3, 0, 2, 1, 3, 0, 2]
        """
        table = neighbour_table(rules.shape, rules.wraps)[:, ::-1]  # each row: unused -1s, then increasing
        used = table >= 0
        indptr = np.zeros(rules.cells + 1, dtype=np.int64)
        np.cumsum(used.sum(axis=1), out=indptr[1:])
        return cls(indptr, np.ascontiguousarray(table[used], dtype=np.int32), rules.self_toggle, rules.states)

    @property
    def vertices(self) -> int:
        """The number of vertices."""
        return int(self.indptr.shape[0]) - 1

    @property
    def shape(self) -> tuple[int, ...]:
        """``(vertices,)``: the shape of the lights, one per vertex."""
        return (self.vertices,)

    @property
    def wraps(self) -> tuple[bool, ...]:
        """No axis wraps: a graph has none."""
        return ()

    @property
    def cells(self) -> int:
        """The number of lights (vertices)."""
        return self.vertices

    @property
    def is_plain_grid(self) -> bool:
        """False: a graph is not a board of the 2-D grid routes."""
        return False

    @property
    def light_dtype(self) -> np.dtype:
        """bool for two states, else uint8 (as :attr:`lightsout._core.rules.Rules.light_dtype`)."""
        return np.dtype(bool) if self.states == 2 else np.dtype(np.uint8)

    @property
    def adjacency(self) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int32]]:
        """The neighbour lists ``(indptr, indices)``."""
        return self.indptr, self.indices

    @property
    def masked(self) -> bool:
        """Whether some vertex may not be pressed or some light need not end dark."""
        return self.unpressable is not None or self.free_lights is not None

    def masks(self) -> tuple[Optional[npt.NDArray[np.bool_]], Optional[npt.NDArray[np.bool_]]]:
        """``(unpressable, free_lights)``, each None or an ``(n,)`` bool array (a graph has no holes)."""
        return (self.unpressable, self.free_lights)

    def pressable_cells(self) -> npt.NDArray[np.bool_]:
        """True for every vertex that may be pressed (as :meth:`Rules.pressable_cells`)."""
        return np.ones(self.vertices, dtype=bool) if self.unpressable is None else ~self.unpressable

    def required_lights(self) -> npt.NDArray[np.bool_]:
        """True for every light that must end dark (as :meth:`Rules.required_lights`)."""
        return np.ones(self.vertices, dtype=bool) if self.free_lights is None else ~self.free_lights

    def describe(self) -> str:
        """The graph in words, for messages."""
        if self.directed:
            text = (f"a {self.vertices}-vertex directed graph with {len(self.indices)} edges, "
                    f"self_toggle={self.self_toggle}, states={self.states}")
        else:
            text = (f"a {self.vertices}-vertex graph with {len(self.indices) // 2} edges, "
                    f"self_toggle={self.self_toggle}, states={self.states}")
        for name, mask in zip(("unpressable", "free_lights"), self.masks()):
            if mask is not None:
                text += f", {int(mask.sum())} {name.replace('_', ' ')}"
        return text

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, GraphRules):
            return NotImplemented
        return (self.self_toggle == other.self_toggle and self.states == other.states
                and self.directed == other.directed and np.array_equal(self.indptr, other.indptr)
                and np.array_equal(self.indices, other.indices)
                and all(_same_mask(a, b) for a, b in zip(self.masks(), other.masks())))

    def __hash__(self) -> int:
        return hash((self.vertices, len(self.indices), self.self_toggle, self.states,
                     tuple(0 if mask is None else int(mask.sum()) for mask in self.masks())))


def _same_mask(a: Optional[npt.NDArray[np.bool_]], b: Optional[npt.NDArray[np.bool_]]) -> bool:
    """Two masks mean the same: None is a mask of False everywhere."""
    if a is None or b is None:
        return not ((a is not None and a.any()) or (b is not None and b.any()))
    return bool(np.array_equal(a, b))


def neighbour_table(shape: Sequence[int], wraps: Optional[Sequence[bool]] = None) -> npt.NDArray[np.int32]:
    """The neighbours of every cell of a board (or slice), as an ``(cells, maxdeg)`` int32 table.

    Row i lists the C-order numbers of the other cells one step from cell i
    along an axis (wrapping on the axes ``wraps`` marks; None: none wraps), as a set: the cell itself never,
    a cell reached twice once.  Unused entries are -1, after the used ones.
    ``maxdeg`` is at least 1; an empty shape (one cell) has no neighbours.

    Example:
        >>> neighbour_table((2, 3)).tolist()
        [[3, 1, -1], [4, 2, 0], [5, 1, -1], [4, 0, -1], [5, 3, 1], [4, 2, -1]]
        >>> neighbour_table((3,), (True,)).tolist()
        [[2, 1], [2, 0], [1, 0]]
        >>> neighbour_table(()).tolist()
        [[-1]]
    """
    dims = tuple(int(s) for s in shape)
    wraps = (False,) * len(dims) if wraps is None else tuple(wraps)
    cells = math.prod(dims)
    index = np.arange(cells, dtype=np.int32).reshape(dims)
    columns = []
    for axis, (size, wrap) in enumerate(zip(dims, wraps)):
        if size == 1:
            continue
        for step in (1, -1):
            if wrap and size > 2:  # length <= 2: the wrap reaches a cell already counted (or itself)
                other = np.roll(index, -step, axis=axis)
            else:
                other = np.full(dims, -1, dtype=np.int32)
                src = [slice(None)] * len(dims)
                dst = [slice(None)] * len(dims)
                src[axis] = slice(1, None) if step == 1 else slice(0, -1)
                dst[axis] = slice(0, -1) if step == 1 else slice(1, None)
                other[tuple(dst)] = index[tuple(src)]
            columns.append(other.reshape(cells))
    if not columns:
        return np.full((cells, 1), -1, dtype=np.int32)
    table = np.sort(np.stack(columns, axis=1), axis=1)[:, ::-1]  # -1 last
    used = max(1, int((table >= 0).sum(axis=1).max()))
    return np.ascontiguousarray(table[:, :used], dtype=np.int32)
