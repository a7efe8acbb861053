# Inline primitives on bit rows packed into uint64 words.
#
# Layout invariant (every kernel keeps it): bit i of a row lives in word i >> 6
# at position i & 63 (least-significant bit first, as
# numpy.packbits(..., bitorder="little") then .view("<u8")), and the bits past
# the row's last column are always zero.  A row is a borrowed pointer plus a
# word count; numpy arrays own the buffers.
#
# These are `noexcept nogil` so kernels can call them without the GIL.  They are
# compiled into each module that cimports them, with that module's CPU flags,
# so the plain loops below vectorise to SSE2, AVX2 or AVX-512 as built.
#
# The row operator T (one row of presses toggling its own row) is written once,
# as LO_T_STENCIL / t_word below; apply_T, chase_step and the A/B iteration in
# chase.pyx all call it.
# tests/test_bitrow_probe.py runs every primitive here between guard words.

from libc.stdint cimport uint64_t
from libc.string cimport memcpy, memset

cdef extern from *:
    """
    #include <stdint.h>
    #include <stddef.h>
    #if defined(_MSC_VER)
    #include <intrin.h>
    static inline int lo_ctz64(uint64_t x) { unsigned long i; _BitScanForward64(&i, x); return (int)i; }
    static inline int lo_clz64(uint64_t x) { unsigned long i; _BitScanReverse64(&i, x); return 63 - (int)i; }
    #define LO_RESTRICT __restrict
    #define LO_ALWAYS_INLINE static __forceinline
    #else
    static inline int lo_ctz64(uint64_t x) { return __builtin_ctzll(x); }
    static inline int lo_clz64(uint64_t x) { return __builtin_clzll(x); }
    #define LO_RESTRICT __restrict__
    #define LO_ALWAYS_INLINE static inline __attribute__((always_inline))
    #endif

    /* The T stencil, the one place the neighbour structure of a row lives.
       T = I + P (P the adjacency of the path on the row's cells): cell j of
       T x is x[j-1] ^ x[j] ^ x[j+1], cells outside the row reading 0.  Every
       loop that applies T goes through LO_T_STENCIL: on packed words through
       lo_t_word below (the neighbours are the word shifted one cell each way),
       on the A/B iteration's transposed rows directly (the neighbours are
       whole rows, one SIMD lane of columns each).  Another slice operator (a
       torus row, a wider neighbourhood) is a change here. */
    #define LO_T_STENCIL(left, mid, right) ((left) ^ (mid) ^ (right))

    /* Word i of a row moved one cell up (cell j -> j + 1) / down (j + 1 -> j),
       given word i and its neighbour word below (i - 1) / above (i + 1). */
    LO_ALWAYS_INLINE uint64_t lo_up_word(uint64_t w, uint64_t below) { return (w << 1) | (below >> 63); }
    LO_ALWAYS_INLINE uint64_t lo_down_word(uint64_t w, uint64_t above) { return (w >> 1) | (above << 63); }

    /* Word i of T x from words i - 1, i, i + 1 of x (pass 0 past either end). */
    LO_ALWAYS_INLINE uint64_t lo_t_word(uint64_t below, uint64_t w, uint64_t above) {
        return LO_T_STENCIL(lo_up_word(w, below), w, lo_down_word(w, above));
    }

    /* Where a chase's lights come from: a board row, every light on (one load
       stream fewer), or none (the dark board). */
    enum { LO_LIT_BOARD = 0, LO_LIT_ALL = 1, LO_LIT_NONE = 2 };

    /* One chase step on words [lo, hi) of an nwords-word row:
           acc[i] ^= (T cur)[i] ^ lit[i]
       With acc = r_{k-1}, cur = r_k and lit = b_k this leaves r_{k+1} in acc
       (docs/algebra.md section 1).  lit is read only when mode == LO_LIT_BOARD;
       tail masks the row's last word.  A compile-time mode makes the loop
       branch-free.  acc must not alias cur or lit. */
    LO_ALWAYS_INLINE void lo_chase_step(uint64_t *LO_RESTRICT acc, const uint64_t *LO_RESTRICT cur,
                                        const uint64_t *LO_RESTRICT lit, ptrdiff_t lo, ptrdiff_t hi,
                                        ptrdiff_t nwords, uint64_t tail, const int mode)
    {
    #define LO_LIT_WORD(i) (mode == LO_LIT_BOARD ? lit[i] : mode == LO_LIT_ALL ? ~(uint64_t)0 : (uint64_t)0)
        ptrdiff_t i, mid_hi;
        if (lo >= hi) return;
        if (lo == 0) {
            acc[0] ^= lo_t_word(0, cur[0], nwords > 1 ? cur[1] : 0) ^ LO_LIT_WORD(0);
            if (nwords == 1) acc[0] &= tail;
            lo = 1;
        }
        mid_hi = hi < nwords - 1 ? hi : nwords - 1;
        for (i = lo; i < mid_hi; i++)  /* branch-free middle: vectorises */
            acc[i] ^= lo_t_word(cur[i - 1], cur[i], cur[i + 1]) ^ LO_LIT_WORD(i);
        if (hi == nwords && nwords > 1 && lo <= nwords - 1) {
            i = nwords - 1;
            acc[i] = (acc[i] ^ lo_t_word(cur[i - 1], cur[i], 0) ^ LO_LIT_WORD(i)) & tail;
        }
    #undef LO_LIT_WORD
    }
    """
    # Index of the lowest / count of leading zeros; undefined for x == 0.
    int ctz64 "lo_ctz64"(uint64_t x) noexcept nogil
    int clz64 "lo_clz64"(uint64_t x) noexcept nogil
    uint64_t up_word "lo_up_word"(uint64_t w, uint64_t below) noexcept nogil
    uint64_t down_word "lo_down_word"(uint64_t w, uint64_t above) noexcept nogil
    uint64_t t_word "lo_t_word"(uint64_t below, uint64_t w, uint64_t above) noexcept nogil
    enum:
        LIT_BOARD "LO_LIT_BOARD"
        LIT_ALL "LO_LIT_ALL"
        LIT_NONE "LO_LIT_NONE"
    void chase_step "lo_chase_step"(uint64_t* acc, const uint64_t* cur, const uint64_t* lit,
                                    Py_ssize_t lo, Py_ssize_t hi, Py_ssize_t nwords, uint64_t tail,
                                    int mode) noexcept nogil


