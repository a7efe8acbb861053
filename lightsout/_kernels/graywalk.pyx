# Kernel of lightsout._search.graywalk: the fewest presses over a GF(2) coset by a Gray-code
# walk with population counts, pruned by a bound of its own -- the second algorithm of the
# fewest-press table, sharing no inner loop with the Walsh-Hadamard search (walsh.h).
#
# The coset's cells, grouped by form and signed as in lightsout/_search/minweight.py, become
# U "units" (|g| of them for a form of histogram value g, cells of opposite value cancelling):
# unit u has a form a_u (a d-bit word, coordinate c_1 at bit d-1) and a start bit b_u, and at
# coordinate c its bit is b_u XOR parity(a_u & c).  The weight of the element at c is
# (cells - units) / 2 + popcount(bits(c)), so the least popcount is the fewest presses.
# The units sit in a bitset; flipping coordinate j XORs the bitset with mask[j] (the units
# whose form has bit j), and the popcount follows.
#
# The coordinates split as c = [task | low]: a task fixes the top d - m bits; its 2^m
# elements differ only in the low m.  Units whose forms share their low m bits flip together
# within a task, so a group of n_l units of which p_l are set contributes p_l or n_l - p_l:
#     bound(task) = p_0 + sum over l != 0 of min(p_l, n_l - p_l)
# (group 0, low bits all zero, never flips) is a lower bound on every popcount of the task.
# The units are ordered by their low bits, each group starting on a word, so one pass over
# the words moves to the next task and weighs its bound.  A task whose bound is above the
# best popcount found is skipped; the others are walked in the reflected Gray code of the
# low bits (one XOR-and-popcount pass a step).  Tasks are visited in Gray order too, so
# moving from one to the next is one XOR.
#
# Ties: the least (popcount, index) pair is kept, index = (task << m) | low the coordinate
# read with c_1 most significant; a task is skipped only when its bound is strictly above
# the best, so the tie is that of every other search (the lexicographically smallest
# minimum-weight press vector once the coset is reduced, minweight.py's module docstring).
#
# Compiled once per SIMD level (setup.py); the def wrapper validates with the GIL held and
# walks inside `with nogil`, polling the cancel flag and Ctrl-C (cancel.pxd) between tasks.

