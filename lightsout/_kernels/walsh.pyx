# Kernels of the fewest-presses searches (lightsout._search.minweight).
#
# search_tasks: the minimum weight over part of a GF(2) coset by Walsh-Hadamard
#   transforms (algorithm: lightsout/_kernels/walsh.h, maths: lightsout/_search/minweight.py).  The
#   caller hands over the sparse signed histogram (form, value) of the cells and a
#   range of tasks; each task is 2^(lb + m) coset elements.
# search_task_list: the same over a list of tasks, with each task's smallest sum (the
#   symmetric search runs one task of each orbit and needs every task that ties).  One call runs its tasks
#   without the GIL and returns; callers keep calls short (tens of milliseconds), so
#   that Ctrl-C, time limits and progress reports are handled between calls, in Python.
#
# coset_leader_counts: for a code with at most 64 cells, the histogram of minimum
#   weights over a range of its cosets (the distance table of a board).
#
# This file is compiled once per SIMD level (see setup.py): the vector width of the
# Walsh kernel (and with it the lane count) follows the build's -march.  def wrappers
# validate with the GIL held and run the C cores inside `with nogil`.

from libc.stdint cimport int16_t, int32_t, int64_t, uint64_t

import numpy as np

from lightsout._base.errors import InvalidBoardError, InvalidTypeError

cdef extern from "lightsout/_kernels/walsh.h":
    int WALSH_VEC_BYTES
    int WALSH_MAX_RADIX_BITS
    ctypedef struct walsh_best:
        int64_t sum
        uint64_t index
        int found
    int walsh_search_i16(const uint64_t* forms, const int32_t* vals, Py_ssize_t nent, int m, int lb,
                         const uint64_t* task_list, uint64_t first, uint64_t count, int64_t* sums,
                         walsh_best* best) noexcept nogil
    int walsh_search_i32(const uint64_t* forms, const int32_t* vals, Py_ssize_t nent, int m, int lb,
                         const uint64_t* task_list, uint64_t first, uint64_t count, int64_t* sums,
                         walsh_best* best) noexcept nogil

cdef extern from *:
    """
    #ifndef LIGHTSOUT_SIMD_LEVEL
    #define LIGHTSOUT_SIMD_LEVEL "generic"
    #endif
    #include <stdint.h>
    #include <stdlib.h>
    #include <string.h>
    #define WL_LANES 32

    /* The coset-leader table over Z/k (see coset_leader_counts).  bt: nk rows of L
       int16 (L a multiple of WL_LANES; lanes >= nvalid hold a large value), delta: fout x k
       x nk int16, a0: nk int16.  Adds to counts[w] for every coset (outer prefix i in
       [start, stop), inner lane l < nvalid) whose minimum weight is w.  Returns -1 when
       out of memory. */
    static int wl_leaders(const int16_t *bt, ptrdiff_t nk, ptrdiff_t L, ptrdiff_t nvalid,
                          const int16_t *delta, int fout, int k, const int16_t *a0,
                          uint64_t start, uint64_t stop, int64_t *counts, ptrdiff_t ncounts) {
        int16_t *a = (int16_t *)malloc((size_t)(nk > 0 ? nk : 1) * sizeof(int16_t));
        /* four interleaved histograms (one more slot each for weights out of range) */
        ptrdiff_t hn = ncounts + 1;
        int64_t *hist = (int64_t *)calloc((size_t)hn * 4, sizeof(int64_t));
        if (a == NULL || hist == NULL) { free(a); free(hist); return -1; }
        uint8_t digit[64], gray[64];
        /* digits of start in base k (least significant first) and its modular Gray code */
        uint64_t v = start;
        for (int j = 0; j < fout; j++) { digit[j] = (uint8_t)(v % (uint64_t)k); v /= (uint64_t)k; }
        for (int j = 0; j < fout; j++) {
            int next = j + 1 < fout ? digit[j + 1] : 0;
            gray[j] = (uint8_t)((digit[j] - next + k) % k);
        }
        memcpy(a, a0, (size_t)nk * sizeof(int16_t));
        for (int j = 0; j < fout; j++)
            for (int t = 0; t < gray[j]; t++)
                for (ptrdiff_t c = 0; c < nk; c++) a[c] += delta[((ptrdiff_t)j * k + t) * nk + c];
        for (uint64_t i = start; i < stop; i++) {
            if (i != start) {
                int p = 0;                        /* lowest digit of the counter that moves */
                while (digit[p] == k - 1) { digit[p] = 0; p++; }
                digit[p]++;
                const int16_t *dp = delta + ((ptrdiff_t)p * k + gray[p]) * nk;
                for (ptrdiff_t c = 0; c < nk; c++) a[c] += dp[c];
                gray[p] = (uint8_t)(gray[p] + 1 == k ? 0 : gray[p] + 1);
            }
            for (ptrdiff_t block = 0; block < L; block += WL_LANES) {
                int16_t vm[WL_LANES];
                for (int l = 0; l < WL_LANES; l++) vm[l] = 32767;
                for (ptrdiff_t c = 0; c < nk; c++) {
                    const int16_t ac = a[c];
                    const int16_t *row = bt + c * L + block;
                    for (int l = 0; l < WL_LANES; l++) {
                        int16_t w = (int16_t)(ac + row[l]);
                        vm[l] = w < vm[l] ? w : vm[l];
                    }
                }
                ptrdiff_t lim = nvalid - block < WL_LANES ? nvalid - block : WL_LANES;
                for (ptrdiff_t l = 0; l < lim; l++) {
                    ptrdiff_t w = (uint16_t)vm[l] < (uint16_t)ncounts ? vm[l] : ncounts;
                    hist[(l & 3) * hn + w]++;
                }
            }
        }
        for (ptrdiff_t w = 0; w < hn; w++)
            counts[w] += hist[w] + hist[hn + w] + hist[2 * hn + w] + hist[3 * hn + w];
        free(a);
        free(hist);
        return counts[ncounts] ? -2 : 0;
    }
    """
    const char* LIGHTSOUT_SIMD_LEVEL
    int wl_leaders(const int16_t* bt, Py_ssize_t nk, Py_ssize_t L, Py_ssize_t nvalid, const int16_t* delta,
                   int fout, int k, const int16_t* a0, uint64_t start, uint64_t stop, int64_t* counts,
                   Py_ssize_t ncounts) noexcept nogil

