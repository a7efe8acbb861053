# Kernels of lightsout._core.verify: the all-lit square board's clearing identity evaluated at
# points of GF(2^64) (docs/algebra.md section 15).
#
# GF(2^64) is GF(2)[u]/(u^64 + u^4 + u^3 + u + 1); an element is a uint64, bit i the coefficient
# of u^i.  A product is a 128-bit carry-less product folded twice by u^64 = u^4 + u^3 + u + 1.
# The wide builds (-mpclmul) multiply with PCLMULQDQ; the portable one multiplies by the one
# fixed factor of the long loop through eight byte tables (entry v of table k: factor * v * u^(8k)).
#
# For a first row r of the n x n board and a point a (not 0 or 1), with s = a + 1 + 1/a,
# O = 1 + a + ... + a^(n-1) and E = 1/a + a^n, the chase written row by row as polynomials in a,
#     y_{-1} = 0,  y_0 = r(a),  y_{i+1} = s y_i + y_{i-1} + O + r_i E   (i = 0 .. n-1),
# ends in y_n = U_{n+1} r(a) + O (U_1 + ... + U_n) + E <r, u>, where U_k are the Chebyshev values
# at s and <v, u> = sum of v_i U_{n-i}.  The loop makes U_1 .. U_{n+1} (one product a row) and
# gathers <v, u> for the row and for any other rows given (the quiet first rows, whose <v, u>
# section 15 needs on boards with several solutions).  y_n is 0 when r clears the board and its
# solution has r as its first and last columns; a wrong row gives 0 only at the roots of a
# nonzero polynomial of degree below 3n.
#
# Nothing here shares code with the polynomial route (gf2poly, polybasis): the field, its
# product and the loop are this file's own.  Compiled once per SIMD level (setup.py); the def
# wrappers check their arguments with the GIL held and run the C loops inside `with nogil`.

from libc.stdint cimport uint64_t

from lightsout._kernels.cancel cimport Poll, make_poll, poll_work, raise_if_interrupted, STOP_NONE

import numpy as np

from lightsout._base.errors import InvalidBoardError, InvalidTypeError