cdef inline Py_ssize_t words_for_bits(Py_ssize_t nbits) noexcept nogil:
    """Number of 64-bit words that hold nbits bits."""
    return (nbits + 63) >> 6


cdef inline uint64_t tail_mask(Py_ssize_t nbits) noexcept nogil:
    """Mask of the valid bits in the last word of an nbits-bit row."""
    cdef int r = <int>(nbits & 63)
    if r == 0:
        return ~(<uint64_t>0)
    return ((<uint64_t>1) << r) - 1


cdef inline void xor_into(uint64_t* dst, const uint64_t* src, Py_ssize_t nwords) noexcept nogil:
    """dst ^= src."""
    cdef Py_ssize_t i
    for i in range(nwords):
        dst[i] ^= src[i]


cdef inline void copy_row(uint64_t* dst, const uint64_t* src, Py_ssize_t nwords) noexcept nogil:
    if nwords > 0:
        memcpy(dst, src, <size_t>nwords * sizeof(uint64_t))


cdef inline void zero_row(uint64_t* dst, Py_ssize_t nwords) noexcept nogil:
    if nwords > 0:
        memset(dst, 0, <size_t>nwords * sizeof(uint64_t))


cdef inline bint get_bit(const uint64_t* row, Py_ssize_t i) noexcept nogil:
    return (row[i >> 6] >> (i & 63)) & 1


cdef inline void set_bit(uint64_t* row, Py_ssize_t i) noexcept nogil:
    row[i >> 6] |= (<uint64_t>1) << (i & 63)


cdef inline Py_ssize_t highest_set_bit(const uint64_t* row, Py_ssize_t nwords) noexcept nogil:
    """Index of the highest set bit, or -1 for a zero row (a polynomial's degree)."""
    cdef Py_ssize_t i = nwords - 1
    while i >= 0:
        if row[i] != 0:
            return (i << 6) + 63 - clz64(row[i])
        i -= 1
    return -1


cdef inline void apply_T(uint64_t* dst, const uint64_t* src, Py_ssize_t nwords,
                         Py_ssize_t nbits) noexcept nogil:
    """dst = T·src (the T stencil on every word), masked to nbits; dst must not alias src.

    T = I + P, P the adjacency of the path on nbits cells: the lights that one
    row of presses toggles in its own row.
    """
    cdef Py_ssize_t i
    if nwords <= 0:
        return
    if nwords == 1:
        dst[0] = t_word(0, src[0], 0) & tail_mask(nbits)
        return
    dst[0] = t_word(0, src[0], src[1])
    for i in range(1, nwords - 1):  # branch-free middle, vectorises
        dst[i] = t_word(src[i - 1], src[i], src[i + 1])
    dst[nwords - 1] = t_word(src[nwords - 2], src[nwords - 1], 0) & tail_mask(nbits)
