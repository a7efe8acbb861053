# GF(2)[t] polynomial arithmetic, and the polynomial route's conversions
# between polynomials and packed rows (phi(F) = F(T) e_1 and its inverse,
# docs/algebra.md sections 2 and 4).  Light chasing lives in chase.pyx.
#
# A polynomial is a 1-D C-contiguous uint64 array: bit i (bit i & 63 of word
# i >> 6, least-significant bit first, as in bitrow.pxd) is the coefficient of
# t^i.  Arrays may carry zero words past the degree; every kernel keeps the bits
# past an operand's degree zero.  Results handed back to Python are trimmed to
# words_for_bits(deg + 1) words, at least one (the zero polynomial is [0]).
#
# Where the time goes and why the kernels look the way they do:
#   * Products use carry-less multiplication of whole words.  Builds with
#     -mpclmul (the avx2/avx512 variants) use PCLMULQDQ; the portable build
#     multiplies by four-bit windows from a 16-entry table.  Above
#     KARATSUBA_WORDS words, Karatsuba's three half-size products; above
#     _toom_words, Toom-3; above _fft_words, the additive FFT of gf2fft.h
#     (O(n log n) products in GF(2^64)), which also serves the 2x2 matrix
#     products of the half-gcd with one transform per operand (fmul_matrix).
#   * Division and Euclid work 64 coefficients at a time: the leading
#     coefficients of a quotient depend only on the leading coefficients of
#     the operands (no carries over GF(2)), so a whole word of quotient bits
#     or a whole 2x2 matrix of Euclid steps is found from the top 64 bits and
#     then applied to the full operands with one pass of carry-less products.
#   * Above tuned sizes (set_thresholds), the subquadratic paths of the section
#     "Subquadratic division and gcd": Toom-3 products above Karatsuba, Newton
#     division (poly_divmod, poly_mod) and the half-gcd (poly_gcd,
#     poly_gcd_cofactor, poly_xgcd); below them, the word-at-a-time loops above.
#   * The long loops run in chunks of about CHUNK_WORD_OPS word operations with
#     the GIL released; between chunks the def wrappers call PyErr_CheckSignals()
#     (Ctrl-C) and the progress callback.
#
# The word loops (products, division, Taylor shift, the Euclid window steps) are
# inline kernels in polyword.pxd; this file is the
# Python-facing arithmetic and Euclid's driver.  It is compiled once per SIMD
# level (see setup.py).  def wrappers validate with the GIL held (through
# lightsout._base.validate) and run the cdef cores inside `with nogil`.

from cpython.exc cimport PyErr_CheckSignals
from cpython.pyport cimport PY_SSIZE_T_MAX
from libc.stdint cimport uint64_t
from libc.stdlib cimport calloc, free

from lightsout._kernels.bitrow cimport (
    apply_T, copy_row, highest_set_bit, tail_mask, words_for_bits, xor_into, zero_row,
)
from lightsout._kernels.polyword cimport (
    LO_HAVE_PCLMUL, Mat2, apply_mat2, bits64_at, chebyshev_u_into, divide_inplace, lead,
    KARATSUBA_WORDS, lehmer_matrix, quotient_window, sub_multiple_shifted, taylor_shift_inplace, xor_shifted,
)
from lightsout._kernels.polyconvert cimport basis_to_monomial_inplace, fill_fold_tables, monomial_to_basis_inplace

import numpy as np

from lightsout._base.errors import InvalidBoardError, InvalidTypeError
from lightsout._base.validate import board_size, packed_vector

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
        """deg B < deg A - 63: clear A's 64 leading coefficients with one quotient word."""
        cdef Py_ssize_t na = words_for_bits(self.da + 1), nb = words_for_bits(self.db + 1)
        cdef Py_ssize_t off = self.da - self.db - 63
        cdef uint64_t qw = quotient_window(bits64_at(self.A, na, self.da - 63),
                                           bits64_at(self.B, nb, self.db - 63), 64)
        sub_multiple_shifted(self.A, na, self.B, nb, qw, off, self.T1)
        self.da = highest_set_bit(self.A, na)
        if self.track and self.dsb >= 0:
            sub_multiple_shifted(self.SA, self.scap, self.SB, words_for_bits(self.dsb + 1), qw, off,
                                 self.T3)
            self.dsa = highest_set_bit(self.SA, self.scap)

    cdef void lehmer_window(self) noexcept nogil:
        """Up to 64 Euclid steps from the top words of A and B, applied as one matrix."""
        cdef Py_ssize_t na = words_for_bits(self.da + 1), ns
        cdef Mat2 m = lehmer_matrix(bits64_at(self.A, na, self.da - 63),
                                    bits64_at(self.B, na, self.da - 63), -1, False)
        apply_mat2(m, &self.A, &self.B, &self.T1, &self.T2, na)
        self.da = highest_set_bit(self.A, na + 1)
        self.db = highest_set_bit(self.B, na + 1)
        if self.track:
            ns = words_for_bits(max(self.dsa, self.dsb) + 1)
            apply_mat2(m, &self.SA, &self.SB, &self.T3, &self.T4, ns)
            self.dsa = highest_set_bit(self.SA, ns + 1)
            self.dsb = highest_set_bit(self.SB, ns + 1)

    def finish(self, progress=None):
        """Run to the end, checking in with Python between chunks; returns (g, s)."""
        cdef bint done = False
        cdef Py_ssize_t windows = max(1, CHUNK_WORD_OPS // (8 * (self.cap + 1)))
        while not done:
            with nogil:
                done = self.run(windows)
            PyErr_CheckSignals()
            if progress is not None:
                progress("gcd", self.total - self.remaining(), self.total)
        g = _copy_trimmed(self.A, self.cap)
        s = _copy_trimmed(self.SA, self.scap) if self.track else None
        return g, s


# ---------------------------------------------------------------------------
# Subquadratic division and gcd (issue 9 part A): Newton division, half-gcd
#
# Newton division (docs/algebra.md section 4): with rev_k(p) = t^k p(1/t), the
# quotient of a (degree n) by b (degree m) is q = rev_{n-m}(rev_n(a) *
# rev_m(b)^-1 mod t^(n-m+1)); the inverse of rev_m(b) (constant term 1) comes
# from Newton's iteration g <- g (1 + h g), which doubles the number of
# correct words per step, and r = a - q b.  A few products, O(M(n)).
#
# Half-gcd: hgcd(a, b) with deg a = n >= deg b returns the 2x2 matrix M of the
# Euclid steps from (a, b) to the consecutive remainders (c, d) = M (a, b)
# with deg c >= ceil(n/2) > deg d, together with c and d.  The steps that a
# pair's top half decides are the first steps of the whole pair, so M comes
# from two recursive calls on top halves (of (a, b), then of the pair reached
# after one division), and c, d from t^m (c0, d0) + R (a mod t^m, b mod t^m)
# without a full-size product.  With Karatsuba products the total cost is a
# constant times one full-size product.  Below a threshold the leaves run
# Lehmer's word-at-a-time steps, stopped exactly at degree ceil(n/2).
# poly_gcd / poly_gcd_cofactor alternate hgcd and one division until the
# operands are small, then finish with Lehmer.
#
# Every buffer belongs to one call (no global mutable state besides the
# thresholds, read once per call); cores are nogil and return a status (0, -1
# out of memory, -2 interrupted, -3 internal error); nodes of at least
# POLL_BITS coefficients call _hgcd_poll, which takes the GIL for
# PyErr_CheckSignals() and the progress callback.

cdef extern from *:
    """
    static inline uint64_t lo_bitrev64(uint64_t x) {
        x = ((x >> 1) & 0x5555555555555555ULL) | ((x & 0x5555555555555555ULL) << 1);
        x = ((x >> 2) & 0x3333333333333333ULL) | ((x & 0x3333333333333333ULL) << 2);
        x = ((x >> 4) & 0x0F0F0F0F0F0F0F0FULL) | ((x & 0x0F0F0F0F0F0F0F0FULL) << 4);
    #if defined(_MSC_VER)
        return _byteswap_uint64(x);
    #else
        return __builtin_bswap64(x);
    #endif
    }
    """
    uint64_t lo_bitrev64(uint64_t x) noexcept nogil

# Tuned thresholds (set_thresholds() overrides them, e.g. to drive small inputs
# through the recursion in tests).  Measured on the avx512 build, 2026-11-22.
cdef Py_ssize_t _newton_words = 256  # divmod: Newton when quotient and divisor both have >= this many words
cdef Py_ssize_t _hgcd_words = 16     # half-gcd: Lehmer leaves below this many words
cdef Py_ssize_t _gcd_words = 160     # gcd / cofactor: half-gcd when the larger operand has >= this many words
cdef Py_ssize_t _toom_words = 128    # products: Toom-3 above Karatsuba from this many words per operand
cdef Py_ssize_t _fft_words = 1024    # products: the additive FFT from this many words in the smaller operand (2026-11-25)
cdef Py_ssize_t POLL_BITS = 1 << 18  # half-gcd nodes this large check in with Python


def set_thresholds(newton_words=None, hgcd_words=None, gcd_words=None, toom_words=None, fft_words=None):
    """Override the fast-path thresholds (in 64-bit words); returns the previous values.

    newton_words: poly_divmod / poly_mod use Newton division when the quotient
    and the divisor both have at least this many words (else schoolbook).
    hgcd_words: half-gcd recursion nodes below this many words run Lehmer's
    steps.  gcd_words: poly_gcd, poly_gcd_cofactor and poly_xgcd use the
    half-gcd when the larger operand has at least this many words (else
    Lehmer's Euclid).  toom_words: products (poly_mul and those inside the
    fast paths) use Toom-3 above Karatsuba when both operands have at least
    this many words (at least 12 whatever the setting).  fft_words: products
    use the additive FFT (gf2fft.h) when the smaller operand has at least this
    many words.  A huge value turns a
    fast path off.  The values are
    module settings (read once at the start of each call); tests use them to
    drive small inputs through the recursion and to call the slow paths.

    Raises:
        InvalidTypeError: a threshold that is not an int (bools refused).
        InvalidBoardError: a threshold outside 1..PY_SSIZE_T_MAX (2**63 - 1);
            nothing is set then.

    Example:
        >>> old = set_thresholds(gcd_words=2, hgcd_words=1)
        >>> poly_gcd(np.array([0b110], dtype=np.uint64), np.array([0b1010], dtype=np.uint64)).tolist()
        [6]
        >>> _ = set_thresholds(**old)
    """
    global _newton_words, _hgcd_words, _gcd_words, _toom_words, _fft_words
    old = thresholds()
    newton_words = _threshold("newton_words", newton_words)
    hgcd_words = _threshold("hgcd_words", hgcd_words)
    gcd_words = _threshold("gcd_words", gcd_words)
    toom_words = _threshold("toom_words", toom_words)
    fft_words = _threshold("fft_words", fft_words)
    # every argument is checked before any is set: a refused call changes nothing
    if newton_words is not None:
        _newton_words = newton_words
    if hgcd_words is not None:
        _hgcd_words = hgcd_words
    if gcd_words is not None:
        _gcd_words = gcd_words
    if toom_words is not None:
        _toom_words = toom_words
    if fft_words is not None:
        _fft_words = fft_words
    return old


cdef object _threshold(str name, object value):
    """A threshold argument as a Python int in 1..PY_SSIZE_T_MAX, None left as it is (or raise)."""
    if value is None:
        return None
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)):
        raise InvalidTypeError(f"set_thresholds: {name} must be an int (words), got {type(value).__name__}")
    if not 1 <= value <= PY_SSIZE_T_MAX:
        raise InvalidBoardError(f"set_thresholds: {name} must be in 1..{PY_SSIZE_T_MAX} words (2**63 - 1 "
                                f"on 64-bit builds; a value past every operand turns that path off), "
                                f"got {value}")
    return int(value)


