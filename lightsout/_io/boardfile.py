"""Board files: text, ``.npy`` and PNG, read and written by :func:`read_board` / :func:`write_board`.

Formats (chosen by the file's content when reading, by its extension when writing):

* **text** (any other name): one row per line; ``1 # * x X o O`` lit, ``0 . - _``
  dark, digits ``0..k-1`` for k light states (with more than 10 states, numbers
  separated by spaces); spaces, tabs and blank lines are ignored, and so is
  everything from ``!`` (:data:`lightsout.board.COMMENT`) to the end of a line.
  UTF-8, a byte order mark allowed.  Written with ``1`` and ``0`` (digits for k states).
* **.npy**: a numpy array of any number of axes (bools or integers 0..k-1),
  read without pickles.
* **.png**: one pixel a cell, rows top to bottom.  Dark pixel = off, light
  pixel = lit: with two states a pixel is lit when its grey level (luminance,
  0..255) is 128 or more; with k states grey level g is state
  ``round(g * (k - 1) / 255)``, and state s is written as grey
  ``round(s * 255 / (k - 1))``, so files written here read back exactly.
  A picture with more distinct grey levels than k is refused (it is not a
  k-state board, or was meant to be read with more states), and so is a
  drawing made by :func:`lightsout.picture.board_png` (a ``tEXt`` tag marks it).
  Any PNG reads, of any width: one-bit, greyscale of 2 to 16 bits (16-bit samples
  scaled to 0..255), palette or colour (luminance; alpha ignored).
  Two-state boards are written as one-bit greyscale.  Writing needs nothing
  beyond numpy; reading needs Pillow (the ``images`` extra).

Text files also say the board masks (``read_board(..., masks=True)``, ``write_board(...,
holes=, unpressable=, free_lights=)``): ``~`` a hole, a light followed by ``/`` one that
may not be pressed, by ``'`` one that need not end dark (:mod:`lightsout._io.boardmarks`).

A malformed text file is refused with one line naming the file, line and column.

Example:
    >>> import os, tempfile
    >>> path = os.path.join(tempfile.mkdtemp(), "board.png")
    >>> write_board(path, [[1, 0, 1], [0, 1, 0]])
    >>> read_board(path).astype(int).tolist() if _has_pillow() else [[1, 0, 1], [0, 1, 0]]
    [[1, 0, 1], [0, 1, 0]]
"""
from __future__ import annotations

import math
import os
import tokenize
import warnings
from pathlib import Path
from typing import Literal, Optional, Union, overload

import numpy as np
import numpy.typing as npt

from lightsout._base.errors import BoardTooLargeError, InvalidBoardError, LightsOutError
from lightsout._base.extras import import_optional
from lightsout._base.validate import MAX_BOARD_CELLS, board_values, states_count
from lightsout._io.boardmarks import MarkedBoard
from lightsout._io.boardtext import board_from_text, format_board, marked_board_from_text
from lightsout._io.png import DRAWING_TEXT, PNG_SIGNATURE, encode_png

__all__ = ["read_board", "write_board"]

PathArg = Union[str, "os.PathLike[str]"]
NPY_MAGIC = b"\x93NUMPY"


@overload
def read_board(path: PathArg, states: int = ..., *, masks: Literal[False] = ...) -> np.ndarray: ...
@overload
def read_board(path: PathArg, states: int = ..., *, masks: Literal[True]) -> MarkedBoard: ...
@overload
def read_board(path: PathArg, states: int = ..., *, masks: bool) -> Union[np.ndarray, MarkedBoard]: ...


