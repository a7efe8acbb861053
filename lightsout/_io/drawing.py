"""Pictures of boards and solutions: SVG, PNG, matplotlib and the terminal (behind :mod:`lightsout.picture`).

Colours: dark cells near-black, lit cells amber (with k states the states
shade evenly from dark to lit), presses a red dot (with k states, the press
count).  The board masks (``holes=``, ``unpressable=``, ``free_lights=``): a hole
is left out (the background shows), a cell that may not be pressed is struck
through by a grey ``/`` (the mark of board text), a light that need not end dark
has a small blue square in its top left corner; below 4 pixels a cell there is
no room for the marks, and holes alone are drawn.  SVG and PNG are produced here with numpy and zlib alone; only
:func:`plot_board` needs an extra (``plot``: matplotlib).  Nothing here solves a
board, so :class:`lightsout.Solution` draws itself with these functions, and
:mod:`lightsout.picture` (which also renders the all-lit board's presses, solving
it first) stands above both.

* :func:`board_svg`, :func:`board_png`: a 1-D or 2-D board, presses marked.
  Pictures are capped (:data:`MAX_SVG_CELLS`, :data:`MAX_PNG_CELLS`); larger
  boards are refused with a message pointing at the one-pixel-a-cell forms.
* :class:`Picture`: a board (and presses) that Jupyter shows as a picture;
  :class:`lightsout.Solution` shows itself through it.
* :func:`board_blocks`: block characters for a terminal, ANSI colour optional.

Example:
    >>> svg = board_svg([[1, 0], [0, 1]], presses=[[1, 0], [0, 0]])
    >>> svg.startswith("<svg") and svg.count("<circle")
    1
"""
from __future__ import annotations

import html
import os
from typing import Any, Optional

import numpy as np
import numpy.typing as npt

from lightsout._base.errors import BoardTooLargeError, InvalidBoardError
from lightsout._base.extras import import_optional
from lightsout._base.validate import board_values, flag, states_count
from lightsout._io.boardmarks import FREE_MARK, HOLE_MARK, UNPRESSABLE_MARK, mask_or_none
from lightsout._io.png import DRAWING_TEXT, encode_png

__all__ = ["board_svg", "board_png", "plot_board", "board_blocks", "Picture", "notebook_bundle", "solution_picture",
           "MAX_SVG_CELLS", "MAX_PNG_CELLS", "DARK", "LIT", "PRESS", "GRID", "BACKGROUND", "HATCH", "FREE"]

#: Most cells :func:`board_svg` draws (one element a lit cell: a few MB at most).
MAX_SVG_CELLS = 40_000
#: Most cells :func:`board_png` draws (at one pixel a cell, 48 MB of RGB).
MAX_PNG_CELLS = 1 << 24
#: A notebook shows one picture: SVG up to this many cells (crisp, but about 90 bytes a
#: cell: 37 KB for 20 x 20), a PNG above it (17 KB for 100 x 100) ...
REPR_SVG_CELLS = 400
#: ... up to this many; larger boards show only their text repr.
REPR_PNG_CELLS = 1 << 22

DARK = (32, 33, 36)
LIT = (255, 196, 46)
PRESS = (214, 39, 40)
GRID = (90, 90, 90)
#: Where a hole is: the picture's background.
BACKGROUND = (255, 255, 255)
#: The stroke of a cell that may not be pressed, and the corner of a light that need not end dark.
HATCH = (150, 150, 150)
FREE = (66, 133, 244)

#: The masks of a picture: (holes, unpressable, free_lights), each None or bools of the board's 2-D shape.
Masks = tuple[Optional[np.ndarray], Optional[np.ndarray], Optional[np.ndarray]]
NO_MASKS: Masks = (None, None, None)


def _picture_masks(holes: Optional[npt.ArrayLike], unpressable: Optional[npt.ArrayLike],
                   free_lights: Optional[npt.ArrayLike], shape: tuple[int, ...], what: str) -> Masks:
    """The masks checked against the board's shape (a 1-D board's masks made one row), None when all False."""
    out = []
    for mask, name in ((holes, "holes"), (unpressable, "unpressable"), (free_lights, "free_lights")):
        if mask is not None and np.ndim(mask) == 1 and len(shape) == 2 and shape[0] == 1:
            mask = np.reshape(np.asarray(mask), shape)
        out.append(mask_or_none(mask, name, shape, what))
    return out[0], out[1], out[2]


