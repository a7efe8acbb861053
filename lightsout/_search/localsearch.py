"""A good solution fast: iterated local search over the coset's coordinates, to seed the exact search.

The signed sum of the element at coordinate c is ``S(c) = sum_e v[e] (-1)^(a_e . c)`` over the
forms a_e (lightsout/_search/cosetform.py).  Flipping coordinate j changes the sign of every
term whose form holds bit j, so with ``t_e = v[e] (-1)^(a_e . c)`` the change is
``-2 sum_{e : j in a_e} t_e``: one matrix-vector product gives the change of every flip.
The search goes downhill by the best flip until none improves (a local minimum), then
kicks the point by a few random flips and goes downhill again, restarting from the best
point now and then.  It proves nothing: the exact search that follows does, and the best
point found only starts it with a lower best sum (a better upper bound from the start,
and the same answer: the exact search keeps the least (S, c) whatever it starts from).
"""
from __future__ import annotations

import time
from typing import Callable, Optional

import numpy as np

__all__ = ["LOCAL_SEARCH_MIN_NULLITY", "LOCAL_SEARCH_SECONDS", "LOCAL_SEARCH_SHARE", "coset_local_search", "local_search"]

#: From this nullity on, a time-limited search starts with the local search (below it the
#: exact search covers a good part of the coset in the same time).
LOCAL_SEARCH_MIN_NULLITY = 36

#: The local search's share of a time limit, and its most seconds.
LOCAL_SEARCH_SHARE = 0.2
LOCAL_SEARCH_SECONDS = 2.0

#: Local minima between two restarts from the best point.
_KICKS_PER_RESTART = 32


def local_search(forms: np.ndarray, values: np.ndarray, nullity: int, seconds: float, *, seed: int = 0,
                 expired: Optional[Callable[[], bool]] = None) -> tuple[int, int]:
    """The least (S, c) the local search reaches in about ``seconds`` (module docstring).

    Starts at c = 0; ``seed`` seeds the random kicks, so a run is repeatable up to where the
    time cuts it; ``expired()`` (checked between descents) stops it early, and so does a
    coset of fewer elements than the descents made.

    Example:
        >>> forms = np.array([1, 2, 4, 3], dtype=np.uint64)
        >>> values = np.array([1, 1, 1, -1], dtype=np.int32)
        >>> local_search(forms, values, 3, 0.05)               # every term negative at c = 7
        (-4, 7)
    """
    bits = ((forms[None, :] >> np.arange(nullity, dtype=np.uint64)[:, None]) & np.uint64(1)).astype(bool)  # (d, E)
    return _descend(bits, values.astype(np.float64), seconds, seed, expired)


def coset_local_search(particular: np.ndarray, patterns: np.ndarray, seconds: float, *, seed: int = 0,
                       expired: Optional[Callable[[], bool]] = None) -> np.ndarray:
    """The fewest-presses element of ``particular + span(patterns)`` the local search reaches in about
    ``seconds``: any number of patterns (the forms of :func:`local_search` hold at most 64 bits).

    Each cell is its own term: +1 where ``particular`` presses it, -1 where not, so that the
    element's presses are (cells + S) / 2.

    Example:
        >>> particular = np.array([1, 1, 1, 0], np.uint8)
        >>> patterns = np.array([[1, 1, 0, 0], [0, 1, 1, 1]], np.uint8)
        >>> coset_local_search(particular, patterns, 0.05).tolist()        # the element of one press
        [0, 0, 1, 0]
    """
    particular = np.asarray(particular, dtype=np.uint8)
    bits = np.asarray(patterns, dtype=bool).reshape(-1, particular.size)
    values = np.where(particular.astype(bool), 1.0, -1.0)
    point = _descend(bits, values, seconds, seed, expired)[1]
    chosen = np.array([point >> j & 1 for j in range(bits.shape[0])], dtype=bool)
    return (particular ^ (np.bitwise_xor.reduce(bits[chosen], axis=0) if chosen.any() else 0)).astype(np.uint8)


def _descend(bits: np.ndarray, base: np.ndarray, seconds: float, seed: int,
             expired: Optional[Callable[[], bool]]) -> tuple[int, int]:
    """The local search over the coordinates whose forms are the columns of ``bits`` (d, E), terms ``base``."""
    nullity = bits.shape[0]
    rng = np.random.default_rng(seed)
    matrix = bits.astype(np.float64)
    stop = time.monotonic() + seconds

    def place(coordinate: int) -> np.ndarray:
        chosen = np.array([coordinate >> j & 1 for j in range(nullity)], dtype=bool)
        odd = (bits[chosen].sum(axis=0) & 1).astype(bool)
        return np.where(odd, -base, base)

    point, terms = 0, place(0)
    best = (int(round(terms.sum())), 0)
    if nullity == 0:
        return best
    kicks = 0
    most_kicks = 1 << min(nullity, 40)     # a small coset: no more descents than it has elements
    while time.monotonic() < stop and kicks < most_kicks and not (expired is not None and expired()):
        while True:   # downhill by the best flip
            changes = -2.0 * (matrix @ terms)
            j = int(np.argmin(changes))
            if changes[j] >= 0:
                break
            terms[bits[j]] *= -1
            point ^= 1 << j
        total = int(round(terms.sum()))
        if (total, point) < best:
            best = (total, point)
        kicks += 1
        if kicks % _KICKS_PER_RESTART == 0:
            point, terms = best[1], place(best[1])
        for j in rng.choice(nullity, size=min(nullity, int(rng.integers(2, 7))), replace=False):
            terms[bits[int(j)]] *= -1
            point ^= 1 << int(j)
    return best