def thresholds():
    """The fast-path thresholds in words, as a dict (see set_thresholds).

    Example:
        >>> sorted(thresholds())
        ['fft_words', 'gcd_words', 'hgcd_words', 'newton_words', 'toom_words']
    """
    return {"newton_words": _newton_words, "hgcd_words": _hgcd_words, "gcd_words": _gcd_words,
            "toom_words": _toom_words, "fft_words": _fft_words}


cdef enum:
    WANT_NONE = 0
    WANT_COLUMN = 1
    WANT_MATRIX = 2


cdef struct Pl:
    # An owned polynomial: n words allocated (zero past the degree d; d = -1 for zero).
    uint64_t* w
    Py_ssize_t n
    Py_ssize_t d


cdef struct PMat:
    # (x, y) -> (e[0] x + e[1] y, e[2] x + e[3] y)
    Pl e[4]


cdef struct HCtx:
    Py_ssize_t base_bits     # hgcd leaves below this degree
    Py_ssize_t newton_words
    Py_ssize_t qsum          # degrees of the quotients found so far (progress)
    Py_ssize_t top           # degree of the larger operand at the start
    Py_ssize_t total         # progress total
    void* state              # a _PollState, or NULL


cdef inline void pl_null(Pl* p) noexcept nogil:
    p.w = NULL
    p.n = 0
    p.d = -1


cdef inline int pl_new(Pl* p, Py_ssize_t n) noexcept nogil:
    if n < 1:
        n = 1
    p.w = <uint64_t*>calloc(n, sizeof(uint64_t))
    p.n = n
    p.d = -1
    return -1 if p.w == NULL else 0


cdef inline void pl_free(Pl* p) noexcept nogil:
    free(p.w)
    pl_null(p)


cdef inline Py_ssize_t pl_nw(const Pl* p) noexcept nogil:
    return words_for_bits(p.d + 1)


cdef inline void pl_fix(Pl* p) noexcept nogil:
    p.d = highest_set_bit(p.w, p.n)


cdef inline int pl_copy(Pl* dst, const uint64_t* src, Py_ssize_t d) noexcept nogil:
    if pl_new(dst, words_for_bits(d + 1)) < 0:
        return -1
    copy_row(dst.w, src, words_for_bits(d + 1))
    dst.d = d
    return 0


cdef inline int pl_shift_down(Pl* dst, const Pl* src, Py_ssize_t k) noexcept nogil:
    """dst = src div t^k (k >= 0)."""
    cdef Py_ssize_t i, nd = words_for_bits(src.d - k + 1) if src.d >= k else 0
    if pl_new(dst, nd) < 0:
        return -1
    for i in range(nd):
        dst.w[i] = bits64_at(src.w, pl_nw(src), k + 64 * i)
    dst.d = src.d - k if src.d >= k else -1
    return 0


cdef inline void pl_swap(Pl* x, Pl* y) noexcept nogil:
    cdef Pl t = x[0]
    x[0] = y[0]
    y[0] = t


cdef inline void mat_null(PMat* m) noexcept nogil:
    cdef int i
    for i in range(4):
        pl_null(&m.e[i])


cdef inline void mat_free(PMat* m) noexcept nogil:
    cdef int i
    for i in range(4):
        pl_free(&m.e[i])


cdef int _hgcd_poll(void* state, Py_ssize_t done, Py_ssize_t total) noexcept with gil:
    """Ctrl-C and progress from inside the nogil recursion; -1 (error kept in state) to stop."""
    cdef object st = <object>state
    try:
        PyErr_CheckSignals()
        if st.progress is not None:
            st.progress("gcd", max(0, min(total, done)), total)
    except BaseException as e:
        st.error = e
        return -1
    return 0


cdef inline int ctx_poll(HCtx* ctx) noexcept nogil:
    if ctx.state == NULL:
        return 0
    return -2 if _hgcd_poll(ctx.state, ctx.total - 2 * (ctx.top - ctx.qsum), ctx.total) < 0 else 0


# Products of at least POLL_WORDS words a side (a few milliseconds each) check for Ctrl-C
# through _signal_poll when their caller gave a poll state (a _PollState; NULL: never).
cdef Py_ssize_t POLL_WORDS = 1 << 13


cdef int _signal_poll(void* state) noexcept with gil:
    """Ctrl-C from inside a nogil product or division; -1 (error kept in state) to stop."""
    cdef object st = <object>state
    try:
        PyErr_CheckSignals()
    except BaseException as e:
        st.error = e
        return -1
    return 0


cdef inline int size_poll(void* ps, Py_ssize_t n) noexcept nogil:
    """-2 when a poll state is given, n >= POLL_WORDS and a signal handler raised; else 0."""
    if ps == NULL or n < POLL_WORDS:
        return 0
    return -2 if _signal_poll(ps) < 0 else 0


# --- Additive FFT products (gf2fft.h) ---------------------------------------

cdef extern from "lightsout/_kernels/gf2fft.h":
    ctypedef int (*fft_poll_fn)(void*) noexcept nogil
    int fft_init() noexcept nogil
    int fft_set_wide(int on) noexcept nogil
    int fft_matmul2(uint64_t* const* out, const size_t* nout, const uint64_t* const* s, const size_t* ns,
                    const uint64_t* const* t, const size_t* nt, int rows, int cols,
                    fft_poll_fn poll, void* ps) noexcept nogil
    int fft_wide_available
    int fft_mul_words(uint64_t* out, const uint64_t* a, size_t na, const uint64_t* b, size_t nb,
                      fft_poll_fn poll, void* ps) noexcept nogil

if fft_init() != 0:
    raise ImportError("lightsout._kernels.gf2poly: GF(2^64) has no Cantor basis of 32 elements "
                      "(the field arithmetic of this build is broken)")



def set_fft_wide(enable):
    """Run the FFT's field products eight or four at a time (VPCLMULQDQ) or one at a time.

    The wide loops are on by default wherever the CPU has VPCLMULQDQ (and never
    in the portable build); turning them off is for tests and measurements.
    Returns the previous setting.

    Example:
        >>> old = set_fft_wide(False)
        >>> set_fft_wide(old)
        False
    """
    return bool(fft_set_wide(1 if enable else 0))


def fft_wide_supported():
    """Whether this build and CPU can run the FFT's wide (VPCLMULQDQ) loops.

    Example:
        >>> fft_wide_supported() in (True, False)
        True
    """
    return bool(fft_wide_available)


# --- Toom-3 products above Karatsuba ---------------------------------------

