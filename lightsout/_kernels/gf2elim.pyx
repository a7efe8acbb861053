# Dense Gauss-Jordan elimination over GF(2) on packed rows.
#
# A matrix is nrows rows of `stride` uint64 words (C-contiguous, numpy owns the
# buffer); the first nwords = words_for_bits(ncols) words of a row hold its
# ncols bits least-significant bit first (see bitrow.pxd), and every bit past
# ncols is zero.  Every kernel here XORs whole rows only, so that invariant holds
# on exit without re-masking.
#
# Algorithm (reduced row echelon form, "method of four Russians"):
#   The pivot columns are processed one 64-bit word at a time.  For the word w:
#   1. find_block_pivots: plain Gauss-Jordan restricted to the not-yet-pivot
#      rows finds up to 64 pivot rows with pivots in word w, moves them to rows
#      r .. r+p-1 and reduces them against each other, so pivot row j has a 1 in
#      its own pivot column and 0 in the block's other pivot columns.  The
#      search tests candidates on their word w alone (scalars); only the rows
#      that become pivots are reduced in full.
#   2. Every other row x must then lose exactly the combination of pivot rows
#      selected by the bits (x[w] & pivot_mask).  Rather than XOR up to 64 rows
#      into each x, split the 64 selector bits into 8 bytes and precompute for
#      each byte the XOR of every subset of its (up to 8) pivot rows: 8 tables of
#      256 rows.  Each x then needs only 8 table rows: x ^= T0[b0] ^ ... ^ T7[b7].
#   3. Cache blocking: the tables are built and applied one stripe of
#      STRIPE_WORDS words at a time, so the 8*256 table rows of a stripe stay in
#      L2 while every matrix row streams past them once (prefetched a few rows
#      ahead: on a 10000 x 10001 matrix that halves the time).
# When few rows need updating the tables are not worth building (2048 table rows
# per stripe); the block is then applied by direct row XORs ("naive" update).
#
# Ctrl-C: between column blocks, once about SIGNAL_WORK row-words have been
# updated (a few milliseconds), an elimination run from Python's main thread
# takes the GIL for a moment and checks for signals, so KeyboardInterrupt stops
# even an n = 40,000 elimination within a block's time (tens of milliseconds).
#
# Packing: pack_zero_one turns wide 0/1 numbers (2- to 8-byte integers, floats)
# into packed rows and checks them in the same pass (used by lightsout.gf2).
#
# C API: the static table `lightsout_gf2elim_api` (lightsout/capi.h), exported
# as the capsule `_capi`, gives other compiled code this build's elimination,
# callable without the GIL on buffers it owns (see lightsout/capi.pxd).
#
# This file is compiled once per SIMD level (see setup.py).  The hot loops are
# small C functions below with `restrict` pointers, so GCC vectorises them
# (SSE2, AVX2 or AVX-512 as built) without run-time alias checks.  def wrappers
# validate with the GIL held and run the cdef cores inside `with nogil`.

from cpython.pycapsule cimport PyCapsule_New
from libc.stddef cimport ptrdiff_t
from libc.stdint cimport int64_t, uint64_t
from libc.stdlib cimport free, malloc

from lightsout._kernels.bitrow cimport ctz64, get_bit, set_bit, tail_mask, words_for_bits
from lightsout._kernels.cancel cimport STOP_INTERRUPTED, STOP_NONE, Poll, make_poll, poll_work, raise_if_interrupted
from lightsout.capi cimport LIGHTSOUT_CAPI_VERSION, LIGHTSOUT_EINVAL, lightsout_gf2elim_api

import numpy as np

from lightsout._base.errors import InvalidBoardError, InvalidTypeError
from lightsout._base.validate import packed_matrix

cdef extern from *:
    """
    #ifndef LIGHTSOUT_SIMD_LEVEL
    #define LIGHTSOUT_SIMD_LEVEL "generic"
    #endif
    """
    const char* LIGHTSOUT_SIMD_LEVEL

