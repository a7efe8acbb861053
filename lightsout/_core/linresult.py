"""What a general route (N-D grids, graphs, k states) hands back before canonicalisation.

Every route for boards other than the open 2-D two-state grid reduces its
board to a small system, solves it, and expands the answer back to one press
count per cell (or vertex), in row-major cell order.  The shared code in
``lightsout.solve`` then picks the canonical solution (the lexicographically
smallest press vector) and builds the :class:`lightsout.Solution`.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

import numpy as np

from lightsout._base.packing import unpack_rows


@dataclass(frozen=True)
class LinearResult:
    """The solutions of ``A x = -b (mod k)`` for a press matrix A, as a coset.

    Attributes:
        solvable: whether any press vector clears the board.
        particular: one solution (any one), ``(cells,)`` uint8 with values in
            0..k-1, cells in row-major order; None when unsolvable.
        kernel: ``(r, cells)`` uint8 generators of the quiet patterns (press
            vectors that change no light) over Z/k; a basis when k is prime.
            Every quiet pattern is a combination of these rows mod k.  When
            ``packed`` (two states only) the same basis as packed rows,
            ``(r, words_for_bits(cells))`` uint64, cell j in bit j % 64 of word
            j // 64: an eighth of the memory, for graphs and boards with many
            quiet patterns.
        count: the exact number of quiet patterns, which is the number of
            solutions when the board is solvable.
        nullity: the fewest quiet patterns that generate them all (the
            dimension of the quiet space when k is prime).
        method: the route that produced it.
        packed: whether ``kernel`` holds packed rows (above).
        canonical: ``particular`` is already the canonical solution (the
            lexicographically smallest) and the quiet patterns were not built:
            ``kernel`` has no rows whatever the nullity (the N-D route's
            ``canonical_nd``, which keeps memory O(cells)).
        proof: when unsolvable, a quiet pattern whose inner product with the
            board is nonzero mod k, if the route found one (``canonical_nd`` does);
            else None.

    Example:
        >>> import numpy as np
        >>> LinearResult(True, np.zeros(3, np.uint8), np.ones((1, 3), np.uint8), 2, 1, "nd").count
        2
    """

    solvable: bool
    particular: Optional[np.ndarray]
    kernel: np.ndarray
    count: int
    nullity: int
    method: str
    packed: bool = False
    canonical: bool = False
    proof: Optional[np.ndarray] = None

    def kernel_rows(self, cells: int) -> np.ndarray:
        """The generators as ``(r, cells)`` uint8 rows, unpacking them when ``packed``.

        Example:
            >>> r = LinearResult(True, np.zeros(3, np.uint8), np.array([[5]], np.uint64), 2, 1, "nd", packed=True)
            >>> r.kernel_rows(3).tolist()
            [[1, 0, 1]]
        """
        if not self.packed:
            return self.kernel
        return unpack_rows(self.kernel, cells).view(np.uint8)
