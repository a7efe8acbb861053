# Inline word kernels of GF(2)[t] arithmetic, on borrowed word arrays.
#
# A polynomial is a row of uint64 words: bit i (bit i & 63 of word i >> 6,
# least-significant bit first, as in bitrow.pxd) is the coefficient of t^i.
# Every kernel keeps the bits past its operands' degrees zero.  The write
# bounds each kernel states below are what tests/test_bitrow_probe.py checks
# between guard words, at every SIMD level.
#
# gf2poly.pyx is the body (Python-facing arithmetic, Euclid's driver); these
# are its word loops, in a .pxd so that the test-only probe runs the very same
# code.  Compiled into each module that cimports them, with its CPU flags:
# the avx2/avx512 builds (-mpclmul) multiply with PCLMULQDQ, the portable one
# by four-bit windows from a 16-entry table.

from libc.stdint cimport uint64_t

from lightsout._kernels.cancel cimport STOP_NONE, Poll, poll_work
from lightsout._kernels.bitrow cimport (
    apply_T, clz64, copy_row, get_bit, highest_set_bit, up_word, words_for_bits, xor_into, zero_row,
)

cdef extern from *:
    """
    #include <stdint.h>
    #include <stddef.h>
    #include <string.h>
    #if defined(__PCLMUL__)
    #include <emmintrin.h>
    #include <wmmintrin.h>
    #define LO_HAVE_PCLMUL 1
    /* The 127-bit carry-less product x y: the low word returned, the high one in *hi. */
    static inline uint64_t lo_clmul64(uint64_t x, uint64_t y, uint64_t* hi) {
        __m128i p = _mm_clmulepi64_si128(_mm_cvtsi64_si128((long long)x), _mm_cvtsi64_si128((long long)y), 0x00);
        *hi = (uint64_t)_mm_cvtsi128_si64(_mm_unpackhi_epi64(p, p));
        return (uint64_t)_mm_cvtsi128_si64(p);
    }
    /* dst[0 .. n] ^= src[0 .. n-1] * m  (n + 1 words written). */
    static void lo_mul_row_xor(uint64_t* dst, const uint64_t* src, ptrdiff_t n, uint64_t m) {
        __m128i vm = _mm_cvtsi64_si128((long long)m);
        __m128i carry = _mm_setzero_si128();
        if (m == 0) return;
        for (ptrdiff_t i = 0; i < n; i++) {
            __m128i p = _mm_clmulepi64_si128(_mm_cvtsi64_si128((long long)src[i]), vm, 0x00);
            dst[i] ^= (uint64_t)_mm_cvtsi128_si64(_mm_xor_si128(p, carry));
            carry = _mm_srli_si128(p, 8);
        }
        dst[n] ^= (uint64_t)_mm_cvtsi128_si64(carry);
    }
    /* oa = m00*a + m01*b, ob = m10*a + m11*b over n words (n + 1 words written). */
    static void lo_apply_matrix(uint64_t* oa, uint64_t* ob, const uint64_t* a,
                                const uint64_t* b, ptrdiff_t n, uint64_t m00,
                                uint64_t m01, uint64_t m10, uint64_t m11) {
        __m128i ma = _mm_set_epi64x((long long)m10, (long long)m00);
        __m128i mb = _mm_set_epi64x((long long)m11, (long long)m01);
        __m128i ca = _mm_setzero_si128(), cb = _mm_setzero_si128();
        for (ptrdiff_t i = 0; i < n; i++) {
            __m128i va = _mm_cvtsi64_si128((long long)a[i]);
            __m128i vb = _mm_cvtsi64_si128((long long)b[i]);
            /* imm bit 4 picks the high lane of the second operand (m10, m11). */
            __m128i xa = _mm_xor_si128(_mm_clmulepi64_si128(va, ma, 0x00),
                                       _mm_clmulepi64_si128(vb, mb, 0x00));
            __m128i xb = _mm_xor_si128(_mm_clmulepi64_si128(va, ma, 0x10),
                                       _mm_clmulepi64_si128(vb, mb, 0x10));
            oa[i] = (uint64_t)_mm_cvtsi128_si64(_mm_xor_si128(xa, ca));
            ob[i] = (uint64_t)_mm_cvtsi128_si64(_mm_xor_si128(xb, cb));
            ca = _mm_srli_si128(xa, 8);
            cb = _mm_srli_si128(xb, 8);
        }
        oa[n] = (uint64_t)_mm_cvtsi128_si64(ca);
        ob[n] = (uint64_t)_mm_cvtsi128_si64(cb);
    }
    #else
    #define LO_HAVE_PCLMUL 0
    /* Portable carry-less product: m times each four-bit window of x, from a
       table of m*k for k < 16 (67-bit entries split into lo/hi words). */
    typedef struct { uint64_t lo[16], hi[16]; } lo_clmul_table;
    static void lo_table_init(lo_clmul_table* t, uint64_t m) {
        t->lo[0] = 0; t->hi[0] = 0; t->lo[1] = m; t->hi[1] = 0;
        for (int k = 2; k < 16; k += 2) {
            t->lo[k] = t->lo[k >> 1] << 1;
            t->hi[k] = (t->hi[k >> 1] << 1) | (t->lo[k >> 1] >> 63);
            t->lo[k + 1] = t->lo[k] ^ m;
            t->hi[k + 1] = t->hi[k];
        }
    }
    static inline uint64_t lo_table_mul(const lo_clmul_table* t, uint64_t x, uint64_t* hi) {
        uint64_t l = 0, h = 0;
        for (int i = 60; i >= 0; i -= 4) {
            unsigned k = (unsigned)(x >> i) & 15u;
            h = (h << 4) | (l >> 60);
            l = (l << 4) ^ t->lo[k];
            h ^= t->hi[k];
        }
        *hi = h;
        return l;
    }
    static inline uint64_t lo_clmul64(uint64_t x, uint64_t y, uint64_t* hi) {
        lo_clmul_table t;
        lo_table_init(&t, y);
        return lo_table_mul(&t, x, hi);
    }
    static void lo_mul_row_xor(uint64_t* dst, const uint64_t* src, ptrdiff_t n, uint64_t m) {
        lo_clmul_table t;
        uint64_t carry = 0, hi, lo;
        if (m == 0) return;
        lo_table_init(&t, m);
        for (ptrdiff_t i = 0; i < n; i++) {
            lo = lo_table_mul(&t, src[i], &hi);
            dst[i] ^= lo ^ carry;
            carry = hi;
        }
        dst[n] ^= carry;
    }
    static void lo_apply_matrix(uint64_t* oa, uint64_t* ob, const uint64_t* a,
                                const uint64_t* b, ptrdiff_t n, uint64_t m00,
                                uint64_t m01, uint64_t m10, uint64_t m11) {
        memset(oa, 0, (size_t)(n + 1) * sizeof(uint64_t));
        memset(ob, 0, (size_t)(n + 1) * sizeof(uint64_t));
        lo_mul_row_xor(oa, a, n, m00);
        lo_mul_row_xor(oa, b, n, m01);
        lo_mul_row_xor(ob, a, n, m10);
        lo_mul_row_xor(ob, b, n, m11);
    }
    #endif
    """
    int LO_HAVE_PCLMUL
    uint64_t lo_clmul64(uint64_t x, uint64_t y, uint64_t* hi) noexcept nogil
    void lo_mul_row_xor(uint64_t* dst, const uint64_t* src, Py_ssize_t n, uint64_t m) noexcept nogil
    void lo_apply_matrix(uint64_t* oa, uint64_t* ob, const uint64_t* a, const uint64_t* b,
                         Py_ssize_t n, uint64_t m00, uint64_t m01, uint64_t m10,
                         uint64_t m11) noexcept nogil


