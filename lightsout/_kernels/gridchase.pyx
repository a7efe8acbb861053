# Light chasing on boards of any number of axes, in matrix form (docs/algebra.md section 1 is the 2-D case).
#
# The board is cut into n slices along the chase axis, S cells each.  Press
# counts p_t of slice t (a vector over Z/k) clear slice t-1 when
#     p_{t+1} = -(T p_t + p_{t-1} + b_t)        (mod k)
# where T = self_toggle*I + adjacency inside the slice, given as a neighbour
# table (S rows of int32 cell indices, -1 past the last neighbour; a set, not
# the cell itself), and b_t is the board's slice t.  Open chase axis: p_{-1} = 0,
# p_0 is free, and what is left is the lights of slice n-1,
#     L_{n-1} = T p_{n-1} + p_{n-2} + b_{n-1}.
# Wrapping chase axis (length > 2): p_0 and p_1 are free, the steps run for
# t = 1..n-2, and two slices keep lights:
#     L_0 = T p_0 + p_1 + b_0 + p_{n-1},   L_{n-1} = T p_{n-1} + p_{n-2} + b_{n-1} + p_0.
#
# Every quantity is carried as ROWS, one per cell of the slice, of ncols
# columns: column c is an independent chase (the recurrence acts on the cell
# index only).  The reduction chases the identity (column i = unknown i of
# u = (p_0[, p_1])) plus the board in one "constant" column, so the lights rows
# come out as the affine system [M | c] with lights = M u + c.  The expansion
# chases a batch of start vectors, one per column, keeping every slice's rows.
#
# Two element types, one driver (fused over the row element):
#   bits  (k = 2):  rows of uint64 words, bit c of a row in word c >> 6 (the
#                   bitrow.pxd layout, tail bits zero); addition is XOR.
#   bytes (k > 2, or narrow k = 2 batches): rows of uint8 values 0..k-1;
#                   addition is an add and a conditional subtract, no `%`.
# Columns run in blocks (GC_BLOCK_WORDS words / GC_BLOCK_BYTES bytes): a block's
# two rolling slices stay in L2 for all n steps, and threads take blocks in
# turn (the def wrappers release the GIL).  Memory: O(S * block) per call plus
# the caller's outputs.
#
# Two helpers of the route: rows_to_columns turns the expansion's chase rows
# (one per cell, a column per pattern) into one C-order board per pattern,
# moving the chase axis back in the same pass; circulant_bits writes out a
# circulant block of the reduced system for a slice that is a ring of cells.
#
# Cancelling: after every slice step the driver counts the work done; every
# POLL_WORK words it polls (cancel.pxd) the caller's cancel flag and, on the main thread,
# runs Python's signal handlers, so Ctrl-C stops a long chase within
# milliseconds.
#
# This file is compiled once per SIMD level (see setup.py); the inner loops are
# the small C functions below (restrict pointers, compile-time block width), so
# GCC vectorises them for the level being built.

from libc.stdint cimport int32_t, int64_t, uint8_t, uint64_t
from libc.stdlib cimport free
from libc.string cimport memcpy, memset

from lightsout._kernels.arrays cimport raw_array
from lightsout._kernels.bitrow cimport words_for_bits
from lightsout._kernels.cancel cimport (
    STOP_CANCELLED, STOP_NONE, Poll, cancelled, make_poll, poll_work, raise_if_interrupted,
)

import numpy as np

