"""Ready-made boards players know: the hexagon, the triangle and the surface of a cube.

Each function returns a :class:`ShapedBoard`, a frozen value holding the board
as a graph (one vertex a cell; a press changes its cell and the cells across
its edges), ready for :func:`lightsout.solve_graph`:

* :func:`hexagon`: a hexagon of side n made of hexagonal cells (3n(n-1)+1 of
  them); each cell's neighbours are the six around it.
* :func:`triangle`: a triangle of side n made of n**2 triangular cells, the
  neighbours across the edges (at most three); or, with ``tiles="hexagons"``,
  a triangle of side n made of n(n+1)/2 hexagonal cells (at most six
  neighbours each; circles in a triangle, each touching those around it).
* :func:`cube`: the surface of a cube with n x n cells a face (Lights Out
  Cube: 6n**2 cells, each with four neighbours, those across a face's edge on
  the next face).

A :class:`ShapedBoard` carries its cells' coordinates, its edges
(``board.edges``, an ``(m, 2)`` array for ``solve_graph``), its
symmetry group as cell permutations (:meth:`~ShapedBoard.symmetries`: the
hexagon's 12, the triangles' 6, the cube's 48) for
:meth:`lightsout.Solution.count_up_to_symmetry`, a picture
(:meth:`~ShapedBoard.svg`), and for the hexagonal-cell boards the same board
as a grid in axial coordinates with a press stencil and a holes mask
(``board.grid``, an :class:`AxialGrid` of plain numpy values).

Example:
    >>> import lightsout
    >>> board = lightsout.boards.hexagon(3)              # 19 hexagonal cells
    >>> s = lightsout.solve_graph(board.edges, nvertices=board.cells)   # all lit
    >>> s.verify(), s.count, s.count_up_to_symmetry(group=board.symmetries())
    (True, 8, 2)
    >>> len(board.symmetries())
    12
"""
from __future__ import annotations

import html
import itertools
import math
from dataclasses import dataclass
from typing import Any, Callable, Optional

import numpy as np
import numpy.typing as npt

from lightsout._base.errors import BoardTooLargeError, InvalidBoardError, InvalidTypeError
from lightsout._base.validate import board_size
from lightsout._io.drawing import DARK, GRID, LIT, MAX_SVG_CELLS, PRESS
from lightsout._routes.forcing import refuse_graph
from lightsout._search.symmetry import MAX_GROUP_CELLS
from lightsout._solution import Solution
from lightsout.graph import solve_graph

__all__ = ["AxialGrid", "ShapedBoard", "cube", "hexagon", "triangle"]

Ints = npt.NDArray[np.int64]
Floats = npt.NDArray[np.float64]
#: A symmetry acting on the coordinates: the new columns (a permutation of the old), then the columns
#: reflected, v -> mirror - v (the board's ``_mirror``: 0 for the hexagon's negation, 2n for the cube).
Move = tuple[tuple[int, ...], tuple[int, ...]]
#: The hexagonal neighbourhood in axial coordinates, axes (r, q): a press changes its cell and the
#: cells at (r, q) + (0, +-1), (+-1, 0), (-1, +1), (+1, -1).
HEX_STENCIL = np.array([[0, 1, 1], [1, 1, 1], [1, 1, 0]], dtype=np.uint8)
_SQRT3 = math.sqrt(3.0)


