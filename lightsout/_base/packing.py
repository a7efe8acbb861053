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
        >>> from lightsout.packed import words_for_bits
        >>> words_for_bits(64), words_for_bits(65)
        (1, 2)
    """
    return (nbits + 63) // 64


#: Set bits of every byte value, for numpy without ``bitwise_count`` (before 2.0).
_BYTE_BITS = np.array([bin(b).count("1") for b in range(256)], dtype=np.int64)


def count_bits(words: np.ndarray) -> int:
    """Number of set bits in an array of packed words.

    Example:
        >>> count_bits(np.array([3, 2**63], dtype=np.uint64))
        3
    """
    words = np.ascontiguousarray(words)
    if hasattr(np, "bitwise_count"):  # numpy >= 2.0: one popcount a word
        return int(np.bitwise_count(words).sum())
    return int(_BYTE_BITS[words.view(np.uint8)].sum())


def pack_rows(bits: npt.ArrayLike) -> np.ndarray:
    """Pack a 2-D 0/1 array into a C-contiguous ``(nrows, nwords)`` uint64 array (any nonzero value packs as 1).

    The one packer of the package.  ``np.packbits`` reads bools and one-byte integers as
    they are (nonzero is 1); anything wider is made bools first, which packbits reads
    some 9x faster than 8-byte integers.  Rows of a whole number of words are viewed
    as words without a copy.

    Example:
        >>> pack_rows([[1, 0, 1], [0, 1, 1]]).ravel().tolist()
        [5, 6]
    """
    arr = np.asarray(bits)
    if arr.ndim != 2:
        raise ValueError(f"pack_rows expects a 2-D array, got {arr.ndim}-D")
    nrows, nbits = arr.shape
    nwords = words_for_bits(nbits)
    if nrows == 0 or nbits == 0:
        return np.zeros((nrows, nwords), dtype=np.uint64)
    if not (arr.dtype.itemsize == 1 and arr.dtype.kind in "biu"):
        arr = arr.astype(bool)
    packed = np.packbits(arr, axis=1, bitorder="little")
    # packbits keeps the input's memory order: a transposed (Fortran-order) input gives
    # Fortran-order bytes, which cannot be viewed as words along a row
    if packed.shape[1] == 8 * nwords and packed.flags.c_contiguous:
        return packed.view("<u8").astype(np.uint64, copy=False)
    padded = np.zeros((nrows, 8 * nwords), dtype=np.uint8)
    padded[:, : packed.shape[1]] = packed
    return padded.view("<u8").astype(np.uint64, copy=False)  # no copy on a little-endian machine


def unpack_rows(words: np.ndarray, nbits: int) -> np.ndarray:
    """Unpack ``(nrows, nwords)`` uint64 rows into an ``(nrows, nbits)`` bool array.

    Example:
        >>> unpack_rows(np.array([[5], [6]], dtype=np.uint64), 3).astype(int).tolist()
        [[1, 0, 1], [0, 1, 1]]
    """
    words = np.ascontiguousarray(words, dtype=np.uint64)
    if words.shape[0] == 0 or nbits == 0:
        return np.zeros((words.shape[0], nbits), dtype=bool)
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


#: Rows of the input converted at a time by :func:`transpose_bits` (a multiple of 8).
TRANSPOSE_BLOCK = 1 << 16
# The three exchanges that transpose an 8 x 8 bit matrix held in a 64-bit word, row r in
# byte r (bit c of row r at bit 8r + c): (shift, mask of the bits that move), as in
# Warren's "Hacker's Delight", section 7-3.
_EXCHANGES = ((7, 0x00AA00AA00AA00AA), (14, 0x0000CCCC0000CCCC), (28, 0x00000000F0F0F0F0))


def transpose_bits(words: np.ndarray, ncols: int) -> np.ndarray:
    """Transpose a packed bit matrix: ``(n, w)`` words of ``ncols`` bits -> ``(ncols, words_for_bits(n))``.

    Bit ``c`` of input row ``i`` becomes bit ``i`` of output row ``c``.  Every
    8 x 8 tile of bits is transposed inside one 64-bit word (three masked
    exchanges), whole arrays of tiles at a time, ``TRANSPOSE_BLOCK`` input rows
    a step: the scratch is a few copies of one block, however tall the matrix.

    Example:
        >>> rows = pack_rows([[1, 0], [1, 1], [0, 1]])        # 3 rows of 2 bits
        >>> unpack_rows(transpose_bits(rows, 2), 3).astype(int).tolist()
        [[1, 1, 0], [0, 1, 1]]
    """
    n = words.shape[0]
    nbytes = (ncols + 7) // 8  # the bytes of each input row that hold bits
    target = np.zeros((8 * nbytes, 8 * words_for_bits(n)), dtype=np.uint8)  # little-endian words' bytes
    if n and ncols:
        source = np.ascontiguousarray(words, dtype=np.uint64).astype("<u8", copy=False).view(np.uint8)
        source = source.reshape(n, -1)[:, :nbytes]
        for lo in range(0, n, TRANSPOSE_BLOCK):
            hi = min(n, lo + TRANSPOSE_BLOCK)
            tiles_down = (hi - lo + 7) // 8
            block = np.zeros((8 * tiles_down, nbytes), dtype=np.uint8)
            block[: hi - lo] = source[lo:hi]
            # tile (t, j): rows 8t..8t+7 of byte column j, row r of the tile in byte r of a word
            tiles = np.ascontiguousarray(block.reshape(tiles_down, 8, nbytes).transpose(0, 2, 1))
            x = tiles.view("<u8").reshape(tiles_down, nbytes)
            for shift, mask in _EXCHANGES:
                moved = (x ^ (x >> np.uint64(shift))) & np.uint64(mask)
                x ^= moved ^ (moved << np.uint64(shift))
            # now byte b of tile (t, j) holds bit b of its 8 rows: output row 8j + b, byte t
            flipped = x.view(np.uint8).reshape(tiles_down, nbytes, 8)
            target[:, lo // 8: lo // 8 + tiles_down] = flipped.transpose(1, 2, 0).reshape(8 * nbytes, tiles_down)
    return np.ascontiguousarray(target[:ncols]).view("<u8").astype(np.uint64, copy=False)
