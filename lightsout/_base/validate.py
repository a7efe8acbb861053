"""One place for argument checks, so every public function words each mistake the same way.

A graph's checks live with its conversion (lightsout/_core/graphinput.py), and each route's budget
with its route (lightsout/_routes/); the limits here are the board's own: cells, axes, states.
"""
from __future__ import annotations

import math
import numbers
import operator

import numpy as np
import numpy.typing as npt

from lightsout._base.errors import (
    BoardTooLargeError, InvalidBoardError, InvalidTypeError, masked_array_error, two_states_error,
)
from lightsout._base.packing import words_for_bits


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
    return zero_one(arr, name)


def bit_row(row: npt.ArrayLike, name: str, length: int) -> np.ndarray:
    """Check a 1-D row of ``length`` 0/1 values and return it as a bool array.

    Example:
        >>> bit_row([1, 0, 1], "first_row", 3).tolist()
        [True, False, True]
    """
    arr = numeric_array(row, name, f"a 1-D sequence of {length} 0/1 values")
    if arr.ndim != 1 or arr.shape[0] != length:
        raise InvalidBoardError(f"{name} must be 1-D of length {length} (the board's width), got shape {arr.shape}")
    return zero_one(arr, name)


def numeric_array(value: object, name: str, what: str) -> np.ndarray:
    """``value`` as a numpy array of numbers or bools (not yet checked for 0/1); ``what`` describes it.

    Example:
        >>> numeric_array([[1, 0]], "a", "a 2-D array of 0/1 values").shape
        (1, 2)
    """
    if isinstance(value, np.ma.MaskedArray):
        raise masked_array_error(name)
    try:
        arr = np.asarray(value)
    except Exception as exc:  # ragged lists and the like
        raise InvalidBoardError(f"{name} must be {what}: {exc}") from exc
    if arr.dtype == object or arr.dtype.kind not in "biuf":
        raise InvalidTypeError(f"{name} must be {what} (numbers or bools), got dtype {arr.dtype}")
    return arr


def zero_one(arr: np.ndarray, name: str, *, states_hint: bool = True) -> np.ndarray:
    """``arr`` as bools (a view for bools and one-byte integers), refusing any value but 0 and 1.

    The one 0/1 check of the package: one pass for integers (viewed as unsigned, a
    negative value is huge, so one max() checks both ends), two counts for floats
    (NaN and every value but 0 and 1 make them differ).  ``states_hint``: the
    message says how to ask for more light states (for boards, not for matrices).

    Example:
        >>> zero_one(np.array([[0, 1], [1, 1]], dtype=np.int64), "a").tolist()
        [[False, True], [True, True]]
        >>> zero_one(np.array([0.0, 0.5]), "a")
        Traceback (most recent call last):
        ...
        lightsout.InvalidBoardError: a must contain only 0 and 1 (or False/True), found 0.5
    """
    kind = arr.dtype.kind
    if kind == "b":
        return arr
    if kind in "iu":
        unsigned = arr.view(arr.dtype.str.replace("i", "u"))
        if unsigned.size == 0 or int(unsigned.max()) <= 1:
            return unsigned.view(np.bool_) if arr.dtype.itemsize == 1 else arr.astype(np.bool_)
    else:
        bits = arr.astype(np.bool_)
        if np.count_nonzero(bits) == np.count_nonzero(arr == 1):
            return bits
    raise two_states_error(name, arr, MAX_STATES if states_hint else 2)


#: Most light states a board may have: counts are kept in one byte.
MAX_STATES = 255


def states_count(states: object, name: str = "states") -> int:
    """Check a ``states=`` argument (or a modulus): the number of light states k, an int from 2 to 255.

    Example:
        >>> states_count(3)
        3
    """
    if isinstance(states, (bool, np.bool_)) or not isinstance(states, numbers.Integral):
        raise InvalidTypeError(f"{name} must be an int from 2 to {MAX_STATES}, got {type(states).__name__} {states!r}")
    k = operator.index(states)
    if not 2 <= k <= MAX_STATES:
        what = " (lights with k states)" if name == "states" else ""
        raise InvalidBoardError(f"{name} must be an int from 2 to {MAX_STATES}{what}, got {k}")
    return k


