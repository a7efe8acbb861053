# Kernel of lightsout._search.modsearch: the fewest presses with k states, by a Gray-code walk.
#
# A coset over Z/k is start + sum_i c_i g_i with each coordinate c_i in 0 .. orders[i]-1
# (generators in Howell form: each element once, docs/algebra.md section 7).  The walk
# visits every coordinate vector in the reflected mixed-radix Gray code (Knuth's
# algorithm H: the last coordinate moves fastest, each one runs up, then down), so
# consecutive elements differ by +g_i or -g_i: one pass over the cells a step, never the
# coset written out.  The current element x and its weight (the sum of its press counts)
# are kept up to date:
#     x + g mod k = x + g - k  if x >= k - g,  else x + g    (in bytes, mod 256: right even when x + g passes 255)
#     x - g mod k = x - g        if x >= g,      else x - g + k
# so with h = k - g (a second row per generator, for the comparison) a step's weight change is
# sum(g) - k * #(x >= h) going up and k * #(x < g) - sum(g) going down.
#
# The best element is the smallest (weight, x) with x compared lexicographically, cell 0
# first: the rule of the written-out search, so the answer does not depend on the order of
# the walk nor on how the coset was split into walks (threads).
#
# Compiled once per SIMD level (setup.py); the def wrapper validates with the GIL held and
# runs the walk inside `with nogil`, polling the cancel flag and Ctrl-C (cancel.pxd).

from libc.stdint cimport int64_t, uint8_t, uint32_t
from libc.string cimport memcmp, memcpy

from lightsout._kernels.cancel cimport STOP_NONE, Poll, make_poll, poll_work, raise_if_interrupted

import numpy as np

from lightsout._base.errors import InvalidBoardError, InvalidTypeError

cdef extern from *:
    """
    #ifndef LIGHTSOUT_SIMD_LEVEL
    #define LIGHTSOUT_SIMD_LEVEL "generic"
    #endif
    #include <stdint.h>
    #include <stddef.h>
    #if defined(_MSC_VER)
    #define MW_RESTRICT __restrict
    #else
    #define MW_RESTRICT __restrict__
    #endif

    /* Cells per block whose wrap count fits the 16-bit counter (a multiple of every vector width). */
    #define MW_BLOCK 65280

    /* The comparisons are written as max and equality, which every SIMD level has for unsigned
       bytes (SSE2's pmaxub, pcmpeqb), and the wrap as a masked subtraction: written as `v >= h ?
       v - h : v + g` with a byte counter in blocks of 240 the portable build did not vectorize
       (1.4 ns a cell against 0.12 ns; AVX-512 0.11 against 0.04, a 1000-cell step). */

    /* x += g (mod k), h = k - g: the number of cells that wrapped (x >= h before). */
    static int64_t mw_step_up(uint8_t *MW_RESTRICT x, const uint8_t *MW_RESTRICT g,
                              const uint8_t *MW_RESTRICT h, ptrdiff_t n, uint8_t k)
    {
        int64_t wraps = 0;
        for (ptrdiff_t start = 0; start < n; start += MW_BLOCK) {
            ptrdiff_t stop = start + MW_BLOCK < n ? start + MW_BLOCK : n;
            uint16_t count = 0;
            for (ptrdiff_t j = start; j < stop; j++) {
                uint8_t v = x[j], hj = h[j];
                uint8_t top = v > hj ? v : hj;
                uint8_t wrap = (uint8_t)-(uint8_t)(top == v);          /* 0xFF when v >= h */
                x[j] = (uint8_t)(v + g[j] - (wrap & k));
                count += (uint8_t)(wrap & 1);
            }
            wraps += count;
        }
        return wraps;
    }

    /* x -= g (mod k): the number of cells that wrapped (x < g before). */
    static int64_t mw_step_down(uint8_t *MW_RESTRICT x, const uint8_t *MW_RESTRICT g, ptrdiff_t n, uint8_t k)
    {
        int64_t wraps = 0;
        for (ptrdiff_t start = 0; start < n; start += MW_BLOCK) {
            ptrdiff_t stop = start + MW_BLOCK < n ? start + MW_BLOCK : n;
            uint16_t count = 0;
            for (ptrdiff_t j = start; j < stop; j++) {
                uint8_t v = x[j], gj = g[j];
                uint8_t top = v > gj ? v : gj;
                uint8_t wrap = (uint8_t)~(uint8_t)-(uint8_t)(top == v); /* 0xFF when v < g */
                x[j] = (uint8_t)(v - gj + (wrap & k));
                count += (uint8_t)(wrap & 1);
            }
            wraps += count;
        }
        return wraps;
    }

    /* The same steps where cell j stands for counts[j] cells: the wrapped cells' counts summed. */
    static int64_t mw_step_up_counted(uint8_t *MW_RESTRICT x, const uint8_t *MW_RESTRICT g,
                                      const uint8_t *MW_RESTRICT h, const uint32_t *MW_RESTRICT counts,
                                      ptrdiff_t n, uint8_t k)
    {
        uint64_t wraps = 0;
        for (ptrdiff_t j = 0; j < n; j++) {
            uint8_t v = x[j], hj = h[j];
            uint8_t top = v > hj ? v : hj;
            uint8_t wrap = (uint8_t)-(uint8_t)(top == v);
            x[j] = (uint8_t)(v + g[j] - (wrap & k));
            wraps += counts[j] & (uint32_t)(int32_t)(int8_t)wrap;
        }
        return (int64_t)wraps;
    }

    static int64_t mw_step_down_counted(uint8_t *MW_RESTRICT x, const uint8_t *MW_RESTRICT g,
                                        const uint32_t *MW_RESTRICT counts, ptrdiff_t n, uint8_t k)
    {
        uint64_t wraps = 0;
        for (ptrdiff_t j = 0; j < n; j++) {
            uint8_t v = x[j], gj = g[j];
            uint8_t top = v > gj ? v : gj;
            uint8_t wrap = (uint8_t)~(uint8_t)-(uint8_t)(top == v);
            x[j] = (uint8_t)(v - gj + (wrap & k));
            wraps += counts[j] & (uint32_t)(int32_t)(int8_t)wrap;
        }
        return (int64_t)wraps;
    }
    """
    const char* MW_SIMD_LEVEL "LIGHTSOUT_SIMD_LEVEL"
    int64_t mw_step_up(uint8_t* x, const uint8_t* g, const uint8_t* h, Py_ssize_t n, uint8_t k) noexcept nogil
    int64_t mw_step_down(uint8_t* x, const uint8_t* g, Py_ssize_t n, uint8_t k) noexcept nogil
    int64_t mw_step_up_counted(uint8_t* x, const uint8_t* g, const uint8_t* h, const uint32_t* counts,
                               Py_ssize_t n, uint8_t k) noexcept nogil
    int64_t mw_step_down_counted(uint8_t* x, const uint8_t* g, const uint32_t* counts, Py_ssize_t n,
                                 uint8_t k) noexcept nogil


