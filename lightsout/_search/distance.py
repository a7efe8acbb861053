"""Distance tables: how many solvable states need j presses (:func:`distance_distribution_gf2`, :func:`distance_distribution_mod` for
k states): every solvable start state is a coset of the quiet space, met exactly once by
the press vectors with no press on the pivot cells; the kernel walks those in a (modular)
Gray code and takes the minimum weight over the k^d quiet patterns of each, 32 cosets at
a time: k^cells / 32 vector steps, no table of states.
"""
from __future__ import annotations

import math
import threading
from typing import Optional

import numpy as np
import numpy.typing as npt

from lightsout._base.errors import BoardTooLargeError, InvalidBoardError, InvalidTypeError
from lightsout._base.types import Progress
from lightsout._base.validate import states_count, thread_count
from lightsout._core.modring import rref_prime
from lightsout._core.runner import CancelToken, default_threads, run_chunks
from lightsout import _kernels as kernels
from lightsout._search.modsearch import is_prime

__all__ = ["MAX_DISTANCE_LOG2", "refuse_distance", "distance_distribution_gf2", "distance_distribution_mod"]


#: The distance tables walk k^cells press vectors (in blocks of 32); up to 2^this many
#: (2^40: the 3-state 5 x 5 board's 3^25 fits, about half a minute on two cores).
MAX_DISTANCE_LOG2 = 40


def refuse_distance(cells: int, modulus: int) -> None:
    """Refuse, before any work, a distance table of a board of ``cells`` cells with ``modulus`` states:
    a modulus that is not a prime, or more than 2^MAX_DISTANCE_LOG2 press vectors to walk.

    Example:
        >>> refuse_distance(25, 2)
        >>> refuse_distance(2**31, 2)
        Traceback (most recent call last):
        ...
        lightsout.BoardTooLargeError: a distance table walks k^cells = 2^2147483648 press vectors; ...
    """
    k = states_count(modulus, "modulus")
    if not is_prime(k):
        raise InvalidBoardError(f"distance tables need a prime modulus (a field), got {k}")
    if cells * math.log2(k) > MAX_DISTANCE_LOG2 + 1e-9:
        raise BoardTooLargeError(
            f"a distance table walks k^cells = {k}^{cells} press vectors; the limit is 2^{MAX_DISTANCE_LOG2} "
            f"(lightsout.limits.MAX_DISTANCE_LOG2): {cells} cells is too many for {k} states")


def distance_distribution_gf2(quiet: npt.ArrayLike, *, threads: Optional[int] = None,
                              progress: Progress = None) -> npt.NDArray[np.int64]:
    """How many solvable start states need exactly j presses, j = 0, 1, ..., max (two states).

    A board's press-effect matrix A (cells x cells, symmetric) enters only through its
    quiet patterns (the kernel of A): the solvable states are the cosets of that
    kernel, and a state's fewest presses is its coset's minimum weight.  This is
    :func:`distance_distribution_mod` with modulus 2.

    Args:
        quiet: ``(d, cells)`` 0/1, a basis (or any generating rows) of the quiet
            patterns.
        threads: threads to use (default: every usable core).
        progress: ``progress(stage, done, total)`` between chunks.

    Returns:
        int64 counts, entry j = number of solvable states whose fewest presses is j;
        they sum to 2^(cells - rank).

    Raises:
        BoardTooLargeError: more than 2^MAX_DISTANCE_LOG2 press vectors to walk.

    Example:
        >>> import numpy as np
        >>> import lightsout
        >>> q = lightsout.solve(np.ones((5, 5), bool)).quiet_patterns().reshape(2, 25)
        >>> table = distance_distribution_gf2(q)
        >>> table.tolist()[:6], len(table) - 1, int(table.sum())
        ([1, 25, 300, 2300, 12650, 53130], 15, 8388608)
    """
    return distance_distribution_mod(quiet, 2, threads=threads, progress=progress)