cdef extern from *:
    """
    #if defined(__PCLMUL__)
    #include <emmintrin.h>
    #include <wmmintrin.h>
    /* out[0 .. na+nb) ^= a*b, schoolbook with two words of b per pass over a: half the
       read-modify-writes of out of one pass per word (lo_mul_row_xor). */
    static void lo_mul_school2(uint64_t* out, const uint64_t* a, ptrdiff_t na,
                               const uint64_t* b, ptrdiff_t nb) {
        ptrdiff_t j = 0;
        if (fft_school(out, a, na, b, nb)) return;
        for (; j + 1 < nb; j += 2) {
            __m128i m = _mm_set_epi64x((long long)b[j + 1], (long long)b[j]);
            __m128i carry = _mm_setzero_si128();
            uint64_t* o = out + j;
            for (ptrdiff_t i = 0; i < na; i++) {
                __m128i x = _mm_cvtsi64_si128((long long)a[i]);
                __m128i p0 = _mm_clmulepi64_si128(x, m, 0x00);
                __m128i p1 = _mm_clmulepi64_si128(x, m, 0x10);
                /* u = (words i, i+1 of this pass) + pending; word i+2 waits in carry's high lane */
                __m128i u = _mm_xor_si128(_mm_xor_si128(p0, _mm_slli_si128(p1, 8)), carry);
                o[i] ^= (uint64_t)_mm_cvtsi128_si64(u);
                carry = _mm_unpackhi_epi64(u, p1);
            }
            o[na] ^= (uint64_t)_mm_cvtsi128_si64(carry);
            o[na + 1] ^= (uint64_t)_mm_cvtsi128_si64(_mm_unpackhi_epi64(carry, carry));
        }
        if (j < nb) lo_mul_row_xor(out + j, a, na, b[j]);
    }
    #else
    static void lo_mul_school2(uint64_t* out, const uint64_t* a, ptrdiff_t na,
                               const uint64_t* b, ptrdiff_t nb) {
        if (fft_school(out, a, na, b, nb)) return;  /* never in the portable build */
        for (ptrdiff_t j = 0; j < nb; j++) lo_mul_row_xor(out + j, a, na, b[j]);
    }
    #endif
    """
    void lo_mul_school2(uint64_t* out, const uint64_t* a, Py_ssize_t na, const uint64_t* b,
                        Py_ssize_t nb) noexcept nogil


cdef int kara2(uint64_t* out, const uint64_t* a, const uint64_t* b, Py_ssize_t n) noexcept nogil:
    """out[0 : 2n] ^= a*b for two n-word operands (Karatsuba); -1 if out of memory.

    a = a0 + t^(64h) a1 (h = ceil(n/2) words low), likewise b:
    a*b = p0 + t^(64h) (p0 + p1 + p2) + t^(128h) p2 with p0 = a0 b0, p2 = a1 b1,
    p1 = (a0 + a1)(b0 + b1): three half-size products instead of four.  Below
    KARATSUBA_WORDS words the product-scanning schoolbook lo_mul_school2 takes over.
    """
    cdef Py_ssize_t h, l
    cdef uint64_t* scratch
    cdef uint64_t* sa
    cdef uint64_t* sb
    cdef uint64_t* mid
    cdef uint64_t* p0
    cdef uint64_t* p2
    if n < KARATSUBA_WORDS:
        lo_mul_school2(out, a, n, b, n)
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
    if kara2(mid, sa, sb, h) < 0 or kara2(p0, a, b, h) < 0 or kara2(p2, a + h, b + h, l) < 0:
        free(scratch)
        return -1
    xor_into(mid, p0, 2 * h)
    xor_into(mid, p2, 2 * l)
    xor_into(out, p0, 2 * h)
    xor_into(out + 2 * h, p2, 2 * l)
    xor_into(out + h, mid, min(2 * h, 2 * n - h))
    free(scratch)
    return 0

cdef inline void shr1_inplace(uint64_t* x, Py_ssize_t n) noexcept nogil:
    """x <- x / t over n words (exact: the caller knows bit 0 is clear)."""
    cdef Py_ssize_t i
    for i in range(n - 1):
        x[i] = (x[i] >> 1) | (x[i + 1] << 63)
    if n > 0:
        x[n - 1] >>= 1


cdef inline void div1pt_inplace(uint64_t* x, Py_ssize_t n) noexcept nogil:
    """x <- x / (1 + t) over n words, for x a multiple of 1 + t: y_i = x_i + y_(i-1), a prefix XOR."""
    cdef Py_ssize_t i
    cdef uint64_t y, carry = 0
    for i in range(n):
        y = x[i]
        y ^= y << 1
        y ^= y << 2
        y ^= y << 4
        y ^= y << 8
        y ^= y << 16
        y ^= y << 32
        y ^= carry
        x[i] = y
        carry = <uint64_t>0 - (y >> 63)


cdef int mul_toom3(uint64_t* out, const uint64_t* a, const uint64_t* b, Py_ssize_t n,
                   void* ps) noexcept nogil:
    """out[0 : 2n] ^= a*b for two n-word operands; -1 if out of memory, -2 if interrupted (ps).

    Toom-3 over GF(2)[t] (Bodrato's points 0, 1, t, t + 1, infinity): with
    X = t^(64k), A = a0 + a1 X + a2 X^2 (likewise B) and C = A B = c0 + ... + c4 X^4,
    c0 = a0 b0, c4 = a2 b2 and, from w1 = C(1), wt = C(t), wt1 = C(t + 1):
    u1 = w1 + c0 + c4 = c1 + c2 + c3, ut = (wt + c0 + c4 t^4) / t,
    ut1 = (wt1 + c0 + c4 (t^4 + 1)) / (t + 1), v = ut + ut1 = c2 + c3, c1 = u1 + v,
    c3 = ((ut + c1) / t + v) / (t + 1), c2 = v + c3.  Five products of a third of the
    size where Karatsuba needs nine of a quarter; Karatsuba below _toom_words words.
    """
    cdef Py_ssize_t k, l, K, W, i
    cdef uint64_t* mem
    cdef uint64_t* ea
    cdef uint64_t* eb
    cdef uint64_t* w0
    cdef uint64_t* w1
    cdef uint64_t* wt
    cdef uint64_t* wt1
    cdef uint64_t* wi
    cdef const uint64_t* a1
    cdef const uint64_t* a2
    cdef const uint64_t* b1
    cdef const uint64_t* b2
    cdef int st
    if n < _toom_words or n < 12:
        return kara2(out, a, b, n)
    st = size_poll(ps, n)
    if st < 0:
        return st
    k = (n + 2) // 3
    l = n - 2 * k
    K = k + 1
    W = 2 * K + 2
    mem = <uint64_t*>calloc(2 * K + 5 * W, sizeof(uint64_t))
    if mem == NULL:
        return -1
    ea = mem
    eb = ea + K
    w0 = eb + K
    w1 = w0 + W
    wt = w1 + W
    wt1 = wt + W
    wi = wt1 + W
    a1 = a + k
    a2 = a + 2 * k
    b1 = b + k
    b2 = b + 2 * k
    st = mul_toom3(w0, a, b, k, ps)
    if st == 0:
        st = mul_toom3(wi, a2, b2, l, ps)
    if st < 0:
        free(mem)
        return st
    # A(1) B(1)
    copy_row(ea, a, k)
    xor_into(ea, a1, k)
    xor_into(ea, a2, l)
    copy_row(eb, b, k)
    xor_into(eb, b1, k)
    xor_into(eb, b2, l)
    st = mul_toom3(w1, ea, eb, k, ps)
    if st < 0:
        free(mem)
        return st
    # A(t + 1) = A(1) + t a1 + t^2 a2, then A(t) = A(t + 1) + A(1) + a0 ... built separately.
    ea[k] = 0
    eb[k] = 0
    xor_shifted(ea, K, a1, k, 1)
    xor_shifted(ea, K, a2, l, 2)
    xor_shifted(eb, K, b1, k, 1)
    xor_shifted(eb, K, b2, l, 2)
    st = mul_toom3(wt1, ea, eb, K, ps)
    if st < 0:
        free(mem)
        return st
    zero_row(ea, K)
    zero_row(eb, K)
    copy_row(ea, a, k)
    xor_shifted(ea, K, a1, k, 1)
    xor_shifted(ea, K, a2, l, 2)
    copy_row(eb, b, k)
    xor_shifted(eb, K, b1, k, 1)
    xor_shifted(eb, K, b2, l, 2)
    st = mul_toom3(wt, ea, eb, K, ps)
    if st < 0:
        free(mem)
        return st
    # Interpolation (buffers of W words; every division is exact).
    xor_into(w1, w0, 2 * k)
    xor_into(w1, wi, 2 * l)                  # w1 = u1
    xor_into(wt, w0, 2 * k)
    xor_shifted(wt, W, wi, 2 * l, 4)
    shr1_inplace(wt, W)                      # wt = ut
    xor_into(wt1, w0, 2 * k)
    xor_into(wt1, wi, 2 * l)
    xor_shifted(wt1, W, wi, 2 * l, 4)
    div1pt_inplace(wt1, W)                   # wt1 = ut1
    xor_into(wt1, wt, W)                     # wt1 = v
    xor_into(w1, wt1, W)                     # w1 = c1
    xor_into(wt, w1, W)
    shr1_inplace(wt, W)
    xor_into(wt, wt1, W)
    div1pt_inplace(wt, W)                    # wt = c3
    xor_into(wt1, wt, W)                     # wt1 = c2
    xor_into(out, w0, 2 * k)
    xor_into(out + k, w1, min(W, 2 * n - k))
    xor_into(out + 2 * k, wt1, min(W, 2 * n - 2 * k))
    xor_into(out + 3 * k, wt, min(W, 2 * n - 3 * k))
    xor_into(out + 4 * k, wi, 2 * l)
    free(mem)
    return 0


