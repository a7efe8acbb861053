"""Pictures of boards and solutions: SVG, PNG, matplotlib, the terminal, and streamed renders.

Colours: dark cells near-black, lit cells amber (with k states the states
shade evenly from dark to lit), presses a red dot (with k states, the press
count).  SVG and PNG are produced with numpy and zlib alone; only
:func:`plot_board` needs an extra (``plot``: matplotlib).

* :func:`board_svg`, :func:`board_png`: a 1-D or 2-D board, presses marked.
  Pictures are capped (:data:`MAX_SVG_CELLS`, :data:`MAX_PNG_CELLS`); larger
  boards are refused with a message pointing at the one-pixel-a-cell forms.
* :class:`Picture`: a board (and presses) that Jupyter shows as a picture;
  :class:`lightsout.Solution` shows itself through it.
* :func:`board_blocks`: block characters for a terminal, ANSI colour optional; holes, unpressable
  cells and free lights marked as board text marks them (``~``, ``/``, ``'``).
* :func:`render_presses`: the press pattern of the all-lit board as a
  one-bit PNG, one pixel a cell, computed and written band by band: the first
  row from :func:`lightsout.first_row`, then the packed chase kernel one band
  of rows at a time, each band seeded with the two rows above it.  Memory is
  O(band) whatever the height (a 20,000 x 20,000 render stays in tens of MB).

A :class:`lightsout.Solution` draws itself with the same functions
(:meth:`lightsout.Solution.plot`, and as a picture in Jupyter).

Example:
    >>> from lightsout.picture import board_svg
    >>> svg = board_svg([[1, 0], [0, 1]], presses=[[1, 0], [0, 0]])
    >>> svg.startswith("<svg") and svg.count("<circle")
    1
"""
from __future__ import annotations

import errno
import os
import shutil
import stat
from typing import Optional

import numpy as np

from lightsout._base.errors import BoardTooLargeError
from lightsout._base.packing import count_bits
from lightsout._base.types import Progress
from lightsout._base.validate import grid_shape, progress_callback
# the colours too (DARK, LIT, PRESS, GRID: lightsout.picture.LIT and so on), beside the public names
from lightsout._io.drawing import (BACKGROUND, DARK, FREE, GRID, HATCH, LIT, MAX_PNG_CELLS, MAX_SVG_CELLS, PRESS, Picture,
                                   board_blocks, board_png, board_svg, plot_board)
from lightsout._io.png import REVERSE_BITS, PngWriter
from lightsout._core.bandchase import all_lit_press_bands
from lightsout._solve import first_row

__all__ = ["board_svg", "board_png", "plot_board", "board_blocks", "render_presses", "Picture",
           "MAX_SVG_CELLS", "MAX_PNG_CELLS", "MAX_RENDER_PIXELS"]

#: Most pixels :func:`render_presses` writes: 2**40, a 1,048,576 x 1,048,576 board
#: (128 GiB of one-bit rows); the file must also fit in the disk's free space.
MAX_RENDER_PIXELS = 1 << 40

for _public in (Picture, board_blocks, board_png, board_svg, plot_board):
    _public.__module__ = __name__     # documented and pickled as lightsout.picture.<name>
del _public