def _hex(rgb: tuple[int, int, int]) -> str:
    return "#%02x%02x%02x" % rgb


def _too_large(what: str, most: int, limit: str, shape: tuple[int, ...]) -> BoardTooLargeError:
    size = " x ".join(map(str, shape if len(shape) == 2 else (1,) + tuple(shape)))
    return BoardTooLargeError(
        f"{what} draws at most {most} cells (lightsout.limits.{limit}), the board has {size}; write it "
        "one pixel a cell with lightsout.write_board('board.png', ...) (or `lightsout render` for the "
        "all-lit press pattern)")


def _picture_input(board: npt.ArrayLike, presses: Optional[npt.ArrayLike], states: int,
                   limit: str, what: str) -> tuple[np.ndarray, Optional[np.ndarray]]:
    """Checked 2-D board and presses (a 1-D board is one row), at most the limit named ``limit`` in
    cells; a numpy board past it is refused from its shape, before it is checked or copied."""
    states = states_count(states)
    most = {"MAX_SVG_CELLS": MAX_SVG_CELLS, "MAX_PNG_CELLS": MAX_PNG_CELLS}[limit]
    if isinstance(board, np.ndarray) and board.ndim in (1, 2) and board.size > most:
        raise _too_large(what, most, limit, board.shape)
    cells = board_values(board, states).astype(np.uint8)
    if cells.ndim == 1:
        cells = cells.reshape(1, -1)
    if cells.ndim != 2:
        raise InvalidBoardError(f"{what} draws 1-D and 2-D boards, got shape {cells.shape}")
    if cells.size > most:
        raise _too_large(what, most, limit, cells.shape)
    hits = None
    if presses is not None:
        hits = board_values(presses, states, "presses").astype(np.uint8)
        if hits.size != cells.size or (hits.ndim == 2 and hits.shape != cells.shape) or hits.ndim > 2:
            raise InvalidBoardError(f"presses has shape {hits.shape} but the board has shape {cells.shape}")
        hits = hits.reshape(cells.shape)
    return cells, hits


def _palette(states: int) -> np.ndarray:
    """RGB of each light state: dark to lit, evenly (k, 3) uint8."""
    t = np.linspace(0.0, 1.0, states)[:, None]
    return np.rint(np.array(DARK) * (1 - t) + np.array(LIT) * t).astype(np.uint8)


