# Products in GF(2)[t] of gf2poly.pyx (included there): the portable and PCLMULQDQ
# schoolbook leaves, Karatsuba, Toom-3 above _toom_words, and the additive FFT of gf2fft.h
# above _fft_words (fmul; fmul_matrix, the half-gcd's 2x2 matrix products, from a quarter of it), with the
# signal check that long products take (size_poll).

# Products of at least POLL_WORDS words a side (a few milliseconds each) look for Ctrl-C through
# the caller's Poll (cancel.pxd), passed down as `ps`; NULL on the second thread of a pair.
cdef Py_ssize_t POLL_WORDS = 1 << 13
# A long operand multiplied by a short one (below the FFT) is taken this many words at a time,
# with a signal check between (a few milliseconds each at most).
cdef Py_ssize_t SLICE_WORDS = 1 << 16


cdef inline int size_poll(void* ps, Py_ssize_t n) noexcept nogil:
    """-2 when n >= POLL_WORDS and the caller's Poll says stop (look; a handler's exception left
    set) or, on the second thread of a pair (fft_run_pair, ps NULL), the first job has failed;
    else 0."""
    if n < POLL_WORDS:
        return 0
    if ps == NULL:
        return -2 if fft_pair_poll(NULL) else 0
    return -2 if look(<Poll*>ps) != STOP_NONE else 0


# --- Additive FFT products (gf2fft.h) ---------------------------------------

cdef extern from "lightsout/_kernels/gf2fft.h":
    ctypedef int (*fft_poll_fn)(void*) noexcept nogil
    int fft_init() noexcept nogil
    int fft_set_wide(int on) noexcept nogil
    size_t fft_set_pass_slice(size_t words) noexcept nogil
    int fft_matmul2(uint64_t* const* out, const size_t* nout, const uint64_t* const* s, const size_t* ns,
                    const uint64_t* const* t, const size_t* nt, int rows, int cols,
                    fft_poll_fn poll, void* ps, int nthreads) noexcept nogil
    int fft_wide_available
    ctypedef struct fft_matmul_shape:
        int K
        size_t transforms
    fft_matmul_shape fft_matmul_plan(const size_t* ns, const size_t* nt, int rows, int cols) noexcept nogil
    int fft_mul_words(uint64_t* out, const uint64_t* a, size_t na, const uint64_t* b, size_t nb,
                      fft_poll_fn poll, void* ps, int nthreads) noexcept nogil
    int fft_set_threads(int nthreads) noexcept nogil
    int fft_get_threads() noexcept nogil
    size_t fft_arena_release() noexcept nogil
    size_t fft_arena_set_limit(size_t limit) noexcept nogil
    int fft_arena_set_keep(int keep) noexcept nogil
    size_t fft_arena_get_limit() noexcept nogil
    int fft_log_size(size_t na, size_t nb) noexcept nogil
    size_t fft_piece_words(size_t na, int K) noexcept nogil
    int fft_mul_pieces(uint64_t* out, const uint64_t* a, size_t na, const uint64_t* b, size_t nb, int K,
                       fft_poll_fn poll, void* ps, int nthreads) noexcept nogil
    void fft_hold_begin() noexcept nogil
    void fft_hold_end() noexcept nogil

cdef extern from "lightsout/_kernels/fftcrew.h":
    ctypedef int (*fft_pair_fn)(void* arg) noexcept nogil
    int fft_run_pair(fft_pair_fn job0, void* arg0, fft_pair_fn job1, void* arg1) noexcept nogil
    int fft_pair_poll(void* unused) noexcept nogil
    ctypedef struct fft_partner:
        pass
    fft_partner* fft_partner_start() noexcept nogil
    void fft_partner_stop(fft_partner* p) noexcept nogil
    fft_partner* fft_partner_use(fft_partner* p) noexcept nogil


cdef inline fft_poll_fn product_poll(void* ps) noexcept nogil:
    """The poll of an FFT product: look_callback with the caller's Poll, else fft_pair_poll (which
    says stop only on the second thread of a pair whose first job failed)."""
    return <fft_poll_fn>look_callback if ps != NULL else <fft_poll_fn>fft_pair_poll


# The most bytes one product's transforms may hold on this thread (0: no limit; fft_transform_limit).
cdef extern from *:
    """
    static FFT_TLS size_t lo_fft_transform_limit = 0;
    """
    size_t lo_fft_transform_limit

if fft_init() != 0:
    raise ImportError("the polynomial kernels of this lightsout build are broken: GF(2^64) has no Cantor "
                      "basis of 32 elements (reinstall lightsout-gf2, or build it with another compiler)")



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