cdef int fft_mul_balanced(uint64_t* out, const uint64_t* a, Py_ssize_t na, const uint64_t* b,
                          Py_ssize_t nb, void* ps) noexcept nogil:
    """out[0 : na+nb] ^= a*b by the additive FFT, b (the longer) cut into pieces of at most 2 na words."""
    cdef Py_ssize_t off = 0, step
    cdef int st
    cdef fft_poll_fn poll = NULL
    if ps != NULL:
        poll = <fft_poll_fn>_signal_poll
    while off < nb:
        step = min(nb - off, 2 * na)
        if nb - off - step < na:
            step = nb - off
        st = fft_mul_words(out + off, a, na, b + off, step, poll, ps)
        if st != 0:
            return st
        off += step
    return 0


cdef int fmul(uint64_t* out, const uint64_t* a, Py_ssize_t na, const uint64_t* b,
              Py_ssize_t nb, void* ps) noexcept nogil:
    """mul_words with Toom-3 above _toom_words words: out[0 : na+nb] ^= a*b; -1 if out of memory,
    -2 if a signal handler raised (checked every POLL_WORDS-word block when ps is a poll state)."""
    cdef const uint64_t* tp
    cdef Py_ssize_t tn, off
    cdef int st
    if na > nb:
        tp = a; a = b; b = tp
        tn = na; na = nb; nb = tn
    if na == 0:
        return 0
    if na < KARATSUBA_WORDS:
        lo_mul_school2(out, b, nb, a, na)
        return 0
    if na >= _fft_words:
        return fft_mul_balanced(out, a, na, b, nb, ps)
    off = 0
    while off + na <= nb:
        st = mul_toom3(out + off, a, b + off, na, ps)
        if st < 0:
            return st
        off += na
    if off < nb:
        return fmul(out + off, a, na, b + off, nb - off, ps)
    return 0


cdef int fmul_matrix(uint64_t** out, size_t* nout, const uint64_t** s, size_t* ns, const uint64_t** t,
                     size_t* nt, int rows, int cols, void* ps) noexcept nogil:
    """out[r cols + c] ^= s[2 r] t[c] + s[2 r + 1] t[cols + c] (rows, cols <= 2; sizes in words, 0 = zero).

    When every nonzero operand has at least _fft_words words, each operand is
    transformed once (gf2fft.h, fft_matmul2): a 2x2 by 2x2 product takes 8
    transforms and 4 inverses where 8 products take 16 and 8; else fmul per term.
    Each out[i] has room for nout[i] >= ns + nt words of each of its terms.
    """
    cdef size_t small = 0
    cdef bint any_term = False
    cdef int r, c, k, st
    cdef fft_poll_fn poll = NULL
    for r in range(rows):
        for c in range(cols):
            for k in range(2):
                if ns[2 * r + k] and nt[k * cols + c]:
                    small = min(ns[2 * r + k], nt[k * cols + c], small) if any_term else min(ns[2 * r + k], nt[k * cols + c])
                    any_term = True
    if not any_term:
        return 0
    if small >= <size_t>_fft_words:
        if ps != NULL:
            poll = <fft_poll_fn>_signal_poll
        return fft_matmul2(out, nout, s, ns, t, nt, rows, cols, poll, ps)
    for r in range(rows):
        for c in range(cols):
            for k in range(2):
                if ns[2 * r + k] and nt[k * cols + c]:
                    st = fmul(out[r * cols + c], s[2 * r + k], ns[2 * r + k], t[k * cols + c], nt[k * cols + c], ps)
                    if st < 0:
                        return st
    return 0


# --- Newton division ------------------------------------------------------

cdef inline void rev_into(uint64_t* dst, Py_ssize_t ndst, const uint64_t* src, Py_ssize_t nsrc,
                          Py_ssize_t d) noexcept nogil:
    """dst[0 : ndst] = rev_d(src): coefficient i of dst is coefficient d - i of src (0 for i > d)."""
    cdef Py_ssize_t i
    for i in range(ndst):
        dst[i] = lo_bitrev64(bits64_at(src, nsrc, d - 64 * i - 63)) if 64 * i <= d else 0


cdef inline uint64_t clmul_lo(uint64_t x, uint64_t y) noexcept nogil:
    cdef uint64_t r = 0
    cdef int i
    for i in range(64):
        if (y >> i) & 1:
            r ^= x << i
    return r


cdef int inv_series(uint64_t* g, Py_ssize_t K, const uint64_t* h, Py_ssize_t nh, void* ps) noexcept nogil:
    """g[0 : K] = h^-1 mod t^(64 K) for h[0] odd (h: nh words; g: K words, overwritten).

    Newton: if h g = 1 + t^(64p) e (mod t^(64P)), P <= 2p, then
    g + t^(64p) (g e mod t^(64(P-p))) is the inverse mod t^(64P).
    """
    cdef Py_ssize_t ladder[64]
    cdef Py_ssize_t nl = 0, p = K, P, i
    cdef uint64_t x
    cdef uint64_t* prod
    cdef uint64_t* corr
    cdef int st = 0
    while p > 1:
        ladder[nl] = p
        nl += 1
        p = (p + 1) >> 1
    zero_row(g, K)
    x = 1
    for i in range(6):  # one word: precision 1, 2, 4, ..., 64 bits
        x ^= clmul_lo(x, 1 ^ clmul_lo(h[0], x))  # x (1 + e), h x = 1 + e
    g[0] = x
    if K == 1:
        return 0
    prod = <uint64_t*>calloc(2 * K + 2, sizeof(uint64_t))
    corr = <uint64_t*>calloc(2 * K + 2, sizeof(uint64_t))
    if prod == NULL or corr == NULL:
        free(prod)
        free(corr)
        return -1
    p = 1
    for i in range(nl - 1, -1, -1):
        P = ladder[i]
        zero_row(prod, min(nh, P) + p)
        st = fmul(prod, h, min(nh, P), g, p, ps)
        if st < 0:
            break
        zero_row(corr, 2 * (P - p))
        st = fmul(corr, g, P - p, prod + p, P - p, ps)
        if st < 0:
            break
        copy_row(g + p, corr, P - p)
        p = P
    free(prod)
    free(corr)
    if st < 0:
        return st
    return 0 if p == K else -1


cdef int divmod_newton(uint64_t* r, Py_ssize_t nr, const uint64_t* b, Py_ssize_t db, uint64_t* q,
                       Py_ssize_t nq, void* ps) noexcept nogil:
    """r <- r mod b and q ^= r div b (q may be NULL), by Newton's inverse of rev(b); 0, -1 (memory)
    or -2 (interrupted through ps: r and q are then partly updated)."""
    cdef Py_ssize_t da = highest_set_bit(r, nr), k, K, Kw, nb = words_for_bits(db + 1)
    cdef uint64_t* mem
    cdef uint64_t* rb
    cdef uint64_t* inv
    cdef uint64_t* ra
    cdef uint64_t* qr
    cdef uint64_t* qq
    cdef uint64_t* prod
    cdef int st
    if da < db:
        return 0
    k = da - db
    K = k + 1
    Kw = words_for_bits(K)
    mem = <uint64_t*>calloc(6 * Kw + 2 * Kw + nb + 2, sizeof(uint64_t))
    if mem == NULL:
        return -1
    rb = mem
    inv = rb + Kw
    ra = inv + Kw
    qq = ra + Kw
    qr = qq + Kw          # 2 Kw words
    prod = qr + 2 * Kw    # 2 Kw + nb + 2 words (reused)
    rev_into(rb, Kw, b, nb, db)
    st = inv_series(inv, Kw, rb, Kw, ps)
    if st < 0:
        free(mem)
        return st
    rev_into(ra, Kw, r, nr, da)
    ra[Kw - 1] &= tail_mask(K)
    st = fmul(qr, ra, Kw, inv, Kw, ps)
    if st < 0:
        free(mem)
        return st
    qr[Kw - 1] &= tail_mask(K)
    rev_into(qq, Kw, qr, Kw, k)
    st = fmul(prod, qq, Kw, b, nb, ps)
    if st < 0:
        free(mem)
        return st
    xor_into(r, prod, min(nr, Kw + nb))
    if q != NULL:
        xor_into(q, qq, min(nq, Kw))
    free(mem)
    return 0