cdef enum:
    # Below this many words per operand, schoolbook products (one row pass per
    # word) beat Karatsuba's extra additions and allocations.
    KARATSUBA_WORDS = 32


cdef inline uint64_t bits64_at(const uint64_t* a, Py_ssize_t n, Py_ssize_t lo) noexcept nogil:
    """Coefficients lo .. lo+63 of a (n words) as one word; those outside the array read 0."""
    cdef Py_ssize_t w
    cdef int s
    cdef uint64_t x
    if lo <= -64 or n <= 0:
        return 0
    if lo < 0:
        return a[0] << (-lo)
    w = lo >> 6
    s = <int>(lo & 63)
    if w >= n:
        return 0
    x = a[w] >> s
    if s != 0 and w + 1 < n:
        x |= a[w + 1] << (64 - s)
    return x


cdef inline void xor_shifted(uint64_t* dst, Py_ssize_t ndst, const uint64_t* src, Py_ssize_t nsrc,
                      Py_ssize_t shift) noexcept nogil:
    """dst ^= src * t^shift (shift >= 0); bits landing past ndst words are dropped."""
    cdef Py_ssize_t w = shift >> 6, i
    cdef int s = <int>(shift & 63)
    cdef Py_ssize_t top = min(nsrc, ndst - w)
    if s == 0:
        for i in range(top):
            dst[i + w] ^= src[i]
        return
    for i in range(top):
        dst[i + w] ^= src[i] << s
    for i in range(min(nsrc, ndst - w - 1)):
        dst[i + w + 1] ^= src[i] >> (64 - s)