from lightsout._base.errors import InvalidBoardError, InvalidTypeError

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
    #include <stdlib.h>
    #include <string.h>
    #if defined(_MSC_VER)
    #define GC_RESTRICT __restrict
    #else
    #define GC_RESTRICT __restrict__
    #endif

    /* Column block widths: 8 words = 512 bit columns (one AVX-512 vector, two
       AVX2), 128 byte columns.  A 10,000-cell slice block is then 640 KiB of
       bits, so the two rolling slices of the 100^3 cube stay in a 2 MiB L2. */
    #define GC_BLOCK_WORDS 8
    #define GC_BLOCK_BYTES 128

    /* Zeroed memory aligned to 64 bytes; *raw is the pointer to free. */
    static void *gc_alloc_aligned(size_t nbytes, void **raw)
    {
        char *p = (char *)calloc(nbytes + 64, 1);
        *raw = p;
        if (p == NULL) return NULL;
        return (void *)(p + (64 - ((uintptr_t)p & 63)));
    }

    /* ---- dst[j] += (T cur)[j] for every row j (rows of WIDTH elements of type T): ----
       bits in uint64 words (ADD a XOR, no modulus), or bytes mod k (ADD below). */
    #define GC_SUM(NAME, T, ADD, KDECL, WDECL, WIDTH)                                    \
    static void NAME(T *GC_RESTRICT dst, const T *GC_RESTRICT cur,                     \
                     const int32_t *GC_RESTRICT nbr, ptrdiff_t maxdeg, ptrdiff_t nrows,   \
                     int self_toggle KDECL WDECL)                                         \
    {                                                                                     \
        for (ptrdiff_t j = 0; j < nrows; j++) {                                           \
            T *GC_RESTRICT d = dst + j * (WIDTH);                                         \
            const int32_t *nb = nbr + j * maxdeg;                                         \
            if (self_toggle) {                                                            \
                const T *GC_RESTRICT s = cur + j * (WIDTH);                               \
                for (ptrdiff_t w = 0; w < (WIDTH); w++) d[w] = ADD(d[w], s[w], k);        \
            }                                                                             \
            for (ptrdiff_t e = 0; e < maxdeg; e++) {                                      \
                int32_t i = nb[e];                                                        \
                if (i < 0) break;                                                         \
                const T *GC_RESTRICT s = cur + (ptrdiff_t)i * (WIDTH);                    \
                for (ptrdiff_t w = 0; w < (WIDTH); w++) d[w] = ADD(d[w], s[w], k);        \
            }                                                                             \
        }                                                                                 \
    }
    #define GC_XOR(a, b, k) ((a) ^ (b))
    #define GC_NOARG
    #define GC_WIDTH_ARG , ptrdiff_t width
    #define GC_K_ARG , uint8_t k
    GC_SUM(gc_sum_bits_full, uint64_t, GC_XOR, GC_NOARG, GC_NOARG, GC_BLOCK_WORDS)
    GC_SUM(gc_sum_bits_one, uint64_t, GC_XOR, GC_NOARG, GC_NOARG, 1)
    GC_SUM(gc_sum_bits_any, uint64_t, GC_XOR, GC_NOARG, GC_WIDTH_ARG, width)

    static void gc_sum_bits(uint64_t *dst, const uint64_t *cur, const int32_t *nbr, ptrdiff_t maxdeg,
                            ptrdiff_t nrows, int self_toggle, ptrdiff_t width)
    {
        if (width == GC_BLOCK_WORDS)
            gc_sum_bits_full(dst, cur, nbr, maxdeg, nrows, self_toggle);
        else if (width == 1)
            gc_sum_bits_one(dst, cur, nbr, maxdeg, nrows, self_toggle);
        else
            gc_sum_bits_any(dst, cur, nbr, maxdeg, nrows, self_toggle, width);
    }

    /* dst ^= src over n words. */
    static void gc_xor_bits(uint64_t *GC_RESTRICT dst, const uint64_t *GC_RESTRICT src, ptrdiff_t n)
    {
        for (ptrdiff_t w = 0; w < n; w++) dst[w] ^= src[w];
    }

    /* ---- bytes: values 0..k-1, sums mod k without division. ----
       Small moduli (k <= 128): a + b < 256, and min(s, s - k) (unsigned, s - k
       wrapping past 0 when s < k) is s mod k.  Large moduli: a + b may pass
       255, so pick a - (k - b) when a >= k - b, else a + b.  Negation:
       min(k - a, -a) (the second is 256 - a > k - a unless a = 0). */
    static inline uint8_t gc_add_small(uint8_t a, uint8_t b, uint8_t k)
    {
        uint8_t s = (uint8_t)(a + b), t = (uint8_t)(s - k);
        return t < s ? t : s;
    }
    static inline uint8_t gc_add_large(uint8_t a, uint8_t b, uint8_t k)
    {
        uint8_t d = (uint8_t)(k - b);
        return a >= d ? (uint8_t)(a - d) : (uint8_t)(a + b);
    }
    static inline uint8_t gc_neg(uint8_t a, uint8_t k)
    {
        uint8_t t = (uint8_t)(k - a), u = (uint8_t)(0 - a);
        return t < u ? t : u;
    }

    GC_SUM(gc_sum_small_full, uint8_t, gc_add_small, GC_K_ARG, GC_NOARG, GC_BLOCK_BYTES)
    GC_SUM(gc_sum_small_one, uint8_t, gc_add_small, GC_K_ARG, GC_NOARG, 1)
    GC_SUM(gc_sum_small_any, uint8_t, gc_add_small, GC_K_ARG, GC_WIDTH_ARG, width)
    GC_SUM(gc_sum_large_full, uint8_t, gc_add_large, GC_K_ARG, GC_NOARG, GC_BLOCK_BYTES)
    GC_SUM(gc_sum_large_any, uint8_t, gc_add_large, GC_K_ARG, GC_WIDTH_ARG, width)

    static void gc_sum_bytes(uint8_t *dst, const uint8_t *cur, const int32_t *nbr, ptrdiff_t maxdeg,
                             ptrdiff_t nrows, int self_toggle, uint8_t k, ptrdiff_t width)
    {
        if (k <= 128) {
            if (width == GC_BLOCK_BYTES) gc_sum_small_full(dst, cur, nbr, maxdeg, nrows, self_toggle, k);
            else if (width == 1) gc_sum_small_one(dst, cur, nbr, maxdeg, nrows, self_toggle, k);
            else gc_sum_small_any(dst, cur, nbr, maxdeg, nrows, self_toggle, k, width);
        } else {
            if (width == GC_BLOCK_BYTES) gc_sum_large_full(dst, cur, nbr, maxdeg, nrows, self_toggle, k);
            else gc_sum_large_any(dst, cur, nbr, maxdeg, nrows, self_toggle, k, width);
        }
    }

    /* dst = dst + src (mod k) over n bytes. */
    static void gc_add_bytes(uint8_t *GC_RESTRICT dst, const uint8_t *GC_RESTRICT src, ptrdiff_t n, uint8_t k)
    {
        if (k <= 128) for (ptrdiff_t w = 0; w < n; w++) dst[w] = gc_add_small(dst[w], src[w], k);
        else for (ptrdiff_t w = 0; w < n; w++) dst[w] = gc_add_large(dst[w], src[w], k);
    }

    /* dst = -dst (mod k) over n bytes. */
    static void gc_neg_bytes(uint8_t *dst, ptrdiff_t n, uint8_t k)
    {
        for (ptrdiff_t w = 0; w < n; w++) dst[w] = gc_neg(dst[w], k);
    }

    /* The board's slice into one column of the rows: bits, bytes. */
    static void gc_board_bits(uint64_t *dst, ptrdiff_t width, ptrdiff_t nrows, ptrdiff_t word, int bit,
                              const uint8_t *board, uint8_t lit)
    {
        if (board == NULL) {
            if (lit & 1)
                for (ptrdiff_t j = 0; j < nrows; j++) dst[j * width + word] ^= (uint64_t)1 << bit;
        } else {
            for (ptrdiff_t j = 0; j < nrows; j++) dst[j * width + word] ^= (uint64_t)(board[j] & 1) << bit;
        }
    }
    static void gc_board_bytes(uint8_t *dst, ptrdiff_t width, ptrdiff_t nrows, ptrdiff_t col,
                               const uint8_t *board, uint8_t lit, uint8_t k)
    {
        if (board == NULL) {
            if (lit != 0)
                for (ptrdiff_t j = 0; j < nrows; j++)
                    dst[j * width + col] = gc_add_large(dst[j * width + col], lit, k);
        } else {
            for (ptrdiff_t j = 0; j < nrows; j++)
                dst[j * width + col] = gc_add_large(dst[j * width + col], board[j], k);
        }
    }

    /* ---- Rows to columns: the expansion's transposition. ----
       Row r = t * S + j of a chase (slice t, cell j of the slice) goes to
       position dest(r) = t * axis_stride + off[j] of every column's board, so
       the chase axis moves back into place in the same pass.  Bits: 64 rows x
       64 columns at a time, transposed in registers, each column's 64 bits
       spread to 64 bytes by table (8 at a time) and stored contiguously when
       the 64 destinations are consecutive (the common case), else scattered. */
    static uint8_t gc_spread[256][8];

    static void gc_init_spread(void)
    {
        for (int v = 0; v < 256; v++)
            for (int q = 0; q < 8; q++)
                gc_spread[v][q] = (uint8_t)((v >> q) & 1);
    }

    /* In place: afterwards bit i of a[b] is what bit b of a[i] was. */
    static void gc_transpose64(uint64_t a[64])
    {
        uint64_t m = 0x00000000FFFFFFFFULL, t;
        for (int j = 32; j != 0; j >>= 1, m ^= m << j) {
            for (int k = 0; k < 64; k = ((k | j) + 1) & ~j) {
                t = ((a[k] >> j) ^ a[k | j]) & m;
                a[k] ^= t << j;
                a[k | j] ^= t;
            }
        }
    }

    /* dest[] of rows r0 .. r0+nr-1; returns 1 if they are dest[0] + 0 .. 63 (nr = 64). */
    static int gc_dests(int64_t *dest, ptrdiff_t r0, ptrdiff_t nr, const int64_t *off, ptrdiff_t S,
                        ptrdiff_t axis_stride)
    {
        ptrdiff_t t = r0 / S, j = r0 % S;
        int contiguous = nr == 64;
        for (ptrdiff_t i = 0; i < nr; i++) {
            dest[i] = (int64_t)t * axis_stride + off[j];
            contiguous &= dest[i] == dest[0] + i;
            if (++j == S) { j = 0; t++; }
        }
        return contiguous;
    }

    static void gc_bits_to_columns(const uint64_t *rows, ptrdiff_t nrows, ptrdiff_t stride, ptrdiff_t ncols,
                                   const int64_t *off, ptrdiff_t S, ptrdiff_t axis_stride,
                                   uint8_t *out, ptrdiff_t cells)
    {
        uint64_t blk[64];
        int64_t dest[64];
        for (ptrdiff_t r0 = 0; r0 < nrows; r0 += 64) {
            ptrdiff_t nr = nrows - r0 < 64 ? nrows - r0 : 64;
            int contiguous = gc_dests(dest, r0, nr, off, S, axis_stride);
            for (ptrdiff_t w = 0; w < stride; w++) {
                for (ptrdiff_t i = 0; i < 64; i++)
                    blk[i] = i < nr ? rows[(r0 + i) * stride + w] : 0;
                gc_transpose64(blk);
                for (ptrdiff_t b = 0; b < 64 && 64 * w + b < ncols; b++) {
                    uint8_t *o = out + (64 * w + b) * cells;
                    uint64_t bitsw = blk[b];
                    if (contiguous) {
                        for (int q = 0; q < 8; q++)
                            memcpy(o + dest[0] + 8 * q, gc_spread[(bitsw >> (8 * q)) & 255], 8);
                    } else {
                        for (ptrdiff_t i = 0; i < nr; i++)
                            o[dest[i]] = (uint8_t)((bitsw >> i) & 1);
                    }
                }
            }
        }
    }

    /* ---- Circulant blocks: translation-invariant slices. ----
       Bits [src_bit, src_bit + 64) of a packed row of srcwords words (zero
       past its end), then dst |= nbits bits of src from src_bit, placed at
       dst_bit (dst must have room; bits are or-ed in). */
    static inline uint64_t gc_read64(const uint64_t *src, ptrdiff_t bit, ptrdiff_t srcwords)
    {
        ptrdiff_t w = bit >> 6;
        int s = (int)(bit & 63);
        uint64_t lo = w < srcwords ? src[w] : 0, hi;
        if (s == 0) return lo;
        hi = w + 1 < srcwords ? src[w + 1] : 0;
        return (lo >> s) | (hi << (64 - s));
    }

    static void gc_or_bits(uint64_t *dst, ptrdiff_t dst_bit, const uint64_t *src, ptrdiff_t src_bit,
                           ptrdiff_t nbits, ptrdiff_t srcwords)
    {
        for (ptrdiff_t done = 0; done < nbits; done += 64) {
            ptrdiff_t n = nbits - done < 64 ? nbits - done : 64;
            uint64_t x = gc_read64(src, src_bit + done, srcwords);
            ptrdiff_t b = dst_bit + done, w = b >> 6;
            int s = (int)(b & 63);
            if (n < 64) x &= ((uint64_t)1 << n) - 1;
            dst[w] |= x << s;
            if (s != 0 && s + n > 64) dst[w + 1] |= x >> (64 - s);
        }
    }

    static void gc_bytes_to_columns(const uint8_t *rows, ptrdiff_t nrows, ptrdiff_t ncols,
                                    const int64_t *off, ptrdiff_t S, ptrdiff_t axis_stride,
                                    uint8_t *out, ptrdiff_t cells)
    {
        int64_t dest[64];
        for (ptrdiff_t r0 = 0; r0 < nrows; r0 += 64) {
            ptrdiff_t nr = nrows - r0 < 64 ? nrows - r0 : 64;
            int contiguous = gc_dests(dest, r0, nr, off, S, axis_stride);
            const uint8_t *tile = rows + r0 * ncols;
            for (ptrdiff_t c = 0; c < ncols; c++) {
                uint8_t *o = out + c * cells;
                if (contiguous) {
                    uint8_t *GC_RESTRICT d = o + dest[0];
                    for (ptrdiff_t i = 0; i < 64; i++) d[i] = tile[i * ncols + c];
                } else {
                    for (ptrdiff_t i = 0; i < nr; i++) o[dest[i]] = tile[i * ncols + c];
                }
            }
        }
    }
    """
    int GC_BLOCK_WORDS
    int GC_BLOCK_BYTES
    void gc_init_spread() noexcept nogil
    void gc_or_bits(uint64_t* dst, Py_ssize_t dst_bit, const uint64_t* src, Py_ssize_t src_bit,
                    Py_ssize_t nbits, Py_ssize_t srcwords) noexcept nogil
    void gc_bits_to_columns(const uint64_t* rows, Py_ssize_t nrows, Py_ssize_t stride, Py_ssize_t ncols,
                            const int64_t* off, Py_ssize_t S, Py_ssize_t axis_stride, uint8_t* out,
                            Py_ssize_t cells) noexcept nogil
    void gc_bytes_to_columns(const uint8_t* rows, Py_ssize_t nrows, Py_ssize_t ncols, const int64_t* off,
                             Py_ssize_t S, Py_ssize_t axis_stride, uint8_t* out, Py_ssize_t cells) noexcept nogil
    void* gc_alloc_aligned(size_t nbytes, void** raw) noexcept nogil
    void gc_sum_bits(uint64_t* dst, const uint64_t* cur, const int32_t* nbr, Py_ssize_t maxdeg,
                     Py_ssize_t nrows, int self_toggle, Py_ssize_t width) noexcept nogil
    void gc_xor_bits(uint64_t* dst, const uint64_t* src, Py_ssize_t n) noexcept nogil
    void gc_sum_bytes(uint8_t* dst, const uint8_t* cur, const int32_t* nbr, Py_ssize_t maxdeg,
                      Py_ssize_t nrows, int self_toggle, uint8_t k, Py_ssize_t width) noexcept nogil
    void gc_add_bytes(uint8_t* dst, const uint8_t* src, Py_ssize_t n, uint8_t k) noexcept nogil
    void gc_neg_bytes(uint8_t* dst, Py_ssize_t n, uint8_t k) noexcept nogil
    void gc_board_bits(uint64_t* dst, Py_ssize_t width, Py_ssize_t nrows, Py_ssize_t word, int bit,
                       const uint8_t* board, uint8_t lit) noexcept nogil
    void gc_board_bytes(uint8_t* dst, Py_ssize_t width, Py_ssize_t nrows, Py_ssize_t col,
                        const uint8_t* board, uint8_t lit, uint8_t k) noexcept nogil


cdef enum:
    # Element-operations (words or bytes) between two polls of the cancel flag
    # and of signals: about a millisecond of work.
    POLL_WORK = 1 << 22

ctypedef fused elem_t:
    uint64_t
    uint8_t


cdef struct Spec:
    # One chase, as the def wrappers checked it.  Row arrays (start, presses,
    # lights) are C-contiguous with `stride` elements per row; `ncols` columns
    # (bits or bytes) are in use.
    const int32_t* nbr          # (S, maxdeg) neighbour table
    Py_ssize_t maxdeg
    Py_ssize_t S                # cells per slice
    Py_ssize_t n                # slices
    bint wrap                   # chase axis wraps (n > 2)
    bint self_toggle
    const uint8_t* board        # (n, S) values, or NULL: every cell `lit`
    uint8_t lit
    uint8_t k                   # modulus (bytes); 2 for bits
    Py_ssize_t ncols
    Py_ssize_t stride
    Py_ssize_t const_col        # the column the board is added to, or -1
    const void* start           # (U, stride) rows of p_0 (and p_1), or NULL: the identity
    void* presses               # (n * S, stride) rows out, or NULL
    void* lights                # (U, stride) rows out, or NULL


# ---------------------------------------------------------------------------
# The driver, generic over the row element (bits in uint64 words, or bytes).

cdef inline void _sum(elem_t* dst, const elem_t* cur, const Spec* sp, Py_ssize_t width) noexcept nogil:
    """dst[j] += (T cur)[j] for every row of the slice."""
    if elem_t is uint64_t:
        gc_sum_bits(dst, cur, sp.nbr, sp.maxdeg, sp.S, sp.self_toggle, width)
    else:
        gc_sum_bytes(dst, cur, sp.nbr, sp.maxdeg, sp.S, sp.self_toggle, sp.k, width)


cdef inline void _add(elem_t* dst, const elem_t* src, const Spec* sp, Py_ssize_t n) noexcept nogil:
    """dst += src over n elements."""
    if elem_t is uint64_t:
        gc_xor_bits(dst, src, n)
    else:
        gc_add_bytes(dst, src, n, sp.k)


cdef inline void _board(elem_t* dst, const Spec* sp, Py_ssize_t t, Py_ssize_t first,
                        Py_ssize_t width) noexcept nogil:
    """dst += board slice t in the constant column, if that column is in this block."""
    cdef Py_ssize_t c = sp.const_col
    cdef const uint8_t* slice_ = NULL
    if sp.board != NULL:
        slice_ = sp.board + t * sp.S
    if elem_t is uint64_t:
        if c >= 0 and first <= (c >> 6) < first + width:
            gc_board_bits(dst, width, sp.S, (c >> 6) - first, <int>(c & 63), slice_, sp.lit)
    else:
        if c >= 0 and first <= c < first + width:
            gc_board_bytes(dst, width, sp.S, c - first, slice_, sp.lit, sp.k)


cdef inline void _negate(elem_t* dst, const Spec* sp, Py_ssize_t n) noexcept nogil:
    if elem_t is uint8_t:
        gc_neg_bytes(dst, n, sp.k)


cdef void _load(elem_t* dst, const Spec* sp, Py_ssize_t row0, Py_ssize_t first,
                Py_ssize_t width) noexcept nogil:
    """dst = rows row0 .. row0+S-1 of the start (block columns), or of the identity."""
    cdef Py_ssize_t j, c
    cdef const elem_t* src
    if sp.start != NULL:
        src = <const elem_t*>sp.start
        for j in range(sp.S):
            memcpy(dst + j * width, src + (row0 + j) * sp.stride + first, width * sizeof(elem_t))
        return
    memset(dst, 0, sp.S * width * sizeof(elem_t))
    for j in range(sp.S):
        c = row0 + j  # identity: row i has a 1 in column i
        if elem_t is uint64_t:
            if first <= (c >> 6) < first + width:
                dst[j * width + (c >> 6) - first] = (<uint64_t>1) << (c & 63)
        else:
            if first <= c < first + width:
                dst[j * width + c - first] = 1


cdef void _store(elem_t* out, const elem_t* src, const Spec* sp, Py_ssize_t row0, Py_ssize_t first,
                 Py_ssize_t width) noexcept nogil:
    """Rows row0 .. row0+S-1 of `out` (block columns) = src."""
    cdef Py_ssize_t j, w
    cdef elem_t* dst
    if width == 1:
        for j in range(sp.S):
            out[(row0 + j) * sp.stride + first] = src[j]
        return
    for j in range(sp.S):
        dst = out + (row0 + j) * sp.stride + first
        for w in range(width):
            dst[w] = src[j * width + w]


cdef int _run_block(const Spec* sp, elem_t* buf, Py_ssize_t first, Py_ssize_t width,
                    Poll* poll) noexcept nogil:
    """Chase the block of columns [first, first + width); 0 or a STOP_ status.

    buf holds 4 slices of S rows of `width` elements (the two rolling slices,
    p_0 and the slice-0 lights for a wrapping axis).
    """
    cdef Py_ssize_t S = sp.S, n = sp.n, t, t0, size = sp.S * width
    cdef Py_ssize_t step_work = sp.S * width * (sp.maxdeg + 3)
    cdef elem_t* prev = buf
    cdef elem_t* cur = buf + size
    cdef elem_t* p0 = buf + 2 * size
    cdef elem_t* q = buf + 3 * size
    cdef elem_t* swap
    cdef int status
    cdef elem_t* presses = <elem_t*>sp.presses
    cdef elem_t* lights = <elem_t*>sp.lights
    _load(cur, sp, 0, first, width)                            # p_0
    if presses != NULL:
        _store(presses, cur, sp, 0, first, width)
    if sp.wrap:
        _load(prev, sp, S, first, width)                       # p_1, for now in `prev`
        if presses != NULL:
            _store(presses, prev, sp, S, first, width)
        memcpy(p0, cur, size * sizeof(elem_t))
        memcpy(q, prev, size * sizeof(elem_t))                 # L_0 so far: p_1 + T p_0 + b_0
        _sum(q, cur, sp, width)
        _board(q, sp, 0, first, width)
        swap = prev; prev = cur; cur = swap                    # prev = p_0, cur = p_1
        t0 = 1
    else:
        memset(prev, 0, size * sizeof(elem_t))                 # p_{-1} = 0
        t0 = 0
    for t in range(t0, n - 1):
        _sum(prev, cur, sp, width)                             # prev = p_{t-1} + T p_t
        _board(prev, sp, t, first, width)
        _negate(prev, sp, size)                                # p_{t+1}
        swap = prev; prev = cur; cur = swap
        if presses != NULL:
            _store(presses, cur, sp, (t + 1) * S, first, width)
        status = poll_work(poll, step_work)
        if status != STOP_NONE:
            return status
    if lights == NULL:
        return 0
    # Lights of slice n-1 (in prev), and of slice 0 (in q) for a wrapping axis.
    _sum(prev, cur, sp, width)
    _board(prev, sp, n - 1, first, width)
    if sp.wrap:
        _add(prev, p0, sp, size)
        _add(q, cur, sp, size)
        _store(lights, q, sp, 0, first, width)
        _store(lights, prev, sp, S, first, width)
    else:
        _store(lights, prev, sp, 0, first, width)
    return 0


cdef int _run_blocks(const Spec* sp, elem_t* kind, Py_ssize_t block_start, Py_ssize_t block_stop,
                     Poll* poll) noexcept nogil:
    """Every block in [block_start, block_stop); 0, a STOP_ status, -2 if out of memory.

    `kind` only selects the element type (pass NULL).
    """
    cdef Py_ssize_t block_elems = GC_BLOCK_WORDS if elem_t is uint64_t else GC_BLOCK_BYTES
    cdef Py_ssize_t nelems = words_for_bits(sp.ncols) if elem_t is uint64_t else sp.ncols
    cdef Py_ssize_t width = min(block_elems, nelems)
    cdef void* raw = NULL
    cdef elem_t* buf = <elem_t*>gc_alloc_aligned(<size_t>(4 * sp.S * width) * sizeof(elem_t), &raw)
    cdef Py_ssize_t block, first
    cdef int status = 0
    if buf == NULL:
        return -2
    try:
        for block in range(block_start, block_stop):
            if cancelled(poll):
                return STOP_CANCELLED
            first = block * block_elems
            status = _run_block(sp, buf, first, min(block_elems, nelems - first), poll)
            if status != 0:
                return status
    finally:
        free(raw)
    return 0


# ---------------------------------------------------------------------------
# Python entry points: check with the GIL, run without it.

def block_count(Py_ssize_t ncols, bint bits):
    """Number of column blocks :func:`chase_bits` (``bits=True``) or :func:`chase_bytes` splits ncols into.

    Example:
        >>> block_count(1001, True), block_count(1001, False)
        (2, 8)
    """
    if ncols < 1:
        raise InvalidBoardError(f"ncols must be >= 1, got {ncols}")
    if bits:
        return (words_for_bits(ncols) + GC_BLOCK_WORDS - 1) // GC_BLOCK_WORDS
    return (ncols + GC_BLOCK_BYTES - 1) // GC_BLOCK_BYTES


cdef int _bind_rows(Spec* sp, elem_t* kind, object start, object presses, object lights) except -1:
    """Point the spec at the row arrays that _run checked (`kind` selects their element type:
    pass NULL); the caller's references keep the arrays alive for the run."""
    cdef const elem_t[:, ::1] start_view
    cdef elem_t[:, ::1] presses_view, lights_view
    if start is not None:
        start_view = start
        sp.start = &start_view[0, 0]
    if presses is not None:
        presses_view = presses
        sp.presses = &presses_view[0, 0]
    if lights is not None:
        lights_view = lights
        sp.lights = &lights_view[0, 0]
    return 0


