"""A stronger proven lower bound on the fewest presses of a grid: exact minima on regions of low rank.

Restricted to a set R of cells, the solutions ``x0 + span(Q)`` form the affine space
``x0_R + span(Q_R)``, whose dimension r_R (the rank of the basis on R) can be far below |R|:
under the plus rule a press row determines the next one, so the corner triangle
``T_w = {(i, j): i + j < w}`` depends on the first w presses of the first row alone, and
r <= w while |T_w| = w (w + 1) / 2.  The search of section 8 finds the exact minimum of
that small coset.  For disjoint regions R_1 .. R_k,

    |x| = sum_i |x on R_i| + |x outside them| >= sum_i min |x on R_i| + ceil(l' / c),

where l' counts the lights that must change and that no press inside a region reaches (each
needs an odd number, so at least one, of presses outside), and c is the press-cover constant
(section 8: one press changes at most c cells).  Every term holds for every solution, so the
sum is a lower bound on the fewest presses (docs/algebra.md, section 8, "Regions of low
rank").  It is computed only when a search is cut short; a region search cut short by its
own time share contributes its own proven lower bound instead of its minimum.
"""
from __future__ import annotations

import time
from typing import Optional

import numpy as np
import numpy.typing as npt

from lightsout._core.runner import CancelToken

__all__ = ["REGION_BOUND_SECONDS", "REGION_BOUND_SHARE", "corner_regions", "region_bound"]

#: The region bound's share of the time left to a cut-short search, and its most seconds.
REGION_BOUND_SHARE = 0.15
REGION_BOUND_SECONDS = 60.0


def corner_regions(shape: tuple[int, int], width: int) -> npt.NDArray[np.int8]:
    """The four corner triangles ``i + j < width`` of a grid, as region numbers 0..3 (-1: none).

    ``width`` is at most half of each side, so the triangles are disjoint.

    Example:
        >>> corner_regions((4, 5), 2).tolist()
        [[0, 0, -1, 1, 1], [0, -1, -1, -1, 1], [2, -1, -1, -1, 3], [2, 2, -1, 3, 3]]
    """
    rows, cols = shape
    i, j = np.indices(shape)
    labels = np.full(shape, -1, dtype=np.int8)
    for number, (top, left) in enumerate(((True, True), (True, False), (False, True), (False, False))):
        di = i if top else rows - 1 - i
        dj = j if left else cols - 1 - j
        labels[di + dj < width] = number
    return labels