#: The SIMD level this build was compiled for: "generic", "avx2" or "avx512".
SIMD_LEVEL = (<bytes>LIGHTSOUT_SIMD_LEVEL).decode("ascii")
#: Bytes of one counter vector of the Walsh kernel in this build.
VEC_BYTES = WALSH_VEC_BYTES
#: Lane coordinates per vector: 16-bit counters, 32-bit counters.
LANE_BITS16 = {16: 3, 32: 4, 64: 5}[WALSH_VEC_BYTES]
LANE_BITS32 = LANE_BITS16 - 1
#: Transform levels done in registers per pass (the final levels' bound takes up to 5).
RADIX_BITS = WALSH_MAX_RADIX_BITS
#: Largest sum of |values| that 16-bit counters hold (the kernel keeps one spare for its sentinel).
MAX_SUM16 = 32766
#: Largest array_bits: a task's counters take 2^array_bits vectors (2^22 x 64 bytes = 256 MiB).
MAX_ARRAY_BITS = 22


cdef object _index(object value, str name, object low, object high):
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)):
        raise InvalidTypeError(f"{name} must be an int, got {type(value).__name__}")
    value = int(value)
    if not low <= value <= high:
        raise InvalidBoardError(f"{name} must be in [{low}, {high}], got {value}")
    return value


cdef tuple _checked_histogram(forms, values, nullity, array_bits, lane_bits, wide):
    """(d, lb, m, wide, counter limit) after checking the arguments both searches share."""
    if not isinstance(forms, np.ndarray) or forms.dtype != np.uint64 or forms.ndim != 1:
        raise InvalidTypeError("forms must be a 1-D numpy uint64 array")
    if not isinstance(values, np.ndarray) or values.dtype != np.int32 or values.shape != forms.shape:
        raise InvalidTypeError("values must be a 1-D numpy int32 array as long as forms")
    d = _index(nullity, "nullity", 0, 64)
    use_wide = bool(wide)
    lb = _index(lane_bits, "lane_bits", 0, min(d, LANE_BITS32 if use_wide else LANE_BITS16))
    m = _index(array_bits, "array_bits", 0, min(d - lb, MAX_ARRAY_BITS))
    total = int(np.abs(values.astype(np.int64)).sum()) if forms.shape[0] else 0
    limit = 2**31 - 2 if use_wide else MAX_SUM16
    if total > limit:
        raise InvalidBoardError(f"sum of |values| is {total}, more than the counters hold ({limit})")
    if forms.shape[0] and (d < 64 and int(forms.max()) >> d):
        raise InvalidBoardError(f"forms must be below 2^{d}")
    return d, lb, m, use_wide, limit