cdef int product_log_size(size_t na, size_t nb) noexcept nogil:
    """The transform size 2^K for a b (na <= nb) at the least modelled cost: b in pieces of
    fft_piece_words(na, K) words, a transformed once, costs (1 + 2 pieces) transforms of about
    2^K K work each; the largest K, fft_log_size(na, nb), is one product (three transforms).  A
    smaller K wins when the one product's transforms would be mostly padding, for example
    operands a little past a power of two (0.6 x 2^20 words each: one product of 2^22 elements,
    or two pieces of 2^21) or a division's quotient times its divisor (nb = 2 na), and it holds
    half the memory."""
    cdef int top = fft_log_size(na, nb), K = top, k
    cdef size_t piece, pieces
    cdef double cost, best = 3.0 * <double>(<size_t>1 << top) * top
    for k in range(top - 1, 0, -1):
        piece = fft_piece_words(na, k)
        if piece == 0:
            break
        pieces = (nb + piece - 1) // piece
        cost = <double>(1 + 2 * pieces) * <double>(<size_t>1 << k) * k
        if cost < best:
            best = cost
            K = k
    return K


cdef int fft_mul_balanced(uint64_t* out, const uint64_t* a, Py_ssize_t na, const uint64_t* b,
                          Py_ssize_t nb, int K, void* ps) noexcept nogil:
    """out[0 : na+nb] ^= a*b by the additive FFT with transforms of 2^K elements, K =
    product_log_size(na, nb) (its caller's): one product, or b in pieces with a's transform made
    once (gf2fft.h, fft_mul_pieces); on the calling thread's threads (fft_set_threads, set by the
    def functions' threads=) when na >= _thread_words."""
    cdef int nthreads = fft_get_threads() if na >= _thread_words else 1
    cdef fft_poll_fn poll = product_poll(ps)
    if K < fft_log_size(na, nb):
        return fft_mul_pieces(out, a, na, b, nb, K, poll, ps, nthreads)
    return fft_mul_words(out, a, na, b, nb, poll, ps, nthreads)


cdef inline bint over_transform_limit(size_t transforms, int K) noexcept nogil:
    """Whether ``transforms`` transforms of 2^K elements pass this thread's fft_transform_limit."""
    return lo_fft_transform_limit != 0 and transforms * (<size_t>8 << K) > lo_fft_transform_limit


cdef enum:
    ROW_XOR, ROW_COPY, ROW_ZERO


cdef int _row_op_looking(uint64_t* dst, const uint64_t* src, Py_ssize_t n, int op, void* ps) noexcept nogil:
    """dst ^= src, dst = src or dst = 0 over n words, 2^20 words at a time with a look for Ctrl-C
    between them (size_poll): -2 when it says stop, else 0."""
    cdef Py_ssize_t first = 0, piece
    while first < n:
        piece = min(n - first, <Py_ssize_t>(1 << 20))
        if op == ROW_XOR:
            xor_into(dst + first, src + first, piece)
        elif op == ROW_COPY:
            copy_row(dst + first, src + first, piece)
        else:
            zero_row(dst + first, piece)
        first += piece
        if first < n and size_poll(ps, piece) < 0:
            return -2
    return 0


