"""The result type of every solve: :class:`Solution`.

A Solution holds the canonical presses of a board, its rules (one frozen value), and what
is known of the board's other solutions (the quiet patterns, kept whole, packed, by first
rows, or made on request).  It reaches the fewest-presses search, the counts up to symmetry
and the drawings through the floors below; ``lightsout/_solution/fromcoset.py`` makes it
from what a route found.
"""
from __future__ import annotations

import concurrent.futures
import math
import os
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any, Optional, Union

import numpy as np

from lightsout._base.errors import BoardTooLargeError, InternalError, InvalidBoardError, InvalidTypeError
from lightsout._base.packing import pack_row, pack_rows, unpack_row, unpack_rows
from lightsout._base.types import Progress
from lightsout._base.validate import flag, states_count, torus_axes
from lightsout._core.graphrules import GraphRules
from lightsout._core.modring import howell_form
from lightsout._core.rules import Rules
from lightsout._io.boardfile import write_board
from lightsout._io.drawing import notebook_bundle, plot_board, solution_picture
from lightsout import _kernels as kernels
from lightsout._routes.registry import packed_quiet_basis, quiet_generators
from lightsout._search.minimal import minimal_solution
from lightsout._search.symmetry import count_orbits
from lightsout._solution.rulesymmetry import count_orbits_general
from lightsout import board as _board
from lightsout.board import TorusArg

__all__ = ["Solution", "MAX_PATTERN_CELLS", "PackedBoard"]

#: Most cells an error or :meth:`Solution.quiet_patterns` materialises as quiet
#: patterns (bool, one byte a cell): 10**8, 100 MB.
MAX_PATTERN_CELLS = 10**8


class PackedBoard:
    """A two-state 2-D board kept as packed rows until someone reads it."""

    __slots__ = ("words", "ncols")

    def __init__(self, words: np.ndarray, ncols: int) -> None:
        self.words, self.ncols = words, ncols


class _BoardField:
    """``Solution.board``: an array, or a :class:`PackedBoard` unpacked (once) on first read.

    solve() packs a big 2-D board in one checked pass anyway; keeping those words
    spares it writing a second full-size copy that few callers ever read.
    """

    slot = "_board"

    def __get__(self, obj: Any, objtype: Optional[type] = None) -> Any:
        if obj is None:
            return self
        value = obj.__dict__[self.slot]
        if isinstance(value, PackedBoard):
            value = unpack_rows(value.words, value.ncols)
            obj.__dict__[self.slot] = value
        return value

    def __set__(self, obj: Any, value: Union[np.ndarray, PackedBoard]) -> None:
        obj.__dict__[self.slot] = value


