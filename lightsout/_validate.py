"""One place for input checks, so every public function words each mistake the same way."""
from __future__ import annotations

import numbers
import operator

import numpy as np
import numpy.typing as npt

from lightsout._errors import BoardTooLargeError, InvalidBoardError, InvalidTypeError

#: Largest dense C x C matrix (in bytes) a dense-route call may allocate.
MAX_DENSE_BYTES = 8 << 30


def board_size(value: object, name: str) -> int:
    """Check that ``value`` is a positive integer size (bools are refused) and return it.

    Example:
        >>> board_size(5, "n")
        5
    """
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Integral):
        raise InvalidTypeError(f"{name} must be a positive int, got {type(value).__name__} {value!r}")
    size = operator.index(value)
    if size <= 0:
        raise InvalidBoardError(f"{name} must be a positive int, got {size}")
    return size


def grid_shape(n: object, m: object = None) -> tuple[int, int]:
    """Check an (n rows, m columns) pair; ``m=None`` means a square board.

    Example:
        >>> grid_shape(3), grid_shape(3, 5)
        ((3, 3), (3, 5))
    """
    rows = board_size(n, "n")
    cols = rows if m is None else board_size(m, "m")
    return rows, cols


def method_name(method: object, allowed: tuple[str, ...]) -> str:
    """Check a ``method=`` string against the accepted names.

    Example:
        >>> method_name("dense", ("auto", "dense"))
        'dense'
    """
    if not isinstance(method, str):
        raise InvalidTypeError(f"method must be a str, one of {allowed}; got {type(method).__name__}")
    if method not in allowed:
        raise InvalidBoardError(f"unknown method {method!r}; expected one of {allowed}")
    return method


def board_array(board: npt.ArrayLike, name: str = "board") -> np.ndarray:
    """Check a 2-D board of 0/1 values (ints or bools) and return it as a bool array.

    Example:
        >>> board_array([[1, 0], [0, 1]]).tolist()
        [[True, False], [False, True]]
    """
    try:
        arr = np.asarray(board)
    except Exception as exc:  # ragged lists and the like
        raise InvalidBoardError(f"{name} must be a rectangular 2-D array of 0/1 values: {exc}") from exc
    if arr.dtype == object or arr.dtype.kind not in "biuf":
        raise InvalidTypeError(f"{name} must hold 0/1 numbers or bools, got dtype {arr.dtype}")
    if arr.ndim != 2:
        raise InvalidBoardError(f"{name} must be 2-D (rows x columns), got shape {arr.shape}")
    if arr.shape[0] == 0 or arr.shape[1] == 0:
        raise InvalidBoardError(f"{name} must have at least one row and one column, got shape {arr.shape}")
    if arr.dtype.kind != "b":
        if not np.isin(arr, (0, 1)).all():
            raise InvalidBoardError(f"{name} must contain only 0 and 1 (or False/True)")
    return arr.astype(bool, copy=False)