cdef inline int lead(uint64_t x) noexcept nogil:
    """Degree of a one-word polynomial, -1 for zero."""
    return -1 if x == 0 else 63 - clz64(x)


cdef inline uint64_t quotient_window(uint64_t aw, uint64_t bw, int nbits) noexcept nogil:
    """The top nbits quotient bits of a / b from the operands' top words.

    aw holds a's coefficients deg a - 63 .. deg a (bit 63 = leading), bw likewise
    for b.  Bit nbits-1-j of the result is the coefficient of t^(deg a - deg b - j).
    Exact: quotient bit j needs only coefficients within 63 of either leading term.
    """
    cdef uint64_t q = 0
    cdef int lim = 64 - nbits, p, j
    while aw != 0:
        p = 63 - clz64(aw)
        if p < lim:
            break
        j = 63 - p
        q |= (<uint64_t>1) << (nbits - 1 - j)
        aw ^= bw >> j
    return q


cdef inline uint64_t quotient_inverse(uint64_t bw) noexcept nogil:
    """mu = t^126 div bw for a window bw of b's top coefficients (bit 63 set), for quotient_by_inverse."""
    return quotient_window(<uint64_t>1 << 63, bw, 64)


cdef inline uint64_t quotient_by_inverse(uint64_t aw, uint64_t mu, int nbits) noexcept nogil:
    """quotient_window(aw, bw, nbits) by one carry-less product, mu = quotient_inverse(bw).

    The window's quotient is Q = (aw t^63) div bw, and Q = (aw mu) div t^63 exactly (Barrett):
    with t^126 = mu bw + rho (deg rho < 63) and aw mu = D1 t^63 + D0 (deg D0 < 63),
    aw t^63 + D1 bw = (D0 bw + aw rho) / t^63 has degree < 63 = deg bw.
    """
    cdef uint64_t hi
    cdef uint64_t lo = lo_clmul64(aw, mu, &hi)
    return ((hi << 1) | (lo >> 63)) >> (64 - nbits)


cdef inline void sub_multiple_shifted(uint64_t* dst, Py_ssize_t ndst, const uint64_t* src,
                                     Py_ssize_t nsrc, uint64_t qw, Py_ssize_t off,
                                     uint64_t* tmp) noexcept nogil:
    """dst ^= qw * src * t^off (qw one word of quotient bits), dropping bits past ndst words.

    tmp: nsrc + 1 zero words of scratch, left zero.  Writes dst[0 : ndst] and tmp.
    """
    lo_mul_row_xor(tmp, src, nsrc, qw)
    xor_shifted(dst, ndst, tmp, nsrc + 1, off)
    zero_row(tmp, nsrc + 1)


cdef inline Py_ssize_t divide_inplace(uint64_t* r, Py_ssize_t nr, const uint64_t* b, Py_ssize_t nb,
                               uint64_t* q, Py_ssize_t nq, uint64_t* tmp, Py_ssize_t stop=0) noexcept nogil:
    """r <- r mod b, and q ^= r div b when q is not NULL; returns deg r.  With stop > 0, only
    the steps while deg r >= stop: called again with a lower stop, the division goes on
    where it left off (its caller can look for Ctrl-C between such calls).

    b must be nonzero; tmp is scratch of nb + 1 words; q needs room for the
    quotient's deg r - deg b + 1 bits.  Each pass clears up to 64 leading
    coefficients of r with one carry-less product of b by a quotient word, the
    word itself one product by the inverse of b's top window (quotient_by_inverse).
    """
    cdef Py_ssize_t db = highest_set_bit(b, nb)
    cdef Py_ssize_t nbw = words_for_bits(db + 1)
    cdef uint64_t mu = quotient_inverse(bits64_at(b, nbw, db - 63))
    cdef Py_ssize_t dr = highest_set_bit(r, nr), k, off
    cdef int nbits
    cdef uint64_t qw
    zero_row(tmp, nbw + 1)
    while dr >= db and dr >= stop:
        k = dr - db
        nbits = 64 if k >= 63 else <int>(k + 1)
        qw = quotient_by_inverse(bits64_at(r, nr, dr - 63), mu, nbits)
        off = k - nbits + 1
        sub_multiple_shifted(r, words_for_bits(dr + 1), b, nbw, qw, off, tmp)
        if q != NULL:
            xor_shifted(q, nq, &qw, 1, off)
        dr = highest_set_bit(r, words_for_bits(dr + 1))
    return dr