cdef extern from *:
    """
    #include <stddef.h>
    #include <stdint.h>
    #include <string.h>
    #if defined(_MSC_VER)
    #define GE_RESTRICT __restrict
    #else
    #define GE_RESTRICT __restrict__
    #endif

    /* row ^= t0 ^ t1 ^ ... ^ t7 over n words: one matrix row against the
       eight table rows its selector bytes pick. */
    static inline void ge_xor8_into(uint64_t *GE_RESTRICT row,
                                    const uint64_t *GE_RESTRICT t0, const uint64_t *GE_RESTRICT t1,
                                    const uint64_t *GE_RESTRICT t2, const uint64_t *GE_RESTRICT t3,
                                    const uint64_t *GE_RESTRICT t4, const uint64_t *GE_RESTRICT t5,
                                    const uint64_t *GE_RESTRICT t6, const uint64_t *GE_RESTRICT t7,
                                    ptrdiff_t n) {
        for (ptrdiff_t k = 0; k < n; k++)
            row[k] ^= ((t0[k] ^ t1[k]) ^ (t2[k] ^ t3[k])) ^ ((t4[k] ^ t5[k]) ^ (t6[k] ^ t7[k]));
    }

    /* dst = a ^ b over n words (building a table row from a smaller one). */
    static inline void ge_xor_to(uint64_t *GE_RESTRICT dst, const uint64_t *GE_RESTRICT a,
                                 const uint64_t *GE_RESTRICT b, ptrdiff_t n) {
        for (ptrdiff_t k = 0; k < n; k++)
            dst[k] = a[k] ^ b[k];
    }

    /* dst ^= src over n words; the rows must be distinct. */
    static inline void ge_xor_into(uint64_t *GE_RESTRICT dst, const uint64_t *GE_RESTRICT src,
                                   ptrdiff_t n) {
        for (ptrdiff_t k = 0; k < n; k++)
            dst[k] ^= src[k];
    }

    /* Ask for the cache lines of n words at p, to be written soon.  The matrix
       rows stream from L3 or memory while the tables sit in L2; fetching a
       few rows ahead hides that latency behind the current row's work. */
    static inline void ge_prefetch_words(const uint64_t *p, ptrdiff_t n) {
    #if defined(__GNUC__) || defined(__clang__)
        for (ptrdiff_t k = 0; k < n; k += 8)
            __builtin_prefetch(p + k, 1, 3);
        __builtin_prefetch(p + n - 1, 1, 3);
    #else
        (void)p; (void)n;
    #endif
    }

    /* Exchange n words of two distinct rows. */
    static inline void ge_swap(uint64_t *GE_RESTRICT a, uint64_t *GE_RESTRICT b, ptrdiff_t n) {
        for (ptrdiff_t k = 0; k < n; k++) {
            uint64_t t = a[k];
            a[k] = b[k];
            b[k] = t;
        }
    }
    """
    void xor8_into "ge_xor8_into"(uint64_t* row, const uint64_t* t0, const uint64_t* t1,
                                  const uint64_t* t2, const uint64_t* t3, const uint64_t* t4,
                                  const uint64_t* t5, const uint64_t* t6, const uint64_t* t7,
                                  Py_ssize_t n) noexcept nogil
    void xor_to "ge_xor_to"(uint64_t* dst, const uint64_t* a, const uint64_t* b,
                            Py_ssize_t n) noexcept nogil
    void xor_rows "ge_xor_into"(uint64_t* dst, const uint64_t* src, Py_ssize_t n) noexcept nogil
    void prefetch_words "ge_prefetch_words"(const uint64_t* p, Py_ssize_t n) noexcept nogil
    void swap_rows "ge_swap"(uint64_t* a, uint64_t* b, Py_ssize_t n) noexcept nogil