cdef int divmod_any(uint64_t* r, Py_ssize_t nr, const uint64_t* b, Py_ssize_t nb, uint64_t* q,
                    Py_ssize_t nq, Py_ssize_t newton_words, void* ps) noexcept nogil:
    """r <- r mod b, q ^= r div b (q may be NULL; else room for the quotient): Newton or schoolbook."""
    cdef Py_ssize_t db = highest_set_bit(b, nb), da = highest_set_bit(r, nr), bw
    cdef uint64_t* tmp
    if da < db:
        return 0
    bw = words_for_bits(db + 1)
    if words_for_bits(da - db + 1) >= newton_words and bw >= newton_words:
        return divmod_newton(r, nr, b, db, q, nq, ps)
    tmp = <uint64_t*>calloc(bw + 1, sizeof(uint64_t))
    if tmp == NULL:
        return -1
    divide_inplace(r, nr, b, bw, q, nq, tmp)
    free(tmp)
    return 0


# --- Lehmer's steps with a stop degree and tracked matrix columns ---------

cdef struct Lehm:
    # Rows (A, B) and up to two column pairs: pair p is (c[4p], c[4p+1]) with spares
    # c[4p+2], c[4p+3]; each window maps (A, B) and every pair by the same matrix.
    uint64_t* A
    uint64_t* B
    uint64_t* T1
    uint64_t* T2
    uint64_t* c[8]
    Py_ssize_t cd[4]     # degrees of c[4p], c[4p+1] at cd[2p], cd[2p+1]
    Py_ssize_t cap, ccap, da, db
    int npairs
    uint64_t* mem


cdef int lehm_init(Lehm* L, const Pl* a, const Pl* b, int npairs, const Pl* cols) noexcept nogil:
    """cols: 2*npairs initial column entries (pair p = cols[2p], cols[2p+1])."""
    cdef Py_ssize_t cmax = -1, i
    cdef int p
    L.cap = words_for_bits(max(a.d, b.d) + 1) + 2
    for i in range(2 * npairs):
        cmax = max(cmax, cols[i].d)
    L.ccap = words_for_bits(cmax + 1) + L.cap + 2
    L.mem = <uint64_t*>calloc(4 * L.cap + 4 * npairs * L.ccap, sizeof(uint64_t))
    if L.mem == NULL:
        return -1
    L.A = L.mem
    L.B = L.A + L.cap
    L.T1 = L.B + L.cap
    L.T2 = L.T1 + L.cap
    copy_row(L.A, a.w, pl_nw(a))
    copy_row(L.B, b.w, pl_nw(b))
    L.da = a.d
    L.db = b.d
    L.npairs = npairs
    for p in range(npairs):
        for i in range(4):
            L.c[4 * p + i] = L.T2 + L.cap + (4 * p + i) * L.ccap
        copy_row(L.c[4 * p], cols[2 * p].w, pl_nw(&cols[2 * p]))
        copy_row(L.c[4 * p + 1], cols[2 * p + 1].w, pl_nw(&cols[2 * p + 1]))
        L.cd[2 * p] = cols[2 * p].d
        L.cd[2 * p + 1] = cols[2 * p + 1].d
    return 0


cdef inline void lehm_swap(Lehm* L) noexcept nogil:
    cdef int p
    L.A, L.B = L.B, L.A
    L.da, L.db = L.db, L.da
    for p in range(L.npairs):
        L.c[4 * p], L.c[4 * p + 1] = L.c[4 * p + 1], L.c[4 * p]
        L.cd[2 * p], L.cd[2 * p + 1] = L.cd[2 * p + 1], L.cd[2 * p]


cdef void lehm_run(Lehm* L, Py_ssize_t stop) noexcept nogil:
    """Euclid steps until deg B < stop (stop >= 0; stop = 0 runs to the gcd); then deg A >= deg B."""
    cdef Py_ssize_t na, nb, off, ns, top
    cdef uint64_t qw
    cdef Mat2 m
    cdef int p
    while True:
        if L.da < L.db:
            lehm_swap(L)
        if L.db < stop:
            return
        if L.da - L.db > 63:
            na = words_for_bits(L.da + 1)
            nb = words_for_bits(L.db + 1)
            off = L.da - L.db - 63
            qw = quotient_window(bits64_at(L.A, na, L.da - 63), bits64_at(L.B, nb, L.db - 63), 64)
            sub_multiple_shifted(L.A, na, L.B, nb, qw, off, L.T1)
            L.da = highest_set_bit(L.A, na)
            for p in range(L.npairs):
                if L.cd[2 * p + 1] >= 0:
                    ns = words_for_bits(L.cd[2 * p + 1] + 1)
                    sub_multiple_shifted(L.c[4 * p], L.ccap, L.c[4 * p + 1], ns, qw, off, L.c[4 * p + 2])
                    top = min(L.ccap, max(words_for_bits(L.cd[2 * p] + 1), ns + 1 + words_for_bits(off + 1)))
                    L.cd[2 * p] = highest_set_bit(L.c[4 * p], top)
        else:
            na = words_for_bits(L.da + 1)
            m = lehmer_matrix(bits64_at(L.A, na, L.da - 63), bits64_at(L.B, na, L.da - 63),
                              <int>max(-1, min(64, stop - (L.da - 63))), True)
            apply_mat2(m, &L.A, &L.B, &L.T1, &L.T2, na)
            L.da = highest_set_bit(L.A, na + 1)
            L.db = highest_set_bit(L.B, na + 1)
            for p in range(L.npairs):
                ns = words_for_bits(max(L.cd[2 * p], L.cd[2 * p + 1]) + 1)
                apply_mat2(m, &L.c[4 * p], &L.c[4 * p + 1], &L.c[4 * p + 2], &L.c[4 * p + 3], ns)
                L.cd[2 * p] = highest_set_bit(L.c[4 * p], ns + 1)
                L.cd[2 * p + 1] = highest_set_bit(L.c[4 * p + 1], ns + 1)


# --- The half-gcd recursion -----------------------------------------------

cdef int hgcd_base(const Pl* a, const Pl* b, Py_ssize_t m, PMat* M, Pl* c, Pl* d, HCtx* ctx) noexcept nogil:
    cdef Lehm L
    cdef Pl cols[4]
    cdef uint64_t one = 1, zero = 0
    cdef int i, st = 0
    for i in range(4):
        cols[i].w = &one if i == 0 or i == 3 else &zero
        cols[i].n = 1
        cols[i].d = 0 if i == 0 or i == 3 else -1
    if lehm_init(&L, a, b, 2, cols) < 0:
        return -1
    lehm_run(&L, m)
    ctx.qsum += a.d - L.da
    # Row A = (c[0], c[4]) (coefficients of a and b), row B = (c[1], c[5]).
    if (pl_copy(c, L.A, L.da) < 0 or pl_copy(d, L.B, L.db) < 0
            or pl_copy(&M.e[0], L.c[0], L.cd[0]) < 0 or pl_copy(&M.e[1], L.c[4], L.cd[2]) < 0
            or pl_copy(&M.e[2], L.c[1], L.cd[1]) < 0 or pl_copy(&M.e[3], L.c[5], L.cd[3]) < 0):
        st = -1
    free(L.mem)
    return st


cdef int mat_lift(const PMat* R, const Pl* c0, const Pl* d0, const Pl* x, const Pl* y, Py_ssize_t m,
                  Pl* X, Pl* Y, void* ps) noexcept nogil:
    """(X, Y) = t^m (c0, d0) + R (x mod t^m, y mod t^m)."""
    cdef Py_ssize_t nlo = words_for_bits(m), rmax = 0, W, i
    cdef uint64_t* lo
    cdef int st = 0
    for i in range(4):
        rmax = max(rmax, pl_nw(&R.e[i]))
    W = max(words_for_bits(m + max(c0.d, d0.d) + 1), rmax + nlo) + 1
    lo = <uint64_t*>calloc(2 * nlo + 2, sizeof(uint64_t))
    if lo == NULL or pl_new(X, W) < 0 or pl_new(Y, W) < 0:
        free(lo)
        return -1
    copy_row(lo, x.w, min(nlo, pl_nw(x)))
    copy_row(lo + nlo, y.w, min(nlo, pl_nw(y)))
    if nlo > 0:
        lo[nlo - 1] &= tail_mask(m)
        lo[2 * nlo - 1] &= tail_mask(m)
    xor_shifted(X.w, W, c0.w, pl_nw(c0), m)
    xor_shifted(Y.w, W, d0.w, pl_nw(d0), m)
    st = mat_vec_into(X.w, <size_t>W, Y.w, <size_t>W, R, lo, <size_t>nlo, lo + nlo, <size_t>nlo, ps)
    free(lo)
    pl_fix(X)
    pl_fix(Y)
    return st