cdef struct Mat2:
    # A 2x2 matrix of one-word polynomials: (x, y) -> (m00 x + m01 y, m10 x + m11 y).
    uint64_t m00, m01, m10, m11


cdef inline Mat2 lehmer_matrix(uint64_t aw, uint64_t bw, int stop, bint hold_order) noexcept nogil:
    """The Euclid steps that the top 64 coefficients of A and B decide, as one matrix.

    aw, bw hold the same 64 coefficients of A and B (deg A - 63 .. deg A, so
    aw's bit 63 is A's leading term).  Runs bit-at-a-time Euclid on them while
    the leading terms are still exact: dra/drb, the degrees of the matrix rows
    so far, bound how far up the ignored low coefficients of A and B can reach
    into the windows, and bits at or above them are exact.  Applying the
    result to the full A, B (apply_mat2) does all those steps at once.

    Two options for the half-gcd's leaves (-1 and False: plain Euclid): never a
    step that divides by a B of window degree < stop; with hold_order, never a
    return with a B of uncertain degree: when A falls below B with an inexact
    leading term, the rows stay unswapped (A the one being reduced), so that the
    caller, which reduces A when the full degrees tie, continues the same division.
    The callers pass constants, so the inlined loop carries no test it does not need.
    """
    cdef Mat2 m
    cdef int la, lb, dra = 0, drb = 0, s
    m.m00 = 1
    m.m01 = 0
    m.m10 = 0
    m.m11 = 1
    while True:
        la = lead(aw)
        lb = lead(bw)
        if la < lb:
            if hold_order and la < dra:
                return m
            aw, bw = bw, aw
            m.m00, m.m10 = m.m10, m.m00
            m.m01, m.m11 = m.m11, m.m01
            dra, drb = drb, dra
            la, lb = lb, la
        if lb < 0 or lb < drb or la < dra or lb < stop:
            return m
        s = la - lb
        aw ^= bw << s
        m.m00 ^= m.m10 << s
        m.m01 ^= m.m11 << s
        dra = lead(m.m00 | m.m01)


cdef inline void apply_mat2(Mat2 m, uint64_t** x, uint64_t** y, uint64_t** spare_x,
                            uint64_t** spare_y, Py_ssize_t n) noexcept nogil:
    """(x, y) <- m (x, y) for n-word x, y, through two zero spare buffers of n + 1 words.

    The results (n + 1 words) land in the spares, which become x and y; the old
    x and y buffers come back zeroed as the new spares.
    """
    cdef uint64_t* tmp
    lo_apply_matrix(spare_x[0], spare_y[0], x[0], y[0], n, m.m00, m.m01, m.m10, m.m11)
    tmp = x[0]; x[0] = spare_x[0]; spare_x[0] = tmp
    tmp = y[0]; y[0] = spare_y[0]; spare_y[0] = tmp
    zero_row(spare_x[0], n + 1)
    zero_row(spare_y[0], n + 1)


cdef enum:
    TAYLOR_POLL_WORDS = 1 << 16     # words between two looks at `poll` in taylor_shift_inplace
    PIECE_WORDS = 1 << 16           # words of one piece of in_pieces_looking


# One piece [first, stop) of a pass over a row: the operation's own kernel, its operands in `job`.
ctypedef void (*RowPiece)(void* job, Py_ssize_t first, Py_ssize_t stop) noexcept nogil