cdef object _run(bint bits, object nbr, bint self_toggle, Py_ssize_t nslices, bint wrap,
                 Py_ssize_t ncols, int modulus, object board, int lit, Py_ssize_t const_col,
                 object start, object presses, object lights, Py_ssize_t block_start,
                 Py_ssize_t block_stop, object cancel):
    """The shared checks and the run of chase_bits / chase_bytes."""
    if not isinstance(nbr, np.ndarray) or nbr.dtype != np.int32 or nbr.ndim != 2:
        raise InvalidTypeError("nbr must be a 2-D numpy int32 array (cells of a slice, neighbours)")
    cdef Py_ssize_t S = nbr.shape[0], maxdeg = nbr.shape[1]
    if S < 1 or maxdeg < 1:
        raise InvalidBoardError(f"nbr must have at least one row and one column, got shape {nbr.shape}")
    raw_array(nbr, "nbr", np.int32, (S, maxdeg), -1, False)
    if nbr.min() < -1 or nbr.max() >= S:
        raise InvalidBoardError(f"nbr entries must be cell indices 0..{S - 1} or -1")
    if nslices < 1:
        raise InvalidBoardError(f"nslices must be >= 1, got {nslices}")
    if wrap and nslices < 3:
        raise InvalidBoardError("wrap needs at least 3 slices (a wrapping axis of length <= 2 chases as an open one)")
    if not 2 <= modulus <= 255:
        raise InvalidBoardError(f"modulus must be in 2..255, got {modulus}")
    if not 0 <= lit < modulus:
        raise InvalidBoardError(f"lit must be in 0..{modulus - 1}, got {lit}")
    if ncols < 1:
        raise InvalidBoardError(f"ncols must be >= 1, got {ncols}")
    if not -1 <= const_col < ncols:
        raise InvalidBoardError(f"const_col must be -1 or a column 0..{ncols - 1}, got {const_col}")
    cdef Py_ssize_t nunknowns = (2 if wrap else 1) * S
    cdef Py_ssize_t stride = words_for_bits(ncols) if bits else ncols
    dtype = np.uint64 if bits else np.uint8
    if start is None and ncols < nunknowns:
        raise InvalidBoardError(f"the identity start needs ncols >= {nunknowns} unknowns, got {ncols}")
    if start is not None:
        raw_array(start, "start", dtype, (nunknowns, stride), -1, False)
        if bits and ncols & 63 and (start[:, -1] >> np.uint64(ncols & 63)).any():
            raise InvalidBoardError(f"start has bits set past column {ncols}")
    if presses is not None:
        raw_array(presses, "presses", dtype, (nslices * S, stride), -1, True)
    if lights is not None:
        raw_array(lights, "lights", dtype, (nunknowns, stride), -1, True)
    if board is not None:
        raw_array(board, "board", np.uint8, (nslices, S), -1, False)
    cdef Py_ssize_t nblocks = block_count(ncols, bits)
    if block_stop < 0:
        block_stop = nblocks
    if not 0 <= block_start <= block_stop <= nblocks:
        raise InvalidBoardError(f"block range [{block_start}, {block_stop}) is outside [0, {nblocks})")
    cdef Poll poll = make_poll(cancel, POLL_WORK)

    cdef const int32_t[:, ::1] nbr_view = nbr
    cdef const uint8_t[:, ::1] board_view
    cdef const uint8_t* board_ptr = NULL
    if board is not None:
        board_view = board
        board_ptr = &board_view[0, 0]
    # the chase as checked above; _bind_rows points it at its row arrays
    cdef Spec sp = Spec(nbr=&nbr_view[0, 0], maxdeg=maxdeg, S=S, n=nslices, wrap=wrap, self_toggle=self_toggle,
                        board=board_ptr, lit=<uint8_t>lit, k=<uint8_t>modulus, ncols=ncols, stride=stride,
                        const_col=const_col, start=NULL, presses=NULL, lights=NULL)
    if bits:
        _bind_rows(&sp, <uint64_t*>NULL, start, presses, lights)
    else:
        _bind_rows(&sp, <uint8_t*>NULL, start, presses, lights)
    cdef int status
    with nogil:
        if bits:
            status = _run_blocks(&sp, <uint64_t*>NULL, block_start, block_stop, &poll)
        else:
            status = _run_blocks(&sp, <uint8_t*>NULL, block_start, block_stop, &poll)
    raise_if_interrupted(status)
    if status == -2:
        raise MemoryError("out of memory allocating the chase's slice buffers")
    return status == 0