from libc.stdint cimport int64_t, uint64_t

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
    #include <intrin.h>
    #define GW_RESTRICT __restrict
    static int gw_popcount64(uint64_t v) { return (int)__popcnt64(v); }
    static int gw_ctz64(uint64_t v) { unsigned long i; _BitScanForward64(&i, v); return (int)i; }
    #else
    #define GW_RESTRICT __restrict__
    #if defined(__POPCNT__) || !(defined(__x86_64__) || defined(__i386__))
    static inline int gw_popcount64(uint64_t v) { return __builtin_popcountll(v); }
    #else
    /* The portable x86-64 build has no POPCNT instruction, and GCC's builtin is then a call to
       libgcc per word: the SWAR count instead (a dozen ALU operations). */
    static inline int gw_popcount64(uint64_t v)
    {
        v = v - ((v >> 1) & 0x5555555555555555ULL);
        v = (v & 0x3333333333333333ULL) + ((v >> 2) & 0x3333333333333333ULL);
        v = (v + (v >> 4)) & 0x0F0F0F0F0F0F0F0FULL;
        return (int)((v * 0x0101010101010101ULL) >> 56);
    }
    #endif
    static inline int gw_ctz64(uint64_t v) { return __builtin_ctzll(v); }
    #endif

    /* state ^= mask over n words; the popcount of the result. */
    static int64_t gw_flip_count(uint64_t *GW_RESTRICT state, const uint64_t *GW_RESTRICT mask, ptrdiff_t n)
    {
        int64_t ones = 0;
        for (ptrdiff_t w = 0; w < n; w++) {
            uint64_t v = state[w] ^ mask[w];
            state[w] = v;
            ones += gw_popcount64(v);
        }
        return ones;
    }

    /* state ^= mask (mask NULL: unchanged), and the task's bound over the groups: group l holds
       words starting[l] .. starting[l+1]-1 and units[l] units; group 0 counts its set units, every
       other the smaller of its set and clear units.  *ones gets the state's popcount.  One pass
       keeps the running popcount after each word in prefix[1..n] (prefix[0] = 0), so a group's
       set units are a difference of two entries: no loop of a group's own length (short loops
       of varying lengths, one per group, cost a misprediction each: 2.4 times slower at n = 170). */
    static int64_t gw_group_bound(const int64_t *GW_RESTRICT starting, const int64_t *GW_RESTRICT units,
                                  ptrdiff_t groups, const int64_t *GW_RESTRICT prefix)
    {
        int64_t bound = prefix[starting[1]];
        for (ptrdiff_t l = 1; l < groups; l++) {
            int64_t set = prefix[starting[l + 1]] - prefix[starting[l]];
            int64_t clear = units[l] - set;
            bound += set < clear ? set : clear;
        }
        return bound;
    }

    static int64_t gw_flip_bound_scalar(uint64_t *GW_RESTRICT state, const uint64_t *GW_RESTRICT mask,
                                        const int64_t *GW_RESTRICT starting, const int64_t *GW_RESTRICT units,
                                        ptrdiff_t groups, int64_t *GW_RESTRICT prefix, int64_t *ones)
    {
        ptrdiff_t n = (ptrdiff_t)starting[groups];
        int64_t total = 0;
        prefix[0] = 0;
        if (mask != NULL) {
            for (ptrdiff_t w = 0; w < n; w++) {
                uint64_t v = state[w] ^ mask[w];
                state[w] = v;
                total += gw_popcount64(v);
                prefix[w + 1] = total;
            }
        } else {
            for (ptrdiff_t w = 0; w < n; w++) {
                total += gw_popcount64(state[w]);
                prefix[w + 1] = total;
            }
        }
        *ones = total;
        return gw_group_bound(starting, units, groups, prefix);
    }

    #if defined(__AVX512F__) && defined(__GNUC__)
    #include <immintrin.h>
    /* The avx512 build: where the CPU also has AVX512-VPOPCNTDQ (not part of x86-64-v4, so asked
       for this function alone and checked at import), eight words a step: XOR, vector popcount,
       the running count by three shifted adds within the vector and the last lane carried over.
       1.8 times the scalar pass above (638 words, 64 groups: 0.65 us against 1.2 us, loaded EPYC). */
    __attribute__((target("avx512vpopcntdq")))
    static int64_t gw_flip_bound_vpopcnt(uint64_t *GW_RESTRICT state, const uint64_t *GW_RESTRICT mask,
                                         const int64_t *GW_RESTRICT starting, const int64_t *GW_RESTRICT units,
                                         ptrdiff_t groups, int64_t *GW_RESTRICT prefix, int64_t *ones)
    {
        ptrdiff_t n = (ptrdiff_t)starting[groups];
        const __m512i zero = _mm512_setzero_si512(), last = _mm512_set1_epi64(7);
        __m512i carry = zero;
        prefix[0] = 0;
        for (ptrdiff_t w = 0; w < n; w += 8) {
            __mmask8 lanes = n - w >= 8 ? (__mmask8)0xFF : (__mmask8)((1u << (n - w)) - 1u);
            __m512i v = _mm512_maskz_loadu_epi64(lanes, state + w);
            if (mask != NULL) {
                v = _mm512_xor_si512(v, _mm512_maskz_loadu_epi64(lanes, mask + w));
                _mm512_mask_storeu_epi64(state + w, lanes, v);
            }
            __m512i count = _mm512_popcnt_epi64(v);
            count = _mm512_add_epi64(count, _mm512_alignr_epi64(count, zero, 7));
            count = _mm512_add_epi64(count, _mm512_alignr_epi64(count, zero, 6));
            count = _mm512_add_epi64(count, _mm512_alignr_epi64(count, zero, 4));
            count = _mm512_add_epi64(count, carry);
            _mm512_mask_storeu_epi64(prefix + w + 1, lanes, count);
            carry = _mm512_permutexvar_epi64(last, count);
        }
        *ones = prefix[n];
        return gw_group_bound(starting, units, groups, prefix);
    }
    static int gw_vector_popcount = 0;
    static void gw_init(void)
    {
        __builtin_cpu_init();
        gw_vector_popcount = __builtin_cpu_supports("avx512vpopcntdq") != 0;
    }
    #else
    static int gw_vector_popcount = 0;
    static void gw_init(void) {}
    #endif

    /* state ^= mask and the task's bound: the vector pass where the CPU has it, else the scalar one. */
    static int64_t gw_flip_bound(uint64_t *GW_RESTRICT state, const uint64_t *GW_RESTRICT mask,
                                 const int64_t *GW_RESTRICT starting, const int64_t *GW_RESTRICT units,
                                 ptrdiff_t groups, int64_t *GW_RESTRICT prefix, int64_t *ones)
    {
    #if defined(__AVX512F__) && defined(__GNUC__)
        if (gw_vector_popcount)
            return gw_flip_bound_vpopcnt(state, mask, starting, units, groups, prefix, ones);
    #endif
        return gw_flip_bound_scalar(state, mask, starting, units, groups, prefix, ones);
    }
    """
    const char* GW_SIMD_LEVEL "LIGHTSOUT_SIMD_LEVEL"
    int64_t gw_flip_count(uint64_t* state, const uint64_t* mask, Py_ssize_t n) noexcept nogil
    int64_t gw_flip_bound(uint64_t* state, const uint64_t* mask, const int64_t* starting, const int64_t* units,
                          Py_ssize_t groups, int64_t* prefix, int64_t* ones) noexcept nogil
    int gw_ctz64(uint64_t v) noexcept nogil
    void gw_init() noexcept nogil
    int gw_vector_popcount


SIMD_LEVEL = GW_SIMD_LEVEL.decode()

gw_init()
#: Whether the task bound's pass runs on AVX512-VPOPCNTDQ (the avx512 build, on a CPU that has it).
VECTOR_POPCOUNT = bool(gw_vector_popcount)

#: Coordinates of one walk at most (forms are 64-bit words).
MAX_WALK_COORDINATES = 64
#: Low coordinates of a task at most: 2^m groups of units.
MAX_LOW_BITS = 16
#: Words of the bitset passed over between two looks at the cancel flag and Ctrl-C.
POLL_WORDS = 1 << 20


cdef struct Walked:
    int64_t best_ones        # the least popcount found (or the caller's, unchanged)
    uint64_t best_index      # its coordinate
    int64_t tasks_walked     # tasks whose elements were weighed one by one
    int64_t tasks_skipped    # tasks whose bound was above the best


cdef int walk_tasks(uint64_t* state, const uint64_t* masks, Py_ssize_t nwords, int d, int m,
                    const int64_t* starting, const int64_t* units, Py_ssize_t groups, int64_t* prefix,
                    uint64_t first, uint64_t stop, Walked* out, Poll* poll) noexcept nogil:
    """Tasks of Gray rank first .. stop-1; ``state`` is the bitset of task gray(first) at low 0."""
    cdef uint64_t rank, task, low, step, index
    cdef int64_t ones, bound
    cdef const uint64_t* moved
    cdef int status
    for rank in range(first, stop):
        moved = NULL
        if rank != first:
            moved = masks + <Py_ssize_t>(m + gw_ctz64(rank)) * nwords
        bound = gw_flip_bound(state, moved, starting, units, groups, prefix, &ones)
        task = rank ^ (rank >> 1)
        status = poll_work(poll, nwords)
        if status != STOP_NONE:
            return status
        if bound > out.best_ones:
            out.tasks_skipped += 1
            continue
        out.tasks_walked += 1
        index = task << m
        if ones < out.best_ones or (ones == out.best_ones and index < out.best_index):
            out.best_ones, out.best_index = ones, index
        if m == 0:
            continue
        for step in range(1, (<uint64_t>1) << m):
            ones = gw_flip_count(state, masks + <Py_ssize_t>gw_ctz64(step) * nwords, nwords)
            low = step ^ (step >> 1)
            index = (task << m) | low
            if ones < out.best_ones or (ones == out.best_ones and index < out.best_index):
                out.best_ones, out.best_index = ones, index
        gw_flip_count(state, masks + <Py_ssize_t>(m - 1) * nwords, nwords)   # back to low 0
        status = poll_work(poll, nwords << m)
        if status != STOP_NONE:
            return status
    return STOP_NONE


def walk(const uint64_t[::1] start, const uint64_t[:, ::1] masks, const int64_t[::1] starting,
         const int64_t[::1] units, int m, unsigned long long first, unsigned long long stop,
         long long best_ones, unsigned long long best_index, *, cancel=None):
    """The least (popcount, index) over the tasks of Gray rank ``first`` .. ``stop - 1``.

    The bitset of the element at coordinate c is ``start`` XOR the ``masks[j]`` of the set bits j
    of c (d = ``masks.shape[0]`` coordinates, the low m of them walked within each task; the task
    of Gray rank r is ``r ^ (r >> 1)``, coordinate bits m and up).  The units are grouped by their
    low m form bits, 2^m groups: group l holds the words ``starting[l]`` .. ``starting[l + 1] - 1``
    (padding bits zero in ``start`` and every mask) and ``units[l]`` units.  A task whose lower
    bound (module comment) is above ``best_ones`` is skipped; the result is the least pair
    (popcount, index) of the caller's and those of the tasks walked.

    Args:
        start: ``(nwords,)`` uint64, the bitset at coordinate 0.
        masks: ``(d, nwords)`` uint64, d <= 64.
        starting: ``(2^m + 1,)`` int64, increasing from 0 to nwords.
        units: ``(2^m,)`` int64, each at most 64 times its group's words.
        m: the low bits of a task, 0 <= m <= min(d, 16).
        first, stop: the Gray ranks of the tasks, ``first <= stop <= 2^(d - m)``.
        best_ones, best_index: the best pair known (a popcount above every unit count: none).
        cancel: None or a C-contiguous numpy uint8 array; the walk stops once byte 0 is nonzero.

    Returns:
        ``(complete, best_ones, best_index, walked, skipped)``: whether every task was done, the
        least pair, and the tasks weighed and skipped.

    Raises:
        InvalidBoardError: shapes or values out of those ranges.
        KeyboardInterrupt: Ctrl-C during the walk.

    Example:
        >>> import numpy as np
        >>> start = np.array([0b011], np.uint64)          # three units, forms 1, 1, 0
        >>> masks = np.array([[0b011]], np.uint64)
        >>> walk(start, masks, np.array([0, 1], np.int64), np.array([3], np.int64), 0, 0, 2, 99, 0)
        (True, 0, 1, 2, 0)
    """
    cdef Py_ssize_t nwords = start.shape[0], d = masks.shape[0], groups, l
    if not 0 <= d <= MAX_WALK_COORDINATES:
        raise InvalidBoardError(f"a walk has at most {MAX_WALK_COORDINATES} coordinates, got {d}")
    if masks.shape[1] != nwords:
        raise InvalidBoardError(f"masks must be ({d}, {nwords}) like start, got ({d}, {masks.shape[1]})")
    if not 0 <= m <= min(d, MAX_LOW_BITS):
        raise InvalidBoardError(f"m must be in 0..{min(d, MAX_LOW_BITS)} (the coordinates, at most "
                                f"{MAX_LOW_BITS}), got {m}")
    groups = (<Py_ssize_t>1) << m
    if starting.shape[0] != groups + 1 or units.shape[0] != groups:
        raise InvalidBoardError(f"starting must have {groups + 1} entries and units {groups}, got "
                                f"{starting.shape[0]} and {units.shape[0]}")
    if starting[0] != 0 or starting[groups] != nwords:
        raise InvalidBoardError(f"starting must run from 0 to {nwords} (the words)")
    for l in range(groups):
        if starting[l + 1] < starting[l] or not 0 <= units[l] <= 64 * (starting[l + 1] - starting[l]):
            raise InvalidBoardError(f"group {l}: starting must not decrease and units must fit its words")
    tasks = (<object>1) << (d - m)   # a Python int: 2^64 when d = 64 and m = 0
    if not first <= stop <= tasks:
        raise InvalidBoardError(f"the ranks must satisfy first <= stop <= 2^{d - m}, got {first} and {stop}")
    state_array = np.array(start, dtype=np.uint64, copy=True)
    task = first ^ (first >> 1)
    for l in range(d - m):
        if task >> l & 1:
            state_array ^= masks[m + l]
    cdef uint64_t[::1] state = state_array
    prefix_array = np.empty(nwords + 1, dtype=np.int64)
    cdef int64_t[::1] prefix = prefix_array
    cdef uint64_t dummy_word = 0
    cdef uint64_t* sp = &state[0] if nwords else &dummy_word
    cdef const uint64_t* mp = &masks[0, 0] if nwords and d else &dummy_word
    cdef Walked out
    out.best_ones, out.best_index, out.tasks_walked, out.tasks_skipped = best_ones, best_index, 0, 0
    cdef int status
    cdef Poll poll = make_poll(cancel, POLL_WORDS)
    with nogil:
        status = walk_tasks(sp, mp, nwords, <int>d, m, &starting[0], &units[0], groups, &prefix[0], first, stop,
                            &out, &poll)
    raise_if_interrupted(status)
    return status == STOP_NONE, int(out.best_ones), int(out.best_index), int(out.tasks_walked), \
        int(out.tasks_skipped)
