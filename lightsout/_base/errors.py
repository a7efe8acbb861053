"""Exception types raised by lightsout.

Every exception class the package raises on purpose is defined here (the
command line's and the play server's own usage errors aside).  Every one
survives ``pickle`` and ``copy.copy`` with its attributes, so errors cross
process boundaries (``ProcessPoolExecutor``, ``multiprocessing``) as themselves.

Example:
    >>> import pickle, lightsout
    >>> try:
    ...     lightsout.first_row(0)
    ... except lightsout.InvalidBoardError as exc:
    ...     print(type(pickle.loads(pickle.dumps(exc))).__name__, isinstance(exc, ValueError))
    InvalidBoardError True
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Optional

import numpy as np

from lightsout._base.packing import unpack_rows

if TYPE_CHECKING:
    from lightsout._solution import Solution

#: The distribution name, for install hints.
DISTRIBUTION = "lightsout-gf2"


class LightsOutError(Exception):
    """Base class of every exception lightsout raises on purpose.

    Catch it to handle every refusal of the package at once (bad input, unsolvable
    boards, limits); a bug in lightsout raises :class:`InternalError` instead.

    Example:
        >>> import lightsout
        >>> try:
        ...     lightsout.solve([[1, 2]])
        ... except lightsout.LightsOutError as error:
        ...     print(type(error).__name__)
        InvalidBoardError
    """


class InvalidBoardError(LightsOutError, ValueError):
    """A board, size or argument value that lightsout does not accept (also a ``ValueError``).

    The message says what was wrong and what is accepted.

    Example:
        >>> import lightsout
        >>> lightsout.first_row(0)
        Traceback (most recent call last):
        ...
        lightsout.InvalidBoardError: n must be a positive int, got 0
    """


class InvalidTypeError(LightsOutError, TypeError):
    """An argument of a type lightsout does not accept (also a ``TypeError``).

    Example:
        >>> import lightsout
        >>> try:
        ...     lightsout.first_row(2.5)
        ... except TypeError as error:
        ...     print(type(error).__name__)
        InvalidTypeError
    """


class BoardTooLargeError(InvalidBoardError, MemoryError):
    """The requested computation needs more memory or time than lightsout will spend on it.

    Raised before anything is allocated; the message names the limit and the way round it.
    Also a ``ValueError`` and a ``MemoryError``.

    Example:
        >>> import lightsout
        >>> try:
        ...     lightsout.all_lit(100_000, 100_000)
        ... except lightsout.BoardTooLargeError as error:
        ...     print(isinstance(error, MemoryError))
        True
    """


class SettingError(LightsOutError, ValueError):
    """An environment setting this machine or build cannot honour (``LIGHTSOUT_SIMD`` naming a level the CPU lacks).

    Example:
        >>> import lightsout
        >>> issubclass(lightsout.SettingError, ValueError)
        True
    """


class InternalError(RuntimeError):
    """A check of lightsout's own answer failed: a bug in lightsout, not a mistake of the caller.

    Not a :class:`LightsOutError`, so ``except LightsOutError`` (bad input, unsolvable boards)
    never hides it.  Please report it with the call that raised it.

    Example:
        >>> issubclass(InternalError, LightsOutError)
        False
    """

    def __init__(self, message: str = "internal error") -> None:
        super().__init__(f"{message} (a bug in lightsout: please report it with the call that raised it)")


class UnsolvableError(LightsOutError, ValueError):
    """The board cannot be turned dark.

    Attributes:
        quiet_pattern: a quiet pattern (a set of presses that changes no light)
            covering an odd number of the board's lit cells, bool array of the
            board's shape; it proves the board unsolvable, since every
            solvable board meets every quiet pattern an even number of times.
            None for boards over ``MAX_PATTERN_CELLS`` cells.
        quiet_first_row: the first row of that quiet pattern (chasing it down
            the dark board rebuilds the pattern).
        nullity: dimension of the board's quiet-pattern space.

    The error pickles and copies with its attributes (every argument but the
    message is a keyword with a default, as ``BaseException.__reduce__`` needs).

    Example:
        >>> import lightsout, numpy as np
        >>> board = [[1, 0], [0, 0]]
        >>> lightsout.is_solvable(board, self_toggle=False)
        False
        >>> try:
        ...     lightsout.solve(board, self_toggle=False)
        ... except lightsout.UnsolvableError as error:
        ...     proof = error.quiet_pattern
        >>> bool((lightsout.press(proof * 0, proof, self_toggle=False) == 0).all())   # quiet
        True
        >>> int((proof & np.equal(board, 1)).sum()) % 2     # meets the lit cells an odd number of times
        1
    """

    def __init__(self, message: str = "the board cannot be turned dark",
                 quiet_pattern: Optional[np.ndarray] = None,
                 quiet_first_row: Optional[np.ndarray] = None, nullity: int = 0) -> None:
        super().__init__(message)
        self._quiet_pattern = quiet_pattern
        self._packed_pattern: Optional[tuple[np.ndarray, int, bool]] = None
        self.quiet_first_row = quiet_first_row
        self.nullity = nullity
        #: The rules and the route, as on a Solution (set by :func:`solve`; None elsewhere).
        self.torus: Optional[tuple[bool, ...]] = None
        self.self_toggle: Optional[bool] = None
        self.method: Optional[str] = None

    @property
    def quiet_pattern(self) -> Optional[np.ndarray]:
        """The obstructing quiet pattern (bool, the board's shape), unpacked on first access.

        Example:
            >>> import lightsout
            >>> try:
            ...     lightsout.solve([[1, 0, 0]], self_toggle=False)
            ... except lightsout.UnsolvableError as error:
            ...     print(error.quiet_pattern.astype(int).tolist())
            [[1, 0, 1]]
        """
        if self._quiet_pattern is None and self._packed_pattern is not None:
            presses, cols, transposed = self._packed_pattern
            pattern = unpack_rows(presses, cols)
            self._quiet_pattern = np.ascontiguousarray(pattern.T) if transposed else pattern
            self._packed_pattern = None
        return self._quiet_pattern

    @quiet_pattern.setter
    def quiet_pattern(self, value: Optional[np.ndarray]) -> None:
        self._quiet_pattern, self._packed_pattern = value, None


def unsolvable_error(subject: str, nullity: int, states: int = 2, *, lit_cells_met: Optional[int] = None,
                     inner_product: Optional[int] = None, quiet_pattern: Optional[np.ndarray] = None,
                     quiet_first_row: Optional[np.ndarray] = None) -> UnsolvableError:
    """The one way every route says that a board is unsolvable, with its proof.

    Args:
        subject: the board, as the message names it ("this 4 x 4 board").
        nullity: the dimension of its quiet-pattern space.
        states: the number of light states k.
        lit_cells_met: two states: the number of lit cells the quiet pattern presses (odd).
        inner_product: k states: the pattern's inner product with the board mod k (nonzero).
        quiet_pattern, quiet_first_row: the proof; with neither count, the pattern was too
            large to build and its first row alone is given.

    Example:
        >>> error = unsolvable_error("this 1 x 3 board", 1, lit_cells_met=1)
        >>> str(error).split(":")[0]
        'this 1 x 3 board cannot be turned dark'
    """
    seen = "the quiet pattern in .quiet_pattern (pressing it changes no light)"
    if lit_cells_met is None and inner_product is None:
        message = (f"{subject} cannot be turned dark (nullity {nullity}): the quiet pattern whose first row is "
                   f".quiet_first_row (pressing it changes no light) covers an odd number of lit cells; the board "
                   f"is too large to build that pattern")
    elif states == 2:
        cells = lit_cells_met if lit_cells_met is not None else 1
        message = (f"{subject} cannot be turned dark: {seen} covers {cells} lit {'cell' if cells == 1 else 'cells'}, "
                   f"an odd number, and every solvable board meets every quiet pattern an even number of times")
    else:
        message = (f"{subject} with {states} states cannot be turned dark: {seen} meets the board with inner "
                   f"product {inner_product} (mod {states}), not 0, and every solvable board meets every quiet "
                   f"pattern with inner product 0")
    return UnsolvableError(message, quiet_pattern, quiet_first_row, nullity)


class MinimumNotProvenError(LightsOutError, TimeoutError):
    """A time limit ran out before the fewest-press search covered every solution.

    Attributes:
        best: the best :class:`lightsout.Solution` found (``proven_minimal=False``).

    Example:
        >>> import lightsout
        >>> try:
        ...     lightsout.fewest_presses(203, time_limit=0.01)     # nullity 38, past the shipped table
        ... except lightsout.MinimumNotProvenError as error:
        ...     print(error.best.proven_minimal, error.best.verify())
        False True
    """

    def __init__(self, message: str = "the search for the fewest presses was cut short",
                 best: Optional["Solution"] = None) -> None:
        super().__init__(message)
        self.best = best


class MissingExtraError(LightsOutError, ImportError):
    """An optional dependency is not installed; the message names the extra that brings it.

    Example:
        >>> str(MissingExtraError("plotting", "matplotlib", "plot"))
        "plotting needs matplotlib, which is not installed: pip install 'lightsout-gf2[plot]'"
    """

    def __init__(self, what: str = "this", package: str = "a package", extra: str = "") -> None:
        hint = f"pip install '{DISTRIBUTION}[{extra}]'" if extra else f"pip install {package}"
        super().__init__(f"{what} needs {package}, which is not installed: {hint}")
        self.what, self.package, self.extra = what, package, extra

    def __reduce__(self) -> tuple[object, ...]:
        return (type(self), (self.what, self.package, self.extra))


class NoSolutionError(UnsolvableError):
    """The linear system ``a @ x = b`` (mod 2) has no solution (:mod:`lightsout.gf2`).

    An :class:`lightsout.UnsolvableError` like a board that cannot be turned dark, so one
    ``except lightsout.UnsolvableError`` catches both.

    Attributes:
        rank: rank of ``a`` over GF(2) (None if not given).
        augmented_rank: rank of ``[a | b]``, one more than ``rank``.

    Example:
        >>> import pickle
        >>> error = NoSolutionError("no solution", rank=1, augmented_rank=2)
        >>> pickle.loads(pickle.dumps(error)).augmented_rank
        2
    """

    def __init__(self, message: str, rank: Optional[int] = None, augmented_rank: Optional[int] = None) -> None:
        super().__init__(message)
        self.rank = rank
        self.augmented_rank = augmented_rank

    def __reduce__(self) -> tuple[Any, ...]:
        # Rebuild from every constructor argument (pickle, copy.copy, ProcessPoolExecutor).
        return (type(self), (str(self), self.rank, self.augmented_rank), self.__dict__)


# Reached as lightsout.<name> (lightsout.gf2.NoSolutionError): tracebacks, reprs and pickles name
# them where users find them.
for _error in (LightsOutError, InvalidBoardError, InvalidTypeError, BoardTooLargeError, SettingError,
               InternalError, UnsolvableError, MinimumNotProvenError, MissingExtraError):
    _error.__module__ = "lightsout"
NoSolutionError.__module__ = "lightsout.gf2"
del _error