cdef int mat_times_mat(PMat* M, const PMat* S, const Pl* t00, const Pl* t01, const Pl* t10, const Pl* t11,
                       int cols, void* ps) noexcept nogil:
    """M = S [[t00, t01], [t10, t11]] (cols = 2), or its first column M e[0], e[2] (cols = 1).

    The entries of M are allocated here; the caller frees M on error.
    """
    cdef uint64_t* outs[4]
    cdef size_t nouts[4]
    cdef const uint64_t* ss[4]
    cdef size_t nss[4]
    cdef const uint64_t* ts[4]
    cdef size_t nts[4]
    cdef const Pl* tp[4]
    cdef int r, c, k, st
    cdef Py_ssize_t n
    tp[0] = t00
    tp[1] = t01
    tp[2] = t10
    tp[3] = t11
    for k in range(4):
        ss[k] = S.e[k].w
        nss[k] = pl_nw(&S.e[k])
    for k in range(2):
        for c in range(cols):
            ts[k * cols + c] = tp[2 * k + c].w
            nts[k * cols + c] = pl_nw(tp[2 * k + c])
    for r in range(2):
        for c in range(cols):
            n = max(<Py_ssize_t>(nss[2 * r] + nts[c]), <Py_ssize_t>(nss[2 * r + 1] + nts[cols + c]), 1)
            if pl_new(&M.e[2 * r + c], n) < 0:
                return -1
            outs[r * cols + c] = M.e[2 * r + c].w
            nouts[r * cols + c] = n
    st = fmul_matrix(outs, nouts, ss, nss, ts, nts, 2, cols, ps)
    if st < 0:
        return st
    for r in range(2):
        for c in range(cols):
            pl_fix(&M.e[2 * r + c])
    return 0


cdef int mat_vec_into(uint64_t* X, size_t nX, uint64_t* Y, size_t nY, const PMat* M, const uint64_t* x,
                      size_t nx, const uint64_t* y, size_t ny, void* ps) noexcept nogil:
    """(X, Y) ^= M (x, y) with x, y given as words (nX, nY: room in X and Y)."""
    cdef uint64_t* outs[2]
    cdef size_t nouts[2]
    cdef const uint64_t* ms[4]
    cdef size_t nms[4]
    cdef const uint64_t* vs[2]
    cdef size_t nvs[2]
    cdef int k
    for k in range(4):
        ms[k] = M.e[k].w
        nms[k] = <size_t>pl_nw(&M.e[k])
    outs[0] = X
    outs[1] = Y
    nouts[0] = nX
    nouts[1] = nY
    vs[0] = x
    vs[1] = y
    nvs[0] = nx
    nvs[1] = ny
    return fmul_matrix(outs, nouts, ms, nms, vs, nvs, 2, 1, ps)


cdef int mat_times_vec(Pl* X, Pl* Y, const PMat* M, const Pl* x, const Pl* y, void* ps) noexcept nogil:
    """(X, Y) = M (x, y), freshly allocated; 0, -1 (memory) or -2 (interrupted)."""
    cdef size_t nx = <size_t>pl_nw(x), ny = <size_t>pl_nw(y)
    cdef size_t nX = max(<size_t>pl_nw(&M.e[0]) + nx, <size_t>pl_nw(&M.e[1]) + ny, <size_t>1)
    cdef size_t nY = max(<size_t>pl_nw(&M.e[2]) + nx, <size_t>pl_nw(&M.e[3]) + ny, <size_t>1)
    cdef int st
    if pl_new(X, nX) < 0 or pl_new(Y, nY) < 0:
        return -1
    st = mat_vec_into(X.w, nX, Y.w, nY, M, x.w, nx, y.w, ny, ps)
    if st < 0:
        return st
    pl_fix(X)
    pl_fix(Y)
    return 0


cdef int pl_axpy(Pl* out, const Pl* x, const Pl* q, const Pl* y, void* ps) noexcept nogil:
    """out = x + q y (freshly allocated); 0, -1 (memory) or -2 (interrupted)."""
    cdef Py_ssize_t n = max(pl_nw(x), pl_nw(q) + pl_nw(y))
    cdef int st
    if pl_new(out, n) < 0:
        return -1
    copy_row(out.w, x.w, pl_nw(x))
    st = fmul(out.w, q.w, pl_nw(q), y.w, pl_nw(y), ps)
    if st < 0:
        return st
    pl_fix(out)
    return 0


cdef int hgcd(const Pl* a, const Pl* b, PMat* M, Pl* c, Pl* d, HCtx* ctx, int want) noexcept nogil:
    """M, (c, d) = M (a, b): Euclid from (a, b) (deg a >= deg b, a != 0) to the first
    consecutive remainders with deg c >= ceil(deg a / 2) > deg d.  The outputs are
    allocated here (and freed again on error).  want: WANT_MATRIX for all of M,
    WANT_COLUMN for its first column only (M e[1], e[3] may stay null = zero), WANT_NONE
    for c and d alone (M may stay null): the recursion's last matrix product is skipped."""
    cdef Py_ssize_t n = a.d, m = (a.d + 1) >> 1
    cdef int st = 0
    cdef uint64_t one = 1
    mat_null(M)
    pl_null(c)
    pl_null(d)
    if b.d < m:
        if (pl_copy(&M.e[0], &one, 0) < 0 or pl_copy(&M.e[3], &one, 0) < 0 or pl_new(&M.e[1], 1) < 0
                or pl_new(&M.e[2], 1) < 0 or pl_copy(c, a.w, a.d) < 0 or pl_copy(d, b.w, b.d) < 0):
            st = -1
    elif n < ctx.base_bits:
        st = hgcd_base(a, b, m, M, c, d, ctx)
    else:
        st = ctx_poll(ctx) if n >= POLL_BITS else 0
        if st == 0:
            st = hgcd_split(a, b, m, M, c, d, ctx, want)
    if st == 0 and (c.d < m or d.d >= m or c.d < d.d):
        st = -3
    if st < 0:
        mat_free(M)
        pl_free(c)
        pl_free(d)
    return st


cdef int hgcd_split(const Pl* a, const Pl* b, Py_ssize_t m, PMat* M, Pl* c, Pl* d, HCtx* ctx,
                    int want) noexcept nogil:
    """The recursive case of hgcd (outputs null on entry; the caller frees them on error)."""
    cdef Py_ssize_t k = 0, dq
    cdef PMat R, S
    cdef Pl a0, b0, c0, d0, a1, b1, q, u0, u1
    cdef int st = 0
    mat_null(&R)
    mat_null(&S)
    pl_null(&a0)
    pl_null(&b0)
    pl_null(&c0)
    pl_null(&d0)
    pl_null(&a1)
    pl_null(&b1)
    pl_null(&q)
    pl_null(&u0)
    pl_null(&u1)
    # First half: the steps that the top deg a - m + 1 coefficients decide.
    if pl_shift_down(&a0, a, m) < 0 or pl_shift_down(&b0, b, m) < 0:
        st = -1
    if st == 0:
        st = hgcd(&a0, &b0, &R, &c0, &d0, ctx, WANT_MATRIX)
    pl_free(&a0)
    pl_free(&b0)
    if st == 0:
        st = mat_lift(&R, &c0, &d0, a, b, m, &a1, &b1, ctx.state)
    pl_free(&c0)
    pl_free(&d0)
    if st == 0 and b1.d < m:
        M[0] = R
        c[0] = a1
        d[0] = b1
        return 0
    # One division: (a1, b1) -> (b1, a1 mod b1), quotient q.
    if st == 0:
        dq = a1.d - b1.d
        if pl_new(&q, words_for_bits(dq + 1)) < 0:
            st = -1
        else:
            st = divmod_any(a1.w, a1.n, b1.w, pl_nw(&b1), q.w, q.n, ctx.newton_words, ctx.state)
        if st == 0:
            q.d = dq
            pl_fix(&a1)
            ctx.qsum += dq
    # Second half, on (b1, a1 mod b1) cut at k = 2m - deg b1.
    if st == 0:
        k = 2 * m - b1.d
        if pl_shift_down(&c0, &b1, k) < 0 or pl_shift_down(&d0, &a1, k) < 0:
            st = -1
    if st == 0:
        st = hgcd(&c0, &d0, &S, &u0, &u1, ctx, WANT_MATRIX)
    pl_free(&c0)
    pl_free(&d0)
    if st == 0:
        st = mat_lift(&S, &u0, &u1, &b1, &a1, k, c, d, ctx.state)
    pl_free(&u0)
    pl_free(&u1)
    pl_free(&a1)
    pl_free(&b1)
    # M = S Q R with Q = [[0, 1], [1, q]]: Q R = [[R10, R11], [R00 + q R10, R01 + q R11]].
    if st == 0 and want != WANT_NONE:
        st = pl_axpy(&u0, &R.e[0], &q, &R.e[2], ctx.state)
    if st == 0 and want == WANT_MATRIX:
        st = pl_axpy(&u1, &R.e[1], &q, &R.e[3], ctx.state)
    if st == 0 and want != WANT_NONE:
        st = mat_times_mat(M, &S, &R.e[2], &R.e[3], &u0, &u1, 2 if want == WANT_MATRIX else 1, ctx.state)
    pl_free(&u0)
    pl_free(&u1)
    pl_free(&q)
    mat_free(&R)
    mat_free(&S)
    return st


# --- Euclid's driver on top of the half-gcd -------------------------------

