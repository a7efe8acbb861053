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

from libc.stdint cimport uint64_t
from libc.string cimport memcpy, memset

cdef extern from *:
    """
    #include <stdint.h>
    #if defined(_MSC_VER)
    #include <intrin.h>
    static inline int lo_popcount64(uint64_t x) { return (int)__popcnt64(x); }
    static inline int lo_ctz64(uint64_t x) { unsigned long i; _BitScanForward64(&i, x); return (int)i; }
    static inline int lo_clz64(uint64_t x) { unsigned long i; _BitScanReverse64(&i, x); return 63 - (int)i; }
    #else
    static inline int lo_popcount64(uint64_t x) { return __builtin_popcountll(x); }
    static inline int lo_ctz64(uint64_t x) { return __builtin_ctzll(x); }
    static inline int lo_clz64(uint64_t x) { return __builtin_clzll(x); }
    #endif
    """
    int popcount64 "lo_popcount64"(uint64_t x) noexcept nogil
    # Index of the lowest / count of leading zeros; undefined for x == 0.
    int ctz64 "lo_ctz64"(uint64_t x) noexcept nogil
    int clz64 "lo_clz64"(uint64_t x) noexcept nogil

cdef extern from *:
    """
    #if defined(_MSC_VER)
    #define LO_RESTRICT __restrict
    #else
    #define LO_RESTRICT __restrict__
    #endif
    /* dst ^= a ^ b ^ c over exactly 8 words (one 512-bit lane group).  The fixed
       length and restrict let the compiler emit straight-line vector code (one
       zmm, two ymm or four xmm operations) with no alias checks. */
    static inline void lo_xor3_into_8(uint64_t *LO_RESTRICT dst, const uint64_t *LO_RESTRICT a,
                                      const uint64_t *LO_RESTRICT b, const uint64_t *LO_RESTRICT c) {
        for (int i = 0; i < 8; i++) dst[i] ^= a[i] ^ b[i] ^ c[i];
    }
    """
    void xor3_into_8 "lo_xor3_into_8"(uint64_t* dst, const uint64_t* a, const uint64_t* b,
                                      const uint64_t* c) noexcept nogil


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


cdef inline void xor3_into(uint64_t* dst, const uint64_t* a, const uint64_t* b,
                           const uint64_t* c, Py_ssize_t nwords) noexcept nogil:
    """dst ^= a ^ b ^ c."""
    cdef Py_ssize_t i
    for i in range(nwords):
        dst[i] ^= a[i] ^ b[i] ^ c[i]


cdef inline void copy_row(uint64_t* dst, const uint64_t* src, Py_ssize_t nwords) noexcept nogil:
    if nwords > 0:
        memcpy(dst, src, <size_t>nwords * sizeof(uint64_t))


cdef inline void zero_row(uint64_t* dst, Py_ssize_t nwords) noexcept nogil:
    if nwords > 0:
        memset(dst, 0, <size_t>nwords * sizeof(uint64_t))


cdef inline bint is_zero_row(const uint64_t* row, Py_ssize_t nwords) noexcept nogil:
    cdef Py_ssize_t i
    cdef uint64_t acc = 0
    for i in range(nwords):
        acc |= row[i]
    return acc == 0


cdef inline Py_ssize_t popcount_row(const uint64_t* row, Py_ssize_t nwords) noexcept nogil:
    cdef Py_ssize_t i, total = 0
    for i in range(nwords):
        total += popcount64(row[i])
    return total


cdef inline bint get_bit(const uint64_t* row, Py_ssize_t i) noexcept nogil:
    return (row[i >> 6] >> (i & 63)) & 1


cdef inline void set_bit(uint64_t* row, Py_ssize_t i) noexcept nogil:
    row[i >> 6] |= (<uint64_t>1) << (i & 63)


cdef inline void clear_bit(uint64_t* row, Py_ssize_t i) noexcept nogil:
    row[i >> 6] &= ~((<uint64_t>1) << (i & 63))


cdef inline void flip_bit(uint64_t* row, Py_ssize_t i) noexcept nogil:
    row[i >> 6] ^= (<uint64_t>1) << (i & 63)


