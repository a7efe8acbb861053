# Greatest common divisors in GF(2)[t] of gf2poly.pyx (included there): Euclid's algorithm
# 64 coefficients at a time (Lehmer's steps), the half-gcd recursion above _hgcd_words, and
# the driver that alternates them, with the Python glue of progress and Ctrl-C.

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
    Poll* poll               # the caller's (cancel.pxd), or NULL: no looks
    void* progress           # the caller's progress callback (a Python callable), or NULL


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


cdef inline int pl_copy(Pl* dst, const uint64_t* src, Py_ssize_t d, void* ps) noexcept nogil:
    """dst = a fresh copy of the d + 1 bits at src; 0, -1 (memory) or -2 (interrupted: a whole
    operand at 10^10 bits is 1.25 GB of fresh pages, copied in pieces with looks at ps)."""
    if pl_new(dst, words_for_bits(d + 1)) < 0:
        return -1
    dst.d = d
    return _row_op_looking(dst.w, src, words_for_bits(d + 1), ROW_COPY, ps)


cdef inline int pl_shift_down(Pl* dst, const Pl* src, Py_ssize_t k, Poll* poll) noexcept nogil:
    """dst = src div t^k (k >= 0); 0, -1 (memory) or -2 (stopped: the top node's halves are
    gigabytes at 10^10 bits, gathered in pieces with looks at `poll`)."""
    cdef Py_ssize_t nd = words_for_bits(src.d - k + 1) if src.d >= k else 0
    if pl_new(dst, nd) < 0:
        return -1
    cdef ShiftJob job = ShiftJob(out=dst.w, nout=nd, a=src.w, na=pl_nw(src), places=k)
    dst.d = src.d - k if src.d >= k else -1
    return -2 if in_pieces_looking(shift_down_piece, &job, nd, poll) != STOP_NONE else 0


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


cdef extern from "Python.h":
    # The raw C call: NULL with the callable's exception left set, as look() leaves a handler's.
    PyObject* _lo_call_object "PyObject_CallObject"(PyObject* callable, PyObject* args) noexcept


cdef int _report_progress(void* progress, Py_ssize_t done, Py_ssize_t total) noexcept with gil:
    """progress("gcd", done, total) from inside the nogil recursion: -1 when it raised (its
    exception left set, for _raise_status), else 0."""
    args = ("gcd", max(0, min(total, done)), total)
    cdef PyObject* result = _lo_call_object(<PyObject*>progress, <PyObject*>args)
    if result == NULL:
        return -1
    Py_XDECREF(result)
    return 0


cdef inline int ctx_poll(HCtx* ctx) noexcept nogil:
    """A look for Ctrl-C and a progress report at a node of the recursion: -2 to stop, else 0."""
    if ctx.poll == NULL:
        return 0
    if look(ctx.poll) != STOP_NONE:
        return -2
    if ctx.progress != NULL and _report_progress(ctx.progress, ctx.total - 2 * (ctx.top - ctx.qsum), ctx.total) < 0:
        return -2
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
    if (pl_copy(c, L.A, L.da, NULL) < 0 or pl_copy(d, L.B, L.db, NULL) < 0
            or pl_copy(&M.e[0], L.c[0], L.cd[0], NULL) < 0 or pl_copy(&M.e[1], L.c[4], L.cd[2], NULL) < 0
            or pl_copy(&M.e[2], L.c[1], L.cd[1], NULL) < 0 or pl_copy(&M.e[3], L.c[5], L.cd[3], NULL) < 0):
        st = -1     # a Lehmer leaf's rows are below gcd_words: no looks, so only memory fails
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
    st = _row_op_looking(lo, x.w, min(nlo, pl_nw(x)), ROW_COPY, ps)
    if st == 0:
        st = _row_op_looking(lo + nlo, y.w, min(nlo, pl_nw(y)), ROW_COPY, ps)
    if st < 0:
        free(lo)
        return st
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
    st = _row_op_looking(out.w, x.w, pl_nw(x), ROW_COPY, ps)
    if st == 0:
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
        if (pl_copy(&M.e[0], &one, 0, NULL) < 0 or pl_copy(&M.e[3], &one, 0, NULL) < 0
                or pl_new(&M.e[1], 1) < 0 or pl_new(&M.e[2], 1) < 0):
            st = -1
        else:
            st = pl_copy(c, a.w, a.d, ctx.poll)
            if st == 0:
                st = pl_copy(d, b.w, b.d, ctx.poll)
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
    st = pl_shift_down(&a0, a, m, ctx.poll)
    if st == 0:
        st = pl_shift_down(&b0, b, m, ctx.poll)
    if st == 0:
        st = hgcd(&a0, &b0, &R, &c0, &d0, ctx, WANT_MATRIX)
    pl_free(&a0)
    pl_free(&b0)
    if st == 0:
        st = mat_lift(&R, &c0, &d0, a, b, m, &a1, &b1, ctx.poll)
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
            st = divmod_any(a1.w, a1.n, b1.w, pl_nw(&b1), q.w, q.n, ctx.newton_words, ctx.poll)
        if st == 0:
            q.d = dq
            pl_fix(&a1)
            ctx.qsum += dq
    # Second half, on (b1, a1 mod b1) cut at k = 2m - deg b1.
    if st == 0:
        k = 2 * m - b1.d
        st = pl_shift_down(&c0, &b1, k, ctx.poll)
        if st == 0:
            st = pl_shift_down(&d0, &a1, k, ctx.poll)
    if st == 0:
        st = hgcd(&c0, &d0, &S, &u0, &u1, ctx, WANT_MATRIX)
    pl_free(&c0)
    pl_free(&d0)
    if st == 0:
        st = lift_and_combine(&S, &u0, &u1, &b1, &a1, k, c, d, M, &R, &q, want, ctx.poll)
    pl_free(&u0)
    pl_free(&u1)
    pl_free(&a1)
    pl_free(&b1)
    pl_free(&q)
    mat_free(&R)
    mat_free(&S)
    return st