cdef extern from *:
    """
    #ifndef LIGHTSOUT_SIMD_LEVEL
    #define LIGHTSOUT_SIMD_LEVEL "generic"
    #endif
    #include <stdint.h>
    #include <string.h>
    #if defined(__PCLMUL__)
    #include <wmmintrin.h>
    #include <emmintrin.h>
    #define GX_CLMUL 1
    #else
    #define GX_CLMUL 0
    #endif

    /* hi * u^64 + lo reduced modulo u^64 + u^4 + u^3 + u + 1. */
    static inline uint64_t gx_reduce(uint64_t lo, uint64_t hi) {
        hi ^= (hi >> 63) ^ (hi >> 61) ^ (hi >> 60);
        return lo ^ hi ^ (hi << 1) ^ (hi << 3) ^ (hi << 4);
    }

    /* The product of two field elements: PCLMULQDQ, or four bits at a time. */
    static inline uint64_t gx_mul(uint64_t a, uint64_t b) {
    #if GX_CLMUL
        __m128i p = _mm_clmulepi64_si128(_mm_cvtsi64_si128((long long)a), _mm_cvtsi64_si128((long long)b), 0x00);
        uint64_t lo = (uint64_t)_mm_cvtsi128_si64(p);
        uint64_t hi = (uint64_t)_mm_cvtsi128_si64(_mm_unpackhi_epi64(p, p));
        return gx_reduce(lo, hi);
    #else
        uint64_t tlo[16], thi[16], lo = 0, hi = 0;
        tlo[0] = 0; thi[0] = 0;
        for (int k = 1; k < 16; k++) {           /* b times the 4-bit polynomial k, 67 bits */
            int low = k & -k;
            int sh = low == 1 ? 0 : low == 2 ? 1 : low == 4 ? 2 : 3;
            tlo[k] = tlo[k ^ low] ^ (b << sh);
            thi[k] = thi[k ^ low] ^ (sh ? b >> (64 - sh) : 0);
        }
        for (int i = 60; i >= 0; i -= 4) {
            hi = (hi << 4) | (lo >> 60);
            lo <<= 4;
            unsigned nib = (unsigned)(a >> i) & 15u;
            lo ^= tlo[nib];
            hi ^= thi[nib];
        }
        return gx_reduce(lo, hi);
    #endif
    }

    static uint64_t gx_pow(uint64_t a, uint64_t e) {
        uint64_t r = 1;
        while (e) {
            if (e & 1) r = gx_mul(r, a);
            a = gx_mul(a, a);
            e >>= 1;
        }
        return r;
    }

    /* 1/a for a != 0: a^(2^64 - 2). */
    static uint64_t gx_inv(uint64_t a) { return gx_pow(a, 0xFFFFFFFFFFFFFFFEULL); }

    /* Table k, entry v: the sum of base^(8k + j) over the bits j of v, for k = 0..7
       (so one 64-bit word w of a row is worth the XOR of tab[k][byte k of w]). */
    static void gx_power_tables(uint64_t base, uint64_t tab[8][256]) {
        uint64_t p = 1;
        for (int k = 0; k < 8; k++) {
            uint64_t pw[8];
            for (int j = 0; j < 8; j++) { pw[j] = p; p = gx_mul(p, base); }
            tab[k][0] = 0;
            for (int v = 1; v < 256; v++) {
                int j = 0;
                while (!((v >> j) & 1)) j++;
                tab[k][v] = tab[k][v & (v - 1)] ^ pw[j];
            }
        }
    }

    /* Table k, entry v: factor * v(u) * u^(8k): a product by the fixed factor in 8 lookups. */
    static void gx_factor_tables(uint64_t factor, uint64_t tab[8][256]) {
        for (int k = 0; k < 8; k++) {
            uint64_t pw[8];
            for (int j = 0; j < 8; j++) pw[j] = gx_mul(factor, (uint64_t)1 << (8 * k + j));
            tab[k][0] = 0;
            for (int v = 1; v < 256; v++) {
                int j = 0;
                while (!((v >> j) & 1)) j++;
                tab[k][v] = tab[k][v & (v - 1)] ^ pw[j];
            }
        }
    }

    static inline uint64_t gx_table_mul(const uint64_t tab[8][256], uint64_t x) {
        return tab[0][x & 255] ^ tab[1][(x >> 8) & 255] ^ tab[2][(x >> 16) & 255] ^ tab[3][(x >> 24) & 255]
             ^ tab[4][(x >> 32) & 255] ^ tab[5][(x >> 40) & 255] ^ tab[6][(x >> 48) & 255] ^ tab[7][x >> 56];
    }

    /* What one point needs in the long loop. */
    typedef struct {
        uint64_t s, ones, edge, y0;
        uint64_t a64;              /* a^64, while y0 is summed */
        uint64_t tab[8][256];      /* a's power tables while y0 is summed; then, portable build: products by s */
    } gx_point;

    /* The point a's constants, and y0 = 0 with a's power tables, ready for gx_point_add_words. */
    static void gx_point_begin(gx_point *p, ptrdiff_t n, uint64_t a) {
        uint64_t inv = gx_inv(a), an = gx_pow(a, (uint64_t)n);
        p->s = a ^ 1 ^ inv;
        p->ones = gx_mul(an ^ 1, gx_inv(a ^ 1));      /* (a^n + 1) / (a + 1) */
        p->edge = inv ^ an;
        p->a64 = gx_pow(a, 64);
        p->y0 = 0;
        gx_power_tables(a, p->tab);
    }

    /* y0 <- y0 a^(64 (hi - lo)) + the value at a of words [lo, hi) of a row: Horner's rule from
       the top with a^64, each word through a's power tables.  Called for pieces from the row's
       top word down, it leaves y0 = r(a) for the packed row (bits past its end zero). */
    static void gx_point_add_words(gx_point *p, const uint64_t *row, ptrdiff_t lo, ptrdiff_t hi) {
        uint64_t acc = p->y0;
        for (ptrdiff_t w = hi - 1; w >= lo; w--)
            acc = gx_mul(acc, p->a64) ^ gx_table_mul((const uint64_t (*)[256])p->tab, row[w]);
        p->y0 = acc;
    }

    /* After the row's last piece: the tables of products by s for the long loop. */
    static void gx_point_end(gx_point *p) {
        gx_factor_tables(p->s, p->tab);
    }

    static inline uint64_t gx_times_s(const gx_point *p, uint64_t y) {
    #if GX_CLMUL
        return gx_mul(p->s, y);
    #else
        return gx_table_mul((const uint64_t (*)[256])p->tab, y);
    #endif
    }
    """
    const char* SIMD_LEVEL_C "LIGHTSOUT_SIMD_LEVEL"
    int GX_CLMUL
    ctypedef struct gx_point:
        uint64_t s
        uint64_t ones
        uint64_t edge
        uint64_t y0
    uint64_t gx_mul(uint64_t a, uint64_t b) noexcept nogil
    uint64_t gx_inv(uint64_t a) noexcept nogil
    void gx_point_begin(gx_point* p, Py_ssize_t n, uint64_t a) noexcept nogil
    void gx_point_add_words(gx_point* p, const uint64_t* row, Py_ssize_t lo, Py_ssize_t hi) noexcept nogil
    void gx_point_end(gx_point* p) noexcept nogil
    uint64_t gx_times_s(const gx_point* p, uint64_t y) noexcept nogil

from libc.stdlib cimport malloc, free