cdef extern from *:
    """
    /* The word whose bit q is byte q of f (each byte 0 or 1): eight bytes at a
       time, a multiplication gathers byte i's low bit into bit 56 + i. */
    static inline uint64_t ge_bytes_to_word(const uint8_t *f) {
        uint64_t w = 0;
        for (int q = 0; q < 8; q++) {
    #if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
            for (int i = 0; i < 8; i++)
                w |= (uint64_t)f[8 * q + i] << (8 * q + i);
    #else
            uint64_t x;
            memcpy(&x, f + 8 * q, 8);
            w |= ((x * 0x0102040810204080ULL) >> 56) << (8 * q);
    #endif
        }
        return w;
    }
    /* Pack rows of 0/1 numbers into words and check them in the same pass:
       bit b of word k of output row i is the value at (row i, column 64k+b).
       Every value is read as an unsigned integer U (floats by their bits), so
       the loops are plain integer SIMD.  BIT(v) is the value's bit when v is
       valid; BAD(v) is nonzero when v is not 0 or 1: integers above 1
       (negatives are huge), floats other than 0, -0 and 1 (NaN included).
       Returns 1 if every value is 0/1 (the words are then right).  Rows are
       `row_bytes` apart; within a row the values are contiguous.
       Two steps per 64 values: one vectorisable loop narrows them to 0/1 bytes
       and accumulates the check, then ge_bytes_to_word packs the bytes. */
    #define GE_PACK(NAME, U, BIT, BAD)                                                 \
    static int NAME(const char *src, ptrdiff_t nrows, ptrdiff_t ncols, ptrdiff_t row_bytes, \
                    uint64_t *GE_RESTRICT dst, ptrdiff_t nwords) {                     \
        U bad = 0;                                                                     \
        uint8_t flags[64];                                                             \
        ptrdiff_t full = ncols / 64;                                                   \
        for (ptrdiff_t i = 0; i < nrows; i++) {                                        \
            const U *GE_RESTRICT row = (const U *)(src + i * row_bytes);               \
            uint64_t *out = dst + i * nwords;                                          \
            for (ptrdiff_t k = 0; k < full; k++) {                                     \
                const U *GE_RESTRICT p = row + 64 * k;                                 \
                for (int b = 0; b < 64; b++) {                                         \
                    U v = p[b];                                                        \
                    bad |= BAD(v);                                                     \
                    flags[b] = (uint8_t)BIT(v);                                        \
                }                                                                      \
                out[k] = ge_bytes_to_word(flags);                                      \
            }                                                                          \
            if (full < nwords) {                                                       \
                memset(flags, 0, sizeof flags);                                        \
                for (ptrdiff_t j = 64 * full; j < ncols; j++) {                        \
                    U v = row[j];                                                      \
                    bad |= BAD(v);                                                     \
                    flags[j - 64 * full] = (uint8_t)BIT(v);                            \
                }                                                                      \
                out[full] = ge_bytes_to_word(flags);                                   \
            }                                                                          \
        }                                                                              \
        return bad == 0;                                                               \
    }
    #define GE_INT_BIT(v) (v)
    #define GE_INT_BAD(v) ((v) >> 1)
    /* 1.0 is 0x3FF0... (bit 61 set) in binary64 and 0x3F80... (bit 29) in binary32. */
    #define GE_F64_BIT(v) (((v) >> 61) & 1)
    #define GE_F64_BAD(v) ((uint64_t)((v) != 0x3FF0000000000000ULL) & (uint64_t)(((v) << 1) != 0))
    #define GE_F32_BIT(v) (((v) >> 29) & 1)
    #define GE_F32_BAD(v) ((uint32_t)((v) != 0x3F800000U) & (uint32_t)((uint32_t)((v) << 1) != 0))
    GE_PACK(ge_pack_u8, uint8_t, GE_INT_BIT, GE_INT_BAD)
    GE_PACK(ge_pack_u16, uint16_t, GE_INT_BIT, GE_INT_BAD)
    GE_PACK(ge_pack_u32, uint32_t, GE_INT_BIT, GE_INT_BAD)
    GE_PACK(ge_pack_u64, uint64_t, GE_INT_BIT, GE_INT_BAD)
    GE_PACK(ge_pack_f32, uint32_t, GE_F32_BIT, GE_F32_BAD)
    GE_PACK(ge_pack_f64, uint64_t, GE_F64_BIT, GE_F64_BAD)
    """
    int pack_u8 "ge_pack_u8"(const char*, Py_ssize_t, Py_ssize_t, Py_ssize_t, uint64_t*, Py_ssize_t) noexcept nogil
    int pack_u16 "ge_pack_u16"(const char*, Py_ssize_t, Py_ssize_t, Py_ssize_t, uint64_t*, Py_ssize_t) noexcept nogil
    int pack_u32 "ge_pack_u32"(const char*, Py_ssize_t, Py_ssize_t, Py_ssize_t, uint64_t*, Py_ssize_t) noexcept nogil
    int pack_u64 "ge_pack_u64"(const char*, Py_ssize_t, Py_ssize_t, Py_ssize_t, uint64_t*, Py_ssize_t) noexcept nogil
    int pack_f32 "ge_pack_f32"(const char*, Py_ssize_t, Py_ssize_t, Py_ssize_t, uint64_t*, Py_ssize_t) noexcept nogil
    int pack_f64 "ge_pack_f64"(const char*, Py_ssize_t, Py_ssize_t, Py_ssize_t, uint64_t*, Py_ssize_t) noexcept nogil

ctypedef int (*pack_fn)(const char* src, Py_ssize_t nrows, Py_ssize_t ncols, Py_ssize_t row_bytes,
                        uint64_t* dst, Py_ssize_t nwords) noexcept nogil

cdef enum:
    TABLE_BITS = 8                      # selector bits per table
    TABLE_ROWS = 1 << TABLE_BITS        # rows per table (every subset of 8 pivots)
    NTABLES = 64 // TABLE_BITS          # tables per 64-column block
    # Words per cache stripe: 8 tables x 256 rows x 32 words x 8 bytes = 512 KiB,
    # half of a 1 MiB L2, leaving room for the matrix rows streaming through.
    STRIPE_WORDS = 32
    # Use the tables only when at least this many rows need the block applied;
    # below it, building 2048 table rows per stripe costs more than it saves.
    MIN_TABLE_ROWS = 96
    # Rows ahead of the current one whose stripe is prefetched.
    PREFETCH_ROWS = 4
    # Row-words updated between two signal checks: about 8 ms of block updates.
    SIGNAL_WORK = 1 << 23

# Status codes of rref_run besides a rank (>= 0).
cdef enum:
    RREF_NOMEM = -1                     # = LIGHTSOUT_ENOMEM
    RREF_INTERRUPTED = STOP_INTERRUPTED # a signal handler raised (Python callers only; cancel.pxd)

# Update strategies (the `method` argument of rref_inplace).
cdef enum:
    METHOD_AUTO = 0
    METHOD_M4R = 1
    METHOD_NAIVE = 2

_METHODS = {"auto": METHOD_AUTO, "m4r": METHOD_M4R, "naive": METHOD_NAIVE}


# ---------------------------------------------------------------------------
# Cores (no GIL, no Python objects).