cdef int combine_steps(PMat* M, const PMat* S, const PMat* R, const Pl* q, int want, void* ps) noexcept nogil:
    """M = S Q R with Q = [[0, 1], [1, q]] (the part of it that want asks for; nothing for WANT_NONE).

    Q R = [[R10, R11], [R00 + q R10, R01 + q R11]].  M's entries are allocated here; the caller
    frees M on error.
    """
    cdef Pl u0, u1
    cdef int st = 0
    if want == WANT_NONE:
        return 0
    pl_null(&u0)
    pl_null(&u1)
    st = pl_axpy(&u0, &R.e[0], q, &R.e[2], ps)
    if st == 0 and want == WANT_MATRIX:
        st = pl_axpy(&u1, &R.e[1], q, &R.e[3], ps)
    if st == 0:
        st = mat_times_mat(M, S, &R.e[2], &R.e[3], &u0, &u1, 2 if want == WANT_MATRIX else 1, ps)
    pl_free(&u0)
    pl_free(&u1)
    return st


cdef struct LiftJob:
    # mat_lift's arguments (the job of lift_and_combine's calling thread)
    const PMat* R
    const Pl* c0
    const Pl* d0
    const Pl* x
    const Pl* y
    Py_ssize_t m
    Pl* X
    Pl* Y
    void* ps


cdef struct CombineJob:
    # combine_steps' arguments (the job of lift_and_combine's second thread)
    PMat* M
    const PMat* S
    const PMat* R
    const Pl* q
    int want
    ThreadSettings settings


cdef int lift_here(void* arg) noexcept nogil:
    cdef LiftJob* job = <LiftJob*>arg
    return mat_lift(job.R, job.c0, job.d0, job.x, job.y, job.m, job.X, job.Y, job.ps)


cdef int combine_there(void* arg) noexcept nogil:
    cdef CombineJob* job = <CombineJob*>arg
    adopt_settings(&job.settings)
    return combine_steps(job.M, job.S, job.R, job.q, job.want, NULL)