def flag(value: object, name: str) -> bool:
    """Check a yes/no keyword such as ``self_toggle=``: a bool (numpy bools too).

    Example:
        >>> flag(True, "self_toggle")
        True
    """
    if not isinstance(value, (bool, np.bool_)):
        raise InvalidTypeError(f"{name} must be True or False, got {type(value).__name__} {value!r}")
    return bool(value)


def torus_axes(torus: object, ndim: int) -> tuple[bool, ...]:
    """Check a ``torus=`` argument: one bool for every axis, or one bool per axis.

    Example:
        >>> torus_axes(True, 2), torus_axes([False, True], 2)
        ((True, True), (False, True))
    """
    if isinstance(torus, (bool, np.bool_)):
        return (bool(torus),) * ndim
    accepted = f"True/False or a sequence of {ndim} bools (one per axis)"
    if isinstance(torus, (str, bytes)) or not hasattr(torus, "__len__") or not hasattr(torus, "__iter__"):
        raise InvalidTypeError(f"torus must be {accepted}, got {type(torus).__name__} {torus!r}")
    axes = list(torus)
    if len(axes) != ndim:
        raise InvalidBoardError(f"torus must be {accepted}; got {len(axes)} values for a board with {ndim} axes")
    if not all(isinstance(a, (bool, np.bool_)) for a in axes):
        raise InvalidTypeError(f"torus must be {accepted}, got {torus!r}")
    return tuple(bool(a) for a in axes)


def board_shape(shape: object, name: str = "shape") -> tuple[int, ...]:
    """Check a board shape: a positive int (a line) or a non-empty sequence of positive ints.

    Example:
        >>> board_shape((3, 4, 5)), board_shape(7)
        ((3, 4, 5), (7,))
    """
    if isinstance(shape, (bool, np.bool_)):
        raise InvalidTypeError(f"{name} must be a positive int or a sequence of positive ints, got {shape!r}")
    if isinstance(shape, numbers.Integral):
        return (board_size(shape, name),)
    if isinstance(shape, (str, bytes)) or not isinstance(shape, (tuple, list, np.ndarray)):
        raise InvalidTypeError(f"{name} must be a positive int or a sequence of positive ints, "
                               f"got {type(shape).__name__} {shape!r}")
    if len(shape) > MAX_AXES:
        raise InvalidBoardError(f"{name} has {len(shape)} axes; boards may have at most {MAX_AXES} "
                                f"(lightsout.limits.MAX_AXES)")
    sizes = tuple(board_size(s, f"{name}[{i}]") for i, s in enumerate(list(shape)))
    if not sizes:
        raise InvalidBoardError(f"{name} must have at least one axis, got {shape!r}")
    cells = 1
    for s in sizes:
        cells *= s
    if cells > MAX_BOARD_CELLS:
        raise BoardTooLargeError(f"a board of shape {sizes} has {cells:.3g} cells, over the limit of "
                                 f"{MAX_BOARD_CELLS:.3g} (lightsout.limits.MAX_BOARD_CELLS)")
    return sizes


