# GF(2)[t] polynomial arithmetic, and the polynomial route's conversions
# between polynomials and packed rows (phi(F) = F(T) e_1 and its inverse,
# docs/algebra.md sections 2 and 4).  Light chasing lives in _kernels.pyx.
#
# A polynomial is a 1-D C-contiguous uint64 array: bit i (bit i & 63 of word
# i >> 6, least-significant bit first, as in _bitrow.pxd) is the coefficient of
# t^i.  Arrays may carry zero words past the degree; every kernel keeps the bits
# past an operand's degree zero.  Results handed back to Python are trimmed to
# words_for_bits(deg + 1) words, at least one (the zero polynomial is [0]).
#
# Where the time goes and why the kernels look the way they do:
#   * Products use carry-less multiplication of whole words.  Builds with
#     -mpclmul (the avx2/avx512 variants) use PCLMULQDQ; the portable build
#     multiplies by four-bit windows from a 16-entry table.  Above
#     KARATSUBA_WORDS words, Karatsuba's three half-size products.
#   * Division and Euclid work 64 coefficients at a time: the leading
#     coefficients of a quotient depend only on the leading coefficients of
#     the operands (no carries over GF(2)), so a whole word of quotient bits
#     or a whole 2x2 matrix of Euclid steps is found from the top 64 bits and
#     then applied to the full operands with one pass of carry-less products.
#   * The conversions (W recurrence, Horner) run in chunks of about
#     CHUNK_WORD_OPS word operations with the GIL released; between chunks the
#     def wrappers call PyErr_CheckSignals() (Ctrl-C) and the progress callback.
#
# This file is compiled once per SIMD level (see setup.py).  def wrappers
# validate with the GIL held and run the cdef cores inside `with nogil`.

from cpython.exc cimport PyErr_CheckSignals
from libc.stdint cimport uint64_t
from libc.stdlib cimport calloc, free

from lightsout._bitrow cimport (
    apply_T, clz64, copy_row, get_bit, highest_set_bit, tail_mask, up_word, words_for_bits,
    xor_into, zero_row,
)

import numpy as np

from lightsout._errors import InvalidBoardError
from lightsout._validate import board_size, packed_vector

