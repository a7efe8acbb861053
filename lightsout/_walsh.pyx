# Kernels of the fewest-presses searches (lightsout._fewest).
#
# search_tasks: the minimum weight over part of a GF(2) coset by Walsh-Hadamard
#   transforms (algorithm: lightsout/_walsh.h, maths: lightsout/_fewest.py).  The
#   caller hands over the sparse signed histogram (form, value) of the cells and a
#   range of tasks; each task is 2^(lb + m) coset elements.  One call runs its tasks
#   without the GIL and returns; callers keep calls short (tens of milliseconds), so
#   that Ctrl-C, time limits and progress reports are handled between calls, in Python.
#
# coset_leader_counts: for a code with at most 64 cells, the histogram of minimum
#   weights over a range of its cosets (the distance table of a board).
#
# This file is compiled once per SIMD level (see setup.py): the vector width of the
# Walsh kernel (and with it the lane count) follows the build's -march.  def wrappers
# validate with the GIL held and run the C cores inside `with nogil`.

from libc.stdint cimport int32_t, int64_t, uint64_t

import numpy as np

from lightsout._errors import InvalidBoardError, InvalidTypeError

cdef extern from "lightsout/_walsh.h":
    int WALSH_VEC_BYTES
    int WALSH_MAX_RADIX_BITS
    ctypedef struct walsh_best:
        int64_t sum
        uint64_t index
        int found
    int walsh_search_i16(const uint64_t* forms, const int32_t* vals, Py_ssize_t nent, int m, int lb,
                         uint64_t task_start, uint64_t task_stop, walsh_best* best) noexcept nogil
    int walsh_search_i32(const uint64_t* forms, const int32_t* vals, Py_ssize_t nent, int m, int lb,
                         uint64_t task_start, uint64_t task_stop, walsh_best* best) noexcept nogil

cdef extern from *:
    """
    #ifndef LIGHTSOUT_SIMD_LEVEL
    #define LIGHTSOUT_SIMD_LEVEL "generic"
    #endif
    #include <stdint.h>
    static inline int wl_popcount64(uint64_t x) {
    #if defined(__GNUC__) || defined(__clang__)
        return __builtin_popcountll(x);
    #else
        x = x - ((x >> 1) & 0x5555555555555555ULL);
        x = (x & 0x3333333333333333ULL) + ((x >> 2) & 0x3333333333333333ULL);
        x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0FULL;
        return (int)((x * 0x0101010101010101ULL) >> 56);
    #endif
    }
    static inline int wl_ctz64(uint64_t x) {
    #if defined(__GNUC__) || defined(__clang__)
        return __builtin_ctzll(x);
    #else
        int n = 0;
        while (!(x & 1)) { x >>= 1; n++; }
        return n;
    #endif
    }
    /* counts[w] += #{ i in [start, stop) : min_c popcount(y_i ^ k[c]) == w }, where
       y_i puts the bits of gray(i) = i ^ (i >> 1) at the positions free[0..]: bit j of
       gray(i) selects the word free[j].  Consecutive y differ in one word: free[ctz(i)]. */
    static void wl_coset_leaders(const uint64_t *k, ptrdiff_t nk, const uint64_t *free_words,
                                 uint64_t start, uint64_t stop, int64_t *counts) {
        uint64_t g = start ^ (start >> 1), y = 0;
        for (int j = 0; g; j++, g >>= 1)
            if (g & 1) y ^= free_words[j];
        for (uint64_t i = start; i < stop; i++) {
            if (i != start) y ^= free_words[wl_ctz64(i)];
            int best = 65;
            for (ptrdiff_t c = 0; c < nk; c++) {
                int w = wl_popcount64(y ^ k[c]);
                best = w < best ? w : best;
            }
            counts[best]++;
        }
    }
    """
    const char* LIGHTSOUT_SIMD_LEVEL
    void wl_coset_leaders(const uint64_t* k, Py_ssize_t nk, const uint64_t* free_words,
                          uint64_t start, uint64_t stop, int64_t* counts) noexcept nogil

#: The SIMD level this build was compiled for: "generic", "avx2" or "avx512".
SIMD_LEVEL = (<bytes>LIGHTSOUT_SIMD_LEVEL).decode("ascii")
#: Bytes of one counter vector of the Walsh kernel in this build.
VEC_BYTES = WALSH_VEC_BYTES
#: Lane coordinates per vector: 16-bit counters, 32-bit counters.
LANE_BITS16 = {16: 3, 32: 4, 64: 5}[WALSH_VEC_BYTES]
LANE_BITS32 = LANE_BITS16 - 1
#: Transform levels done in registers per pass (and by the fused final pass).
RADIX_BITS = WALSH_MAX_RADIX_BITS
#: Largest sum of |values| that 16-bit counters hold (the kernel keeps one spare for its sentinel).
MAX_SUM16 = 32766


cdef object _index(object value, str name, object low, object high):
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)):
        raise InvalidTypeError(f"{name} must be an int, got {type(value).__name__}")
    value = int(value)
    if not low <= value <= high:
        raise InvalidBoardError(f"{name} must be in [{low}, {high}], got {value}")
    return value


