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