cdef inline int in_pieces_looking(RowPiece piece, void* job, Py_ssize_t n, Poll* poll) noexcept nogil:
    """piece(job, first, stop) over [0, n), PIECE_WORDS words at a time, with a look at `poll` (NULL:
    none) after each: a nonzero stop status when it says stop, else STOP_NONE.  Every pass over a whole row goes
    so: at 10^10 bits a row is 1.25 GB of fresh pages, seconds to fill, and Ctrl-C must not wait."""
    cdef Py_ssize_t first = 0, stop
    cdef int status
    while first < n:
        stop = min(n, first + <Py_ssize_t>PIECE_WORDS)
        piece(job, first, stop)
        status = poll_work(poll, stop - first) if poll != NULL else STOP_NONE
        if status != STOP_NONE:
            return status
        first = stop
    return STOP_NONE


cdef struct RowCopy:
    uint64_t* dst
    const uint64_t* src


cdef inline void _copy_piece(void* job, Py_ssize_t first, Py_ssize_t stop) noexcept nogil:
    cdef RowCopy* j = <RowCopy*>job
    copy_row(j.dst + first, j.src + first, stop - first)


cdef inline int copy_row_looking(uint64_t* dst, const uint64_t* src, Py_ssize_t n, Poll* poll) noexcept nogil:
    """dst[0 : n) = src[0 : n) in pieces with looks (in_pieces_looking)."""
    cdef RowCopy job = RowCopy(dst=dst, src=src)
    return in_pieces_looking(_copy_piece, &job, n, poll)


cdef struct ShiftJob:
    uint64_t* out
    Py_ssize_t nout
    const uint64_t* a
    Py_ssize_t na
    Py_ssize_t places       # |k|


cdef inline void shift_up_piece(void* job, Py_ssize_t first, Py_ssize_t stop) noexcept nogil:
    """out ^= a[first : stop) t^(places + 64 first): a's words [first, stop) moved up."""
    cdef ShiftJob* j = <ShiftJob*>job
    xor_shifted(j.out, j.nout, j.a + first, stop - first, j.places + 64 * first)


cdef inline void shift_down_piece(void* job, Py_ssize_t first, Py_ssize_t stop) noexcept nogil:
    """out's words [first, stop) of a div t^places."""
    cdef ShiftJob* j = <ShiftJob*>job
    cdef Py_ssize_t i
    for i in range(first, stop):
        j.out[i] = bits64_at(j.a, j.na, 64 * i + j.places)


cdef inline int taylor_shift_inplace(uint64_t* a, Py_ssize_t n, Poll* poll) noexcept nogil:
    """a(t) <- a(t + 1) in place over n words; a nonzero stop status when `poll` (or NULL) says stop.

    Over GF(2), (t + 1)^m = t^m + 1 for m a power of two, so with
    a = lo + t^m hi (deg lo, deg hi < m): a(t+1) = [lo(t+1) + hi(t+1)] + t^m hi(t+1).
    Bottom-up over m = 1, 2, 4, ...: every block of 2m coefficients gets its high
    half XORed into its low half.  O(n log n) word operations.
    """
    cdef uint64_t masks[6]
    cdef Py_ssize_t i, h, blk, top, first, piece
    cdef int lvl, m
    cdef uint64_t w
    cdef int status
    masks[0] = 0x5555555555555555ULL
    masks[1] = 0x3333333333333333ULL
    masks[2] = 0x0F0F0F0F0F0F0F0FULL
    masks[3] = 0x00FF00FF00FF00FFULL
    masks[4] = 0x0000FFFF0000FFFFULL
    masks[5] = 0x00000000FFFFFFFFULL
    # every loop looks at `poll` about every TAYLOR_POLL_WORDS words: at 10^10 bits one level
    # is a pass over more than a gigabyte
    first = 0
    while first < n:
        piece = min(n - first, <Py_ssize_t>TAYLOR_POLL_WORDS)
        for i in range(first, first + piece):
            w = a[i]
            m = 1
            for lvl in range(6):
                w ^= (w >> m) & masks[lvl]
                m <<= 1
            a[i] = w
        if poll != NULL:
            status = poll_work(poll, piece)
            if status != STOP_NONE:
                return status
        first += piece
    h = 1
    while h < n:
        blk = 0
        while blk + h < n:
            top = min(h, n - blk - h)
            first = 0
            while first < top:
                piece = min(top - first, <Py_ssize_t>TAYLOR_POLL_WORDS)
                xor_into(a + blk + first, a + blk + h + first, piece)
                if poll != NULL:
                    status = poll_work(poll, 2 * piece)
                    if status != STOP_NONE:
                        return status
                first += piece
            blk += 2 * h
        h <<= 1
    return STOP_NONE