cdef int _run_search(forms, values, int m, int lb, bint use_wide, const uint64_t* task_list, uint64_t first,
                     uint64_t count, int64_t* sums, walsh_best* best) except -1:
    """The C search without the GIL; MemoryError when it cannot allocate its counters."""
    cdef const uint64_t[::1] f = np.ascontiguousarray(forms)
    cdef const int32_t[::1] v = np.ascontiguousarray(values)
    cdef Py_ssize_t nent = f.shape[0]
    cdef const uint64_t* fp = &f[0] if nent else NULL
    cdef const int32_t* vp = &v[0] if nent else NULL
    cdef int status
    with nogil:
        if use_wide:
            status = walsh_search_i32(fp, vp, nent, m, lb, task_list, first, count, sums, best)
        else:
            status = walsh_search_i16(fp, vp, nent, m, lb, task_list, first, count, sums, best)
    if status != 0:
        raise MemoryError("search_tasks: out of memory")
    return 0


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
        array_bits: m, at most MAX_ARRAY_BITS; lane_bits: lb (at most LANE_BITS16, or
            LANE_BITS32 when wide, and lb + m <= d); tasks run below 2^(d - lb - m).
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
    d, lb, m, use_wide, limit = _checked_histogram(forms, values, nullity, array_bits, lane_bits, wide)
    ntasks = (<object>1) << (d - lb - m)  # a Python int: Cython would shift a C int, wrapping from t = 32
    cdef uint64_t t0 = _index(task_start, "task_start", 0, ntasks)
    cdef uint64_t t1 = _index(task_stop, "task_stop", t0, ntasks)
    cdef walsh_best best
    best.sum = max(min(int(bound), limit + 1), -limit - 1)
    best.index = 0
    best.found = 0
    _run_search(forms, values, m, lb, use_wide, NULL, t0, t1 - t0, NULL, &best)
    if not best.found:
        return False, int(bound), 0
    return True, int(best.sum), int(best.index)


def search_task_list(forms, values, nullity, array_bits, lane_bits, tasks, bound, wide):
    """:func:`search_tasks` over the listed tasks, with the smallest sum of each.

    Args:
        forms, values, nullity, array_bits, lane_bits, bound, wide: as in
            :func:`search_tasks`.
        tasks: ``(T,)`` uint64, each below 2^(nullity - lane_bits - array_bits),
            run in the order given (ties go to the smaller c all the same).

    Returns:
        ``(found, sum, index, sums)``: the first three as in :func:`search_tasks`;
        ``sums`` an ``(T,)`` int64 array, ``sums[i]`` the smallest sum of task i
        when that is at most ``bound`` and every sum of the tasks before it, else
        the largest int64.  So a task whose minimum ties the overall one always
        reports it.

    Example:
        >>> import numpy as np
        >>> forms = np.array([1, 2, 3], dtype=np.uint64)
        >>> values = np.array([1, 1, -1], dtype=np.int32)
        >>> found, total, index, sums = search_task_list(forms, values, 2, 0, 1, np.array([1, 0], np.uint64), 3, False)
        >>> found, total, index, sums.tolist()   # task 1 holds c = 2, 3; task 0 holds c = 0, 1
        (True, -3, 3, [-3, 9223372036854775807])
    """
    d, lb, m, use_wide, limit = _checked_histogram(forms, values, nullity, array_bits, lane_bits, wide)
    if not isinstance(tasks, np.ndarray) or tasks.dtype != np.uint64 or tasks.ndim != 1:
        raise InvalidTypeError("tasks must be a 1-D numpy uint64 array")
    cdef int t = d - lb - m
    if tasks.shape[0] and t < 64 and int(tasks.max()) >> t:
        raise InvalidBoardError(f"tasks must be below 2^{t} (nullity - lane_bits - array_bits)")
    cdef const uint64_t[::1] task_view = np.ascontiguousarray(tasks)
    sums = np.empty(tasks.shape[0], dtype=np.int64)
    cdef int64_t[::1] sums_view = sums
    cdef walsh_best best
    best.sum = max(min(int(bound), limit + 1), -limit - 1)
    best.index = 0
    best.found = 0
    if tasks.shape[0]:
        _run_search(forms, values, m, lb, use_wide, &task_view[0], 0, tasks.shape[0], &sums_view[0], &best)
    if not best.found:
        return False, int(bound), 0, sums
    return True, int(best.sum), int(best.index), sums