SIMD_LEVEL = MW_SIMD_LEVEL.decode()

#: Cell updates between two looks at the cancel flag and Ctrl-C (a millisecond or less).
POLL_CELLS = 1 << 22
#: Coordinates of one walk at most.
MAX_WALK_COORDINATES = 64


cdef int walk_coset(uint8_t* x, const uint8_t* gens, const uint8_t* comps, const int64_t* orders,
                    const int64_t* sums, const uint32_t* counts, Py_ssize_t r, Py_ssize_t n, int64_t k,
                    int64_t weight, uint8_t* best, int64_t* best_weight, int64_t* steps, Poll* poll) noexcept nogil:
    """Walk every element; best/best_weight hold the least (weight, x) seen, the start included;
    ``counts`` NULL, or the number of cells each entry stands for."""
    cdef int64_t digit[64]
    cdef int64_t direction[64]
    cdef Py_ssize_t i
    cdef int64_t moved, wraps
    cdef int status
    for i in range(r):
        digit[i] = 0
        direction[i] = 1
    best_weight[0] = weight
    memcpy(best, x, n)
    steps[0] = 0
    while True:
        i = r - 1
        while i >= 0:
            moved = digit[i] + direction[i]
            if 0 <= moved < orders[i]:
                break
            direction[i] = -direction[i]
            i -= 1
        if i < 0:
            return STOP_NONE
        digit[i] = moved
        if direction[i] > 0:
            if counts == NULL:
                wraps = mw_step_up(x, gens + i * n, comps + i * n, n, <uint8_t>k)
            else:
                wraps = mw_step_up_counted(x, gens + i * n, comps + i * n, counts, n, <uint8_t>k)
            weight += sums[i] - k * wraps
        else:
            if counts == NULL:
                wraps = mw_step_down(x, gens + i * n, n, <uint8_t>k)
            else:
                wraps = mw_step_down_counted(x, gens + i * n, counts, n, <uint8_t>k)
            weight += k * wraps - sums[i]
        steps[0] += 1
        if weight < best_weight[0] or (weight == best_weight[0] and memcmp(x, best, n) < 0):
            best_weight[0] = weight
            memcpy(best, x, n)
        status = poll_work(poll, n + 1)
        if status != STOP_NONE:
            return status