def read_board(path: PathArg, states: int = 2, *, masks: bool = False) -> Union[np.ndarray, MarkedBoard]:
    """Read a board from a text, ``.npy`` or PNG file.

    The format is recognised by the file's first bytes (PNG and ``.npy``
    signatures), so a PNG named ``board.txt`` still reads as a picture:

    * text: one row per line, ``1 # * x X o O`` lit, ``0 . - _`` dark, digits
      ``0..k-1`` for k states (numbers separated by spaces past 10 states);
      spaces and blank lines ignored, ``!`` starts a comment (as
      :func:`lightsout.parse_board` reads it).  With ``masks=True`` also the
      marks of the board masks: ``~`` a hole, a light followed by ``/`` one
      that may not be pressed, by ``'`` one that need not end dark (``1/'``
      both); without it they are refused.
    * ``.npy``: a numpy array of any number of axes (bools or integers
      0..k-1), read without pickles.
    * PNG: one pixel a cell, rows top to bottom, of any width and mode; a
      light pixel (grey level 128 or more) is lit, and with k states grey level
      g is state ``round(g * (k - 1) / 255)``.  A picture with more grey levels
      than k, or a drawing of :mod:`lightsout.picture`, is refused.

    :func:`write_board` writes each so that it reads back unchanged; the
    :doc:`files page </guide/files>` shows them.

    Args:
        path: the file.
        states: number of light states k (2..255).
        masks: return a ``MarkedBoard`` (``lights``, ``holes``, ``unpressable``,
            ``free_lights``; a mask is None when no cell has its mark, and always
            for ``.npy`` and PNG files); ``.masks()`` gives the masks as
            :func:`lightsout.solve`'s keywords.

    Returns:
        The board: bool for two states, uint8 light states otherwise; with
        ``masks=True`` a ``MarkedBoard``.

    Raises:
        InvalidBoardError: a malformed file; the one-line message names the
            file and, for text, the line and column.
        MissingExtraError: a PNG file without Pillow installed.
        OSError: the file cannot be read.

    Example:
        >>> from lightsout import read_board
        >>> import os, pathlib, tempfile
        >>> path = os.path.join(tempfile.mkdtemp(), "b.txt")
        >>> _ = pathlib.Path(path).write_text("! a board\\n*.*\\n.*.\\n")
        >>> read_board(path).astype(int).tolist()
        [[1, 0, 1], [0, 1, 0]]
        >>> _ = pathlib.Path(path).write_text("*/ . ~\\n.' * .\\n")
        >>> marked = read_board(path, masks=True)
        >>> marked.holes.astype(int).tolist(), marked.unpressable.astype(int).tolist()
        ([[0, 0, 1], [0, 0, 0]], [[1, 0, 0], [0, 0, 0]])
    """
    states = states_count(states)
    name = os.fspath(path)
    with open(name, "rb") as handle:
        head = handle.read(8)
    if head.startswith(PNG_SIGNATURE):
        lights = _read_png(name, states)
    elif head.startswith(NPY_MAGIC):
        lights = _read_npy(name, states)
    else:
        text = decode_text(Path(name).read_bytes(), name)
        return marked_board_from_text(text, states, name) if masks else board_from_text(text, states, name)
    return MarkedBoard(lights) if masks else lights


def decode_text(data: bytes, source: str) -> str:
    """Bytes of a board file as text: UTF-8, a byte order mark allowed.

    Example:
        >>> decode_text(b"\\xef\\xbb\\xbf10", "f")
        '10'
    """
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise InvalidBoardError(
            f"{source} is not UTF-8 text (byte {data[exc.start]:#04x} at offset {exc.start}); "
            "a board file is plain text one row per line, a .npy array or a PNG picture") from None


def _npy_declared(name: str) -> tuple[tuple[int, ...], np.dtype, int]:
    """(shape, dtype, data offset) from a ``.npy`` file's header, without reading its data."""
    with open(name, "rb") as file:
        try:
            version = np.lib.format.read_magic(file)
            if version == (1, 0):
                shape, _, dtype = np.lib.format.read_array_header_1_0(file)
            else:  # 2.0 and 3.0 differ only in the header's text encoding
                shape, _, dtype = np.lib.format.read_array_header_2_0(file)
        # numpy parses the header with the tokenize module: a broken one can raise its TokenError
        except (ValueError, OSError, SyntaxError, UnicodeDecodeError, tokenize.TokenError) as exc:
            raise InvalidBoardError(f"{name}: not a readable .npy array of light states ({exc})") from None
        return tuple(int(size) for size in shape), np.dtype(dtype), file.tell()


def check_npy_size(name: str) -> None:
    """Refuse a ``.npy`` file whose header declares more cells than ``MAX_BOARD_CELLS`` or more data
    than the file holds, before numpy allocates the array."""
    shape, dtype, offset = _npy_declared(name)
    cells = math.prod(shape)
    if cells > MAX_BOARD_CELLS:
        raise BoardTooLargeError(f"{name}: its header declares shape {shape}, {cells:.3g} cells, over the limit "
                                 f"of {MAX_BOARD_CELLS:.3g} cells (lightsout.limits.MAX_BOARD_CELLS)")
    need = cells * dtype.itemsize
    have = os.path.getsize(name) - offset
    if have < need:
        raise InvalidBoardError(f"{name}: its header declares shape {shape} of {dtype} ({need} bytes of data), "
                                f"but the file holds only {have}: a truncated or forged .npy file")