def chase_bits(nbr, bint self_toggle, Py_ssize_t nslices, bint wrap, Py_ssize_t ncols, board=None, *,
               int lit=1, Py_ssize_t const_col=-1, start=None, presses=None, lights=None,
               Py_ssize_t block_start=0, Py_ssize_t block_stop=-1, cancel=None):
    """Chase ncols columns of packed GF(2) rows through the slices of a board.

    Each column is one chase (see the module comment): it starts from the
    start rows (slice 0, and slice 1 when ``wrap``), and every later slice
    presses to clear the slice before it.  The board is added in column
    ``const_col`` only (the other columns chase the dark board).

    Args:
        nbr: ``(S, maxdeg)`` int32 neighbour table of a slice's cells (-1 after
            the last neighbour of a cell; never the cell itself).
        self_toggle: a press toggles its own cell too.
        nslices: n, the number of slices.
        wrap: the chase axis wraps (slice n-1 touches slice 0); needs n >= 3.
        ncols: columns (bits) per row.
        board: ``(n, S)`` uint8 lights (bit 0 is used), or None: every cell ``lit``.
        lit: 0 or 1, the light of every cell when ``board`` is None.
        const_col: the column the board is added to, or -1 (all columns dark).
        start: ``(U, words_for_bits(ncols))`` uint64 rows of the free presses
            (U = S, or 2S when ``wrap``: slice 0's rows, then slice 1's), or None
            for the identity (column i = unknown i; needs ncols >= U).
        presses: None, or a writable ``(n * S, words)`` uint64 array that receives
            every slice's press rows.
        lights: None, or a writable ``(U, words)`` uint64 array that receives the
            lights left on: slice n-1's rows (open), or slice 0's then slice n-1's
            (``wrap``); every other slice is dark.
        block_start, block_stop: the column blocks to run (see
            :func:`block_count`); the others are left untouched.
        cancel: None or a C-contiguous uint8 array whose byte 0 is polled every millisecond or so;
            nonzero stops the run early.  On the main thread, Ctrl-C raises
            KeyboardInterrupt within milliseconds.

    Returns:
        True when finished, False when cancelled.

    Example:
        >>> import numpy as np
        >>> nbr = np.full((1, 1), -1, dtype=np.int32)       # a 1-D line: one cell per slice
        >>> lights = np.zeros((1, 1), dtype=np.uint64)
        >>> chase_bits(nbr, True, 3, False, 2, None, const_col=1, lights=lights)
        True
        >>> int(lights[0, 0])            # all-lit line of 3: lights = u (bit 0), so u = 0 clears it
        1
    """
    return _run(True, nbr, self_toggle, nslices, wrap, ncols, 2, board, lit, const_col, start, presses,
                lights, block_start, block_stop, cancel)