cdef int find_block_pivots(uint64_t* m, Py_ssize_t nrows, Py_ssize_t nwords, Py_ssize_t stride,
                           Py_ssize_t r, Py_ssize_t w, uint64_t colmask, int* pivot_bits,
                           uint64_t* block_words) noexcept nogil:
    """Gauss-Jordan on rows r.. for the columns of word w picked by colmask.

    Rows r.. are zero before word w, so every row operation here touches words
    w..nwords-1 only.  A candidate row is tested without being changed: its
    word w reduced by the pivots found so far is one scalar XOR per pivot, and
    block_words keeps that reduced word contiguously for the next scan.  Only a row that
    becomes a pivot is reduced in full; the others are left for the block
    update, which applies the same combination.  So a column without a pivot
    costs a scan of scalars, not a row operation per remaining row.

    Returns p, the number of pivots found; they are now rows r..r+p-1, pivot j
    in bit pivot_bits[j] of word w, increasing, and reduced against each other
    in those bits.
    """
    cdef Py_ssize_t tw = nwords - w
    cdef Py_ssize_t i, gathered = r   # block_words[r:gathered] hold word w of those rows
    cdef uint64_t found = 0           # bits of word w that already have a pivot
    cdef uint64_t remaining = colmask
    cdef uint64_t bit, pending, v, seen
    cdef uint64_t* row
    cdef uint64_t* pivot_row
    cdef int b, j, p = 0
    cdef int row_of_bit[64]           # pivot index (0..p-1) of each found bit
    cdef uint64_t pivot_word[64]      # word w of each pivot row, kept current
    while remaining != 0 and r + p < nrows:
        b = ctz64(remaining)
        remaining &= remaining - 1
        bit = (<uint64_t>1) << b
        seen = 0
        i = r + p
        while i < nrows:
            if i == gathered:         # gather lazily: most blocks look at few rows
                while gathered < nrows and gathered < i + 64:
                    block_words[gathered] = m[gathered * stride + w]
                    gathered += 1
            v = block_words[i]
            # Pivot rows are mutually reduced, so XORing one only clears its own
            # bit among `found`: the set bits can be read once up front.
            pending = v & found
            while pending != 0:
                v ^= pivot_word[row_of_bit[ctz64(pending)]]
                pending &= pending - 1
            # Still x[w] plus a combination of pivot rows, now zero in `found`,
            # so a later scan only applies pivots found after this one.
            block_words[i] = v
            seen |= v
            if v & bit:
                break
            i += 1
        if i == nrows:
            # No pivot in this column.  Every candidate was scanned: a later
            # column with no 1 among them cannot get one (new pivot rows are
            # zero there too), so drop those columns now.
            remaining &= seen
            continue
        pivot_row = m + (r + p) * stride + w
        if i != r + p:
            swap_rows(pivot_row, m + i * stride + w, tw)
            block_words[i] = block_words[r + p]
        pending = pivot_row[0] & found
        while pending != 0:
            xor_rows(pivot_row, m + (r + row_of_bit[ctz64(pending)]) * stride + w, tw)
            pending &= pending - 1
        # Keep the block's pivot rows reduced against each other (Jordan step).
        for j in range(p):
            if pivot_word[j] & bit:
                xor_rows(m + (r + j) * stride + w, pivot_row, tw)
                pivot_word[j] ^= pivot_row[0]
        row_of_bit[b] = p
        pivot_word[p] = pivot_row[0]
        pivot_bits[p] = b
        found |= bit
        p += 1
    return p


cdef inline uint64_t pivot_lookup(const int* pivot_bits, int p, int* row_of_bit) noexcept nogil:
    """Mask of the block's p pivot bits; row_of_bit[b] = index (from r) of the pivot row for bit b."""
    cdef uint64_t found = 0
    cdef int j
    for j in range(p):
        found |= (<uint64_t>1) << pivot_bits[j]
        row_of_bit[pivot_bits[j]] = j
    return found


cdef void apply_block_naive(uint64_t* m, Py_ssize_t nrows, Py_ssize_t nwords, Py_ssize_t stride,
                            Py_ssize_t r, int p, Py_ssize_t w, const int* pivot_bits) noexcept nogil:
    """Clear the block's pivot columns from every other row by direct row XORs."""
    cdef Py_ssize_t tw = nwords - w
    cdef Py_ssize_t i
    cdef uint64_t found, pending
    cdef uint64_t* row
    cdef int row_of_bit[64]
    found = pivot_lookup(pivot_bits, p, row_of_bit)
    for i in range(nrows):
        if r <= i < r + p:
            continue
        row = m + i * stride + w
        pending = row[0] & found
        while pending != 0:
            xor_rows(row, m + (r + row_of_bit[ctz64(pending)]) * stride + w, tw)
            pending &= pending - 1