cdef enum:
    S_SPLIT_BLOCK_WORDS = 32768     # 256 KiB: the levels below a block's size run block by block


cdef inline void s_split_level(uint64_t* a, Py_ssize_t n, Py_ssize_t h) noexcept nogil:
    """One level of s_split_inplace on a[0 : n): every group [f0 f1 f2 f3] of four quarters of h
    words gets f2 ^= f3, then f1 ^= f2 (quarters past n are zero)."""
    cdef Py_ssize_t g = 0
    while g + h < n:
        if g + 3 * h < n:
            xor_into(a + g + 2 * h, a + g + 3 * h, min(h, n - g - 3 * h))
        if g + 2 * h < n:
            xor_into(a + g + h, a + g + 2 * h, min(h, n - g - 2 * h))
        g += 4 * h


cdef inline uint64_t s_first_quarters(int m) noexcept nogil:
    """The bits of the lowest quarter of every group of 4m bits of a word (m = 1, 2, 4, 8 or 16)."""
    if m == 1:
        return 0x1111111111111111ULL
    if m == 2:
        return 0x0303030303030303ULL
    if m == 4:
        return 0x000F000F000F000FULL
    if m == 8:
        return 0x000000FF000000FFULL
    return 0x000000000000FFFFULL


cdef inline uint64_t s_split_bits(uint64_t w, int m) noexcept nogil:
    """One level of s_split_inplace inside a word, on quarters of m bits (m = 1 .. 16): q2 ^= q3,
    then q1 ^= q2 in every group.  Inlined with a constant m, it is four shifts, masks and XORs."""
    cdef uint64_t q = s_first_quarters(m)
    w ^= (w >> m) & (q << (2 * m))
    return w ^ ((w >> m) & (q << m))


cdef inline uint64_t s_join_bits(uint64_t w, int m) noexcept nogil:
    """s_split_bits undone: q1 ^= q2, then q2 ^= q3."""
    cdef uint64_t q = s_first_quarters(m)
    w ^= (w >> m) & (q << m)
    return w ^ ((w >> m) & (q << (2 * m)))


cdef inline void s_split_word_levels(uint64_t* a, Py_ssize_t n, Py_ssize_t h) noexcept nogil:
    """The levels of s_split_inplace on a[0 : n) from quarters of h words (h a power of two) down
    to quarters of one bit."""
    cdef Py_ssize_t i
    cdef uint64_t w
    while h >= 1:
        s_split_level(a, n, h)
        h >>= 1
    i = 0
    while i + 1 < n:                   # quarters of 32 bits: the halves of two words
        w = a[i + 1]
        w ^= w >> 32
        a[i + 1] = w
        a[i] ^= w << 32
        i += 2
    for i in range(n):                 # quarters of 16, 8, 4, 2 and 1 bits: inside a word
        a[i] = s_split_bits(s_split_bits(s_split_bits(s_split_bits(s_split_bits(a[i], 16), 8), 4), 2), 1)


cdef inline int s_split_inplace(uint64_t* a, Py_ssize_t n, Poll* poll) noexcept nogil:
    """a(t) over n words rewritten in powers of s = t^2 + t: afterwards bits 2i and 2i + 1 are
    the coefficients of s^i and t s^i, i.e. a = A(s) + t B(s) with A the even and B the odd bits.
    A nonzero stop status when `poll` (or NULL) says stop.

    s^m = t^(2m) + t^m for m a power of two, so a group a = f0 + f1 t^m + f2 t^(2m) + f3 t^(3m)
    (deg fi < m) is q s^m + r with q = (f2 + f3) + f3 t^m and r = f0 + (f1 + f2 + f3) t^m:
    top-down over m, every group of 4m coefficients gets f2 ^= f3 and then f1 ^= f2, and the
    two halves are expanded in turn.  Only lower quarters are written, so the zero words past
    n stay zero.  O(n log n) word operations; the levels below S_SPLIT_BLOCK_WORDS / 4 words
    run one cache-sized block at a time.
    """
    cdef Py_ssize_t h = 1, blk
    cdef int status
    while 2 * h < n:
        h <<= 1
    while 4 * h > S_SPLIT_BLOCK_WORDS:
        s_split_level(a, n, h)
        h >>= 1
        if poll != NULL:
            status = poll_work(poll, n)
            if status != STOP_NONE:
                return status
    blk = 0
    while blk < n:
        s_split_word_levels(a + blk, min(<Py_ssize_t>S_SPLIT_BLOCK_WORDS, n - blk), h)
        blk += S_SPLIT_BLOCK_WORDS
        if poll != NULL:
            status = poll_work(poll, S_SPLIT_BLOCK_WORDS)
            if status != STOP_NONE:
                return status
    return STOP_NONE