#: The SIMD level this build was compiled for: "generic", "avx2" or "avx512".
SIMD_LEVEL = SIMD_LEVEL_C.decode()
#: Whether this build multiplies with PCLMULQDQ (else with byte tables).
CLMUL = bool(GX_CLMUL)

# rows between two looks at the cancel flag (a few hundred microseconds)
cdef Py_ssize_t ROWS_PER_POLL = 1 << 18


cdef extern from *:
    """
    static inline int gx_lowest_bit(uint64_t w) {
    #if defined(__GNUC__) || defined(__clang__)
        return __builtin_ctzll(w);
    #else
        int b = 0;
        while (!((w >> b) & 1)) b++;
        return b;
    #endif
    }
    """
    int gx_lowest_bit(uint64_t w) noexcept nogil


cdef int point_init(gx_point* p, const uint64_t* row, Py_ssize_t n, uint64_t a, Poll* poll) noexcept nogil:
    """What the long loop needs of the point a for the row (n bits); its value r(a) by Horner's rule in
    pieces of ROWS_PER_POLL words (a word costs about a row of the long loop) with a look at `poll`
    between: at 10^10 bits the whole is seconds of work.
    A nonzero stop status when the poll says stop."""
    cdef Py_ssize_t hi = (n + 63) // 64, lo
    cdef int status
    gx_point_begin(p, n, a)
    while hi > 0:
        lo = max(<Py_ssize_t>0, hi - ROWS_PER_POLL)
        gx_point_add_words(p, row, lo, hi)
        hi = lo
        status = poll_work(poll, ROWS_PER_POLL)
        if status != STOP_NONE:
            return status
    gx_point_end(p)
    return STOP_NONE


cdef int two_point_loop(const uint64_t* vectors, Py_ssize_t nvec, Py_ssize_t nwords, Py_ssize_t n,
                        const gx_point* p, const gx_point* q, uint64_t* out_p, uint64_t* out_q,
                        Poll* poll) noexcept nogil:
    """Section 15's sums at two points at once (their chains are independent, so the CPU overlaps them).

    With U_k the Chebyshev values at s (U_0 = 0, U_1 = 1, U_{k+1} = s U_k + U_{k-1}), out[0] is
    U_{n+1} r(a) + O (U_1 + ... + U_n) + E <r, u> for the row r = vectors[0], and out[j] is <v_j, u>
    for the others, where <v, u> = sum of v_i U_{n-i}: the rows are read from the bottom up, a
    word at a time: the chain fills the U values of the word's 64 rows, then each vector adds
    those of its set bits."""
    cdef uint64_t up = 1, uq = 1, up_prev = 0, uq_prev = 0, up_next, uq_next, w
    cdef uint64_t sum_p = 0, sum_q = 0
    cdef uint64_t ubuf_p[64]
    cdef uint64_t ubuf_q[64]
    cdef Py_ssize_t i, j, word, done = 0
    cdef int status, b
    for j in range(nvec):
        out_p[j] = 0
        out_q[j] = 0
    i = n - 1
    while i >= 0:                       # k = n - i runs 1 .. n; up = U_k
        ubuf_p[i & 63] = up
        ubuf_q[i & 63] = uq
        sum_p ^= up
        sum_q ^= uq
        up_next = gx_times_s(p, up) ^ up_prev
        uq_next = gx_times_s(q, uq) ^ uq_prev
        up_prev = up
        uq_prev = uq
        up = up_next
        uq = uq_next
        if (i & 63) == 0:               # the word's rows are all in the buffers
            word = i >> 6
            for j in range(nvec):
                w = vectors[j * nwords + word]
                while w:
                    b = gx_lowest_bit(w)
                    out_p[j] ^= ubuf_p[b]
                    out_q[j] ^= ubuf_q[b]
                    w &= w - 1
        i -= 1
        done += 1
        if done == ROWS_PER_POLL:
            done = 0
            status = poll_work(poll, ROWS_PER_POLL)
            if status != STOP_NONE:
                return status
    out_p[0] = gx_mul(up, p.y0) ^ gx_mul(p.ones, sum_p) ^ gx_mul(p.edge, out_p[0])
    out_q[0] = gx_mul(uq, q.y0) ^ gx_mul(q.ones, sum_q) ^ gx_mul(q.edge, out_q[0])
    return STOP_NONE