cdef void build_tables(uint64_t* tables, const uint64_t* m, Py_ssize_t stride, Py_ssize_t r,
                       uint64_t found, const int* row_of_bit, Py_ssize_t s,
                       Py_ssize_t sw) noexcept nogil:
    """Tables for words s..s+sw-1: row e of table t is the XOR of the pivot rows
    whose pivot bits (in byte t of the block word) are the set bits of e.

    Rows are built by doubling: once the rows for subsets of the first b bits
    exist, adding bit b is one XOR per row (one row operation per table row, as
    with a Gray-code walk).  Rows for selectors containing a non-pivot bit are
    never read (selectors are masked by `found`) and are not built.
    """
    cdef int t, b, half, e
    cdef int sub
    cdef uint64_t* table
    cdef const uint64_t* pivot_row
    cdef Py_ssize_t k
    for t in range(NTABLES):
        table = tables + t * TABLE_ROWS * STRIPE_WORDS
        for k in range(sw):
            table[k] = 0
        sub = <int>((found >> (t * TABLE_BITS)) & (TABLE_ROWS - 1))
        for b in range(TABLE_BITS):
            if not (sub >> b) & 1:
                continue
            pivot_row = m + (r + row_of_bit[t * TABLE_BITS + b]) * stride + s
            half = 1 << b
            for e in range(half):
                if e & ~sub:
                    continue
                xor_to(table + (e | half) * STRIPE_WORDS, table + e * STRIPE_WORDS, pivot_row, sw)


cdef void apply_block_m4r(uint64_t* m, Py_ssize_t nrows, Py_ssize_t nwords, Py_ssize_t stride,
                          Py_ssize_t r, int p, Py_ssize_t w, const int* pivot_bits,
                          uint64_t* tables, uint64_t* selectors) noexcept nogil:
    """Clear the block's pivot columns from every other row with 8 tables of 8 bits."""
    cdef Py_ssize_t i, s, sw
    cdef uint64_t found, sel
    cdef uint64_t* row
    cdef int row_of_bit[64]
    found = pivot_lookup(pivot_bits, p, row_of_bit)
    # Read every row's selector before the first stripe rewrites word w.
    for i in range(nrows):
        selectors[i] = m[i * stride + w] & found
    for i in range(r, r + p):
        selectors[i] = 0              # pivot rows stay as they are
    s = w
    while s < nwords:
        sw = min(<Py_ssize_t>STRIPE_WORDS, nwords - s)
        build_tables(tables, m, stride, r, found, row_of_bit, s, sw)
        for i in range(nrows):
            if i + PREFETCH_ROWS < nrows:
                prefetch_words(m + (i + PREFETCH_ROWS) * stride + s, sw)
            sel = selectors[i]
            if sel == 0:
                continue
            row = m + i * stride + s
            xor8_into(row,
                      tables + ((0 * TABLE_ROWS) + ((sel >> 0) & 255)) * STRIPE_WORDS,
                      tables + ((1 * TABLE_ROWS) + ((sel >> 8) & 255)) * STRIPE_WORDS,
                      tables + ((2 * TABLE_ROWS) + ((sel >> 16) & 255)) * STRIPE_WORDS,
                      tables + ((3 * TABLE_ROWS) + ((sel >> 24) & 255)) * STRIPE_WORDS,
                      tables + ((4 * TABLE_ROWS) + ((sel >> 32) & 255)) * STRIPE_WORDS,
                      tables + ((5 * TABLE_ROWS) + ((sel >> 40) & 255)) * STRIPE_WORDS,
                      tables + ((6 * TABLE_ROWS) + ((sel >> 48) & 255)) * STRIPE_WORDS,
                      tables + ((7 * TABLE_ROWS) + ((sel >> 56) & 255)) * STRIPE_WORDS,
                      sw)
        s += STRIPE_WORDS


cdef Py_ssize_t rref_core(uint64_t* m, Py_ssize_t nrows, Py_ssize_t nwords, Py_ssize_t stride,
                          Py_ssize_t npivot_cols, int method, int64_t* pivots,
                          uint64_t* tables, uint64_t* selectors, Poll* poll) noexcept nogil:
    """Reduced row echelon form in place; returns the rank, fills pivots[0:rank].

    Invariant between blocks: rows 0..r-1 are the pivot rows found so far, in
    increasing pivot order, and rows r.. are zero in every column before word w.

    With a poll (NULL: none; it carries no cancel flag), counts the row-words of
    work between blocks and returns RREF_INTERRUPTED, with the handler's
    exception set, if a signal handler raised.
    tables may be NULL when the method never uses them.
    """
    cdef Py_ssize_t r = 0, w, work = 0
    cdef Py_ssize_t npivot_words = words_for_bits(npivot_cols)
    cdef uint64_t colmask
    cdef int p, j
    cdef int pivot_bits[64]
    for w in range(npivot_words):
        if r >= nrows:
            break
        colmask = tail_mask(npivot_cols) if w == npivot_words - 1 else ~(<uint64_t>0)
        if poll != NULL:
            if poll_work(poll, work) != STOP_NONE:
                return RREF_INTERRUPTED
            work = 0
        p = find_block_pivots(m, nrows, nwords, stride, r, w, colmask, pivot_bits, selectors)
        work += nrows - r
        if p == 0:
            continue
        work += nrows * (nwords - w)
        for j in range(p):
            pivots[r + j] = w * 64 + pivot_bits[j]
        # Rows to update: all but the p pivot rows.  The tables pay off only
        # when there are many (their cost is fixed per block).
        if tables != NULL and (method == METHOD_M4R or nrows - p >= MIN_TABLE_ROWS):
            apply_block_m4r(m, nrows, nwords, stride, r, p, w, pivot_bits, tables, selectors)
        else:
            apply_block_naive(m, nrows, nwords, stride, r, p, w, pivot_bits)
        r += p
    return r