cdef int lift_and_combine(const PMat* S, const Pl* u0, const Pl* u1, const Pl* x, const Pl* y, Py_ssize_t k,
                          Pl* c, Pl* d, PMat* M, const PMat* R, const Pl* q, int want, void* ps) noexcept nogil:
    """hgcd_split's last two steps, which do not depend on each other: (c, d) = mat_lift of the
    second half's remainders (u0, u1) and (x, y) through S, and M = S Q R (combine_steps).  They run
    at once, the lift on this thread (which alone polls ps), when this thread's products have two
    threads or more and S's entries have from _pair_words to _thread_words words; else one after
    the other."""
    cdef LiftJob lift
    cdef CombineJob combine
    cdef Py_ssize_t wide = 0
    cdef int i, st, old
    for i in range(4):
        wide = max(wide, pl_nw(&S.e[i]))
    if want == WANT_NONE or not (_pair_words <= wide < _thread_words) or fft_get_threads() < 2:
        st = mat_lift(S, u0, u1, x, y, k, c, d, ps)
        return st if st != 0 else combine_steps(M, S, R, q, want, ps)
    lift.R, lift.c0, lift.d0, lift.x, lift.y, lift.m, lift.X, lift.Y, lift.ps = S, u0, u1, x, y, k, c, d, ps
    combine.M, combine.S, combine.R, combine.q, combine.want = M, S, R, q, want
    combine.settings = these_settings()
    old = fft_set_threads(1)
    st = fft_run_pair(lift_here, &lift, combine_there, &combine)
    fft_set_threads(old)
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
        if track and SB.d >= 0 and pl_nw(SA) >= TAIL_RATIO * pl_nw(A):
            return euclid_tail(A, B, SA, SB, gcd_bits, ctx)
        if A.d < gcd_bits:
            cols[0] = SA[0]
            cols[1] = SB[0]
            if lehm_init(&L, A, B, 1 if track else 0, cols) < 0:
                return -1
            lehm_run(&L, 0)
            ctx.qsum += A.d - L.da
            pl_free(A)
            pl_free(B)
            st = pl_copy(A, L.A, L.da, NULL)
            if st == 0:
                st = pl_new(B, 1)
            if st == 0 and track:
                pl_free(SA)
                pl_free(SB)
                st = pl_copy(SA, L.c[0], L.cd[0], ctx.poll)
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
            st = mat_times_vec(&T0, &T1, &M, SA, SB, ctx.poll)
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
        st = divmod_any(A.w, A.n, B.w, pl_nw(B), q.w, q.n, ctx.newton_words, ctx.poll)
        if st < 0:
            pl_free(&q)
            return st
        q.d = dq
        pl_fix(A)
        ctx.qsum += dq
        if track:
            st = pl_axpy(&T0, SA, &q, SB, ctx.poll)
            pl_free(SA)
            SA[0] = T0
            pl_null(&T0)
        pl_free(&q)
        if st < 0:
            return st


cdef int euclid_tail(Pl* A, Pl* B, Pl* SA, Pl* SB, Py_ssize_t gcd_bits, HCtx* ctx) noexcept nogil:
    """fast_euclid's end once the cofactors outgrow the remainders (deg A >= deg B >= 0): Euclid
    on (A, B) with cofactors of its own, x (g = x A + y B, y = (g + x A) / B exactly), and then
    SA = x SA + y SB in one product, where every step left would have multiplied the long
    cofactors by a short matrix (the Lehmer windows at the very end one word at a time).  The
    same result: (x, y) is the first row of the product of the steps left.  Replaces A with the
    gcd, SA with its cofactor, B and SB with zero."""
    cdef Pl G, Z, X, Y, P, Q, S
    cdef const uint64_t* terms[2]
    cdef size_t nterms[2]
    cdef const uint64_t* cofs[2]
    cdef size_t ncofs[2]
    cdef uint64_t* outs[1]
    cdef size_t nouts[1]
    cdef uint64_t one = 1
    cdef int st = 0
    pl_null(&G)
    pl_null(&Z)
    pl_null(&X)
    pl_null(&Y)
    pl_null(&P)
    pl_null(&Q)
    pl_null(&S)
    st = pl_copy(&G, A.w, A.d, ctx.poll)
    if st == 0:
        st = pl_copy(&Z, B.w, B.d, ctx.poll)
    if st == 0 and (pl_copy(&X, &one, 0, NULL) < 0 or pl_new(&Y, 1) < 0):
        st = -1
    if st == 0:
        st = fast_euclid(&G, &Z, &X, &Y, True, gcd_bits, ctx)
    # y = (g + x A) / B: P = x A + g, divided by B with no remainder.
    if st == 0 and pl_new(&P, max(pl_nw(&X) + pl_nw(A), pl_nw(&G))) < 0:
        st = -1
    if st == 0:
        st = fmul(P.w, X.w, pl_nw(&X), A.w, pl_nw(A), ctx.poll)
    if st == 0:
        xor_into(P.w, G.w, pl_nw(&G))
        pl_fix(&P)
        if pl_new(&Q, words_for_bits(max(P.d - B.d, 0) + 1)) < 0:
            st = -1
    if st == 0 and P.d >= B.d:
        st = divmod_any(P.w, P.n, B.w, pl_nw(B), Q.w, Q.n, ctx.newton_words, ctx.poll)
    if st == 0:
        pl_fix(&P)
        pl_fix(&Q)
        if P.d >= 0:
            st = -3
    # SA = x SA + y SB
    if st == 0:
        terms[0], nterms[0], terms[1], nterms[1] = X.w, <size_t>pl_nw(&X), Q.w, <size_t>pl_nw(&Q)
        cofs[0], ncofs[0], cofs[1], ncofs[1] = SA.w, <size_t>pl_nw(SA), SB.w, <size_t>pl_nw(SB)
        nouts[0] = max(nterms[0] + ncofs[0], nterms[1] + ncofs[1], <size_t>1)
        if pl_new(&S, <Py_ssize_t>nouts[0]) < 0:
            st = -1
    if st == 0:
        outs[0] = S.w
        st = fmul_matrix(outs, nouts, terms, nterms, cofs, ncofs, 1, 1, ctx.poll)
    if st == 0:
        pl_fix(&S)
        pl_free(A)
        pl_free(SA)
        pl_free(B)
        pl_free(SB)
        A[0] = G
        SA[0] = S
        pl_null(&G)
        pl_null(&S)
        if pl_new(B, 1) < 0 or pl_new(SB, 1) < 0:
            st = -1
    pl_free(&G)
    pl_free(&Z)
    pl_free(&X)
    pl_free(&Y)
    pl_free(&P)
    pl_free(&Q)
    pl_free(&S)
    return st