def _independent_rows(rows: npt.NDArray[np.uint8]) -> npt.NDArray[np.uint8]:
    """A basis of the row space of a 0/1 matrix over GF(2) (rows as Python ints: few rows)."""
    width = rows.shape[1]
    basis: dict[int, int] = {}       # leading bit -> row
    for row in rows:
        value = int.from_bytes(np.packbits(row, bitorder="little").tobytes(), "little")
        for lead in sorted(basis, reverse=True):
            if value >> lead & 1:
                value ^= basis[lead]
        if value:
            basis[value.bit_length() - 1] = value
    out = np.zeros((len(basis), width), dtype=np.uint8)
    for k, value in enumerate(basis.values()):
        bits = np.frombuffer(value.to_bytes((width + 7) // 8, "little"), dtype=np.uint8)
        out[k] = np.unpackbits(bits, bitorder="little")[:width]
    return out


def _flips(number: int, array: npt.NDArray[np.bool_]) -> npt.NDArray[np.bool_]:
    """``array`` turned so that corner ``number`` (0..3, as in :func:`corner_regions`) lands on corner 0."""
    return array[::-1 if number & 2 else 1, ::-1 if number & 1 else 1]


def _mirrored_corners(lights: npt.NDArray[np.bool_], must_change: npt.NDArray[np.bool_],
                      reach: list[tuple[int, int]]) -> list[bool]:
    """For each corner, whether a flip of the board takes it to corner 0 and keeps the lights, the lights
    that must change and the press rule: then its region's coset is the image of corner 0's, same minimum."""
    offsets = set(reach)
    out = []
    for number in range(4):
        turned = {(-di if number & 2 else di, -dj if number & 1 else dj) for di, dj in reach}
        out.append(number > 0 and turned == offsets and np.array_equal(_flips(number, lights), lights)
                   and np.array_equal(_flips(number, must_change), must_change))
    return out


def _outside_lights(labels: npt.NDArray[np.int8], must_change: npt.NDArray[np.bool_],
                    reach: list[tuple[int, int]]) -> int:
    """The lights that must change and that no press inside a region reaches."""
    inside = labels >= 0
    reached = np.zeros(labels.shape, dtype=bool)
    rows, cols = labels.shape
    for di, dj in reach:     # a press at p changes p + (di, dj)
        reached[max(0, di):rows + min(0, di), max(0, dj):cols + min(0, dj)] |= \
            inside[max(0, -di):rows - max(0, di), max(0, -dj):cols - max(0, dj)]
    return int(np.count_nonzero(must_change & ~reached))


def region_bound(particular: npt.NDArray[np.uint8], patterns: npt.NDArray[np.uint8],
                 lights: npt.NDArray[np.bool_], must_change: npt.NDArray[np.bool_], reach: list[tuple[int, int]],
                 cover: int, seconds: float, token: Optional[CancelToken] = None, threads: int = 1) -> int:
    """A proven lower bound on the presses of every element of ``particular + span(patterns)`` (module docstring).

    ``particular``: (cells,) 0/1; ``patterns``: (d, cells) 0/1, any d; ``lights``: the
    board, a 2-D bool array; ``must_change``: the lights that must change; ``reach``: the
    offsets (di, dj) a press changes; ``cover``: the most cells one press changes.  The
    triangles grow one cell wider at a time while the next width's searches fit in what is
    left of ``seconds``; the best bound of the widths done is returned.  Stops at
    ``token``'s deadline or Ctrl-C with what it proved so far.

    Example:
        >>> import lightsout
        >>> s = lightsout.solve(np.ones((19, 19), bool))          # nullity 16
        >>> plus = [(0, 0), (1, 0), (-1, 0), (0, 1), (0, -1)]
        >>> bound = region_bound(s.presses.ravel().astype(np.uint8), s.quiet_patterns().reshape(16, -1).astype(np.uint8),
        ...                      np.ones((19, 19), bool), np.ones((19, 19), bool), plus, 5, 5.0)
        >>> -(-19 * 19 // 5) < bound <= lightsout.fewest_presses(19)     # above the press-cover bound, 73
        True
    """
    from lightsout._search.minweight import coset_min_weight   # the search this bound runs on each region

    token = CancelToken() if token is None else token
    shape = lights.shape
    particular = np.asarray(particular, dtype=np.uint8).ravel()
    patterns = np.asarray(patterns, dtype=np.uint8).reshape(-1, particular.size)
    mirrored = _mirrored_corners(lights, must_change, reach)
    stop = time.monotonic() + seconds
    best = 0
    for width in range(2, min(shape) // 2 + 1):
        began = time.monotonic()
        labels = corner_regions(shape, width)
        flat = labels.ravel()
        total, first = 0, 0
        for number in range(4):
            cells = flat == number
            if mirrored[number]:
                total += first
                continue
            stage = token.child(max(0.0, stop - time.monotonic()))
            found = coset_min_weight(particular[cells], _independent_rows(patterns[:, cells]), threads=threads,
                                     token=stage)
            weight = found.weight if found.proven else int(found.lower_bound or 0)
            first = weight if number == 0 else first
            total += weight
        lights_left = _outside_lights(labels, must_change, reach)
        best = max(best, total + (-(-lights_left // cover) if cover > 0 else 0))
        took = time.monotonic() - began
        if token.expired() or time.monotonic() + 2.5 * took > stop:
            break
    return best