cdef Py_ssize_t rref_run(uint64_t* m, Py_ssize_t nrows, Py_ssize_t nwords, Py_ssize_t stride,
                         Py_ssize_t npivot_cols, int method, int64_t* pivots, Poll* poll) noexcept nogil:
    """rref_core with its scratch: the stripe tables (only when the method may
    use them), 64-byte aligned so table rows start on cache lines, and one
    selector word per row.  Returns the rank, RREF_NOMEM or RREF_INTERRUPTED.
    Needs nrows >= 1."""
    cdef uint64_t* raw = NULL
    cdef uint64_t* tables = NULL
    cdef uint64_t* selectors = <uint64_t*>malloc(nrows * sizeof(uint64_t))
    cdef Py_ssize_t rank
    if method == METHOD_M4R or (method == METHOD_AUTO and nrows > MIN_TABLE_ROWS):
        raw = <uint64_t*>malloc((NTABLES * TABLE_ROWS * STRIPE_WORDS + 8) * sizeof(uint64_t))
        if raw != NULL:
            tables = raw + ((64 - (<size_t>raw & 63)) & 63) // 8
    if selectors == NULL or (tables == NULL and method == METHOD_M4R):
        free(raw)
        free(selectors)
        return RREF_NOMEM
    # Without tables (none wanted, or no memory for them) AUTO falls back to naive updates.
    rank = rref_core(m, nrows, nwords, stride, npivot_cols, method, pivots, tables, selectors, poll)
    free(raw)
    free(selectors)
    return rank


cdef void null_space_core(const uint64_t* rref, Py_ssize_t stride, Py_ssize_t ncols,
                          const int64_t* pivots, Py_ssize_t rank,
                          uint64_t* basis, Py_ssize_t basis_stride) noexcept nogil:
    """One basis vector per free column f: x[f] = 1, x[pivots[i]] = rref[i][f]."""
    cdef Py_ssize_t f, i, k = 0, next_pivot = 0
    cdef uint64_t* vec
    for f in range(ncols):
        if next_pivot < rank and pivots[next_pivot] == f:
            next_pivot += 1
            continue
        vec = basis + k * basis_stride
        set_bit(vec, f)
        # Only pivot rows whose pivot precedes f can have a 1 in column f.
        for i in range(next_pivot):
            if get_bit(rref + i * stride, f):
                set_bit(vec, pivots[i])
        k += 1


# ---------------------------------------------------------------------------
# C API (lightsout/capi.h): this build's elimination, for other compiled code.

cdef ptrdiff_t capi_rref(uint64_t* matrix, ptrdiff_t nrows, ptrdiff_t stride, ptrdiff_t ncols,
                         ptrdiff_t npivot_cols, int64_t* pivots) noexcept nogil:
    """lightsout_gf2elim_api.rref: no Python, no GIL, no signal checks."""
    if npivot_cols < 0:
        npivot_cols = ncols
    if nrows < 0 or ncols < 0 or npivot_cols > ncols or stride < words_for_bits(ncols) or (
            nrows > 0 and npivot_cols > 0 and (matrix == NULL or pivots == NULL)):
        return LIGHTSOUT_EINVAL
    if nrows == 0 or npivot_cols == 0:
        return 0
    return rref_run(matrix, nrows, words_for_bits(ncols), stride, npivot_cols, METHOD_AUTO, pivots, NULL)


cdef lightsout_gf2elim_api _api
_api.abi_version = LIGHTSOUT_CAPI_VERSION
_api.simd_level = LIGHTSOUT_SIMD_LEVEL
_api.rref = capi_rref

#: PyCapsule holding a pointer to this build's ``lightsout_gf2elim_api`` table
#: (lightsout/capi.h).  Fetch it through lightsout._kernels.c_api, as
#: lightsout/capi.pxd's ``import_gf2elim_api()`` does, to get the widest build.
_capi = PyCapsule_New(<void*>&_api, "lightsout._gf2elim._capi", NULL)

#: The SIMD level this build was compiled for ("generic", "avx2" or "avx512").
SIMD_LEVEL = (<bytes>LIGHTSOUT_SIMD_LEVEL).decode("ascii")


# ---------------------------------------------------------------------------
# Argument checks (GIL held).  Arrays go through lightsout._base.validate.packed_matrix,
# the package's one check for packed arrays; these are the integer arguments.