cdef int fast_euclid(Pl* A, Pl* B, Pl* SA, Pl* SB, bint track, Py_ssize_t gcd_bits,
                     HCtx* ctx) noexcept nogil:
    """(A, B) -> (gcd, 0), and with track (SA, SB) -> (s, 0) where A = SA a (mod b) throughout.

    Alternates hgcd (deg B drops below half of deg A) and one division while
    deg A >= gcd_bits, then finishes with Lehmer's steps.  All four are owned
    and replaced as they change.
    """
    cdef PMat M
    cdef Pl C, D, T0, T1, q
    cdef Lehm L
    cdef Pl cols[2]
    cdef int st = 0
    cdef Py_ssize_t dq
    pl_null(&T0)
    pl_null(&T1)
    pl_null(&q)
    while True:
        if A.d < B.d:
            pl_swap(A, B)
            pl_swap(SA, SB)
        if B.d < 0:
            return 0
        if A.d < gcd_bits:
            cols[0] = SA[0]
            cols[1] = SB[0]
            if lehm_init(&L, A, B, 1 if track else 0, cols) < 0:
                return -1
            lehm_run(&L, 0)
            ctx.qsum += A.d - L.da
            pl_free(A)
            pl_free(B)
            st = pl_copy(A, L.A, L.da)
            if st == 0:
                st = pl_new(B, 1)
            if st == 0 and track:
                pl_free(SA)
                pl_free(SB)
                st = pl_copy(SA, L.c[0], L.cd[0])
                if st == 0:
                    st = pl_new(SB, 1)
            free(L.mem)
            return st
        # The first pass of a cofactor run has (SA, SB) = (1, 0): M's first column will do.
        st = hgcd(A, B, &M, &C, &D, ctx,
                  WANT_NONE if not track else (WANT_COLUMN if SB.d < 0 else WANT_MATRIX))
        if st < 0:
            return st
        if track:
            st = mat_times_vec(&T0, &T1, &M, SA, SB, ctx.state)
            pl_free(SA)
            pl_free(SB)
            SA[0] = T0
            SB[0] = T1
            pl_null(&T0)
            pl_null(&T1)
        mat_free(&M)
        pl_free(A)
        pl_free(B)
        A[0] = C
        B[0] = D
        if st == 0:
            st = ctx_poll(ctx)
        if st < 0:
            return st
        if B.d < 0:
            continue
        dq = A.d - B.d
        if pl_new(&q, words_for_bits(dq + 1)) < 0:
            return -1
        st = divmod_any(A.w, A.n, B.w, pl_nw(B), q.w, q.n, ctx.newton_words, ctx.state)
        if st < 0:
            pl_free(&q)
            return st
        q.d = dq
        pl_fix(A)
        ctx.qsum += dq
        if track:
            st = pl_axpy(&T0, SA, &q, SB, ctx.state)
            pl_free(SA)
            SA[0] = T0
            pl_null(&T0)
        pl_free(&q)
        if st < 0:
            return st


class _PollState:
    """What the nogil recursion reports through _hgcd_poll: the progress callback, the error."""
    __slots__ = ("progress", "error")

    def __init__(self, progress):
        self.progress = progress
        self.error = None


cdef void _ctx_init(HCtx* ctx, Py_ssize_t da, Py_ssize_t db, object state):
    ctx.base_bits = 64 * _hgcd_words
    ctx.newton_words = _newton_words
    ctx.qsum = 0
    ctx.top = max(da, db, 0)
    ctx.total = max(da, 0) + max(db, 0)
    ctx.state = <void*>state if state is not None else NULL


cdef object _raise_status(int st, object state, str name):
    if st == -2:
        raise state.error
    if st == -1:
        raise MemoryError(f"out of memory in {name}")
    if st < 0:
        raise RuntimeError(f"{name}: internal error (status {st})")


cdef object _fast_gcd(object a, object b, bint track, object progress):
    """Half-gcd Euclid on checked arguments: (g, s or None)."""
    cdef const uint64_t[::1] av = a
    cdef const uint64_t[::1] bv = b
    cdef Pl A, B, SA, SB
    cdef HCtx ctx
    cdef Py_ssize_t da = _deg(av), db = _deg(bv), gcd_bits = 64 * _gcd_words
    cdef uint64_t one = 1
    cdef int st = 0
    state = _PollState(progress)
    _ctx_init(&ctx, da, db, state)
    pl_null(&A)
    pl_null(&B)
    pl_null(&SA)
    pl_null(&SB)
    try:
        if (pl_copy(&A, &av[0], da) < 0 or pl_copy(&B, &bv[0], db) < 0 or pl_copy(&SA, &one, 0) < 0
                or pl_new(&SB, 1) < 0):
            st = -1
        if st == 0:
            with nogil:
                st = fast_euclid(&A, &B, &SA, &SB, track, gcd_bits, &ctx)
        _raise_status(st, state, "poly_gcd")
        g = _copy_trimmed(A.w, A.n)
        s = _copy_trimmed(SA.w, SA.n) if track else None
    finally:
        pl_free(&A)
        pl_free(&B)
        pl_free(&SA)
        pl_free(&SB)
    if progress is not None:
        progress("gcd", ctx.total - max(_deg(g), 0), ctx.total)
    return g, s


cdef object _gcd_cofactor(object a, object b, bint track, object progress):
    """Dispatch: the half-gcd when the larger operand has >= gcd_words words, else Lehmer."""
    cdef Py_ssize_t top = max(_deg(a), _deg(b))
    if top >= 64 * _gcd_words:
        return _fast_gcd(a, b, track, progress)
    return _Euclid(a, b, track).finish(progress)