@dataclass(frozen=True, eq=False)
class AxialGrid:
    """A hexagonal-cell board as a grid in axial coordinates: a press stencil and a holes mask.

    Row r and column q of the grid are the axial coordinates of a cell (each
    row shifted half a cell from the last), so the six neighbours of (r, q)
    are the grid cells at (r, q +- 1), (r +- 1, q), (r - 1, q + 1) and
    (r + 1, q - 1), and pressing a cell adds ``weights[i]`` to the cell
    ``p + (i - centre)``: the stencil of every press is the same.  Cells of the
    box that are not part of the board are ``holes`` (neither lights nor
    buttons).  The board's cells are the grid's non-hole cells in row-major
    order, so a light vector of the :class:`ShapedBoard` and a grid convert
    with :meth:`to_grid` and :meth:`from_grid`.

    Attributes:
        weights: the press stencil, a 3 x 3 uint8 array (1: the press changes that cell).
        centre: the index of the pressed cell in ``weights``, (1, 1).
        holes: a bool array of the grid's shape, True where the box has no cell.

    Example:
        >>> from lightsout.boards import hexagon
        >>> grid = hexagon(2).grid
        >>> grid.weights.tolist(), grid.centre
        ([[0, 1, 1], [1, 1, 1], [1, 1, 0]], (1, 1))
        >>> grid.holes.astype(int).tolist()
        [[1, 0, 0], [0, 0, 0], [0, 0, 1]]
    """

    weights: npt.NDArray[np.uint8]
    centre: tuple[int, int]
    holes: npt.NDArray[np.bool_]

    @property
    def shape(self) -> tuple[int, ...]:
        """The grid's shape (rows, columns), holes included.

        Example:
            >>> from lightsout.boards import triangle
            >>> triangle(3, tiles="hexagons").grid.shape
            (3, 3)
        """
        return tuple(self.holes.shape)

    def to_grid(self, values: npt.ArrayLike) -> npt.NDArray[Any]:
        """One value a cell (the board's cell order) placed on the grid; holes hold 0.

        Example:
            >>> from lightsout.boards import triangle
            >>> triangle(2, tiles="hexagons").grid.to_grid([1, 2, 3]).tolist()
            [[0, 1], [2, 3]]
        """
        array = np.asarray(values)
        cells = int((~self.holes).sum())
        if array.ndim != 1 or array.shape[0] != cells:
            raise InvalidBoardError(f"to_grid takes one value per cell of the board ({cells}), got shape "
                                    f"{array.shape}")
        grid = np.zeros(self.holes.shape, dtype=array.dtype)
        grid[~self.holes] = array
        return grid

    def from_grid(self, grid: npt.ArrayLike) -> npt.NDArray[Any]:
        """The values of the grid's cells that are not holes, in the board's cell order.

        Example:
            >>> from lightsout.boards import triangle
            >>> triangle(2, tiles="hexagons").grid.from_grid([[0, 1], [2, 3]]).tolist()
            [1, 2, 3]
        """
        array = np.asarray(grid)
        if array.shape != self.holes.shape:
            raise InvalidBoardError(f"from_grid takes an array of the grid's shape {self.holes.shape}, got "
                                    f"{array.shape}")
        return array[~self.holes]