def render_bytes(nrows: int, ncols: int) -> int:
    """An upper bound of the size of a one-bit PNG of nrows x ncols: rows stored, plus zlib's overhead.

    Example:
        >>> render_bytes(1000, 1000) > 1000 * 125
        True
    """
    raw = nrows * ((ncols + 7) // 8 + 1)  # a filter byte a row
    return raw + raw // 1000 + (1 << 16)


def render_fits(name: str, nrows: int, ncols: int) -> None:
    """Refuse a render over :data:`MAX_RENDER_PIXELS`, or larger than the free space where ``name`` goes.

    Example:
        >>> render_fits("presses.png", 10**7, 10**7)
        Traceback (most recent call last):
        ...
        lightsout.BoardTooLargeError: render: a 10000000 x 10000000 picture has 1e+14 pixels, ...
    """
    if nrows * ncols > MAX_RENDER_PIXELS:
        raise BoardTooLargeError(
            f"render: a {nrows} x {ncols} picture has {nrows * ncols:.3g} pixels, over the limit of "
            f"{MAX_RENDER_PIXELS:.3g} (2**40, lightsout.limits.MAX_RENDER_PIXELS); "
            "first_row gives the first row of any size, and fewest_presses the count")
    folder = os.path.dirname(os.path.abspath(name))
    try:
        free = shutil.disk_usage(folder).free
    except OSError:  # no such folder: opening the file reports it
        return
    need = render_bytes(nrows, ncols)
    if need > free:
        raise BoardTooLargeError(
            f"render: a {nrows} x {ncols} picture needs up to {need / 1e9:.3g} GB (the press pattern hardly "
            f"compresses) and {folder} has {free / 1e9:.3g} GB free; render a smaller board or write elsewhere")


def render_presses(path: "str | os.PathLike[str]", n: int, m: Optional[int] = None, *, method: str = "auto",
                   threads: Optional[int] = None, progress: Progress = None) -> int:
    """Write the canonical press pattern of the all-lit n x m board as a one-bit PNG; returns the press count.

    One pixel a cell, row 0 at the top: white = press, black = no press (a
    board file of the presses, :func:`lightsout.read_board` reads it back).
    The first row comes from :func:`lightsout.first_row` (``method``,
    ``threads``); the rest is chased band by band with the packed kernel and
    streamed to the file, so memory is a few MB whatever n.  The file is
    written under a temporary name and renamed when complete, so an
    interrupted render leaves nothing behind; a symbolic link ``path`` keeps
    its place and the file it points to gets the picture.  ``progress(stage, done, total)``
    gets the first row's stages, then ``("render", rows_done, n)``.

    Raises:
        BoardTooLargeError: more than :data:`MAX_RENDER_PIXELS` pixels, or a file
            larger than the free space of the disk it goes to (the press pattern
            hardly compresses: a 10**6 x 10**6 render is about 125 GB); both
            checked before any work.
        OSError: ``path`` is a folder, a named pipe or a device, or its folder
            does not exist or cannot be written in; checked before any work.

    Example:
        >>> from lightsout.picture import render_presses
        >>> import os, tempfile, lightsout
        >>> path = os.path.join(tempfile.mkdtemp(), "p.png")
        >>> render_presses(path, 5)
        15
    """
    nrows, ncols = grid_shape(n, m)
    progress_callback(progress)
    name = os.fspath(path)
    target = render_target(name)
    render_fits(target, nrows, ncols)
    first = first_row(nrows, ncols, method=method, threads=threads, progress=progress)
    row_bytes = (ncols + 7) // 8
    total = 0
    temporary = f"{target}.part{os.getpid()}"
    try:
        with open(temporary, "wb") as handle:
            png = PngWriter(handle, ncols, nrows, bit_depth=1)
            for start, presses in all_lit_press_bands(nrows, ncols, first):
                total += count_bits(presses)
                png.write_rows(REVERSE_BITS[presses.view(np.uint8)[:, :row_bytes]])
                if progress is not None:
                    progress("render", start + len(presses), nrows)
            png.close()
        os.replace(temporary, target)
    except OSError as exc:  # a full disk, say: named by the user's path, not the temporary one
        if exc.filename in (temporary, target):
            raise type(exc)(exc.errno, exc.strerror, name) from None
        raise
    finally:
        if os.path.exists(temporary):
            os.remove(temporary)
    return total


def render_target(name: str) -> str:
    """The file a render of ``name`` replaces, checked before any work: ``name``, or the file its link points to.

    A render writes a temporary file beside its target and renames it into
    place, so a symbolic link keeps pointing where it did and the file it
    points to gets the picture.  Refused, naming ``name``: a folder
    (IsADirectoryError), a named pipe, device or socket (OSError: a render
    writes a file), a folder that does not exist (FileNotFoundError) or that
    cannot be written in (PermissionError).

    Example:
        >>> import os, tempfile
        >>> folder = tempfile.mkdtemp()
        >>> render_target(os.path.join(folder, "p.png")) == os.path.realpath(os.path.join(folder, "p.png"))
        True
        >>> render_target(folder)
        Traceback (most recent call last):
        ...
        IsADirectoryError: [Errno 21] is a folder; give the name of a PNG file to write: '...'
    """
    target = os.path.realpath(name)
    try:
        mode: Optional[int] = os.stat(target).st_mode
    except FileNotFoundError:
        mode = None
    if mode is not None and stat.S_ISDIR(mode):
        raise IsADirectoryError(errno.EISDIR, "is a folder; give the name of a PNG file to write", name)
    if mode is not None and not stat.S_ISREG(mode):
        kind = ("a named pipe (FIFO)" if stat.S_ISFIFO(mode) else "a device" if stat.S_ISCHR(mode) or stat.S_ISBLK(mode)
                else "a socket" if stat.S_ISSOCK(mode) else "not a regular file")
        raise OSError(errno.EINVAL, f"is {kind}; a render writes a file (under a temporary name, then renamed into "
                                    f"place): give the name of a PNG file", name)
    folder = os.path.dirname(target)
    if not os.path.isdir(folder):
        raise FileNotFoundError(errno.ENOENT, f"no such folder {os.path.dirname(name) or folder!r} to write in", name)
    if not os.access(folder, os.W_OK | os.X_OK):
        raise PermissionError(errno.EACCES, f"cannot write in the folder {folder!r}", name)
    return target