def _read_npy(name: str, states: int) -> np.ndarray:
    check_npy_size(name)
    try:
        array = np.load(name, allow_pickle=False)
    except ValueError as exc:
        raise InvalidBoardError(f"{name}: not a readable .npy array of light states ({exc})") from None
    if not isinstance(array, np.ndarray) or array.dtype.kind not in "biu":
        raise InvalidBoardError(f"{name}: a .npy board holds bools or integers 0..{states - 1}, "
                                f"got dtype {getattr(array, 'dtype', type(array).__name__)}")
    try:
        return board_values(array, states, name)
    except InvalidBoardError as exc:
        raise InvalidBoardError(f"{name}: {exc}") from None


#: The tEXt keyword that marks lightsout's drawings.
DRAWING_KEY = next(iter(DRAWING_TEXT))


def _read_png(name: str, states: int) -> np.ndarray:
    image_module = import_optional("PIL.Image", "images", "reading PNG board files")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", image_module.DecompressionBombWarning)
        try:
            with image_module.open(name) as image:
                if image.width * image.height > MAX_BOARD_CELLS:
                    raise BoardTooLargeError(f"{name}: {image.width} x {image.height} pixels is over the limit of "
                                             f"{MAX_BOARD_CELLS} cells (lightsout.limits.MAX_BOARD_CELLS)")
                if str(image.info.get(DRAWING_KEY, "")).startswith("drawing"):
                    raise InvalidBoardError(
                        f"{name}: a picture drawn by lightsout (board_png, Picture.save or --png: several "
                        "pixels a cell, in colour), not a board file; board files are one pixel a cell: "
                        "write one with write_board or `lightsout solve ... -o presses.png`")
                if image.mode == "1":
                    lit = one_bit_pixels(image.tobytes(), image.width, image.height)
                    return lit if states == 2 else lit.astype(np.uint8) * (states - 1)
                grey = grey_levels(image)
        except LightsOutError:
            raise
        except image_module.DecompressionBombError as exc:
            raise BoardTooLargeError(f"{name}: {exc} (Pillow's limit, PIL.Image.MAX_IMAGE_PIXELS, which may be "
                                     "raised; boards this large read faster from .npy files)") from None
        except (OSError, SyntaxError, ValueError) as exc:
            if isinstance(exc, FileNotFoundError):
                raise
            raise InvalidBoardError(f"{name}: not a readable PNG picture ({exc})") from None
    used = int(np.count_nonzero(np.bincount(grey.ravel(), minlength=256)))
    if used > states:
        hint = f"read it with states={used}" if used <= 255 else "it is not a board picture"
        raise InvalidBoardError(f"{name}: the picture has {used} grey levels, more than the {states} light states "
                                f"asked for ({hint}; `lightsout solve --states {min(used, 255)}`)")
    if states == 2:
        return grey >= 128
    levels = (grey.astype(np.int64) * (states - 1) + 127) // 255
    return levels.astype(np.uint8)


def one_bit_pixels(data: bytes, width: int, height: int) -> np.ndarray:
    """A one-bit picture's rows (packed most significant bit first, each row whole bytes) as bools.

    Unpacked here rather than by numpy's conversion of the image, whose bools
    hold the bytes 0 and 255 with some Pillow versions (10 to 13 on pictures
    256 pixels wide and more): the rest of the package reads a bool's byte.

    Example:
        >>> one_bit_pixels(bytes([0b10100000, 0b01000000]), 3, 2).astype(int).tolist()
        [[1, 0, 1], [0, 1, 0]]
    """
    rows = np.frombuffer(data, dtype=np.uint8).reshape(height, -1)
    return np.unpackbits(rows, axis=1, count=width).view(bool)


#: Pillow's modes of 16-bit greyscale PNG pictures (one sample 0..65535 a pixel).
GREY16_MODES = ("I", "I;16", "I;16B", "I;16L")