def walk(const uint8_t[::1] start, const uint8_t[:, ::1] gens, const int64_t[::1] orders, int k, *,
         counts=None, cancel=None):
    """The least (weight, element) of ``start + sum_i c_i gens[i]`` (mod k), c_i in 0 .. orders[i]-1.

    Weight is the sum of the entries (each times ``counts[j]`` when given); ties go to the
    lexicographically smallest element (cell 0 first).  Every coordinate vector is visited
    once, in a reflected Gray code.

    Args:
        start: ``(n,)`` uint8, entries in 0..k-1.
        gens: ``(r, n)`` uint8, entries in 0..k-1 (the walk's coordinates, r <= 64).
        orders: ``(r,)`` int64, each >= 1: coordinate i takes orders[i] values.
        k: the modulus, 2..255.
        counts: None, or ``(n,)`` uint32: entry j stands for counts[j] equal cells (the
            sum of the counts at most 2^40).
        cancel: None or a C-contiguous numpy uint8 array; the walk stops once byte 0 is nonzero.

    Returns:
        ``(complete, best_weight, best, steps)``: whether every element was walked, the
        least weight, the element (a new ``(n,)`` uint8 array) and the steps taken.

    Raises:
        KeyboardInterrupt: Ctrl-C during the walk.

    Example:
        >>> import numpy as np
        >>> done, weight, best, steps = walk(np.array([2, 2], np.uint8), np.array([[1, 2]], np.uint8),
        ...                                  np.array([3], np.int64), 3)
        >>> done, weight, best.tolist(), steps
        (True, 1, [0, 1], 2)
    """
    cdef Py_ssize_t n = start.shape[0], r = gens.shape[0], i, j
    if not 2 <= k <= 255:
        raise InvalidBoardError(f"k must be in 2..255, got {k}")
    if gens.shape[1] != n or orders.shape[0] != r:
        raise InvalidBoardError(f"gens must be ({r}, {n}) and orders ({r},), got ({gens.shape[0]}, {gens.shape[1]}) "
                                f"and ({orders.shape[0]},)")
    if r > MAX_WALK_COORDINATES:
        raise InvalidBoardError(f"a walk has at most {MAX_WALK_COORDINATES} coordinates, got {r}")
    for i in range(r):
        if orders[i] < 1:
            raise InvalidBoardError(f"orders must be >= 1, got {orders[i]} at {i}")
    if (n and max(np.max(start), np.max(gens) if r else 0) >= k):
        raise InvalidBoardError(f"start and gens must hold values in 0..{k - 1}")
    cdef const uint32_t[::1] count_view
    cdef const uint32_t* cnt = NULL
    weights = np.ones(n, np.int64)
    if counts is not None:
        if (not isinstance(counts, np.ndarray) or counts.dtype != np.uint32 or counts.shape != (n,)
                or not counts.flags.c_contiguous):
            raise InvalidTypeError(f"counts must be None or a C-contiguous ({n},) uint32 array")
        if int(counts.sum(dtype=np.uint64)) > 1 << 40:
            raise InvalidBoardError("counts must sum to at most 2^40")
        count_view = counts
        weights = counts.astype(np.int64)
        if n:
            cnt = &count_view[0]
    comps_array = (k - np.asarray(gens, dtype=np.int64)).astype(np.uint8)
    cdef const uint8_t[:, ::1] comps = comps_array
    sums_array = (np.asarray(gens, dtype=np.int64) * weights).sum(axis=1) if r else np.zeros(0, np.int64)
    cdef const int64_t[::1] sums = np.ascontiguousarray(sums_array, dtype=np.int64)
    x_array = np.array(start, dtype=np.uint8, copy=True)
    best_array = np.empty(n, dtype=np.uint8)
    cdef uint8_t[::1] x = x_array
    cdef uint8_t[::1] best = best_array
    cdef int64_t weight = int((np.asarray(start, dtype=np.int64) * weights).sum())
    cdef int64_t best_weight = 0, steps = 0
    cdef int status
    cdef Poll poll = make_poll(cancel, POLL_CELLS)
    cdef uint8_t dummy = 0
    cdef uint8_t* xp = &x[0] if n else &dummy
    cdef uint8_t* bp = &best[0] if n else &dummy
    cdef const uint8_t* gp = &gens[0, 0] if n and r else &dummy
    cdef const uint8_t* cp = &comps[0, 0] if n and r else &dummy
    cdef const int64_t* op = &orders[0] if r else NULL
    cdef const int64_t* sp = &sums[0] if r else NULL
    with nogil:
        status = walk_coset(xp, gp, cp, op, sp, cnt, r, n, k, weight, bp, &best_weight, &steps, &poll)
    raise_if_interrupted(status)
    return status == STOP_NONE, int(best_weight), best_array, int(steps)