def chase_bytes(nbr, bint self_toggle, Py_ssize_t nslices, bint wrap, Py_ssize_t ncols, int modulus,
                board=None, *, int lit=1, Py_ssize_t const_col=-1, start=None, presses=None, lights=None,
                Py_ssize_t block_start=0, Py_ssize_t block_stop=-1, cancel=None):
    """:func:`chase_bits` over Z/modulus: rows of uint8 values 0..modulus-1, one byte per column.

    Arguments as for :func:`chase_bits`, with ``(rows, ncols)`` uint8 arrays for
    start, presses and lights, board values 0..modulus-1 and ``lit`` in
    0..modulus-1; a press adds 1 to each cell it touches.

    Example:
        >>> import numpy as np
        >>> nbr = np.full((1, 1), -1, dtype=np.int32)       # the 1-D line 1 x 2, k = 3
        >>> presses = np.zeros((2, 1), dtype=np.uint8)
        >>> lights = np.zeros((1, 1), dtype=np.uint8)
        >>> start = np.array([[1]], dtype=np.uint8)         # press cell 0 once
        >>> chase_bytes(nbr, True, 2, False, 1, 3, None, const_col=0, start=start,
        ...             presses=presses, lights=lights)
        True
        >>> presses.ravel().tolist(), lights.ravel().tolist()   # cell 1 ends at 1 + 1 + 1 = 0
        ([1, 1], [0])
    """
    return _run(False, nbr, self_toggle, nslices, wrap, ncols, modulus, board, lit, const_col, start,
                presses, lights, block_start, block_stop, cancel)