def search_tasks(forms, values, nullity, array_bits, lane_bits, task_start, task_stop, bound, wide):
    """Smallest signed sum S(c) <= bound over the tasks [task_start, task_stop).

    S(c) = sum_e values[e] * (-1)^{popcount(forms[e] & c)}; the coordinates c are
    split as ``task << (lane_bits + array_bits) | lane << array_bits | low``, so a task
    covers 2^(lane_bits + array_bits) coordinates.  Ties go to the smaller c.

    Args:
        forms: ``(E,)`` uint64, each below 2^nullity.
        values: ``(E,)`` int32; ``sum |values|`` must fit the counters (<= MAX_SUM16
            unless ``wide``).
        nullity: d, at most 64.
        array_bits: m; lane_bits: lb (at most LANE_BITS16, or LANE_BITS32 when wide,
            and lb + m <= d); tasks run below 2^(d - lb - m).
        bound: only sums <= bound are reported.
        wide: 32-bit counters instead of 16-bit ones.

    Returns:
        ``(found, sum, index)``: the smallest (sum, c) with sum <= bound, or
        ``(False, bound, 0)`` when none is.

    Example:
        >>> import numpy as np
        >>> forms = np.array([1, 2, 3], dtype=np.uint64)     # 3 cells, nullity 2
        >>> values = np.array([1, 1, -1], dtype=np.int32)    # pressed, pressed, not pressed
        >>> search_tasks(forms, values, 2, 0, 2, 0, 1, 3, False)   # c = 3 clears all three
        (True, -3, 3)
    """
    cdef uint64_t[::1] f
    cdef int32_t[::1] v
    if not isinstance(forms, np.ndarray) or forms.dtype != np.uint64 or forms.ndim != 1:
        raise InvalidTypeError("forms must be a 1-D numpy uint64 array")
    if not isinstance(values, np.ndarray) or values.dtype != np.int32 or values.shape != forms.shape:
        raise InvalidTypeError("values must be a 1-D numpy int32 array as long as forms")
    f = np.ascontiguousarray(forms)
    v = np.ascontiguousarray(values)
    cdef int d = _index(nullity, "nullity", 0, 64)
    cdef bint use_wide = bool(wide)
    cdef int lb = _index(lane_bits, "lane_bits", 0, min(d, LANE_BITS32 if use_wide else LANE_BITS16))
    cdef int m = _index(array_bits, "array_bits", 0, min(d - lb, 30))
    cdef int t = d - lb - m
    ntasks = 1 << t
    cdef uint64_t t0 = _index(task_start, "task_start", 0, ntasks)
    cdef uint64_t t1 = _index(task_stop, "task_stop", t0, ntasks)
    cdef Py_ssize_t nent = f.shape[0]
    total = int(np.abs(values.astype(np.int64)).sum()) if nent else 0
    limit = 2**31 - 2 if use_wide else MAX_SUM16
    if total > limit:
        raise InvalidBoardError(f"sum of |values| is {total}, more than the counters hold ({limit})")
    if nent and (d < 64 and int(forms.max()) >> d):
        raise InvalidBoardError(f"forms must be below 2^{d}")
    cdef walsh_best best
    best.sum = max(min(int(bound), limit + 1), -limit - 1)
    best.index = 0
    best.found = 0
    cdef int status
    cdef const uint64_t* fp = &f[0] if nent else NULL
    cdef const int32_t* vp = &v[0] if nent else NULL
    with nogil:
        if use_wide:
            status = walsh_search_i32(fp, vp, nent, m, lb, t0, t1, &best)
        else:
            status = walsh_search_i16(fp, vp, nent, m, lb, t0, t1, &best)
    if status != 0:
        raise MemoryError("search_tasks: out of memory")
    if not best.found:
        return False, int(bound), 0
    return True, int(best.sum), int(best.index)


def coset_leader_counts(quiet_words, free_words, start, stop):
    """Histogram of the minimum weights of the cosets ``y + span(quiet)``, y over a range.

    The cosets are indexed by i: y_i is the XOR of ``free_words[j]`` over the bits j of
    the Gray code ``i ^ (i >> 1)``.  Every word is one vector of at most 64 cells.

    Args:
        quiet_words: ``(K,)`` uint64, every element of the span (K = 2^d, 0 included).
        free_words: ``(F,)`` uint64 with F <= 63.
        start, stop: the range of i, ``0 <= start <= stop <= 2^F``.

    Returns:
        ``(65,)`` int64: entry w counts the cosets of minimum weight w.

    Example:
        >>> import numpy as np
        >>> span = np.array([0, 0b111], dtype=np.uint64)        # one quiet pattern, 3 cells
        >>> free = np.array([0b010, 0b100], dtype=np.uint64)    # cells 1 and 2 are free
        >>> coset_leader_counts(span, free, 0, 4)[:3].tolist()  # cosets 000, 010, 110, 100
        [1, 3, 0]
    """
    for name, arr in (("quiet_words", quiet_words), ("free_words", free_words)):
        if not isinstance(arr, np.ndarray) or arr.dtype != np.uint64 or arr.ndim != 1:
            raise InvalidTypeError(f"{name} must be a 1-D numpy uint64 array")
    cdef uint64_t[::1] k = np.ascontiguousarray(quiet_words)
    cdef uint64_t[::1] fw = np.ascontiguousarray(free_words)
    if k.shape[0] == 0:
        raise InvalidBoardError("quiet_words must hold at least the zero pattern")
    if fw.shape[0] > 63:
        raise InvalidBoardError(f"at most 63 free cells, got {fw.shape[0]}")
    cdef uint64_t i0 = _index(start, "start", 0, 1 << fw.shape[0])
    cdef uint64_t i1 = _index(stop, "stop", i0, 1 << fw.shape[0])
    counts = np.zeros(65, dtype=np.int64)
    cdef int64_t[::1] cv = counts
    cdef const uint64_t* fwp = &fw[0] if fw.shape[0] else NULL
    with nogil:
        wl_coset_leaders(&k[0], k.shape[0], fwp, i0, i1, &cv[0])
    return counts
