"""One GF(2) linear system, solved: the particular solution, the kernel, the rank, the pivots, the proof.

Every GF(2) solve of the package (the dense, N-D and graph routes, :mod:`lightsout.gf2` and
:mod:`lightsout.packed`) hands its augmented system ``[A | b]`` (packed rows, ``b`` in
column ``nvars``) to :func:`solve_gf2` and reads the answer from one
:class:`GF2System`, the GF(2) twin of :class:`lightsout._core.modring.ModSystem`: both
name one solution ``solution``, the kernel ``kernel``, its size ``count`` and its
dimension ``nullity`` alike, so a caller that takes either (the N-D and graph routes for
k states) reads them the same way.

The elimination is the compiled Gauss-Jordan kernel (``lightsout._kernels.gf2elim``),
with the pivots searched among A's columns only, so that ``b`` is carried along: the rows
past the rank are zero in A, and a 1 left in b there is an equation ``0 = 1``.  The free
variables of the solution are 0.  The kernel basis (one vector per free column, the
kernel's own reduced echelon form read by columns) is built only when first asked for,
from the eliminated matrix, so a caller that needs the solution alone (``gf2.solve``,
``is_solvable``) never pays for it.

The proof of an inconsistent system is a row vector ``y`` with ``y A = 0`` and
``y . b = 1``: the combination of equations that reads ``0 = 1``.  Asked for with
``proof=True``, it comes from the same elimination, carried out on ``[A | b | I]``.

Example:
    >>> import numpy as np
    >>> from lightsout._base.packing import pack_rows
    >>> system = solve_gf2(pack_rows([[1, 1, 0, 1], [0, 1, 1, 0]]), 3)     # x0+x1 = 1, x1+x2 = 0
    >>> system.solvable, system.solution.tolist(), system.rank, system.pivots.tolist()
    (True, [1, 0, 0], 2, [0, 1])
    >>> system.kernel.tolist(), system.nullity, system.count
    ([[1, 1, 1]], 1, 2)
    >>> bad = solve_gf2(pack_rows([[1, 1, 1], [1, 1, 0]]), 2, proof=True)     # x0+x1 = 1 and 0
    >>> bad.solvable, bad.solution, bad.proof.tolist()
    (False, None, [1, 1])
"""
from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from typing import Optional

import numpy as np
import numpy.typing as npt

from lightsout._base.errors import NoSolutionError
from lightsout._base.packing import unpack_rows, words_for_bits
from lightsout import _kernels as kernels

__all__ = ["GF2System", "augmented_system", "solve_gf2"]

U8 = npt.NDArray[np.uint8]
Words = npt.NDArray[np.uint64]


@dataclass(frozen=True, eq=False)
class GF2System:
    """The solutions of ``A u = b`` over GF(2) (the twin of :class:`~lightsout._core.modring.ModSystem`).

    Attributes:
        nvars: the number of unknowns (A's columns).
        rank: the rank of A.
        pivots: ``(rank,)`` int64, increasing: the pivot column of each row of A's
            reduced echelon form; the other columns are the free ones.
        solution: one solution, ``(nvars,)`` uint8 0/1 with every free unknown 0, or
            None if there is none.
        proof: for an inconsistent system solved with ``proof=True``, ``(nrows,)``
            uint8 0/1: a combination ``y`` of the equations with ``y A = 0`` and
            ``y . b = 1``; else None.

    The kernel (``kernel``, ``kernel_words``) is made from the eliminated matrix the
    first time it is read.
    """

    nvars: int
    rank: int
    pivots: npt.NDArray[np.int64]
    solution: Optional[U8]
    proof: Optional[U8] = None
    _reduced: Optional[Words] = field(default=None, repr=False, compare=False)

    @property
    def solvable(self) -> bool:
        """Whether the system has a solution."""
        return self.solution is not None

    @property
    def nullity(self) -> int:
        """The dimension of the kernel: ``nvars - rank``."""
        return self.nvars - self.rank

    @property
    def count(self) -> int:
        """The number of kernel vectors (the number of solutions when there is one): ``2**nullity``."""
        return 1 << self.nullity

    @cached_property
    def kernel_words(self) -> Words:
        """A basis of ``{u : A u = 0}`` as packed rows, ``(nullity, words_for_bits(nvars))`` uint64.

        One vector per free column f, increasing: bit f set, the other free bits 0.
        """
        if self.nullity == 0:
            return np.zeros((0, words_for_bits(self.nvars)), dtype=np.uint64)
        if self._reduced is None:
            raise ValueError("this GF(2) system was built without its eliminated matrix; it has no kernel")
        basis: Words = kernels.gf2elim.null_space(self._reduced, self.nvars, self.pivots)
        return basis

    @cached_property
    def kernel(self) -> U8:
        """The kernel basis of :attr:`kernel_words` as ``(nullity, nvars)`` uint8 0/1 rows."""
        rows: U8 = unpack_rows(self.kernel_words, self.nvars).view(np.uint8)
        return rows

    def no_solution_error(self) -> NoSolutionError:
        """The NoSolutionError of an inconsistent system, with both ranks (the one wording of it).

        Example:
            >>> from lightsout._base.packing import pack_rows
            >>> print(solve_gf2(pack_rows([[1, 1, 1], [1, 1, 0]]), 2).no_solution_error())
            a @ x = b has no solution over GF(2) (rank of a is 1, rank of [a | b] is 2)
        """
        return NoSolutionError(
            f"a @ x = b has no solution over GF(2) (rank of a is {self.rank}, rank of [a | b] is {self.rank + 1})",
            rank=self.rank, augmented_rank=self.rank + 1)