@dataclass(frozen=True, eq=False)
class ShapedBoard:
    """A ready-made board as a graph: its cells, their coordinates and neighbours, its symmetries.

    Made by :func:`hexagon`, :func:`triangle` and :func:`cube`.  Cells are
    numbered 0..cells-1; that order is the order of a board's lights and of a
    solution's presses.  Arrays are read-only.

    Attributes:
        name: what the board is, e.g. ``"hexagon of side 3"``.
        coordinates: an int64 array, one row a cell: for the hexagon the cube
            coordinates (q, r, s) with q + r + s = 0; for the triangles the
            three distances (a, b, c) from the sides, counted in rows (a
            triangular cell pointing up has a + b + c = n - 1, one pointing
            down n - 2; a hexagonal cell a + b + c = n - 1); for the cube the
            cell's centre (x, y, z) on the cube [0, 2n]**3 (one coordinate 0 or
            2n, the others odd).  Every symmetry of the board acts on them by
            permuting the columns (and, for the hexagon, negating all of them,
            for the cube, reflecting some: v -> 2n - v).
        edges: an int64 ``(m, 2)`` array, one row a pair of neighbours (u < v),
            sorted: the graph :func:`lightsout.solve_graph` takes with
            ``nvertices=cells``.
        positions: a float64 ``(cells, 2)`` array, each cell's centre in the
            plane (x right, y down, a cell about 1 across), for pictures; the
            cube is drawn as its net, a cross of six faces.
        grid: the board as an :class:`AxialGrid` (a stencil and holes) for the
            hexagonal-cell boards; None for the others (a triangular-cell board
            has two kinds of cells, pointing up and down, whose neighbours lie
            in different directions, so no one stencil describes it; the cube's
            faces meet at angles no flat grid has).

    Example:
        >>> from lightsout.boards import cube
        >>> board = cube(1)                 # six faces of one cell: the octahedron's graph
        >>> board.cells, len(board.edges), board.degrees().tolist()
        (6, 12, [4, 4, 4, 4, 4, 4])
    """

    name: str
    coordinates: Ints
    edges: Ints
    positions: Floats
    grid: Optional[AxialGrid]
    _corners: Floats
    _moves: tuple[Move, ...]
    _mirror: int

    @property
    def cells(self) -> int:
        """The number of cells (the graph's vertices).

        Example:
            >>> from lightsout.boards import hexagon
            >>> [hexagon(n).cells for n in (1, 2, 3)]
            [1, 7, 19]
        """
        return int(self.coordinates.shape[0])

    def degrees(self) -> Ints:
        """Each cell's number of neighbours.

        Example:
            >>> from lightsout.boards import triangle
            >>> triangle(2).degrees().tolist()        # the corners touch the middle cell only
            [1, 1, 3, 1]
        """
        return np.bincount(self.edges.ravel(), minlength=self.cells).astype(np.int64)

    def neighbours(self) -> tuple[Ints, Ints]:
        """The neighbour lists in CSR form, ``(indptr, indices)``: cell i's are ``indices[indptr[i]:indptr[i+1]]``.

        Example:
            >>> from lightsout.boards import triangle
            >>> indptr, indices = triangle(2).neighbours()
            >>> indices[indptr[2]:indptr[3]].tolist()
            [0, 1, 3]
        """
        both = np.concatenate([self.edges, self.edges[:, ::-1]])
        order = np.lexsort((both[:, 1], both[:, 0]))
        both = both[order]
        indptr = np.zeros(self.cells + 1, dtype=np.int64)
        np.cumsum(np.bincount(both[:, 0], minlength=self.cells), out=indptr[1:])
        return indptr, np.ascontiguousarray(both[:, 1])

    def solve(self, board: object = None, **options: Any) -> Solution:
        """Solve this board through :func:`lightsout.solve_graph`: the lights, then its keyword options.

        Args:
            board: the lights: None (every cell lit), one state a cell in cell
                order, or a dict cell -> state, as :func:`lightsout.solve_graph` takes.
            options: passed on to :func:`lightsout.solve_graph` (``states``,
                ``self_toggle``, ``minimal``, ``method``, ...).

        Returns:
            A :class:`lightsout.Solution` with one press entry a cell.

        Example:
            >>> from lightsout.boards import cube
            >>> s = cube(2).solve(minimal=True)
            >>> s.verify(), s.count, int(s.presses.sum())
            (True, 256, 6)
        """
        return solve_graph(self.edges, board, nvertices=self.cells, **options)

    def symmetries(self) -> list[Ints]:
        """The board's symmetry group, every element once, the identity first.

        Each element is a permutation of the cells, ``image[i]`` = the cell
        that cell i moves to, mapping neighbours to neighbours: ready for
        ``Solution.count_up_to_symmetry(group=...)``.  The hexagon has 12 (six
        rotations and six reflections), each triangle 6, the cube 48 (its
        rotations and reflections), fewer only where a board is too small to
        tell them apart (a single cell has one).

        Raises:
            BoardTooLargeError: the group's elements would take more than 1 GiB
                (``lightsout.limits.MAX_GROUP_CELLS`` entries), as ``count_up_to_symmetry`` refuses.

        Example:
            >>> from lightsout.boards import hexagon
            >>> board = hexagon(4)
            >>> s = board.solve()
            >>> s.count, s.count_up_to_symmetry(group=board.symmetries())
            (16, 4)
        """
        order = len(self._moves)
        if order * self.cells > MAX_GROUP_CELLS:
            raise BoardTooLargeError(
                f"the {order} symmetries of the {self.name} ({self.cells} cells) would take "
                f"{order * self.cells} entries, over the limit of {MAX_GROUP_CELLS} "
                "(lightsout.limits.MAX_GROUP_CELLS) that count_up_to_symmetry takes")
        index = _CellIndex(self.coordinates)
        found: dict[bytes, Ints] = {}
        for columns, flips in self._moves:
            moved = self.coordinates[:, list(columns)].copy()
            moved[:, list(flips)] = self._mirror - moved[:, list(flips)]
            image = index.find(moved)
            if (image < 0).any():
                raise AssertionError(f"a symmetry of the {self.name} moves a cell off the board")
            image.setflags(write=False)
            found.setdefault(image.tobytes(), image)
        return list(found.values())

    def outlines(self) -> Floats:
        """Each cell's corners in the plane, a float64 ``(cells, corners, 2)`` array (the positions' frame).

        Example:
            >>> from lightsout.boards import triangle
            >>> triangle(1).outlines().round(3).tolist()
            [[[0.0, 0.0], [-0.5, 0.866], [0.5, 0.866]]]
        """
        return self.positions[:, None, :] + self._corners

    def svg(self, board: Optional[npt.ArrayLike] = None, presses: Optional[npt.ArrayLike] = None, *,
            states: int = 2, scale: float = 24.0) -> str:
        """An SVG picture of the board: every cell its own polygon, lit or dark, presses a red dot.

        Colours as in :mod:`lightsout.picture`: dark cells near-black, lit
        cells amber (k states shade from dark to lit).

        Args:
            board: the lights, one state a cell (None: every cell dark).
            presses: one press count a cell, a dot on each pressed cell (None: no dots).
            states: the number of light states k, for the shading.
            scale: the width of a cell in pixels.

        Returns:
            The picture as SVG text.

        Raises:
            BoardTooLargeError: more than ``lightsout.limits.MAX_SVG_CELLS`` cells.
            InvalidBoardError: ``board`` or ``presses`` without one value a cell.

        Example:
            >>> from lightsout.boards import hexagon
            >>> board = hexagon(2)
            >>> s = board.solve()
            >>> svg = board.svg(s.board, s.presses)
            >>> svg.startswith("<svg"), svg.count("<polygon"), svg.count("<circle") == int(s.presses.sum())
            (True, 7, True)
        """
        if self.cells > MAX_SVG_CELLS:
            raise BoardTooLargeError(f"svg draws at most {MAX_SVG_CELLS} cells (lightsout.limits.MAX_SVG_CELLS), "
                                     f"the {self.name} has {self.cells}")
        lights = self._per_cell(board, "board")
        pressed = self._per_cell(presses, "presses")
        k = max(int(states), 2)
        corners = self.outlines() * scale
        low = corners.reshape(-1, 2).min(axis=0) - scale / 4
        high = corners.reshape(-1, 2).max(axis=0) + scale / 4
        corners -= low
        width, height = high - low
        parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0f}" height="{height:.0f}" '
                 f'viewBox="0 0 {width:.1f} {height:.1f}">', f"<title>{html.escape(self.name)}</title>"]
        for cell in range(self.cells):
            shade = min(int(lights[cell]), k - 1) / (k - 1)
            colour = tuple(round(d + (lit - d) * shade) for d, lit in zip(DARK, LIT))
            points = " ".join(f"{x:.1f},{y:.1f}" for x, y in corners[cell])
            parts.append(f'<polygon points="{points}" fill="{_colour(colour)}" stroke="{_colour(GRID)}"/>')
        centres = (self.positions * scale - low)
        for pressed_cell in np.flatnonzero(pressed):
            x, y = centres[pressed_cell]
            parts.append(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{scale / 6:.1f}" fill="{_colour(PRESS)}"/>')
        parts.append("</svg>")
        return "\n".join(parts)

    def _repr_svg_(self) -> Optional[str]:
        return self.svg() if self.cells <= 400 else None

    def __repr__(self) -> str:
        return f"<ShapedBoard: {self.name}, {self.cells} cells, {len(self.edges)} edges>"

    def _per_cell(self, values: Optional[npt.ArrayLike], what: str) -> Ints:
        if values is None:
            return np.zeros(self.cells, dtype=np.int64)
        array = np.asarray(values)
        if array.ndim != 1 or array.shape[0] != self.cells or not (
                array.dtype == bool or np.issubdtype(array.dtype, np.integer)):
            raise InvalidBoardError(f"{what} must hold one int per cell of the {self.name} ({self.cells}), "
                                    f"got {array.dtype} of shape {array.shape}")
        return array.astype(np.int64)


def hexagon(n: int) -> ShapedBoard:
    """The hexagon of side n made of hexagonal cells: 3n(n-1)+1 cells, each with the six around it.

    The cells are the axial coordinates (q, r) with ``max(|q|, |r|, |q + r|) <= n - 1``,
    in the grid's row-major order (``board.grid``).

    Args:
        n: the number of cells along each side (positive int).

    Returns:
        A :class:`ShapedBoard` with 12 symmetries (one for n = 1).

    Raises:
        InvalidTypeError, InvalidBoardError: n is not a positive int.
        BoardTooLargeError: more cells than :func:`lightsout.solve_graph` takes (its
            ``lightsout.limits.MAX_GRAPH_BYTES``), before anything is built.

    Example:
        >>> from lightsout.boards import hexagon
        >>> board = hexagon(2)
        >>> board.cells, board.degrees().tolist()        # the centre and its six neighbours
        (7, [3, 3, 3, 6, 3, 3, 3])
        >>> board.solve().presses.astype(int).tolist()       # the centre changes every cell
        [0, 0, 0, 1, 0, 0, 0]
    """
    side = _side(n, "hexagon", lambda m: 3 * m * (m - 1) + 1)
    width = 2 * side - 1
    r, q = np.indices((width, width), dtype=np.int64) - (side - 1)
    holes = np.abs(q + r) > side - 1
    inside = ~holes
    coordinates = np.stack([q[inside], r[inside], -q[inside] - r[inside]], axis=1)
    grid = AxialGrid(_frozen(HEX_STENCIL.copy()), (1, 1), _frozen(holes))
    moves = tuple((order, flips) for flips in ((), (0, 1, 2)) for order in itertools.permutations(range(3)))
    return _hex_board(f"hexagon of side {side}", coordinates, grid, moves, 0)


def triangle(n: int, *, tiles: str = "triangles") -> ShapedBoard:
    """The triangle of side n, of triangular cells (n**2) or, with ``tiles="hexagons"``, of hexagonal cells.

    ``tiles="triangles"``: the triangle cut into n**2 equilateral cells by
    lines parallel to its sides, 2j + 1 cells in row j (from the apex),
    pointing up and down by turns; neighbours share an edge, so a cell has at
    most three.  ``tiles="hexagons"``: n(n+1)/2 hexagonal cells (or circles)
    stacked in a triangle, j + 1 in row j; neighbours touch, at most six.
    Either way cells are numbered row by row from the apex, left to right.

    Args:
        n: the number of cells along each side (positive int).
        tiles: "triangles" (the default) or "hexagons".

    Returns:
        A :class:`ShapedBoard` with 6 symmetries (one for n = 1); with
        hexagons it has a ``board.grid``.

    Raises:
        InvalidTypeError, InvalidBoardError: n is not a positive int, or ``tiles``
            is neither name.
        BoardTooLargeError: more cells than :func:`lightsout.solve_graph` takes (its
            ``lightsout.limits.MAX_GRAPH_BYTES``), before anything is built.

    Example:
        >>> from lightsout.boards import triangle
        >>> board = triangle(3)
        >>> board.cells, sorted(board.degrees().tolist())
        (9, [1, 1, 1, 2, 2, 2, 3, 3, 3])
        >>> triangle(3, tiles="hexagons").cells
        6
    """
    if not isinstance(tiles, str):
        raise InvalidTypeError(f"tiles must be 'triangles' or 'hexagons', got {type(tiles).__name__}")
    moves: tuple[Move, ...] = tuple((order, ()) for order in itertools.permutations(range(3)))
    if tiles == "hexagons":
        side = _side(n, "triangle of hexagons", lambda m: m * (m + 1) // 2)
        r, q = np.indices((side, side), dtype=np.int64)
        holes = q + r < side - 1                  # row r holds r + 1 cells, the apex at the top
        q, r = q[~holes], r[~holes]
        # (a, b, c): the cells to the left side, to the right side and to the base
        coordinates = np.stack([q + r - (side - 1), side - 1 - q, side - 1 - r], axis=1)
        grid = AxialGrid(_frozen(HEX_STENCIL.copy()), (1, 1), _frozen(holes))
        return _hex_board(f"triangle of side {side} of hexagonal cells", coordinates, grid, moves, 0)
    if tiles != "triangles":
        raise InvalidBoardError(f"tiles must be 'triangles' or 'hexagons', got {tiles!r}")
    side = _side(n, "triangle", lambda m: m * m)
    row = np.repeat(np.arange(side, dtype=np.int64), 2 * np.arange(side) + 1)
    place = np.arange(side * side, dtype=np.int64) - row * row       # 0..2j along row j
    up = place % 2 == 0
    k = place // 2
    # up (j, k): (a, b, c) = (n-1-j, k, j-k); down (j, k): (n-1-j, k, j-1-k); a counts rows to the base
    coordinates = np.stack([side - 1 - row, k, row - k - (~up)], axis=1)
    h = _SQRT3 / 2
    apex = np.stack([k - row / 2.0, row * h], axis=1).astype(np.float64)
    up_corners = np.array([[0.0, 0.0], [-0.5, h], [0.5, h]])
    down_corners = np.array([[0.0, 0.0], [1.0, 0.0], [0.5, h]])
    corners = np.where(up[:, None, None], up_corners, down_corners)
    centres = apex + corners.mean(axis=1)
    downs = np.flatnonzero(~up)
    index = _CellIndex(coordinates)
    pairs = [np.stack([downs, index.find(coordinates[downs] + step)], axis=1)
             for step in np.eye(3, dtype=np.int64)]       # a down cell's three up neighbours always exist
    return _board(f"triangle of side {side}", coordinates, np.concatenate(pairs) if pairs else _no_edges(),
                  centres, corners - corners.mean(axis=1, keepdims=True), None, moves, 0)


def cube(n: int) -> ShapedBoard:
    """The surface of a cube with n x n cells a face (Lights Out Cube, 3 x 3 faces): 6n**2 cells, four neighbours each.

    Across a face's edge a cell's neighbour is the cell of the next face that
    shares that edge; the cube's rotations and reflections (48) are its
    symmetries.  Cells are numbered in the reading order of the net
    (``board.positions``), a cross: the top face, then the left,
    front, right and back faces side by side, then the bottom face.

    Args:
        n: the number of cells along a face's edge (positive int).

    Returns:
        A :class:`ShapedBoard` with 48 symmetries and no grid.

    Raises:
        InvalidTypeError, InvalidBoardError: n is not a positive int.
        BoardTooLargeError: more cells than :func:`lightsout.solve_graph` takes (its
            ``lightsout.limits.MAX_GRAPH_BYTES``), before anything is built.

    Example:
        >>> from lightsout.boards import cube
        >>> board = cube(3)
        >>> board.cells, set(board.degrees().tolist()), len(board.symmetries())
        (54, {4}, 48)
    """
    side = _side(n, "cube", lambda m: 6 * m * m)
    top = 2 * side
    a, b = (2 * np.indices((side, side), dtype=np.int64) + 1).reshape(2, -1)   # odd: the cells' centres
    flat = np.zeros_like(a)
    # each face: its cells' centres (x, y, z) and their (column, row) on the net; x right, y up, z to the front
    faces = [
        ((b, top + flat, a), (1, 0), (b, a)),                          # top: y = 2n
        ((flat, a, b), (0, 1), (b, top - a)),                          # left: x = 0
        ((b, a, top + flat), (1, 1), (b, top - a)),                    # front: z = 2n
        ((top + flat, a, b), (2, 1), (top - b, top - a)),              # right: x = 2n
        ((b, a, flat), (3, 1), (top - b, top - a)),                    # back: z = 0
        ((b, flat, a), (1, 2), (b, top - a)),                          # bottom: y = 0
    ]
    coordinates = np.concatenate([np.stack(centre, axis=1) for centre, _, _ in faces])
    net = np.concatenate([np.stack([block[0] * side + (col - 1) // 2, block[1] * side + (rw - 1) // 2], axis=1)
                          for _, block, (col, rw) in faces])
    order = np.lexsort((net[:, 0], net[:, 1]))
    coordinates, net = coordinates[order], net[order]
    index = _CellIndex(coordinates)
    pairs = []
    for tangent in range(3):
        step = np.zeros(3, dtype=np.int64)
        step[tangent] = 2
        moved = coordinates + step
        on_face = (coordinates[:, tangent] % 2 == 1)      # the cell's face spans this axis
        over = on_face & (moved[:, tangent] > top)
        normal = np.argmax((coordinates == 0) | (coordinates == top), axis=1)
        rows = np.flatnonzero(over)                       # past the edge: onto the face x[tangent] = 2n
        moved[rows, tangent] = top
        moved[rows, normal[rows]] = np.where(coordinates[rows, normal[rows]] == 0, 1, top - 1)
        target = index.find(moved)
        keep = on_face & (target >= 0)
        pairs.append(np.stack([np.flatnonzero(keep), target[keep]], axis=1))
        # the step down past the edge x[tangent] = 0 is the step up from that face, found from the other side
        low = on_face & (coordinates[:, tangent] == 1)
        below = coordinates[low].copy()
        lows = np.flatnonzero(low)
        below[:, tangent] = 0
        below[np.arange(len(lows)), normal[lows]] = np.where(coordinates[lows, normal[lows]] == 0, 1, top - 1)
        pairs.append(np.stack([lows, index.find(below)], axis=1))
    moves = tuple((order, tuple(axis for axis in range(3) if flipped[axis]))
                  for order in itertools.permutations(range(3))
                  for flipped in itertools.product((False, True), repeat=3))     # v -> 2n - v on the flipped axes
    corners = np.array([[-0.5, -0.5], [0.5, -0.5], [0.5, 0.5], [-0.5, 0.5]])
    return _board(f"cube of {side} x {side} faces", coordinates, np.concatenate(pairs),
                  net + 0.5, np.broadcast_to(corners, (len(coordinates), 4, 2)), None, moves, top)


# --- the pieces ----------------------------------------------------------------------------------

class _CellIndex:
    """Cells found by their coordinates: each row's key in a box, sorted, searched."""

    def __init__(self, coordinates: Ints) -> None:
        self.low = coordinates.min(axis=0)
        self.extent = coordinates.max(axis=0) - self.low + 1
        keys = self._keys(coordinates)
        self.order = np.argsort(keys, kind="stable")
        self.sorted = keys[self.order]

    def _keys(self, coordinates: Ints) -> Ints:
        shifted = coordinates - self.low
        keys = np.zeros(len(coordinates), dtype=np.int64)
        for axis in range(coordinates.shape[1]):
            keys = keys * self.extent[axis] + shifted[:, axis]
        return keys

    def find(self, coordinates: Ints) -> Ints:
        """Each row's cell, or -1 where no cell has those coordinates."""
        shifted = coordinates - self.low
        inside = ((shifted >= 0) & (shifted < self.extent)).all(axis=1)
        keys = self._keys(np.where(inside[:, None], coordinates, self.low))
        at = np.minimum(np.searchsorted(self.sorted, keys), len(self.sorted) - 1)
        found = inside & (self.sorted[at] == keys)
        return np.where(found, self.order[at], -1).astype(np.int64)


def _side(n: object, what: str, cells: Callable[[int], int]) -> int:
    """The checked side: a positive int whose board solve_graph would take (its own check, before any work)."""
    side = board_size(n, "n")
    try:
        refuse_graph(cells(side))
    except BoardTooLargeError as refusal:
        raise BoardTooLargeError(f"a {what} of side {side} has {cells(side)} cells, more than solve_graph takes "
                                 f"under lightsout.limits.MAX_GRAPH_BYTES: {refusal}") from None
    return side


def _hex_board(name: str, coordinates: Ints, grid: AxialGrid, moves: tuple[Move, ...], mirror: int) -> ShapedBoard:
    """A hexagonal-cell board from its grid: edges along the stencil's three forward directions."""
    holes = grid.holes
    cell_of = np.full(holes.shape, -1, dtype=np.int64)
    cell_of[~holes] = np.arange(len(coordinates), dtype=np.int64)
    rows, cols = holes.shape
    padded = np.pad(cell_of, 1, constant_values=-1)
    pairs = []
    for dr, dq in ((0, 1), (1, 0), (1, -1)):    # each edge once: the other three directions are their reverse
        there = padded[1 + dr:1 + dr + rows, 1 + dq:1 + dq + cols]
        both = (cell_of >= 0) & (there >= 0)
        pairs.append(np.stack([cell_of[both], there[both]], axis=1))
    r, q = np.nonzero(~holes)
    centres = np.stack([_SQRT3 * (q + r / 2.0), 1.5 * r], axis=1).astype(np.float64)
    angles = np.radians(30.0 + 60.0 * np.arange(6))
    corners = np.stack([np.cos(angles), np.sin(angles)], axis=1)
    return _board(name, coordinates, np.concatenate(pairs), centres / _SQRT3,
                  np.broadcast_to(corners / _SQRT3, (len(coordinates), 6, 2)), grid, moves, mirror)


def _board(name: str, coordinates: Ints, pairs: Ints, positions: Floats, corners: Floats,
           grid: Optional[AxialGrid], moves: tuple[Move, ...], mirror: int) -> ShapedBoard:
    """The frozen board: edges as sorted unique (u < v) pairs, every array read-only."""
    cells = len(coordinates)
    if pairs.size:  # one int64 key an edge (cells < 2**26, so u * cells + v fits): sorted and unique in one pass
        pairs = pairs.astype(np.int64)
        keys = np.sort(np.minimum(pairs[:, 0], pairs[:, 1]) * cells + np.maximum(pairs[:, 0], pairs[:, 1]))
        keys = keys[np.concatenate([[True], keys[1:] != keys[:-1]])]   # np.unique's hash took 5 s for 9M edges
        pairs = np.stack([keys // cells, keys % cells], axis=1)
    else:
        pairs = _no_edges()
    return ShapedBoard(name, _frozen(coordinates.astype(np.int64)), _frozen(pairs),
                       _frozen(positions.astype(np.float64)), grid,
                       _frozen(np.ascontiguousarray(corners, dtype=np.float64)), moves, mirror)


def _no_edges() -> Ints:
    return np.zeros((0, 2), dtype=np.int64)


def _frozen(array: npt.NDArray[Any]) -> npt.NDArray[Any]:
    array = np.ascontiguousarray(array)
    array.setflags(write=False)
    return array


def _colour(rgb: tuple[int, ...]) -> str:
    return "#" + "".join(f"{value:02x}" for value in rgb)
