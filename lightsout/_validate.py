"""One place for input checks, so every public function words each mistake the same way."""
from __future__ import annotations

import numbers
import operator

import numpy as np
import numpy.typing as npt

from lightsout._errors import BoardTooLargeError, InvalidBoardError, InvalidTypeError


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
    """Check a 2-D board of 0/1 values (ints, floats or bools) and return it as a bool array.

    Costs one pass over integer input (a view, no copy, for uint8), so a board
    of 0/1 integers is checked about as fast as a bool one.

    Example:
        >>> board_array([[1, 0], [0, 1]]).tolist()
        [[True, False], [False, True]]
    """
    arr = numeric_array(board, name, "a rectangular 2-D array of 0/1 values")
    if arr.ndim != 2:
        raise InvalidBoardError(f"{name} must be 2-D (rows x columns), got shape {arr.shape}")
    if arr.shape[0] == 0 or arr.shape[1] == 0:
        raise InvalidBoardError(f"{name} must have at least one row and one column, got shape {arr.shape}")
    return _zero_one(arr, name)


def bit_row(row: npt.ArrayLike, name: str, length: int) -> np.ndarray:
    """Check a 1-D row of ``length`` 0/1 values and return it as a bool array.

    Example:
        >>> bit_row([1, 0, 1], "first_row", 3).tolist()
        [True, False, True]
    """
    arr = numeric_array(row, name, f"a 1-D sequence of {length} 0/1 values")
    if arr.ndim != 1 or arr.shape[0] != length:
        raise InvalidBoardError(f"{name} must be 1-D of length {length} (the board's width), got shape {arr.shape}")
    return _zero_one(arr, name)


def numeric_array(value: object, name: str, what: str) -> np.ndarray:
    """``value`` as a numpy array of numbers or bools (not yet checked for 0/1); ``what`` describes it.

    Example:
        >>> numeric_array([[1, 0]], "a", "a 2-D array of 0/1 values").shape
        (1, 2)
    """
    try:
        arr = np.asarray(value)
    except Exception as exc:  # ragged lists and the like
        raise InvalidBoardError(f"{name} must be {what}: {exc}") from exc
    if arr.dtype == object or arr.dtype.kind not in "biuf":
        raise InvalidTypeError(f"{name} must hold 0/1 numbers or bools, got dtype {arr.dtype}")
    return arr


def _zero_one(arr: np.ndarray, name: str) -> np.ndarray:
    """``arr`` as bools, refusing any value but 0 and 1: one pass for integers."""
    kind = arr.dtype.kind
    if kind == "b":
        return arr
    if kind in "iu":
        # Viewed as unsigned, a negative value is huge, so one max() checks both ends.
        native = arr if arr.dtype.isnative else arr.astype(arr.dtype.newbyteorder("="))
        unsigned = np.ascontiguousarray(native).view(f"u{arr.dtype.itemsize}")
        ok = unsigned.size == 0 or int(unsigned.max()) <= 1
        if ok:
            return unsigned.view(np.bool_) if arr.dtype.itemsize == 1 else arr.astype(bool)
    else:
        bits = arr.astype(bool)
        if np.array_equal(arr, bits):
            return bits
    raise InvalidBoardError(f"{name} must contain only 0 and 1 (or False/True)")


def progress_callback(progress: object) -> None:
    """Check a ``progress=`` argument: None or a callable ``progress(stage, done, total)``.

    Example:
        >>> progress_callback(None); progress_callback(print)
    """
    if progress is not None and not callable(progress):
        raise InvalidTypeError(
            f"progress must be None or a callable progress(stage, done, total), got {type(progress).__name__}")


#: Largest board (cells) lightsout allocates unpacked, one byte per cell: 4 GiB.
#: A board this size packs into 512 MiB, solves by the polynomial route in
#: about a minute, and leaves room on a 16 GiB machine for the presses and the
#: temporaries of unpacking them; beyond it, work with packed rows.
MAX_BOARD_CELLS = 1 << 32