def augmented_system(matrix: Words, rhs: npt.ArrayLike, nvars: int) -> Words:
    """``[A | b]`` as packed rows: A's packed rows (``nvars`` columns) and ``b`` (one 0/1 value a row) in column ``nvars``.

    Example:
        >>> import numpy as np
        >>> augmented_system(np.array([[3], [6]], dtype=np.uint64), [1, 0], 3).ravel().tolist()
        [11, 6]
    """
    nrows = matrix.shape[0]
    out = np.zeros((nrows, words_for_bits(nvars + 1)), dtype=np.uint64)
    out[:, : matrix.shape[1]] = matrix
    bits = np.asarray(rhs).astype(bool, copy=False).astype(np.uint64)
    out[:, nvars >> 6] |= bits << np.uint64(nvars & 63)
    return out


def solve_gf2(augmented: Words, nvars: int, *, proof: bool = False) -> GF2System:
    """Solve ``A u = b`` over GF(2) from the packed ``[A | b]``, eliminating it in place.

    Args:
        augmented: writable C-contiguous ``(nrows, words)`` uint64, one equation a row:
            A's ``nvars`` columns, then ``b`` in column ``nvars``; bits past it zero.
            It is left eliminated, with the columns from ``nvars`` on cleared, and kept
            by the result for its kernel (with ``proof``, a wider copy is instead).
        nvars: the number of unknowns (>= 0).
        proof: for an inconsistent system, also find the combination of equations that
            reads ``0 = 1`` (:attr:`GF2System.proof`); this eliminates ``nrows`` more
            columns (an identity beside ``[A | b]``).

    Returns:
        A :class:`GF2System`.

    Raises:
        KeyboardInterrupt: Ctrl-C during the elimination (from the main thread).

    Example:
        >>> from lightsout._base.packing import pack_rows
        >>> solve_gf2(pack_rows([[1, 0, 1], [0, 1, 1]]), 2).solution.tolist()
        [1, 1]
    """
    nrows = augmented.shape[0]
    width = nvars + 1
    work = augmented
    if proof:  # [A | b | I]: each row also records which equations it is the sum of
        width += nrows
        work = np.zeros((nrows, words_for_bits(width)), dtype=np.uint64)
        work[:, : augmented.shape[1]] = augmented
        columns = nvars + 1 + np.arange(nrows)
        work[np.arange(nrows), columns >> 6] |= np.uint64(1) << (columns & 63).astype(np.uint64)
    rank, pivots = kernels.gf2elim.rref_inplace(work, width, nvars)
    rhs_word, rhs_bit = nvars >> 6, np.uint64(nvars & 63)
    rhs = ((work[:, rhs_word] >> rhs_bit) & np.uint64(1)).astype(bool)
    solution: Optional[U8] = None
    found: Optional[U8] = None
    contradiction = np.flatnonzero(rhs[rank:])
    if contradiction.size == 0:
        solution = np.zeros(nvars, dtype=np.uint8)
        solution[pivots[rhs[:rank]]] = 1  # pivot row i says u[pivots[i]] = b_i; free unknowns 0
    elif proof:
        row = rank + int(contradiction[0])  # 0 = 1 in this row: its identity part names the equations
        found = unpack_rows(work[row:row + 1], width)[0, nvars + 1:].view(np.uint8).copy()
    # keep A's reduced form alone, for the kernel: the columns from nvars on cleared
    work[:, rhs_word] &= (np.uint64(1) << rhs_bit) - np.uint64(1)
    work[:, rhs_word + 1:] = 0
    return GF2System(nvars, int(rank), pivots, solution, found, work)
