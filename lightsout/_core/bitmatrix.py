"""0/1 matrices to packed words and back, fast, with the size limits of the GF(2) API.

Shared by lightsout.gf2 (0/1 matrices in and out) and lightsout.packed (packed
in and out).  Checking that values are 0/1 used numpy.isin, which sorts, and
cost 5-7x the whole bool path.  Now numbers with contiguous rows (bools, 1- to
8-byte integers and floats) are checked and packed in one pass by the compiled
``_gf2elim.pack_zero_one``; anything else (strided views) is checked
in numpy (a maximum over the values read as unsigned, so negatives count as
large; for floats, a comparison with the bool conversion) and then packed.
"""
from __future__ import annotations

import numpy as np

from lightsout._base.errors import BoardTooLargeError, InvalidBoardError
from lightsout._base.packing import words_for_bits
from lightsout import _kernels as kernels

#: Most memory (bytes) one GF(2) call may allocate for packed copies and results.
MAX_BYTES = 8 << 30
#: Most elimination work one GF(2) call may take on: rank bound x rows x words per row
#: (2**45 word updates is some 10-20 minutes on one core).
MAX_WORK = 1 << 45


def check_bytes(nbytes: int, what: str) -> None:
    """Refuse an allocation of more than MAX_BYTES, before making it.

    Example:
        >>> check_bytes(1 << 20, "a result")
    """
    if nbytes > MAX_BYTES:
        raise BoardTooLargeError(
            f"{what} would need {nbytes / 2**30:.1f} GiB (limit {MAX_BYTES / 2**30:.0f} GiB per call, "
            "lightsout.limits.MAX_GF2_BYTES)")


def check_elimination(nrows: int, ncols: int, extra_bytes: int = 0, what: str = "this elimination") -> None:
    """Refuse eliminating an nrows x ncols packed matrix that would exceed the memory or work limit.

    Example:
        >>> check_elimination(10_000, 10_000)
    """
    packed = nrows * words_for_bits(ncols) * 8
    check_bytes(packed + extra_bytes, f"{what} of a {nrows} x {ncols} matrix")
    work = min(nrows, ncols) * nrows * words_for_bits(ncols)
    if work > MAX_WORK:
        raise BoardTooLargeError(
            f"{what} of a {nrows} x {ncols} matrix is about {work:.1e} word updates "
            f"(limit {MAX_WORK:.1e}, some 10-20 minutes, lightsout.limits.MAX_GF2_WORD_OPS); split the problem")


def zero_one(arr: np.ndarray, name: str) -> np.ndarray:
    """Check that a numeric array holds only 0 and 1; return it as bools (a view when possible).

    Example:
        >>> zero_one(np.array([[0, 1], [1, 1]], dtype=np.int64), "a").tolist()
        [[False, True], [True, True]]
        >>> zero_one(np.array([0.0, 0.5]), "a")
        Traceback (most recent call last):
        ...
        lightsout.InvalidBoardError: a must contain only 0 and 1 (or False/True)
    """
    kind = arr.dtype.kind
    if kind == "b":
        return arr
    bad = InvalidBoardError(f"{name} must contain only 0 and 1 (or False/True)")
    if kind in "iu":
        unsigned = arr.view(arr.dtype.str.replace("i", "u"))  # negative values become large
        if unsigned.size and unsigned.max() > 1:
            raise bad
        if arr.dtype.itemsize == 1:
            return unsigned.view(np.bool_)  # 0/1 bytes are valid bools: no copy
        return arr.astype(np.bool_)
    bits = arr.astype(np.bool_)  # floats: NaN and every nonzero become True
    if np.count_nonzero(bits) != np.count_nonzero(arr == 1):
        raise bad
    return bits


def pack_zero_one(arr: np.ndarray, name: str) -> np.ndarray:
    """Check that a 2-D numeric array holds only 0 and 1 and pack it (see :func:`pack_bits`).

    Example:
        >>> pack_zero_one(np.array([[1, 0, 1], [0, 1, 1]], dtype=np.int64), "a").ravel().tolist()
        [5, 6]
    """
    dtype = arr.dtype
    one_pass = (dtype.isnative and (dtype.kind in "iub" and dtype.itemsize == 1
                                    or dtype.kind in "iu" and dtype.itemsize in (2, 4, 8)
                                    or dtype.kind == "f" and dtype.itemsize in (4, 8))
                and (arr.shape[1] <= 1 or arr.strides[1] == dtype.itemsize))
    if not one_pass:
        return pack_bits(zero_one(arr, name))
    words: np.ndarray | None = kernels.gf2elim.pack_zero_one(arr)
    if words is None:
        raise InvalidBoardError(f"{name} must contain only 0 and 1 (or False/True)")
    return words


def pack_bits(bits: np.ndarray) -> np.ndarray:
    """Pack a 2-D bool (or 0/1 uint8) array into C-contiguous ``(nrows, words)`` uint64 rows.

    Example:
        >>> pack_bits(np.array([[1, 0, 1], [0, 1, 1]], dtype=bool)).ravel().tolist()
        [5, 6]
    """
    nrows, nbits = bits.shape
    nwords = words_for_bits(nbits)
    if nbits == 0 or nrows == 0:
        return np.zeros((nrows, nwords), dtype=np.uint64)
    packed = np.packbits(bits, axis=1, bitorder="little")
    if packed.shape[1] != nwords * 8:
        padded = np.zeros((nrows, nwords * 8), dtype=np.uint8)
        padded[:, : packed.shape[1]] = packed
        packed = padded
    # packbits keeps the input's memory order: a transposed (Fortran-order) input gives
    # Fortran-order bytes, which cannot be viewed as words along a row
    return np.ascontiguousarray(packed).view("<u8").astype(np.uint64, copy=False)


def unpack_words(words: np.ndarray, nbits: int) -> np.ndarray:
    """Unpack ``(nrows, words)`` uint64 rows into an ``(nrows, nbits)`` bool array.

    Example:
        >>> unpack_words(np.array([[5], [6]], dtype=np.uint64), 3).astype(int).tolist()
        [[1, 0, 1], [0, 1, 1]]
    """
    nrows = words.shape[0]
    if nrows == 0 or nbits == 0:
        return np.zeros((nrows, nbits), dtype=bool)
    as_bytes = np.ascontiguousarray(words).astype("<u8", copy=False).view(np.uint8).reshape(nrows, -1)
    return np.unpackbits(as_bytes, axis=1, count=nbits, bitorder="little").view(np.bool_)