def board_cells(rows: int, cols: int, what: str) -> None:
    """Refuse to allocate an unpacked rows x cols board (one byte per cell) above ``MAX_BOARD_CELLS``.

    Example:
        >>> board_cells(1000, 1000, "all_lit")
    """
    if rows * cols > MAX_BOARD_CELLS:
        raise BoardTooLargeError(
            f"{what}: a {rows} x {cols} board has {rows * cols:.3g} cells, over the limit of "
            f"{MAX_BOARD_CELLS:.3g} (2**32, 4 GiB as a bool array); work with packed rows "
            f"or the polynomial route's first row instead")


#: Largest dense C x (C+1) system (and its elimination scratch) a dense-route call may allocate.
MAX_DENSE_BYTES = 8 << 30
#: Most word operations a dense-route call may take: 2**48, about an hour at the
#: fastest rate measured on the reference machine (7e10 word operations per
#: second, AVX-512, two threads); a portable build takes several times longer.
MAX_DENSE_WORD_OPS = 1 << 48


def dense_limits(nrows: int, ncols: int, board_given: bool = False) -> None:
    """Refuse a dense-route run that would take too long or allocate too much, before any work.

    The working orientation has C = min(nrows, ncols) columns and R = max rows.
    Work: R * C * words(C + 1) word operations for the A/B iteration plus
    C * C * words(C + 1) for the elimination (at least one word per row step,
    however narrow the board).  Memory: the C x (C+1) system twice (matrix and
    scratch), a transposed copy of a given board, and O(R) bytes for the long
    side (the first column of the chase and the answer), held to the
    polynomial route's limit so that ``method="dense"`` refuses what the
    default route refuses.

    Example:
        >>> dense_limits(10_000, 10_000)
        >>> dense_limits(10**15, 1)
        Traceback (most recent call last):
        ...
        lightsout._errors.BoardTooLargeError: the dense route for a 1000000000000000 x 1 board ...
    """
    rows, cols = max(nrows, ncols), min(nrows, ncols)
    size = f"the dense route for a {nrows} x {ncols} board"
    hint = "; method='poly' (the default) needs O((R + C) C / 64) word operations and O(C) memory"
    long_side = 4 * rows  # column of the chase (uint8, then bool), the answer, its canonical copy
    if long_side > MAX_POLY_BYTES:
        raise BoardTooLargeError(
            f"{size} needs about {long_side / 2**30:.3g} GiB for its {rows}-cell side "
            f"(limit {MAX_POLY_BYTES / 2**30:.0f} GiB){hint}")
    system_words = cols * _words_for_bits(cols + 1)
    work = rows * system_words + cols * system_words
    if work > MAX_DENSE_WORD_OPS:
        raise BoardTooLargeError(
            f"{size} needs about {work:.3g} word operations (limit 2**48 = {MAX_DENSE_WORD_OPS:.3g}, "
            f"about an hour){hint}")
    need = 2 * 8 * system_words + long_side
    if board_given and ncols > nrows:
        need += 8 * rows * _words_for_bits(cols)  # the transposed board
    if need > MAX_DENSE_BYTES:
        raise BoardTooLargeError(
            f"{size} needs about {need / 2**30:.3g} GiB (limit {MAX_DENSE_BYTES / 2**30:.0f} GiB){hint}")


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


def cell_symbol(value: object, name: str, allowed: str) -> str:
    """Check a one-character cell symbol for writing boards: it must be one ``parse_board`` reads back.

    Example:
        >>> cell_symbol("#", "lit", "1#*")
        '#'
    """
    if not isinstance(value, str):
        raise InvalidTypeError(f"{name} must be a one-character str, got {type(value).__name__} {value!r}")
    if len(value) != 1 or value not in allowed:
        raise InvalidBoardError(f"{name} must be one of the characters {allowed!r} "
                                f"(so that parse_board reads the board back), got {value!r}")
    return value


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
        array = array.reshape(1, -1)
    row: np.ndarray = packed_matrix(array, name, nbits=nbits)[0]
    return row