def grey_levels(image: object) -> np.ndarray:
    """A Pillow picture's grey levels 0..255 (luminance for colour, alpha ignored), uint8.

    16-bit grey samples are scaled to 0..255 (round(v / 257)), so a 16-bit
    picture reads as its 8-bit twin does.

    Example:
        >>> if _has_pillow():
        ...     from PIL import Image
        ...     print(grey_levels(Image.new("I;16", (3, 1), 32896)).tolist())
        ... else:
        ...     print([[128, 128, 128]])
        [[128, 128, 128]]
    """
    mode = getattr(image, "mode")
    if mode in GREY16_MODES:
        samples = np.asarray(image).astype(np.int64)
        return ((np.clip(samples, 0, 65535) + 128) // 257).astype(np.uint8)
    return np.asarray(getattr(image, "convert")("L"), dtype=np.uint8)


def write_board(path: PathArg, board: npt.ArrayLike, states: int = 2, *, holes: Optional[npt.ArrayLike] = None,
                unpressable: Optional[npt.ArrayLike] = None, free_lights: Optional[npt.ArrayLike] = None) -> None:
    """Write a board to a file whose extension picks the format: ``.npy``, ``.png``, else text.

    Text and PNG files hold 1-D and 2-D boards (a 1-D board is one row);
    ``.npy`` any number of axes.  Every file written here reads back
    unchanged with :func:`read_board` (PNG reading needs Pillow).

    Args:
        path: where to write (replaced if it exists).
        board: light states 0..states-1 (0/1 or bools for two states).
        states: number of light states k (2..255).
        holes: bools of the board's shape, True where a cell is not part of the
            board, written ``~`` in text files (its light is not written and
            reads back as 0), or None.  ``.npy`` and PNG files hold no masks and
            refuse every mask; ``read_board(..., masks=True)`` reads them back.
        unpressable: the same, True where a cell may not be pressed, written
            with a trailing ``/``, or None.
        free_lights: the same, True where a light need not end dark, written
            with a trailing ``'``, or None.

    Example:
        >>> from lightsout import read_board, write_board
        >>> import os, pathlib, tempfile
        >>> path = os.path.join(tempfile.mkdtemp(), "b.npy")
        >>> write_board(path, [[0, 2], [1, 0]], states=3)
        >>> read_board(path, states=3).tolist()
        [[0, 2], [1, 0]]
        >>> text = os.path.join(tempfile.mkdtemp(), "b.txt")
        >>> write_board(text, [[1, 1], [0, 1]], holes=[[0, 0], [0, 1]], unpressable=[[1, 0], [0, 0]])
        >>> print(pathlib.Path(text).read_text(), end="")
        1/ 1
        0  ~
        >>> read_board(text, masks=True).unpressable.tolist()
        [[True, False], [False, False]]
    """
    states = states_count(states)
    cells = board_values(board, states)
    name = os.fspath(path)
    suffix = Path(name).suffix.lower()
    given = {"holes": holes, "unpressable": unpressable, "free_lights": free_lights}
    if any(mask is not None for mask in given.values()):
        if suffix in (".npy", ".png"):
            raise InvalidBoardError(f"{name}: {suffix} board files hold no masks (holes, unpressable, free_lights); "
                                    "write a text board file, which marks them")
        if cells.ndim == 1:
            cells = cells.reshape(1, -1)
            given = {key: None if mask is None else np.reshape(np.asarray(mask), (1, -1))
                     for key, mask in given.items()}
        if cells.ndim != 2:
            raise InvalidBoardError(f"{name}: text board files hold 2-D boards, got shape {cells.shape}")
        text = format_board(cells, states=states, holes=given["holes"], unpressable=given["unpressable"],
                            free_lights=given["free_lights"])
        Path(name).write_text(text + "\n", encoding="utf-8")
        return
    if suffix == ".npy":
        with open(name, "wb") as handle:
            np.save(handle, cells, allow_pickle=False)
        return
    if cells.ndim == 1:
        cells = cells.reshape(1, -1)
    if cells.ndim != 2:
        raise InvalidBoardError(f"{name}: text and PNG board files hold 2-D boards, got shape {cells.shape}; "
                                "write a .npy file for boards of more axes")
    if suffix == ".png":
        if states == 2:
            data = encode_png(cells, bit_depth=1)
        else:
            levels = (cells.astype(np.int64) * 510 + (states - 1)) // (2 * (states - 1))  # round(s*255/(k-1))
            data = encode_png(levels.astype(np.uint8))
        Path(name).write_bytes(data)
        return
    Path(name).write_text(format_board(cells, states=states) + "\n", encoding="utf-8")


def _has_pillow() -> bool:
    """True when Pillow is importable (reading PNG files needs it).

    Example:
        >>> isinstance(_has_pillow(), bool)
        True
    """
    try:
        import PIL  # type: ignore[import-untyped, unused-ignore]  # noqa: F401
    except ImportError:
        return False
    return True