def coset_leader_counts(inner, delta, base, modulus, nvalid, start, stop, ncounts):
    """Histogram of minimum coset weights: the kernel of the distance tables.

    The cosets are y + span(K) over Z/k with y running over the free cells' values; the
    weight of an element is the sum of its values (press counts).  Free cells split
    into outer cells, enumerated by a modular Gray code (one digit moves by +1 mod k per
    step), and inner cells, all of whose k^r combinations sit in the lanes of ``inner``.
    For span element c (K_c) and coset (prefix i, inner lane l) the weight is
    ``a_c(i) + inner[c, l]``, where a_c starts at ``base[c]`` (the pivot cells) and moves
    by ``delta[j, g, c]`` when outer digit j steps from g to g + 1.

    Args:
        inner: ``(nk, L)`` int16, L a multiple of 32; lanes >= nvalid are ignored.
        delta: ``(fout, k, nk)`` int16.
        base: ``(nk,)`` int16.
        modulus: k (2..255); nvalid: valid lanes; start, stop: the outer prefixes
            ``0 <= start <= stop <= k^fout``; ncounts: histogram length (> max weight).

    Returns:
        ``(ncounts,)`` int64 counts of cosets by minimum weight.

    Example:
        >>> import numpy as np      # 2 cells over GF(2), quiet pattern 11: cosets {00, 11}, {01, 10}
        >>> inner = np.full((2, 32), 999, np.int16); inner[:, :2] = [[0, 1], [2, 1]]   # y = cell 1
        >>> delta = np.zeros((0, 2, 2), np.int16); base = np.array([0, 0], np.int16)
        >>> coset_leader_counts(inner, delta, base, 2, 2, 0, 1, 4).tolist()
        [1, 1, 0, 0]
    """
    for name, arr, ndim in (("inner", inner, 2), ("delta", delta, 3), ("base", base, 1)):
        if not isinstance(arr, np.ndarray) or arr.dtype != np.int16 or arr.ndim != ndim:
            raise InvalidTypeError(f"{name} must be a {ndim}-D numpy int16 array")
    cdef int k = _index(modulus, "modulus", 2, 255)
    cdef Py_ssize_t nk = inner.shape[0], L = inner.shape[1]
    if L % 32 or base.shape[0] != nk or delta.shape[1:] != (k, nk) or delta.shape[0] > 63:
        raise InvalidBoardError("inner, delta and base shapes do not match (or L is not a multiple of 32)")
    cdef int fout = delta.shape[0]
    cdef Py_ssize_t valid = _index(nvalid, "nvalid", 0, L)
    cdef Py_ssize_t nc = _index(ncounts, "ncounts", 1, 32767)
    cdef uint64_t i0 = _index(start, "start", 0, k ** fout)
    cdef uint64_t i1 = _index(stop, "stop", i0, k ** fout)
    cdef const int16_t[:, ::1] bv = np.ascontiguousarray(inner)
    cdef const int16_t[:, :, ::1] dv = np.ascontiguousarray(delta) if delta.size else np.zeros((1, k, max(nk, 1)), np.int16)
    cdef const int16_t[::1] av = np.ascontiguousarray(base) if nk else np.zeros(1, np.int16)
    counts = np.zeros(nc + 1, dtype=np.int64)       # the last slot counts weights out of range
    cdef int64_t[::1] cv = counts
    cdef int status = 0
    if nk == 0 or L == 0:
        return counts[:nc]
    with nogil:
        status = wl_leaders(&bv[0, 0], nk, L, valid, &dv[0, 0, 0], fout, k, &av[0], i0, i1, &cv[0], nc)
    if status == -1:
        raise MemoryError("coset_leader_counts: out of memory")
    if status == -2:
        raise InvalidBoardError(f"coset weights fell outside [0, {nc}): inconsistent inner/delta/base")
    return counts[:nc]