cdef extern from *:
    """
    #include <stdint.h>
    #include <stddef.h>
    #include <string.h>
    #if defined(__PCLMUL__)
    #include <emmintrin.h>
    #include <wmmintrin.h>
    #define LO_HAVE_PCLMUL 1
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
    void lo_mul_row_xor(uint64_t* dst, const uint64_t* src, Py_ssize_t n, uint64_t m) noexcept nogil
    void lo_apply_matrix(uint64_t* oa, uint64_t* ob, const uint64_t* a, const uint64_t* b,
                         Py_ssize_t n, uint64_t m00, uint64_t m01, uint64_t m10,
                         uint64_t m11) noexcept nogil


# Below this many words per operand, schoolbook products (one row pass per word)
# beat Karatsuba's extra additions and allocations.
cdef Py_ssize_t KARATSUBA_WORDS = 32
# Word operations between two check-ins with Python (about a millisecond).
cdef Py_ssize_t CHUNK_WORD_OPS = 1 << 22


def have_pclmul():
    """True when this build multiplies with PCLMULQDQ (the avx2/avx512 builds).

    Example:
        >>> have_pclmul() in (True, False)
        True
    """
    return bool(LO_HAVE_PCLMUL)


# ---------------------------------------------------------------------------
# Word-array primitives

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


cdef void xor_shifted(uint64_t* dst, Py_ssize_t ndst, const uint64_t* src, Py_ssize_t nsrc,
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


cdef void mul_school(uint64_t* out, const uint64_t* a, Py_ssize_t na, const uint64_t* b,
                     Py_ssize_t nb) noexcept nogil:
    """out[0 : na+nb] ^= a*b, one pass over a per word of b (b the shorter)."""
    cdef Py_ssize_t j
    for j in range(nb):
        lo_mul_row_xor(out + j, a, na, b[j])


cdef int mul_kara(uint64_t* out, const uint64_t* a, const uint64_t* b, Py_ssize_t n) noexcept nogil:
    """out[0 : 2n] ^= a*b for two n-word operands; -1 if out of memory.

    a = a0 + t^(64h) a1 (h = ceil(n/2) words low), likewise b:
    a*b = p0 + t^(64h) (p0 + p1 + p2) + t^(128h) p2 with p0 = a0 b0, p2 = a1 b1,
    p1 = (a0 + a1)(b0 + b1): three half-size products instead of four.
    """
    cdef Py_ssize_t h, l
    cdef uint64_t* scratch
    cdef uint64_t* sa
    cdef uint64_t* sb
    cdef uint64_t* mid
    cdef uint64_t* p0
    cdef uint64_t* p2
    if n < KARATSUBA_WORDS:
        mul_school(out, a, n, b, n)
        return 0
    h = (n + 1) >> 1
    l = n - h
    scratch = <uint64_t*>calloc(8 * h, sizeof(uint64_t))
    if scratch == NULL:
        return -1
    sa = scratch
    sb = scratch + h
    mid = scratch + 2 * h
    p0 = scratch + 4 * h
    p2 = scratch + 6 * h
    copy_row(sa, a, h)
    xor_into(sa, a + h, l)
    copy_row(sb, b, h)
    xor_into(sb, b + h, l)
    if (mul_kara(mid, sa, sb, h) < 0 or mul_kara(p0, a, b, h) < 0
            or mul_kara(p2, a + h, b + h, l) < 0):
        free(scratch)
        return -1
    xor_into(mid, p0, 2 * h)
    xor_into(mid, p2, 2 * l)
    xor_into(out, p0, 2 * h)
    xor_into(out + 2 * h, p2, 2 * l)
    xor_into(out + h, mid, min(2 * h, 2 * n - h))
    free(scratch)
    return 0


cdef int mul_words(uint64_t* out, const uint64_t* a, Py_ssize_t na, const uint64_t* b,
                   Py_ssize_t nb) noexcept nogil:
    """out[0 : na+nb] ^= a*b for any lengths; -1 if out of memory.

    Unbalanced operands are cut into pieces as long as the shorter one, so every
    Karatsuba call is balanced.
    """
    cdef const uint64_t* tp
    cdef Py_ssize_t tn, off
    if na > nb:
        tp = a; a = b; b = tp
        tn = na; na = nb; nb = tn
    if na == 0:
        return 0
    if na < KARATSUBA_WORDS:
        mul_school(out, b, nb, a, na)
        return 0
    off = 0
    while off + na <= nb:
        if mul_kara(out + off, a, b + off, na) < 0:
            return -1
        off += na
    if off < nb:
        return mul_words(out + off, a, na, b + off, nb - off)
    return 0


cdef Py_ssize_t divide_inplace(uint64_t* r, Py_ssize_t nr, const uint64_t* b, Py_ssize_t nb,
                               uint64_t* q, Py_ssize_t nq, uint64_t* tmp) noexcept nogil:
    """r <- r mod b, and q ^= r div b when q is not NULL; returns deg r.

    b must be nonzero; tmp is scratch of nb + 1 words; q needs room for the
    quotient's deg r - deg b + 1 bits.  Each pass clears up to 64 leading
    coefficients of r with one carry-less product of b by a quotient word.
    """
    cdef Py_ssize_t db = highest_set_bit(b, nb)
    cdef Py_ssize_t nbw = words_for_bits(db + 1)
    cdef uint64_t bw = bits64_at(b, nbw, db - 63)
    cdef Py_ssize_t dr = highest_set_bit(r, nr), k, off
    cdef int nbits
    cdef uint64_t qw
    while dr >= db:
        k = dr - db
        nbits = 64 if k >= 63 else <int>(k + 1)
        qw = quotient_window(bits64_at(r, nr, dr - 63), bw, nbits)
        off = k - nbits + 1
        zero_row(tmp, nbw + 1)
        lo_mul_row_xor(tmp, b, nbw, qw)
        xor_shifted(r, words_for_bits(dr + 1), tmp, nbw + 1, off)
        if q != NULL:
            xor_shifted(q, nq, &qw, 1, off)
        dr = highest_set_bit(r, words_for_bits(dr + 1))
    return dr


cdef void taylor_shift_inplace(uint64_t* a, Py_ssize_t n) noexcept nogil:
    """a(t) <- a(t + 1) in place over n words.

    Over GF(2), (t + 1)^m = t^m + 1 for m a power of two, so with
    a = lo + t^m hi (deg lo, deg hi < m): a(t+1) = [lo(t+1) + hi(t+1)] + t^m hi(t+1).
    Bottom-up over m = 1, 2, 4, ...: every block of 2m coefficients gets its high
    half XORed into its low half.  O(n log n) word operations.
    """
    cdef uint64_t masks[6]
    cdef Py_ssize_t i, h, blk, top
    cdef int lvl, m
    cdef uint64_t w
    masks[0] = 0x5555555555555555ULL
    masks[1] = 0x3333333333333333ULL
    masks[2] = 0x0F0F0F0F0F0F0F0FULL
    masks[3] = 0x00FF00FF00FF00FFULL
    masks[4] = 0x0000FFFF0000FFFFULL
    masks[5] = 0x00000000FFFFFFFFULL
    for i in range(n):
        w = a[i]
        m = 1
        for lvl in range(6):
            w ^= (w >> m) & masks[lvl]
            m <<= 1
        a[i] = w
    h = 1
    while h < n:
        blk = 0
        while blk + h < n:
            top = min(h, n - blk - h)
            xor_into(a + blk, a + blk + h, top)
            blk += 2 * h
        h <<= 1


cdef void chebyshev_u_into(uint64_t* out, Py_ssize_t k) noexcept nogil:
    """out |= U_k(t) over GF(2) (U_0 = 0, U_1 = 1, U_{k+1} = t U_k + U_{k-1}); out needs
    words_for_bits(k) zero words.

    By Lucas' theorem the coefficient of t^(k-1-2i) is binom(k-1-i, i) mod 2,
    which is 1 exactly when i and k-1-2i share no set bit.
    """
    cdef Py_ssize_t i, j
    for i in range((k - 1) // 2 + 1 if k > 0 else 0):
        j = k - 1 - 2 * i
        if (i & j) == 0:
            out[j >> 6] |= (<uint64_t>1) << (j & 63)


# ---------------------------------------------------------------------------
# Euclid, 64 coefficients at a time

cdef class _Euclid:
    """Euclid's algorithm on (a, b), optionally tracking the cofactor of a.

    Invariants: A = SA*a (mod b) and B = SB*a (mod b) when tracking; gcd(A, B) =
    gcd(a, b); spare buffers T1..T4 are all zero between windows; every buffer is
    zero past its polynomial's degree.  Each window either
      * (Lehmer step) runs the bit-at-a-time Euclid steps on the top 64
        coefficients of A and B while their leading terms are still exact,
        recording them as a 2x2 matrix of <= 64-bit polynomials, then applies
        the matrix to the full A, B (and SA, SB) with carry-less products, or
      * (division step) when deg B < deg A - 63, clears 64 leading coefficients
        of A with one quotient word, as in divide_inplace.
    """
    cdef uint64_t* mem
    cdef uint64_t* A
    cdef uint64_t* B
    cdef uint64_t* SA
    cdef uint64_t* SB
    cdef uint64_t* T1
    cdef uint64_t* T2
    cdef uint64_t* T3
    cdef uint64_t* T4
    cdef Py_ssize_t cap, scap, da, db, dsa, dsb
    cdef readonly Py_ssize_t total
    cdef bint track

    def __cinit__(self, const uint64_t[::1] a, const uint64_t[::1] b, bint track):
        cdef Py_ssize_t na = highest_set_bit(&a[0], a.shape[0])
        cdef Py_ssize_t nb = highest_set_bit(&b[0], b.shape[0])
        self.cap = words_for_bits(max(na, nb) + 1) + 2
        self.scap = self.cap + 2
        self.mem = <uint64_t*>calloc(4 * self.cap + 4 * self.scap, sizeof(uint64_t))
        if self.mem == NULL:
            raise MemoryError("out of memory allocating Euclid buffers")
        self.A = self.mem
        self.B = self.A + self.cap
        self.T1 = self.B + self.cap
        self.T2 = self.T1 + self.cap
        self.SA = self.T2 + self.cap
        self.SB = self.SA + self.scap
        self.T3 = self.SB + self.scap
        self.T4 = self.T3 + self.scap
        copy_row(self.A, &a[0], words_for_bits(na + 1))
        copy_row(self.B, &b[0], words_for_bits(nb + 1))
        self.da = na
        self.db = nb
        self.track = track
        self.SA[0] = 1
        self.dsa = 0
        self.dsb = -1
        self.total = max(na, 0) + max(nb, 0)

    def __dealloc__(self):
        free(self.mem)

    cdef Py_ssize_t remaining(self) noexcept nogil:
        return max(self.da, 0) + max(self.db, 0)

    cdef void swap(self) noexcept nogil:
        self.A, self.B = self.B, self.A
        self.SA, self.SB = self.SB, self.SA
        self.da, self.db = self.db, self.da
        self.dsa, self.dsb = self.dsb, self.dsa

    cdef bint run(self, Py_ssize_t max_windows) noexcept nogil:
        """Advance by at most max_windows windows; True once B == 0 (gcd in A)."""
        cdef Py_ssize_t i
        for i in range(max_windows):
            if self.da < self.db:
                self.swap()
            if self.db < 0:
                return True
            if self.da - self.db > 63:
                self.divide_window()
            else:
                self.lehmer_window()
        if self.da < self.db:
            self.swap()
        return self.db < 0

    cdef void divide_window(self) noexcept nogil:
        cdef Py_ssize_t na = words_for_bits(self.da + 1), nb = words_for_bits(self.db + 1)
        cdef Py_ssize_t off = self.da - self.db - 63, ns
        cdef uint64_t qw = quotient_window(bits64_at(self.A, na, self.da - 63),
                                           bits64_at(self.B, nb, self.db - 63), 64)
        lo_mul_row_xor(self.T1, self.B, nb, qw)
        xor_shifted(self.A, na, self.T1, nb + 1, off)
        zero_row(self.T1, nb + 1)
        self.da = highest_set_bit(self.A, na)
        if self.track and self.dsb >= 0:
            ns = words_for_bits(self.dsb + 1)
            lo_mul_row_xor(self.T3, self.SB, ns, qw)
            xor_shifted(self.SA, self.scap, self.T3, ns + 1, off)
            zero_row(self.T3, ns + 1)
            self.dsa = highest_set_bit(self.SA, self.scap)

    cdef void lehmer_window(self) noexcept nogil:
        cdef Py_ssize_t na = words_for_bits(self.da + 1), ns
        cdef Py_ssize_t lo = self.da - 63
        cdef uint64_t aw = bits64_at(self.A, na, lo), bw = bits64_at(self.B, na, lo)
        cdef uint64_t m00 = 1, m01 = 0, m10 = 0, m11 = 1
        cdef int la, lb, dra = 0, drb = 0, s
        cdef uint64_t* tmp
        # Row degrees dra/drb bound how far up the ignored low coefficients of
        # A, B can reach in the windows: bits at or above them are exact.
        while True:
            la = lead(aw)
            lb = lead(bw)
            if la < lb:
                aw, bw = bw, aw
                m00, m10 = m10, m00
                m01, m11 = m11, m01
                dra, drb = drb, dra
                la, lb = lb, la
            if lb < 0 or lb < drb or la < dra:
                break
            s = la - lb
            aw ^= bw << s
            m00 ^= m10 << s
            m01 ^= m11 << s
            dra = lead(m00 | m01)
        lo_apply_matrix(self.T1, self.T2, self.A, self.B, na, m00, m01, m10, m11)
        tmp = self.A; self.A = self.T1; self.T1 = tmp
        tmp = self.B; self.B = self.T2; self.T2 = tmp
        zero_row(self.T1, na + 1)
        zero_row(self.T2, na + 1)
        self.da = highest_set_bit(self.A, na + 1)
        self.db = highest_set_bit(self.B, na + 1)
        if self.track:
            ns = words_for_bits(max(self.dsa, self.dsb) + 1)
            lo_apply_matrix(self.T3, self.T4, self.SA, self.SB, ns, m00, m01, m10, m11)
            tmp = self.SA; self.SA = self.T3; self.T3 = tmp
            tmp = self.SB; self.SB = self.T4; self.T4 = tmp
            zero_row(self.T3, ns + 1)
            zero_row(self.T4, ns + 1)
            self.dsa = highest_set_bit(self.SA, ns + 1)
            self.dsb = highest_set_bit(self.SB, ns + 1)

    def finish(self, progress=None, str stage="gcd"):
        """Run to the end, checking in with Python between chunks; returns (g, s)."""
        cdef bint done = False
        cdef Py_ssize_t windows = max(1, CHUNK_WORD_OPS // (8 * (self.cap + 1)))
        while not done:
            with nogil:
                done = self.run(windows)
            PyErr_CheckSignals()
            if progress is not None:
                progress(stage, self.total - self.remaining(), self.total)
        g = _copy_trimmed(self.A, self.cap)
        s = _copy_trimmed(self.SA, self.scap) if self.track else None
        return g, s


# ---------------------------------------------------------------------------
# Argument checks and result arrays (GIL held)

cdef object _copy_trimmed(const uint64_t* src, Py_ssize_t n):
    cdef Py_ssize_t nw = max(1, words_for_bits(highest_set_bit(src, n) + 1))
    out = np.zeros(nw, dtype=np.uint64)
    cdef uint64_t[::1] view = out
    copy_row(&view[0], src, min(nw, n))
    return out


cdef object _copy_trimmed_arr(object a):
    cdef const uint64_t[::1] v = a
    return _copy_trimmed(&v[0], v.shape[0])


cdef object _poly_arg(object a, str name):
    """Check a polynomial argument: a packed 1-D uint64 row of any length (empty = zero)."""
    cdef Py_ssize_t nwords = a.shape[0] if isinstance(a, np.ndarray) and a.ndim == 1 else 1
    a = packed_vector(a, name, nbits=64 * nwords)
    if a.shape[0] == 0:
        return np.zeros(1, dtype=np.uint64)
    return a


cdef Py_ssize_t _deg(const uint64_t[::1] a) noexcept:
    return highest_set_bit(&a[0], a.shape[0])


# ---------------------------------------------------------------------------
# Polynomial arithmetic (public kernels)

def poly_degree(a):
    """Degree of a packed polynomial; -1 for the zero polynomial.

    Example:
        >>> poly_degree(np.array([0b1011], dtype=np.uint64))
        3
    """
    return _deg(_poly_arg(a, "a"))


def poly_add(a, b):
    """a + b (coefficient-wise XOR), trimmed.

    Example:
        >>> poly_add(np.array([0b110], dtype=np.uint64), np.array([0b011], dtype=np.uint64)).tolist()
        [5]
    """
    a = _poly_arg(a, "a")
    b = _poly_arg(b, "b")
    if a.shape[0] < b.shape[0]:
        a, b = b, a
    out = a.copy()
    out[: b.shape[0]] ^= b
    return _copy_trimmed_arr(out)


def poly_shift(a, Py_ssize_t k):
    """a * t^k for k >= 0; for k < 0 the quotient of a by t^(-k) (low terms dropped).

    Example:
        >>> poly_shift(np.array([0b101], dtype=np.uint64), 2).tolist(), poly_shift(np.array([0b101], dtype=np.uint64), -2).tolist()
        ([20], [1])
    """
    a = _poly_arg(a, "a")
    cdef const uint64_t[::1] av = a
    cdef Py_ssize_t d = _deg(av), nd
    if d < 0 or d + k < 0:
        return np.zeros(1, dtype=np.uint64)
    nd = d + k
    out = np.zeros(words_for_bits(nd + 1), dtype=np.uint64)
    cdef uint64_t[::1] ov = out
    cdef Py_ssize_t i, n = ov.shape[0]
    if k >= 0:
        xor_shifted(&ov[0], n, &av[0], words_for_bits(d + 1), k)
    else:
        for i in range(n):
            ov[i] = bits64_at(&av[0], av.shape[0], 64 * i - k)
        ov[n - 1] &= tail_mask(nd + 1)
    return out


def poly_mul(a, b):
    """a * b, carry-less (Karatsuba above KARATSUBA_WORDS words), trimmed.

    Example:
        >>> poly_mul(np.array([0b11], dtype=np.uint64), np.array([0b11], dtype=np.uint64)).tolist()
        [5]
    """
    cdef const uint64_t[::1] av = _poly_arg(a, "a")
    cdef const uint64_t[::1] bv = _poly_arg(b, "b")
    cdef Py_ssize_t na = words_for_bits(_deg(av) + 1), nb = words_for_bits(_deg(bv) + 1)
    out = np.zeros(max(1, na + nb), dtype=np.uint64)
    cdef uint64_t[::1] ov = out
    cdef int status
    with nogil:
        status = mul_words(&ov[0], &av[0], na, &bv[0], nb)
    if status < 0:
        raise MemoryError("out of memory in poly_mul")
    return _copy_trimmed_arr(out)


def poly_divmod(a, b):
    """(q, r) with a = q*b + r and deg r < deg b.  Raises ZeroDivisionError for b = 0.

    Example:
        >>> q, r = poly_divmod(np.array([0b1011], dtype=np.uint64), np.array([0b11], dtype=np.uint64))
        >>> q.tolist(), r.tolist()
        ([6], [1])
    """
    cdef const uint64_t[::1] av = _poly_arg(a, "a")
    cdef const uint64_t[::1] bv = _poly_arg(b, "b")
    cdef Py_ssize_t da = _deg(av), db = _deg(bv)
    if db < 0:
        raise ZeroDivisionError("poly_divmod: division by the zero polynomial")
    cdef Py_ssize_t nr = max(1, words_for_bits(da + 1)), nb = words_for_bits(db + 1)
    cdef Py_ssize_t nq = max(1, words_for_bits(da - db + 1))
    r = np.zeros(nr, dtype=np.uint64)
    q = np.zeros(nq, dtype=np.uint64)
    tmp = np.zeros(nb + 1, dtype=np.uint64)
    cdef uint64_t[::1] rv = r, qv = q, tv = tmp
    copy_row(&rv[0], &av[0], words_for_bits(da + 1))
    with nogil:
        divide_inplace(&rv[0], nr, &bv[0], nb, &qv[0], nq, &tv[0])
    return _copy_trimmed_arr(q), _copy_trimmed_arr(r)


def poly_mod(a, b):
    """a mod b (see poly_divmod), without building the quotient.

    Example:
        >>> poly_mod(np.array([0b1011], dtype=np.uint64), np.array([0b11], dtype=np.uint64)).tolist()
        [1]
    """
    cdef const uint64_t[::1] av = _poly_arg(a, "a")
    cdef const uint64_t[::1] bv = _poly_arg(b, "b")
    cdef Py_ssize_t da = _deg(av), db = _deg(bv)
    if db < 0:
        raise ZeroDivisionError("poly_mod: division by the zero polynomial")
    cdef Py_ssize_t nr = max(1, words_for_bits(da + 1)), nb = words_for_bits(db + 1)
    r = np.zeros(nr, dtype=np.uint64)
    tmp = np.zeros(nb + 1, dtype=np.uint64)
    cdef uint64_t[::1] rv = r, tv = tmp
    copy_row(&rv[0], &av[0], words_for_bits(da + 1))
    with nogil:
        divide_inplace(&rv[0], nr, &bv[0], nb, NULL, 0, &tv[0])
    return _copy_trimmed_arr(r)


def poly_gcd(a, b, progress=None):
    """gcd(a, b) (monic, as every nonzero polynomial over GF(2) is); gcd(0, 0) = 0.

    Example:
        >>> poly_gcd(np.array([0b110], dtype=np.uint64), np.array([0b1010], dtype=np.uint64)).tolist()
        [6]
    """
    g, _ = _Euclid(_poly_arg(a, "a"), _poly_arg(b, "b"), False).finish(progress)
    return g


def poly_gcd_cofactor(a, b, progress=None):
    """(g, s) with g = gcd(a, b) and s*a = g (mod b): the half of the extended gcd
    that inverts a modulo b / g.  s is Euclid's cofactor (not reduced).

    Example:
        >>> g, s = poly_gcd_cofactor(np.array([0b10], dtype=np.uint64), np.array([0b111], dtype=np.uint64))
        >>> g.tolist(), s.tolist()
        ([1], [3])
    """
    return _Euclid(_poly_arg(a, "a"), _poly_arg(b, "b"), True).finish(progress)


def poly_xgcd(a, b):
    """(g, s, t) with s*a + t*b = g = gcd(a, b).

    Canonical cofactors: when b/g has degree >= 1, deg s < deg(b/g) (which makes
    s and t unique, and deg t < deg(a/g)); when b/g is constant, s = 0 unless
    b = 0 (then s = 1, t = 0).  gcd(0, 0) returns (0, 0, 0).

    Example:
        >>> g, s, t = poly_xgcd(np.array([0b10], dtype=np.uint64), np.array([0b111], dtype=np.uint64))
        >>> g.tolist(), s.tolist(), t.tolist()
        ([1], [3], [1])
    """
    a = _poly_arg(a, "a")
    b = _poly_arg(b, "b")
    zero = np.zeros(1, dtype=np.uint64)
    one = np.ones(1, dtype=np.uint64)
    if _deg(b) < 0:
        if _deg(a) < 0:
            return zero, zero.copy(), zero.copy()
        return _copy_trimmed_arr(a), one, zero
    g, s = _Euclid(a, b, True).finish()
    s = poly_mod(s, poly_divmod(b, g)[0])
    # t = (g - s a) / b, exact.
    t, rem = poly_divmod(poly_add(g, poly_mul(s, a)), b)
    assert _deg(rem) < 0, "poly_xgcd: cofactor identity failed"
    return g, s, t


def poly_taylor_shift(a):
    """a(t + 1), in O(n log n) word operations.

    Example:
        >>> poly_taylor_shift(np.array([0b100], dtype=np.uint64)).tolist()  # t^2 -> t^2 + 1
        [5]
    """
    out = _poly_arg(a, "a").copy()
    cdef uint64_t[::1] ov = out
    with nogil:
        taylor_shift_inplace(&ov[0], ov.shape[0])
    return _copy_trimmed_arr(out)


def chebyshev_u(Py_ssize_t k):
    """U_k(t) over GF(2): U_0 = 0, U_1 = 1, U_{k+1} = t U_k + U_{k-1}; O(k) bit operations.

    Example:
        >>> [chebyshev_u(k).tolist() for k in range(5)]
        [[0], [1], [2], [5], [8]]
    """
    if k < 0:
        raise InvalidBoardError(f"chebyshev_u: k must be >= 0, got {k}")
    out = np.zeros(max(1, words_for_bits(k)), dtype=np.uint64)
    cdef uint64_t[::1] ov = out
    with nogil:
        chebyshev_u_into(&ov[0], k)
    return out


# ---------------------------------------------------------------------------
# The route's O(C^2/64) loops: coordinates <-> polynomials

cdef void w_steps(uint64_t* acc, uint64_t* wbuf, Py_ssize_t stride, const uint64_t* c,
                  Py_ssize_t j0, Py_ssize_t j1) noexcept nogil:
    """For j in [j0, j1): acc += c_{j-1} W_j, then W_{j+1} = (t+1) W_j + W_{j-1}.

    W_j lives in row j & 1 of wbuf, so W_{j+1} overwrites W_{j-1}.  deg W_j = j - 1,
    so step j touches only words_for_bits(j + 1) words.
    """
    cdef Py_ssize_t j, i, n
    cdef uint64_t* cur
    cdef uint64_t* nxt
    for j in range(j0, j1):
        cur = wbuf + (j & 1) * stride
        nxt = wbuf + ((j + 1) & 1) * stride
        n = words_for_bits(j + 1)
        if get_bit(c, j - 1):
            xor_into(acc, cur, words_for_bits(j))
        # (t + 1) W_j: the lower half of the T stencil (each word and its up shift).
        nxt[0] ^= cur[0] ^ up_word(cur[0], 0)
        for i in range(1, n):
            nxt[i] ^= cur[i] ^ up_word(cur[i], cur[i - 1])


def w_combination(c, Py_ssize_t ncols, progress=None):
    """phi^{-1}(c) = sum_{j=1..ncols} c_j W_j(t), W_j = U_j(t+1) (docs/algebra.md section 2).

    c is a packed row of ncols bits (bit j-1 = c_j).  Because phi(W_j) = e_j, the
    result is the polynomial F (deg < ncols) with F(T) e_1 = c.

    Example:
        >>> w_combination(np.array([0b100], dtype=np.uint64), 3).tolist()  # W_3 = U_3(t+1) = (t+1)^2 + 1 = t^2
        [4]
    """
    board_size(ncols, "ncols")
    c = packed_vector(c, "c", nbits=ncols)
    cdef const uint64_t[::1] cv = c
    cdef Py_ssize_t stride = words_for_bits(ncols + 1), j = 1, j_end
    acc = np.zeros(stride, dtype=np.uint64)
    wbuf = np.zeros((2, stride), dtype=np.uint64)
    wbuf[1, 0] = 1  # W_1 = 1 (row 1), W_0 = 0 (row 0)
    cdef uint64_t[::1] accv = acc
    cdef uint64_t[:, ::1] wv = wbuf
    while j <= ncols:
        # Steps cost up to `stride` words each: chunk by the largest, so check-ins
        # come at least every CHUNK_WORD_OPS word operations.
        j_end = min(ncols + 1, j + max(1, CHUNK_WORD_OPS // stride))
        with nogil:
            w_steps(&accv[0], &wv[0, 0], stride, &cv[0], j, j_end)
        j = j_end
        PyErr_CheckSignals()
        if progress is not None:
            progress("convert", j - 1, ncols)
    return _copy_trimmed_arr(acc)


cdef void horner_steps(uint64_t* vbuf, Py_ssize_t stride, const uint64_t* f, Py_ssize_t d,
                       Py_ssize_t ncols, Py_ssize_t i0, Py_ssize_t i1) noexcept nogil:
    """Horner steps v <- T v + f_i e_1 for i = i0, i0-1, ..., i1+1 (from the top).

    After the step for coefficient i, v = sum_{k >= i} f_k T^(k-i) e_1 lives in
    row i & 1 and has support in its first d - i + 1 bits, so only those words move.
    """
    cdef Py_ssize_t i, nbits
    cdef uint64_t* src
    cdef uint64_t* dst
    for i in range(i0, i1, -1):
        src = vbuf + ((i + 1) & 1) * stride
        dst = vbuf + (i & 1) * stride
        nbits = min(ncols, d - i + 1)
        apply_T(dst, src, words_for_bits(nbits), nbits)
        if get_bit(f, i):
            dst[0] ^= 1


def phi_image(f, Py_ssize_t ncols, progress=None):
    """phi(F) = F(T) e_1 as a packed row of ncols bits, for deg F < ncols (Horner).

    Example:
        >>> phi_image(np.array([0b10], dtype=np.uint64), 3).tolist()  # T e_1 = e_1 + e_2
        [3]
    """
    board_size(ncols, "ncols")
    f = _poly_arg(f, "f")
    cdef const uint64_t[::1] fv = f
    cdef Py_ssize_t d = _deg(fv), i, i_end
    if d >= ncols:
        raise InvalidBoardError(f"phi_image needs deg F < ncols = {ncols}, got degree {d}")
    cdef Py_ssize_t stride = words_for_bits(ncols)
    vbuf = np.zeros((2, stride), dtype=np.uint64)
    cdef uint64_t[:, ::1] vv = vbuf
    i = d
    while i >= 0:
        i_end = max(-1, i - max(1, CHUNK_WORD_OPS // stride))  # stride bounds each step's words
        with nogil:
            horner_steps(&vv[0, 0], stride, &fv[0], d, ncols, i, i_end)
        i = i_end
        PyErr_CheckSignals()
        if progress is not None:
            progress("horner", d - i, d + 1)
    return vbuf[0].copy()  # the last step is i = 0, row 0 (an all-zero row when F = 0)


def apply_T_row(v, Py_ssize_t ncols):
    """phi(t F) = T phi(F): multiplication by t in row coordinates, on a packed row of ncols bits.

    Example:
        >>> apply_T_row(np.array([0b001], dtype=np.uint64), 3).tolist()
        [3]
    """
    board_size(ncols, "ncols")
    cdef const uint64_t[::1] vv = packed_vector(v, "v", nbits=ncols)
    cdef Py_ssize_t nw = words_for_bits(ncols)
    out = np.zeros(nw, dtype=np.uint64)
    cdef uint64_t[::1] ov = out
    apply_T(&ov[0], &vv[0], nw, ncols)
    return out