cdef int fmul_within_limit(uint64_t* out, const uint64_t* a, Py_ssize_t na, const uint64_t* b,
                           Py_ssize_t nb, void* ps) noexcept nogil:
    """out[0 : na+nb] ^= a*b (na <= nb, na >= _fft_words) with no product's two transforms above
    this thread's fft_transform_limit: a longer b is cut into pieces of na words, and a product
    still over the limit is one Karatsuba step whose three products have half the transforms
    (about 1.45x the time, for 2 / 3 of the memory with its three scratch halves)."""
    cdef Py_ssize_t h, off, step, nlo, nhi
    cdef uint64_t* mem
    cdef uint64_t* sa
    cdef uint64_t* sb
    cdef uint64_t* part
    cdef int st, K = product_log_size(na, nb)
    if not over_transform_limit(2, K):
        return fft_mul_balanced(out, a, na, b, nb, K, ps)
    if nb > 2 * na:
        off = 0
        while off < nb:
            step = na if nb - off >= 2 * na else nb - off
            st = fmul(out + off, a, na, b + off, step, ps)
            if st != 0:
                return st
            off += step
        return 0
    h = (nb + 1) // 2
    if na <= h:     # a has no upper half: two products of b's halves
        st = fmul(out, a, na, b, h, ps)
        return st if st != 0 else fmul(out + h, a, na, b + h, nb - h, ps)
    nlo, nhi = na - h, nb - h        # a = a0 + a1 t^h, b = b0 + b1 t^h (h >= nhi >= nlo >= 1)
    mem = <uint64_t*>calloc(4 * h, sizeof(uint64_t))
    if mem == NULL:
        return -1
    sa, sb, part = mem, mem + h, mem + 2 * h
    # a b = P0 + (P0 + P1 + P2) t^h + P2 t^(2h), P0 = a0 b0, P2 = a1 b1, P1 = (a0 + a1)(b0 + b1);
    # every pass over the halves looks for Ctrl-C as it goes (at 10^10 bits each is a gigabyte)
    st = fmul(part, a, h, b, h, ps)
    if st == 0:
        st = _row_op_looking(out, part, 2 * h, ROW_XOR, ps)
    if st == 0:
        st = _row_op_looking(out + h, part, 2 * h, ROW_XOR, ps)
    if st == 0:
        st = _row_op_looking(part, NULL, 2 * h, ROW_ZERO, ps)
    if st == 0:
        st = fmul(part, a + h, nlo, b + h, nhi, ps)
    if st == 0:
        st = _row_op_looking(out + 2 * h, part, nlo + nhi, ROW_XOR, ps)
    if st == 0:
        st = _row_op_looking(out + h, part, nlo + nhi, ROW_XOR, ps)
    if st == 0:
        st = _row_op_looking(part, NULL, 2 * h, ROW_ZERO, ps)
    if st == 0:
        st = _row_op_looking(sa, a, h, ROW_COPY, ps)
    if st == 0:
        st = _row_op_looking(sa, a + h, nlo, ROW_XOR, ps)
    if st == 0:
        st = _row_op_looking(sb, b, h, ROW_COPY, ps)
    if st == 0:
        st = _row_op_looking(sb, b + h, nhi, ROW_XOR, ps)
    if st == 0:
        st = fmul(part, sa, h, sb, h, ps)
    if st == 0:
        st = _row_op_looking(out + h, part, 2 * h, ROW_XOR, ps)
    free(mem)
    return st


cdef int fmul(uint64_t* out, const uint64_t* a, Py_ssize_t na, const uint64_t* b,
              Py_ssize_t nb, void* ps) noexcept nogil:
    """mul_words with Toom-3 above _toom_words words: out[0 : na+nb] ^= a*b; -1 if out of memory,
    -2 if the caller's Poll says stop (looked at every POLL_WORDS-word block when ps is not NULL)."""
    cdef const uint64_t* tp
    cdef Py_ssize_t tn, off, since_poll = 0
    cdef int st
    if na > nb:
        tp = a; a = b; b = tp
        tn = na; na = nb; nb = tn
    if na == 0:
        return 0
    if na < KARATSUBA_WORDS:     # b a slice at a time: the slice of out stays in the cache
        off = 0
        while off < nb:
            tn = min(nb - off, SLICE_WORDS)
            lo_mul_school2(out + off, b + off, tn, a, na)
            off += tn
            if off < nb and size_poll(ps, POLL_WORDS) < 0:
                return -2
        return 0
    if na >= _fft_words:
        return fmul_within_limit(out, a, na, b, nb, ps)
    off = 0
    while off + na <= nb:
        st = mul_toom3(out + off, a, b + off, na, ps)
        if st < 0:
            return st
        off += na
        since_poll += na
        if since_poll >= SLICE_WORDS:      # a long b behind a short a: many products, each too small to poll
            since_poll = 0
            if size_poll(ps, POLL_WORDS) < 0:
                return -2
    if off < nb:
        return fmul(out + off, a, na, b + off, nb - off, ps)
    return 0


cdef inline Py_ssize_t matrix_fft_words() noexcept nogil:
    """The smallest operand of a 2x2 matrix product that goes through the FFT: a quarter of
    _fft_words, as each operand's transform serves two products there (nullity(10**8) on one
    thread: 5 % less CPU time than from _fft_words itself, 28 Nov 2026)."""
    return (_fft_words + 3) // 4