@dataclass(frozen=True, eq=False, repr=False, init=False)
class Solution:
    """A way to turn a board dark, with what is known about all the others.

    Attributes:
        board: the start state (bool for two states, uint8 light states
            otherwise; the board's shape, or one value per vertex for a graph).
        presses: the canonical solution, the board's shape and dtype: 1 (or a
            count 1..k-1) = press that cell.
        nullity: the fewest quiet patterns that generate all the others (the
            dimension of the quiet-pattern space when k is prime); the board
            has :attr:`count` solutions, ``presses`` plus any quiet pattern.
        method: the route that found it ("poly", "dense", "nd", "forcing" or
            "elimination").
        quiet_first_rows: the first row (slice 0 along axis 0) of every
            generator in :meth:`quiet_patterns`, shape ``(r,) + shape[1:]``.
            On an open 2-D two-state board the first row determines the pattern.
            None when the patterns were too large to build with the solution
            (more than ``EAGER_PATTERN_BYTES``; :meth:`quiet_patterns` builds them).
        rules: the board's rules as one frozen value: for a grid the ``Rules``
            every route received (``shape``, ``wraps``, ``self_toggle``,
            ``states``), for a graph its ``GraphRules`` (the neighbour lists,
            ``self_toggle``, ``states``).  :attr:`states`, :attr:`torus`,
            :attr:`self_toggle` and :attr:`adjacency` read it.
        nodes: for a graph given as a networkx graph, its nodes in vertex order.
        quiet_count: the exact number of quiet patterns (None: ``2**nullity``).
        quiet_generators: (r, cells) generators of the quiet patterns, cells
            flattened in row-major order (None on the 2-D routes, which keep
            only first rows, and where the patterns would pass
            ``EAGER_PATTERN_BYTES``: :meth:`quiet_patterns` builds them then).
        proven_minimal: True when ``presses`` is proven to have the fewest
            presses of all solutions (:meth:`minimal`, ``solve(minimal=True)``);
            False when that was not searched or the search was cut short.
        quiet_words: for a two-state graph (or a grid solved by a graph route),
            the quiet-pattern basis as packed rows (see :meth:`packed_quiet_patterns`); else None.
        lower_bound: after a fewest-press search (:meth:`minimal`), a proven lower
            bound on the fewest presses of this board: equal to the presses of
            ``presses`` when ``proven_minimal``, below them when a time limit cut the
            search short (:attr:`gap`); None when no such search ran.

    The constructor also takes the rules as the loose values ``states``, ``torus``,
    ``self_toggle`` and (for a graph) ``adjacency``, in the places they had before they
    became one value, ``rules``.

    Examples:
        >>> import lightsout
        >>> s = lightsout.solve([[1, 1, 0], [1, 0, 0], [0, 0, 0]])
        >>> s.presses.astype(int).tolist(), s.count, s.verify()
        ([[1, 0, 0], [0, 0, 0], [0, 0, 0]], 1, True)
        >>> s
        Solution(shape=(3, 3), presses=1, nullity=0, method='poly')
        >>> lightsout.solve([[0, 1], [1, 1]], states=3).press_list()
        [((1, 1), 2)]
        >>> t = lightsout.solve(lightsout.all_lit(4, 5), torus=(True, False))
        >>> t.rules.shape, t.torus, t.self_toggle, t.states
        ((4, 5), (True, False), True, 2)
    """

    board: np.ndarray  # a _BoardField (set below the class)
    presses: np.ndarray
    nullity: int
    method: str
    quiet_first_rows: Optional[np.ndarray] = field(repr=False)
    rules: Union[Rules, GraphRules]
    nodes: Optional[list[Any]] = None
    quiet_count: Optional[int] = field(default=None, repr=False)
    quiet_generators: Optional[np.ndarray] = field(default=None, repr=False)
    proven_minimal: bool = False
    quiet_words: Optional[np.ndarray] = field(default=None, repr=False)
    lower_bound: Optional[int] = None

    def __init__(self, board: Union[np.ndarray, PackedBoard], presses: np.ndarray, nullity: int, method: str,
                 quiet_first_rows: Optional[np.ndarray], states: Optional[int] = None,
                 torus: Optional[TorusArg] = None, self_toggle: Optional[bool] = None,
                 nodes: Optional[list[Any]] = None, quiet_count: Optional[int] = None,
                 quiet_generators: Optional[np.ndarray] = None,
                 adjacency: Optional[tuple[np.ndarray, np.ndarray]] = None, proven_minimal: bool = False,
                 quiet_words: Optional[np.ndarray] = None, *, rules: Union[Rules, GraphRules, None] = None,
                 lower_bound: Optional[int] = None) -> None:
        if rules is None:
            rules = _loose_rules(board, states, torus, self_toggle, adjacency)
        elif not (states is None and torus is None and self_toggle is None and adjacency is None):
            raise InvalidTypeError("Solution takes the rules as rules= or as states, torus, self_toggle and "
                                   "adjacency, not both")
        for name, value in (("board", board), ("presses", presses), ("nullity", nullity), ("method", method),
                            ("quiet_first_rows", quiet_first_rows), ("rules", rules), ("nodes", nodes),
                            ("quiet_count", quiet_count), ("quiet_generators", quiet_generators),
                            ("proven_minimal", proven_minimal), ("quiet_words", quiet_words),
                            ("lower_bound", lower_bound)):
            object.__setattr__(self, name, value)

    def __setstate__(self, state: dict[str, Any]) -> None:
        """Unpickle, also a Solution pickled while its rules were loose fields."""
        if "rules" not in state:
            board = state.get("_board")
            loose = [state.pop(name, None) for name in ("states", "torus", "self_toggle", "adjacency")]
            state["rules"] = _loose_rules(board, *loose)
        self.__dict__.update(state)

    @property
    def states(self) -> int:
        """The number of light states k (a press adds 1 mod k), read from ``rules.states``.

        Example:
            >>> import lightsout
            >>> lightsout.solve([[0, 1], [1, 1]], states=3).states
            3
        """
        return self.rules.states

    @property
    def torus(self) -> tuple[bool, ...]:
        """One bool per axis, True where that axis wraps around (``rules.wraps``; empty for a graph).

        Example:
            >>> import lightsout
            >>> lightsout.solve(lightsout.all_lit(3, 4), torus=(True, False)).torus
            (True, False)
        """
        return self.rules.wraps

    @property
    def self_toggle(self) -> bool:
        """False for the sigma game, where a press skips its own cell (``rules.self_toggle``).

        Example:
            >>> import lightsout
            >>> lightsout.solve([[0, 1], [1, 0]], self_toggle=False).self_toggle
            False
        """
        return self.rules.self_toggle

    @property
    def adjacency(self) -> Optional[tuple[np.ndarray, np.ndarray]]:
        """For a graph, its CSR neighbour lists ``(indptr, indices)`` (from its rules); None for a grid.

        Example:
            >>> import lightsout
            >>> indptr, indices = lightsout.solve_graph([(0, 1), (1, 2)]).adjacency
            >>> indptr.tolist(), indices.tolist()
            ([0, 1, 3, 4], [1, 0, 2, 1])
        """
        return self.rules.adjacency if isinstance(self.rules, GraphRules) else None

    @property
    def is_graph(self) -> bool:
        """Whether this solves a graph (:func:`lightsout.solve_graph`), with one value per vertex and no axes.

        Example:
            >>> import lightsout
            >>> lightsout.solve_graph([(0, 1), (1, 2)]).is_graph, lightsout.solve([[1, 1]]).is_graph
            (True, False)
        """
        return isinstance(self.rules, GraphRules)

    @property
    def directed(self) -> bool:
        """Whether this solves a directed graph, a one-way rule (a press changes its vertex and its successors).

        Example:
            >>> import lightsout, networkx as nx
            >>> lightsout.solve_graph(nx.DiGraph([(0, 1)]), [1, 1]).directed, lightsout.solve([[1, 1]]).directed
            (True, False)
        """
        return isinstance(self.rules, GraphRules) and self.rules.directed

    def __repr__(self) -> str:
        rules = "" if self.states == 2 else f", states={self.states}"
        if any(self.torus):
            rules += f", torus={self.torus if not all(self.torus) else True}"
        if not self.self_toggle and not (isinstance(self.rules, Rules) and self.rules.stencil is not None):
            rules += ", self_toggle=False"
        if isinstance(self.rules, Rules):
            if self.rules.stencil is not None:
                rules += f", stencil={self.rules.stencil!r}"
            for name, mask in zip(("holes", "unpressable", "free_lights"), self.rules.masks()):
                if mask is not None:
                    rules += f", {name}={int(mask.sum())}"
        else:
            if self.rules.directed:
                rules += ", directed=True"
            for name, mask in zip(("unpressable", "free_lights"), self.rules.masks()):
                if mask is not None:
                    rules += f", {name}={int(mask.sum())}"
        if self.proven_minimal:
            rules += ", proven_minimal=True"
        elif self.lower_bound is not None:
            rules += f", lower_bound={self.lower_bound}"
        where = f"vertices={len(self.board)}" if self.is_graph else f"shape={self.board.shape}"
        return (f"Solution({where}, presses={int(self.presses.sum(dtype=np.int64))}, "
                f"nullity={self.nullity}{rules}, method={self.method!r})")

    __str__ = __repr__

    @property
    def shape(self) -> tuple[int, ...]:
        """The board's shape.

        Example:
            >>> import lightsout
            >>> lightsout.solve(lightsout.all_lit(2, 3)).shape
            (2, 3)
        """
        return tuple(self.board.shape)

    def _grid_rules(self) -> Rules:
        """The grid board's rules (a graph's solution has none)."""
        if not isinstance(self.rules, Rules):
            raise InternalError("a graph's solution has no grid rules")
        return self.rules

    @property
    def first_row(self) -> np.ndarray:
        """Presses of the top row (slice 0 along axis 0); on open boards chasing from it gives ``presses``.

        Example:
            >>> import lightsout
            >>> s = lightsout.solve(lightsout.all_lit(3))
            >>> s.first_row.astype(int).tolist(), bool((lightsout.chase(s.board, s.first_row) == s.presses).all())
            ([1, 0, 1], True)
        """
        row: np.ndarray = self.presses[0].copy()
        return row

    @property
    def count(self) -> int:
        """Number of distinct solutions, an exact Python int (``2**nullity`` for two states).

        Example:
            >>> import lightsout
            >>> lightsout.solve(lightsout.all_lit(19)).count          # nullity 16
            65536
            >>> lightsout.solve([[0] * 5] * 5, states=3).count       # nullity 3 over GF(3)
            27
        """
        return (1 << self.nullity) if self.quiet_count is None else self.quiet_count

    def press_list(self) -> list[Any]:
        """The cells to press, in row-major order: index tuples, or ``(index, count)`` pairs when k > 2.

        For a graph the entries are vertex indices (networkx node labels when
        the graph was a networkx graph).

        Examples:
            >>> import lightsout
            >>> lightsout.solve([[1, 1, 0], [1, 0, 0], [0, 0, 0]]).press_list()
            [(0, 0)]
            >>> lightsout.solve([1, 2, 2, 1], states=3).press_list()
            [((1,), 2), ((2,), 2)]
        """
        cells = np.argwhere(self.presses)  # row-major order
        if self.is_graph:
            labels = self.nodes if self.nodes is not None else list(range(len(self.board)))
            keys: list[Any] = [labels[int(i)] for i in cells[:, 0]]
        else:
            keys = [tuple(int(i) for i in cell) for cell in cells]
        if self.states == 2:
            return keys
        return [(key, int(self.presses[tuple(cell)])) for key, cell in zip(keys, cells)]

    def quiet_patterns(self) -> np.ndarray:
        """Generators of the quiet patterns: (r,) + shape; each changes no light.

        For two states (and any prime k) they are a basis, r = nullity; for
        other k every quiet pattern is a combination of them mod k.  Refuses
        (BoardTooLargeError) to build more than ``MAX_PATTERN_CELLS`` cells;
        ``quiet_first_rows`` holds the same basis in O(nullity * C) on 2-D boards.

        Example:
            >>> import lightsout, numpy as np
            >>> lightsout.solve(np.ones((4, 4), dtype=bool)).quiet_patterns().shape
            (4, 4, 4)
        """
        generators = self.quiet_generators
        if generators is None and self.quiet_words is not None:  # a graph's basis, kept packed
            generators = unpack_rows(self.quiet_words, self.board.size).view(np.uint8)
        if generators is None and not (self.quiet_first_rows is not None and self._grid_rules().is_plain_grid):
            generators = quiet_generators(self._grid_rules())  # not built with the solution: too large then
        if generators is not None:
            out = generators.reshape((-1,) + self.board.shape)
            return out.astype(bool) if self.states == 2 else out.copy()
        assert self.quiet_first_rows is not None  # the 2-D routes always keep the first rows
        nrows, ncols = self.board.shape
        cells = len(self.quiet_first_rows) * nrows * ncols
        if cells > MAX_PATTERN_CELLS:
            raise BoardTooLargeError(
                f"{len(self.quiet_first_rows)} quiet patterns of {nrows} x {ncols} cells are {cells:.3g} cells, "
                f"over the limit of {MAX_PATTERN_CELLS:.3g} (lightsout.limits.MAX_PATTERN_CELLS); chase single rows "
                f"of .quiet_first_rows "
                f"down the dark board (lightsout.chase) instead")
        return _quiet_patterns(self.board.shape, self.quiet_first_rows)

    def packed_quiet_patterns(self) -> np.ndarray:
        """A basis of the quiet patterns as packed rows, one bit a cell: ``(nullity, words)`` uint64.

        Two states only.  Cell j, in row-major order (vertex j of a graph), is
        bit ``j % 64`` of word ``j // 64``, :mod:`lightsout.packed`'s layout,
        with ``words = words_for_bits(cells)``.  The rows are the patterns of
        :meth:`quiet_patterns` where that can build them; beyond its limit the
        N-D route chases a basis of the same space, 64 patterns at a time, so
        the whole basis costs an eighth of the bytes: the 128 patterns of the
        all-lit 10,000 x 10,000 torus take 1.6 GB (plus 0.8 GB while chasing).

        Raises:
            InvalidBoardError: more than two states (use :meth:`quiet_patterns`).
            BoardTooLargeError: the packed basis would pass 2 GiB.

        Example:
            >>> import lightsout, numpy as np
            >>> from lightsout.packed import unpack
            >>> s = lightsout.solve(np.ones((4, 4), dtype=bool))
            >>> words = s.packed_quiet_patterns()
            >>> words.shape, words.dtype.name
            ((4, 1), 'uint64')
            >>> bool((unpack(words, 16).reshape(4, 4, 4) == s.quiet_patterns()).all())
            True
        """
        if self.states != 2:
            raise InvalidBoardError(f"packed quiet patterns are bits, for two states; this board has "
                                    f"{self.states} (quiet_patterns() gives them as counts)")
        if self.quiet_words is not None:
            return self.quiet_words.copy()
        if self.quiet_generators is not None or self.is_graph or (
                self.quiet_first_rows is not None and self.nullity * self.board.size <= MAX_PATTERN_CELLS):
            return pack_rows(self.quiet_patterns().reshape(self.nullity, self.board.size))
        return packed_quiet_basis(self._grid_rules())

    def all(self) -> Iterator[np.ndarray]:
        """Every solution, lazily: ``count`` arrays of the board's shape, the canonical one first.

        Consecutive solutions differ by one quiet-pattern generator (a Gray
        code: for two states one XOR of packed words a step; for k states the
        mixed-radix reflected Gray code over the Howell generators, whose
        coefficients each run over ``0 .. k/pivot - 1``), so the iterator costs
        O(cells) a step and holds two boards.

        Example:
            >>> import lightsout, numpy as np
            >>> s = lightsout.solve(np.ones((5, 5), dtype=int))
            >>> sorted(int(x.sum()) for x in s.all())
            [15, 15, 15, 15]
        """
        patterns = self.quiet_patterns().reshape(-1, self.board.size)
        shape = self.board.shape
        if self.states == 2:
            words = pack_row(self.presses.ravel())
            steps = pack_rows(patterns)
            yield self.presses.copy()
            for index in range(1, 1 << len(steps)):
                words ^= steps[(index & -index).bit_length() - 1]
                yield unpack_row(words, self.board.size).reshape(shape)
            return
        k = self.states
        rows = howell_form(patterns.astype(np.uint8), k) if len(patterns) else patterns.astype(np.uint8)
        radices = [k // math.gcd(int(row[np.flatnonzero(row)[0]]), k) for row in rows]
        current = self.presses.astype(np.int64).ravel()
        yield self.presses.copy()
        for digit, direction in _reflected_gray_moves(radices):
            current = (current + direction * rows[digit].astype(np.int64)) % k
            yield current.astype(np.uint8).reshape(shape)

    def minimal(self, *, time_limit: Optional[float] = None, executor: Optional[concurrent.futures.Executor] = None,
                progress: Progress = None, threads: Optional[int] = None,
                checkpoint: Union[str, "os.PathLike[str]", None] = None) -> "Solution":
        """The solution of this board with the fewest presses, proven (the search of :func:`lightsout.fewest_presses`).

        Ties go to the lexicographically smallest press vector.  ``time_limit``
        (seconds >= 0): the search stops then and returns the best found so far,
        with ``proven_minimal=False``.  Either way the result's ``lower_bound``
        is a proven lower bound on the fewest presses (equal to the presses found when
        proven) and :attr:`gap` the distance between them; a ``progress`` callable that
        takes a ``bounds`` keyword gets ``bounds=(lower, best)`` as the search goes.  ``executor``, ``threads`` and ``progress``
        mean what they mean for :func:`lightsout.solve` (``threads=1``: the search
        runs in the calling thread alone).  ``checkpoint``: a file path where the search
        (two states) keeps where it stands, and from which a later call resumes it, as
        for :func:`lightsout.fewest_presses`.

        Example:
            >>> import lightsout, numpy as np
            >>> s = lightsout.solve(np.ones((5, 5), dtype=int)).minimal()
            >>> int(s.presses.sum()), s.proven_minimal
            (15, True)
        """
        return minimal_solution(self, time_limit=time_limit, executor=executor, progress=progress, threads=threads,
                                checkpoint=checkpoint)

    @property
    def gap(self) -> Optional[int]:
        """How many presses ``presses`` may hold above the fewest, their number minus ``lower_bound``.

        0 when ``proven_minimal``; None when no fewest-press search ran.

        Example:
            >>> import lightsout, numpy as np
            >>> s = lightsout.solve(np.ones((5, 5), dtype=int))
            >>> s.gap is None, s.minimal().gap, s.minimal().lower_bound
            (True, 0, 15)
        """
        if self.lower_bound is None:
            return None
        return int(self.presses.sum(dtype=np.int64)) - self.lower_bound

    def count_up_to_symmetry(self, group: Optional[Iterable[Any]] = None) -> int:
        """Number of solutions counted up to symmetry: the orbits of the solutions under a group.

        Two solutions are the same up to symmetry when a symmetry of the board
        maps one onto the other.  Counted with Burnside's lemma, as the mean
        over the group of the solutions each symmetry fixes, without listing
        the solutions (:ref:`section 10 of the algebra page <algebra-10>`).

        Args:
            group: permutations of the cells that generate the group (its
                closure is taken), each an array of flat cell indices in
                row-major order, ``image[i]`` = where cell i goes (either
                direction gives the same group), or for a networkx graph a
                dict from node to node.  Each must map neighbours to
                neighbours and keep every light.  None (default): the board's
                own symmetries that keep its lights: each axis reversed or not
                and equal axes exchanged (the square's 8, a rectangle's 4, a
                cube's 48; a torus's translations are not included:
                :func:`lightsout.board_symmetries` adds them), or every
                automorphism of a graph (needs networkx; of a directed graph, those
                keeping every edge's direction; of a graph with unpressable vertices or
                free lights, those keeping the marks too, two states only).  With a press
                stencil or masks on a grid: every reversal of an axis and exchange of
                equal-length axes, wrapping or not, that keeps the stencil's press matrix,
                the masks and the lights (a one-way rule keeps fewer).

        Returns:
            The number of orbits, an exact Python int (1 <= it <= :attr:`count`).

        Raises:
            InvalidBoardError: an element is not a permutation of the cells or
                not a symmetry of the board.
            InvalidTypeError: ``group`` is not a sequence of permutations.
            BoardTooLargeError: more than 65,536 symmetries, or the group's
                elements would take more than 1 GiB.

        Examples:
            >>> import lightsout, numpy as np
            >>> s = lightsout.solve(lightsout.all_lit(4))      # 16 solutions
            >>> s.count, s.count_up_to_symmetry()
            (16, 5)
            >>> flip = np.arange(16).reshape(4, 4)[:, ::-1]     # the left-right mirror alone
            >>> s.count_up_to_symmetry(group=[flip])
            10
        """
        lights = np.asarray(self.board).astype(np.uint8).ravel()
        marks = None
        if isinstance(self.rules, GraphRules) and self.rules.masked:
            if self.states != 2:
                raise InvalidBoardError("count_up_to_symmetry counts the solutions of graphs with masks (unpressable "
                                        "vertices, free lights) with two states; this one has "
                                        f"{self.states}: solve it without masks, or count self.solutions()")
            marks = (~self.rules.pressable_cells()).astype(np.int64) + 2 * (~self.rules.required_lights())
        if isinstance(self.rules, Rules) and not self.rules.is_classic:
            return count_orbits_general(self.rules, lights, self.count, group)
        return count_orbits(
            self.presses.astype(np.uint8).ravel(), lights, shape=self.board.shape, wraps=self.torus,
            self_toggle=self.self_toggle, states=self.states, count=self.count, adjacency=self.adjacency,
            nodes=self.nodes, quiet_words=self.packed_quiet_patterns, group=group, directed=self.directed,
            marks=marks)

    def save(self, path: Any) -> None:
        """Write the presses as a board file (:func:`lightsout.write_board`): the name's extension picks the format.

        ``.npy`` holds any number of axes, ``.png`` a picture one pixel a cell
        (white = press; k states: grey levels), any other name text (``1`` =
        press; k states: press counts).  :func:`lightsout.read_board` reads it
        back, with ``states=`` for k states.

        Example:
            >>> import lightsout, os, pathlib, tempfile
            >>> s = lightsout.solve(lightsout.all_lit(3))
            >>> path = os.path.join(tempfile.mkdtemp(), "presses.txt")
            >>> s.save(path)
            >>> print(pathlib.Path(path).read_text(), end="")
            101
            010
            101
            >>> bool((lightsout.read_board(path) == s.presses).all())
            True
        """
        write_board(path, self.presses, self.states)

    def verify(self) -> bool:
        """True when replaying ``presses`` on ``board`` turns every light off.

        ``solve`` has already checked this once; the method replays the presses again, for
        a solution that was pickled, copied or built by hand.

        Example:
            >>> import lightsout
            >>> lightsout.solve(lightsout.all_lit(6, 9), torus=True).verify()
            True
        """
        if self.adjacency is not None:  # a graph: CSR neighbour lists
            indptr, indices = self.adjacency
            counts = self.presses.astype(np.int64)
            owners = np.repeat(np.arange(len(counts)), np.diff(indptr))
            if isinstance(self.rules, GraphRules) and self.rules.directed:  # a press changes its successors
                owners, indices = indices, owners
            total = self.board.astype(np.int64) + np.bincount(owners, weights=counts[indices],
                                                              minlength=len(counts)).astype(np.int64)
            if self.self_toggle:
                total += counts
            if isinstance(self.rules, GraphRules) and self.rules.masked:  # no press off the pressable, free lights
                return not (counts[~self.rules.pressable_cells()].any()
                            or (total % self.states)[self.rules.required_lights()].any())
            return not (total % self.states).any()
        rules = self._grid_rules()
        if not rules.is_classic:  # a stencil or masks: the required lights end dark, no press off the board
            if self.presses[~rules.pressable_cells()].any():
                return False
            lights = np.asarray(self.board)
            after = _board.press_checked(lights, np.asarray(self.presses).astype(lights.dtype), rules)
            return not after[rules.required_lights()].any()
        after = _board.press(self.board, self.presses, torus=self.torus, self_toggle=self.self_toggle,
                             states=self.states)
        return not after.any()

    # Pictures (lightsout/_io/drawing.py): a notebook shows a solution as one picture of its board with
    # the presses marked (SVG when small, PNG up to 4M cells); graphs and boards of 3 axes or
    # more show only the text repr.
    def _repr_mimebundle_(self, include: Any = None, exclude: Any = None) -> dict[str, str]:
        return notebook_bundle(repr(self), solution_picture(self))

    def plot(self, ax: Optional[Any] = None) -> Any:
        """Draw the board with the presses marked on a matplotlib Axes (a new figure's if None).

        Needs matplotlib (the ``plot`` extra: ``pip install 'lightsout-gf2[plot]'``);
        1-D and 2-D boards only.  Returns the Axes.

        Example:
            >>> import lightsout
            >>> ax = lightsout.solve([[1, 1], [1, 0]]).plot()  # doctest: +SKIP
        """
        if self.is_graph:
            raise InvalidBoardError("Solution.plot draws grid boards; draw a graph with networkx.draw")
        holes, unpressable, free_lights = self.rules.masks() if isinstance(self.rules, Rules) else (None, None, None)
        return plot_board(self.board, self.presses, states=self.states, ax=ax, holes=holes, unpressable=unpressable,
                          free_lights=free_lights)


# Installed after the class so that the dataclass sees a plain field without a default.
setattr(Solution, "board", _BoardField())


def _loose_rules(board: Union[np.ndarray, PackedBoard, None], states: Optional[int], torus: Optional[TorusArg],
                 self_toggle: Optional[bool], adjacency: Optional[tuple[np.ndarray, np.ndarray]]) -> Union[
                     Rules, GraphRules]:
    """The rules value of a Solution given its rules loose (the constructor's older arguments)."""
    states = 2 if states is None else states_count(states)
    self_toggle = True if self_toggle is None else flag(self_toggle, "self_toggle")
    if adjacency is not None:
        indptr, indices = adjacency
        return GraphRules(np.asarray(indptr, dtype=np.int64), np.asarray(indices, dtype=np.int32), self_toggle, states)
    if isinstance(board, PackedBoard):
        shape: tuple[int, ...] = (board.words.shape[0], board.ncols)
    else:
        shape = tuple(np.asarray(board).shape)
    wraps = (False,) * len(shape) if torus is None or (not any(np.ravel(torus))) else torus_axes(torus, len(shape))
    return Rules(shape, wraps, self_toggle, states)


def _reflected_gray_moves(radices: list[int]) -> Iterator[tuple[int, int]]:
    """The moves (digit, +1 or -1) of the reflected mixed-radix Gray code through every digit vector.

    Starting from all zeros, each move changes one digit by one, and the moves
    visit each of the ``prod(radices)`` vectors exactly once (Knuth, TAOCP
    7.2.1.1, the loopless reflected code, here with plain loops).
    """
    digits = [0] * len(radices)
    going_up = [True] * len(radices)
    total = math.prod(radices)
    for _ in range(total - 1):
        for place in range(len(radices)):  # the lowest digit that can still move in its direction
            if radices[place] == 1:
                continue
            if going_up[place] and digits[place] < radices[place] - 1:
                digits[place] += 1
                yield place, 1
                break
            if not going_up[place] and digits[place] > 0:
                digits[place] -= 1
                yield place, -1
                break
            going_up[place] = not going_up[place]


def _quiet_pattern(nrows: int, ncols: int, first: np.ndarray) -> np.ndarray:
    """The quiet pattern (bool, nrows x ncols) whose first row is ``first``: one chase of the dark board."""
    _, presses, _ = kernels.chase.chase(None, nrows, ncols, pack_row(first), all_lit=False,
                                                    presses=True)
    assert presses is not None
    return unpack_rows(presses, ncols)


def _quiet_patterns(shape: tuple[int, int], quiet_first_rows: np.ndarray) -> np.ndarray:
    nrows, ncols = shape
    out = np.zeros((len(quiet_first_rows), nrows, ncols), dtype=bool)
    for i, row in enumerate(quiet_first_rows):
        out[i] = _quiet_pattern(nrows, ncols, row)
    return out