cdef object _count(object value, str name):
    """A non-negative int argument (bools refused), as a Python int."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)):
        raise InvalidTypeError(f"{name} must be an int, got {type(value).__name__}")
    if value < 0:
        raise InvalidBoardError(f"{name} must be >= 0, got {value}")
    return int(value)


# ---------------------------------------------------------------------------
# Python entry points.

def rref_inplace(matrix, ncols, npivot_cols=-1, *, method="auto"):
    """Reduced row echelon form of a packed GF(2) matrix, in place.

    Args:
        matrix: C-contiguous ``(nrows, nwords)`` uint64 array, one packed row per
            row (bit j in word j // 64 at bit j % 64); bits past ``ncols`` zero.
            Rows may have more words than ``ncols`` needs; those are left alone.
        ncols: number of columns, at most ``64 * nwords``.
        npivot_cols: pivots are searched only among the first ``npivot_cols``
            columns (default: all); row operations still act on all ``ncols``,
            so ``[A | b]`` is eliminated with ``npivot_cols = ncols - 1``.
        method: ``"auto"`` (default), ``"m4r"`` (always use the four-Russians
            tables) or ``"naive"`` (plain Gauss-Jordan row XORs).  All give the
            same result; the choice only affects speed.

    Returns:
        ``(rank, pivots)``: pivots is an int64 array of length rank, pivot row
        i (row i after the call) has its leading 1 in column ``pivots[i]``,
        increasing.  Rows ``rank..`` are zero in the first ``npivot_cols``
        columns.

    Raises:
        InvalidTypeError: matrix is not a uint64 numpy array, or ncols not an int.
        InvalidBoardError: wrong dimensions, not C-contiguous, read-only, sizes
            out of range, or bits set past ``ncols``.
        KeyboardInterrupt: Ctrl-C during the elimination (run from the main
            thread); the matrix content is then unspecified.
        MemoryError: no memory for the scratch tables.

    Example:
        >>> import numpy as np
        >>> m = np.array([[0b110], [0b011]], dtype=np.uint64)
        >>> rank, pivots = rref_inplace(m, 3)
        >>> rank, pivots.tolist(), m.ravel().tolist()
        (2, [0, 1], [5, 6])
    """
    n_obj = _count(ncols, "ncols")
    packed_matrix(matrix, "matrix", nbits=n_obj, writable=True, exact_words=False)
    if isinstance(npivot_cols, (bool, np.bool_)) or not isinstance(npivot_cols, (int, np.integer)):
        raise InvalidTypeError(f"npivot_cols must be an int, got {type(npivot_cols).__name__}")
    if not (npivot_cols == -1 or 0 <= npivot_cols <= n_obj):
        raise InvalidBoardError(f"npivot_cols must be -1 or in 0..ncols={n_obj}, got {npivot_cols}")
    if not isinstance(method, str) or method not in _METHODS:
        raise InvalidBoardError(f"method must be one of {sorted(_METHODS)}, got {method!r}")
    cdef Py_ssize_t n = n_obj
    cdef Py_ssize_t npiv = n if npivot_cols == -1 else npivot_cols
    cdef Py_ssize_t nrows = matrix.shape[0], stride = matrix.shape[1]
    cdef Py_ssize_t rank
    cdef int method_code = _METHODS[method]
    cdef Poll poll = make_poll(None, SIGNAL_WORK)
    pivots = np.zeros(min(nrows, npiv), dtype=np.int64)
    if nrows == 0 or npiv == 0:
        return 0, pivots
    cdef uint64_t[:, ::1] view = matrix
    cdef int64_t[::1] pivot_view = pivots
    with nogil:
        rank = rref_run(&view[0, 0], nrows, words_for_bits(n), stride, npiv, method_code,
                        &pivot_view[0], &poll)
    raise_if_interrupted(<int>rank)
    if rank == RREF_NOMEM:
        raise MemoryError(f"no memory for the elimination scratch of a {nrows}-row matrix")
    return int(rank), pivots[:rank].copy()


def solve_inplace(aug, nvars):
    """Solve ``A x = b`` over GF(2) from the packed augmented matrix ``[A | b]``.

    Eliminates ``aug`` in place (it ends in reduced row echelon form) and reads
    off one solution, with every free variable set to 0.

    Args:
        aug: C-contiguous ``(nrows, nwords)`` uint64 array of ``nvars + 1``
            columns: A's columns, then b in column ``nvars``.
        nvars: number of unknowns (columns of A).

    Returns:
        ``(consistent, x)``: x is a packed ``(words_for_bits(nvars),)`` uint64
        array; when the system has no solution, consistent is False and x is
        all zero.

    Raises:
        InvalidTypeError, InvalidBoardError, KeyboardInterrupt: as for
        :func:`rref_inplace`.

    Example:
        >>> import numpy as np
        >>> aug = np.array([[0b1011], [0b0110]], dtype=np.uint64)  # x0+x1=1, x1+x2=0
        >>> ok, x = solve_inplace(aug, 3)
        >>> bool(ok), x.tolist()
        (True, [1])
    """
    nvars = _count(nvars, "nvars")
    rank, pivots = rref_inplace(aug, nvars + 1, nvars)
    x = np.zeros(words_for_bits(nvars), dtype=np.uint64)
    rhs_word, rhs_bit = divmod(nvars, 64)
    column_b = (aug[:, rhs_word] >> np.uint64(rhs_bit)) & np.uint64(1)
    if column_b[rank:].any():
        return False, x
    # Pivot row i says x[pivots[i]] = b_i (free variables are 0).
    chosen = pivots[column_b[:rank].astype(bool)]
    np.bitwise_or.at(x, chosen // 64, np.left_shift(np.uint64(1), (chosen % 64).astype(np.uint64)))
    return True, x


def null_space(rref, ncols, pivots):
    """Basis of the null space of a matrix from its reduced row echelon form.

    Args:
        rref: packed ``(nrows, nwords)`` uint64 matrix in reduced row echelon
            form, as left by :func:`rref_inplace` (pivot rows first).
        ncols: number of columns.
        pivots: the pivot columns returned by :func:`rref_inplace`.

    Returns:
        ``(ncols - rank, words_for_bits(ncols))`` uint64 array, one packed
        basis vector per free column f (increasing): x[f] = 1, the other free
        variables 0, and the pivot variables that make ``A x = 0``.

    Raises:
        InvalidTypeError, InvalidBoardError: bad arrays, or pivots that do not
            fit the matrix.

    Example:
        >>> import numpy as np
        >>> m = np.array([[0b011], [0b110]], dtype=np.uint64)  # x0+x1=0, x1+x2=0
        >>> rank, pivots = rref_inplace(m, 3)
        >>> null_space(m, 3, pivots).tolist()
        [[7]]
    """
    n_obj = _count(ncols, "ncols")
    packed_matrix(rref, "rref", nbits=n_obj, exact_words=False)
    try:
        piv = np.ascontiguousarray(pivots, dtype=np.int64)
    except (TypeError, ValueError) as exc:
        raise InvalidTypeError(f"pivots must be a 1-D array of column indices: {exc}") from exc
    if piv.ndim != 1:
        raise InvalidBoardError(f"pivots must be 1-D, got shape {piv.shape}")
    cdef Py_ssize_t n = n_obj
    cdef Py_ssize_t rank = piv.shape[0]
    if rank > rref.shape[0] or rank > n:
        raise InvalidBoardError(f"{rank} pivots do not fit a {rref.shape[0]}-row, {n}-column matrix")
    if rank and (piv[0] < 0 or piv[rank - 1] >= n or np.any(np.diff(piv) <= 0)):
        raise InvalidBoardError("pivots must be increasing column indices in 0..ncols-1")
    basis = np.zeros((n - rank, words_for_bits(n)), dtype=np.uint64)
    if n - rank == 0:
        return basis
    cdef const uint64_t[:, ::1] view
    cdef int64_t[::1] pivot_view = piv if rank else np.zeros(1, dtype=np.int64)
    cdef uint64_t[:, ::1] basis_view = basis
    cdef const uint64_t* rows = NULL
    cdef Py_ssize_t stride = rref.shape[1]
    if rank:
        view = rref
        rows = &view[0, 0]
    with nogil:
        null_space_core(rows, stride, n, &pivot_view[0], rank, &basis_view[0, 0], basis_view.shape[1])
    return basis


def pack_zero_one(values):
    """Pack a 2-D array of 0/1 numbers into packed rows, checking the values in the same pass.

    One read of the input, where numpy needs a pass for the check and another
    for the conversion to bools.  Handles bools, 1-, 2-, 4- and 8-byte integers and
    floats in native byte order whose rows are contiguous (any row stride);
    other arrays are for numpy (``np.packbits``).

    Args:
        values: 2-D numpy array as described.

    Returns:
        ``(rows, ncols)`` C-contiguous uint64 words (tail bits zero), or None
        if some value is not 0 or 1 (``-0.0`` counts as 0).

    Raises:
        InvalidTypeError: an array this function does not handle.

    Example:
        >>> import numpy as np
        >>> pack_zero_one(np.array([[1, 0, 1], [0, 1, 1]], dtype=np.int64)).tolist()
        [[5], [6]]
        >>> pack_zero_one(np.array([[1.0, 0.5]])) is None
        True
    """
    cdef pack_fn fn = NULL
    if not isinstance(values, np.ndarray) or values.ndim != 2 or not values.dtype.isnative:
        raise InvalidTypeError("pack_zero_one takes a 2-D numpy array in native byte order")
    kind, size = values.dtype.kind, values.dtype.itemsize
    if kind in "iub" and size == 1:
        fn = pack_u8
    elif kind in "iu" and size == 2:
        fn = pack_u16
    elif kind in "iu" and size == 4:
        fn = pack_u32
    elif kind in "iu" and size == 8:
        fn = pack_u64
    elif kind == "f" and size == 4:
        fn = pack_f32
    elif kind == "f" and size == 8:
        fn = pack_f64
    cdef Py_ssize_t nrows = values.shape[0], ncols = values.shape[1]
    if fn == NULL or (ncols > 1 and values.strides[1] != size):
        raise InvalidTypeError(f"pack_zero_one does not handle dtype {values.dtype} "
                               f"with strides {values.strides}")
    cdef Py_ssize_t nwords = words_for_bits(ncols)
    out = np.empty((nrows, nwords), dtype=np.uint64)
    if nrows == 0 or ncols == 0:
        return out
    cdef uint64_t[:, ::1] out_view = out
    cdef const char* src = <const char*><size_t>values.ctypes.data
    cdef Py_ssize_t row_bytes = values.strides[0]
    cdef int ok
    with nogil:
        ok = fn(src, nrows, ncols, row_bytes, &out_view[0, 0], nwords)
    return out if ok else None