cdef inline void s_join_level(uint64_t* a, Py_ssize_t n, Py_ssize_t h) noexcept nogil:
    """s_split_level undone: every group [f0 f1 f2 f3] of quarters of h words gets f1 ^= f2,
    then f2 ^= f3."""
    cdef Py_ssize_t g = 0
    while g + h < n:
        if g + 2 * h < n:
            xor_into(a + g + h, a + g + 2 * h, min(h, n - g - 2 * h))
        if g + 3 * h < n:
            xor_into(a + g + 2 * h, a + g + 3 * h, min(h, n - g - 3 * h))
        g += 4 * h


cdef inline void s_join_word_levels(uint64_t* a, Py_ssize_t n, Py_ssize_t top) noexcept nogil:
    """s_split_word_levels undone: the levels from quarters of one bit up to quarters of top words."""
    cdef Py_ssize_t i, h = 1
    cdef uint64_t w
    for i in range(n):
        a[i] = s_join_bits(s_join_bits(s_join_bits(s_join_bits(s_join_bits(a[i], 1), 2), 4), 8), 16)
    i = 0
    while i + 1 < n:
        w = a[i + 1]
        a[i] ^= w << 32
        a[i + 1] = w ^ (w >> 32)
        i += 2
    while h <= top:
        s_join_level(a, n, h)
        h <<= 1


cdef inline int s_join_inplace(uint64_t* a, Py_ssize_t n, Poll* poll) noexcept nogil:
    """s_split_inplace undone: bits 2i and 2i + 1 of the n words, the coefficients of s^i and
    t s^i (s = t^2 + t), become a(t) = A(s) + t B(s) in powers of t.  The same levels in the
    opposite order, each undone (f1 ^= f2, then f2 ^= f3): bottom-up, one cache-sized block at
    a time while the groups fit in one.  A nonzero stop status when `poll` (or NULL) says stop.
    """
    cdef Py_ssize_t h = S_SPLIT_BLOCK_WORDS // 4, top = 1, blk     # h: a block's top level
    cdef int status
    while 2 * top < n:
        top <<= 1
    blk = 0
    while blk < n:
        s_join_word_levels(a + blk, min(<Py_ssize_t>S_SPLIT_BLOCK_WORDS, n - blk), min(h, top))
        blk += S_SPLIT_BLOCK_WORDS
        if poll != NULL:
            status = poll_work(poll, S_SPLIT_BLOCK_WORDS)
            if status != STOP_NONE:
                return status
    h <<= 1
    while h <= top:
        s_join_level(a, n, h)
        h <<= 1
        if poll != NULL:
            status = poll_work(poll, n)
            if status != STOP_NONE:
                return status
    return STOP_NONE


cdef inline int chebyshev_u_into(uint64_t* out, Py_ssize_t k, Poll* poll) noexcept nogil:
    """out |= U_k(t) over GF(2) (U_0 = 0, U_1 = 1, U_{k+1} = t U_k + U_{k-1}); out needs
    words_for_bits(k) zero words.  A nonzero stop status when `poll` (or NULL) says stop.

    By Lucas' theorem the coefficient of t^(k-1-2i) is binom(k-1-i, i) mod 2,
    which is 1 exactly when i and k-1-2i share no set bit.
    """
    cdef Py_ssize_t i, j, start, stop, terms = (k - 1) // 2 + 1 if k > 0 else 0
    cdef int status
    for start in range(0, terms, 1 << 16):          # 2^16 terms span 2^11 words
        stop = min(start + (1 << 16), terms)
        for i in range(start, stop):
            j = k - 1 - 2 * i
            if (i & j) == 0:
                out[j >> 6] |= (<uint64_t>1) << (j & 63)
        if poll != NULL:
            status = poll_work(poll, 1 << 11)
            if status != STOP_NONE:
                return status
    return STOP_NONE