def dense_memory(cols: int, what: str = "dense route") -> None:
    """Refuse a dense C x C computation that would not fit in memory.

    Example:
        >>> dense_memory(10_000)
    """
    need = cols * ((cols + 64) // 64) * 8 * 2
    if need > MAX_DENSE_BYTES:
        raise BoardTooLargeError(
            f"the {what} needs about {need / 2**30:.1f} GiB for {cols} columns "
            f"(limit {MAX_DENSE_BYTES / 2**30:.0f} GiB); use method='poly' for boards this wide"
        )


#: Largest polynomial-route side (words of scratch) a call may allocate: about 2 GiB.
MAX_POLY_BYTES = 2 << 30


def poly_memory(side: int) -> None:
    """Refuse a polynomial-route run whose O(side) scratch polynomials would not fit in memory.

    Example:
        >>> poly_memory(1_000_000)
    """
    need = 32 * ((side + 64) // 64) * 8  # about 32 live polynomials of degree <= side
    if need > MAX_POLY_BYTES:
        raise BoardTooLargeError(
            f"a {side}-cell side needs about {need / 2**30:.1f} GiB of polynomial scratch "
            f"(limit {MAX_POLY_BYTES / 2**30:.0f} GiB)"
        )


def thread_count(threads: object) -> int | None:
    """Check a ``threads=`` argument: None (use every usable CPU) or a positive int.

    Example:
        >>> thread_count(None), thread_count(2)
        (None, 2)
    """
    if threads is None:
        return None
    return board_size(threads, "threads")


def _words_for_bits(nbits: int) -> int:
    return (nbits + 63) // 64


def packed_matrix(array: object, name: str, *, nbits: int, nrows: int | None = None,
                  writable: bool = False, exact_words: bool = True) -> np.ndarray:
    """Check a packed bit matrix and return it: the one validation path of every kernel wrapper.

    A packed matrix is a C-contiguous 2-D ``uint64`` array, one row per row of
    bits: bit j of a row is bit ``j % 64`` of word ``j // 64``, and every bit
    past column ``nbits`` is zero.  ``nrows=None`` accepts any number of rows;
    ``exact_words=False`` accepts rows longer than ``words_for_bits(nbits)``
    (their extra words must be zero too).

    Example:
        >>> packed_matrix(np.array([[5], [6]], dtype=np.uint64), "m", nbits=3).shape
        (2, 1)
        >>> packed_matrix(np.array([[8]], dtype=np.uint64), "m", nbits=3)
        Traceback (most recent call last):
        ...
        lightsout._errors.InvalidBoardError: m has bits set past column 3 (the packed layout keeps them zero)
    """
    if not isinstance(array, np.ndarray) or array.dtype != np.uint64:
        got = f"dtype {array.dtype}" if isinstance(array, np.ndarray) else type(array).__name__
        raise InvalidTypeError(
            f"{name} must be a packed numpy uint64 array (rows of little-endian words), got {got}")
    if array.ndim != 2:
        raise InvalidBoardError(f"{name} must be 2-D (rows, words), got shape {array.shape}")
    need = _words_for_bits(nbits)
    if nrows is not None and array.shape[0] != nrows:
        raise InvalidBoardError(f"{name} must have {nrows} rows, got shape {array.shape}")
    if (array.shape[1] != need) if exact_words else (array.shape[1] < need):
        wanted = f"{need}" if exact_words else f"at least {need}"
        raise InvalidBoardError(f"{name} must have {wanted} words per row for {nbits} columns, "
                                f"got shape {array.shape}")
    if not array.flags.c_contiguous:
        raise InvalidBoardError(f"{name} must be C-contiguous; pass numpy.ascontiguousarray({name})")
    if writable and not array.flags.writeable:
        raise InvalidBoardError(f"{name} is read-only, but this kernel writes to it in place")
    if array.shape[0] and array.shape[1]:
        extra = array[:, need:]
        tail = np.uint64(0) if nbits % 64 == 0 else ~np.uint64((1 << (nbits % 64)) - 1)
        if (need and (array[:, need - 1] & tail).any()) or (extra.size and extra.any()):
            raise InvalidBoardError(f"{name} has bits set past column {nbits} "
                                    "(the packed layout keeps them zero)")
    return array


def packed_vector(array: object, name: str, *, nbits: int) -> np.ndarray:
    """Check one packed row (1-D ``uint64``, ``words_for_bits(nbits)`` words, tail bits zero).

    Example:
        >>> packed_vector(np.array([6], dtype=np.uint64), "row", nbits=3).tolist()
        [6]
    """
    if isinstance(array, np.ndarray) and array.ndim != 1 and array.dtype == np.uint64:
        raise InvalidBoardError(f"{name} must be 1-D (words), got shape {array.shape}")
    if isinstance(array, np.ndarray) and array.ndim == 1:
        return packed_matrix(array.reshape(1, -1), name, nbits=nbits)[0]
    return packed_matrix(array, name, nbits=nbits)[0]