def _cell_size(shape: tuple[int, int], target: int, largest: int) -> int:
    return int(max(1, min(largest, target // max(shape))))


def board_svg(board: npt.ArrayLike, presses: Optional[npt.ArrayLike] = None, *, states: int = 2,
              cell: Optional[int] = None, title: Optional[str] = None, holes: Optional[npt.ArrayLike] = None,
              unpressable: Optional[npt.ArrayLike] = None, free_lights: Optional[npt.ArrayLike] = None) -> str:
    """An SVG picture of a 1-D or 2-D board, presses (if given) marked by red dots.

    Args:
        board: light states (0/1 or bools for two states).
        presses: press counts of the same shape, or None.
        states: number of light states k.
        cell: cell size in pixels (default: about 600 pixels across, 4 to 24 a cell).
        title: the picture's ``<title>`` (tooltip).
        holes: bools of the board's shape, True where a cell is not part of the
            board: left out (the background shows), or None.
        unpressable: the same, True where a cell may not be pressed: struck
            through by a grey ``/``, or None.
        free_lights: the same, True where a light need not end dark: a small
            blue square in its corner, or None.

    Raises:
        BoardTooLargeError: more than :data:`MAX_SVG_CELLS` cells.

    Example:
        >>> from lightsout.picture import board_svg
        >>> import xml.etree.ElementTree as ET
        >>> root = ET.fromstring(board_svg([[1, 1, 0]], presses=[[0, 1, 0]], cell=10))
        >>> root.get("width"), root.get("height")
        ('30', '10')
        >>> board_svg([[1, 1, 0]], holes=[[0, 0, 1]], unpressable=[[1, 0, 0]], cell=10).count("<path")   # grid, '/'
        2
    """
    states = states_count(states)
    cells, hits = _picture_input(board, presses, states, "MAX_SVG_CELLS", "board_svg")
    hole, unpressable_, free = _picture_masks(holes, unpressable, free_lights, cells.shape, "board_svg")
    rows, cols = cells.shape
    size = cell if cell is not None else _cell_size((rows, cols), 600, 24)
    size = max(4, int(size)) if cell is None else max(1, int(size))
    width, height = cols * size, rows * size
    colours = [_hex((int(red), int(green), int(blue))) for red, green, blue in _palette(states)]
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
             f'viewBox="0 0 {width} {height}" shape-rendering="crispEdges">',
             f"<title>{html.escape(title or f'{rows} x {cols} board')}</title>",
             f'<rect width="{width}" height="{height}" fill="{colours[0]}"/>']
    for r, c in np.argwhere(cells):
        parts.append(f'<rect x="{c * size}" y="{r * size}" width="{size}" height="{size}" '
                     f'fill="{colours[cells[r, c]]}"/>')
    if size >= 6:  # grid lines
        lines = "".join(f"M{x * size} 0V{height}" for x in range(1, cols)) + \
                "".join(f"M0 {y * size}H{width}" for y in range(1, rows))
        if lines:
            parts.append(f'<path d="{lines}" stroke="{_hex(GRID)}" stroke-width="1" fill="none"/>')
    if hole is not None:  # after the grid lines: a hole is background, its edges too
        for r, c in np.argwhere(hole):
            parts.append(f'<rect x="{c * size}" y="{r * size}" width="{size}" height="{size}" '
                         f'fill="{_hex(BACKGROUND)}"/>')
    if unpressable_ is not None and size >= 4:
        strokes = "".join(f"M{c * size} {(r + 1) * size}L{(c + 1) * size} {r * size}"
                          for r, c in np.argwhere(unpressable_ & (True if hole is None else ~hole)))
        if strokes:
            parts.append(f'<path d="{strokes}" stroke="{_hex(HATCH)}" stroke-width="{max(1, size // 10)}" '
                         'fill="none"/>')
    if free is not None and size >= 4:
        corner = max(2, size // 4)
        for r, c in np.argwhere(free & (True if hole is None else ~hole)):
            parts.append(f'<rect x="{c * size + 1}" y="{r * size + 1}" width="{corner}" height="{corner}" '
                         f'fill="{_hex(FREE)}"/>')
    if hits is not None:
        radius = max(size * 0.3, 0.5)
        for r, c in np.argwhere(hits):
            cx, cy = c * size + size / 2, r * size + size / 2
            parts.append(f'<circle cx="{cx:g}" cy="{cy:g}" r="{radius:g}" fill="{_hex(PRESS)}"/>')
            if states > 2 and size >= 14:
                parts.append(f'<text x="{cx:g}" y="{cy:g}" font-size="{size * 0.45:g}" fill="white" '
                             f'text-anchor="middle" dominant-baseline="central" '
                             f'font-family="sans-serif">{int(hits[r, c])}</text>')
    parts.append("</svg>")
    return "\n".join(parts)


def board_png(board: npt.ArrayLike, presses: Optional[npt.ArrayLike] = None, *, states: int = 2,
              cell: Optional[int] = None, holes: Optional[npt.ArrayLike] = None,
              unpressable: Optional[npt.ArrayLike] = None, free_lights: Optional[npt.ArrayLike] = None) -> bytes:
    """A PNG picture (bytes) of a 1-D or 2-D board, presses marked by red dots.

    Cells are ``cell`` pixels square (default: about 600 pixels across, 1 to
    32 a cell).  Below 4 pixels a cell there is no room for a dot: pressed
    cells are then painted red whole.  For one pixel a cell and no colours,
    use :func:`lightsout.write_board` with a ``.png`` name.  The board masks
    are drawn as by :func:`board_svg` (holes in white, at any size).

    Raises:
        BoardTooLargeError: more than :data:`MAX_PNG_CELLS` cells.

    Example:
        >>> from lightsout.picture import board_png
        >>> data = board_png([[1, 0], [0, 1]], presses=[[1, 0], [0, 0]], cell=8)
        >>> data[:4], int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")
        (b'\\x89PNG', 16, 16)
    """
    states = states_count(states)
    cells, hits = _picture_input(board, presses, states, "MAX_PNG_CELLS", "board_png")
    hole, unpressable_, free = _picture_masks(holes, unpressable, free_lights, cells.shape, "board_png")
    rows, cols = cells.shape
    size = max(1, int(cell)) if cell is not None else _cell_size((rows, cols), 600, 32)
    rgb = _palette(states)[cells]                                 # (rows, cols, 3)
    if hits is not None and size < 4:
        rgb[hits.astype(bool)] = PRESS
    image = np.repeat(np.repeat(rgb, size, axis=0), size, axis=1)
    if size >= 6:
        image[::size, :] = GRID
        image[:, ::size] = GRID
    yy, xx = np.mgrid[0:size, 0:size]
    first = 1 if size >= 6 else 0          # the free light's corner: inside the grid lines, off the press dot
    marks = ((unpressable_, np.abs(xx + yy - (size - 1)) <= size // 12, HATCH),     # a '/' stroke
             (free, (np.maximum(yy, xx) < first + max(1, size // 4)) & (np.minimum(yy, xx) >= first), FREE))
    for mask, shape, colour in marks if size >= 4 else ():
        if mask is not None:
            _paint(image, rows, cols, size, mask, shape, colour)
    if hits is not None and size >= 4:
        yy, xx = np.mgrid[0:size, 0:size]
        centre = (size - 1) / 2
        disc = (yy - centre) ** 2 + (xx - centre) ** 2 <= (size * 0.3) ** 2
        tile = image.reshape(rows, size, cols, size, 3).transpose(0, 2, 1, 3, 4)   # a view
        pressed = hits.astype(bool)
        block = tile[pressed]                                     # (npressed, size, size, 3) copy
        block[:, disc] = PRESS
        tile[pressed] = block
    if hole is not None:
        _paint(image, rows, cols, size, hole, np.ones((size, size), dtype=bool), BACKGROUND)
    return encode_png(image, text=DRAWING_TEXT)


def _paint(image: np.ndarray, rows: int, cols: int, size: int, cells: np.ndarray, shape: np.ndarray,
           colour: tuple[int, int, int]) -> None:
    """Paint ``colour`` on the pixels ``shape`` (size x size bools) of every cell in ``cells``."""
    tile = image.reshape(rows, size, cols, size, 3).transpose(0, 2, 1, 3, 4)   # a view
    block = tile[cells]
    block[:, shape] = colour
    tile[cells] = block


def plot_board(board: npt.ArrayLike, presses: Optional[npt.ArrayLike] = None, *, states: int = 2,
               ax: Optional[Any] = None, holes: Optional[npt.ArrayLike] = None,
               unpressable: Optional[npt.ArrayLike] = None, free_lights: Optional[npt.ArrayLike] = None) -> Any:
    """Draw a 1-D or 2-D board on a matplotlib Axes (a new figure's if ``ax`` is None), presses as red dots.

    The board masks are drawn as by :func:`board_svg`: holes left out (the
    Axes' background), a grey ``/`` on unpressable cells, a small blue square on
    free lights.

    Needs matplotlib (the ``plot`` extra).  Returns the Axes.

    Example:
        >>> from lightsout.picture import plot_board
        >>> ax = plot_board([[1, 0], [0, 1]], presses=[[1, 0], [0, 0]])  # doctest: +SKIP
    """
    states = states_count(states)
    cells, hits = _picture_input(board, presses, states, "MAX_PNG_CELLS", "plot_board")
    hole, unpressable_, free = _picture_masks(holes, unpressable, free_lights, cells.shape, "plot_board")
    colors = import_optional("matplotlib.colors", "plot", "plotting")
    if ax is None:
        pyplot = import_optional("matplotlib.pyplot", "plot", "plotting")
        rows, cols = cells.shape
        scale = 6.0 / max(rows, cols)
        _, ax = pyplot.subplots(figsize=(max(2.0, cols * scale), max(1.0, rows * scale)))
    cmap = colors.ListedColormap(_palette(states) / 255.0).with_extremes(bad=(0.0, 0.0, 0.0, 0.0))  # holes
    shown = cells if hole is None else np.ma.masked_array(cells, mask=hole)
    ax.imshow(shown, cmap=cmap, vmin=-0.5, vmax=states - 0.5, interpolation="nearest")
    area = max(4.0, 2000.0 / max(cells.shape))
    kept = True if hole is None else ~hole
    if unpressable_ is not None:
        ys, xs = np.nonzero(unpressable_ & kept)
        ax.scatter(xs, ys, s=area * 2, c=[np.array(HATCH) / 255.0], marker="$/$", linewidths=0)
    if free is not None:
        ys, xs = np.nonzero(free & kept)
        ax.scatter(xs - 0.3, ys - 0.3, s=area / 6, c=[np.array(FREE) / 255.0], marker="s", linewidths=0)
    if hits is not None:
        ys, xs = np.nonzero(hits)
        ax.scatter(xs, ys, s=area, c=[np.array(PRESS) / 255.0], marker="o", linewidths=0)
    ax.set_xticks([])
    ax.set_yticks([])
    return ax


class Picture:
    """A board, and optionally presses, that Jupyter shows as one picture (SVG when small, else PNG).

    ``Picture(board, presses)`` in a notebook cell draws it; :meth:`save`
    writes ``.svg`` or ``.png`` (by extension); :meth:`plot` draws with
    matplotlib.

    Example:
        >>> from lightsout.picture import Picture
        >>> p = Picture([[1, 0], [0, 1]], presses=[[1, 0], [0, 0]])
        >>> p
        Picture(shape=(2, 2), presses=1)
        >>> "<svg" in p.html()
        True
    """

    def __init__(self, board: npt.ArrayLike, presses: Optional[npt.ArrayLike] = None, *, states: int = 2,
                 caption: Optional[str] = None, holes: Optional[npt.ArrayLike] = None,
                 unpressable: Optional[npt.ArrayLike] = None, free_lights: Optional[npt.ArrayLike] = None) -> None:
        self.states = states_count(states)
        self.board = board_values(board, self.states)
        self.presses = None if presses is None else board_values(presses, self.states, "presses")
        self.caption = caption
        given = (holes, unpressable, free_lights)
        self.masks = NO_MASKS if all(mask is None for mask in given) else _picture_masks(
            *given, self.board.shape, "Picture")

    def __repr__(self) -> str:
        extra = "" if self.presses is None else f", presses={int(self.presses.sum(dtype=np.int64))}"
        return f"Picture(shape={self.board.shape}{extra})"

    def _drawable(self, limit: int) -> bool:
        return self.board.ndim <= 2 and self.board.size <= limit

    def svg(self) -> str:
        """The picture as SVG text (see :func:`board_svg`).

        Example:
            >>> from lightsout.picture import Picture
            >>> Picture([[1]]).svg().count("<rect")
            2
        """
        return board_svg(self.board, self.presses, states=self.states, title=self.caption, holes=self.masks[0],
                         unpressable=self.masks[1], free_lights=self.masks[2])

    def png(self) -> bytes:
        """The picture as PNG bytes (see :func:`board_png`).

        Example:
            >>> from lightsout.picture import Picture
            >>> Picture([[1]]).png()[1:4]
            b'PNG'
        """
        return board_png(self.board, self.presses, states=self.states, holes=self.masks[0],
                         unpressable=self.masks[1], free_lights=self.masks[2])

    def save(self, path: "str | os.PathLike[str]") -> None:
        """Write the picture to ``path``: SVG for a ``.svg`` name, else PNG.

        Example:
            >>> from lightsout.picture import Picture
            >>> import os, pathlib, tempfile
            >>> path = os.path.join(tempfile.mkdtemp(), "board.svg")
            >>> Picture([[1, 0]]).save(path)
            >>> pathlib.Path(path).read_text().startswith("<svg")
            True
        """
        name = os.fspath(path)
        if name.lower().endswith(".svg"):
            with open(name, "w", encoding="utf-8") as handle:
                handle.write(self.svg() + "\n")
        else:
            with open(name, "wb") as handle:
                handle.write(self.png())

    def plot(self, ax: Optional[Any] = None) -> Any:
        """Draw on a matplotlib Axes (see :func:`plot_board`); returns the Axes.

        Example:
            >>> ax = Picture([[1, 0], [0, 1]], presses=[[1, 0], [0, 0]]).plot()  # doctest: +SKIP
        """
        return plot_board(self.board, self.presses, states=self.states, ax=ax, holes=self.masks[0],
                          unpressable=self.masks[1], free_lights=self.masks[2])

    def html(self) -> Optional[str]:
        """The picture as an HTML figure captioned with its repr: inline SVG when small, else an
        embedded PNG; None when there is nothing to draw (3 axes or more, or too many cells).

        Example:
            >>> from lightsout.picture import Picture
            >>> Picture([[1, 0]]).html().startswith("<figure")
            True
        """
        if self._drawable(REPR_SVG_CELLS):
            body = self.svg()
        elif self._drawable(REPR_PNG_CELLS):
            import base64

            body = f'<img src="data:image/png;base64,{base64.b64encode(self.png()).decode("ascii")}"/>'
        else:
            return None
        caption = html.escape(self.caption or repr(self))
        return f"<figure style=\"margin: 0\">{body}<figcaption><code>{caption}</code></figcaption></figure>"

    def _repr_mimebundle_(self, include: Any = None, exclude: Any = None) -> dict[str, str]:
        """What Jupyter shows: one picture (HTML) and the text repr, no second copy as SVG or PNG."""
        return notebook_bundle(repr(self), self)


def notebook_bundle(text: str, picture: Optional[Picture]) -> dict[str, str]:
    """A notebook display of ``text`` and, when it can be drawn, one picture as HTML.

    Example:
        >>> sorted(notebook_bundle("P", Picture([[1]])))
        ['text/html', 'text/plain']
    """
    bundle = {"text/plain": text}
    page = None if picture is None else picture.html()
    if page is not None:
        bundle["text/html"] = page
    return bundle


def solution_picture(solution: Any) -> Optional[Picture]:
    """The :class:`Picture` of a :class:`lightsout.Solution`, or None (a graph, or 3 axes or more).

    Example:
        >>> import lightsout
        >>> solution_picture(lightsout.solve([[1, 1], [1, 0]]))
        Picture(shape=(2, 2), presses=1)
    """
    if solution.is_graph or solution.board.ndim > 2:
        return None
    holes, unpressable, free_lights = solution.rules.masks()
    return Picture(solution.board, solution.presses, states=solution.states, caption=repr(solution),
                   holes=holes, unpressable=unpressable, free_lights=free_lights)


# Terminal
# ---------------------------------------------------------------------------

_SHADES = " ░▒▓█"


def board_blocks(board: npt.ArrayLike, presses: Optional[npt.ArrayLike] = None, *, states: int = 2,
                 color: bool = False, holes: Optional[npt.ArrayLike] = None,
                 unpressable: Optional[npt.ArrayLike] = None, free_lights: Optional[npt.ArrayLike] = None) -> str:
    """The board drawn with block characters, two characters a cell, for a terminal.

    With ``color=True`` (ANSI 24-bit colour) cells are coloured by state and
    pressed cells marked ``()`` (with k states, the press count).  Without
    colour, lit cells are ``██`` (k states: shades), dark ones ``··``, and the
    presses are drawn as a second board to the right.

    The masks are drawn with the marks of board text: a hole is ``~`` (no
    light, no button: no colour either), and after a cell's two characters a
    ``/`` marks a cell that may not be pressed, a ``'`` a light that need not
    end dark (a column for a mark only when some cell has it, and a space
    between cells when any mask is given).

    Args:
        board: 1-D or 2-D light states 0..states-1.
        presses: None, or press counts of the board's shape (drawn beside the
            board without colour, marked on it with colour).
        states: the number of light states k.
        color: ANSI 24-bit colour (for a terminal that shows it).
        holes: None, or bools of the board's shape: cells that are not part of the board.
        unpressable: None, or bools of the board's shape: cells that may not be pressed.
        free_lights: None, or bools of the board's shape: lights that need not end dark.

    Examples:
        >>> from lightsout.picture import board_blocks
        >>> print(board_blocks([[1, 0], [0, 1]], presses=[[1, 0], [0, 0]]))
        board  presses
        ██··   ██··
        ··██   ····
        >>> print(board_blocks([[1, 0, 0], [0, 1, 1]], presses=[[1, 0, 0], [0, 0, 0]], holes=[[0, 0, 1], [0, 0, 0]],
        ...                    unpressable=[[0, 0, 0], [0, 1, 0]], free_lights=[[0, 0, 0], [0, 0, 1]]))
        board            presses
        ██   ··   ~      ██   ··   ~
        ··   ██/  ██ '   ··   ··/  ·· '
    """
    states = states_count(states)
    color = flag(color, "color")
    cells, hits = _picture_input(board, presses, states, "MAX_SVG_CELLS", "board_blocks")
    rows, cols = cells.shape
    hole, fixed, free = _picture_masks(holes, unpressable, free_lights, cells.shape, "board_blocks")
    marks = _cell_marks(cells.shape, hole, fixed, free)
    if color:
        palette = _palette(states)
        lines = []
        for r in range(rows):
            out = []
            for c in range(cols):
                if hole is not None and hole[r, c]:
                    out.append(HOLE_MARK.ljust(2) + marks[r][c])
                    continue
                red, green, blue = (int(v) for v in palette[cells[r, c]])
                text = "  "
                if hits is not None and hits[r, c]:
                    text = "()" if states == 2 else f"{int(hits[r, c]):>2}"[-2:]
                mark = "\x1b[1;38;2;%d;%d;%dm" % PRESS if text != "  " else ""
                out.append(f"\x1b[48;2;{red};{green};{blue}m{mark}{text}\x1b[0m{marks[r][c]}")
            lines.append("".join(out).rstrip())
        return "\n".join(lines)

    def glyph(value: int) -> str:
        if value == 0:
            return "··"
        level = 4 if states == 2 else max(1, round(4 * value / (states - 1)))
        return _SHADES[level] * 2

    def count(value: int) -> str:
        return "··" if value == 0 else ("██" if states == 2 else f"{value:>2}"[-2:])

    def drawn(values: np.ndarray, draw: Any) -> list[str]:
        return ["".join((HOLE_MARK.ljust(2) if hole is not None and hole[r, c] else draw(int(values[r, c])))
                        + marks[r][c] for c in range(cols)) for r in range(rows)]

    left = drawn(cells, glyph)
    if hits is None:
        return "\n".join(line.rstrip() for line in left)
    width = max(len(left[0]), 5) + 2
    right = drawn(hits, count)
    lines = ["board".ljust(width) + "presses"] + [a.ljust(width) + b for a, b in zip(left, right)]
    return "\n".join(line.rstrip() for line in lines)


def _cell_marks(shape: tuple[int, ...], holes: Optional[np.ndarray], unpressable: Optional[np.ndarray],
                free_lights: Optional[np.ndarray]) -> list[list[str]]:
    """What follows each cell's two characters: a column for ``/`` when some cell may not be pressed, one
    for ``'`` when some light need not end dark, then a space; nothing at all without masks."""
    columns = [(mask, mark) for mask, mark in ((unpressable, UNPRESSABLE_MARK), (free_lights, FREE_MARK))
               if mask is not None]
    if not columns and holes is None:
        return [[""] * shape[1] for _ in range(shape[0])]
    out = []
    for r in range(shape[0]):
        row = []
        for c in range(shape[1]):
            inside = holes is None or not holes[r, c]
            row.append("".join(mark if inside and mask[r, c] else " " for mask, mark in columns) + " ")
        out.append(row)
    return out