cdef int fmul_matrix(uint64_t** out, size_t* nout, const uint64_t** s, size_t* ns, const uint64_t** t,
                     size_t* nt, int rows, int cols, void* ps) noexcept nogil:
    """out[r cols + c] ^= s[2 r] t[c] + s[2 r + 1] t[cols + c] (rows, cols <= 2; sizes in words, 0 = zero).

    On two threads at once, one row each, when the calling thread's products have two threads
    or more and the smallest operand has from _pair_words to _thread_words words.  Else when
    every nonzero operand has at least matrix_fft_words() words, each operand is
    transformed once (gf2fft.h, fft_matmul2): a 2x2 by 2x2 product takes 8
    transforms and 4 inverses where 8 products take 16 and 8, on the calling thread's threads
    (fft_set_threads) when the smallest operand has at least _thread_words words; else fmul per term.
    Each out[i] has room for nout[i] >= ns + nt words of each of its terms.
    """
    cdef size_t small = 0
    cdef bint any_term = False
    cdef int r, c, k, st
    cdef fft_poll_fn poll = NULL
    cdef fft_matmul_shape plan
    for r in range(rows):
        for c in range(cols):
            for k in range(2):
                if ns[2 * r + k] and nt[k * cols + c]:
                    small = min(ns[2 * r + k], nt[k * cols + c], small) if any_term else min(ns[2 * r + k], nt[k * cols + c])
                    any_term = True
    if not any_term:
        return 0
    if rows == 2 and <size_t>_pair_words <= small < <size_t>_thread_words and fft_get_threads() > 1:
        return fmul_matrix_rows_paired(out, nout, s, ns, t, nt, cols, ps)
    plan = fft_matmul_plan(ns, nt, rows, cols)
    if small >= <size_t>matrix_fft_words() and not over_transform_limit(plan.transforms, plan.K):
        poll = product_poll(ps)
        return fft_matmul2(out, nout, s, ns, t, nt, rows, cols, poll, ps,
                           fft_get_threads() if small >= <size_t>_thread_words else 1)
    for r in range(rows):
        for c in range(cols):
            for k in range(2):
                if ns[2 * r + k] and nt[k * cols + c]:
                    st = fmul(out[r * cols + c], s[2 * r + k], ns[2 * r + k], t[k * cols + c], nt[k * cols + c], ps)
                    if st < 0:
                        return st
    return 0


# --- Two independent jobs at once (fft_run_pair) ----------------------------

cdef struct ThreadSettings:
    # What a thread's products read from thread-local settings, carried to the pair's second thread.
    size_t transform_limit
    int keep


cdef inline ThreadSettings these_settings() noexcept nogil:
    """This thread's product settings (fft_transform_limit, fft_scratch_keep)."""
    cdef ThreadSettings here
    here.transform_limit = lo_fft_transform_limit
    here.keep = fft_arena_set_keep(1)
    fft_arena_set_keep(here.keep)
    return here


cdef inline void adopt_settings(const ThreadSettings* given) noexcept nogil:
    """Take the calling thread's settings on the pair's second thread (one product thread)."""
    global lo_fft_transform_limit
    lo_fft_transform_limit = given.transform_limit
    fft_arena_set_keep(given.keep)
    fft_set_threads(1)


cdef struct MatrixRows:
    # fmul_matrix's arguments for one row of a 2 x cols product (a job of fmul_matrix_rows_paired)
    uint64_t** out
    size_t* nout
    const uint64_t** s
    size_t* ns
    const uint64_t** t
    size_t* nt
    int cols
    void* ps
    ThreadSettings settings


cdef int matrix_row_here(void* arg) noexcept nogil:
    cdef MatrixRows* job = <MatrixRows*>arg
    return fmul_matrix(job.out, job.nout, job.s, job.ns, job.t, job.nt, 1, job.cols, job.ps)


cdef int matrix_row_there(void* arg) noexcept nogil:
    cdef MatrixRows* job = <MatrixRows*>arg
    adopt_settings(&job.settings)
    return fmul_matrix(job.out, job.nout, job.s, job.ns, job.t, job.nt, 1, job.cols, NULL)


cdef int fmul_matrix_rows_paired(uint64_t** out, size_t* nout, const uint64_t** s, size_t* ns,
                                 const uint64_t** t, size_t* nt, int cols, void* ps) noexcept nogil:
    """fmul_matrix's two rows at once: the first on this thread (which alone polls ps), the second
    on a thread of its own (fft_run_pair), each product on one thread."""
    cdef MatrixRows first, second
    cdef int old, st
    first.out, first.nout, first.s, first.ns = out, nout, s, ns
    first.t, first.nt, first.cols, first.ps = t, nt, cols, ps
    second = first
    second.out, second.nout, second.s, second.ns = out + cols, nout + cols, s + 2, ns + 2
    second.ps = NULL
    second.settings = these_settings()
    old = fft_set_threads(1)
    st = fft_run_pair(matrix_row_here, &first, matrix_row_there, &second)
    fft_set_threads(old)
    return st
