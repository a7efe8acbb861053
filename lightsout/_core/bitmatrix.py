"""0/1 matrices checked and packed in one pass, and the size limits of the GF(2) API.

Shared by lightsout.gf2 (0/1 matrices in and out) and lightsout.packed (packed
in and out).  Checking that values are 0/1 used numpy.isin, which sorts, and
cost 5-7x the whole bool path.  Now numbers with contiguous rows (bools, 1- to
8-byte integers and floats) are checked and packed in one pass by the compiled
``pack_zero_one`` of ``lightsout/_kernels/gf2elim.pyx``; anything else (strided
views) goes through the package's one 0/1 check
(:func:`lightsout._base.validate.zero_one`) and its one packer
(:func:`lightsout._base.packing.pack_rows`).
"""
from __future__ import annotations

import numpy as np

from lightsout._base.errors import BoardTooLargeError, two_states_error
from lightsout._base.packing import pack_rows, words_for_bits
from lightsout._base.validate import zero_one
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


def pack_zero_one(arr: np.ndarray, name: str) -> np.ndarray:
    """Check that a 2-D numeric array holds only 0 and 1 and pack it (as :func:`lightsout._base.packing.pack_rows`).

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
        return pack_rows(zero_one(arr, name, states_hint=False))
    words: np.ndarray | None = kernels.gf2elim.pack_zero_one(arr)
    if words is None:
        zero_one(arr, name, states_hint=False)  # raises, saying which value
        raise two_states_error(name, arr.view(np.uint8), 2)  # bools made from bytes other than 0 and 1
    return words