cdef void _ctx_init(HCtx* ctx, Py_ssize_t da, Py_ssize_t db, Poll* poll, object progress):
    """The recursion's context; `progress` (None or a callable) is kept alive by the caller."""
    ctx.base_bits = 64 * _hgcd_words
    ctx.newton_words = _newton_words
    ctx.qsum = 0
    ctx.top = max(da, db, 0)
    ctx.total = max(da, 0) + max(db, 0)
    ctx.poll = poll
    ctx.progress = <void*>progress if progress is not None else NULL


cdef int _raise_status(int st, str name) except -1:
    """Back with the GIL after a product, division or gcd: raise what its status says.  -2 is a
    stop by the caller's Poll or the progress callback, whose exception is left set."""
    if st == -2:
        if PyErr_Occurred() != NULL:
            return -1
        raise InternalError(f"{name} stopped with no exception set")
    if st == -1:
        raise BoardTooLargeError(f"{name}: out of memory")
    if st < 0:
        raise InternalError(f"{name}: internal error (status {st})")
    return 0


cdef object _fast_gcd(object a, object b, bint track, object progress):
    """Half-gcd Euclid on checked arguments: (g, s or None)."""
    cdef const uint64_t[::1] av = a
    cdef const uint64_t[::1] bv = b
    cdef Pl A, B, SA, SB
    cdef HCtx ctx
    cdef Py_ssize_t da = _deg(av), db = _deg(bv), gcd_bits = 64 * _gcd_words
    cdef uint64_t one = 1
    cdef int st = 0
    cdef Poll poll = make_poll(None, 1 << 20)
    _ctx_init(&ctx, da, db, &poll, progress)
    pl_null(&A)
    pl_null(&B)
    pl_null(&SA)
    pl_null(&SB)
    try:
        if pl_copy(&SA, &one, 0, NULL) < 0 or pl_new(&SB, 1) < 0:
            st = -1
        if st == 0:
            with nogil:
                st = pl_copy(&A, &av[0], da, ctx.poll)
                if st == 0:
                    st = pl_copy(&B, &bv[0], db, ctx.poll)
                if st == 0:
                    st = fast_euclid(&A, &B, &SA, &SB, track, gcd_bits, &ctx)
        _raise_status(st, "poly_gcd")
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
    cdef Poll poll = make_poll(None, 1 << 20)
    _ctx_init(&ctx, da, db, &poll, None)
    pl_null(&A)
    pl_null(&B)
    pl_null(&C)
    pl_null(&D)
    mat_null(&M)
    try:
        with nogil:
            st = pl_copy(&A, &av[0], da, ctx.poll)
            if st == 0:
                st = pl_copy(&B, &bv[0], db, ctx.poll)
            if st == 0:
                st = hgcd(&A, &B, &M, &C, &D, &ctx, WANT_MATRIX)
        _raise_status(st, "poly_half_gcd")
        return tuple([_copy_trimmed(M.e[i].w, M.e[i].n) for i in range(4)]
                     + [_copy_trimmed(C.w, C.n), _copy_trimmed(D.w, D.n)])
    finally:
        pl_free(&A)
        pl_free(&B)
        pl_free(&C)
        pl_free(&D)
        mat_free(&M)