def distance_distribution_mod(quiet: npt.ArrayLike, modulus: int, *, threads: Optional[int] = None,
                              progress: Progress = None) -> npt.NDArray[np.int64]:
    """The distance table of a k-state board (k prime): presses counted with multiplicity.

    A press adds 1 mod k to its cells; pressing a cell t times costs t presses, so the
    fewest presses of a state is the minimum of ``sum(x)`` (values 0..k-1) over its
    solutions x, a coset of the quiet patterns over GF(k).  Each coset is met once by
    the press vectors with no press on the pivot cells of the quiet basis (in reduced
    row echelon form); the kernel walks those in a modular Gray code and, for blocks
    of 32 at once, takes the minimum over the k^d quiet patterns (lightsout/_kernels/walsh.pyx).

    Args:
        quiet: ``(d, cells)`` values in 0..k-1, generating rows of the quiet patterns
            over GF(k) (dependent rows are dropped).
        modulus: k, a prime (2, 3, 5, 7, ...).
        threads, progress: as for :func:`distance_distribution_gf2`.

    Returns:
        int64 counts, entry j = number of solvable states whose fewest presses is j;
        they sum to k^(cells - rank).

    Raises:
        BoardTooLargeError: more than 2^MAX_DISTANCE_LOG2 press vectors (k^cells) to walk.
        InvalidBoardError: a modulus that is not a prime, values out of range.

    Example:
        >>> import numpy as np                     # a 1 x 2 board with 3 states: A = [[1, 1], [1, 1]]
        >>> distance_distribution_mod(np.array([[1, 2]]), 3).tolist()    # states (s, s): 0, 1 or 2 presses
        [1, 1, 1]
    """
    k = states_count(modulus, "modulus")
    refuse_distance(1, k)  # the modulus, before the rows
    rows = np.asarray(quiet)
    if rows.ndim != 2:
        raise InvalidBoardError(f"quiet must be 2-D (patterns, cells), got shape {rows.shape}")
    if rows.dtype != np.bool_ and not np.issubdtype(rows.dtype, np.integer):
        raise InvalidTypeError(f"quiet must hold integers, got dtype {rows.dtype}")
    if rows.size and (rows.min() < 0 or rows.max() >= k):
        raise InvalidBoardError(f"quiet must hold values in 0..{k - 1}")
    rows = rows.astype(np.int64)
    cells = rows.shape[1]
    refuse_distance(cells, k)
    basis, pivots = rref_prime(rows, k)
    d = len(pivots)
    span = np.zeros((1, cells), dtype=np.int64)
    for row in basis:
        span = np.concatenate([(span + t * row) % k for t in range(k)])
    nk = span.shape[0]
    pivot_set = set(pivots)
    free = [j for j in range(cells) if j not in pivot_set]
    r = 0
    while r < len(free) and k ** (r + 1) <= 1024:
        r += 1
    outer, inner_cells = free[: len(free) - r], free[len(free) - r:]
    digits = np.zeros((k ** r, r), dtype=np.int64)
    for j in range(r):
        digits[:, j] = (np.arange(k ** r) // k ** j) % k
    inner_w = ((digits[None, :, :] + span[:, None, inner_cells]) % k).sum(axis=2)     # (nk, k^r)
    lanes = -(-(k ** r) // 32) * 32
    inner = np.zeros((nk, lanes), dtype=np.int16)
    inner[:, : k ** r] = inner_w
    g = np.arange(k)[None, :, None]
    outer_vals = span[:, outer].T[:, None, :]                                          # (fout, 1, nk)
    delta = (((g + 1 + outer_vals) % k) - ((g + outer_vals) % k)).astype(np.int16)      # (fout, k, nk)
    # weights of the pivot and outer cells when every free value is 0 (the Gray code's start)
    base = span[:, pivots + outer].sum(axis=1).astype(np.int16)
    ncounts = cells * (k - 1) + 1
    total = k ** len(outer)
    module = kernels.walsh
    nthreads = thread_count(threads) or default_threads()
    # chunks of about 2^22 lane-minimums (a few milliseconds): Ctrl-C and progress between them
    per_chunk = max(1, (1 << 22) // (lanes * max(1, nk // 8)))
    chunks = -(-total // per_chunk)
    counts = np.zeros(ncounts, dtype=np.int64)
    lock = threading.Lock()

    def chunk(number: int, _token: CancelToken) -> None:
        part = module.coset_leader_counts(inner, delta, base, k, k ** r, number * per_chunk,
                                          min(total, (number + 1) * per_chunk), ncounts)
        with lock:
            counts[:] += part

    run_chunks(chunk, chunks, threads=nthreads, progress=progress, stage="distance table")
    assert int(counts.sum()) == k ** (cells - d)
    last = int(np.flatnonzero(counts).max())
    return counts[: last + 1].copy()