def square_identity_sums(vectors, Py_ssize_t n, points, cancel=None):
    """Section 15's sums for the all-lit n x n board at each point: a row's residue, and <v, u> for others.

    Args:
        vectors: packed rows, uint64 C-contiguous ``(nvec, (n + 63) // 64)``, bits past n zero;
            row 0 is the first row checked, the others (quiet first rows) get <v, u> only.
        n: the board's side (positive).
        points: uint64 C-contiguous 1-D array of field elements, none 0 or 1.
        cancel: None, or the cancel flag array (lightsout/_kernels/cancel.pxd).

    Returns:
        uint64 array ``(npoints, nvec)``: column 0 the row's y_n (zero when its solution has the
        row as first and last columns), column j its <v_j, u>; None if cancelled.

    Example:
        >>> import numpy as np
        >>> sums = square_identity_sums(np.array([[5], [7]], dtype=np.uint64), 3, np.array([2, 3], dtype=np.uint64))
        >>> sums.shape, sums[:, 0].tolist()          # the first row 101 clears the 3 x 3 board
        ((2, 2), [0, 0])
    """
    if not isinstance(vectors, np.ndarray) or vectors.dtype != np.uint64 or not isinstance(points, np.ndarray) \
            or points.dtype != np.uint64:
        raise InvalidTypeError("vectors and points must be numpy uint64 arrays")
    if n < 1:
        raise InvalidBoardError(f"n must be positive, got {n}")
    cdef Py_ssize_t nwords = (n + 63) // 64
    if vectors.ndim != 2 or vectors.shape[1] != nwords or vectors.shape[0] < 1 or not vectors.flags.c_contiguous:
        raise InvalidBoardError(f"vectors must be C-contiguous rows of {nwords} words for n = {n}, "
                                f"got shape {vectors.shape}")
    if n % 64 and bool((vectors[:, -1] >> np.uint64(n % 64)).any()):
        raise InvalidBoardError(f"a row has bits set past its {n} cells")
    if points.ndim != 1 or not points.flags.c_contiguous or points.shape[0] < 1:
        raise InvalidBoardError("points must be a nonempty C-contiguous 1-D array")
    if bool(((points == 0) | (points == 1)).any()):
        raise InvalidBoardError("points must not be 0 or 1 (the identity divides by a and a + 1)")
    cdef const uint64_t[:, ::1] words = vectors
    cdef const uint64_t[::1] at = points
    cdef Py_ssize_t npoints = at.shape[0], nvec = words.shape[0], k
    out = np.zeros((npoints, nvec), dtype=np.uint64)
    spare_array = np.zeros(nvec, dtype=np.uint64)
    cdef uint64_t[:, ::1] res = out
    cdef uint64_t[::1] spare = spare_array
    cdef Poll poll = make_poll(cancel, ROWS_PER_POLL)
    cdef gx_point* pts = <gx_point*>malloc(2 * sizeof(gx_point))
    cdef int status = STOP_NONE
    if pts == NULL:
        raise MemoryError("square_identity_sums: no memory for two points' tables (32 KiB)")
    try:
        with nogil:
            k = 0
            while k < npoints and status == STOP_NONE:
                status = point_init(&pts[0], &words[0, 0], n, at[k], &poll)
                if status == STOP_NONE:
                    status = point_init(&pts[1], &words[0, 0], n, at[k + 1] if k + 1 < npoints else at[k], &poll)
                if status != STOP_NONE:
                    break
                status = two_point_loop(&words[0, 0], nvec, nwords, n, &pts[0], &pts[1], &res[k, 0],
                                        &res[k + 1, 0] if k + 1 < npoints else &spare[0], &poll)
                k += 2
    finally:
        free(pts)
    raise_if_interrupted(status)
    if status != STOP_NONE:
        return None
    return out


def square_residues(row, Py_ssize_t n, points, cancel=None):
    """The residue y_n of the all-lit n x n identity (section 15) for one packed row at each point.

    Returns:
        uint64 array, one y_n per point (all zero when the row's solution has the row as its
        first and last columns); None if cancelled.

    Example:
        >>> import numpy as np
        >>> bool(square_residues(np.array([7], dtype=np.uint64), 3, np.array([2, 3], dtype=np.uint64)).all())
        True
    """
    if not isinstance(row, np.ndarray) or row.ndim != 1:
        raise InvalidTypeError("row must be a 1-D numpy uint64 array")
    sums = square_identity_sums(row.reshape(1, -1), n, points, cancel)
    return None if sums is None else np.ascontiguousarray(sums[:, 0])


def field_mul(uint64_t a, uint64_t b):
    """a * b in GF(2^64) = GF(2)[u]/(u^64 + u^4 + u^3 + u + 1) (this build's product).

    Example:
        >>> field_mul(2, 2**63) == 0b11011, field_mul(3, 3)      # u * u^63 = u^64; (u + 1)^2 = u^2 + 1
        (True, 5)
    """
    return gx_mul(a, b)


def field_inv(uint64_t a):
    """1 / a in GF(2^64) (a != 0).

    Example:
        >>> field_mul(field_inv(12345), 12345)
        1
    """
    if a == 0:
        raise InvalidBoardError("0 has no inverse")
    return gx_inv(a)
