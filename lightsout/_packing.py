"""Convert between numpy 0/1 arrays and packed rows of uint64 words.

Layout: bit ``j`` of a row is bit ``j % 64`` of word ``j // 64`` (least-significant
bit first), and the bits past the last column are zero.  ``np.packbits(...,
bitorder="little")`` uses the same order, so packed rows interoperate with it.
"""
from __future__ import annotations

import numpy as np
import numpy.typing as npt


def words_for_bits(nbits: int) -> int:
    """Number of 64-bit words that hold ``nbits`` bits.

    Example:
        >>> words_for_bits(64), words_for_bits(65)
        (1, 2)
    """
    return (nbits + 63) // 64


def pack_rows(bits: npt.ArrayLike) -> np.ndarray:
    """Pack a 2-D 0/1 array into a C-contiguous ``(nrows, nwords)`` uint64 array.

    Example:
        >>> pack_rows([[1, 0, 1], [0, 1, 1]]).ravel().tolist()
        [5, 6]
    """
    arr = np.asarray(bits)
    if arr.ndim != 2:
        raise ValueError(f"pack_rows expects a 2-D array, got {arr.ndim}-D")
    nrows, nbits = arr.shape
    nwords = words_for_bits(nbits)
    packed = np.zeros((nrows, nwords * 8), dtype=np.uint8)
    if nbits:
        packed[:, : (nbits + 7) // 8] = np.packbits(arr.astype(bool, copy=False), axis=1, bitorder="little")
    return np.ascontiguousarray(packed.view("<u8").astype(np.uint64, copy=False))


def unpack_rows(words: np.ndarray, nbits: int) -> np.ndarray:
    """Unpack ``(nrows, nwords)`` uint64 rows into a ``(nrows, nbits)`` bool array.

    Example:
        >>> unpack_rows(np.array([[5], [6]], dtype=np.uint64), 3).astype(int).tolist()
        [[1, 0, 1], [0, 1, 1]]
    """
    words = np.ascontiguousarray(words, dtype=np.uint64)
    as_bytes = words.astype("<u8", copy=False).view(np.uint8).reshape(words.shape[0], 8 * words.shape[1])
    return np.unpackbits(as_bytes, axis=1, count=nbits, bitorder="little").view(np.bool_)  # 0/1 bytes


def pack_row(bits: npt.ArrayLike) -> np.ndarray:
    """Pack a 1-D 0/1 array into a ``(nwords,)`` uint64 array.

    Example:
        >>> pack_row([0, 1, 1]).tolist()
        [6]
    """
    row: np.ndarray = pack_rows(np.asarray(bits).reshape(1, -1))[0].copy()
    return row


def unpack_row(words: np.ndarray, nbits: int) -> np.ndarray:
    """Unpack a ``(nwords,)`` uint64 array into a length-``nbits`` bool array.

    Example:
        >>> unpack_row(np.array([6], dtype=np.uint64), 3).astype(int).tolist()
        [0, 1, 1]
    """
    row: np.ndarray = unpack_rows(np.asarray(words, dtype=np.uint64).reshape(1, -1), nbits)[0]
    return row