def poly_half_gcd(a, b):
    """The half-gcd step itself: (m00, m01, m10, m11, c, d) with
    c = m00 a + m01 b, d = m10 a + m11 b the first consecutive remainders of
    Euclid on (a, b) with deg c >= ceil(deg a / 2) > deg d (M is the product of
    the quotient matrices [[0, 1], [1, q]], so det M = 1).  Needs deg a >= deg b
    and a != 0.  Uses the thresholds of set_thresholds (hgcd_words, newton_words).

    Example:
        >>> [x.tolist() for x in poly_half_gcd(np.array([0b1000], dtype=np.uint64), np.array([0b101], dtype=np.uint64))]
        [[0], [1], [1], [2], [5], [2]]
    """
    a = _poly_arg(a, "a")
    b = _poly_arg(b, "b")
    cdef const uint64_t[::1] av = a
    cdef const uint64_t[::1] bv = b
    cdef Py_ssize_t da = _deg(av), db = _deg(bv)
    if da < 0 or da < db:
        raise InvalidBoardError(f"poly_half_gcd needs deg a >= deg b and a != 0, got degrees {da} and {db}")
    cdef Pl A, B, C, D
    cdef PMat M
    cdef HCtx ctx
    cdef int st = 0
    _ctx_init(&ctx, da, db, None)
    pl_null(&A)
    pl_null(&B)
    pl_null(&C)
    pl_null(&D)
    mat_null(&M)
    try:
        if pl_copy(&A, &av[0], da) < 0 or pl_copy(&B, &bv[0], db) < 0:
            st = -1
        if st == 0:
            with nogil:
                st = hgcd(&A, &B, &M, &C, &D, &ctx, WANT_MATRIX)
        _raise_status(st, None, "poly_half_gcd")
        return tuple([_copy_trimmed(M.e[i].w, M.e[i].n) for i in range(4)]
                     + [_copy_trimmed(C.w, C.n), _copy_trimmed(D.w, D.n)])
    finally:
        pl_free(&A)
        pl_free(&B)
        pl_free(&C)
        pl_free(&D)
        mat_free(&M)


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
    """Check a polynomial argument: a packed 1-D uint64 row of any length (empty = zero).

    A polynomial has no tail bits (every word holds coefficients), so a 1-D
    C-contiguous uint64 array is exactly what lightsout._base.validate.packed_vector
    accepts for nbits = 64 * len(a); anything else goes to it for the error.
    The shortcut keeps the tiny calls of nullity_table at their old cost.
    """
    if not (isinstance(a, np.ndarray) and a.ndim == 1 and a.dtype == np.uint64
            and a.flags.c_contiguous):
        packed_vector(a, name, nbits=64 * (a.shape[0] if isinstance(a, np.ndarray) and a.ndim == 1 else 1))
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
    """a * b, carry-less, trimmed: Karatsuba above KARATSUBA_WORDS words, Toom-3 from toom_words,
    the additive FFT over GF(2^64) (gf2fft.h) from fft_words words in the smaller operand.

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
    state = _PollState(None)
    cdef void* ps = <void*>state
    with nogil:
        status = fmul(&ov[0], &av[0], na, &bv[0], nb, ps)
    _raise_status(status, state, "poly_mul")
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
    cdef Py_ssize_t newton_words = _newton_words
    cdef int st
    r = np.zeros(nr, dtype=np.uint64)
    q = np.zeros(nq, dtype=np.uint64)
    cdef uint64_t[::1] rv = r, qv = q
    copy_row(&rv[0], &av[0], words_for_bits(da + 1))
    state = _PollState(None)
    cdef void* ps = <void*>state
    with nogil:
        st = divmod_any(&rv[0], nr, &bv[0], nb, &qv[0], nq, newton_words, ps)
    _raise_status(st, state, "poly_divmod")
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
    cdef Py_ssize_t newton_words = _newton_words
    cdef int st
    r = np.zeros(nr, dtype=np.uint64)
    cdef uint64_t[::1] rv = r
    copy_row(&rv[0], &av[0], words_for_bits(da + 1))
    state = _PollState(None)
    cdef void* ps = <void*>state
    with nogil:
        st = divmod_any(&rv[0], nr, &bv[0], nb, NULL, 0, newton_words, ps)
    _raise_status(st, state, "poly_mod")
    return _copy_trimmed_arr(r)


def poly_gcd(a, b, progress=None):
    """gcd(a, b) (monic, as every nonzero polynomial over GF(2) is); gcd(0, 0) = 0.

    Example:
        >>> poly_gcd(np.array([0b110], dtype=np.uint64), np.array([0b1010], dtype=np.uint64)).tolist()
        [6]
    """
    g, _ = _gcd_cofactor(_poly_arg(a, "a"), _poly_arg(b, "b"), False, progress)
    return g


def poly_gcd_cofactor(a, b, progress=None):
    """(g, s) with g = gcd(a, b) and s*a = g (mod b): the half of the extended gcd
    that inverts a modulo b / g.  s is Euclid's cofactor (not reduced).

    Example:
        >>> g, s = poly_gcd_cofactor(np.array([0b10], dtype=np.uint64), np.array([0b111], dtype=np.uint64))
        >>> g.tolist(), s.tolist()
        ([1], [3])
    """
    return _gcd_cofactor(_poly_arg(a, "a"), _poly_arg(b, "b"), True, progress)


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
    g, s = _gcd_cofactor(a, b, True, None)
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


# ---------------------------------------------------------------------------
# Near-linear conversions (docs/algebra.md section 9): with t + 1 = x + 1/x,
# W_j(t) = D_j(t + 1) / (t + 1), so sum_j c_j W_j is a Taylor shift away from a
# sum of Dickson polynomials, and polyconvert.pxd changes that basis in
# O(n log n) word operations.

cdef uint64_t _FOLD_DOWN[2048]
cdef uint64_t _FOLD_UP[2048]
fill_fold_tables(_FOLD_DOWN, 1)
fill_fold_tables(_FOLD_UP, 0)


cdef Py_ssize_t _power_of_two_words(Py_ssize_t nbits):
    """The fewest words, a power of two, that hold nbits bits (at least one)."""
    cdef Py_ssize_t n = 1
    while 64 * n < nbits:
        n *= 2
    return n


cdef void _shift_up_one(uint64_t* a, Py_ssize_t n) noexcept nogil:
    """a <- a * t within n words (the top bit must be zero)."""
    cdef Py_ssize_t i
    for i in range(n - 1, 0, -1):
        a[i] = (a[i] << 1) | (a[i - 1] >> 63)
    a[0] <<= 1


cdef void _shift_down_one(uint64_t* a, Py_ssize_t n) noexcept nogil:
    """a <- a / t within n words (bit 0 is dropped)."""
    cdef Py_ssize_t i
    for i in range(n - 1):
        a[i] = (a[i] >> 1) | (a[i + 1] << 63)
    a[n - 1] >>= 1


cdef object _change_basis(object a, bint to_monomial):
    """The Dickson basis change of a polynomial array, padded to a power of two words, trimmed."""
    cdef Py_ssize_t n = _power_of_two_words(64 * a.shape[0])
    out = np.zeros(n, dtype=np.uint64)
    out[: a.shape[0]] = a
    cdef uint64_t[::1] ov = out
    with nogil:
        if to_monomial:
            basis_to_monomial_inplace(&ov[0], n, _FOLD_DOWN)
        else:
            monomial_to_basis_inplace(&ov[0], n, _FOLD_UP)
    return _copy_trimmed_arr(out)


def dickson_to_monomial(a):
    """Monomial coefficients of sum_j a_j B_j(s), with B_0 = 1 and B_j = x^j + x^-j for s = x + 1/x.

    O(n log n) word operations for n words (docs/algebra.md section 9).

    Example:
        >>> dickson_to_monomial(np.array([0b1000], dtype=np.uint64)).tolist()  # x^3 + x^-3 = s^3 + s
        [10]
    """
    return _change_basis(_poly_arg(a, "a"), True)


def monomial_to_dickson(a):
    """The inverse of :func:`dickson_to_monomial`: the coefficients a_j with sum_j a_j B_j(s) = a(s).

    Example:
        >>> monomial_to_dickson(np.array([0b1010], dtype=np.uint64)).tolist()  # s^3 + s = B_3
        [8]
    """
    return _change_basis(_poly_arg(a, "a"), False)


def w_combination(c, Py_ssize_t ncols, progress=None):
    """phi^{-1}(c) = sum_{j=1..ncols} c_j W_j(t), W_j = U_j(t+1) (docs/algebra.md section 2).

    c is a packed row of ncols bits (bit j-1 = c_j).  Because phi(W_j) = e_j, the
    result is the polynomial F (deg < ncols) with F(T) e_1 = c.  O(ncols log ncols / 64)
    word operations: (t + 1) F(t) = sum_j c_j D_j(t + 1) (section 9).

    Example:
        >>> w_combination(np.array([0b100], dtype=np.uint64), 3).tolist()  # W_3 = U_3(t+1) = (t+1)^2 + 1 = t^2
        [4]
    """
    board_size(ncols, "ncols")
    c = packed_vector(c, "c", nbits=ncols)
    cdef const uint64_t[::1] cv = c
    cdef Py_ssize_t n = _power_of_two_words(ncols + 2), nc = words_for_bits(ncols)
    work = np.zeros(n, dtype=np.uint64)
    cdef uint64_t[::1] wv = work
    with nogil:
        copy_row(&wv[0], &cv[0], nc)
        _shift_up_one(&wv[0], n)               # a_j = c_j at bit j, j = 1..ncols
        basis_to_monomial_inplace(&wv[0], n, _FOLD_DOWN)  # P(s) = s * sum_j c_j U_j(s)
        _shift_down_one(&wv[0], n)             # P(0) = 0: divide by s
        taylor_shift_inplace(&wv[0], n)        # s = t + 1
    if progress is not None:
        progress("convert", ncols, ncols)
    return _copy_trimmed_arr(work)


def phi_image(f, Py_ssize_t ncols, progress=None):
    """phi(F) = F(T) e_1 as a packed row of ncols bits, for deg F < ncols.

    The inverse of :func:`w_combination`: the coefficients of F in the basis
    W_1 .. W_ncols, in O(ncols log ncols / 64) word operations (section 9).

    Example:
        >>> phi_image(np.array([0b10], dtype=np.uint64), 3).tolist()  # T e_1 = e_1 + e_2
        [3]
    """
    board_size(ncols, "ncols")
    f = _poly_arg(f, "f")
    cdef const uint64_t[::1] fv = f
    cdef Py_ssize_t d = _deg(fv)
    if d >= ncols:
        raise InvalidBoardError(f"phi_image needs deg F < ncols = {ncols}, got degree {d}")
    cdef Py_ssize_t n = _power_of_two_words(ncols + 2), nc = words_for_bits(ncols)
    work = np.zeros(n, dtype=np.uint64)
    cdef uint64_t[::1] wv = work
    with nogil:
        copy_row(&wv[0], &fv[0], words_for_bits(d + 1))
        taylor_shift_inplace(&wv[0], n)        # Q(s) = F(s + 1)
        _shift_up_one(&wv[0], n)               # s Q(s) = sum_j f_j D_j(s)
        monomial_to_basis_inplace(&wv[0], n, _FOLD_UP)
        _shift_down_one(&wv[0], n)             # bit j - 1 = f_j
    if progress is not None:
        progress("horner", ncols, ncols)
    out = work[:nc].copy()
    out[nc - 1] &= tail_mask(ncols)
    return out


def chebyshev_u_sum(Py_ssize_t k):
    """U_1(t) + U_2(t) + ... + U_k(t) over GF(2), in O(k log k / 64) word operations.

    t * U_j(t) = D_j(t), so t times the sum is the Dickson sum with every
    coefficient 1..k set (section 9).

    Example:
        >>> chebyshev_u_sum(3).tolist()  # 1 + t + (t^2 + 1)
        [6]
    """
    if k < 0:
        raise InvalidBoardError(f"chebyshev_u_sum: k must be >= 0, got {k}")
    cdef Py_ssize_t n = _power_of_two_words(k + 2)
    work = np.zeros(n, dtype=np.uint64)
    if k > 0:
        bits = np.zeros(64 * n, dtype=np.uint8)
        bits[1 : k + 1] = 1
        work[:] = np.packbits(bits, bitorder="little").view("<u8")
    cdef uint64_t[::1] wv = work
    with nogil:
        basis_to_monomial_inplace(&wv[0], n, _FOLD_DOWN)
        _shift_down_one(&wv[0], n)
    return _copy_trimmed_arr(work)


def poly_square(a):
    """a(t)^2 = a(t^2) over GF(2) (squaring is linear: each bit moves to twice its place).

    Example:
        >>> poly_square(np.array([0b11], dtype=np.uint64)).tolist()  # (1 + t)^2 = 1 + t^2
        [5]
    """
    a = _poly_arg(a, "a")
    words = a.view(np.uint8)
    spread = np.zeros(2 * a.shape[0], dtype=np.uint64)
    bits = np.unpackbits(words, bitorder="little")
    out_bits = np.zeros(2 * bits.shape[0], dtype=np.uint8)
    out_bits[::2] = bits
    spread[:] = np.packbits(out_bits, bitorder="little").view("<u8")
    return _copy_trimmed_arr(spread)
