"""PNG encoding with zlib alone, streaming row band by row band (no Pillow needed to write).

A PNG file is the 8-byte signature, an IHDR chunk (width, height, bit depth,
colour type), IDAT chunks holding one zlib stream of the filtered rows (each
row a filter byte, here always 0 = None, then the packed samples) and an IEND
chunk; every chunk is ``length, type, data, CRC-32(type + data)``
(PNG specification, ISO/IEC 15948, sections 5 and 11).  :class:`PngWriter`
takes rows in bands and feeds them to one ``zlib.compressobj``, so memory stays
at one band whatever the height: a 20,000 x 20,000 one-bit picture is written
in a few megabytes.

Samples are packed most significant bit first (PNG's order); boards are packed
least significant bit first (``lightsout._base.packing``), so one-bit rows go
through :data:`REVERSE_BITS`, a 256-entry table.

Example:
    >>> import numpy as np
    >>> data = encode_png(np.array([[0, 255], [255, 0]], dtype=np.uint8))
    >>> data[:8] == PNG_SIGNATURE, data[-8:-4]
    (True, b'IEND')
"""
from __future__ import annotations

import struct
import zlib
from typing import BinaryIO, Optional

import numpy as np

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
#: Colour types of the PNG specification: greyscale and truecolour (RGB).
GREY, RGB = 0, 2
#: Byte b with its bits in reverse order: LSB-first packed rows to PNG's MSB-first.
REVERSE_BITS = np.array([int(f"{b:08b}"[::-1], 2) for b in range(256)], dtype=np.uint8)
#: The ``tEXt`` chunk that marks a drawing (board_png, --png): board files read it as such and refuse it.
DRAWING_TEXT = {"lightsout": "drawing, not a board file"}
#: Compressed bytes gathered before an IDAT chunk is written.
_IDAT_BYTES = 1 << 16


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)


class PngWriter:
    """Write a PNG to a binary stream row band by row band.

    Args:
        stream: a binary file open for writing.
        width, height: the picture's size in pixels (1 .. 2**31 - 1).
        bit_depth: 1 or 8 for greyscale, 8 for RGB.
        color_type: :data:`GREY` or :data:`RGB`.
        level: zlib compression level.
        text: ``tEXt`` chunks (keyword: value, Latin-1) written before the pixels.

    :meth:`write_rows` takes a ``(rows, row_bytes)`` uint8 array of samples
    already packed as PNG wants them (one-bit rows MSB first, bits past the
    width zero; RGB rows ``width * 3`` bytes); :meth:`close` checks that
    ``height`` rows came and ends the file.

    Example:
        >>> import io
        >>> out = io.BytesIO()
        >>> png = PngWriter(out, 9, 2, bit_depth=1)
        >>> png.write_rows(np.array([[0xFF, 0x80], [0x00, 0x00]], dtype=np.uint8))
        >>> png.close()
        >>> out.getvalue()[12:16]
        b'IHDR'
    """

    def __init__(self, stream: BinaryIO, width: int, height: int, *, bit_depth: int = 8,
                 color_type: int = GREY, level: int = 6, text: Optional[dict[str, str]] = None) -> None:
        if not (0 < width < 2**31 and 0 < height < 2**31):
            raise ValueError(f"a PNG is 1 .. 2**31 - 1 pixels on a side, got {width} x {height}")
        if (color_type, bit_depth) not in ((GREY, 1), (GREY, 8), (RGB, 8)):
            raise ValueError(f"unsupported colour type {color_type} with bit depth {bit_depth}")
        self.stream, self.width, self.height = stream, width, height
        channels = 3 if color_type == RGB else 1
        self.row_bytes = (width * channels * bit_depth + 7) // 8
        self.rows_written = 0
        self._compress = zlib.compressobj(level)
        self._pending: list[bytes] = []
        self._pending_bytes = 0
        stream.write(PNG_SIGNATURE)
        stream.write(_chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, bit_depth, color_type, 0, 0, 0)))
        for keyword, value in (text or {}).items():
            stream.write(_chunk(b"tEXt", keyword.encode("latin-1") + b"\0" + value.encode("latin-1")))

    def write_rows(self, rows: np.ndarray) -> None:
        """Append a band of rows: uint8, shape ``(n, row_bytes)``."""
        if rows.ndim != 2 or rows.shape[1] != self.row_bytes or rows.dtype != np.uint8:
            raise ValueError(f"rows must be uint8 of shape (n, {self.row_bytes}), got {rows.dtype} {rows.shape}")
        if self.rows_written + rows.shape[0] > self.height:
            raise ValueError(f"more rows than the picture's height {self.height}")
        filtered = np.zeros((rows.shape[0], self.row_bytes + 1), dtype=np.uint8)  # filter byte 0: None
        filtered[:, 1:] = rows
        self._emit(self._compress.compress(filtered.tobytes()))
        self.rows_written += rows.shape[0]

    def _emit(self, data: bytes, final: bool = False) -> None:
        if data:
            self._pending.append(data)
            self._pending_bytes += len(data)
        if self._pending_bytes >= _IDAT_BYTES or (final and self._pending):
            self.stream.write(_chunk(b"IDAT", b"".join(self._pending)))
            self._pending, self._pending_bytes = [], 0

    def close(self) -> None:
        """End the zlib stream and the file (IEND); every row must have been written."""
        if self.rows_written != self.height:
            raise ValueError(f"{self.rows_written} rows written of {self.height}")
        self._emit(self._compress.flush(), final=True)
        self.stream.write(_chunk(b"IEND", b""))


def encode_png(pixels: np.ndarray, *, bit_depth: int = 8, text: Optional[dict[str, str]] = None) -> bytes:
    """A whole picture as PNG bytes: ``(h, w)`` greyscale or ``(h, w, 3)`` RGB uint8 samples.

    With ``bit_depth=1`` the greyscale samples are 0/1 (or bools) and the file
    stores one bit a pixel; ``text`` becomes ``tEXt`` chunks.

    Example:
        >>> encode_png(np.zeros((1, 3), dtype=bool), bit_depth=1)[:4]
        b'\\x89PNG'
    """
    import io

    out = io.BytesIO()
    height, width = pixels.shape[:2]
    if pixels.ndim == 3:
        writer = PngWriter(out, width, height, color_type=RGB, text=text)
        writer.write_rows(np.ascontiguousarray(pixels, dtype=np.uint8).reshape(height, width * 3))
    elif bit_depth == 1:
        writer = PngWriter(out, width, height, bit_depth=1, text=text)
        writer.write_rows(np.packbits(pixels.astype(bool), axis=1, bitorder="big"))
    else:
        writer = PngWriter(out, width, height, text=text)
        writer.write_rows(np.ascontiguousarray(pixels, dtype=np.uint8))
    writer.close()
    return out.getvalue()