def board_values(board: npt.ArrayLike, states: int = 2, name: str = "board") -> np.ndarray:
    """Check a board of any number of axes holding light states 0..states-1.

    Returns a bool array for two states (as :func:`board_array` does), a
    uint8 array otherwise.  Floats must be whole numbers; every axis must be
    non-empty.

    Example:
        >>> board_values([[0, 2], [1, 0]], 3).tolist()
        [[0, 2], [1, 0]]
    """
    arr = numeric_array(board, name, f"an array of light states 0..{states - 1} with at least one axis")
    if arr.ndim == 0:
        raise InvalidBoardError(f"{name} must have at least one axis, got a single value {arr!r}")
    if arr.ndim > MAX_AXES:
        raise InvalidBoardError(f"{name} has {arr.ndim} axes; boards may have at most {MAX_AXES} "
                                f"(lightsout.limits.MAX_AXES)")
    if 0 in arr.shape:
        raise InvalidBoardError(f"{name} must have at least one cell along every axis, got shape {arr.shape}")
    if arr.size > MAX_BOARD_CELLS:
        raise BoardTooLargeError(f"{name} has {arr.size:.3g} cells, over the limit of {MAX_BOARD_CELLS:.3g} "
                                 f"(lightsout.limits.MAX_BOARD_CELLS)")
    if states == 2:
        return zero_one(arr, name)
    if arr.dtype.kind == "b":
        return arr.astype(np.uint8)
    if arr.dtype.kind == "f":
        if not np.isfinite(arr).all() or not np.array_equal(arr, np.floor(arr)):
            raise InvalidBoardError(f"{name} must hold whole numbers 0..{states - 1} (light states)")
    low, high = arr.min(), arr.max()
    if low < 0 or high >= states:
        raise InvalidBoardError(f"{name} must hold light states 0..{states - 1} (states={states}); "
                                f"found {high if high >= states else low}")
    return arr.astype(np.uint8)


def progress_callback(progress: object) -> None:
    """Check a ``progress=`` argument: None or a callable ``progress(stage, done, total)``.

    Example:
        >>> progress_callback(None); progress_callback(print)
    """
    if progress is not None and not callable(progress):
        raise InvalidTypeError(
            f"progress must be None or a callable progress(stage, done, total), got {type(progress).__name__}")


#: Most axes a board may have: numpy arrays stop at 64, and the routes add axes of their own;
#: a board of 32 axes of length 2 already has 4 * 10**9 cells.
MAX_AXES = 32

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
            f"{MAX_BOARD_CELLS:.3g} (2**32, 4 GiB as a bool array, lightsout.limits.MAX_BOARD_CELLS); work with "
            "packed rows or the polynomial route's first row instead")


def thread_count(threads: object) -> int | None:
    """Check a ``threads=`` argument: None (use every usable CPU) or a positive int.

    ``threads`` means the same on every entry point: the most threads of this process
    the call works on (None: every CPU this process may use).  numpy integers are
    accepted, bools are not.

    Example:
        >>> thread_count(None), thread_count(2), thread_count(np.int64(2))
        (None, 2, 2)
    """
    if threads is None:
        return None
    return board_size(threads, "threads")


def time_limit_seconds(value: object) -> float | None:
    """Check a ``time_limit=`` argument: None, or a number of seconds >= 0, as a float.

    ``time_limit`` means the same on every entry point: the search stops within about
    that many seconds of the call (0: weigh nothing beyond the first solution), and the
    result says that it was cut short (a :class:`lightsout.Solution` with
    ``proven_minimal=False``; a number, which cannot say so, raises
    ``MinimumNotProvenError`` instead).  numpy numbers are accepted; bools, NaN and
    negative numbers are not.

    Example:
        >>> time_limit_seconds(30), time_limit_seconds(np.int64(3)), time_limit_seconds(None)
        (30.0, 3.0, None)
    """
    if value is None:
        return None
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Real):
        raise InvalidTypeError(f"time_limit must be None or a number of seconds >= 0, got "
                               f"{type(value).__name__} {value!r}")
    try:
        seconds = float(value)
    except OverflowError:  # an int beyond a float's range: no limit in practice
        return math.inf
    if not seconds >= 0:
        raise InvalidBoardError(f"time_limit must be a number of seconds >= 0, got {value!r}")
    return seconds


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
        lightsout.InvalidBoardError: m has bits set past column 3 (the packed layout keeps them zero)
    """
    if not isinstance(array, np.ndarray) or array.dtype != np.uint64:
        got = f"dtype {array.dtype}" if isinstance(array, np.ndarray) else type(array).__name__
        raise InvalidTypeError(
            f"{name} must be a packed numpy uint64 array (rows of little-endian words), got {got}")
    if array.ndim != 2:
        raise InvalidBoardError(f"{name} must be 2-D (rows, words), got shape {array.shape}")
    need = words_for_bits(nbits)
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