gc_init_spread()


def rows_to_columns(rows, Py_ssize_t ncols, slice_offsets, Py_ssize_t axis_stride, out):
    """Transpose chase rows into one board per column, putting the chase axis back in place.

    Row ``r = t * S + j`` of ``rows`` (slice t, cell j of a slice) holds one
    entry per column; entry c goes to ``out[c, t * axis_stride + slice_offsets[j]]``.

    Args:
        rows: ``(n * S, words_for_bits(ncols))`` uint64 packed bits, or
            ``(n * S, ncols)`` uint8 values.
        ncols: number of columns.
        slice_offsets: ``(S,)`` int64, where each cell of a slice sits in the board.
        axis_stride: how far apart consecutive slices sit in the board.
        out: writable ``(ncols, cells)`` uint8 array; every position a row maps
            to must lie inside a board of ``cells`` entries.

    Example:
        >>> import numpy as np
        >>> rows = np.array([[0b01], [0b10], [0b11]], dtype=np.uint64)     # 3 cells, 2 columns
        >>> out = np.zeros((2, 3), dtype=np.uint8)
        >>> rows_to_columns(rows, 2, np.zeros(1, dtype=np.int64), 1, out)
        >>> out.tolist()
        [[1, 0, 1], [0, 1, 1]]
    """
    if not isinstance(rows, np.ndarray) or rows.dtype not in (np.uint64, np.uint8) or rows.ndim != 2:
        raise InvalidTypeError("rows must be a 2-D numpy uint64 (bits) or uint8 (values) array")
    cdef bint bits = rows.dtype == np.uint64
    cdef Py_ssize_t nrows = rows.shape[0]
    if ncols < 1:
        raise InvalidBoardError(f"ncols must be >= 1, got {ncols}")
    raw_array(rows, "rows", rows.dtype, (nrows, words_for_bits(ncols) if bits else ncols), -1, False)
    raw_array(slice_offsets, "slice_offsets", np.int64, None, 1, False)
    raw_array(out, "out", np.uint8, None, 2, True)
    cdef Py_ssize_t S = slice_offsets.shape[0], cells = out.shape[1]
    if out.shape[0] != ncols:
        raise InvalidBoardError(f"out must have one row per column ({ncols}), got shape {out.shape}")
    if S < 1 or nrows % S:
        raise InvalidBoardError(f"rows ({nrows}) must be a whole number of slices of {S} cells")
    if nrows and (axis_stride < 0 or slice_offsets.min() < 0
                  or (nrows // S - 1) * axis_stride + int(slice_offsets.max()) >= cells):
        raise InvalidBoardError(f"rows map outside the {cells}-cell boards of out")
    if nrows == 0:
        return
    cdef const int64_t[::1] off = slice_offsets
    cdef uint8_t[:, ::1] out_view = out
    cdef const uint64_t[:, ::1] bit_rows
    cdef const uint8_t[:, ::1] byte_rows
    if bits:
        bit_rows = rows
        with nogil:
            gc_bits_to_columns(&bit_rows[0, 0], nrows, bit_rows.shape[1], ncols, &off[0], S, axis_stride,
                               &out_view[0, 0], cells)
    else:
        byte_rows = rows
        with nogil:
            gc_bytes_to_columns(&byte_rows[0, 0], nrows, ncols, &off[0], S, axis_stride, &out_view[0, 0], cells)


def circulant_bits(values, out, Py_ssize_t row0, Py_ssize_t col0):
    """Or the circulant block ``C[i, j] = values[(i - j) mod S]`` into a packed matrix.

    Row ``row0 + i`` of ``out`` gets bits ``col0 .. col0 + S - 1`` or-ed with row
    i of the block: the response of a translation-invariant slice to a press at
    cell j is the response to a press at cell 0, moved by j.

    Args:
        values: ``(S,)`` uint8 0/1 values (the block's column 0).
        out: writable packed ``(nrows, nwords)`` uint64 matrix with
            ``row0 + S <= nrows`` and ``col0 + S <= 64 * nwords``.

    Example:
        >>> import numpy as np
        >>> out = np.zeros((3, 1), dtype=np.uint64)
        >>> circulant_bits(np.array([1, 1, 0], dtype=np.uint8), out, 0, 1)
        >>> [format(int(w), "04b")[::-1] for w in out[:, 0]]        # columns 0..3 of each row
        ['0101', '0110', '0011']
    """
    raw_array(values, "values", np.uint8, None, 1, False)
    raw_array(out, "out", np.uint64, None, 2, True)
    cdef Py_ssize_t S = values.shape[0]
    if S < 1 or row0 < 0 or col0 < 0 or row0 + S > out.shape[0] or col0 + S > 64 * out.shape[1]:
        raise InvalidBoardError(f"a {S} x {S} block at ({row0}, {col0}) does not fit in out {out.shape}")
    # w[m] = values[-m mod S], twice: row i of the block is bits S - i .. 2S - i - 1 of w.
    w = np.concatenate([values[:1], values[:0:-1]])
    bits = np.zeros(((2 * S + 63) // 64) * 8, dtype=np.uint8)
    packed = np.packbits(np.concatenate([w, w]) & 1, bitorder="little")
    bits[: packed.size] = packed
    cdef const uint64_t[::1] src = bits.view(np.uint64)
    cdef uint64_t[:, ::1] dst = out
    cdef Py_ssize_t i, nwords = src.shape[0], stride = out.shape[1]
    with nogil:
        for i in range(S):
            gc_or_bits(&dst[row0 + i, 0], col0, &src[0], S - i, S, nwords)


#: The SIMD level this build was compiled for ("generic", "avx2" or "avx512").
SIMD_LEVEL = (<bytes>LIGHTSOUT_SIMD_LEVEL).decode("ascii")