cdef inline Py_ssize_t highest_set_bit(const uint64_t* row, Py_ssize_t nwords) noexcept nogil:
    """Index of the highest set bit, or -1 for a zero row (a polynomial's degree)."""
    cdef Py_ssize_t i = nwords - 1
    while i >= 0:
        if row[i] != 0:
            return (i << 6) + 63 - clz64(row[i])
        i -= 1
    return -1


cdef inline Py_ssize_t lowest_set_bit(const uint64_t* row, Py_ssize_t nwords) noexcept nogil:
    """Index of the lowest set bit, or -1 for a zero row."""
    cdef Py_ssize_t i
    for i in range(nwords):
        if row[i] != 0:
            return (i << 6) + ctz64(row[i])
    return -1


cdef inline void shift_up_one(uint64_t* dst, const uint64_t* src, Py_ssize_t nwords,
                              Py_ssize_t nbits) noexcept nogil:
    """dst = src << 1 (bit i moves to i + 1), truncated to nbits. dst may equal src."""
    cdef Py_ssize_t i = nwords - 1
    while i > 0:
        dst[i] = (src[i] << 1) | (src[i - 1] >> 63)
        i -= 1
    if nwords > 0:
        dst[0] = src[0] << 1
        dst[nwords - 1] &= tail_mask(nbits)


cdef inline void shift_down_one(uint64_t* dst, const uint64_t* src, Py_ssize_t nwords) noexcept nogil:
    """dst = src >> 1 (bit i moves to i - 1, bit 0 drops). dst may equal src."""
    cdef Py_ssize_t i
    for i in range(nwords - 1):
        dst[i] = (src[i] >> 1) | (src[i + 1] << 63)
    if nwords > 0:
        dst[nwords - 1] = src[nwords - 1] >> 1


cdef inline uint64_t _t_word(const uint64_t* src, Py_ssize_t i, Py_ssize_t nwords) noexcept nogil:
    """Word i of T·src, with the neighbouring words' carry bits (edges read as zero)."""
    cdef uint64_t w = src[i]
    cdef uint64_t below = src[i - 1] >> 63 if i > 0 else 0
    cdef uint64_t above = src[i + 1] << 63 if i + 1 < nwords else 0
    return w ^ ((w << 1) | below) ^ ((w >> 1) | above)


cdef inline void apply_T(uint64_t* dst, const uint64_t* src, Py_ssize_t nwords,
                         Py_ssize_t nbits) noexcept nogil:
    """dst = T·src = src ^ (src << 1) ^ (src >> 1), masked to nbits; dst must not alias src.

    T = I + P, P the adjacency of the path on nbits cells: the lights that one
    row of presses toggles in its own row.
    """
    cdef Py_ssize_t i
    cdef uint64_t w
    if nwords == 0:
        return
    dst[0] = _t_word(src, 0, nwords)
    for i in range(1, nwords - 1):  # branch-free middle, vectorises
        w = src[i]
        dst[i] = w ^ ((w << 1) | (src[i - 1] >> 63)) ^ ((w >> 1) | (src[i + 1] << 63))
    if nwords > 1:
        dst[nwords - 1] = _t_word(src, nwords - 1, nwords)
    dst[nwords - 1] &= tail_mask(nbits)


cdef inline void chase_step(uint64_t* dst, const uint64_t* cur, const uint64_t* prev,
                            const uint64_t* lit, Py_ssize_t nwords, Py_ssize_t nbits) noexcept nogil:
    """dst = T·cur ^ prev ^ lit: the presses of the next row when chasing lights down.

    All pointers must be valid rows (pass a zero row for "none"); dst must not
    alias cur but may alias prev or lit.
    """
    cdef Py_ssize_t i
    cdef uint64_t w
    if nwords == 0:
        return
    dst[0] = _t_word(cur, 0, nwords) ^ prev[0] ^ lit[0]
    for i in range(1, nwords - 1):
        w = cur[i]
        dst[i] = (w ^ ((w << 1) | (cur[i - 1] >> 63)) ^ ((w >> 1) | (cur[i + 1] << 63))
                  ^ prev[i] ^ lit[i])
    if nwords > 1:
        dst[nwords - 1] = _t_word(cur, nwords - 1, nwords) ^ prev[nwords - 1] ^ lit[nwords - 1]
    dst[nwords - 1] &= tail_mask(nbits)
