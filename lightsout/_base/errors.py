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
from lightsout._version import DISTRIBUTION  # the distribution's name, for install hints

if TYPE_CHECKING:  # the floors above; at run time these modules import this one
    from lightsout._core.rules import Rules
    from lightsout._solution import Solution


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


class CheckpointError(InvalidBoardError):
    """A fewest-press search's checkpoint file that cannot be resumed: written for another
    problem (another coset, split or symmetric cut), or not a whole checkpoint (truncated,
    corrupt, another format).  The message names the file and what differs.  Also a ``ValueError``.

    Example:
        >>> import lightsout
        >>> issubclass(CheckpointError, lightsout.InvalidBoardError)
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
        >>> import lightsout
        >>> issubclass(lightsout.InternalError, lightsout.LightsOutError)
        False
    """

    def __init__(self, message: str = "internal error") -> None:
        super().__init__(f"{message} (a bug in lightsout: please report it with the call that raised it)")
        self.detail = message

    def __reduce__(self) -> tuple[Any, ...]:
        # Rebuilt from the message as given, so that a copy does not say "please report it" twice.
        return (type(self), (self.detail,), self.__dict__)


class UnsolvableError(LightsOutError, ValueError):
    """The board cannot be turned dark; the error carries the proof.

    Attributes:
        quiet_first_row: the first row of the quiet pattern that proves it
            (chasing it down the dark board rebuilds the pattern).
        nullity: dimension of the board's quiet-pattern space.
        rules: the board's shape and rules as one frozen value, as a solvable
            board's :class:`lightsout.Solution` has them (``shape``, ``wraps``: one
            bool per axis, ``self_toggle``, ``states``); set by :func:`lightsout.solve`,
            None for a graph (:func:`lightsout.solve_graph`) and for
            :mod:`lightsout.gf2`.  :attr:`torus`, :attr:`self_toggle` and
            :attr:`states` read it.
        method: the route that found the board unsolvable, as ``Solution.method``
            (set by :func:`lightsout.solve`, else None).
        proof: the weights on the lights that prove it (see :attr:`proof`).

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
        ...     print(error.rules.shape, error.method)
        (2, 2) nd
        >>> bool((lightsout.press(proof * 0, proof, self_toggle=False) == 0).all())   # quiet
        True
        >>> int((proof & np.equal(board, 1)).sum()) % 2     # meets the lit cells an odd number of times
        1
    """

    def __init__(self, message: str = "the board cannot be turned dark",
                 quiet_pattern: Optional[np.ndarray] = None,
                 quiet_first_row: Optional[np.ndarray] = None, nullity: int = 0, *,
                 rules: Optional["Rules"] = None, method: Optional[str] = None) -> None:
        super().__init__(message)
        self._proof: Optional[np.ndarray] = None
        self._quiet_pattern = quiet_pattern
        self._packed_pattern: Optional[tuple[np.ndarray, int, bool]] = None
        self.quiet_first_row = quiet_first_row
        self.nullity = nullity
        #: Why, said in other words (the command line's), when :func:`unsolvable_error` built the error.
        self.reason: Optional[UnsolvableReason] = None
        self.rules = rules
        self.method = method

    @property
    def quiet_pattern(self) -> Optional[np.ndarray]:
        """The quiet pattern that proves the board unsolvable (None past 10**8 cells).

        Pressing it changes no light, and it meets the lit cells an odd number of
        times (k states: its inner product with the board is not 0 mod k), where
        every solvable board meets every quiet pattern an even number of times.
        A bool array of the board's shape (uint8 press counts for k states),
        unpacked on first access; for a board over 10**8 cells it is not built,
        and ``quiet_first_row`` alone is given.

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

    @property
    def proof(self) -> Optional[np.ndarray]:
        """Weights y on the lights (an array of the board's shape, uint8 0..k-1) that prove the board unsolvable.

        No allowed press changes the weighted sum ``(y * lights).sum() % k`` (y is 0 on holes
        and free lights, and ``y^T A == 0`` on every pressable column of the press matrix A),
        and the board's weighted sum is not 0, while a dark board's is.  Under today's rules
        (the plus rule or the sigma game, no masks) A is symmetric and the proof is the quiet
        pattern (:attr:`quiet_pattern`, as uint8); with a one-way stencil or masks it is the
        left kernel's vector, and :attr:`quiet_pattern` is None unless it is also quiet.
        None for a board too large to build the pattern.

        Example:
            >>> import lightsout
            >>> try:
            ...     lightsout.solve([[0, 1]], stencil=[[0, 1, 1]], unpressable=[[0, 1]])
            ... except lightsout.UnsolvableError as error:
            ...     print(error.proof.tolist())
            [[1, 1]]
        """
        if self._proof is not None:
            return self._proof
        pattern = self.quiet_pattern
        return None if pattern is None else np.asarray(pattern, dtype=np.uint8)

    @property
    def torus(self) -> Optional[tuple[bool, ...]]:
        """Which axes of the board wrap around, one bool per axis (``rules.wraps``; None without rules).

        Example:
            >>> import lightsout
            >>> try:
            ...     lightsout.solve([[1, 0, 0], [0, 0, 0], [0, 0, 0]], torus=(True, False))
            ... except lightsout.UnsolvableError as error:
            ...     print(error.torus)
            (True, False)
        """
        return None if self.rules is None else self.rules.wraps

    @property
    def self_toggle(self) -> Optional[bool]:
        """Whether a press changes its own cell too, False in the sigma game (None without rules).

        Example:
            >>> import lightsout
            >>> try:
            ...     lightsout.solve([[1, 0, 0]], self_toggle=False)
            ... except lightsout.UnsolvableError as error:
            ...     print(error.self_toggle)
            False
        """
        return None if self.rules is None else self.rules.self_toggle

    @property
    def states(self) -> Optional[int]:
        """The number of light states k (``rules.states``, or a graph's; None where not known).

        Example:
            >>> import lightsout
            >>> try:
            ...     lightsout.solve_graph([(0, 1), (1, 2)], [1, 0, 0], self_toggle=False, states=3)
            ... except lightsout.UnsolvableError as error:
            ...     print(error.states, error.torus)
            3 None
        """
        if self.rules is not None:
            return self.rules.states
        return None if self.reason is None else self.reason.states


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
    reason = UnsolvableReason(subject, nullity, states, lit_cells_met, inner_product)
    error = UnsolvableError(reason.message(PYTHON_WORDS), quiet_pattern, quiet_first_row, nullity)
    error.reason = reason
    return error


def left_kernel_error(subject: str, nullity: int, states: int, proof: np.ndarray, weighted_sum: int, *,
                      quiet: bool) -> UnsolvableError:
    """The UnsolvableError of a board under a stencil or masks, proven by weights on its lights (the left kernel).

    ``quiet``: the proof is also a quiet pattern (a symmetric rule without masks), and is given
    as :attr:`UnsolvableError.quiet_pattern` too.

    Example:
        >>> error = left_kernel_error("this board of shape (1, 2)", 0, 2, np.array([[1, 1]], np.uint8), 1, quiet=False)
        >>> str(error).split(":")[0], error.proof.tolist(), error.quiet_pattern
        ('this board of shape (1, 2) cannot be turned dark', [[1, 1]], None)
    """
    pattern = (proof.astype(bool) if states == 2 else proof) if quiet else None
    message = (f"{subject} cannot be turned dark: the weights on the lights in .proof sum to {weighted_sum} "
               f"(mod {states}) on the board, not 0, and no allowed press changes that sum")
    error = UnsolvableError(message, pattern, None if pattern is None or pattern.ndim < 2 else pattern[0], nullity)
    error._proof = proof
    return error


#: How a message names the proof: the quiet pattern, and its first row when the pattern is too large to build.
PYTHON_WORDS = ("the quiet pattern in .quiet_pattern (pressing it changes no light)",
                "the quiet pattern whose first row is .quiet_first_row (pressing it changes no light)")


class UnsolvableReason:
    """Why a board is unsolvable, in the words of whoever shows it (Python's attributes, the command line's output).

    Example:
        >>> reason = UnsolvableReason("this 1 x 3 board", 1, 2, 1, None)
        >>> reason.message(("the pattern P", "the pattern whose first row is R"))
        'this 1 x 3 board cannot be turned dark: the pattern P covers 1 lit cell, an odd number, and every ...'
    """

    def __init__(self, subject: str, nullity: int, states: int, lit_cells_met: Optional[int],
                 inner_product: Optional[int]) -> None:
        self.subject, self.nullity, self.states = subject, nullity, states
        self.lit_cells_met, self.inner_product = lit_cells_met, inner_product

    def message(self, words: tuple[str, str]) -> str:
        """The one-line message; ``words`` names the quiet pattern, and the pattern known by its first row."""
        pattern, by_first_row = words
        subject, states = self.subject, self.states
        if self.lit_cells_met is None and self.inner_product is None:
            return (f"{subject} cannot be turned dark (nullity {self.nullity}): {by_first_row} covers an odd "
                    f"number of lit cells; the board is too large to build that pattern")
        if states == 2:
            cells = self.lit_cells_met if self.lit_cells_met is not None else 1
            lit = f"{cells} lit {'cell' if cells == 1 else 'cells'}"
            return (f"{subject} cannot be turned dark: {pattern} covers {lit}, an odd number, and every solvable "
                    f"board meets every quiet pattern an even number of times")
        return (f"{subject} with {states} states cannot be turned dark: {pattern} meets the board with inner "
                f"product {self.inner_product} (mod {states}), not 0, and every solvable board meets every quiet "
                f"pattern with inner product 0")


def two_states_error(name: str, values: object, most_states: int) -> InvalidBoardError:
    """The one message for a two-state board that holds another value: which, and how to ask for more states.

    A whole number from 2 up is most likely a light state of a board with more
    states (or a press count of its solution), so the message says how to pass
    them, to Python and to the command line; ``most_states`` is the largest
    number of states accepted.

    Example:
        >>> print(two_states_error("board", np.array([[0, 1, 2]]), 255))
        board must contain only 0 and 1 (or False/True), found 2; lights with more states need states=K, K from 3 to 255 (--states K on the command line)
        >>> print(two_states_error("board", [0.5], 255))
        board must contain only 0 and 1 (or False/True), found 0.5
    """
    flat = np.asarray(values).ravel()
    message = f"{name} must contain only 0 and 1 (or False/True)"
    if flat.dtype.kind in "iuf":
        bad = flat[(flat != 0) & (flat != 1)]
        if bad.size:
            found = bad[0].item()
            message += f", found {found}"
            whole = isinstance(found, int) or (isinstance(found, float) and found.is_integer())
            if whole and 2 <= found < most_states:
                message += (f"; lights with more states need states=K, K from {int(found) + 1} to {most_states} "
                            f"(--states K on the command line)")
    return InvalidBoardError(message)


def masked_array_error(name: str) -> InvalidTypeError:
    """The one refusal of a numpy masked array: lightsout gives a mask no meaning, so it will not drop one.

    Example:
        >>> print(masked_array_error("board"))
        board is a numpy masked array, and lightsout gives masks no meaning (it would solve the data under the mask as if unmasked); pass board.filled(0) to make the masked cells dark, or board.data to ignore the mask
    """
    return InvalidTypeError(
        f"{name} is a numpy masked array, and lightsout gives masks no meaning (it would solve the data under "
        f"the mask as if unmasked); pass {name}.filled(0) to make the masked cells dark, or {name}.data to ignore "
        f"the mask")


class MinimumNotProvenError(LightsOutError, TimeoutError):
    """A time limit ran out before the fewest-press search covered every solution.

    Attributes:
        best: the best :class:`lightsout.Solution` found (``proven_minimal=False``).
        presses: its number of presses; lower_bound: a proven lower bound on the
            fewest presses (``best.lower_bound``); gap: ``presses - lower_bound``
            (each None without ``best``).

    Example:
        >>> import lightsout
        >>> try:
        ...     lightsout.fewest_presses(203, time_limit=0.01)     # nullity 38, past the shipped table
        ... except lightsout.MinimumNotProvenError as error:
        ...     print(error.best.proven_minimal, error.best.verify(), error.lower_bound <= error.presses)
        False True True
    """

    def __init__(self, message: str = "the search for the fewest presses was cut short",
                 best: Optional["Solution"] = None) -> None:
        super().__init__(message)
        self.best = best

    @property
    def presses(self) -> Optional[int]:
        """The presses of the best solution found (None without ``best``).

        Example:
            >>> import lightsout
            >>> print(lightsout.MinimumNotProvenError("cut short").presses)
            None
        """
        return None if self.best is None else int(self.best.presses.sum(dtype="int64"))

    @property
    def lower_bound(self) -> Optional[int]:
        """A proven lower bound on the fewest presses, ``best.lower_bound`` (None without ``best``).

        Example:
            >>> import lightsout
            >>> print(lightsout.MinimumNotProvenError("cut short").lower_bound)
            None
        """
        return None if self.best is None else self.best.lower_bound

    @property
    def gap(self) -> Optional[int]:
        """How many presses the best found may be above the fewest, ``presses - lower_bound``.

        Example:
            >>> import lightsout
            >>> print(lightsout.MinimumNotProvenError("cut short").gap)
            None
        """
        return None if self.best is None else self.best.gap


class MissingExtraError(LightsOutError, ImportError):
    """An optional dependency is not installed; the message names the extra that brings it.

    Example:
        >>> import lightsout
        >>> str(lightsout.MissingExtraError("plotting", "matplotlib", "plot"))
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
        >>> import lightsout
        >>> try:
        ...     lightsout.gf2.solve([[1, 1], [1, 1]], [0, 1])
        ... except lightsout.UnsolvableError as error:       # a NoSolutionError is one
        ...     print(type(error).__name__, error.rank, error.augmented_rank)
        NoSolutionError 1 2
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
